//! The viewer's model on real files, without a window: `--anim none`, parameters held
//! against the animation's lanes (flag and control) until released, DragonBones clips played
//! as `Character::play` plays them (backwards too), and the reason an empty view gives.

use super::*;
use sinew_formats::LoadOptions;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// `path` opened as the viewer opens it (no switches changed) with `opening`, at `play`.
fn open(path: &Path, options: &LoadOptions, opening: Opening<'_>, play: &mut Playback) -> Loaded {
    let asset = sinew_formats::load(path, options).expect("the file loads");
    let character = asset.character();
    Loaded::new(path, asset, character, opening, play).expect("the viewer opens it")
}

fn face() -> PathBuf {
    examples().join("face/face.inp")
}

/// Steps `c` to `time` as the viewer's restart does: update(0), 1/60 s steps, the rest.
fn step_as_the_viewer(c: &mut sinew::Character, time: f64) {
    c.update(0.0);
    let mut t = 0.0;
    while t + 1.0 / 60.0 <= time {
        c.update(1.0 / 60.0);
        t += 1.0 / 60.0;
    }
    if time > t {
        c.update(time - t);
    }
}

fn at(time: f64) -> Playback {
    Playback {
        time,
        ..Playback::default()
    }
}

#[test]
fn anim_none_plays_nothing_and_an_unknown_name_lists_the_clips() {
    let clips = vec!["walk".to_owned(), "turn".to_owned()];
    assert_eq!(
        choose_anim(None, &clips).expect("first"),
        Some("walk".into())
    );
    assert_eq!(choose_anim(Some("none"), &clips).expect("none"), None);
    assert_eq!(
        choose_anim(Some("turn"), &clips).expect("turn"),
        Some("turn".into())
    );
    let err = choose_anim(Some("fly"), &clips)
        .expect_err("unknown")
        .to_string();
    assert!(err.contains("fly") && err.contains("walk, turn") && err.contains("`none`"));

    // The face with `--anim none` stays at its parameters' values: the idle does not play.
    let mut play = at(1.3);
    let opening = Opening {
        anim: Some(NO_ANIMATION),
        ..Opening::default()
    };
    let l = open(&face(), &LoadOptions::default(), opening, &mut play);
    assert_eq!(play.anim, None);
    assert_eq!(l.character.param("ParamAngle"), Some([0.0, 0.0]));
    assert_eq!(l.character.param("ParamEyeLOpen"), Some([1.0, 0.0]));
}

#[test]
fn a_parameter_from_the_command_line_beats_the_animation_until_released() {
    let options = LoadOptions::default();
    // The face playing `idle` (its first animation) 1.3 s in, as it plays alone.
    let mut plain_play = at(1.3);
    let plain = open(&face(), &options, Opening::default(), &mut plain_play);
    assert_eq!(plain_play.anim.as_deref(), Some("idle"));
    let idle_angle = plain.character.param("ParamAngle").expect("angle");
    assert_ne!(idle_angle, [20.0, -10.0], "idle moves the angle there");

    let held = [("ParamAngle".to_owned(), [20.0, -10.0])];
    let opening = Opening {
        params: &held,
        ..Opening::default()
    };
    let mut play = at(1.3);
    let mut l = open(&face(), &options, opening, &mut play);
    assert_eq!(play.anim.as_deref(), Some("idle"));
    assert_eq!(l.character.param("ParamAngle"), Some([20.0, -10.0]));
    // The animation still plays the other parameters.
    assert_eq!(
        l.character.param("ParamEyeLOpen"),
        plain.character.param("ParamEyeLOpen")
    );
    // ... and keeps off the held one frame after frame.
    for _ in 0..30 {
        l.character.update(1.0 / 60.0);
    }
    assert_eq!(l.character.param("ParamAngle"), Some([20.0, -10.0]));

    // Released: the lane plays it again (the same value as the face playing alone).
    l.release_param("ParamAngle", &play);
    assert!(l.held.is_empty());
    assert_eq!(l.character.param("ParamAngle"), Some(idle_angle));
}

#[test]
fn a_parameter_moved_in_the_panel_is_held_against_the_animation() {
    let mut play = at(0.7);
    let mut l = open(
        &face(),
        &LoadOptions::default(),
        Opening::default(),
        &mut play,
    );
    l.hold_param("ParamEyeLOpen", [0.25, 0.0], &play);
    assert_eq!(l.held, ["ParamEyeLOpen"]);
    for _ in 0..90 {
        l.character.update(1.0 / 60.0);
    }
    assert_eq!(l.character.param("ParamEyeLOpen"), Some([0.25, 0.0]));
    // Moved again while held: no restart, the new value stays.
    l.hold_param("ParamEyeLOpen", [0.5, 0.0], &play);
    l.character.update(1.0 / 60.0);
    assert_eq!(l.character.param("ParamEyeLOpen"), Some([0.5, 0.0]));
    assert_eq!(
        l.params
            .iter()
            .find(|p| p.0 == "ParamEyeLOpen")
            .map(|p| p.4),
        Some([0.5, 0.0])
    );
}

