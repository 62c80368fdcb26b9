//! A slot's attachment from code: shown by name or hidden (Spine `setAttachment`), and
//! read back.

use super::{SinewCharacter, char_fail, key, with};
use crate::{Fail, SinewStatus, SinewStringView, guard, put, str_arg};
use sinew::{CharacterError, SlotId};
use std::ffi::c_char;

/// The names a slot's skins give its attachments (for the unknown-attachment message).
fn slot_attachments(rig: &sinew::Rig, slot: SlotId) -> Vec<&str> {
    let mut names: Vec<&str> = rig
        .attachments
        .iter()
        .filter(|a| a.slot == slot)
        .filter_map(|a| {
            rig.attachment_keys
                .get(a.key.0 as usize)
                .map(String::as_str)
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// Shows attachment `name` on slot `slot` (Spine `setAttachment`: looked up in the
/// character's skins, else the default skin), or hides the slot's attachment when `name`
/// is null or empty (length 0). The animation may change it again on the next update.
/// An unknown slot or attachment is `SINEW_STATUS_NOT_FOUND`, the last error listing the
/// rig's slots or the slot's attachments.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_set_attachment(
    character: *mut SinewCharacter,
    slot: *const c_char,
    slot_len: usize,
    name: *const c_char,
    name_len: usize,
) -> SinewStatus {
    guard(|| {
        let slot = str_arg(slot, slot_len, "slot")?;
        let name = if name.is_null() {
            ""
        } else {
            str_arg(name, name_len, "name")?
        };
        with(character, |s| {
            let id = key::<SlotId>(s, slot)?;
            let shown = (!name.is_empty()).then_some(name);
            match s.character.set_attachment(id, shown) {
                Ok(()) => Ok(()),
                Err(e @ CharacterError::UnknownAttachment { .. }) => {
                    let known = slot_attachments(s.character.rig(), id);
                    let list = if known.is_empty() {
                        "; it has none in any skin".to_owned()
                    } else {
                        let quoted: Vec<String> = known.iter().map(|n| format!("`{n}`")).collect();
                        format!(
                            "; its attachments in the rig's skins: {}",
                            quoted.join(", ")
                        )
                    };
                    Err(Fail::new(SinewStatus::NotFound, format!("{e}{list}")))
                }
                Err(e) => Err(char_fail(e)),
            }
        })
    })
}

/// The name (its key in the skins) of the attachment slot `slot` shows now into `*out`;
/// empty when it shows none. The view points into the rig.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_attachment(
    character: *const SinewCharacter,
    slot: *const c_char,
    slot_len: usize,
    out: *mut SinewStringView,
) -> SinewStatus {
    guard(|| {
        let slot = str_arg(slot, slot_len, "slot")?;
        with(character, |s| {
            let id = key::<SlotId>(s, slot)?;
            let rig = s.character.rig();
            let view = s
                .character
                .attachment(id)
                .and_then(|a| rig.attachments.get(a.index()))
                .and_then(|a| rig.attachment_keys.get(a.key.0 as usize))
                .map_or(SinewStringView::EMPTY, |n| SinewStringView::of(n));
            put(out, view, "out")
        })
    })
}
