//! spineboy in about 40 lines: load with its atlas, crossfade walk into run, aim with IK, add
//! a jiggle chain to the hair from code, draw a frame to a PNG.
//!
//!     cargo run --release -p sinew-render --example spineboy -- [SPINEBOY_DIR] [OUT.png]
use sinew::physics::jiggle::{ChainDesc, JiggleDesc, JiggleRig, Preset};
use std::{path::PathBuf, sync::Arc};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir: PathBuf = args
        .next()
        .unwrap_or("../shared/fixtures/spine/spineboy".into())
        .into();
    let out = args.next().unwrap_or("spineboy-frame.png".into());
    let (skel, atlas) = (dir.join("spineboy-pro.json"), dir.join("spineboy.atlas"));
    let asset = sinew_formats::load_spine(&skel, Some(&atlas), &Default::default())?;
    let mut boy = asset.character();
    boy.set_mix("walk", "run", 0.4)?; // crossfade walk -> run over 0.4 s
    boy.set_animation(0, "walk", true)?;
    boy.add_animation(0, "run", true, 0.5)?; // queued: starts 0.5 s in
    let aim = boy.find_ik("aim-ik").ok_or("no aim-ik")?;
    let mut ik = boy.ik(aim).ok_or("no aim-ik state")?;
    ik.mix = 1.0; // the rig keeps aim-ik at 0 until its `aim` clip raises it
    boy.set_ik(aim, ik)?;
    boy.set_ik_target(aim, 300.0, 250.0)?; // the gun points here (world units)
    let mut hair = JiggleDesc::new();
    let params = Preset::HairTip.params();
    hair.chains
        .push(ChainDesc::new("hair", &["hair1", "hair2"], params));
    boy.set_jiggle(Some(Arc::new(JiggleRig::build(&asset.rig, &hair)?)))?;
    for _ in 0..60 {
        boy.update(1.0 / 60.0);
    }
    let textures = sinew_render::asset_textures(&asset)?;
    let mut canvas = sinew_render::Canvas::new(512, 512, sinew::Color::new(0.1, 0.1, 0.1, 1.0));
    let mut renderer = sinew_render::CharacterRenderer::new();
    renderer
        .draw_fitted(&mut boy, &textures, &mut canvas, 0.05)
        .ok_or("nothing drawn")?;
    canvas.save_png(&out)?;
    let arm = boy.bone_world("rear-upper-arm").ok_or("no arm")?; // the bone aim-ik turns
    let to_target = (250.0 - arm.y).atan2(300.0 - arm.x).to_degrees();
    let aim = arm.c.atan2(arm.a).to_degrees();
    println!("aim {aim:.3} deg, target {to_target:.3} deg; wrote {out}");
    Ok(())
}
