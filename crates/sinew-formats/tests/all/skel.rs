//! The Spine 4.2 binary (`.skel`) reader against the official exports in the shared
//! fixtures: every `.skel` loads, builds and is the same rig as its JSON twin (same names,
//! references, flags, kinds, timelines, keys and curves; numbers within the JSON export's
//! rounding); every prefix of a real file is an error, never a panic; flipped bytes give an
//! error or a rig that builds and plays, never a panic or a hang; errors name the file, the
//! byte offset and what was being read; the format is told from the content.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use sinew::build::build_rig;
use sinew::raw::*;
use sinew_formats::LoadError;
use sinew_formats::spine::binary::parse_spine_binary;
use sinew_formats::spine::{is_spine_json, load_spine_file, load_spine_json, parse_spine};
use std::path::{Path, PathBuf};

/// Every `*.skel` with a `.json` twin under the Spine fixtures.
fn skel_pairs(test: &str) -> Option<Vec<(PathBuf, PathBuf)>> {
    let out: Vec<(PathBuf, PathBuf)> = sinew_testutil::spine_fixture_files(test, &["skel"])?
        .into_iter()
        .map(|skel| {
            let json = skel.with_extension("json");
            (skel, json)
        })
        .collect();
    assert!(
        out.len() >= 20,
        "expected the 20 .skel exports, found {}",
        out.len()
    );
    Some(out)
}

/// Numbers agree within the JSON export's rounding (2 decimals for most values).
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 0.0051 + 1e-4 * a.abs().max(b.abs())
}

struct Cmp<'a> {
    file: &'a str,
    diffs: Vec<String>,
}

impl Cmp<'_> {
    fn eq<T: PartialEq + std::fmt::Debug>(&mut self, what: &str, a: T, b: T) {
        if a != b && self.diffs.len() < 20 {
            self.diffs
                .push(format!("{}: {what}: skel {a:?} json {b:?}", self.file));
        }
    }
    fn num(&mut self, what: &str, a: f64, b: f64) {
        if !close(a, b) && self.diffs.len() < 20 {
            self.diffs
                .push(format!("{}: {what}: skel {a} json {b}", self.file));
        }
    }
    fn nums<T: Copy + Into<f64>>(&mut self, what: &str, a: &[T], b: &[T]) {
        self.eq(&format!("{what} length"), a.len(), b.len());
        for (i, (x, y)) in a.iter().zip(b).enumerate() {
            self.num(&format!("{what}[{i}]"), (*x).into(), (*y).into());
        }
    }
    fn color(&mut self, what: &str, a: sinew::Color, b: sinew::Color) {
        self.nums(what, &[a.r, a.g, a.b, a.a], &[b.r, b.g, b.b, b.a]);
    }
}

fn compare_vertices(c: &mut Cmp, what: &str, a: &Vertices, b: &Vertices) {
    c.eq(&format!("{what} count"), a.count, b.count);
    c.eq(&format!("{what} bones"), &a.bones, &b.bones);
    c.nums(&format!("{what} values"), &a.values, &b.values);
}

