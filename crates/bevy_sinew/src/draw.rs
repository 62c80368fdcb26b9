//! From sinew's draw list to Bevy 2D meshes.
//!
//! [`Batcher`] turns a `DrawList` into batches: runs of consecutive commands with the same
//! atlas page and blend mode become one mesh (so a character draws in one draw call per page
//! and blend run, in draw order). Each vertex carries the command's light tint and its dark
//! colour (Spine tint black) or screen tint (Inochi2D), which `sinew.wgsl` shades exactly as
//! sinew-render's `Tint::shade`. Clipped commands are clipped on the CPU against the clip
//! polygon, split into convex pieces with sinew-render's `ClipCache` (ear clipping, the
//! triangulation kept between frames) and `clip_convex` (Sutherland–Hodgman), the pieces'
//! texture coordinates interpolated in their source triangle: the same geometry the CPU
//! renderer fills.
//!
//! [`draw_characters`] writes each visible character's batches into meshes of child entities
//! ([`SinewBatch`], `Mesh2d` + [`SinewMaterial`]) that it keeps between frames, each batch
//! at `z = layer * Z_STEP` above the character (layers count up in draw order) so they sort
//! in draw order among themselves and with sprites by their z; children take the
//! character's `RenderLayers`.
//!
//! Inochi2D masks: a masked command's sources are batched first ([`MaskMode::Source`],
//! depth only), then the command ([`MaskMode::Inside`] or `Outside`), all on one z layer;
//! see `material.rs` for the depth test. Not drawn like sinew-render: the mask is hard-edged
//! (sinew-render scales by the sources' coverage), a command with both Mask and DodgeMask
//! sources uses only the Mask ones, and a composite group's layer is not made: its tint and
//! opacity multiply each command's colour (the same for a group whose parts do not
//! overlap), its screen tint and blend mode are left out.

use crate::asset::SinewRig;
use crate::character::{SinewCharacter, SinewStats};
use crate::material::{ATTRIBUTE_DARK, MaskMode, SinewMaterial, SinewMaterialKey};
use bevy::asset::RenderAssetUsages;
use bevy::camera::visibility::{NoFrustumCulling, RenderLayers};
use bevy::mesh::{Indices, PrimitiveTopology, VertexAttributeValues};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use sinew::draw::{DrawCommand, DrawList, DrawSetup};
use sinew::{BlendMode, Color as SinewColor};
use sinew_render::clip::{ClipCache, clip_convex};

/// z distance between a character's consecutive batches (a character with `n` batches spans
/// `n * Z_STEP` above its own z).
pub const Z_STEP: f32 = 1e-4;

/// One mesh's worth of a draw list: consecutive commands with one page and blend mode.
///
/// Owner: [`Batcher`] (rebuilt each frame).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Batch {
    /// Atlas page (`DrawCommand::page`).
    pub page: u32,
    /// Blend mode.
    pub blend: BlendMode,
    /// Its role in an Inochi2D mask.
    pub mask: MaskMode,
    /// Its z layer: `layer * Z_STEP` above the character (a mask's sources and its part
    /// share one).
    pub layer: u32,
    /// Positions, world units, y up (z = 0).
    pub positions: Vec<[f32; 3]>,
    /// Texture coordinates on the page (v down).
    pub uvs: Vec<[f32; 2]>,
    /// Light tint, straight alpha.
    pub light: Vec<[f32; 4]>,
    /// Dark colour (w = 0) or screen tint (w = 1).
    pub dark: Vec<[f32; 4]>,
    /// Triangles.
    pub indices: Vec<u32>,
}

impl Batch {
    fn clear(&mut self, page: u32, blend: BlendMode, mask: MaskMode, layer: u32) {
        self.page = page;
        self.blend = blend;
        self.mask = mask;
        self.layer = layer;
        self.positions.clear();
        self.uvs.clear();
        self.light.clear();
        self.dark.clear();
        self.indices.clear();
    }

    fn push_vertex(&mut self, p: [f32; 2], uv: [f32; 2], light: [f32; 4], dark: [f32; 4]) -> u32 {
        let i = self.positions.len() as u32;
        self.positions.push([p[0], p[1], 0.0]);
        self.uvs.push(uv);
        self.light.push(light);
        self.dark.push(dark);
        i
    }
}

