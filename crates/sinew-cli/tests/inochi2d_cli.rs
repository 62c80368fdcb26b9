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
            s["name"]
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
