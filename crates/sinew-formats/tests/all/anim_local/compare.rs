//! Comparing an instance with oracle frames: local bone values, inherit modes, slots in draw
//! order and animatable constraint values (shared by the `anim_local` tests).

use super::{TOL, TOL_COLOR};
use serde_json::Value;
use sinew::rig::Rig;
use sinew::{Inherit, Instance};

pub(crate) fn inherit_index(i: Inherit) -> f64 {
    match i {
        Inherit::Normal => 0.0,
        Inherit::OnlyTranslation => 1.0,
        Inherit::NoRotationOrReflection => 2.0,
        Inherit::NoScale => 3.0,
        Inherit::NoScaleOrReflection => 4.0,
        Inherit::DragonBones(_) => 5.0,
    }
}

/// The expected rows of the current frame: data files write a bone or slot row that equals
/// the previous frame's as `0`.
#[derive(Default)]
pub(crate) struct Expected {
    local: Vec<Value>,
    slots: Vec<Value>,
}

impl Expected {
    fn unpack(rows: &mut Vec<Value>, packed: &Value) {
        let packed = packed.as_array().unwrap();
        rows.resize(packed.len(), Value::Null);
        for (row, p) in rows.iter_mut().zip(packed) {
            if p.as_u64() != Some(0) {
                *row = p.clone();
            }
        }
    }

    pub(crate) fn next(&mut self, frame: &Value) {
        Self::unpack(&mut self.local, &frame["local"]);
        Self::unpack(&mut self.slots, &frame["slots"]);
    }
}

/// Compares local bone values, inherit modes and the slots (draw order, attachment, colours,
/// sequence index) with an expected frame; returns the largest relative local error.
pub(crate) fn compare_pose(
    rig: &Rig,
    inst: &Instance,
    bones: &Value,
    exp: &Expected,
    report: &mut dyn FnMut(String),
) -> f64 {
    let mut max_err: f64 = 0.0;
    // Bones.
    for (i, (name, want)) in bones.as_array().unwrap().iter().zip(&exp.local).enumerate() {
        let p = &inst.pose[i];
        let got = [
            p.x,
            p.y,
            p.rotation,
            p.scale_x,
            p.scale_y,
            p.shear_x,
            p.shear_y,
            inherit_index(inst.inherit[i]),
        ];
        for (k, w) in want.as_array().unwrap().iter().enumerate() {
            let w = w.as_f64().unwrap();
            let err = (got[k] - w).abs() / w.abs().max(1.0);
            max_err = max_err.max(err);
            if err > TOL {
                report(format!("bone {name} value {k}: {} vs oracle {w}", got[k]));
            }
        }
    }
    // Slots in draw order.
    for (pos, row) in exp.slots.iter().enumerate() {
        let row = row.as_array().unwrap();
        let slot = inst.draw_order[pos];
        let sd = &rig.slots[slot.index()];
        if sd.name != row[0].as_str().unwrap() {
            report(format!(
                "draw order {pos}: {} vs oracle {}",
                sd.name, row[0]
            ));
            continue;
        }
        let att =
            inst.slots.attachment[slot.index()].map(|a| rig.attachments[a.index()].name.as_str());
        if att != row[1].as_str() {
            report(format!(
                "slot {} attachment {att:?} vs oracle {}",
                sd.name, row[1]
            ));
        }
        let c = inst.slots.color[slot.index()];
        let got = [c.r, c.g, c.b, c.a];
        for (k, w) in row[2].as_array().unwrap().iter().enumerate() {
            if (f64::from(got[k]) - w.as_f64().unwrap()).abs() > TOL_COLOR {
                report(format!(
                    "slot {} colour {k}: {} vs oracle {w}",
                    sd.name, got[k]
                ));
            }
        }
        if let Some(dark) = row[3].as_array() {
            let d = inst.slots.dark[slot.index()];
            let got = [d.r, d.g, d.b];
            for (k, w) in dark.iter().enumerate() {
                if (f64::from(got[k]) - w.as_f64().unwrap()).abs() > TOL_COLOR {
                    report(format!(
                        "slot {} dark {k}: {} vs oracle {w}",
                        sd.name, got[k]
                    ));
                }
            }
        }
        if let Some(si) = row[4].as_i64() {
            let got = inst.slots.sequence_index[slot.index()];
            if i64::from(got) != si {
                report(format!(
                    "slot {} sequence index {got} vs oracle {si}",
                    sd.name
                ));
            }
        }
    }
    max_err
}

/// Compares the animatable constraint values (IK, transform, path, physics) with a
/// scenario frame's; returns the largest relative error.
pub(crate) fn compare_constraints(
    inst: &Instance,
    want: &Value,
    report: &mut dyn FnMut(String),
) -> f64 {
    let b = |v: bool| if v { 1.0 } else { 0.0 };
    let got: [(&str, Vec<Vec<f64>>); 4] = [
        (
            "ik",
            inst.ik
                .iter()
                .map(|c| {
                    vec![
                        c.mix,
                        c.softness,
                        f64::from(c.bend_direction),
                        b(c.compress),
                        b(c.stretch),
                    ]
                })
                .collect(),
        ),
        (
            "transform",
            inst.transforms
                .iter()
                .map(|m| vec![m.rotate, m.x, m.y, m.scale_x, m.scale_y, m.shear_y])
                .collect(),
        ),
        (
            "path",
            inst.paths
                .iter()
                .map(|p| vec![p.position, p.spacing, p.mix_rotate, p.mix_x, p.mix_y])
                .collect(),
        ),
        (
            "physics",
            inst.physics
                .iter()
                .map(|p| {
                    let q = &p.params;
                    vec![
                        q.inertia,
                        q.strength,
                        q.damping,
                        q.mass_inverse,
                        q.wind,
                        q.gravity,
                        q.mix,
                    ]
                })
                .collect(),
        ),
    ];
    let mut max_err: f64 = 0.0;
    for (kind, rows) in got {
        let Some(want_rows) = want[kind].as_array() else {
            continue;
        };
        if want_rows.len() != rows.len() {
            report(format!(
                "{} {kind} constraints vs oracle {}",
                rows.len(),
                want_rows.len()
            ));
            continue;
        }
        for (i, (w, g)) in want_rows.iter().zip(&rows).enumerate() {
            for (k, (w, g)) in w.as_array().unwrap().iter().zip(g).enumerate() {
                let w = w.as_f64().unwrap();
                let err = (g - w).abs() / w.abs().max(1.0);
                max_err = max_err.max(err);
                if err > TOL {
                    report(format!(
                        "{kind} constraint {i} value {k}: {g} vs oracle {w}"
                    ));
                }
            }
        }
    }
    max_err
}