fn compare_attachment(c: &mut Cmp, what: &str, a: &RawAttachment, b: &RawAttachment) {
    use RawAttachmentKind as K;
    c.eq(&format!("{what} name"), &a.name, &b.name);
    match (&a.kind, &b.kind) {
        (
            K::Region {
                path,
                x,
                y,
                scale_x,
                scale_y,
                rotation,
                width,
                height,
                color,
                sequence,
            },
            K::Region {
                path: p2,
                x: x2,
                y: y2,
                scale_x: sx2,
                scale_y: sy2,
                rotation: r2,
                width: w2,
                height: h2,
                color: c2,
                sequence: s2,
            },
        ) => {
            c.eq(&format!("{what} path"), path, p2);
            c.nums(
                &format!("{what} region"),
                &[*x, *y, *scale_x, *scale_y, *rotation, *width, *height],
                &[*x2, *y2, *sx2, *sy2, *r2, *w2, *h2],
            );
            c.color(&format!("{what} color"), *color, *c2);
            c.eq(&format!("{what} sequence"), sequence, s2);
        }
        (
            K::Mesh {
                path,
                color,
                vertices,
                uvs,
                triangles,
                hull,
                edges,
                width,
                height,
                sequence,
            },
            K::Mesh {
                path: p2,
                color: c2,
                vertices: v2,
                uvs: u2,
                triangles: t2,
                hull: h2,
                edges: e2,
                width: w2,
                height: hh2,
                sequence: s2,
            },
        ) => {
            c.eq(&format!("{what} path"), path, p2);
            c.color(&format!("{what} color"), *color, *c2);
            compare_vertices(c, &format!("{what} vertices"), vertices, v2);
            c.nums(&format!("{what} uvs"), uvs, u2);
            c.eq(&format!("{what} triangles"), triangles, t2);
            c.eq(&format!("{what} hull"), hull, h2);
            c.eq(&format!("{what} edges"), edges, e2);
            c.nums(&format!("{what} size"), &[*width, *height], &[*w2, *hh2]);
            c.eq(&format!("{what} sequence"), sequence, s2);
        }
        (
            K::LinkedMesh {
                path,
                color,
                parent,
                skin,
                parent_slot,
                inherit_timelines,
                width,
                height,
                sequence,
            },
            K::LinkedMesh {
                path: p2,
                color: c2,
                parent: pa2,
                skin: sk2,
                parent_slot: ps2,
                inherit_timelines: i2,
                width: w2,
                height: h2,
                sequence: s2,
            },
        ) => {
            c.eq(&format!("{what} path"), path, p2);
            c.color(&format!("{what} color"), *color, *c2);
            c.eq(&format!("{what} parent"), parent, pa2);
            c.eq(&format!("{what} parent slot"), parent_slot, ps2);
            c.eq(
                &format!("{what} skin"),
                skin.as_deref().unwrap_or("default"),
                sk2.as_deref().unwrap_or("default"),
            );
            c.eq(&format!("{what} timelines"), inherit_timelines, i2);
            c.nums(&format!("{what} size"), &[*width, *height], &[*w2, *h2]);
            c.eq(&format!("{what} sequence"), sequence, s2);
        }
        (K::BoundingBox { vertices, .. }, K::BoundingBox { vertices: v2, .. }) => {
            compare_vertices(c, &format!("{what} vertices"), vertices, v2);
        }
        (
            K::Path {
                closed,
                constant_speed,
                vertices,
                lengths,
            },
            K::Path {
                closed: c2,
                constant_speed: s2,
                vertices: v2,
                lengths: l2,
            },
        ) => {
            c.eq(&format!("{what} closed"), closed, c2);
            c.eq(&format!("{what} constant speed"), constant_speed, s2);
            compare_vertices(c, &format!("{what} vertices"), vertices, v2);
            c.nums(&format!("{what} lengths"), lengths, l2);
        }
        (
            K::Point { x, y, rotation },
            K::Point {
                x: x2,
                y: y2,
                rotation: r2,
            },
        ) => {
            c.nums(
                &format!("{what} point"),
                &[*x, *y, *rotation],
                &[*x2, *y2, *r2],
            );
        }
        (
            K::Clipping {
                end,
                vertices,
                convex,
                inverse,
            },
            K::Clipping {
                end: e2,
                vertices: v2,
                convex: c2,
                inverse: i2,
            },
        ) => {
            c.eq(&format!("{what} end"), end, e2);
            c.eq(&format!("{what} convex"), convex, c2);
            c.eq(&format!("{what} inverse"), inverse, i2);
            compare_vertices(c, &format!("{what} vertices"), vertices, v2);
        }
        (a, b) => c.eq(
            &format!("{what} kind"),
            format!("{a:?}").split(' ').next().map(str::to_owned),
            format!("{b:?}").split(' ').next().map(str::to_owned),
        ),
    }
}

fn curve_kind(c: &RawCurve) -> &'static str {
    match c {
        RawCurve::Linear => "linear",
        RawCurve::Stepped => "stepped",
        RawCurve::Bezier(_) => "bezier",
        RawCurve::Eased { .. } => "eased",
    }
}

