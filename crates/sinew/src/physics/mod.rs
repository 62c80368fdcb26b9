//! Secondary motion: Spine 4.2 physics constraints.

pub mod spine;
