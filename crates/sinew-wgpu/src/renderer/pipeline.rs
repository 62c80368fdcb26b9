//! Pipeline keys (what a draw is, its blend mode number and stencil use), the blend modes'
//! fixed-function states and shader indices, and the render pipelines made once per key.

use super::plan::Op;
use super::{FORMAT, GpuRenderer, STENCIL, Vertex};
use sinew::BlendMode;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Kind {
    /// A command's colour, fixed-function blended.
    Content,
    /// A command's colour, blended in the shader over a backdrop copy.
    Advanced,
    /// A mask source into a stencil bit.
    MaskSource,
    /// A clip polygon's fan into the clip bit.
    Fan,
    /// A full-screen stencil write.
    StencilFill,
    /// A group's layer, fixed-function blended.
    Composite,
    /// A group's layer, blended in the shader.
    CompositeAdvanced,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Stencil {
    Off,
    /// Pass where `stencil & mask == reference`.
    Test(u32),
    /// Replace the bits of `mask` with the reference.
    Replace(u32),
    /// Invert the bits of `mask`.
    Invert(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct PipeKey {
    pub(super) kind: Kind,
    pub(super) blend: u32,
    pub(super) stencil: Stencil,
}

/// The separable modes' index in the shader (`override mode`), `None` for the others.
pub(super) fn shader_mode(mode: BlendMode) -> Option<u32> {
    Some(match mode {
        BlendMode::Overlay => 4,
        BlendMode::Darken => 5,
        BlendMode::Lighten => 6,
        BlendMode::ColorDodge => 7,
        BlendMode::LinearDodge => 8,
        BlendMode::ColorBurn => 10,
        BlendMode::HardLight => 11,
        BlendMode::SoftLight => 12,
        BlendMode::Difference => 13,
        BlendMode::Exclusion => 14,
        BlendMode::Subtract => 15,
        _ => return None,
    })
}

/// Key number of a blend mode (fixed-function ones below 4 or from 16; see [`shader_mode`]).
pub(super) fn mode_number(mode: BlendMode) -> u32 {
    match mode {
        BlendMode::Normal => 0,
        BlendMode::Additive => 1,
        BlendMode::Multiply => 2,
        BlendMode::Screen => 3,
        BlendMode::AddGlow => 9,
        BlendMode::Inverse => 16,
        BlendMode::DestinationIn => 17,
        BlendMode::ClipToLower => 18,
        BlendMode::SliceFromLower => 19,
        m => shader_mode(m).unwrap_or(0),
    }
}

/// The fixed-function blend of a key number (premultiplied; the tables of
/// `sinew_render::blend` and `sinew_render::advanced`).
fn blend_state(number: u32) -> wgpu::BlendState {
    use wgpu::BlendFactor as F;
    let c = |src_factor, dst_factor| wgpu::BlendComponent {
        src_factor,
        dst_factor,
        operation: wgpu::BlendOperation::Add,
    };
    let over = c(F::One, F::OneMinusSrcAlpha);
    let (color, alpha) = match number {
        1 => (c(F::One, F::One), c(F::One, F::One)),
        2 => (c(F::Dst, F::OneMinusSrcAlpha), over),
        3 => (c(F::One, F::OneMinusSrc), over),
        9 => (c(F::One, F::One), over),
        16 => (c(F::OneMinusDst, F::OneMinusSrcAlpha), over),
        17 => (c(F::Zero, F::SrcAlpha), c(F::Zero, F::SrcAlpha)),
        18 => (
            c(F::DstAlpha, F::OneMinusSrcAlpha),
            c(F::DstAlpha, F::OneMinusSrcAlpha),
        ),
        19 => (
            c(F::Zero, F::OneMinusSrcAlpha),
            c(F::Zero, F::OneMinusSrcAlpha),
        ),
        _ => (over, over),
    };
    wgpu::BlendState { color, alpha }
}

impl GpuRenderer {
    pub(super) fn ensure_pipelines(&mut self, factor: u32) {
        for i in 0..self.ops.len() {
            let key = match self.ops[i] {
                Op::Draw { key, .. } | Op::Fullscreen { key, .. } => key,
                _ => continue,
            };
            if !self.pipelines.contains_key(&key) {
                let p = self.make_pipeline(key);
                self.pipelines.insert(key, p);
            }
        }
        if !self.downsample.contains_key(&factor) {
            let p = self.make_downsample();
            self.downsample.insert(factor, p);
        }
    }

    fn make_pipeline(&self, key: PipeKey) -> wgpu::RenderPipeline {
        let fullscreen = matches!(
            key.kind,
            Kind::StencilFill | Kind::Composite | Kind::CompositeAdvanced
        );
        let fs = match key.kind {
            Kind::Content | Kind::Fan | Kind::StencilFill => "fs_main",
            Kind::Advanced => "fs_advanced",
            Kind::MaskSource => "fs_mask",
            Kind::Composite => "fs_composite",
            Kind::CompositeAdvanced => "fs_composite_advanced",
        };
        let stencil_only = matches!(key.kind, Kind::MaskSource | Kind::Fan | Kind::StencilFill);
        let advanced = matches!(key.kind, Kind::Advanced | Kind::CompositeAdvanced);
        let face = |compare, pass_op| wgpu::StencilFaceState {
            compare,
            fail_op: wgpu::StencilOperation::Keep,
            depth_fail_op: wgpu::StencilOperation::Keep,
            pass_op,
        };
        let (state, read_mask, write_mask) = match key.stencil {
            Stencil::Off => (
                face(wgpu::CompareFunction::Always, wgpu::StencilOperation::Keep),
                0,
                0,
            ),
            Stencil::Test(m) => (
                face(wgpu::CompareFunction::Equal, wgpu::StencilOperation::Keep),
                m,
                0,
            ),
            Stencil::Replace(m) => (
                face(
                    wgpu::CompareFunction::Always,
                    wgpu::StencilOperation::Replace,
                ),
                0,
                m,
            ),
            Stencil::Invert(m) => (
                face(
                    wgpu::CompareFunction::Always,
                    wgpu::StencilOperation::Invert,
                ),
                0,
                m,
            ),
        };
        let constants: &[(&str, f64)] = &[("mode", f64::from(key.blend))];
        let vertex_layout = [Some(vertex_layout())];
        self.device
            .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("sinew-wgpu pipeline"),
                layout: Some(&self.pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &self.shader,
                    entry_point: Some(if fullscreen {
                        "vs_fullscreen"
                    } else {
                        "vs_main"
                    }),
                    compilation_options: Default::default(),
                    buffers: if fullscreen { &[] } else { &vertex_layout },
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: STENCIL,
                    depth_write_enabled: Some(false),
                    depth_compare: Some(wgpu::CompareFunction::Always),
                    stencil: wgpu::StencilState {
                        front: state,
                        back: state,
                        read_mask,
                        write_mask,
                    },
                    bias: wgpu::DepthBiasState::default(),
                }),
                multisample: wgpu::MultisampleState::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &self.shader,
                    entry_point: Some(fs),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants: if advanced { constants } else { &[] },
                        ..Default::default()
                    },
                    targets: &[Some(wgpu::ColorTargetState {
                        format: FORMAT,
                        blend: if stencil_only || advanced {
                            None
                        } else {
                            Some(blend_state(key.blend))
                        },
                        write_mask: if stencil_only {
                            wgpu::ColorWrites::empty()
                        } else {
                            wgpu::ColorWrites::ALL
                        },
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
    }

    fn make_downsample(&self) -> wgpu::RenderPipeline {
        self.device
            .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("sinew-wgpu downsample"),
                layout: Some(&self.pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &self.shader,
                    entry_point: Some("vs_fullscreen"),
                    compilation_options: Default::default(),
                    buffers: &[],
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: None,
                multisample: wgpu::MultisampleState::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &self.shader,
                    entry_point: Some("fs_downsample"),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: FORMAT,
                        blend: None,
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
    }
}

fn vertex_layout() -> wgpu::VertexBufferLayout<'static> {
    const ATTRS: [wgpu::VertexAttribute; 4] = wgpu::vertex_attr_array![
        0 => Float32x2, 1 => Float32x2, 2 => Float32x4, 3 => Float32x4
    ];
    wgpu::VertexBufferLayout {
        array_stride: size_of::<Vertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &ATTRS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_has_a_path() {
        use BlendMode::*;
        for m in [
            Normal,
            Additive,
            Multiply,
            Screen,
            Overlay,
            Darken,
            Lighten,
            ColorDodge,
            LinearDodge,
            AddGlow,
            ColorBurn,
            HardLight,
            SoftLight,
            Difference,
            Exclusion,
            Subtract,
            Inverse,
            DestinationIn,
            ClipToLower,
            SliceFromLower,
        ] {
            let n = mode_number(m);
            assert_eq!(
                shader_mode(m).is_some(),
                (4..=15).contains(&n) && n != 9,
                "{m:?}"
            );
        }
    }
}
