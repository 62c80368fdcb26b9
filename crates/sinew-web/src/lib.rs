//! sinew in a web page: the wasm32 module behind `web/sinew.js` (the JS API and its WebGL2
//! renderer) and `web/player.js` (the `<sinew-player>` element).
//!
//! The module exports plain `extern "C"` functions ([`exports`]; no wasm-bindgen, so no
//! generated glue and no CLI to install): the page hands over the files it fetched, loads
//! any format sinew reads through `sinew_formats::load_bytes` ([`host::Host::load`]: the
//! companions it lacks are named back to the page, which fetches them and asks again), and
//! drives a [`player::Player`] per character. Each frame becomes one vertex buffer, one
//! index buffer and a few ops ([`frame::Frame`]) that the page draws with WebGL2: every
//! blend mode, premultiplied alpha, tint black and screen tints, clipping, masks and
//! composites, as sinew-render draws them.
//!
//! Natively this is an ordinary library (the workspace tests and lints it); `.ci/web.sh`
//! builds it for `wasm32-unknown-unknown` as a cdylib and tests it in headless Chromium.

pub mod exports;
pub mod frame;
pub mod host;
pub mod player;

pub use frame::Frame;
pub use host::{Host, Loaded, Request};
pub use player::Player;
