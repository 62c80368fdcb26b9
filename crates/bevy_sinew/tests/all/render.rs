//! The render comparison: a Bevy app draws a character into an image (headless, read back
//! from the GPU) and sinew's CPU renderer draws the same character's same pose through the
//! same view; the two must agree (coverage IoU >= 0.98, PSNR >= 30 dB over the pixels either
//! one covers). The images are written to `target/bevy-render/` for a look.

use crate::common::{fixture_dir, headless_app, repo_root, until_ready};
use bevy::asset::RenderAssetUsages;
use bevy::camera::{CompositingSpace, RenderTarget, ScalingMode};
use bevy::prelude::*;
use bevy::render::gpu_readback::{Readback, ReadbackComplete};
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat, TextureUsages};
use bevy_sinew::sinew::Character;
use bevy_sinew::{SinewCharacter, SinewRig, SinewSettings};
use sinew_render::{Canvas, CharacterRenderer, MaskedRenderer, View};
use std::path::Path;
use std::sync::{Arc, Mutex};

pub const SIZE: u32 = 256;

/// The last image read back from the GPU.
#[derive(Resource, Clone, Default)]
struct Captured(Arc<Mutex<Option<Vec<u8>>>>);

/// What the two renders gave.
pub struct Outcome {
    pub iou: f64,
    pub psnr: f64,
    pub batches: usize,
    /// Off-screen passes the character was drawn with.
    pub passes: usize,
    /// The images, RGBA8 premultiplied, SIZE x SIZE: Bevy's, the CPU's, and the CPU's
    /// without slot masks.
    pub gpu: Vec<u8>,
    pub cpu: Vec<u8>,
    pub cpu_unmasked: Vec<u8>,
}

/// Renders `file` (in `dir`) posed by `pose` in Bevy and on the CPU; returns the metrics.
fn render_both(
    name: &str,
    dir: &Path,
    file: &str,
    pose: impl FnOnce(&mut Character) + Send + Sync + 'static,
) -> Outcome {
    render_both_with(name, dir, file, true, pose)
}

/// [`render_both`], with the plugin's off-screen passes on or off
/// (`SinewSettings::layers`).
pub fn render_both_with(
    name: &str,
    dir: &Path,
    file: &str,
    layers: bool,
    pose: impl FnOnce(&mut Character) + Send + Sync + 'static,
) -> Outcome {
    let mut app = headless_app(dir);
    app.insert_resource(SinewSettings {
        layers,
        ..SinewSettings::default()
    });
    let rig: Handle<SinewRig> = app.world().resource::<AssetServer>().load(file.to_owned());
    let entity = app
        .world_mut()
        .spawn(SinewCharacter::new(rig.clone()).with(pose))
        .id();
    until_ready(&mut app, entity, 2000);
    // The pose stays: virtual time stands still from here on.
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    app.update();
    let [x0, y0, x1, y1] = app
        .world_mut()
        .get_mut::<SinewCharacter>(entity)
        .and_then(|mut c| c.character().and_then(|c| c.fit_view(SIZE, SIZE, 0.05)))
        .expect("the character shows something");

    let gpu = capture(&mut app, [x0, y0, x1, y1]);
    assert_eq!(
        gpu.len(),
        (SIZE * SIZE * 4) as usize,
        "{name}: unpadded RGBA8 rows"
    );

    let textures = {
        let rigs = app.world().resource::<Assets<SinewRig>>();
        sinew_render::asset_textures(&rigs.get(&rig).expect("loaded").asset).expect("textures")
    };
    let mut canvas = Canvas::new(
        SIZE,
        SIZE,
        bevy_sinew::sinew::Color::new(0.0, 0.0, 0.0, 0.0),
    );
    let view = View { x0, y0, x1, y1 };
    let (batches, passes) = app
        .world()
        .get::<bevy_sinew::SinewBatches>(entity)
        .map_or((0, 0), |b| (b.drawn(), b.passes()));
    let mut c = app.world_mut().get_mut::<SinewCharacter>(entity).unwrap();
    let character = c.character().unwrap();
    CharacterRenderer::new().draw(character, &textures, &view, &mut canvas);
    let bytes = |canvas: &Canvas| -> Vec<u8> {
        canvas
            .pixels
            .iter()
            .flat_map(|p| p.map(|v| (v * 255.0).round().clamp(0.0, 255.0) as u8))
            .collect()
    };
    let cpu = bytes(&canvas);
    // The same without slot masks: what an unmasked drawing would give.
    let mut unmasked = Canvas::new(
        SIZE,
        SIZE,
        bevy_sinew::sinew::Color::new(0.0, 0.0, 0.0, 0.0),
    );
    let (list, setup) = character.draw_list_and_setup();
    MaskedRenderer::new().render_grouped(
        list,
        &textures,
        &[],
        &setup.group_masks,
        &view,
        &mut unmasked,
    );
    let cpu_unmasked = bytes(&unmasked);

    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bevy-render");
    let _ = std::fs::create_dir_all(&out);
    for (which, px) in [("bevy", &gpu), ("cpu", &cpu)] {
        if let Ok(png) = sinew_render::encode::encode_png(SIZE, SIZE, px) {
            let _ = std::fs::write(out.join(format!("{name}-{which}.png")), png);
        }
    }
    let (iou, psnr) = compare(&gpu, &cpu);
    println!("{name}: IoU {iou:.4}, PSNR {psnr:.2} dB, {batches} batches, {passes} passes");
    Outcome {
        iou,
        psnr,
        batches,
        passes,
        gpu,
        cpu,
        cpu_unmasked,
    }
}

