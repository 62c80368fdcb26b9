//! One call per format: a [`Character`]-ready [`Asset`] from a Spine JSON skeleton plus its
//! atlas ([`load_spine`]) or an Inochi2D puppet ([`load_inochi2d`]), with rig extras (jiggle
//! bones) and Cubism physics3 pendulum chains as [`LoadOptions`].
//!
//! Every error names the file and what is missing: an atlas without a region some region or
//! mesh attachment needs is an error (it would draw with wrong UVs). Verified by
//! `tests/asset.rs` and by the CLI, which loads everything through here.

use crate::LoadError;
use crate::atlas::Atlas;
use crate::inochi2d::{DrawInfo, MaskMode, Puppet};
use sinew::character::Character;
use sinew::draw::{DrawGroup, DrawSetup, SlotMask};
use sinew::params::inochi_clip::ParamAnimation;
use sinew::physics::follow::FollowRig;
use sinew::physics::jiggle::JiggleRig;
use sinew::{Color, Rig};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Optional files loaded with a rig.
///
/// Owner: the loaders (`sinew-formats`), at load time.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// A rig-extras JSON file (`docs/EXTRAS.md`): jiggle bones, colliders and delayed
    /// follows by bone name.
    pub extras: Option<PathBuf>,
    /// A Cubism `*.physics3.json` (puppets): pendulum chains over the puppet's parameters.
    pub physics3: Option<PathBuf>,
}

/// A loaded rig and everything a [`Character`] of it needs; share it between characters.
///
/// Owner: the loaders (`sinew-formats`), at load time; `Asset::character` hands it to the facade.
#[derive(Debug, Clone)]
pub struct Asset {
    /// The built rig (atlas regions bound, parameters built).
    pub rig: Arc<Rig>,
    /// The atlas the rig was bound to (Spine, when one was given): its pages name the
    /// texture files.
    pub atlas: Option<Atlas>,
    /// The atlas file, when one was given.
    pub atlas_path: Option<PathBuf>,
    /// Jiggle bones from [`LoadOptions::extras`].
    pub jiggle: Option<Arc<JiggleRig>>,
    /// Delayed follows from [`LoadOptions::extras`] (`None` when the file has none).
    pub follow: Option<Arc<FollowRig>>,
    /// Texture pages per slot, masks, composites and the y convention.
    pub draw: Arc<DrawSetup>,
    /// A puppet's parameter animations (empty for Spine).
    pub param_animations: Arc<[ParamAnimation]>,
    /// The parsed puppet (metadata, embedded textures), for Inochi2D.
    pub puppet: Option<Box<Puppet>>,
}

impl Asset {
    /// A new character of this asset, in the setup pose, with its jiggle bones, follows, drawing
    /// details and parameter animations attached.
    pub fn character(&self) -> Character {
        let mut c = Character::new(self.rig.clone());
        c.set_draw_setup(self.draw.clone());
        // Built by the loader for this very rig, so neither can be refused.
        let _ = c.set_jiggle(self.jiggle.clone());
        let _ = c.set_follows(self.follow.clone());
        if !self.param_animations.is_empty() {
            c.set_param_animations(self.param_animations.clone());
        }
        c
    }
}

fn rig_error(file: &str, message: String) -> LoadError {
    LoadError::Rig {
        file: file.to_owned(),
        message,
    }
}

/// Builds `raw` (from `file`) with `inputs`; a region the atlas (at `atlas`) lacks is a
/// [`LoadError::AtlasMissing`] naming both files, other problems a rig error.
fn build_with_atlas(
    raw: &sinew::RawRig,
    inputs: &sinew::build::BuildInputs<'_>,
    file: &str,
    atlas: Option<&Path>,
) -> Result<Rig, LoadError> {
    sinew::build::build_rig_with(raw, inputs).map_err(|e| match (e.problems.as_slice(), atlas) {
        ([p], Some(path)) if crate::atlas::is_missing_region(p) => match crate::atlas::missing(p) {
            LoadError::MissingRegion { region, attachment } => LoadError::AtlasMissing {
                atlas: path.display().to_string(),
                skeleton: file.to_owned(),
                region,
                attachment,
            },
            other => other,
        },
        _ => rig_error(file, format!("invalid rig: {e}")),
    })
}

/// What a rig-extras file adds to one rig.
type Extras = (Option<Arc<JiggleRig>>, Option<Arc<FollowRig>>);

