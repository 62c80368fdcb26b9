//! The CPU renderer: rasterises a [`DrawList`] onto a premultiplied [`Canvas`].
//!
//! Per command (one slot's region or mesh): each triangle is mapped from world to pixels by
//! the [`View`], clipped by the command's clip polygon when it has one ([`crate::clip`]),
//! and covered with exact-area anti-aliasing ([`crate::raster`]). Every covered pixel samples
//! the atlas page bilinearly at its centre (barycentrics clamped to the triangle, so edge
//! pixels never read texels outside the region), shades with the two-colour tint, and adds
//! `coverage * colour` into a layer. Triangles of one command that share an edge therefore sum
//! to exactly the covered area: no crack and no double-blended seam. Where triangles of one
//! command overlap (a folded mesh) the layer is normalised to full coverage, averaging them.
//! The layer is then composited onto the canvas once with the slot's blend mode
//! ([`crate::blend`]; DestinationIn, the one mode not linear in coverage, is mixed by coverage
//! instead, [`crate::advanced::blend_coverage`]).
//!
//! After the first frame of a given size and rig, rendering allocates nothing. Verified by the
//! unit tests below (a two-triangle quad is seamless and exact, clipping by a concave polygon,
//! blend modes, tint) and by the golden images and fixture tests in `tests/`.

use crate::advanced::{blend_coverage, coverage_linear};
use crate::blend::{Rgba, Tint, blend, premultiply, to_straight_u8};
use crate::clip::{ClipCache, Point, clip_convex, clip_outside, signed_area2};
use crate::raster::Coverage;
use crate::texture::Texture;
use sinew::Color;
use sinew::draw::{DrawCommand, DrawList};

/// The world rectangle an image shows (y up; `x0, y0` is the bottom-left corner). It fills
/// the image exactly: pixel `(i, j)` covers world x in `[x0 + i * (x1 - x0) / W, ...]` and y
/// from `y1` downwards.
///
/// Owner: the CPU renderer (`sinew-render`): where the draw list lands on the canvas.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// Left edge, world units.
    pub x0: f64,
    /// Bottom edge.
    pub y0: f64,
    /// Right edge.
    pub x1: f64,
    /// Top edge.
    pub y1: f64,
}

impl View {
    /// World `(x, y)` to pixel coordinates (y down) on a `width x height` image.
    #[inline]
    pub fn to_pixel(&self, width: u32, height: u32, x: f64, y: f64) -> Point {
        let sx = f64::from(width) / (self.x1 - self.x0);
        let sy = f64::from(height) / (self.y1 - self.y0);
        [((x - self.x0) * sx) as f32, ((self.y1 - y) * sy) as f32]
    }
}

