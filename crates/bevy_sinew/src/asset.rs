//! Rigs as Bevy assets: [`SinewRig`], loaded by [`SinewRigLoader`] from the bytes the
//! `AssetServer` hands it, for every format sinew reads (Spine JSON and `.skel` with their
//! atlas and pages, DragonBones `_ske.json` with `_tex.json` and image, Inochi2D
//! `.inp`/`.inx`), with rig extras and Cubism physics3 beside them or named in
//! [`SinewRigSettings`].
//!
//! The loader is `sinew_formats::load_bytes`; its companions (atlas, pages, extras, ...) are
//! read through the same `AssetServer` source as the main file (`LoadContext::read_asset_bytes`),
//! so they become the asset's load dependencies: with Bevy's `file_watcher` feature, editing
//! any of them reloads the rig, and characters playing it are rebuilt on the new rig
//! (`character.rs`). The names a file asks for are only known while it is parsed (an atlas
//! names its pages), and `load_bytes` asks for them synchronously, so the loader runs it,
//! fetches the names it asked for, and runs it again with them (a Spine rig: three rounds).
//!
//! Textures are decoded by sinew-render (`asset_textures`: straight pages premultiplied, a
//! puppet's embedded textures) into premultiplied RGBA8 `Image`s, labelled `page0`,
//! `page1`, ..., plus a white page for untextured parts: the texels sinew's CPU renderer
//! samples. A failed load reaches the app as a [`SinewLoadFailed`] message carrying sinew's
//! error text (file, JSON path, offending name).

use bevy::asset::RenderAssetUsages;
use bevy::asset::io::{AssetReaderError, Reader};
use bevy::asset::{AssetLoadFailedEvent, AssetLoader, AssetPath, LoadContext, ReadAssetBytesError};
use bevy::image::{ImageSampler, ImageSamplerDescriptor};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use serde::{Deserialize, Serialize};
use sinew_formats::{Asset as SinewAsset, Companion, LoadError, LoadOptions};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A loaded rig: sinew's [`sinew_formats::Asset`] (the built rig, its draw setup, extras,
/// parameter animations, DragonBones child armatures) and its texture pages as Bevy images.
///
/// Owner: the asset loader ([`SinewRigLoader`]); read by the character systems.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct SinewRig {
    /// What `sinew_formats::load_bytes` made; `asset.character()` is a ready character.
    pub asset: Arc<SinewAsset>,
    /// Page `i` of the draw list (`DrawCommand::page`), premultiplied RGBA8; the last one is
    /// white, for untextured parts and pages out of range.
    pub pages: Vec<Handle<Image>>,
}

impl SinewRig {
    /// The image a draw command's page draws with (the white page for `NO_PAGE` or an index
    /// out of range).
    pub fn page(&self, page: u32) -> Option<&Handle<Image>> {
        let last = self.pages.len().checked_sub(1)?;
        self.pages.get((page as usize).min(last))
    }

    /// A new character of this rig, ready to play (extras, draw setup, parameter animations
    /// and child armatures attached).
    pub fn character(&self) -> sinew::Character {
        self.asset.character()
    }
}

/// How a rig loads; give it with `AssetServer::load_with_settings`. Names are relative to
/// the main file.
///
/// Owner: the app (per load); read by [`SinewRigLoader`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SinewRigSettings {
    /// The atlas (`.atlas`, `_tex.json`); `None`: the conventional one beside the skeleton.
    pub atlas: Option<String>,
    /// Draw untextured (no atlas, no page images).
    pub no_atlas: bool,
    /// Rig extras (jiggle bones, follows); `None`: `<stem>.extras.json` when it exists.
    pub extras: Option<String>,
    /// A Cubism physics3 file for a puppet; `None`: `<stem>.physics3.json` when it exists.
    pub physics3: Option<String>,
    /// The DragonBones armature (default: the file's first).
    pub armature: Option<String>,
}

impl SinewRigSettings {
    fn options(&self) -> LoadOptions {
        let beside = |n: &Option<String>| n.clone().map_or(Companion::Beside, Companion::Named);
        LoadOptions {
            atlas: if self.no_atlas {
                Companion::Without
            } else {
                beside(&self.atlas)
            },
            extras: beside(&self.extras),
            physics3: beside(&self.physics3),
            armature: self.armature.clone(),
            ..LoadOptions::default()
        }
    }
}

/// Why a rig did not load: sinew's own error (file, JSON path or byte offset, the
/// offending name), a texture that did not decode, or a file the asset source could not
/// read.
///
/// Owner: the asset loader.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SinewLoadError {
    /// sinew-formats refused the rig or a companion.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A page image or puppet texture did not decode.
    #[error(transparent)]
    Texture(#[from] sinew_render::TextureError),
    /// The asset source could not read the main file or a companion (other than "not
    /// found", which sinew reports itself).
    #[error("{file}: {message}")]
    Read {
        /// The file.
        file: String,
        /// The reader's message.
        message: String,
    },
}

/// A rig that did not load, with sinew's message; one per failed load (reloads included).
///
/// Owner: the plugin (written in `PreUpdate` from Bevy's `AssetLoadFailedEvent`).
#[derive(Message, Debug, Clone)]
pub struct SinewLoadFailed {
    /// The rig's handle id.
    pub id: AssetId<SinewRig>,
    /// The path that was loaded.
    pub path: AssetPath<'static>,
    /// sinew's message: the file, the JSON path or byte offset and the offending name.
    pub message: String,
}

