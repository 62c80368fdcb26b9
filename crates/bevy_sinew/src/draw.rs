//! From sinew's draw lists to Bevy 2D meshes.
//!
//! [`draw_characters`] batches each visible character's draw list (`batch.rs`: runs of one
//! page and blend mode, clips cut on the CPU, mask sources before what they mask) and writes
//! the batches into meshes of child entities ([`SinewBatch`], `Mesh2d` + [`SinewMaterial`])
//! that it keeps between frames, each batch at `z = layer * Z_STEP` above the character
//! (layers count up in draw order) so they sort in draw order among themselves and with
//! sprites by their z; children take the character's `RenderLayers`.
//!
//! A character whose draw list has composites or blend modes that read the destination is
//! layered when there is a view to follow (`layers.rs`): its passes' batches go on the
//! render layers of its pass cameras, its layer images are made or resized to the view, and
//! its last image is drawn where its batches would be.
//!
//! Characters of one rig at one z are merged into shared meshes where that changes nothing
//! in the picture (`crowd.rs`).

use crate::asset::SinewRig;
use crate::batch::{Batch, Batcher, Z_STEP};
use crate::character::{SinewCharacter, SinewSettings, SinewStats};
use crate::crowd::{BatchEntities, Merged};
use crate::layers::{LayerCameras, Layers, RenderLayerAlloc, ViewInfo, ViewQuery};
use crate::material::{ATTRIBUTE_DARK, MaskMode, SinewMaterial, SinewMaterialKey};
use bevy::asset::RenderAssetUsages;
use bevy::camera::visibility::{NoFrustumCulling, RenderLayers};
use bevy::mesh::{Indices, PrimitiveTopology, VertexAttributeValues};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

/// Marks a child entity that draws one batch of its parent character.
///
/// Owner: [`draw_characters`] spawns and updates them.
#[derive(Component, Debug, Clone, Copy)]
pub struct SinewBatch;

/// A character's batcher and the batch entities it draws with.
///
/// Owner: [`draw_characters`] (added to every [`SinewCharacter`]).
#[derive(Component, Debug, Default)]
pub struct SinewBatches {
    batcher: Batcher,
    /// Each batch entity, its mesh and the render layer it was put on (`None`: the
    /// character's own).
    children: Vec<(Entity, Handle<Mesh>, Option<usize>)>,
    layers: Layers,
}

impl SinewBatches {
    /// How many batches (draw calls) the character drew with this frame.
    pub fn drawn(&self) -> usize {
        self.batcher.used
    }

    /// How many off-screen passes (cameras) the character drew with this frame (0 when it
    /// was not layered).
    pub fn passes(&self) -> usize {
        self.batcher.pass_order().len()
    }
}

/// One material per page image and blend mode, shared by every character.
///
/// Owner: [`draw_characters`] (a resource the plugin adds).
#[derive(Resource, Default, Debug)]
pub struct MaterialCache(HashMap<MaterialId, Handle<SinewMaterial>>);

/// A material's page (or layer image), backdrop image and pipeline key.
type MaterialId = (AssetId<Image>, Option<AssetId<Image>>, SinewMaterialKey);

