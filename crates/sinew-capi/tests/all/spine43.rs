//! Spine 4.3 files through the C ABI: the same loader call as 4.2 (`sinew_rig_load_spine`)
//! reads a 4.3 JSON export (the shared fixtures' spineboy converted by the verified 4.2 ->
//! 4.3 converter), and a 4.2 and a 4.3 rig play side by side in one process. Their poses
//! equal the Rust facade's bit for bit, and the 4.3 spineboy `run` stays within the golden
//! tolerances of the 4.2 original (the conversion changes no pose of this rig).

use crate::common::{character, last_error, rust_worlds, s, worlds};
use sinew_capi::*;
use std::ptr::{null, null_mut};

fn load(path: &std::path::Path) -> *mut SinewRig {
    let p = path.to_str().expect("utf-8 path");
    let mut rig = null_mut();
    let st = sinew_rig_load_spine(p.as_ptr().cast(), p.len(), null(), 0, null(), 0, &mut rig);
    assert_eq!(st, SinewStatus::Ok, "{}: {}", p, last_error());
    rig
}

#[test]
fn a_spine_43_rig_plays_beside_its_42_original_from_c() {
    let test = "a_spine_43_rig_plays_beside_its_42_original_from_c";
    let Some(fx43) = sinew_testutil::require_spine43_fixtures(test) else {
        return;
    };
    let fx = fx43.parent().expect("the fixtures folder").to_path_buf();
    let p42 = fx.join("spine/spineboy/spineboy-pro.json");
    let p43 = fx43.join("spineboy/spineboy-pro.json");
    let (r42, r43) = (load(&p42), load(&p43));
    let (c42, c43) = (character(r42), character(r43));
    let mut rust43 = sinew_formats::load_spine(&p43, None, &Default::default())
        .expect("the 4.3 rig loads")
        .character();
    let (run, l) = s("run");
    for c in [c42, c43] {
        assert_eq!(
            sinew_character_set_animation(c, 0, run, l, true),
            SinewStatus::Ok
        );
    }
    rust43.set_animation(0, "run", true).expect("run");
    for frame in 0..40 {
        for c in [c42, c43] {
            assert_eq!(sinew_character_update(c, 1.0 / 60.0), SinewStatus::Ok);
        }
        rust43.update(1.0 / 60.0);
        let (w42, w43) = (worlds(c42), worlds(c43));
        assert_eq!(
            w43,
            rust_worlds(&rust43),
            "frame {frame}: C and Rust differ on 4.3"
        );
        assert_eq!(w42.len(), w43.len());
        for (i, (a, b)) in w42.chunks(6).zip(w43.chunks(6)).enumerate() {
            let [a, b] = [a, b].map(|v| v.iter().map(|&x| f64::from_bits(x)).collect::<Vec<_>>());
            for k in 0..6 {
                let tol = if k < 4 { 1e-3 } else { 1e-2 };
                assert!(
                    (a[k] - b[k]).abs() <= tol,
                    "frame {frame}, bone {i}, value {k}: 4.2 {} vs 4.3 {}",
                    a[k],
                    b[k]
                );
            }
        }
    }
    for c in [c42, c43] {
        sinew_character_destroy(c);
    }
    sinew_rig_destroy(r42);
    sinew_rig_destroy(r43);
}
