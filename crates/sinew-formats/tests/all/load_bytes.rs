//! The one loading API: every format loads from bytes, its companions served from an
//! in-memory map (no file system access during the load), and poses bit for bit as `load`
//! from the same files over several frames; detection names what a file really is; errors
//! are typed (budgets per load, the builder's problems, options that do not apply).
#![allow(clippy::unwrap_used)]

use sinew_formats::{Asset, Companion, Format, LoadError, LoadOptions, detect, load, load_bytes};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// A physics3 file over the face example's parameters: the head angle swings the hair.
const FACE_PHYSICS3: &str = r#"{
  "Version": 3,
  "Meta": { "PhysicsSettingCount": 1, "TotalInputCount": 1, "TotalOutputCount": 1,
    "VertexCount": 2, "Fps": 30,
    "EffectiveForces": { "Gravity": { "X": 0, "Y": -1 }, "Wind": { "X": 0, "Y": 0 } } },
  "PhysicsSettings": [{
    "Id": "Hair",
    "Input": [{ "Source": { "Target": "Parameter", "Id": "ParamAngle" },
      "Weight": 100, "Type": "X", "Reflect": false }],
    "Output": [{ "Destination": { "Target": "Parameter", "Id": "ParamHairSwing" },
      "VertexIndex": 1, "Scale": 1.5, "Weight": 100, "Type": "Angle", "Reflect": false }],
    "Vertices": [
      { "Position": { "X": 0, "Y": 0 }, "Mobility": 1, "Delay": 1, "Acceleration": 1, "Radius": 0 },
      { "Position": { "X": 0, "Y": 3 }, "Mobility": 0.95, "Delay": 0.9, "Acceleration": 1.5, "Radius": 3 }
    ],
    "Normalization": {
      "Position": { "Minimum": -10, "Default": 0, "Maximum": 10 },
      "Angle": { "Minimum": -10, "Default": 0, "Maximum": 10 }
    }
  }]
}"#;

/// Every file of `dir` (and `extra` files by name), in memory.
fn files_of(dir: &Path, extra: &[(&str, &[u8])]) -> HashMap<String, Vec<u8>> {
    let mut m = HashMap::new();
    for e in std::fs::read_dir(dir).expect("folder").flatten() {
        if e.path().is_file() {
            let name = e.file_name().to_string_lossy().into_owned();
            m.insert(name, std::fs::read(e.path()).expect("readable"));
        }
    }
    for (name, bytes) in extra {
        m.insert((*name).to_owned(), bytes.to_vec());
    }
    m
}

/// `main` loaded through `load_bytes` from `files` (the names it asked for are recorded),
/// and through `load` from the files on disk.
fn both(
    main: &Path,
    files: &HashMap<String, Vec<u8>>,
    options: &LoadOptions,
) -> (Asset, Asset, Vec<String>) {
    let asked = Mutex::new(Vec::new());
    let companions = |name: &str| {
        asked.lock().unwrap().push(name.to_owned());
        files
            .get(name)
            .cloned()
            .ok_or_else(|| std::io::ErrorKind::NotFound.into())
    };
    let name = main.file_name().unwrap().to_string_lossy().into_owned();
    let bytes = &files[&name];
    let from_bytes = load_bytes(&name, bytes, &companions, options)
        .unwrap_or_else(|e| panic!("{name} from bytes: {e}"));
    let from_path = load(main, options).unwrap_or_else(|e| panic!("{name} from its path: {e}"));
    (from_bytes, from_path, asked.into_inner().unwrap())
}

/// Poses both assets' characters the same way for 12 frames (the first animation or
/// parameter animation playing, a parameter set for puppets) and asserts the draw lists
/// equal bit for bit.
fn poses_identically(a: &Asset, b: &Asset) {
    let (mut x, mut y) = (a.character(), b.character());
    assert_eq!(a.rig.bones.len(), b.rig.bones.len());
    for c in [&mut x, &mut y] {
        if let Some(clip) = a.rig.clips.first() {
            c.set_animation(0, &clip.name, true).expect("clip");
        }
        if let Some(p) = a.rig.params.params.first() {
            c.set_param(&p.name, [0.7, -0.3]).expect("param");
        }
    }
    let mut drawn = 0;
    for _ in 0..12 {
        x.update(1.0 / 30.0);
        y.update(1.0 / 30.0);
        let (lx, ly) = (x.draw_list(), y.draw_list());
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&lx.positions), bits(&ly.positions));
        assert_eq!(bits(&lx.uvs), bits(&ly.uvs));
        assert_eq!(lx.commands.len(), ly.commands.len());
        drawn += lx.positions.len();
    }
    assert!(drawn > 0, "something was drawn");
}

