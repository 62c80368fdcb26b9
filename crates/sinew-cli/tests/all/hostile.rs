//! Hostile input, one class of issue 12 per test: every crafted file is generated here (no
//! large committed file), and the binary runs under a 10 s timeout and a 4 GiB address-space
//! cap (`timeout` and `prlimit`: without them the tests fail under CI and are skipped
//! elsewhere, with a notice). Each run must end with exit status 0 or 1,
//! no panic, no `null`/NaN in its output, and an error that names the file or the option.

use crate::common::harness;

use harness::{FACE, STICKBOT, run_refused, s, scratch, sinew, write};
use std::process::Command;

/// A run that refuses its input: exit 1 (or 2 for clap), one line naming every needle,
/// no panic, no timeout or memory kill.
fn refused(args: &[&str], needles: &[&str]) {
    let (code, err) = run_refused(args, needles);
    assert!(
        matches!(code, Some(1 | 2)),
        "{args:?}: exit {code:?} (killed: a hang or out of memory?); stderr: {err}"
    );
}

/// A run that succeeds without a non-finite number in its output.
fn finite_ok(args: &[&str]) -> String {
    let o = sinew(args);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(no_nonfinite(&out), "{args:?}: {out}");
    out
}

/// No `null` where a number belongs in any frame of a dump (other output passes).
fn no_nonfinite(out: &str) -> bool {
    match serde_json::from_str::<serde_json::Value>(out) {
        Ok(v) => v
            .get("frames")
            .and_then(|f| f.as_array())
            .is_none_or(|frames| {
                frames
                    .iter()
                    .all(|f| sinew_cli::guard::first_nonfinite(f).is_none())
            }),
        Err(_) => !out.contains("NaN") && !out.contains("inf"),
    }
}

#[test]
fn unbounded_work_is_refused_by_a_budget() {
    if !harness::capped("unbounded_work_is_refused_by_a_budget") {
        return;
    }
    let f = STICKBOT;
    refused(
        &["dump", f, "--anim", "walk", "--fps", "1e9", "--times", "1"],
        &["steps budget", "--max-steps", "--fps"],
    );
    refused(&["dump", f, "--times", "1e12"], &["steps budget", "1e12"]);
    refused(
        &["dump", f, "--times", "0:1000000:0.5"],
        &["samples budget", "--times"],
    );
    let out = scratch("x.gif");
    for d in ["inf", "1e9"] {
        refused(
            &[
                "render",
                f,
                "--anim",
                "walk",
                "--duration",
                d,
                "--out",
                s(&out),
            ],
            &["--duration"],
        );
    }
    // Every frame within the canvas budget, but 30 of them at 4096x4096 to a GIF: about
    // 90 s of palette quantising. Refused before anything is drawn, and the APNG too (its
    // 500 Mi pixels take about 12 s to encode).
    let big = ["--size", "4096x4096", "--fps", "30", "--duration", "1"];
    refused(
        &[
            &["render", f, "--anim", "walk", "--out", s(&out)][..],
            &big[..],
        ]
        .concat(),
        &[
            "output_pixels budget",
            "--max-output-pixels",
            "of 4096x4096",
            "--size",
        ],
    );
    let apng = scratch("x.apng");
    refused(
        &[
            &["render", f, "--anim", "walk", "--out", s(&apng)][..],
            &big[..],
        ]
        .concat(),
        &["output_pixels budget", "--max-output-pixels"],
    );
    let pattern = scratch("f%0999999d.png");
    refused(
        &["render", f, "--anim", "walk", "--out", s(&pattern)],
        &["--out", "20 digits"],
    );
    refused(
        &["bench", f, "--anim", "walk", "--instances", "4294967295"],
        &["instances budget", "--max-instances"],
    );
    // Raising a budget lets the same request through.
    finite_ok(&[
        "dump",
        f,
        "--anim",
        "walk",
        "--times",
        "0.1",
        "--fps",
        "100000",
        "--max-steps",
        "20000000",
    ]);
}

