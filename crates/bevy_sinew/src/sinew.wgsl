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
//
// A layered character (batch.rs) adds: screen quads (SINEW_SCREEN: positions are clip-space
// corners at the entity's depth, the texture a layer image whose texels are premultiplied
// in the view's compositing space; layer images are sRGB textures, so under SRGB_OUTPUT the
// sampled linear values are encoded back), and draws whose blend mode reads the
// destination (SINEW_BACKDROP: the last layer image at this pixel is the backdrop, the
// mode's formula of sinew_render::advanced is computed here and written over it).
#import bevy_sprite::{
    mesh2d_functions as mesh_functions,
}
#import bevy_render::color_operations::{srgb_to_linear, linear_to_srgb}

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var page: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var page_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(2) var backdrop: texture_2d<f32>;

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
#ifdef SINEW_SCREEN
    // Over the whole view, at the depth of the entity (its sort key and mask layer).
    let origin = mesh_functions::mesh2d_position_world_to_clip(
        mesh_functions::mesh2d_position_local_to_world(world_from_local, vec4<f32>(0.0, 0.0, 0.0, 1.0)));
    out.position = vec4<f32>(v.position.xy * origin.w, origin.z, origin.w);
#else
    let world = mesh_functions::mesh2d_position_local_to_world(world_from_local, vec4<f32>(v.position, 1.0));
    out.position = mesh_functions::mesh2d_position_world_to_clip(world);
#endif
    out.uv = v.uv;
    out.light = v.light;
    out.dark = v.dark;
    return out;
}

/// A layer image's premultiplied texel in the view's compositing space.
fn layer_texel(t: vec4<f32>) -> vec4<f32> {
#ifdef SRGB_OUTPUT
    return vec4<f32>(linear_to_srgb(t.rgb), t.a);
#else
    return t;
#endif
}

@fragment
fn fragment(in: VertexOutput) -> @location(0) vec4<f32> {
#ifdef SINEW_SCREEN
    let t = layer_texel(textureSample(page, page_sampler, in.uv));
#else
    let t = textureSample(page, page_sampler, in.uv);
#endif
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
    // Into the view's compositing space (a layer image's texels already are).
    var src = vec4<f32>(rgb, a);
#ifndef SRGB_OUTPUT
#ifndef SINEW_SCREEN
    src = vec4<f32>(0.0);
    if a > 0.0 {
        let straight = clamp(rgb / a, vec3<f32>(0.0), vec3<f32>(1.0));
        src = vec4<f32>(srgb_to_linear(straight) * a, a);
    }
#endif
#endif
#ifdef SINEW_BACKDROP
    let d = layer_texel(textureLoad(backdrop, vec2<i32>(floor(in.position.xy)), 0));
    return blend_separable(src, d);
#else
    return src;
#endif
#endif
}

#ifdef SINEW_BACKDROP
const SINEW_MODE: u32 = #{SINEW_MODE}u;

fn hard_light(b: f32, s: f32) -> f32 {
    let s2 = 2.0 * s - 1.0;
    return select(b + s2 - b * s2, b * 2.0 * s, s <= 0.5);
}

/// `B(Cb, Cs)` of sinew_render::advanced::separable, the mode numbered as material.rs's
/// BLEND_MODES.
fn separable(cb: f32, cs: f32) -> f32 {
    var r = cs;
    switch SINEW_MODE {
        case 4u: { r = hard_light(cs, cb); }
        case 5u: { r = min(cb, cs); }
        case 6u: { r = max(cb, cs); }
        case 7u: {
            if cb <= 0.0 {
                r = 0.0;
            } else if cs >= 1.0 {
                r = 1.0;
            } else {
                r = min(cb / (1.0 - cs), 1.0);
            }
        }
        case 8u: { r = min(cb + cs, 1.0); }
        case 10u: {
            if cb >= 1.0 {
                r = 1.0;
            } else if cs <= 0.0 {
                r = 0.0;
            } else {
                r = 1.0 - min((1.0 - cb) / cs, 1.0);
            }
        }
        case 11u: { r = hard_light(cb, cs); }
        case 12u: {
            if cs <= 0.5 {
                r = cb - (1.0 - 2.0 * cs) * cb * (1.0 - cb);
            } else {
                var dd = sqrt(cb);
                if cb <= 0.25 {
                    dd = ((16.0 * cb - 12.0) * cb + 4.0) * cb;
                }
                r = cb + (2.0 * cs - 1.0) * (dd - cb);
            }
        }
        case 13u: { r = abs(cb - cs); }
        case 14u: { r = cb + cs - 2.0 * cb * cs; }
        case 15u: { r = max(cb - cs, 0.0); }
        default: {}
    }
    return r;
}

fn straight(c: f32, a: f32) -> f32 {
    return select(0.0, clamp(c / max(a, 1e-30), 0.0, 1.0), a > 0.0);
}

/// sinew_render::advanced::blend_advanced for the separable modes, premultiplied.
fn blend_separable(s: vec4<f32>, d: vec4<f32>) -> vec4<f32> {
    let b = vec3<f32>(
        separable(straight(d.r, d.a), straight(s.r, s.a)),
        separable(straight(d.g, d.a), straight(s.g, s.a)),
        separable(straight(d.b, d.a), straight(s.b, s.a)),
    );
    let rgb = s.rgb * (1.0 - d.a) + d.rgb * (1.0 - s.a) + s.a * d.a * b;
    let out = vec4<f32>(rgb, s.a + d.a * (1.0 - s.a));
    return clamp(out, vec4<f32>(0.0), vec4<f32>(1.0));
}
#endif
