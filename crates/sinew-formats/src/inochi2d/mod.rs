//! Inochi2D puppets (`.inp` and `.inx`, INP1 container with a v0.8 JSON payload) into
//! sinew's model: a [`RawRig`] plus name-based [`RawParams`], with the embedded textures
//! kept encoded and the drawing details (masks, blend modes, composites) beside them.
//!
//! Mapping (inochi2d.md §3):
//! - every node becomes a bone (local transform = translation, rotation about z, scale);
//!   `lockToRoot` parents the bone to the root; Creator `Camera` nodes are skipped;
//! - every Part (and MeshGroup, hidden) becomes a slot on its node's bone showing an
//!   unweighted mesh of `verts - origin`, so the skeleton and world-vertex stages pose it;
//! - parameters (Creator parameter groups flattened) and their bindings become
//!   [`RawParams`]; SimplePhysics nodes become parameter drivers;
//! - MeshGroups become Mesh deformers over their descendant Parts (`meshgroup.rs`);
//! - `animations` become [`sinew::params::inochi_clip::ParamAnimation`]s (`animations.rs`).
//!
//! COMPAT(inochi2d): coordinates stay y-down as the puppet has them (no flip), so a bone's
//! rotation in degrees is the node's `rot.z` radians converted exactly (the rig sets
//! `exact_angles`, so an unrotated node's matrix is exactly the identity) and the world
//! matrix equals Inochi2D's `T · R_z · S` product. `rot.x/y` (3D
//! tilts) and `trans.z` (depth) are not represented. Node names are not unique in Inochi2D;
//! a repeated name gets ` #uuid` appended. Where Inox2D departs from the reference (NaN on
//! 1D parameters, skipped (0,0) values, MeshGroup panics, `.inx` parameter groups) sinew
//! follows the reference. Errors name the node or parameter; nothing panics on bad input
//! (tests in `tests/inochi2d_*.rs`).

mod animations;
pub mod container;
mod meshgroup;
mod nodes;
mod params;

pub use container::{Texture, read_container};

use crate::LoadError;
use crate::json::{JsonIssue, Problem};
use sinew::RawRig;
use sinew::params::raw::RawParams;
use std::path::Path;

/// How a mask source clips.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaskMode {
    /// Content drawn only inside the mask sources.
    Mask,
    /// Content drawn only outside.
    DodgeMask,
}

/// Drawing details of a Part or Composite.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawInfo {
    /// Slot name (Parts) or bone name (Composites).
    pub name: String,
    /// Whether this is a Composite (drawn off-screen, then composited).
    pub composite: bool,
    /// Blend mode (Inochi2D's 19 map one to one onto [`sinew::BlendMode`]; sinew-render's
    /// `advanced` module documents each formula).
    pub blend: sinew::BlendMode,
    /// Multiplicative tint.
    pub tint: [f32; 3],
    /// Screen tint.
    pub screen_tint: [f32; 3],
    /// Opacity.
    pub opacity: f32,
    /// Alpha below which a mask source's texels do not mask.
    pub mask_threshold: f32,
    /// Mask sources (slot names) and modes.
    pub masks: Vec<(String, MaskMode)>,
    /// Texture slot indices: albedo, emissive, bump map (`None`: unused).
    pub textures: [Option<u32>; 3],
}

/// A parsed puppet.
#[derive(Debug, Clone, Default)]
pub struct Puppet {
    /// Skeleton, slots and meshes.
    pub raw: RawRig,
    /// Parameters, bindings, z-sort, drivers.
    pub params: RawParams,
    /// Embedded textures, by slot index.
    pub textures: Vec<Texture>,
    /// Vendor payloads.
    pub ext: Vec<(String, Vec<u8>)>,
    /// Drawing details of every Part and Composite.
    pub draw: Vec<DrawInfo>,
    /// Creator parameter groups: group name and member parameter names.
    pub param_groups: Vec<(String, Vec<String>)>,
    /// `meta.name`.
    pub name: String,
    /// `meta.version`.
    pub version: String,
    /// Animations (lanes keyed on parameter indices, which are the built rig's `ParamId`s).
    pub animations: Vec<sinew::params::inochi_clip::ParamAnimation>,
}

/// Reads and parses a puppet file.
pub fn load_inochi2d(path: &Path) -> Result<Puppet, LoadError> {
    let file = path.display().to_string();
    let bytes = crate::budget::read_input(path, &file, &crate::budget::Budgets::DEFAULT)?;
    parse_inochi2d(&bytes, &file)
}

/// Parses puppet bytes; `file` names the source in errors.
pub fn parse_inochi2d(bytes: &[u8], file: &str) -> Result<Puppet, LoadError> {
    parse_inochi2d_with(bytes, file, &crate::budget::Budgets::DEFAULT)
}

/// [`parse_inochi2d`] within `budgets`.
pub(crate) fn parse_inochi2d_with(
    bytes: &[u8],
    file: &str,
    budgets: &crate::budget::Budgets,
) -> Result<Puppet, LoadError> {
    let c = read_container(bytes, file)?;
    crate::budget::check_json(c.json, file, budgets)?;
    let root: serde_json::Value =
        serde_json::from_slice(c.json).map_err(|e| LoadError::Syntax {
            file: file.to_owned(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
    crate::budget::check_magnitudes(&root, file)?;
    let mut p = Puppet {
        textures: c.textures,
        ext: c.ext,
        ..Default::default()
    };
    p.raw.source = file.to_owned();
    p.raw.reference_scale = 100.0;
    let meta = root.get("meta");
    p.name = meta
        .and_then(|m| m.get("name"))
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_owned();
    p.version = meta
        .and_then(|m| m.get("version"))
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_owned();
    p.raw.version = p.version.clone();
    let invalid = crate::json::in_file(file);
    let nodes = match root.get("nodes") {
        Some(n) => n,
        None => {
            return Err(invalid(Problem::at(
                "$",
                None,
                JsonIssue::Missing {
                    key: "nodes".into(),
                },
            )));
        }
    };
    let tree = nodes::read_nodes(nodes, &mut p).map_err(&invalid)?;
    params::read_params(&root, &tree, &mut p).map_err(&invalid)?;
    meshgroup::read_meshgroups(nodes, &tree, &mut p).map_err(&invalid)?;
    p.animations = animations::read_animations(&root, p.params.params.len()).map_err(&invalid)?;
    Ok(p)
}

/// Builds the rig of a parsed puppet, parameters included.
pub fn build_puppet(p: &Puppet) -> Result<sinew::Rig, LoadError> {
    let inputs = sinew::build::BuildInputs {
        params: Some(&p.params),
        exact_angles: true,
        // COMPAT(inochi2d): the runtimes place vertices in f32 (Inox2D, the reference's
        // shaders).
        vertex_math: sinew::rig::VertexMath::F32Fused,
        ..Default::default()
    };
    sinew::build::build_rig_with(&p.raw, &inputs).map_err(|error| LoadError::Build {
        file: p.raw.source.clone(),
        error,
    })
}
