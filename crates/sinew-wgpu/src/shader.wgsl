// sinew-wgpu shaders. Colours are premultiplied RGBA in 0..1 throughout.

struct Slot {
    // World (x, y) to clip space: ndc = axis_x * x + axis_y * y + offset.
    axis_x: vec2<f32>,
    axis_y: vec2<f32>,
    offset: vec2<f32>,
    // The rotated sample grid (grid.rs): target pixel t = factor * R * o + origin for the
    // output pixel point o, R the rotation by (cos, sin) = rot.
    rot: vec2<f32>,
    origin: vec2<f32>,
    pad0: vec2<f32>,
    // Composite groups: tint (rgb) and opacity (a); screen tint (rgb).
    tint: vec4<f32>,
    screen: vec4<f32>,
    // Mask sources: alpha at or below which a texel does not mask.
    threshold: f32,
    // Samples per pixel along each axis (the supersampling factor).
    factor: f32,
    // 1: sample the page's mip chain at the output pixel's footprint; 0: its base level.
    mipmaps: f32,
};

@group(0) @binding(0) var<uniform> slot: Slot;
@group(1) @binding(0) var page: texture_2d<f32>;
@group(1) @binding(1) var page_sampler: sampler;
// What was under the draw (a copy of the target) and a composite group's layer.
@group(2) @binding(0) var backdrop: texture_2d<f32>;
@group(2) @binding(1) var layer: texture_2d<f32>;

// Blend mode of the advanced (shader-blended) pipelines, as `sinew::BlendMode` indices.
override mode: u32 = 0u;

struct VertexIn {
    @location(0) pos: vec2<f32>,
    @location(1) uv: vec2<f32>,
    // Light tint premultiplied by its alpha.
    @location(2) light: vec4<f32>,
    // Dark colour times the light alpha (rgb); a = 1 when rgb is an Inochi2D screen tint.
    @location(3) dark: vec4<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) light: vec4<f32>,
    @location(2) dark: vec4<f32>,
};

@vertex
fn vs_main(v: VertexIn) -> VertexOut {
    var o: VertexOut;
    o.clip = vec4<f32>(slot.axis_x * v.pos.x + slot.axis_y * v.pos.y + slot.offset, 0.0, 1.0);
    o.uv = v.uv;
    o.light = v.light;
    o.dark = v.dark;
    return o;
}

// One triangle over the whole target.
@vertex
fn vs_fullscreen(@builtin(vertex_index) i: u32) -> VertexOut {
    var o: VertexOut;
    let p = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    o.clip = vec4<f32>(p * 2.0 - 1.0, 0.0, 1.0);
    o.uv = vec2<f32>(0.0);
    o.light = vec4<f32>(1.0);
    o.dark = vec4<f32>(0.0);
    return o;
}

// Spine two-colour tint, or an Inochi2D screen tint, on a premultiplied texel.
fn shade(t: vec4<f32>, light: vec4<f32>, dark: vec4<f32>) -> vec4<f32> {
    if dark.a > 0.5 {
        let rgb = (vec3<f32>(1.0) - (vec3<f32>(1.0) - t.rgb) * (vec3<f32>(1.0) - dark.rgb * t.a)) * light.rgb;
        return vec4<f32>(rgb, t.a * light.a);
    }
    // Clamped to 0..alpha: a DragonBones colour transform (light = multipliers + offsets,
    // dark = offsets) can leave it; Spine's 0..1 tints cannot.
    let a = t.a * light.a;
    return vec4<f32>(clamp((t.a - t.rgb) * dark.rgb + t.rgb * light.rgb, vec3<f32>(0.0), vec3<f32>(a)), a);
}

// The output image point (pixels) of target point t: the inverse of the grid's
// t = factor * R * o + origin (`SampleGrid::output_point`, the same f32 expression).
fn output_point(t: vec2<f32>) -> vec2<f32> {
    let d = t - slot.origin;
    let c = slot.rot.x;
    let n = slot.rot.y;
    return vec2<f32>(c * d.x + n * d.y, c * d.y - n * d.x) * (1.0 / slot.factor);
}

// Target point of output point o.
fn target_point(o: vec2<f32>) -> vec2<f32> {
    let c = slot.rot.x;
    let n = slot.rot.y;
    return vec2<f32>(c * o.x - n * o.y, n * o.x + c * o.y) * slot.factor + slot.origin;
}

// The page sampled where the centre of the output pixel holding this sample falls (the
// UVs are affine over a triangle), so every sample of a pixel shades alike, as the CPU
// renderer shades a pixel once at its centre; the footprint is the output pixel's (its
// sides are the grid's turned axes, `factor` target pixels long).
fn texel(in: VertexOut) -> vec4<f32> {
    let dx = dpdx(in.uv);
    let dy = dpdy(in.uv);
    let centre = target_point(floor(output_point(in.clip.xy)) + 0.5);
    let d = centre - in.clip.xy;
    let uv = in.uv + dx * d.x + dy * d.y;
    if slot.mipmaps > 0.5 {
        let gx = (dx * slot.rot.x + dy * slot.rot.y) * slot.factor;
        let gy = (dy * slot.rot.x - dx * slot.rot.y) * slot.factor;
        return textureSampleGrad(page, page_sampler, uv, gx, gy);
    }
    return textureSampleLevel(page, page_sampler, uv, 0.0);
}

fn shaded(in: VertexOut) -> vec4<f32> {
    return shade(texel(in), in.light, in.dark);
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    return shaded(in);
}

