//! Live2D Cubism physics settings (`*.physics3.json`) into sinew's pendulum chains
//! ([`sinew::params::raw::RawChains`], run by `sinew::params::chain`).
//!
//! The file (inochi2d.md §"physics3.json"): `Meta{Fps?, EffectiveForces{Gravity, Wind}}` and
//! `PhysicsSettings[{Id, Input[], Output[], Vertices[], Normalization{Position, Angle}}]`.
//! An input reads a parameter (`Source.Id`) with a `Weight` (0–100) into the chain root's
//! `X`, `Y` or `Angle`; an output writes a parameter (`Destination.Id`) from particle
//! `VertexIndex` with a `Scale` and a `Weight`; vertices are the string's particles.
//! Parameters are named by their Cubism ids (`ParamAngleX`, …): attach the chains to a rig
//! whose parameters carry those names (`RawParams::chains`, then build). Names, indices and
//! values are checked when the chains are built (`sinew::params::chain::build_chains`),
//! which names the chain and the culprit.
//!
//! COMPAT(cubism): `Meta.EffectiveForces.Gravity` is taken as the chains' fixed down
//! direction (0, −1), the only value the Editor writes; another is an error rather than a
//! silent difference. `Meta` counts are not trusted (nor allocated): the arrays are read as
//! they are. Unknown keys are ignored (the Editor adds some). Verified by the unit tests below.

use crate::LoadError;
use crate::json::*;
use serde_json::Value;
use sinew::params::chain::ChainSource;
use sinew::params::raw::{
    RawChain, RawChainInput, RawChainOutput, RawChainParticle, RawChains, RawNormalization,
};
use std::path::Path;

/// Most settings, inputs, outputs or vertices one list may hold.
const MAX_ITEMS: usize = 4096;

/// Reads and parses a physics3 file.
pub fn load_physics3(path: &Path) -> Result<RawChains, LoadError> {
    let file = path.display().to_string();
    let text = crate::error::read_text(path, &file)?;
    parse_physics3(&text, &file)
}

/// Parses physics3 JSON text; `source` names the file in errors.
pub fn parse_physics3(text: &str, source: &str) -> Result<RawChains, LoadError> {
    parse_physics3_with(text, source, &crate::budget::Budgets::DEFAULT)
}

/// [`parse_physics3`] within `budgets`.
pub(crate) fn parse_physics3_with(
    text: &str,
    source: &str,
    budgets: &crate::budget::Budgets,
) -> Result<RawChains, LoadError> {
    let root: Value = crate::error::parse_json(text, source, budgets)?;
    read_root(&root).map_err(crate::json::in_file(source))
}

fn read_root(root: &Value) -> R<RawChains> {
    let at = Loc::root();
    let root = as_obj(root, &at)?;
    let mut out = RawChains::default();
    if let Some(meta) = obj_opt(root, "Meta", &at)? {
        let at = at.key("Meta");
        out.fps = f64_or(meta, "Fps", out.fps, &at)?;
        if let Some(forces) = obj_opt(meta, "EffectiveForces", &at)? {
            let at = at.key("EffectiveForces");
            if let Some(g) = member(forces, "Gravity") {
                let at = at.key("Gravity");
                let g = vec2(g, &at)?;
                if g != [0.0, -1.0] {
                    return at.err(format!(
                        "gravity {g:?} is not supported (chains hang along (0, -1))"
                    ));
                }
            }
            if let Some(w) = member(forces, "Wind") {
                out.wind = vec2(w, &at.key("Wind"))?;
            }
        }
    }
    let settings = list(root, "PhysicsSettings", &at)?;
    let sa = at.key("PhysicsSettings");
    for (i, s) in settings.iter().enumerate() {
        out.chains.push(setting(s, &sa.index(i))?);
    }
    Ok(out)
}

/// A required array member of at most [`MAX_ITEMS`] items.
fn list<'v>(o: &'v Obj, key: &str, at: &Loc) -> R<&'v [Value]> {
    let Some(a) = array_opt(o, key, at)? else {
        return at.missing(key);
    };
    check_len(a.len(), MAX_ITEMS, "items", &at.key(key))?;
    Ok(a)
}

/// A required number member.
fn field(o: &Obj, key: &str, at: &Loc) -> R<f64> {
    match member(o, key) {
        None => at.missing(key),
        Some(v) => as_f64(v, &at.key(key)),
    }
}

/// A required object member.
fn object<'v>(o: &'v Obj, key: &str, at: &Loc) -> R<&'v Obj> {
    match obj_opt(o, key, at)? {
        None => at.missing(key),
        Some(m) => Ok(m),
    }
}

