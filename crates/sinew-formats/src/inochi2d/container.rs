//! The INP1 container of `.inp` and `.inx` files (inochi2d.md §2): magic `TRNSRTS\0`, a
//! big-endian u32 JSON length and the JSON, `TEX_SECT` with a texture count and per texture
//! a length, an encoding byte and the bytes, then an optional `EXT_SECT` of named vendor
//! payloads. Every declared size is checked against the bytes left and a cap before use.
//! Verified by the unit tests below (round trip, truncation at every byte, bad magic).

use crate::LoadError;

/// Largest JSON payload accepted, bytes.
pub const MAX_JSON: usize = 256 << 20;
/// Most textures accepted.
pub const MAX_TEXTURES: usize = 4096;
/// Most vendor payloads accepted.
pub const MAX_EXT: usize = 4096;

/// An embedded texture, kept encoded (renderers decode it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Texture {
    /// Declared encoding: 0 PNG, 1 TGA, 2 BC7 (reserved). Readers should sniff the bytes.
    pub encoding: u8,
    /// The encoded image (empty: an empty slot).
    pub bytes: Vec<u8>,
}

impl Texture {
    /// The image format judged from the bytes themselves (`png`, `tga`, or `unknown`).
    pub fn sniff(&self) -> &'static str {
        if self.bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            "png"
        } else if self.encoding == 1 || self.bytes.len() >= 18 {
            "tga"
        } else {
            "unknown"
        }
    }
}

/// The sections of a container.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Container<'a> {
    /// The JSON payload bytes.
    pub json: &'a [u8],
    /// Textures by slot index.
    pub textures: Vec<Texture>,
    /// Vendor payloads (name, bytes).
    pub ext: Vec<(String, Vec<u8>)>,
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    file: &'a str,
}

impl<'a> Reader<'a> {
    fn err(&self, what: &str, message: String) -> LoadError {
        LoadError::Binary {
            file: self.file.to_owned(),
            offset: self.pos,
            what: what.to_owned(),
            message,
        }
    }
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], LoadError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        match end {
            Some(e) => {
                let s = &self.bytes[self.pos..e];
                self.pos = e;
                Ok(s)
            }
            None => Err(self.err(
                what,
                format!("needs {n} bytes, {} left", self.bytes.len() - self.pos),
            )),
        }
    }
    fn u32(&mut self, what: &str) -> Result<usize, LoadError> {
        let b = self.take(4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }
    fn sized(&mut self, what: &str, cap: usize) -> Result<&'a [u8], LoadError> {
        let n = self.u32(what)?;
        if n > cap {
            return Err(self.err(what, format!("declared size {n} exceeds the limit {cap}")));
        }
        self.take(n, what)
    }
}

/// Splits a container into its sections.
pub fn read_container<'a>(bytes: &'a [u8], file: &'a str) -> Result<Container<'a>, LoadError> {
    let mut r = Reader {
        bytes,
        pos: 0,
        file,
    };
    let magic = r.take(8, "magic")?;
    if magic == b"TRNSRTS2" {
        return Err(r.err(
            "magic",
            "INP2 (TRNSRTS2) puppets are not supported yet".into(),
        ));
    }
    if magic != b"TRNSRTS\0" {
        return Err(LoadError::Binary {
            file: file.to_owned(),
            offset: 0,
            what: "magic".into(),
            message: "not an Inochi2D puppet (magic is not TRNSRTS\\0)".into(),
        });
    }
    let json = r.sized("JSON payload", MAX_JSON)?;
    let tag = r.take(8, "texture section tag")?;
    if tag != b"TEX_SECT" {
        return Err(r.err(
            "texture section tag",
            "expected TEX_SECT after the JSON payload".into(),
        ));
    }
    let count = r.u32("texture count")?;
    if count > MAX_TEXTURES {
        return Err(r.err(
            "texture count",
            format!("{count} textures exceed the limit {MAX_TEXTURES}"),
        ));
    }
    let mut textures = Vec::with_capacity(count.min(64));
    for i in 0..count {
        let len = r.u32(&format!("texture {i} length"))?;
        let encoding = r.take(1, &format!("texture {i} encoding"))?[0];
        let data = r.take(len, &format!("texture {i}"))?;
        textures.push(Texture {
            encoding,
            bytes: data.to_vec(),
        });
    }
    let mut ext = Vec::new();
    if r.pos < bytes.len() {
        let tag = r.take(8, "extension section tag")?;
        if tag != b"EXT_SECT" {
            return Err(r.err(
                "extension section tag",
                "expected EXT_SECT or the end of the file".into(),
            ));
        }
        let count = r.u32("extension count")?;
        if count > MAX_EXT {
            return Err(r.err(
                "extension count",
                format!("{count} vendor payloads exceed the limit {MAX_EXT}"),
            ));
        }
        for i in 0..count {
            let name = r.sized(&format!("vendor payload {i} name"), 4096)?;
            let name = String::from_utf8_lossy(name).into_owned();
            let data = r.sized(&format!("vendor payload `{name}`"), MAX_JSON)?;
            ext.push((name, data.to_vec()));
        }
    }
    Ok(Container {
        json,
        textures,
        ext,
    })
}

/// Writes a container (for tests and tools).
pub fn write_container(json: &[u8], textures: &[Texture], ext: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len() + 64);
    let be = |n: usize| (n as u32).to_be_bytes();
    out.extend_from_slice(b"TRNSRTS\0");
    out.extend_from_slice(&be(json.len()));
    out.extend_from_slice(json);
    out.extend_from_slice(b"TEX_SECT");
    out.extend_from_slice(&be(textures.len()));
    for t in textures {
        out.extend_from_slice(&be(t.bytes.len()));
        out.push(t.encoding);
        out.extend_from_slice(&t.bytes);
    }
    if !ext.is_empty() {
        out.extend_from_slice(b"EXT_SECT");
        out.extend_from_slice(&be(ext.len()));
        for (n, d) in ext {
            out.extend_from_slice(&be(n.len()));
            out.extend_from_slice(n.as_bytes());
            out.extend_from_slice(&be(d.len()));
            out.extend_from_slice(d);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_truncation() {
        let tex = vec![Texture {
            encoding: 0,
            bytes: b"\x89PNG\r\n\x1a\nxx".to_vec(),
        }];
        let ext = vec![("vendor".to_owned(), b"{}".to_vec())];
        let bytes = write_container(b"{\"a\":1}", &tex, &ext);
        let c = read_container(&bytes, "t.inp").expect("valid");
        assert_eq!(c.json, b"{\"a\":1}");
        assert_eq!(c.textures, tex);
        assert_eq!(c.textures[0].sniff(), "png");
        assert_eq!(c.ext, ext);
        // The extension section is optional: a file that ends right before it is a valid
        // puppet without extensions. Every other truncation is an error.
        let ext_start = bytes
            .windows(8)
            .position(|w| w == b"EXT_SECT")
            .expect("written");
        for n in 0..bytes.len() {
            let r = read_container(&bytes[..n], "t.inp");
            if n == ext_start {
                assert!(r.expect("valid without extensions").ext.is_empty());
            } else {
                assert!(r.is_err(), "truncated at {n}");
            }
        }
    }

    #[test]
    fn huge_declared_sizes_fail_cleanly() {
        let mut bytes = b"TRNSRTS\0".to_vec();
        bytes.extend_from_slice(&u32::MAX.to_be_bytes());
        let e = read_container(&bytes, "t.inp").expect_err("too big");
        assert!(e.to_string().contains("JSON payload"), "{e}");
        assert!(read_container(b"PK\x03\x04abcdefgh", "t.inp").is_err());
    }
}