#[test]
fn spine_physics_steps_at_the_cap() {
    if !harness::capped("spine_physics_steps_at_the_cap") {
        return;
    }
    // A physics constraint asking for a billion steps a second steps at 1000
    // (constraint::physics docs): a second of dump finishes at once and stays finite.
    let rig = r#"{"skeleton": {"spine": "4.2.22"}, "bones": [{"name": "root"},
        {"name": "tip", "parent": "root", "length": 50, "x": 10}],
        "physics": [{"name": "p", "bone": "tip", "fps": 1e9, "x": 1, "rotate": 1}],
        "animations": {"move": {"bones": {"root": {"translate": [{"time": 0}, {"time": 1, "x": 300}]}}}}}"#;
    let p = write("fps.json", rig.as_bytes());
    finite_ok(&["dump", s(&p), "--anim", "move", "--times", "0:1:0.25"]);
}

#[test]
fn memory_the_input_asks_for_is_refused() {
    if !harness::capped("memory_the_input_asks_for_is_refused") {
        return;
    }
    // /dev/zero and a FIFO are not read at all.
    refused(
        &["validate", "/dev/zero"],
        &["/dev/zero", "not a regular file"],
    );
    refused(
        &[
            "render",
            STICKBOT,
            "--atlas",
            "/dev/zero",
            "--anim",
            "walk",
            "--out",
            "/tmp/x.png",
        ],
        &["atlas /dev/zero", "not a regular file"],
    );
    let fifo = scratch("fifo.json");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        refused(&["dump", s(&fifo)], &["FIFO"]);
        refused(
            &["dump", STICKBOT, "--extras", s(&fifo)],
            &["extras", "FIFO"],
        );
    }
    // A PNG header saying 11000x11000 is refused before decoding (budget of 100 MB here).
    // Only the header: the budget refuses it before any pixel is decoded.
    let chunk = |kind: &[u8], data: &[u8], out: &mut Vec<u8>| {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let crc = sinew::cage::format::crc32(&[kind, data]);
        out.extend_from_slice(&crc.to_be_bytes());
    };
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&11000u32.to_be_bytes());
    ihdr.extend_from_slice(&11000u32.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    chunk(b"IHDR", &ihdr, &mut png);
    chunk(
        b"IDAT",
        &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
        &mut png,
    );
    chunk(b"IEND", &[], &mut png);
    let dir = scratch("big");
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("page.png"), &png).expect("png");
    std::fs::write(
        dir.join("r.atlas"),
        "page.png\nsize: 11000,11000\nr\nbounds: 0,0,10,10\n",
    )
    .expect("atlas");
    let rig = r#"{"bones": [{"name": "root"}], "slots": [{"name": "s", "bone": "root", "attachment": "r"}],
        "skins": [{"name": "default", "attachments": {"s": {"r": {"width": 10, "height": 10}}}}],
        "animations": {"a": {}}}"#;
    std::fs::write(dir.join("r.json"), rig).expect("rig");
    let out = scratch("big.png");
    refused(
        &[
            "render",
            s(&dir.join("r.json")),
            "--anim",
            "a",
            "--out",
            s(&out),
            "--max-texture-bytes",
            "100000000",
        ],
        &["page.png", "texture_bytes budget"],
    );
    // A huge canvas is refused by the pixel budget; a JSON document with too many values is
    // refused before it is parsed.
    let gif = scratch("wide.gif");
    refused(
        &[
            "render",
            STICKBOT,
            "--anim",
            "walk",
            "--size",
            "16384x4096",
            "--out",
            s(&gif),
        ],
        &["canvas_pixels budget", "16384x4096"],
    );
    let mut many = b"{\"bones\": [".to_vec();
    many.extend(std::iter::repeat_n(b"0,".as_slice(), 2000).flatten());
    many.extend_from_slice(b"0]}");
    let p = write("many.json", &many);
    refused(
        &["validate", s(&p), "--max-json-values", "1000"],
        &["many.json", "json_values budget"],
    );
}

