//! Loading a skeleton: the Spine 4.2 binary export (`.skel`) against its JSON twin, from
//! bytes already in memory to a [`sinew::raw::RawRig`] (`parse/*`) and on to a built
//! [`sinew::Rig`] (`build/*`). Uses the shared fixtures when present (spineboy-pro,
//! raptor-pro, mix-and-match-pro); without them there is nothing to measure. Figures are in
//! `docs/PERFORMANCE.md`.

use criterion::{Criterion, Throughput, criterion_main};
use sinew_formats::spine::binary::parse_spine_binary;
use sinew_formats::spine::parse_spine_json;
use std::hint::black_box;

const RIGS: [&str; 3] = [
    "spineboy/spineboy-pro",
    "raptor/raptor-pro",
    "mix-and-match/mix-and-match-pro",
];

fn bench(c: &mut Criterion) {
    let Some(dir) = sinew_testutil::fixtures_dir().map(|d| d.join("spine")) else {
        eprintln!("skipping load benches: shared fixtures not found");
        return;
    };
    for rig in RIGS {
        let name = rig.rsplit('/').next().unwrap_or(rig);
        let (Ok(skel), Ok(json)) = (
            std::fs::read(dir.join(format!("{rig}.skel"))),
            std::fs::read_to_string(dir.join(format!("{rig}.json"))),
        ) else {
            continue;
        };
        let mut g = c.benchmark_group("parse");
        g.throughput(Throughput::Elements(1));
        g.bench_function(format!("{name}-skel"), |b| {
            b.iter(|| parse_spine_binary(black_box(&skel), "b.skel"))
        });
        g.bench_function(format!("{name}-json"), |b| {
            b.iter(|| parse_spine_json(black_box(&json), "b.json"))
        });
        g.finish();
        let mut g = c.benchmark_group("build");
        g.throughput(Throughput::Elements(1));
        g.bench_function(format!("{name}-skel"), |b| {
            b.iter(|| {
                let raw = parse_spine_binary(black_box(&skel), "b.skel").ok()?;
                sinew::build::build_rig(&raw).ok()
            })
        });
        g.bench_function(format!("{name}-json"), |b| {
            b.iter(|| {
                let raw = parse_spine_json(black_box(&json), "b.json").ok()?;
                sinew::build::build_rig(&raw).ok()
            })
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
