//! Textures: atlas pages as premultiplied RGBA8, decoded by the `image` crate, with bilinear
//! sampling (clamp to edge, texel centres at half-integers like OpenGL `LINEAR`).
//!
//! Straight-alpha pages are premultiplied on load (so filtering never bleeds the colour of
//! transparent texels into edges); pages whose atlas says `pma: true` are kept as they are.
//! Verified by the unit tests below (premultiplication, exact texel centres, bilinear midpoints,
//! clamping) and by the render tests on the Spine fixtures' atlases.

use crate::blend::Rgba;
use sinew_formats::PageImage;
use sinew_formats::atlas::Atlas;
use std::fmt;
use std::path::{Path, PathBuf};

/// One atlas page, premultiplied RGBA8, rows top first.
///
/// Owner: the CPU renderer (`sinew-render`), which samples it when drawing a `DrawList`.
#[derive(Debug, Clone, PartialEq)]
pub struct Texture {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Premultiplied RGBA8 texels.
    pub texels: Vec<u8>,
}

/// Why a texture could not be loaded.
///
/// Owner: the CPU renderer (`sinew-render`), when pages are decoded.
#[derive(Debug)]
#[non_exhaustive]
pub enum TextureError {
    /// The page image file does not exist.
    Missing {
        /// The file looked for.
        path: PathBuf,
        /// The atlas that names it.
        atlas: String,
        /// Every page the atlas lists.
        pages: Vec<String>,
    },
    /// The image could not be decoded.
    Decode {
        /// The file.
        path: PathBuf,
        /// The decoder's message.
        message: String,
    },
}

impl fmt::Display for TextureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextureError::Missing { path, atlas, pages } => write!(
                f,
                "texture not loaded: {} (atlas {atlas} lists pages: {}; load with \
                 `LoadOptions::textures`)",
                path.display(),
                pages.join(", ")
            ),
            TextureError::Decode { path, message } => {
                write!(f, "{}: cannot decode image: {message}", path.display())
            }
        }
    }
}

impl std::error::Error for TextureError {}

impl Texture {
    /// A texture from straight or premultiplied RGBA8 texels (`texels.len()` must be
    /// `4 * width * height`; a short buffer is padded with transparent texels).
    pub fn from_rgba8(width: u32, height: u32, mut texels: Vec<u8>, premultiplied: bool) -> Self {
        texels.resize(width as usize * height as usize * 4, 0);
        if !premultiplied {
            for px in texels.chunks_exact_mut(4) {
                let a = u32::from(px[3]);
                for c in &mut px[..3] {
                    // Rounded c * a / 255.
                    let v = u32::from(*c) * a + 128;
                    *c = ((v + (v >> 8)) >> 8) as u8;
                }
            }
        }
        Texture {
            width: width.max(1),
            height: height.max(1),
            texels,
        }
    }

    /// A 1x1 opaque white texture (untextured drawing: the tint colour alone).
    pub fn white() -> Self {
        Texture {
            width: 1,
            height: 1,
            texels: vec![255; 4],
        }
    }

    /// Decodes an image file; `premultiplied` says whether its texels already are.
    pub fn load(path: &Path, premultiplied: bool) -> Result<Self, image::ImageError> {
        let img = image::open(path)?.to_rgba8();
        let (w, h) = img.dimensions();
        Ok(Texture::from_rgba8(w, h, img.into_raw(), premultiplied))
    }

    /// Decodes an encoded image (PNG or TGA, as embedded in Inochi2D puppets) from memory;
    /// `premultiplied` says whether its texels already are. TGA has no magic bytes, so what
    /// no signature identifies is tried as TGA.
    pub fn decode(bytes: &[u8], premultiplied: bool) -> Result<Self, image::ImageError> {
        let img = match image::load_from_memory(bytes) {
            Ok(img) => img,
            Err(e) => image::load_from_memory_with_format(bytes, image::ImageFormat::Tga)
                .map_err(|_| e)?,
        }
        .to_rgba8();
        let (w, h) = img.dimensions();
        Ok(Texture::from_rgba8(w, h, img.into_raw(), premultiplied))
    }

