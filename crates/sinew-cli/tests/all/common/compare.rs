//! Compares a `sinew dump` document with an oracle golden dump, with per-quantity
//! tolerances, collecting maximum errors and the first mismatches (with their JSON paths).

use serde_json::Value;

/// Tolerances of the golden suite.
#[derive(Debug, Clone, Copy)]
pub struct Tolerances {
    /// Bone matrix entries a, b, c, d.
    pub matrix: f64,
    /// Positions: bone worldX/Y, vertices, point x/y.
    pub position: f64,
    /// Colours (slot, dark, attachment).
    pub color: f64,
    /// Event times and point rotations (degrees).
    pub time: f64,
}

/// The suite's tolerances.
pub const TOL: Tolerances = Tolerances {
    matrix: 1e-3,
    position: 1e-2,
    color: 1e-3,
    time: 1e-3,
};

/// Maximum errors and mismatches of one case.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// Largest bone matrix error.
    pub matrix: f64,
    /// Largest bone world position error.
    pub bone_pos: f64,
    /// Largest vertex / point position error.
    pub vertex: f64,
    /// Largest colour error.
    pub color: f64,
    /// Number of mismatches.
    pub mismatches: usize,
    /// The first few mismatches: "path: message".
    pub first: Vec<String>,
}

impl Report {
    fn fail(&mut self, path: &str, msg: String) {
        self.mismatches += 1;
        if self.first.len() < 5 {
            self.first.push(format!("{path}: {msg}"));
        }
    }

    /// Whether everything matched.
    pub fn ok(&self) -> bool {
        self.mismatches == 0
    }
}

fn f(v: &Value) -> Option<f64> {
    v.as_f64()
}

/// Compares two numbers; returns the error (infinite when either is missing).
fn cmp_num(r: &mut Report, path: &str, got: &Value, want: &Value, tol: f64) -> f64 {
    match (f(got), f(want)) {
        (Some(g), Some(w)) => {
            let e = (g - w).abs();
            if e.is_nan() || e > tol {
                r.fail(path, format!("got {g} want {w} (err {e:.3e} > {tol:e})"));
            }
            if e.is_nan() { f64::INFINITY } else { e }
        }
        _ => {
            if got != want {
                r.fail(path, format!("got {got} want {want}"));
            }
            0.0
        }
    }
}

