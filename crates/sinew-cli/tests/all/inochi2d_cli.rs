//! `sinew dump` and `sinew info` on the shared Inochi2D fixtures, in-process.

use clap::Parser;
use sinew_cli::args::Cli;

fn run(args: &[&str]) -> anyhow::Result<String> {
    let cli = Cli::try_parse_from(std::iter::once("sinew").chain(args.iter().copied()))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    sinew_cli::run_guarded(&cli)
}

#[test]
fn dump_and_info_of_a_puppet() {
    let Some(dir) = sinew_testutil::require_fixtures("dump_and_info_of_a_puppet") else {
        return;
    };
    let tiny = dir.join("inochi2d/synthetic_tiny.inp");
    let tiny = tiny.to_str().expect("utf-8 path");
    let out = run(&[
        "dump",
        tiny,
        "--param",
        "Param2D_00=0.5,-0.25",
        "--param",
        "Param1D_00=-0.3",
        "--times",
        "0,0.5",
        "--physics",
        "none",
    ])
    .expect("dump");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let frames = v["frames"].as_array().expect("frames");
    assert_eq!(frames.len(), 2);
    let slots = frames[0]["slots"].as_array().expect("slots");
    // Three parts and the composite's child; every shown mesh has 16 vertices.
    assert_eq!(slots.len(), 3);
    for s in slots {
        assert_eq!(
            s["vertices"].as_array().expect("vertices").len(),
            32,
            "{}",
            s["slot"]
        );
    }
    assert_eq!(frames[0]["params"]["Param1D_00"].as_f64(), Some(-0.3));
    let info = run(&["info", tiny]).expect("info");
    assert!(
        info.contains("Param2D_00: x -1..1 (default 0), y -1..1 (default 0)"),
        "{info}"
    );
    assert!(
        info.contains("Phys_00") && info.contains("[physics]"),
        "{info}"
    );
    let e = run(&["dump", tiny, "--param", "Nope=1"]).expect_err("unknown param");
    assert!(
        format!("{e:#}").contains("parameter not found: Nope"),
        "{e:#}"
    );
}

/// A Cubism physics3 file with one chain: `Param2D_00`'s x moves the root sideways, a side
/// wind blows, and the second particle's angle drives `Param1D_00` (both synthetic_tiny
/// parameters).
const PHYSICS3: &str = r#"{
  "Version": 3,
  "Meta": { "Fps": 60, "EffectiveForces": { "Gravity": { "X": 0, "Y": -1 },
            "Wind": { "X": 5, "Y": 0 } } },
  "PhysicsSettings": [{
    "Id": "Sway",
    "Input": [{ "Source": { "Target": "Parameter", "Id": "Param2D_00" },
                "Weight": 100, "Type": "X", "Reflect": false }],
    "Output": [{ "Destination": { "Target": "Parameter", "Id": "Param1D_00" },
                 "VertexIndex": 1, "Scale": 2.0, "Weight": 100, "Type": "Angle",
                 "Reflect": false }],
    "Vertices": [
      { "Position": { "X": 0, "Y": 0 }, "Mobility": 1, "Delay": 1,
        "Acceleration": 1, "Radius": 0 },
      { "Position": { "X": 0, "Y": 10 }, "Mobility": 0.9, "Delay": 0.8,
        "Acceleration": 1.5, "Radius": 10 }
    ],
    "Normalization": {
      "Position": { "Minimum": -10, "Default": 0, "Maximum": 10 },
      "Angle": { "Minimum": -10, "Default": 0, "Maximum": 10 }
    }
  }]
}"#;

#[test]
fn physics3_chains_attach_to_a_puppet() {
    let Some(dir) = sinew_testutil::require_fixtures("physics3_chains_attach") else {
        return;
    };
    let tiny = dir.join("inochi2d/synthetic_tiny.inp");
    let tiny = tiny.to_str().expect("utf-8 path");
    let tmp = std::env::temp_dir().join(format!("sinew-physics3-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let good = tmp.join("sway.physics3.json");
    std::fs::write(&good, PHYSICS3).expect("write");
    let good = good.to_str().expect("utf-8 path");
    let info = run(&["info", tiny, "--physics3", good]).expect("info");
    assert!(info.contains("chains: 1"), "{info}");
    // With the chain the wind swings Param1D_00, so the parts it moves differ from the same
    // dump without the chain.
    let dump = |extra: &[&str]| {
        let mut args = vec![
            "dump",
            tiny,
            "--param",
            "Param2D_00=1,0",
            "--times",
            "0.1,0.3,0.5",
        ];
        args.extend_from_slice(extra);
        let out = run(&args).expect("dump");
        serde_json::from_str::<serde_json::Value>(&out).expect("json")["frames"].clone()
    };
    let (with, without) = (dump(&["--physics3", good]), dump(&[]));
    let swing = |frames: &serde_json::Value| frames[2]["params"]["Param1D_00"].as_f64();
    assert_eq!(swing(&without), Some(0.0));
    let s = swing(&with).expect("Param1D_00");
    assert!(s.abs() > 1e-3 && s.abs() <= 1.0, "Param1D_00 swung to {s}");
    assert_ne!(
        with[2]["slots"], without[2]["slots"],
        "the swing moved the parts"
    );
    // A chain that names a parameter the puppet lacks is refused, naming both.
    let bad = tmp.join("bad.physics3.json");
    std::fs::write(&bad, PHYSICS3.replace("Param1D_00", "ParamHairFront")).expect("write");
    let e = run(&["info", tiny, "--physics3", bad.to_str().expect("utf-8")])
        .expect_err("unknown parameter")
        .to_string();
    assert!(e.contains("Sway") && e.contains("ParamHairFront"), "{e}");
}

/// sinew's own face puppet (`examples/face/face.inp`), always present.
fn face() -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/face/face.inp")
        .display()
        .to_string()
}

#[test]
fn validate_accepts_a_puppet() {
    let face = face();
    let out = run(&["validate", &face]).expect("a puppet validates");
    assert!(
        out.starts_with("ok: ") && out.contains("Inochi2D puppet"),
        "{out}"
    );
    let bad = std::env::temp_dir().join(format!("sinew-bad-{}.inp", std::process::id()));
    std::fs::write(&bad, b"TRNSRTS\0 not a puppet").expect("write");
    let e = run(&["validate", bad.to_str().expect("utf-8")]).expect_err("a broken puppet");
    assert!(
        format!("{e:#}").contains("sinew-bad-"),
        "names the file: {e:#}"
    );
    let _ = std::fs::remove_file(&bad);
}

#[test]
fn puppet_dump_names_slots_like_the_spine_dump() {
    let face = face();
    let out = run(&["dump", &face, "--times", "0"]).expect("dump");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let slots = v["frames"][0]["slots"].as_array().expect("slots");
    assert!(!slots.is_empty());
    for s in slots {
        assert!(s["slot"].is_string() && s.get("name").is_none(), "{s}");
    }
}
