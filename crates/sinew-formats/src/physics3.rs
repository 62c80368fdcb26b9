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
use serde_json::{Map, Value};
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
    let r = Reader { file: source };
    let root = r.object(&root, "$", None)?;
    let mut out = RawChains::default();
    if let Some(meta) = root.get("Meta") {
        let meta = r.object(meta, "$.Meta", None)?;
        if let Some(fps) = meta.get("Fps") {
            out.fps = r.number(fps, "$.Meta.Fps", None)?;
        }
        if let Some(forces) = meta.get("EffectiveForces") {
            let forces = r.object(forces, "$.Meta.EffectiveForces", None)?;
            if let Some(g) = forces.get("Gravity") {
                let g = r.vec2(g, "$.Meta.EffectiveForces.Gravity", None)?;
                if g != [0.0, -1.0] {
                    return Err(r.invalid(
                        "$.Meta.EffectiveForces.Gravity",
                        None,
                        format!("gravity {g:?} is not supported (chains hang along (0, -1))"),
                    ));
                }
            }
            if let Some(w) = forces.get("Wind") {
                out.wind = r.vec2(w, "$.Meta.EffectiveForces.Wind", None)?;
            }
        }
    }
    let settings = r.list(root.get("PhysicsSettings"), "$.PhysicsSettings", None)?;
    for (i, s) in settings.iter().enumerate() {
        out.chains
            .push(r.setting(s, &format!("$.PhysicsSettings[{i}]"))?);
    }
    Ok(out)
}

/// Reads values, building errors that name the file.
struct Reader<'a> {
    file: &'a str,
}

