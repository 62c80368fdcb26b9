//! The libgdx/Spine `.atlas` text format: pages and the regions packed on them.
//!
//! Follows spine-ts 4.2 `TextureAtlas`: optional header entries, then per page a name line
//! and `key: v1, v2, ...` entries (`size`, `format`, `filter`, `repeat`, `pma`), then per
//! region a name line and entries (`bounds` or `xy`+`size`, `offsets` or `offset`+`orig`,
//! `rotate` true/false/degrees, `index`; others such as `split`/`pad` are ignored). A blank
//! line ends a page. u/v/u2/v2 are computed as the official runtime does (width and height
//! swap on the page for 90-degree regions). [`bind_atlas`] (in `bind.rs`) puts the regions
//! into a built rig.
//!
//! Verified by the unit tests below and `tests/all/atlas.rs` (every fixture atlas parses; UVs
//! checked by hand on known regions).

use crate::error::LoadError;
use sinew::rig::TextureRegion;
use std::collections::HashMap;
use std::path::Path;

mod bind;
pub use bind::bind_atlas;

/// A parsed texture atlas.
///
/// Owner: the loaders (`sinew-formats`), at load time; the builder binds it (`build::BuildInputs::regions`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Atlas {
    /// Texture pages in file order.
    pub pages: Vec<AtlasPage>,
    /// Regions in file order.
    pub regions: Vec<AtlasRegion>,
}

/// One texture page (image file).
///
/// Owner: the loaders (`sinew-formats`), at load time.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AtlasPage {
    /// Image file name.
    pub name: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Pixel format as written (e.g. `RGBA8888`).
    pub format: String,
    /// Minification filter as written (e.g. `Linear`).
    pub min_filter: String,
    /// Magnification filter as written.
    pub mag_filter: String,
    /// Repeat horizontally (`repeat: x` or `xy`).
    pub repeat_x: bool,
    /// Repeat vertically.
    pub repeat_y: bool,
    /// Premultiplied alpha.
    pub pma: bool,
}

/// One packed region.
///
/// Owner: the loaders (`sinew-formats`), at load time.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AtlasRegion {
    /// Region name (what attachments look up).
    pub name: String,
    /// Index into [`Atlas::pages`].
    pub page: u32,
    /// Left edge on the page, pixels.
    pub x: i32,
    /// Top edge on the page, pixels (y down).
    pub y: i32,
    /// Packed width before rotation, pixels.
    pub width: i32,
    /// Packed height before rotation, pixels.
    pub height: i32,
    /// Width before whitespace stripping.
    pub original_width: i32,
    /// Height before whitespace stripping.
    pub original_height: i32,
    /// Left whitespace stripped, pixels.
    pub offset_x: i32,
    /// Bottom whitespace stripped, pixels.
    pub offset_y: i32,
    /// Rotation on the page, degrees (90 for `rotate: true`).
    pub degrees: i32,
    /// Frame index (-1 when none).
    pub index: i32,
    /// u of the top-left corner.
    pub u: f32,
    /// v of the top-left corner.
    pub v: f32,
    /// u of the bottom-right corner.
    pub u2: f32,
    /// v of the bottom-right corner.
    pub v2: f32,
}

impl AtlasRegion {
    /// This region as the runtime's [`TextureRegion`].
    pub fn texture_region(&self) -> TextureRegion {
        TextureRegion {
            name: self.name.clone(),
            page: self.page,
            u: self.u,
            v: self.v,
            u2: self.u2,
            v2: self.v2,
            width: self.width as f32,
            height: self.height as f32,
            original_width: self.original_width as f32,
            original_height: self.original_height as f32,
            offset_x: self.offset_x as f32,
            offset_y: self.offset_y as f32,
            degrees: self.degrees,
        }
    }
}

impl Atlas {
    /// The first region with this name (Spine `findRegion`).
    pub fn find_region(&self, name: &str) -> Option<&AtlasRegion> {
        self.regions.iter().find(|r| r.name == name)
    }

    /// Region indices by name (first one wins), for many lookups.
    pub fn region_index(&self) -> HashMap<&str, usize> {
        let mut map = HashMap::with_capacity(self.regions.len());
        for (i, r) in self.regions.iter().enumerate().rev() {
            map.insert(r.name.as_str(), i);
        }
        map
    }

    /// This atlas as the builder's region source
    /// ([`sinew::build::BuildInputs::regions`]): regions by name, page sizes.
    pub fn by_name(&self) -> AtlasRegions<'_> {
        AtlasRegions {
            atlas: self,
            index: self.region_index(),
        }
    }
}

/// An [`Atlas`] indexed by region name, for the builder ([`Atlas::by_name`]).
///
/// Owner: the loaders (`sinew-formats`), at load time (the builder's region source).
#[derive(Debug)]
pub struct AtlasRegions<'a> {
    atlas: &'a Atlas,
    index: HashMap<&'a str, usize>,
}

