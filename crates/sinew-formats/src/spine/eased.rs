//! Spine has no curve for DragonBones' `tweenEasing` ([`RawCurve::Eased`]): before a rig is
//! written as Spine, each eased key becomes linear pieces through the eased values.
//!
//! [`EASED_PIECES`] pieces per key keep every value within 2.5e-4 of the key's value change
//! of the exact easing (the quadratic families are off by at most `strength / (4 n²)`, the
//! cosine one by `strength π² / (16 n²)`; at most 1.51e-4 for strengths up to 1, which the
//! tests check). Strengths above 1 are the runtime's own and rare (`tweenEasing` > 2 or < -1).

use sinew::raw::{RawCurve, RawKey, RawKeyData, RawRig};
use std::borrow::Cow;

/// Linear pieces per eased key.
pub(crate) const EASED_PIECES: u32 = 64;

/// `rig`, with every eased key replaced by [`EASED_PIECES`] linear ones (borrowed when
/// nothing is eased).
pub(crate) fn without_eased(rig: &RawRig) -> Cow<'_, RawRig> {
    let eased = |k: &RawKey| matches!(k.curve, RawCurve::Eased { .. });
    if !rig
        .clips
        .iter()
        .any(|c| c.timelines.iter().any(|t| t.keys.iter().any(eased)))
    {
        return Cow::Borrowed(rig);
    }
    let mut rig = rig.clone();
    for t in rig.clips.iter_mut().flat_map(|c| c.timelines.iter_mut()) {
        if t.keys.iter().any(eased) {
            t.keys = linear_keys(&t.keys);
        }
    }
    Cow::Owned(rig)
}

/// The keys with each eased one (that has a next key) followed by the pieces' inner keys.
fn linear_keys(keys: &[RawKey]) -> Vec<RawKey> {
    let mut out = Vec::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        let (RawCurve::Eased { easing, hundredths }, Some(next)) = (&k.curve, keys.get(i + 1))
        else {
            out.push(k.clone());
            continue;
        };
        let strength = f64::from(*hundredths) * 0.01;
        out.push(RawKey {
            curve: RawCurve::Linear,
            ..k.clone()
        });
        for n in 1..EASED_PIECES {
            let x = f64::from(n) / f64::from(EASED_PIECES);
            let y = easing.progress(strength, x);
            let lerp = |a: f64, b: f64| a + (b - a) * y;
            out.push(RawKey {
                time: k.time + (next.time - k.time) * x,
                values: k
                    .values
                    .iter()
                    .zip(&next.values)
                    .map(|(&a, &b)| lerp(a, b))
                    .collect(),
                curve: RawCurve::Linear,
                data: between(&k.data, &next.data, y),
            });
        }
    }
    out
}

/// The payload of a key at eased fraction `y` from `a` to `b`: deform deltas interpolated
/// (each side placed at its offset), anything else held.
fn between(a: &RawKeyData, b: &RawKeyData, y: f64) -> RawKeyData {
    let (
        RawKeyData::Deform {
            offset: oa,
            vertices: va,
        },
        RawKeyData::Deform {
            offset: ob,
            vertices: vb,
        },
    ) = (a, b)
    else {
        return a.clone();
    };
    let dense = |o: u32, v: &[f32], len: usize| {
        let mut d = vec![0.0f64; len];
        for (slot, &x) in d.iter_mut().skip(o as usize).zip(v) {
            *slot = f64::from(x);
        }
        d
    };
    let len = (*oa as usize + va.len()).max(*ob as usize + vb.len());
    let (da, db) = (dense(*oa, va, len), dense(*ob, vb, len));
    RawKeyData::Deform {
        offset: 0,
        vertices: da
            .iter()
            .zip(&db)
            .map(|(&p, &q)| (p + (q - p) * y) as f32)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sinew::Easing;

    fn key(time: f64, v: f64, curve: RawCurve) -> RawKey {
        RawKey {
            time,
            values: vec![v],
            curve,
            data: RawKeyData::None,
        }
    }

    #[test]
    fn pieces_stay_within_the_stated_bound_of_the_exact_easing() {
        for (easing, hundredths) in [
            (Easing::QuadIn, 100),
            (Easing::QuadOut, 50),
            (Easing::QuadOut, 100),
            (Easing::QuadInOut, 100),
        ] {
            let keys = [
                key(0.0, 0.0, RawCurve::Eased { easing, hundredths }),
                key(2.0, 1.0, RawCurve::Stepped),
            ];
            let out = linear_keys(&keys);
            assert_eq!(out.len(), EASED_PIECES as usize + 1);
            assert!(
                out.iter()
                    .all(|k| !matches!(k.curve, RawCurve::Eased { .. }))
            );
            let s = f64::from(hundredths) * 0.01;
            let worst = (0..=2000)
                .map(|i| f64::from(i) / 1000.0)
                .map(|t| {
                    let j = out.iter().rposition(|k| k.time <= t).unwrap();
                    let v = match out.get(j + 1) {
                        Some(n) => {
                            let (a, b) = (&out[j], n);
                            a.values[0]
                                + (b.values[0] - a.values[0]) * (t - a.time) / (b.time - a.time)
                        }
                        None => out[j].values[0],
                    };
                    (v - easing.progress(s, t / 2.0)).abs()
                })
                .fold(0.0, f64::max);
            assert!(worst < 1.51e-4, "{easing:?} {hundredths}: {worst}");
        }
    }

    #[test]
    fn deform_pieces_interpolate_offset_deltas() {
        let a = RawKeyData::Deform {
            offset: 2,
            vertices: vec![1.0, 2.0],
        };
        let b = RawKeyData::Deform {
            offset: 0,
            vertices: vec![4.0],
        };
        let RawKeyData::Deform { offset, vertices } = between(&a, &b, 0.5) else {
            panic!("not a deform")
        };
        assert_eq!(offset, 0);
        assert_eq!(vertices, vec![2.0, 0.0, 0.5, 1.0]);
    }
}
