//! Hostile input across formats and verbs (issue 12), the classes `hostile.rs` and
//! `hostile_verbs.rs` leave: huge textures inside a puppet and across atlas pages (refused
//! from their headers at the default budget), puppet translations of 3e38, a BOM before an
//! atlas's page name, the error when no `--scale` was given, `bench` with an unknown
//! animation, a crafted DragonBones armature, options that do not apply to a file's format,
//! formats told from content, and streamed GIF/APNG renders whose peak memory is measured.
//! Every file is generated here; the binary runs under the harness's caps.

use crate::common::harness;

use harness::{
    FACE, STICKBOT, capped, run_refused, s, scratch, sinew, sinew_peak, sinew_peak_long, write,
};
use serde_json::Value;
use sinew_formats::inochi2d::{Texture, read_container};

/// A run refused with exit 1, no panic, stderr naming every needle.
fn refused(args: &[&str], needles: &[&str]) -> String {
    let (code, err) = run_refused(args, needles);
    assert_eq!(code, Some(1), "{args:?}: {err}");
    err
}

/// A run that succeeds; returns stdout.
fn ok(args: &[&str]) -> String {
    let o = sinew(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn chunk(kind: &[u8], data: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&sinew::cage::format::crc32(&[kind, data]).to_be_bytes());
}

/// A PNG whose header says `w` x `h` RGBA but whose pixels are `rows` (filter byte and RGBA
/// texels per row), stored in one uncompressed deflate block.
fn png(w: u32, h: u32, rows: &[u8]) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = w.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    chunk(b"IHDR", &ihdr, &mut out);
    let len = rows.len() as u16;
    let mut z = vec![0x78, 0x01, 1];
    z.extend_from_slice(&len.to_le_bytes());
    z.extend_from_slice(&(!len).to_le_bytes());
    z.extend_from_slice(rows);
    let (mut a, mut b) = (1u32, 0u32);
    for &x in rows {
        a = (a + u32::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    z.extend_from_slice(&((b << 16) | a).to_be_bytes());
    chunk(b"IDAT", &z, &mut out);
    chunk(b"IEND", &[], &mut out);
    out
}

/// A valid, opaque red 2x2 PNG.
fn tiny_png() -> Vec<u8> {
    let row = [0u8, 255, 0, 0, 255, 255, 0, 0, 255];
    png(2, 2, &[row, row].concat())
}

/// The face puppet with its JSON and textures edited by `edit`, written as `name`.
fn face_with(name: &str, edit: impl FnOnce(&mut Value, &mut Vec<Texture>)) -> std::path::PathBuf {
    let bytes = std::fs::read(FACE).expect("face.inp");
    let c = read_container(&bytes, FACE).expect("face.inp is a container");
    let mut json: Value = serde_json::from_slice(c.json).expect("face JSON");
    let mut textures = c.textures.clone();
    edit(&mut json, &mut textures);
    let text = serde_json::to_vec(&json).expect("JSON");
    let out = sinew_formats::inochi2d::container::write_container(&text, &textures, &c.ext);
    write(name, &out)
}

/// A one-region Spine rig using region `r`, written beside its atlas in `dir`.
fn region_rig(dir: &std::path::Path, atlas: &[u8]) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).expect("dir");
    std::fs::write(dir.join("r.atlas"), atlas).expect("atlas");
    let rig = r#"{"bones": [{"name": "root"}], "slots": [{"name": "s", "bone": "root", "attachment": "r"}],
        "skins": [{"name": "default", "attachments": {"s": {"r": {"width": 10, "height": 10}}}}],
        "animations": {"a": {}}}"#;
    std::fs::write(dir.join("r.json"), rig).expect("rig");
    dir.join("r.json")
}