/// Builds [`Batch`]es from draw lists, reusing its buffers (see the module docs).
///
/// Owner: [`draw_characters`] keeps one per character ([`SinewBatches`]).
#[derive(Debug, Clone, Default)]
pub struct Batcher {
    batches: Vec<Batch>,
    used: usize,
    clips: ClipCache,
    pieces: Vec<[[f32; 2]; 3]>,
    poly: Vec<[f32; 2]>,
    out: Vec<[f32; 2]>,
    tmp: Vec<[f32; 2]>,
}

impl Batcher {
    /// An empty batcher.
    pub fn new() -> Self {
        Self::default()
    }

    /// The batches of the last [`Batcher::build`], in draw order.
    pub fn batches(&self) -> &[Batch] {
        &self.batches[..self.used]
    }

    /// Batches `list` (commands in order; a new batch where the page or blend mode changes),
    /// with the masks of `setup` (a masked command: its sources, then itself, on one layer).
    pub fn build(&mut self, list: &DrawList, setup: &DrawSetup) {
        self.used = 0;
        let mut layer = 0u32;
        for (k, cmd) in list.commands.iter().enumerate() {
            let mut color = cmd.color;
            if let Some(g) = list
                .groups
                .iter()
                .find(|g| (g.first as usize..(g.first + g.count) as usize).contains(&k))
            {
                color = SinewColor::new(
                    color.r * g.color.r,
                    color.g * g.color.g,
                    color.b * g.color.b,
                    color.a * g.color.a,
                );
            }
            if color.a <= 0.0 || color.a.is_nan() {
                continue;
            }
            let (light, dark) = shading(color, cmd);
            let spec = setup
                .slot_masks
                .get(cmd.slot.index())
                .filter(|m| !m.sources.is_empty());
            let Some(spec) = spec else {
                if !self.continues(cmd.page, cmd.blend, MaskMode::None, layer) {
                    layer += 1;
                    self.open(cmd.page, cmd.blend, MaskMode::None, layer);
                }
                self.push(list, cmd, light, dark);
                continue;
            };
            // COMPAT(inochi2d): inside the union of the Mask sources, outside the union of
            // the DodgeMask ones; with both kinds only the Mask sources are used here.
            let inside = spec.sources.iter().any(|&(_, dodge)| !dodge);
            layer += 1;
            let mut any = false;
            for &(src, dodge) in &spec.sources {
                if dodge == inside {
                    continue;
                }
                let Some(source) = list.commands.iter().find(|c| c.slot == src) else {
                    continue;
                };
                if !any || !self.continues(source.page, BlendMode::Normal, MaskMode::Source, layer)
                {
                    self.open(source.page, BlendMode::Normal, MaskMode::Source, layer);
                }
                any = true;
                self.push(list, source, [1.0; 4], [0.0, 0.0, 0.0, spec.threshold]);
            }
            let mode = if inside {
                MaskMode::Inside
            } else {
                MaskMode::Outside
            };
            self.open(cmd.page, cmd.blend, mode, layer);
            self.push(list, cmd, light, dark);
        }
        // A clip that hid all of its batch's commands leaves an empty batch: drop it.
        let mut kept = 0;
        for i in 0..self.used {
            if !self.batches[i].indices.is_empty() {
                self.batches.swap(kept, i);
                kept += 1;
            }
        }
        self.used = kept;
    }

    /// Whether the last batch takes a command of this page, blend, mask role and layer.
    fn continues(&self, page: u32, blend: BlendMode, mask: MaskMode, layer: u32) -> bool {
        self.used > 0 && {
            let b = &self.batches[self.used - 1];
            b.page == page
                && b.blend == blend
                && b.mask == mask
                && b.layer == layer
                && matches!(mask, MaskMode::None | MaskMode::Source)
        }
    }