/// Draws the app's world through a camera over `view` (x0, y0, x1, y1) into a SIZE x SIZE
/// image with `CompositingSpace::Srgb`, 60 frames, and reads the last one back.
pub fn capture(app: &mut App, view: [f64; 4]) -> Vec<u8> {
    let [x0, y0, x1, y1] = view;
    let mut image = Image::new_fill(
        Extent3d {
            width: SIZE,
            height: SIZE,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        &[0, 0, 0, 0],
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.texture_descriptor.usage = TextureUsages::TEXTURE_BINDING
        | TextureUsages::COPY_DST
        | TextureUsages::COPY_SRC
        | TextureUsages::RENDER_ATTACHMENT;
    let target = app.world_mut().resource_mut::<Assets<Image>>().add(image);
    let captured = Captured::default();
    app.insert_resource(captured.clone());
    app.world_mut().spawn((
        Camera2d,
        Camera {
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
        RenderTarget::Image(target.clone().into()),
        // Blend 8-bit sRGB values, as sinew's CPU renderer does.
        CompositingSpace::Srgb,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::Fixed {
                width: (x1 - x0) as f32,
                height: (y1 - y0) as f32,
            },
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(((x0 + x1) / 2.0) as f32, ((y0 + y1) / 2.0) as f32, 0.0),
    ));
    app.world_mut().spawn(Readback::texture(target)).observe(
        |ev: On<ReadbackComplete>, captured: Res<Captured>| {
            *captured.0.lock().unwrap() = Some(ev.data.clone());
        },
    );
    // Pipelines compile in the background (many of them for a layered puppet, slowly while
    // other tests run): give them frames, then keep going until the image holds still for
    // 20 frames in a row (at most 600 frames).
    let read = |app: &mut App| {
        app.update();
        captured.0.lock().unwrap().clone()
    };
    for _ in 0..60 {
        app.update();
    }
    let mut last = read(app);
    let mut still = 0;
    for _ in 0..600 {
        std::thread::sleep(std::time::Duration::from_millis(2));
        let now = read(app);
        still = if now == last { still + 1 } else { 0 };
        last = now;
        if still >= 20 {
            break;
        }
    }
    last.expect("an image was read back")
}

/// PSNR over premultiplied RGBA of the pixels where `region` is true, and how many there
/// are.
pub fn region_psnr(a: &[u8], b: &[u8], region: &[bool]) -> (f64, usize) {
    let (mut n, mut sq) = (0usize, 0f64);
    for ((p, q), _) in a
        .chunks_exact(4)
        .zip(b.chunks_exact(4))
        .zip(region)
        .filter(|(_, r)| **r)
    {
        n += 1;
        for k in 0..4 {
            let d = f64::from(p[k]) - f64::from(q[k]);
            sq += d * d;
        }
    }
    let mse = sq / (4 * n.max(1)) as f64;
    let psnr = if mse == 0.0 {
        f64::INFINITY
    } else {
        10.0 * (255.0f64 * 255.0 / mse).log10()
    };
    (psnr, n)
}

/// The pixels where two images differ by more than `by` in some channel.
pub fn differs(a: &[u8], b: &[u8], by: u8) -> Vec<bool> {
    a.chunks_exact(4)
        .zip(b.chunks_exact(4))
        .map(|(p, q)| p.iter().zip(q).any(|(x, y)| x.abs_diff(*y) > by))
        .collect()
}

/// Coverage IoU (alpha >= 128) and PSNR over premultiplied RGBA of the pixels either image
/// covers at all.
pub fn compare(a: &[u8], b: &[u8]) -> (f64, f64) {
    let (mut inter, mut union, mut n, mut sq) = (0u64, 0u64, 0u64, 0f64);
    for (p, q) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        let (pa, qa) = (p[3] >= 128, q[3] >= 128);
        inter += u64::from(pa && qa);
        union += u64::from(pa || qa);
        if p[3] > 0 || q[3] > 0 {
            n += 4;
            for k in 0..4 {
                let d = f64::from(p[k]) - f64::from(q[k]);
                sq += d * d;
            }
        }
    }
    let iou = if union == 0 {
        0.0
    } else {
        inter as f64 / union as f64
    };
    let mse = if n == 0 { 0.0 } else { sq / n as f64 };
    let psnr = if mse == 0.0 {
        f64::INFINITY
    } else {
        10.0 * (255.0f64 * 255.0 / mse).log10()
    };
    (iou, psnr)
}

pub fn check(name: &str, o: &Outcome) {
    assert!(o.batches > 0, "{name}: nothing was batched");
    assert!(o.iou >= 0.98, "{name}: IoU {:.4} < 0.98", o.iou);
    assert!(o.psnr >= 30.0, "{name}: PSNR {:.2} dB < 30", o.psnr);
}

#[test]
fn stickbot_matches_the_cpu_render() {
    // In the repository: a clipping mask, an additive slot, a weighted mesh, two pages.
    let dir = repo_root().join("examples/stickbot");
    let o = render_both("stickbot", &dir, "stickbot.json", |c| {
        c.set_animation(0, "walk", true).expect("walk");
        c.update(0.3);
    });
    check("stickbot", &o);
}

#[test]
fn face_puppet_matches_the_cpu_render() {
    let dir = repo_root().join("examples/face");
    let o = render_both("face", &dir, "face.inp", |c| {
        c.play_param_animation("idle", true).expect("idle");
        c.update(0.5);
    });
    check("face", &o);
}

#[test]
fn spineboy_matches_the_cpu_render() {
    let Some(dir) = fixture_dir("spineboy_matches_the_cpu_render", "spine/spineboy") else {
        return;
    };
    let o = render_both("spineboy", &dir, "spineboy-pro.json", |c| {
        c.set_animation(0, "walk", true).expect("walk");
        c.update(0.4);
    });
    check("spineboy", &o);
}

#[test]
fn dragonbones_matches_the_cpu_render() {
    let Some(dir) = fixture_dir(
        "dragonbones_matches_the_cpu_render",
        "dragonbones/dragon_boy",
    ) else {
        return;
    };
    let o = render_both("dragon_boy", &dir, "dragon_boy_ske.json", |c| {
        c.play(0, "walk").expect("walk");
        c.update(0.3);
    });
    check("dragon_boy", &o);
}

#[test]
fn face_puppet_with_closed_eyes_matches_the_cpu_render() {
    // Closed eyes: the irises, masked by the eye whites, collapse with them onto the lids;
    // unmasked they would show over the lids.
    let dir = repo_root().join("examples/face");
    let o = render_both("face-closed", &dir, "face.inp", |c| {
        c.set_param("ParamEyeLOpen", 0.35).expect("left eye");
        c.set_param("ParamEyeROpen", 0.35).expect("right eye");
        c.set_param("ParamAngle", [20.0, -10.0]).expect("angle");
        c.update(0.1);
    });
    check("face-closed", &o);
}

#[test]
fn spine43_convex_and_inverse_clips_match_the_cpu_render() {
    // testdata/spine43/clip-lab.json: a plain clip, a concave one with `convex` (clipped by
    // its hull) and an `inverse` one (what lies outside its hull stays), mid-deform; the
    // CPU render is checked against spine-core 4.3.13's clipped triangles by sinew-render's
    // `clip43` test.
    let dir = repo_root().join("testdata/spine43");
    let o = render_both("clip-lab", &dir, "clip-lab.json", |c| {
        c.set_animation(0, "move", true).expect("move");
        c.update(0.45);
    });
    // The shapes are small at this size, so edge pixels weigh: Bevy's multisampled edges
    // (coverage in quarters) against the CPU's exact coverage measured IoU 0.9816, PSNR
    // 31.2 dB, all 53 pixels more than 40/255 apart on edges. (sinew-wgpu's twin of this
    // test, `clip43`, measured IoU 0.529 with the flags ignored.)
    check("clip-lab", &o);
}
