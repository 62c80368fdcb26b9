//! Texture-region geometry of attachments, as Spine computes it when a region is assigned.
//!
//! - [`region_quad`]: a region attachment's four corner offsets in bone space and their UVs
//!   (spine-ts `RegionAttachment.updateRegion`; corners BL, UL, UR, BR), taking whitespace
//!   stripping (offsets, original size) and 90-degree atlas rotation into account.
//! - [`mesh_uvs`]: a mesh's texture UVs from its region-normalised UVs (spine-ts
//!   `MeshAttachment.updateRegion`), for plain regions and for atlas regions rotated by 0,
//!   90, 180 or 270 degrees.
//! - [`sequence_path`]: the region name of a sequence frame (`Sequence.getPath`).
//!
//! Values are computed in f64 and stored as f32, as spine-ts stores them in Float32Arrays.
//! Verified by the unit tests below (closed forms for plain, trimmed and rotated regions).

use crate::raw::Sequence;
use crate::rig::{MeshAttachment, RegionAttachment, TextureRegion};

/// Corner offsets (x,y of BL, UL, UR, BR in bone space) and UVs of a region attachment
/// placed by (`x`, `y`, `rotation` degrees, `scale_x`, `scale_y`, `width`, `height`).
#[allow(clippy::too_many_arguments)]
pub fn region_quad(
    x: f64,
    y: f64,
    rotation: f64,
    scale_x: f64,
    scale_y: f64,
    width: f64,
    height: f64,
    region: &TextureRegion,
) -> ([f32; 8], [f32; 8]) {
    let ow = f64::from(region.original_width);
    let oh = f64::from(region.original_height);
    // A stripped region covers only part of the original image: scale by size / original.
    let rsx = if ow != 0.0 { width / ow * scale_x } else { 0.0 };
    let rsy = if oh != 0.0 {
        height / oh * scale_y
    } else {
        0.0
    };
    let lx = -width / 2.0 * scale_x + f64::from(region.offset_x) * rsx;
    let ly = -height / 2.0 * scale_y + f64::from(region.offset_y) * rsy;
    let lx2 = lx + f64::from(region.width) * rsx;
    let ly2 = ly + f64::from(region.height) * rsy;
    let r = rotation.to_radians();
    let (sin, cos) = r.sin_cos();
    let (lx_cos, lx_sin) = (lx * cos + x, lx * sin);
    let (ly_cos, ly_sin) = (ly * cos + y, ly * sin);
    let (lx2_cos, lx2_sin) = (lx2 * cos + x, lx2 * sin);
    let (ly2_cos, ly2_sin) = (ly2 * cos + y, ly2 * sin);
    let offsets = [
        (lx_cos - ly_sin) as f32,
        (ly_cos + lx_sin) as f32,
        (lx_cos - ly2_sin) as f32,
        (ly2_cos + lx_sin) as f32,
        (lx2_cos - ly2_sin) as f32,
        (ly2_cos + lx2_sin) as f32,
        (lx2_cos - ly_sin) as f32,
        (ly_cos + lx2_sin) as f32,
    ];
    let (u, v, u2, v2) = (region.u, region.v, region.u2, region.v2);
    let uvs = if region.degrees == 90 {
        [u2, v2, u, v2, u, v, u2, v]
    } else {
        [u, v2, u, v, u2, v, u2, v2]
    };
    (offsets, uvs)
}

/// Recomputes `offsets` and `uvs` of a region attachment for all of its `regions`.
pub fn update_region_attachment(att: &mut RegionAttachment) {
    att.offsets.clear();
    att.uvs.clear();
    for region in &att.regions {
        let (o, uv) = region_quad(
            att.x,
            att.y,
            att.rotation,
            att.scale_x,
            att.scale_y,
            att.width,
            att.height,
            region,
        );
        att.offsets.extend_from_slice(&o);
        att.uvs.extend_from_slice(&uv);
    }
}

