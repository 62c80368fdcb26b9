//! The reader's own tests: paths through nested objects and arrays, names, wrong types,
//! missing and unknown keys, ranges, and the lenient getters.
#![allow(clippy::unwrap_used)]

use super::lenient;
use super::*;
use serde_json::json;

fn obj(v: &Value) -> &Obj {
    v.as_object().unwrap()
}

#[test]
fn path_renders_keys_indices_and_innermost_name() {
    let root = Loc::root();
    let skins = root.key("skins");
    let s2 = skins.index(2).named("default");
    let atts = s2.key("attachments");
    let slot = atts.key("head");
    let att = slot.key("eye").named("eye");
    let v = att.key("vertices");
    let p = v.index(14).problem("bad");
    assert_eq!(p.path, "$.skins[2].attachments.head.eye.vertices[14]");
    assert_eq!(p.name.as_deref(), Some("eye"));
    assert_eq!(p.issue, JsonIssue::Other("bad".into()));
    assert_eq!(Loc::root().path(), "$");
    assert_eq!(Loc::root().problem("x").name, None);
}

#[test]
fn a_wrong_type_deep_in_arrays_names_its_path_and_both_types() {
    let doc =
        json!({"skins": [{}, {"name": "a", "attachments": {"head": {"vertices": [0, 1, "2"]}}}]});
    let root = Loc::root();
    let skins = array_opt(obj(&doc), "skins", &root).unwrap().unwrap();
    let sl = root.key("skins");
    let at = sl.index(1).named("a");
    let s = as_obj(&skins[1], &at).unwrap();
    let a = obj_opt(s, "attachments", &at).unwrap().unwrap();
    let aa = at.key("attachments");
    let h = obj_opt(a, "head", &aa).unwrap().unwrap();
    let ha = aa.key("head");
    let v = array_opt(h, "vertices", &ha).unwrap().unwrap();
    let va = ha.key("vertices");
    let e = *as_f64(&v[2], &va.index(2)).unwrap_err();
    assert_eq!(e.path, "$.skins[1].attachments.head.vertices[2]");
    assert_eq!(e.name.as_deref(), Some("a"));
    assert_eq!(
        e.issue,
        JsonIssue::WrongType {
            expected: "a number",
            found: "a string"
        }
    );
    assert_eq!(e.issue.to_string(), "expected a number, found a string");
    let err = e.into_error("x.json");
    assert_eq!(
        err.to_string(),
        "x.json: $.skins[1].attachments.head.vertices[2] (`a`): expected a number, found a string"
    );
}

#[test]
fn getters_default_and_type_check() {
    let v = json!({"a": 2.5, "b": "x", "n": null, "w": 3, "t": true, "o": {}, "l": [1]});
    let m = obj(&v);
    let at = Loc::root();
    assert_eq!(f64_or(m, "a", 1.0, &at).unwrap(), 2.5);
    assert_eq!(f64_or(m, "n", 1.0, &at).unwrap(), 1.0);
    assert_eq!(f64_or(m, "zz", 7.0, &at).unwrap(), 7.0);
    let e = f64_or(m, "b", 1.0, &at).unwrap_err();
    assert_eq!(
        (e.path.as_str(), e.issue.to_string().as_str()),
        ("$.b", "expected a number, found a string")
    );
    assert!(bool_or(m, "t", false, &at).unwrap());
    assert_eq!(bool_or(m, "w", false, &at).unwrap_err().path, "$.w");
    assert_eq!(uint_or(m, "w", 0, 10, &at).unwrap(), 3);
    let e = uint_or(m, "w", 0, 2, &at).unwrap_err();
    assert_eq!(
        e.issue,
        JsonIssue::OutOfRange {
            expected: "a whole number in 0..=2".into(),
            found: 3.0
        }
    );
    assert!(uint_or(m, "a", 0, 10, &at).is_err());
    assert!(obj_opt(m, "l", &at).is_err());
    assert!(array_opt(m, "o", &at).is_err());
    assert_eq!(array_or_empty(m, "nope", &at).unwrap().len(), 0);
    assert_eq!(str_opt(m, "b", &at).unwrap(), Some("x"));
    assert_eq!(as_i32(&json!(-4), &at).unwrap(), -4);
    assert!(as_i32(&json!(1.5), &at).is_err());
}

