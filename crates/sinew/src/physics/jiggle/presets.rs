//! Starting values for common kinds of secondary motion. They are points to tune from, not
//! physics truths: frequencies set how fast a part swings back, damping ratios how quickly it
//! settles (1 = no overshoot), gravity scales the environment's gravity.
//!
//! | preset | model | tip spring | other |
//! |---|---|---|---|
//! | `softTissue` (chest, belly, cheeks) | spring | 3 Hz, zeta 0.3 | origin spring 3.5 Hz, zeta 0.2; max angle 15°; gravity 0.2 |
//! | `hairTip` | spring | 2.2 Hz, zeta 0.35 | max angle 70°; gravity 0.5 |
//! | `ribbon` (ribbons, capes, scarves) | spring | 1 Hz, zeta 0.15 | max angle 120°; gravity 1; quadratic drag 0.002 |
//! | `earring` | spring | 1.4 Hz, zeta 0.08 | max angle 90°; gravity 1 |
//! | `tail` | spring | 1.6 Hz, zeta 0.4 | max angle 75°; gravity 0.3 |
//! | `vrm` | Verlet | stiffness 1 | drag 0.4, gravity power 0 (three-vrm defaults) |
//!
//! Soft tissue also needs `maxOffset` (about a tenth of the body part's size, in rig units);
//! it is left unlimited here because the presets do not know the rig's scale.

use super::params::{JiggleModel, JiggleParams};

/// A named preset.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// Chest, belly, cheeks: origin and tip springs, small angles.
    SoftTissue,
    /// Hair tips: quick, moderately damped.
    HairTip,
    /// Ribbons, capes, scarves: slow, loose, heavy under gravity.
    Ribbon,
    /// Earrings: pendulum-like, lightly damped.
    Earring,
    /// Tails: slow, well damped.
    Tail,
    /// VRM SpringBone defaults.
    Vrm,
}

impl Preset {
    /// Every preset with its file name.
    pub const ALL: [(&'static str, Preset); 6] = [
        ("softTissue", Preset::SoftTissue),
        ("hairTip", Preset::HairTip),
        ("ribbon", Preset::Ribbon),
        ("earring", Preset::Earring),
        ("tail", Preset::Tail),
        ("vrm", Preset::Vrm),
    ];

    /// The preset a file names (`"hairTip"`, ...).
    pub fn from_name(name: &str) -> Option<Preset> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, p)| *p)
    }

    /// The preset's parameters.
    pub fn params(self) -> JiggleParams {
        let base = JiggleParams::default();
        match self {
            Preset::SoftTissue => {
                let tip = base.with_frequency(3.0, 0.3);
                let origin = JiggleParams::default().with_frequency(3.5, 0.2);
                JiggleParams {
                    translate_stiffness: origin.stiffness,
                    translate_damping: origin.damping,
                    max_angle: 15.0,
                    gravity: 0.2,
                    ..tip
                }
            }
            Preset::HairTip => JiggleParams {
                max_angle: 70.0,
                gravity: 0.5,
                ..base.with_frequency(2.2, 0.35)
            },
            Preset::Ribbon => JiggleParams {
                max_angle: 120.0,
                gravity: 1.0,
                velocity_damping: 0.002,
                ..base.with_frequency(1.0, 0.15)
            },
            Preset::Earring => JiggleParams {
                max_angle: 90.0,
                gravity: 1.0,
                ..base.with_frequency(1.4, 0.08)
            },
            Preset::Tail => JiggleParams {
                max_angle: 75.0,
                gravity: 0.3,
                ..base.with_frequency(1.6, 0.4)
            },
            Preset::Vrm => JiggleParams {
                model: JiggleModel::Verlet,
                stiffness: 1.0,
                drag: 0.4,
                ..base
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_valid_and_named() {
        for (name, p) in Preset::ALL {
            assert_eq!(Preset::from_name(name), Some(p));
            assert!(p.params().validate().is_ok(), "{name}");
        }
        assert_eq!(Preset::from_name("nope"), None);
        let hair = Preset::HairTip.params().tip_spring();
        assert!((hair.omega0() - std::f64::consts::TAU * 2.2).abs() < 1e-9);
        assert!((hair.zeta() - 0.35).abs() < 1e-12);
        let soft = Preset::SoftTissue.params();
        assert!(soft.translate_stiffness > 0.0 && soft.origin_spring().zeta() > 0.19);
    }
}
