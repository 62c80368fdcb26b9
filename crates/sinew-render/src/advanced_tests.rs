//! Every advanced blend mode on hand-worked colour pairs.
//!
//! The main pair: source straight (0.6, 0.2, 0.9) at alpha 0.5, premultiplied
//! `s = (0.3, 0.1, 0.45, 0.5)`; destination straight (0.4, 0.8, 0.1) at alpha 0.8,
//! premultiplied `d = (0.32, 0.64, 0.08, 0.8)`. For the separable modes
//! `co = cs * 0.2 + cb * 0.5 + 0.4 * B(Cb, Cs)`, whose first two terms are
//! (0.22, 0.34, 0.13), and `ao = 0.5 + 0.8 * 0.5 = 0.9`.

use super::*;

const S: Rgba = [0.3, 0.1, 0.45, 0.5];
const D: Rgba = [0.32, 0.64, 0.08, 0.8];

fn close(a: Rgba, b: Rgba) -> bool {
    a.iter().zip(b.iter()).all(|(x, y)| (x - y).abs() < 1e-5)
}

#[track_caller]
fn check(mode: BlendMode, s: Rgba, d: Rgba, want: Rgba) {
    let got = blend(mode, s, d);
    assert!(close(got, want), "{mode:?}: got {got:?}, want {want:?}");
}

/// `co` for the main pair from `B` per channel.
fn sep(b: [f32; 3]) -> Rgba {
    [0.22 + 0.4 * b[0], 0.34 + 0.4 * b[1], 0.13 + 0.4 * b[2], 0.9]
}

