//! Checked handles: every object the host holds lives in a registry of slots with generation
//! counters, and a handle is the slot index, its generation and a type tag packed into a
//! pointer-sized integer that is never dereferenced. A null, destroyed (stale generation),
//! foreign (no such slot, unknown tag) or wrong-type handle is an error, never UB.

use crate::{Fail, Res, SinewStatus};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

/// Bits of the type tag (low bits).
const TAG_BITS: u32 = 4;
const TAG_MASK: usize = (1 << TAG_BITS) - 1;
/// The slot index sits in the high half of the handle.
const INDEX_SHIFT: u32 = usize::BITS / 2;
const GEN_MASK: usize = (1 << (INDEX_SHIFT - TAG_BITS)) - 1;
/// The largest slot index a handle can carry.
const MAX_INDEX: usize = (1 << (usize::BITS - INDEX_SHIFT)) - 2;

/// Type tags of the registries.
pub(crate) const TAG_RIG: usize = 0x5;
pub(crate) const TAG_CHARACTER: usize = 0x9;
pub(crate) const TAG_CAGE: usize = 0xC;

fn tag_name(tag: usize) -> Option<&'static str> {
    match tag {
        TAG_RIG => Some("rig"),
        TAG_CHARACTER => Some("character"),
        TAG_CAGE => Some("cage"),
        _ => None,
    }
}

struct Entry<T> {
    generation: usize,
    value: Option<Arc<T>>,
}

/// Objects of one type, by handle.
pub(crate) struct Registry<T> {
    tag: usize,
    kind: &'static str,
    slots: RwLock<Vec<Entry<T>>>,
    free: Mutex<Vec<usize>>,
}

impl<T> Registry<T> {
    pub(crate) const fn new(tag: usize, kind: &'static str) -> Self {
        Registry {
            tag,
            kind,
            slots: RwLock::new(Vec::new()),
            free: Mutex::new(Vec::new()),
        }
    }

    fn encode(&self, index: usize, generation: usize) -> usize {
        ((index + 1) << INDEX_SHIFT) | ((generation & GEN_MASK) << TAG_BITS) | self.tag
    }

    /// Stores `value`; returns its handle.
    pub(crate) fn insert(&self, value: T) -> Res<usize> {
        let mut slots = self.slots.write().unwrap_or_else(PoisonError::into_inner);
        let reused = self
            .free
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let index = match reused {
            Some(i) => i,
            None => {
                if slots.len() > MAX_INDEX {
                    return Err(Fail::new(
                        SinewStatus::InvalidArgument,
                        format!("too many live {} handles", self.kind),
                    ));
                }
                slots.push(Entry {
                    generation: 1,
                    value: None,
                });
                slots.len() - 1
            }
        };
        let e = &mut slots[index];
        e.value = Some(Arc::new(value));
        Ok(self.encode(index, e.generation))
    }

    /// The slot index and generation of a handle of this type.
    fn decode(&self, raw: usize) -> Res<(usize, usize)> {
        if raw == 0 {
            return Err(Fail::new(
                SinewStatus::InvalidHandle,
                format!("{} handle is null", self.kind),
            ));
        }
        if raw >> INDEX_SHIFT == 0 {
            return Err(self.foreign());
        }
        let tag = raw & TAG_MASK;
        if tag != self.tag {
            return Err(match tag_name(tag) {
                Some(other) => Fail::new(
                    SinewStatus::WrongHandleType,
                    format!(
                        "a {other} handle was passed where a {} is expected",
                        self.kind
                    ),
                ),
                None => self.foreign(),
            });
        }
        let index = (raw >> INDEX_SHIFT).wrapping_sub(1);
        Ok((index, (raw >> TAG_BITS) & GEN_MASK))
    }

    fn foreign(&self) -> Fail {
        Fail::new(
            SinewStatus::InvalidHandle,
            format!("not a {} handle of this library", self.kind),
        )
    }

    /// The live object of a handle.
    pub(crate) fn get(&self, raw: usize) -> Res<Arc<T>> {
        let (index, generation) = self.decode(raw)?;
        let slots = self.slots.read().unwrap_or_else(PoisonError::into_inner);
        let Some(e) = slots.get(index) else {
            return Err(self.foreign());
        };
        match &e.value {
            Some(v) if e.generation & GEN_MASK == generation => Ok(v.clone()),
            _ => Err(Fail::new(
                SinewStatus::InvalidHandle,
                format!("{} handle was destroyed", self.kind),
            )),
        }
    }

    /// Removes the object of a handle. A null handle and one already destroyed are no-ops.
    pub(crate) fn remove(&self, raw: usize) -> Res<Option<Arc<T>>> {
        if raw == 0 {
            return Ok(None);
        }
        let (index, generation) = self.decode(raw)?;
        let mut slots = self.slots.write().unwrap_or_else(PoisonError::into_inner);
        let Some(e) = slots.get_mut(index) else {
            return Err(self.foreign());
        };
        if e.value.is_none() || e.generation & GEN_MASK != generation {
            return Ok(None);
        }
        let v = e.value.take();
        e.generation = e.generation.wrapping_add(1);
        self.free
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(index);
        Ok(v)
    }
}

/// A raw handle from a host pointer.
pub(crate) fn raw<T>(p: *const T) -> usize {
    p.addr()
}

/// A host pointer for a raw handle (never dereferenced).
pub(crate) fn handle<T>(raw: usize) -> *mut T {
    std::ptr::without_provenance_mut(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_foreign_and_wrong_type_handles_are_refused() {
        let r: Registry<u32> = Registry::new(TAG_RIG, "rig");
        let h = r.insert(7).expect("insert");
        assert_eq!(*r.get(h).expect("live"), 7);
        assert!(r.remove(h).expect("remove").is_some());
        assert_eq!(
            r.get(h).expect_err("stale").status,
            SinewStatus::InvalidHandle
        );
        assert!(r.remove(h).expect("double destroy").is_none());
        let h2 = r.insert(8).expect("reuse");
        assert_ne!(h, h2, "a reused slot has a new generation");
        assert_eq!(
            r.get(h).expect_err("stale").status,
            SinewStatus::InvalidHandle
        );
        let wrong = (h2 & !TAG_MASK) | TAG_CAGE;
        assert_eq!(
            r.get(wrong).expect_err("wrong").status,
            SinewStatus::WrongHandleType
        );
        assert_eq!(
            r.get(0x1234_5670).expect_err("foreign").status,
            SinewStatus::InvalidHandle
        );
        assert_eq!(
            r.get(usize::MAX & !TAG_MASK | TAG_RIG)
                .expect_err("foreign")
                .status,
            SinewStatus::InvalidHandle
        );
        assert_eq!(
            r.get(0).expect_err("null").status,
            SinewStatus::InvalidHandle
        );
    }
}