/// `same_as_next`: the key holds the same values as the next one, so any curve between them
/// is the same (the editor writes such curves as it likes).
fn compare_key(c: &mut Cmp, what: &str, a: &RawKey, b: &RawKey, same_as_next: bool) {
    c.num(&format!("{what} time"), a.time, b.time);
    c.nums(&format!("{what} values"), &a.values, &b.values);
    if !same_as_next {
        c.eq(
            &format!("{what} curve"),
            curve_kind(&a.curve),
            curve_kind(&b.curve),
        );
    }
    if let (RawCurve::Bezier(x), RawCurve::Bezier(y)) = (&a.curve, &b.curve) {
        c.nums(&format!("{what} bezier"), x, y);
    }
    match (&a.data, &b.data) {
        (
            RawKeyData::Deform { offset, vertices },
            RawKeyData::Deform {
                offset: o2,
                vertices: v2,
            },
        ) => {
            // The editor trims zero deltas differently in the two formats: compare the
            // deltas over the attachment's whole range.
            let at = |o: u32, v: &[f32], i: usize| -> f64 {
                i.checked_sub(o as usize)
                    .and_then(|k| v.get(k))
                    .map_or(0.0, |x| f64::from(*x))
            };
            let end = (*offset as usize + vertices.len()).max(*o2 as usize + v2.len());
            for i in 0..end {
                c.num(
                    &format!("{what} deform[{i}]"),
                    at(*offset, vertices, i),
                    at(*o2, v2, i),
                );
            }
        }
        (
            RawKeyData::Event {
                name,
                int,
                float,
                string,
                volume,
                balance,
            },
            RawKeyData::Event {
                name: n2,
                int: i2,
                float: f2,
                string: s2,
                volume: v2,
                balance: b2,
            },
        ) => {
            c.eq(&format!("{what} event"), name, n2);
            // The binary stores every payload; JSON only the overrides.
            if i2.is_some() {
                c.eq(&format!("{what} int"), int, i2);
            }
            if let (Some(x), Some(y)) = (float, f2) {
                c.num(&format!("{what} float"), f64::from(*x), f64::from(*y));
            }
            if s2.is_some() {
                c.eq(&format!("{what} string"), string, s2);
            }
            c.eq(&format!("{what} volume"), volume.is_some(), v2.is_some());
            c.eq(&format!("{what} balance"), balance.is_some(), b2.is_some());
        }
        (RawKeyData::DrawOrder(Some(x)), RawKeyData::DrawOrder(None)) => {
            c.eq(&format!("{what} draw order"), x.len(), 0);
        }
        (x, y) => c.eq(&format!("{what} data"), x, y),
    }
}

