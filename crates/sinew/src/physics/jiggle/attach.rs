//! Attaching jiggle bones to a built rig: [`JiggleRig::build`] resolves a by-name
//! [`JiggleDesc`] against a [`Rig`] (every unknown name and bad value reported at once),
//! orders the bones parent-first, links each to its nearest jiggle ancestor, captures driver
//! offsets from the setup pose and precomputes the step coefficients. The result is
//! immutable and shared by every instance, like the rig.

use super::chain::{ChainSettings, Link};
use super::cues::JiggleCues;
use super::desc::{ColliderShape, Gust, JiggleDesc, LodSettings};
use crate::ids::BoneId;
use crate::instance::Instance;
use crate::math::Vec2;
use crate::math::WorldTransform;
use crate::rig::Rig;
use crate::rig::problem::{BuildError, BuildPart, BuildProblem, ProblemKind};
use crate::sim::clock::ClockSettings;
use crate::types::Physics;

/// A collider resolved to a bone.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ColliderDef {
    /// Bone it moves with.
    pub bone: BoneId,
    /// Shape in the bone's space.
    pub shape: ColliderShape,
}

/// Jiggle bones resolved against one rig: immutable, shared by its instances.
///
/// Owner: the jiggle stage (`physics::jiggle`; step 7 of `Character::update`).
#[derive(Debug, Clone)]
pub struct JiggleRig {
    /// [`Rig::uid`] of the rig these jiggle bones were built for.
    pub rig_uid: u64,
    /// Jiggle bones, parent-first.
    pub bones: Vec<BoneId>,
    /// Tip distance along each bone's x axis, bone units.
    pub tip_lengths: Vec<f64>,
    /// Per bone: a driver and the setup-pose transform from the driver to the bone.
    pub drivers: Vec<Option<(BoneId, WorldTransform)>>,
    /// Per bone: nearest jiggle ancestor and chain.
    pub links: Vec<Link>,
    /// Per chain: parameters and step coefficients.
    pub chains: Vec<ChainSettings>,
    /// Chain names, by chain index.
    pub chain_names: Vec<String>,
    /// Colliders.
    pub colliders: Vec<ColliderDef>,
    /// Collider names, by collider index.
    pub collider_names: Vec<String>,
    /// Collider indices of every chain (ranges in [`ChainSettings::colliders`]).
    pub collider_index: Vec<u32>,
    /// Per rig bone: whether it is a jiggle bone.
    pub is_jiggle: Vec<bool>,
    /// Per rig bone: a non-jiggle bone below a jiggle bone (re-posed after the solve).
    pub repose: Vec<bool>,
    /// Gravity, world units/s².
    pub gravity: Vec2,
    /// Wind, world units/s².
    pub wind: Vec2,
    /// Gusts.
    pub gust: Gust,
    /// Clock settings.
    pub clock: ClockSettings,
    /// Level-of-detail thresholds.
    pub lod: LodSettings,
    /// Teleport distance, world units.
    pub teleport_distance: f64,
    /// Per animation: the animator's cues (strength, stiffness and damping tracks, fades).
    pub cues: JiggleCues,
    /// How far beyond its bones' origins the character reaches, for culling, world units.
    pub cull_margin: f64,
}

