//! A DragonBones atlas description (`*_tex.json`) as an [`Atlas`], so that the ordinary
//! atlas binding ([`crate::atlas::bind_atlas`]) gives image and mesh displays their texture
//! coordinates and `sinew render` finds the page image.
//!
//! One page: the file's `imagePath` (else the tex file's name with `.png`), `width`/`height` (else the PNG's own header).
//! Each `SubTexture {name, x, y, width, height, rotated}` becomes a region covering exactly
//! its packed rectangle (in page pixels, divided by nothing: the atlas `scale` only changes
//! display sizes, which the skeleton loader already applied). The trim (`frameX/Y`,
//! `frameWidth/Height`) is not repeated here: the loader already sized and placed each image
//! display as its trimmed rectangle, so the region's original size is its packed size.
//! A `rotated` region is stored turned by 90 degrees, as Spine's `rotate: 90`
//! (COMPAT(dragonbones): no fixture has one; the direction follows TexturePacker's, which
//! both formats share).

use crate::atlas::{Atlas, AtlasPage, AtlasRegion};
use crate::error::LoadError;
use crate::json::lenient::*;
use crate::json::*;
use serde_json::Value;
use std::path::Path;

/// Most regions of one atlas.
const MAX_REGIONS: usize = 65_535;

/// Reads `tex` (a `*_tex.json`) as an atlas; the page size falls back to the PNG's header
/// next to it.
pub fn load_tex_atlas(tex: &Path) -> Result<Atlas, LoadError> {
    let file = tex.display().to_string();
    let text = crate::error::read_text(tex, &file)?;
    let dir = tex.parent().unwrap_or(Path::new("."));
    let fallback = default_image(&file);
    let budgets = crate::budget::Budgets::DEFAULT;
    parse_tex_atlas(&text, &file, &fallback, |image| {
        // Only the image header, of a regular file (the name comes from the file: never a
        // FIFO or `/dev/zero` read whole).
        let path = dir.join(image);
        crate::budget::check_input(&path, &path.display().to_string(), &budgets).ok()?;
        let mut head = Vec::with_capacity(64);
        std::io::Read::read_to_end(
            &mut std::io::Read::take(std::fs::File::open(&path).ok()?, 64),
            &mut head,
        )
        .ok()?;
        crate::image_size(&head)
    })
}

/// The page image a `*_tex.json` named `tex` falls back to when it has no `imagePath`.
pub(crate) fn default_image(tex: &str) -> String {
    let name = crate::load::file_name_of(tex);
    name.strip_suffix(".json").unwrap_or(name).to_owned() + ".png"
}

/// Parses a `*_tex.json` text (named `source`) as an atlas. `image_size` gives the page
/// image's size when the file does not say it; `default_image` names the page when the
/// file has no `imagePath`.
pub fn parse_tex_atlas(
    text: &str,
    source: &str,
    default_image: &str,
    image_size: impl Fn(&str) -> Option<(u32, u32)>,
) -> Result<Atlas, LoadError> {
    parse_tex_atlas_with(
        text,
        source,
        default_image,
        image_size,
        &crate::budget::Budgets::DEFAULT,
    )
}

/// [`parse_tex_atlas`] within `budgets`.
pub(crate) fn parse_tex_atlas_with(
    text: &str,
    source: &str,
    default_image: &str,
    image_size: impl Fn(&str) -> Option<(u32, u32)>,
    budgets: &crate::budget::Budgets,
) -> Result<Atlas, LoadError> {
    // The same value-count and magnitude checks as every other JSON input.
    let v: Value = crate::error::parse_json(text, source, budgets)?;
    read(&v, default_image, &image_size).map_err(crate::json::in_file(source))
}

