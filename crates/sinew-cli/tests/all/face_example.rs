//! The bundled face example (`examples/face/face.inp`, written by `make_face.py`): it loads,
//! the 3x3 ParamAngle keyform grid is reproduced exactly at its grid points and turns the
//! head the right way (the nose, deepest, moves most; the far eye narrows), closing an eye
//! collapses its opening, the hair pendulum swings after a turn and settles back, and
//! `sinew render` makes a GIF and a PNG of it. With `--ignored`, also that the committed file
//! is exactly what the generator writes (needs python3).

use clap::Parser;
use sinew::character::update_params;
use sinew::params::Target;
use sinew::rig::AttachmentKind;
use sinew::{Instance, ParamId, Rig, SlotId};
use sinew_cli::args::Cli;
use sinew_formats::inochi2d::{Puppet, build_puppet, load_inochi2d};
use std::path::PathBuf;

fn face_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/face/face.inp")
}

fn load() -> (Puppet, Rig) {
    let p = load_inochi2d(&face_path()).expect("face.inp loads");
    let rig = build_puppet(&p).expect("face.inp builds");
    (p, rig)
}

fn param(rig: &Rig, name: &str) -> ParamId {
    rig.params.find(name).expect(name)
}

fn slot(rig: &Rig, name: &str) -> SlotId {
    let i = rig.slots.iter().position(|s| s.name == name).expect(name);
    SlotId(i as u16)
}

/// The instance posed with `values` (everything else at its default), physics off.
fn posed(rig: &Rig, values: &[(&str, [f64; 2])]) -> Instance {
    let mut inst = Instance::new(rig);
    for &(n, v) in values {
        inst.params.set(rig, param(rig, n), v);
    }
    update_params(rig, &mut inst, 0.0, false);
    inst
}

/// World vertices of a slot as (x, y) pairs (puppet space, y down).
fn world(rig: &Rig, inst: &Instance, name: &str) -> Vec<[f32; 2]> {
    let s = slot(rig, name);
    let a = inst.slots.attachment[s.index()].expect("attachment");
    let mut buf = vec![0.0f32; sinew::deform::world_vertex_count(rig, a) * 2];
    sinew::deform::compute_world_vertices(rig, inst, s, &mut buf);
    buf.chunks_exact(2).map(|p| [p[0], p[1]]).collect()
}

fn centroid_x(v: &[[f32; 2]]) -> f64 {
    v.iter().map(|p| f64::from(p[0])).sum::<f64>() / v.len() as f64
}

fn span(v: &[[f32; 2]], c: usize) -> f64 {
    let lo = v.iter().map(|p| p[c]).fold(f32::INFINITY, f32::min);
    let hi = v.iter().map(|p| p[c]).fold(f32::NEG_INFINITY, f32::max);
    f64::from(hi - lo)
}

#[test]
fn the_face_loads_with_its_live2d_parameters() {
    let (p, rig) = load();
    assert_eq!(p.name, "sinew face");
    assert_eq!(rig.slots.len(), 21, "drawables");
    assert_eq!(p.textures.len(), 21, "one PNG per part");
    assert!(p.textures.iter().all(|t| t.sniff() == "png"));
    let angle = &rig.params.params[param(&rig, "ParamAngle").index()];
    assert!(angle.is_2d);
    assert_eq!((angle.min, angle.max), ([-30.0, -30.0], [30.0, 30.0]));
    for eye in ["ParamEyeLOpen", "ParamEyeROpen"] {
        let d = &rig.params.params[param(&rig, eye).index()];
        assert!(!d.is_2d);
        assert_eq!((d.min[0], d.max[0], d.default[0]), (0.0, 1.0, 1.0));
    }
    assert!(rig.params.params[param(&rig, "ParamHairSwing").index()].driven);
    assert_eq!(rig.params.drivers.len(), 1);
    assert_eq!(
        rig.bones[rig.params.drivers[0].bone.index()].name,
        "HairPhysics"
    );
    // The physics node hangs under the head, so turning the head moves its anchor.
    let head = rig
        .bones
        .iter()
        .position(|b| b.name == "Head")
        .expect("head");
    let phys = rig.params.drivers[0].bone.index();
    assert_eq!(rig.bones[phys].parent.map(|b| b.index()), Some(head));
}

