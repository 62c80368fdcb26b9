//! Constraint timelines: IK, transform mixes, path position/spacing/mixes and physics
//! parameters, as spine-ts 4.2 `IkConstraintTimeline` … `PhysicsConstraintTimeline`.
//!
//! Verified by the unit tests below (each blend by hand; the global physics timelines
//! drive exactly the constraints whose flag is set; mass keys go through the inverse).

use super::{Args, absolute_value, absolute_value2, before_first, curve_value};
use crate::anim::{IkFlags, MixBlend, MixDirection, Timeline};
use crate::ids::{IkId, PathId, PhysicsId, SliderId, TransformId};
use crate::instance::Instance;
use crate::raw::PhysicsProperty;
use crate::rig::{PhysicsData, PhysicsParams, Rig};

pub(super) fn ik(
    rig: &Rig,
    inst: &mut Instance,
    tl: &Timeline,
    c: IkId,
    flags: &[IkFlags],
    a: Args,
) {
    let k = c.index();
    if !inst.ik_active[k] {
        return;
    }
    let data = &rig.ik[k];
    let st = &mut inst.ik[k];
    let setup_flags = |st: &mut crate::instance::IkState| {
        st.bend_direction = data.bend_direction;
        st.compress = data.compress;
        st.stretch = data.stretch;
    };
    if before_first(tl, a.time) {
        match a.blend {
            MixBlend::Setup => {
                st.mix = data.mix;
                st.softness = data.softness;
                setup_flags(st);
            }
            MixBlend::First => {
                st.mix += (data.mix - st.mix) * a.alpha;
                st.softness += (data.softness - st.softness) * a.alpha;
                setup_flags(st);
            }
            _ => {}
        }
        return;
    }
    let i = tl.search(a.time, 3);
    let mix = tl.curves.value(&tl.frames, 3, a.time, i, 1);
    let softness = tl.curves.value(&tl.frames, 3, a.time, i, 2);
    let key_flags = |st: &mut crate::instance::IkState| {
        if let Some(f) = flags.get(i / 3) {
            st.bend_direction = f.bend_direction;
            st.compress = f.compress;
            st.stretch = f.stretch;
        }
    };
    if a.blend == MixBlend::Setup {
        st.mix = data.mix + (mix - data.mix) * a.alpha;
        st.softness = data.softness + (softness - data.softness) * a.alpha;
        if a.direction == MixDirection::Out {
            setup_flags(st);
        } else {
            key_flags(st);
        }
    } else {
        st.mix += (mix - st.mix) * a.alpha;
        st.softness += (softness - st.softness) * a.alpha;
        if a.direction == MixDirection::In {
            key_flags(st);
        }
    }
}

/// Blends `N` absolute mixes: `cur` toward the key values (from setup with the setup blend),
/// or toward setup before the first key. Returns `None` when nothing changes.
fn mixes<const N: usize>(
    tl: &Timeline,
    a: Args,
    cur: [f64; N],
    setup: [f64; N],
) -> Option<[f64; N]> {
    if before_first(tl, a.time) {
        return match a.blend {
            MixBlend::Setup => Some(setup),
            MixBlend::First => Some(std::array::from_fn(|k| {
                cur[k] + (setup[k] - cur[k]) * a.alpha
            })),
            _ => None,
        };
    }
    let i = tl.search(a.time, N + 1);
    let key: [f64; N] =
        std::array::from_fn(|k| tl.curves.value(&tl.frames, N + 1, a.time, i, k + 1));
    if a.add {
        // Spine 4.3 `add` (transform and path mixes): the keys add to setup or current.
        let base = if a.blend == MixBlend::Setup {
            setup
        } else {
            cur
        };
        return Some(std::array::from_fn(|k| base[k] + key[k] * a.alpha));
    }
    Some(if a.blend == MixBlend::Setup {
        std::array::from_fn(|k| setup[k] + (key[k] - setup[k]) * a.alpha)
    } else {
        std::array::from_fn(|k| cur[k] + (key[k] - cur[k]) * a.alpha)
    })
}

pub(super) fn transform(rig: &Rig, inst: &mut Instance, tl: &Timeline, c: TransformId, a: Args) {
    let k = c.index();
    if !inst.transform_active[k] {
        return;
    }
    let m = &mut inst.transforms[k];
    let s = &rig.transforms[k].mix;
    let cur = [m.rotate, m.x, m.y, m.scale_x, m.scale_y, m.shear_y];
    let setup = [s.rotate, s.x, s.y, s.scale_x, s.scale_y, s.shear_y];
    if let Some([r, x, y, sx, sy, shy]) = mixes(tl, a, cur, setup) {
        m.rotate = r;
        m.x = x;
        m.y = y;
        m.scale_x = sx;
        m.scale_y = sy;
        m.shear_y = shy;
    }
}

