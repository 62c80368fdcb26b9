//! Spine 4.3 slider constraints: in the update order, a slider applies its clip onto the
//! applied pose at its time with its mix, mixing from the current applied values (or adding
//! to them with `additive`); the time is the slider's own (keyed by slider timelines) or
//! read from a bone property (`time = to + (value - from) * scale`, wrapped past the
//! duration with `loop`, else at least 0). The plan poses the clip's bones again after the
//! slider (`instance::plan::sort_slider`).
//!
//! Facts from spine-core 4.3.13 `Slider.update` / `Slider.sort` and `Animation.apply` with
//! `MixFrom.current` (which is 4.2's `MixBlend.replace`; `add` is `MixBlend.add`) on the
//! applied pose. Verified by the own 4.3 goldens (`testdata/spine43/slider-lab.json`,
//! official 4.3.13 poses) in sinew-cli's `golden_spine43_own`.

use super::transform43::property_value;
use crate::anim::{MixBlend, MixDirection, apply_clip, clip_data};
use crate::ids::SliderId;
use crate::instance::Instance;
use crate::rig::Rig;

/// Runs one slider on one instance.
pub(crate) fn apply_slider(rig: &Rig, inst: &mut Instance, id: SliderId) {
    let k = id.index();
    let data = &rig.sliders[k];
    let mix = inst.sliders[k].mix;
    if mix == 0.0 {
        return;
    }
    if let Some(d) = data.driver {
        if !inst.bone_active[d.bone.index()] {
            return;
        }
        let scale = (inst.scale_x, inst.scale_y);
        let value = property_value(inst, d.bone.index(), d.local, d.property, &[0.0; 6], scale);
        let time = d.to + (value - d.from) * d.scale;
        inst.sliders[k].time = if data.looping {
            let duration = f64::from(clip_data(rig, data.clip).duration);
            // COMPAT(spine): as 4.3 writes it; `apply_clip` wraps it again.
            duration + time % duration
        } else {
            time.max(0.0)
        };
    }
    crate::instance::slider_pose::before_slider(inst);
    let time = inst.sliders[k].time;
    let blend = if data.additive {
        MixBlend::Add
    } else {
        MixBlend::Replace
    };
    // The clip's timelines write `pose`; the slider poses the applied pose, so the two
    // swap places around the call (no copy, no allocation).
    std::mem::swap(&mut inst.pose, &mut inst.applied);
    apply_clip(
        rig,
        inst,
        data.clip,
        time,
        time,
        data.looping,
        None,
        mix,
        blend,
        MixDirection::In,
    );
    std::mem::swap(&mut inst.pose, &mut inst.applied);
    crate::instance::slider_pose::after_slider(inst);
}