/// `{X, Y}`.
fn vec2(v: &Value, at: &Loc) -> R<[f64; 2]> {
    let o = as_obj(v, at)?;
    Ok([field(o, "X", at)?, field(o, "Y", at)?])
}

fn setting(v: &Value, at: &Loc) -> R<RawChain> {
    let o = as_obj(v, at)?;
    let id = str_opt(o, "Id", at)?;
    let at = match id {
        Some(id) => at.named(id),
        None => *at,
    };
    let norm = || RawNormalization {
        minimum: 0.0,
        default: 0.0,
        maximum: 0.0,
    };
    let mut chain = RawChain {
        name: id.map_or_else(|| at.path(), str::to_owned),
        inputs: Vec::new(),
        outputs: Vec::new(),
        particles: Vec::new(),
        position: norm(),
        angle: norm(),
    };
    let la = at.key("Input");
    for (k, v) in list(o, "Input", &at)?.iter().enumerate() {
        let at = la.index(k);
        let i = as_obj(v, &at)?;
        chain.inputs.push(RawChainInput {
            param: parameter(i, "Source", &at)?,
            component: 0,
            weight: field(i, "Weight", &at)?,
            kind: kind(i, &at)?,
            reflect: bool_or(i, "Reflect", false, &at)?,
        });
    }
    let la = at.key("Output");
    for (k, v) in list(o, "Output", &at)?.iter().enumerate() {
        let at = la.index(k);
        let out = as_obj(v, &at)?;
        let vertex = field(out, "VertexIndex", &at)?;
        if !(vertex >= 0.0 && vertex <= MAX_ITEMS as f64 && vertex.fract() == 0.0) {
            return at.key("VertexIndex").err(JsonIssue::range(
                format!("a vertex index in 0..={MAX_ITEMS}"),
                vertex,
            ));
        }
        chain.outputs.push(RawChainOutput {
            param: parameter(out, "Destination", &at)?,
            component: 0,
            vertex: vertex as u32,
            kind: kind(out, &at)?,
            scale: field(out, "Scale", &at)?,
            weight: field(out, "Weight", &at)?,
            reflect: bool_or(out, "Reflect", false, &at)?,
        });
    }
    let la = at.key("Vertices");
    for (k, v) in list(o, "Vertices", &at)?.iter().enumerate() {
        let at = la.index(k);
        let vx = as_obj(v, &at)?;
        let pos = match member(vx, "Position") {
            None => return at.missing("Position"),
            Some(p) => vec2(p, &at.key("Position"))?,
        };
        chain.particles.push(RawChainParticle {
            position: pos,
            mobility: field(vx, "Mobility", &at)?,
            delay: field(vx, "Delay", &at)?,
            acceleration: field(vx, "Acceleration", &at)?,
            radius: field(vx, "Radius", &at)?,
        });
    }
    let norm = object(o, "Normalization", &at)?;
    let na = at.key("Normalization");
    chain.position = range(norm, "Position", &na)?;
    chain.angle = range(norm, "Angle", &na)?;
    Ok(chain)
}

/// The parameter id of `{Target: "Parameter", Id}` under `key`.
fn parameter(o: &Obj, key: &str, at: &Loc) -> R<String> {
    let t = object(o, key, at)?;
    let at = at.key(key);
    match str_opt(t, "Target", &at)? {
        Some("Parameter") | None => {}
        Some(other) => {
            return at.key("Target").err(format!(
                "target `{other}` is not supported (only `Parameter`)"
            ));
        }
    }
    str_req(t, "Id", &at).map(str::to_owned)
}

/// `Type`: `X`, `Y` or `Angle`.
fn kind(o: &Obj, at: &Loc) -> R<ChainSource> {
    match str_req(o, "Type", at)? {
        "X" => Ok(ChainSource::X),
        "Y" => Ok(ChainSource::Y),
        "Angle" => Ok(ChainSource::Angle),
        other => at
            .key("Type")
            .err(format!("unknown type `{other}` (X, Y or Angle)")),
    }
}