impl JiggleRig {
    /// Resolves `desc` against `rig`. Unknown bone or collider names, bones in two chains,
    /// zero-length bones without a tip length and bad parameters are all reported, each a
    /// [`BuildProblem`] of [`BuildPart::Jiggle`] naming the chain or collider.
    pub fn build(rig: &Rig, desc: &JiggleDesc) -> Result<JiggleRig, BuildError> {
        const PART: BuildPart = BuildPart::Jiggle;
        let value = |item: &str, message: String| BuildProblem::value(PART, item, message);
        let mut problems = Vec::new();
        let c = desc.clock;
        if !(c.step_hz.is_finite() && c.step_hz > 0.0 && c.step_hz <= 10_000.0) {
            problems.push(value(
                "",
                format!("`stepHz` must be in (0, 10000] (got {})", c.step_hz),
            ));
        }
        if !(c.max_frame_dt.is_finite() && c.max_frame_dt > 0.0) {
            problems.push(value(
                "",
                format!("`maxFrameDt` must be > 0 (got {})", c.max_frame_dt),
            ));
        }
        if !(1..=1000).contains(&c.max_substeps) {
            problems.push(value(
                "",
                format!("`maxSubsteps` must be in 1..1000 (got {})", c.max_substeps),
            ));
        }
        let finite2 = |v: [f64; 2]| v.iter().all(|x| x.is_finite());
        if !finite2(desc.gravity) || !finite2(desc.wind) {
            problems.push(value("", "`gravity` and `wind` must be finite".to_owned()));
        }
        if !(desc.gust.amplitude.is_finite() && desc.gust.frequency.is_finite()) {
            problems.push(value("", "`gust` values must be finite".to_owned()));
        }
        if desc.teleport_distance.is_nan() || desc.teleport_distance <= 0.0 {
            problems.push(value(
                "",
                format!(
                    "`teleportDistance` must be > 0 (got {})",
                    desc.teleport_distance
                ),
            ));
        }
        if desc.lod.coarse_step == 0 || desc.lod.coarse_step > 16 {
            problems.push(value(
                "",
                format!(
                    "`lod.coarseStep` must be in 1..16 (got {})",
                    desc.lod.coarse_step
                ),
            ));
        }

        let mut colliders = Vec::new();
        let mut collider_names: Vec<String> = Vec::new();
        for col in &desc.colliders {
            if collider_names.contains(&col.name) {
                problems.push(
                    BuildProblem::duplicate(
                        format!("collider `{}`", col.name),
                        &col.name,
                        "defined twice",
                    )
                    .in_part(PART),
                );
            }
            let radius = match col.shape {
                ColliderShape::Circle { radius, .. } | ColliderShape::Capsule { radius, .. } => {
                    radius
                }
            };
            let pts_ok = match col.shape {
                ColliderShape::Circle { offset, .. } => finite2(offset),
                ColliderShape::Capsule { offset, tail, .. } => finite2(offset) && finite2(tail),
            };
            if !(radius.is_finite() && radius >= 0.0 && pts_ok) {
                problems.push(value(
                    &format!("collider `{}`", col.name),
                    "radius must be >= 0 and points finite".to_owned(),
                ));
            }
            match rig.bone(&col.bone) {
                Some(bone) => colliders.push(ColliderDef {
                    bone,
                    shape: col.shape,
                }),
                None => problems.push(
                    BuildProblem::unknown(format!("collider `{}`", col.name), "bone", &col.bone)
                        .in_part(PART),
                ),
            }
            collider_names.push(col.name.clone());
        }

        // Bone -> (chain, tip length); chain settings.
        let nb = rig.bones.len();
        let mut chain_of: Vec<Option<u32>> = vec![None; nb];
        let mut tip_len = vec![0.0; nb];
        let mut driver_of: Vec<Option<BoneId>> = vec![None; nb];
        let mut collider_index = Vec::new();
        let mut chains = Vec::new();
        let mut chain_names = Vec::new();
        let h = 1.0
            / if c.step_hz > 0.0 && c.step_hz.is_finite() {
                c.step_hz
            } else {
                60.0
            };
        for (ci, ch) in desc.chains.iter().enumerate() {
            let name = &ch.name;
            let item = format!("chain `{name}`");
            if chain_names.contains(name) {
                problems.push(BuildProblem::duplicate(&*item, name, "defined twice").in_part(PART));
            }
            chain_names.push(name.clone());
            if let Err(e) = ch.params.validate() {
                problems.push(value(&item, e.to_string()));
            }
            if ch.bones.is_empty() {
                problems.push(value(&item, "has no bones".to_owned()));
            }
            let driver = match &ch.driver {
                None => None,
                Some(d) => match rig.bone(d) {
                    Some(id) => Some(id),
                    None => {
                        let mut q = BuildProblem::unknown(&*item, "bone", d);
                        q.message = format!("unknown driver bone `{d}`");
                        problems.push(q.in_part(PART));
                        None
                    }
                },
            };
            for b in &ch.bones {
                let Some(id) = rig.bone(b) else {
                    problems.push(BuildProblem::unknown(&*item, "bone", b).in_part(PART));
                    continue;
                };
                let i = id.index();
                if let Some(other) = chain_of[i] {
                    let other = &desc.chains[other as usize].name;
                    problems.push(
                        BuildProblem::duplicate(
                            &*item,
                            b,
                            format!("bone `{b}` is already in chain `{other}`"),
                        )
                        .in_part(PART),
                    );
                    continue;
                }
                chain_of[i] = Some(ci as u32);
                driver_of[i] = driver;
                let len = rig.bones[i].length;
                tip_len[i] = if len > 0.0 {
                    len
                } else {
                    ch.tip_length.unwrap_or(0.0)
                };
                if !(tip_len[i].is_finite() && tip_len[i] > 0.0) {
                    problems.push(
                        BuildProblem::new(
                            ProblemKind::Geometry,
                            &*item,
                            format!("bone `{b}` has length 0; give the chain a `length`"),
                        )
                        .in_part(PART),
                    );
                }
            }
            let start = collider_index.len() as u32;
            for cn in &ch.colliders {
                match collider_names.iter().position(|n| n == cn) {
                    Some(k) => collider_index.push(k as u32),
                    None => {
                        problems.push(BuildProblem::unknown(&*item, "collider", cn).in_part(PART))
                    }
                }
            }
            let range = (start, collider_index.len() as u32);
            chains.push(ChainSettings::new(
                ch.params,
                h,
                desc.lod.coarse_step.clamp(1, 16),
                range,
            ));
        }
        let cues = JiggleCues::build(rig, &chain_names, &desc.animations, &mut problems);
        if let Some(m) = desc.cull_margin
            && !(m.is_finite() && m >= 0.0)
        {
            problems.push(value(
                "",
                format!("`lod.cullMargin` must be >= 0 (got {m})"),
            ));
        }
        if !problems.is_empty() {
            return Err(BuildError::from_problems(problems));
        }

        // Parent-first bone list and links to the nearest jiggle ancestor.
        let mut index_of: Vec<Option<u32>> = vec![None; nb];
        let mut bones = Vec::new();
        let mut links = Vec::new();
        let mut tip_lengths = Vec::new();
        let mut drivers = Vec::new();
        let setup = setup_world(rig);
        for i in 0..nb {
            let Some(chain) = chain_of[i] else { continue };
            let mut parent = None;
            let mut cur = rig.bones[i].parent;
            while let Some(p) = cur {
                if let Some(k) = index_of[p.index()] {
                    parent = Some(k);
                    break;
                }
                cur = rig.bones[p.index()].parent;
            }
            let driver = match (parent, driver_of[i]) {
                (None, Some(d)) => Some((d, inverse(&setup[d.index()]) * setup[i])),
                _ => None,
            };
            index_of[i] = Some(bones.len() as u32);
            bones.push(BoneId(i as u16));
            links.push(Link { parent, chain });
            tip_lengths.push(tip_len[i]);
            drivers.push(driver);
        }
        let is_jiggle: Vec<bool> = chain_of.iter().map(Option::is_some).collect();
        let mut repose = vec![false; nb];
        for i in 0..nb {
            if let Some(p) = rig.bones[i].parent {
                repose[i] = !is_jiggle[i] && (is_jiggle[p.index()] || repose[p.index()]);
            }
        }
        // The longest chain, tip to root, bounds how far a chain swings from its bones.
        let mut reach = vec![0.0f64; chains.len()];
        for (l, len) in links.iter().zip(&tip_lengths) {
            reach[l.chain as usize] += len;
        }
        let cull_margin = desc
            .cull_margin
            .unwrap_or_else(|| reach.iter().copied().fold(0.0, f64::max));
        Ok(JiggleRig {
            cues,
            cull_margin,
            rig_uid: rig.uid,
            bones,
            tip_lengths,
            drivers,
            links,
            chains,
            chain_names,
            colliders,
            collider_names,
            collider_index,
            is_jiggle,
            repose,
            gravity: Vec2::new(desc.gravity[0], desc.gravity[1]),
            wind: Vec2::new(desc.wind[0], desc.wind[1]),
            gust: desc.gust,
            clock: desc.clock,
            lod: desc.lod,
            teleport_distance: desc.teleport_distance,
        })
    }

    /// The index of a chain by name.
    pub fn chain(&self, name: &str) -> Option<usize> {
        self.chain_names.iter().position(|n| n == name)
    }

    /// Number of jiggle bones.
    pub fn bone_count(&self) -> usize {
        self.bones.len()
    }
}

/// World transforms of the setup pose (attach time only; allocates).
fn setup_world(rig: &Rig) -> Vec<WorldTransform> {
    let mut inst = Instance::new(rig);
    crate::skeleton::update_world_transform(rig, &mut inst, Physics::None);
    inst.world
}

/// The inverse (identity for a singular transform).
fn inverse(t: &WorldTransform) -> WorldTransform {
    let det = t.a * t.d - t.b * t.c;
    if det.abs() < 1e-300 || !det.is_finite() {
        return WorldTransform::IDENTITY;
    }
    let id = 1.0 / det;
    let (a, b, c, d) = (t.d * id, -t.b * id, -t.c * id, t.a * id);
    WorldTransform {
        a,
        b,
        c,
        d,
        x: -(a * t.x + b * t.y),
        y: -(c * t.x + d * t.y),
    }
}
