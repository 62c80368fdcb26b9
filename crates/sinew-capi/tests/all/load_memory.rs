//! `sinew_rig_load_memory`: any format from the host's bytes (no file read), its companions
//! found by the names the main file gives them; the same rig as the path loader; a file that
//! is not a rig refused with what it is.

use crate::common::last_error;
use sinew_capi::*;
use std::path::{Path, PathBuf};
use std::ptr::{null, null_mut};

fn stickbot() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/stickbot")
}

fn load_memory(name: &str, data: &[u8], files: &[(&str, Vec<u8>)]) -> (SinewStatus, *mut SinewRig) {
    let files: Vec<SinewFile> = files
        .iter()
        .map(|(n, b)| SinewFile {
            name: n.as_ptr().cast(),
            name_len: n.len(),
            data: b.as_ptr(),
            len: b.len(),
        })
        .collect();
    let mut rig = null_mut();
    let st = sinew_rig_load_memory(
        name.as_ptr().cast(),
        name.len(),
        data.as_ptr(),
        data.len(),
        files.as_ptr(),
        files.len(),
        null(),
        0,
        &mut rig,
    );
    (st, rig)
}

fn info(rig: *mut SinewRig) -> SinewRigInfo {
    let mut i = SinewRigInfo::default();
    assert_eq!(sinew_rig_info(rig, &mut i), SinewStatus::Ok);
    i
}

#[test]
fn any_format_loads_from_memory_with_its_companions() {
    let dir = stickbot();
    let read = |n: &str| std::fs::read(dir.join(n)).expect("example file");
    let files = [
        ("stickbot.atlas", read("stickbot.atlas")),
        ("stickbot.extras.json", read("stickbot.extras.json")),
    ];
    let (st, rig) = load_memory("stickbot.json", &read("stickbot.json"), &files);
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    let i = info(rig);
    assert_eq!((i.bones, i.pages, i.is_puppet), (20, 2, 0));
    assert_eq!(sinew_rig_destroy(rig), SinewStatus::Ok);
    // Without its atlas: untextured (the atlas beside it is optional).
    let (st, rig) = load_memory("stickbot.json", &read("stickbot.json"), &[]);
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    assert_eq!(info(rig).pages, 0);
    assert_eq!(sinew_rig_destroy(rig), SinewStatus::Ok);
    // A puppet, by its content.
    let face = std::fs::read(dir.join("../face/face.inp")).expect("face");
    let (st, rig) = load_memory("face.inp", &face, &[]);
    assert_eq!(st, SinewStatus::Ok, "{}", last_error());
    assert_eq!(info(rig).is_puppet, 1);
    assert_eq!(sinew_rig_destroy(rig), SinewStatus::Ok);
    // The atlas handed over as the rig: refused, saying what it is.
    let (st, _) = load_memory("stickbot.atlas", &read("stickbot.atlas"), &[]);
    assert_eq!(st, SinewStatus::LoadFailed);
    let e = last_error();
    assert!(
        e.contains("stickbot.atlas") && e.contains("Spine texture atlas"),
        "{e}"
    );
}