impl sinew::build::RegionSource for AtlasRegions<'_> {
    fn region(&self, name: &str) -> Option<TextureRegion> {
        let &i = self.index.get(name)?;
        Some(self.atlas.regions[i].texture_region())
    }

    fn page_size(&self, page: u32) -> Option<(f64, f64)> {
        let p = self.atlas.pages.get(page as usize)?;
        Some((f64::from(p.width), f64::from(p.height)))
    }
}

/// Reads and parses an `.atlas` file.
pub fn load_atlas(path: &Path) -> Result<Atlas, LoadError> {
    let file = path.display().to_string();
    let text = crate::error::read_text(path, &file)?;
    parse_atlas(&text, &file)
}

/// A `key: v1, v2, v3, v4` line: the key and up to four values (Spine `readEntry`).
fn entry(line: &str) -> Option<(&str, [&str; 4], usize)> {
    let line = line.trim();
    let colon = line.find(':')?;
    let key = line[..colon].trim();
    let mut values = [""; 4];
    let mut n = 0;
    let mut rest = &line[colon + 1..];
    while n < 4 {
        match rest.find(',') {
            Some(c) if n < 3 => {
                values[n] = rest[..c].trim();
                rest = &rest[c + 1..];
                n += 1;
            }
            _ => {
                // The last value ends at the next comma: `readEntry` keeps at most four.
                values[n] = rest.split(',').next().unwrap_or("").trim();
                n += 1;
                break;
            }
        }
    }
    Some((key, values, n))
}

