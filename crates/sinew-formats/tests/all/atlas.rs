//! Every fixture `.atlas` parses, every fixture rig with an atlas binds to it, and bound
//! UVs equal the official runtime's.
#![allow(clippy::unwrap_used)]

use sinew::build::build_rig;
use sinew::rig::AttachmentKind;
use sinew_formats::atlas::{load_atlas, parse_atlas};
use sinew_formats::spine::load_spine_json;
use sinew_formats::{LoadError, bind_atlas};
use std::path::PathBuf;

/// (folder, atlas) for every fixture folder with an atlas.
fn atlases(test: &str) -> Option<Vec<(PathBuf, PathBuf)>> {
    let out: Vec<(PathBuf, PathBuf)> = sinew_testutil::spine_fixture_files(test, &["atlas"])?
        .into_iter()
        .filter_map(|f| Some((f.parent()?.to_path_buf(), f)))
        .collect();
    assert!(out.len() >= 15, "found {} atlases", out.len());
    Some(out)
}

#[test]
fn every_fixture_atlas_parses() {
    let Some(list) = atlases("every_fixture_atlas_parses") else {
        return;
    };
    for (_, path) in list {
        let atlas = load_atlas(&path).unwrap_or_else(|e| panic!("{e}"));
        let text = std::fs::read_to_string(&path).unwrap();
        // One `bounds:` (4.x) or `xy:` (older) entry per region.
        let declared = text
            .lines()
            .filter(|l| l.trim_start().starts_with("bounds:") || l.trim_start().starts_with("xy:"))
            .count();
        assert_eq!(atlas.regions.len(), declared, "{}", path.display());
        assert!(!atlas.pages.is_empty());
        for r in &atlas.regions {
            let p = &atlas.pages[r.page as usize];
            assert!(p.width > 0 && p.height > 0);
            assert!(
                (0.0..=1.0).contains(&r.u) && r.u <= r.u2 && r.u2 <= 1.0,
                "{} {}",
                path.display(),
                r.name
            );
            assert!(
                (0.0..=1.0).contains(&r.v) && r.v <= r.v2 && r.v2 <= 1.0,
                "{} {}",
                path.display(),
                r.name
            );
        }
    }
}

#[test]
fn every_fixture_rig_binds_to_its_atlas() {
    let Some(list) = atlases("every_fixture_rig_binds_to_its_atlas") else {
        return;
    };
    let mut bound = 0;
    for (folder, atlas_path) in list {
        let atlas = load_atlas(&atlas_path).unwrap();
        for f in std::fs::read_dir(&folder).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_none_or(|x| x != "json") {
                continue;
            }
            let mut rig = build_rig(&load_spine_json(&f).unwrap()).unwrap();
            bind_atlas(&mut rig, &atlas).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            bound += 1;
            for a in &rig.attachments {
                if let AttachmentKind::Mesh(m) = &a.kind {
                    assert_eq!(m.uvs.len(), m.region_uvs.len() * m.regions.len());
                }
            }
        }
    }
    assert!(bound >= 15);
}

#[test]
fn bound_uvs_match_the_official_runtime() {
    let Some(dir) = sinew_testutil::require_spine_fixtures("bound_uvs_match_the_official_runtime")
    else {
        return;
    };
    let sb = dir.join("spineboy");
    let mut rig = build_rig(&load_spine_json(&sb.join("spineboy-pro.json")).unwrap()).unwrap();
    bind_atlas(&mut rig, &load_atlas(&sb.join("spineboy.atlas")).unwrap()).unwrap();
    let find = |name: &str| rig.attachments.iter().find(|a| a.name == name).unwrap();
    // From: node dump.mjs spineboy-pro.json --atlas spineboy.atlas --uvs --times 0
    let AttachmentKind::Region(fist) = &find("front-fist-closed").kind else {
        panic!()
    };
    let want: [f64; 8] = [
        0.767578125,
        0.4140625,
        0.767578125,
        0.25390625,
        0.8046875,
        0.25390625,
        0.8046875,
        0.4140625,
    ];
    let got: Vec<f64> = fist.uvs.iter().map(|&u| f64::from(u)).collect();
    assert_eq!(got, want);
    // front-shin is a mesh on a region rotated 90 degrees.
    let AttachmentKind::Mesh(shin) = &find("front-shin").kind else {
        panic!()
    };
    let want = [
        0.6546115279197693,
        0.51596599817276,
        0.6609392166137695,
        0.5,
        0.6688373684883118,
        0.5,
    ];
    for (got, want) in shin.uvs.iter().zip(want) {
        assert!((f64::from(*got) - want).abs() < 1e-7, "{got} vs {want}");
    }
    let AttachmentKind::Mesh(torso) = &find("torso").kind else {
        panic!()
    };
    let want = [
        0.913701057434082,
        0.6851750016212463,
        0.931640625,
        0.7333003878593445,
    ];
    for (got, want) in torso.uvs.iter().zip(want) {
        assert!((f64::from(*got) - want).abs() < 1e-7, "{got} vs {want}");
    }
}

#[test]
fn missing_region_is_named() {
    let Some(dir) = sinew_testutil::require_spine_fixtures("missing_region_is_named") else {
        return;
    };
    let mut rig =
        build_rig(&load_spine_json(&dir.join("spineboy/spineboy-ess.json")).unwrap()).unwrap();
    let atlas = parse_atlas(
        "page.png\nsize: 64, 64\nnot-there\nbounds: 0, 0, 8, 8\n",
        "tiny.atlas",
    )
    .unwrap();
    let err = bind_atlas(&mut rig, &atlas).unwrap_err();
    assert!(matches!(err, LoadError::MissingRegion { .. }));
    assert!(
        err.to_string().starts_with("atlas has no region `"),
        "{err}"
    );
}
