//! The supersample grid: a rotated lattice of samples (rotated-grid supersampling).
//!
//! With `s` samples per pixel along each axis on an axis-aligned grid, every sample of a
//! pixel column shares one of only `s` x positions, so the coverage of a vertical (or
//! horizontal) edge is quantised to `1/s`: at `s = 8` a pixel the CPU renderer covers
//! exactly 48.6% gets 4/8 = 50% (alpha 124 against 128, on either side of an alpha-128
//! threshold). Axis-aligned edges are the common case (Inochi2D parts, region quads at
//! rest), so the GPU renderer rotates its sample lattice instead: the supersampled target
//! is the output image scaled by `s` and turned by `theta = atan(1 / s)`. The `s x s`
//! samples that fall in a pixel then have `s^2` distinct x positions (and y positions),
//! evenly spaced by `cos(theta) / s^2`, and an axis-aligned edge's coverage steps by about
//! `1 / s^2` like the exact area the CPU computes. Only edges at `theta` itself see the
//! coarse steps, and content rarely has them.
//!
//! The target pixel of output point `o` (pixels, y down) is `t = s R(theta) o + origin`,
//! with `origin` putting the turned image at the target's top-left; the downsample pass
//! averages, for each output pixel, the samples whose centres map back into it
//! ([`SampleGrid::output_point`], half-open pixels), so every sample counts exactly once.
//! Verified by the unit tests below (the partition, the per-pixel sample counts, the edge
//! coverage steps) and by the GPU-vs-CPU image tests.

/// The rotated sample lattice of one target size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SampleGrid {
    /// Samples per pixel along each axis.
    pub factor: u32,
    /// `cos(theta)`, `sin(theta)`.
    pub rot: [f64; 2],
    /// Target pixel position of the output image's top-left corner.
    pub origin: [f64; 2],
    /// Target size in pixels.
    pub size: [u32; 2],
}

impl SampleGrid {
    /// The grid for a `width x height` output at `factor` samples per axis (no rotation at
    /// factor 1).
    pub fn new(width: u32, height: u32, factor: u32) -> SampleGrid {
        let s = f64::from(factor.max(1));
        let theta = if factor >= 2 { (1.0 / s).atan() } else { 0.0 };
        let (sin, cos) = theta.sin_cos();
        let (w, h) = (f64::from(width), f64::from(height));
        // Corners of the turned image: x from -s h sin to s w cos, y from 0 to s (w sin + h cos).
        let tw = (s * (w * cos + h * sin)).ceil().max(1.0) as u32;
        let th = (s * (w * sin + h * cos)).ceil().max(1.0) as u32;
        SampleGrid {
            factor: factor.max(1),
            rot: [cos, sin],
            origin: [s * h * sin, 0.0],
            size: [tw, th],
        }
    }

    /// Target pixel coordinates of output point `o` (the shader's `target_point`).
    #[cfg(test)]
    pub fn target_point(&self, o: [f64; 2]) -> [f64; 2] {
        let s = f64::from(self.factor);
        let [c, n] = self.rot;
        [
            s * (c * o[0] - n * o[1]) + self.origin[0],
            s * (n * o[0] + c * o[1]) + self.origin[1],
        ]
    }

    /// Output point of target point `t` (the inverse of [`SampleGrid::target_point`]), as
    /// the shaders compute it in f32: a sample belongs to the output pixel its centre
    /// maps into. The shaders' `output_point`, mirrored for the tests.
    #[cfg(test)]
    pub fn output_point(&self, t: [f32; 2]) -> [f32; 2] {
        let inv = 1.0 / self.factor as f32;
        let [c, n] = self.rot.map(|v| v as f32);
        let (dx, dy) = (t[0] - self.origin[0] as f32, t[1] - self.origin[1] as f32);
        [(c * dx + n * dy) * inv, (c * dy - n * dx) * inv]
    }

