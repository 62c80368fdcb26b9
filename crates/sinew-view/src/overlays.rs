//! The overlays drawn over the character as egui shapes: bones, the draw list's bounds and
//! the rig's bounding-box attachments, mesh wireframes, clipping polygons, bound cages and
//! warp deformers' lattices.
//!
//! Everything comes from the public facade: bones from [`Character::instance`]'s world
//! transforms, wireframes and clip polygons from the [`DrawList`] (y up), bounding boxes
//! from [`Character::hit_bounds`], cages from [`Character::cage_world`] and lattices from
//! [`Character::deformer_lattice`] (all in world units, flipped like the bones for y-down
//! rigs). Each overlay has its own colour, so the
//! viewer tests (`crates/sinew-cli/tests/all/view.rs`) can tell them apart on a screenshot.

use eframe::egui;
use sinew::Character;
use sinew::draw::DrawList;
use sinew::rig::world_deformers::WorldDeformerKind;
use sinew_render::View;

use crate::cage_bind::CageEdit;

/// Bones: the line from origin to tip.
pub const BONE_COLOR: egui::Color32 = egui::Color32::from_rgb(90, 200, 255);
/// The draw list's bounds and the bounding-box attachments.
pub const BOUNDS_COLOR: egui::Color32 = egui::Color32::from_rgb(0, 255, 0);
/// Mesh wireframe: every triangle edge of every draw command.
pub const WIREFRAME_COLOR: egui::Color32 = egui::Color32::from_rgb(235, 235, 235);
/// Clipping polygons.
pub const CLIP_COLOR: egui::Color32 = egui::Color32::from_rgb(255, 150, 0);
/// Cage loops and vertices.
pub const CAGE_COLOR: egui::Color32 = egui::Color32::from_rgb(160, 90, 255);
/// Warp deformer lattices: grid lines and points.
pub const LATTICE_COLOR: egui::Color32 = egui::Color32::from_rgb(255, 60, 160);

/// Which overlays are shown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Overlays {
    /// Bones (origin dot and a line along the bone's x axis).
    pub bones: bool,
    /// The draw list's bounding rectangle and the bounding-box attachments shown.
    pub bounds: bool,
    /// Triangle edges of every drawn region and mesh.
    pub wireframe: bool,
    /// Clipping polygons of the draw list.
    pub clipping: bool,
    /// Cages bound to the character (their loops and vertices).
    pub cages: bool,
    /// The lattices of the rig extras' warp deformers, as posed this frame.
    pub lattices: bool,
}

impl Overlays {
    /// The overlay names `--overlay` takes, in panel order.
    pub const NAMES: [&'static str; 6] = [
        "bones",
        "bounds",
        "wireframe",
        "clipping",
        "cages",
        "lattices",
    ];

    /// Turns on the overlay called `name` (one of [`Overlays::NAMES`]); an error naming
    /// them for anything else.
    ///
    /// ```
    /// let mut o = sinew_view::Overlays::default();
    /// o.enable("wireframe").expect("a known overlay");
    /// assert!(o.wireframe && !o.bones);
    /// assert!(o.enable("grid").is_err());
    /// ```
    pub fn enable(&mut self, name: &str) -> Result<(), String> {
        match self.flag(name) {
            Some(f) => {
                *f = true;
                Ok(())
            }
            None => Err(format!(
                "unknown overlay `{name}` (have: {})",
                Self::NAMES.join(", ")
            )),
        }
    }

    fn flag(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "bones" => &mut self.bones,
            "bounds" => &mut self.bounds,
            "wireframe" => &mut self.wireframe,
            "clipping" => &mut self.clipping,
            "cages" => &mut self.cages,
            "lattices" => &mut self.lattices,
            _ => return None,
        })
    }

    /// One checkbox per overlay.
    pub(crate) fn checkboxes(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            for name in Self::NAMES {
                if let Some(f) = self.flag(name) {
                    ui.checkbox(f, name);
                }
            }
        });
    }
}

/// World (y up) to screen points over `rect` showing `view`.
#[derive(Clone, Copy)]
pub(crate) struct ToScreen {
    pub rect: egui::Rect,
    pub view: View,
}

impl ToScreen {
    pub(crate) fn at(&self, x: f64, y: f64) -> egui::Pos2 {
        let (v, r) = (&self.view, &self.rect);
        egui::pos2(
            r.min.x + ((x - v.x0) / (v.x1 - v.x0)) as f32 * r.width(),
            r.min.y + ((v.y1 - y) / (v.y1 - v.y0)) as f32 * r.height(),
        )
    }

    fn at_f32(&self, p: &[f32]) -> egui::Pos2 {
        self.at(f64::from(p[0]), f64::from(p[1]))
    }
}

