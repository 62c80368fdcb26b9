//! The parameter stage's skipping (unchanged parameters, clean deform buffers, world
//! transform subsets around physics) gives exactly what recomputing everything gives.
//!
//! Two instances of the shared `synthetic_medium.inp` get the same inputs for 240 frames:
//! only some parameters moving, frames where nothing moves, a parameter muted and unmuted,
//! an attachment cleared and restored, uneven steps and a hitch. One keeps its cache; the
//! other's cache is invalidated before every frame (so every binding and deform buffer is
//! recomputed). World transforms, deform buffers, colours, visibility and the draw order
//! must agree bit for bit, and a full world-transform pass over the cached instance's final
//! locals must reproduce its world transforms (the bone subsets left nothing stale).

use sinew::character::update_params;
use sinew::types::Physics;
use sinew::{Instance, ParamId, Rig};
use sinew_formats::inochi2d::{build_puppet, load_inochi2d};

fn medium() -> Option<Rig> {
    let dir = sinew_testutil::require_fixtures("inochi2d_cache")?;
    let path = dir.join("inochi2d/synthetic_medium.inp");
    Some(build_puppet(&load_inochi2d(&path).expect("load")).expect("build"))
}

fn drive(rig: &Rig, inst: &mut Instance, frame: usize, time: f64) {
    // Frames 60..80 hold every parameter still; otherwise a third of them move.
    if (60..80).contains(&frame) {
        return;
    }
    for i in (0..rig.params.params.len()).filter(|i| i % 3 == frame % 3 || *i < 4) {
        let t = time * 1.3 + i as f64 * 0.37;
        inst.params
            .set(rig, ParamId(i as u16), [t.sin(), (t * 0.7).cos()]);
    }
    // Mute a deforming parameter for a while.
    if let Some(m) = inst.params.muted.get_mut(1) {
        *m = (100..130).contains(&frame);
    }
}

fn assert_same(rig: &Rig, a: &Instance, b: &Instance, frame: usize) {
    for (i, (wa, wb)) in a.world.iter().zip(&b.world).enumerate() {
        let (x, y) = (
            [wa.a, wa.b, wa.c, wa.d, wa.x, wa.y],
            [wb.a, wb.b, wb.c, wb.d, wb.x, wb.y],
        );
        assert!(
            x.iter().zip(&y).all(|(p, q)| p.to_bits() == q.to_bits()),
            "frame {frame}: bone {} world {x:?} vs {y:?}",
            rig.bones[i].name
        );
    }
    assert_eq!(a.slots.deform_len, b.slots.deform_len, "frame {frame}");
    for s in 0..rig.slots.len() {
        let start = a.slots.deform_start[s] as usize;
        let n = a.slots.deform_len[s] as usize;
        let (da, db) = (
            &a.slots.deform[start..start + n],
            &b.slots.deform[start..start + n],
        );
        assert!(
            da.iter().zip(db).all(|(p, q)| p.to_bits() == q.to_bits()),
            "frame {frame}: slot {} deform differs",
            rig.slots[s].name
        );
    }
    assert_eq!(a.slots.color, b.slots.color, "frame {frame}");
    assert_eq!(a.params.visible, b.params.visible, "frame {frame}");
    assert_eq!(a.draw_order, b.draw_order, "frame {frame}");
}

#[test]
fn cached_frames_match_uncached() {
    let Some(rig) = medium() else { return };
    let mut cached = Instance::new(&rig);
    let mut fresh = Instance::new(&rig);
    let mut time = 0.0;
    let target = rig
        .params
        .deform_slots
        .first()
        .copied()
        .expect("a deformed slot");
    let saved = cached.slots.attachment[target.index()];
    for frame in 0..240 {
        let dt = match frame {
            150 => 0.25,
            f if f % 7 == 0 => 1.0 / 144.0,
            _ => 1.0 / 60.0,
        };
        time += dt;
        drive(&rig, &mut cached, frame, time);
        drive(&rig, &mut fresh, frame, time);
        // Clear and restore an attachment (as a user or a clip could).
        let att = if (170..175).contains(&frame) {
            None
        } else {
            saved
        };
        cached.slots.attachment[target.index()] = att;
        fresh.slots.attachment[target.index()] = att;
        fresh.params.invalidate_cache();
        update_params(&rig, &mut cached, dt, true);
        update_params(&rig, &mut fresh, dt, true);
        assert_same(&rig, &cached, &fresh, frame);
        if frame % 40 == 39 {
            let mut full = cached.clone();
            sinew::skeleton::update_world_transform(&rig, &mut full, Physics::None);
            assert_same(&rig, &cached, &full, frame);
        }
    }
}
