//! DragonBones child armatures drawn inside their slots (`Character::nest`, set up by
//! `Asset::character`): effect's `skill` shows the `sprite` flip-book in its `sprite` slot
//! from the key that starts it. The pictures are checked against the official runtime in
//! sinew-cli's `dragonbones_render`; here: the commands, their place, no allocation once
//! warm, and the same frames twice.

use sinew::Character;
use sinew_formats::{LoadOptions, load};
use sinew_testutil::alloc::count_allocations;

fn skill(test: &str) -> Option<Character> {
    let fx = sinew_testutil::require_fixtures(test)?;
    let asset = load(
        &fx.join("dragonbones/effect/effect_ske.json"),
        &LoadOptions::default(),
    )
    .expect("effect loads");
    assert_eq!(asset.children.len(), 1, "one child armature built");
    let mut c = asset.character();
    c.play(0, "skill").expect("skill");
    Some(c)
}

/// The commands drawn for `slot` and their first index in the list.
fn commands_of(c: &mut Character, slot: &str) -> (usize, Option<usize>) {
    let id = c.rig().slot(slot).expect("the slot");
    let list = c.draw_list();
    let mine: Vec<usize> = (0..list.commands.len())
        .filter(|&i| list.commands[i].slot == id)
        .collect();
    (mine.len(), mine.first().copied())
}

#[test]
fn the_child_is_drawn_in_its_slot_once_shown() {
    let Some(mut c) = skill("the_child_is_drawn_in_its_slot_once_shown") else {
        return;
    };
    // 0.475 s: the flower has not shown the sprite yet; 1.84 s: it has.
    for _ in 0..28 {
        c.update(1.0 / 60.0);
    }
    assert_eq!(
        commands_of(&mut c, "sprite").0,
        0,
        "nothing in the slot at 0.47 s"
    );
    for _ in 28..110 {
        c.update(1.0 / 60.0);
    }
    let (n, first) = commands_of(&mut c, "sprite");
    assert!(n >= 1, "the child's commands in the slot at 1.83 s");
    // In the slot's place: every command before it belongs to a slot drawn before it.
    let order = c.instance().draw_order.clone();
    let rank = |s| order.iter().position(|&d| d == s);
    let sprite = rank(c.rig().slot("sprite").expect("slot"));
    let list = c.draw_list();
    let first = first.expect("a first command");
    assert!(list.commands[..first].iter().all(|k| rank(k.slot) < sprite));
    assert!(
        list.commands[first + n..]
            .iter()
            .all(|k| rank(k.slot) > sprite)
    );
}

#[test]
fn nested_frames_allocate_nothing_once_warm_and_repeat() {
    let test = "nested_frames_allocate_nothing_once_warm_and_repeat";
    let (Some(mut a), Some(mut b)) = (skill(test), skill(test)) else {
        return;
    };
    let frame = |c: &mut Character| -> Vec<u32> {
        c.update(1.0 / 60.0);
        c.drain_events().for_each(drop);
        c.draw_list()
            .positions
            .iter()
            .map(|v| v.to_bits())
            .collect()
    };
    // Two loops of the 4-second clip warm every buffer (the child restarts each loop).
    for _ in 0..480 {
        assert_eq!(frame(&mut a), frame(&mut b), "the same frames");
    }
    let allocations = count_allocations(|| {
        for _ in 0..240 {
            a.update(1.0 / 60.0);
            a.drain_events().for_each(drop);
            let _ = a.draw_list();
        }
    });
    assert_eq!(
        allocations, 0,
        "allocations in a warm loop with a child armature"
    );
}
