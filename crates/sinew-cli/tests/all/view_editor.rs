//! The viewer as a rig editor, under Xvfb (as `view.rs`), driven by scripted pointer input
//! (`--input`: egui's own pointer events, pressed, moved in steps and released on the named
//! slider, button or cage point):
//! - dragging the cape chain's stiffness slider changes the picture where the CPU renderer,
//!   given the saved extras, draws the cape differently: the window matches the tuned
//!   render and not the original there; "save extras" writes a file that reloads to the
//!   original extras with only that value changed (the value the viewer reported);
//! - dragging a point of the cape's boundary cage moves the mesh: the window matches a CPU
//!   render of the same cage built with sinew's API and that point moved by the drag (in
//!   world units from the printed view), not the undragged one, and the mesh's boundary
//!   vertex under the point follows it; "save extras" then writes the cage (driven by the
//!   mesh's boundary, the drag keyed on `walk`), which reloads to the same offsets and
//!   draws the dragged cape as the window did.
//!
//! Skips with a notice when no display or adapter can be had; fails under `CI=true`.

#![cfg(feature = "view")]

use super::view::{out_dir, parse_line, root, unavailable, view_in};
use sinew::cage::Cage;
use sinew::deform::cage_stage::{CageDeformer, CageMode, CageSource};
use sinew_render::compare::load_rgba;
use std::path::{Path, PathBuf};

/// Stickbot's walk at this time: the cape swings there.
const TIME: f64 = 0.8;

/// A screenshot's width and RGBA pixels, the canvas and view the viewer printed, its stderr.
type Run = (u32, Vec<u8>, [u32; 4], [f64; 4], String);

/// A scripted run of stickbot (`--anim walk --time TIME`, 1200x800, `#ff00ff` background)
/// with `extra` arguments; the screenshot's pixels (width, RGBA), the canvas and view it
/// printed, and its stderr. `None` when the viewer cannot run here.
fn run(tag: &str, extra: &[&str]) -> Option<Run> {
    let out = out_dir().join(format!("editor-{tag}.png"));
    let time = TIME.to_string();
    let mut args = vec![
        "examples/stickbot/stickbot.json",
        "--anim",
        "walk",
        "--time",
        &time,
        "--size",
        "1200x800",
        "--frames",
        "4",
        "--background",
        "#ff00ff",
        "--screenshot",
        out.to_str().expect("utf-8 path"),
    ];
    args.extend_from_slice(extra);
    let o = view_in(&root(), &args)?;
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    if !o.status.success() {
        if stderr.contains("cannot open the window") || stderr.contains("xvfb-run") {
            unavailable(&format!("the window did not open: {stderr}"));
            return None;
        }
        panic!("sinew view {args:?} failed: {stderr}");
    }
    let (width, _, rgba) = load_rgba(&out).expect("screenshot written");
    let (canvas, view) = parse_line(&stderr);
    Some((width, rgba, canvas, view, stderr))
}

/// The window's coverage on the canvas (below the HUD band): pixels away from `#ff00ff`.
fn window_mask(width: u32, rgba: &[u8], canvas: [u32; 4]) -> Vec<bool> {
    let [cx, cy, cw, ch] = canvas;
    let mut m = vec![false; (cw * ch) as usize];
    for y in 32..ch {
        for x in 0..cw {
            let i = (((cy + y) * width + cx + x) * 4) as usize;
            let p = &rgba[i..i + 3];
            m[(y * cw + x) as usize] =
                p[0].abs_diff(255) > 40 || p[1] > 40 || p[2].abs_diff(255) > 40;
        }
    }
    m
}

