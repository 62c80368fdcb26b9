//! The events of a character's last update (track lifecycle and key events), polled one by
//! one as [`SinewEvent`]s.

use super::{SinewCharacter, SinewEvent, SinewEventKind, with};
use crate::{Fail, SinewStatus, SinewStringView, guard, put};
use sinew::anim::state::StateEventKind;

/// How many events the last update produced (lifecycle and key events, oldest first).
/// They stay until the next update; read them with `sinew_character_event`.
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_event_count(
    character: *const SinewCharacter,
    out: *mut u32,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            put(out, s.character.events().len() as u32, "out")
        })
    })
}

/// Event `index` of the last update, copied into `*out` (its strings point into the rig).
#[unsafe(no_mangle)]
pub extern "C" fn sinew_character_event(
    character: *const SinewCharacter,
    index: u32,
    out: *mut SinewEvent,
) -> SinewStatus {
    guard(|| {
        with(character, |s| {
            let events = s.character.events();
            let e = events.get(index as usize).ok_or_else(|| {
                Fail::new(
                    SinewStatus::InvalidArgument,
                    format!("event index {index} out of range ({} events)", events.len()),
                )
            })?;
            let rig = s.character.rig();
            let anim = rig
                .clips
                .get(e.clip.index())
                .map_or(SinewStringView::EMPTY, |c| SinewStringView::of(&c.name));
            let mut ev = SinewEvent {
                kind: 0,
                track: e.track as u32,
                animation: anim,
                name: SinewStringView::EMPTY,
                int_value: 0,
                float_value: 0.0,
                string_value: SinewStringView::EMPTY,
                time: 0.0,
                volume: 0.0,
                balance: 0.0,
            };
            ev.kind = match &e.kind {
                StateEventKind::Start => SinewEventKind::Start,
                StateEventKind::Interrupt => SinewEventKind::Interrupt,
                StateEventKind::End => SinewEventKind::End,
                StateEventKind::Dispose => SinewEventKind::Dispose,
                StateEventKind::Complete => SinewEventKind::Complete,
                StateEventKind::Event(f) => {
                    if let Some(data) = rig.events.get(f.event.index()) {
                        ev.name = SinewStringView::of(&data.name);
                        let string = f
                            .string
                            .and_then(|k| rig.clips.get(f.clip.index())?.strings.get(k as usize))
                            .unwrap_or(&data.string);
                        ev.string_value = SinewStringView::of(string);
                    }
                    ev.int_value = f.int;
                    ev.float_value = f.float;
                    ev.time = f.time;
                    ev.volume = f.volume;
                    ev.balance = f.balance;
                    SinewEventKind::Event
                }
            } as u32;
            put(out, ev, "out")
        })
    })
}
