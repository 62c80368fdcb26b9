//! A deterministic fuzzer for both Spine 4.3 readers, run by `cargo test` (cargo-fuzz needs
//! nightly and a network; `fuzz/` has the same targets for a connected machine).
//!
//! The corpus: sinew's own 4.3 rigs (`testdata/spine43/*.json`, always present) and the
//! small converted exports of the shared fixtures (`spine43/`), as JSON and as `.skel`
//! written by sinew's writer. Each input is one corpus file with 1 to 4 mutations of
//! `mutate.rs` (bytes, JSON text and values, `.skel` varint counts and floats), chosen by a
//! splitmix64 generator seeded with the run's seed and the input's number, so any input is
//! replayed by its number alone. Each must load or return a typed error naming the file,
//! never panic; the reader's peak heap (`thread_peak_bytes`) stays within a bound of the
//! input's size, so nothing is reserved from a count the file merely declares. What loads
//! is built and played (two frames of its first animation: update, draw list, world
//! vertices) and written back as 4.3 `.skel` and JSON, which must read again.
//!
//! `SINEW_FUZZ_ITERS` sets the inputs per reader (default 1,000: a few seconds in a debug
//! build), `SINEW_FUZZ_SEED` the seed, `SINEW_FUZZ_ONLY` one input number to replay. Failing
//! inputs are written to `$TMPDIR/sinew-fuzz43/`.
#![allow(clippy::unwrap_used)]

use super::mutate::{self, Rng};
use sinew::build::build_rig;
use sinew_formats::spine::binary::parse_spine_binary;
use sinew_formats::spine::{parse_spine_json, write_spine_binary, write_spine_json};
use sinew_testutil::alloc::thread_peak_bytes;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const DEFAULT_ITERS: u64 = 1000;
const DEFAULT_SEED: u64 = 0x5349_4e45_5734_3300;

/// The most heap a reader may hold at once for an input of `len` bytes: 64 bytes per input
/// byte and 256 KiB, three times what any corpus file needs (22 bytes per byte at most,
/// vine-pro.json; `the_corpus_stays_far_under_the_heap_bound`), far below what honouring
/// one declared count of 65,536 items reserves for a small file.
fn heap_bound(len: usize) -> isize {
    (len * 64 + (256 << 10)) as isize
}

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Reader {
    Json,
    Skel,
}

impl Reader {
    fn file(self) -> &'static str {
        match self {
            Reader::Json => "fuzz.json",
            Reader::Skel => "fuzz.skel",
        }
    }

    fn parse(self, data: &[u8]) -> Result<sinew::raw::RawRig, sinew_formats::LoadError> {
        match self {
            Reader::Json => parse_spine_json(&String::from_utf8_lossy(data), self.file()),
            Reader::Skel => parse_spine_binary(data, self.file()),
        }
    }
}

/// A corpus file: its name, its JSON text, the `.skel` sinew writes for it.
type Sample = (String, Vec<u8>, Vec<u8>);

/// The 4.3 corpus.
fn corpus() -> &'static Vec<Sample> {
    static CORPUS: OnceLock<Vec<Sample>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut files: Vec<PathBuf> = Vec::new();
        let own = sinew_testutil::workspace_root().join("testdata/spine43");
        for e in std::fs::read_dir(&own).unwrap().flatten() {
            let p = e.path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            // `NAME__ANIM__CASE.json` are goldens, not rigs.
            if name.ends_with(".json") && !name.contains("__") {
                files.push(p);
            }
        }
        if let Some(dir) = sinew_testutil::require_spine43_fixtures("fuzz43") {
            for f in [
                "synthetic/timelines-lab.json",
                "spinosaurus/spinosaurus-ess.json",
                "coin/coin-pro.json",
                "goblins/goblins-ess.json",
                "vine/vine-pro.json",
                "cloud-pot/cloud-pot.json",
                "speedy/speedy-ess.json",
                "powerup/powerup-pro.json",
            ] {
                files.push(dir.join(f));
            }
        }
        files.sort();
        files
            .iter()
            .map(|p| {
                let text = std::fs::read(p).unwrap();
                let rig = Reader::Json
                    .parse(&text)
                    .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                assert_eq!(rig.runtime, sinew::types::SpineRuntime::V43, "{p:?}");
                let skel = write_spine_binary(&rig).unwrap();
                (p.display().to_string(), text, skel)
            })
            .collect()
    })
}

