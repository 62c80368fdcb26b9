//! Runs N frames of an Inochi2D puppet with no renderer, for instruction counting against
//! Inox2D (see the "Inochi2D puppets" section of docs/PERFORMANCE.md).
//!
//! `puppet_frames PUPPET.inp N [--vertices] [--all] [--mute-unset] [--still]`: each frame sets the 2D parameters
//! `Param2D_00..07` (with `--all`, every parameter) to sinusoids, then runs one
//! `Character::update` (the parameter stage with parameter physics and world transforms) at
//! 1/60 s; `--vertices` also computes
//! the world vertices of every visible part; `--mute-unset` leaves the parameters it does not
//! set out of the stage (Inox2D 0.2.0 applies only the parameters set in a frame, so this
//! is the same binding work as its frame); `--still` sets nothing (only physics moves). Running it with N = 0 measures the load alone.

use sinew::ParamId;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(path), Some(Ok(n))) = (args.first(), args.get(1).map(|s| s.parse::<usize>())) else {
        eprintln!(
            "usage: puppet_frames PUPPET.inp N [--vertices] [--all] [--mute-unset] [--still]"
        );
        return ExitCode::FAILURE;
    };
    let vertices = args.iter().any(|a| a == "--vertices");
    let all = args.iter().any(|a| a == "--all");
    let mute_unset = args.iter().any(|a| a == "--mute-unset");
    let still = args.iter().any(|a| a == "--still");
    let asset = match sinew_formats::load_inochi2d(&PathBuf::from(path), &Default::default()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let rig = asset.rig.clone();
    let params: Vec<ParamId> = rig
        .params
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| all || p.name.starts_with("Param2D_"))
        .map(|(i, _)| ParamId(i as u16))
        .collect();
    let mut character = asset.character();
    if mute_unset {
        for (i, d) in rig.params.params.iter().enumerate() {
            // Physics-driven parameters are set by the drivers every frame, as in Inox2D.
            let id = ParamId(i as u16);
            let _ = character.set_param_muted(id, !d.driven && !params.contains(&id));
        }
    }
    let mut buf = vec![0.0f32; character.max_world_floats()];
    let dt = 1.0 / 60.0;
    let mut time = 0.0f64;
    let mut sum = 0.0f64;
    for _ in 0..n {
        time += dt;
        for (i, &id) in params.iter().enumerate().filter(|_| !still) {
            // The same sinusoids as the Inox2D driver.
            let t = time * 1.3 + i as f64 * 0.37;
            let _ = character.set_param(id, [t.sin(), (t * 0.7).cos()]);
        }
        character.update(dt);
        if vertices {
            character.compute_world_vertices(&mut buf);
            sum += f64::from(buf.first().copied().unwrap_or(0.0));
        }
    }
    for w in &character.instance().world {
        sum += w.x + w.y;
    }
    println!("{sum}");
    ExitCode::SUCCESS
}
