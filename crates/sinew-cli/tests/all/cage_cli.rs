//! `sinew cage` through the binary: `weights` on the MVC oracle's fixtures (the shared
//! originals when present, and the copies and random cages in `testdata/cage/`) within
//! each file's f64 tolerance; `bind` then `deform` reproducing the rest pose and an affine
//! map; bad input failing with exit 1 and one clear line.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sinew(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sinew"))
        .args(args)
        .output()
        .expect("the sinew binary runs")
}

fn json_out(o: &Output) -> Value {
    assert!(
        o.status.success(),
        "sinew failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("stdout is JSON")
}

fn assert_fails(o: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "stderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains(needle),
        "stderr should mention `{needle}`: {err}"
    );
}

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sinew-cage-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write");
    p
}

fn matrix(v: &Value) -> Vec<Vec<f64>> {
    v.as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            r.as_array()
                .expect("row")
                .iter()
                .map(|x| x.as_f64().expect("num"))
                .collect()
        })
        .collect()
}

/// Runs `sinew cage weights` on a fixture and compares with its weights.
fn check_fixture(path: &Path) {
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("json");
    let tol = doc["tolerance_f64"].as_f64().expect("tolerance");
    let want = matrix(&doc["weights"]);
    let got =
        matrix(&json_out(&sinew(&["cage", "weights", path.to_str().expect("utf8")]))["weights"]);
    assert_eq!(got.len(), want.len(), "{}", path.display());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g.len(), w.len());
        for (j, (a, b)) in g.iter().zip(w).enumerate() {
            assert!(
                (a - b).abs() <= tol,
                "{} [{i}][{j}]: {a} vs {b}",
                path.display()
            );
        }
    }
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    v
}

#[test]
fn weights_match_the_repository_fixtures() {
    let dir = sinew_testutil::workspace_root().join("testdata/cage");
    // The random cages made by testdata/cage/gen_random.py with the oracle; the oracle's own
    // fixtures are checked in place by the next test.
    let files = json_files(&dir);
    assert!(files.len() >= 11);
    for f in files {
        check_fixture(&f);
    }
}

#[test]
fn weights_match_the_shared_oracle_fixtures() {
    let Some(fx) = sinew_testutil::require_fixtures("weights_match_the_shared_oracle_fixtures")
    else {
        return;
    };
    let dir = fx.join("../oracle/mvc/fixtures");
    let files = json_files(&dir);
    assert_eq!(files.len(), 4, "{}", dir.display());
    for f in files {
        check_fixture(&f);
    }
}

/// Deforms the 5x5 vertex grid bound in `weights` with `cage` (the test's affine map of
/// its cage) and checks every vertex lands on the map's image of its grid position.
fn assert_affine_grid(weights: &Path, cage: &Path, what: &str) {
    let out = json_out(&sinew(&[
        "cage",
        "deform",
        weights.to_str().expect("utf8"),
        cage.to_str().expect("utf8"),
    ]));
    for (k, g) in matrix(&out["vertices"]).iter().enumerate() {
        let (x, y) = (f64::from(k as i32 % 5), f64::from(k as i32 / 5));
        let want = [2.0 * x + 0.5 * y + 3.0, -x + y - 1.0];
        assert!(
            (g[0] - want[0]).abs() < 1e-4 && (g[1] - want[1]).abs() < 1e-4,
            "{what} vertex {k}: {g:?} vs {want:?}"
        );
    }
}

