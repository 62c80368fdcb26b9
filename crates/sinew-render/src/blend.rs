//! Shading and compositing in premultiplied alpha: Spine's two-colour tint and the four core
//! slot blend modes (the fast path; the other Inochi2D modes are in [`crate::advanced`], which
//! [`blend`] hands them to).
//!
//! All colours here are premultiplied RGBA in 0..1 (`[r, g, b, a]`). The meanings follow the
//! official WebGL runtime (spine-webgl 4.2 `PolygonBatcher.blendModesGL` with premultiplied
//! alpha, and the two-colour shader of `Shader.newTwoColoredTextured`):
//!
//! | mode     | colour                               | alpha                     |
//! |----------|--------------------------------------|---------------------------|
//! | normal   | `s + d * (1 - s.a)`                  | `s.a + d.a * (1 - s.a)`   |
//! | additive | `s + d`                              | `s.a + d.a`               |
//! | multiply | `s * d + d * (1 - s.a)`              | `s.a + d.a * (1 - s.a)`   |
//! | screen   | `s + d * (1 - s)`                    | `s.a + d.a * (1 - s.a)`   |
//!
//! Inochi2D's own Normal, Multiply and Screen use the same blend factors (inochi2d.md §5), so
//! puppets share this path.
//!
//! Results are clamped to 0..1 like a fixed-point framebuffer. Every mode is linear in `s`
//! with `d` weighted by `1 - k * s`, so drawing a fragment with partial coverage `c` is the
//! same as drawing `c * s` (what [`crate::Renderer`] does for anti-aliased edges).
//!
//! Verified by the unit tests below (closed forms on hand-picked colours, the coverage
//! identity for every mode, tint black reducing to plain tinting).

use crate::advanced::blend_advanced;
use sinew::{BlendMode, Color};

/// A premultiplied RGBA colour, channels 0..1.
///
/// Owner: the CPU renderer (`sinew-render`): blending.
pub type Rgba = [f32; 4];

/// Per-command shading constants: the light tint premultiplied by its alpha, and the dark
/// tint (Spine tint black) scaled by the light alpha, or an Inochi2D screen tint.
///
/// Owner: the CPU renderer (`sinew-render`): blending.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tint {
    /// Light rgb times light alpha, then light alpha.
    pub light: Rgba,
    /// Dark rgb times light alpha (zero without tint black).
    pub dark: [f32; 3],
    /// Inochi2D screen tint (0..1), which replaces the dark colour when set.
    pub screen: Option<[f32; 3]>,
}

impl Tint {
    /// Shading constants for a straight-alpha `light` tint and optional `dark` colour.
    pub fn new(light: Color, dark: Option<Color>) -> Self {
        // Not clamped to 0..1: a DragonBones colour transform is light = multipliers +
        // offsets, dark = offsets (`shade` clamps what it makes).
        let l = light.tint_range();
        let d = dark.map_or(Color::new(0.0, 0.0, 0.0, 1.0), Color::tint_range);
        Tint {
            light: [l.r * l.a, l.g * l.a, l.b * l.a, l.a],
            dark: [d.r * l.a, d.g * l.a, d.b * l.a],
            screen: None,
        }
    }

    /// Shading constants for an Inochi2D Part: a straight-alpha `light` tint (tint and
    /// opacity) and an optional screen tint.
    pub fn screened(light: Color, screen: Option<Color>) -> Self {
        let mut t = Tint::new(light, None);
        t.screen = screen.map(|s| {
            let s = s.clamped();
            [s.r, s.g, s.b]
        });
        t
    }

    /// Shades a premultiplied texel: Spine's two-colour tint
    /// `rgb = (1 - tex) * dark + tex * light` on straight colours, in premultiplied form
    /// `rgb = la * ((t.a - t.rgb) * dark + t.rgb * light)`, `a = t.a * la`, the colour
    /// clamped to 0..a (a DragonBones colour transform, light = multipliers + offsets and
    /// dark = offsets, gives `tex * multipliers + offsets` on straight colour).
    ///
    /// With a screen tint (Inochi2D 0.8's Part shader, on premultiplied texels):
    /// `rgb = (1 − (1 − t.rgb)(1 − screen · t.a)) · light`, `a = t.a · la`.
    #[inline]
    pub fn shade(&self, t: Rgba) -> Rgba {
        let (l, d) = (&self.light, &self.dark);
        if let Some(s) = &self.screen {
            let f = |k: usize| (1.0 - (1.0 - t[k]) * (1.0 - s[k] * t[3])) * l[k];
            return [f(0), f(1), f(2), t[3] * l[3]];
        }
        // Within 0..alpha (premultiplied): only tints outside 0..1 can leave it.
        let a = t[3] * l[3];
        let f = |k: usize| ((t[3] - t[k]) * d[k] + t[k] * l[k]).clamp(0.0, a);
        [f(0), f(1), f(2), a]
    }
}