pub(super) fn path_position(rig: &Rig, inst: &mut Instance, tl: &Timeline, c: PathId, a: Args) {
    let k = c.index();
    if inst.path_active[k] {
        inst.paths[k].position =
            absolute_value(tl, a, inst.paths[k].position, rig.paths[k].setup.position);
    }
}

/// Spine 4.3 `SliderTimeline`: the slider's time (absolute).
#[inline(never)]
pub(super) fn slider_time(rig: &Rig, inst: &mut Instance, tl: &Timeline, c: SliderId, a: Args) {
    let k = c.index();
    if inst.slider_active[k] {
        inst.sliders[k].time =
            absolute_value(tl, a, inst.sliders[k].time, rig.sliders[k].setup.time);
    }
}

/// Spine 4.3 `SliderMixTimeline`: the slider's mix (absolute).
#[inline(never)]
pub(super) fn slider_mix(rig: &Rig, inst: &mut Instance, tl: &Timeline, c: SliderId, a: Args) {
    let k = c.index();
    if inst.slider_active[k] {
        inst.sliders[k].mix = absolute_value(tl, a, inst.sliders[k].mix, rig.sliders[k].setup.mix);
    }
}

pub(super) fn path_spacing(rig: &Rig, inst: &mut Instance, tl: &Timeline, c: PathId, a: Args) {
    // Spine 4.3 never adds spacing.
    let a = Args { add: false, ..a };
    let k = c.index();
    if inst.path_active[k] {
        inst.paths[k].spacing =
            absolute_value(tl, a, inst.paths[k].spacing, rig.paths[k].setup.spacing);
    }
}

pub(super) fn path_mix(rig: &Rig, inst: &mut Instance, tl: &Timeline, c: PathId, a: Args) {
    let k = c.index();
    if !inst.path_active[k] {
        return;
    }
    let p = &mut inst.paths[k];
    let s = &rig.paths[k].setup;
    if let Some([r, x, y]) = mixes(
        tl,
        a,
        [p.mix_rotate, p.mix_x, p.mix_y],
        [s.mix_rotate, s.mix_x, s.mix_y],
    ) {
        p.mix_rotate = r;
        p.mix_x = x;
        p.mix_y = y;
    }
}

/// The animatable value of a physics parameter (mass as the mass, not its inverse).
fn get(p: &PhysicsParams, prop: PhysicsProperty) -> f64 {
    match prop {
        PhysicsProperty::Inertia => p.inertia,
        PhysicsProperty::Strength => p.strength,
        PhysicsProperty::Damping => p.damping,
        PhysicsProperty::Mass => 1.0 / p.mass_inverse,
        PhysicsProperty::Wind => p.wind,
        PhysicsProperty::Gravity => p.gravity,
        PhysicsProperty::Mix | PhysicsProperty::Reset => p.mix,
    }
}

fn set(p: &mut PhysicsParams, prop: PhysicsProperty, v: f64) {
    match prop {
        PhysicsProperty::Inertia => p.inertia = v,
        PhysicsProperty::Strength => p.strength = v,
        PhysicsProperty::Damping => p.damping = v,
        PhysicsProperty::Mass => p.mass_inverse = 1.0 / v,
        PhysicsProperty::Wind => p.wind = v,
        PhysicsProperty::Gravity => p.gravity = v,
        PhysicsProperty::Mix | PhysicsProperty::Reset => p.mix = v,
    }
}

/// Whether a constraint takes the unnamed ("global") timeline of a parameter.
fn is_global(d: &PhysicsData, prop: PhysicsProperty) -> bool {
    match prop {
        PhysicsProperty::Inertia => d.inertia_global,
        PhysicsProperty::Strength => d.strength_global,
        PhysicsProperty::Damping => d.damping_global,
        PhysicsProperty::Mass => d.mass_global,
        PhysicsProperty::Wind => d.wind_global,
        PhysicsProperty::Gravity => d.gravity_global,
        PhysicsProperty::Mix => d.mix_global,
        PhysicsProperty::Reset => false,
    }
}

