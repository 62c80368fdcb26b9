//! Inochi2D composites, blend modes and colours through the loader and `sinew render`, on
//! synthetic_tiny with its JSON payload edited in memory: blend mode names map one to one,
//! a composite becomes one off-screen group with its properties, its opacity (set, or bound
//! to a parameter) scales the flattened children (pixels drawn by the composite alone get
//! exactly half the alpha), and a Part's screen tint (set, or bound) screens its texels.

use clap::Parser;
use serde_json::Value;
use sinew::BlendMode;
use sinew_cli::args::Cli;
use sinew_cli::inochi::load_puppet;
use sinew_formats::budget::Budgets;
use sinew_render::Texture;
use std::path::{Path, PathBuf};

fn run(args: &[&str]) -> anyhow::Result<String> {
    let cli = Cli::try_parse_from(std::iter::once("sinew").chain(args.iter().copied()))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    sinew_cli::run_guarded(&cli)
}

fn out_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("sinew-inochi-composite-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Finds the node named `name` in the tree.
fn node<'a>(n: &'a mut Value, name: &str) -> Option<&'a mut Value> {
    if n["name"] == name {
        return Some(n);
    }
    n.get_mut("children")?
        .as_array_mut()?
        .iter_mut()
        .find_map(|c| node(c, name))
}

/// synthetic_tiny with `edit` applied to its JSON payload, written to `out`.
fn patched(tiny: &Path, out: &Path, edit: impl FnOnce(&mut Value)) {
    let bytes = std::fs::read(tiny).expect("read tiny");
    let len = u32::from_be_bytes(bytes[8..12].try_into().expect("len")) as usize;
    let mut json: Value = serde_json::from_slice(&bytes[12..12 + len]).expect("json payload");
    edit(&mut json);
    let text = serde_json::to_vec(&json).expect("json");
    let mut b = bytes[..8].to_vec();
    b.extend_from_slice(&(text.len() as u32).to_be_bytes());
    b.extend_from_slice(&text);
    b.extend_from_slice(&bytes[12 + len..]);
    std::fs::write(out, b).expect("write patched puppet");
}

fn render(puppet: &Path, out: &Path) -> Texture {
    render_with(puppet, out, &[])
}

#[test]
fn blend_names_and_composite_properties_reach_the_draw_groups() {
    let Some(dir) = sinew_testutil::require_fixtures("blend_names_and_composite_properties") else {
        return;
    };
    let file = out_dir().join("tiny_blends.inp");
    patched(&dir.join("inochi2d/synthetic_tiny.inp"), &file, |j| {
        let root = &mut j["nodes"];
        let c = node(root, "FaceComposite").expect("composite");
        c["blend_mode"] = "Overlay".into();
        c["opacity"] = 0.5.into();
        c["tint"] = serde_json::json!([1.0, 0.5, 0.25]);
        c["screenTint"] = serde_json::json!([0.1, 0.2, 0.3]);
        c["masks"] = serde_json::json!([{"source": 1001, "mode": "DodgeMask"}]);
        node(root, "Part002").expect("part")["blend_mode"] = "Difference".into();
        node(root, "Part000").expect("part")["blend_mode"] = "NoSuchMode".into();
    });
    let asset = load_puppet(&Budgets::DEFAULT, &file, None).expect("loads");
    let rig = &*asset.rig;
    let blend = |n: &str| rig.slots.iter().find(|s| s.name == n).expect("slot").blend;
    assert_eq!(blend("Part002"), BlendMode::Difference);
    assert_eq!(
        blend("Part000"),
        BlendMode::Normal,
        "unknown names draw Normal"
    );
    let (groups, masks) = (&asset.draw.groups, &asset.draw.group_masks);
    let g: Vec<_> = groups.iter().flatten().collect();
    assert_eq!(g.len(), 1, "one composite");
    let g = g[0];
    assert_eq!(rig.bones[g.bone.index()].name, "FaceComposite");
    assert_eq!(g.blend, BlendMode::Overlay);
    assert_eq!(
        [g.color.r, g.color.g, g.color.b, g.color.a],
        [1.0, 0.5, 0.25, 0.5]
    );
    assert_eq!([g.screen.r, g.screen.g, g.screen.b], [0.1, 0.2, 0.3]);
    let m = &masks[g.bone.index()];
    let src = rig
        .slots
        .iter()
        .position(|s| s.name == "Part000")
        .expect("Part000");
    assert_eq!(m.sources, vec![(sinew::SlotId(src as u16), true)]);
    // Both children of the composite are grouped by the loader.
    for child in ["Part001", "Part002"] {
        let s = rig
            .slots
            .iter()
            .position(|s| s.name == child)
            .expect("child");
        assert_eq!(rig.params.slot_group[s], Some(g.bone), "{child}");
    }
    // And the puppet still renders.
    let img = render(&file, &out_dir().join("tiny_blends.png"));
    assert!((0..96).any(|y| (0..96).any(|x| img.texel(x, y)[3] > 0.0)));
}