// Mask sources: full opacity, discarded at or below the threshold (writes stencil only).
@fragment
fn fs_mask(in: VertexOut) -> @location(0) vec4<f32> {
    // Sampled per sample (not at the pixel centre): the threshold's edge is anti-aliased
    // by the samples like the CPU renderer's continuous mask.
    let t = textureSampleLevel(page, page_sampler, in.uv, 0.0);
    if t.a <= slot.threshold {
        discard;
    }
    return t;
}

fn straight(c: f32, a: f32) -> f32 {
    if a > 0.0 {
        return clamp(c / a, 0.0, 1.0);
    }
    return 0.0;
}

fn hard_light(b: f32, s: f32) -> f32 {
    if s <= 0.5 {
        return b * 2.0 * s;
    }
    let s2 = 2.0 * s - 1.0;
    return b + s2 - b * s2;
}

// The separable blend function B(Cb, Cs) of `mode` (sinew-render's `advanced::separable`).
fn separable(cb: f32, cs: f32) -> f32 {
    switch mode {
        case 4u: { return hard_light(cs, cb); }
        case 5u: { return min(cb, cs); }
        case 6u: { return max(cb, cs); }
        case 7u: {
            if cb <= 0.0 { return 0.0; }
            if cs >= 1.0 { return 1.0; }
            return min(cb / (1.0 - cs), 1.0);
        }
        case 8u: { return min(cb + cs, 1.0); }
        case 10u: {
            if cb >= 1.0 { return 1.0; }
            if cs <= 0.0 { return 0.0; }
            return 1.0 - min((1.0 - cb) / cs, 1.0);
        }
        case 11u: { return hard_light(cb, cs); }
        case 12u: {
            if cs <= 0.5 { return cb - (1.0 - 2.0 * cs) * cb * (1.0 - cb); }
            var dd = sqrt(cb);
            if cb <= 0.25 { dd = ((16.0 * cb - 12.0) * cb + 4.0) * cb; }
            return cb + (2.0 * cs - 1.0) * (dd - cb);
        }
        case 13u: { return abs(cb - cs); }
        case 14u: { return cb + cs - 2.0 * cb * cs; }
        case 15u: { return max(cb - cs, 0.0); }
        default: { return cb; }
    }
}

// Premultiplied `s` over premultiplied `d` with the separable mode (W3C construction).
fn blend_separable(s: vec4<f32>, d: vec4<f32>) -> vec4<f32> {
    let both = s.a * d.a;
    var o = vec4<f32>(0.0, 0.0, 0.0, s.a + d.a * (1.0 - s.a));
    for (var k = 0; k < 3; k++) {
        let b = separable(straight(d[k], d.a), straight(s[k], s.a));
        o[k] = s[k] * (1.0 - d.a) + d[k] * (1.0 - s.a) + both * b;
    }
    return clamp(o, vec4<f32>(0.0), vec4<f32>(1.0));
}

fn backdrop_at(p: vec4<f32>) -> vec4<f32> {
    return textureLoad(backdrop, vec2<i32>(p.xy), 0);
}

@fragment
fn fs_advanced(in: VertexOut) -> @location(0) vec4<f32> {
    return blend_separable(shaded(in), backdrop_at(in.clip));
}

// A composite group's layer, shaded with its tint, screen tint and opacity
// (sinew-render's `composite::shade_layer`).
fn layer_shaded(p: vec4<f32>) -> vec4<f32> {
    let c = textureLoad(layer, vec2<i32>(p.xy), 0);
    let rgb = slot.tint.rgb * (vec3<f32>(1.0) - (vec3<f32>(1.0) - c.rgb) * (vec3<f32>(1.0) - slot.screen.rgb * c.a)) * slot.tint.a;
    return vec4<f32>(rgb, c.a * slot.tint.a);
}

@fragment
fn fs_composite(in: VertexOut) -> @location(0) vec4<f32> {
    return layer_shaded(in.clip);
}

@fragment
fn fs_composite_advanced(in: VertexOut) -> @location(0) vec4<f32> {
    return blend_separable(layer_shaded(in.clip), backdrop_at(in.clip));
}

// Supersampled target to output pixels: the mean of the samples whose centres map into
// the pixel (half-open, so each sample counts once), over the bounding box of the pixel's
// turned square on the target.
@fragment
fn fs_downsample(in: VertexOut) -> @location(0) vec4<f32> {
    let px = floor(in.clip.xy);
    let a = target_point(px);
    let b = target_point(px + vec2<f32>(1.0, 0.0));
    let c = target_point(px + vec2<f32>(0.0, 1.0));
    let d = target_point(px + vec2<f32>(1.0, 1.0));
    let size = vec2<i32>(textureDimensions(layer));
    let lo = max(vec2<i32>(floor(min(min(a, b), min(c, d)))), vec2<i32>(0));
    let hi = min(vec2<i32>(floor(max(max(a, b), max(c, d)))), size - 1);
    var sum = vec4<f32>(0.0);
    var count = 0.0;
    for (var y = lo.y; y <= hi.y; y++) {
        for (var x = lo.x; x <= hi.x; x++) {
            let o = floor(output_point(vec2<f32>(f32(x), f32(y)) + 0.5));
            if all(o == px) {
                sum += textureLoad(layer, vec2<i32>(x, y), 0);
                count += 1.0;
            }
        }
    }
    return sum / max(count, 1.0);
}