/// Loads the jiggle bones and follows of a rig-extras file for `rig`.
fn load_jiggle(path: Option<&Path>, rig: &Rig) -> Result<Extras, LoadError> {
    let Some(path) = path else {
        return Ok((None, None));
    };
    let extras = crate::extras::load_extras(path)?;
    let file = path.display().to_string();
    let jr = JiggleRig::build(rig, &extras.jiggle).map_err(|e| rig_error(&file, e.to_string()))?;
    let follow = if extras.follow.is_empty() {
        None
    } else {
        let fr =
            FollowRig::build(rig, &extras.follow).map_err(|e| rig_error(&file, e.to_string()))?;
        Some(Arc::new(fr))
    };
    Ok((Some(Arc::new(jr)), follow))
}

/// Loads a Spine 4.2 skeleton (JSON or binary `.skel`, told apart by their content), builds
/// it, and binds `atlas` (a `.atlas` file) into it. `None` is an explicit choice to draw
/// untextured: attachments keep the regions the skeleton file implies. Every region and
/// mesh attachment must find its region in the atlas.
pub fn load_spine(
    skeleton: &Path,
    atlas: Option<&Path>,
    options: &LoadOptions,
) -> Result<Asset, LoadError> {
    let raw = crate::spine::load_spine_file(skeleton)?;
    let file = skeleton.display().to_string();
    let bound = atlas.map(crate::atlas::load_atlas).transpose()?;
    let regions = bound.as_ref().map(crate::atlas::Atlas::by_name);
    let inputs = sinew::build::BuildInputs {
        regions: regions
            .as_ref()
            .map(|r| r as &dyn sinew::build::RegionSource),
        ..Default::default()
    };
    let rig = build_with_atlas(&raw, &inputs, &file, atlas)?;
    let (jiggle, follow) = load_jiggle(options.extras.as_deref(), &rig)?;
    Ok(Asset {
        rig: Arc::new(rig),
        atlas: bound,
        atlas_path: atlas.map(Path::to_path_buf),
        jiggle,
        follow,
        draw: Arc::new(DrawSetup::default()),
        param_animations: Arc::from(Vec::new()),
        puppet: None,
    })
}

/// Loads an Inochi2D puppet (`.inp`/`.inx`), adds the pendulum chains of
/// [`LoadOptions::physics3`] and builds it, with its drawing details (texture page per
/// part, masks, composites, y down) and its parameter animations.
pub fn load_inochi2d(path: &Path, options: &LoadOptions) -> Result<Asset, LoadError> {
    let mut p = crate::inochi2d::load_inochi2d(path)?;
    let rig = match &options.physics3 {
        Some(f) => {
            let chains = crate::physics3::load_physics3(f)?;
            // The puppet alone first, so that what the chains get wrong (a parameter the
            // puppet lacks, a bad value) is blamed on the physics3 file, with its JSON path.
            let alone = crate::inochi2d::build_puppet(&p)?;
            check_chains(&chains, &alone, &f.display().to_string())?;
            p.params.chains = chains;
            crate::inochi2d::build_puppet(&p)?
        }
        None => crate::inochi2d::build_puppet(&p)?,
    };
    let draw = puppet_draw_setup(&p, &rig);
    let (jiggle, follow) = load_jiggle(options.extras.as_deref(), &rig)?;
    Ok(Asset {
        param_animations: Arc::from(p.animations.clone()),
        rig: Arc::new(rig),
        atlas: None,
        atlas_path: None,
        jiggle,
        follow,
        draw: Arc::new(draw),
        puppet: Some(Box::new(p)),
    })
}

/// Resolves physics3 chains against a puppet's parameters one setting at a time; the first
/// problem is an error naming the physics3 file (`file`), the JSON path of the setting (and
/// of its input, output or vertex when the problem names one) and the setting's `Id`.
fn check_chains(
    chains: &sinew::params::raw::RawChains,
    rig: &Rig,
    file: &str,
) -> Result<(), LoadError> {
    let invalid = |path: String, name: Option<String>, message: String| LoadError::Invalid {
        file: file.to_owned(),
        path,
        name,
        message,
    };
    let mut errs = Vec::new();
    let meta = sinew::params::raw::RawChains {
        chains: Vec::new(),
        ..chains.clone()
    };
    sinew::params::chain::build_chains(&meta, &rig.params, &mut errs);
    if let Some(e) = errs.first() {
        return Err(invalid("$.Meta".into(), None, e.clone()));
    }
    for (i, c) in chains.chains.iter().enumerate() {
        let one = sinew::params::raw::RawChains {
            chains: vec![c.clone()],
            ..meta.clone()
        };
        sinew::params::chain::build_chains(&one, &rig.params, &mut errs);
        if let Some(e) = errs.first() {
            let mut path = format!("$.PhysicsSettings[{i}]");
            // "input 2", "output 0", "particle 1": the item's own path.
            for (word, key) in [
                ("input ", "Input"),
                ("output ", "Output"),
                ("particle ", "Vertices"),
            ] {
                if let Some(k) = e
                    .split(": ")
                    .find_map(|part| part.strip_prefix(word))
                    .and_then(|rest| rest.split(' ').next())
                    .and_then(|n| n.parse::<usize>().ok())
                {
                    path = format!("{path}.{key}[{k}]");
                    break;
                }
            }
            return Err(invalid(path, Some(c.name.clone()), e.clone()));
        }
    }
    Ok(())
}

