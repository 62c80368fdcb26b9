//! Image output: PNG frames, animated GIF and APNG, through the `png` and `gif` crates.
//!
//! - PNG: straight-alpha RGBA8, fast compression (fdeflate: a few percent larger, several
//!   times faster than the default level).
//! - APNG: every frame full-size RGBA8, `dispose: none`, `blend: source`, delay `1/fps` as an
//!   exact fraction when fps is a whole number; fast compression, since the frames are
//!   compressed in order on the writing thread.
//! - GIF: 1-bit transparency and 256 colours per frame (NeuQuant through `gif`). Frames are
//!   flattened onto an opaque background; with a transparent background, pixels under half
//!   coverage become transparent and the rest opaque. Delays are whole centiseconds, spread so
//!   that the total stays on the 1/fps grid (30 fps gives 3, 4, 3, 3, 4, 3, ...).
//!
//! Verified by the unit tests below (PNG and APNG round-trip through the decoder, GIF frame
//! count and delays) and by the CLI tests.

use crate::blend::{Rgba, premultiply};
use crate::renderer::Canvas;
use sinew::Color;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// An error while encoding or writing an image.
///
/// Owner: the encoders (`encode`), after the draw stage.
#[derive(Debug)]
pub struct EncodeError(pub String);

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EncodeError {}

fn err(path: &Path, e: impl std::fmt::Display) -> EncodeError {
    EncodeError(format!("{}: {e}", path.display()))
}

fn create(path: &Path) -> Result<BufWriter<File>, EncodeError> {
    File::create(path)
        .map(BufWriter::new)
        .map_err(|e| err(path, e))
}

/// Encodes straight-alpha RGBA8 as a PNG file in memory.
pub fn encode_png(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        let mut w = enc.write_header().map_err(|e| EncodeError(e.to_string()))?;
        w.write_image_data(rgba)
            .map_err(|e| EncodeError(e.to_string()))?;
        w.finish().map_err(|e| EncodeError(e.to_string()))?;
    }
    Ok(out)
}

/// Writes straight-alpha RGBA8 to a PNG file.
pub fn write_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<(), EncodeError> {
    let bytes = encode_png(width, height, rgba).map_err(|e| err(path, e))?;
    std::fs::write(path, bytes).map_err(|e| err(path, e))
}

/// GIF frame delays in centiseconds for `frames` frames at `fps`, rounded so the running
/// total follows the exact timeline.
pub fn gif_delays(frames: usize, fps: f64) -> impl Iterator<Item = u16> {
    (0..frames).map(move |k| gif_delay(k, fps))
}

/// The delay of GIF frame `k` at `fps` (the `k`-th item of [`gif_delays`]), in centiseconds.
pub fn gif_delay(k: usize, fps: f64) -> u16 {
    let step = 100.0 / fps.max(1e-3);
    let a = (k as f64 * step).round();
    let b = ((k + 1) as f64 * step).round();
    (b - a).clamp(1.0, f64::from(u16::MAX)) as u16
}

/// The straight RGBA8 pixels a GIF frame stores for `canvas` (see the module docs).
pub fn gif_pixels(canvas: &Canvas, background: Color) -> Vec<u8> {
    let bg: Rgba = premultiply(background);
    let opaque = background.a >= 1.0;
    let mut out = Vec::with_capacity(canvas.pixels.len() * 4);
    for p in &canvas.pixels {
        let q = if opaque {
            // Already composited onto the background when the canvas was cleared with it;
            // flatten again in case the canvas started transparent.
            let k = 1.0 - p[3];
            [p[0] + bg[0] * k, p[1] + bg[1] * k, p[2] + bg[2] * k, 1.0]
        } else if p[3] >= 0.5 {
            [p[0] / p[3], p[1] / p[3], p[2] / p[3], 1.0]
        } else {
            [0.0; 4]
        };
        out.extend(q.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8));
    }
    out
}

