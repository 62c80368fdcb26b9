//! `cage-point-outside` (warning): points bound to a cage that lie outside it.
//!
//! The seed's reason: cage coordinates (mean value, harmonic) interpolate inside the cage;
//! outside it mean value weights extrapolate (a point far out swings wildly when the cage
//! moves) and harmonic weights are not defined at all (they are clamped to the border), so
//! a vertex left outside by a cage drawn too tight moves wrongly. Inside is the even-odd
//! rule over all loops (holes are loops inside the outer one); a point within 1e-6 units of
//! an edge counts as inside.
//!
//! Cages are given by the host (`Character::add_cage`) or as the JSON `sinew cage bind`
//! reads (`{"vertices": [[x, y], ...], "loops": [[[x, y], ...], ...]}` or `"control"`: loops
//! of vertex indices); [`check_cage`] checks either, and `sinew lint CAGE.json` runs it on a
//! cage file.

use crate::{Finding, Severity, Where};
use serde_json::Value;

fn on_segment(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> bool {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (qx, qy) = (a[0] + t * dx, a[1] + t * dy);
    (p[0] - qx).hypot(p[1] - qy) <= 1e-6
}

/// Whether `p` is inside the loops (even-odd), edges included.
pub fn inside(loops: &[Vec<[f64; 2]>], p: [f64; 2]) -> bool {
    let mut odd = false;
    for l in loops {
        let n = l.len();
        for i in 0..n {
            let (a, b) = (l[i], l[(i + 1) % n]);
            if on_segment(p, a, b) {
                return true;
            }
            if (a[1] > p[1]) != (b[1] > p[1]) {
                let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
                if p[0] < x {
                    odd = !odd;
                }
            }
        }
    }
    odd
}

/// One finding for the points of `name` outside its cage (none when all are inside).
pub fn check_cage(name: &str, loops: &[Vec<[f64; 2]>], points: &[[f64; 2]]) -> Vec<Finding> {
    let outside: Vec<usize> = (0..points.len())
        .filter(|&i| !inside(loops, points[i]))
        .collect();
    let Some(&first) = outside.first() else {
        return Vec::new();
    };
    let list: Vec<String> = outside.iter().take(8).map(usize::to_string).collect();
    let more = if outside.len() > 8 { ", ..." } else { "" };
    vec![Finding {
        code: "cage-point-outside",
        severity: Severity::Warning,
        message: format!(
            "{} of {} points bound to cage `{name}` lie outside it (points {}{more}; point \
             {first} at ({:.2}, {:.2})): cage weights extrapolate there, so those vertices swing \
             or stick when the cage moves",
            outside.len(),
            points.len(),
            list.join(", "),
            points[first][0],
            points[first][1]
        ),
        at: Where {
            constraint: Some(name.to_owned()),
            vertex: Some(first),
            path: Some(format!("$.vertices[{first}]")),
            ..Default::default()
        },
        fix: "grow the cage so it encloses every bound vertex (a margin of a few units), or \
              leave the outside vertices unbound"
            .to_owned(),
        edit: None,
    }]
}

fn pair(v: &Value) -> Option<[f64; 2]> {
    let a = v.as_array()?;
    Some([a.first()?.as_f64()?, a.get(1)?.as_f64()?])
}

/// Whether a JSON document is a cage file (`vertices` or `points`, with `loops` or `control`).
pub fn is_cage_json(v: &Value) -> bool {
    (v.get("vertices").is_some() || v.get("points").is_some())
        && (v.get("loops").is_some() || v.get("control").is_some())
        && v.get("bones").is_none()
}

/// Checks a cage file (the form `sinew cage bind` and `sinew cage weights` read).
pub fn check_cage_json(name: &str, v: &Value) -> Result<Vec<Finding>, String> {
    let pts: Vec<[f64; 2]> = v
        .get("vertices")
        .or_else(|| v.get("points"))
        .and_then(Value::as_array)
        .ok_or("`vertices` must be a list of [x, y]")?
        .iter()
        .map(pair)
        .collect::<Option<_>>()
        .ok_or("`vertices` must be a list of [x, y]")?;
    let loops: Vec<Vec<[f64; 2]>> = if let Some(l) = v.get("loops") {
        l.as_array()
            .ok_or("`loops` must be a list of loops")?
            .iter()
            .map(|l| l.as_array()?.iter().map(pair).collect::<Option<Vec<_>>>())
            .collect::<Option<_>>()
            .ok_or("`loops` must hold loops of [x, y]")?
    } else {
        v.get("control")
            .and_then(Value::as_array)
            .ok_or("`control` must be a list of loops")?
            .iter()
            .map(|l| {
                l.as_array()?
                    .iter()
                    .map(|i| pts.get(usize::try_from(i.as_u64()?).ok()?).copied())
                    .collect::<Option<Vec<_>>>()
            })
            .collect::<Option<_>>()
            .ok_or("`control` must hold loops of vertex indices")?
    };
    Ok(check_cage(name, &loops, &pts))
}