/// A puppet's drawing details: each Part's albedo texture and masks, each outermost
/// Composite's group and masks. Only outermost composites group (the loader's
/// `slot_group`); a nested composite draws its children straight into the outer layer.
/// COMPAT(inochi2d): so does the 0.8 reference, whose Composite collects the Parts of its
/// whole subtree, through any nested Composite, and draws them into its one buffer.
pub fn puppet_draw_setup(p: &Puppet, rig: &Rig) -> DrawSetup {
    let (ns, nb) = (rig.slots.len(), rig.bones.len());
    let mut s = DrawSetup {
        y_down: true,
        slot_pages: vec![None; ns],
        slot_masks: vec![SlotMask::default(); ns],
        groups: vec![None; nb],
        group_masks: vec![SlotMask::default(); nb],
    };
    for d in &p.draw {
        if d.composite {
            let Some(bone) = rig.bone(&d.name) else {
                continue;
            };
            let [r, g, b] = d.tint;
            let [sr, sg, sb] = d.screen_tint;
            s.groups[bone.index()] = Some(DrawGroup {
                bone,
                first: 0,
                count: 0,
                blend: d.blend,
                color: Color::new(r, g, b, d.opacity),
                screen: Color::new(sr, sg, sb, 1.0),
            });
            s.group_masks[bone.index()] = mask_of(d, rig);
        } else if let Some(slot) = rig.slot(&d.name) {
            s.slot_pages[slot.index()] = d.textures[0];
            s.slot_masks[slot.index()] = mask_of(d, rig);
        }
    }
    s
}

/// The mask of a Part or Composite: its threshold and its sources that name a slot.
fn mask_of(d: &DrawInfo, rig: &Rig) -> SlotMask {
    let mut m = SlotMask {
        threshold: d.mask_threshold,
        ..SlotMask::default()
    };
    for (src, mode) in &d.masks {
        if let Some(s) = rig.slot(src) {
            m.sources.push((s, *mode == MaskMode::DodgeMask));
        }
    }
    m
}

/// Loads one armature of a DragonBones 5.x skeleton (`*_ske.json`, with its `*_tex.json`
/// for the image sizes and texture coordinates, bound as an atlas whose page is the tex
/// file's `imagePath`) and builds it. Returns the asset and the armature's DragonBones
/// details (frame rate, `playTimes` per animation).
pub fn load_dragonbones(
    skeleton: &Path,
    tex: Option<&Path>,
    armature: Option<&str>,
) -> Result<(Asset, crate::dragonbones::DragonBonesRig), LoadError> {
    let db = crate::dragonbones::load_dragonbones(skeleton, tex, armature)?;
    let file = skeleton.display().to_string();
    let atlas = tex.map(crate::dragonbones::load_tex_atlas).transpose()?;
    let regions = atlas.as_ref().map(crate::atlas::Atlas::by_name);
    let inputs = sinew::build::BuildInputs {
        regions: regions
            .as_ref()
            .map(|r| r as &dyn sinew::build::RegionSource),
        exact_angles: true,
        ..Default::default()
    };
    let rig = build_with_atlas(&db.raw, &inputs, &file, tex)?;
    let asset = Asset {
        rig: Arc::new(rig),
        atlas,
        atlas_path: tex.map(Path::to_path_buf),
        jiggle: None,
        follow: None,
        draw: Arc::new(DrawSetup {
            y_down: true,
            ..DrawSetup::default()
        }),
        param_animations: Arc::from(Vec::new()),
        puppet: None,
    };
    Ok((asset, db))
}
