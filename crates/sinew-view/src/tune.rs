//! The rig editor's model, without a window: the rig extras being tuned ([`Tuning`]: the
//! file they came from, where "save" writes them, the [`RigExtras`] as edited), the
//! parameters a jiggle chain shows sliders for ([`fields`], per model, with their ranges)
//! and the extras rebuilt for a rig after an edit. The panel (`rig_panel`) draws the
//! sliders; `app` gives the rebuilt jiggle to a fresh character.

use anyhow::{Result, anyhow};
use sinew::physics::jiggle::{JiggleModel, JiggleParams, JiggleRig};
use sinew::rig::Rig;
use sinew_formats::extras::{RigExtras, load_extras, save_extras};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One tunable number of a chain: its JSON key (the extras file's name for it), its range
/// on the slider, whether the slider is logarithmic, and how to read and write it.
pub(crate) struct Field {
    /// The key in the extras file (`stiffness`, `maxAngle`, ...), also the slider's label.
    pub(crate) key: &'static str,
    pub(crate) min: f64,
    pub(crate) max: f64,
    pub(crate) log: bool,
    pub(crate) get: fn(&JiggleParams) -> f64,
    pub(crate) set: fn(&mut JiggleParams, f64),
}

macro_rules! field {
    ($key:literal, $name:ident, $min:expr, $max:expr, $log:expr) => {
        Field {
            key: $key,
            min: $min,
            max: $max,
            log: $log,
            get: |p| p.$name,
            set: |p, v| p.$name = v,
        }
    };
}

// The ranges are the validated ranges of `JiggleParams::validate`, cut to what a slider can
// show (stiffness and the like logarithmic over six decades). A value loaded outside a
// slider's range is shown at its end and kept until the slider is moved.
const STIFFNESS: Field = field!("stiffness", stiffness, 0.01, 1.0e5, true);
const DAMPING: Field = field!("damping", damping, 0.0, 1.0e4, true);
const MASS: Field = field!("mass", mass, 0.01, 100.0, true);
const DRAG: Field = field!("drag", drag, 0.0, 1.0, false);
const T_STIFFNESS: Field = field!("translateStiffness", translate_stiffness, 0.0, 1.0e5, true);
const T_DAMPING: Field = field!("translateDamping", translate_damping, 0.0, 1.0e4, true);
const MAX_STRETCH: Field = field!("maxStretch", max_stretch, 0.0, 2.0, false);
const MAX_ANGLE: Field = field!("maxAngle", max_angle, 0.0, 180.0, false);
const GRAVITY: Field = field!("gravity", gravity, 0.0, 5.0, false);
const WIND: Field = field!("wind", wind, -5.0, 5.0, false);
const VELOCITY_DAMPING: Field = field!("velocityDamping", velocity_damping, 0.0, 1.0, false);
const HIT_RADIUS: Field = field!("hitRadius", hit_radius, 0.0, 100.0, false);
const STRENGTH: Field = field!("strength", strength, 0.0, 1.0, false);
const UNIT_SCALE: Field = field!("unitScale", unit_scale, 0.01, 1000.0, true);

/// The fields a chain of `model` is tuned by (those its model reads), in panel order.
pub(crate) fn fields(model: JiggleModel) -> &'static [Field] {
    match model {
        JiggleModel::Spring => &[
            STIFFNESS,
            DAMPING,
            MASS,
            T_STIFFNESS,
            T_DAMPING,
            MAX_STRETCH,
            MAX_ANGLE,
            GRAVITY,
            WIND,
            VELOCITY_DAMPING,
            HIT_RADIUS,
            STRENGTH,
        ],
        JiggleModel::Verlet => &[
            STIFFNESS, DRAG, GRAVITY, WIND, MAX_ANGLE, HIT_RADIUS, UNIT_SCALE, STRENGTH,
        ],
        JiggleModel::Angular => &[STIFFNESS, DAMPING, MASS, MAX_ANGLE, STRENGTH],
        JiggleModel::Lerp => &[STIFFNESS, MAX_ANGLE, HIT_RADIUS, STRENGTH],
    }
}