#[test]
fn non_finite_values_are_refused_with_their_path() {
    if !harness::capped("non_finite_values_are_refused_with_their_path") {
        return;
    }
    for (name, rig, path) in [
        (
            "huge.json",
            r#"{"bones": [{"name": "root", "x": 3e38, "scaleX": 3e38}]}"#,
            "$.bones[0].x",
        ),
        (
            "mass.json",
            r#"{"bones": [{"name": "root"}, {"name": "b", "parent": "root", "length": 10}],
               "physics": [{"name": "p", "bone": "b", "x": 1, "mass": 1e-38}]}"#,
            "mass",
        ),
        (
            "refscale.json",
            r#"{"skeleton": {"referenceScale": 0}, "bones": [{"name": "root"}, {"name": "b", "parent": "root", "length": 10}],
               "physics": [{"name": "p", "bone": "b", "rotate": 1}]}"#,
            "referenceScale",
        ),
    ] {
        let p = write(name, rig.as_bytes());
        refused(&["dump", s(&p)], &[name, path]);
    }
    refused(
        &["dump", STICKBOT, "--round", "4000000000"],
        &["--round", "4000000000"],
    );
    // A degenerate pose (scale 0 under --local) stays finite: the applied pose through the
    // root's pseudo-inverse (`sinew::math::inverse_linear`), exit 0.
    let rig = r#"{"bones": [{"name": "root", "scaleX": 0, "scaleY": 0}, {"name": "b", "parent": "root", "x": 5}]}"#;
    let p = write("zero.json", rig.as_bytes());
    finite_ok(&["dump", s(&p), "--local"]);
}

