//! Building the draw list and rasterising it allocate nothing after warm-up, and rendering is
//! deterministic (same pose, same bytes).
//!
//! A counting global allocator counts allocations made on this test's thread while
//! `build_draw_list` and `Renderer::render` run, over a second of sinew's own example
//! character walking (draw-order keys, a clip polygon, a deforming weighted mesh, two atlas
//! pages). Posing runs outside the counted region (the runtime proves its own frame
//! allocation-free in sinew-formats' `frame_alloc` test). The same holds for masked and
//! grouped drawing (`MaskedRenderer`: slot masks, an off-screen group with a mask and an
//! advanced blend mode).

use sinew::anim::AnimationState;
use sinew::draw::DrawGroup;
use sinew::draw::{DrawList, build_draw_list};
use sinew::{BlendMode, BoneId, SlotId};
use sinew::{Color, Instance, Physics, Rig};
use sinew_render::{Canvas, MaskedRenderer, Renderer, SlotMask, Texture, View};

use sinew_testutil::alloc::{CountingAlloc, count_allocations};

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// Frame `k` of the animation at 60 fps (the first at dt 0): clips applied, events
/// dropped, world transforms with physics.
fn step(rig: &Rig, state: &mut AnimationState, inst: &mut Instance, k: usize) {
    let dt = if k == 0 { 0.0 } else { 1.0 / 60.0 };
    state.update(dt);
    state.apply(rig, inst);
    state.events.clear();
    inst.advance_time(dt);
    sinew::skeleton::update_world_transform(rig, inst, Physics::Update);
}

fn stickbot() -> (Rig, Vec<Texture>) {
    let dir = sinew_testutil::workspace_root().join("examples/stickbot");
    let raw =
        sinew_formats::spine::load_spine_json(&dir.join("stickbot.json")).expect("stickbot loads");
    let mut rig = sinew::build::build_rig(&raw).expect("stickbot builds");
    let atlas =
        sinew_formats::atlas::load_atlas(&dir.join("stickbot.atlas")).expect("atlas parses");
    sinew_formats::bind_atlas(&mut rig, &atlas).expect("atlas binds");
    let textures =
        sinew_render::load_atlas_pages(&atlas, &dir, "stickbot.atlas").expect("pages load");
    (rig, textures)
}

const VIEW: View = View {
    x0: -80.0,
    y0: -15.0,
    x1: 95.0,
    y1: 245.0,
};

#[test]
fn drawing_allocates_nothing_after_warm_up_and_is_deterministic() {
    let (rig, textures) = stickbot();
    let mut inst = Instance::new(&rig);
    let mut state = AnimationState::new(&rig);
    state.set_animation(&rig, 0, rig.clip("walk").expect("walk"), true);
    let mut list = DrawList::for_rig(&rig);
    let mut renderer = Renderer::new();
    let mut canvas = Canvas::new(96, 144, Color::new(0.0, 0.0, 0.0, 0.0));
    let mut frames = Vec::new();
    let mut allocations = 0;
    for k in 0..=60 {
        step(&rig, &mut state, &mut inst, k);
        let n = count_allocations(|| {
            build_draw_list(&rig, &inst, Color::WHITE, &mut list);
            canvas.clear(Color::new(0.0, 0.0, 0.0, 0.0));
            renderer.render(&list, &textures, &VIEW, &mut canvas);
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
    assert!(
        list.clips.len() == 1 && list.commands.iter().any(|c| c.clip.is_some()),
        "the visor clip is drawn"
    );
    // Same pose again from a fresh instance and renderer: the same bytes.
    let mut inst = Instance::new(&rig);
    let mut state = AnimationState::new(&rig);
    state.set_animation(&rig, 0, rig.clip("walk").expect("walk"), true);
    let mut renderer = Renderer::new();
    for k in 0..=20 {
        step(&rig, &mut state, &mut inst, k);
    }
    build_draw_list(&rig, &inst, Color::WHITE, &mut list);
    canvas.clear(Color::new(0.0, 0.0, 0.0, 0.0));
    renderer.render(&list, &textures, &VIEW, &mut canvas);
    assert_eq!(
        canvas.to_rgba8(),
        frames[1],
        "frame 20 renders to the same bytes"
    );
}

#[test]
fn masked_and_grouped_drawing_allocates_nothing_after_warm_up() {
    let (rig, textures) = stickbot();
    let mut inst = Instance::new(&rig);
    let mut state = AnimationState::new(&rig);
    state.set_animation(&rig, 0, rig.clip("walk").expect("walk"), true);
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
        step(&rig, &mut state, &mut inst, k);
        let count = count_allocations(|| {
            build_draw_list(&rig, &inst, Color::WHITE, &mut list);
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
