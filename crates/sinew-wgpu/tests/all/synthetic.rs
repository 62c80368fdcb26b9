//! The GPU renderer against the CPU renderer on small hand-made draw lists: every blend mode
//! over a backdrop, two-colour and screen tints, a concave clip polygon, a mask and a dodge
//! mask, a composite group with a blend mode and opacity; axis-aligned edges covered like the
//! CPU's exact areas (the turned sample grid); batching counts and no buffer growth after
//! warm-up. Needs a GPU adapter (Mesa's lavapipe is enough): skips with a notice
//! without one, fails with `CI=true`.

use sinew::draw::{DrawCommand, DrawGroup, DrawList, SlotMask};
use sinew::ids::{AttachmentId, BoneId, SlotId};
use sinew::{BlendMode, Color};
use sinew_render::{Canvas, MaskedRenderer, Texture, View};
use sinew_testutil::images::similarity;
use sinew_wgpu::{Frame, Gpu, GpuRenderer, Options};

fn gpu(test: &str) -> Option<Gpu> {
    match Gpu::headless() {
        Ok(g) => Some(g),
        Err(e) if sinew_testutil::is_ci() => panic!("{test}: CI=true and {e}"),
        Err(e) => {
            eprintln!("skipping {test}: {e}");
            None
        }
    }
}

fn quad(l: &mut DrawList, slot: u16, rect: [f32; 4], color: Color, blend: BlendMode) {
    let start = (l.positions.len() / 2) as u32;
    let [x0, y0, x1, y1] = rect;
    l.positions.extend([x0, y0, x0, y1, x1, y1, x1, y0]);
    l.uvs.extend([0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0]);
    let istart = l.indices.len() as u32;
    l.indices.extend([0, 1, 2, 2, 3, 0]);
    l.commands.push(DrawCommand {
        slot: SlotId(slot),
        attachment: AttachmentId(u32::from(slot)),
        page: 0,
        blend,
        color,
        dark: None,
        screen: None,
        vertex_start: start,
        vertex_count: 4,
        index_start: istart,
        index_count: 6,
        clip: None,
    });
}

/// A 4x4 page: a gradient with a transparent corner.
fn page() -> Texture {
    let mut px = Vec::new();
    for y in 0..4u8 {
        for x in 0..4u8 {
            let a = if x == 3 && y == 3 { 0 } else { 255 - 40 * x };
            px.extend([60 * x, 60 * y, 200, a]);
        }
    }
    Texture::from_rgba8(4, 4, px, false)
}

const VIEW: View = View {
    x0: 0.0,
    y0: 0.0,
    x1: 10.0,
    y1: 10.0,
};

fn compare(
    name: &str,
    r: &mut GpuRenderer,
    list: &DrawList,
    masks: &[SlotMask],
    group_masks: &[SlotMask],
) -> (f64, f64) {
    let tex = [page()];
    let bg = Color::new(0.3, 0.5, 0.2, 0.8);
    let mut canvas = Canvas::new(64, 64, bg);
    MaskedRenderer::new().render_grouped(list, &tex, masks, group_masks, &VIEW, &mut canvas);
    let cpu = canvas.to_rgba8();
    r.set_pages(&tex);
    let gpu = r
        .render_rgba(&Frame {
            list,
            masks,
            group_masks,
            view: VIEW,
            width: 64,
            height: 64,
            background: bg,
        })
        .expect("readback");
    let (iou, psnr) = similarity(&cpu, &gpu);
    eprintln!("{name}: IoU {iou:.4} PSNR {psnr:.1}");
    assert!(iou >= 0.99 && psnr >= 35.0, "{name}: IoU {iou} PSNR {psnr}");
    (iou, psnr)
}

#[test]
fn every_blend_mode_matches_the_cpu_renderer() {
    let Some(g) = gpu("every_blend_mode_matches_the_cpu_renderer") else {
        return;
    };
    let mut r = GpuRenderer::new(&g);
    use BlendMode::*;
    for mode in [
        Normal,
        Additive,
        Multiply,
        Screen,
        Overlay,
        Darken,
        Lighten,
        ColorDodge,
        LinearDodge,
        AddGlow,
        ColorBurn,
        HardLight,
        SoftLight,
        Difference,
        Exclusion,
        Subtract,
        Inverse,
        DestinationIn,
        ClipToLower,
        SliceFromLower,
    ] {
        let mut l = DrawList::default();
        quad(
            &mut l,
            0,
            [1.0, 1.0, 7.0, 6.0],
            Color::new(0.9, 0.6, 0.3, 0.9),
            Normal,
        );
        quad(
            &mut l,
            1,
            [3.3, 2.7, 9.1, 9.2],
            Color::new(0.7, 1.0, 0.5, 0.8),
            mode,
        );
        compare(&format!("{mode:?}"), &mut r, &l, &[], &[]);
    }
}