const ALL: [BlendMode; 16] = [
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

#[test]
fn separable_modes_on_the_main_pair() {
    // Cb = (0.4, 0.8, 0.1), Cs = (0.6, 0.2, 0.9).
    check(BlendMode::Darken, S, D, sep([0.4, 0.2, 0.1]));
    check(BlendMode::Lighten, S, D, sep([0.6, 0.8, 0.9]));
    check(BlendMode::Difference, S, D, sep([0.2, 0.6, 0.8]));
    // Cb + Cs - 2 Cb Cs: 1 - 0.48, 1 - 0.32, 1 - 0.18.
    check(BlendMode::Exclusion, S, D, sep([0.52, 0.68, 0.82]));
    check(BlendMode::Subtract, S, D, sep([0.0, 0.6, 0.0]));
    check(BlendMode::LinearDodge, S, D, sep([1.0, 1.0, 1.0]));
    // Overlay = HardLight(Cs, Cb): Cb = 0.4 -> 0.6 * 0.8; Cb = 0.8 -> screen(0.2, 0.6) =
    // 0.2 + 0.6 - 0.12; Cb = 0.1 -> 0.9 * 0.2.
    check(BlendMode::Overlay, S, D, sep([0.48, 0.68, 0.18]));
    // HardLight: Cs = 0.6 -> screen(0.4, 0.2) = 0.52; Cs = 0.2 -> 0.8 * 0.4; Cs = 0.9 ->
    // screen(0.1, 0.8) = 0.82.
    check(BlendMode::HardLight, S, D, sep([0.52, 0.32, 0.82]));
    // SoftLight: Cs = 0.6 -> 0.4 + 0.2 (sqrt 0.4 - 0.4); Cs = 0.2 -> 0.8 - 0.6 * 0.8 * 0.2;
    // Cs = 0.9, Cb = 0.1 -> D = ((1.6 - 12) 0.1 + 4) 0.1 = 0.296, 0.1 + 0.8 (0.296 - 0.1).
    let sqrt04 = 0.4f32.sqrt();
    check(
        BlendMode::SoftLight,
        S,
        D,
        sep([0.4 + 0.2 * (sqrt04 - 0.4), 0.704, 0.2568]),
    );
    // ColorDodge: Cb / (1 - Cs) = 0.4 / 0.4, 0.8 / 0.8, 0.1 / 0.1, all 1.
    check(BlendMode::ColorDodge, S, D, sep([1.0, 1.0, 1.0]));
    // ColorBurn: 1 - (1 - Cb) / Cs = 1 - 0.6 / 0.6, 1 - 0.2 / 0.2, 1 - 0.9 / 0.9, all 0.
    check(BlendMode::ColorBurn, S, D, sep([0.0, 0.0, 0.0]));
}

#[test]
fn dodge_and_burn_on_opaque_pairs_are_b() {
    // Both opaque: co = B(Cb, Cs) exactly.
    let o = |c: [f32; 3]| [c[0], c[1], c[2], 1.0];
    // Cb / (1 - Cs): 0.2 / 0.5, 0.5 / 0.75; Cb = 0 -> 0.
    check(
        BlendMode::ColorDodge,
        o([0.5, 0.25, 1.0]),
        o([0.2, 0.5, 0.0]),
        o([0.4, 2.0 / 3.0, 0.0]),
    );
    // 1 - (1 - Cb) / Cs: 1 - 0.2 / 0.5, 1 - 0.4 / 0.8; Cb = 1 -> 1.
    check(
        BlendMode::ColorBurn,
        o([0.5, 0.8, 0.3]),
        o([0.8, 0.6, 1.0]),
        o([0.6, 0.5, 1.0]),
    );
    // Cs = 1 dodges to 1; Cs = 0 burns to 0 (Cb strictly inside 0..1).
    check(BlendMode::ColorDodge, o([1.0; 3]), o([0.3; 3]), o([1.0; 3]));
    check(BlendMode::ColorBurn, o([0.0; 3]), o([0.3; 3]), o([0.0; 3]));
    // Subtract clamps at 0; LinearDodge at 1.
    check(
        BlendMode::Subtract,
        o([0.5, 0.1, 0.0]),
        o([0.2, 0.6, 0.3]),
        o([0.0, 0.5, 0.3]),
    );
    check(
        BlendMode::LinearDodge,
        o([0.5, 0.1, 0.9]),
        o([0.2, 0.6, 0.3]),
        o([0.7, 0.7, 1.0]),
    );
}

#[test]
fn factor_modes_on_the_main_pair() {
    check(BlendMode::AddGlow, S, D, [0.62, 0.74, 0.53, 0.9]);
    // cs (1 - cb) + cb (1 - as): 0.3 * 0.68 + 0.16, 0.1 * 0.36 + 0.32, 0.45 * 0.92 + 0.04.
    check(BlendMode::Inverse, S, D, [0.364, 0.356, 0.454, 0.9]);
    check(BlendMode::DestinationIn, S, D, [0.16, 0.32, 0.04, 0.4]);
    // s * ab + d * (1 - as) = 0.8 s + 0.5 d.
    check(BlendMode::ClipToLower, S, D, [0.40, 0.40, 0.40, 0.80]);
    check(BlendMode::SliceFromLower, S, D, [0.16, 0.32, 0.04, 0.4]);
    // An opaque source: DestinationIn keeps the destination, SliceFromLower erases it.
    let opaque = [0.2, 0.2, 0.2, 1.0];
    check(BlendMode::DestinationIn, opaque, D, D);
    check(BlendMode::SliceFromLower, opaque, D, [0.0; 4]);
    // ClipToLower over nothing draws nothing.
    check(BlendMode::ClipToLower, S, [0.0; 4], [0.0; 4]);
}

#[test]
fn transparent_source_keeps_the_destination_except_destination_in() {
    for m in ALL {
        let want = if m == BlendMode::DestinationIn {
            [0.0; 4]
        } else {
            D
        };
        check(m, [0.0; 4], D, want);
    }
}

#[test]
fn coverage_identity() {
    // blend_coverage(s, c) = lerp(d, blend(s, d), c) for every mode (and for the linear ones
    // equals blend(c * s, d)). No clamping is involved for the main pair.
    for m in ALL {
        let full = blend(m, S, D);
        for c in [0.0, 0.3, 0.75, 1.0] {
            let lerp = [0, 1, 2, 3].map(|k| D[k] + (full[k] - D[k]) * c);
            let got = blend_coverage(m, S, c, D);
            assert!(close(got, lerp), "{m:?} c={c}: {got:?} vs {lerp:?}");
            if coverage_linear(m) {
                assert!(close(blend(m, S.map(|v| v * c), D), lerp), "{m:?} c={c}");
            }
        }
    }
    // DestinationIn at half coverage: d (1 - 0.5 (1 - as)) = 0.75 d, not 0.25 d.
    let half = blend_coverage(BlendMode::DestinationIn, S, 0.5, D);
    assert!(close(half, D.map(|v| v * 0.75)), "{half:?}");
}

#[test]
fn core_modes_are_unchanged_and_not_separable() {
    for m in [
        BlendMode::Normal,
        BlendMode::Additive,
        BlendMode::Multiply,
        BlendMode::Screen,
    ] {
        assert_eq!(blend_advanced(m, S, D), blend(m, S, D));
        assert_eq!(separable(m, 0.5, 0.5), None);
    }
}