#[test]
fn missing_and_unknown_keys_are_typed() {
    let v = json!({"name": "hair", "bnoes": []});
    let m = obj(&v);
    let root = Loc::root();
    let chains = root.key("chains");
    let at = chains.index(0).named("hair");
    let e = str_req(m, "bones", &at).unwrap_err();
    assert_eq!(e.path, "$.chains[0]");
    assert_eq!(e.name.as_deref(), Some("hair"));
    assert_eq!(
        e.issue,
        JsonIssue::Missing {
            key: "bones".into()
        }
    );
    let e = check_keys(m, &["name", "bones"], &at).unwrap_err();
    assert_eq!(
        e.issue,
        JsonIssue::UnknownKey {
            key: "bnoes".into(),
            allowed: &["name", "bones"]
        }
    );
    assert_eq!(
        e.issue.to_string(),
        "unknown key `bnoes` (allowed: name, bones)"
    );
    let commented = json!({"_note": 1, "name": "x"});
    check_keys(obj(&commented), &["name"], &at).unwrap();
}

#[test]
fn lenient_getters_coerce_like_dragonbones() {
    let v = json!({"b": true, "n": 0, "s": 12, "x": [1, 2], "o": {}, "c": 7.9, "neg": -1, "xs": [1, "a"]});
    let m = obj(&v);
    let root = Loc::root();
    let at = root.key("armature");
    assert_eq!(lenient::num(m, "b", 5.0, &at).unwrap(), 1.0);
    assert!(!lenient::boolean(m, "n", true, &at).unwrap());
    assert_eq!(lenient::string(m, "s", "", &at).unwrap(), "12");
    assert_eq!(lenient::string(m, "zz", "d", &at).unwrap(), "d");
    assert_eq!(lenient::num_opt(m, "zz", &at).unwrap(), None);
    assert_eq!(lenient::count(m, "c", 0, 10, &at).unwrap(), 7);
    let e = lenient::count(m, "neg", 0, 10, &at).unwrap_err();
    assert_eq!(e.path, "$.armature.neg");
    assert!(matches!(e.issue, JsonIssue::OutOfRange { .. }));
    let e = lenient::num(m, "x", 0.0, &at).unwrap_err();
    assert_eq!(
        (e.path.as_str(), e.issue.to_string().as_str()),
        ("$.armature.x", "expected a number, found an array")
    );
    let e = lenient::nums(m, "xs", &at).unwrap_err();
    assert_eq!(e.path, "$.armature.xs[1]");
    assert_eq!(lenient::arr(m, "zz", &at).unwrap().len(), 0);
    assert!(lenient::arr(m, "o", &at).is_err());
    assert_eq!(lenient::f64_or_default(Some(&json!("no")), 3.0), 3.0);
    assert_eq!(
        lenient::f64s_or_default(Some(&json!([1, "a"])), [0.0, 9.0]),
        [1.0, 9.0]
    );
}

#[test]
fn colors_parse_like_spine() {
    let at = Loc::root();
    let c = parse_color("ff8000ff", &at).unwrap();
    assert_eq!(
        (c.r, c.g, c.b, c.a),
        (1.0, (128.0f64 / 255.0) as f32, 0.0, 1.0)
    );
    let c = parse_color("#20304080", &at).unwrap();
    assert_eq!(c.a, (128.0f64 / 255.0) as f32);
    assert_eq!(parse_color("203040", &at).unwrap().a, 1.0);
    assert!(parse_color("20304", &at).is_err());
    assert!(parse_color("zz3040", &at).is_err());
    assert!(parse_color("é0304", &at).is_err());
    assert_eq!(
        parse_color_f64("#ff800040", &at).unwrap(),
        [1.0, 128.0 / 255.0, 0.0, 64.0 / 255.0]
    );
    assert_eq!(parse_color_f64("000000", &at).unwrap()[3], 1.0);
}
