//! Small value types shared by the raw and built rig.
//!
//! Layer: data. Imports nothing.

/// An RGBA colour, straight alpha, each channel 0..1.
///
/// Owner: shared vocabulary of every stage.
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

    /// A tint as the renderers take it: alpha clamped to 0..1, colour channels to -2..3
    /// (a DragonBones colour transform drawn as light = multipliers + offsets and dark =
    /// offsets leaves 0..1, and its multipliers may overshoot 1 while easing; the shaded
    /// result is clamped instead). NaN becomes 0.
    ///
    /// ```
    /// use sinew::Color;
    /// let t = Color::new(1.6, -0.4, f32::NAN, 7.0).tint_range();
    /// assert_eq!((t.r, t.g, t.b, t.a), (1.6, -0.4, 0.0, 1.0));
    /// ```
    pub fn tint_range(self) -> Self {
        let c = |v: f32, lo: f32, hi: f32| if v.is_nan() { 0.0 } else { v.clamp(lo, hi) };
        Color {
            r: c(self.r, -2.0, 3.0),
            g: c(self.g, -2.0, 3.0),
            b: c(self.b, -2.0, 3.0),
            a: c(self.a, 0.0, 1.0),
        }
    }
}

impl Default for Color {
    fn default() -> Self {
        Color::WHITE
    }
}

/// Which runtime's IK an IK constraint follows.
///
/// Owner: shared vocabulary of the loaders (which set it) and the world stage's IK.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IkSolver {
    /// Spine's `IkConstraint` (local space of the parent's parent, mix on local rotations).
    #[default]
    Spine,
    /// Spine 4.3's `IkConstraint`: Spine's, with the thresholds at 1e-5 (4.2: 1e-4), the
    /// parent's shear kept by two-bone IK (4.2 resets it) and `scaleY: volume`.
    Spine43,
    /// DragonBones' `IKConstraint`: the triangle solved on world lengths and the weight
    /// applied to decomposed world rotations, skew and scale kept (see
    /// `constraint/ik_dragonbones.rs`).
    DragonBones,
}

/// How a bone inherits its parent's world transform (Spine's five modes).
///
/// Owner: shared vocabulary of every stage.
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
    /// DragonBones' four independent flags, composed as the DragonBones runtime does
    /// (`Bone._updateGlobalTransformMatrix`); see [`DragonBonesInherit`].
    DragonBones(DragonBonesInherit),
}

impl Inherit {
    /// Spine's number for the mode (its binary format's order, 0..=4); 5 for
    /// [`Inherit::DragonBones`], which Spine has no number for.
    pub const fn code(self) -> u8 {
        match self {
            Inherit::Normal => 0,
            Inherit::OnlyTranslation => 1,
            Inherit::NoRotationOrReflection => 2,
            Inherit::NoScale => 3,
            Inherit::NoScaleOrReflection => 4,
            Inherit::DragonBones(_) => 5,
        }
    }
}

/// DragonBones' bone inherit flags (`inheritTranslation`, `inheritRotation`, `inheritScale`,
/// `inheritReflection`; all default to true). With all four set the bone inherits like
/// [`Inherit::Normal`].
///
/// - scale inherited: the local matrix (its rotation less the parent's world rotation when
///   rotation is not inherited) times the parent's world matrix;
/// - scale not inherited: no parent matrix at all; the world rotation is the local one plus
///   the parent's world rotation (when inherited; reflected when the parent's matrix is),
///   the local scale and skew are kept, and `reflection` adds half a turn of skew under a
///   reflected parent;
/// - translation not inherited: the local position is the world position.
///
/// The parent's world rotation is decomposed from its world matrix as DragonBones does
/// (`atan(c / a)`, the sign of the x scale taken from the parent's local x scale).
///
/// Owner: shared vocabulary of every stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DragonBonesInherit {
    /// `inheritTranslation`.
    pub translation: bool,
    /// `inheritRotation`.
    pub rotation: bool,
    /// `inheritScale`.
    pub scale: bool,
    /// `inheritReflection` (only used when scale is not inherited).
    pub reflection: bool,
}

impl Default for DragonBonesInherit {
    fn default() -> Self {
        DragonBonesInherit {
            translation: true,
            rotation: true,
            scale: true,
            reflection: true,
        }
    }
}

/// Slot blend modes.
///
/// Owner: shared vocabulary of every stage.
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
    /// Inochi2D Overlay (W3C separable overlay).
    Overlay,
    /// Inochi2D Darken (W3C separable darken).
    Darken,
    /// Inochi2D Lighten (W3C separable lighten).
    Lighten,
    /// Inochi2D ColorDodge (W3C separable color-dodge).
    ColorDodge,
    /// Inochi2D LinearDodge (separable `min(1, Cb + Cs)`).
    LinearDodge,
    /// Inochi2D AddGlow (colours add, alpha source-over).
    AddGlow,
    /// Inochi2D ColorBurn (W3C separable color-burn).
    ColorBurn,
    /// Inochi2D HardLight (W3C separable hard-light).
    HardLight,
    /// Inochi2D SoftLight (W3C separable soft-light).
    SoftLight,
    /// Inochi2D Difference (W3C separable difference).
    Difference,
    /// Inochi2D Exclusion (W3C separable exclusion).
    Exclusion,
    /// Inochi2D Subtract (separable `max(0, Cb - Cs)`).
    Subtract,
    /// Inochi2D Inverse (source times inverted destination).
    Inverse,
    /// Inochi2D DestinationIn (destination kept where the source is opaque).
    DestinationIn,
    /// Inochi2D ClipToLower (source drawn only where the destination has alpha).
    ClipToLower,
    /// Inochi2D SliceFromLower (destination erased where the source is opaque).
    SliceFromLower,
}