/// The CPU renderer's coverage of `c` through `view` on the canvas (alpha > 96, below the
/// HUD band).
fn cpu_mask(
    c: &mut sinew::Character,
    asset: &sinew_formats::Asset,
    canvas: [u32; 4],
    view: [f64; 4],
) -> Vec<bool> {
    let [_, _, cw, ch] = canvas;
    let textures = sinew_render::asset_textures(asset).expect("pages");
    let mut out = sinew_render::Canvas::new(cw, ch, sinew::Color::new(0.0, 0.0, 0.0, 0.0));
    let v = sinew_render::View {
        x0: view[0],
        y0: view[1],
        x1: view[2],
        y1: view[3],
    };
    sinew_render::CharacterRenderer::new().draw(c, &textures, &v, &mut out);
    let rgba = out.to_rgba8();
    (0..(cw * ch) as usize)
        .map(|i| i as u32 / cw >= 32 && rgba[i * 4 + 3] > 96)
        .collect()
}

/// Stickbot with the extras `extras`, posed as the viewer poses it at [`TIME`].
fn stickbot(extras: &Path) -> (sinew_formats::Asset, sinew::Character) {
    let asset = sinew_cli::pose::load(
        &sinew_formats::budget::Budgets::DEFAULT,
        &root().join("examples/stickbot/stickbot.json"),
        Some(&root().join("examples/stickbot/stickbot.atlas")),
        Some(extras),
    )
    .expect("stickbot loads");
    let mut c = asset.character();
    c.set_default_mix(0.2);
    c.set_animation(0, "walk", true).expect("walk");
    c.update(0.0);
    let mut t = 0.0;
    while t + 1.0 / 60.0 <= TIME {
        c.update(1.0 / 60.0);
        t += 1.0 / 60.0;
    }
    if TIME > t {
        c.update(TIME - t);
    }
    (asset, c)
}

/// Over the pixels where the masks `a` and `b` differ: the share where `window` agrees
/// with `a`, and how many there are.
fn agreement(window: &[bool], a: &[bool], b: &[bool]) -> (f64, usize) {
    let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    let agree = differ.iter().filter(|&&i| window[i] == a[i]).count();
    (agree as f64 / differ.len().max(1) as f64, differ.len())
}

fn original_extras() -> PathBuf {
    root().join("examples/stickbot/stickbot.extras.json")
}

#[test]
fn a_dragged_jiggle_slider_tunes_the_cape_and_saves_it() {
    let dir = out_dir();
    let saved = dir.join("tuned.extras.json");
    let _ = std::fs::remove_file(&saved);
    let script = dir.join("tune.input");
    std::fs::write(
        &script,
        "drag slider:cape.stiffness to 0.8\nclick button:save-extras\n",
    )
    .expect("script written");
    let Some((width, rgba, canvas, view, stderr)) = run(
        "tuned",
        &[
            "--input",
            script.to_str().expect("utf-8"),
            "--save-extras",
            saved.to_str().expect("utf-8"),
        ],
    ) else {
        return;
    };
    // The value the slider reached, as the viewer reported it.
    let value: f64 = stderr
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("sinew view: jiggle cape.stiffness = "))
        .unwrap_or_else(|| panic!("the slider did not move: {stderr}"))
        .trim()
        .parse()
        .expect("a number");
    assert!(
        stderr.contains(&format!("sinew view: saved {}", saved.display())),
        "{stderr}"
    );

    // The saved file is the original with the cape's stiffness tuned, nothing else.
    let mut expected = sinew_formats::extras::load_extras(&original_extras()).expect("original");
    let cape = expected
        .jiggle
        .chains
        .iter_mut()
        .find(|c| c.name == "cape")
        .expect("a cape chain");
    let before = cape.params.stiffness;
    cape.params.stiffness = value;
    let back = sinew_formats::extras::load_extras(&saved).expect("the saved extras reload");
    assert_eq!(back, expected, "the saved extras");
    eprintln!("cape stiffness {before:.2} -> {value:.2}");
    assert!(
        value > before * 20.0,
        "dragged to the right end: {value} vs {before}"
    );

    // The window shows the tuned cape: where the CPU renders with the saved and with the
    // original extras differ, it agrees with the saved ones.
    let window = window_mask(width, &rgba, canvas);
    let (asset, mut c) = stickbot(&saved);
    let tuned = cpu_mask(&mut c, &asset, canvas, view);
    let (asset, mut c) = stickbot(&original_extras());
    let original = cpu_mask(&mut c, &asset, canvas, view);
    let (share, n) = agreement(&window, &tuned, &original);
    eprintln!(
        "tuned vs original CPU renders differ in {n} px; the window agrees with the tuned one in {:.1}%",
        share * 100.0
    );
    assert!(n > 150, "the tuning changes too little to be seen ({n} px)");
    assert!(
        share >= 0.9,
        "the window does not show the tuned cape ({:.1}%)",
        share * 100.0
    );
}