impl Reader<'_> {
    fn invalid(&self, path: &str, name: Option<&str>, message: impl Into<String>) -> LoadError {
        LoadError::Invalid {
            file: self.file.to_owned(),
            path: path.to_owned(),
            name: name.map(str::to_owned),
            message: message.into(),
        }
    }

    fn object<'v>(
        &self,
        v: &'v Value,
        path: &str,
        name: Option<&str>,
    ) -> Result<&'v Map<String, Value>, LoadError> {
        v.as_object()
            .ok_or_else(|| self.invalid(path, name, "expected an object"))
    }

    /// A required array of at most [`MAX_ITEMS`] items.
    fn list<'v>(
        &self,
        v: Option<&'v Value>,
        path: &str,
        name: Option<&str>,
    ) -> Result<&'v [Value], LoadError> {
        let a = v
            .ok_or_else(|| self.invalid(path, name, "missing"))?
            .as_array()
            .ok_or_else(|| self.invalid(path, name, "expected an array"))?;
        if a.len() > MAX_ITEMS {
            return Err(self.invalid(
                path,
                name,
                format!("{} items, more than the {MAX_ITEMS} allowed", a.len()),
            ));
        }
        Ok(a)
    }

    fn number(&self, v: &Value, path: &str, name: Option<&str>) -> Result<f64, LoadError> {
        v.as_f64()
            .filter(|x| x.is_finite())
            .ok_or_else(|| self.invalid(path, name, "expected a finite number"))
    }

    /// A required number field.
    fn field(
        &self,
        o: &Map<String, Value>,
        key: &str,
        path: &str,
        name: Option<&str>,
    ) -> Result<f64, LoadError> {
        let p = format!("{path}.{key}");
        let v = o
            .get(key)
            .ok_or_else(|| self.invalid(&p, name, "missing"))?;
        self.number(v, &p, name)
    }

    /// `{X, Y}`.
    fn vec2(&self, v: &Value, path: &str, name: Option<&str>) -> Result<[f64; 2], LoadError> {
        let o = self.object(v, path, name)?;
        Ok([
            self.field(o, "X", path, name)?,
            self.field(o, "Y", path, name)?,
        ])
    }

    fn setting(&self, v: &Value, path: &str) -> Result<RawChain, LoadError> {
        let o = self.object(v, path, None)?;
        let id = match o.get("Id") {
            Some(Value::String(s)) => s.clone(),
            Some(_) => return Err(self.invalid(&format!("{path}.Id"), None, "expected a string")),
            None => path.to_owned(),
        };
        let name = Some(id.as_str());
        let mut chain = RawChain {
            name: id.clone(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            particles: Vec::new(),
            position: RawNormalization {
                minimum: 0.0,
                default: 0.0,
                maximum: 0.0,
            },
            angle: RawNormalization {
                minimum: 0.0,
                default: 0.0,
                maximum: 0.0,
            },
        };
        let p = format!("{path}.Input");
        for (k, v) in self.list(o.get("Input"), &p, name)?.iter().enumerate() {
            let at = format!("{p}[{k}]");
            let i = self.object(v, &at, name)?;
            chain.inputs.push(RawChainInput {
                param: self.parameter(i, "Source", &at, name)?,
                component: 0,
                weight: self.field(i, "Weight", &at, name)?,
                kind: self.kind(i, &at, name)?,
                reflect: self.flag(i, "Reflect", &at, name)?,
            });
        }
        let p = format!("{path}.Output");
        for (k, v) in self.list(o.get("Output"), &p, name)?.iter().enumerate() {
            let at = format!("{p}[{k}]");
            let out = self.object(v, &at, name)?;
            let vertex = self.field(out, "VertexIndex", &at, name)?;
            if !(vertex >= 0.0 && vertex <= MAX_ITEMS as f64 && vertex.fract() == 0.0) {
                return Err(self.invalid(
                    &format!("{at}.VertexIndex"),
                    name,
                    format!("{vertex} is not a vertex index"),
                ));
            }
            chain.outputs.push(RawChainOutput {
                param: self.parameter(out, "Destination", &at, name)?,
                component: 0,
                vertex: vertex as u32,
                kind: self.kind(out, &at, name)?,
                scale: self.field(out, "Scale", &at, name)?,
                weight: self.field(out, "Weight", &at, name)?,
                reflect: self.flag(out, "Reflect", &at, name)?,
            });
        }
        let p = format!("{path}.Vertices");
        for (k, v) in self.list(o.get("Vertices"), &p, name)?.iter().enumerate() {
            let at = format!("{p}[{k}]");
            let vx = self.object(v, &at, name)?;
            let pos = vx
                .get("Position")
                .ok_or_else(|| self.invalid(&format!("{at}.Position"), name, "missing"))?;
            chain.particles.push(RawChainParticle {
                position: self.vec2(pos, &format!("{at}.Position"), name)?,
                mobility: self.field(vx, "Mobility", &at, name)?,
                delay: self.field(vx, "Delay", &at, name)?,
                acceleration: self.field(vx, "Acceleration", &at, name)?,
                radius: self.field(vx, "Radius", &at, name)?,
            });
        }
        let p = format!("{path}.Normalization");
        let norm = o
            .get("Normalization")
            .ok_or_else(|| self.invalid(&p, name, "missing"))?;
        let norm = self.object(norm, &p, name)?;
        chain.position = self.range(norm, "Position", &p, name)?;
        chain.angle = self.range(norm, "Angle", &p, name)?;
        Ok(chain)
    }

    /// The parameter id of `{Target: "Parameter", Id}` under `key`.
    fn parameter(
        &self,
        o: &Map<String, Value>,
        key: &str,
        path: &str,
        name: Option<&str>,
    ) -> Result<String, LoadError> {
        let p = format!("{path}.{key}");
        let v = o
            .get(key)
            .ok_or_else(|| self.invalid(&p, name, "missing"))?;
        let t = self.object(v, &p, name)?;
        match t.get("Target").and_then(Value::as_str) {
            Some("Parameter") | None => {}
            Some(other) => {
                return Err(self.invalid(
                    &format!("{p}.Target"),
                    name,
                    format!("target `{other}` is not supported (only `Parameter`)"),
                ));
            }
        }
        t.get("Id")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| self.invalid(&format!("{p}.Id"), name, "expected a string"))
    }

    /// `Type`: `X`, `Y` or `Angle`.
    fn kind(
        &self,
        o: &Map<String, Value>,
        path: &str,
        name: Option<&str>,
    ) -> Result<ChainSource, LoadError> {
        match o.get("Type").and_then(Value::as_str) {
            Some("X") => Ok(ChainSource::X),
            Some("Y") => Ok(ChainSource::Y),
            Some("Angle") => Ok(ChainSource::Angle),
            Some(other) => Err(self.invalid(
                &format!("{path}.Type"),
                name,
                format!("unknown type `{other}` (X, Y or Angle)"),
            )),
            None => Err(self.invalid(&format!("{path}.Type"), name, "missing")),
        }
    }

    /// An optional boolean (false when absent).
    fn flag(
        &self,
        o: &Map<String, Value>,
        key: &str,
        path: &str,
        name: Option<&str>,
    ) -> Result<bool, LoadError> {
        match o.get(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.invalid(&format!("{path}.{key}"), name, "expected a boolean")),
        }
    }

    /// `{Minimum, Default, Maximum}` under `key`.
    fn range(
        &self,
        o: &Map<String, Value>,
        key: &str,
        path: &str,
        name: Option<&str>,
    ) -> Result<RawNormalization, LoadError> {
        let p = format!("{path}.{key}");
        let v = o
            .get(key)
            .ok_or_else(|| self.invalid(&p, name, "missing"))?;
        let r = self.object(v, &p, name)?;
        Ok(RawNormalization {
            minimum: self.field(r, "Minimum", &p, name)?,
            default: self.field(r, "Default", &p, name)?,
            maximum: self.field(r, "Maximum", &p, name)?,
        })
    }
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
            ("\"Mobility\": 1,", "", &["Vertices[0].Mobility", "missing"]),
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
}
