//! A host that poses DragonBones bones by hand: the runtime recomputes a bone's world
//! transform only when it or an ancestor is marked dirty (`invalidUpdate`), and sinew keeps
//! that for still IK chains (`DbHold`). A bone moved from code (`set_bone_local`,
//! `clear_bone_local`, `mark_bone_moved`) is dirty in the next update, so a chain under it
//! follows instead of holding last frame's transform.

use sinew::Character;
use sinew_formats::{LoadOptions, load};

fn ikhold() -> Character {
    let path = sinew_testutil::workspace_root().join("testdata/dragonbones/ikhold55_ske.json");
    let asset = load(&path, &LoadOptions::default()).expect("ikhold55 loads");
    let mut c = asset.character();
    c.play(0, "loop").expect("the loop clip");
    for _ in 0..10 {
        c.update(1.0 / 60.0);
    }
    c
}

fn world_xy(c: &Character, bone: &str) -> (f64, f64) {
    let w = c.bone_world(bone).expect("a bone");
    (w.x, w.y)
}

#[test]
fn a_chain_follows_an_ancestor_moved_by_code() {
    // `root` (no rotation or scale) held by code at its pose, moved by 100 on every other
    // frame: the chain's root, `arm`, is 100 apart from a character whose `root` is held at
    // that pose and marked moved (solved afresh too, not moved) on those frames and with it
    // on the others, whether or not the clip moves the chain that frame. (Not marked, a still
    // chain holds where it was last frame: another pose.)
    let (mut c, mut reference) = (ikhold(), ikhold());
    let home = c.bone_local("root").expect("root");
    for k in 0..60 {
        let shift = if k % 2 == 0 { 100.0 } else { 0.0 };
        let mut root = home;
        root.x += shift;
        c.set_bone_local("root", root).expect("root moves");
        reference.set_bone_local("root", home).expect("root held");
        reference.mark_bone_moved("root").expect("root");
        c.update(1.0 / 60.0);
        reference.update(1.0 / 60.0);
        let (got, want) = (world_xy(&c, "arm"), world_xy(&reference, "arm"));
        assert!(
            (got.0 - want.0 - shift).abs() < 1e-6 && (got.1 - want.1).abs() < 1e-6,
            "frame {k}: arm at {got:?}, want {want:?} moved by {shift}"
        );
    }
    // Released (on a frame it was not shifted), it is where the other has it.
    c.clear_bone_local("root").expect("root");
    reference.clear_bone_local("root").expect("root");
    c.update(1.0 / 60.0);
    reference.update(1.0 / 60.0);
    let (back, want) = (world_xy(&c, "arm"), world_xy(&reference, "arm"));
    assert!(
        (back.0 - want.0).abs() < 1e-6 && (back.1 - want.1).abs() < 1e-6,
        "arm at {back:?}, want {want:?}"
    );
}

#[test]
fn marking_a_bone_moved_solves_its_chain_afresh() {
    // One character has `arm` marked moved before each frame: its chain is solved from the
    // animated local pose every frame, the other's from last frame's result where the clip
    // leaves the chain still (`ikhold55`'s IK weight below 1 creeps): they part.
    let (mut marked, mut held) = (ikhold(), ikhold());
    let mut parted = 0;
    for _ in 0..60 {
        marked.mark_bone_moved("arm").expect("arm");
        marked.update(1.0 / 60.0);
        held.update(1.0 / 60.0);
        let (m, h) = (world_xy(&marked, "hand"), world_xy(&held, "hand"));
        if (m.0 - h.0).abs() + (m.1 - h.1).abs() > 1e-6 {
            parted += 1;
        }
    }
    assert!(parted > 0, "marking arm moved changed nothing in 60 frames");
    assert!(held.mark_bone_moved("nobody").is_err());
}