/// Writes every visible character's batches into its batch entities' meshes, and places
/// the cameras of layered characters (see the module docs).
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn draw_characters(
    mut commands: Commands,
    rigs: Res<Assets<SinewRig>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<SinewMaterial>>,
    mut images: ResMut<Assets<Image>>,
    mut cache: ResMut<MaterialCache>,
    mut alloc: ResMut<RenderLayerAlloc>,
    mut merged: ResMut<Merged>,
    settings: Res<SinewSettings>,
    views: ViewQuery,
    mut cameras: LayerCameras,
    mut characters: Query<
        (
            Entity,
            &SinewCharacter,
            Option<&mut SinewBatches>,
            &InheritedVisibility,
            Option<Ref<RenderLayers>>,
            (&Transform, Has<ChildOf>),
        ),
        Without<SinewBatch>,
    >,
    mut children: BatchEntities,
    mut stats: ResMut<SinewStats>,
) {
    let start = std::time::Instant::now();
    stats.batches = 0;
    let view = ViewInfo::find(&views).filter(|_| settings.layers);
    // The cameras of characters that are gone.
    for (camera, _, owner, ..) in &cameras {
        if !characters.contains(owner.owner) {
            commands.entity(camera).try_despawn();
        }
    }
    // Pass cameras run before the view's, numbered in the order they are met.
    let mut order = view.as_ref().map_or(0, |v| v.order) - 100_000;
    // Characters that share a rig, a z and render layers (crowd.rs).
    merged.clear();
    let default_layers = RenderLayers::default();
    if settings.merge {
        for (_, character, _, visible, layers, (tf, parented)) in &characters {
            if visible.get() && !parented && rigs.contains(character.rig()) {
                let layers = layers.as_deref().unwrap_or(&default_layers);
                merged.count(character.rig().id(), tf.translation.z, layers);
            }
        }
    }
    for (entity, character, batches, visible, layers, (tf, parented)) in &mut characters {
        let Some(mut batches) = batches else {
            commands.entity(entity).insert(SinewBatches::default());
            continue;
        };
        let batches = &mut *batches;
        let rig = rigs.get(character.rig());
        if !visible.get() || rig.is_none() {
            batches.batcher.used = 0;
            batches.layers.release(&mut commands);
            continue;
        }
        let Some(rig) = rig else { continue };
        let layered = view.is_some();
        if character
            .read(|c| {
                batches
                    .batcher
                    .build(c.last_draw_list(), c.draw_setup(), layered)
            })
            .is_none()
        {
            batches.batcher.used = 0;
        }
        let passes = !batches.batcher.pass_order().is_empty();
        match view.as_ref() {
            Some(view) if passes => {
                batches.layers.prepare(
                    &batches.batcher,
                    view,
                    settings.first_render_layer,
                    &mut alloc,
                    &mut images,
                );
                batches.layers.cameras(
                    &mut commands,
                    entity,
                    &batches.batcher,
                    view,
                    &mut order,
                    &mut cameras,
                );
            }
            _ => batches.layers.release(&mut commands),
        }
        let own_layers = layers.as_deref().unwrap_or(&default_layers);
        let group = (settings.merge
            && !parented
            && !passes
            && batches
                .batcher
                .batches()
                .iter()
                .all(|b| b.mask == MaskMode::None))
        .then(|| merged.group(character.rig().id(), tf.translation.z, own_layers))
        .flatten();
        if let Some(group) = group {
            for batch in batches.batcher.batches() {
                let Some(page) = rig.page(batch.page) else {
                    continue;
                };
                let material = material_for(&mut cache, &mut materials, page, None, batch);
                merged.push(group, batch, &material, tf, own_layers);
            }
            for (child, _, _) in &batches.children {
                if let Ok((mut vis, _, _)) = children.get_mut(*child) {
                    vis.set_if_neq(Visibility::Hidden);
                }
            }
            continue;
        }
        for (k, batch) in batches.batcher.batches().iter().enumerate() {
            let page = match batch.image {
                Some(i) => batches.layers.images.get(usize::from(i)),
                None => rig.page(batch.page),
            };
            let Some(page) = page else {
                continue;
            };
            let backdrop = batch
                .backdrop
                .and_then(|i| batches.layers.images.get(usize::from(i)));
            let material = material_for(&mut cache, &mut materials, page, backdrop, batch);
            let z = batch.layer as f32 * Z_STEP;
            let render_layer = (batch.pass > 0).then(|| batches.layers.render_layer(batch.pass));
            let own = || layers.as_deref().cloned().unwrap_or_default();
            let render_layers = || render_layer.map_or_else(own, RenderLayers::layer);
            if k == batches.children.len() {
                let mut mesh = new_mesh();
                write_mesh(&mut mesh, batch);
                let handle = meshes.add(mesh);
                let child = commands
                    .spawn((
                        SinewBatch,
                        Mesh2d(handle.clone()),
                        MeshMaterial2d(material),
                        Transform::from_xyz(0.0, 0.0, z),
                        Visibility::Inherited,
                        NoFrustumCulling,
                        render_layers(),
                    ))
                    .id();
                commands.entity(entity).add_child(child);
                batches.children.push((child, handle, render_layer));
                continue;
            }
            let (child, handle, on) = &mut batches.children[k];
            if let Some(mut mesh) = meshes.get_mut(&*handle) {
                write_mesh(&mut mesh, batch);
            }
            if let Ok((mut vis, mut mat, mut tf)) = children.get_mut(*child) {
                vis.set_if_neq(Visibility::Inherited);
                if mat.0 != material {
                    mat.0 = material;
                }
                if tf.translation.z != z {
                    tf.translation.z = z;
                }
            }
            let own_changed =
                render_layer.is_none() && layers.as_ref().is_some_and(|l| l.is_changed());
            if *on != render_layer || own_changed {
                *on = render_layer;
                commands.entity(*child).insert(render_layers());
            }
        }
        let used = batches.batcher.batches().len();
        stats.batches += used;
        for (child, _, _) in batches.children.iter().skip(used) {
            if let Ok((mut vis, _, _)) = children.get_mut(*child) {
                vis.set_if_neq(Visibility::Hidden);
            }
        }
    }
    merged.write(&mut commands, &mut meshes, &mut children);
    stats.batches += merged.used();
    stats.draw = start.elapsed();
}

