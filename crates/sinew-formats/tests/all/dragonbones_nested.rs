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

/// Three armatures, each showing the next in a slot (`a` -> `b` -> `c`), and `c` showing
/// `a` again (a cycle: nothing). Every bone and display moves by a translation only, so
/// `c`'s 16x8 image sits at the sum of them.
const NESTED: &str = r#"{"frameRate":24,"name":"n","version":"5.5","compatibleVersion":"5.5",
 "armature":[
  {"type":"Armature","frameRate":24,"name":"a",
   "bone":[{"name":"root"},{"name":"holder","parent":"root","transform":{"x":100}}],
   "slot":[{"name":"sa","parent":"holder"}],
   "skin":[{"slot":[{"name":"sa","display":[{"type":"armature","name":"b","transform":{"x":10}}]}]}],
   "animation":[{"duration":0,"name":"none"}]},
  {"type":"Armature","frameRate":24,"name":"b",
   "bone":[{"name":"root"},{"name":"hb","parent":"root","transform":{"y":20}}],
   "slot":[{"name":"sb","parent":"hb"}],
   "skin":[{"slot":[{"name":"sb","display":[{"type":"armature","name":"c","transform":{"y":5}}]}]}],
   "animation":[{"duration":0,"name":"none"}]},
  {"type":"Armature","frameRate":24,"name":"c",
   "bone":[{"name":"root"}],
   "slot":[{"name":"sc","parent":"root"},{"name":"back","parent":"root"}],
   "skin":[{"slot":[{"name":"sc","display":[{"name":"pic"}]},
                    {"name":"back","display":[{"type":"armature","name":"a"}]}]}],
   "animation":[{"duration":0,"name":"none"}]}]}"#;

const NESTED_TEX: &str = r#"{"name":"n","imagePath":"n_tex.png","width":64,"height":32,
  "SubTexture":[{"name":"pic","x":0,"y":0,"width":16,"height":8}]}"#;

#[test]
fn child_armatures_nest_to_any_depth_and_cycles_show_nothing() {
    let fetch = |name: &str| -> std::io::Result<Vec<u8>> {
        match name {
            "n_tex.json" => Ok(NESTED_TEX.as_bytes().to_vec()),
            _ => Err(std::io::ErrorKind::NotFound.into()),
        }
    };
    let options = LoadOptions {
        armature: Some("a".into()),
        textures: false,
        ..Default::default()
    };
    let asset = sinew_formats::load_bytes("n_ske.json", NESTED.as_bytes(), &fetch, &options)
        .expect("the nested file loads");
    // a holds b, b holds c; c's `back` names its ancestor a: not loaded.
    assert_eq!(asset.children.len(), 1);
    assert_eq!(asset.children[0].children.len(), 1);
    assert!(asset.children[0].children[0].children.is_empty());
    let mut c = asset.character();
    c.update(0.0);
    let sa = c.rig().slot("sa").expect("slot sa");
    let list = c.draw_list();
    assert_eq!(list.commands.len(), 1, "c's image, drawn once");
    let cmd = list.commands[0];
    assert_eq!(cmd.slot, sa, "drawn in a's slot");
    // (100 + 10, 20 + 5) y-down: (110, -25) y-up; the image 16x8 around it.
    let start = cmd.vertex_start as usize * 2;
    let pts = &list.positions[start..start + 8];
    let (mut xs, mut ys): (Vec<f32>, Vec<f32>) = (Vec::new(), Vec::new());
    for p in pts.chunks_exact(2) {
        xs.push(p[0]);
        ys.push(p[1]);
    }
    let span = |v: &[f32]| {
        let lo = v.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        (lo, hi)
    };
    let ((x0, x1), (y0, y1)) = (span(&xs), span(&ys));
    for (got, want) in [(x0, 102.0), (x1, 118.0), (y0, -29.0), (y1, -21.0)] {
        assert!(
            (got - want).abs() < 1e-4,
            "image at x {x0}..{x1}, y {y0}..{y1}"
        );
    }
}

/// Nine armatures, each showing all eight others: read naively to depth 8 that is millions
/// of armature reads from a few kilobytes. Each nested read is charged to the load's budget,
/// so the load ends quickly, refused with the budget named.
#[test]
fn armatures_showing_each_other_are_refused_within_the_budget() {
    let names: Vec<String> = (0..9).map(|i| format!("a{i}")).collect();
    let arms: Vec<String> = names
        .iter()
        .map(|me| {
            let others: Vec<&String> = names.iter().filter(|n| *n != me).collect();
            let slots: Vec<String> = others
                .iter()
                .map(|o| format!(r#"{{"name":"s{o}","parent":"root"}}"#))
                .collect();
            let skins: Vec<String> = others
                .iter()
                .map(|o| format!(r#"{{"name":"s{o}","display":[{{"type":"armature","name":"{o}"}}]}}"#))
                .collect();
            format!(
                r#"{{"type":"Armature","name":"{me}","bone":[{{"name":"root"}}],"slot":[{}],"skin":[{{"slot":[{}]}}]}}"#,
                slots.join(","),
                skins.join(",")
            )
        })
        .collect();
    let text = format!(
        r#"{{"name":"x","version":"5.5","armature":[{}]}}"#,
        arms.join(",")
    );
    let options = LoadOptions {
        atlas: sinew_formats::Companion::Without,
        textures: false,
        ..Default::default()
    };
    let r = sinew_formats::load_bytes(
        "x_ske.json",
        text.as_bytes(),
        &sinew_formats::NoCompanions,
        &options,
    );
    let e = r.expect_err("refused").to_string();
    assert!(e.contains("x_ske.json") && e.contains("budget"), "{e}");
}