/// The pixels a frame of `list` fills on a `width x height` image of `view`: each command's
/// bounding box (of its vertices, in pixels, cut to the image) summed, so overlapping
/// commands count every time. The rasteriser's work grows with it (coverage and shading
/// per covered pixel of each command), which is why `sinew render` checks it against its
/// `fill_pixels` budget before drawing a frame. Non-finite vertices are skipped.
///
/// ```
/// use sinew::draw::DrawList;
/// use sinew_render::{View, fill_estimate};
/// let view = View { x0: 0.0, y0: 0.0, x1: 100.0, y1: 100.0 };
/// assert_eq!(fill_estimate(&DrawList::default(), &view, 100, 100), 0.0);
/// ```
pub fn fill_estimate(list: &DrawList, view: &View, width: u32, height: u32) -> f64 {
    let (w, h) = (f64::from(width), f64::from(height));
    let mut total = 0.0;
    for cmd in &list.commands {
        let start = cmd.vertex_start as usize * 2;
        let end = start + cmd.vertex_count as usize * 2;
        let Some(v) = list.positions.get(start..end) else {
            continue;
        };
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for p in v.chunks_exact(2) {
            let [x, y] = view.to_pixel(width, height, f64::from(p[0]), f64::from(p[1]));
            if x.is_finite() && y.is_finite() {
                let (x, y) = (f64::from(x), f64::from(y));
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
        let cw = (x1.min(w).ceil() - x0.max(0.0).floor()).max(0.0);
        let ch = (y1.min(h).ceil() - y0.max(0.0).floor()).max(0.0);
        total += cw * ch;
    }
    total
}

/// An RGBA image in premultiplied f32, rows top first.
///
/// Owner: the CPU renderer (`sinew-render`): its output.
#[derive(Debug, Clone, PartialEq)]
pub struct Canvas {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Premultiplied pixels.
    pub pixels: Vec<Rgba>,
}

impl Canvas {
    /// A canvas filled with a straight-alpha background colour.
    pub fn new(width: u32, height: u32, background: Color) -> Self {
        Canvas {
            width,
            height,
            pixels: vec![premultiply(background); width as usize * height as usize],
        }
    }

    /// Refills the canvas with a straight-alpha background colour.
    pub fn clear(&mut self, background: Color) {
        self.pixels.fill(premultiply(background));
    }

    /// The image as straight-alpha RGBA8 (what PNG stores).
    pub fn to_rgba8(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.pixels.len() * 4);
        for p in &self.pixels {
            out.extend_from_slice(&to_straight_u8(*p));
        }
        out
    }

    /// Writes the image to a PNG file ([`Canvas::to_rgba8`], then
    /// [`crate::encode::write_png`]); the error names the file.
    ///
    /// ```
    /// let canvas = sinew_render::Canvas::new(4, 4, sinew::Color::new(1.0, 0.0, 0.0, 1.0));
    /// let path = std::env::temp_dir().join("sinew-canvas-doctest.png");
    /// canvas.save_png(&path).unwrap();
    /// assert!(std::fs::read(&path).unwrap().starts_with(b"\x89PNG"));
    /// ```
    pub fn save_png(
        &self,
        path: impl AsRef<std::path::Path>,
    ) -> Result<(), crate::encode::EncodeError> {
        crate::encode::write_png(path.as_ref(), self.width, self.height, &self.to_rgba8())
    }
}

/// Reusable scratch state of the rasteriser.
///
/// Owner: the CPU renderer (`sinew-render`): its scratch, reused across frames.
#[derive(Debug, Clone)]
pub struct Renderer {
    coverage: Coverage,
    layer: Vec<Rgba>,
    layer_cov: Vec<f32>,
    /// Triangulated pieces of the current clip polygon, pixel space.
    pieces: Vec<[Point; 3]>,
    /// Pixel-space bounds (x0, y0, x1, y1) of each piece.
    piece_boxes: Vec<[f32; 4]>,
    /// The clip index `pieces` was built for.
    pieces_for: Option<u32>,
    /// Clip triangulations kept between frames, by clipping slot.
    clip_cache: ClipCache,
    clip_px: Vec<Point>,
    /// The current clip's convex hull (Spine 4.3 `convex` / `inverse`; the draw list's
    /// polygon), pixel space, positive orientation.
    hull: Vec<Point>,
    /// Whether the current clip keeps what lies outside `hull` (Spine 4.3 `inverse`).
    clip_inverse: bool,
    poly: Vec<Point>,
    poly2: Vec<Point>,
    tmp: Vec<Point>,
    tmp2: Vec<Point>,
    tmp3: Vec<Point>,
    /// Stands in for a missing atlas page.
    white: Texture,
}

impl Default for Renderer {
    fn default() -> Self {
        Self::new()
    }
}

/// What the per-triangle shading needs.
struct Shader<'a> {
    tex: &'a Texture,
    tint: Tint,
    /// Barycentric l1, l2 as affine functions of the pixel centre: value at (0,0), d/dx, d/dy.
    l1: [f32; 3],
    l2: [f32; 3],
    /// Texel-space coordinates of the three corners.
    tu: [f32; 3],
    tv: [f32; 3],
    /// Whether transparent texels still count as covered: for DestinationIn (not linear in
    /// coverage), whose transparent source erases what is under it, as Inochi2D's
    /// fixed-function `(0, src alpha)` blend and the GPU renderer do.
    keep_empty: bool,
}

impl Renderer {
    /// Empty scratch buffers.
    pub fn new() -> Self {
        Renderer {
            coverage: Coverage::new(),
            layer: Vec::new(),
            layer_cov: Vec::new(),
            pieces: Vec::new(),
            piece_boxes: Vec::new(),
            pieces_for: None,
            clip_cache: ClipCache::new(),
            clip_px: Vec::new(),
            hull: Vec::new(),
            clip_inverse: false,
            poly: Vec::new(),
            poly2: Vec::new(),
            tmp: Vec::new(),
            tmp2: Vec::new(),
            tmp3: Vec::new(),
            white: Texture::white(),
        }
    }

    /// Draws `list` onto `canvas` through `view`. `textures[page]` is each atlas page; a
    /// missing page draws as white (the tint alone).
    pub fn render(
        &mut self,
        list: &DrawList,
        textures: &[Texture],
        view: &View,
        canvas: &mut Canvas,
    ) {
        self.render_commands(list, &list.commands, textures, view, canvas);
    }

