//! The off-screen passes of layered characters (`batch.rs` says which characters and how
//! their draw lists are split): layer images the size of the view and one camera per pass.
//!
//! A layered character is drawn for one view: the camera marked [`SinewView`], else the
//! active `Camera2d` with the lowest order (the plugin's own cameras aside). Each of the
//! character's passes is drawn by a camera of its own ([`SinewLayerCamera`]) that copies that
//! view's projection, transform, compositing space and MSAA, renders into one of the
//! character's layer images (sRGB RGBA8, nearest sampling: screen quads read texel for
//! texel) and sees only its pass's batches, through a render layer of its own (from
//! [`SinewSettings::first_render_layer`](crate::SinewSettings) up). The passes' cameras run
//! before the view's camera, in the order the passes are finished. A camera that renders
//! to a window shows a layered character only if it is the followed view (another camera
//! would show the followed view's image of it).

use crate::batch::Batcher;
use bevy::asset::RenderAssetUsages;
use bevy::camera::visibility::RenderLayers;
use bevy::camera::{CameraOutputMode, CompositingSpace, RenderTarget};
use bevy::core_pipeline::tonemapping::DebandDither;
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{
    BlendState, Extent3d, TextureDimension, TextureFormat, TextureUsages,
};

/// Marks the camera layered characters are drawn for (see the module docs); without one,
/// the active `Camera2d` with the lowest order.
///
/// Owner: the app puts it on one camera.
#[derive(Component, Debug, Default, Clone, Copy)]
pub struct SinewView;

/// A camera drawing one off-screen pass of a layered character.
///
/// Owner: the plugin spawns and updates them (`draw_characters`).
#[derive(Component, Debug, Clone, Copy)]
pub struct SinewLayerCamera {
    /// The character whose pass it draws.
    pub owner: Entity,
}

/// What the passes' cameras copy from the followed view, read once per frame.
#[derive(Debug, Clone)]
pub(crate) struct ViewInfo {
    projection: Projection,
    transform: Transform,
    size: UVec2,
    pub(crate) order: isize,
    compositing: Option<CompositingSpace>,
    msaa: Msaa,
}

/// The view cameras a layered character can follow.
pub(crate) type ViewQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static Camera,
        &'static Projection,
        &'static GlobalTransform,
        Option<&'static Transform>,
        Has<ChildOf>,
        Option<&'static CompositingSpace>,
        Option<&'static Msaa>,
        Has<SinewView>,
    ),
    (With<Camera2d>, Without<SinewLayerCamera>),
>;

impl ViewInfo {
    /// The followed view (module docs), if one is active and sized.
    pub(crate) fn find(views: &ViewQuery) -> Option<ViewInfo> {
        let (camera, projection, global, local, parented, compositing, msaa, _) = views
            .iter()
            .filter(|v| v.0.is_active && v.0.physical_target_size().is_some())
            .min_by_key(|v| (!v.7, v.0.order))?;
        // A root camera's own transform is this frame's; a parented one's global transform
        // is last frame's (propagation runs after the plugin's systems).
        let transform = match (local, parented) {
            (Some(t), false) => *t,
            _ => global.compute_transform(),
        };
        Some(ViewInfo {
            projection: projection.clone(),
            transform,
            size: camera.physical_target_size()?,
            order: camera.order,
            compositing: compositing.copied(),
            msaa: msaa.copied().unwrap_or_default(),
        })
    }
}

/// The plugin's pass cameras.
pub(crate) type LayerCameras<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static mut Camera,
        &'static SinewLayerCamera,
        &'static mut RenderTarget,
        &'static mut Projection,
        &'static mut Transform,
        &'static mut RenderLayers,
        &'static mut Msaa,
        Option<&'static CompositingSpace>,
    ),
    (With<Camera2d>, Without<crate::SinewCharacter>),
>;

/// A character's layer images and pass cameras.
///
/// Owner: `draw_characters` (inside `SinewBatches`).
#[derive(Debug, Default)]
pub(crate) struct Layers {
    pub(crate) images: Vec<Handle<Image>>,
    cameras: Vec<Entity>,
    /// Its first render layer (pass `p` draws on `base + p - 1`) and how many it holds.
    base: usize,
    capacity: usize,
}

/// The next free render layer for layered characters.
///
/// Owner: `draw_characters` (a resource the plugin adds).
#[derive(Resource, Debug, Default)]
pub struct RenderLayerAlloc(usize);

impl Layers {
    /// The render layer of pass `p` (1-based).
    pub(crate) fn render_layer(&self, p: u16) -> usize {
        self.base + usize::from(p).saturating_sub(1)
    }

