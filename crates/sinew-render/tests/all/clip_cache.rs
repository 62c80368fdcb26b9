//! Clip polygons are triangulated once, not every frame (issue 12: a large concave clipping
//! polygon cost seconds of CPU per frame), and polygons over the `clip_vertices` budget are
//! refused at load with the attachment's name. The rig is crafted here: a 1,000-vertex
//! concave star clips a square region, on a bone that turns and scales (mirrored half the
//! time) every frame.

use sinew::Color;
use sinew_render::{Canvas, Renderer, View};
use std::fmt::Write as _;

/// A star of `points` spikes (2 * points vertices, concave) as the clipping attachment
/// `star` of slot `clip`, on bone `b`, clipping the region slot `r`.
fn star_rig(points: usize) -> String {
    let mut verts = String::new();
    let n = 2 * points;
    for k in 0..n {
        let a = k as f64 / n as f64 * std::f64::consts::TAU;
        let r = if k % 2 == 0 { 100.0 } else { 60.0 };
        let _ = write!(verts, "{},{},", r * a.cos(), r * a.sin());
    }
    verts.pop();
    format!(
        r#"{{"skeleton":{{"spine":"4.2.0"}},
"bones":[{{"name":"root"}},{{"name":"b","parent":"root"}}],
"slots":[{{"name":"clip","bone":"b","attachment":"star"}},{{"name":"r","bone":"root","attachment":"sq"}}],
"skins":[{{"name":"default","attachments":{{
 "clip":{{"star":{{"type":"clipping","end":"r","vertexCount":{n},"vertices":[{verts}]}}}},
 "r":{{"sq":{{"width":240,"height":240}}}}}}}}],
"animations":{{"turn":{{"bones":{{"b":{{
 "rotate":[{{"time":0,"value":0}},{{"time":1,"value":360}}],
 "scale":[{{"time":0,"x":1,"y":1}},{{"time":0.5,"x":-1.5,"y":0.5}},{{"time":1,"x":1,"y":1}}]}}}}}}}}}}"#
    )
}

fn character(json: &str) -> Result<sinew::Character, String> {
    let raw = sinew_formats::spine::parse_spine(json.as_bytes(), "star.json")
        .map_err(|e| e.to_string())?;
    let rig = sinew::build::build_rig(&raw).map_err(|e| e.to_string())?;
    Ok(sinew::Character::new(std::sync::Arc::new(rig)))
}

#[test]
fn a_large_concave_clip_is_triangulated_once_while_it_moves() {
    let mut c = character(&star_rig(500)).expect("the star rig loads");
    c.set_animation(0, "turn", true).expect("animation");
    let mut renderer = Renderer::new();
    let view = View {
        x0: -150.0,
        y0: -150.0,
        x1: 150.0,
        y1: 150.0,
    };
    let mut canvas = Canvas::new(64, 64, Color::new(0.0, 0.0, 0.0, 0.0));
    for frame in 0..12 {
        c.update(if frame == 0 { 0.0 } else { 1.0 / 12.0 });
        canvas.clear(Color::new(0.0, 0.0, 0.0, 0.0));
        let list = c.draw_list();
        assert_eq!(list.clips.len(), 1, "frame {frame}: the star clips");
        assert_eq!(list.clips[0].vertex_count, 1000);
        renderer.render(list, &[], &view, &mut canvas);
        // The clipped square shows the star: some coverage, and not the whole canvas.
        let covered: f32 = canvas.pixels.iter().map(|p| p[3]).sum();
        assert!(
            covered > 100.0 && covered < 64.0 * 64.0 - 100.0,
            "frame {frame}: {covered}"
        );
    }
    assert_eq!(
        renderer.clip_triangulations(),
        1,
        "turned, scaled and mirrored: the first frame's triangulation serves every frame"
    );
}

#[test]
fn a_clip_over_the_budget_is_refused_naming_the_attachment() {
    // 32,768 vertices, over the default budget of 1,024.
    let e = character(&star_rig(16_384)).expect_err("refused");
    for needle in [
        "star.json",
        "clipping attachment `star`",
        "slot `clip`",
        "clip_vertices",
        // The library names the budget's option; only the CLI names its flag.
        "`Budgets::clip_vertices`",
    ] {
        assert!(e.contains(needle), "`{needle}` missing: {e}");
    }
}
