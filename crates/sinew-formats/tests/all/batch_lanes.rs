//! The batched frame (`sinew::character::Batch`: four characters of one rig in SIMD lanes)
//! gives the same bits as `Character::update` and the per-slot world vertices of each
//! character alone, over every Spine fixture's animations.
//!
//! Per rig, a crowd of 1 to 9 characters (so groups of four and the remainders) at
//! staggered times, alternate characters on another clip when the rig has one (lanes on
//! different keys, showing different attachments and draw orders), and on a rig with
//! several skins one character on another skin (a group whose plans differ); 40 frames,
//! every bone's world transform and every shown region's and mesh's world vertices
//! compared bit for bit. The fixtures come from `$SINEW_FIXTURES`; when they are missing
//! the test skips with a notice (fails under `CI=true`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use sinew::character::Batch;
use sinew::{Character, Rig, SkinId, SlotId};
use sinew_testutil::alloc::count_allocations;
use std::path::PathBuf;
use std::sync::Arc;

/// Every `*.json` and `*.skel` Spine fixture (one level below `spine/`).
fn spine_files(test: &str) -> Option<Vec<PathBuf>> {
    sinew_testutil::spine_fixture_files(test, &["json", "skel"])
}

fn load(path: &std::path::Path) -> Option<Arc<Rig>> {
    sinew_formats::load_spine(path, None, &Default::default())
        .ok()
        .map(|a| a.rig)
}

/// `n` characters of `rig` playing its clips (character `j` the clip `j % 2` of the first
/// two, when there are two) from staggered times; on a rig with several skins all show the
/// last skin but character 5, which shows the first.
fn crowd(rig: &Arc<Rig>, n: usize, first_clip: usize) -> Vec<Character> {
    let clips = rig.clips.len();
    (0..n)
        .map(|j| {
            let mut c = Character::new(rig.clone());
            if rig.skins.len() > 1 {
                let skin = if j == 5 { 0 } else { rig.skins.len() - 1 };
                c.set_skins(&[SkinId(skin as u16)]).unwrap();
                c.set_slots_to_setup_pose();
                c.set_to_setup_pose();
            }
            if clips > 0 {
                let clip = (first_clip + j % 2) % clips;
                c.set_animation(0, rig.clips[clip].name.as_str(), true)
                    .unwrap();
                let id = c.state().current(0).unwrap();
                c.state_mut().entry_mut(id).unwrap().track_time = j as f64 * 0.137;
            }
            c
        })
        .collect()
}

/// Every (character, slot, vertices) the plain path makes: each shown region and mesh of
/// each character in draw order, as `Character::world_vertices` gives it.
fn plain_vertices(chars: &[Character], out: &mut Vec<(usize, SlotId, Vec<f32>)>) {
    out.clear();
    for (k, c) in chars.iter().enumerate() {
        let (rig, inst) = (c.rig(), c.instance());
        for &slot in &inst.draw_order {
            let s = slot.index();
            let bone = rig.slots[s].bone.index();
            if !inst.bone_active[bone] || !inst.params.visible.get(s).copied().unwrap_or(true) {
                continue;
            }
            let Some(att) = inst.slots.attachment[s] else {
                continue;
            };
            use sinew::rig::AttachmentKind::{Mesh, Region};
            if !matches!(rig.attachments[att.index()].kind, Region(_) | Mesh(_)) {
                continue;
            }
            let mut v = Vec::new();
            assert!(c.world_vertices(slot, &mut v));
            out.push((k, slot, v));
        }
    }
}

#[test]
fn batched_frames_match_plain_frames_bit_for_bit() {
    compare_batched_frames("batch_lanes", false);
}

/// The same with the batch on its plain (portable) kernels, forced on this thread, and the
/// characters alone on the machine's own (AVX where the CPU has it): the plain lanes path
/// (one normal-child formula per lane, `skin_lanes`' plain loop) against the scalar
/// kernels one by one, bit for bit.
#[test]
fn batched_frames_on_the_plain_path_match_plain_frames_bit_for_bit() {
    compare_batched_frames("batch_lanes_plain", true);
}

