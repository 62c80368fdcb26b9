//! `sinew info`: a summary of a skeleton file (bones, slots, skins, animations with
//! durations, constraints, events), as text or `--json`.
//!
//! Works from the loader's raw rig, so it also describes files the builder would reject.
//! A clip's duration is its largest key time, as the official loader computes it.
//! Verified by the unit test below and the CLI tests on a fixture.

use crate::args::InfoArgs;
use crate::pose;
use crate::schema::{Obj, num};
use anyhow::Result;
use serde_json::Value;
use sinew::RawRig;
use sinew_formats::budget::Budgets;
use std::fmt::Write as _;

/// The summary as JSON: names per category, counts, durations.
pub fn info_json(raw: &RawRig, file: &str) -> Value {
    let names = |it: &mut dyn Iterator<Item = &String>| {
        Value::from(it.map(String::as_str).collect::<Vec<_>>())
    };
    let skins: Vec<Value> = raw
        .skins
        .iter()
        .map(|s| {
            Obj::new()
                .set("name", s.name.as_str())
                .num("attachments", s.attachments.len() as f64)
                .num("bones", s.bones.len() as f64)
                .num(
                    "constraints",
                    (s.ik.len() + s.transforms.len() + s.paths.len() + s.physics.len()) as f64,
                )
                .build()
        })
        .collect();
    let anims: Vec<Value> = raw
        .clips
        .iter()
        .map(|c| {
            Obj::new()
                .set("name", c.name.as_str())
                .set("duration", num(clip_duration(c)))
                .num("timelines", c.timelines.len() as f64)
                .build()
        })
        .collect();
    let constraints = Obj::new()
        .set("ik", names(&mut raw.ik.iter().map(|c| &c.name)))
        .set(
            "transform",
            names(&mut raw.transforms.iter().map(|c| &c.name)),
        )
        .set("path", names(&mut raw.paths.iter().map(|c| &c.name)))
        .set("physics", names(&mut raw.physics.iter().map(|c| &c.name)))
        .build();
    let counts = Obj::new()
        .num("bones", raw.bones.len() as f64)
        .num("slots", raw.slots.len() as f64)
        .num("skins", raw.skins.len() as f64)
        .num("animations", raw.clips.len() as f64)
        .num("ik", raw.ik.len() as f64)
        .num("transform", raw.transforms.len() as f64)
        .num("path", raw.paths.len() as f64)
        .num("physics", raw.physics.len() as f64)
        .num("events", raw.events.len() as f64)
        .build();
    Obj::new()
        .set("file", file)
        .set("version", raw.version.as_str())
        .set("hash", raw.hash.as_str())
        .set("counts", counts)
        .set("bones", names(&mut raw.bones.iter().map(|b| &b.name)))
        .set("slots", names(&mut raw.slots.iter().map(|s| &s.name)))
        .set("skins", skins)
        .set("animations", anims)
        .set("constraints", constraints)
        .set("events", names(&mut raw.events.iter().map(|e| &e.name)))
        .build()
}

/// A clip's duration: its largest key time as the runtime stores it (f32), seconds.
pub fn clip_duration(c: &sinew::raw::RawClip) -> f64 {
    c.timelines
        .iter()
        .filter_map(|t| t.keys.last())
        .map(|k| f64::from(k.time as f32))
        .fold(0.0, f64::max)
}

/// The summary as human-readable text.
pub fn info_text(raw: &RawRig, file: &str) -> String {
    let mut s = String::new();
    let list = |s: &mut String, label: &str, names: Vec<&str>| {
        let _ = write!(s, "{label} ({})", names.len());
        if !names.is_empty() {
            let _ = write!(s, ": {}", names.join(", "));
        }
        s.push('\n');
    };
    let version = if raw.version.is_empty() {
        "unknown"
    } else {
        raw.version.as_str()
    };
    let _ = writeln!(s, "{file}: Spine {version}");
    list(
        &mut s,
        "bones",
        raw.bones.iter().map(|b| b.name.as_str()).collect(),
    );
    list(
        &mut s,
        "slots",
        raw.slots.iter().map(|b| b.name.as_str()).collect(),
    );
    let _ = writeln!(s, "skins ({}):", raw.skins.len());
    for sk in &raw.skins {
        let _ = writeln!(s, "  {} ({} attachments)", sk.name, sk.attachments.len());
    }
    let _ = writeln!(s, "animations ({}):", raw.clips.len());
    for c in &raw.clips {
        let _ = writeln!(s, "  {} {:.4} s", c.name, clip_duration(c));
    }
    let total = raw.ik.len() + raw.transforms.len() + raw.paths.len() + raw.physics.len();
    let _ = writeln!(s, "constraints ({total}):");
    list(
        &mut s,
        "  ik",
        raw.ik.iter().map(|c| c.name.as_str()).collect(),
    );
    list(
        &mut s,
        "  transform",
        raw.transforms.iter().map(|c| c.name.as_str()).collect(),
    );
    list(
        &mut s,
        "  path",
        raw.paths.iter().map(|c| c.name.as_str()).collect(),
    );
    list(
        &mut s,
        "  physics",
        raw.physics.iter().map(|c| c.name.as_str()).collect(),
    );
    list(
        &mut s,
        "events",
        raw.events.iter().map(|e| e.name.as_str()).collect(),
    );
    s
}

/// Runs `sinew info` and returns what to print.
pub fn info(args: &InfoArgs, budgets: &Budgets) -> Result<String> {
    let format = crate::guard::Format::of(budgets, &args.file)?;
    if format == crate::guard::Format::Puppet {
        return crate::inochi::info(args, budgets);
    }
    let raw = pose::load_raw(budgets, &args.file)?;
    let file = args.file.display().to_string();
    let dragonbones = format == crate::guard::Format::DragonBones;
    Ok(if args.json {
        let mut v = info_json(&raw, &file);
        if dragonbones {
            v["format"] = "dragonbones".into();
        }
        let mut s = v.to_string();
        s.push('\n');
        s
    } else if dragonbones {
        // The version line names the format the content is in.
        info_text(&raw, &file).replacen(": Spine ", ": DragonBones ", 1)
    } else {
        info_text(&raw, &file)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sinew::raw::{RawBone, RawClip, RawCurve, RawKey, RawKeyData, RawTarget, RawTimeline};

    fn key(time: f64) -> RawKey {
        RawKey {
            time,
            values: vec![],
            curve: RawCurve::Linear,
            data: RawKeyData::None,
        }
    }

    #[test]
    fn summarises_a_hand_built_rig() {
        let mut raw = RawRig {
            version: "4.2.22".into(),
            ..Default::default()
        };
        raw.bones.push(RawBone::new("root", None));
        raw.bones.push(RawBone::new("hip", Some("root")));
        raw.clips.push(RawClip {
            name: "walk".into(),
            timelines: vec![
                RawTimeline {
                    target: RawTarget::DrawOrder,
                    keys: vec![key(0.0), key(0.75)],
                },
                RawTimeline {
                    target: RawTarget::Event,
                    keys: vec![key(1.5)],
                },
            ],
            playback: None,
        });
        let j = info_json(&raw, "x.json");
        assert_eq!(j["counts"]["bones"], 2);
        assert_eq!(j["bones"][1], "hip");
        assert_eq!(j["animations"][0]["duration"], 1.5);
        let t = info_text(&raw, "x.json");
        assert!(t.contains("bones (2): root, hip"), "{t}");
        assert!(t.contains("walk 1.5000 s"), "{t}");
    }
}
