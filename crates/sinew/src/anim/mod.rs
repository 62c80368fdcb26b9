//! Animation: clips, curves, timelines, and the animation state (tracks and mixing).

/// A compiled animation clip.
#[derive(Debug, Clone, Default)]
pub struct Clip {
    /// Name.
    pub name: String,
    /// Duration in seconds (largest key time).
    pub duration: f32,
}