/// A GIF frame ready to write (re-exported so callers need no `gif` dependency).
///
/// Owner: the encoders (`encode`), after the draw stage.
pub type GifFrame = gif::Frame<'static>;

/// A quantised GIF frame (the costly part of GIF output, safe to run on worker threads).
pub fn gif_frame(
    width: u32,
    height: u32,
    mut pixels: Vec<u8>,
    delay_cs: u16,
) -> gif::Frame<'static> {
    let (w, h) = (
        width.min(u32::from(u16::MAX)) as u16,
        height.min(u32::from(u16::MAX)) as u16,
    );
    pixels.resize(usize::from(w) * usize::from(h) * 4, 0);
    let mut frame = gif::Frame::from_rgba_speed(w, h, &mut pixels, 10);
    frame.delay = delay_cs;
    frame.dispose = gif::DisposalMethod::Background;
    frame
}

/// An animated output file being written frame by frame.
///
/// Owner: the encoders (`encode`), after the draw stage.
pub enum AnimationWriter {
    /// Animated GIF.
    Gif(gif::Encoder<BufWriter<File>>),
    /// Animated PNG.
    Apng(png::Writer<BufWriter<File>>),
}

impl AnimationWriter {
    /// Starts a looping GIF of `width x height`.
    pub fn gif(path: &Path, width: u32, height: u32) -> Result<Self, EncodeError> {
        if width > u32::from(u16::MAX) || height > u32::from(u16::MAX) {
            return Err(err(
                path,
                "GIF images are at most 65535 pixels wide and high",
            ));
        }
        let mut enc = gif::Encoder::new(create(path)?, width as u16, height as u16, &[])
            .map_err(|e| err(path, e))?;
        enc.set_repeat(gif::Repeat::Infinite)
            .map_err(|e| err(path, e))?;
        Ok(AnimationWriter::Gif(enc))
    }

