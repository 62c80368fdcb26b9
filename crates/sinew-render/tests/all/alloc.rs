//! Building the draw list and rasterising it allocate nothing after warm-up, and rendering is
//! deterministic (same pose, same bytes).
//!
//! A counting global allocator counts allocations made on this test's thread while
//! `Character::draw_list` and `Renderer::render` run, over a second of sinew's own example
//! character walking (draw-order keys, a clip polygon, a deforming weighted mesh, two atlas
//! pages). Posing runs outside the counted region (the runtime proves its own frame
//! allocation-free in sinew-formats' `frame_alloc` test). The same holds for masked and
//! grouped drawing (`MaskedRenderer`: slot masks, an off-screen group with a mask and an
//! advanced blend mode).

use sinew::draw::DrawGroup;
use sinew::draw::{DrawList, build_draw_list};
use sinew::{BlendMode, BoneId, SlotId};
use sinew::{Character, Color};
use sinew_render::{Canvas, MaskedRenderer, Renderer, SlotMask, Texture, View};

use sinew_testutil::alloc::count_allocations;

/// Frame `k` of the animation at 60 fps (the first at dt 0), through the facade.
fn step(c: &mut Character, k: usize) {
    let dt = if k == 0 { 0.0 } else { 1.0 / 60.0 };
    c.update(dt);
}

/// Stickbot with its atlas bound, playing `walk`, and its atlas pages.
fn stickbot() -> (Character, Vec<Texture>) {
    let dir = sinew_testutil::workspace_root().join("examples/stickbot");
    let asset = sinew_formats::load_spine(
        &dir.join("stickbot.json"),
        Some(&dir.join("stickbot.atlas")),
        &Default::default(),
    )
    .expect("stickbot loads with its atlas");
    assert!(asset.atlas.is_some(), "an atlas");
    let textures = sinew_render::asset_textures(&asset).expect("pages decode");
    let mut c = asset.character();
    c.set_animation(0, "walk", true).expect("walk");
    (c, textures)
}

const VIEW: View = View {
    x0: -80.0,
    y0: -15.0,
    x1: 95.0,
    y1: 245.0,
};

#[test]
fn drawing_allocates_nothing_after_warm_up_and_is_deterministic() {
    let (mut c, textures) = stickbot();
    let mut renderer = Renderer::new();
    let mut canvas = Canvas::new(96, 144, Color::new(0.0, 0.0, 0.0, 0.0));
    let mut frames = Vec::new();
    let mut allocations = 0;
    for k in 0..=60 {
        step(&mut c, k);
        let n = count_allocations(|| {
            let list = c.draw_list();
            canvas.clear(Color::new(0.0, 0.0, 0.0, 0.0));
            renderer.render(list, &textures, &VIEW, &mut canvas);
        });
        // The first frame sizes the renderer's scratch buffers.
        if k > 0 {
            allocations += n;
        }
        if k % 20 == 0 {
            frames.push(canvas.to_rgba8());
        }
    }
    assert_eq!(allocations, 0, "drawing allocated after warm-up");
    let list = c.draw_list();
    assert!(
        list.clips.len() == 1 && list.commands.iter().any(|c| c.clip.is_some()),
        "the visor clip is drawn"
    );
    // Same pose again from a fresh character and renderer: the same bytes.
    let (mut c, _) = stickbot();
    let mut renderer = Renderer::new();
    for k in 0..=20 {
        step(&mut c, k);
    }
    canvas.clear(Color::new(0.0, 0.0, 0.0, 0.0));
    renderer.render(c.draw_list(), &textures, &VIEW, &mut canvas);
    assert_eq!(
        canvas.to_rgba8(),
        frames[1],
        "frame 20 renders to the same bytes"
    );
}

#[test]
fn masked_and_grouped_drawing_allocates_nothing_after_warm_up() {
    let (mut c, textures) = stickbot();
    let rig = c.rig().clone();
    let mut list = DrawList::for_rig(&rig);
    let mut renderer = MaskedRenderer::new();
    let mut canvas = Canvas::new(96, 144, Color::new(0.0, 0.0, 0.0, 0.0));
    let n = rig.slots.len();
    assert!(n > 5, "stickbot has slots to group");
    // The last slot is masked by slot 0; slots 1..=4 form a group on bone 0, dodged by slot 0.
    let mut masks = vec![SlotMask::default(); n];
    masks[n - 1] = SlotMask {
        sources: vec![(SlotId(0), false)],
        threshold: 0.1,
    };
    let group_masks = vec![SlotMask {
        sources: vec![(SlotId(0), true)],
        threshold: 0.1,
    }];
    let group = DrawGroup {
        bone: BoneId(0),
        first: 0,
        count: 0,
        blend: BlendMode::Overlay,
        color: Color::new(1.0, 0.8, 0.8, 0.7),
        screen: Color::new(0.1, 0.0, 0.0, 1.0),
    };
    let mut allocations = 0;
    let mut grouped = 0;
    for k in 0..=30 {
        step(&mut c, k);
        let count = count_allocations(|| {
            // Custom groups over a Spine rig: built from the posed instance by hand.
            build_draw_list(&rig, c.instance(), Color::WHITE, &mut list);
            list.group_runs(|s| (1..=4).contains(&s.index()).then_some(group));
            canvas.clear(Color::new(0.0, 0.0, 0.0, 0.0));
            renderer.render_grouped(&list, &textures, &masks, &group_masks, &VIEW, &mut canvas);
        });
        grouped += list.groups.len();
        if k > 0 {
            allocations += count;
        }
    }
    assert!(grouped > 0, "some commands were grouped");
    assert_eq!(
        allocations, 0,
        "masked/grouped drawing allocated after warm-up"
    );
}
