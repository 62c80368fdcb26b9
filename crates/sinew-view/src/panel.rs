//! The side panel: playback, animations, the second track, skins, parameters (sliders and
//! XY pads), cages, physics / jiggle / follow, overlays, zoom and fit, background and the
//! screenshot button.

use crate::app::App;
use crate::model::Loaded;
use crate::{cage_bind, camera, pads};
use eframe::egui;

impl App {
    pub(crate) fn side_panel(&mut self, ui: &mut egui::Ui) {
        let Some(mut l) = self.loaded.take() else {
            ui.label("Drop a file here (Spine .json/.skel, Inochi2D .inp/.inx, DragonBones).");
            return;
        };
        ui.label(
            l.path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
        if let Some(note) = &l.extras_note {
            ui.small(note.as_str());
        }
        if let Some(why) = &l.empty {
            ui.colored_label(egui::Color32::from_rgb(255, 190, 90), why.as_str());
        }
        let mut restart = false;
        ui.separator();
        ui.horizontal(|ui| {
            if ui
                .button(if self.playing { "Pause" } else { "Play" })
                .clicked()
            {
                self.playing = !self.playing;
            }
            restart |= ui
                .checkbox(&mut self.play.looping, "loop")
                .on_hover_text("DragonBones clips: their own playTimes; off: once")
                .changed();
            let db = self
                .play
                .anim
                .as_deref()
                .is_some_and(|a| l.is_dragonbones_clip(a));
            restart |= ui
                .add_enabled(
                    db,
                    egui::Checkbox::new(&mut self.play.backwards, "backwards"),
                )
                .on_hover_text("DragonBones clips: play backwards (the runtime's timeScale -1)")
                .changed();
        });
        ui.add(egui::Slider::new(&mut self.speed, 0.0..=3.0).text("speed"));
        // The scrub slider spans the current clip; a looping clip shows where in the loop
        // playback is.
        let duration = l.duration(self.play.anim.as_deref());
        let mut at = if self.play.looping && duration > 0.0 {
            self.play.time % duration
        } else {
            self.play.time.min(duration)
        };
        if ui
            .add_enabled(
                duration > 0.0,
                // Fixed decimals: a changing width would resize the panel and the canvas.
                egui::Slider::new(&mut at, 0.0..=duration.max(f64::MIN_POSITIVE))
                    .fixed_decimals(2)
                    .text("time (scrub)"),
            )
            .changed()
        {
            self.play.time = at;
            restart = true;
        }
        egui::CollapsingHeader::new("Animations")
            .default_open(true)
            .show(ui, |ui| {
                if ui
                    .selectable_label(self.play.anim.is_none(), "(none)")
                    .clicked()
                {
                    self.play.anim = None;
                    self.play.time = 0.0;
                    restart = true;
                }
                for c in &l.clips {
                    if ui
                        .selectable_label(self.play.anim.as_ref() == Some(c), c)
                        .clicked()
                    {
                        self.play.anim = Some(c.clone());
                        self.play.time = 0.0;
                        restart = true;
                    }
                }
            });
        let mut start2 = None;
        egui::CollapsingHeader::new("Track 2 (crossfade)").show(ui, |ui| {
            restart |= ui
                .add(egui::Slider::new(&mut self.play.mix, 0.0..=2.0).text("mix s"))
                .changed();
            if ui
                .selectable_label(self.play.anim2.is_none(), "(none)")
                .clicked()
            {
                self.play.anim2 = None;
                restart = true;
            }
            for c in &l.clips {
                if ui
                    .selectable_label(self.play.anim2.as_ref() == Some(c), c)
                    .clicked()
                {
                    self.play.anim2 = Some(c.clone());
                    start2 = Some(c.clone());
                }
            }
        });
        if let Some(c) = start2 {
            l.start(1, &c, self.play.looping, self.play.backwards);
        }
        if !l.skins.is_empty() {
            egui::CollapsingHeader::new("Skins").show(ui, |ui| {
                let mut changed = false;
                for (name, on) in &mut l.skins {
                    changed |= ui.checkbox(on, name.as_str()).changed();
                }
                if changed {
                    let names: Vec<&str> = l
                        .skins
                        .iter()
                        .filter(|s| s.1)
                        .map(|s| s.0.as_str())
                        .collect();
                    let _ = l.character.set_skins(&names);
                    // Slots show their setup attachments from the skins now shown (the
                    // animation's attachment keys apply on top, next update).
                    l.character.set_slots_to_setup_pose();
                    l.empty = None;
                }
            });
        }
        if !l.params.is_empty() {
            egui::CollapsingHeader::new("Parameters")
                .default_open(true)
                .show(ui, |ui| {
                    // A parameter the user moves is held against the animation's lane for
                    // it until released (the animation plays the others).
                    let mut held = None;
                    let mut released = None;
                    for (name, is_2d, min, max, value) in &mut l.params {
                        if pads::param_control(ui, name, *is_2d, *min, *max, value) {
                            held = Some((name.clone(), *value));
                        }
                        if l.held.contains(name)
                            && ui
                                .small_button("release")
                                .on_hover_text("give this parameter back to the animation")
                                .clicked()
                        {
                            released = Some(name.clone());
                        }
                    }
                    // Holding or releasing replays the clip to the current time: bring the
                    // time into one loop first, as every restart does.
                    if let Some((name, value)) = held {
                        l.wrap_time(&mut self.play);
                        l.hold_param(&name, value, &self.play);
                    }
                    if let Some(name) = released {
                        l.wrap_time(&mut self.play);
                        l.release_param(&name, &self.play);
                    }
                });
        }
        if !l.mesh_slots.is_empty() {
            egui::CollapsingHeader::new("Cages").show(ui, |ui| {
                ui.label("boundary cage on the mesh of:");
                let mut changed = false;
                for slot in &l.mesh_slots {
                    let mut on = l.caged.contains(slot);
                    if ui.checkbox(&mut on, slot.as_str()).changed() {
                        changed = true;
                        l.caged.retain(|s| s != slot);
                        if on {
                            l.caged.push(slot.clone());
                        }
                    }
                }
                if changed {
                    rebind_cages(&mut l);
                }
            });
        }
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            let c = &mut l.character;
            if ui
                .checkbox(&mut self.physics, "physics")
                .on_hover_text("Spine physics constraints and puppet parameter physics")
                .changed()
            {
                c.set_physics(if self.physics {
                    sinew::Physics::Update
                } else {
                    sinew::Physics::None
                });
                c.set_param_physics(self.physics);
            }
            // Each switch re-attaches only its own part (attaching starts it from rest).
            if l.asset.jiggle.is_some() && ui.checkbox(&mut self.jiggle, "jiggle").changed() {
                let _ = c.set_jiggle(l.asset.jiggle.clone().filter(|_| self.jiggle));
            }
            if l.asset.follow.is_some() && ui.checkbox(&mut self.follow, "follow").changed() {
                let _ = c.set_follows(l.asset.follow.clone().filter(|_| self.follow));
            }
            if ui.button("reset").clicked() {
                l.wrap_time(&mut self.play);
                self.reset_physics(&mut l);
            }
        });
        ui.label("overlays");
        self.overlays.checkboxes(ui);
        ui.horizontal(|ui| {
            ui.add(
                egui::Slider::new(&mut self.camera.zoom, camera::ZOOM_RANGE)
                    .logarithmic(true)
                    .fixed_decimals(2)
                    .text("zoom"),
            );
            if ui
                .button("fit")
                .on_hover_text("fit the character to the canvas (or double-click it)")
                .clicked()
            {
                self.camera.fit();
                l.view = None;
            }
        });
        ui.horizontal(|ui| {
            ui.label("background");
            ui.color_edit_button_srgba(&mut self.background);
        });
        ui.horizontal(|ui| {
            if ui
                .button("screenshot")
                .on_hover_text(
                    "save the window as sinew-view-NNN.png in the current directory (F12)",
                )
                .clicked()
            {
                self.shots.requested = true;
            }
        });
        if let Some(m) = self.shots.message() {
            ui.small(m);
        }
        if restart {
            l.wrap_time(&mut self.play);
            l.restart(&self.play);
        }
        self.loaded = Some(l);
    }
}

/// Binds the boundary cages of `l.caged` again from the current pose, their handles dragged
/// as they were (a cage that no longer binds, e.g. its slot now shows another attachment, is
/// dropped from the list).
pub(crate) fn rebind_cages(l: &mut Loaded) {
    // Clearing takes the file's cages too: they come back first, as a fresh character has
    // them.
    l.character.clear_cages();
    let _ = l.character.set_cage_rig(l.asset.cages.clone());
    l.character.update(0.0);
    let slots = std::mem::take(&mut l.caged);
    let edits = std::mem::take(&mut l.cage_edits);
    for slot in slots {
        let offsets = edits
            .iter()
            .find(|e| e.slot == slot)
            .map(|e| e.offsets.as_slice());
        if let Ok(e) = cage_bind::bind_boundary_cage(&mut l.character, &slot, offsets) {
            l.caged.push(slot);
            l.cage_edits.push(e);
        }
    }
}