#[test]
fn degenerate_cages_and_weights_are_refused() {
    if !harness::capped("degenerate_cages_and_weights_are_refused") {
        return;
    }
    for (name, cage, needle) in [
        ("collinear.json", "[[0,0],[1,1],[2,2],[3,3]]", "collinear"),
        ("bowtie.json", "[[0,0],[1,1],[1,0],[0,1]]", "cross"),
        (
            "tiny.json",
            "[[0,0],[1e-300,0],[1e-300,1e-300],[0,1e-300]]",
            "tolerance",
        ),
        ("dup.json", "[[0,0],[1,0],[1,0],[0,1]]", "coincides"),
        ("far.json", "[[0,0],[1e300,0],[0,1]]", "1e300"),
    ] {
        let doc = format!(r#"{{"loops": [{cage}], "points": [[0.25, 0.25]]}}"#);
        let p = write(name, doc.as_bytes());
        refused(&["cage", "weights", s(&p)], &[name, needle]);
    }
    // A checksum-valid weights file whose weights are 3.4e38 is refused at load.
    let mesh = write(
        "mesh.json",
        br#"{"vertices": [[0,0],[1,0],[1,1],[0,1],[0.5,0.5]], "loops": [[[0,0],[1,0],[1,1],[0,1]]]}"#,
    );
    let w = scratch("w.bin");
    finite_ok(&["cage", "bind", s(&mesh), "--out", s(&w)]);
    let mut bytes = std::fs::read(&w).expect("weights");
    let header = 40;
    for k in (header..bytes.len()).step_by(4) {
        bytes[k..k + 4].copy_from_slice(&3.4e38f32.to_le_bytes());
    }
    let crc = sinew::cage::format::crc32(&[&bytes[..32], &bytes[header..]]);
    bytes[32..36].copy_from_slice(&crc.to_le_bytes());
    let bad = write("bad.bin", &bytes);
    let cage = write("cage.json", br#"{"cage": [[0,0],[2,0],[2,2],[0,2]]}"#);
    refused(
        &["cage", "deform", s(&bad), s(&cage)],
        &["bad.bin", "out of range"],
    );
    let far = write(
        "far-cage.json",
        br#"{"cage": [[0,0],[1e300,0],[2,2],[0,2]]}"#,
    );
    refused(
        &["cage", "deform", s(&w), s(&far)],
        &["far-cage.json", "$.cage[1][0]"],
    );
}

#[test]
fn errors_name_the_culprit() {
    if !harness::capped("errors_name_the_culprit") {
        return;
    }
    let f = STICKBOT;
    refused(&["dump", f, "--fps", "-1"], &["--fps", "-1"]);
    refused(&["dump", f, "--mix", "-1", "--anim", "walk"], &["--mix"]);
    let out = scratch("o.png");
    refused(
        &[
            "render",
            f,
            "--anim",
            "walk",
            "--size",
            "-5x-5",
            "--out",
            s(&out),
        ],
        &["--size", "-5x-5"],
    );
    refused(
        &["render", f, "--anim", "nope", "--out", s(&out)],
        &["stickbot.json", "animation not found: nope"],
    );
    refused(
        &["dump", f, "--physics3", f],
        &["--physics3", "does not apply", "Spine"],
    );
    refused(
        &["dump", FACE, "--extras", f],
        &["--extras", "does not apply", "puppet"],
    );
    for opt in [["--skin", "x"], ["--atlas", "none"]] {
        refused(
            &["render", FACE, opt[0], opt[1], "--out", s(&out)],
            &[opt[0], "does not apply"],
        );
    }
    refused(
        &["dump", FACE, "--param", "ParamAngle=0.5,NaN"],
        &["--param", "NaN"],
    );
    // A BOM is accepted in JSON and atlases.
    let mut bom = b"\xef\xbb\xbf".to_vec();
    bom.extend_from_slice(&std::fs::read(f).expect("stickbot"));
    let p = write("bom.json", &bom);
    finite_ok(&["validate", s(&p)]);
    // A DragonBones file without an armature or an arbitrary object is not an empty Spine
    // rig (a crafted armature that loads: hostile_formats.rs).
    let p = write(
        "db.json",
        br#"{"frameRate": 24, "armature": [], "version": "5.5"}"#,
    );
    let o = sinew(&["validate", s(&p)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(
        err.contains("db.json") && err.contains("$.armature") && !err.contains("Spine"),
        "{err}"
    );
    let p = write("obj.json", br#"{"hello": 1}"#);
    refused(&["validate", s(&p)], &["obj.json", "not a Spine skeleton"]);
    // validate takes every format.
    finite_ok(&["validate", FACE]);
}

/// `slots` region slots of `size` x `size` world units, all on the root at the origin: every
/// one covers the whole view, so a frame fills `slots` times the image.
fn overdraw_rig(slots: usize, size: u32) -> String {
    let names: Vec<String> = (0..slots).map(|i| format!("s{i}")).collect();
    let slot_list: Vec<String> = names
        .iter()
        .map(|n| format!(r#"{{"name":"{n}","bone":"root","attachment":"r"}}"#))
        .collect();
    let atts: Vec<String> = names
        .iter()
        .map(|n| format!(r#""{n}":{{"r":{{"width":{size},"height":{size}}}}}"#))
        .collect();
    format!(
        r#"{{"skeleton":{{"spine":"4.2.0","width":{size},"height":{size}}},"bones":[{{"name":"root"}}],"slots":[{}],"skins":[{{"name":"default","attachments":{{{}}}}}],"animations":{{"still":{{}}}}}}"#,
        slot_list.join(","),
        atts.join(",")
    )
}

#[test]
fn overdraw_is_bounded_by_the_fill_budget() {
    if !harness::capped("overdraw_is_bounded_by_the_fill_budget") {
        return;
    }
    // Full-view layers on a 200x200 image (40,000 pixels each).
    let out = scratch("overdraw.png");
    let run = |layers: usize, extra: &[&str], check: &dyn Fn(&[&str])| {
        let rig = write(
            &format!("overdraw{layers}.json"),
            overdraw_rig(layers, 100).as_bytes(),
        );
        let mut args = vec![
            "render",
            s(&rig),
            "--atlas",
            "none",
            "--anim",
            "still",
            "--size",
            "200x200",
            "--view",
            "-50,-50,50,50",
            "--out",
            s(&out),
        ];
        args.extend(extra);
        check(&args);
    };
    let refused_fill = |args: &[&str]| {
        refused(
            args,
            &[
                "fill_pixels budget",
                "--max-fill-pixels",
                "overdraw",
                "frame 0",
            ],
        )
    };
    // 4,000 layers: 160 M pixels, over the default budget (128 Mi: about 7 s of CPU
    // rasterising), refused before drawing.
    run(4000, &[], &refused_fill);
    // 50 layers (2 M pixels) pass the default and fail a budget set below them.
    run(50, &["--max-fill-pixels", "1000000"], &refused_fill);
    run(50, &[], &|args| {
        finite_ok(args);
    });
}