/// The cape's boundary cage as the viewer binds it (`--cage cape`) on `c`: the cage, the
/// mesh's world vertices, its attachment and slot.
fn cape_cage(c: &mut sinew::Character) -> (Cage, Vec<[f64; 2]>, Vec<u32>) {
    let slot = c.find_slot("cape").expect("cape slot");
    let att = c.attachment(slot).expect("shows a mesh");
    let rig = c.rig().clone();
    let sinew::rig::AttachmentKind::Mesh(m) = &rig.attachments[att.index()].kind else {
        panic!("the cape is a mesh");
    };
    let mut world = Vec::new();
    c.world_vertices(slot, &mut world);
    let points: Vec<[f64; 2]> = world
        .chunks_exact(2)
        .map(|p| [f64::from(p[0]), f64::from(p[1])])
        .collect();
    let tris: Vec<[u32; 3]> = m
        .triangles
        .chunks_exact(3)
        .map(|t| [u32::from(t[0]), u32::from(t[1]), u32::from(t[2])])
        .collect();
    let (cage, boundary) = Cage::from_mesh(&points, &tris).expect("a boundary cage");
    (cage, points, boundary)
}

#[test]
fn a_dragged_cage_point_moves_the_mesh() {
    let extras = original_extras();
    let (asset, mut c) = stickbot(&extras);
    let (cage, points, boundary) = cape_cage(&mut c);
    // The lowest point of the cage: the cape's hem.
    let j = (0..boundary.len())
        .min_by(|&a, &b| {
            let (pa, pb) = (points[boundary[a] as usize], points[boundary[b] as usize]);
            pa[1].total_cmp(&pb[1])
        })
        .expect("points");
    let (dx, dy) = (-60.0f64, -40.0f64);
    let dir = out_dir();
    let script = dir.join("cage.input");
    std::fs::write(
        &script,
        format!("drag cage:0.{j} by {dx},{dy}\nclick button:save-extras\n"),
    )
    .expect("script");
    let saved = dir.join("caged.extras.json");
    let _ = std::fs::remove_file(&saved);
    let Some((width, rgba, canvas, view, stderr)) = run(
        "cage",
        &[
            "--cage",
            "cape",
            "--input",
            script.to_str().expect("utf-8"),
            "--save-extras",
            saved.to_str().expect("utf-8"),
        ],
    ) else {
        return;
    };
    assert!(
        stderr.contains(&format!("sinew view: cage 0 point {j} dragged")),
        "{stderr}"
    );
    // The drag in world units (y up; stickbot is y up), from the printed view.
    let [_, _, cw, ch] = canvas;
    let d = [
        dx * (view[2] - view[0]) / f64::from(cw),
        dy * (view[3] - view[1]) / f64::from(ch),
    ];

    // The reference: the same two cages built with sinew's API on the same pose, the
    // handle moved by the drag.
    let slot = c.find_slot("cape").expect("slot");
    let att = c.attachment(slot).expect("mesh");
    let targets: Vec<u32> = (0..points.len() as u32).collect();
    let boundary_def = CageDeformer::new(
        &cage,
        &points,
        targets.clone(),
        CageSource::MeshVertices(boundary.clone()),
        CageMode::Replace,
    )
    .expect("binds");
    let handles = CageDeformer::new(
        &cage,
        &points,
        targets,
        CageSource::External,
        CageMode::Offset,
    )
    .expect("binds");
    c.add_cage(slot, att, boundary_def).expect("added");
    let k = c.add_cage(slot, att, handles).expect("added");
    c.update(0.0);
    let undragged = cpu_mask(&mut c, &asset, canvas, view);
    let p = c.cage_points_mut(k).expect("handles");
    p[2 * j] += d[0] as f32;
    p[2 * j + 1] += d[1] as f32;
    c.update(0.0);
    let dragged = cpu_mask(&mut c, &asset, canvas, view);
    // The mesh vertex under the handle followed it exactly.
    let mut world = Vec::new();
    c.world_vertices(slot, &mut world);
    let v = boundary[j] as usize;
    let moved = [
        f64::from(world[2 * v]) - points[v][0],
        f64::from(world[2 * v + 1]) - points[v][1],
    ];
    assert!(
        (moved[0] - d[0]).abs() < 1e-3 && (moved[1] - d[1]).abs() < 1e-3,
        "vertex moved {moved:?}, handle {d:?}"
    );

    let window = window_mask(width, &rgba, canvas);
    let (share, n) = agreement(&window, &dragged, &undragged);
    eprintln!(
        "cage point {j} dragged by ({dx}, {dy}) points = ({:.1}, {:.1}) units: {n} px change; the window agrees with the dragged render in {:.1}%",
        d[0],
        d[1],
        share * 100.0
    );
    assert!(n > 150, "the drag changes too little to be seen ({n} px)");
    assert!(
        share >= 0.9,
        "the window does not show the dragged cape ({:.1}%)",
        share * 100.0
    );

    // The saved extras: the original ones plus the cape's boundary cage, driven by the
    // mesh's boundary loops, the drag keyed at time 0 of `walk` on the dragged point only.
    let back = sinew_formats::extras::load_extras(&saved).expect("the saved extras reload");
    let original = sinew_formats::extras::load_extras(&extras).expect("original");
    assert_eq!(back.jiggle, original.jiggle);
    assert_eq!(back.follow, original.follow);
    assert_eq!(back.cages.len(), 1, "{:?}", back.cages);
    let desc = &back.cages[0];
    assert_eq!(
        (desc.name.as_str(), desc.slot.as_str()),
        ("cape-boundary", "cape")
    );
    let tris: Vec<[u32; 3]> = {
        let rig = c.rig().clone();
        let sinew::rig::AttachmentKind::Mesh(m) = &rig.attachments[att.index()].kind else {
            panic!("a mesh");
        };
        m.triangles
            .chunks_exact(3)
            .map(|t| [u32::from(t[0]), u32::from(t[1]), u32::from(t[2])])
            .collect()
    };
    let loops = sinew::cage::boundary_loops(&points, &tris).expect("loops");
    assert_eq!(
        desc.drive,
        sinew::character::cage_rig::CageDrive::Mesh { vertices: loops }
    );
    assert_eq!(desc.mode, CageMode::Replace);
    assert_eq!(desc.animations.len(), 1);
    assert_eq!(desc.animations[0].animation, "walk");
    let keyed = &desc.animations[0].keys[0].offsets;
    let size = d[0].hypot(d[1]);
    for (k, o) in keyed.iter().enumerate() {
        let want = if k == j { d } else { [0.0, 0.0] };
        assert!(
            (o[0] - want[0]).abs() < 0.02 * size && (o[1] - want[1]).abs() < 0.02 * size,
            "point {k}: saved offset {o:?}, dragged {want:?}"
        );
    }
    // Reloaded, the file's cage shows the dragged cape as the window did.
    let (asset, mut c) = stickbot(&saved);
    let reloaded = cpu_mask(&mut c, &asset, canvas, view);
    let (share, n) = agreement(&window, &reloaded, &undragged);
    eprintln!(
        "saved extras reloaded: {n} px differ from the undragged cape; the window agrees with the reloaded render in {:.1}%",
        share * 100.0
    );
    assert!(n > 150, "the reloaded cage changes too little ({n} px)");
    assert!(
        share >= 0.9,
        "the reloaded cage is not what the window showed ({:.1}%)",
        share * 100.0
    );
}