#[test]
fn tints_clips_masks_and_groups_match_the_cpu_renderer() {
    let Some(g) = gpu("tints_clips_masks_and_groups_match_the_cpu_renderer") else {
        return;
    };
    let mut r = GpuRenderer::new(&g);
    // Two-colour tint and screen tint.
    let mut l = DrawList::default();
    quad(
        &mut l,
        0,
        [1.0, 1.0, 9.0, 9.0],
        Color::new(1.0, 0.5, 0.5, 0.7),
        BlendMode::Normal,
    );
    l.commands[0].dark = Some(Color::new(0.2, 0.4, 0.6, 1.0));
    quad(
        &mut l,
        1,
        [2.0, 4.0, 6.0, 8.5],
        Color::new(0.8, 0.9, 1.0, 1.0),
        BlendMode::Normal,
    );
    l.commands[1].screen = Some(Color::new(0.3, 0.1, 0.6, 1.0));
    compare("tints", &mut r, &l, &[], &[]);

    // A concave clip (an L) over two commands, then an unclipped one.
    let mut l = DrawList::default();
    l.clip_vertices
        .extend([1.0, 1.0, 9.0, 1.0, 9.0, 4.0, 4.0, 4.0, 4.0, 9.0, 1.0, 9.0]);
    l.clips.push(sinew::draw::ClipPolygon {
        slot: SlotId(9),
        vertex_start: 0,
        vertex_count: 6,
        convex: false,
        inverse: false,
    });
    quad(
        &mut l,
        0,
        [0.0, 0.0, 10.0, 10.0],
        Color::WHITE,
        BlendMode::Normal,
    );
    quad(
        &mut l,
        1,
        [2.5, 0.5, 8.0, 8.0],
        Color::new(1.0, 0.2, 0.2, 1.0),
        BlendMode::Normal,
    );
    l.commands[0].clip = Some(0);
    l.commands[1].clip = Some(0);
    quad(
        &mut l,
        2,
        [6.0, 6.0, 9.5, 9.5],
        Color::new(0.2, 0.2, 1.0, 0.6),
        BlendMode::Normal,
    );
    compare("clip", &mut r, &l, &[], &[]);
    // The two clipped commands share page, blend and clip: one batch; the third another.
    assert_eq!(r.stats().batches, 2, "{:?}", r.stats());

    // Mask and dodge mask: slot 0 is the source (drawn first at zero opacity).
    for dodge in [false, true] {
        let mut l = DrawList::default();
        quad(
            &mut l,
            0,
            [4.0, 2.0, 8.0, 9.0],
            Color::new(1.0, 1.0, 1.0, 0.0),
            BlendMode::Normal,
        );
        quad(
            &mut l,
            1,
            [1.0, 1.0, 6.0, 6.0],
            Color::new(0.3, 0.9, 0.4, 1.0),
            BlendMode::Normal,
        );
        let masks = vec![
            SlotMask::default(),
            SlotMask {
                sources: vec![(SlotId(0), dodge)],
                threshold: 0.0,
            },
        ];
        compare(
            if dodge { "dodge" } else { "mask" },
            &mut r,
            &l,
            &masks,
            &[],
        );
    }

    // A group of two overlapping children at opacity 0.5, multiplied onto a backdrop.
    let mut l = DrawList::default();
    quad(
        &mut l,
        0,
        [0.5, 0.5, 9.5, 9.5],
        Color::new(0.9, 0.8, 0.2, 1.0),
        BlendMode::Normal,
    );
    quad(
        &mut l,
        1,
        [1.0, 1.0, 6.0, 6.0],
        Color::new(0.2, 0.4, 1.0, 1.0),
        BlendMode::Normal,
    );
    quad(
        &mut l,
        2,
        [4.0, 4.0, 9.0, 9.0],
        Color::new(1.0, 0.2, 0.2, 1.0),
        BlendMode::Screen,
    );
    for blend in [BlendMode::Normal, BlendMode::Multiply, BlendMode::Overlay] {
        l.groups = vec![DrawGroup {
            bone: BoneId(0),
            first: 1,
            count: 2,
            blend,
            color: Color::new(1.0, 0.8, 0.9, 0.5),
            screen: Color::new(0.1, 0.0, 0.2, 1.0),
        }];
        compare(&format!("group {blend:?}"), &mut r, &l, &[], &[]);
    }
    // The same group masked by slot 0's quad (drawn opaque for the mask).
    let group_masks = vec![SlotMask {
        sources: vec![(SlotId(0), false)],
        threshold: 0.5,
    }];
    compare("group masked", &mut r, &l, &[], &group_masks);
}

