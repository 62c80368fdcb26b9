//! The loaded [`Asset`] (a built rig and everything a [`Character`] of it needs), and the
//! per-format entry points kept as thin wrappers over [`crate::load`]: [`load_spine`],
//! [`load_inochi2d`], [`load_dragonbones`] (files named by path, as tests and tools have them).
//!
//! Verified by `tests/all/asset.rs` and `tests/all/load_bytes.rs`.

use crate::LoadError;
use crate::atlas::Atlas;
use crate::budget::Budgets;
use crate::inochi2d::{DrawInfo, MaskMode, Puppet};
use crate::load::{Companion, FileCompanions, Format, LoadOptions};
use sinew::build::{BuildProblem, Element};
use sinew::character::Character;
use sinew::character::cage_rig::CageRig;
use sinew::character::shape_rig::ShapeRig;
use sinew::draw::{DrawGroup, DrawSetup, SlotMask};
use sinew::params::inochi_clip::ParamAnimation;
use sinew::physics::follow::FollowRig;
use sinew::physics::jiggle::JiggleRig;
use sinew::{Color, Rig};
use std::path::Path;
use std::sync::Arc;

/// A loaded rig and everything a [`Character`] of it needs; share it between characters.
///
/// Owner: the loaders (`sinew-formats`), at load time; `Asset::character` hands it to the facade.
#[derive(Debug, Clone)]
pub struct Asset {
    /// The built rig (atlas regions bound, parameters built).
    pub rig: Arc<Rig>,
    /// What the main file was ([`crate::detect`]).
    pub format: Format,
    /// The atlas the rig was bound to (a Spine `.atlas` or a DragonBones `_tex.json`), when
    /// one was loaded: its pages name the texture images.
    pub atlas: Option<Atlas>,
    /// How the atlas file is named in errors (its path, for a load from files).
    pub atlas_name: Option<String>,
    /// The atlas's page images, encoded, in page order ([`LoadOptions::textures`]; empty
    /// when off or without an atlas). A puppet's textures are in [`Asset::puppet`].
    pub pages: Vec<PageImage>,
    /// Jiggle bones from [`LoadOptions::extras`].
    pub jiggle: Option<Arc<JiggleRig>>,
    /// Delayed follows from [`LoadOptions::extras`] (`None` when the file has none).
    pub follow: Option<Arc<FollowRig>>,
    /// Cages on meshes from [`LoadOptions::extras`] (`None` when the file has none).
    pub cages: Option<Arc<CageRig>>,
    /// Example shapes of meshes from [`LoadOptions::extras`] (`None` when the file has none).
    pub shapes: Option<Arc<ShapeRig>>,
    /// Rotation and warp deformers on meshes from [`LoadOptions::extras`] (`None` when the
    /// file has none; the `rig-deformers` feature).
    #[cfg(feature = "rig-deformers")]
    pub deformers: Option<Arc<sinew::character::deformer_rig::DeformerRig>>,
    /// Texture pages per slot, masks, composites and the y convention.
    pub draw: Arc<DrawSetup>,
    /// A puppet's parameter animations (empty for Spine).
    pub param_animations: Arc<[ParamAnimation]>,
    /// The parsed puppet (metadata, embedded textures), for Inochi2D.
    pub puppet: Option<Box<Puppet>>,
    /// The armature's DragonBones details (frame rate, `playTimes` per animation, child
    /// armatures), for DragonBones.
    pub dragonbones: Option<Box<crate::dragonbones::DragonBonesRig>>,
    /// The built rigs of the DragonBones child armatures, in the order of
    /// [`crate::dragonbones::DragonBonesRig::children`] (bound to the atlas), theirs inside
    /// each: every [`Asset::character`] shows them inside their slots
    /// ([`sinew::Character::nest`]), to any depth.
    pub children: Vec<ChildRig>,
    /// The budgets it was loaded with (decoding its textures counts against
    /// `texture_bytes`).
    pub budgets: Budgets,
}

