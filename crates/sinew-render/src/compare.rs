//! Golden-image comparison: per-channel tolerance, a count of differing pixels, and a diff
//! image written on failure; `SINEW_BLESS=1` rewrites the golden instead.
//!
//! A pixel differs when any of its four RGBA8 channels differs by more than `tolerance`. A
//! comparison passes when at most `max_differing` pixels differ. On failure the diff image
//! (differing pixels red over a dimmed copy of the expected image) is written to
//! `<target dir>/render-diffs/<name>.diff.png`, with the actual image beside it. Verified by the
//! unit tests below and used by the golden tests in `tests/`.

use crate::encode::write_png;
use std::path::{Path, PathBuf};

/// Environment variable that re-blesses golden images when set to `1`.
pub const BLESS_ENV: &str = "SINEW_BLESS";

/// The result of comparing two RGBA8 images of the same size.
///
/// Owner: the image comparisons of the render tests (`sinew-render`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comparison {
    /// Pixels whose largest channel difference exceeds the tolerance.
    pub differing: usize,
    /// The largest channel difference anywhere.
    pub max_diff: u8,
}

/// Compares two straight RGBA8 buffers pixel by pixel.
pub fn compare_rgba(expected: &[u8], actual: &[u8], tolerance: u8) -> Comparison {
    let mut c = Comparison {
        differing: 0,
        max_diff: 0,
    };
    for (e, a) in expected.chunks_exact(4).zip(actual.chunks_exact(4)) {
        let d = e
            .iter()
            .zip(a)
            .map(|(x, y)| x.abs_diff(*y))
            .max()
            .unwrap_or(0);
        c.max_diff = c.max_diff.max(d);
        if d > tolerance {
            c.differing += 1;
        }
    }
    c
}

/// The diff image: differing pixels red, the rest a dimmed, opaque copy of `expected`.
pub fn diff_image(expected: &[u8], actual: &[u8], tolerance: u8) -> Vec<u8> {
    let mut out = Vec::with_capacity(expected.len());
    for (e, a) in expected.chunks_exact(4).zip(actual.chunks_exact(4)) {
        let d = e
            .iter()
            .zip(a)
            .map(|(x, y)| x.abs_diff(*y))
            .max()
            .unwrap_or(0);
        if d > tolerance {
            out.extend_from_slice(&[255, 0, 0, 255]);
        } else {
            let grey = ((u32::from(e[0]) + u32::from(e[1]) + u32::from(e[2])) / 3 * u32::from(e[3])
                / 255) as u8;
            let g = 128 + grey / 2;
            out.extend_from_slice(&[g, g, g, 255]);
        }
    }
    out
}

/// Decodes a PNG file as straight RGBA8: (width, height, pixels).
pub fn load_rgba(path: &Path) -> Result<(u32, u32, Vec<u8>), String> {
    let img = image::open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .to_rgba8();
    let (w, h) = img.dimensions();
    Ok((w, h, img.into_raw()))
}

/// Where failure artefacts go: `$CARGO_TARGET_DIR/render-diffs`, else `<workspace>/target/render-diffs`.
pub fn diff_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    target.join("render-diffs")
}

/// Checks `actual` (straight RGBA8, `width x height`) against the golden PNG at `golden`.
/// With `SINEW_BLESS=1`, or when the golden does not exist yet and `CI` is not set, writes it
/// and passes. Otherwise returns a message (and writes the diff and actual images) when more
/// than `max_differing` pixels differ by more than `tolerance`.
pub fn check_golden(
    golden: &Path,
    width: u32,
    height: u32,
    actual: &[u8],
    tolerance: u8,
    max_differing: usize,
) -> Result<Comparison, String> {
    let bless = std::env::var(BLESS_ENV).is_ok_and(|v| v == "1");
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    if bless || (!golden.exists() && !ci) {
        if let Some(dir) = golden.parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        write_png(golden, width, height, actual).map_err(|e| e.to_string())?;
        return Ok(Comparison {
            differing: 0,
            max_diff: 0,
        });
    }
    let expected = image::open(golden)
        .map_err(|e| format!("{}: {e} (bless with {BLESS_ENV}=1)", golden.display()))?
        .to_rgba8();
    let name = golden
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("image")
        .to_owned();
    let save_failure = |what: &str| -> String {
        let dir = diff_dir();
        let _ = std::fs::create_dir_all(&dir);
        let actual_path = dir.join(format!("{name}.actual.png"));
        let _ = write_png(&actual_path, width, height, actual);
        if expected.dimensions() == (width, height) {
            let _ = write_png(
                &dir.join(format!("{name}.diff.png")),
                width,
                height,
                &diff_image(expected.as_raw(), actual, tolerance),
            );
        }
        format!(
            "{}: {what}; actual and diff images in {} (re-bless with {BLESS_ENV}=1)",
            golden.display(),
            dir.display()
        )
    };
    if expected.dimensions() != (width, height) {
        let (ew, eh) = expected.dimensions();
        return Err(save_failure(&format!(
            "size {width}x{height} differs from the golden's {ew}x{eh}"
        )));
    }
    let c = compare_rgba(expected.as_raw(), actual, tolerance);
    if c.differing > max_differing {
        return Err(save_failure(&format!(
            "{} pixels differ by more than {tolerance} (allowed {max_differing}; largest difference {})",
            c.differing, c.max_diff
        )));
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_pixels_over_tolerance() {
        let a = [10, 10, 10, 255, 0, 0, 0, 0, 50, 50, 50, 255];
        let b = [12, 10, 10, 255, 0, 0, 9, 0, 50, 50, 50, 255];
        assert_eq!(
            compare_rgba(&a, &b, 2),
            Comparison {
                differing: 1,
                max_diff: 9
            }
        );
        assert_eq!(
            compare_rgba(&a, &b, 9),
            Comparison {
                differing: 0,
                max_diff: 9
            }
        );
        let d = diff_image(&a, &b, 2);
        assert_eq!(&d[4..8], &[255, 0, 0, 255]);
        assert_eq!(d[3], 255);
    }

    #[test]
    fn golden_round_trip_and_failure() {
        let dir = std::env::temp_dir().join(format!("sinew-compare-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let golden = dir.join("g.png");
        let img = vec![0, 0, 0, 255, 255, 255, 255, 255];
        write_png(&golden, 2, 1, &img).unwrap();
        assert!(check_golden(&golden, 2, 1, &img, 0, 0).is_ok());
        let other = vec![0, 0, 0, 255, 0, 0, 0, 255];
        if std::env::var(BLESS_ENV).is_err() {
            let e = check_golden(&golden, 2, 1, &other, 3, 0).unwrap_err();
            assert!(e.contains("1 pixels differ by more than 3"), "{e}");
            assert!(check_golden(&golden, 2, 1, &other, 3, 1).is_ok());
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