#[test]
fn every_angle_keyform_is_reproduced_at_its_grid_point() {
    let (_, rig) = load();
    let angle = param(&rig, "ParamAngle");
    let head = rig
        .bones
        .iter()
        .position(|b| b.name == "Head")
        .expect("head");
    let bindings: Vec<_> = rig
        .params
        .bindings
        .iter()
        .filter(|b| matches!(b.target, Target::SlotDeform(_)) && b.axes[0].param == angle)
        .collect();
    assert_eq!(
        bindings.len(),
        21,
        "every part has a ParamAngle deform binding"
    );
    let keys = [-30.0, 0.0, 30.0];
    let mut checked = 0usize;
    for (i, &ax) in keys.iter().enumerate() {
        for (j, &ay) in keys.iter().enumerate() {
            let inst = posed(&rig, &[("ParamAngle", [ax, ay])]);
            for b in &bindings {
                assert_eq!(b.dims, [3, 3]);
                let Target::SlotDeform(s) = b.target else {
                    unreachable!()
                };
                let att = inst.slots.attachment[s.index()].expect("attachment");
                let AttachmentKind::Mesh(m) = &rig.attachments[att.index()].kind else {
                    panic!("parts are meshes")
                };
                let stride = b.stride as usize;
                let key = &b.values[(i * 3 + j) * stride..(i * 3 + j + 1) * stride];
                let start = inst.slots.deform_start[s.index()] as usize;
                let got = &inst.slots.deform[start..start + stride];
                for k in 0..stride {
                    // The stage sums keyforms in f32 (the keyforms' precision): at a grid
                    // point the keyform enters with weight exactly 1.
                    let want = f64::from(m.vertices.values[k] + key[k]);
                    assert_eq!(
                        got[k],
                        want,
                        "{} at ({ax}, {ay}), float {k}",
                        rig.slots[s.index()].name
                    );
                }
                checked += stride;
            }
            // The head node's own keyforms: 18 units across per 30 degrees, 6 up (through
            // the skeleton's f32-stored pose, so not to the last bit).
            let w = inst.world[head];
            assert!((w.x - 18.0 * ax / 30.0).abs() < 1e-4, "head x {}", w.x);
            assert!(
                (w.y - (-190.0 - 6.0 * ay / 30.0)).abs() < 1e-4,
                "head y {}",
                w.y
            );
        }
    }
    assert!(checked > 9 * 500, "{checked} floats checked");
}

#[test]
fn turning_moves_the_nose_most_and_narrows_the_far_eye() {
    let (_, rig) = load();
    let at = |ax: f64| posed(&rig, &[("ParamAngle", [ax, 0.0])]);
    let (left, mid, right) = (at(-30.0), at(0.0), at(30.0));
    let nose = |i: &Instance| centroid_x(&world(&rig, i, "Nose"));
    let face = |i: &Instance| centroid_x(&world(&rig, i, "Face"));
    let (n0, n_r, n_l) = (nose(&mid), nose(&right), nose(&left));
    assert!(n_r > n0 + 20.0, "nose at +30: {n_r} vs {n0}");
    assert!(n_l < n0 - 20.0, "nose at -30: {n_l} vs {n0}");
    // Parallax: the nose (in front) moves further than the face as a whole, the back hair
    // less than the head node.
    let (f0, f_r) = (face(&mid), face(&right));
    assert!(
        n_r - n0 > f_r - f0 + 5.0,
        "nose {} vs face {}",
        n_r - n0,
        f_r - f0
    );
    let back = |i: &Instance| centroid_x(&world(&rig, i, "HairBack"));
    assert!(back(&right) - back(&mid) < 18.0);
    // Turning toward +x, the eye on the +x side (the character's left) is the far one.
    let width = |i: &Instance, s: &str| span(&world(&rig, i, s), 0);
    let (l0, r0) = (width(&mid, "EyeWhiteL"), width(&mid, "EyeWhiteR"));
    assert!((l0 - r0).abs() < 1e-3, "symmetric at rest: {l0} {r0}");
    assert!(width(&right, "EyeWhiteL") < l0 - 1.0, "far eye compresses");
    assert!(width(&right, "EyeWhiteR") > r0 + 0.5, "near eye expands");
    assert!(width(&left, "EyeWhiteR") < r0 - 1.0);
}

#[test]
fn closing_an_eye_collapses_its_opening() {
    let (_, rig) = load();
    let open = posed(&rig, &[]);
    let shut = posed(&rig, &[("ParamEyeLOpen", [0.0, 0.0])]);
    let h_open = span(&world(&rig, &open, "EyeWhiteL"), 1);
    let h_shut = span(&world(&rig, &shut, "EyeWhiteL"), 1);
    assert!(h_open > 40.0, "open eye {h_open}");
    assert!(h_shut < 1e-3, "closed eye {h_shut}");
    assert!(span(&world(&rig, &shut, "IrisL"), 1) < 1e-3);
    // The lash comes down onto the lid line; the other eye stays open.
    let lash = |i: &Instance| {
        let v = world(&rig, i, "LashL");
        v.iter().map(|p| f64::from(p[1])).sum::<f64>() / v.len() as f64
    };
    assert!(lash(&shut) > lash(&open) + 15.0);
    assert_eq!(
        world(&rig, &shut, "EyeWhiteR"),
        world(&rig, &open, "EyeWhiteR")
    );
}