#[test]
fn a_script_aimed_at_nothing_fails_and_a_bad_one_is_refused() {
    let dir = out_dir();
    let script = dir.join("nothing.input");
    std::fs::write(&script, "click button:no-such\n").expect("script");
    let out = dir.join("nothing.png");
    let args = [
        "examples/stickbot/stickbot.json",
        "--input",
        script.to_str().expect("utf-8"),
        "--screenshot",
        out.to_str().expect("utf-8"),
    ];
    let Some(o) = view_in(&root(), &args) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&o.stderr);
    if stderr.contains("cannot open the window") {
        unavailable(&format!("the window did not open: {stderr}"));
        return;
    }
    assert!(!o.status.success(), "{stderr}");
    assert!(stderr.contains("no target `button:no-such`"), "{stderr}");
    assert!(
        stderr.contains("button:save-extras"),
        "names what is there: {stderr}"
    );
    // A script that does not parse is refused before any window, naming its line.
    std::fs::write(&script, "wait 1\ndrag slider:cape.stiffness by 3\n").expect("script");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_sinew"))
        .args(["view", "examples/stickbot/stickbot.json", "--input"])
        .arg(&script)
        .current_dir(root())
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("line 2"), "{stderr}");
}

#[test]
fn dragged_cages_of_a_skeleton_without_extras_start_its_extras_file() {
    // Stickbot without its extras file, in a folder of its own.
    let dir = out_dir().join("bare");
    std::fs::create_dir_all(&dir).expect("dir");
    for f in [
        "stickbot.json",
        "stickbot.atlas",
        "stickbot.png",
        "stickbot_2.png",
    ] {
        std::fs::copy(root().join("examples/stickbot").join(f), dir.join(f)).expect("copied");
    }
    let written = dir.join("stickbot.extras.json");
    let _ = std::fs::remove_file(&written);
    let script = dir.join("bare.input");
    std::fs::write(
        &script,
        "drag cage:0.1 by 0,-30\nclick button:save-extras\n",
    )
    .expect("script");
    let out = dir.join("bare.png");
    let args = [
        "stickbot.json",
        "--anim",
        "walk",
        "--cage",
        "cape",
        "--input",
        script.to_str().expect("utf-8"),
        "--screenshot",
        out.to_str().expect("utf-8"),
    ];
    let Some(o) = view_in(&dir, &args) else {
        return;
    };
    let stderr = String::from_utf8_lossy(&o.stderr);
    if stderr.contains("cannot open the window") {
        unavailable(&format!("the window did not open: {stderr}"));
        return;
    }
    assert!(o.status.success(), "{stderr}");
    // Written beside the skeleton as the viewer loads it next time: the cage, keyed on walk.
    let back = sinew_formats::extras::load_extras(&written).expect("a new extras file");
    assert!(back.jiggle.chains.is_empty() && back.follow.is_empty());
    assert_eq!(back.cages.len(), 1);
    assert_eq!(back.cages[0].name, "cape-boundary");
    assert_eq!(back.cages[0].animations[0].animation, "walk");
    let moved: Vec<usize> = back.cages[0].animations[0].keys[0]
        .offsets
        .iter()
        .enumerate()
        .filter(|(_, o)| o[0] != 0.0 || o[1] != 0.0)
        .map(|(k, _)| k)
        .collect();
    assert_eq!(moved, vec![1], "only the dragged point");
    let o1 = back.cages[0].animations[0].keys[0].offsets[1];
    assert!(
        o1[0].abs() < 1e-6 && o1[1] < -1.0,
        "dragged straight down: {o1:?}"
    );
}