#[test]
fn huge_textures_are_refused_from_their_headers_at_the_default_budget() {
    if !capped("huge_textures_are_refused_from_their_headers_at_the_default_budget") {
        return;
    }
    // Eight 11000x11000 headers (484 MB each decoded; the third passes the 1 GiB default).
    let huge = png(11000, 11000, &[]);
    let p = face_with("huge-tex.inp", |_, t| {
        *t = vec![
            Texture {
                encoding: 0,
                bytes: huge.clone()
            };
            8
        ];
    });
    let out = scratch("huge-tex.png");
    let (o, peak) = sinew_peak(&["render", s(&p), "--out", s(&out)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    for needle in [
        "huge-tex.inp: texture 2",
        "11000x11000",
        "texture_bytes budget",
    ] {
        assert!(err.contains(needle), "`{needle}`: {err}");
    }
    // Refused before any texture was decoded.
    assert!(peak < 256 << 20, "peak {peak} bytes: {err}");

    // The same eight as pages of one atlas.
    let dir = scratch("pages");
    let mut atlas = String::new();
    for i in 0..8 {
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(dir.join(format!("p{i}.png")), &huge).expect("page");
        atlas.push_str(&format!(
            "p{i}.png\nsize: 11000,11000\nr{i}\nbounds: 0,0,10,10\n\n"
        ));
    }
    let atlas = atlas.replacen("r0\n", "r\n", 1);
    let rig = region_rig(&dir, atlas.as_bytes());
    let (o, peak) = sinew_peak(&["render", s(&rig), "--anim", "a", "--out", s(&out)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    for needle in ["page p2.png of atlas", "r.atlas", "texture_bytes budget"] {
        assert!(err.contains(needle), "`{needle}`: {err}");
    }
    assert!(peak < 256 << 20, "peak {peak} bytes: {err}");
}

#[test]
fn puppet_translations_of_3e38_are_refused_or_finite() {
    if !capped("puppet_translations_of_3e38_are_refused_or_finite") {
        return;
    }
    fn far(v: &mut Value) {
        if let Some(t) = v.get_mut("transform").and_then(|t| t.get_mut("trans")) {
            *t = serde_json::json!([3e38, -3e38, 0.0]);
        }
        if let Some(children) = v.get_mut("children").and_then(Value::as_array_mut) {
            children.iter_mut().for_each(far);
        }
    }
    let p = face_with("far.inp", |j, _| far(&mut j["nodes"]));
    let out = scratch("far.png");
    for args in [
        vec!["dump", s(&p), "--times", "0,0.5"],
        vec!["info", s(&p)],
        vec!["validate", s(&p)],
        vec!["render", s(&p), "--out", s(&out)],
    ] {
        let o = sinew(&args);
        let (stdout, err) = (
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr),
        );
        match o.status.code() {
            Some(0) => {
                assert!(
                    !stdout.contains("NaN") && !stdout.contains("inf"),
                    "{stdout}"
                );
                if let Ok(v) = serde_json::from_str::<Value>(&stdout) {
                    for f in v["frames"].as_array().into_iter().flatten() {
                        assert_eq!(sinew_cli::guard::first_nonfinite(f), None, "{args:?}");
                    }
                }
            }
            Some(1) => assert!(
                err.contains("far.inp") && !err.contains("panicked"),
                "{args:?}: {err}"
            ),
            code => panic!("{args:?}: exit {code:?}: {err}"),
        }
    }
}

#[test]
fn an_atlas_with_a_bom_names_its_page_without_it() {
    if !capped("an_atlas_with_a_bom_names_its_page_without_it") {
        return;
    }
    let dir = scratch("bom-atlas");
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("page.png"), tiny_png()).expect("page");
    let rig = region_rig(
        &dir,
        b"\xef\xbb\xbfpage.png\nsize: 2,2\nr\nbounds: 0,0,2,2\n",
    );
    let out = scratch("bom.png");
    ok(&["render", s(&rig), "--anim", "a", "--out", s(&out)]);
    // A missing page is named as written, without the BOM.
    let rig = region_rig(
        &scratch("bom-gone"),
        b"\xef\xbb\xbfgone.png\nsize: 2,2\nr\nbounds: 0,0,2,2\n",
    );
    let err = refused(
        &["render", s(&rig), "--anim", "a", "--out", s(&out)],
        &["gone.png"],
    );
    assert!(
        !err.contains('\u{feff}') && !err.contains("\\u{feff}"),
        "{err}"
    );
}

#[test]
fn without_scale_the_error_says_what_is_wrong() {
    if !capped("without_scale_the_error_says_what_is_wrong") {
        return;
    }
    // Non-finite drawn bounds and no --scale: the error is about the bounds, never a bad
    // --scale that was not given.
    use sinew_cli::render::fit_view;
    let inf = f64::INFINITY;
    for (bounds, size) in [
        ([-inf, 0.0, inf, 1.0], None),
        ([0.0, 0.0, inf, 1.0], Some((64, 64))),
        ([f64::NAN, 0.0, 1.0, 1.0], None),
    ] {
        let e = fit_view(
            &sinew_formats::budget::Budgets::DEFAULT,
            bounds,
            None,
            size,
            None,
        )
        .expect_err("non-finite bounds")
        .to_string();
        assert!(e.contains("bounds") && e.contains("--view"), "{e}");
        assert!(
            !e.contains("--scale must") && !e.contains("bad --scale"),
            "{e}"
        );
    }
    // Through the binary: bones and a region within the magnitude limit whose product
    // overflows f32 either render finitely or are refused without blaming --scale.
    let rig = r#"{"bones": [{"name": "root", "scaleX": 1e29, "scaleY": 1e29},
        {"name": "b", "parent": "root", "scaleX": 1e29, "scaleY": 1e29}],
        "slots": [{"name": "s", "bone": "b", "attachment": "r"}],
        "skins": [{"name": "default", "attachments": {"s": {"r": {"width": 1e29, "height": 1e29}}}}],
        "animations": {"a": {}}}"#;
    let p = write("overflow.json", rig.as_bytes());
    let out = scratch("overflow.png");
    let o = sinew(&[
        "render",
        s(&p),
        "--atlas",
        "none",
        "--anim",
        "a",
        "--out",
        s(&out),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    match o.status.code() {
        Some(0) => assert!(out.is_file(), "{err}"),
        Some(1) => assert!(
            err.contains("overflow.json") && !err.contains("--scale must"),
            "{err}"
        ),
        code => panic!("exit {code:?}: {err}"),
    }
}

#[test]
fn bench_with_an_unknown_animation_names_the_file() {
    if !capped("bench_with_an_unknown_animation_names_the_file") {
        return;
    }
    refused(
        &["bench", STICKBOT, "--anim", "nope", "--frames", "1"],
        &["stickbot.json", "animation not found: nope", "walk"],
    );
}

/// A minimal DragonBones 5.5 skeleton: one armature, one bone, one animation.
const DRAGONBONES: &str = r#"{"frameRate": 24, "name": "tiny", "version": "5.5",
  "compatibleVersion": "5.5",
  "armature": [{"type": "Armature", "frameRate": 24, "name": "Armature",
    "bone": [{"name": "root"}, {"name": "arm", "parent": "root", "length": 20}],
    "slot": [], "skin": [{"slot": []}],
    "animation": [{"duration": 12, "playTimes": 0, "name": "wave",
      "bone": [{"name": "arm", "rotateFrame": [{"duration": 12, "tweenEasing": 0, "rotate": 0}, {"duration": 0, "rotate": 30}]}]}],
    "defaultActions": [{"gotoAndPlay": "wave"}]}]}"#;

#[test]
fn a_crafted_dragonbones_armature_is_told_apart_from_spine() {
    if !capped("a_crafted_dragonbones_armature_is_told_apart_from_spine") {
        return;
    }
    let p = write("tiny_ske.json", DRAGONBONES.as_bytes());
    for verb in ["validate", "info"] {
        let out = ok(&[verb, s(&p)]);
        assert!(out.contains("DragonBones"), "{verb}: {out}");
        assert!(!out.contains("Spine"), "{verb}: {out}");
    }
    let out = ok(&["dump", s(&p), "--anim", "wave", "--times", "0,0.25"]);
    let v: Value = serde_json::from_str(&out).expect("a dump");
    assert_eq!(v["frames"].as_array().map(Vec::len), Some(2));
}

#[test]
fn options_that_do_not_apply_to_the_format_are_errors() {
    if !capped("options_that_do_not_apply_to_the_format_are_errors") {
        return;
    }
    let db = write("opts_ske.json", DRAGONBONES.as_bytes());
    let db = s(&db);
    let out = scratch("opts.png");
    let out = s(&out);
    let extras = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/stickbot/stickbot.extras.json"
    );
    // (arguments, option, format named)
    let cases: Vec<(Vec<&str>, &str, &str)> = vec![
        (
            vec![
                "render", db, "--anim", "wave", "--extras", extras, "--out", out,
            ],
            "--extras",
            "DragonBones",
        ),
        (
            vec![
                "render", db, "--anim", "wave", "--param", "X=1", "--out", out,
            ],
            "--param",
            "DragonBones",
        ),
        (
            vec![
                "render", STICKBOT, "--anim", "walk", "--sweep", "X", "--out", out,
            ],
            "--sweep",
            "Spine",
        ),
        (
            vec!["render", FACE, "--extras", extras, "--out", out],
            "--extras",
            "Inochi2D",
        ),
        (vec!["dump", db, "--skin", "x"], "--skin", "DragonBones"),
        (vec!["dump", db, "--local"], "--local", "DragonBones"),
        (
            vec!["dump", db, "--physics", "none"],
            "--physics",
            "DragonBones",
        ),
        (vec!["dump", db, "--loop", "false"], "--loop", "DragonBones"),
        (vec!["dump", db, "--mix", "0.5"], "--mix", "DragonBones"),
        (vec!["dump", FACE, "--mode", "apply"], "--mode", "Inochi2D"),
        (vec!["dump", FACE, "--at", "1"], "--at", "Inochi2D"),
        (vec!["dump", STICKBOT, "--y-up"], "--y-up", "Spine"),
        (
            vec!["dump", STICKBOT, "--armature", "a"],
            "--armature",
            "Spine",
        ),
        (
            vec!["info", db, "--physics3", extras],
            "--physics3",
            "DragonBones",
        ),
        (
            vec!["bench", db, "--anim", "wave", "--extras", extras],
            "--extras",
            "DragonBones",
        ),
        (
            vec!["bench", db, "--anim", "wave", "--physics", "none"],
            "--physics",
            "DragonBones",
        ),
        (
            vec!["bench", FACE, "--anim", "x"],
            "bench takes",
            "Inochi2D",
        ),
        (
            vec!["convert", STICKBOT, out, "--armature", "a"],
            "--armature",
            "Spine",
        ),
    ];
    for (args, option, format) in cases {
        let file = args[1].rsplit('/').next().unwrap_or(args[1]);
        refused(&args, &[option, format, file]);
    }
    // The same options where they apply are accepted.
    ok(&["dump", db, "--y-up", "--mode", "goto", "--anim", "wave"]);
    ok(&["dump", FACE, "--loop", "false", "--physics", "none"]);
}

