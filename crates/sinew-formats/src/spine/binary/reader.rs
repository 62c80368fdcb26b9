//! The byte-level reader of the Spine 4.2 binary format: big-endian 32-bit ints and floats,
//! variable-length ints (7 bits a byte, at most 5 bytes; signed ones zigzag-encoded),
//! length-prefixed strings and references into the file's string table.
//!
//! Every read is bounds-checked and every count is checked against the bytes left before
//! anything is allocated for it, so no input can make the reader panic or allocate more than
//! the file could hold. A failure carries the byte offset and what was being read (the
//! context the section readers set with [`Reader::context`]). Verified by the unit tests
//! below and the truncation and mutation tests in `tests/all/skel.rs`.

use std::fmt::Write as _;

/// Why reading stopped: the byte offset, what was being read and what is wrong.
#[derive(Debug)]
pub(crate) struct Problem {
    /// Byte offset of the offending value.
    pub offset: usize,
    /// What was being read, e.g. ``animation `run`, timeline 3``.
    pub what: String,
    /// What is wrong.
    pub message: String,
}

/// Result of the binary readers (boxed so results stay one word wide).
pub(crate) type R<T> = Result<T, Box<Problem>>;

/// A cursor over the bytes of a `.skel` file with its string table.
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// The string table (attachment names, paths, event strings referenced by index).
    pub strings: Vec<String>,
    what: String,
    /// The file is Spine 4.3 (set from the header; the sections whose layout changed read it).
    pub v43: bool,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Reader {
            data,
            pos: 0,
            strings: Vec::new(),
            what: String::from("header"),
            v43: false,
        }
    }

    /// The current byte offset.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Bytes left after the current offset.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Sets what is being read (named in errors); reuses its buffer.
    pub fn context(&mut self, args: std::fmt::Arguments) {
        self.what.clear();
        let _ = self.what.write_fmt(args);
    }

    /// An error at `offset`.
    pub fn err_at<T>(&self, offset: usize, message: impl Into<String>) -> R<T> {
        Err(Box::new(Problem {
            offset,
            what: self.what.clone(),
            message: message.into(),
        }))
    }

    /// An error at the current offset.
    pub fn err<T>(&self, message: impl Into<String>) -> R<T> {
        self.err_at(self.pos, message)
    }

    fn take<const N: usize>(&mut self, what: &str) -> R<[u8; N]> {
        let bytes = self
            .data
            .get(self.pos..self.pos + N)
            .and_then(|s| <[u8; N]>::try_from(s).ok());
        match bytes {
            Some(b) => {
                self.pos += N;
                Ok(b)
            }
            None => self.err(format!(
                "{what} needs {N} bytes but the file ends ({} left)",
                self.remaining()
            )),
        }
    }

    /// One unsigned byte.
    pub fn u8(&mut self) -> R<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => self.err("unexpected end of file"),
        }
    }

    /// A boolean byte (non-zero is true).
    pub fn bool(&mut self) -> R<bool> {
        Ok(self.u8()? != 0)
    }

    /// A big-endian 32-bit signed int.
    pub fn i32(&mut self) -> R<i32> {
        Ok(i32::from_be_bytes(self.take::<4>("a 32-bit int")?))
    }

    /// A big-endian 32-bit float, which must be finite.
    pub fn f32(&mut self) -> R<f32> {
        let at = self.pos;
        let x = f32::from_be_bytes(self.take::<4>("a float")?);
        if !x.is_finite() {
            return self.err_at(at, format!("{x} is not a finite number"));
        }
        if f64::from(x.abs()) >= crate::budget::MAX_MAGNITUDE {
            return self.err_at(
                at,
                format!(
                    "{x:e} is too large: numbers must be smaller than {:e} in magnitude (their f32 products overflow)",
                    crate::budget::MAX_MAGNITUDE
                ),
            );
        }
        Ok(x)
    }

    /// A float widened to f64 (exactly, as the official runtime holds it in a JS number).
    pub fn f64(&mut self) -> R<f64> {
        Ok(f64::from(self.f32()?))
    }

    /// A variable-length unsigned int: 7 bits a byte, low bits first, at most 5 bytes (the
    /// fifth byte's bits 0..3 become bits 28..31; like the official reader, its continuation
    /// bit is not looked at).
    pub fn varint(&mut self) -> R<u32> {
        let mut result = 0u32;
        for i in 0..5 {
            let b = self.u8()?;
            result |= u32::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                break;
            }
        }
        Ok(result)
    }

    /// A variable-length signed int (zigzag: 0, -1, 1, -2, ...).
    pub fn varint_signed(&mut self) -> R<i32> {
        let v = self.varint()?;
        Ok(((v >> 1) as i32) ^ -((v & 1) as i32))
    }

    /// A count of items of at least `min_bytes` bytes each, refused when the items could
    /// not fit in the bytes left or exceed `max`.
    pub fn count(&mut self, what: &str, min_bytes: usize, max: usize) -> R<usize> {
        let at = self.pos;
        let n = self.varint()? as usize;
        if n > max {
            return self.err_at(at, format!("{n} {what} exceed the limit of {max}"));
        }
        if n.saturating_mul(min_bytes) > self.remaining() {
            return self.err_at(
                at,
                format!(
                    "count {n} ({what}) exceeds the remaining {} bytes",
                    self.remaining()
                ),
            );
        }
        Ok(n)
    }

    /// An index into a table of `len` items (`what` names the table in errors).
    pub fn index(&mut self, what: &str, len: usize) -> R<usize> {
        let at = self.pos;
        let i = self.varint()? as usize;
        if i >= len {
            return self.err_at(at, format!("{what} index {i} out of range ({len} {what}s)"));
        }
        Ok(i)
    }

    /// `n` floats (4 bytes each, checked before allocating).
    pub fn floats(&mut self, n: usize) -> R<Vec<f32>> {
        if n.saturating_mul(4) > self.remaining() {
            return self.err(format!(
                "{n} floats need {} bytes but only {} remain",
                n.saturating_mul(4),
                self.remaining()
            ));
        }
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(self.f32()?);
        }
        Ok(out)
    }

    /// A string: a varint byte count plus one (0 is null, 1 the empty string), then that
    /// many bytes of UTF-8 (as the editor writes it: characters up to 3 bytes each, others
    /// as 3-byte surrogate halves, which are paired up here).
    pub fn string(&mut self) -> R<Option<String>> {
        let at = self.pos;
        let n = self.varint()? as usize;
        if n == 0 {
            return Ok(None);
        }
        let len = n - 1;
        if len > self.remaining() {
            return self.err_at(
                at,
                format!(
                    "string of {len} bytes exceeds the remaining {} bytes",
                    self.remaining()
                ),
            );
        }
        let bytes = &self.data[self.pos..self.pos + len];
        if let Ok(s) = std::str::from_utf8(bytes) {
            self.pos += len;
            return Ok(Some(s.to_owned()));
        }
        // COMPAT(spine): the official reader decodes 1-, 2- and 3-byte sequences by their
        // lead byte and takes any other byte as one character; decode the same way into
        // UTF-16 units (so surrogate pairs written as two 3-byte halves join up).
        let mut units: Vec<u16> = Vec::new();
        let mut i = 0;
        while i < len {
            let b = u16::from(self.u8()?);
            match b >> 4 {
                12 | 13 => {
                    let b2 = u16::from(self.u8()?);
                    units.push((b & 0x1f) << 6 | (b2 & 0x3f));
                    i += 2;
                }
                14 => {
                    let b2 = u16::from(self.u8()?);
                    let b3 = u16::from(self.u8()?);
                    units.push((b & 0x0f) << 12 | (b2 & 0x3f) << 6 | (b3 & 0x3f));
                    i += 3;
                }
                _ => {
                    units.push(b);
                    i += 1;
                }
            }
        }
        Ok(Some(String::from_utf16_lossy(&units)))
    }

    /// A string that must not be null (`what` names it in the error).
    pub fn name(&mut self, what: &str) -> R<String> {
        let at = self.pos;
        match self.string()? {
            Some(s) => Ok(s),
            None => self.err_at(at, format!("{what} must not be null")),
        }
    }

    /// A reference into the string table (0 is null, `i` the string `i - 1`).
    pub fn string_ref(&mut self) -> R<Option<String>> {
        let at = self.pos;
        let i = self.varint()? as usize;
        if i == 0 {
            return Ok(None);
        }
        match self.strings.get(i - 1) {
            Some(s) => Ok(Some(s.clone())),
            None => self.err_at(
                at,
                format!(
                    "string reference {i} out of range ({} strings)",
                    self.strings.len()
                ),
            ),
        }
    }

    /// A string reference that must not be null.
    pub fn name_ref(&mut self, what: &str) -> R<String> {
        let at = self.pos;
        match self.string_ref()? {
            Some(s) => Ok(s),
            None => self.err_at(at, format!("{what} must not be null")),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn varints_read_seven_bits_a_byte_low_first() {
        let data = [0x00, 0x7f, 0x80, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f];
        let mut r = Reader::new(&data);
        assert_eq!(r.varint().unwrap(), 0);
        assert_eq!(r.varint().unwrap(), 127);
        assert_eq!(r.varint().unwrap(), 128);
        assert_eq!(r.varint().unwrap(), u32::MAX);
        assert_eq!(r.remaining(), 0);
        assert!(r.varint().is_err());
    }

    #[test]
    fn the_fifth_varint_byte_ends_the_number() {
        // Five bytes with continuation bits everywhere: the sixth byte is not read.
        let data = [0x81, 0x80, 0x80, 0x80, 0x80, 0x05];
        let mut r = Reader::new(&data);
        assert_eq!(r.varint().unwrap(), 1);
        assert_eq!(r.pos(), 5);
    }

    #[test]
    fn signed_varints_are_zigzag() {
        let data = [0x00, 0x01, 0x02, 0x03, 0xfe, 0xff, 0xff, 0xff, 0x0f];
        let mut r = Reader::new(&data);
        let got: Vec<i32> = (0..5).map(|_| r.varint_signed().unwrap()).collect();
        assert_eq!(got, [0, -1, 1, -2, i32::MAX]);
    }

    #[test]
    fn ints_and_floats_are_big_endian_and_floats_finite() {
        let mut data = Vec::new();
        data.extend_from_slice(&(-2i32).to_be_bytes());
        data.extend_from_slice(&1.5f32.to_be_bytes());
        data.extend_from_slice(&f32::NAN.to_be_bytes());
        data.extend_from_slice(&[0, 0]);
        let mut r = Reader::new(&data);
        assert_eq!(r.i32().unwrap(), -2);
        assert_eq!(r.f64().unwrap(), 1.5);
        let e = r.f32().unwrap_err();
        assert_eq!(e.offset, 8);
        assert!(e.message.contains("finite"), "{}", e.message);
        // Two bytes left: a float is refused without reading past the end.
        r.pos = 12;
        let e = r.f32().unwrap_err();
        assert!(e.message.contains("needs 4 bytes"), "{}", e.message);
    }

    #[test]
    fn strings_are_length_plus_one_and_null_is_zero() {
        let mut data = vec![0, 1, 4];
        data.extend_from_slice(b"abc");
        data.push(3);
        data.extend_from_slice("é".as_bytes());
        let mut r = Reader::new(&data);
        assert_eq!(r.string().unwrap(), None);
        assert_eq!(r.string().unwrap().as_deref(), Some(""));
        assert_eq!(r.string().unwrap().as_deref(), Some("abc"));
        assert_eq!(r.string().unwrap().as_deref(), Some("é"));
        assert_eq!(r.remaining(), 0);
    }

    #[test]
    fn surrogate_halves_join_up() {
        // U+1F600 as two 3-byte surrogate halves (D83D, DE00), as Java writes it.
        let data = [7, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80];
        let mut r = Reader::new(&data);
        assert_eq!(r.string().unwrap().as_deref(), Some("\u{1f600}"));
    }

    #[test]
    fn a_string_longer_than_the_file_is_refused() {
        let data = [0xff, 0x01, b'a'];
        let mut r = Reader::new(&data);
        r.context(format_args!("bone {}", 3));
        let e = r.string().unwrap_err();
        assert_eq!((e.offset, e.what.as_str()), (0, "bone 3"));
        assert!(
            e.message.contains("exceeds the remaining 1 bytes"),
            "{}",
            e.message
        );
    }

    #[test]
    fn counts_and_refs_are_checked() {
        let data = [200, 0x01, 9, 2];
        let mut r = Reader::new(&data);
        let e = r.count("bones", 1, 1000).unwrap_err();
        assert!(e.message.contains("exceeds the remaining"), "{}", e.message);
        let mut r = Reader::new(&data[2..]);
        r.strings.push("a".into());
        assert!(r.string_ref().is_err());
        r.pos = 1;
        assert!(r.string_ref().is_err());
        let mut r = Reader::new(&[1]);
        r.strings.push("a".into());
        assert_eq!(r.string_ref().unwrap().as_deref(), Some("a"));
        assert!(Reader::new(&[3]).index("bone", 3).is_err());
        assert_eq!(Reader::new(&[2]).index("bone", 3).unwrap(), 2);
    }
}
