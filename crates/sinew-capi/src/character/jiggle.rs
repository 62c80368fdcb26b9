//! Jiggle bones from code, with or without a rig-extras file: chains made from bone names
//! and a preset, each chain's strength set now or faded over seconds, the level of detail
//! (full, coarse, frozen, or picked from a view distance) and the whole jiggle stage on or
//! off. Wraps `sinew::physics::jiggle` (`JiggleRig::build`, `JiggleState::{set_strength,
//! fade_strength, set_lod, set_view_distance}`) and `Character::{set_jiggle, jiggle_mut}`.

use super::{CharState, SinewCharacter, char_fail, finite, key, with};
use crate::{Fail, Res, SinewStatus, SinewStr, SinewStringView, guard, put, slice_arg, str_arg};
use sinew::BoneId;
use sinew::physics::jiggle::{ChainDesc, JiggleDesc, JiggleRig, JiggleState, Lod, Preset};
use std::ffi::c_char;
use std::sync::Arc;

/// One jiggle chain made from code (`sinew_character_set_jiggle_chains`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct SinewJiggleChain {
    /// The chain's name (how the strength calls name it).
    pub name: SinewStr,
    /// Its bones by name, root first (`bone_count` of them).
    pub bones: *const SinewStr,
    /// How many bones.
    pub bone_count: usize,
    /// A `SinewJigglePreset` value: the chain's springs.
    pub preset: u32,
}

/// The starting springs of a jiggle chain made from code (`docs/EXTRAS.md` lists them).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SinewJigglePreset {
    /// Chest, belly, cheeks.
    SoftTissue = 0,
    /// Hair tips.
    HairTip = 1,
    /// Ribbons, capes, scarves.
    Ribbon = 2,
    /// Earrings.
    Earring = 3,
    /// Tails.
    Tail = 4,
    /// VRM SpringBone defaults.
    Vrm = 5,
}

/// The jiggle bones and state of a character, or `SINEW_STATUS_NOT_FOUND` naming why.
pub(super) fn jiggle(s: &mut CharState) -> Res<(&JiggleRig, &mut JiggleState)> {
    s.character.jiggle_mut().ok_or_else(|| {
        Fail::new(
            SinewStatus::NotFound,
            "the character has no jiggle bones (none in the rig's extras, none set from code, \
             or switched off)",
        )
    })
}

/// The chains a name picks: every chain for the empty name, else the one named (an
/// unknown name's error lists the chains).
pub(super) fn chains_named(jr: &JiggleRig, name: &str) -> Res<std::ops::Range<usize>> {
    if name.is_empty() {
        return Ok(0..jr.chains.len());
    }
    match jr.chain(name) {
        Some(i) => Ok(i..i + 1),
        None => Err(char_fail(sinew::CharacterError::UnknownName {
            kind: "jiggle chain",
            name: name.to_owned(),
            known: jr.chain_names.clone(),
        })),
    }
}

/// How many jiggle chains the character runs (0 when it has none or they are off).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_jiggle_chain_count(
    character: *mut SinewCharacter,
    out: *mut u32,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let n = s
                .character
                .jiggle_mut()
                .map_or(0, |(jr, _)| jr.chains.len());
            put(out, u32::try_from(n).unwrap_or(u32::MAX), "out")
        })
    })
}

/// The name of jiggle chain `index` (0..`sinew_character_jiggle_chain_count`) into `*out`
/// (valid while the character's jiggle bones are: until the next
/// `sinew_character_set_jiggle_chains` on it).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_jiggle_chain_name(
    character: *mut SinewCharacter,
    index: u32,
    out: *mut SinewStringView,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let (jr, _) = jiggle(s)?;
            let name = jr.chain_names.get(index as usize).ok_or_else(|| {
                Fail::new(
                    SinewStatus::InvalidArgument,
                    format!(
                        "jiggle chain index {index} out of range ({} chains)",
                        jr.chain_names.len()
                    ),
                )
            })?;
            put(out, SinewStringView::of(name), "out")
        })
    })
}

/// Jiggle chain `chain`'s current strength (0: the animated pose, 1: full simulation; it
/// moves while a fade runs) into `*out`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_jiggle_strength(
    character: *mut SinewCharacter,
    chain: *const c_char,
    chain_len: usize,
    out: *mut f64,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(chain, chain_len, "chain")?;
        with(character, |s| {
            let (jr, js) = jiggle(s)?;
            if name.is_empty() {
                return Err(Fail::new(
                    SinewStatus::InvalidArgument,
                    "chain name is empty: name one chain",
                ));
            }
            let i = chains_named(jr, name)?.start;
            put(out, js.strength(i), "out")
        })
    })
}

/// Sets jiggle chain `chain`'s strength (empty name: every chain) to `strength` in 0..1
/// (0 shows the animated pose: the chain off; 1 the full simulation), at once for
/// `fade_seconds` 0, else moving there linearly over that many seconds of the character's
/// time. A strength outside 0..1, a negative fade or a non-finite value is
/// `SINEW_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_jiggle_strength(
    character: *mut SinewCharacter,
    chain: *const c_char,
    chain_len: usize,
    strength: f64,
    fade_seconds: f64,
) -> SinewStatus {
    guard(|| {
        let name = str_arg(chain, chain_len, "chain")?;
        if !(0.0..=1.0).contains(&strength) {
            return Err(Fail::new(
                SinewStatus::InvalidArgument,
                format!("jiggle strength {strength} is not in 0..1"),
            ));
        }
        let fade = finite(fade_seconds, "fade_seconds")?;
        if fade < 0.0 {
            return Err(Fail::new(
                SinewStatus::InvalidArgument,
                format!("fade_seconds {fade} is negative"),
            ));
        }
        with(character, |s| {
            let (jr, js) = jiggle(s)?;
            for i in chains_named(jr, name)? {
                if fade > 0.0 {
                    js.fade_strength(i, strength, fade);
                } else {
                    js.set_strength(i, strength);
                }
            }
            Ok(())
        })
    })
}

