//! Small value types shared by the raw and built rig.

/// An RGBA colour, straight alpha, each channel 0..1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Color {
    /// Red.
    pub r: f32,
    /// Green.
    pub g: f32,
    /// Blue.
    pub b: f32,
    /// Alpha.
    pub a: f32,
}

impl Color {
    /// Opaque white.
    pub const WHITE: Color = Color {
        r: 1.0,
        g: 1.0,
        b: 1.0,
        a: 1.0,
    };
    /// Opaque black.
    pub const BLACK: Color = Color {
        r: 0.0,
        g: 0.0,
        b: 0.0,
        a: 1.0,
    };

    /// Builds a colour from its channels.
    pub const fn new(r: f32, g: f32, b: f32, a: f32) -> Self {
        Color { r, g, b, a }
    }

    /// Clamps every channel to 0..1.
    pub fn clamped(self) -> Self {
        Color {
            r: self.r.clamp(0.0, 1.0),
            g: self.g.clamp(0.0, 1.0),
            b: self.b.clamp(0.0, 1.0),
            a: self.a.clamp(0.0, 1.0),
        }
    }
}

impl Default for Color {
    fn default() -> Self {
        Color::WHITE
    }
}

/// How a bone inherits its parent's world transform (Spine's five modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Inherit {
    /// Full parent transform.
    #[default]
    Normal,
    /// Parent translation only.
    OnlyTranslation,
    /// Parent translation and scale/skew, not rotation or reflection.
    NoRotationOrReflection,
    /// Parent translation and rotation, not scale (reflection kept).
    NoScale,
    /// Parent translation and rotation, neither scale nor reflection.
    NoScaleOrReflection,
}

/// Slot blend modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BlendMode {
    /// Source over.
    #[default]
    Normal,
    /// Additive.
    Additive,
    /// Multiply.
    Multiply,
    /// Screen.
    Screen,
}

/// Path constraint position mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PositionMode {
    /// Rig units along the path.
    Fixed,
    /// Fraction of the path length.
    #[default]
    Percent,
}

/// Path constraint spacing mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SpacingMode {
    /// Bone length plus spacing.
    #[default]
    Length,
    /// Fixed distance.
    Fixed,
    /// Fraction of the path length.
    Percent,
    /// Proportional to bone lengths.
    Proportional,
}

/// Path constraint rotate mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RotateMode {
    /// Along the path tangent.
    #[default]
    Tangent,
    /// Toward the next bone's position.
    Chain,
    /// Chain, and scale the bone to reach the next position.
    ChainScale,
}

/// Physics mode for a world-transform update (Spine `Physics`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Physics {
    /// Physics constraints are not applied.
    None,
    /// Reset the physics state, then apply as `Update`.
    Reset,
    /// Step the simulation and apply it.
    #[default]
    Update,
    /// Apply the last simulated state without stepping.
    Pose,
}
