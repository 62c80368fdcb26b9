//! The rig editor's panel (right side, shown when the file has rig extras or a cage): a
//! slider per parameter of each jiggle chain (those its model reads, `tune::fields`), live
//! (the character is replayed to the current time with the new value), "save extras"
//! (the tuned extras through the extras writer) and the dragged cages with a reset each.
//! Every slider and button is named for scripted input (`script`).

use crate::app::App;
use crate::model::Loaded;
use crate::tune;
use eframe::egui;

/// The save button's script target.
pub(crate) const SAVE_TARGET: &str = "button:save-extras";

impl App {
    /// Whether `l` has something for the rig panel.
    pub(crate) fn has_rig_panel(l: &Loaded) -> bool {
        l.tuning.is_some() || !l.cage_edits.is_empty()
    }

    pub(crate) fn rig_panel(&mut self, ui: &mut egui::Ui) {
        let Some(mut l) = self.loaded.take() else {
            return;
        };
        let mut retune = false;
        let mut reset_cage = None;
        if let Some(t) = l.tuning.as_mut() {
            ui.heading("Jiggle");
            // Save first: always in view, however long the chains' list.
            ui.horizontal(|ui| {
                let label = if t.dirty {
                    "save extras *"
                } else {
                    "save extras"
                };
                let r = ui
                    .button(label)
                    .on_hover_text(format!("write the tuned extras to {}", t.save_to.display()));
                target(&mut self.targets, ui, SAVE_TARGET.to_owned(), r.rect);
                if r.clicked() {
                    // The dragged cages go in as keys of the playing animation.
                    let anim = self.play.anim.as_deref();
                    t.set_cages(l.cage_edits.iter().map(|e| e.desc(anim)).collect());
                    let saved = t.save().is_ok();
                    if saved && anim.is_none() && l.cage_edits.iter().any(|e| e.dragged()) {
                        t.message = t.message.take().map(|m| {
                            format!("{m} (cage drags not saved: a file keys them per animation, and none plays)")
                        });
                    }
                    if let Some(m) = &t.message {
                        eprintln!("sinew view: {m}");
                    }
                }
            });
            if let Some(m) = &t.message {
                ui.small(m);
            }
            for k in 0..t.extras.jiggle.chains.len() {
                let (name, params) = {
                    let c = &t.extras.jiggle.chains[k];
                    (c.name.clone(), c.params)
                };
                egui::CollapsingHeader::new(format!("chain {name}"))
                    .id_salt(("chain", k))
                    .default_open(true)
                    .show(ui, |ui| {
                        egui::Grid::new(("chain-grid", k)).show(ui, |ui| {
                            for f in tune::fields(params.model) {
                                let mut v = (f.get)(&params);
                                ui.label(f.key);
                                let r = ui.add(
                                    egui::Slider::new(&mut v, f.min..=f.max)
                                        .logarithmic(f.log)
                                        .show_value(false),
                                );
                                let n = format!("slider:{name}.{}", f.key);
                                target(&mut self.targets, ui, n, r.rect);
                                let d = ui.add(egui::DragValue::new(&mut v).speed(
                                    (f.max - f.min) * 1e-3 * if f.log { 0.01 } else { 1.0 },
                                ));
                                if (r.changed() || d.changed()) && t.set(k, f, v) {
                                    retune = true;
                                    eprintln!("sinew view: jiggle {name}.{} = {v}", f.key);
                                }
                                ui.end_row();
                            }
                        });
                    });
            }
        }
        if !l.cage_edits.is_empty() {
            ui.separator();
            ui.heading("Cages");
            ui.small("drag a cage point on the canvas");
            // A Spine skeleton without an extras file: the dragged cages start one.
            let spine = matches!(
                l.asset.format,
                sinew_formats::Format::SpineJson | sinew_formats::Format::SpineSkel
            );
            if l.tuning.is_none() && spine {
                let to = self.options.save_extras.clone().unwrap_or_else(|| {
                    let stem = l.path.file_stem().map(|s| s.to_string_lossy().into_owned());
                    l.path
                        .with_file_name(format!("{}.extras.json", stem.unwrap_or_default()))
                });
                let r = ui
                    .button("save extras")
                    .on_hover_text(format!("write the cages to a new {}", to.display()));
                target(&mut self.targets, ui, SAVE_TARGET.to_owned(), r.rect);
                if r.clicked() {
                    let mut t = tune::Tuning::new(&to);
                    let anim = self.play.anim.as_deref();
                    t.set_cages(l.cage_edits.iter().map(|e| e.desc(anim)).collect());
                    let _ = t.save();
                    if let Some(m) = &t.message {
                        eprintln!("sinew view: {m}");
                    }
                    l.tuning = Some(t);
                }
            }
            for (k, e) in l.cage_edits.iter().enumerate() {
                ui.horizontal(|ui| {
                    ui.label(format!("{k}: {}", e.slot));
                    if ui
                        .add_enabled(e.dragged(), egui::Button::new("reset"))
                        .clicked()
                    {
                        reset_cage = Some(k);
                    }
                });
            }
        }
        if let Some(k) = reset_cage
            && let Some(e) = l.cage_edits.get_mut(k)
        {
            e.offsets.iter_mut().for_each(|o| *o = 0.0);
            e.apply(&mut l.character);
        }
        if retune {
            self.retune(&mut l);
        }
        self.loaded = Some(l);
    }

    /// Gives `l` the jiggle of its tuned extras: a fresh character replayed to the current
    /// time (a value the rig refuses is said in the panel and changes nothing).
    fn retune(&mut self, l: &mut Loaded) {
        let Some(t) = l.tuning.as_mut() else {
            return;
        };
        match t.build(l.character.rig()) {
            Ok(j) => {
                l.asset.jiggle = Some(j);
                l.wrap_time(&mut self.play);
                self.fresh_character(l);
            }
            Err(e) => t.message = Some(format!("not applied: {e}")),
        }
    }
}

/// Names `rect` for scripted input when it is wholly in view (a widget scrolled away cannot
/// be pressed; the script then fails naming what is in view).
fn target(
    targets: &mut std::collections::BTreeMap<String, egui::Rect>,
    ui: &egui::Ui,
    name: String,
    rect: egui::Rect,
) {
    if ui.clip_rect().contains_rect(rect) {
        targets.insert(name, rect);
    }
}