#[test]
fn axis_aligned_edges_are_covered_like_the_cpu() {
    let Some(g) = gpu("axis_aligned_edges_are_covered_like_the_cpu") else {
        return;
    };
    // One opaque white texel: an edge pixel's alpha is its coverage alone. Quads whose four
    // edges cover their outer pixels by `c` (one world unit per pixel, y up), with `c` just
    // below and above one half: an axis-aligned 8 x 8 grid rounds all of these to 4/8
    // (alpha 128), putting the lower ones on the wrong side of alpha 128.
    let tex = [Texture::from_rgba8(1, 1, vec![255; 4], false)];
    let view = View {
        x0: 0.0,
        y0: 0.0,
        x1: 64.0,
        y1: 64.0,
    };
    let mut list = DrawList::default();
    for (k, c) in [0.45f32, 0.47, 0.48, 0.53, 0.55, 0.3]
        .into_iter()
        .enumerate()
    {
        let (x, y) = (2.0 + 10.0 * k as f32, 4.0 + 9.0 * k as f32);
        let rect = [x + 1.0 - c, y + 1.0 - c, x + 7.0 + c, y + 30.0 + c];
        quad(&mut list, k as u16, rect, Color::WHITE, BlendMode::Normal);
    }
    let clear = Color::new(0.0, 0.0, 0.0, 0.0);
    let mut canvas = Canvas::new(64, 64, clear);
    MaskedRenderer::new().render_grouped(&list, &tex, &[], &[], &view, &mut canvas);
    let cpu = canvas.to_rgba8();
    let mut r = GpuRenderer::with_options(
        &g,
        Options {
            supersample: 8,
            mipmaps: false,
        },
    );
    r.set_pages(&tex);
    let frame = Frame {
        list: &list,
        masks: &[],
        group_masks: &[],
        view,
        width: 64,
        height: 64,
        background: clear,
    };
    let gpu = r.render_rgba(&frame).expect("readback");
    // Corner pixels (empty neighbours along both axes) cover a c x c square, a 2D pattern
    // of the lattice: held to what an axis-aligned grid gets on edges; edge pixels closer.
    let alpha = |x: i32, y: i32| {
        if (0..64).contains(&x) && (0..64).contains(&y) {
            cpu[((y * 64 + x) * 4 + 3) as usize]
        } else {
            0
        }
    };
    let (mut worst, mut worst_corner, mut sides, mut edge) = (0u8, 0u8, 0, 0);
    for (i, (p, q)) in cpu.chunks_exact(4).zip(gpu.chunks_exact(4)).enumerate() {
        let (x, y) = ((i % 64) as i32, (i / 64) as i32);
        let corner = (alpha(x - 1, y) == 0 || alpha(x + 1, y) == 0)
            && (alpha(x, y - 1) == 0 || alpha(x, y + 1) == 0);
        let d = p[3].abs_diff(q[3]);
        if corner {
            worst_corner = worst_corner.max(d);
        } else {
            worst = worst.max(d);
        }
        sides += usize::from((p[3] >= 128) != (q[3] >= 128));
        edge += usize::from(p[3] > 0 && p[3] < 255);
    }
    eprintln!(
        "edge pixels {edge}: largest alpha difference {worst} (corners {worst_corner}), {sides} on the other side of 128"
    );
    assert!(edge > 300, "the quads have edge pixels ({edge})");
    assert_eq!(sides, 0, "pixels on opposite sides of alpha 128");
    assert!(
        worst_corner <= 16,
        "a corner's alpha differs by {worst_corner}"
    );
    assert!(
        worst <= 6,
        "an edge's alpha differs by {worst} (an 8 x 8 grid: up to 16)"
    );
}

#[test]
fn buffers_stop_growing_after_warm_up() {
    let Some(g) = gpu("buffers_stop_growing_after_warm_up") else {
        return;
    };
    let mut r = GpuRenderer::new(&g);
    let mut l = DrawList::default();
    for k in 0..50u16 {
        let x = f32::from(k % 10);
        let y = f32::from(k / 10);
        quad(
            &mut l,
            k,
            [x, y, x + 1.5, y + 1.5],
            Color::WHITE,
            BlendMode::Normal,
        );
    }
    let frame = Frame {
        list: &l,
        masks: &[],
        group_masks: &[],
        view: VIEW,
        width: 32,
        height: 32,
        background: Color::BLACK,
    };
    r.set_pages(&[page()]);
    r.render(&frame);
    let sizes = r.buffer_sizes();
    for _ in 0..5 {
        r.render(&frame);
        assert_eq!(r.buffer_sizes(), sizes);
    }
    // Fifty commands with one page and blend mode: one batch.
    assert_eq!(r.stats().batches, 1);
    assert_eq!(r.stats().commands, 50);
}
