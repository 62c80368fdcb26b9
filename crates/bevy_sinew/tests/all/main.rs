//! bevy_sinew's integration tests (one binary, a module per file): Bevy apps without a
//! window, rendering through whatever Vulkan device there is (Mesa's lavapipe in CI).
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod common;
mod controls;
mod crowd;
mod events;
mod hot_reload;
mod layers;
mod loading;
mod render;
mod schedule;