/// Path constraint position mode.
///
/// Owner: shared vocabulary of every stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PositionMode {
    /// Rig units along the path.
    Fixed,
    /// Fraction of the path length.
    #[default]
    Percent,
}

/// Path constraint spacing mode.
///
/// Owner: shared vocabulary of every stage.
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
///
/// Owner: shared vocabulary of every stage.
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

/// DragonBones' `tweenEasing` families, which the DragonBones runtime evaluates exactly at
/// each time (never pre-sampled): the key's linear progress `p` becomes
/// `p + (f(p) - p) * strength` with `f` below. A `tweenEasing` of `e` is [`Easing::QuadIn`]
/// with strength `-e` when `e < 0`, [`Easing::QuadOut`] with strength `e` when `0 < e <= 1`
/// and [`Easing::QuadInOut`] with strength `e - 1` above.
///
/// ```
/// use sinew::Easing;
/// assert_eq!(Easing::QuadIn.progress(1.0, 0.5), 0.25);
/// assert_eq!(Easing::QuadOut.progress(1.0, 0.5), 0.75);
/// assert!((Easing::QuadInOut.progress(0.5, 0.25) - 0.1982233047033631).abs() < 1e-15);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Easing {
    /// `f(p) = p²`.
    QuadIn,
    /// `f(p) = 1 - (1 - p)²`.
    QuadOut,
    /// `f(p) = (1 - cos(p π)) / 2`.
    QuadInOut,
}

impl Easing {
    /// The eased progress at linear progress `p` with `strength` (the DragonBones runtime's
    /// `TweenTimelineState._getEasingValue`, in its operation order).
    #[inline]
    pub fn progress(self, strength: f64, p: f64) -> f64 {
        let value = match self {
            Easing::QuadIn => p * p,
            Easing::QuadOut => 1.0 - (1.0 - p) * (1.0 - p),
            Easing::QuadInOut => 0.5 * (1.0 - (p * std::f64::consts::PI).cos()),
        };
        (value - p) * strength + p
    }

    /// The code [`crate::anim::Curves`] stores for the family.
    pub(crate) fn code(self) -> f32 {
        match self {
            Easing::QuadIn => 0.0,
            Easing::QuadOut => 1.0,
            Easing::QuadInOut => 2.0,
        }
    }

    /// The family of a stored code.
    pub(crate) fn from_code(c: f32) -> Easing {
        if c == 0.0 {
            Easing::QuadIn
        } else if c == 1.0 {
            Easing::QuadOut
        } else {
            Easing::QuadInOut
        }
    }
}

/// Physics mode for a world-transform update (Spine `Physics`).
///
/// Owner: shared vocabulary of every stage.
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

/// Which Spine runtime's semantics a rig is posed with where Spine 4.2 and 4.3 differ.
///
/// One pipeline serves both: the loader records the file's version here, the builder copies
/// it into the tables the stages read (a physics constraint's pose interpolation, ...), and
/// a stage branches on that data. Rigs of other formats use the 4.2 semantics they were
/// verified with.
///
/// Owner: shared vocabulary of every stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SpineRuntime {
    /// Spine 4.2 (spine-core 4.2.x).
    #[default]
    V42,
    /// Spine 4.3 (spine-core 4.3.x): physics poses interpolated between steps, ...
    V43,
}

/// How a constraint that scales a bone's x axis scales its y axis (Spine 4.3 `ScaleYMode`;
/// 4.2's IK `uniform` flag is [`ScaleYMode::Uniform`]).
///
/// Owner: shared vocabulary of every stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScaleYMode {
    /// Only x is scaled.
    #[default]
    None,
    /// y is scaled by the same factor.
    Uniform,
    /// y is scaled to keep the area roughly constant (Spine's volume curve).
    Volume,
}

/// A bone property a Spine 4.3 transform constraint reads from its source or writes to its
/// bones (`properties` in 4.3 JSON).
///
/// Owner: shared vocabulary of every stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransformProperty {
    /// Rotation, degrees.
    Rotate,
    /// Translation x.
    X,
    /// Translation y.
    Y,
    /// Scale x.
    ScaleX,
    /// Scale y.
    ScaleY,
    /// Shear y, degrees.
    ShearY,
}

/// One source property of a Spine 4.3 transform constraint and the bone properties it
/// drives: each target gets `to.offset + (value - offset) * to.scale` (clamped to
/// `to.offset..to.max` with `clamp`), mixed by the target property's mix.
///
/// Owner: the loaders produce it; the builder copies it; the transform stage reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct TransformFrom {
    /// The source property read.
    pub property: TransformProperty,
    /// Subtracted from the source value.
    pub offset: f64,
    /// The driven properties, in file order.
    pub to: Vec<TransformTo>,
}

/// One driven property of a [`TransformFrom`].
///
/// Owner: as [`TransformFrom`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TransformTo {
    /// The bone property written.
    pub property: TransformProperty,
    /// Added to the scaled source value.
    pub offset: f64,
    /// The clamp bound opposite `offset` (with `clamp`).
    pub max: f64,
    /// Factor on the source value.
    pub scale: f64,
}