/// A DragonBones child armature's built rig and its own children's.
///
/// Owner: the loaders (`sinew-formats`), at load time.
#[derive(Debug, Clone)]
pub struct ChildRig {
    /// The child armature's rig, bound to the parent's atlas.
    pub rig: Arc<Rig>,
    /// Its own child armatures, in the order of its
    /// [`crate::dragonbones::DragonBonesRig::children`].
    pub children: Vec<ChildRig>,
}

/// One atlas page image, encoded as fetched.
///
/// Owner: the loaders (`sinew-formats`), at load time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageImage {
    /// The page's name in the atlas (relative to the atlas file).
    pub name: String,
    /// How errors name it (its path, for a load from files).
    pub file: String,
    /// The encoded image (PNG, JPEG, TGA, ...).
    pub bytes: Vec<u8>,
}

impl Asset {
    /// An asset of a rig built by hand: no atlas, pages, extras or puppet; y down for a
    /// [`Format::DragonBones`] rig (as the loader sets it), else y up; the default budgets.
    pub fn from_rig(rig: Rig, format: Format) -> Asset {
        Asset {
            rig: Arc::new(rig),
            format,
            atlas: None,
            atlas_name: None,
            pages: Vec::new(),
            jiggle: None,
            follow: None,
            cages: None,
            shapes: None,
            #[cfg(feature = "rig-deformers")]
            deformers: None,
            draw: Arc::new(DrawSetup {
                y_down: format == Format::DragonBones,
                ..DrawSetup::default()
            }),
            param_animations: Arc::from(Vec::new()),
            puppet: None,
            dragonbones: None,
            children: Vec::new(),
            budgets: Budgets::DEFAULT,
        }
    }

    /// [`Asset::character`] without the child armatures.
    fn bare_character(&self) -> Character {
        let mut c = Character::new(self.rig.clone());
        c.set_draw_setup(self.draw.clone());
        // Built by the loader for this very rig, so neither can be refused.
        let _ = c.set_jiggle(self.jiggle.clone());
        let _ = c.set_follows(self.follow.clone());
        let _ = c.set_cage_rig(self.cages.clone());
        let _ = c.set_shape_rig(self.shapes.clone());
        #[cfg(feature = "rig-deformers")]
        let _ = c.set_deformer_rig(self.deformers.clone());
        if !self.param_animations.is_empty() {
            c.set_param_animations(self.param_animations.clone());
        }
        c
    }

    /// A new character of this asset, in the setup pose, with its jiggle bones, follows, cages, example shapes, drawing
    /// details and parameter animations attached.
    pub fn character(&self) -> Character {
        let mut c = self.bare_character();
        if let Some(db) = &self.dragonbones {
            nest_children(&mut c, db, &self.children, &self.draw);
        }
        c
    }

    /// [`Asset::character`] with `db`'s child armatures nested from `built` (a rig built
    /// elsewhere, without [`Asset::children`], brings its own).
    pub(crate) fn character_nesting(
        &self,
        db: &crate::dragonbones::DragonBonesRig,
        built: &[ChildRig],
    ) -> Character {
        let mut c = self.bare_character();
        nest_children(&mut c, db, built, &self.draw);
        c
    }
}

/// Why a child armature's rig could not be made ([`build_children`]).
#[derive(Debug)]
pub(crate) enum ChildBuildError {
    /// The builder refused the child armature named first.
    Build(String, sinew::build::BuildError),
    /// The atlas lacks a region it shows.
    Region(BuildProblem),
}

/// `db`'s child armatures (and theirs), built as the loader builds DragonBones rigs and bound
/// to `regions` when given (without, their images keep the sizes the loader gave them and
/// nothing is textured).
pub(crate) fn build_children(
    db: &crate::dragonbones::DragonBonesRig,
    regions: Option<&dyn sinew::build::region::RegionSource>,
) -> Result<Vec<ChildRig>, ChildBuildError> {
    let inputs = sinew::build::BuildInputs {
        exact_angles: true,
        ..Default::default()
    };
    db.children
        .iter()
        .map(|k| {
            let mut rig = sinew::build::build_rig_with(&k.rig.raw, &inputs)
                .map_err(|e| ChildBuildError::Build(k.rig.armature.clone(), e))?;
            if let Some(r) = regions {
                sinew::build::region::bind_regions(&mut rig, r).map_err(ChildBuildError::Region)?;
            }
            Ok(ChildRig {
                rig: Arc::new(rig),
                children: build_children(&k.rig, regions)?,
            })
        })
        .collect()
}

