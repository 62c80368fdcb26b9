//! Small crafted inputs that would expand into gigabytes are refused, with errors naming the
//! file and JSON path or animation, and memory staying small while they are read: DragonBones
//! FFD keys of a large mesh and curve keys (the reader's budget, `dragonbones/emit.rs`), Spine
//! JSON and `.skel` deform keys without vertices (the builder's deform budget, stored whole).
//! The fixtures stay far inside the budgets (`dragonbones_golden.rs`). The test runs in a
//! process of its own (`run_alone`): `peak_bytes` counts every thread.
#![allow(clippy::unwrap_used)]

use sinew_testutil::alloc::peak_bytes;

/// An unweighted mesh display of `n` vertices on one line (the smallest JSON that holds it).
fn mesh(name: &str, n: usize) -> String {
    let zeros = vec!["0"; 2 * n].join(",");
    format!(
        r#"{{"type":"mesh","name":"{name}","vertices":[{zeros}],"uvs":[{zeros}],"triangles":[0,1,2]}}"#
    )
}

/// A DragonBones skeleton: one slot showing `display`, one animation with `timelines`.
fn skeleton(display: &str, timelines: &str) -> String {
    format!(
        r#"{{"version":"5.5","armature":[{{"name":"a","bone":[{{"name":"root"}}],
        "slot":[{{"name":"s","parent":"root"}}],
        "skin":[{{"slot":[{{"name":"s","display":[{display}]}}]}}],
        "animation":[{{"name":"x","duration":100000,{timelines}}}]}}]}}"#
    )
}

/// Peak heap while `f` runs, and its result.
fn peak<R>(f: impl FnOnce() -> R) -> (R, f64) {
    let (r, bytes) = peak_bytes(f);
    (r, bytes as f64)
}

#[test]
fn expanding_inputs_are_refused_within_a_small_multiple_of_their_size() {
    let name = "expanding_inputs_are_refused_within_a_small_multiple_of_their_size";
    if !sinew_testutil::run_alone(module_path!(), name) {
        return;
    }
    // 1. FFD: 40,000 three-byte keys of a 20,000-vertex mesh: 1.6e9 deform floats dense.
    let keys = vec!["{}"; 40_000].join(",");
    let text = skeleton(
        &mesh("m", 20_000),
        &format!(r#""ffd":[{{"name":"m","slot":"s","frame":[{keys}]}}]"#),
    );
    let (r, bytes) =
        peak(|| sinew_formats::dragonbones::parse_dragonbones(&text, "ffd_ske.json", None, None));
    let e = r.unwrap_err().to_string();
    assert!(
        e.contains("ffd_ske.json")
            && e.contains("$.armature[0].animation[0].ffd[0].frame[")
            && e.contains("budget"),
        "{e}"
    );
    let ratio = bytes / text.len() as f64;
    println!(
        "ffd: {} bytes of JSON, peak {bytes:.0} bytes ({ratio:.0}x)",
        text.len()
    );
    assert!(bytes < 48e6, "peak {bytes} bytes");

    // 2. Curves: 3,000 timelines of one key each sampled 4,097 times (12M samples, 37M
    //    key values from 200 KB).
    let one = r#"{"name":"root","translateFrame":[{"duration":5000,"curve":[0,0,1,1]},{}]}"#;
    let text = skeleton(
        r#"{"name":"i"}"#,
        &format!(r#""bone":[{}]"#, vec![one; 3_000].join(",")),
    );
    let (r, bytes) =
        peak(|| sinew_formats::dragonbones::parse_dragonbones(&text, "curve_ske.json", None, None));
    let e = r.unwrap_err().to_string();
    assert!(e.contains("translateFrame") && e.contains("budget"), "{e}");
    println!(
        "curves: {} bytes of JSON, peak {bytes:.0} bytes",
        text.len()
    );
    assert!(bytes < 48e6, "peak {bytes} bytes");

    // 3. Spine deform: 200,000 keys without vertices of a 5,000-vertex mesh, each stored
    //    whole by the builder (2e9 floats).
    let zeros = vec!["0"; 10_000].join(",");
    let keys = vec![r#"{}"#; 200_000].join(",");
    let text = format!(
        r#"{{"skeleton":{{"spine":"4.2.0"}},"bones":[{{"name":"root"}}],
        "slots":[{{"name":"s","bone":"root","attachment":"m"}}],
        "skins":[{{"name":"default","attachments":{{"s":{{"m":{{"type":"mesh",
        "uvs":[{zeros}],"vertices":[{zeros}],"triangles":[0,1,2],"hull":3}}}}}}}}],
        "animations":{{"x":{{"attachments":{{"default":{{"s":{{"m":{{"deform":[{keys}]}}}}}}}}}}}}}}"#
    );
    let (r, bytes) = peak(|| {
        let raw = sinew_formats::spine::parse_spine_json(&text, "deform.json").unwrap();
        sinew::build::build_rig(&raw).map(|_| ())
    });
    let e = r.unwrap_err().to_string();
    assert!(
        e.contains("animation `x`") && e.contains("deform budget"),
        "{e}"
    );
    println!(
        "spine deform: {} bytes of JSON, peak {bytes:.0} bytes",
        text.len()
    );
    assert!(bytes < 80e6, "peak {bytes} bytes");

    // 4. The same rig as a binary `.skel` (about 5 bytes a key): read, then built.
    let skel = {
        let raw = sinew_formats::spine::parse_spine_json(&text, "deform.json").unwrap();
        sinew_formats::spine::write_spine_binary(&raw).unwrap()
    };
    let (r, bytes) = peak(|| {
        let raw = sinew_formats::spine::parse_spine(&skel, "deform.skel").unwrap();
        sinew::build::build_rig(&raw).map(|_| ())
    });
    let e = r.unwrap_err().to_string();
    assert!(e.contains("deform budget"), "{e}");
    println!(
        "spine .skel deform: {} bytes, peak {bytes:.0} bytes",
        skel.len()
    );
    assert!(bytes < 80e6, "peak {bytes} bytes");
}
