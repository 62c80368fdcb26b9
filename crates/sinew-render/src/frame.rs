//! One call from a loaded asset to pixels: [`asset_textures`] decodes what an
//! [`Asset`] draws with (a Spine atlas's page images, a puppet's
//! embedded textures), and [`CharacterRenderer`] draws a [`Character`]'s draw list with the
//! masks and composites of its [`DrawSetup`](sinew::draw::DrawSetup), fitting the view to the
//! character when asked.
//!
//! ```
//! use std::path::Path;
//! let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/stickbot");
//! // The atlas beside the skeleton and its page images come with the asset.
//! let asset = sinew_formats::load(&dir.join("stickbot.json"), &Default::default())?;
//! let textures = sinew_render::asset_textures(&asset)?;
//! let mut hero = asset.character();
//! hero.set_animation(0, "walk", true)?;
//! hero.update(0.25);
//! let mut renderer = sinew_render::CharacterRenderer::new();
//! let mut canvas = sinew_render::Canvas::new(128, 128, sinew::Color::new(0.0, 0.0, 0.0, 0.0));
//! let view = renderer.draw_fitted(&mut hero, &textures, &mut canvas, 0.05);
//! assert!(view.is_some(), "something is drawn");
//! let png = sinew_render::encode::encode_png(canvas.width, canvas.height, &canvas.to_rgba8())?;
//! assert!(png.starts_with(b"\x89PNG"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::{Canvas, MaskedRenderer, Texture, TextureError, View};
use sinew::Character;
use sinew_formats::Asset;

/// The textures an asset's draw list indexes by page: a Spine atlas's page images (loaded
/// from the atlas's folder), a puppet's embedded textures (an empty slot draws white), or one
/// white page for an untextured rig. Errors name the file or the texture.
pub fn asset_textures(asset: &Asset) -> Result<Vec<Texture>, TextureError> {
    if let Some(p) = &asset.puppet {
        // Every texture together within the load's texture_bytes budget.
        let mut left = asset.budgets.texture_bytes;
        return p
            .textures
            .iter()
            .enumerate()
            .map(|(i, t)| {
                if t.bytes.is_empty() {
                    return Ok(Texture::white());
                }
                let tex = Texture::decode_limited(&t.bytes, false, left).map_err(|e| {
                    TextureError::Decode {
                        path: asset.rig.source.clone().into(),
                        message: format!("texture {i} ({}): {e}", t.sniff()),
                    }
                })?;
                left = left.saturating_sub(tex.byte_len());
                Ok(tex)
            })
            .collect();
    }
    match &asset.atlas {
        Some(atlas) => crate::texture::decode_pages(
            &asset.pages,
            atlas,
            asset.atlas_name.as_deref().unwrap_or("the atlas"),
            asset.budgets.texture_bytes,
        ),
        None => Ok(vec![Texture::white()]),
    }
}

/// Draws characters onto canvases, reusing its scratch buffers between frames.
///
/// Owner: the CPU renderer (`sinew-render`): draws a `Character`'s draw list (step 10).
#[derive(Debug, Default)]
pub struct CharacterRenderer {
    masked: MaskedRenderer,
}

impl CharacterRenderer {
    /// Empty scratch buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Draws what `character` shows now through `view` (world units, y up), with its masks
    /// and composites; `textures[page]` are the pages of its draw list.
    pub fn draw(
        &mut self,
        character: &mut Character,
        textures: &[Texture],
        view: &View,
        canvas: &mut Canvas,
    ) {
        let (list, setup) = character.draw_list_and_setup();
        self.masked.render_grouped(
            list,
            textures,
            &setup.slot_masks,
            &setup.group_masks,
            view,
            canvas,
        );
    }

    /// Like [`draw`](Self::draw) with the view fitted to what the character shows
    /// ([`Character::fit_view`], `padding` a fraction of its size on each side); returns the
    /// view, or `None` (nothing drawn) when the character shows nothing.
    pub fn draw_fitted(
        &mut self,
        character: &mut Character,
        textures: &[Texture],
        canvas: &mut Canvas,
        padding: f64,
    ) -> Option<View> {
        let [x0, y0, x1, y1] = character.fit_view(canvas.width, canvas.height, padding)?;
        let view = View { x0, y0, x1, y1 };
        self.draw(character, textures, &view, canvas);
        Some(view)
    }
}
