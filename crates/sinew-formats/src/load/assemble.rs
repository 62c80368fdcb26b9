//! One [`Asset`] per format from the main file's bytes and its companions: parse, fetch
//! the companions the options name, build (the atlas bound after the rig builds, so that a
//! region the atlas lacks is a typed [`LoadError::MissingRegion`] by construction), add rig
//! extras and physics3 chains, fetch the page images and check every texture's declared
//! size against the load's budgets.

use super::{Companion, Companions, Format, LoadOptions, file_name_of, folder_of};
use crate::LoadError;
use crate::asset::{Asset, PageImage};
use crate::atlas::Atlas;
use sinew::draw::DrawSetup;
use sinew::physics::follow::FollowRig;
use sinew::physics::jiggle::JiggleRig;
use sinew::rig::Rig;
use std::io::ErrorKind;
use std::sync::Arc;

/// One load: the main file's name, where its companions come from, the options.
pub(crate) struct Ctx<'a> {
    pub name: &'a str,
    pub companions: &'a dyn Companions,
    pub options: &'a LoadOptions,
}

/// A fetched companion: its name (relative to the main file), how errors name it, its bytes.
struct Fetched {
    name: String,
    file: String,
    bytes: Vec<u8>,
}

impl Ctx<'_> {
    /// Refuses an input over the `file_bytes` budget.
    pub fn check_size(&self, file: &str, len: usize) -> Result<(), LoadError> {
        self.options
            .budgets
            .check("file_bytes", len as f64, format!("{file} ({len} bytes)"))
            .map_err(|error| LoadError::Budget {
                file: file.to_owned(),
                error,
            })
    }

    /// The companion `name`; `None` when it is not found and `optional`.
    fn fetch(&self, name: &str, optional: bool) -> Result<Option<Fetched>, LoadError> {
        let file = self.companions.describe(name);
        match self.companions.fetch(name) {
            Ok(bytes) => {
                self.check_size(&file, bytes.len())?;
                Ok(Some(Fetched {
                    name: name.to_owned(),
                    file,
                    bytes,
                }))
            }
            Err(e) if optional && e.kind() == ErrorKind::NotFound => Ok(None),
            Err(source) => Err(LoadError::Io { file, source }),
        }
    }

    /// The companion `choice` asks for, `beside` being the conventional names to try.
    fn companion(
        &self,
        choice: &Companion,
        beside: &[String],
    ) -> Result<Option<Fetched>, LoadError> {
        match choice {
            Companion::Without => Ok(None),
            Companion::Named(name) => self.fetch(name, false),
            Companion::Beside => {
                for name in beside {
                    if let Some(f) = self.fetch(name, true)? {
                        return Ok(Some(f));
                    }
                }
                Ok(None)
            }
        }
    }

    /// The main file's name without its folder and last extension (`rigs/hero.json` ->
    /// `hero`).
    fn stem(&self) -> &str {
        let file = file_name_of(self.name);
        match file.rfind('.') {
            Some(i) if i > 0 => &file[..i],
            _ => file,
        }
    }

    /// Refuses an option given for a format it does not apply to.
    fn not_for(&self, option: &'static str, given: bool, found: Format) -> Result<(), LoadError> {
        if given {
            return Err(LoadError::NotApplicable {
                file: self.name.to_owned(),
                option,
                found,
            });
        }
        Ok(())
    }

    /// A Spine skeleton (JSON or `.skel`) with its atlas, pages and extras.
    pub fn spine(&self, main: &[u8], format: Format) -> Result<Asset, LoadError> {
        let o = self.options;
        self.not_for(
            "physics3",
            matches!(o.physics3, Companion::Named(_)),
            format,
        )?;
        self.not_for("armature", o.armature.is_some(), format)?;
        let raw = crate::spine::parse_spine_with(main, self.name, &o.budgets)?;
        let stem = self.stem();
        let mut beside = vec![format!("{stem}.atlas")];
        for suffix in ["-pro", "-ess"] {
            if let Some(base) = stem.strip_suffix(suffix) {
                beside.push(format!("{base}.atlas"));
            }
        }
        let atlas = match self.companion(&o.atlas, &beside)? {
            Some(f) => {
                let text = crate::budget::into_text(f.bytes, &f.file)?;
                let atlas = crate::atlas::parse_atlas(&text, &f.file)?;
                Some((atlas, f.name, f.file))
            }
            None => None,
        };
        let inputs = sinew::build::BuildInputs::default();
        self.finish(&raw, &inputs, atlas, format)
    }

    /// A DragonBones skeleton: the armature [`LoadOptions::armature`] names, its `_tex.json`
    /// atlas and image.
    pub fn dragonbones(&self, main: &[u8]) -> Result<Asset, LoadError> {
        let o = self.options;
        let format = Format::DragonBones;
        self.not_for(
            "physics3",
            matches!(o.physics3, Companion::Named(_)),
            format,
        )?;
        let ske = crate::budget::into_text(main.to_vec(), self.name)?;
        let beside: Vec<String> = file_name_of(self.name)
            .strip_suffix("_ske.json")
            .map(|stem| format!("{stem}_tex.json"))
            .into_iter()
            .collect();
        let tex = match self.companion(&o.atlas, &beside)? {
            Some(f) => {
                let text = crate::budget::into_text(f.bytes, &f.file)?;
                Some((text, f.name, f.file))
            }
            None => None,
        };
        let db = crate::dragonbones::parse_dragonbones_with(
            &ske,
            self.name,
            tex.as_ref().map(|(t, _, file)| (t.as_str(), file.as_str())),
            o.armature.as_deref(),
            &o.budgets,
        )?;
        let atlas = match tex {
            Some((text, name, file)) => {
                let folder = folder_of(&name);
                // The page size falls back to the image's own header.
                let size = |image: &str| {
                    let f = self.fetch(&format!("{folder}{image}"), true).ok()??;
                    super::image_size(&f.bytes)
                };
                let default = crate::dragonbones::tex::default_image(&name);
                let atlas = crate::dragonbones::tex::parse_tex_atlas_with(
                    &text, &file, &default, size, &o.budgets,
                )?;
                Some((atlas, name, file))
            }
            None => None,
        };
        let inputs = sinew::build::BuildInputs {
            exact_angles: true,
            ..Default::default()
        };
        // Child armatures, drawn inside their slots: built and bound to the same atlas.
        let regions = atlas.as_ref().map(|(a, _, _)| a.by_name());
        let children = crate::asset::build_children(
            &db,
            regions
                .as_ref()
                .map(|r| r as &dyn sinew::build::region::RegionSource),
        )
        .map_err(|e| match e {
            crate::asset::ChildBuildError::Build(_, error) => LoadError::Build {
                file: self.name.to_owned(),
                error,
            },
            crate::asset::ChildBuildError::Region(problem) => LoadError::MissingRegion {
                atlas: atlas.as_ref().map(|(_, _, file)| file.clone()),
                skeleton: self.name.to_owned(),
                problem: Box::new(problem),
            },
        })?;
        let mut asset = self.finish(&db.raw, &inputs, atlas, format)?;
        asset.dragonbones = Some(Box::new(db));
        asset.children = children;
        Ok(asset)
    }

    /// Builds `raw`, binds the atlas, adds extras and fetches the pages.
    fn finish(
        &self,
        raw: &sinew::RawRig,
        inputs: &sinew::build::BuildInputs<'_>,
        atlas: Option<(Atlas, String, String)>,
        format: Format,
    ) -> Result<Asset, LoadError> {
        let mut rig =
            sinew::build::build_rig_with(raw, inputs).map_err(|error| LoadError::Build {
                file: self.name.to_owned(),
                error,
            })?;
        if let Some((a, _, file)) = &atlas {
            sinew::build::region::bind_regions(&mut rig, &a.by_name()).map_err(|problem| {
                LoadError::MissingRegion {
                    atlas: Some(file.clone()),
                    skeleton: self.name.to_owned(),
                    problem: Box::new(problem),
                }
            })?;
        }
        let rig = Arc::new(rig);
        let (jiggle, follow, cages, shapes, deformers) = self.extras(&rig)?;
        #[cfg(not(feature = "rig-deformers"))]
        let () = deformers;
        let pages = match &atlas {
            Some((a, name, file)) if self.options.textures => self.pages(a, name, file)?,
            _ => Vec::new(),
        };
        let (atlas, atlas_name) = match atlas {
            Some((a, _, file)) => (Some(a), Some(file)),
            None => (None, None),
        };
        Ok(Asset {
            rig,
            atlas,
            atlas_name,
            pages,
            jiggle,
            follow,
            cages,
            shapes,
            #[cfg(feature = "rig-deformers")]
            deformers,
            // DragonBones data is y down; the draw list flips it to y up.
            draw: Arc::new(DrawSetup {
                y_down: format == Format::DragonBones,
                ..DrawSetup::default()
            }),
            param_animations: Arc::from(Vec::new()),
            puppet: None,
            dragonbones: None,
            children: Vec::new(),
            format,
            budgets: self.options.budgets,
        })
    }

    /// An Inochi2D puppet with its physics3 chains and extras.
    pub fn puppet(&self, main: &[u8]) -> Result<Asset, LoadError> {
        let o = self.options;
        let format = Format::Inochi2D;
        self.not_for("atlas", matches!(o.atlas, Companion::Named(_)), format)?;
        self.not_for("armature", o.armature.is_some(), format)?;
        let mut p = crate::inochi2d::parse_inochi2d_with(main, self.name, &o.budgets)?;
        let beside = [format!("{}.physics3.json", self.stem())];
        let rig = match self.companion(&o.physics3, &beside)? {
            Some(f) => {
                let text = crate::budget::into_text(f.bytes, &f.file)?;
                let chains = crate::physics3::parse_physics3_with(&text, &f.file, &o.budgets)?;
                // The puppet alone first, so that what the chains get wrong (a parameter the
                // puppet lacks, a bad value) is blamed on the physics3 file, with its JSON path.
                let alone = crate::inochi2d::build_puppet(&p)?;
                crate::asset::check_chains(&chains, &alone, &f.file)?;
                p.params.chains = chains;
                crate::inochi2d::build_puppet(&p)?
            }
            None => crate::inochi2d::build_puppet(&p)?,
        };
        if o.textures {
            let mut total = 0.0;
            for (i, t) in p.textures.iter().enumerate() {
                self.texture_budget(&mut total, &t.bytes, format!("{}: texture {i}", self.name))
                    .map_err(|error| LoadError::Budget {
                        file: self.name.to_owned(),
                        error,
                    })?;
            }
        }
        let draw = crate::asset::puppet_draw_setup(&p, &rig);
        let rig = Arc::new(rig);
        let (jiggle, follow, cages, shapes, deformers) = self.extras(&rig)?;
        #[cfg(not(feature = "rig-deformers"))]
        let () = deformers;
        Ok(Asset {
            param_animations: Arc::from(p.animations.clone()),
            rig,
            atlas: None,
            atlas_name: None,
            pages: Vec::new(),
            jiggle,
            follow,
            cages,
            shapes,
            #[cfg(feature = "rig-deformers")]
            deformers,
            draw: Arc::new(draw),
            puppet: Some(Box::new(p)),
            dragonbones: None,
            children: Vec::new(),
            format,
            budgets: o.budgets,
        })
    }

    /// The jiggle bones, follows, cages and example shapes of [`LoadOptions::extras`] for `rig`.
    fn extras(&self, rig: &Arc<Rig>) -> Result<crate::asset::Extras, LoadError> {
        let beside = [format!("{}.extras.json", self.stem())];
        let Some(f) = self.companion(&self.options.extras, &beside)? else {
            return Ok((None, None, None, None, Default::default()));
        };
        let text = crate::budget::into_text(f.bytes, &f.file)?;
        let extras = crate::extras::parse_extras_with(&text, &f.file, &self.options.budgets)?;
        let rig_error = |message: String| LoadError::Rig {
            file: f.file.clone(),
            message,
        };
        let jr = JiggleRig::build(rig, &extras.jiggle).map_err(|e| rig_error(e.to_string()))?;
        let follow = if extras.follow.is_empty() {
            None
        } else {
            let fr = FollowRig::build(rig, &extras.follow).map_err(|e| rig_error(e.to_string()))?;
            Some(Arc::new(fr))
        };
        let cages = crate::extras::build_cages(rig, &extras.cages, &f.file)?;
        let shapes = crate::extras::build_shapes(rig, &extras.shapes, &f.file)?;
        #[cfg(feature = "rig-deformers")]
        let deformers = crate::extras::build_deformers(rig, &extras.deformers, &f.file)?;
        #[cfg(not(feature = "rig-deformers"))]
        let deformers = ();
        Ok((Some(Arc::new(jr)), follow, cages, shapes, deformers))
    }

    /// Every page image of `atlas` (named `name`, errors say `file`), fetched relative to
    /// the atlas's folder, their declared sizes together within `texture_bytes` (checked
    /// from the headers, before anything decodes them).
    fn pages(&self, atlas: &Atlas, name: &str, file: &str) -> Result<Vec<PageImage>, LoadError> {
        let folder = folder_of(name);
        let mut total = 0.0;
        let mut out = Vec::with_capacity(atlas.pages.len().min(64));
        for page in &atlas.pages {
            let page_name = format!("{folder}{}", page.name);
            let Some(f) = self.fetch(&page_name, true)? else {
                return Err(LoadError::MissingPage {
                    file: self.companions.describe(&page_name),
                    atlas: file.to_owned(),
                    pages: atlas.pages.iter().map(|p| p.name.clone()).collect(),
                });
            };
            let what = format!("page {} of atlas {file}", page.name);
            self.texture_budget(&mut total, &f.bytes, what)
                .map_err(|error| LoadError::Budget {
                    file: f.file.clone(),
                    error,
                })?;
            out.push(PageImage {
                name: page.name.clone(),
                file: f.file,
                bytes: f.bytes,
            });
        }
        Ok(out)
    }

    /// Adds an encoded image's declared RGBA8 size to `total` and checks it against the
    /// `texture_bytes` budget (an image whose header says nothing counts when decoded).
    fn texture_budget(
        &self,
        total: &mut f64,
        bytes: &[u8],
        what: String,
    ) -> Result<(), crate::budget::BudgetError> {
        let Some((w, h)) = super::image_size(bytes) else {
            return Ok(());
        };
        *total += f64::from(w) * f64::from(h) * 4.0;
        let what = format!("{what} ({w}x{h}, with the textures before it)");
        self.options.budgets.check("texture_bytes", *total, what)
    }
}
