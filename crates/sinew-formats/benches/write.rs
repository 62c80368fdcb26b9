//! Writing a skeleton: a [`sinew::raw::RawRig`] already in memory to Spine 4.2 binary
//! (`.skel`) bytes against Spine 4.2 JSON text (compact), for the shared fixtures' spineboy-pro
//! and raptor-pro (read from their `.skel`); without the fixtures there is nothing to
//! measure. Figures are in `docs/CONVERT.md`.

use criterion::{Criterion, Throughput, criterion_main};
use sinew_formats::spine::binary::parse_spine_binary;
use sinew_formats::spine::{write_spine_binary, write_spine_json};
use std::hint::black_box;

const RIGS: [&str; 2] = ["spineboy/spineboy-pro", "raptor/raptor-pro"];

fn bench(c: &mut Criterion) {
    let Some(dir) = sinew_testutil::fixtures_dir().map(|d| d.join("spine")) else {
        eprintln!("skipping write benches: shared fixtures not found");
        return;
    };
    for rig in RIGS {
        let name = rig.rsplit('/').next().unwrap_or(rig);
        let Ok(bytes) = std::fs::read(dir.join(format!("{rig}.skel"))) else {
            continue;
        };
        let Ok(raw) = parse_spine_binary(&bytes, "b.skel") else {
            continue;
        };
        let mut g = c.benchmark_group("write");
        g.throughput(Throughput::Elements(1));
        g.bench_function(format!("{name}-skel"), |b| {
            b.iter(|| write_spine_binary(black_box(&raw)))
        });
        g.bench_function(format!("{name}-json"), |b| {
            b.iter(|| write_spine_json(black_box(&raw), false))
        });
        g.finish();
    }
}

// criterion's macros generate undocumented items.
#[allow(missing_docs)]
mod harness {
    use super::bench;
    use criterion::criterion_group;
    criterion_group!(benches, bench);
}
use harness::benches;
criterion_main!(benches);