/// Input `i` of a run: a corpus file with 1 to 4 mutations, and what was done.
fn input(reader: Reader, seed: u64, i: u64) -> (Vec<u8>, String) {
    let files = corpus();
    let mut rng = Rng::new(seed ^ reader as u64, i);
    let (name, json, skel) = &files[rng.below(files.len())];
    let pick = |f: &Sample| match reader {
        Reader::Json => f.1.clone(),
        Reader::Skel => f.2.clone(),
    };
    let mut t = match reader {
        Reader::Json => json.clone(),
        Reader::Skel => skel.clone(),
    };
    let mut done = vec![name.clone()];
    for _ in 0..1 + rng.below(4) {
        let other = pick(&files[rng.below(files.len())]);
        let what = match (reader, rng.below(4)) {
            (Reader::Json, 0) => mutate::json_text(&mut rng, &mut t),
            (Reader::Json, 1) => match serde_json::from_slice(&t) {
                Ok(mut v) => match mutate::json_value(&mut rng, &mut v) {
                    Some(what) => {
                        t = serde_json::to_vec(&v).unwrap();
                        what
                    }
                    None => "no value to change".into(),
                },
                Err(_) => mutate::json_text(&mut rng, &mut t),
            },
            (Reader::Skel, 0 | 1) => mutate::skel_field(&mut rng, &mut t),
            _ => mutate::bytes(&mut rng, &mut t, &other),
        };
        done.push(what);
    }
    (t, done.join("; "))
}

#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) loaded: u64,
    refused: u64,
    pub(crate) played: u64,
    peak_ratio: f64,
    slowest: Duration,
    pub(crate) failures: Vec<String>,
}

/// Loads, builds, plays and writes back one input; a failure is recorded, never raised.
pub(crate) fn check(reader: Reader, data: &[u8], what: &str, tally: &mut Tally) {
    let start = Instant::now();
    let (parsed, peak) =
        thread_peak_bytes(|| catch_unwind(AssertUnwindSafe(|| reader.parse(data))));
    let mut fail = |m: String| tally.failures.push(format!("{m} [{what}]"));
    if peak > heap_bound(data.len()) {
        fail(format!(
            "the reader held {peak} bytes for {} input bytes",
            data.len()
        ));
    }
    tally.peak_ratio = tally.peak_ratio.max(peak as f64 / data.len().max(1) as f64);
    let raw = match parsed {
        Err(_) => return fail("the reader panicked".into()),
        Ok(Err(e)) => {
            tally.refused += 1;
            let msg = e.to_string();
            if !msg.contains(reader.file()) {
                fail(format!("an error not naming the file: {msg}"));
            }
            return;
        }
        Ok(Ok(raw)) => raw,
    };
    tally.loaded += 1;
    let played = catch_unwind(AssertUnwindSafe(|| {
        // Written back: what the reader accepted, sinew writes and reads again.
        if let Ok(bytes) = write_spine_binary(&raw)
            && let Err(e) = parse_spine_binary(&bytes, "again.skel")
        {
            return Err(format!("written back, it does not read again: {e}"));
        }
        if let Ok(json) = write_spine_json(&raw, false)
            && let Err(e) = parse_spine_json(&json, "again.json")
        {
            return Err(format!("written back as JSON, it does not read again: {e}"));
        }
        let Ok(rig) = build_rig(&raw) else {
            return Ok(false);
        };
        let rig = std::sync::Arc::new(rig);
        let mut c = sinew::Character::new(rig.clone());
        if let Some(clip) = rig.clips.first() {
            let _ = c.set_animation(0, &clip.name, true);
        }
        let mut vertices = vec![0.0; c.max_world_floats()];
        for _ in 0..2 {
            c.update(1.0 / 30.0);
            c.draw_list();
            c.compute_world_vertices(&mut vertices);
        }
        Ok(true)
    }));
    match played {
        Err(_) => fail("building, playing or writing back panicked".into()),
        Ok(Err(m)) => fail(m),
        Ok(Ok(true)) => tally.played += 1,
        Ok(Ok(false)) => {}
    }
    tally.slowest = tally.slowest.max(start.elapsed());
}