/// The jiggle level of detail of every chain: 0 every fixed step (or each chain's own
/// `sinew_character_set_jiggle_chain_every`), 1 coarse (each chain solved only every
/// `lod.coarseStep`-th step of the rig's extras, or its own coarser level, with the display
/// interpolated between its last two solves and no solve in between), 2 frozen (the last
/// offsets held; leaving it re-anchors on the pose). Another value is
/// `SINEW_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_jiggle_lod(
    character: *mut SinewCharacter,
    lod: u32,
) -> SinewStatus {
    guard(|| {
        let lod = match lod {
            0 => Lod::Full,
            1 => Lod::Coarse,
            2 => Lod::Frozen,
            _ => {
                return Err(Fail::new(
                    SinewStatus::InvalidArgument,
                    format!("jiggle level of detail {lod} is not 0..2"),
                ));
            }
        };
        with(character, |s| {
            let (jr, js) = jiggle(s)?;
            js.set_lod(jr, lod);
            Ok(())
        })
    })
}

/// The jiggle level of detail now (0 full, 1 coarse, 2 frozen) into `*out`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_jiggle_lod(
    character: *mut SinewCharacter,
    out: *mut u32,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let (_, js) = jiggle(s)?;
            let v = match js.lod() {
                Lod::Full => 0,
                Lod::Coarse => 1,
                Lod::Frozen => 2,
            };
            put(out, v, "out")
        })
    })
}

/// Picks the jiggle level of detail from a view distance and the rig's thresholds (its
/// extras' `lod.coarseBeyond` and `lod.freezeBeyond`; chains made from code never coarsen
/// or freeze this way). A non-finite or negative distance is
/// `SINEW_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_jiggle_view_distance(
    character: *mut SinewCharacter,
    distance: f64,
) -> SinewStatus {
    guard(|| {
        let d = finite(distance, "distance")?;
        if d < 0.0 {
            return Err(Fail::new(
                SinewStatus::InvalidArgument,
                format!("distance {d} is negative"),
            ));
        }
        with(character, |s| {
            let (jr, js) = jiggle(s)?;
            js.set_view_distance(jr, d);
            Ok(())
        })
    })
}

/// Switches the jiggle stage off (the animated pose; the chains are kept) or back on (the
/// chains restart from rest on the pose). On for a character with no chains does nothing.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_jiggle_enabled(
    character: *mut SinewCharacter,
    enabled: bool,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let jr = if enabled { s.jiggle.clone() } else { None };
            s.character.set_jiggle(jr).map_err(char_fail)
        })
    })
}

fn preset(v: u32, chain: &str) -> Res<Preset> {
    Preset::ALL.get(v as usize).map(|(_, p)| *p).ok_or_else(|| {
        Fail::new(
            SinewStatus::InvalidArgument,
            format!("chain `{chain}`: preset {v} is not a SinewJigglePreset (0..5)"),
        )
    })
}

/// Replaces the character's jiggle chains (its rig-extras file's, or earlier ones from
/// code) with `chains` (`count` of them; 0 removes every chain), each made from its bones'
/// names and a `SinewJigglePreset`, at full strength, starting from rest on the pose (the
/// default clock, no environment gravity or wind, no teleport reset). An unknown bone is
/// `SINEW_STATUS_NOT_FOUND` (the last error lists the rig's bones); a bad chain (a bone in
/// two chains, a zero-length bone, a bad preset) is `SINEW_STATUS_INVALID_ARGUMENT` naming
/// it. Nothing changes on failure. Allocates: call it outside the frame loop.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_jiggle_chains(
    character: *mut SinewCharacter,
    chains: *const SinewJiggleChain,
    count: usize,
) -> SinewStatus {
    guard(|| {
        let given = slice_arg(chains, count, "chains")?;
        let mut desc = JiggleDesc::new();
        for (i, c) in given.iter().enumerate() {
            let name = str_arg(c.name.ptr, c.name.len, &format!("chains[{i}].name"))?;
            let bones = slice_arg(c.bones, c.bone_count, &format!("chains[{i}].bones"))?;
            let mut names = Vec::with_capacity(bones.len());
            for (k, b) in bones.iter().enumerate() {
                names.push(str_arg(b.ptr, b.len, &format!("chains[{i}].bones[{k}]"))?);
            }
            desc.chains.push(ChainDesc::new(
                name,
                &names,
                preset(c.preset, name)?.params(),
            ));
        }
        with(character, |s| {
            for b in desc.chains.iter().flat_map(|c| &c.bones) {
                key::<BoneId>(s, b)?;
            }
            let jr = if desc.chains.is_empty() {
                None
            } else {
                let built = JiggleRig::build(s.character.rig(), &desc)
                    .map_err(|e| Fail::new(SinewStatus::InvalidArgument, e.to_string()))?;
                Some(Arc::new(built))
            };
            s.character.set_jiggle(jr.clone()).map_err(char_fail)?;
            s.jiggle = jr;
            Ok(())
        })
    })
}
