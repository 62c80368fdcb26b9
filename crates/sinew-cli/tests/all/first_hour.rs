//! Issue 27's frictions of the CLI, one test each (each failed before its fix): companions
//! found for a bare file name, errors naming what a file really is, help true for every
//! format with the budget flags apart, no process-wide budgets, crafted flags named in their
//! errors, `cage bind` writing only what `cage deform` reads, a skin that draws nothing
//! reported, and lint advice in the terms of the file's own editor.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");

fn sinew_in(dir: Option<&Path>, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sinew"));
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    cmd.args(args).output().expect("the sinew binary runs")
}

fn sinew(args: &[&str]) -> Output {
    sinew_in(None, args)
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Exit 0; returns stdout.
fn ok(o: &Output) -> String {
    let (out, err) = text(o);
    assert_eq!(o.status.code(), Some(0), "stderr: {err}\nstdout: {out}");
    out
}

/// Exit 1 with one error line holding every needle; returns it.
fn refused(o: &Output, needles: &[&str]) -> String {
    let (out, err) = text(o);
    assert_eq!(o.status.code(), Some(1), "stderr: {err}\nstdout: {out}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(err.contains(n), "stderr should mention `{n}`: {err}");
    }
    err
}

/// A fresh scratch folder for one test.
fn folder(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sinew-first-hour-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn face() -> String {
    format!("{EXAMPLES}/face/face.inp")
}

fn stickbot() -> String {
    format!("{EXAMPLES}/stickbot/stickbot.json")
}

/// stickbot copied into `dir` as `hero.json`, its atlas renamed `art.atlas` (the only atlas
/// there, not named after the skeleton), its pages beside it.
fn hero_in(dir: &Path) {
    let src = Path::new(EXAMPLES).join("stickbot");
    std::fs::copy(src.join("stickbot.json"), dir.join("hero.json")).expect("copy");
    std::fs::copy(src.join("stickbot.atlas"), dir.join("art.atlas")).expect("copy");
    for page in ["stickbot.png", "stickbot_2.png"] {
        std::fs::copy(src.join(page), dir.join(page)).expect("copy");
    }
}

#[test]
fn bare_names_find_their_companions() {
    let dir = folder("bare");
    hero_in(&dir);
    // The atlas named on the command line: the reference image.
    ok(&sinew_in(
        Some(&dir),
        &[
            "render",
            "hero.json",
            "--atlas",
            "art.atlas",
            "--anim",
            "walk",
            "--out",
            "a.png",
        ],
    ));
    // A bare name, run in its own folder: the only atlas there is found, as for `./hero.json`.
    for (file, out) in [("hero.json", "b.png"), ("./hero.json", "c.png")] {
        ok(&sinew_in(
            Some(&dir),
            &["render", file, "--anim", "walk", "--out", out],
        ));
        let a = std::fs::read(dir.join("a.png")).expect("a.png");
        let b = std::fs::read(dir.join(out)).expect("output");
        assert!(a == b, "{file}: not the image drawn with its atlas");
    }
    // Two atlases and none named after the skeleton: the error lists them, for a bare name.
    std::fs::copy(dir.join("art.atlas"), dir.join("other.atlas")).expect("copy");
    refused(
        &sinew_in(
            Some(&dir),
            &["render", "hero.json", "--anim", "walk", "--out", "d.png"],
        ),
        &["no atlas found", "art.atlas, other.atlas", "--atlas"],
    );
    // The other verbs that read companions, by bare names in the file's folder.
    let face_dir = folder("bare-face");
    std::fs::copy(face(), face_dir.join("face.inp")).expect("copy");
    ok(&sinew_in(
        Some(&face_dir),
        &["render", "face.inp", "--out", "f.png"],
    ));
    ok(&sinew_in(Some(&dir), &["lint", "hero.json"]));
    ok(&sinew_in(
        Some(&dir),
        &["dump", "hero.json", "--times", "0"],
    ));
}

#[test]
fn errors_name_the_files_real_type() {
    let dir = folder("types");
    let gif = dir.join("hero.json");
    std::fs::write(
        &gif,
        b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00;",
    )
    .expect("w");
    let png = dir.join("pic.json");
    std::fs::copy(Path::new(EXAMPLES).join("stickbot/stickbot.png"), &png).expect("copy");
    let zip = dir.join("export.json");
    std::fs::write(&zip, b"PK\x03\x04\x14\x00\x00\x00rest of a zip").expect("w");
    for (file, what) in [
        (&gif, "a GIF image"),
        (&png, "a PNG image"),
        (&zip, "a zip"),
    ] {
        for verb in [
            vec!["info", s(file)],
            vec!["validate", s(file)],
            vec!["dump", s(file)],
            vec!["render", s(file), "--anim", "walk", "--out", "x.png"],
        ] {
            let err = refused(&sinew(&verb), &[s(file), what]);
            assert!(!err.contains("no atlas"), "{verb:?}: {err}");
        }
    }
    // `convert` says which formats it converts.
    refused(
        &sinew(&["convert", &face(), s(&dir.join("out.json"))]),
        &[
            "an Inochi2D puppet",
            "convert converts",
            "Spine",
            "DragonBones",
        ],
    );
}

#[test]
fn help_is_true_for_every_format() {
    let top = ok(&sinew(&["--help"]));
    assert!(!top.contains("Spine 4.2 rigs"), "{top}");
    for name in ["Spine", "DragonBones", "Inochi2D"] {
        assert!(
            top.contains(name),
            "top-level help should name {name}: {top}"
        );
    }
    for verb in ["info", "validate", "dump", "render", "lint"] {
        let help = ok(&sinew(&[verb, "--help"]));
        let file = help
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("<FILE>"))
            .take(3)
            .collect::<Vec<_>>()
            .join(" ");
        for name in ["Spine", "DragonBones", "Inochi2D"] {
            assert!(
                file.contains(name),
                "{verb}: FILE should name {name}: {file}"
            );
        }
        assert!(!file.contains("Spine 4.2 skeleton JSON"), "{verb}: {file}");
    }
    let bench = ok(&sinew(&["bench", "--help"]));
    assert!(bench.contains("DragonBones"), "{bench}");
    // The budget flags: in `--help` under their own heading, not in `-h`.
    for verb in ["dump", "render", "info"] {
        let short = ok(&sinew(&[verb, "-h"]));
        assert!(!short.contains("--max-"), "{verb} -h: {short}");
        let long = ok(&sinew(&[verb, "--help"]));
        let heading = long
            .lines()
            .position(|l| l.starts_with("Budgets"))
            .unwrap_or_else(|| panic!("{verb} --help has no Budgets heading: {long}"));
        let max_lines: Vec<usize> = long
            .lines()
            .enumerate()
            .filter(|(_, l)| l.trim_start().starts_with("--max-"))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(max_lines.len(), 12, "{verb}: {long}");
        assert!(max_lines.iter().all(|&i| i > heading), "{verb}: {long}");
    }
    // `--atlas` describes the default it follows.
    let render = ok(&sinew(&["render", "--help"]));
    assert!(
        render.contains("-pro") && render.contains("_tex.json") && render.contains("only"),
        "{render}"
    );
}

/// A run with a budget flag leaves no budget behind for the next command of the process: the
/// flags apply to that one command's loads (in a process of its own: it would change a
/// process-wide setting if there were one).
#[test]
fn budget_flags_apply_to_their_own_command_only() {
    if !sinew_testutil::run_alone(
        module_path!(),
        "budget_flags_apply_to_their_own_command_only",
    ) {
        return;
    }
    use clap::Parser;
    let tight =
        sinew_cli::args::Cli::parse_from(["sinew", "--max-file-bytes", "10", "info", &stickbot()]);
    let e = sinew_cli::run(&tight).expect_err("10 bytes is too few");
    assert!(format!("{e:#}").contains("--max-file-bytes"), "{e:#}");
    // The next command has no flag: the defaults, whatever ran before.
    let plain = sinew_cli::args::Cli::parse_from(["sinew", "info", &stickbot()]);
    sinew_cli::run(&plain).expect("the default budgets");
    sinew_cli::run(&tight).expect_err("10 bytes again");
    let doc =
        sinew_cli::dump::dump_with_args(Path::new(&stickbot()), &["--times".into(), "0".into()])
            .expect("a dump without flags has the default budgets");
    assert!(doc["frames"][0]["bones"].is_array());
}

#[test]
fn crafted_flags_are_named_in_their_errors() {
    refused(
        &sinew(&[
            "dump",
            &stickbot(),
            "--anim",
            "walk",
            "--from",
            "walk",
            "--at",
            "1e300",
        ]),
        &["--at", "1e300"],
    );
    refused(
        &sinew(&[
            "dump",
            &stickbot(),
            "--anim",
            "walk",
            "--from",
            "walk",
            "--mix",
            "1e300",
        ]),
        &["--mix", "1e300"],
    );
    for verb in ["dump", "render"] {
        let mut args = vec![verb, face().leak() as &str, "--param", "=1"];
        if verb == "render" {
            args.extend(["--out", "/tmp/never-written.png"]);
        }
        let err = refused(&sinew(&args), &["--param", "`=1`", "name"]);
        assert!(!err.contains("not found"), "{err}");
    }
    // `--atlas` on a puppet: does not apply, whether or not the file exists.
    for atlas in [
        "no-such.atlas",
        &format!("{EXAMPLES}/stickbot/stickbot.atlas"),
    ] {
        let err = refused(
            &sinew(&[
                "render",
                &face(),
                "--atlas",
                atlas,
                "--out",
                "/tmp/never.png",
            ]),
            &["--atlas", "does not apply", "puppet"],
        );
        assert!(!err.contains("No such file"), "{err}");
    }
    // A bad physics3 file: blamed on the physics3 file, by every verb that takes one.
    let dir = folder("crafted");
    let bad = dir.join("bad.physics3.json");
    std::fs::write(&bad, br#"{"Version": 3, "PhysicsSettings": [{"Id": "x"}]}"#).expect("w");
    for verb in [
        vec!["dump", face().leak() as &str, "--physics3", s(&bad)],
        vec!["info", face().leak(), "--physics3", s(&bad)],
        vec![
            "render",
            face().leak(),
            "--physics3",
            s(&bad),
            "--out",
            "/tmp/never.png",
        ],
    ] {
        let err = refused(&sinew(&verb), &["bad.physics3.json"]);
        assert!(!err.contains("face.inp:"), "blamed on the puppet: {err}");
    }
}

/// A DragonBones skeleton named like a Spine skeleton (`hero.json`) dumps with finite numbers
/// everywhere, its meta's animation length a whole number of frames.
#[test]
fn a_dragonbones_file_named_as_spine_dumps_finite_numbers() {
    let dir = folder("db-as-spine");
    let hero = dir.join("hero.json");
    std::fs::write(
        &hero,
        br#"{"frameRate": 0, "name": "x", "version": "5.5", "armature": [{"name": "a",
            "frameRate": 0, "bone": [{"name": "root"}], "slot": [], "skin": [],
            "animation": [{"name": "w", "duration": 0, "playTimes": 0,
              "bone": [{"name": "root", "translateFrame": [{"duration": 0, "x": 1}]}]}]}]}"#,
    )
    .expect("w");
    for extra in [&[][..], &["--mode", "goto"], &["--fps", "1e-3"]] {
        let mut args = vec!["dump", s(&hero), "--anim", "w", "--times", "0,1"];
        args.extend_from_slice(extra);
        let out = ok(&sinew(&args));
        let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
        let meta = &doc["meta"];
        assert!(meta["animationFrames"].is_u64(), "{meta}");
        assert!(
            meta["frameRate"].as_f64().is_some_and(f64::is_finite),
            "{meta}"
        );
        assert!(meta["fps"].as_f64().is_some_and(f64::is_finite), "{meta}");
        for f in doc["frames"].as_array().expect("frames") {
            assert_eq!(sinew_cli::guard::first_nonfinite(f), None, "{f}");
        }
    }
}