    /// Starts a looping APNG of `frames` frames at `fps`.
    pub fn apng(
        path: &Path,
        width: u32,
        height: u32,
        frames: u32,
        fps: f64,
    ) -> Result<Self, EncodeError> {
        let mut enc = png::Encoder::new(create(path)?, width, height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        // Frames are compressed in order on one thread: favour speed (fdeflate).
        enc.set_compression(png::Compression::Fast);
        enc.set_animated(frames.max(1), 0)
            .map_err(|e| err(path, e))?;
        let (num, den) = if fps.fract() == 0.0 && fps >= 1.0 && fps <= f64::from(u16::MAX) {
            (1, fps as u16)
        } else {
            (
                (1000.0 / fps.max(1e-3)).round().clamp(1.0, 65535.0) as u16,
                1000,
            )
        };
        enc.set_frame_delay(num, den).map_err(|e| err(path, e))?;
        enc.set_dispose_op(png::DisposeOp::None)
            .map_err(|e| err(path, e))?;
        enc.set_blend_op(png::BlendOp::Source)
            .map_err(|e| err(path, e))?;
        let w = enc.write_header().map_err(|e| err(path, e))?;
        Ok(AnimationWriter::Apng(w))
    }

    /// Appends a GIF frame (from [`gif_frame`]); ignored by an APNG writer.
    pub fn push_gif(&mut self, frame: &gif::Frame<'_>) -> Result<(), EncodeError> {
        match self {
            AnimationWriter::Gif(enc) => enc
                .write_frame(frame)
                .map_err(|e| EncodeError(e.to_string())),
            AnimationWriter::Apng(_) => Ok(()),
        }
    }

    /// Appends an APNG frame of straight RGBA8; ignored by a GIF writer.
    pub fn push_rgba(&mut self, rgba: &[u8]) -> Result<(), EncodeError> {
        match self {
            AnimationWriter::Apng(w) => w
                .write_image_data(rgba)
                .map_err(|e| EncodeError(e.to_string())),
            AnimationWriter::Gif(_) => Ok(()),
        }
    }

    /// Finishes the file.
    pub fn finish(self) -> Result<(), EncodeError> {
        match self {
            AnimationWriter::Gif(enc) => {
                let mut inner = enc.into_inner().map_err(|e| EncodeError(e.to_string()))?;
                inner.flush().map_err(|e| EncodeError(e.to_string()))
            }
            AnimationWriter::Apng(w) => w.finish().map_err(|e| EncodeError(e.to_string())),
        }
    }
}

/// Number of frames in a GIF or APNG file (1 for a still PNG).
pub fn frame_count(path: &Path) -> Result<usize, EncodeError> {
    let file = File::open(path).map_err(|e| err(path, e))?;
    let name = path.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".gif") {
        let mut dec = gif::DecodeOptions::new()
            .read_info(std::io::BufReader::new(file))
            .map_err(|e| err(path, e))?;
        let mut n = 0;
        while dec.read_next_frame().map_err(|e| err(path, e))?.is_some() {
            n += 1;
        }
        return Ok(n);
    }
    let reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .map_err(|e| err(path, e))?;
    Ok(reader
        .info()
        .animation_control
        .map_or(1, |a| a.num_frames as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_follow_the_timeline() {
        let d: Vec<u16> = gif_delays(6, 30.0).collect();
        assert_eq!(d, vec![3, 4, 3, 3, 4, 3]);
        assert_eq!(d.iter().map(|&x| u32::from(x)).sum::<u32>(), 20);
        assert!(gif_delays(4, 25.0).all(|x| x == 4));
    }

    #[test]
    fn png_round_trips() {
        let rgba = vec![255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 0, 0, 1, 2, 3, 4];
        let bytes = encode_png(2, 2, &rgba).unwrap();
        let img = image::load_from_memory(&bytes).unwrap().to_rgba8();
        assert_eq!(img.into_raw(), rgba);
    }

    #[test]
    fn apng_and_gif_files() {
        let dir = std::env::temp_dir().join(format!("sinew-render-encode-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let apng = dir.join("a.apng");
        let mut w = AnimationWriter::apng(&apng, 2, 1, 3, 30.0).unwrap();
        for k in 0..3u8 {
            w.push_rgba(&[k, 0, 0, 255, 0, k, 0, 255]).unwrap();
        }
        w.finish().unwrap();
        let dec = png::Decoder::new(std::io::BufReader::new(File::open(&apng).unwrap()));
        let reader = dec.read_info().unwrap();
        let ac = reader.info().animation_control.unwrap();
        assert_eq!((ac.num_frames, ac.num_plays), (3, 0));

        let gif_path = dir.join("a.gif");
        let mut g = AnimationWriter::gif(&gif_path, 2, 1).unwrap();
        for (k, delay) in gif_delays(3, 30.0).enumerate() {
            let canvas = Canvas::new(2, 1, Color::new(k as f32 / 3.0, 0.0, 0.0, 1.0));
            g.push_gif(&gif_frame(2, 1, gif_pixels(&canvas, Color::WHITE), delay))
                .unwrap();
        }
        g.finish().unwrap();
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::RGBA);
        let mut dec = opts.read_info(File::open(&gif_path).unwrap()).unwrap();
        let mut delays = Vec::new();
        while let Some(f) = dec.read_next_frame().unwrap() {
            delays.push(f.delay);
        }
        assert_eq!(delays, vec![3, 4, 3]);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn gif_pixels_flatten_or_threshold() {
        let mut c = Canvas::new(2, 1, Color::new(0.0, 0.0, 0.0, 0.0));
        c.pixels[0] = [0.5, 0.0, 0.0, 0.5];
        c.pixels[1] = [0.1, 0.1, 0.1, 0.25];
        assert_eq!(
            gif_pixels(&c, Color::WHITE),
            vec![255, 128, 128, 255, 217, 217, 217, 255]
        );
        assert_eq!(
            gif_pixels(&c, Color::new(0.0, 0.0, 0.0, 0.0)),
            vec![255, 0, 0, 255, 0, 0, 0, 0]
        );
    }
}