    /// Draws `commands` (commands over `list`'s vertices, indices and clips, in any order or
    /// subset) onto `canvas`, like [`Renderer::render`].
    pub fn render_commands(
        &mut self,
        list: &DrawList,
        commands: &[DrawCommand],
        textures: &[Texture],
        view: &View,
        canvas: &mut Canvas,
    ) {
        let (w, h) = (canvas.width as usize, canvas.height as usize);
        if w == 0 || h == 0 || view.x1 == view.x0 || view.y1 == view.y0 {
            return;
        }
        let n = w * h;
        if self.layer.len() != n {
            self.layer = vec![[0.0; 4]; n];
            self.layer_cov = vec![0.0; n];
        }
        self.pieces_for = None;
        // Taken out for the loop (the scratch buffers are borrowed mutably); put back below.
        let white = std::mem::replace(
            &mut self.white,
            Texture {
                width: 1,
                height: 1,
                texels: Vec::new(),
            },
        );
        for cmd in commands {
            if cmd.color.a <= 0.0 {
                continue;
            }
            let tex = textures.get(cmd.page as usize).unwrap_or(&white);
            let tint = match cmd.screen {
                Some(_) => Tint::screened(cmd.color, cmd.screen),
                None => Tint::new(cmd.color, cmd.dark),
            };
            if let Some(c) = cmd.clip {
                if self.pieces_for != Some(c) {
                    self.build_clip(list, c, view, canvas);
                }
                if self.pieces.is_empty() && !self.clip_inverse {
                    continue; // a degenerate clip polygon hides everything it clips
                }
            }
            let pos = list.command_positions(cmd);
            let uvs = list.command_uvs(cmd);
            let mut bbox = [usize::MAX, usize::MAX, 0usize, 0usize];
            for t in list.command_indices(cmd).chunks_exact(3) {
                let idx = [t[0] as usize, t[1] as usize, t[2] as usize];
                let (Some(p), Some(uv)) = (corners(pos, idx), corners(uvs, idx)) else {
                    continue;
                };
                let px = p.map(|q| {
                    view.to_pixel(
                        canvas.width,
                        canvas.height,
                        f64::from(q[0]),
                        f64::from(q[1]),
                    )
                });
                let Some(mut shader) = Shader::new(tex, tint, px, uv) else {
                    continue;
                };
                shader.keep_empty = !coverage_linear(cmd.blend);
                self.fill_triangle(&px, &shader, cmd.clip.is_some(), w, h, &mut bbox);
            }
            if bbox[0] <= bbox[2] {
                self.composite(cmd.blend, bbox, canvas);
            }
        }
        self.white = white;
    }

    /// How many times a clip polygon was triangulated since this renderer was made (kept
    /// between frames while the polygon only moves; see [`ClipCache`]).
    pub fn clip_triangulations(&self) -> usize {
        self.clip_cache.triangulations()
    }

    /// Converts clip polygon `c` to pixels and triangulates it into `pieces` (through the
    /// cache, keyed by the clipping slot).
    fn build_clip(&mut self, list: &DrawList, c: u32, view: &View, canvas: &Canvas) {
        self.pieces.clear();
        self.clip_px.clear();
        for p in list.clip_polygon(c).chunks_exact(2) {
            self.clip_px.push(view.to_pixel(
                canvas.width,
                canvas.height,
                f64::from(p[0]),
                f64::from(p[1]),
            ));
        }
        // Room for any cut by this polygon at once, so a piece with more corners in a later
        // frame (a deform) does not grow a buffer: a triangle cut by n edges has at most
        // n + 3 corners, n + 7 after the canvas edges. A hull (convex / inverse clips) can
        // gain vertices in a later frame: the list's clip capacity (`DrawList::for_rig`:
        // room for every clip polygon of the rig) bounds it.
        let n = self.clip_px.len().max(list.clip_vertices.capacity() / 2) + 8;
        for v in [
            &mut self.hull,
            &mut self.poly,
            &mut self.poly2,
            &mut self.tmp,
            &mut self.tmp2,
            &mut self.tmp3,
        ] {
            v.reserve(n.saturating_sub(v.len()));
        }
        self.pieces.reserve(n.saturating_sub(self.pieces.len()));
        self.piece_boxes
            .reserve(n.saturating_sub(self.piece_boxes.len()));
        let clip = list.clips.get(c as usize);
        let key = clip.map_or(u32::MAX, |p| p.slot.index() as u32);
        let (convex, inverse) = clip.map_or((false, false), |p| (p.convex, p.inverse));
        self.clip_inverse = inverse;
        if convex || inverse {
            // The draw list holds the hull already (`sinew::draw::hull`), counter-clockwise
            // in world space: only its orientation in pixels is to fix.
            self.hull.clear();
            self.hull.extend_from_slice(&self.clip_px);
            if signed_area2(&self.hull) < 0.0 {
                self.hull.reverse();
            }
            if !inverse {
                // The hull as a fan: convex pieces that tile it, no triangulation to keep.
                let h = &self.hull;
                self.pieces
                    .extend((1..h.len().saturating_sub(1)).map(|i| [h[0], h[i], h[i + 1]]));
            }
            // An inverse clip is cut edge by edge against the hull in `fill_triangle`.
        } else {
            self.clip_cache.pieces(key, &self.clip_px, &mut self.pieces);
        }
        self.piece_boxes.clear();
        self.piece_boxes.extend(self.pieces.iter().map(|t| {
            [
                t[0][0].min(t[1][0]).min(t[2][0]),
                t[0][1].min(t[1][1]).min(t[2][1]),
                t[0][0].max(t[1][0]).max(t[2][0]),
                t[0][1].max(t[1][1]).max(t[2][1]),
            ]
        }));
        self.pieces_for = Some(c);
    }