/// Every fixture's crowds, 40 frames, one by one against [`Batch`]; `plain_batch`: the
/// batch runs inside [`sinew::math::simd::with_plain`].
fn compare_batched_frames(test: &str, plain_batch: bool) {
    let Some(files) = spine_files(test) else {
        return;
    };
    let sizes = [9, 5, 4, 7, 1, 8, 2, 6, 3];
    let (mut rigs, mut bones, mut floats, mut lane_groups) = (0, 0usize, 0usize, 0usize);
    let mut batch = Batch::new();
    let (mut plain, mut batched) = (Vec::new(), Vec::new());
    let mut round = 0;
    for path in &files {
        let Some(rig) = load(path) else { continue };
        rigs += 1;
        for first_clip in 0..rig.clips.len().clamp(1, 3) {
            let n = sizes[round % sizes.len()];
            round += 1;
            lane_groups += n / 4;
            let mut a = crowd(&rig, n, first_clip);
            let mut b = a.clone();
            for frame in 0..40 {
                // A hitch now and then: physics takes several steps.
                let dt = if frame % 13 == 7 { 0.1 } else { 1.0 / 30.0 };
                for c in &mut a {
                    c.update(dt);
                }
                if plain_batch {
                    sinew::math::simd::with_plain(|| batch.update(&mut b, dt));
                } else {
                    batch.update(&mut b, dt);
                }
                for (k, (x, y)) in a.iter().zip(&b).enumerate() {
                    let (wx, wy) = (&x.instance().world, &y.instance().world);
                    for (i, (p, q)) in wx.iter().zip(wy).enumerate() {
                        let (p, q) = (
                            [p.a, p.b, p.c, p.d, p.x, p.y],
                            [q.a, q.b, q.c, q.d, q.x, q.y],
                        );
                        assert_eq!(
                            p.map(f64::to_bits),
                            q.map(f64::to_bits),
                            "{} clip {first_clip} n {n} frame {frame} character {k} bone {i}",
                            path.display()
                        );
                    }
                    bones += wx.len();
                }
                plain_vertices(&a, &mut plain);
                batched.clear();
                let mut batched_vertices = || {
                    batch.compute_world_vertices(&b, |k, slot, v| {
                        batched.push((k, slot, v.to_vec()));
                    })
                };
                let total = if plain_batch {
                    sinew::math::simd::with_plain(batched_vertices)
                } else {
                    batched_vertices()
                };
                assert_eq!(
                    total,
                    plain.iter().map(|p| p.2.len() / 2).sum::<usize>(),
                    "{}",
                    path.display()
                );
                // The batch visits the meshes four characters share first; put both lists
                // in one order (each slot once per character and frame).
                plain.sort_by_key(|e| (e.0, e.1.index()));
                batched.sort_by_key(|e| (e.0, e.1.index()));
                assert_eq!(plain.len(), batched.len(), "{}", path.display());
                for (p, q) in plain.iter().zip(&batched) {
                    assert_eq!((p.0, p.1), (q.0, q.1), "{}", path.display());
                    let (pb, qb): (Vec<u32>, Vec<u32>) = (
                        p.2.iter().map(|f| f.to_bits()).collect(),
                        q.2.iter().map(|f| f.to_bits()).collect(),
                    );
                    assert_eq!(
                        pb,
                        qb,
                        "{} clip {first_clip} n {n} frame {frame} character {} slot {}",
                        path.display(),
                        p.0,
                        p.1.index()
                    );
                    floats += pb.len();
                }
            }
        }
    }
    println!(
        "{test}: {rigs} rigs, {lane_groups} groups of four, {bones} bone transforms and \
         {floats} vertex floats bit-identical"
    );
    assert!(rigs > 0);
}

/// After warm-up a batched frame (update and world vertices) allocates nothing.
#[test]
fn batched_frames_allocate_nothing_after_warm_up() {
    let Some(files) = spine_files("batch_lanes") else {
        return;
    };
    let Some(path) = files.iter().find(|p| {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy() == "spineboy-pro.json")
    }) else {
        panic!("spineboy-pro.json is missing from the fixtures");
    };
    let rig = load(path).unwrap();
    let mut chars = crowd(&rig, 9, 0);
    let mut batch = Batch::new();
    let mut sum = 0.0f64;
    let frame = |chars: &mut [Character], batch: &mut Batch, sum: &mut f64| {
        batch.update(chars, 1.0 / 60.0);
        batch.compute_world_vertices(chars, |_, _, v| {
            *sum += f64::from(v[0]);
        });
    };
    for _ in 0..30 {
        frame(&mut chars, &mut batch, &mut sum);
    }
    let n = count_allocations(|| {
        for _ in 0..300 {
            frame(&mut chars, &mut batch, &mut sum);
        }
    });
    assert_eq!(n, 0, "allocations in 300 batched frames");
    assert!(sum.is_finite());
}

#[test]
fn crowds_in_lanes_match_one_by_one_bit_for_bit() {
    // `Crowd` (and so the C ABI's `sinew_update_many`) takes four characters of one rig at a
    // time through the lanes: the same bits as one by one, on 1 and 2 threads.
    let Some(files) = spine_files("crowd_lanes") else {
        return;
    };
    let mut checked = 0usize;
    for path in files.iter().step_by(3) {
        let Some(rig) = load(path) else { continue };
        for threads in [1, 2] {
            let mut alone = crowd(&rig, 11, 0);
            let mut pool = sinew::character::Crowd::new(threads);
            for c in crowd(&rig, 11, 0) {
                pool.push(c);
            }
            for frame in 0..12 {
                let dt = if frame % 5 == 3 { 0.1 } else { 1.0 / 30.0 };
                alone.iter_mut().for_each(|c| c.update(dt));
                assert!(pool.update(dt));
            }
            for (k, c) in alone.iter().enumerate() {
                let same = pool
                    .with(k, |p| {
                        let (x, y) = (&c.instance().world, &p.instance().world);
                        x.len() == y.len()
                            && x.iter().zip(y).all(|(p, q)| {
                                [p.a, p.b, p.c, p.d, p.x, p.y]
                                    .iter()
                                    .zip([q.a, q.b, q.c, q.d, q.x, q.y])
                                    .all(|(u, v)| u.to_bits() == v.to_bits())
                            })
                    })
                    .unwrap();
                assert!(
                    same,
                    "{}: character {k} on {threads} threads",
                    path.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
    println!("{checked} crowd characters bit-identical to one by one");
}