#[test]
fn dragonbones_clips_play_as_character_play_plays_them() {
    let Some(fixtures) = sinew_testutil::require_fixtures("viewer dragonbones playback") else {
        return;
    };
    let ske = fixtures.join("dragonbones/effect/effect_ske.json");
    let options = LoadOptions::default();
    // `flower`'s `skill` has no playTimes: once, then its end held.
    let mut play = Playback::default();
    let first = open(&ske, &options, Opening::default(), &mut play);
    let clip = play.anim.clone().expect("a clip");
    assert_eq!(clip, "skill");
    assert_eq!(first.plays(&clip, true), 1);
    let d = first.duration(Some(&clip));
    assert!(d > 0.0);

    for time in [0.3 * d, 1.5 * d, 2.5 * d] {
        let mut play = at(time);
        let mut l = open(&ske, &options, Opening::default(), &mut play);
        l.wrap_time(&mut play);
        assert_eq!(
            play.time,
            time.min(d),
            "a clip played once is held at its end"
        );
        // What a host driving `Character::play` with the same steps sees.
        let asset = sinew_formats::load(&ske, &options).expect("loads");
        let mut c = asset.character();
        c.set_default_mix(play.mix);
        c.play(0, &clip).expect("plays");
        step_as_the_viewer(&mut c, time);
        let want = c.draw_list().positions.clone();
        assert_eq!(l.character.draw_list().positions, want, "at {time} s");
    }
}

#[test]
fn backwards_plays_a_dragonbones_clip_as_a_negative_track_time_scale() {
    let Some(fixtures) = sinew_testutil::require_fixtures("viewer dragonbones backwards") else {
        return;
    };
    let ske = fixtures.join("dragonbones/dragon_boy/dragon_boy_ske.json");
    let options = LoadOptions::default();
    let mut forward = Vec::new();
    for time in [0.1, 0.45, 0.8] {
        let walk = || Opening {
            anim: Some("walk"),
            ..Opening::default()
        };
        let mut play = Playback {
            backwards: true,
            ..at(time)
        };
        let mut l = open(&ske, &options, walk(), &mut play);
        assert!(l.is_dragonbones_clip("walk"));
        // What a host sees with `Character::play` and a track time scale of -1.
        let asset = sinew_formats::load(&ske, &options).expect("loads");
        let mut c = asset.character();
        c.set_default_mix(play.mix);
        c.play(0, "walk").expect("plays");
        c.set_track_time_scale(0, -1.0).expect("a clip plays");
        step_as_the_viewer(&mut c, time);
        let want = c.draw_list().positions.clone();
        assert_eq!(l.character.draw_list().positions, want, "at {time} s");
        play.backwards = false;
        let mut f = open(&ske, &options, walk(), &mut play);
        forward.push(f.character.draw_list().positions != want);
    }
    assert!(forward.iter().all(|&d| d), "forward and backwards differ");
}

#[test]
fn an_empty_view_says_why_and_lists_the_skins() {
    let Some(fixtures) = sinew_testutil::require_fixtures("viewer empty view reason") else {
        return;
    };
    let skel = fixtures.join("spine/mix-and-match/mix-and-match-pro.json");
    let options = LoadOptions::default();
    let mut play = Playback::default();
    let mut l = open(&skel, &options, Opening::default(), &mut play);
    let why = l.empty_reason().expect("the default skin draws nothing");
    assert!(why.contains("`default`"), "{why}");
    assert!(why.contains("full-skins/girl"), "{why}");
    assert!(why.contains("--skin"), "{why}");

    let skins = ["full-skins/girl".to_owned()];
    let opening = Opening {
        skins: &skins,
        ..Opening::default()
    };
    let mut l = open(&skel, &options, opening, &mut play);
    assert_eq!(l.empty_reason(), None);
    let on: Vec<&str> = l
        .skins
        .iter()
        .filter(|s| s.1)
        .map(|s| s.0.as_str())
        .collect();
    assert_eq!(on, ["full-skins/girl"]);

    // The stickbot draws: nothing to say.
    let mut l = open(
        &examples().join("stickbot/stickbot.json"),
        &options,
        Opening::default(),
        &mut Playback::default(),
    );
    assert_eq!(l.empty_reason(), None);
}

#[test]
fn an_unknown_skin_is_an_error_naming_the_flag() {
    let path = examples().join("stickbot/stickbot.json");
    let asset = sinew_formats::load(&path, &LoadOptions::default()).expect("loads");
    let character = asset.character();
    let skins = ["nope".to_owned()];
    let opening = Opening {
        skins: &skins,
        ..Opening::default()
    };
    let err = Loaded::new(&path, asset, character, opening, &mut Playback::default())
        .err()
        .expect("refused")
        .to_string();
    assert!(err.starts_with("--skin:") && err.contains("nope"), "{err}");
}
