//! What a file is, from its bytes alone (never its name): the rig formats sinew loads, and
//! the files people hand a runtime by mistake (an atlas page, a zip of an export, the atlas
//! or physics file instead of the skeleton), so that an error can say what the file really
//! is. Also the image header reader every loader uses to check texture sizes before
//! anything is decoded.
//!
//! Detection reads at most the whole input once, allocates nothing, and never parses a
//! document: JSON is told by its top-level keys, found in one pass over the bytes (a parse
//! would cost as much memory as the load itself, before any budget is checked).
//! Verified by the unit tests below and `tests/all/load_bytes.rs` (every example and fixture).

/// What a file's content is.
///
/// Owner: the loaders (`sinew-formats`), at load time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// A Spine 4.x JSON skeleton (a JSON object that is none of the JSON formats below).
    SpineJson,
    /// A Spine binary skeleton (`.skel`): an 8-byte hash, then a version string.
    SpineSkel,
    /// A DragonBones skeleton (`*_ske.json`): a JSON object with an `armature` array.
    DragonBones,
    /// A DragonBones texture atlas (`*_tex.json`): a JSON object with a `SubTexture` array.
    DragonBonesTex,
    /// An Inochi2D puppet (`.inp` / `.inx`): the `TRNSRTS` container.
    Inochi2D,
    /// A libgdx / Spine texture atlas (`.atlas` text).
    SpineAtlas,
    /// A Live2D Cubism physics file (`*.physics3.json`): a `PhysicsSettings` array.
    Physics3,
    /// A sinew rig-extras file (`sinewExtras`, or `jiggle` / `follow` without `bones`).
    RigExtras,
    /// A PNG image.
    Png,
    /// A JPEG image.
    Jpeg,
    /// A GIF image (an animation's render, renamed).
    Gif,
    /// A WebP image.
    WebP,
    /// A zip archive (an export folder zipped, a `.spine` project).
    Zip,
    /// JSON that is not an object (an array, a number, ...).
    OtherJson,
    /// Anything else.
    Unknown,
}

impl Format {
    /// What the content is, in words, for error messages (`a PNG image`, ...).
    pub fn describe(self) -> &'static str {
        match self {
            Format::SpineJson => "a Spine JSON skeleton",
            Format::SpineSkel => "a Spine binary skeleton (.skel)",
            Format::DragonBones => "a DragonBones skeleton (_ske.json)",
            Format::DragonBonesTex => {
                "a DragonBones texture atlas (_tex.json; load its _ske.json instead)"
            }
            Format::Inochi2D => "an Inochi2D puppet",
            Format::SpineAtlas => "a Spine texture atlas (load its skeleton instead)",
            Format::Physics3 => {
                "a Cubism physics3 file (give it as `LoadOptions::physics3` of its puppet)"
            }
            Format::RigExtras => "a rig-extras file (give it as `LoadOptions::extras` of its rig)",
            Format::Png => "a PNG image",
            Format::Jpeg => "a JPEG image",
            Format::Gif => "a GIF image",
            Format::WebP => "a WebP image",
            Format::Zip => "a zip archive (unpack it and load the skeleton inside)",
            Format::OtherJson => "JSON that is not an object",
            Format::Unknown => "content of no known format",
        }
    }

    /// Whether [`crate::load_bytes`] loads this as a rig.
    pub fn is_rig(self) -> bool {
        matches!(
            self,
            Format::SpineJson | Format::SpineSkel | Format::DragonBones | Format::Inochi2D
        )
    }

    /// The family name the CLI's messages use (`a Spine skeleton`, ...).
    pub fn family(self) -> &'static str {
        match self {
            Format::SpineJson | Format::SpineSkel => "a Spine skeleton",
            Format::DragonBones => "a DragonBones skeleton",
            Format::Inochi2D => "an Inochi2D puppet",
            other => other.describe(),
        }
    }
}

/// What `bytes` are, from their content alone (see [`Format`]).
pub fn detect(bytes: &[u8]) -> Format {
    if bytes.starts_with(b"TRNSRTS") {
        return Format::Inochi2D;
    }
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Format::Png;
    }
    if bytes.starts_with(b"\xff\xd8\xff") {
        return Format::Jpeg;
    }
    if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        return Format::Gif;
    }
    if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP".as_slice()) {
        return Format::WebP;
    }
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        return Format::Zip;
    }
    let body = bytes
        .strip_prefix(b"\xef\xbb\xbf".as_slice())
        .unwrap_or(bytes);
    let first = body.iter().find(|b| !b.is_ascii_whitespace()).copied();
    let text = std::str::from_utf8(body).is_ok();
    if text && first == Some(b'{') {
        return json_object(body);
    }
    if text && matches!(first, Some(b'[' | b'"' | b'-' | b'0'..=b'9')) {
        return Format::OtherJson;
    }
    if is_skel(bytes) {
        return Format::SpineSkel;
    }
    if text && is_atlas(body) {
        return Format::SpineAtlas;
    }
    Format::Unknown
}

