//! How a [`Character`] call names a bone, slot, clip, skin, IK constraint or parameter:
//! a [`Handle`] found through the character (it remembers its rig, so another
//! rig's character refuses it even when its index is in range), the item's name, or a bare
//! id (an index into the rig's tables, which can only be checked for range).
//!
//! Owned by the facade (`character`). Verified by `character/tests.rs`
//! (`handles_of_another_rig_are_refused`).

use super::Character;
use super::error::CharacterError;
use crate::ids::{
    AttachmentId, BoneId, ClipId, IkId, ParamId, PathId, PhysicsId, SkinId, SliderId, SlotId,
    TransformId,
};

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
/// A transform constraint found through a character.
pub type TransformConstraint = Handle<TransformId>;
/// A path constraint found through a character.
pub type PathConstraint = Handle<PathId>;
/// A physics constraint found through a character.
pub type PhysicsConstraint = Handle<PhysicsId>;
/// A Spine 4.3 slider found through a character.
pub type Slider = Handle<SliderId>;

/// Something that names one item of kind `T` of a character's rig: a [`Handle`] (checked
/// to be this rig's), a name (`&str`, looked up; not for attachments, whose names are per
/// slot), or a bare id (checked to be in range only).
///
/// Owner: the facade (`Character`), which resolves it on every call.
pub trait Key<T> {
    /// The rig's id, or why this character refuses it.
    fn resolve(self, c: &Character) -> Result<T, CharacterError>;
}

/// A parameter value for [`Character::set_param`](super::Character::set_param): one number
/// for a one-axis parameter, or `[x, y]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ParamValue {
    /// One axis.
    One(f64),
    /// Two axes (y is ignored by a one-axis parameter).
    Two([f64; 2]),
}

impl From<f64> for ParamValue {
    fn from(v: f64) -> Self {
        ParamValue::One(v)
    }
}

impl From<[f64; 2]> for ParamValue {
    fn from(v: [f64; 2]) -> Self {
        ParamValue::Two(v)
    }
}

/// What [`Character::set_attachment`](super::Character::set_attachment) shows on a slot: an
/// attachment's name (looked up in the slot's skins), an [`AttachmentId`] (checked to be
/// the rig's and the slot's), or `None` (nothing: the slot is hidden).
pub trait AttachmentKey {
    /// The attachment to show on `slot` (`None`: none), or why it is refused.
    fn resolve_for(
        self,
        c: &Character,
        slot: SlotId,
    ) -> Result<Option<AttachmentId>, CharacterError>;
}

impl AttachmentKey for &str {
    fn resolve_for(
        self,
        c: &Character,
        slot: SlotId,
    ) -> Result<Option<AttachmentId>, CharacterError> {
        c.find_attachment(slot, self).map(Some)
    }
}

impl AttachmentKey for &String {
    fn resolve_for(
        self,
        c: &Character,
        slot: SlotId,
    ) -> Result<Option<AttachmentId>, CharacterError> {
        self.as_str().resolve_for(c, slot)
    }
}

impl AttachmentKey for AttachmentId {
    fn resolve_for(
        self,
        c: &Character,
        slot: SlotId,
    ) -> Result<Option<AttachmentId>, CharacterError> {
        match c.rig.attachments.get(self.index()) {
            Some(data) if data.slot == slot => Ok(Some(self)),
            _ => Err(CharacterError::ForeignId {
                kind: "attachment of the slot",
                index: self.index(),
            }),
        }
    }
}

impl<T: AttachmentKey> AttachmentKey for Option<T> {
    fn resolve_for(
        self,
        c: &Character,
        slot: SlotId,
    ) -> Result<Option<AttachmentId>, CharacterError> {
        match self {
            Some(k) => k.resolve_for(c, slot),
            None => Ok(None),
        }
    }
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
    ($($id:ident, $kind:literal, $find:expr, $table:expr;)*) => {$(
        impl Key<$id> for &str {
            fn resolve(self, c: &Character) -> Result<$id, CharacterError> {
                let find: fn(&Character, &str) -> Option<$id> = $find;
                find(c, self).ok_or_else(|| {
                    // The error path only: list the names, so a typo shows its fix.
                    let table: fn(&Character) -> Vec<String> = $table;
                    CharacterError::UnknownName {
                        kind: $kind,
                        name: self.to_owned(),
                        known: table(c),
                    }
                })
            }
        }

        impl Key<$id> for &String {
            fn resolve(self, c: &Character) -> Result<$id, CharacterError> {
                self.as_str().resolve(c)
            }
        }

        impl Key<$id> for &&str {
            fn resolve(self, c: &Character) -> Result<$id, CharacterError> {
                (*self).resolve(c)
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
    TransformId, "transform constraint", |c| c.rig.transforms.len();
    PathId, "path constraint", |c| c.rig.paths.len();
    PhysicsId, "physics constraint", |c| c.rig.physics.len();
    SliderId, "slider", |c| c.rig.sliders.len();
    ParamId, "parameter", |c| c.rig.params.params.len();
}

/// The names of a table, in id order (for error messages).
fn names<T>(items: &[T], name: fn(&T) -> &str) -> Vec<String> {
    items.iter().map(|t| name(t).to_owned()).collect()
}

name_keys! {
    BoneId, "bone", |c, n| c.rig.bone(n), |c| names(&c.rig.bones, |b| &b.name);
    SlotId, "slot", |c, n| c.rig.slot(n), |c| names(&c.rig.slots, |b| &b.name);
    ClipId, "animation", |c, n| c.rig.clip(n), |c| names(&c.rig.clips, |b| &b.name);
    SkinId, "skin", |c, n| c.rig.skin(n), |c| names(&c.rig.skins, |b| &b.name);
    IkId, "IK constraint", |c, n| c.rig.names.ik.get(n).copied(),
        |c| names(&c.rig.ik, |b| &b.name);
    TransformId, "transform constraint", |c, n| c.rig.names.transforms.get(n).copied(),
        |c| names(&c.rig.transforms, |b| &b.name);
    PathId, "path constraint", |c, n| c.rig.names.paths.get(n).copied(),
        |c| names(&c.rig.paths, |b| &b.name);
    PhysicsId, "physics constraint", |c, n| c.rig.names.physics.get(n).copied(),
        |c| names(&c.rig.physics, |b| &b.name);
    SliderId, "slider", |c, n| c.rig.names.sliders.get(n).copied(),
        |c| names(&c.rig.sliders, |b| &b.name);
    ParamId, "parameter", |c, n| c.rig.params.find(n),
        |c| names(&c.rig.params.params, |p| &p.name);
}