    /// Starts a batch.
    fn open(&mut self, page: u32, blend: BlendMode, mask: MaskMode, layer: u32) {
        if self.used == self.batches.len() {
            self.batches.push(Batch::default());
        }
        self.batches[self.used].clear(page, blend, mask, layer);
        self.used += 1;
    }

    /// Adds a command's triangles (clipped by its clip, if any) to the last batch.
    fn push(&mut self, list: &DrawList, cmd: &DrawCommand, light: [f32; 4], dark: [f32; 4]) {
        match cmd.clip {
            None => self.push_plain(list, cmd, light, dark),
            Some(c) => self.push_clipped(list, cmd, c, light, dark),
        }
    }

    fn push_plain(&mut self, list: &DrawList, cmd: &DrawCommand, light: [f32; 4], dark: [f32; 4]) {
        let b = &mut self.batches[self.used - 1];
        let base = b.positions.len() as u32;
        let (pos, uvs) = (list.command_positions(cmd), list.command_uvs(cmd));
        let n = pos.len() / 2;
        for i in 0..n {
            let uv = [
                uvs.get(2 * i).copied().unwrap_or(0.0),
                uvs.get(2 * i + 1).copied().unwrap_or(0.0),
            ];
            b.push_vertex([pos[2 * i], pos[2 * i + 1]], uv, light, dark);
        }
        for t in list.command_indices(cmd).chunks_exact(3) {
            if t.iter().all(|&i| (i as usize) < n) {
                b.indices.extend(t.iter().map(|&i| base + u32::from(i)));
            }
        }
    }

    fn push_clipped(
        &mut self,
        list: &DrawList,
        cmd: &DrawCommand,
        clip: u32,
        light: [f32; 4],
        dark: [f32; 4],
    ) {
        self.poly.clear();
        self.poly.extend(
            list.clip_polygon(clip)
                .chunks_exact(2)
                .map(|p| [p[0], p[1]]),
        );
        let key = list
            .clips
            .get(clip as usize)
            .map_or(u32::MAX, |c| u32::from(c.slot.0));
        self.clips.pieces(key, &self.poly, &mut self.pieces);
        if self.pieces.is_empty() {
            return; // a degenerate clip polygon hides what it clips (as sinew-render)
        }
        let (pos, uvs) = (list.command_positions(cmd), list.command_uvs(cmd));
        let at = |v: &[f32], i: u16| {
            let i = usize::from(i) * 2;
            [
                v.get(i).copied().unwrap_or(0.0),
                v.get(i + 1).copied().unwrap_or(0.0),
            ]
        };
        let b = &mut self.batches[self.used - 1];
        for t in list.command_indices(cmd).chunks_exact(3) {
            let p = [at(pos, t[0]), at(pos, t[1]), at(pos, t[2])];
            let uv = [at(uvs, t[0]), at(uvs, t[1]), at(uvs, t[2])];
            let Some(bary) = Barycentric::new(p) else {
                continue;
            };
            for piece in &self.pieces {
                clip_convex(&p, piece, &mut self.out, &mut self.tmp);
                if self.out.len() < 3 {
                    continue;
                }
                let base = b.positions.len() as u32;
                for &q in &self.out {
                    let w = bary.weights(q);
                    let u = w[0] * uv[0][0] + w[1] * uv[1][0] + w[2] * uv[2][0];
                    let v = w[0] * uv[0][1] + w[1] * uv[1][1] + w[2] * uv[2][1];
                    b.push_vertex(q, [u, v], light, dark);
                }
                for i in 1..self.out.len() as u32 - 1 {
                    b.indices.extend([base, base + i, base + i + 1]);
                }
            }
        }
    }
}

/// Barycentric coordinates over one triangle.
struct Barycentric {
    p0: [f32; 2],
    e1: [f32; 2],
    e2: [f32; 2],
    inv_det: f32,
}

impl Barycentric {
    fn new(p: [[f32; 2]; 3]) -> Option<Self> {
        let e1 = [p[1][0] - p[0][0], p[1][1] - p[0][1]];
        let e2 = [p[2][0] - p[0][0], p[2][1] - p[0][1]];
        let det = e1[0] * e2[1] - e1[1] * e2[0];
        (det != 0.0 && det.is_finite()).then(|| Barycentric {
            p0: p[0],
            e1,
            e2,
            inv_det: 1.0 / det,
        })
    }