/// Composites premultiplied `s` onto premultiplied `d` with a slot blend mode (any of them;
/// the table above for the core four, [`crate::advanced`] for the rest).
#[inline]
pub fn blend(mode: BlendMode, s: Rgba, d: Rgba) -> Rgba {
    let inv_a = 1.0 - s[3];
    let out = match mode {
        BlendMode::Normal => [
            s[0] + d[0] * inv_a,
            s[1] + d[1] * inv_a,
            s[2] + d[2] * inv_a,
            s[3] + d[3] * inv_a,
        ],
        BlendMode::Additive => [s[0] + d[0], s[1] + d[1], s[2] + d[2], s[3] + d[3]],
        BlendMode::Multiply => [
            s[0] * d[0] + d[0] * inv_a,
            s[1] * d[1] + d[1] * inv_a,
            s[2] * d[2] + d[2] * inv_a,
            s[3] + d[3] * inv_a,
        ],
        BlendMode::Screen => [
            s[0] + d[0] * (1.0 - s[0]),
            s[1] + d[1] * (1.0 - s[1]),
            s[2] + d[2] * (1.0 - s[2]),
            s[3] + d[3] * inv_a,
        ],
        // The other Inochi2D modes: the generic (slower) path.
        _ => return blend_advanced(mode, s, d),
    };
    [
        out[0].clamp(0.0, 1.0),
        out[1].clamp(0.0, 1.0),
        out[2].clamp(0.0, 1.0),
        out[3].clamp(0.0, 1.0),
    ]
}

/// Premultiplies a straight-alpha colour.
pub fn premultiply(c: Color) -> Rgba {
    let c = c.clamped();
    [c.r * c.a, c.g * c.a, c.b * c.a, c.a]
}

