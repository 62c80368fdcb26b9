//! How a [`Character`] call names a bone, slot, clip, skin, IK constraint or parameter:
//! a [`Handle`] found through the character (it remembers its rig, so another
//! rig's character refuses it even when its index is in range), the item's name, or a bare
//! id (an index into the rig's tables, which can only be checked for range).
//!
//! Owned by the facade (`character`). Verified by `character/tests.rs`
//! (`handles_of_another_rig_are_refused`).

use super::Character;
use super::error::CharacterError;
use crate::ids::{BoneId, ClipId, IkId, ParamId, SkinId, SlotId};

/// An id found through a character ([`Character::find_bone`] and the other `find_*`), tagged
/// with the rig it belongs to: a character of another rig refuses it
/// ([`CharacterError::ForeignId`]), whatever its index.
///
/// Owner: the facade (`Character`), which checks it on every call.
///
/// ```
/// use sinew::{Character, raw::{RawBone, RawRig}};
/// use std::sync::Arc;
/// let mut raw = RawRig::default();
/// raw.bones.push(RawBone::new("root", None));
/// let a = Character::new(Arc::new(sinew::build::build_rig(&raw).unwrap()));
/// let b = Character::new(Arc::new(sinew::build::build_rig(&raw).unwrap()));
/// let root = a.find_bone("root").unwrap();
/// assert!(a.bone_world(root).is_some());
/// assert!(b.bone_world(root).is_none(), "the same index, but another rig's bone");
/// assert!(b.bone_world("root").is_some(), "names and bare ids work too");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Handle<T> {
    id: T,
    rig: u64,
}

impl<T: Copy> Handle<T> {
    /// The rig's own id (an index into its tables).
    pub fn id(self) -> T {
        self.id
    }
}

/// A bone found through a character.
pub type Bone = Handle<BoneId>;
/// A slot found through a character.
pub type Slot = Handle<SlotId>;
/// An animation clip found through a character.
pub type Clip = Handle<ClipId>;
/// A skin found through a character.
pub type Skin = Handle<SkinId>;
/// An IK constraint found through a character.
pub type Ik = Handle<IkId>;
/// A parameter found through a character.
pub type Param = Handle<ParamId>;

/// Something that names one item of kind `T` of a character's rig: a [`Handle`] (checked
/// to be this rig's), a name (`&str`, looked up; not for attachments, whose names are per
/// slot), or a bare id (checked to be in range only).
///
/// Owner: the facade (`Character`), which resolves it on every call.
pub trait Key<T> {
    /// The rig's id, or why this character refuses it.
    fn resolve(self, c: &Character) -> Result<T, CharacterError>;
}

impl Character {
    /// Tags `id` with this character's rig.
    pub(super) fn handle<T>(&self, id: T) -> Handle<T> {
        Handle {
            id,
            rig: self.rig.uid,
        }
    }
}

macro_rules! id_keys {
    ($($id:ident, $kind:literal, $len:expr;)*) => {$(
        impl Handle<$id> {
            /// The id as an index into the rig's table.
            pub fn index(self) -> usize {
                self.id.index()
            }
        }

        impl Key<$id> for $id {
            fn resolve(self, c: &Character) -> Result<$id, CharacterError> {
                let len: fn(&Character) -> usize = $len;
                if self.index() < len(c) {
                    Ok(self)
                } else {
                    Err(CharacterError::ForeignId { kind: $kind, index: self.index() })
                }
            }
        }

        impl Key<$id> for Handle<$id> {
            fn resolve(self, c: &Character) -> Result<$id, CharacterError> {
                if self.rig == c.rig.uid {
                    self.id.resolve(c)
                } else {
                    Err(CharacterError::ForeignId { kind: $kind, index: self.index() })
                }
            }
        }

        impl Key<$id> for &Handle<$id> {
            fn resolve(self, c: &Character) -> Result<$id, CharacterError> {
                (*self).resolve(c)
            }
        }

        impl Key<$id> for &$id {
            fn resolve(self, c: &Character) -> Result<$id, CharacterError> {
                (*self).resolve(c)
            }
        }
    )*};
}

macro_rules! name_keys {
    ($($id:ident, $kind:literal, $by_name:expr;)*) => {$(
        impl Key<$id> for &str {
            fn resolve(self, c: &Character) -> Result<$id, CharacterError> {
                let by_name: fn(&Character, &str) -> Option<$id> = $by_name;
                by_name(c, self).ok_or_else(|| CharacterError::UnknownName {
                    kind: $kind,
                    name: self.to_owned(),
                })
            }
        }

        impl Key<$id> for &String {
            fn resolve(self, c: &Character) -> Result<$id, CharacterError> {
                self.as_str().resolve(c)
            }
        }
    )*};
}

id_keys! {
    BoneId, "bone", |c| c.rig.bones.len();
    SlotId, "slot", |c| c.rig.slots.len();
    ClipId, "clip", |c| c.rig.clips.len();
    SkinId, "skin", |c| c.rig.skins.len();
    IkId, "IK constraint", |c| c.rig.ik.len();
    ParamId, "parameter", |c| c.rig.params.params.len();
}

name_keys! {
    BoneId, "bone", |c, n| c.rig.bone(n);
    SlotId, "slot", |c, n| c.rig.slot(n);
    ClipId, "animation", |c, n| c.rig.clip(n);
    SkinId, "skin", |c, n| c.rig.skin(n);
    IkId, "IK constraint", |c, n| {
        c.rig.ik.iter().position(|k| k.name == n).map(|i| IkId(i as u16))
    };
    ParamId, "parameter", |c, n| c.rig.params.find(n);
}
