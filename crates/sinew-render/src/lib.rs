//! sinew-render: a CPU renderer for sinew's draw list, with PNG, GIF and APNG output.
//!
//! The runtime hands over a [`sinew::draw::DrawList`] (the backend boundary: plain data that a
//! GPU or engine backend can consume the same way); this crate rasterises it:
//! - [`raster`]: exact-area coverage (anti-aliased silhouettes, seamless shared edges);
//! - [`clip`]: Spine clipping polygons (ear clipping + Sutherland–Hodgman);
//! - [`blend`]: two-colour tint and the normal/additive/multiply/screen blend modes in
//!   premultiplied alpha; [`advanced`]: the other Inochi2D blend modes (W3C separable
//!   formulas and Inochi2D's blend-factor modes);
//! - [`texture`]: atlas pages (straight or premultiplied) decoded by `image`, bilinear sampling;
//! - [`mask`]: Inochi2D masks and dodge masks (content clipped to the union of sources) and
//!   composites (off-screen groups, [`sinew::draw::DrawGroup`]) drawn onto reused layers;
//! - [`renderer`]: the [`Renderer`], [`Canvas`] and [`View`] tying them together;
//! - [`encode`]: PNG, animated GIF and APNG writers; [`compare`]: golden-image checks;
//! - [`frame`]: from a loaded asset to pixels in two calls ([`asset_textures`],
//!   [`CharacterRenderer`]).
//!
//! Verified by unit tests in each module, golden images of the example character and render
//! tests on the shared Spine fixtures (`tests/`), and a criterion benchmark (`benches/`).

pub mod advanced;
pub mod blend;
pub mod clip;
pub mod compare;
pub mod composite;
pub mod encode;
pub mod frame;
pub mod mask;
pub mod raster;
pub mod renderer;
pub mod texture;

pub use frame::{CharacterRenderer, asset_textures};
pub use mask::{MaskedRenderer, SlotMask};
pub use renderer::{Canvas, Renderer, View, fill_estimate};
pub use texture::{Texture, TextureError, decode_pages};