/// The rig extras being tuned.
pub(crate) struct Tuning {
    /// The extras as edited (as loaded until a slider moves).
    pub(crate) extras: RigExtras,
    /// Where "save" writes them.
    pub(crate) save_to: PathBuf,
    /// Edits not saved yet.
    pub(crate) dirty: bool,
    /// The last save's outcome, for the panel.
    pub(crate) message: Option<String>,
}

impl Tuning {
    /// The extras file `path` as loaded for tuning, saved to `save_to` (default: `path`
    /// itself).
    pub(crate) fn load(path: &Path, save_to: Option<&Path>) -> Result<Tuning> {
        let extras = load_extras(path).map_err(|e| anyhow!("{e}"))?;
        Ok(Tuning {
            extras,
            save_to: save_to.unwrap_or(path).to_path_buf(),
            dirty: false,
            message: None,
        })
    }

    /// No extras yet (a file without an extras file), saved to `save_to`.
    pub(crate) fn new(save_to: &Path) -> Tuning {
        Tuning {
            extras: RigExtras {
                jiggle: sinew::physics::jiggle::JiggleDesc::new(),
                ..Default::default()
            },
            save_to: save_to.to_path_buf(),
            dirty: false,
            message: None,
        }
    }

    /// Sets `field` of chain `chain` to `value` (clamped to the field's range); `false`
    /// when there is no such chain or the value is already that.
    pub(crate) fn set(&mut self, chain: usize, field: &Field, value: f64) -> bool {
        let Some(c) = self.extras.jiggle.chains.get_mut(chain) else {
            return false;
        };
        let v = value.clamp(field.min, field.max);
        if (field.get)(&c.params) == v {
            return false;
        }
        (field.set)(&mut c.params, v);
        self.dirty = true;
        true
    }

    /// The jiggle bones of the edited extras, built for `rig`; an error naming what the
    /// rig or the values refuse (e.g. a spring's stiffness of 0).
    pub(crate) fn build(&self, rig: &Rig) -> Result<Arc<JiggleRig>> {
        JiggleRig::build(rig, &self.extras.jiggle)
            .map(Arc::new)
            .map_err(|e| anyhow!("{e}"))
    }

    /// Puts `cages` (the viewer's dragged cages) in the extras, each replacing a cage of
    /// its name.
    pub(crate) fn set_cages(&mut self, cages: Vec<sinew::character::cage_rig::CageDesc>) {
        for c in cages {
            match self.extras.cages.iter_mut().find(|d| d.name == c.name) {
                Some(d) => *d = c,
                None => self.extras.cages.push(c),
            }
        }
    }

    /// Writes the edited extras to [`Tuning::save_to`] with the extras writer (nothing is
    /// written when they would not read back as they are).
    pub(crate) fn save(&mut self) -> Result<()> {
        let r = save_extras(&self.save_to, &self.extras)
            .map_err(|e| anyhow!("saving {}: {e}", self.save_to.display()));
        self.message = Some(match &r {
            Ok(()) => {
                self.dirty = false;
                format!("saved {}", self.save_to.display())
            }
            Err(e) => format!("{e}"),
        });
        r
    }
}