    /// Makes the images and render layers the batcher's passes need, sized to the view.
    pub(crate) fn prepare(
        &mut self,
        batcher: &Batcher,
        view: &ViewInfo,
        first_layer: usize,
        alloc: &mut RenderLayerAlloc,
        images: &mut Assets<Image>,
    ) {
        let passes = batcher.pass_order().len();
        if passes > self.capacity {
            // Room for some growth; the old range is left unused.
            self.capacity = passes.next_multiple_of(8);
            alloc.0 = alloc.0.max(first_layer);
            self.base = alloc.0;
            alloc.0 += self.capacity;
        }
        let size = Extent3d {
            width: view.size.x.max(1),
            height: view.size.y.max(1),
            depth_or_array_layers: 1,
        };
        while self.images.len() < usize::from(batcher.images()) {
            self.images.push(images.add(layer_image(size)));
        }
        for h in &self.images {
            if images
                .get(h)
                .is_some_and(|i| i.texture_descriptor.size != size)
                && let Some(mut image) = images.get_mut(h)
            {
                image.resize(size);
            }
        }
    }

    /// Spawns or updates one camera per pass (in the batcher's finishing order, numbered
    /// from `order`), deactivates the rest. Only what differs is written: a camera whose
    /// `Camera` is replaced loses its computed target size.
    pub(crate) fn cameras(
        &mut self,
        commands: &mut Commands,
        owner: Entity,
        batcher: &Batcher,
        view: &ViewInfo,
        order: &mut isize,
        cameras: &mut LayerCameras,
    ) {
        let passes = batcher.pass_order();
        for &p in passes {
            let Some(image) = batcher
                .pass_image(p)
                .and_then(|i| self.images.get(usize::from(i)))
            else {
                continue;
            };
            let target = RenderTarget::Image(image.clone().into());
            let layers = RenderLayers::layer(self.render_layer(p));
            let this = *order;
            *order += 1;
            let slot = usize::from(p) - 1;
            while self.cameras.len() <= slot {
                self.cameras.push(Entity::PLACEHOLDER);
            }
            let e = self.cameras[slot];
            let Ok((_, mut camera, _, mut t, mut proj, mut tf, mut rl, mut msaa, space)) =
                cameras.get_mut(e)
            else {
                let camera = Camera {
                    order: this,
                    clear_color: ClearColorConfig::Custom(Color::NONE),
                    // Written over: Bevy blends the output of a second camera on one target
                    // (straight alpha), and a chain's images take several passes' outputs.
                    output_mode: CameraOutputMode::Write {
                        blend_state: Some(BlendState::REPLACE),
                        clear_color: ClearColorConfig::None,
                    },
                    ..default()
                };
                let mut spawned = commands.spawn((
                    Camera2d,
                    SinewLayerCamera { owner },
                    camera,
                    target,
                    view.projection.clone(),
                    view.transform,
                    layers,
                    view.msaa,
                    DebandDither::Disabled,
                ));
                if let Some(c) = view.compositing {
                    spawned.insert(c);
                }
                let id = spawned.id();
                if e != Entity::PLACEHOLDER {
                    commands.entity(e).try_despawn();
                }
                self.cameras[slot] = id;
                continue;
            };
            if camera.order != this || !camera.is_active {
                camera.order = this;
                camera.is_active = true;
            }
            if !matches!(&*t, RenderTarget::Image(i) if i.handle == *image) {
                *t = target;
            }
            *proj = view.projection.clone();
            tf.set_if_neq(view.transform);
            rl.set_if_neq(layers);
            msaa.set_if_neq(view.msaa);
            if space.copied() != view.compositing {
                match view.compositing {
                    Some(c) => commands.entity(e).insert(c),
                    None => commands.entity(e).remove::<CompositingSpace>(),
                };
            }
        }
        for (slot, &e) in self.cameras.iter().enumerate() {
            let used = passes.iter().any(|&p| usize::from(p) == slot + 1);
            if !used && let Ok((_, mut c, ..)) = cameras.get_mut(e) {
                c.is_active = false;
            }
        }
    }

    /// Despawns the cameras (the character is gone or drawn without layers).
    pub(crate) fn release(&mut self, commands: &mut Commands) {
        for e in self.cameras.drain(..) {
            if e != Entity::PLACEHOLDER {
                commands.entity(e).try_despawn();
            }
        }
    }
}

/// A layer image: sRGB RGBA8 (the view's values survive the blit into it, see
/// `sinew.wgsl`), a render target that screen quads sample texel for texel.
fn layer_image(size: Extent3d) -> Image {
    let mut image = Image::new_fill(
        size,
        TextureDimension::D2,
        &[0, 0, 0, 0],
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.texture_descriptor.usage =
        TextureUsages::TEXTURE_BINDING | TextureUsages::COPY_DST | TextureUsages::RENDER_ATTACHMENT;
    image.sampler = ImageSampler::nearest();
    image
}
