//! Composite (off-screen group) tests on hand-made draw lists, through
//! [`crate::MaskedRenderer::render_grouped`]: a 10x10 image of world [0,10]^2 (pixel column
//! `x` covers world x in `[x, x+1]`, row `j` covers world y in `[9-j, 10-j]`). Child A covers
//! [1,6]^2 and child B [4,9]^2, so they overlap on pixels x, j in {4, 5}.

use super::*;
use crate::mask::{CLEAR, MaskedRenderer, SlotMask};
use crate::renderer::View;
use sinew::draw::{DrawCommand, DrawList, QUAD_TRIANGLES};
use sinew::{AttachmentId, BoneId, Color, SlotId};

const VIEW: View = View {
    x0: 0.0,
    y0: 0.0,
    x1: 10.0,
    y1: 10.0,
};
const A: [f32; 4] = [1.0, 1.0, 6.0, 6.0];
const B: [f32; 4] = [4.0, 4.0, 9.0, 9.0];

/// One untextured (white) quad per entry: slot, rectangle, colour, blend mode.
fn list(quads: &[(u16, [f32; 4], Color, BlendMode)]) -> DrawList {
    let mut l = DrawList::default();
    for (k, (slot, r, color, blend)) in quads.iter().enumerate() {
        l.positions
            .extend_from_slice(&[r[0], r[1], r[0], r[3], r[2], r[3], r[2], r[1]]);
        l.uvs
            .extend_from_slice(&[0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0]);
        l.indices.extend_from_slice(&QUAD_TRIANGLES);
        l.commands.push(DrawCommand {
            slot: SlotId(*slot),
            attachment: AttachmentId(k as u32),
            page: 99,
            blend: *blend,
            color: *color,
            dark: None,
            screen: None,
            vertex_start: 4 * k as u32,
            vertex_count: 4,
            index_start: 6 * k as u32,
            index_count: 6,
            clip: None,
        });
    }
    l
}

fn group(first: u32, count: u32, blend: BlendMode, opacity: f32) -> DrawGroup {
    DrawGroup {
        bone: BoneId(1),
        first,
        count,
        blend,
        color: Color::new(1.0, 1.0, 1.0, opacity),
        screen: Color::BLACK,
    }
}

fn draw(l: &DrawList, group_masks: &[SlotMask], background: Color) -> Canvas {
    let mut c = Canvas::new(10, 10, background);
    MaskedRenderer::new().render_grouped(l, &[], &[], group_masks, &VIEW, &mut c);
    c
}

fn px(c: &Canvas, x: usize, j: usize) -> Rgba {
    c.pixels[j * 10 + x]
}

#[track_caller]
fn near(got: Rgba, want: Rgba) {
    assert!(
        got.iter()
            .zip(want.iter())
            .all(|(a, b)| (a - b).abs() < 1e-5),
        "got {got:?}, want {want:?}"
    );
}

const RED: Color = Color {
    r: 1.0,
    g: 0.0,
    b: 0.0,
    a: 1.0,
};
const BLUE: Color = Color {
    r: 0.0,
    g: 0.0,
    b: 1.0,
    a: 1.0,
};

#[test]
fn group_opacity_is_uniform_over_the_union() {
    let mut l = list(&[
        (0, A, RED, BlendMode::Normal),
        (1, B, BLUE, BlendMode::Normal),
    ]);
    l.groups.push(group(0, 2, BlendMode::Normal, 0.5));
    let c = draw(&l, &[], CLEAR);
    // A only, the overlap (B on top), B only, outside.
    near(px(&c, 1, 6), [0.5, 0.0, 0.0, 0.5]);
    near(px(&c, 4, 4), [0.0, 0.0, 0.5, 0.5]);
    near(px(&c, 5, 5), [0.0, 0.0, 0.5, 0.5]);
    near(px(&c, 8, 1), [0.0, 0.0, 0.5, 0.5]);
    near(px(&c, 0, 0), [0.0; 4]);
    // Every fully covered pixel of the union has alpha 0.5 exactly.
    for j in 0..10 {
        for x in 0..10 {
            let a = px(&c, x, j)[3];
            assert!(a == 0.0 || (a - 0.5).abs() < 1e-6, "({x},{j}): {a}");
        }
    }
    // Per-child opacity instead gives 0.5 + 0.5 * 0.5 = 0.75 on the overlap.
    let half = |c: Color| Color { a: 0.5, ..c };
    let l = list(&[
        (0, A, half(RED), BlendMode::Normal),
        (1, B, half(BLUE), BlendMode::Normal),
    ]);
    let c = draw(&l, &[], CLEAR);
    near(px(&c, 4, 4), [0.25, 0.0, 0.5, 0.75]);
}

