//! Renderer tests on hand-made draw lists: exact coverage of a two-triangle quad, clipping by
//! a concave polygon, blend modes and tint through the whole pipeline.

use super::*;
use sinew::draw::{ClipPolygon, DrawCommand, QUAD_TRIANGLES};
use sinew::{AttachmentId, BlendMode, SlotId};

fn command(
    vertex_start: u32,
    index_start: u32,
    color: Color,
    blend: BlendMode,
    clip: Option<u32>,
) -> DrawCommand {
    DrawCommand {
        slot: SlotId(0),
        attachment: AttachmentId(0),
        page: 0,
        blend,
        color,
        dark: None,
        screen: None,
        vertex_start,
        vertex_count: 4,
        index_start,
        index_count: 6,
        clip,
    }
}

/// A list with one axis-aligned quad per entry of `quads` (x0, y0, x1, y1 world).
fn quads(quads: &[([f32; 4], Color, BlendMode)], clip: Option<&[f32]>) -> DrawList {
    let mut list = DrawList::default();
    if let Some(poly) = clip {
        list.clip_vertices.extend_from_slice(poly);
        list.clips.push(ClipPolygon {
            slot: SlotId(0),
            vertex_start: 0,
            vertex_count: (poly.len() / 2) as u32,
            convex: false,
            inverse: false,
        });
    }
    for (k, (r, color, blend)) in quads.iter().enumerate() {
        list.positions
            .extend_from_slice(&[r[0], r[1], r[0], r[3], r[2], r[3], r[2], r[1]]);
        list.uvs
            .extend_from_slice(&[0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0]);
        list.indices.extend_from_slice(&QUAD_TRIANGLES);
        list.commands.push(command(
            4 * k as u32,
            6 * k as u32,
            *color,
            *blend,
            clip.map(|_| 0),
        ));
    }
    list
}

/// World = pixels with y flipped: a 10x10 image showing [0,10]x[0,10].
const VIEW: View = View {
    x0: 0.0,
    y0: 0.0,
    x1: 10.0,
    y1: 10.0,
};

fn alpha(c: &Canvas, x: usize, y: usize) -> f32 {
    c.pixels[y * c.width as usize + x][3]
}

#[test]
fn quad_is_exact_and_seamless() {
    // A quad from (1.5, 2.25) to (8.5, 7.75): its diagonal crosses many pixels.
    let list = quads(
        &[([1.5, 2.25, 8.5, 7.75], Color::WHITE, BlendMode::Normal)],
        None,
    );
    let mut canvas = Canvas::new(10, 10, Color::new(0.0, 0.0, 0.0, 0.0));
    Renderer::new().render(&list, &[Texture::white()], &VIEW, &mut canvas);
    for y in 0..10 {
        for x in 0..10 {
            // Exact pixel coverage of the rectangle (y flipped: world y 2.25..7.75 is rows 2.25..7.75).
            let cx = ((x as f32 + 1.0).min(8.5) - (x as f32).max(1.5)).max(0.0);
            let cy = ((y as f32 + 1.0).min(7.75) - (y as f32).max(2.25)).max(0.0);
            let got = alpha(&canvas, x, y);
            assert!(
                (got - cx * cy).abs() < 1e-5,
                "pixel {x},{y}: {got} vs {}",
                cx * cy
            );
        }
    }
}

#[test]
fn concave_clip_masks_exactly() {
    // An L-shaped clip (the 8x8 square [1,9]^2 minus its top-right 4x4) over a quad covering all.
    let clip = [1.0, 1.0, 9.0, 1.0, 9.0, 5.0, 5.0, 5.0, 5.0, 9.0, 1.0, 9.0];
    let list = quads(
        &[([0.0, 0.0, 10.0, 10.0], Color::WHITE, BlendMode::Normal)],
        Some(&clip),
    );
    let mut canvas = Canvas::new(10, 10, Color::new(0.0, 0.0, 0.0, 0.0));
    Renderer::new().render(&list, &[Texture::white()], &VIEW, &mut canvas);
    let total: f32 = canvas.pixels.iter().map(|p| p[3]).sum();
    assert!((total - 48.0).abs() < 1e-3, "{total}");
    // Inside the L, outside it, and in the cut-out corner (world (7, 7) is row 2).
    assert!((alpha(&canvas, 2, 8) - 1.0).abs() < 1e-5);
    assert_eq!(alpha(&canvas, 0, 0), 0.0);
    assert_eq!(alpha(&canvas, 7, 2), 0.0);
    assert!((alpha(&canvas, 7, 7) - 1.0).abs() < 1e-5);
}

