//! The CLI verbs take Spine 4.3 JSON through the one loading API: `sinew dump` of a
//! converted fixture writes the schema of the official 4.3 runtime's golden dump (same keys
//! in every frame, bone and slot) with its values; `info` and `validate` accept the file and
//! `render` draws it as it draws the 4.2 original (the same pixels: the conversion keeps the
//! pose and the atlas).

use crate::common::compare;
use crate::common::harness::{scratch, sinew};
use serde_json::Value;
use std::path::PathBuf;

/// The converted spineboy-pro and its 4.2 original, or `None` (skipped) without fixtures.
fn spineboy(test: &str) -> Option<(PathBuf, PathBuf)> {
    let new = sinew_testutil::require_spine43_fixtures(test)?;
    let old = sinew_testutil::require_spine_fixtures(test)?;
    Some((
        new.join("spineboy/spineboy-pro.json"),
        old.join("spineboy/spineboy-pro.json"),
    ))
}

fn out(o: &std::process::Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The keys of every object below `v`, with their JSON paths (arrays by index).
fn shape(v: &Value, path: &str, into: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            let keys: Vec<&str> = m.keys().map(String::as_str).collect();
            into.push(format!("{path}: {}", keys.join(",")));
            for (k, x) in m {
                shape(x, &format!("{path}.{k}"), into);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                // Number lists (matrices, vertices) have no keys below them.
                if x.is_object() || x.is_array() {
                    shape(x, &format!("{path}[{i}]"), into);
                }
            }
        }
        _ => {}
    }
}

#[test]
fn dump_of_a_43_file_has_the_golden_schema_and_values() {
    let Some((new, _)) = spineboy("dump_of_a_43_file_has_the_golden_schema_and_values") else {
        return;
    };
    let golden = new
        .parent()
        .and_then(|p| p.parent())
        .map(|d| d.join("golden/spineboy-pro__run.json"))
        .expect("golden folder");
    let want: Value =
        serde_json::from_str(&std::fs::read_to_string(&golden).expect("golden")).expect("json");
    // The golden's own arguments (MANIFEST.json), through the binary.
    let times = "0.016666666667,0.116666666667,0.216666666667,0.35,0.45,0.55,0.683333333333";
    let o = sinew(&[
        "dump",
        new.to_str().expect("utf-8"),
        "--anim",
        "run",
        "--times",
        times,
        "--fps",
        "60",
        "--round",
        "5",
    ]);
    let got: Value = serde_json::from_str(&out(&o)).expect("valid JSON");
    let (mut a, mut b) = (Vec::new(), Vec::new());
    shape(&got["frames"], "$.frames", &mut a);
    shape(&want["frames"], "$.frames", &mut b);
    assert!(a.len() > 100, "{} objects", a.len());
    assert_eq!(a, b, "the frames' schema");
    let r = compare::compare(&got, &want, compare::TOL);
    assert!(r.ok(), "{:?}", r.first);
}

#[test]
fn info_and_validate_accept_a_43_file() {
    let Some((new, _)) = spineboy("info_and_validate_accept_a_43_file") else {
        return;
    };
    let p = new.to_str().expect("utf-8");
    let text = out(&sinew(&["info", p]));
    assert!(text.contains("4.3.0"), "{text}");
    out(&sinew(&["validate", p]));
}

#[test]
fn render_draws_a_43_file_as_its_42_original() {
    let Some((new, old)) = spineboy("render_draws_a_43_file_as_its_42_original") else {
        return;
    };
    let atlas = old.with_file_name("spineboy.atlas");
    let mut images = Vec::new();
    for (i, f) in [&new, &old].into_iter().enumerate() {
        let png = scratch(&format!("spine43_render_{i}.png"));
        out(&sinew(&[
            "render",
            f.to_str().expect("utf-8"),
            "--atlas",
            atlas.to_str().expect("utf-8"),
            "--anim",
            "run",
            "--times",
            "0.3",
            "--size",
            "160x160",
            "--out",
            png.to_str().expect("utf-8"),
        ]));
        images.push(std::fs::read(&png).expect("the PNG"));
    }
    assert!(images[0].len() > 1000, "an image");
    assert_eq!(images[0], images[1], "the same pixels");
}