#[test]
fn spine_json_with_atlas_pages_and_extras_from_memory() {
    let dir = examples().join("stickbot");
    let options = LoadOptions {
        extras: Companion::Named("stickbot.extras.json".into()),
        ..Default::default()
    };
    let files = files_of(&dir, &[]);
    let (a, b, asked) = both(&dir.join("stickbot.json"), &files, &options);
    assert_eq!(a.format, Format::SpineJson);
    // The atlas found beside the skeleton, the extras, then the atlas's two pages.
    assert_eq!(
        asked,
        [
            "stickbot.atlas",
            "stickbot.extras.json",
            "stickbot.png",
            "stickbot_2.png",
        ]
    );
    assert_eq!(a.pages, {
        let mut p = b.pages.clone();
        for page in &mut p {
            page.file = page.name.clone();
        }
        p
    });
    assert_eq!(a.pages[1].bytes, files["stickbot_2.png"]);
    assert!(a.jiggle.is_some() && b.jiggle.is_some());
    poses_identically(&a, &b);
}

#[test]
fn spine_skel_finds_the_atlas_of_its_base_name() {
    let Some(dir) = sinew_testutil::require_spine_fixtures("spine_skel_from_memory") else {
        return;
    };
    let dir = dir.join("spineboy");
    let files = files_of(&dir, &[]);
    let (a, b, asked) = both(
        &dir.join("spineboy-pro.skel"),
        &files,
        &LoadOptions::default(),
    );
    assert_eq!(a.format, Format::SpineSkel);
    assert_eq!(asked[..2], ["spineboy-pro.atlas", "spineboy.atlas"]);
    assert!(a.atlas.is_some() && !a.pages.is_empty());
    poses_identically(&a, &b);
}

#[test]
fn dragonbones_with_its_tex_and_image_from_memory() {
    let Some(dir) = sinew_testutil::require_fixtures("dragonbones_from_memory") else {
        return;
    };
    let dir = dir.join("dragonbones/dragon_boy");
    let files = files_of(&dir, &[]);
    let (a, b, asked) = both(
        &dir.join("dragon_boy_ske.json"),
        &files,
        &LoadOptions::default(),
    );
    assert_eq!(a.format, Format::DragonBones);
    assert_eq!(asked, ["dragon_boy_tex.json", "dragon_boy_tex.png"]);
    assert!(a.draw.y_down && a.dragonbones.is_some() && a.pages.len() == 1);
    poses_identically(&a, &b);
    // A wrong armature name lists the armatures the file has.
    let wrong = LoadOptions {
        armature: Some("nobody".into()),
        ..Default::default()
    };
    let e = load(&dir.join("dragon_boy_ske.json"), &wrong)
        .unwrap_err()
        .to_string();
    let first = &a.dragonbones.as_ref().unwrap().armature;
    assert!(e.contains("`nobody`") && e.contains(first.as_str()), "{e}");
}

