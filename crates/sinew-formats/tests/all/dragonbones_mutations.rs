//! Mutated DragonBones skeletons (flipped bytes, truncations, swapped values) give an error
//! or a rig, never a panic; every rig that loads also builds and runs frames, and every
//! number of every frame posed (what `sinew dump` prints) is finite.

use sinew_formats::dragonbones::{Frame, PoseMode, SlotPose, parse_dragonbones, pose};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Frames posed from mutants (so the finiteness check is not vacuous).
static POSED: AtomicUsize = AtomicUsize::new(0);

fn assert_finite_slots(slots: &[SlotPose], what: &str) {
    for s in slots {
        assert!(
            s.vertices.iter().all(|v| v.is_finite()) && s.color.iter().all(|v| v.is_finite()),
            "{what}: slot {} has a number that is not finite: {s:?}",
            s.slot
        );
        if let Some(c) = &s.child {
            assert!(c.time.is_finite(), "{what}: child time {}", c.time);
            assert_finite_slots(&c.slots, what);
        }
    }
}

fn assert_finite(frames: &Result<Vec<Frame>, String>, what: &str) {
    let Ok(frames) = frames else {
        return;
    };
    for f in frames {
        POSED.fetch_add(1, Ordering::Relaxed);
        for (name, m) in &f.bones {
            assert!(
                m.iter().all(|v| v.is_finite()),
                "{what}: bone {name} at {}: {m:?}",
                f.time
            );
        }
        assert_finite_slots(&f.slots, what);
        for e in &f.events {
            assert!(
                e.float.is_finite(),
                "{what}: event {} float {}",
                e.name,
                e.float
            );
        }
    }
}

/// A small deterministic generator (no dependency, same cases every run).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn run(text: &str, tex: Option<(&str, &str)>) {
    let Ok(db) = parse_dragonbones(text, "mutant_ske.json", tex, None) else {
        return;
    };
    let Ok(rig) = sinew::build::build_rig(&db.raw) else {
        return;
    };
    let asset = sinew_formats::Asset::from_rig(rig, sinew_formats::Format::DragonBones);
    for c in db.clips.iter().take(2) {
        let play = pose(
            &asset,
            &db,
            Some(&c.name),
            &[0.1, 0.7, 2.5],
            30.0,
            PoseMode::Play,
            false,
        );
        assert_finite(&play, &format!("{} play", c.name));
        let goto = pose(
            &asset,
            &db,
            Some(&c.name),
            &[0.3],
            30.0,
            PoseMode::Goto,
            true,
        );
        assert_finite(&goto, &format!("{} goto", c.name));
    }
}

#[test]
fn mutated_skeletons_never_panic() {
    let Some(fixtures) = sinew_testutil::require_fixtures("dragonbones_mutations") else {
        return;
    };
    let dir = fixtures.join("dragonbones");
    let files = [
        ("you_xin_body/body_ske.json", "you_xin_body/body_tex.json"),
        ("effect/effect_ske.json", "effect/effect_tex.json"),
        (
            "dragon_boy/dragon_boy_ske.json",
            "dragon_boy/dragon_boy_tex.json",
        ),
    ];
    let mut rng = Lcg(0x5eed);
    for (ske, tex) in files {
        let Ok(text) = std::fs::read_to_string(dir.join(ske)) else {
            assert!(!sinew_testutil::is_ci(), "CI=true requires {ske}");
            continue;
        };
        let tex_text = std::fs::read_to_string(dir.join(tex)).unwrap_or_default();
        // The original loads.
        assert!(parse_dragonbones(&text, ske, Some((&tex_text, tex)), None).is_ok());
        run(&text, Some((&tex_text, tex)));
        let bytes = text.as_bytes();
        let replacements: [&[u8]; 8] = [
            b"-1", b"1e308", b"null", b"\"x\"", b"[]", b"{}", b"0", b"99999",
        ];
        for _ in 0..40 {
            let mut b = bytes.to_vec();
            match rng.below(4) {
                0 => b.truncate(rng.below(b.len())),
                1 => {
                    for _ in 0..4 {
                        let i = rng.below(b.len());
                        b[i] ^= 1 << rng.below(7);
                    }
                }
                _ => {
                    // Replace a number with a hostile value (keeps the JSON valid more often).
                    let i = rng.below(b.len());
                    if let Some(s) = b[i..].iter().position(u8::is_ascii_digit) {
                        let s = i + s;
                        let e = s + b[s..]
                            .iter()
                            .take_while(|c| c.is_ascii_digit() || **c == b'.')
                            .count();
                        let r = replacements[rng.below(replacements.len())];
                        b.splice(s..e, r.iter().copied());
                    }
                }
            }
            let t = String::from_utf8_lossy(&b);
            run(&t, Some((&tex_text, tex)));
            run(&t, None);
        }
    }
    // Most mutants still load and pose: the finiteness checks ran on many frames.
    let posed = POSED.load(Ordering::Relaxed);
    assert!(posed > 200, "only {posed} frames posed");
}

#[test]
fn errors_name_the_file_and_the_json_path() {
    let e = parse_dragonbones(
        r#"{"version":"5.5","armature":[{"name":"a","bone":[{"name":"b","parent":"nope"}]}]}"#,
        "x_ske.json",
        None,
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("x_ske.json") && e.contains("$.armature[0].bone[0]"),
        "{e}"
    );
    let e = parse_dragonbones(
        r#"{"version":"3.0","armature":[]}"#,
        "v_ske.json",
        None,
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("v_ske.json"), "{e}");
    let e = parse_dragonbones(
        r#"{"version":"5.5","armature":[{"name":"a","bone":[{"name":"b"}],"animation":[{"name":"x","duration":1e12}]}]}"#,
        "d_ske.json",
        None,
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("$.armature[0].animation[0].duration"), "{e}");
}
