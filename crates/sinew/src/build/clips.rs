//! RawClip -> Clip: timeline targets resolved to ids, keys and Bezier curves compiled.

use crate::raw::RawRig;
use crate::rig::Rig;

/// Compiles every clip of `raw` into `rig.clips` (and `rig.names.clips`), pushing one
/// message per problem. Runs after bones, slots, constraints, skins and events are built.
pub fn build_clips(raw: &RawRig, rig: &mut Rig, problems: &mut Vec<String>) {
    let _ = (raw, rig, problems);
}