    /// Covers one triangle (clipped by the current clip pieces when `clipped`), shading into
    /// the layer and growing `bbox` (x0, y0, x1, y1 inclusive).
    fn fill_triangle(
        &mut self,
        px: &[Point; 3],
        shader: &Shader<'_>,
        clipped: bool,
        w: usize,
        h: usize,
        bbox: &mut [usize; 4],
    ) {
        let (wf, hf) = (w as f32, h as f32);
        let (xmin, xmax) = (
            px[0][0].min(px[1][0]).min(px[2][0]),
            px[0][0].max(px[1][0]).max(px[2][0]),
        );
        let (ymin, ymax) = (
            px[0][1].min(px[1][1]).min(px[2][1]),
            px[0][1].max(px[1][1]).max(px[2][1]),
        );
        if xmax <= 0.0
            || ymax <= 0.0
            || xmin >= wf
            || ymin >= hf
            || !(xmin.is_finite() && ymax.is_finite())
        {
            return;
        }
        let inside = xmin >= 0.0 && ymin >= 0.0 && xmax <= wf && ymax <= hf;
        let mut tri = *px;
        // Positive orientation for the clippers.
        if signed_area2(&tri) < 0.0 {
            tri.swap(1, 2);
        }
        let canvas_rect = [[0.0, 0.0], [wf, 0.0], [wf, hf], [0.0, hf]];
        let Renderer {
            coverage,
            layer,
            layer_cov,
            pieces,
            piece_boxes,
            hull,
            clip_inverse,
            poly,
            poly2,
            tmp,
            tmp2,
            tmp3,
            ..
        } = self;
        let mut emit = |poly: &[Point]| {
            coverage.fill(poly, w, h, |y, x0, covs| {
                shade_span(shader, layer, layer_cov, w, y, x0, covs, bbox);
            });
        };
        if clipped && *clip_inverse {
            // Pieces beyond each hull edge in turn, disjoint, so they sum to exact coverage.
            clip_outside(&tri, hull, poly, poly2, tmp, |piece| {
                if inside {
                    emit(piece);
                } else {
                    clip_convex(piece, &canvas_rect, tmp2, tmp3);
                    emit(tmp2);
                }
            });
        } else if clipped {
            for (piece, b) in pieces.iter().zip(piece_boxes.iter()) {
                // Pieces whose bounds miss the triangle's cut nothing.
                if b[0] > xmax || b[2] < xmin || b[1] > ymax || b[3] < ymin {
                    continue;
                }
                clip_convex(&tri, piece, poly, tmp);
                if poly.len() < 3 {
                    continue;
                }
                if inside {
                    emit(poly);
                } else {
                    clip_convex(poly, &canvas_rect, poly2, tmp);
                    emit(poly2);
                }
            }
        } else if inside {
            emit(&tri);
        } else {
            clip_convex(&tri, &canvas_rect, poly, tmp);
            emit(poly);
        }
    }