/// The extras file a file opened with `options` took its extras from: the named one, or
/// `<stem>.extras.json` beside `path` when it exists.
pub(crate) fn extras_path(path: &Path, options: &sinew_formats::LoadOptions) -> Option<PathBuf> {
    match &options.extras {
        sinew_formats::Companion::Named(n) => Some(PathBuf::from(n)),
        sinew_formats::Companion::Beside => {
            let stem = path.file_stem()?.to_string_lossy().into_owned();
            let p = path.with_file_name(format!("{stem}.extras.json"));
            p.is_file().then_some(p)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stickbot() -> (PathBuf, PathBuf) {
        let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/stickbot");
        (d.join("stickbot.json"), d.join("stickbot.extras.json"))
    }

    #[test]
    fn every_field_reads_and_writes_its_own_parameter() {
        for model in [
            JiggleModel::Spring,
            JiggleModel::Verlet,
            JiggleModel::Angular,
            JiggleModel::Lerp,
        ] {
            for (k, f) in fields(model).iter().enumerate() {
                let mut p = JiggleParams {
                    model,
                    ..Default::default()
                };
                let before = p;
                let v = f.min + (f.max - f.min) * 0.37;
                (f.set)(&mut p, v);
                assert_eq!((f.get)(&p), v, "{}", f.key);
                assert_ne!(p, before, "{} wrote nothing", f.key);
                // No two fields of a model share a parameter.
                for g in &fields(model)[k + 1..] {
                    assert_ne!(f.key, g.key);
                    let mut q = before;
                    (g.set)(&mut q, (g.get)(&before) + 0.5);
                    assert_eq!((f.get)(&q), (f.get)(&before), "{} moved {}", g.key, f.key);
                }
                assert!(p.validate().is_ok() || f.key == "stiffness", "{}", f.key);
            }
        }
    }

    #[test]
    fn a_tuned_chain_saves_and_reloads_with_its_values() {
        let (_, extras) = stickbot();
        let out = std::env::temp_dir().join(format!("sinew-tune-{}.json", std::process::id()));
        let mut t = Tuning::load(&extras, Some(&out)).expect("stickbot extras");
        let cape = t
            .extras
            .jiggle
            .chains
            .iter()
            .position(|c| c.name == "cape")
            .expect("a cape chain");
        assert!(t.set(cape, &STIFFNESS, 123.5));
        assert!(!t.set(cape, &STIFFNESS, 123.5), "unchanged");
        assert!(t.set(cape, &MAX_ANGLE, 500.0), "clamped to 180");
        assert!(!t.set(99, &STIFFNESS, 1.0));
        assert!(t.dirty);
        t.save().expect("saved");
        assert!(!t.dirty);
        let back = load_extras(&out).expect("reloads");
        assert_eq!(back, t.extras);
        assert_eq!(back.jiggle.chains[cape].params.stiffness, 123.5);
        assert_eq!(back.jiggle.chains[cape].params.max_angle, 180.0);
        let _ = std::fs::remove_file(&out);
        let mut bad = Tuning::load(&extras, Some(Path::new("/no/such/dir/x.json"))).expect("ok");
        let e = bad.save().expect_err("no folder");
        assert!(e.to_string().contains("/no/such/dir/x.json"), "{e}");
    }

    #[test]
    fn new_extras_with_a_cage_save_and_reload() {
        use sinew::character::cage_rig::{CageDesc, CageDrive};
        let out = std::env::temp_dir().join(format!("sinew-tune-new-{}.json", std::process::id()));
        let mut t = Tuning::new(&out);
        let mut cage = CageDesc::new("cape-boundary", "cape", Vec::new());
        cage.drive = CageDrive::Mesh {
            vertices: vec![vec![0, 1, 3, 2]],
        };
        t.set_cages(vec![cage.clone()]);
        cage.mode = sinew::deform::cage_stage::CageMode::Offset;
        t.set_cages(vec![cage.clone()]);
        assert_eq!(t.extras.cages, vec![cage], "replaced by name, not added");
        t.save().expect("saved");
        assert_eq!(load_extras(&out).expect("reloads"), t.extras);
        let _ = std::fs::remove_file(&out);
    }

    #[test]
    fn the_extras_beside_a_skeleton_are_found() {
        let (skel, extras) = stickbot();
        let beside = sinew_formats::LoadOptions {
            extras: sinew_formats::Companion::Beside,
            ..Default::default()
        };
        assert_eq!(extras_path(&skel, &beside), Some(extras.clone()));
        assert_eq!(
            extras_path(&skel, &Default::default()),
            None,
            "without extras"
        );
        let face = skel.with_file_name("nothing.json");
        assert_eq!(extras_path(&face, &beside), None);
        let named = sinew_formats::LoadOptions {
            extras: sinew_formats::Companion::Named("/x/y.json".into()),
            ..Default::default()
        };
        assert_eq!(extras_path(&face, &named), Some(PathBuf::from("/x/y.json")));
    }
}