#[test]
fn bind_then_deform_reproduces_rest_and_affine_maps() {
    // A 4x4-cell grid with the middle 2x2 cells removed: boundary = outer loop + hole.
    let mut verts = Vec::new();
    for y in 0..5 {
        for x in 0..5 {
            verts.push(format!("[{x},{y}]"));
        }
    }
    let id = |x: i32, y: i32| y * 5 + x;
    let mut tris = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            if (1..3).contains(&x) && (1..3).contains(&y) {
                continue;
            }
            tris.push(format!(
                "[{},{},{}]",
                id(x, y),
                id(x + 1, y),
                id(x + 1, y + 1)
            ));
            tris.push(format!(
                "[{},{},{}]",
                id(x, y),
                id(x + 1, y + 1),
                id(x, y + 1)
            ));
        }
    }
    let mesh = format!(
        "{{\"vertices\": [{}], \"triangles\": [{}]}}",
        verts.join(","),
        tris.join(",")
    );
    let mesh = scratch("grid.json", mesh.as_bytes());
    let w = scratch("grid.bin", b"");
    let summary = json_out(&sinew(&[
        "cage",
        "bind",
        mesh.to_str().expect("utf8"),
        "--out",
        w.to_str().expect("utf8"),
    ]));
    assert_eq!(summary["loops"], 2);
    assert_eq!(summary["cage_vertices"], 16 + 8);
    let cage = matrix(&summary["cage"]);
    let all = |f: &dyn Fn(f64, f64) -> [f64; 2]| {
        let pts: Vec<String> = cage
            .iter()
            .map(|p| {
                let q = f(p[0], p[1]);
                format!("[{},{}]", q[0], q[1])
            })
            .collect();
        format!("{{\"cage\": [{}]}}", pts.join(","))
    };
    for (name, f) in [
        ("rest", &(|x, y| [x, y]) as &dyn Fn(f64, f64) -> [f64; 2]),
        ("affine", &|x, y| [2.0 * x + 0.5 * y + 3.0, -x + y - 1.0]),
    ] {
        let c = scratch(&format!("{name}.json"), all(f).as_bytes());
        let out = json_out(&sinew(&[
            "cage",
            "deform",
            w.to_str().expect("utf8"),
            c.to_str().expect("utf8"),
        ]));
        let got = matrix(&out["vertices"]);
        assert_eq!(got.len(), 25);
        for (k, g) in got.iter().enumerate() {
            let want = f(f64::from(k as i32 % 5), f64::from(k as i32 / 5));
            assert!(
                (g[0] - want[0]).abs() < 1e-5 && (g[1] - want[1]).abs() < 1e-5,
                "{name} vertex {k}: {g:?} vs {want:?}"
            );
        }
    }
    // Sparse K = 6 keeps affine maps exact too.
    let ws = scratch("grid6.bin", b"");
    let summary = json_out(&sinew(&[
        "cage",
        "bind",
        mesh.to_str().expect("utf8"),
        "--out",
        ws.to_str().expect("utf8"),
        "--sparse",
        "6",
    ]));
    assert_eq!(summary["k"], 6);
    assert!(summary["truncation"]["rest_error"].as_f64().expect("num") < 1e-6);
    // Sparse by tolerance: the L1 change stays within it, and the affine map stays exact.
    let wt = scratch("grid_tol.bin", b"");
    let summary = json_out(&sinew(&[
        "cage",
        "bind",
        mesh.to_str().expect("utf8"),
        "--out",
        wt.to_str().expect("utf8"),
        "--sparse-tol",
        "0.05",
    ]));
    let trunc = &summary["truncation"];
    assert!(trunc["max_l1"].as_f64().expect("num") <= 0.05);
    assert!(trunc["kept_max"].as_u64().expect("num") <= 24);
    assert!(trunc["kept_min"].as_u64().expect("num") >= 3);
    let c = scratch(
        "affine_tol.json",
        all(&|x, y| [2.0 * x + 0.5 * y + 3.0, -x + y - 1.0]).as_bytes(),
    );
    assert_affine_grid(&wt, &c, "sparse-tol");
    // Grid-interpolated: the same bound, written as kind 4, deformed by `cage deform`.
    let wg = scratch("grid_interp.bin", b"");
    let summary = json_out(&sinew(&[
        "cage",
        "bind",
        mesh.to_str().expect("utf8"),
        "--out",
        wg.to_str().expect("utf8"),
        "--grid-tol",
        "0.05",
    ]));
    assert!(summary["grid"]["max_l1"].as_f64().expect("num") <= 0.05);
    assert!(summary["grid"]["nodes"].as_u64().expect("num") <= 25);
    assert_affine_grid(&wg, &c, "grid-tol");
    for bad in [["--grid-tol", "-1"], ["--grid-tol", "nan"]] {
        assert_fails(
            &sinew(&[
                "cage",
                "bind",
                mesh.to_str().expect("utf8"),
                "--out",
                wg.to_str().expect("utf8"),
                bad[0],
                bad[1],
            ]),
            "grid-tol",
        );
    }
    assert!(
        !sinew(&[
            "cage",
            "bind",
            mesh.to_str().expect("utf8"),
            "--out",
            wt.to_str().expect("utf8"),
            "--sparse",
            "4",
            "--sparse-tol",
            "0.1"
        ])
        .status
        .success()
    );
}

