//! The material every sinew batch draws with: one atlas page and one blend mode, rendered by
//! Bevy's `Material2d` pipeline (so the batches sort with sprites and other 2D meshes by z,
//! and honour render layers and cameras) with sinew's own shader (`sinew.wgsl`: two-colour
//! tint, Inochi2D screen tint, premultiplied output) and the blend mode as fixed-function
//! blend state picked when the pipeline is specialised.
//!
//! Blend states are the premultiplied formulas of sinew-render (`blend.rs`, `advanced.rs`):
//! normal, additive, multiply, screen and Inochi2D's factor modes (AddGlow, Inverse,
//! DestinationIn, ClipToLower, SliceFromLower) exactly; Darken and Lighten as min/max,
//! LinearDodge as additive and Subtract as reverse subtraction (exact on opaque pixels);
//! the separable modes (Overlay, Darken, Lighten, ColorDodge, LinearDodge, ColorBurn,
//! HardLight, SoftLight, Difference, Exclusion, Subtract) exactly in the shader where the
//! batch has a backdrop (a layered character, `batch.rs`): the blend state is then off and
//! the shader writes the mode's result over the copy of the backdrop; without one (an
//! unlayered character) Darken ... Subtract as above and the rest as normal.
//!
//! A layered character's screen quads ([`SinewMaterial::screen`]) sample a layer image
//! instead of a page and cover the view.
//!
//! Inochi2D masks use the 2D pass's depth buffer (it has no stencil): a mask's sources are
//! drawn first with colour writes off, writing depth where their texels are more opaque than
//! the mask's threshold ([`MaskMode::Source`]); the masked part is drawn at the same z with
//! the depth test `Equal` (inside the sources) or `NotEqual` (dodge: outside them). The part
//! sorts just after its sources through the material's depth bias, which only moves the
//! sort key. The mask is hard-edged where sinew-render's is the sources' coverage.

use bevy::asset::{embedded_asset, embedded_path};
use bevy::mesh::{MeshVertexAttribute, MeshVertexBufferLayoutRef, VertexFormat};
use bevy::prelude::*;
use bevy::render::render_resource::{
    AsBindGroup, BlendComponent, BlendFactor, BlendOperation, BlendState, ColorWrites,
    CompareFunction, RenderPipelineDescriptor, SpecializedMeshPipelineError,
};
use bevy::shader::{ShaderDefVal, ShaderRef};
use bevy::sprite_render::{AlphaMode2d, Material2d, Material2dKey, Material2dPlugin};
use sinew::BlendMode;

/// The dark colour of a vertex: rgb Spine's tint black (w = 0) or an Inochi2D screen tint
/// (w = 1).
pub const ATTRIBUTE_DARK: MeshVertexAttribute =
    MeshVertexAttribute::new("SinewDark", 0x51_4e_57_01, VertexFormat::Float32x4);

/// One atlas page drawn with one blend mode (see the module docs). Made by the plugin per
/// rig, page and blend mode; shared by every character of the rig.
///
/// Owner: bevy_sinew's drawing (`draw.rs` picks one per batch).
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
#[bind_group_data(SinewMaterialKey)]
pub struct SinewMaterial {
    /// The page, premultiplied RGBA8 (not sRGB-decoded).
    #[texture(0)]
    #[sampler(1)]
    pub page: Handle<Image>,
    /// The layer image read as the destination (a layered character's batch whose blend
    /// mode needs it); `None`: blended by fixed-function state.
    #[texture(2)]
    pub backdrop: Option<Handle<Image>>,
    /// How the batch composites onto what is below.
    pub blend: BlendMode,
    /// Whether it is a mask's source or a masked part.
    pub mask: MaskMode,
    /// A screen quad: `page` is a layer image, the positions clip-space corners.
    pub screen: bool,
}

/// A batch's role in an Inochi2D mask (see the module docs).
///
/// Owner: bevy_sinew's drawing (`draw.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MaskMode {
    /// Not masked.
    #[default]
    None,
    /// A mask's source: depth written where its texel alpha exceeds the threshold (the
    /// vertices' `dark.w`), no colour.
    Source,
    /// Drawn only where its sources wrote (Inochi2D Mask).
    Inside,
    /// Drawn only where its sources did not write (Inochi2D DodgeMask).
    Outside,
}

impl MaskMode {
    fn index(self) -> u8 {
        match self {
            MaskMode::None => 0,
            MaskMode::Source => 1,
            MaskMode::Inside => 2,
            MaskMode::Outside => 3,
        }
    }
}

/// The pipeline key of a [`SinewMaterial`]: its blend mode.
///
/// Owner: bevy_sinew's drawing.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SinewMaterialKey {
    /// `BlendMode` as its index in [`BLEND_MODES`].
    pub blend: u8,
    /// [`MaskMode`]: 0 none, 1 source, 2 inside, 3 outside.
    pub mask: u8,
    /// Bit 0: a screen quad; bit 1: blended in the shader over a backdrop.
    pub flags: u8,
}

/// Every blend mode, in the order [`SinewMaterialKey::blend`] numbers them.
pub const BLEND_MODES: [BlendMode; 20] = [
    BlendMode::Normal,
    BlendMode::Additive,
    BlendMode::Multiply,
    BlendMode::Screen,
    BlendMode::Overlay,
    BlendMode::Darken,
    BlendMode::Lighten,
    BlendMode::ColorDodge,
    BlendMode::LinearDodge,
    BlendMode::AddGlow,
    BlendMode::ColorBurn,
    BlendMode::HardLight,
    BlendMode::SoftLight,
    BlendMode::Difference,
    BlendMode::Exclusion,
    BlendMode::Subtract,
    BlendMode::Inverse,
    BlendMode::DestinationIn,
    BlendMode::ClipToLower,
    BlendMode::SliceFromLower,
];