/// The JSON object formats, by their top-level keys.
fn json_object(text: &[u8]) -> Format {
    const KEYS: [&[u8]; 7] = [
        b"armature",
        b"SubTexture",
        b"PhysicsSettings",
        b"sinewExtras",
        b"jiggle",
        b"follow",
        b"bones",
    ];
    let mut found = [None; KEYS.len()];
    top_level_values(text, &KEYS, &mut found);
    let [armature, sub, physics, extras, jiggle, follow, bones] = found;
    if armature == Some(b'[') {
        Format::DragonBones
    } else if sub == Some(b'[') {
        Format::DragonBonesTex
    } else if physics == Some(b'[') {
        Format::Physics3
    } else if extras.is_some() || ((jiggle.is_some() || follow.is_some()) && bones.is_none()) {
        Format::RigExtras
    } else {
        // Any other object: the Spine loader says what is wrong with it, by JSON path.
        Format::SpineJson
    }
}

/// For each of `keys` found at the top level of the JSON object in `text`, the first byte of
/// its value (`[`, `{`, `"`, a digit, ...), in one pass over the bytes without parsing.
fn top_level_values(text: &[u8], keys: &[&[u8]], found: &mut [Option<u8>]) {
    let mut depth = 0u32;
    let mut i = 0;
    // After a top-level key: its index in `keys` (the value's first byte decides).
    let mut after_key: Option<Option<usize>> = None;
    while i < text.len() {
        let b = text[i];
        match b {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < text.len() && text[i] != b'"' {
                    i += if text[i] == b'\\' { 2 } else { 1 };
                }
                let s = text.get(start..i.min(text.len())).unwrap_or_default();
                match after_key.take() {
                    Some(Some(k)) => found[k] = found[k].or(Some(b'"')),
                    Some(None) => {}
                    None if depth == 1 => {
                        after_key = Some(keys.iter().position(|k| *k == s));
                    }
                    None => {}
                }
            }
            b':' => {}
            b if b.is_ascii_whitespace() => {}
            _ => {
                if let Some(Some(k)) = after_key.take() {
                    found[k] = found[k].or(Some(b));
                }
                after_key = None;
                match b {
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
        }
        i += 1;
    }
}

/// A Spine binary export: two 32-bit hash words, then the version as a Spine string (a
/// varint length plus one, then UTF-8) of the form `digits.digits...`.
fn is_skel(bytes: &[u8]) -> bool {
    let Some(rest) = bytes.get(8..) else {
        return false;
    };
    let (mut len, mut shift, mut at) = (0usize, 0, 0);
    loop {
        let Some(&b) = rest.get(at) else {
            return false;
        };
        len |= usize::from(b & 0x7f) << shift;
        at += 1;
        if b & 0x80 == 0 || shift >= 28 {
            break;
        }
        shift += 7;
    }
    let Some(version) = len
        .checked_sub(1)
        .and_then(|n| rest.get(at..at.checked_add(n)?))
    else {
        return false;
    };
    let mut parts = version.split(|&b| b == b'.');
    let numeric =
        |p: Option<&[u8]>| p.is_some_and(|p| !p.is_empty() && p.iter().all(u8::is_ascii_digit));
    (2..=32).contains(&version.len()) && numeric(parts.next()) && numeric(parts.next())
}

/// A libgdx atlas: a page name line followed by the page's `key: value` header lines.
fn is_atlas(text: &[u8]) -> bool {
    let mut lines = text
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .filter(|l| !l.is_empty());
    let (Some(page), Some(header)) = (lines.next(), lines.next()) else {
        return false;
    };
    !page.contains(&b':')
        && [
            b"size:".as_slice(),
            b"format:",
            b"filter:",
            b"repeat:",
            b"pma:",
        ]
        .iter()
        .any(|k| header.starts_with(k))
}

/// The width and height an encoded image declares in its header (PNG, JPEG, or TGA by its
/// header), without decoding it; `None` for other formats (the decoder checks those).
pub fn image_size(head: &[u8]) -> Option<(u32, u32)> {
    if head.starts_with(b"\x89PNG\r\n\x1a\n") && head.get(12..16) == Some(b"IHDR") {
        let be = |at: usize| {
            head.get(at..at + 4)
                .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
        };
        return Some((be(16)?, be(20)?));
    }
    if head.starts_with(b"\xff\xd8") {
        return jpeg_size(head);
    }
    // A TGA header: colour map type 0 or 1, an image type of 1-3 or 9-11.
    if head.len() >= 18 && head[1] <= 1 && matches!(head[2], 1..=3 | 9..=11) {
        let le = |at: usize| u32::from(u16::from_le_bytes([head[at], head[at + 1]]));
        return Some((le(12), le(14)));
    }
    None
}

/// A JPEG's size from its first start-of-frame marker, walking the segments.
fn jpeg_size(b: &[u8]) -> Option<(u32, u32)> {
    let mut at = 2;
    loop {
        while *b.get(at)? != 0xff {
            at += 1;
        }
        while *b.get(at)? == 0xff {
            at += 1;
        }
        let marker = *b.get(at)?;
        at += 1;
        if matches!(marker, 0xd8 | 0x01 | 0xd0..=0xd7) {
            continue;
        }
        let len = usize::from(u16::from_be_bytes([*b.get(at)?, *b.get(at + 1)?]));
        if matches!(marker, 0xc0..=0xcf) && !matches!(marker, 0xc4 | 0xc8 | 0xcc) {
            let h = u16::from_be_bytes([*b.get(at + 3)?, *b.get(at + 4)?]);
            let w = u16::from_be_bytes([*b.get(at + 5)?, *b.get(at + 6)?]);
            return Some((u32::from(w), u32::from(h)));
        }
        at += len.max(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_formats_are_told_by_their_top_level_keys() {
        let cases: [(&[u8], Format); 9] = [
            (
                br#"{"skeleton": {"spine": "4.2"}, "bones": []}"#,
                Format::SpineJson,
            ),
            (b"\xef\xbb\xbf{ \"armature\" : [{}]}", Format::DragonBones),
            (
                br#"{"imagePath": "a.png", "SubTexture": []}"#,
                Format::DragonBonesTex,
            ),
            (
                br#"{"Version": 3, "PhysicsSettings": []}"#,
                Format::Physics3,
            ),
            (br#"{"sinewExtras": 1}"#, Format::RigExtras),
            (br#"{"jiggle": {}}"#, Format::RigExtras),
            // Nested keys, string values and escaped quotes do not count.
            (
                br#"{"bones": [{"armature": []}], "jiggle": {}}"#,
                Format::SpineJson,
            ),
            (
                br#"{"a\"b": "armature", "x": {"SubTexture": []}}"#,
                Format::SpineJson,
            ),
            (b"[1, 2]", Format::OtherJson),
        ];
        for (bytes, want) in cases {
            assert_eq!(detect(bytes), want, "{}", String::from_utf8_lossy(bytes));
        }
        // `armature` holding an object is not DragonBones.
        assert_eq!(detect(br#"{"armature": {}}"#), Format::SpineJson);
    }

    #[test]
    fn binary_formats_by_their_magic() {
        assert_eq!(detect(b"TRNSRTS\0rest"), Format::Inochi2D);
        assert_eq!(detect(b"\x89PNG\r\n\x1a\n...."), Format::Png);
        assert_eq!(detect(b"\xff\xd8\xff\xe0...."), Format::Jpeg);
        assert_eq!(detect(b"PK\x03\x04...."), Format::Zip);
        assert_eq!(detect(b"GIF89a\x01\x00\x01\x00"), Format::Gif);
        assert_eq!(detect(b"GIF87a"), Format::Gif);
        assert_eq!(detect(b"RIFF\x10\x00\x00\x00WEBPVP8 "), Format::WebP);
        assert_eq!(detect(b"RIFF\x10\x00\x00\x00WAVEfmt "), Format::Unknown);
        // A .skel: 8 hash bytes, then "4.2.11" as a Spine string (length + 1 first).
        let mut skel = vec![1, 2, 3, 4, 5, 6, 7, 8, 7];
        skel.extend_from_slice(b"4.2.11");
        skel.extend_from_slice(&[0xff, 0x00, 0x80]);
        assert_eq!(detect(&skel), Format::SpineSkel);
        skel[9] = b'x';
        assert_eq!(detect(&skel), Format::Unknown);
        assert_eq!(detect(b"\x00\x01 not a puppet at all"), Format::Unknown);
        assert_eq!(detect(b""), Format::Unknown);
        let atlas = b"\nhero.png\n\tsize: 256, 512\n\tfilter: Linear, Linear\narm\n";
        assert_eq!(detect(atlas), Format::SpineAtlas);
        assert_eq!(detect(b"just some words\nand more"), Format::Unknown);
    }

    #[test]
    fn reads_image_sizes_from_headers() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend_from_slice(&11000u32.to_be_bytes());
        png.extend_from_slice(&7u32.to_be_bytes());
        assert_eq!(image_size(&png), Some((11000, 7)));
        let mut tga = vec![0u8, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        tga.extend_from_slice(&[0x10, 0x27, 3, 0, 32, 8]);
        assert_eq!(image_size(&tga), Some((10000, 3)));
        // JPEG: SOI, an APP0 segment of 4 bytes, then SOF0 (precision, height 3, width 5).
        let jpeg = [
            0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 3, 0, 5, 1,
        ];
        assert_eq!(image_size(&jpeg), Some((5, 3)));
        assert_eq!(image_size(&jpeg[..12]), None);
        assert_eq!(image_size(b"GIF89a..."), None);
    }
}