    /// World (x, y) to clip space for `view` on a `width x height` output through this
    /// grid: `ndc = axis_x * x + axis_y * y + offset` (`[axis_x, axis_y, offset]`).
    pub fn world_to_clip(
        &self,
        view: &sinew_render::View,
        width: u32,
        height: u32,
    ) -> [[f64; 2]; 3] {
        let kx = f64::from(width) / (view.x1 - view.x0);
        let ky = f64::from(height) / (view.y1 - view.y0);
        // Output pixel o = (kx x + bx, -ky y + by); target t = s R o + origin.
        let (bx, by) = (-view.x0 * kx, view.y1 * ky);
        let s = f64::from(self.factor);
        let [c, n] = self.rot;
        let t_x = [
            s * c * kx,
            s * n * ky,
            s * (c * bx - n * by) + self.origin[0],
        ];
        let t_y = [
            s * n * kx,
            -s * c * ky,
            s * (n * bx + c * by) + self.origin[1],
        ];
        // ndc x = 2 t_x / tw - 1; ndc y = 1 - 2 t_y / th.
        let (fx, fy) = (2.0 / f64::from(self.size[0]), 2.0 / f64::from(self.size[1]));
        [
            [fx * t_x[0], -fy * t_y[0]],
            [fx * t_x[1], -fy * t_y[1]],
            [fx * t_x[2] - 1.0, 1.0 - fy * t_y[2]],
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For each output pixel of a `w x h` image, the samples (target pixel centres) that
    /// map into it.
    fn partition(g: &SampleGrid, w: u32, h: u32) -> Vec<Vec<[f32; 2]>> {
        let mut out = vec![Vec::new(); (w * h) as usize];
        for j in 0..g.size[1] {
            for i in 0..g.size[0] {
                let t = [i as f32 + 0.5, j as f32 + 0.5];
                let o = g.output_point(t);
                let (px, py) = (o[0].floor(), o[1].floor());
                if px >= 0.0 && py >= 0.0 && (px as u32) < w && (py as u32) < h {
                    out[(py as u32 * w + px as u32) as usize].push(o);
                }
            }
        }
        out
    }

    #[test]
    fn every_pixel_gets_about_s_squared_samples() {
        for s in [2u32, 4, 8] {
            let g = SampleGrid::new(20, 13, s);
            let parts = partition(&g, 20, 13);
            let total: usize = parts.iter().map(Vec::len).sum();
            // The lattice has s^2 samples per unit area of the output.
            let want = (s * s) as usize;
            assert!(
                total.abs_diff(want * 20 * 13) <= want * 20 * 13 / 30,
                "s {s}: {total}"
            );
            for p in &parts {
                assert!(p.len().abs_diff(want) <= want / 2 + 1, "s {s}: {}", p.len());
            }
        }
    }

    #[test]
    fn the_turned_image_fits_the_target() {
        for (w, h, s) in [
            (1, 1, 8),
            (512, 512, 8),
            (640, 17, 4),
            (3, 900, 2),
            (5, 5, 1),
        ] {
            let g = SampleGrid::new(w, h, s);
            for o in [
                [0.0, 0.0],
                [w as f64, 0.0],
                [0.0, h as f64],
                [w as f64, h as f64],
            ] {
                let t = g.target_point(o);
                assert!(
                    t[0] >= -1e-9 && t[0] <= f64::from(g.size[0]) + 1e-9,
                    "{w}x{h}@{s}: {t:?}"
                );
                assert!(
                    t[1] >= -1e-9 && t[1] <= f64::from(g.size[1]) + 1e-9,
                    "{w}x{h}@{s}: {t:?}"
                );
                let back = g.output_point([t[0] as f32, t[1] as f32]);
                assert!(
                    (f64::from(back[0]) - o[0]).abs() < 1e-3
                        && (f64::from(back[1]) - o[1]).abs() < 1e-3
                );
            }
        }
        assert_eq!(SampleGrid::new(7, 3, 1).size, [7, 3]);
    }

    #[test]
    fn axis_aligned_edges_get_fine_coverage_steps() {
        // The samples of one pixel have s^2 distinct x (and y) positions, about 1/s^2
        // apart: a vertical edge anywhere in the pixel is covered to within ~1/s^2.
        for s in [4u32, 8] {
            let g = SampleGrid::new(9, 9, s);
            let parts = partition(&g, 9, 9);
            let p = &parts[(4 * 9 + 4) as usize];
            for axis in 0..2 {
                let mut v: Vec<f32> = p.iter().map(|o| o[axis] - 4.0).collect();
                v.sort_by(f32::total_cmp);
                v.dedup_by(|a, b| (*a - *b).abs() < 1e-4);
                let gap = v.windows(2).map(|w| w[1] - w[0]).fold(0.0f32, f32::max);
                assert!(v.len() as u32 >= s * s - s, "s {s}: {} positions", v.len());
                assert!(gap <= 2.5 / (s * s) as f32, "s {s}: gap {gap}");
                // A vertical edge at x = f covers the samples left of it: within ~1/s^2 of f.
                for f in [0.1f32, 0.4375, 0.486, 0.5, 0.77] {
                    let cov = v.iter().filter(|&&x| x < f).count() as f32 / v.len() as f32;
                    assert!(
                        (cov - f).abs() <= 2.0 / (s * s) as f32 + 0.02,
                        "s {s}: {f} -> {cov}"
                    );
                }
            }
        }
    }

    #[test]
    fn world_to_clip_matches_the_view_without_rotation() {
        let view = sinew_render::View {
            x0: -10.0,
            y0: -5.0,
            x1: 30.0,
            y1: 15.0,
        };
        let g = SampleGrid::new(40, 20, 1);
        let [ax, ay, off] = g.world_to_clip(&view, 40, 20);
        let ndc = |x: f64, y: f64| {
            [
                ax[0] * x + ay[0] * y + off[0],
                ax[1] * x + ay[1] * y + off[1],
            ]
        };
        assert_eq!(ndc(-10.0, -5.0), [-1.0, -1.0]);
        assert_eq!(ndc(30.0, 15.0), [1.0, 1.0]);
        // Rotated: the world point at output pixel (12.5, 3.25) lands on its target point.
        let g = SampleGrid::new(40, 20, 8);
        let [ax, ay, off] = g.world_to_clip(&view, 40, 20);
        let (x, y) = (-10.0 + 12.5, 15.0 - 3.25);
        let n = [
            ax[0] * x + ay[0] * y + off[0],
            ax[1] * x + ay[1] * y + off[1],
        ];
        let t = g.target_point([12.5, 3.25]);
        let want = [
            2.0 * t[0] / f64::from(g.size[0]) - 1.0,
            1.0 - 2.0 * t[1] / f64::from(g.size[1]),
        ];
        assert!(
            (n[0] - want[0]).abs() < 1e-12 && (n[1] - want[1]).abs() < 1e-12,
            "{n:?} {want:?}"
        );
    }
}