fn run(reader: Reader) {
    let seed = env_u64("SINEW_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let iters = env_u64("SINEW_FUZZ_ITERS").unwrap_or(DEFAULT_ITERS);
    let range = match env_u64("SINEW_FUZZ_ONLY") {
        Some(i) => i..i + 1,
        None => 0..iters,
    };
    let mut tally = Tally::default();
    let start = Instant::now();
    let keep = std::env::temp_dir().join("sinew-fuzz43");
    for i in range.clone() {
        let (data, what) = input(reader, seed, i);
        let before = tally.failures.len();
        check(reader, &data, &format!("input {i}: {what}"), &mut tally);
        if tally.failures.len() > before {
            let _ = std::fs::create_dir_all(&keep);
            let _ = std::fs::write(keep.join(format!("{reader:?}-{seed:#x}-{i}")), &data);
        }
    }
    println!(
        "fuzz43 {reader:?}: {} inputs (seed {seed:#x}) in {:.1} s: {} loaded ({} built and played), \
         {} refused; peak reader heap {:.0}x the input; slowest input {:.0} ms",
        range.end - range.start,
        start.elapsed().as_secs_f64(),
        tally.loaded,
        tally.played,
        tally.refused,
        tally.peak_ratio,
        tally.slowest.as_secs_f64() * 1e3,
    );
    assert!(
        tally.failures.is_empty(),
        "{} of the {reader:?} inputs failed (SINEW_FUZZ_SEED={seed:#x} SINEW_FUZZ_ONLY=N replays one; \
         inputs kept in {}):\n{}",
        tally.failures.len(),
        keep.display(),
        tally.failures.join("\n")
    );
    // Both outcomes happen (a fuzzer whose inputs all fail to load tests nothing past the
    // header; one whose inputs all load mutates nothing).
    if range.end - range.start >= 100 {
        assert!(
            tally.loaded > 0 && tally.refused > 0,
            "loaded {}, refused {}",
            tally.loaded,
            tally.refused
        );
    }
}

#[test]
fn mutated_43_json_loads_or_is_refused() {
    run(Reader::Json);
}

#[test]
fn mutated_43_skel_loads_or_is_refused() {
    run(Reader::Skel);
}

/// The heap bound leaves room: every unmutated corpus file's reader peak is far under it,
/// and a declared count that is honoured would break it.
#[test]
fn the_corpus_stays_far_under_the_heap_bound() {
    for (name, json, skel) in corpus() {
        for (reader, data) in [(Reader::Json, json), (Reader::Skel, skel)] {
            let (rig, peak) = thread_peak_bytes(|| reader.parse(data));
            rig.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                peak * 2 < heap_bound(data.len()),
                "{name} ({reader:?}): {peak} bytes at peak for {} input bytes",
                data.len()
            );
        }
    }
    // The bound catches a reservation of 65,536 items of 16 bytes for a file of 1,000.
    let (v, peak) = thread_peak_bytes(|| Vec::<[u64; 2]>::with_capacity(65_536));
    drop(v);
    assert!(peak > heap_bound(1000), "{peak}");
}