/// Shows each DragonBones child armature of `db` inside its slot of `c`, and theirs inside
/// them (`built` mirrors `db.children`).
fn nest_children(
    c: &mut Character,
    db: &crate::dragonbones::DragonBonesRig,
    built: &[ChildRig],
    draw: &Arc<DrawSetup>,
) {
    let rig = c.rig().clone();
    for d in &db.child_displays {
        let Some(k) = d.child else {
            continue;
        };
        let (Some(child_built), Some(child_db)) = (built.get(k), db.children.get(k)) else {
            continue;
        };
        let child_rig = &child_built.rig;
        let Some(slot) = rig.slot(&d.slot) else {
            continue;
        };
        let Some(key) = rig.names.attachment_keys.get(&d.key) else {
            continue;
        };
        let Some(attachment) = rig
            .attachments
            .iter()
            .position(|a| a.slot == slot && a.key == *key)
            .and_then(|i| u32::try_from(i).ok())
        else {
            continue;
        };
        let starts = d
            .starts
            .iter()
            .filter_map(|(p, t, n)| Some((rig.clip(p)?, *t, child_rig.clip(n)?)))
            .collect();
        let clip = d
            .actions
            .as_deref()
            .and_then(|n| child_rig.clip(n))
            .or_else(|| {
                child_db
                    .rig
                    .clips
                    .first()
                    .and_then(|i| child_rig.clip(&i.name))
            });
        let [a, b, cc, dd, tx, ty] = d.transform;
        let spec = sinew::character::Nested {
            slot,
            attachment: sinew::AttachmentId(attachment),
            // Flash order (x' = a x + c y + tx) as sinew's rows.
            transform: sinew::WorldTransform {
                a,
                b: cc,
                c: b,
                d: dd,
                x: tx,
                y: ty,
            },
            starts,
            clip,
        };
        let mut child = Character::new(child_rig.clone());
        child.set_draw_setup(draw.clone());
        nest_children(&mut child, &child_db.rig, &child_built.children, draw);
        // The ids come from these very rigs: never refused.
        let _ = c.nest(spec, child);
    }
}

/// What a rig-extras file adds to one rig.
pub(crate) type Extras = (
    Option<Arc<JiggleRig>>,
    Option<Arc<FollowRig>>,
    Option<Arc<CageRig>>,
    Option<Arc<ShapeRig>>,
    ExtraDeformers,
);

/// The deformers of an extras file (`rig-deformers` feature).
#[cfg(feature = "rig-deformers")]
pub(crate) type ExtraDeformers = Option<Arc<sinew::character::deformer_rig::DeformerRig>>;
/// Nothing: this build reads no deformers (the `rig-deformers` feature is off).
#[cfg(not(feature = "rig-deformers"))]
pub(crate) type ExtraDeformers = ();

/// [`crate::load`] of the file `main` with `atlas` (a path; `None`: untextured) as its atlas,
/// the other options as given, and `options.extras` / `options.physics3` names relative to
/// `main` (or paths, when absolute).
fn load_with_atlas(
    main: &Path,
    atlas: Option<&Path>,
    options: &LoadOptions,
) -> Result<Asset, LoadError> {
    let files = FileCompanions::beside(main, options.budgets);
    let mut options = options.clone();
    options.atlas = match atlas {
        Some(p) => Companion::Named(files.given(p)),
        None => Companion::Without,
    };
    let bytes = files.read_main()?;
    crate::load_bytes(&files.main_name(), &bytes, &files, &options)
}

/// Loads a Spine 4.2 skeleton (JSON or binary `.skel`) with `atlas` (a `.atlas` file; `None`
/// is an explicit choice to draw untextured: attachments keep the regions the skeleton file
/// implies). A thin wrapper over [`crate::load`]: a file that is not a Spine skeleton is
/// refused with what it is.
pub fn load_spine(
    skeleton: &Path,
    atlas: Option<&Path>,
    options: &LoadOptions,
) -> Result<Asset, LoadError> {
    let asset = load_with_atlas(skeleton, atlas, options)?;
    expect(asset, skeleton, &[Format::SpineJson, Format::SpineSkel])
}