/// Appends a mesh's texture UVs for one region. `page_size` is the atlas page size in
/// pixels for atlas regions; `None` treats the region as a plain u..u2, v..v2 rectangle
/// (Spine's path for regions that are not atlas regions).
pub fn mesh_uvs(
    region_uvs: &[f32],
    region: &TextureRegion,
    page_size: Option<(f64, f64)>,
    out: &mut Vec<f32>,
) {
    let mut u = f64::from(region.u);
    let mut v = f64::from(region.v);
    let pairs = region_uvs
        .chunks_exact(2)
        .map(|p| (f64::from(p[0]), f64::from(p[1])));
    let Some((tw, th)) = page_size.filter(|&(w, h)| w > 0.0 && h > 0.0) else {
        let (w, h) = (f64::from(region.u2) - u, f64::from(region.v2) - v);
        for (a, b) in pairs {
            out.extend_from_slice(&[(u + a * w) as f32, (v + b * h) as f32]);
        }
        return;
    };
    let (ow, oh) = (
        f64::from(region.original_width),
        f64::from(region.original_height),
    );
    let (rw, rh) = (f64::from(region.width), f64::from(region.height));
    let (ox, oy) = (f64::from(region.offset_x), f64::from(region.offset_y));
    match region.degrees {
        90 => {
            u -= (oh - oy - rh) / tw;
            v -= (ow - ox - rw) / th;
            let (w, h) = (oh / tw, ow / th);
            for (a, b) in pairs {
                out.extend_from_slice(&[(u + b * w) as f32, (v + (1.0 - a) * h) as f32]);
            }
        }
        180 => {
            u -= (ow - ox - rw) / tw;
            v -= oy / th;
            let (w, h) = (ow / tw, oh / th);
            for (a, b) in pairs {
                out.extend_from_slice(&[(u + (1.0 - a) * w) as f32, (v + (1.0 - b) * h) as f32]);
            }
        }
        270 => {
            u -= oy / tw;
            v -= ox / th;
            let (w, h) = (oh / tw, ow / th);
            for (a, b) in pairs {
                out.extend_from_slice(&[(u + (1.0 - b) * w) as f32, (v + a * h) as f32]);
            }
        }
        _ => {
            u -= ox / tw;
            v -= (oh - oy - rh) / th;
            let (w, h) = (ow / tw, oh / th);
            for (a, b) in pairs {
                out.extend_from_slice(&[(u + a * w) as f32, (v + b * h) as f32]);
            }
        }
    }
}

/// Recomputes a mesh's `uvs` for all of its `regions`; `page_size(page)` gives atlas page
/// sizes (or `None` for plain regions).
pub fn update_mesh_attachment(
    mesh: &mut MeshAttachment,
    page_size: impl Fn(u32) -> Option<(f64, f64)>,
) {
    mesh.uvs.clear();
    for region in &mesh.regions {
        mesh_uvs(
            &mesh.region_uvs,
            region,
            page_size(region.page),
            &mut mesh.uvs,
        );
    }
}

/// The region name of frame `index` of a sequence: `path` followed by `start + index`
/// zero-padded to `digits` (Spine `Sequence.getPath`).
pub fn sequence_path(path: &str, sequence: &Sequence, index: u32) -> String {
    let frame = u64::from(sequence.start) + u64::from(index);
    format!("{path}{frame:0width$}", width = sequence.digits as usize)
}

/// Region names an attachment with this path and sequence needs (one without a sequence).
pub fn region_names(path: &str, sequence: Option<&Sequence>) -> Vec<String> {
    match sequence {
        None => vec![path.to_owned()],
        Some(s) => (0..s.count).map(|i| sequence_path(path, s, i)).collect(),
    }
}

/// Where the builder finds texture regions by name: an atlas
/// ([`BuildInputs::regions`](super::BuildInputs::regions); `sinew_formats`'s `Atlas`
/// implements it).
///
/// Owner: the builder (`build`), at load time.
pub trait RegionSource {
    /// The region called `name`, or `None` when there is none.
    fn region(&self, name: &str) -> Option<TextureRegion>;
    /// The size of atlas page `page` in pixels, or `None`.
    fn page_size(&self, page: u32) -> Option<(f64, f64)>;
}