/// The whole rig, item by item.
fn compare(file: &str, a: &RawRig, b: &RawRig) -> Vec<String> {
    let mut c = Cmp {
        file,
        diffs: Vec::new(),
    };
    c.eq("version", &a.version, &b.version);
    c.nums("bounds", &a.bounds, &b.bounds);
    c.num("reference scale", a.reference_scale, b.reference_scale);
    c.eq("bones", a.bones.len(), b.bones.len());
    for (x, y) in a.bones.iter().zip(&b.bones) {
        let w = format!("bone `{}`", y.name);
        c.eq(&format!("{w} name"), &x.name, &y.name);
        c.eq(&format!("{w} parent"), &x.parent, &y.parent);
        c.eq(&format!("{w} inherit"), x.inherit, y.inherit);
        c.eq(&format!("{w} skin"), x.skin_required, y.skin_required);
        c.nums(
            &w,
            &[
                x.length, x.x, x.y, x.rotation, x.scale_x, x.scale_y, x.shear_x, x.shear_y,
            ],
            &[
                y.length, y.x, y.y, y.rotation, y.scale_x, y.scale_y, y.shear_x, y.shear_y,
            ],
        );
    }
    c.eq("slots", a.slots.len(), b.slots.len());
    for (x, y) in a.slots.iter().zip(&b.slots) {
        let w = format!("slot `{}`", y.name);
        c.eq(&format!("{w} name"), (&x.name, &x.bone), (&y.name, &y.bone));
        c.eq(&format!("{w} attachment"), &x.attachment, &y.attachment);
        c.eq(&format!("{w} blend"), x.blend, y.blend);
        c.eq(&format!("{w} visible"), x.visible, y.visible);
        c.color(&format!("{w} color"), x.color, y.color);
        c.eq(&format!("{w} dark"), x.dark.is_some(), y.dark.is_some());
        if let (Some(d1), Some(d2)) = (x.dark, y.dark) {
            c.color(&format!("{w} dark"), d1, d2);
        }
    }
    c.eq("ik", a.ik.len(), b.ik.len());
    for (x, y) in a.ik.iter().zip(&b.ik) {
        let w = format!("ik `{}`", y.name);
        c.eq(
            &w,
            (&x.name, x.order, &x.bones, &x.target),
            (&y.name, y.order, &y.bones, &y.target),
        );
        // The bend direction only matters with two bones (the editor writes -1 for one bone
        // in the binary and leaves the default +1 in JSON).
        let bend = |k: &RawIk| k.bones.len() < 2 || k.bend_positive;
        c.eq(
            &format!("{w} flags"),
            (x.skin_required, bend(x), x.compress, x.stretch, x.uniform),
            (y.skin_required, bend(y), y.compress, y.stretch, y.uniform),
        );
        c.nums(&w, &[x.mix, x.softness], &[y.mix, y.softness]);
    }
    c.eq("transforms", a.transforms.len(), b.transforms.len());
    for (x, y) in a.transforms.iter().zip(&b.transforms) {
        let w = format!("transform `{}`", y.name);
        c.eq(
            &w,
            (&x.name, x.order, &x.bones, &x.target),
            (&y.name, y.order, &y.bones, &y.target),
        );
        c.eq(
            &format!("{w} flags"),
            (x.skin_required, x.local, x.relative),
            (y.skin_required, y.local, y.relative),
        );
        c.nums(
            &w,
            &[
                x.offset_rotation,
                x.offset_x,
                x.offset_y,
                x.offset_scale_x,
                x.offset_scale_y,
                x.offset_shear_y,
                x.mix_rotate,
                x.mix_x,
                x.mix_y,
                x.mix_scale_x,
                x.mix_scale_y,
                x.mix_shear_y,
            ],
            &[
                y.offset_rotation,
                y.offset_x,
                y.offset_y,
                y.offset_scale_x,
                y.offset_scale_y,
                y.offset_shear_y,
                y.mix_rotate,
                y.mix_x,
                y.mix_y,
                y.mix_scale_x,
                y.mix_scale_y,
                y.mix_shear_y,
            ],
        );
    }
    c.eq("paths", a.paths.len(), b.paths.len());
    for (x, y) in a.paths.iter().zip(&b.paths) {
        let w = format!("path `{}`", y.name);
        c.eq(
            &w,
            (&x.name, x.order, &x.bones, &x.target),
            (&y.name, y.order, &y.bones, &y.target),
        );
        c.eq(
            &format!("{w} modes"),
            (
                x.skin_required,
                x.position_mode,
                x.spacing_mode,
                x.rotate_mode,
            ),
            (
                y.skin_required,
                y.position_mode,
                y.spacing_mode,
                y.rotate_mode,
            ),
        );
        c.nums(
            &w,
            &[
                x.offset_rotation,
                x.position,
                x.spacing,
                x.mix_rotate,
                x.mix_x,
                x.mix_y,
            ],
            &[
                y.offset_rotation,
                y.position,
                y.spacing,
                y.mix_rotate,
                y.mix_x,
                y.mix_y,
            ],
        );
    }
    c.eq("physics", a.physics.len(), b.physics.len());
    for (x, y) in a.physics.iter().zip(&b.physics) {
        let w = format!("physics `{}`", y.name);
        c.eq(&w, (&x.name, x.order, &x.bone), (&y.name, y.order, &y.bone));
        c.eq(
            &format!("{w} flags"),
            [
                x.skin_required,
                x.inertia_global,
                x.strength_global,
                x.damping_global,
                x.mass_global,
                x.wind_global,
                x.gravity_global,
                x.mix_global,
            ],
            [
                y.skin_required,
                y.inertia_global,
                y.strength_global,
                y.damping_global,
                y.mass_global,
                y.wind_global,
                y.gravity_global,
                y.mix_global,
            ],
        );
        c.nums(
            &w,
            &[
                x.x,
                x.y,
                x.rotate,
                x.scale_x,
                x.shear_x,
                x.limit,
                x.step,
                x.inertia,
                x.strength,
                x.damping,
                x.mass_inverse,
                x.wind,
                x.gravity,
                x.mix,
            ],
            &[
                y.x,
                y.y,
                y.rotate,
                y.scale_x,
                y.shear_x,
                y.limit,
                y.step,
                y.inertia,
                y.strength,
                y.damping,
                y.mass_inverse,
                y.wind,
                y.gravity,
                y.mix,
            ],
        );
    }
    c.eq("skins", a.skins.len(), b.skins.len());
    for (x, y) in a.skins.iter().zip(&b.skins) {
        let w = format!("skin `{}`", y.name);
        c.eq(&format!("{w} name"), &x.name, &y.name);
        c.eq(
            &format!("{w} scoped"),
            (&x.bones, &x.ik, &x.transforms, &x.paths, &x.physics),
            (&y.bones, &y.ik, &y.transforms, &y.paths, &y.physics),
        );
        c.eq(
            &format!("{w} attachments"),
            x.attachments.len(),
            y.attachments.len(),
        );
        // JSON lists attachments by slot name order of the file, the binary by slot index:
        // match them by (slot, key).
        for e in &y.attachments {
            match x
                .attachments
                .iter()
                .find(|f| f.slot == e.slot && f.key == e.key)
            {
                Some(f) => compare_attachment(
                    &mut c,
                    &format!("{w} `{}`/`{}`", e.slot, e.key),
                    &f.attachment,
                    &e.attachment,
                ),
                None => c.eq(&format!("{w} has `{}`/`{}`", e.slot, e.key), false, true),
            }
        }
    }
    c.eq("events", a.events.len(), b.events.len());
    for (x, y) in a.events.iter().zip(&b.events) {
        c.eq(
            &format!("event `{}`", y.name),
            (&x.name, x.int, &x.string, &x.audio),
            (&y.name, y.int, &y.string, &y.audio),
        );
        c.nums(
            &format!("event `{}`", y.name),
            &[x.float, x.volume, x.balance],
            &[y.float, y.volume, y.balance],
        );
    }
    c.eq("clips", a.clips.len(), b.clips.len());
    for (x, y) in a.clips.iter().zip(&b.clips) {
        let w = format!("clip `{}`", y.name);
        c.eq(&format!("{w} name"), &x.name, &y.name);
        c.eq(
            &format!("{w} timelines"),
            x.timelines.len(),
            y.timelines.len(),
        );
        // Timelines of one section may come in another order (JSON: by name in the file,
        // binary: by index): match them by target.
        for t in &y.timelines {
            match x.timelines.iter().find(|u| u.target == t.target) {
                Some(u) => {
                    let tw = format!("{w} {:?}", t.target);
                    c.eq(&format!("{tw} keys"), u.keys.len(), t.keys.len());
                    for (i, (k1, k2)) in u.keys.iter().zip(&t.keys).enumerate() {
                        let same = t.keys.get(i + 1).is_some_and(|n| {
                            n.values == k2.values && n.data == k2.data && !n.values.is_empty()
                        });
                        compare_key(&mut c, &format!("{tw} key {i}"), k1, k2, same);
                    }
                }
                None => c.eq(&format!("{w} has {:?}", t.target), false, true),
            }
        }
    }
    c.diffs
}