#[test]
fn bad_input_fails_with_one_line() {
    assert_fails(
        &sinew(&["cage", "weights", "/nonexistent/x.json"]),
        "/nonexistent/x.json",
    );
    let p = scratch("notjson.json", b"{ nope");
    assert_fails(
        &sinew(&["cage", "weights", p.to_str().expect("utf8")]),
        "invalid JSON",
    );
    let p = scratch("nopoints.json", br#"{"loops": [[[0,0],[1,0],[0,1]]]}"#);
    assert_fails(
        &sinew(&["cage", "weights", p.to_str().expect("utf8")]),
        "missing \"points\"",
    );
    let p = scratch(
        "bowtie.json",
        br#"{"vertices": [[0,0],[1,-1],[1,1],[-1,1],[-1,-1]], "triangles": [[0,1,2],[0,3,4]]}"#,
    );
    let w = scratch("bowtie.bin", b"");
    assert_fails(
        &sinew(&[
            "cage",
            "bind",
            p.to_str().expect("utf8"),
            "--out",
            w.to_str().expect("utf8"),
        ]),
        "boundary loops touch at vertex 0",
    );
    let junk = scratch("junk.bin", &[0u8; 100]);
    let c = scratch("c.json", br#"{"cage": [[0,0]]}"#);
    assert_fails(
        &sinew(&[
            "cage",
            "deform",
            junk.to_str().expect("utf8"),
            c.to_str().expect("utf8"),
        ]),
        "bad magic",
    );
}

/// `sinew cage bind --biharmonic` on the oracle's U cage: the weights file deforms the rest
/// pose and an affine map of the cage exactly; `--harmonic` binds too (the `harmonic`
/// feature is a default of the shipped CLI; built without it, one line says how to build it).
#[test]
fn biharmonic_bind_reproduces_rest_and_affine_maps() {
    let cage = "[[0,0],[3,0],[3,3],[2,3],[2,1],[1,1],[1,3],[0,3]]";
    let pts = [
        [0.5, 0.5],
        [2.5, 2.8],
        [0.5, 2.8],
        [1.5, 0.5],
        [3.0, 1.5],
        [2.0, 0.0],
    ];
    let verts: Vec<String> = pts.iter().map(|p| format!("[{},{}]", p[0], p[1])).collect();
    let mesh = format!(
        "{{\"vertices\": [{}], \"loops\": [{cage}]}}",
        verts.join(",")
    );
    let mesh = scratch("u_bih.json", mesh.as_bytes());
    let w = scratch("u_bih.bin", b"");
    let args = [
        "cage",
        "bind",
        mesh.to_str().expect("utf8"),
        "--out",
        w.to_str().expect("utf8"),
        "--biharmonic",
    ];
    if !cfg!(feature = "harmonic") {
        assert_fails(
            &sinew(&args),
            "--biharmonic needs sinew-cli's `harmonic` feature, which this build left out \
             (--no-default-features): build it with `cargo build --release -p sinew-cli \
             --features harmonic`",
        );
        return;
    }
    // The shipped CLI (default features) binds harmonic coordinates too.
    let mut harmonic = args;
    harmonic[5] = "--harmonic";
    assert_eq!(json_out(&sinew(&harmonic))["method"], "harmonic");
    let summary = json_out(&sinew(&args));
    assert_eq!(summary["method"], "biharmonic");
    let cage_pts = matrix(&summary["cage"]);
    let f = |x: f64, y: f64| [1.5 * x - 0.5 * y + 2.0, 0.25 * x + y - 1.0];
    let moved: Vec<String> = cage_pts
        .iter()
        .map(|p| {
            let q = f(p[0], p[1]);
            format!("[{},{}]", q[0], q[1])
        })
        .collect();
    let c = scratch(
        "u_bih_moved.json",
        format!("{{\"cage\": [{}]}}", moved.join(",")).as_bytes(),
    );
    let out = json_out(&sinew(&[
        "cage",
        "deform",
        w.to_str().expect("utf8"),
        c.to_str().expect("utf8"),
    ]));
    let got = matrix(&out["vertices"]);
    for (g, p) in got.iter().zip(&pts) {
        let want = f(p[0], p[1]);
        assert!(
            (g[0] - want[0]).abs() < 1e-4 && (g[1] - want[1]).abs() < 1e-4,
            "{p:?}: {g:?} vs {want:?}"
        );
    }
}