#[test]
fn the_hair_swings_after_a_turn_and_settles_back() {
    let (_, rig) = load();
    let swing = param(&rig, "ParamHairSwing").index();
    let mut inst = Instance::new(&rig);
    update_params(&rig, &mut inst, 0.0, true);
    let rest = inst.params.values[swing];
    assert!(rest[0].abs() < 1e-3, "at rest: {rest:?}");
    let still = world(&rig, &inst, "SideLockL");
    inst.params
        .set(&rig, param(&rig, "ParamAngle"), [30.0, 0.0]);
    let mut peak = 0.0f64;
    for _ in 0..30 {
        update_params(&rig, &mut inst, 1.0 / 60.0, true);
        peak = peak.max(inst.params.values[swing][0].abs());
    }
    assert!(peak > 0.3, "swing after the head jumps: {peak}");
    for _ in 0..600 {
        update_params(&rig, &mut inst, 1.0 / 60.0, true);
    }
    let v = inst.params.values[swing];
    assert!(v[0].abs() < 1e-3, "settled: {v:?}");
    // Back at the rest pose of the lock once the head returns.
    inst.params.set(&rig, param(&rig, "ParamAngle"), [0.0, 0.0]);
    for _ in 0..600 {
        update_params(&rig, &mut inst, 1.0 / 60.0, true);
    }
    for (a, b) in world(&rig, &inst, "SideLockL").iter().zip(&still) {
        assert!(
            (a[0] - b[0]).abs() < 0.05 && (a[1] - b[1]).abs() < 0.05,
            "{a:?} {b:?}"
        );
    }
}

fn run(args: &[&str]) -> String {
    let cli = Cli::try_parse_from(std::iter::once("sinew").chain(args.iter().copied()))
        .expect("arguments parse");
    sinew_cli::run_guarded(&cli).expect("command runs")
}

fn out_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("sinew-face-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn render_makes_a_gif_and_a_png() {
    let face = face_path();
    let face = face.to_str().expect("utf-8 path");
    let dir = out_dir();
    let gif = dir.join("turn.gif");
    let s = run(&[
        "render",
        face,
        "--sweep",
        "ParamAngle",
        "--duration",
        "0.5",
        "--fps",
        "10",
        "--scale",
        "0.2",
        "--out",
        gif.to_str().expect("path"),
    ]);
    assert!(s.contains("5 frames"), "{s}");
    let bytes = std::fs::read(&gif).expect("gif written");
    assert!(bytes.starts_with(b"GIF89a") && bytes.ends_with(b";"));
    let png = dir.join("wink.png");
    run(&[
        "render",
        face,
        "--param",
        "ParamAngle=30,-10",
        "--param",
        "ParamEyeLOpen=0",
        "--scale",
        "0.3",
        "--out",
        png.to_str().expect("path"),
    ]);
    let tex = sinew_render::Texture::decode(&std::fs::read(&png).expect("png"), false)
        .expect("a valid PNG");
    assert!(
        tex.width > 100 && tex.height > 100,
        "{}x{}",
        tex.width,
        tex.height
    );
}

#[test]
fn render_plays_the_idle_animation() {
    let face = face_path();
    let dir = out_dir();
    let gif = dir.join("idle.gif");
    let s = run(&[
        "render",
        face.to_str().expect("path"),
        "--anim",
        "idle",
        "--fps",
        "5",
        "--scale",
        "0.15",
        "--out",
        gif.to_str().expect("path"),
    ]);
    // One loop of the 4 s animation.
    assert!(s.contains("20 frames"), "{s}");
}

#[test]
#[ignore = "runs examples/face/make_face.py (python3, about 10 s)"]
fn the_committed_face_is_what_the_generator_writes() {
    let ok = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: python3 is not available");
        return;
    }
    let out = out_dir().join("face.inp");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/face/make_face.py");
    let st = std::process::Command::new("python3")
        .arg(&script)
        .arg("--out")
        .arg(&out)
        .status()
        .expect("python3 runs");
    assert!(st.success());
    let fresh = std::fs::read(&out).expect("written");
    let committed = std::fs::read(face_path()).expect("committed");
    assert!(
        fresh == committed,
        "examples/face/face.inp is stale: run make_face.py"
    );
}