#[test]
fn blend_modes_and_tint_compose() {
    let red = Color::new(1.0, 0.0, 0.0, 1.0);
    let half_blue = Color::new(0.0, 0.0, 1.0, 0.5);
    let full = [0.0, 0.0, 10.0, 10.0];
    let mut canvas = Canvas::new(10, 10, Color::new(0.0, 0.0, 0.0, 0.0));
    let mut r = Renderer::new();
    let white = [Texture::white()];
    r.render(
        &quads(
            &[
                (full, red, BlendMode::Normal),
                (full, half_blue, BlendMode::Normal),
            ],
            None,
        ),
        &white,
        &VIEW,
        &mut canvas,
    );
    assert_eq!(canvas.pixels[55], [0.5, 0.0, 0.5, 1.0]);
    canvas.clear(Color::new(0.0, 0.0, 0.0, 0.0));
    r.render(
        &quads(
            &[
                (full, red, BlendMode::Normal),
                (full, half_blue, BlendMode::Additive),
            ],
            None,
        ),
        &white,
        &VIEW,
        &mut canvas,
    );
    assert_eq!(canvas.pixels[55], [1.0, 0.0, 0.5, 1.0]);
    canvas.clear(Color::new(0.5, 0.5, 0.5, 1.0));
    r.render(
        &quads(&[(full, red, BlendMode::Multiply)], None),
        &white,
        &VIEW,
        &mut canvas,
    );
    assert_eq!(canvas.pixels[55], [0.5, 0.0, 0.0, 1.0]);
    canvas.clear(Color::new(0.5, 0.5, 0.5, 1.0));
    r.render(
        &quads(&[(full, red, BlendMode::Screen)], None),
        &white,
        &VIEW,
        &mut canvas,
    );
    assert_eq!(canvas.pixels[55], [1.0, 0.5, 0.5, 1.0]);
}

#[test]
fn texture_is_sampled_with_v_down() {
    // 1x2 texture: top texel red, bottom texel green; the quad maps v=0 to its top edge.
    let tex = Texture::from_rgba8(1, 2, vec![255, 0, 0, 255, 0, 255, 0, 255], false);
    let list = quads(
        &[([0.0, 0.0, 10.0, 10.0], Color::WHITE, BlendMode::Normal)],
        None,
    );
    let mut canvas = Canvas::new(10, 10, Color::new(0.0, 0.0, 0.0, 0.0));
    Renderer::new().render(&list, &[tex], &VIEW, &mut canvas);
    let rgba = canvas.to_rgba8();
    assert_eq!(&rgba[0..4], &[255, 0, 0, 255]);
    assert_eq!(&rgba[(9 * 10) * 4..(9 * 10) * 4 + 4], &[0, 255, 0, 255]);
}

#[test]
fn destination_in_mixes_partial_coverage() {
    // A quad over x in [0, 5.5] at alpha 0.5 with DestinationIn over opaque grey: fully covered
    // pixels keep 0.5 of the ground, the half-covered column d * (1 - 0.5 * (1 - 0.5)), the
    // rest is untouched.
    let list = quads(
        &[(
            [0.0, 0.0, 5.5, 10.0],
            Color::new(1.0, 1.0, 1.0, 0.5),
            BlendMode::DestinationIn,
        )],
        None,
    );
    let mut canvas = Canvas::new(10, 10, Color::new(0.4, 0.4, 0.4, 1.0));
    Renderer::new().render(&list, &[Texture::white()], &VIEW, &mut canvas);
    for (x, k) in [(0, 0.5), (4, 0.5), (5, 0.75), (6, 1.0), (9, 1.0)] {
        let p = canvas.pixels[3 * 10 + x];
        let want = [0.4 * k, 0.4 * k, 0.4 * k, k];
        assert!(
            p.iter().zip(want.iter()).all(|(a, b)| (a - b).abs() < 1e-5),
            "x={x}: {p:?} vs {want:?}"
        );
    }
}