/// `{Minimum, Default, Maximum}` under `key`.
fn range(o: &Obj, key: &str, at: &Loc) -> R<RawNormalization> {
    let r = object(o, key, at)?;
    let at = at.key(key);
    Ok(RawNormalization {
        minimum: field(r, "Minimum", &at)?,
        default: field(r, "Default", &at)?,
        maximum: field(r, "Maximum", &at)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HAIR: &str = r#"{
      "Version": 3,
      "Meta": {
        "PhysicsSettingCount": 1, "TotalInputCount": 2, "TotalOutputCount": 1,
        "VertexCount": 2, "Fps": 30,
        "EffectiveForces": { "Gravity": { "X": 0, "Y": -1 }, "Wind": { "X": 0.5, "Y": 0 } },
        "PhysicsDictionary": [{ "Id": "PhysicsSetting1", "Name": "Hair" }]
      },
      "PhysicsSettings": [{
        "Id": "PhysicsSetting1",
        "Input": [
          { "Source": { "Target": "Parameter", "Id": "ParamAngleX" },
            "Weight": 60, "Type": "X", "Reflect": false },
          { "Source": { "Target": "Parameter", "Id": "ParamAngleZ" },
            "Weight": 40, "Type": "Angle", "Reflect": true }
        ],
        "Output": [
          { "Destination": { "Target": "Parameter", "Id": "ParamHairFront" },
            "VertexIndex": 1, "Scale": 1.522, "Weight": 100, "Type": "Angle",
            "Reflect": false }
        ],
        "Vertices": [
          { "Position": { "X": 0, "Y": 0 }, "Mobility": 1, "Delay": 1,
            "Acceleration": 1, "Radius": 0 },
          { "Position": { "X": 0, "Y": 3 }, "Mobility": 0.95, "Delay": 0.9,
            "Acceleration": 1.5, "Radius": 3 }
        ],
        "Normalization": {
          "Position": { "Minimum": -10, "Default": 0, "Maximum": 10 },
          "Angle": { "Minimum": -10, "Default": 0, "Maximum": 10 }
        }
      }]
    }"#;

    #[test]
    fn a_hair_setting_reads_into_one_chain() {
        let c = parse_physics3(HAIR, "hair.physics3.json").expect("parses");
        assert_eq!((c.fps, c.wind), (30.0, [0.5, 0.0]));
        assert_eq!(c.chains.len(), 1);
        let h = &c.chains[0];
        assert_eq!(h.name, "PhysicsSetting1");
        assert_eq!(
            h.inputs[1],
            RawChainInput {
                param: "ParamAngleZ".into(),
                component: 0,
                weight: 40.0,
                kind: ChainSource::Angle,
                reflect: true,
            }
        );
        assert_eq!(
            h.outputs[0],
            RawChainOutput {
                param: "ParamHairFront".into(),
                component: 0,
                vertex: 1,
                kind: ChainSource::Angle,
                scale: 1.522,
                weight: 100.0,
                reflect: false,
            }
        );
        assert_eq!(h.particles.len(), 2);
        assert_eq!(h.particles[1].position, [0.0, 3.0]);
        assert_eq!(
            (h.particles[1].mobility, h.particles[1].radius),
            (0.95, 3.0)
        );
        assert_eq!(
            (h.position.minimum, h.angle.maximum, h.angle.default),
            (-10.0, 10.0, 0.0)
        );
    }

    #[test]
    fn bad_files_name_the_place_and_the_setting() {
        let cases: [(&str, &str, &[&str]); 6] = [
            (
                "\"Type\": \"X\"",
                "\"Type\": \"Spin\"",
                &["Input[0].Type", "Spin"],
            ),
            (
                "\"VertexIndex\": 1",
                "\"VertexIndex\": 1.5",
                &["Output[0].VertexIndex", "PhysicsSetting1"],
            ),
            (
                "\"Radius\": 3",
                "\"Radius\": \"3\"",
                &["Vertices[1].Radius"],
            ),
            ("\"Y\": -1", "\"Y\": 1", &["Gravity", "not supported"]),
            (
                "\"Target\": \"Parameter\", \"Id\": \"ParamHairFront\"",
                "\"Target\": \"PartOpacity\", \"Id\": \"ParamHairFront\"",
                &["Destination.Target", "PartOpacity"],
            ),
            (
                "\"Mobility\": 1,",
                "",
                &["Vertices[0] (`PhysicsSetting1`): missing `Mobility`"],
            ),
        ];
        for (from, to, wants) in cases {
            assert!(HAIR.contains(from), "{from}");
            let text = HAIR.replacen(from, to, 1);
            let e = parse_physics3(&text, "hair.physics3.json")
                .expect_err(to)
                .to_string();
            assert!(e.starts_with("hair.physics3.json: "), "{e}");
            for w in wants {
                assert!(e.contains(w), "{e} should mention {w}");
            }
        }
        let e = parse_physics3("{ \"PhysicsSettings\": 3 }", "p.json").expect_err("not a list");
        assert!(e.to_string().contains("$.PhysicsSettings"), "{e}");
        let e = parse_physics3("[1, 2", "p.json").expect_err("syntax");
        assert!(matches!(e, LoadError::Syntax { .. }), "{e}");
    }

    #[test]
    fn loaded_chains_run_on_a_rig_with_those_parameters() {
        use sinew::params::raw::{RawParam, RawParams};
        use sinew::raw::{RawBone, RawRig};
        let chains = parse_physics3(HAIR, "hair.physics3.json").expect("parses");
        let param = |name: &str, lo: f64, hi: f64| RawParam {
            name: name.into(),
            is_2d: false,
            min: [lo, lo],
            max: [hi, hi],
            default: [0.0, 0.0],
            axis_points: [vec![0.0, 1.0], vec![0.0]],
        };
        let raw = RawRig {
            bones: vec![RawBone::new("root", None)],
            ..Default::default()
        };
        let params = RawParams {
            params: vec![
                param("ParamAngleX", -30.0, 30.0),
                param("ParamAngleZ", -30.0, 30.0),
                param("ParamHairFront", -1.0, 1.0),
            ],
            chains,
            ..Default::default()
        };
        let inputs = sinew::build::BuildInputs {
            params: Some(&params),
            ..Default::default()
        };
        let rig = sinew::build::build_rig_with(&raw, &inputs)
            .expect("the chains build against the parameters");
        let mut inst = sinew::Instance::new(&rig);
        let (x, hair) = (
            rig.params.find("ParamAngleX").expect("x"),
            rig.params.find("ParamHairFront").expect("hair"),
        );
        // Turning the head swings the hair; it stays in range.
        inst.params.set(&rig, x, [30.0, 0.0]);
        let mut peak: f64 = 0.0;
        for _ in 0..60 {
            sinew::character::update_params(&rig, &mut inst, 1.0 / 60.0, true);
            let v = inst.params.values[hair.index()][0];
            assert!(v.is_finite() && v.abs() <= 1.0, "{v}");
            peak = peak.max(v.abs());
        }
        assert!(peak > 0.01, "the hair moved: {peak}");
    }

    /// A rig with the given parameters (no chains), for `check_chains`.
    fn rig_with_params(names: &[&str]) -> sinew::Rig {
        use sinew::params::raw::{RawParam, RawParams};
        use sinew::raw::{RawBone, RawRig};
        let raw = RawRig {
            bones: vec![RawBone::new("root", None)],
            ..Default::default()
        };
        let params = RawParams {
            params: names
                .iter()
                .map(|n| RawParam {
                    name: (*n).into(),
                    is_2d: false,
                    min: [-30.0, -30.0],
                    max: [30.0, 30.0],
                    default: [0.0, 0.0],
                    axis_points: [vec![0.0, 1.0], vec![0.0]],
                })
                .collect(),
            ..Default::default()
        };
        let inputs = sinew::build::BuildInputs {
            params: Some(&params),
            ..Default::default()
        };
        sinew::build::build_rig_with(&raw, &inputs).expect("builds")
    }

    #[test]
    fn chain_problems_reach_the_loader_typed_with_their_element_path() {
        use crate::JsonIssue;
        use sinew::build::{Element, ProblemKind};
        let all = rig_with_params(&["ParamAngleX", "ParamAngleZ", "ParamHairFront"]);
        let chains = parse_physics3(HAIR, "hair.physics3.json").expect("parses");
        crate::asset::check_chains(&chains, &all, "hair.physics3.json").expect("resolves");
        // (edit, rig, path, element)
        let cases = [
            (
                ("", ""),
                rig_with_params(&["ParamAngleX", "ParamHairFront"]),
                "$.PhysicsSettings[0].Input[1]",
                Element::ChainInput(1),
            ),
            (
                ("\"VertexIndex\": 1", "\"VertexIndex\": 2"),
                all.clone(),
                "$.PhysicsSettings[0].Output[0]",
                Element::ChainOutput(0),
            ),
            (
                ("\"Radius\": 3", "\"Radius\": -3"),
                all.clone(),
                "$.PhysicsSettings[0].Vertices[1]",
                Element::ChainParticle(1),
            ),
        ];
        for ((from, to), rig, want_path, want_element) in cases {
            let text = HAIR.replacen(from, to, 1);
            let chains = parse_physics3(&text, "hair.physics3.json").expect("parses");
            let e = crate::asset::check_chains(&chains, &rig, "hair.physics3.json")
                .expect_err(want_path);
            let LoadError::Invalid {
                file,
                path,
                name,
                issue: JsonIssue::Rig(problem),
            } = &e
            else {
                panic!("not a typed rig problem: {e:?}");
            };
            assert_eq!(file, "hair.physics3.json");
            assert_eq!(path, want_path, "{e}");
            assert_eq!(name.as_deref(), Some("PhysicsSetting1"));
            assert_eq!(problem.element, Some(want_element), "{e}");
            assert!(e.to_string().contains(&problem.to_string()), "{e}");
            if let Element::ChainInput(_) = want_element {
                assert_eq!(problem.kind, ProblemKind::UnknownName);
                assert_eq!(problem.name.as_deref(), Some("ParamAngleZ"));
            } else {
                assert_eq!(problem.kind, ProblemKind::Value);
            }
        }
    }
}
