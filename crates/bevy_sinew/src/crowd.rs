//! Characters merged into shared meshes: many characters of one rig in few draws.
//!
//! Bevy sorts 2D draws by z. Characters of one rig at one z (and with the same render
//! layers) already draw interleaved by their batches' layers: batch `k` of every such
//! character sorts at `z + k * Z_STEP`, before batch `k + 1` of any of them, and the order
//! among equal keys is Bevy's choice. So merging those batches changes nothing in the
//! picture: [`Merged`] appends the batches of every mergeable character with the same rig,
//! z, render layers, z layer and material into one mesh in world space (the vertices moved
//! on the CPU by the character's `Transform`), drawn by one entity at that z. A crowd of
//! rows (one z per row) thereby draws in (rows x batches per character) draws instead of
//! (characters x batches).
//!
//! Mergeable: [`SinewSettings::merge`](crate::SinewSettings) on, at least two such
//! characters, a root entity (its `Transform` is this frame's; a parented one's global
//! transform would be last frame's), and a frame drawn without masks (their depth test
//! needs each character's own layer) or off-screen passes.

use crate::asset::SinewRig;
use crate::batch::{Batch, Z_STEP};
use crate::material::SinewMaterial;
use bevy::camera::visibility::RenderLayers;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

/// A merge group: rig, z bits, render layers.
type GroupKey = (AssetId<SinewRig>, u32, Vec<usize>);

/// The batch entities' parts that are written each frame.
pub(crate) type BatchEntities<'w, 's> = Query<
    'w,
    's,
    (
        &'static mut Visibility,
        &'static mut MeshMaterial2d<SinewMaterial>,
        &'static mut Transform,
    ),
    (With<crate::draw::SinewBatch>, Without<Camera2d>),
>;

/// One merged mesh of a frame.
#[derive(Debug, Default)]
struct Slot {
    batch: Batch,
    material: Option<Handle<SinewMaterial>>,
    z: f32,
    layers: RenderLayers,
}

/// The merged meshes and the entities that draw them.
///
/// Owner: `draw_characters` (a resource the plugin adds).
#[derive(Resource, Default)]
pub struct Merged {
    /// Per (rig, z bits, render layers): its group number this frame and how many
    /// characters are in it.
    groups: HashMap<GroupKey, (u32, u32)>,
    /// Per (group, z layer, material): its slot this frame.
    index: HashMap<(u32, u32, AssetId<SinewMaterial>), usize>,
    slots: Vec<Slot>,
    used: usize,
    /// The entities drawing slot `i`, with their meshes and render layers.
    entities: Vec<(Entity, Handle<Mesh>, RenderLayers)>,
}

impl Merged {
    /// Starts a frame.
    pub(crate) fn clear(&mut self) {
        self.groups.clear();
        self.index.clear();
        self.used = 0;
    }

    /// Counts a character into its group (before any is merged).
    pub(crate) fn count(&mut self, rig: AssetId<SinewRig>, z: f32, layers: &RenderLayers) {
        let n = self.groups.len() as u32;
        let key = (rig, z.to_bits(), layers.iter().collect());
        self.groups.entry(key).or_insert((n, 0)).1 += 1;
    }

    /// The group a character merges into, if it has company.
    pub(crate) fn group(
        &self,
        rig: AssetId<SinewRig>,
        z: f32,
        layers: &RenderLayers,
    ) -> Option<u32> {
        let key = (rig, z.to_bits(), layers.iter().collect());
        self.groups
            .get(&key)
            .filter(|(_, n)| *n >= 2)
            .map(|(g, _)| *g)
    }

    /// Appends a character's batch, its vertices moved by `to_world`.
    pub(crate) fn push(
        &mut self,
        group: u32,
        batch: &Batch,
        material: &Handle<SinewMaterial>,
        to_world: &Transform,
        layers: &RenderLayers,
    ) {
        let key = (group, batch.layer, material.id());
        let z = to_world.translation.z + batch.layer as f32 * Z_STEP;
        let i = *self.index.entry(key).or_insert_with(|| {
            if self.used == self.slots.len() {
                self.slots.push(Slot::default());
            }
            let s = &mut self.slots[self.used];
            s.batch.positions.clear();
            s.batch.uvs.clear();
            s.batch.light.clear();
            s.batch.dark.clear();
            s.batch.indices.clear();
            s.material = Some(material.clone());
            s.z = z;
            s.layers.clone_from(layers);
            self.used += 1;
            self.used - 1
        });
        let m = to_world.compute_affine();
        let dst = &mut self.slots[i].batch;
        let base = dst.positions.len() as u32;
        dst.positions.extend(batch.positions.iter().map(|p| {
            let w = m.transform_point3(Vec3::new(p[0], p[1], 0.0));
            [w.x, w.y, 0.0]
        }));
        dst.uvs.extend_from_slice(&batch.uvs);
        dst.light.extend_from_slice(&batch.light);
        dst.dark.extend_from_slice(&batch.dark);
        dst.indices.extend(batch.indices.iter().map(|i| i + base));
    }

    /// How many merged meshes this frame draws.
    pub(crate) fn used(&self) -> usize {
        self.used
    }

    /// Writes the frame's merged meshes into their entities (spawned when missing), hides the
    /// entities left over.
    pub(crate) fn write(
        &mut self,
        commands: &mut Commands,
        meshes: &mut Assets<Mesh>,
        entities: &mut BatchEntities,
    ) {
        for (i, slot) in self.slots[..self.used].iter().enumerate() {
            let Some(material) = slot.material.clone() else {
                continue;
            };
            if i == self.entities.len() {
                let mut mesh = crate::draw::new_mesh();
                crate::draw::write_mesh(&mut mesh, &slot.batch);
                let handle = meshes.add(mesh);
                let e = commands
                    .spawn((
                        crate::draw::SinewBatch,
                        Mesh2d(handle.clone()),
                        MeshMaterial2d(material),
                        Transform::from_xyz(0.0, 0.0, slot.z),
                        Visibility::Inherited,
                        bevy::camera::visibility::NoFrustumCulling,
                        slot.layers.clone(),
                    ))
                    .id();
                self.entities.push((e, handle, slot.layers.clone()));
                continue;
            }
            let (e, handle, layers) = &mut self.entities[i];
            if let Some(mut mesh) = meshes.get_mut(&*handle) {
                crate::draw::write_mesh(&mut mesh, &slot.batch);
            }
            if let Ok((mut vis, mut mat, mut tf)) = entities.get_mut(*e) {
                vis.set_if_neq(Visibility::Inherited);
                if mat.0 != material {
                    mat.0 = material;
                }
                if tf.translation.z != slot.z {
                    tf.translation.z = slot.z;
                }
            }
            if *layers != slot.layers {
                layers.clone_from(&slot.layers);
                commands.entity(*e).insert(slot.layers.clone());
            }
        }
        for (e, _, _) in self.entities.iter().skip(self.used) {
            if let Ok((mut vis, _, _)) = entities.get_mut(*e) {
                vis.set_if_neq(Visibility::Hidden);
            }
        }
    }
}