/// An empty triangle-list mesh for a batch.
pub(crate) fn new_mesh() -> Mesh {
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
}

fn material_for(
    cache: &mut MaterialCache,
    materials: &mut Assets<SinewMaterial>,
    page: &Handle<Image>,
    backdrop: Option<&Handle<Image>>,
    batch: &Batch,
) -> Handle<SinewMaterial> {
    // A batch that reads the destination without a backdrop image (none made) is blended
    // by fixed-function state.
    let material = SinewMaterial {
        page: page.clone(),
        backdrop: backdrop.cloned(),
        blend: batch.blend,
        mask: batch.mask,
        screen: batch.image.is_some(),
    };
    let key = SinewMaterialKey::from(&material);
    cache
        .0
        .entry((page.id(), backdrop.map(Handle::id), key))
        .or_insert_with(|| materials.add(material))
        .clone()
}

/// Writes a batch into a mesh, reusing its buffers.
pub(crate) fn write_mesh(mesh: &mut Mesh, b: &Batch) {
    fn set<T: Copy>(
        mesh: &mut Mesh,
        id: bevy::mesh::MeshVertexAttribute,
        data: &[T],
        pick: fn(&mut VertexAttributeValues) -> Option<&mut Vec<T>>,
        make: fn(Vec<T>) -> VertexAttributeValues,
    ) {
        if let Ok(Some(values)) = mesh.try_attribute_mut_option(id)
            && let Some(v) = pick(values)
        {
            v.clear();
            v.extend_from_slice(data);
            return;
        }
        mesh.insert_attribute(id, make(data.to_vec()));
    }
    set(
        mesh,
        Mesh::ATTRIBUTE_POSITION,
        &b.positions,
        |v| match v {
            VertexAttributeValues::Float32x3(v) => Some(v),
            _ => None,
        },
        VertexAttributeValues::Float32x3,
    );
    set(
        mesh,
        Mesh::ATTRIBUTE_UV_0,
        &b.uvs,
        |v| match v {
            VertexAttributeValues::Float32x2(v) => Some(v),
            _ => None,
        },
        VertexAttributeValues::Float32x2,
    );
    set(
        mesh,
        Mesh::ATTRIBUTE_COLOR,
        &b.light,
        |v| match v {
            VertexAttributeValues::Float32x4(v) => Some(v),
            _ => None,
        },
        VertexAttributeValues::Float32x4,
    );
    set(
        mesh,
        ATTRIBUTE_DARK,
        &b.dark,
        |v| match v {
            VertexAttributeValues::Float32x4(v) => Some(v),
            _ => None,
        },
        VertexAttributeValues::Float32x4,
    );
    match mesh.try_indices_mut_option() {
        Ok(Some(Indices::U32(i))) => {
            i.clear();
            i.extend_from_slice(&b.indices);
        }
        _ => mesh.insert_indices(Indices::U32(b.indices.clone())),
    }
}
