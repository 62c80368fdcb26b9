//! Comparing rendered images as the render tests do.

/// Alpha IoU (pixels with alpha >= 128) and PSNR (dB) of two RGBA8 images of one size, both
/// composited over mid grey (128): how every render test compares a render with its
/// reference.
pub fn similarity(a: &[u8], b: &[u8]) -> (f64, f64) {
    let (mut inter, mut union, mut se) = (0usize, 0usize, 0.0f64);
    for (p, q) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        let (ma, mb) = (p[3] >= 128, q[3] >= 128);
        inter += usize::from(ma && mb);
        union += usize::from(ma || mb);
        for k in 0..3 {
            let over = |c: &[u8]| {
                (f64::from(c[k]) * f64::from(c[3]) + 128.0 * f64::from(255 - c[3])) / 255.0
            };
            se += (over(p) - over(q)).powi(2);
        }
    }
    let mse = se / (3 * a.len() / 4).max(1) as f64;
    (
        inter as f64 / union.max(1) as f64,
        10.0 * (255.0f64 * 255.0 / mse.max(1e-9)).log10(),
    )
}