/// The `AssetLoader` of every sinew format (extensions `json`, `skel`, `inp`, `inx`).
///
/// Owner: the plugin (registered by `SinewPlugin`).
#[derive(Debug, Default, TypePath)]
pub struct SinewRigLoader;

/// Most rounds of "parse, fetch what it asked for" (a Spine rig needs 3: atlas, pages, done).
const MAX_ROUNDS: usize = 16;

impl AssetLoader for SinewRigLoader {
    type Asset = SinewRig;
    type Settings = SinewRigSettings;
    type Error = SinewLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        settings: &SinewRigSettings,
        ctx: &mut LoadContext<'_>,
    ) -> Result<SinewRig, SinewLoadError> {
        let path = ctx.path().clone_owned();
        let file = path.path().to_string_lossy().into_owned();
        let mut main = Vec::new();
        reader
            .read_to_end(&mut main)
            .await
            .map_err(|e| SinewLoadError::Read {
                file: file.clone(),
                message: e.to_string(),
            })?;
        let name = path
            .path()
            .file_name()
            .map_or_else(|| file.clone(), |n| n.to_string_lossy().into_owned());
        let folder = path
            .path()
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let options = settings.options();
        // Companion bytes by name; `None`: not found.
        let mut fetched: HashMap<String, Option<Vec<u8>>> = HashMap::new();
        let mut asked = Vec::new();
        for _ in 0..MAX_ROUNDS {
            let result = try_load(&name, &main, &fetched, &options, &mut asked);
            if asked.is_empty() {
                return finish(result?, ctx);
            }
            for companion in asked.drain(..) {
                let at = AssetPath::from_path_buf(join(&folder, &companion))
                    .with_source(path.source().clone_owned());
                let bytes = match ctx.read_asset_bytes(at).await {
                    Ok(b) => Some(b),
                    Err(ReadAssetBytesError::AssetReaderError(AssetReaderError::NotFound(_))) => {
                        None
                    }
                    Err(e) => {
                        return Err(SinewLoadError::Read {
                            file: join(&folder, &companion).to_string_lossy().into_owned(),
                            message: e.to_string(),
                        });
                    }
                };
                fetched.insert(companion, bytes);
            }
        }
        Err(SinewLoadError::Read {
            file,
            message: format!("still asking for companion files after {MAX_ROUNDS} rounds"),
        })
    }

    fn extensions(&self) -> &[&str] {
        &["json", "skel", "inp", "inx"]
    }
}

/// One parse with the companions fetched so far; the names it asked for and did not have
/// are pushed to `asked` (then the result is not final).
fn try_load(
    name: &str,
    main: &[u8],
    fetched: &HashMap<String, Option<Vec<u8>>>,
    options: &LoadOptions,
    asked: &mut Vec<String>,
) -> Result<SinewAsset, LoadError> {
    let pending = std::cell::RefCell::new(Vec::new());
    let fetch = |n: &str| -> std::io::Result<Vec<u8>> {
        match fetched.get(n) {
            Some(Some(bytes)) => Ok(bytes.clone()),
            Some(None) => Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("`{n}` not found"),
            )),
            None => {
                pending.borrow_mut().push(n.to_owned());
                // Not NotFound: the load must not take a companion it has not seen as absent.
                Err(std::io::Error::other(format!("`{n}` is being fetched")))
            }
        }
    };
    let result = sinew_formats::load_bytes(name, main, &fetch, options);
    asked.extend(pending.into_inner());
    asked.dedup();
    result
}

fn join(folder: &Path, name: &str) -> PathBuf {
    folder.join(name)
}

/// The rig and its pages as labelled images.
fn finish(asset: SinewAsset, ctx: &mut LoadContext<'_>) -> Result<SinewRig, SinewLoadError> {
    let textures = sinew_render::asset_textures(&asset)?;
    let mut pages = Vec::with_capacity(textures.len() + 1);
    for (i, t) in textures.into_iter().enumerate() {
        pages.push(
            ctx.add_labeled_asset(format!("page{i}"), page_image(t.width, t.height, t.texels)),
        );
    }
    pages.push(ctx.add_labeled_asset("white", page_image(1, 1, vec![255; 4])));
    Ok(SinewRig {
        asset: Arc::new(asset),
        pages,
    })
}

/// A premultiplied RGBA8 page as an `Image`: not sRGB-decoded (the shader works on the
/// values sinew's CPU renderer samples), bilinear, clamped to the edge.
pub(crate) fn page_image(width: u32, height: u32, texels: Vec<u8>) -> Image {
    let mut image = Image::new(
        Extent3d {
            width: width.max(1),
            height: height.max(1),
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        texels,
        TextureFormat::Rgba8Unorm,
        RenderAssetUsages::default(),
    );
    image.sampler = ImageSampler::Descriptor(ImageSamplerDescriptor::linear());
    image
}

/// Turns Bevy's load failures of rigs into [`SinewLoadFailed`] with sinew's message.
pub(crate) fn report_failures(
    mut failed: MessageReader<AssetLoadFailedEvent<SinewRig>>,
    mut out: MessageWriter<SinewLoadFailed>,
) {
    for f in failed.read() {
        out.write(SinewLoadFailed {
            id: f.id,
            path: f.path.clone(),
            message: f.error.to_string(),
        });
    }
}
