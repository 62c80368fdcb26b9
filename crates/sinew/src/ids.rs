//! Dense ids: `#[repr(transparent)]` newtypes indexing the Rig's tables.
//!
//! Names live only at the edges (lookup maps on the [`crate::Rig`]); per-frame code uses ids.
//!
//! Layer: data. Imports nothing.

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident($inner:ty)) => {
        $(#[$doc])*
        #[repr(transparent)]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name(pub $inner);

        impl $name {
            /// The id as a table index.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(/// A bone of a rig; bones are stored parent-first.
    BoneId(u16));
id_type!(/// A slot of a rig, in setup draw order.
    SlotId(u16));
id_type!(/// An IK constraint of a rig.
    IkId(u16));
id_type!(/// A transform constraint of a rig.
    TransformId(u16));
id_type!(/// A path constraint of a rig.
    PathId(u16));
id_type!(/// A physics constraint of a rig.
    PhysicsId(u16));
id_type!(/// A slider constraint of a rig (Spine 4.3).
    SliderId(u16));
id_type!(/// A skin of a rig.
    SkinId(u16));
id_type!(/// An attachment (of any skin) in the rig's flat attachment table.
    AttachmentId(u32));
id_type!(/// An interned attachment key (the name a slot and its timelines use to pick an attachment).
    NameId(u32));
id_type!(/// An animation clip of a rig.
    ClipId(u32));
id_type!(/// An event definition of a rig.
    EventId(u16));
id_type!(/// A parameter of a rig (Live2D/Inochi2D style, see [`crate::params`]).
    ParamId(u16));
