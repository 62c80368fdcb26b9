//! A rig made by code with a jiggle chain attached from code: the body moves right and stops,
//! the tail lags, overshoots and settles. Prints the tail tip's offset from its animated place.
//!
//!     cargo run --release -p sinew --example jiggle_code

use sinew::Character;
use sinew::physics::jiggle::{ChainDesc, JiggleDesc, JiggleRig, Preset};
use sinew::raw::{RawBone, RawRig};
use sinew::rig::LocalPose;
use std::sync::Arc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut raw = RawRig::default();
    raw.bones.push(RawBone::new("body", None));
    for (name, parent) in [
        ("tail-1", "body"),
        ("tail-2", "tail-1"),
        ("tail-3", "tail-2"),
    ] {
        let mut b = RawBone::new(name, Some(parent));
        b.x = 20.0;
        b.length = 20.0;
        raw.bones.push(b);
    }
    let rig = Arc::new(sinew::build::build_rig(&raw)?);
    let mut desc = JiggleDesc::new();
    desc.gravity = [0.0, -980.0];
    desc.chains.push(ChainDesc::new(
        "tail",
        &["tail-1", "tail-2", "tail-3"],
        Preset::Tail.params(),
    ));
    let jiggle = Arc::new(JiggleRig::build(&rig, &desc)?);

    // One character with the jiggle, one without, posed the same way.
    let mut springy = Character::new(rig.clone());
    springy.set_jiggle(Some(jiggle))?;
    let mut stiff = Character::new(rig.clone());
    let body = springy.find_bone("body").ok_or("body")?;
    let tip = springy.find_bone("tail-3").ok_or("tail-3")?;
    for frame in 0..120 {
        let x = (f64::from(frame) * 4.0).min(200.0);
        for c in [&mut springy, &mut stiff] {
            c.set_bone_local(
                body,
                LocalPose {
                    x,
                    ..LocalPose::IDENTITY
                },
            )?;
            c.update(1.0 / 60.0);
        }
        if frame % 10 == 0 {
            let j = springy.local_to_world(tip, (20.0, 0.0)).ok_or("tip")?;
            let a = stiff.local_to_world(tip, (20.0, 0.0)).ok_or("tip")?;
            println!(
                "frame {frame:3}: tail tip off its animated place by ({:7.2}, {:7.2})",
                j.x - a.x,
                j.y - a.y
            );
        }
    }
    Ok(())
}
