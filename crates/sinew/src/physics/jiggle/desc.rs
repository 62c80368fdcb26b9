//! The by-name description of a rig's jiggle bones and colliders: what a rig-extras file
//! (`sinew_formats::extras`) or code produces, before it is resolved against a rig by
//! [`super::JiggleRig::build`]. Plain data; no ids.

use super::cues::AnimCuesDesc;
use super::params::JiggleParams;
use crate::sim::clock::ClockSettings;

/// Everything jiggle a rig gets.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JiggleDesc {
    /// Simulation clock (step rate, caps).
    pub clock: ClockSettings,
    /// Gravity acceleration, world units/s² (y up: `[0, -980]` pulls down).
    pub gravity: [f64; 2],
    /// Wind acceleration, world units/s².
    pub wind: [f64; 2],
    /// Gusts: the wind is scaled by `1 + amplitude sin(2 pi frequency t)` on simulated time.
    pub gust: Gust,
    /// A driver moving farther than this in one frame resets the simulation (a teleport),
    /// world units; infinite: never.
    pub teleport_distance: f64,
    /// Level of detail.
    pub lod: LodSettings,
    /// Colliders.
    pub colliders: Vec<ColliderDesc>,
    /// Chains.
    pub chains: Vec<ChainDesc>,
    /// Per animation: key tracks of chains' strength, stiffness and damping, and fade
    /// events ([`super::cues`]).
    pub animations: Vec<AnimCuesDesc>,
    /// How far beyond its bones' origins a character reaches, for culling against the
    /// host's view rectangle, world units; `None`: the longest chain's length.
    pub cull_margin: Option<f64>,
}

impl JiggleDesc {
    /// An empty description with the default clock, no gravity and no teleport reset.
    pub fn new() -> Self {
        JiggleDesc {
            teleport_distance: f64::INFINITY,
            ..Default::default()
        }
    }
}

/// Wind gusts.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Gust {
    /// Relative amplitude (0: steady wind).
    pub amplitude: f64,
    /// Frequency, Hz.
    pub frequency: f64,
}

/// Level-of-detail thresholds for [`super::JiggleState::set_view_distance`].
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LodSettings {
    /// The coarse level takes steps this many times longer (>= 1).
    pub coarse_step: u32,
    /// Beyond this view distance the coarse level is used.
    pub coarse_beyond: f64,
    /// Beyond this view distance the simulation freezes (holds its last offsets).
    pub freeze_beyond: f64,
}

impl Default for LodSettings {
    fn default() -> Self {
        LodSettings {
            coarse_step: 2,
            coarse_beyond: f64::INFINITY,
            freeze_beyond: f64::INFINITY,
        }
    }
}

/// A collider attached to a bone.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct ColliderDesc {
    /// Name chains refer to.
    pub name: String,
    /// Bone it moves with.
    pub bone: String,
    /// Shape in the bone's space.
    pub shape: ColliderShape,
}

/// A collider shape in its bone's space (bone units; the radius is in world units).
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ColliderShape {
    /// Circle.
    Circle {
        /// Centre, bone space.
        offset: [f64; 2],
        /// Radius, world units.
        radius: f64,
    },
    /// Capsule (stadium).
    Capsule {
        /// Segment start, bone space.
        offset: [f64; 2],
        /// Segment end, bone space.
        tail: [f64; 2],
        /// Radius, world units.
        radius: f64,
    },
}

/// A chain of jiggle bones sharing parameters.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, PartialEq)]
pub struct ChainDesc {
    /// Name (messages, strength control).
    pub name: String,
    /// Bones, root to tip; each after its ancestors.
    pub bones: Vec<String>,
    /// Bone whose motion the first bone follows when it is not the bone's ancestor; the
    /// offset is captured from the setup pose. `None`: the bone's own animated pose.
    pub driver: Option<String>,
    /// Tip length for bones of length 0, world units along the bone's x axis.
    pub tip_length: Option<f64>,
    /// Parameters.
    pub params: JiggleParams,
    /// Colliders by name.
    pub colliders: Vec<String>,
}

impl ChainDesc {
    /// A chain of these bones with these parameters and no colliders.
    pub fn new(name: &str, bones: &[&str], params: JiggleParams) -> Self {
        ChainDesc {
            name: name.to_owned(),
            bones: bones.iter().map(|b| (*b).to_owned()).collect(),
            driver: None,
            tip_length: None,
            params,
            colliders: Vec::new(),
        }
    }
}
