//! Bones: local to world transforms in one parent-first pass, with Spine's inherit modes,
//! and the update plan (Spine's update cache).

pub mod plan;