    /// Composites the layer inside `bbox` onto the canvas with `mode`, clearing the layer.
    fn composite(&mut self, mode: sinew::BlendMode, bbox: [usize; 4], canvas: &mut Canvas) {
        let w = canvas.width as usize;
        for y in bbox[1]..=bbox[3] {
            let row = y * w;
            for i in row + bbox[0]..=row + bbox[2] {
                let cov = self.layer_cov[i];
                if cov <= 0.0 {
                    continue;
                }
                let mut s = self.layer[i];
                if !coverage_linear(mode) {
                    // The layer holds coverage x colour: undo it, then mix by coverage.
                    s = s.map(|v| v / cov);
                    canvas.pixels[i] = blend_coverage(mode, s, cov.min(1.0), canvas.pixels[i]);
                } else {
                    if cov > 1.0 {
                        s = s.map(|v| v / cov);
                    }
                    canvas.pixels[i] = blend(mode, s, canvas.pixels[i]);
                }
                self.layer[i] = [0.0; 4];
                self.layer_cov[i] = 0.0;
            }
        }
    }
}

/// The three corners `idx` of a flat x,y array.
fn corners(flat: &[f32], idx: [usize; 3]) -> Option<[Point; 3]> {
    let get = |i: usize| flat.get(2 * i..2 * i + 2).map(|p| [p[0], p[1]]);
    Some([get(idx[0])?, get(idx[1])?, get(idx[2])?])
}

impl<'a> Shader<'a> {
    fn new(tex: &'a Texture, tint: Tint, p: [Point; 3], uv: [Point; 3]) -> Option<Self> {
        let (x0, y0) = (p[0][0], p[0][1]);
        let (e1x, e1y, e2x, e2y) = (p[1][0] - x0, p[1][1] - y0, p[2][0] - x0, p[2][1] - y0);
        let det = e1x * e2y - e2x * e1y;
        if det.abs() < 1e-9 || !det.is_finite() {
            return None;
        }
        let inv = 1.0 / det;
        // l1 = ((x - x0) * e2y - (y - y0) * e2x) / det; l2 = ((y - y0) * e1x - (x - x0) * e1y) / det.
        let l1 = [(-x0 * e2y + y0 * e2x) * inv, e2y * inv, -e2x * inv];
        let l2 = [(-y0 * e1x + x0 * e1y) * inv, -e1y * inv, e1x * inv];
        let (tw, th) = (tex.width as f32, tex.height as f32);
        Some(Shader {
            tex,
            tint,
            l1,
            l2,
            tu: uv.map(|q| q[0] * tw - 0.5),
            tv: uv.map(|q| q[1] * th - 0.5),
            keep_empty: false,
        })
    }
}

/// Shades one covered span into the layer.
#[allow(clippy::too_many_arguments)]
#[inline]
fn shade_span(
    s: &Shader<'_>,
    layer: &mut [Rgba],
    layer_cov: &mut [f32],
    w: usize,
    y: usize,
    x0: usize,
    covs: &[f32],
    bbox: &mut [usize; 4],
) {
    let yc = y as f32 + 0.5;
    let row = y * w;
    let mut first = usize::MAX;
    let mut last = 0;
    for (k, &cov) in covs.iter().enumerate() {
        if cov < 1.0 / 1024.0 {
            continue;
        }
        let x = x0 + k;
        let xc = x as f32 + 0.5;
        let mut b1 = s.l1[0] + s.l1[1] * xc + s.l1[2] * yc;
        let mut b2 = s.l2[0] + s.l2[1] * xc + s.l2[2] * yc;
        let mut b0 = 1.0 - b1 - b2;
        if b0 < 0.0 || b1 < 0.0 || b2 < 0.0 {
            // Edge pixel centred outside the triangle: sample its nearest point inside.
            (b0, b1, b2) = (b0.max(0.0), b1.max(0.0), b2.max(0.0));
            let sum = b0 + b1 + b2;
            (b0, b1, b2) = (b0 / sum, b1 / sum, b2 / sum);
        }
        let u = b0 * s.tu[0] + b1 * s.tu[1] + b2 * s.tu[2];
        let v = b0 * s.tv[0] + b1 * s.tv[1] + b2 * s.tv[2];
        let texel = s.tex.sample(u, v);
        if texel[3] <= 0.0 && !s.keep_empty {
            continue;
        }
        let c = s.tint.shade(texel);
        let i = row + x;
        let (Some(l), Some(lc)) = (layer.get_mut(i), layer_cov.get_mut(i)) else {
            continue;
        };
        for (a, b) in l.iter_mut().zip(c) {
            *a += b * cov;
        }
        *lc += cov;
        first = first.min(x);
        last = x;
    }
    if first != usize::MAX {
        bbox[0] = bbox[0].min(first);
        bbox[1] = bbox[1].min(y);
        bbox[2] = bbox[2].max(last);
        bbox[3] = bbox[3].max(y);
    }
}

#[cfg(test)]
#[path = "renderer_tests.rs"]
mod tests;