    fn weights(&self, q: [f32; 2]) -> [f32; 3] {
        let d = [q[0] - self.p0[0], q[1] - self.p0[1]];
        let w1 = (d[0] * self.e2[1] - d[1] * self.e2[0]) * self.inv_det;
        let w2 = (self.e1[0] * d[1] - self.e1[1] * d[0]) * self.inv_det;
        [1.0 - w1 - w2, w1, w2]
    }
}

/// A command's vertex colours: the light tint (DragonBones ranges kept, as sinew-render's
/// `Tint::new`) and the dark colour or screen tint.
fn shading(color: SinewColor, cmd: &DrawCommand) -> ([f32; 4], [f32; 4]) {
    let l = color.tint_range();
    let dark = match (cmd.screen, cmd.dark) {
        (Some(s), _) => {
            let s = s.clamped();
            [s.r, s.g, s.b, 1.0]
        }
        (None, Some(d)) => {
            let d = d.tint_range();
            [d.r, d.g, d.b, 0.0]
        }
        (None, None) => [0.0; 4],
    };
    ([l.r, l.g, l.b, l.a], dark)
}

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
    children: Vec<(Entity, Handle<Mesh>)>,
}

impl SinewBatches {
    /// How many batches (draw calls) the character drew with this frame.
    pub fn drawn(&self) -> usize {
        self.batcher.used
    }
}

/// One material per page image and blend mode, shared by every character.
///
/// Owner: [`draw_characters`] (a resource the plugin adds).
#[derive(Resource, Default, Debug)]
pub struct MaterialCache(HashMap<(AssetId<Image>, u8, u8), Handle<SinewMaterial>>);

/// Writes every visible character's batches into its batch entities' meshes (see the
/// module docs).
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn draw_characters(
    mut commands: Commands,
    rigs: Res<Assets<SinewRig>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<SinewMaterial>>,
    mut cache: ResMut<MaterialCache>,
    mut characters: Query<(
        Entity,
        &SinewCharacter,
        Option<&mut SinewBatches>,
        &InheritedVisibility,
        Option<Ref<RenderLayers>>,
    )>,
    mut children: Query<
        (
            &mut Visibility,
            &mut MeshMaterial2d<SinewMaterial>,
            &mut Transform,
        ),
        With<SinewBatch>,
    >,
    mut stats: ResMut<SinewStats>,
) {
    let start = std::time::Instant::now();
    stats.batches = 0;
    for (entity, character, batches, visible, layers) in &mut characters {
        let Some(mut batches) = batches else {
            commands.entity(entity).insert(SinewBatches::default());
            continue;
        };
        if !visible.get() {
            continue;
        }
        let Some(rig) = rigs.get(character.rig()) else {
            continue;
        };
        let batches = &mut *batches;
        if character
            .read(|c| batches.batcher.build(c.last_draw_list(), c.draw_setup()))
            .is_none()
        {
            batches.batcher.used = 0;
        }
        for (k, batch) in batches.batcher.batches().iter().enumerate() {
            let Some(page) = rig.page(batch.page) else {
                continue;
            };
            let material = material_for(&mut cache, &mut materials, page, batch.blend, batch.mask);
            let z = batch.layer as f32 * Z_STEP;
            if k == batches.children.len() {
                let mut mesh = Mesh::new(
                    PrimitiveTopology::TriangleList,
                    RenderAssetUsages::default(),
                );
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
                        layers.as_deref().cloned().unwrap_or_default(),
                    ))
                    .id();
                commands.entity(entity).add_child(child);
                batches.children.push((child, handle));
                continue;
            }
            let (child, handle) = &batches.children[k];
            if let Some(mut mesh) = meshes.get_mut(handle) {
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
            if let Some(layers) = layers.as_ref().filter(|l| l.is_changed()) {
                commands.entity(*child).insert((**layers).clone());
            }
        }
        let used = batches.batcher.batches().len();
        stats.batches += used;
        for (child, _) in batches.children.iter().skip(used) {
            if let Ok((mut vis, _, _)) = children.get_mut(*child) {
                vis.set_if_neq(Visibility::Hidden);
            }
        }
    }
    stats.draw = start.elapsed();
}

