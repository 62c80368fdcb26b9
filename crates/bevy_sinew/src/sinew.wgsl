// sinew's two-colour shading in Bevy's 2D pipeline, the same arithmetic as sinew-render's
// `Tint::shade` (crates/sinew-render/src/blend.rs) on premultiplied texels.
//
// Inputs per vertex: the light tint (straight alpha, DragonBones ranges outside 0..1 kept),
// and `dark`: rgb is Spine's dark colour (tint black) when w = 0, an Inochi2D screen tint
// when w = 1. Pages are uploaded premultiplied and not sRGB-decoded (the texel values the
// CPU renderer samples); the result is premultiplied and blended by the fixed-function
// state the blend mode picks (material.rs). With `CompositingSpace::Srgb` on the camera
// (SRGB_OUTPUT) the view stores those values and blends them as sinew's CPU renderer does;
// otherwise the colour is converted to linear light for Bevy's linear targets. A mask's
// source (SINEW_MASK_SOURCE) writes only depth, where the texel alpha exceeds `dark.w`.
#import bevy_sprite::{
    mesh2d_functions as mesh_functions,
}
#ifndef SRGB_OUTPUT
#import bevy_render::color_operations::srgb_to_linear
#endif

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var page: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var page_sampler: sampler;

struct Vertex {
    @builtin(instance_index) instance_index: u32,
    @location(0) position: vec3<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) light: vec4<f32>,
    @location(3) dark: vec4<f32>,
};

struct VertexOutput {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) light: vec4<f32>,
    @location(2) dark: vec4<f32>,
};

@vertex
fn vertex(v: Vertex) -> VertexOutput {
    var out: VertexOutput;
    let world_from_local = mesh_functions::get_world_from_local(v.instance_index);
    let world = mesh_functions::mesh2d_position_local_to_world(world_from_local, vec4<f32>(v.position, 1.0));
    out.position = mesh_functions::mesh2d_position_world_to_clip(world);
    out.uv = v.uv;
    out.light = v.light;
    out.dark = v.dark;
    return out;
}

@fragment
fn fragment(in: VertexOutput) -> @location(0) vec4<f32> {
    let t = textureSample(page, page_sampler, in.uv);
#ifdef SINEW_MASK_SOURCE
    // A mask's source: only its depth, where the texel is more opaque than the threshold.
    if t.a <= in.dark.w {
        discard;
    }
    return vec4<f32>(0.0);
#else
    let la = in.light.a;
    let l = in.light.rgb * la;
    let a = t.a * la;
    var rgb: vec3<f32>;
    if in.dark.w > 0.5 {
        // Inochi2D screen tint: 1 - (1 - t)(1 - screen * t.a), then the tint.
        rgb = (vec3<f32>(1.0) - (vec3<f32>(1.0) - t.rgb) * (vec3<f32>(1.0) - in.dark.rgb * t.a)) * l;
    } else {
        // Spine two-colour tint, premultiplied: la * ((t.a - t.rgb) * dark + t.rgb * light).
        let d = in.dark.rgb * la;
        rgb = clamp((vec3<f32>(t.a) - t.rgb) * d + t.rgb * l, vec3<f32>(0.0), vec3<f32>(a));
    }
#ifdef SRGB_OUTPUT
    return vec4<f32>(rgb, a);
#else
    if a <= 0.0 {
        return vec4<f32>(0.0);
    }
    let straight = clamp(rgb / a, vec3<f32>(0.0), vec3<f32>(1.0));
    return vec4<f32>(srgb_to_linear(straight) * a, a);
#endif
#endif
}