#[test]
fn group_blend_mode_applies_once() {
    let grey = Color::new(0.5, 0.5, 0.5, 1.0);
    let mut l = list(&[
        (0, A, grey, BlendMode::Normal),
        (1, B, grey, BlendMode::Normal),
    ]);
    l.groups.push(group(0, 2, BlendMode::Multiply, 1.0));
    let c = draw(&l, &[], grey);
    // Background 0.5 multiplied by the flattened layer (0.5) once, overlap included.
    near(px(&c, 4, 4), [0.25, 0.25, 0.25, 1.0]);
    near(px(&c, 1, 6), [0.25, 0.25, 0.25, 1.0]);
    near(px(&c, 0, 0), [0.5, 0.5, 0.5, 1.0]);
    // Each child multiplying on its own darkens the overlap twice.
    let l = list(&[
        (0, A, grey, BlendMode::Multiply),
        (1, B, grey, BlendMode::Multiply),
    ]);
    let c = draw(&l, &[], grey);
    near(px(&c, 4, 4), [0.125, 0.125, 0.125, 1.0]);
}

#[test]
fn group_mask_clips_the_whole_layer() {
    // Slot 7, drawn first at zero opacity, covers x in [0, 3]: the mask of the group on bone 1.
    let none = Color::new(1.0, 1.0, 1.0, 0.0);
    for dodge in [false, true] {
        let mut l = list(&[
            (7, [0.0, 0.0, 3.0, 10.0], none, BlendMode::Normal),
            (0, A, RED, BlendMode::Normal),
            (1, B, BLUE, BlendMode::Normal),
        ]);
        l.groups.push(group(1, 2, BlendMode::Normal, 1.0));
        let masks = [
            SlotMask::default(),
            SlotMask {
                sources: vec![(SlotId(7), dodge)],
                threshold: 0.0,
            },
        ];
        let c = draw(&l, &masks, CLEAR);
        for j in 0..10 {
            for x in 0..10 {
                let in_a = (1..6).contains(&x) && (4..9).contains(&j);
                let in_b = (4..9).contains(&x) && (1..6).contains(&j);
                let shown = (in_a || in_b) && ((x < 3) != dodge);
                let a = px(&c, x, j)[3];
                assert_eq!(a, if shown { 1.0 } else { 0.0 }, "dodge={dodge} ({x},{j})");
            }
        }
    }
}

#[test]
fn tint_and_screen_tint_by_hand() {
    // Opaque grey 0.5 under tint (1, 0.5, 0), screen (0.5, 0, 0), opacity 0.8:
    // r = 1 * (1 - 0.5 * 0.5) * 0.8 = 0.6, g = 0.5 * 0.5 * 0.8 = 0.2, b = 0, a = 0.8.
    let grey = Color::new(0.5, 0.5, 0.5, 1.0);
    let mut l = list(&[(0, A, grey, BlendMode::Normal)]);
    let mut g = group(0, 1, BlendMode::Normal, 0.8);
    g.color = Color::new(1.0, 0.5, 0.0, 0.8);
    g.screen = Color::new(0.5, 0.0, 0.0, 1.0);
    l.groups.push(g);
    near(px(&draw(&l, &[], CLEAR), 2, 5), [0.6, 0.2, 0.0, 0.8]);
    // A half-transparent pixel: premultiplied 0.25 at alpha 0.5 is screened with 0.5 * 0.5:
    // 1 - 0.75 * 0.75 = 0.4375.
    near(
        shade_layer([0.25, 0.25, 0.25, 0.5], [1.0; 3], [0.5, 0.0, 0.0], 1.0),
        [0.4375, 0.25, 0.25, 0.5],
    );
}

#[test]
fn identity_group_draws_like_no_group() {
    // Fractional edges (partial coverage) and a blend mode per child over a coloured ground.
    let a = [1.25, 0.5, 6.4, 5.7];
    let b = [3.3, 4.1, 8.6, 9.2];
    let quads = [
        (0, a, Color::new(0.9, 0.3, 0.1, 0.7), BlendMode::Normal),
        (1, b, Color::new(0.2, 0.6, 0.8, 0.6), BlendMode::Normal),
    ];
    let ground = Color::new(0.1, 0.2, 0.3, 1.0);
    let plain = draw(&list(&quads), &[], ground);
    let mut l = list(&quads);
    l.groups.push(group(0, 2, BlendMode::Normal, 1.0));
    let grouped = draw(&l, &[], ground);
    for (p, q) in plain.pixels.iter().zip(&grouped.pixels) {
        near(*q, *p);
    }
}

#[test]
fn destination_in_group_erases_outside_the_layer() {
    let ground = Color::new(0.2, 0.4, 0.6, 1.0);
    let mut l = list(&[(0, A, RED, BlendMode::Normal)]);
    l.groups.push(group(0, 1, BlendMode::DestinationIn, 1.0));
    let c = draw(&l, &[], ground);
    near(px(&c, 2, 5), [0.2, 0.4, 0.6, 1.0]);
    near(px(&c, 8, 1), [0.0; 4]);
}
