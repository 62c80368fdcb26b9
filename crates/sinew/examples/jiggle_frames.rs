//! Runs N 60 Hz frames of 100 characters with 20 jiggle bones each (four 5-bone strands on a
//! moving body, the spring model with a capsule collider per strand: the rig of
//! `benches/jiggle.rs`), for instruction counts of the jiggle stage under callgrind.
//!
//!     cargo build --release -p sinew --example jiggle_frames
//!     valgrind --tool=callgrind target/release/examples/jiggle_frames N
//!
//! The count for N = 100 minus N = 0, over 100 · 100 frames, is the cost of one
//! character-frame (world transforms plus the jiggle stage). Prints the sum of the strand
//! tips' world positions, so two builds can be checked to compute the same result.

use sinew::Character;
use sinew::physics::jiggle::{
    ChainDesc, ColliderDesc, ColliderShape, JiggleDesc, JiggleRig, Preset,
};
use sinew::raw::{RawBone, RawRig};
use std::sync::Arc;

const CHARACTERS: usize = 100;
const STRANDS: usize = 4;
const PER_STRAND: usize = 5;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: u32 = match std::env::args().nth(1).map(|s| s.parse()) {
        Some(Ok(n)) => n,
        _ => return Err("usage: jiggle_frames N".into()),
    };
    let mut raw = RawRig::default();
    let mut add = |name: &str, parent: Option<&str>, x: f64, y: f64, rot: f64| {
        let mut b = RawBone::new(name, parent);
        b.length = if parent.is_some() { 12.0 } else { 0.0 };
        (b.x, b.y, b.rotation) = (x, y, rot);
        raw.bones.push(b);
    };
    add("root", None, 0.0, 0.0, 0.0);
    add("body", Some("root"), 0.0, 0.0, 90.0);
    let mut desc = JiggleDesc::new();
    desc.gravity = [0.0, -980.0];
    desc.colliders.push(ColliderDesc {
        name: "body".to_owned(),
        bone: "body".to_owned(),
        shape: ColliderShape::Capsule {
            offset: [0.0, 0.0],
            tail: [90.0, 0.0],
            radius: 15.0,
        },
    });
    for s in 0..STRANDS {
        let names: Vec<String> = (0..PER_STRAND).map(|k| format!("s{s}-{k}")).collect();
        for (k, name) in names.iter().enumerate() {
            if k == 0 {
                add(name, Some("body"), 100.0, (s as f64 - 1.5) * 10.0, 190.0);
            } else {
                add(name, Some(&names[k - 1]), 12.0, 0.0, 0.0);
            }
        }
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut c = ChainDesc::new(&format!("strand{s}"), &refs, Preset::HairTip.params());
        c.colliders.push("body".to_owned());
        desc.chains.push(c);
    }
    let rig = Arc::new(sinew::build::build_rig(&raw)?);
    let jiggle = Arc::new(JiggleRig::build(&rig, &desc)?);
    let mut crowd = Vec::with_capacity(CHARACTERS);
    for _ in 0..CHARACTERS {
        let mut c = Character::new(rig.clone());
        c.set_jiggle(Some(jiggle.clone()))?;
        c.update(0.0);
        crowd.push(c);
    }
    let tips: Vec<_> = (0..STRANDS)
        .map(|s| {
            crowd[0]
                .find_bone(&format!("s{s}-{}", PER_STRAND - 1))
                .ok_or("tip")
        })
        .collect::<Result<_, _>>()?;
    let mut sum = (0.0, 0.0);
    for frame in 1..=n {
        for (i, c) in crowd.iter_mut().enumerate() {
            c.set_position(30.0 * ((f64::from(frame) + i as f64) * 0.15).sin(), 0.0);
            c.update(1.0 / 60.0);
        }
    }
    for c in &crowd {
        for &t in &tips {
            let sinew::math::Vec2 { x, y } = c.local_to_world(t, (12.0, 0.0)).ok_or("tip")?;
            (sum.0, sum.1) = (sum.0 + x, sum.1 + y);
        }
    }
    println!("tips sum ({:e}, {:e})", sum.0, sum.1);
    Ok(())
}