impl From<&SinewMaterial> for SinewMaterialKey {
    fn from(m: &SinewMaterial) -> Self {
        let blend = BLEND_MODES.iter().position(|b| *b == m.blend).unwrap_or(0);
        SinewMaterialKey {
            blend: blend as u8,
            mask: m.mask.index(),
            flags: u8::from(m.screen) | (u8::from(m.backdrop.is_some()) << 1),
        }
    }
}

/// The fixed-function blend state of a mode, on premultiplied colour (module docs).
pub fn blend_state(mode: BlendMode) -> BlendState {
    use BlendFactor::{
        Dst, DstAlpha, One, OneMinusDst, OneMinusSrc, OneMinusSrcAlpha, SrcAlpha, Zero,
    };
    let c = |src, dst| BlendComponent {
        src_factor: src,
        dst_factor: dst,
        operation: BlendOperation::Add,
    };
    let op = |operation| BlendComponent {
        src_factor: One,
        dst_factor: One,
        operation,
    };
    // Source-over alpha, which most modes share.
    let over = c(One, OneMinusSrcAlpha);
    let (color, alpha) = match mode {
        BlendMode::Additive | BlendMode::LinearDodge => (c(One, One), c(One, One)),
        BlendMode::Multiply => (c(Dst, OneMinusSrcAlpha), over),
        BlendMode::Screen => (c(One, OneMinusSrc), over),
        BlendMode::AddGlow => (c(One, One), over),
        BlendMode::Inverse => (c(OneMinusDst, OneMinusSrcAlpha), over),
        BlendMode::DestinationIn => (c(Zero, SrcAlpha), c(Zero, SrcAlpha)),
        BlendMode::ClipToLower => (c(DstAlpha, OneMinusSrcAlpha), c(DstAlpha, OneMinusSrcAlpha)),
        BlendMode::SliceFromLower => (c(Zero, OneMinusSrcAlpha), c(Zero, OneMinusSrcAlpha)),
        BlendMode::Darken => (op(BlendOperation::Min), over),
        BlendMode::Lighten => (op(BlendOperation::Max), over),
        BlendMode::Subtract => (op(BlendOperation::ReverseSubtract), over),
        _ => (over, over),
    };
    BlendState { color, alpha }
}

impl Material2d for SinewMaterial {
    fn vertex_shader() -> ShaderRef {
        shader_ref()
    }

    fn fragment_shader() -> ShaderRef {
        shader_ref()
    }

    fn alpha_mode(&self) -> AlphaMode2d {
        // The transparent (sorted) phase: batches draw back to front in z.
        AlphaMode2d::Blend
    }

    fn depth_bias(&self) -> f32 {
        // A masked part sorts after its sources, drawn at the same z (sort key only).
        match self.mask {
            MaskMode::Inside | MaskMode::Outside => crate::batch::Z_STEP * 0.5,
            _ => 0.0,
        }
    }

    fn specialize(
        descriptor: &mut RenderPipelineDescriptor,
        layout: &MeshVertexBufferLayoutRef,
        key: Material2dKey<Self>,
    ) -> Result<(), SpecializedMeshPipelineError> {
        let buffer = layout.0.get_layout(&[
            Mesh::ATTRIBUTE_POSITION.at_shader_location(0),
            Mesh::ATTRIBUTE_UV_0.at_shader_location(1),
            Mesh::ATTRIBUTE_COLOR.at_shader_location(2),
            ATTRIBUTE_DARK.at_shader_location(3),
        ])?;
        descriptor.vertex.buffers = vec![buffer];
        let mode = BLEND_MODES
            .get(usize::from(key.bind_group_data.blend))
            .copied()
            .unwrap_or_default();
        let mask = key.bind_group_data.mask;
        let screen = key.bind_group_data.flags & 1 != 0;
        let backdrop = key.bind_group_data.flags & 2 != 0;
        if screen {
            descriptor.vertex.shader_defs.push("SINEW_SCREEN".into());
        }
        if let Some(fragment) = descriptor.fragment.as_mut() {
            for target in fragment.targets.iter_mut().flatten() {
                if mask == 1 {
                    target.blend = None;
                    target.write_mask = ColorWrites::empty();
                } else if backdrop {
                    // The shader's result already holds the backdrop: written over.
                    target.blend = None;
                } else {
                    target.blend = Some(blend_state(mode));
                }
            }
            if mask == 1 {
                fragment.shader_defs.push("SINEW_MASK_SOURCE".into());
            }
            if screen {
                fragment.shader_defs.push("SINEW_SCREEN".into());
            }
            if backdrop {
                fragment.shader_defs.push("SINEW_BACKDROP".into());
                fragment.shader_defs.push(ShaderDefVal::UInt(
                    "SINEW_MODE".into(),
                    u32::from(key.bind_group_data.blend),
                ));
            }
        }
        if let Some(depth) = descriptor.depth_stencil.as_mut() {
            match mask {
                1 => {
                    depth.depth_write_enabled = Some(true);
                    depth.depth_compare = Some(CompareFunction::GreaterEqual);
                }
                2 => depth.depth_compare = Some(CompareFunction::Equal),
                3 => depth.depth_compare = Some(CompareFunction::NotEqual),
                _ => {}
            }
        }
        Ok(())
    }
}

fn shader_ref() -> ShaderRef {
    ShaderRef::Path(
        bevy::asset::AssetPath::from_path_buf(embedded_path!("sinew.wgsl")).with_source("embedded"),
    )
}

/// Registers the material and its shader.
pub(crate) fn build(app: &mut App) {
    embedded_asset!(app, "sinew.wgsl");
    app.add_plugins(Material2dPlugin::<SinewMaterial>::default());
}
