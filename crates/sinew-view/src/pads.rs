//! Parameter controls: a slider for a 1D parameter, an XY pad (drag a point in a square,
//! x to the right, y up, as Inochi Creator shows 2D parameters) with two sliders under it
//! for exact values for a 2D one.

use eframe::egui;

/// Side of the XY pad, points.
const PAD: f32 = 120.0;

/// A value of `min..=max` (`min < max`) mapped to `0..=1`; 0.5 for an empty range.
pub(crate) fn to_unit(v: f64, min: f64, max: f64) -> f64 {
    if max > min {
        ((v - min) / (max - min)).clamp(0.0, 1.0)
    } else {
        0.5
    }
}

/// `0..=1` back to `min..=max`.
pub(crate) fn from_unit(t: f64, min: f64, max: f64) -> f64 {
    if max > min {
        min + t.clamp(0.0, 1.0) * (max - min)
    } else {
        min
    }
}

/// A parameter's controls; `true` when the user changed `value`.
pub(crate) fn param_control(
    ui: &mut egui::Ui,
    name: &str,
    is_2d: bool,
    min: [f64; 2],
    max: [f64; 2],
    value: &mut [f64; 2],
) -> bool {
    if !is_2d {
        return ui
            .add(egui::Slider::new(&mut value[0], min[0]..=max[0]).text(name))
            .changed();
    }
    ui.label(name);
    let mut changed = xy_pad(ui, min, max, value);
    changed |= ui
        .add(egui::Slider::new(&mut value[0], min[0]..=max[0]).text("x"))
        .changed();
    changed |= ui
        .add(egui::Slider::new(&mut value[1], min[1]..=max[1]).text("y"))
        .changed();
    changed
}

/// The XY pad: a square with cross-hairs at the rest centre and a handle at `value`;
/// clicking or dragging moves the handle there. `true` when `value` changed.
fn xy_pad(ui: &mut egui::Ui, min: [f64; 2], max: [f64; 2], value: &mut [f64; 2]) -> bool {
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(PAD, PAD), egui::Sense::click_and_drag());
    let mut changed = false;
    if let Some(p) = response.interact_pointer_pos()
        && (response.dragged() || response.clicked())
    {
        let tx = f64::from((p.x - rect.min.x) / rect.width());
        let ty = f64::from((rect.max.y - p.y) / rect.height());
        let next = [from_unit(tx, min[0], max[0]), from_unit(ty, min[1], max[1])];
        changed = next != *value;
        *value = next;
    }
    let visuals = ui.style().interact(&response);
    let painter = ui.painter();
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    painter.rect_stroke(rect, 2.0, visuals.bg_stroke, egui::StrokeKind::Inside);
    let faint = egui::Stroke::new(1.0, ui.visuals().weak_text_color());
    painter.line_segment([rect.center_top(), rect.center_bottom()], faint);
    painter.line_segment([rect.left_center(), rect.right_center()], faint);
    let at = egui::pos2(
        rect.min.x + to_unit(value[0], min[0], max[0]) as f32 * rect.width(),
        rect.max.y - to_unit(value[1], min[1], max[1]) as f32 * rect.height(),
    );
    painter.circle_filled(at, 5.0, visuals.fg_stroke.color);
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_mapping_round_trips_and_clamps() {
        assert_eq!(to_unit(0.0, -1.0, 1.0), 0.5);
        assert_eq!(from_unit(0.5, -1.0, 1.0), 0.0);
        assert_eq!(to_unit(5.0, -1.0, 1.0), 1.0);
        assert_eq!(from_unit(-0.2, 0.0, 10.0), 0.0);
        assert_eq!(to_unit(3.0, 2.0, 2.0), 0.5);
        assert_eq!(from_unit(0.7, 2.0, 2.0), 2.0);
        for v in [-1.0, -0.25, 0.0, 0.6, 1.0] {
            assert!((from_unit(to_unit(v, -1.0, 1.0), -1.0, 1.0) - v).abs() < 1e-12);
        }
    }
}