#[test]
fn cage_bind_writes_only_what_cage_deform_reads() {
    let dir = folder("cage");
    let mesh = dir.join("far.json");
    std::fs::write(
        &mesh,
        br#"{"vertices": [[0.5, 0.5], [100000, 0.5]], "loops": [[[0,0],[1,0],[1,1],[0,1]]]}"#,
    )
    .expect("w");
    let cage = dir.join("cage.json");
    std::fs::write(&cage, br#"{"cage": [[0,0],[1,0],[1,1],[0,1]]}"#).expect("w");
    for extra in [&[][..], &["--grid-tol", "0.01"], &["--sparse", "3"]] {
        let out = dir.join("w.bin");
        let _ = std::fs::remove_file(&out);
        let mut args = vec!["cage", "bind", s(&mesh), "--out", s(&out)];
        args.extend_from_slice(extra);
        let o = sinew(&args);
        if o.status.success() {
            // Whatever bind writes, deform reads.
            ok(&sinew(&["cage", "deform", s(&out), s(&cage)]));
        } else {
            refused(&o, &["far.json", "vertex 1"]);
            assert!(
                !out.exists(),
                "{extra:?}: a refused bind wrote {}",
                out.display()
            );
        }
    }
}

/// mix-and-match's default skin holds no attachment: `render` without `--skin` refuses to
/// write an empty image and lists the skins; `lint` says so too.
#[test]
fn a_skin_that_draws_nothing_is_reported() {
    let Some(dir) = sinew_testutil::require_spine_fixtures("a_skin_that_draws_nothing_is_reported")
    else {
        return;
    };
    let mm = dir.join("mix-and-match/mix-and-match-pro.json");
    let out = folder("empty-skin").join("mm.png");
    let err = refused(
        &sinew(&["render", s(&mm), "--anim", "walk", "--out", s(&out)]),
        &["draws nothing", "--skin", "full-skins/girl"],
    );
    assert!(!out.exists(), "{err}");
    ok(&sinew(&[
        "render",
        s(&mm),
        "--anim",
        "walk",
        "--skin",
        "full-skins/girl",
        "--out",
        s(&out),
    ]));
    let lint = ok(&sinew(&["lint", s(&mm)]));
    assert!(
        lint.contains("skin-draws-nothing") && lint.contains("full-skins/girl"),
        "{lint}"
    );
}

#[test]
fn lint_advice_speaks_the_files_editor() {
    let (code, out) = {
        let o = sinew(&["lint", &face()]);
        (o.status.code(), text(&o).0)
    };
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("fix:"),
        "face.inp has findings to advise on: {out}"
    );
    assert!(!out.contains("Spine"), "Spine advice for a puppet: {out}");
    assert!(out.contains("Inochi"), "{out}");
}