/// Paints the overlays that are on. `y_sign` flips world y (the rig's frame) to the draw
/// list's y up: -1 for y-down rigs.
pub(crate) fn paint(
    painter: &egui::Painter,
    on: Overlays,
    to: ToScreen,
    character: &mut Character,
    list: &DrawList,
    y_sign: f64,
    edits: &[CageEdit],
) {
    if on.wireframe {
        wireframe(painter, to, list);
    }
    if on.clipping {
        let stroke = egui::Stroke::new(2.0, CLIP_COLOR);
        for c in 0..list.clips.len() as u32 {
            let pts: Vec<egui::Pos2> = list
                .clip_polygon(c)
                .chunks_exact(2)
                .map(|p| to.at_f32(p))
                .collect();
            if pts.len() >= 2 {
                painter.add(egui::Shape::closed_line(pts, stroke));
            }
        }
    }
    if on.cages {
        cages(painter, to, character, y_sign, edits);
    }
    if on.lattices {
        lattices(painter, to, character, y_sign);
    }
    if on.bones {
        let rig = character.rig().clone();
        let stroke = egui::Stroke::new(1.5, BONE_COLOR);
        for (b, w) in rig.bones.iter().zip(&character.instance().world) {
            let (x, y) = (w.x, w.y * y_sign);
            let len = b.length.max(4.0);
            let (ex, ey) = (x + w.a * len, y + w.c * len * y_sign);
            painter.line_segment([to.at(x, y), to.at(ex, ey)], stroke);
            painter.circle_filled(to.at(x, y), 2.5, egui::Color32::YELLOW);
        }
    }
    if on.bounds {
        let stroke = egui::Stroke::new(1.0, BOUNDS_COLOR);
        if let Some(b) = list.bounds() {
            let r = egui::Rect::from_two_pos(
                to.at(f64::from(b[0]), f64::from(b[1])),
                to.at(f64::from(b[2]), f64::from(b[3])),
            );
            painter.rect_stroke(r, 0.0, stroke, egui::StrokeKind::Middle);
        }
        for (_, poly) in character.hit_bounds().polygons() {
            let pts: Vec<egui::Pos2> = poly
                .chunks_exact(2)
                .map(|p| to.at(f64::from(p[0]), f64::from(p[1]) * y_sign))
                .collect();
            if pts.len() >= 2 {
                painter.add(egui::Shape::closed_line(pts, stroke));
            }
        }
    }
}

/// Every triangle edge of every command (shared edges drawn twice, which egui blends to
/// the same opaque line).
fn wireframe(painter: &egui::Painter, to: ToScreen, list: &DrawList) {
    let stroke = egui::Stroke::new(1.0, WIREFRAME_COLOR);
    for cmd in &list.commands {
        let pos = list.command_positions(cmd);
        let vertex = |i: u16| {
            pos.get(2 * i as usize..2 * i as usize + 2)
                .map(|p| to.at_f32(p))
        };
        for t in list.command_indices(cmd).chunks_exact(3) {
            let (Some(a), Some(b), Some(c)) = (vertex(t[0]), vertex(t[1]), vertex(t[2])) else {
                continue;
            };
            painter.add(egui::Shape::closed_line(vec![a, b, c], stroke));
        }
    }
}

/// Each warp deformer's lattice as posed: its rows and columns as lines, its points as dots.
fn lattices(painter: &egui::Painter, to: ToScreen, character: &Character, y_sign: f64) {
    let Some(rig) = character.deformer_rig() else {
        return;
    };
    let stroke = egui::Stroke::new(1.5, LATTICE_COLOR);
    for (k, d) in rig.deformers().deformers.iter().enumerate() {
        let WorldDeformerKind::Warp { cols, rows, .. } = d.kind else {
            continue;
        };
        let Some(points) = character.deformer_lattice(k) else {
            continue;
        };
        let (nx, ny) = (usize::from(cols) + 1, usize::from(rows) + 1);
        let at = |i: usize, j: usize| {
            let p = 2 * (j * nx + i);
            to.at(points[p], points[p + 1] * y_sign)
        };
        if points.len() != 2 * nx * ny {
            continue;
        }
        for j in 0..ny {
            painter.add(egui::Shape::line(
                (0..nx).map(|i| at(i, j)).collect(),
                stroke,
            ));
        }
        for i in 0..nx {
            painter.add(egui::Shape::line(
                (0..ny).map(|j| at(i, j)).collect(),
                stroke,
            ));
        }
        for j in 0..ny {
            for i in 0..nx {
                painter.circle_filled(at(i, j), 3.0, LATTICE_COLOR);
            }
        }
    }
}

/// Each posed cage: its loops as closed lines and its vertices as dots. A viewer's boundary
/// cage is drawn with its handles' offsets (where its points are dragged to; the dots are
/// the handles), its handle cage not on its own.
fn cages(
    painter: &egui::Painter,
    to: ToScreen,
    character: &Character,
    y_sign: f64,
    edits: &[CageEdit],
) {
    let stroke = egui::Stroke::new(2.0, CAGE_COLOR);
    for k in 0..character.cage_count() {
        if edits.iter().any(|e| e.handles == k) {
            continue;
        }
        let Some((_, posed, loop_ends)) = character.cage_world(k) else {
            continue;
        };
        let dragged;
        let points = match edits.iter().find(|e| e.boundary == k) {
            Some(e) => {
                dragged = posed
                    .iter()
                    .zip(&e.offsets)
                    .map(|(p, o)| p + o)
                    .collect::<Vec<f32>>();
                &dragged[..]
            }
            None => posed,
        };
        let mut start = 0usize;
        for &end in loop_ends {
            let end = end as usize;
            let Some(lp) = points.get(2 * start..2 * end) else {
                break;
            };
            let pts: Vec<egui::Pos2> = lp
                .chunks_exact(2)
                .map(|p| to.at(f64::from(p[0]), f64::from(p[1]) * y_sign))
                .collect();
            for p in &pts {
                painter.circle_filled(*p, 3.0, CAGE_COLOR);
            }
            if pts.len() >= 2 {
                painter.add(egui::Shape::closed_line(pts, stroke));
            }
            start = end;
        }
    }
}