fn material_for(
    cache: &mut MaterialCache,
    materials: &mut Assets<SinewMaterial>,
    page: &Handle<Image>,
    blend: BlendMode,
    mask: MaskMode,
) -> Handle<SinewMaterial> {
    let material = SinewMaterial {
        page: page.clone(),
        blend,
        mask,
    };
    let key = SinewMaterialKey::from(&material);
    cache
        .0
        .entry((page.id(), key.blend, key.mask))
        .or_insert_with(|| materials.add(material))
        .clone()
}

/// Writes a batch into a mesh, reusing its buffers.
fn write_mesh(mesh: &mut Mesh, b: &Batch) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use sinew::draw::ClipPolygon;
    use sinew::{AttachmentId, SlotId};

    /// A unit quad command at `x` (corners BL, UL, UR, BR, uvs over the whole page).
    fn quad(
        list: &mut DrawList,
        slot: u16,
        x: f32,
        page: u32,
        blend: BlendMode,
        clip: Option<u32>,
    ) {
        let vertex_start = (list.positions.len() / 2) as u32;
        list.positions
            .extend([x, 0.0, x, 1.0, x + 1.0, 1.0, x + 1.0, 0.0]);
        list.uvs.extend([0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0]);
        let index_start = list.indices.len() as u32;
        list.indices.extend(sinew::draw::QUAD_TRIANGLES);
        list.commands.push(DrawCommand {
            slot: SlotId(slot),
            attachment: AttachmentId(0),
            page,
            blend,
            color: SinewColor::new(1.0, 0.5, 0.25, 0.5),
            dark: Some(SinewColor::new(0.1, 0.2, 0.3, 1.0)),
            screen: None,
            vertex_start,
            vertex_count: 4,
            index_start,
            index_count: 6,
            clip,
        });
    }

    fn area(b: &Batch) -> f32 {
        b.indices
            .chunks_exact(3)
            .map(|t| {
                let [p, q, r] = [0, 1, 2].map(|k| b.positions[t[k] as usize]);
                ((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])).abs() / 2.0
            })
            .sum()
    }

    #[test]
    fn runs_of_one_page_and_blend_make_one_batch() {
        let mut list = DrawList::default();
        quad(&mut list, 0, 0.0, 0, BlendMode::Normal, None);
        quad(&mut list, 1, 2.0, 0, BlendMode::Normal, None);
        quad(&mut list, 2, 4.0, 0, BlendMode::Additive, None);
        quad(&mut list, 3, 6.0, 1, BlendMode::Additive, None);
        quad(&mut list, 4, 8.0, 1, BlendMode::Additive, None);
        let mut b = Batcher::new();
        b.build(&list, &DrawSetup::default());
        let runs: Vec<_> = b
            .batches()
            .iter()
            .map(|x| (x.page, x.blend, x.indices.len()))
            .collect();
        assert_eq!(
            runs,
            [
                (0, BlendMode::Normal, 12),
                (0, BlendMode::Additive, 6),
                (1, BlendMode::Additive, 12)
            ]
        );
        // Indices of the second quad point at its own vertices, colours per vertex.
        let first = &b.batches()[0];
        assert_eq!(&first.indices[6..], &[4, 5, 6, 6, 7, 4]);
        assert_eq!(first.light[5], [1.0, 0.5, 0.25, 0.5]);
        assert_eq!(first.dark[5], [0.1, 0.2, 0.3, 0.0]);
        // Rebuilt with fewer commands, the batcher reuses its batches.
        list.commands.truncate(1);
        b.build(&list, &DrawSetup::default());
        assert_eq!(b.batches().len(), 1);
        assert_eq!(b.batches()[0].positions.len(), 4);
    }

    #[test]
    fn a_clip_cuts_the_triangles_and_keeps_their_texture_coordinates() {
        let mut list = DrawList::default();
        // The clip: the left half of the quad, as a triangle pair's outline.
        list.clip_vertices
            .extend([0.0, 0.0, 0.5, 0.0, 0.5, 1.0, 0.0, 1.0]);
        list.clips.push(ClipPolygon {
            slot: SlotId(9),
            vertex_start: 0,
            vertex_count: 4,
        });
        quad(&mut list, 0, 0.0, 0, BlendMode::Normal, Some(0));
        let mut b = Batcher::new();
        b.build(&list, &DrawSetup::default());
        let batch = &b.batches()[0];
        assert!(
            (area(batch) - 0.5).abs() < 1e-5,
            "half the quad: {}",
            area(batch)
        );
        for (p, uv) in batch.positions.iter().zip(&batch.uvs) {
            assert!(p[0] <= 0.5 + 1e-6, "inside the clip: {p:?}");
            // u follows x and v is 1 - y on this quad.
            assert!((uv[0] - p[0]).abs() < 1e-5 && (uv[1] - (1.0 - p[1])).abs() < 1e-5);
        }
        // A degenerate clip hides what it clips (as sinew-render does).
        list.clip_vertices.clear();
        list.clip_vertices.extend([0.0; 8]);
        b.build(&list, &DrawSetup::default());
        assert!(b.batches().is_empty());
    }

    #[test]
    fn screen_tints_and_groups_reach_the_vertices() {
        let mut list = DrawList::default();
        quad(&mut list, 0, 0.0, 0, BlendMode::Normal, None);
        list.commands[0].screen = Some(SinewColor::new(0.5, 2.0, -1.0, 1.0));
        list.groups.push(sinew::draw::DrawGroup {
            bone: sinew::BoneId(0),
            first: 0,
            count: 1,
            blend: BlendMode::Normal,
            color: SinewColor::new(1.0, 1.0, 1.0, 0.5),
            screen: SinewColor::new(0.0, 0.0, 0.0, 1.0),
        });
        let mut b = Batcher::new();
        b.build(&list, &DrawSetup::default());
        let batch = &b.batches()[0];
        assert_eq!(
            batch.dark[0],
            [0.5, 1.0, 0.0, 1.0],
            "screen tint clamped, w = 1"
        );
        assert_eq!(batch.light[0][3], 0.25, "the group's opacity multiplies");
        // A transparent command is left out.
        list.commands[0].color.a = 0.0;
        b.build(&list, &DrawSetup::default());
        assert!(b.batches().is_empty());
    }

    #[test]
    fn a_masked_command_follows_its_sources_on_their_layer() {
        let mut list = DrawList::default();
        quad(&mut list, 0, 0.0, 0, BlendMode::Normal, None);
        quad(&mut list, 1, 0.5, 1, BlendMode::Multiply, None);
        quad(&mut list, 2, 3.0, 1, BlendMode::Multiply, None);
        let mut setup = DrawSetup {
            slot_masks: vec![sinew::draw::SlotMask::default(); 3],
            ..DrawSetup::default()
        };
        setup.slot_masks[1] = sinew::draw::SlotMask {
            sources: vec![(SlotId(0), false)],
            threshold: 0.25,
        };
        let mut b = Batcher::new();
        b.build(&list, &setup);
        let roles: Vec<_> = b
            .batches()
            .iter()
            .map(|x| (x.page, x.blend, x.mask, x.layer))
            .collect();
        assert_eq!(
            roles,
            [
                (0, BlendMode::Normal, MaskMode::None, 1),
                (0, BlendMode::Normal, MaskMode::Source, 2),
                (1, BlendMode::Multiply, MaskMode::Inside, 2),
                (1, BlendMode::Multiply, MaskMode::None, 3),
            ]
        );
        // The source carries the threshold and its own geometry.
        let source = &b.batches()[1];
        assert_eq!(source.dark[0], [0.0, 0.0, 0.0, 0.25]);
        assert_eq!(source.positions[0], [0.0, 0.0, 0.0]);
        // Dodge sources only: outside.
        setup.slot_masks[1].sources[0].1 = true;
        b.build(&list, &setup);
        assert_eq!(b.batches()[2].mask, MaskMode::Outside);
    }
}