#[test]
fn formats_are_told_from_content_not_extension() {
    if !capped("formats_are_told_from_content_not_extension") {
        return;
    }
    // A renamed puppet is a puppet; a Spine JSON named .inp is Spine.
    let renamed = write("face.bin", &std::fs::read(FACE).expect("face"));
    let out = ok(&["validate", s(&renamed)]);
    assert!(out.contains("Inochi2D"), "{out}");
    ok(&["dump", s(&renamed), "--times", "0"]);
    let json = write("stick.inp", &std::fs::read(STICKBOT).expect("stickbot"));
    let out = ok(&["validate", s(&json)]);
    assert!(out.contains("Spine"), "{out}");
    let out = ok(&["info", s(&json)]);
    assert!(out.contains("walk"), "{out}");
    // Neither: a .inp that is not a container is refused by the puppet loader.
    let junk = write("junk.inp", b"\x00\x01 not a puppet at all");
    refused(
        &["validate", s(&junk)],
        &["junk.inp", "not an Inochi2D puppet"],
    );
}

#[test]
fn streamed_gif_and_apng_renders_keep_memory_bounded() {
    if !capped("streamed_gif_and_apng_renders_keep_memory_bounded") {
        return;
    }
    // 1024x1024 frames, 30 to a GIF (its quantiser is slow in a debug build) and 60 to an
    // APNG: held, their RGBA alone would be 120 and 240 MiB (four times that while drawn);
    // streamed, a few are in flight (measured: 58-85 MiB in all).
    for (ext, last, frames) in [("gif", "0.99", 30), ("apng", "1.99", 60)] {
        let out = scratch(&format!("big.{ext}"));
        let times = format!("0:{last}:0.0333");
        let (o, peak) = sinew_peak(&[
            "render",
            STICKBOT,
            "--atlas",
            "none",
            "--anim",
            "walk",
            "--size",
            "1024x1024",
            "--times",
            &times,
            "--out",
            s(&out),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{ext}: {} (killed: over the time cap?)",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(sinew_render::encode::frame_count(&out).expect(ext), frames);
        assert!(peak > 0, "no peak memory read from /proc");
        eprintln!("{ext}: peak RSS {} MiB", peak >> 20);
        assert!(peak < 150 << 20, "{ext}: peak {} MiB", peak >> 20);
    }
}

/// A generated JSON document: name, head, item repeated, tail, and whether the
/// `json_values` budget must be what refuses it.
type Shape = (
    &'static str,
    &'static [u8],
    &'static [u8],
    &'static [u8],
    bool,
);

#[test]
fn a_70_mb_json_at_the_default_budgets_is_refused_early_or_parsed_in_bounded_memory() {
    if !capped("a_70_mb_json_at_the_default_budgets_is_refused_early_or_parsed_in_bounded_memory") {
        return;
    }
    // About 70 MB of each worst shape (docs/HOSTILE.md): parsed unweighted, one-key objects
    // needed over 4 GiB. `budget` says whether the json_values budget must be what refuses.
    let total = 70usize << 20;
    let shapes: [Shape; 7] = [
        ("objects", b"{\"bones\":[", b"{\"a\":0},", b"{}]}", true),
        ("top-array", b"[", b"{\"a\":0},", b"{}]", false),
        ("numbers", b"{\"bones\":[", b"0,", b"0]}", true),
        ("strings", b"{\"bones\":[", b"\"a\",", b"\"a\"]}", true),
        ("arrays", b"{\"bones\":[", b"[0],", b"[0]]}", true),
        ("nested", b"", b"{\"a\":", b"0", true),
        ("long-string", b"{\"bones\":[\"", b"x", b"\"]}", false),
    ];
    for (name, head, item, tail, budget) in shapes {
        // One `repeat`, not a push per item: the test binary builds unoptimised.
        let items = (total - head.len() - tail.len()) / item.len();
        let text = [head, &item.repeat(items), tail].concat();
        let file = format!("big-{name}.json");
        let p = write(&file, &text);
        drop(text);
        let (o, peak) = sinew_peak_long(&["validate", s(&p)]);
        let _ = std::fs::remove_file(&p);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked"), "{name}: {err}");
        assert_eq!(o.status.code(), Some(1), "{name}: {err}");
        assert!(err.contains(&file), "{name}: {err}");
        if budget {
            assert!(
                err.contains("json_values budget") && err.contains("--max-json-values"),
                "{name}: {err}"
            );
        }
        assert!(peak > 0, "no peak memory read from /proc");
        eprintln!("{name}: peak RSS {} MiB", peak >> 20);
        assert!(peak < 1 << 30, "{name}: peak {} MiB: {err}", peak >> 20);
    }
}