#[test]
fn puppets_inp_and_inx_with_physics3_and_extras_from_memory() {
    let face = examples().join("face");
    let extras = br#"{"sinewExtras": 1}"#;
    let files = files_of(
        &face,
        &[
            ("face.physics3.json", FACE_PHYSICS3.as_bytes()),
            ("face.extras.json", extras),
        ],
    );
    let options = LoadOptions {
        physics3: Companion::Beside,
        extras: Companion::Named("face.extras.json".into()),
        ..Default::default()
    };
    // `load` reads the same files: write the two companions beside a copy of the puppet.
    let tmp = std::env::temp_dir().join(format!("sinew-load-bytes-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for name in ["face.inp", "face.physics3.json", "face.extras.json"] {
        std::fs::write(tmp.join(name), &files[name]).unwrap();
    }
    let (a, b, asked) = both(&tmp.join("face.inp"), &files, &options);
    assert_eq!(asked, ["face.physics3.json", "face.extras.json"]);
    assert_eq!(a.format, Format::Inochi2D);
    assert!(
        !a.rig.params.chains.chains.is_empty(),
        "physics3 chains added"
    );
    poses_identically(&a, &b);
    std::fs::remove_dir_all(&tmp).ok();

    let Some(dir) = sinew_testutil::require_fixtures("inx_from_memory") else {
        return;
    };
    let dir = dir.join("inochi2d");
    let files = files_of(&dir, &[]);
    let (a, b, asked) = both(
        &dir.join("synthetic_inx_groups.inx"),
        &files,
        &LoadOptions::default(),
    );
    assert!(asked.is_empty(), "{asked:?}");
    poses_identically(&a, &b);
}

#[test]
fn detect_says_what_each_file_is() {
    let stick = examples().join("stickbot");
    let cases = [
        (stick.join("stickbot.json"), Format::SpineJson),
        (stick.join("stickbot.atlas"), Format::SpineAtlas),
        (stick.join("stickbot.png"), Format::Png),
        (stick.join("stickbot.extras.json"), Format::RigExtras),
        (examples().join("face/face.inp"), Format::Inochi2D),
    ];
    for (path, want) in cases {
        assert_eq!(
            detect(&std::fs::read(&path).unwrap()),
            want,
            "{}",
            path.display()
        );
    }
    assert_eq!(detect(FACE_PHYSICS3.as_bytes()), Format::Physics3);
    // Loading what is not a rig says what it is.
    let e = load(&stick.join("stickbot.png"), &LoadOptions::default()).unwrap_err();
    assert!(
        matches!(
            e,
            LoadError::NotARig {
                found: Format::Png,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("stickbot.png: a PNG image"), "{e}");
    let e = load(&stick.join("stickbot.atlas"), &LoadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("Spine texture atlas"), "{e}");
    // A format's own entry point given another format says both.
    let face = examples().join("face/face.inp");
    let e = sinew_formats::load_spine(&face, None, &LoadOptions::default()).unwrap_err();
    assert!(
        matches!(
            e,
            LoadError::WrongFormat {
                found: Format::Inochi2D,
                ..
            }
        ),
        "{e}"
    );
    assert!(
        e.to_string()
            .ends_with("face.inp: an Inochi2D puppet, not a Spine skeleton"),
        "{e}"
    );
}

#[test]
fn errors_are_typed_and_name_the_file() {
    let dir = examples().join("stickbot");
    let files = files_of(&dir, &[]);
    let main = &files["stickbot.json"];
    let get = |name: &str| {
        files
            .get(name)
            .cloned()
            .ok_or_else(|| std::io::ErrorKind::NotFound.into())
    };
    // A budget of this load only, named by its field, not a command-line flag.
    let small = LoadOptions {
        budgets: sinew_formats::budget::Budgets {
            json_values: 1000,
            ..Default::default()
        },
        ..Default::default()
    };
    let e = load_bytes("stickbot.json", main, &get, &small).unwrap_err();
    let LoadError::Budget { file, error } = &e else {
        panic!("{e}")
    };
    assert_eq!(
        (file.as_str(), error.name),
        ("stickbot.json", "json_values")
    );
    assert!(e.to_string().contains("`Budgets::json_values`") && !e.to_string().contains("--max"));
    assert!(load_bytes("stickbot.json", main, &get, &LoadOptions::default()).is_ok());
    // An atlas without a region: the builder's problem, typed.
    let atlas = String::from_utf8(files["stickbot.atlas"].clone()).unwrap();
    let cut = atlas.replace("\nhead\n", "\nhead-renamed\n");
    assert_ne!(cut, atlas);
    let cut_get = |name: &str| match name {
        "stickbot.atlas" => Ok(cut.clone().into_bytes()),
        other => get(other),
    };
    let e = load_bytes("stickbot.json", main, &cut_get, &LoadOptions::default()).unwrap_err();
    let [problem] = e.build_problems() else {
        panic!("{e}")
    };
    assert_eq!(problem.kind, sinew::build::ProblemKind::UnknownName);
    assert_eq!(problem.name.as_deref(), Some("head"));
    assert!(
        e.to_string()
            .contains("stickbot.atlas: atlas has no region `head`"),
        "{e}"
    );
    // A companion named but missing: an I/O error naming it; beside and missing: none.
    let named = LoadOptions {
        extras: Companion::Named("nope.extras.json".into()),
        ..Default::default()
    };
    let e = load_bytes("stickbot.json", main, &get, &named).unwrap_err();
    assert!(
        matches!(&e, LoadError::Io { file, .. } if file == "nope.extras.json"),
        "{e}"
    );
    let none = |_: &str| Err(std::io::ErrorKind::NotFound.into());
    let a = load_bytes("stickbot.json", main, &none, &LoadOptions::default()).unwrap();
    assert!(a.atlas.is_none() && a.pages.is_empty());
    // Options that do not apply.
    let db = LoadOptions {
        armature: Some("x".into()),
        ..Default::default()
    };
    let e = load_bytes("stickbot.json", main, &none, &db).unwrap_err();
    assert!(
        matches!(
            e,
            LoadError::NotApplicable {
                option: "armature",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn companions_of_a_bare_file_name_are_read_from_the_current_folder() {
    let files = sinew_formats::FileCompanions::beside(Path::new("hero.json"), Default::default());
    use sinew_formats::Companions;
    assert_eq!(files.describe("hero.atlas"), "hero.atlas");
    assert_eq!(files.main_name(), "hero.json");
    // A file the host names by its own path: inside the main file's folder, relative to it;
    // elsewhere, absolute (so that an atlas's pages are looked for beside the atlas).
    let nested =
        sinew_formats::FileCompanions::beside(Path::new("rigs/hero.json"), Default::default());
    assert_eq!(nested.given(Path::new("rigs/a/hero.atlas")), "a/hero.atlas");
    assert_eq!(nested.describe("a/hero.atlas"), "rigs/a/hero.atlas");
    assert_eq!(
        nested.given(Path::new("/elsewhere/x.atlas")),
        "/elsewhere/x.atlas"
    );
    assert_eq!(nested.describe("/elsewhere/x.atlas"), "/elsewhere/x.atlas");
    let cwd = std::env::current_dir().unwrap();
    assert_eq!(
        nested.given(Path::new("other/x.atlas")),
        cwd.join("other/x.atlas").display().to_string()
    );
    assert_eq!(nested.describe("pages/hero.png"), "rigs/pages/hero.png");
}