/// Parses the text of an `.atlas`; `source` names it in errors.
pub fn parse_atlas(text: &str, source: &str) -> Result<Atlas, LoadError> {
    let err = |line: usize, message: String| LoadError::Atlas {
        file: source.to_owned(),
        line,
        message,
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut atlas = Atlas::default();
    let mut i = 0;
    while i < lines.len() && lines[i].trim().is_empty() {
        i += 1;
    }
    // Header entries before the first page are ignored.
    while i < lines.len() && !lines[i].trim().is_empty() && entry(lines[i]).is_some() {
        i += 1;
    }
    let int = |s: &str, line: usize, what: &str| -> Result<i32, LoadError> {
        s.parse::<i32>().map_err(|_| {
            err(
                line + 1,
                format!("`{what}` value `{s}` is not a whole number"),
            )
        })
    };
    let mut page: Option<usize> = None;
    while i < lines.len() {
        let line = lines[i].trim();
        if line.is_empty() {
            page = None;
            i += 1;
            continue;
        }
        let Some(page_index) = page else {
            let mut p = AtlasPage {
                name: line.to_owned(),
                ..Default::default()
            };
            i += 1;
            while let Some((key, v, n)) = lines.get(i).and_then(|l| entry(l)) {
                match key {
                    "size" if n >= 2 => {
                        let (w, h) = (int(v[0], i, key)?, int(v[1], i, key)?);
                        if w <= 0 || h <= 0 {
                            return Err(err(i + 1, format!("page size {w}x{h} must be positive")));
                        }
                        (p.width, p.height) = (w as u32, h as u32);
                    }
                    "format" => p.format = v[0].to_owned(),
                    "filter" => (p.min_filter, p.mag_filter) = (v[0].to_owned(), v[1].to_owned()),
                    "repeat" => (p.repeat_x, p.repeat_y) = (v[0].contains('x'), v[0].contains('y')),
                    "pma" => p.pma = v[0] == "true",
                    _ => {}
                }
                i += 1;
            }
            atlas.pages.push(p);
            page = Some(atlas.pages.len() - 1);
            continue;
        };
        let start = i;
        let mut r = AtlasRegion {
            name: line.to_owned(),
            page: page_index as u32,
            index: -1,
            ..Default::default()
        };
        i += 1;
        while let Some((key, v, n)) = lines.get(i).and_then(|l| entry(l)) {
            let need = |k: usize| {
                if n >= k {
                    Ok(())
                } else {
                    Err(err(i + 1, format!("`{key}` needs {k} values")))
                }
            };
            match key {
                "xy" => {
                    need(2)?;
                    (r.x, r.y) = (int(v[0], i, key)?, int(v[1], i, key)?);
                }
                "size" => {
                    need(2)?;
                    (r.width, r.height) = (int(v[0], i, key)?, int(v[1], i, key)?);
                }
                "bounds" => {
                    need(4)?;
                    (r.x, r.y) = (int(v[0], i, key)?, int(v[1], i, key)?);
                    (r.width, r.height) = (int(v[2], i, key)?, int(v[3], i, key)?);
                }
                "offset" => {
                    need(2)?;
                    (r.offset_x, r.offset_y) = (int(v[0], i, key)?, int(v[1], i, key)?);
                }
                "orig" => {
                    need(2)?;
                    (r.original_width, r.original_height) =
                        (int(v[0], i, key)?, int(v[1], i, key)?);
                }
                "offsets" => {
                    need(4)?;
                    (r.offset_x, r.offset_y) = (int(v[0], i, key)?, int(v[1], i, key)?);
                    (r.original_width, r.original_height) =
                        (int(v[2], i, key)?, int(v[3], i, key)?);
                }
                "rotate" => {
                    r.degrees = match v[0] {
                        "true" => 90,
                        "false" => 0,
                        d => int(d, i, key)?,
                    }
                }
                "index" => r.index = int(v[0], i, key)?,
                _ => {}
            }
            i += 1;
        }
        if r.width < 0 || r.height < 0 {
            return Err(err(
                start + 1,
                format!("region `{}` has a negative size", r.name),
            ));
        }
        if r.original_width == 0 && r.original_height == 0 {
            (r.original_width, r.original_height) = (r.width, r.height);
        }
        let p = &atlas.pages[page_index];
        if p.width == 0 || p.height == 0 {
            return Err(err(
                start + 1,
                format!(
                    "region `{}` is on page `{}`, which has no size",
                    r.name, p.name
                ),
            ));
        }
        let (pw, ph) = (f64::from(p.width), f64::from(p.height));
        let (x, y, w, h) = (
            f64::from(r.x),
            f64::from(r.y),
            f64::from(r.width),
            f64::from(r.height),
        );
        r.u = (x / pw) as f32;
        r.v = (y / ph) as f32;
        // A 90-degree region lies on the page with its width and height swapped.
        let (pw_px, ph_px) = if r.degrees == 90 { (h, w) } else { (w, h) };
        r.u2 = ((x + pw_px) / pw) as f32;
        r.v2 = ((y + ph_px) / ph) as f32;
        atlas.regions.push(r);
    }
    Ok(atlas)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const TEXT: &str = "\nhead.png\n\tsize: 256, 128\n\tformat: RGBA8888\n\tfilter: Linear, MipMapLinearLinear\n\
        \trepeat: xy\n\tpma: true\neye\n\tbounds: 10, 20, 30, 40\n\trotate: 90\n\
        mouth\n\txy: 64, 0\n\tsize: 32, 16\n\torig: 40, 20\n\toffset: 4, 2\n\tindex: 3\n\tsplit: 1, 2, 3, 4\n\
        \nsecond.png\nsize: 64,64\nlegacy\n  bounds: 0,0,64,64\n  offsets: 1, 2, 66, 68\n  rotate: false\n";

    #[test]
    fn parses_pages_and_regions() {
        let a = parse_atlas(TEXT, "t.atlas").unwrap();
        assert_eq!(a.pages.len(), 2);
        let p = &a.pages[0];
        assert_eq!(
            (p.width, p.height, p.pma, p.repeat_x, p.repeat_y),
            (256, 128, true, true, true)
        );
        assert_eq!(
            (p.min_filter.as_str(), p.mag_filter.as_str()),
            ("Linear", "MipMapLinearLinear")
        );
        let eye = a.find_region("eye").unwrap();
        assert_eq!(
            (eye.degrees, eye.original_width, eye.original_height),
            (90, 30, 40)
        );
        // Rotated: the page rectangle is 40 wide and 30 tall.
        assert_eq!(
            (eye.u, eye.v, eye.u2, eye.v2),
            (10.0 / 256.0, 20.0 / 128.0, 50.0 / 256.0, 50.0 / 128.0)
        );
        let mouth = a.find_region("mouth").unwrap();
        assert_eq!(
            (
                mouth.x,
                mouth.width,
                mouth.original_width,
                mouth.offset_y,
                mouth.index
            ),
            (64, 32, 40, 2, 3)
        );
        assert_eq!((mouth.u2, mouth.v2), (96.0 / 256.0, 16.0 / 128.0));
        let legacy = a.find_region("legacy").unwrap();
        assert_eq!(
            (
                legacy.page,
                legacy.offset_x,
                legacy.original_height,
                legacy.degrees
            ),
            (1, 1, 68, 0)
        );
    }

    #[test]
    fn bad_numbers_name_the_line() {
        let e = parse_atlas("p.png\nsize: 8, 8\nr\nbounds: 1, x, 2, 3\n", "bad.atlas").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad.atlas: line 4: `bounds` value `x` is not a whole number"
        );
        let e = parse_atlas("p.png\nr\nbounds: 1, 1, 2, 3\n", "nosize.atlas").unwrap_err();
        assert!(e.to_string().contains("no size"), "{e}");
    }

    #[test]
    fn entry_splits_like_spine() {
        assert_eq!(entry(" a : 1 , 2 "), Some(("a", ["1", "2", "", ""], 2)));
        assert_eq!(entry("a: 1,2,3,4,5").map(|e| e.2), Some(4));
        assert_eq!(entry("name"), None);
    }
}