    /// Decodes an encoded image (PNG, or TGA when no signature identifies it) whose decoded
    /// RGBA8 texels may take at most `max_bytes`: the header is read first, and an image
    /// asking for more is refused before anything is decoded.
    pub fn decode_limited(
        bytes: &[u8],
        premultiplied: bool,
        max_bytes: u64,
    ) -> Result<Self, String> {
        use image::ImageReader;
        use std::io::Cursor;
        let guessed = ImageReader::new(Cursor::new(bytes))
            .with_guessed_format()
            .map_err(|e| e.to_string())?;
        let reader = if guessed.format().is_some() {
            guessed
        } else {
            ImageReader::with_format(Cursor::new(bytes), image::ImageFormat::Tga)
        };
        let format = reader.format();
        let (w, h) = ImageReader::new(Cursor::new(bytes))
            .with_guessed_format()
            .ok()
            .filter(|r| r.format().is_some())
            .unwrap_or_else(|| {
                ImageReader::with_format(Cursor::new(bytes), image::ImageFormat::Tga)
            })
            .into_dimensions()
            .map_err(|e| e.to_string())?;
        let need = u64::from(w) * u64::from(h) * 4;
        if need > max_bytes {
            return Err(format!(
                "a {w}x{h} image decodes to {need} bytes, over what is left of the \
                 texture_bytes budget ({max_bytes} bytes; `Budgets::texture_bytes`)"
            ));
        }
        let mut reader = reader;
        if let Some(f) = format {
            reader.set_format(f);
        }
        let mut limits = image::Limits::default();
        limits.max_image_width = Some(w);
        limits.max_image_height = Some(h);
        limits.max_alloc = Some(need.saturating_mul(2).max(1 << 20));
        reader.limits(limits);
        let img = reader.decode().map_err(|e| e.to_string())?.to_rgba8();
        let (w, h) = img.dimensions();
        Ok(Texture::from_rgba8(w, h, img.into_raw(), premultiplied))
    }

    /// Bytes of its texels.
    pub fn byte_len(&self) -> u64 {
        self.texels.len() as u64
    }

    /// The premultiplied texel at integer coordinates (clamped to the edge), 0..1.
    #[inline]
    pub fn texel(&self, x: i32, y: i32) -> Rgba {
        let x = x.clamp(0, self.width as i32 - 1) as usize;
        let y = y.clamp(0, self.height as i32 - 1) as usize;
        let i = (y * self.width as usize + x) * 4;
        match self.texels.get(i..i + 4) {
            Some(t) => [
                f32::from(t[0]),
                f32::from(t[1]),
                f32::from(t[2]),
                f32::from(t[3]),
            ]
            .map(|v| v * (1.0 / 255.0)),
            None => [0.0; 4],
        }
    }

    /// Bilinear sample at texel-space coordinates (`u * width - 0.5`, `v * height - 0.5`).
    #[inline]
    pub fn sample(&self, x: f32, y: f32) -> Rgba {
        let (w, h) = (self.width as usize, self.height as usize);
        let x = x.clamp(0.0, (w - 1) as f32);
        let y = y.clamp(0.0, (h - 1) as f32);
        let (x0, y0) = (x as usize, y as usize);
        let (fx, fy) = (x - x0 as f32, y - y0 as f32);
        let x1 = (x0 + 1).min(w - 1);
        let y1 = (y0 + 1).min(h - 1);
        let t = &self.texels;
        let at = |xx: usize, yy: usize| (yy * w + xx) * 4;
        let (i00, i10, i01, i11) = (at(x0, y0), at(x1, y0), at(x0, y1), at(x1, y1));
        if i11 + 4 > t.len() {
            return [0.0; 4];
        }
        let mut out = [0.0f32; 4];
        for (k, o) in out.iter_mut().enumerate() {
            let top = f32::from(t[i00 + k]) + (f32::from(t[i10 + k]) - f32::from(t[i00 + k])) * fx;
            let bottom =
                f32::from(t[i01 + k]) + (f32::from(t[i11 + k]) - f32::from(t[i01 + k])) * fx;
            *o = (top + (bottom - top) * fy) * (1.0 / 255.0);
        }
        out
    }
}

