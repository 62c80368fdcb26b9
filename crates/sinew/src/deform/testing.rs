//! Test support for the path, physics and vertex tests: hand-built bones and the world
//! transforms the official runtime gives them, so constraint inputs match the oracle's
//! without depending on the rest of the pipeline.

use crate::ids::BoneId;
use crate::math::{SPINE_DEG_RAD, WorldTransform};
use crate::rig::{BoneData, LocalPose};
use crate::types::Inherit;

/// A normal-inherit bone.
pub(crate) fn bone(name: &str, parent: Option<u16>, length: f64, setup: LocalPose) -> BoneData {
    BoneData {
        name: name.to_owned(),
        parent: parent.map(BoneId),
        length,
        setup,
        inherit: Inherit::Normal,
        skin_required: false,
    }
}

/// Spine's world transform of a normal-inherit bone (a root gets the skeleton scale), in
/// spine-ts's order of operations and with its float-rounded pi.
pub(crate) fn world_of(
    parent: Option<&WorldTransform>,
    p: &LocalPose,
    sx: f64,
    sy: f64,
) -> WorldTransform {
    let rx = (p.rotation + p.shear_x) * SPINE_DEG_RAD;
    let ry = (p.rotation + 90.0 + p.shear_y) * SPINE_DEG_RAD;
    match parent {
        None => WorldTransform {
            a: rx.cos() * p.scale_x * sx,
            b: ry.cos() * p.scale_y * sx,
            c: rx.sin() * p.scale_x * sy,
            d: ry.sin() * p.scale_y * sy,
            x: p.x * sx,
            y: p.y * sy,
        },
        Some(q) => {
            let (la, lb) = (rx.cos() * p.scale_x, ry.cos() * p.scale_y);
            let (lc, ld) = (rx.sin() * p.scale_x, ry.sin() * p.scale_y);
            WorldTransform {
                a: q.a * la + q.b * lc,
                b: q.a * lb + q.b * ld,
                c: q.c * la + q.d * lc,
                d: q.c * lb + q.d * ld,
                x: q.a * p.x + q.b * p.y + q.x,
                y: q.c * p.x + q.d * p.y + q.y,
            }
        }
    }
}

/// Asserts two values agree within `tol`, naming what is compared.
pub(crate) fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol,
        "{what}: got {got}, want {want} (tolerance {tol})"
    );
}
