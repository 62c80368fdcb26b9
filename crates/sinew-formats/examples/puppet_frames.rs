//! Runs N frames of an Inochi2D puppet with no renderer, for instruction counting against
//! Inox2D (see the "Inochi2D puppets" section of docs/PERFORMANCE.md).
//!
//! `puppet_frames PUPPET.inp N [--vertices] [--all] [--mute-unset] [--still]`: each frame sets the 2D parameters
//! `Param2D_00..07` (with `--all`, every parameter) to sinusoids, then runs the parameter
//! stage with parameter physics and world transforms at 1/60 s; `--vertices` also computes
//! the world vertices of every visible part; `--mute-unset` leaves the parameters it does not
//! set out of the stage (Inox2D 0.2.0 applies only the parameters set in a frame, so this
//! is the same binding work as its frame); `--still` sets nothing (only physics moves). Running it with N = 0 measures the load alone.

use sinew::params::update_params;
use sinew::{AttachmentId, Instance, ParamId};
use sinew_formats::inochi2d::{build_puppet, load_inochi2d};
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
    let rig = match load_inochi2d(&PathBuf::from(path)).and_then(|p| build_puppet(&p)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let params: Vec<ParamId> = rig
        .params
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| all || p.name.starts_with("Param2D_"))
        .map(|(i, _)| ParamId(i as u16))
        .collect();
    let mut inst = Instance::new(&rig);
    if mute_unset {
        for (i, (m, d)) in inst
            .params
            .muted
            .iter_mut()
            .zip(&rig.params.params)
            .enumerate()
        {
            // Physics-driven parameters are set by the drivers every frame, as in Inox2D.
            *m = !d.driven && !params.contains(&ParamId(i as u16));
        }
    }
    let max = (0..rig.attachments.len())
        .map(|i| sinew::deform::world_vertex_count(&rig, AttachmentId(i as u32)))
        .max()
        .unwrap_or(0);
    let mut buf = vec![0.0f32; max * 2];
    let dt = 1.0 / 60.0;
    let mut time = 0.0f64;
    let mut sum = 0.0f64;
    for _ in 0..n {
        time += dt;
        for (i, &id) in params.iter().enumerate().filter(|_| !still) {
            // The same sinusoids as the Inox2D driver.
            let t = time * 1.3 + i as f64 * 0.37;
            inst.params.set(&rig, id, [t.sin(), (t * 0.7).cos()]);
        }
        update_params(&rig, &mut inst, dt, true);
        if vertices {
            for &slot in &inst.draw_order {
                let Some(att) = inst.slots.attachment[slot.index()] else {
                    continue;
                };
                let n = sinew::deform::world_vertex_count(&rig, att) * 2;
                sinew::deform::compute_world_vertices(&rig, &inst, slot, &mut buf[..n]);
                sum += f64::from(buf.first().copied().unwrap_or(0.0));
            }
        }
    }
    for w in &inst.world {
        sum += w.x + w.y;
    }
    println!("{sum}");
    ExitCode::SUCCESS
}