/// Compares two numeric arrays element-wise; returns the largest error.
fn cmp_arr(r: &mut Report, path: &str, got: &Value, want: &Value, tol: f64) -> f64 {
    match (got.as_array(), want.as_array()) {
        (Some(g), Some(w)) if g.len() == w.len() => {
            let mut max = 0f64;
            for (i, (a, b)) in g.iter().zip(w).enumerate() {
                // Only the first failing element of an array counts, to keep the list short.
                let e = match (f(a), f(b)) {
                    (Some(x), Some(y)) => (x - y).abs(),
                    _ => f64::INFINITY,
                };
                if e > tol && max <= tol {
                    r.fail(&format!("{path}[{i}]"), format!("got {a} want {b}"));
                }
                max = max.max(if e.is_nan() { f64::INFINITY } else { e });
            }
            max
        }
        (Some(g), Some(w)) => {
            r.fail(path, format!("length {} want {}", g.len(), w.len()));
            f64::INFINITY
        }
        _ => {
            if got != want {
                r.fail(path, format!("got {} want {}", short(got), short(want)));
            }
            0.0
        }
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 60 {
        format!("{}...", &s[..60])
    } else {
        s
    }
}

fn cmp_eq(r: &mut Report, path: &str, key: &str, got: &Value, want: &Value) {
    let (g, w) = (&got[key], &want[key]);
    if g != w {
        r.fail(
            &format!("{path}.{key}"),
            format!("got {} want {}", short(g), short(w)),
        );
    }
}

/// Compares a whole dump with a golden dump.
pub fn compare(got: &Value, want: &Value, tol: Tolerances) -> Report {
    let mut r = Report::default();
    let empty = Vec::new();
    let gf = got["frames"].as_array().unwrap_or(&empty);
    let wf = want["frames"].as_array().unwrap_or(&empty);
    if gf.len() != wf.len() {
        r.fail("frames", format!("{} frames, want {}", gf.len(), wf.len()));
    }
    for (fi, (g, w)) in gf.iter().zip(wf).enumerate() {
        let p = format!("frames[{fi}]");
        cmp_eq(&mut r, &p, "step", g, w);
        cmp_num(&mut r, &format!("{p}.time"), &g["time"], &w["time"], 1e-6);
        compare_bones(&mut r, &p, &g["bones"], &w["bones"], tol);
        compare_slots(&mut r, &p, &g["slots"], &w["slots"], tol);
        compare_events(&mut r, &p, &g["events"], &w["events"], tol);
    }
    r
}

fn compare_bones(r: &mut Report, p: &str, got: &Value, want: &Value, tol: Tolerances) {
    let empty = Vec::new();
    let (g, w) = (
        got.as_array().unwrap_or(&empty),
        want.as_array().unwrap_or(&empty),
    );
    if g.len() != w.len() {
        r.fail(
            &format!("{p}.bones"),
            format!("{} bones, want {}", g.len(), w.len()),
        );
        return;
    }
    for (i, (gb, wb)) in g.iter().zip(w).enumerate() {
        let bp = format!("{p}.bones[{i}]({})", wb["name"].as_str().unwrap_or("?"));
        cmp_eq(r, &bp, "name", gb, wb);
        cmp_eq(r, &bp, "active", gb, wb);
        if wb["active"] == Value::Bool(false) {
            // An inactive bone is never posed: spine-ts leaves its construction-time zeros
            // there, which say nothing about the runtime's correctness.
            continue;
        }
        for k in ["a", "b", "c", "d"] {
            let e = cmp_num(r, &format!("{bp}.{k}"), &gb[k], &wb[k], tol.matrix);
            r.matrix = r.matrix.max(e);
        }
        for k in ["worldX", "worldY"] {
            let e = cmp_num(r, &format!("{bp}.{k}"), &gb[k], &wb[k], tol.position);
            r.bone_pos = r.bone_pos.max(e);
        }
    }
}

fn compare_slots(r: &mut Report, p: &str, got: &Value, want: &Value, tol: Tolerances) {
    let empty = Vec::new();
    let (g, w) = (
        got.as_array().unwrap_or(&empty),
        want.as_array().unwrap_or(&empty),
    );
    if g.len() != w.len() {
        r.fail(
            &format!("{p}.slots"),
            format!("{} slots, want {}", g.len(), w.len()),
        );
        return;
    }
    for (i, (gs, ws)) in g.iter().zip(w).enumerate() {
        let sp = format!("{p}.slots[{i}]({})", ws["slot"].as_str().unwrap_or("?"));
        // Draw order first: a different slot here makes the rest meaningless.
        if gs["slot"] != ws["slot"] {
            cmp_eq(r, &sp, "slot", gs, ws);
            continue;
        }
        for k in [
            "bone",
            "attachment",
            "type",
            "blend",
            "boneActive",
            "triangles",
            "clipEnd",
            "deformed",
            "sequenceIndex",
            "region",
        ] {
            cmp_eq(r, &sp, k, gs, ws);
        }
        for k in ["color", "dark", "attachmentColor"] {
            let e = cmp_arr(r, &format!("{sp}.{k}"), &gs[k], &ws[k], tol.color);
            r.color = r.color.max(e);
        }
        let e = cmp_arr(
            r,
            &format!("{sp}.vertices"),
            &gs["vertices"],
            &ws["vertices"],
            tol.position,
        );
        r.vertex = r.vertex.max(e);
        let (gp, wp) = (&gs["point"], &ws["point"]);
        if gp.is_null() != wp.is_null() {
            cmp_eq(r, &sp, "point", gs, ws);
        } else if !wp.is_null() {
            for k in ["x", "y"] {
                let e = cmp_num(r, &format!("{sp}.point.{k}"), &gp[k], &wp[k], tol.position);
                r.vertex = r.vertex.max(e);
            }
            cmp_num(
                r,
                &format!("{sp}.point.rotation"),
                &gp["rotation"],
                &wp["rotation"],
                1e-2,
            );
        }
    }
}

fn compare_events(r: &mut Report, p: &str, got: &Value, want: &Value, tol: Tolerances) {
    let empty = Vec::new();
    let (g, w) = (
        got.as_array().unwrap_or(&empty),
        want.as_array().unwrap_or(&empty),
    );
    let names = |v: &[Value]| {
        v.iter()
            .map(|e| e["name"].to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    if g.len() != w.len() {
        r.fail(
            &format!("{p}.events"),
            format!("got [{}] want [{}]", names(g), names(w)),
        );
        return;
    }
    for (i, (ge, we)) in g.iter().zip(w).enumerate() {
        let ep = format!("{p}.events[{i}]");
        for k in ["name", "int", "string", "animation"] {
            cmp_eq(r, &ep, k, ge, we);
        }
        cmp_num(
            r,
            &format!("{ep}.float"),
            &ge["float"],
            &we["float"],
            tol.time,
        );
        cmp_num(r, &format!("{ep}.time"), &ge["time"], &we["time"], tol.time);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(x: f64, verts: Value, color: f64) -> Value {
        json!({"frames": [{"time": 0.5, "step": 30,
            "bones": [{"name": "root", "a": 1, "b": 0, "c": 0, "d": 1, "worldX": x, "worldY": 0}],
            "slots": [{"slot": "s", "bone": "root", "attachment": "a", "type": "region",
                       "color": [1, 1, 1, color], "blend": "normal", "vertices": verts}],
            "events": [{"name": "e", "time": 0.2, "int": 0, "float": 0, "string": "", "animation": "x"}]}]})
    }

    #[test]
    fn identical_documents_match() {
        let d = doc(1.0, json!([0, 0, 1, 1]), 1.0);
        let r = compare(&d, &d, TOL);
        assert!(r.ok(), "{:?}", r.first);
    }

    #[test]
    fn errors_within_tolerance_pass_and_are_measured() {
        let r = compare(
            &doc(1.005, json!([0, 0, 1, 1.009]), 0.9995),
            &doc(1.0, json!([0, 0, 1, 1]), 1.0),
            TOL,
        );
        assert!(r.ok(), "{:?}", r.first);
        assert!((r.bone_pos - 0.005).abs() < 1e-9);
        assert!((r.vertex - 0.009).abs() < 1e-9);
        assert!((r.color - 0.0005).abs() < 1e-9);
    }

    #[test]
    fn mismatches_name_their_path() {
        let r = compare(
            &doc(1.0, json!([0, 0, 1, 1.5]), 1.0),
            &doc(1.0, json!([0, 0, 1, 1]), 1.0),
            TOL,
        );
        assert_eq!(r.mismatches, 1);
        assert!(
            r.first[0].starts_with("frames[0].slots[0](s).vertices[3]"),
            "{:?}",
            r.first
        );
        let r = compare(
            &doc(1.0, json!([0, 0]), 1.0),
            &doc(1.0, json!([0, 0, 1, 1]), 1.0),
            TOL,
        );
        assert!(r.first[0].contains("length 2 want 4"), "{:?}", r.first);
    }
}