/// Loads an Inochi2D puppet (`.inp`/`.inx`) with the options' physics3 chains and extras:
/// [`crate::load`], refusing a file that is not a puppet.
pub fn load_inochi2d(path: &Path, options: &LoadOptions) -> Result<Asset, LoadError> {
    let asset = crate::load(path, options)?;
    expect(asset, path, &[Format::Inochi2D])
}

/// Loads one armature (`None`: the first) of a DragonBones 5.x skeleton (`*_ske.json`) with
/// `tex` (its `*_tex.json`; `None`: untextured), without page images. A thin wrapper over
/// [`crate::load`] for tools that want the DragonBones details beside the asset.
pub fn load_dragonbones(
    skeleton: &Path,
    tex: Option<&Path>,
    armature: Option<&str>,
) -> Result<(Asset, crate::dragonbones::DragonBonesRig), LoadError> {
    let options = LoadOptions {
        armature: armature.map(str::to_owned),
        textures: false,
        ..LoadOptions::default()
    };
    let mut asset = expect(
        load_with_atlas(skeleton, tex, &options)?,
        skeleton,
        &[Format::DragonBones],
    )?;
    match asset.dragonbones.take() {
        Some(db) => Ok((asset, *db)),
        None => Err(LoadError::WrongFormat {
            file: skeleton.display().to_string(),
            found: asset.format,
            expected: Format::DragonBones.family(),
        }),
    }
}

/// Refuses an asset of another format than the wrapper loads.
fn expect(asset: Asset, path: &Path, formats: &[Format]) -> Result<Asset, LoadError> {
    if formats.contains(&asset.format) {
        Ok(asset)
    } else {
        Err(LoadError::WrongFormat {
            file: path.display().to_string(),
            found: asset.format,
            expected: formats.first().map_or("a rig", |f| f.family()),
        })
    }
}

/// Resolves physics3 chains against a puppet's parameters one setting at a time; the first
/// problem is an error naming the physics3 file (`file`), the JSON path of the setting (and
/// of its input, output or vertex when the builder's problem is about one:
/// [`sinew::build::Element`]) and the setting's `Id`, carrying the builder's typed problem
/// ([`crate::JsonIssue::Rig`]).
pub(crate) fn check_chains(
    chains: &sinew::params::raw::RawChains,
    rig: &Rig,
    file: &str,
) -> Result<(), LoadError> {
    let invalid = |path: String, name: Option<String>, problem: &BuildProblem| LoadError::Invalid {
        file: file.to_owned(),
        path,
        name,
        issue: crate::JsonIssue::Rig(Box::new(problem.clone())),
    };
    let mut errs = Vec::new();
    let meta = sinew::params::raw::RawChains {
        chains: Vec::new(),
        ..chains.clone()
    };
    sinew::params::chain::build_chains(&meta, &rig.params, &mut errs);
    if let Some(e) = errs.first() {
        return Err(invalid("$.Meta".into(), None, e));
    }
    for (i, c) in chains.chains.iter().enumerate() {
        let one = sinew::params::raw::RawChains {
            chains: vec![c.clone()],
            ..meta.clone()
        };
        sinew::params::chain::build_chains(&one, &rig.params, &mut errs);
        if let Some(e) = errs.first() {
            let setting = format!("$.PhysicsSettings[{i}]");
            let path = match e.element {
                Some(Element::ChainInput(k)) => format!("{setting}.Input[{k}]"),
                Some(Element::ChainOutput(k)) => format!("{setting}.Output[{k}]"),
                Some(Element::ChainParticle(k)) => format!("{setting}.Vertices[{k}]"),
                // A problem with the whole setting (or an element kind this loader does
                // not write) points at the setting.
                _ => setting,
            };
            return Err(invalid(path, Some(c.name.clone()), e));
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
