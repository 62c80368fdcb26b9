//! AnimationState tests.
