//! The canvas camera: the fitted view (`Character::fit_view`, refitted when the canvas size
//! changes) zoomed and panned. Dragging pans (the world point under the pointer follows
//! it), the mouse wheel and the zoom slider zoom (the wheel about the cursor, the slider
//! about the centre) and "fit" goes back to the fitted view. With no input the view is the
//! fitted one exactly, so scripted screenshots stay deterministic.

use sinew_render::View;

/// The smallest and largest zoom (the slider's range too).
pub(crate) const ZOOM_RANGE: std::ops::RangeInclusive<f32> = 0.05..=20.0;

/// Zoom and pan over the fitted view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Camera {
    /// Magnification over the fitted view (1: fitted).
    pub(crate) zoom: f32,
    /// World offset of the view's centre from the fitted view's centre (y up).
    pub(crate) pan: [f64; 2],
}

impl Default for Camera {
    fn default() -> Self {
        Camera {
            zoom: 1.0,
            pan: [0.0, 0.0],
        }
    }
}

impl Camera {
    /// World units per canvas pixel for `base` fitted to a canvas `h` pixels high.
    fn scale(&self, base: &View, h: u32) -> f64 {
        (base.y1 - base.y0) / f64::from(h.max(1)) / f64::from(self.zoom)
    }

    /// The world view of a `w x h` pixel canvas: the fitted view's scale divided by the
    /// zoom, its centre moved by the pan, the canvas's aspect.
    pub(crate) fn view(&self, base: &View, w: u32, h: u32) -> View {
        let cx = (base.x0 + base.x1) / 2.0 + self.pan[0];
        let cy = (base.y0 + base.y1) / 2.0 + self.pan[1];
        let s = self.scale(base, h);
        let (hw, hh) = (f64::from(w) * s / 2.0, f64::from(h) * s / 2.0);
        View {
            x0: cx - hw,
            y0: cy - hh,
            x1: cx + hw,
            y1: cy + hh,
        }
    }

    /// Pans by a pointer drag of `delta` canvas pixels (x right, y down): what was under the
    /// pointer stays under it.
    pub(crate) fn drag(&mut self, base: &View, h: u32, delta: [f64; 2]) {
        let s = self.scale(base, h);
        self.pan[0] -= delta[0] * s;
        self.pan[1] += delta[1] * s;
    }

    /// Multiplies the zoom by `factor` (clamped to [`ZOOM_RANGE`]) keeping the world point
    /// at `at` (canvas pixels from its top-left corner) where it is on a `w x h` canvas.
    pub(crate) fn zoom_at(&mut self, base: &View, w: u32, h: u32, factor: f32, at: [f64; 2]) {
        if !(factor.is_finite() && factor > 0.0) {
            return;
        }
        let before = self.scale(base, h);
        self.zoom = (self.zoom * factor).clamp(*ZOOM_RANGE.start(), *ZOOM_RANGE.end());
        let after = self.scale(base, h);
        // The cursor's offset from the canvas centre, in pixels (y down).
        let (ox, oy) = (at[0] - f64::from(w) / 2.0, at[1] - f64::from(h) / 2.0);
        self.pan[0] += ox * (before - after);
        self.pan[1] -= oy * (before - after);
    }

    /// Back to the fitted view.
    pub(crate) fn fit(&mut self) {
        *self = Camera::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> View {
        View {
            x0: -100.0,
            y0: 0.0,
            x1: 100.0,
            y1: 300.0,
        }
    }

    /// The world point at canvas pixel `p` (y down) of `v` on a `w x h` canvas.
    fn world_at(v: &View, w: u32, h: u32, p: [f64; 2]) -> [f64; 2] {
        [
            v.x0 + p[0] / f64::from(w) * (v.x1 - v.x0),
            v.y1 - p[1] / f64::from(h) * (v.y1 - v.y0),
        ]
    }

    #[test]
    fn untouched_camera_shows_the_fitted_view() {
        let v = Camera::default().view(&base(), 200, 300);
        assert_eq!((v.x0, v.y0, v.x1, v.y1), (-100.0, 0.0, 100.0, 300.0));
    }

    #[test]
    fn wheel_zoom_keeps_the_point_under_the_cursor() {
        let (w, h) = (400, 300);
        let mut cam = Camera::default();
        for (factor, at) in [
            (1.5, [310.0, 40.0]),
            (0.5, [20.0, 280.0]),
            (3.0, [200.0, 150.0]),
        ] {
            let before = world_at(&cam.view(&base(), w, h), w, h, at);
            cam.zoom_at(&base(), w, h, factor, at);
            let after = world_at(&cam.view(&base(), w, h), w, h, at);
            assert!(
                (before[0] - after[0]).abs() < 1e-9 && (before[1] - after[1]).abs() < 1e-9,
                "{before:?} moved to {after:?}"
            );
        }
        assert!((cam.zoom - 2.25).abs() < 1e-6);
        cam.zoom_at(&base(), w, h, 1e6, [0.0, 0.0]);
        assert_eq!(cam.zoom, *ZOOM_RANGE.end());
        cam.zoom_at(&base(), w, h, f32::NAN, [0.0, 0.0]);
        assert_eq!(cam.zoom, *ZOOM_RANGE.end());
    }

    #[test]
    fn drag_moves_the_world_with_the_pointer_and_fit_resets() {
        let (w, h) = (400, 300);
        let mut cam = Camera {
            zoom: 2.0,
            pan: [0.0, 0.0],
        };
        let grabbed = world_at(&cam.view(&base(), w, h), w, h, [100.0, 100.0]);
        cam.drag(&base(), h, [30.0, -20.0]);
        let now = world_at(&cam.view(&base(), w, h), w, h, [130.0, 80.0]);
        assert!((grabbed[0] - now[0]).abs() < 1e-9 && (grabbed[1] - now[1]).abs() < 1e-9);
        cam.fit();
        assert_eq!(cam, Camera::default());
    }
}