pub(super) fn physics(
    rig: &Rig,
    inst: &mut Instance,
    tl: &Timeline,
    c: Option<PhysicsId>,
    prop: PhysicsProperty,
    a: Args,
) {
    // Spine 4.3 adds only wind and gravity.
    let a = Args {
        add: a.add && matches!(prop, PhysicsProperty::Wind | PhysicsProperty::Gravity),
        ..a
    };
    match c {
        Some(c) => {
            let k = c.index();
            if inst.physics_active[k] {
                let setup = get(&rig.physics[k].setup, prop);
                let v = absolute_value(tl, a, get(&inst.physics[k].params, prop), setup);
                set(&mut inst.physics[k].params, prop, v);
            }
        }
        None => {
            let value = if before_first(tl, a.time) {
                0.0
            } else {
                curve_value(tl, a.time)
            };
            for (k, data) in rig.physics.iter().enumerate() {
                if inst.physics_active[k] && is_global(data, prop) {
                    let setup = get(&data.setup, prop);
                    let v =
                        absolute_value2(tl, a, get(&inst.physics[k].params, prop), setup, value);
                    set(&mut inst.physics[k].params, prop, v);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testrig::*;
    use crate::anim::{IkFlags, MixBlend::*, MixDirection::*, TimelineKind as K};
    use crate::ids::*;
    use crate::raw::PhysicsProperty;

    #[test]
    fn ik_values_and_flags() {
        let rig = rig();
        let mut inst = instance(&rig);
        let flags = vec![
            IkFlags {
                bend_direction: -1,
                compress: true,
                stretch: true,
            },
            IkFlags {
                bend_direction: 1,
                compress: false,
                stretch: false,
            },
        ];
        let tl = tln(
            K::Ik {
                constraint: IkId(0),
                flags,
            },
            &[&[0.0, 1.0, 0.0], &[1.0, 0.0, 10.0]],
        );
        run(&rig, &mut inst, &tl, 0.5, 0.5, Setup, In);
        // Setup mix .5, softness 2; key (.5, 5).
        assert_eq!((inst.ik[0].mix, inst.ik[0].softness), (0.5, 3.5));
        assert_eq!(
            (
                inst.ik[0].bend_direction,
                inst.ik[0].compress,
                inst.ik[0].stretch
            ),
            (-1, true, true)
        );
        run(&rig, &mut inst, &tl, 0.5, 0.5, Setup, Out);
        assert_eq!(inst.ik[0].bend_direction, 1);
        inst.ik[0].bend_direction = -1;
        run(&rig, &mut inst, &tl, 0.5, 0.5, Replace, Out);
        assert_eq!(
            (
                inst.ik[0].mix,
                inst.ik[0].softness,
                inst.ik[0].bend_direction
            ),
            (0.5, 4.25, -1)
        );
        run(&rig, &mut inst, &tl, -1.0, 0.5, First, In);
        assert_eq!(
            (
                inst.ik[0].mix,
                inst.ik[0].softness,
                inst.ik[0].bend_direction
            ),
            (0.5, 3.125, 1)
        );
    }

    #[test]
    fn transform_and_path_mixes() {
        let rig = rig();
        let mut inst = instance(&rig);
        let tl = tln(
            K::Transform(TransformId(0)),
            &[&[0.0, 0.0, 0.0, 1.0, 1.0, 0.5, 1.0]],
        );
        run(&rig, &mut inst, &tl, 0.0, 0.5, Setup, In);
        let m = inst.transforms[0];
        assert_eq!(
            [m.rotate, m.x, m.y, m.scale_x, m.scale_y, m.shear_y],
            [0.5, 0.25, 0.75, 0.625, 0.375, 0.5]
        );
        run(&rig, &mut inst, &tl, 0.0, 0.5, Add, In);
        assert_eq!(inst.transforms[0].rotate, 0.25);
        run(&rig, &mut inst, &tl, -1.0, 1.0, Replace, In);
        assert_eq!(inst.transforms[0].rotate, 0.25);
    }

    #[test]
    fn physics_parameters_and_globals() {
        let rig = rig();
        let mut inst = instance(&rig);
        // Mass: setup inverse .5 (mass 2); key mass 4 at alpha .5 from setup: mass 3.
        let tl = tl1(
            K::Physics {
                constraint: Some(PhysicsId(1)),
                property: PhysicsProperty::Mass,
            },
            &[(0.0, 4.0)],
        );
        run(&rig, &mut inst, &tl, 0.0, 0.5, Setup, In);
        assert_eq!(inst.physics[1].params.mass_inverse, 1.0 / 3.0);
        assert_eq!(inst.physics[0].params.mass_inverse, 0.5);
        // Global wind drives only constraint 0 (its flags are set).
        let g = tl1(
            K::Physics {
                constraint: None,
                property: PhysicsProperty::Wind,
            },
            &[(0.0, 8.0)],
        );
        run(&rig, &mut inst, &g, 0.0, 0.25, Replace, In);
        assert_eq!(
            (inst.physics[0].params.wind, inst.physics[1].params.wind),
            (2.0, 0.0)
        );
        run(&rig, &mut inst, &g, -1.0, 0.25, Setup, In);
        assert_eq!(inst.physics[0].params.wind, 0.0);
    }
}
