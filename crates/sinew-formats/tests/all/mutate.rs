//! Mutations of rig files shared by the loaders' robustness tests: the token spans and
//! replacement values of the 4.2 JSON property test (`mutations.rs`), and the seeded
//! mutators of the Spine 4.3 fuzzer (`fuzz43.rs`): bytes (flips, overwrites, truncations,
//! insertions, removals, duplicated runs, cross-overs with another file), JSON text (numbers
//! replaced, strings swapped), JSON values (type changes, swaps, removals, repeated array
//! items, huge counts) and `.skel` fields (huge varint counts, poisoned big-endian floats).
//! Every mutator takes its choices from one [`Rng`], so a seed and an iteration number
//! replay an input exactly.

use serde_json::Value;

/// Byte offsets of number tokens (a digit or '-' after ':', '[' or ',').
pub(crate) fn number_spans(t: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut prev = b' ';
    let mut i = 0;
    while i < t.len() {
        let c = t[i];
        if (c == b'-' || c.is_ascii_digit()) && matches!(prev, b':' | b'[' | b',') {
            let start = i;
            while i < t.len() && matches!(t[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                i += 1;
            }
            spans.push((start, i));
            prev = b'0';
            continue;
        }
        if !c.is_ascii_whitespace() {
            prev = c;
        }
        i += 1;
    }
    spans
}

/// Byte spans of string literals, quotes included (no escapes in these files).
pub(crate) fn string_spans(t: &[u8]) -> Vec<(usize, usize)> {
    let quotes: Vec<usize> = t
        .iter()
        .enumerate()
        .filter(|e| *e.1 == b'"')
        .map(|e| e.0)
        .collect();
    quotes.chunks_exact(2).map(|q| (q[0], q[1] + 1)).collect()
}

pub(crate) const REPLACEMENTS: &[&str] = &[
    "1e300",
    "-1e300",
    "-1",
    "-0.5",
    "0",
    "0.5",
    "65535",
    "65536",
    "2147483648",
    "-2147483649",
    "4294967296",
    "1e9",
    "9007199254740993",
    "1e-300",
    "\"x\"",
    "null",
    "[]",
    "{}",
    "true",
];

/// Counts a file may declare that no real rig has: past u16 ids, i32, u32, and a billion.
pub(crate) const HUGE_COUNTS: &[i64] = &[
    65_535,
    65_536,
    1 << 24,
    1_000_000_000,
    i32::MAX as i64,
    1 << 32,
    -1,
    i32::MIN as i64,
];

/// splitmix64: small, fast, and the same sequence on every platform.
pub(crate) struct Rng(u64);

impl Rng {
    /// The generator of iteration `iteration` of a run seeded with `seed`: each input is
    /// reproducible on its own.
    pub(crate) fn new(seed: u64, iteration: u64) -> Rng {
        let mut r = Rng(seed ^ iteration.wrapping_mul(0xd1b5_4a32_d192_ed03));
        r.next();
        r
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// One byte-level mutation of `t` (`other`: another file of the corpus, for cross-overs);
/// returns what it did.
pub(crate) fn bytes(rng: &mut Rng, t: &mut Vec<u8>, other: &[u8]) -> String {
    let len = t.len();
    let at = rng.below(len + 1);
    match rng.below(7) {
        0 if len > 0 => {
            let i = rng.below(len);
            let bit = rng.below(8);
            t[i] ^= 1 << bit;
            format!("flip bit {bit} of byte {i}")
        }
        1 if len > 0 => {
            let i = rng.below(len);
            let b = rng.next() as u8;
            t[i] = b;
            format!("byte {i} = {b:#04x}")
        }
        2 => {
            t.truncate(at);
            format!("truncate at {at}")
        }
        3 => {
            let n = 1 + rng.below(16);
            let run: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            t.splice(at..at, run);
            format!("insert {n} random bytes at {at}")
        }
        4 => {
            let n = 1 + rng.below(64);
            let end = (at + n).min(len);
            t.drain(at..end);
            format!("remove {at}..{end}")
        }
        5 if len > 0 => {
            let from = rng.below(len);
            let n = 1 + rng.below(256);
            let run = t[from..(from + n).min(len)].to_vec();
            let k = run.len();
            t.splice(at..at, run);
            format!("copy {from}..{} to {at}", from + k)
        }
        _ => {
            let j = rng.below(other.len() + 1);
            t.truncate(at);
            t.extend_from_slice(&other[j..]);
            format!("bytes from {at} on replaced by another file's from {j} on")
        }
    }
}

/// One text-level mutation of a JSON file: a number replaced by a huge, negative or
/// non-numeric value, or a string literal replaced by another (a name by another name).
pub(crate) fn json_text(rng: &mut Rng, t: &mut Vec<u8>) -> String {
    if rng.below(2) == 0 {
        let spans = number_spans(t);
        if let Some(&(a, b)) = spans.get(rng.below(spans.len())) {
            let with = *rng.pick(REPLACEMENTS);
            t.splice(a..b, with.bytes());
            return format!("number at {a} = {with}");
        }
    }
    let spans = string_spans(t);
    if spans.is_empty() {
        return "no string to swap".into();
    }
    let (fa, fb) = spans[rng.below(spans.len())];
    let (ta, tb) = spans[rng.below(spans.len())];
    let src = t[fa..fb].to_vec();
    t.splice(ta..tb, src);
    format!("string at {ta} = the one at {fa}")
}

/// Every value in the tree, as JSON pointers (the root excluded).
fn pointers(v: &Value, at: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                pointers(x, &p, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                pointers(x, &p, out);
            }
        }
        _ => {}
    }
}

/// Values of other types that a field may be changed to.
fn other_value(rng: &mut Rng) -> Value {
    match rng.below(12) {
        0 => Value::Null,
        1 => Value::Bool(true),
        2 => Value::from(0),
        3 => Value::from(-1),
        4 => Value::from(1e300),
        5 => Value::from(0.5),
        6 => Value::from("x"),
        7 => Value::from(""),
        8 => Value::Array(vec![]),
        9 => Value::Object(Default::default()),
        10 => serde_json::json!([[1, 2], {"name": "x"}]),
        _ => serde_json::json!({"name": "root", "type": "slider"}),
    }
}

/// One value-level mutation of a parsed JSON file; `None` when `v` has no value to change.
pub(crate) fn json_value(rng: &mut Rng, v: &mut Value) -> Option<String> {
    let mut all = Vec::new();
    pointers(v, "", &mut all);
    if all.is_empty() {
        return None;
    }
    let at = all[rng.below(all.len())].clone();
    let what = match rng.below(6) {
        0 => {
            let new = other_value(rng);
            let d = format!("{at} = {new}");
            *v.pointer_mut(&at)? = new;
            d
        }
        1 => {
            let from = all[rng.below(all.len())].clone();
            let x = v.pointer(&from)?.clone();
            *v.pointer_mut(&at)? = x;
            format!("{at} = the value at {from}")
        }
        2 => {
            let (parent, key) = at.rsplit_once('/')?;
            match v.pointer_mut(parent)? {
                Value::Object(m) => {
                    m.shift_remove(&key.replace("~1", "/").replace("~0", "~"));
                }
                Value::Array(a) => {
                    let i: usize = key.parse().ok()?;
                    a.remove(i);
                }
                _ => return None,
            }
            format!("{at} removed")
        }
        3 => {
            let (parent, key) = at.rsplit_once('/')?;
            let Value::Array(a) = v.pointer_mut(parent)? else {
                return None;
            };
            let i: usize = key.parse().ok()?;
            let n = 1 + rng.below(40);
            let x = a[i].clone();
            for _ in 0..n {
                a.insert(i, x.clone());
            }
            format!("{at} repeated {n} more times")
        }
        _ => {
            // A huge count where a number was (a vertex count, a sequence count, an index).
            let nums: Vec<&String> = all
                .iter()
                .filter(|p| v.pointer(p).is_some_and(Value::is_number))
                .collect();
            if nums.is_empty() {
                return None;
            }
            let p = (*rng.pick(&nums[..])).clone();
            let n = *rng.pick(HUGE_COUNTS);
            *v.pointer_mut(&p)? = Value::from(n);
            format!("{p} = {n}")
        }
    };
    Some(what)
}

/// One field-level mutation of a `.skel`: a huge varint (a count or an index the file
/// declares) written over a byte, or a poisoned big-endian float over four.
pub(crate) fn skel_field(rng: &mut Rng, t: &mut Vec<u8>) -> String {
    if t.is_empty() {
        return "empty".into();
    }
    let at = rng.below(t.len());
    if rng.below(3) < 2 {
        let n = *rng.pick(HUGE_COUNTS) as u64 & 0xffff_ffff;
        let mut varint = Vec::new();
        let mut x = n;
        loop {
            let b = (x & 0x7f) as u8;
            x >>= 7;
            if x == 0 {
                varint.push(b);
                break;
            }
            varint.push(b | 0x80);
        }
        // Over the old varint when the byte starts one (its continuation bytes too).
        let mut end = at;
        while end < t.len() && t[end] & 0x80 != 0 && end - at < 4 {
            end += 1;
        }
        let end = (end + 1).min(t.len());
        t.splice(at..end, varint);
        format!("varint {n} at {at}")
    } else {
        let f = *rng.pick(&[f32::NAN, f32::INFINITY, -f32::INFINITY, 3e38, -3e38, 1e-45]);
        let end = (at + 4).min(t.len());
        t.splice(at..end, f.to_be_bytes());
        format!("float {f} at {at}")
    }
}