fn read(
    v: &Value,
    default_image: &str,
    image_size: &dyn Fn(&str) -> Option<(u32, u32)>,
) -> R<Atlas> {
    let at = Loc::root();
    let root = as_obj(v, &at)?;
    let image = string(root, "imagePath", default_image, &at)?;
    let (w, h) = (num_opt(root, "width", &at)?, num_opt(root, "height", &at)?);
    let (width, height) = match (w, h) {
        (Some(w), Some(h)) if w > 0.0 && h > 0.0 => (w, h),
        _ => match image_size(&image) {
            Some((w, h)) => (f64::from(w), f64::from(h)),
            None => {
                return at.err("no page width/height and no readable PNG to take them from");
            }
        },
    };
    if !(width.is_finite() && height.is_finite()) || width > 65_536.0 || height > 65_536.0 {
        return at.err("page size out of range");
    }
    let subs = arr(root, "SubTexture", &at)?;
    let sa = at.key("SubTexture");
    if subs.len() > MAX_REGIONS {
        return sa.err("too many regions");
    }
    let mut regions = Vec::with_capacity(subs.len());
    for (i, t) in subs.iter().enumerate() {
        let p = sa.index(i);
        let t = as_obj(t, &p)?;
        let int = |k: &str| -> R<i32> {
            let x = num(t, k, 0.0, &p)?;
            if !x.is_finite() || x.abs() > 1e6 {
                return p.key(k).err("out of range");
            }
            Ok(x.round() as i32)
        };
        let (x, y, rw, rh) = (int("x")?, int("y")?, int("width")?, int("height")?);
        let rotated = boolean(t, "rotated", false, &p)?;
        // Spine keeps a 90-degree region's unrotated size; DragonBones writes the packed one.
        let (w, hh) = if rotated { (rh, rw) } else { (rw, rh) };
        let (pw_px, ph_px) = (f64::from(rw), f64::from(rh));
        regions.push(AtlasRegion {
            name: string(t, "name", "", &p)?,
            page: 0,
            x,
            y,
            width: w,
            height: hh,
            original_width: w,
            original_height: hh,
            offset_x: 0,
            offset_y: 0,
            degrees: if rotated { 90 } else { 0 },
            index: -1,
            u: (f64::from(x) / width) as f32,
            v: (f64::from(y) / height) as f32,
            u2: ((f64::from(x) + pw_px) / width) as f32,
            v2: ((f64::from(y) + ph_px) / height) as f32,
        });
    }
    Ok(Atlas {
        pages: vec![AtlasPage {
            name: image,
            width: width as u32,
            height: height as u32,
            format: "RGBA8888".into(),
            min_filter: "Linear".into(),
            mag_filter: "Linear".into(),
            repeat_x: false,
            repeat_y: false,
            pma: false,
        }],
        regions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_cover_their_packed_rectangles() {
        let text = r#"{"imagePath":"a.png","width":200,"height":100,"SubTexture":[
            {"name":"r","x":10,"y":20,"width":30,"height":40},
            {"name":"t","x":0,"y":0,"width":50,"height":20,"rotated":true}]}"#;
        let a = parse_tex_atlas(text, "t.json", "x.png", |_| None).unwrap();
        assert_eq!(a.pages[0].name, "a.png");
        let r = &a.regions[0];
        assert_eq!((r.u, r.v, r.u2, r.v2), (0.05, 0.2, 0.2, 0.6));
        assert_eq!((r.original_width, r.offset_x, r.degrees), (30, 0, 0));
        let t = &a.regions[1];
        assert_eq!((t.width, t.height, t.degrees), (20, 50, 90));
        assert_eq!((t.u2, t.v2), (0.25, 0.2));
    }

    #[test]
    fn page_size_falls_back_to_the_image_and_bad_input_is_an_error() {
        let text = r#"{"SubTexture":[]}"#;
        let a = parse_tex_atlas(text, "t.json", "x.png", |n| {
            (n == "x.png").then_some((64, 32))
        })
        .unwrap();
        assert_eq!((a.pages[0].width, a.pages[0].height), (64, 32));
        assert!(parse_tex_atlas(text, "t.json", "x.png", |_| None).is_err());
        assert!(parse_tex_atlas("[", "t.json", "x.png", |_| None).is_err());
        // Numbers too large for the f32 outputs are refused with their path.
        let e = parse_tex_atlas(
            r#"{"width":64,"height":64,"SubTexture":[{"name":"r","x":1e300}]}"#,
            "t.json",
            "x.png",
            |_| None,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("$.SubTexture[0].x"), "{e}");
    }
}