/// Found by this fuzzer (JSON input 7399 of the default seed): a 4.3 JSON physics rig with
/// `referenceScale` 1e-300 loaded (it is positive), but sinew's `.skel` writer rounded it to
/// a 32-bit 0, which the reader refuses. The writer now refuses it, naming it; the smallest
/// positive f32 still round-trips.
#[test]
fn a_reference_scale_that_is_0_as_f32_is_not_written() {
    let path = sinew_testutil::workspace_root().join("testdata/spine43/physics-lab.json");
    let mut rig = parse_spine_json(&std::fs::read_to_string(path).unwrap(), "p.json").unwrap();
    assert!(!rig.physics.is_empty());
    rig.reference_scale = 1e-300;
    let e = write_spine_binary(&rig).unwrap_err().to_string();
    assert!(
        e.contains("referenceScale 1e-300") && e.contains("header"),
        "{e}"
    );
    rig.reference_scale = f64::from(f32::from_bits(1));
    let back = parse_spine_binary(&write_spine_binary(&rig).unwrap(), "p.skel").unwrap();
    assert_eq!(back.reference_scale, rig.reference_scale);
}

/// Found by this fuzzer (JSON inputs 28901, 71000, 76766, 127567 and 149255 of the default
/// seed): the JSON reader takes any text after a version's major.minor (`4.3.\u{fffd}`), and
/// the `.skel` writer copied it into a header the binary reader refuses as "not a Spine
/// skeleton". The writer now writes such a version as `4.3.0`.
#[test]
fn a_json_version_the_binary_reader_refuses_is_not_written() {
    let path = sinew_testutil::workspace_root().join("testdata/spine43/nrr-lab.json");
    let text = std::fs::read_to_string(path).unwrap();
    for odd in ["4.3.\u{fffd}", "4.3.0 beta", "4.3.0\u{7f}x"] {
        let json = text.replacen("\"4.3.0\"", &serde_json::to_string(odd).unwrap(), 1);
        assert_ne!(json, text);
        let rig = parse_spine_json(&json, "v.json").unwrap();
        assert_eq!(rig.version, odd);
        let back = parse_spine_binary(&write_spine_binary(&rig).unwrap(), "v.skel")
            .unwrap_or_else(|e| panic!("{odd:?}: {e}"));
        assert_eq!(back.version, "4.3.0");
    }
    // A version the binary reader takes is kept.
    let json = text.replacen("\"4.3.0\"", "\"4.3.17-beta\"", 1);
    let rig = parse_spine_json(&json, "v.json").unwrap();
    let back = parse_spine_binary(&write_spine_binary(&rig).unwrap(), "v.skel").unwrap();
    assert_eq!(back.version, "4.3.17-beta");
}

/// Found by this fuzzer (`.skel` input 26261 of the default seed): a 4.3 rig whose last
/// skin is empty, with no events and no animations, was refused ("count 1 (skins) exceeds
/// the remaining 6 bytes"): the reader assumed 4.2's seven bytes a skin at least, where a
/// 4.3 skin (one constraint list) takes four.
#[test]
fn a_43_skel_ending_in_an_empty_skin_reads() {
    let path = sinew_testutil::workspace_root().join("testdata/spine43/slider-lab.json");
    let mut rig = parse_spine_json(&std::fs::read_to_string(path).unwrap(), "e.json").unwrap();
    // The default skin (it has slots) first, then one skin "" and nothing after it.
    rig.clips.clear();
    rig.events.clear();
    rig.sliders.clear();
    rig.skins.push(sinew::raw::RawSkin::default());
    let bytes = write_spine_binary(&rig).unwrap();
    let back = parse_spine_binary(&bytes, "e.skel").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.skins.len(), rig.skins.len());
    assert_eq!(back.skins.last().unwrap().name, "");
    // The count is still checked against the bytes left: a skin count of 2 is refused.
    let at = bytes.len() - 7;
    assert_eq!(bytes[at], 1, "the skin count");
    let mut two = bytes.clone();
    two[at] = 2;
    let e = parse_spine_binary(&two, "e.skel").unwrap_err().to_string();
    assert!(e.contains("skins") && e.contains("e.skel"), "{e}");
}
