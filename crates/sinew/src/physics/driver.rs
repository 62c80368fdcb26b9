//! Parameter physics: pendulums anchored at a bone that write a two-component parameter
//! (Inochi2D's SimplePhysics, inochi2d.md §6), on the fixed-step clock.
//!
//! Each driver's anchor is its bone's world origin (or the bone's local translation with
//! `local_only`); the bob is simulated by [`Pendulum`](crate::physics::Pendulum) (rigid or
//! spring) with gravity along +y (COMPAT(inochi2d): puppets are y-down). The output is read
//! from the bob offset `d = bob - anchor`, taken into the bone's local frame for the
//! direction and kept in world units for the length:
//! - angle/length: `(atan2(-dx, dy) / pi, |d| / L)`;
//! - x/y: `dir * |d| / L - (0, 1)`, y negated;
//! - the swapped forms exchange the components; then times `output_scale`.
//!
//! Unlike Inox2D (whose bobs start at the world origin) the bob starts hanging at rest, as
//! the Inochi2D reference does. Steps are fixed (100 Hz, the reference's 10 ms sub-step) with
//! a capped number per frame, so a hitch slows the motion instead of exploding it.
//! Verified by the unit tests in `params/tests.rs` (rest output, swing decays, hitch).

pub use crate::instance::params::DriverState;
pub use crate::raw::params::{DriverMap, PendulumModel};
pub use crate::rig::params::driver::{DriverData, clock_settings};

use crate::math::Vec2;
use crate::rig::params::driver::DOWN;
use crate::sim::vec::SimVec;

/// The anchor of a driver in rig space from the current world transforms.
fn anchor(rig: &crate::Rig, inst: &crate::Instance, d: &DriverData) -> Vec2 {
    let b = d.bone.index();
    if d.local_only {
        let p = inst.pose[b];
        Vec2::new(p.x, p.y)
    } else {
        let w = inst.world[b];
        let _ = rig;
        Vec2::new(w.x, w.y)
    }
}

/// The output of a driver for a bob offset `d` (world) under the bone's world matrix.
pub fn driver_output(
    data: &DriverData,
    world: &crate::WorldTransform,
    d: Vec2,
    length: f64,
) -> [f64; 2] {
    // Direction in the bone's local frame: the inverse of the world linear part.
    let det = world.a * world.d - world.b * world.c;
    let (lx, ly) = if det.abs() > 1e-12 {
        (
            (world.d * d.x - world.b * d.y) / det,
            (-world.c * d.x + world.a * d.y) / det,
        )
    } else {
        (d.x, d.y)
    };
    let ratio = if length > 0.0 {
        (d.x * d.x + d.y * d.y).sqrt() / length
    } else {
        0.0
    };
    // Only the maps that use them pay for the angle (an `atan2`) or the unit direction.
    // The fast atan2 (within 3 ulp of std's; `math/trig.rs`), as the bone transforms use.
    let angle = || crate::math::trig::atan2(-lx, ly) / std::f64::consts::PI;
    let xy = || {
        let ll = (lx * lx + ly * ly).sqrt();
        let (ux, uy) = if ll > 1e-12 {
            (lx / ll, ly / ll)
        } else {
            (0.0, 1.0)
        };
        (ux * ratio, -(uy * ratio - 1.0))
    };
    let out = match data.map {
        DriverMap::AngleLength => [angle(), ratio],
        DriverMap::LengthAngle => [ratio, angle()],
        DriverMap::Xy => {
            let (x, y) = xy();
            [x, y]
        }
        DriverMap::Yx => {
            let (x, y) = xy();
            [y, x]
        }
    };
    [out[0] * data.output_scale[0], out[1] * data.output_scale[1]]
}

/// Advances every driver by `dt` seconds on the fixed clock and writes their parameters.
/// Call after world transforms (anchors are read from them). Allocation-free.
pub(crate) fn step_drivers(rig: &crate::Rig, inst: &mut crate::Instance, dt: f64) {
    let set = &rig.params;
    if set.drivers.is_empty() {
        return;
    }
    if !inst.params.drivers_placed {
        for (i, d) in set.drivers.iter().enumerate() {
            let a = anchor(rig, inst, d);
            let st = &mut inst.params;
            let [la, gm] = st.driver_offsets[i];
            st.drivers[i].pendulum.set_params(d.pendulum_params(la, gm));
            st.drivers[i].pendulum.reset(a, DOWN);
            st.drivers[i].last_anchor = a;
        }
        inst.params.drivers_placed = true;
    }
    let steps = inst.params.clock.advance(dt);
    for (i, d) in set.drivers.iter().enumerate() {
        let a = anchor(rig, inst, d);
        let st = &mut inst.params;
        let [la, gm] = st.driver_offsets[i];
        let ds = &mut st.drivers[i];
        ds.pendulum.set_params(d.pendulum_params(la, gm));
        let h = st.clock.step();
        for j in 0..steps {
            let f = st.clock.step_fraction(j);
            ds.pendulum.step(ds.last_anchor.lerp(a, f), h);
        }
        ds.last_anchor = a;
        let off = ds.pendulum.bob() - a;
        let out = driver_output(
            d,
            &inst.world[d.bone.index()],
            off,
            ds.pendulum.params().length,
        );
        let pi = d.param.index();
        if let (Some(v), Some(pd)) = (st.values.get_mut(pi), set.params.get(pi)) {
            // COMPAT(inochi2d): physics forces its parameter (merge mode Forced).
            *v = [pd.clamp(0, out[0]), pd.clamp(1, out[1])];
        }
    }
}

/// Puts every bob back at rest on the next physics frame and forgets the clock.
pub(crate) fn reset_drivers(inst: &mut crate::Instance) {
    inst.params.drivers_placed = false;
    inst.params.clock.reset();
}
