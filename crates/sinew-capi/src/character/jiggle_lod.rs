//! Jiggle per chain and at a distance (ABI 105): each chain switched on or off, solved
//! every N-th fixed step (its level of detail), the strength the solver uses after the
//! animations' cues, and culling against the host's view rectangle. Wraps
//! `sinew::physics::jiggle::JiggleState::{set_chain_enabled, set_chain_every,
//! effective_strength, set_view, culled}`.

use super::jiggle::{chains_named, jiggle};
use super::{CharState, SinewCharacter, with};
use crate::{Fail, Res, SinewStatus, guard, put, slice_arg, str_arg};
use std::ffi::c_char;

/// One chain named (an empty name is refused: the getters read one chain).
fn one_chain(s: &mut CharState, name: &str) -> Res<usize> {
    if name.is_empty() {
        return Err(Fail::new(
            SinewStatus::InvalidArgument,
            "chain name is empty: name one chain",
        ));
    }
    let (jr, _) = jiggle(s)?;
    Ok(chains_named(jr, name)?.start)
}

/// Switches jiggle chain `chain` (empty name: every chain) off (not solved: the animated
/// pose, at no cost) or back on (it restarts from rest on the pose). An unknown chain is
/// `SINEW_STATUS_NOT_FOUND`, listing the chains.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_jiggle_chain_enabled(
    character: *mut SinewCharacter,
    chain: *const c_char,
    chain_len: usize,
    enabled: bool,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(chain, chain_len, "chain")?;
        with(character, |s| {
            let (jr, js) = jiggle(s)?;
            for i in chains_named(jr, name)? {
                js.set_chain_enabled(i, enabled);
            }
            Ok(())
        })
    })
}

/// Whether jiggle chain `chain` is on, into `*out`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_jiggle_chain_enabled(
    character: *mut SinewCharacter,
    chain: *const c_char,
    chain_len: usize,
    out: *mut bool,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(chain, chain_len, "chain")?;
        with(character, |s| {
            let i = one_chain(s, name)?;
            let (_, js) = jiggle(s)?;
            put(out, js.chain_enabled(i).unwrap_or(false), "out")
        })
    })
}

/// Solves jiggle chain `chain` (empty name: every chain) only every `every`-th fixed step
/// (1: every step, the default; up to 16), with steps that long; frames in between show its
/// last two solves interpolated, with no solve: about `1/every` of the cost, lagging one
/// long step. `sinew_character_set_jiggle_lod` 1 (coarse) makes it at least the rig's
/// `lod.coarseStep`. `every` outside 1..16 is `SINEW_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_jiggle_chain_every(
    character: *mut SinewCharacter,
    chain: *const c_char,
    chain_len: usize,
    every: u32,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(chain, chain_len, "chain")?;
        if !(1..=16).contains(&every) {
            return Err(Fail::new(
                SinewStatus::InvalidArgument,
                format!("every {every} is not in 1..16"),
            ));
        }
        with(character, |s| {
            let (jr, js) = jiggle(s)?;
            for i in chains_named(jr, name)? {
                js.set_chain_every(i, every);
            }
            Ok(())
        })
    })
}

/// How often jiggle chain `chain` is solved (every this many fixed steps), into `*out`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_jiggle_chain_every(
    character: *mut SinewCharacter,
    chain: *const c_char,
    chain_len: usize,
    out: *mut u32,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(chain, chain_len, "chain")?;
        with(character, |s| {
            let i = one_chain(s, name)?;
            let (_, js) = jiggle(s)?;
            put(out, js.chain_every(i).unwrap_or(1), "out")
        })
    })
}

/// The strength jiggle chain `chain`'s solver used in the last update, into `*out`: the
/// one set or faded (`sinew_character_jiggle_strength`) times the factor of the
/// animations playing (their strength tracks in the rig's extras).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_jiggle_effective_strength(
    character: *mut SinewCharacter,
    chain: *const c_char,
    chain_len: usize,
    out: *mut f64,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(chain, chain_len, "chain")?;
        with(character, |s| {
            let i = one_chain(s, name)?;
            let (_, js) = jiggle(s)?;
            put(out, js.effective_strength(i), "out")
        })
    })
}

/// Culls the character's jiggle while its bounds (its bones' origins grown by the rig's
/// `lod.cullMargin`, by default its longest chain) miss the view rectangle `rect`: four
/// doubles, min x, min y, max x, max y, world units, y up. Culled, nothing is solved or
/// written (the animated pose) and the chains restart from rest when it comes back into
/// view. `rect` null: never culled (the default). A rectangle that is not finite or has a
/// min above its max is `SINEW_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_jiggle_view(
    character: *mut SinewCharacter,
    rect: *const f64,
) -> SinewStatus {
    guard(|| {
        let view = if rect.is_null() {
            None
        } else {
            let r = slice_arg(rect, 4, "rect")?;
            Some([r[0], r[1], r[2], r[3]])
        };
        with(character, |s| {
            let (_, js) = jiggle(s)?;
            if js.set_view(view) {
                Ok(())
            } else {
                Err(Fail::new(
                    SinewStatus::InvalidArgument,
                    format!(
                        "view rectangle {:?} is not finite or has min above max",
                        view.unwrap_or_default()
                    ),
                ))
            }
        })
    })
}

/// Whether the last update culled the character's jiggle (see
/// `sinew_character_set_jiggle_view`), into `*out`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_jiggle_culled(
    character: *mut SinewCharacter,
    out: *mut bool,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let (_, js) = jiggle(s)?;
            put(out, js.culled(), "out")
        })
    })
}