/// A premultiplied pixel as straight-alpha 8-bit RGBA (`rgb = round(255 * min(1, p / a))`,
/// 0 where alpha is 0).
#[inline]
pub fn to_straight_u8(p: Rgba) -> [u8; 4] {
    let a = p[3].clamp(0.0, 1.0);
    if a <= 0.0 {
        return [0, 0, 0, 0];
    }
    let q = |c: f32| ((c / a).clamp(0.0, 1.0) * 255.0).round() as u8;
    [q(p[0]), q(p[1]), q(p[2]), (a * 255.0).round() as u8]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Rgba, b: Rgba) -> bool {
        a.iter().zip(b.iter()).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    const MODES: [BlendMode; 4] = [
        BlendMode::Normal,
        BlendMode::Additive,
        BlendMode::Multiply,
        BlendMode::Screen,
    ];

    #[test]
    fn closed_forms() {
        let s = [0.2, 0.3, 0.1, 0.5];
        let d = [0.4, 0.2, 0.6, 0.8];
        assert!(close(blend(BlendMode::Normal, s, d), [0.4, 0.4, 0.4, 0.9]));
        assert!(close(
            blend(BlendMode::Additive, s, d),
            [0.6, 0.5, 0.7, 1.0]
        ));
        // multiply: s*d + d*(1 - 0.5)
        assert!(close(
            blend(BlendMode::Multiply, s, d),
            [0.08 + 0.2, 0.06 + 0.1, 0.06 + 0.3, 0.9]
        ));
        // screen: s + d*(1 - s)
        assert!(close(
            blend(BlendMode::Screen, s, d),
            [0.2 + 0.32, 0.3 + 0.14, 0.1 + 0.54, 0.9]
        ));
    }

    #[test]
    fn opaque_normal_replaces_and_transparent_source_keeps() {
        let d = [0.1, 0.2, 0.3, 0.4];
        for m in MODES {
            assert!(close(blend(m, [0.0; 4], d), d), "{m:?}");
        }
        assert!(close(
            blend(BlendMode::Normal, [1.0, 0.0, 0.5, 1.0], d),
            [1.0, 0.0, 0.5, 1.0]
        ));
        // Multiply by opaque white keeps the destination colour.
        assert!(close(
            blend(BlendMode::Multiply, [1.0; 4], [0.3, 0.2, 0.1, 1.0]),
            [0.3, 0.2, 0.1, 1.0]
        ));
        // Multiply over nothing leaves black with the source alpha (as the official runtime).
        assert!(close(
            blend(BlendMode::Multiply, [0.5, 0.5, 0.5, 0.5], [0.0; 4]),
            [0.0, 0.0, 0.0, 0.5]
        ));
    }

    #[test]
    fn coverage_scales_the_source() {
        // lerp(d, blend(s, d), c) == blend(c * s, d) for every mode (no clamping involved).
        let s = [0.3, 0.1, 0.2, 0.4];
        let d = [0.2, 0.25, 0.1, 0.5];
        for m in MODES {
            for c in [0.0, 0.25, 0.6, 1.0] {
                let full = blend(m, s, d);
                let lerp = [0, 1, 2, 3].map(|k| d[k] + (full[k] - d[k]) * c);
                let scaled = blend(m, s.map(|v| v * c), d);
                assert!(close(lerp, scaled), "{m:?} c={c}: {lerp:?} vs {scaled:?}");
            }
        }
    }

    #[test]
    fn tint_black_closed_form() {
        // Straight texel (0.8, 0.5, 0.0) at alpha 0.5; light (1, 0.5, 0.5, 0.5); dark (0.2, 0.4, 0.6).
        let t = [0.4, 0.25, 0.0, 0.5];
        let tint = Tint::new(
            Color::new(1.0, 0.5, 0.5, 0.5),
            Some(Color::new(0.2, 0.4, 0.6, 1.0)),
        );
        let got = tint.shade(t);
        // straight rgb = (1 - s) * dark + s * light; alpha = 0.5 * 0.5.
        let straight = [0.2 * 0.2 + 0.8, 0.5 * 0.4 + 0.5 * 0.5, 1.0 * 0.6 + 0.0];
        let want = [
            straight[0] * 0.25,
            straight[1] * 0.25,
            straight[2] * 0.25,
            0.25,
        ];
        assert!(close(got, want), "{got:?} vs {want:?}");
        // Without a dark colour it is plain multiplicative tinting.
        let plain = Tint::new(Color::new(1.0, 0.5, 0.5, 0.5), None).shade(t);
        assert!(close(plain, [0.2, 0.0625, 0.0, 0.25]));
        // A black dark colour equals no dark colour.
        let black = Tint::new(Color::new(1.0, 0.5, 0.5, 0.5), Some(Color::BLACK)).shade(t);
        assert!(close(black, plain));
    }

    #[test]
    fn dragonbones_colour_offsets_are_multiply_then_add_clamped() {
        // Straight texel (0.5, 0.2, 1.0) at alpha 0.5; multipliers (1, 0.5, 0.8), alpha 0.8;
        // offsets (0.2, 0.6, -0.5): light = multipliers + offsets, dark = offsets.
        let t = [0.25, 0.1, 0.5, 0.5];
        let (m, o) = ([1.0f32, 0.5, 0.8], [0.2f32, 0.6, -0.5]);
        let light = Color::new(m[0] + o[0], m[1] + o[1], m[2] + o[2], 0.8);
        let tint = Tint::new(light, Some(Color::new(o[0], o[1], o[2], 1.0)));
        let a = 0.5 * 0.8;
        // Straight: texel * multiplier + offset = (0.7, 0.7, 0.3), then premultiplied.
        let want = [0.7 * a, 0.7 * a, 0.3 * a, a];
        let got = tint.shade(t);
        assert!(close(got, want), "{got:?} vs {want:?}");
        // Past 1 or below 0 the straight colour clamps (premultiplied: to 0..alpha).
        let hot = Tint::new(
            Color::new(1.8, -0.9, 1.0, 1.0),
            Some(Color::new(0.8, -0.9, 0.0, 1.0)),
        );
        let got = hot.shade(t);
        assert!(close(got, [0.5, 0.0, 0.5, 0.5]), "{got:?}");
    }

    #[test]
    fn screen_tint_closed_form() {
        // Premultiplied texel: straight (0.8, 0.5, 0.0) at alpha 0.5; tint (1, 0.5, 0.5)
        // at opacity 0.5; screen (0.2, 0.4, 0.6).
        let t = [0.4, 0.25, 0.0, 0.5];
        let got = Tint::screened(
            Color::new(1.0, 0.5, 0.5, 0.5),
            Some(Color::new(0.2, 0.4, 0.6, 1.0)),
        )
        .shade(t);
        // screen(t.rgb, s · t.a) = 1 − (1 − t.rgb)(1 − s · 0.5), times tint times opacity.
        let sc = [
            1.0 - (1.0 - 0.4) * (1.0 - 0.1),
            1.0 - (1.0 - 0.25) * (1.0 - 0.2),
            1.0 - (1.0 - 0.0) * (1.0 - 0.3),
        ];
        let want = [sc[0] * 0.5, sc[1] * 0.25, sc[2] * 0.25, 0.25];
        assert!(close(got, want), "{got:?} vs {want:?}");
        // No screen tint: plain tinting; a transparent texel stays transparent.
        let plain = Tint::screened(Color::new(1.0, 0.5, 0.5, 0.5), None).shade(t);
        assert!(close(plain, [0.2, 0.0625, 0.0, 0.25]));
        let clear = Tint::screened(Color::WHITE, Some(Color::WHITE)).shade([0.0; 4]);
        assert!(close(clear, [0.0; 4]));
    }

    #[test]
    fn straight_output() {
        assert_eq!(to_straight_u8([0.25, 0.5, 0.0, 0.5]), [128, 255, 0, 128]);
        assert_eq!(to_straight_u8([0.0, 0.0, 0.0, 0.0]), [0, 0, 0, 0]);
        assert_eq!(
            premultiply(Color::new(1.0, 0.5, 0.0, 0.5)),
            [0.5, 0.25, 0.0, 0.5]
        );
    }
}
