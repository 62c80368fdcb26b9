//! Built attachments: everything a slot can show, with geometry ready for the pipeline.

use crate::ids::{AttachmentId, NameId, SlotId};
use crate::raw::{Sequence, Vertices};
use crate::types::Color;

/// An attachment in the rig's flat table.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone)]
pub struct Attachment {
    /// The attachment's name (what dumps report).
    pub name: String,
    /// Key under which its skin stores it.
    pub key: NameId,
    /// Slot it belongs to.
    pub slot: SlotId,
    /// The attachment whose deform/sequence timelines apply to this one (Spine
    /// `timelineAttachment`): itself, or the parent mesh of a linked mesh that inherits
    /// timelines.
    pub timeline_attachment: AttachmentId,
    /// Other slots this attachment's deform and sequence timelines apply in (Spine 4.3
    /// `timelineSlots`): those of linked meshes in other slots that inherit its timelines.
    pub timeline_slots: Vec<SlotId>,
    /// The geometry and options.
    pub kind: AttachmentKind,
}

/// Texture coordinates and placement of a region within an atlas page.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct TextureRegion {
    /// Region name in the atlas.
    pub name: String,
    /// Atlas page index.
    pub page: u32,
    /// u of the region's top-left (packed) corner.
    pub u: f32,
    /// v of the top-left corner.
    pub v: f32,
    /// u of the bottom-right corner.
    pub u2: f32,
    /// v of the bottom-right corner.
    pub v2: f32,
    /// Packed width in pixels (unrotated).
    pub width: f32,
    /// Packed height in pixels.
    pub height: f32,
    /// Width before whitespace stripping.
    pub original_width: f32,
    /// Height before whitespace stripping.
    pub original_height: f32,
    /// Left offset of the packed pixels within the original.
    pub offset_x: f32,
    /// Bottom offset of the packed pixels within the original.
    pub offset_y: f32,
    /// Rotation in the atlas, degrees (0 or 90 in practice).
    pub degrees: i32,
}

impl TextureRegion {
    /// An untrimmed, unrotated region covering the whole page (the texture-free default).
    pub fn full(name: &str) -> Self {
        TextureRegion {
            name: name.to_owned(),
            page: 0,
            u: 0.0,
            v: 0.0,
            u2: 1.0,
            v2: 1.0,
            width: 1.0,
            height: 1.0,
            original_width: 1.0,
            original_height: 1.0,
            offset_x: 0.0,
            offset_y: 0.0,
            degrees: 0,
        }
    }
}

/// A region (quad) attachment.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone)]
pub struct RegionAttachment {
    /// Atlas path.
    pub path: String,
    /// Placement in bone space.
    pub x: f64,
    /// Y.
    pub y: f64,
    /// Scale x.
    pub scale_x: f64,
    /// Scale y.
    pub scale_y: f64,
    /// Rotation, degrees.
    pub rotation: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// Colour.
    pub color: Color,
    /// Texture sequence.
    pub sequence: Option<Sequence>,
    /// One region per sequence frame (or exactly one without a sequence).
    pub regions: Vec<TextureRegion>,
    /// Corner offsets in bone space per region: BL, UL, UR, BR as x,y (8 floats per region).
    pub offsets: Vec<f32>,
    /// UVs per region, same corner order (8 floats per region).
    pub uvs: Vec<f32>,
}

/// A mesh attachment (linked meshes are resolved to full copies).
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone)]
pub struct MeshAttachment {
    /// Atlas path.
    pub path: String,
    /// Colour.
    pub color: Color,
    /// Vertices (weighted bone indices are rig bone ids).
    pub vertices: Vertices,
    /// UVs normalised to the region, 2 per vertex.
    pub region_uvs: Vec<f32>,
    /// Triangles.
    pub triangles: Vec<u16>,
    /// Hull vertex count.
    pub hull: u32,
    /// Edges.
    pub edges: Vec<u16>,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// Texture sequence.
    pub sequence: Option<Sequence>,
    /// One region per sequence frame (or exactly one).
    pub regions: Vec<TextureRegion>,
    /// Texture UVs per region (Spine `MeshAttachment.updateRegion`): `region_uvs.len()`
    /// floats for each entry of `regions`, in the same order.
    pub uvs: Vec<f32>,
    /// The mesh whose geometry this linked mesh shares (`None` unless linked).
    pub parent_mesh: Option<AttachmentId>,
}

/// A path attachment.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone)]
pub struct PathAttachment {
    /// Closed.
    pub closed: bool,
    /// Constant speed.
    pub constant_speed: bool,
    /// Vertices.
    pub vertices: Vertices,
    /// Cumulative curve lengths.
    pub lengths: Vec<f64>,
}

/// The kinds of built attachment.
///
/// Owner: the builder (`build`) writes it; every stage reads it.
#[derive(Debug, Clone)]
pub enum AttachmentKind {
    /// Region.
    Region(RegionAttachment),
    /// Mesh or linked mesh.
    Mesh(MeshAttachment),
    /// Bounding box.
    BoundingBox {
        /// Vertices.
        vertices: Vertices,
        /// Editor colour.
        color: Color,
    },
    /// Path.
    Path(PathAttachment),
    /// Point.
    Point {
        /// X.
        x: f64,
        /// Y.
        y: f64,
        /// Rotation, degrees.
        rotation: f64,
    },
    /// Clipping polygon.
    Clipping {
        /// End slot (inclusive).
        end: Option<SlotId>,
        /// Vertices.
        vertices: Vertices,
        /// Clip by the polygon's convex hull (Spine 4.3 `convex`; always so when `inverse`).
        convex: bool,
        /// Keep what lies outside the polygon's convex hull (Spine 4.3 `inverse`).
        inverse: bool,
    },
}

impl Attachment {
    /// The vertex data of vertex attachments (mesh, bounding box, path, clipping).
    pub fn vertices(&self) -> Option<&Vertices> {
        match &self.kind {
            AttachmentKind::Mesh(m) => Some(&m.vertices),
            AttachmentKind::BoundingBox { vertices, .. } => Some(vertices),
            AttachmentKind::Path(p) => Some(&p.vertices),
            AttachmentKind::Clipping { vertices, .. } => Some(vertices),
            _ => None,
        }
    }

    /// Spine's type name for dumps: region, mesh, linkedmesh, boundingbox, path, point, clipping.
    pub fn type_name(&self) -> &'static str {
        match &self.kind {
            AttachmentKind::Region(_) => "region",
            AttachmentKind::Mesh(m) if m.parent_mesh.is_some() => "linkedmesh",
            AttachmentKind::Mesh(_) => "mesh",
            AttachmentKind::BoundingBox { .. } => "boundingbox",
            AttachmentKind::Path(_) => "path",
            AttachmentKind::Point { .. } => "point",
            AttachmentKind::Clipping { .. } => "clipping",
        }
    }
}