/// Replaces every region and mesh attachment's texture regions by `source`'s (one per
/// sequence frame) and recomputes their geometry and UVs (spine-ts
/// `AtlasAttachmentLoader`). The builder does this for
/// [`BuildInputs::regions`](super::BuildInputs::regions); a tool re-binding a built rig to another atlas of the
/// same names (a texture swap) calls it directly. Stops at the first region `source` lacks:
/// a [`ProblemKind::UnknownName`](super::ProblemKind::UnknownName) problem of
/// [`BuildPart::Atlas`](super::BuildPart::Atlas) naming the attachment (`item`) and the
/// region (`name`).
pub fn bind_regions(
    rig: &mut crate::rig::Rig,
    source: &dyn RegionSource,
) -> Result<(), super::BuildProblem> {
    use crate::rig::AttachmentKind;
    let lookup = |regions: &mut [TextureRegion], attachment: &str| {
        for r in regions.iter_mut() {
            *r = source.region(&r.name).ok_or_else(|| {
                super::BuildProblem::unknown(
                    format!("attachment `{attachment}`"),
                    "atlas region",
                    &r.name,
                )
                .in_part(super::BuildPart::Atlas)
            })?;
        }
        Ok(())
    };
    for att in &mut rig.attachments {
        match &mut att.kind {
            AttachmentKind::Region(r) => {
                lookup(&mut r.regions, &att.name)?;
                update_region_attachment(r);
            }
            AttachmentKind::Mesh(m) => {
                lookup(&mut m.regions, &att.name)?;
                update_mesh_attachment(m, |page| source.page_size(page));
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f32], b: &[f32]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
    }

    #[test]
    fn plain_quad_is_centered_rectangle() {
        let r = TextureRegion::full("a");
        let (o, uv) = region_quad(10.0, 0.0, 0.0, 1.0, 1.0, 40.0, 20.0, &r);
        assert!(
            close(&o, &[-10.0, -10.0, -10.0, 10.0, 30.0, 10.0, 30.0, -10.0]),
            "{o:?}"
        );
        assert_eq!(uv, [0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0]);
    }

    #[test]
    fn rotated_scaled_quad() {
        // 90 degrees maps (x, y) to (-y, x); scaleX -1 mirrors first.
        let r = TextureRegion::full("a");
        let (o, _) = region_quad(0.0, 0.0, 90.0, -1.0, 1.0, 4.0, 2.0, &r);
        // Local corners: BL (2,-1), UL (2,1), UR (-2,1), BR (-2,-1) rotated by 90 degrees.
        assert!(
            close(&o, &[1.0, 2.0, -1.0, 2.0, -1.0, -2.0, 1.0, -2.0]),
            "{o:?}"
        );
    }

    #[test]
    fn trimmed_region_shrinks_quad() {
        // Original 100x100, packed 50x40 at offset (10, 20): the quad covers that part.
        let mut r = TextureRegion::full("a");
        r.original_width = 100.0;
        r.original_height = 100.0;
        r.width = 50.0;
        r.height = 40.0;
        r.offset_x = 10.0;
        r.offset_y = 20.0;
        let (o, _) = region_quad(0.0, 0.0, 0.0, 1.0, 1.0, 200.0, 100.0, &r);
        // x: -100 + 10*2 = -80 .. -80 + 50*2 = 20; y: -50 + 20 = -30 .. 10.
        assert!(
            close(&o, &[-80.0, -30.0, -80.0, 10.0, 20.0, 10.0, 20.0, -30.0]),
            "{o:?}"
        );
    }

    #[test]
    fn rotated_atlas_region_uvs() {
        let mut r = TextureRegion::full("a");
        r.degrees = 90;
        r.u = 0.25;
        r.v = 0.5;
        r.u2 = 0.5;
        r.v2 = 1.0;
        let (_, uv) = region_quad(0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, &r);
        assert_eq!(uv, [0.5, 1.0, 0.25, 1.0, 0.25, 0.5, 0.5, 0.5]);
    }

    #[test]
    fn mesh_uvs_plain_and_atlas() {
        let mut r = TextureRegion::full("a");
        r.u = 0.5;
        r.u2 = 1.0;
        let mut out = Vec::new();
        mesh_uvs(&[0.0, 0.0, 1.0, 1.0, 0.5, 0.5], &r, None, &mut out);
        assert_eq!(out, vec![0.5, 0.0, 1.0, 1.0, 0.75, 0.5]);
        // Atlas region at (64, 32), 32x16 px on a 128x64 page, untrimmed, unrotated.
        let mut a = TextureRegion::full("a");
        (a.u, a.v, a.u2, a.v2) = (0.5, 0.5, 0.75, 0.75);
        (a.width, a.height, a.original_width, a.original_height) = (32.0, 16.0, 32.0, 16.0);
        out.clear();
        mesh_uvs(&[0.0, 0.0, 1.0, 1.0], &a, Some((128.0, 64.0)), &mut out);
        assert!(close(&out, &[0.5, 0.5, 0.75, 0.75]), "{out:?}");
        // Rotated 90: packed 16x32 px (u..0.625, v..1.0); uv (0,0) -> (u, v2), (1,1) -> (u2, v).
        a.degrees = 90;
        (a.u2, a.v2) = (0.5 + 16.0 / 128.0, 0.5 + 32.0 / 64.0);
        out.clear();
        mesh_uvs(&[0.0, 0.0, 1.0, 1.0], &a, Some((128.0, 64.0)), &mut out);
        assert!(close(&out, &[0.5, 1.0, 0.625, 0.5]), "{out:?}");
    }

    #[test]
    fn sequence_paths_are_zero_padded() {
        let s = Sequence {
            count: 3,
            start: 1,
            digits: 2,
            setup_index: 0,
        };
        assert_eq!(
            region_names("seq", Some(&s)),
            vec!["seq01", "seq02", "seq03"]
        );
        let s = Sequence {
            count: 1,
            start: 100,
            digits: 2,
            setup_index: 0,
        };
        assert_eq!(sequence_path("p", &s, 0), "p100");
        assert_eq!(region_names("p", None), vec!["p"]);
    }
}