#[test]
fn composite_opacity_scales_the_flattened_layer() {
    let Some(dir) = sinew_testutil::require_fixtures("composite_opacity_scales_the_layer") else {
        return;
    };
    let tiny = dir.join("inochi2d/synthetic_tiny.inp");
    let d = out_dir();
    let half = d.join("tiny_half.inp");
    patched(&tiny, &half, |j| {
        node(&mut j["nodes"], "FaceComposite").expect("composite")["opacity"] = 0.5.into();
    });
    // The same puppet with Part000 (outside the composite) hidden, to find the composite's
    // own pixels.
    let alone = d.join("tiny_alone.inp");
    patched(&tiny, &alone, |j| {
        node(&mut j["nodes"], "Part000").expect("part")["enabled"] = false.into();
    });
    let full = render(&tiny, &d.join("tiny_full.png"));
    let halved = render(&half, &d.join("tiny_half.png"));
    let only = render(&alone, &d.join("tiny_alone.png"));
    let none = {
        let p = d.join("tiny_none.inp");
        patched(&tiny, &p, |j| {
            node(&mut j["nodes"], "FaceComposite").expect("composite")["enabled"] = false.into();
        });
        render(&p, &d.join("tiny_none.png"))
    };
    let mut checked = 0;
    for y in 0..96 {
        for x in 0..96 {
            // Pixels only the composite draws: nothing there without it, the same with
            // Part000 hidden.
            let (f, o, n) = (full.texel(x, y), only.texel(x, y), none.texel(x, y));
            if n[3] > 0.0 || f[3] <= 0.0 || (f[3] - o[3]).abs() > 1e-6 {
                continue;
            }
            let h = halved.texel(x, y)[3];
            assert!(
                (h - 0.5 * f[3]).abs() <= 1.0 / 255.0,
                "({x},{y}): alpha {h} at opacity 0.5, {} at 1",
                f[3]
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} composite pixels");
}

/// `render` with extra arguments (parameter values).
fn render_with(puppet: &Path, out: &Path, extra: &[&str]) -> Texture {
    let mut args = vec![
        "render",
        puppet.to_str().expect("utf-8"),
        "--view",
        "-600,-650,600,550",
        "--size",
        "96x96",
        "--out",
        out.to_str().expect("utf-8"),
    ];
    args.extend_from_slice(extra);
    run(&args).expect("render");
    Texture::load(out, false).expect("decode output")
}

/// Adds a 1D parameter `Fade` (-1..1, default 0, keys at -1, 0, 1) whose one binding drives
/// `param_name` of node `node` with `values` at its keys.
fn bind_fade(j: &mut Value, node: u64, param_name: &str, values: [f64; 3]) {
    j["param"]
        .as_array_mut()
        .expect("params")
        .push(serde_json::json!({
            "uuid": 9001,
            "name": "Fade",
            "is_vec2": false,
            "min": [-1.0, -1.0],
            "max": [1.0, 1.0],
            "defaults": [0.0, 0.0],
            "axis_points": [[0.0, 0.5, 1.0], [0.0]],
            "merge_mode": "Passthrough",
            "bindings": [{
                "node": node,
                "param_name": param_name,
                "values": [[values[0]], [values[1]], [values[2]]],
                "isSet": [[true], [true], [true]],
                "interpolate_mode": "Linear"
            }]
        }));
}

#[test]
fn composite_opacity_binding_fades_the_layer() {
    let Some(dir) = sinew_testutil::require_fixtures("composite_opacity_binding") else {
        return;
    };
    let tiny = dir.join("inochi2d/synthetic_tiny.inp");
    let d = out_dir();
    // FaceComposite's opacity: 0 at Fade = -1, 1 at 0 (the default), 0.5 at 1.
    let bound = d.join("tiny_bound_opacity.inp");
    patched(&tiny, &bound, |j| {
        bind_fade(j, 1004, "opacity", [0.0, 1.0, 0.5])
    });
    let rig = load_puppet(&Budgets::DEFAULT, &bound, None)
        .expect("load")
        .rig;
    assert!(
        rig.params
            .bindings
            .iter()
            .any(|b| matches!(b.target, sinew::params::Target::GroupOpacity(_))),
        "the composite's opacity binding is kept"
    );
    let at = |v: &str, name: &str| {
        render_with(&bound, &d.join(name), &["--param", &format!("Fade={v}")])
    };
    let full = at("0", "bound_full.png");
    let half = at("1", "bound_half.png");
    let gone = at("-1", "bound_gone.png");
    let none = {
        let p = d.join("tiny_bound_none.inp");
        patched(&bound, &p, |j| {
            node(&mut j["nodes"], "FaceComposite").expect("composite")["enabled"] = false.into();
        });
        render_with(&p, &d.join("bound_none.png"), &["--param", "Fade=0"])
    };
    let mut checked = 0;
    for y in 0..96 {
        for x in 0..96 {
            // Pixels only the composite draws at full opacity.
            let (f, n) = (full.texel(x, y), none.texel(x, y));
            if n[3] > 0.0 || f[3] <= 0.0 {
                continue;
            }
            let (h, g) = (half.texel(x, y)[3], gone.texel(x, y)[3]);
            assert!(
                (h - 0.5 * f[3]).abs() <= 1.0 / 255.0,
                "({x},{y}): alpha {h} at opacity 0.5, {} at 1",
                f[3]
            );
            assert!(g <= 1.0 / 255.0, "({x},{y}): alpha {g} at opacity 0");
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} composite pixels");
}

#[test]
fn part_screen_tint_whitens_opaque_texels() {
    let Some(dir) = sinew_testutil::require_fixtures("part_screen_tint") else {
        return;
    };
    let tiny = dir.join("inochi2d/synthetic_tiny.inp");
    let d = out_dir();
    // Part000 (outside the composite): a white screen tint, and a binding that screens its
    // green channel fully at Fade = 1.
    let screened = d.join("tiny_screened.inp");
    patched(&tiny, &screened, |j| {
        node(&mut j["nodes"], "Part000").expect("part")["screenTint"] =
            serde_json::json!([1.0, 1.0, 1.0]);
    });
    let bound = d.join("tiny_screen_bound.inp");
    patched(&tiny, &bound, |j| {
        bind_fade(j, 1001, "screenTint.g", [0.0, 0.0, 1.0]);
    });
    // Part000 alone (the composite and its parts hidden), so every drawn pixel is its own.
    let hide = |j: &mut Value| {
        node(&mut j["nodes"], "FaceComposite").expect("node")["enabled"] = false.into();
    };
    let (plain_p, white_p, bound_p) = (
        d.join("tiny_plain_alone.inp"),
        d.join("tiny_white_alone.inp"),
        d.join("tiny_bound_alone.inp"),
    );
    patched(&tiny, &plain_p, hide);
    patched(&screened, &white_p, hide);
    patched(&bound, &bound_p, hide);
    let plain = render_with(&plain_p, &d.join("plain.png"), &[]);
    let white = render_with(&white_p, &d.join("white.png"), &[]);
    let green = render_with(&bound_p, &d.join("green.png"), &["--param", "Fade=1"]);
    let (mut opaque, mut changed) = (0, 0);
    for y in 0..96 {
        for x in 0..96 {
            let (p, w, g) = (plain.texel(x, y), white.texel(x, y), green.texel(x, y));
            if p[3] < 1.0 {
                continue;
            }
            opaque += 1;
            // screen(t, 1 · a) at full alpha is white; the tint is white.
            assert!(w.iter().all(|&c| c >= 254.0 / 255.0), "({x},{y}): {w:?}");
            // Only green is screened by the binding.
            assert!(g[1] >= 254.0 / 255.0, "({x},{y}): {g:?}");
            assert!((g[0] - p[0]).abs() <= 1.0 / 255.0 && (g[2] - p[2]).abs() <= 1.0 / 255.0);
            if p[..3].iter().any(|&c| c < 0.9) {
                changed += 1;
            }
        }
    }
    assert!(
        opaque > 20 && changed > 20,
        "{opaque} opaque, {changed} visibly changed"
    );
}
