//! sinew-formats: loaders that turn files into a [`sinew::RawRig`], plus texture atlases.
//!
//! Start with [`load`] (a path) or [`load_bytes`] (bytes, with the companion files fetched
//! through a callback: what an asset server or a web page has): one call, for every format
//! ([`detect`] tells them apart by content), gives an [`Asset`] (the built, atlas-bound rig
//! with its page images, jiggle bones and drawing details) whose [`Asset::character`] is
//! ready to update and draw.
//!
//! # Quick start: a Spine rig
//!
//! Load, play, crossfade, aim with IK, update, draw:
//!
//! ```
//! use std::path::Path;
//! let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/stickbot");
//! let asset = sinew_formats::load(
//!     &dir.join("stickbot.json"), // finds stickbot.atlas and its pages beside it
//!     &sinew_formats::LoadOptions {
//!         // Jiggle bones by bone name; companions are named relative to the skeleton.
//!         extras: sinew_formats::Companion::Named("stickbot.extras.json".into()),
//!         ..Default::default()
//!     },
//! )?;
//! assert_eq!(asset.pages.len(), 2); // the atlas's page images, encoded
//! let mut hero = asset.character(); // share `asset.rig` between many characters
//! hero.set_default_mix(0.2);
//! hero.set_animation(0, "walk", true)?;
//! hero.add_animation(0, "turn", false, 0.5)?; // crossfades in after half a second
//! let aim = hero.find_ik("arm-front-ik").expect("stickbot aims its front arm");
//! hero.set_ik_target(aim, 40.0, 120.0)?;
//! for _ in 0..60 {
//!     hero.update(1.0 / 60.0);
//!     for event in hero.key_events() {
//!         let _ = event.name(hero.rig());
//!     }
//! }
//! let list = hero.draw_list(); // y up, one texture page per command, ready to rasterise
//! assert!(!list.commands.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Quick start: an Inochi2D puppet
//!
//! ```
//! use std::path::Path;
//! let face = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/face/face.inp");
//! let asset = sinew_formats::load(&face, &Default::default())?;
//! let mut puppet = asset.character();
//! let range = puppet.params()[puppet.find_param("ParamAngle").expect("a head angle").index()].clone();
//! assert_eq!((range.min[0], range.max[0]), (-30.0, 30.0));
//! puppet.set_param("ParamAngle", [15.0, -5.0])?;
//! puppet.play_param_animation("idle", true)?; // blinks on top of the angle
//! puppet.update(1.0 / 60.0);
//! let list = puppet.draw_list(); // pages, hidden parts, composites and y up done
//! assert!(list.commands.iter().all(|c| c.page != 0 || asset.draw.slot_pages[c.slot.index()] == Some(0)));
//! let masks = &puppet.draw_setup().slot_masks; // for the renderer
//! assert_eq!(masks.len(), asset.rig.slots.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # From bytes
//!
//! ```
//! use std::collections::HashMap;
//! let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/stickbot");
//! let mut files = HashMap::new();
//! for name in ["stickbot.atlas", "stickbot.png", "stickbot_2.png"] {
//!     files.insert(name, std::fs::read(dir.join(name))?);
//! }
//! let companions = |name: &str| {
//!     files.get(name).cloned().ok_or_else(|| std::io::ErrorKind::NotFound.into())
//! };
//! let main = std::fs::read(dir.join("stickbot.json"))?;
//! assert_eq!(sinew_formats::detect(&main), sinew_formats::Format::SpineJson);
//! let asset = sinew_formats::load_bytes("stickbot.json", &main, &companions, &Default::default())?;
//! assert!(asset.atlas.is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! - [`spine`]: Spine 4.2 JSON exports ([`spine::load_spine_json`], [`spine::parse_spine_json`]).
//! - [`extras`]: rig-extras JSON (jiggle bones and colliders added to any rig by bone name).
//! - [`physics3`]: Live2D Cubism physics settings (`*.physics3.json`) as pendulum chains.
//! - [`atlas`]: the libgdx/Spine `.atlas` text format and [`atlas::bind_atlas`], which puts an
//!   atlas's real regions into a built [`sinew::Rig`].
//!
//! Every loader returns a [`LoadError`] naming the file, the place and the culprit, and
//! never panics on bad input (checked by property tests and a fuzz target).

mod asset;
pub mod atlas;
pub mod budget;
pub mod convert;
pub mod dragonbones;
mod error;
pub mod extras;
pub mod inochi2d;
mod json;
mod load;
pub mod physics3;
pub mod read_once;
pub mod spine;

pub use asset::{
    Asset, ChildRig, PageImage, load_dragonbones, load_inochi2d, load_spine, puppet_draw_setup,
};
pub use atlas::bind_atlas;
pub use error::LoadError;
pub use json::JsonIssue;
pub use load::{
    Companion, Companions, FileCompanions, Format, LoadOptions, NoCompanions, detect, image_size,
    load, load_bytes,
};