/// Decodes the page images of a loaded asset ([`sinew_formats::Asset::pages`]) for
/// `atlas` (named `atlas_name` in errors), in page order, every page together within
/// `max_bytes` of decoded texels (the load's `texture_bytes` budget). Pages missing from
/// `pages` (an asset loaded without [`sinew_formats::LoadOptions::textures`]) are an error
/// naming every page the atlas lists.
pub fn decode_pages(
    pages: &[PageImage],
    atlas: &Atlas,
    atlas_name: &str,
    max_bytes: u64,
) -> Result<Vec<Texture>, TextureError> {
    let mut out = Vec::with_capacity(atlas.pages.len());
    let mut left = max_bytes;
    for (i, page) in atlas.pages.iter().enumerate() {
        let Some(image) = pages.get(i).filter(|p| p.name == page.name) else {
            return Err(TextureError::Missing {
                path: page.name.clone().into(),
                atlas: atlas_name.to_owned(),
                pages: atlas.pages.iter().map(|p| p.name.clone()).collect(),
            });
        };
        let tex = Texture::decode_limited(&image.bytes, page.pma, left).map_err(|message| {
            TextureError::Decode {
                path: image.file.clone().into(),
                message: format!("texture of atlas {atlas_name}: {message}"),
            }
        })?;
        left = left.saturating_sub(tex.byte_len());
        out.push(tex);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn premultiplies_straight_texels() {
        let t = Texture::from_rgba8(2, 1, vec![255, 128, 0, 128, 10, 20, 30, 255], false);
        assert_eq!(t.texels, vec![128, 64, 0, 128, 10, 20, 30, 255]);
        let p = Texture::from_rgba8(1, 1, vec![100, 50, 0, 128], true);
        assert_eq!(p.texels, vec![100, 50, 0, 128]);
    }

    #[test]
    fn bilinear_hits_centres_and_midpoints() {
        // 2x2: black, white / red, transparent.
        let t = Texture::from_rgba8(
            2,
            2,
            vec![0, 0, 0, 255, 255, 255, 255, 255, 255, 0, 0, 255, 0, 0, 0, 0],
            false,
        );
        assert_eq!(t.sample(0.0, 0.0), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(t.sample(1.0, 0.0), [1.0, 1.0, 1.0, 1.0]);
        let close = |a: Rgba, b: Rgba| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6);
        assert!(close(t.sample(0.5, 0.0), [0.5, 0.5, 0.5, 1.0]));
        assert!(
            close(t.sample(0.5, 0.5), [0.5, 0.25, 0.25, 0.75]),
            "{:?}",
            t.sample(0.5, 0.5)
        );
        // Clamped to the edge beyond the texture.
        assert_eq!(t.sample(-3.0, 7.0), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(t.texel(5, -1), [1.0, 1.0, 1.0, 1.0]);
    }

    #[test]
    fn decodes_embedded_png_and_tga() {
        let rgba = [255, 128, 64, 255, 0, 0, 255, 128];
        let png = crate::encode::encode_png(2, 1, &rgba).unwrap();
        let t = Texture::decode(&png, false).unwrap();
        assert_eq!((t.width, t.height), (2, 1));
        assert_eq!(t.texels, vec![255, 128, 64, 255, 0, 0, 128, 128]);
        // Uncompressed true-colour TGA, 32 bpp, top-left origin (descriptor 0x28), BGRA.
        let mut tga = vec![0u8, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 32, 0x28];
        tga.extend_from_slice(&[64, 128, 255, 255, 255, 0, 0, 128]);
        let t = Texture::decode(&tga, false).unwrap();
        assert_eq!(t.texels, vec![255, 128, 64, 255, 0, 0, 128, 128]);
        assert!(Texture::decode(b"not an image", false).is_err());
    }

    #[test]
    fn missing_page_lists_pages() {
        let atlas =
            sinew_formats::atlas::parse_atlas("a.png\nsize: 4,4\nr\nbounds: 0,0,1,1\n", "x.atlas")
                .unwrap();
        let e = decode_pages(&[], &atlas, "x.atlas", 1 << 20).unwrap_err();
        assert_eq!(
            e.to_string(),
            "texture not loaded: a.png (atlas x.atlas lists pages: a.png; load with \
             `LoadOptions::textures`)"
        );
        // The page's own bytes decode, within the budget given.
        let png = crate::encode::encode_png(1, 1, &[1, 2, 3, 255]).unwrap();
        let page = PageImage {
            name: "a.png".into(),
            file: "dir/a.png".into(),
            bytes: png,
        };
        assert_eq!(
            decode_pages(std::slice::from_ref(&page), &atlas, "x.atlas", 4)
                .unwrap()
                .len(),
            1
        );
        let e = decode_pages(&[page], &atlas, "x.atlas", 3)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("dir/a.png") && e.contains("texture_bytes"),
            "{e}"
        );
    }
}