#[test]
fn every_skel_is_the_same_rig_as_its_json_twin() {
    let Some(pairs) = skel_pairs("every_skel_is_the_same_rig_as_its_json_twin") else {
        return;
    };
    let mut diffs = Vec::new();
    for (skel, json) in &pairs {
        let file = skel.file_name().unwrap().to_string_lossy().into_owned();
        let a = match load_spine_file(skel) {
            Ok(a) => a,
            Err(e) => {
                diffs.push(format!("{file}: {e}"));
                continue;
            }
        };
        if let Err(e) = build_rig(&a) {
            diffs.push(format!("{file}: does not build: {e}"));
        }
        if !json.is_file() {
            continue;
        }
        let b = load_spine_json(json).unwrap();
        diffs.extend(compare(&file, &a, &b));
    }
    assert!(
        diffs.is_empty(),
        "{} differences:\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}

#[test]
fn the_format_is_told_from_the_content() {
    assert!(is_spine_json(b"  \n{\"skeleton\": {}}"));
    assert!(is_spine_json(b"\xef\xbb\xbf{}"));
    assert!(!is_spine_json(b"{\xff\xfe"));
    assert!(!is_spine_json(b"\x00\x01{"));
    assert!(!is_spine_json(b""));
    let Some(pairs) = skel_pairs("the_format_is_told_from_the_content") else {
        return;
    };
    for (skel, json) in pairs.iter().take(4) {
        assert!(
            !is_spine_json(&std::fs::read(skel).unwrap()),
            "{}",
            skel.display()
        );
        if json.is_file() {
            let data = std::fs::read(json).unwrap();
            assert!(is_spine_json(&data), "{}", json.display());
            assert!(parse_spine(&data, "x.json").is_ok());
        }
    }
}

/// A hand-made file: header, empty string table, one bone whose name claims more bytes than
/// the file has.
#[test]
fn errors_name_the_file_the_byte_and_the_section() {
    let mut data = vec![0u8; 8];
    data.push(7);
    data.extend_from_slice(b"4.2.22");
    for _ in 0..5 {
        data.extend_from_slice(&0f32.to_be_bytes());
    }
    data.push(0); // no nonessential data
    data.push(0); // no strings
    data.push(1); // one bone
    let name_at = data.len();
    data.extend_from_slice(&[0x90, 0x4e]); // a 9999-byte name (10000 = 0x10 + 0x4e << 7)
    data.extend_from_slice(b"root");
    data.extend_from_slice(&[0; 40]);
    let e = parse_spine_binary(&data, "t.skel").unwrap_err();
    let msg = e.to_string();
    assert!(
        matches!(e, LoadError::Binary { offset, .. } if offset == name_at),
        "{msg}"
    );
    assert_eq!(
        msg,
        format!(
            "t.skel: byte {name_at}: bone 0: string of 9999 bytes exceeds the remaining 44 bytes"
        )
    );
    // A count past the bytes left.
    let mut data2 = data[..name_at - 1].to_vec();
    data2.extend_from_slice(&[0xff, 0xff, 0x03]);
    let msg = parse_spine_binary(&data2, "t.skel")
        .unwrap_err()
        .to_string();
    assert!(msg.contains("bones") && msg.contains("exceed"), "{msg}");
    // Another version is refused by name (4.3 is read: spine43_upgrade.rs).
    let mut data3 = data.clone();
    data3[11] = b'4';
    let msg = parse_spine_binary(&data3, "t.skel")
        .unwrap_err()
        .to_string();
    assert!(msg.contains("unsupported Spine version 4.4.22"), "{msg}");
}

/// Loads, and when the load succeeds builds and plays a few frames of every clip.
fn load_and_play(data: &[u8]) -> bool {
    let Ok(raw) = parse_spine_binary(data, "m.skel") else {
        return false;
    };
    let Ok(rig) = build_rig(&raw) else {
        return true;
    };
    let rig = std::sync::Arc::new(rig);
    for clip in rig.clips.iter().take(3) {
        let mut c = sinew::Character::new(rig.clone());
        c.set_animation(0, &clip.name, true).unwrap();
        let mut vertices = vec![0.0; c.max_world_floats()];
        for _ in 0..4 {
            c.update(0.1);
            c.draw_list();
            c.compute_world_vertices(&mut vertices);
        }
    }
    true
}

fn small_skels(test: &str) -> Option<Vec<Vec<u8>>> {
    let dir = sinew_testutil::require_spine_fixtures(test)?;
    Some(
        [
            "coin/coin-pro.skel",
            "spinosaurus/spinosaurus-ess.skel",
            "vine/vine-pro.skel",
        ]
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .collect(),
    )
}

#[test]
fn every_prefix_of_a_real_skel_is_an_error() {
    let Some(files) = small_skels("every_prefix_of_a_real_skel_is_an_error") else {
        return;
    };
    for data in &files {
        assert!(parse_spine_binary(data, "whole.skel").is_ok());
        for len in 0..data.len() {
            let r = parse_spine_binary(&data[..len], "cut.skel");
            assert!(
                r.is_err(),
                "a prefix of {len} of {} bytes loaded",
                data.len()
            );
        }
    }
}

#[test]
fn flipped_bytes_give_an_error_or_a_rig_never_a_panic() {
    let Some(files) = small_skels("flipped_bytes_give_an_error_or_a_rig_never_a_panic") else {
        return;
    };
    // xorshift: a fixed, reproducible sequence of mutations.
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let (mut loaded, mut refused) = (0, 0);
    for data in &files {
        for _ in 0..400 {
            let mut m = data.clone();
            for _ in 0..1 + next() % 3 {
                let i = (next() % m.len() as u64) as usize;
                m[i] ^= 1 << (next() % 8);
            }
            if load_and_play(&m) {
                loaded += 1;
            } else {
                refused += 1;
            }
        }
    }
    // Both outcomes happen: flips in floats load, flips in counts and kinds do not.
    assert!(
        loaded > 0 && refused > 0,
        "loaded {loaded}, refused {refused}"
    );
}

#[test]
fn a_skel_loads_through_the_one_call_loader() {
    let Some(dir) =
        sinew_testutil::require_spine_fixtures("a_skel_loads_through_the_one_call_loader")
    else {
        return;
    };
    let path: &Path = &dir.join("spineboy/spineboy-pro.skel");
    let raw = load_spine_file(path).unwrap();
    assert_eq!(raw.version, "4.2.22");
    assert!(raw.clips.iter().any(|c| c.name == "run"));
}
