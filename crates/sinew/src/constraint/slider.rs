//! Spine 4.3 slider constraints: in the update order, a slider applies its clip onto the
//! applied pose at its time with its mix, mixing from the current applied values (or adding
//! to them with `additive`); the time is the slider's own (keyed by slider timelines) or
//! read from a bone property (`time = to + (value - from) * scale`, wrapped past the
//! duration with `loop`, else at least 0). The plan poses the clip's bones again after the
//! slider (`instance::plan::sort_slider`).
//!
//! Facts from spine-core 4.3.13 `Slider.update` / `Slider.sort` and `Animation.apply` with
//! `MixFrom.current` (sinew's `MixBlend::Replace`) on the applied pose, and `add` for an
//! additive slider: 4.3's `add`, the one an additive track entry uses (`dispatch::<true>`
//! in `anim::timeline`), not 4.2's `MixBlend::Add`. The two add bone values and deforms
//! alike but differ elsewhere: 4.3 adds the key value to the current one for path position,
//! transform and path mixes, physics wind and gravity, and slider time and mix, where 4.2's
//! add blend mixed those toward the key like a replace; IK values, path spacing, the other
//! physics values, colours, attachments, sequences and the draw order never add.
//! Exact: matched by the own 4.3 goldens (official 4.3.13 poses, sinew-cli's
//! `golden_spine43_own`, the usual golden tolerances): `testdata/spine43/slider-lab.json` and
//! `slider-add-lab.json` (additive sliders keying every kind above, time- and bone-driven,
//! loop on and off, mix below 1; each kind applied the 4.2 way moves that golden's pose,
//! `scripts/spine43/gen_slider_add.py --check-kinds`).

use super::transform43::property_value;
use crate::anim::{MixBlend, MixDirection, apply_clip_with, clip_data};
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
    // The clip's timelines write `pose`; the slider poses the applied pose, so the two
    // swap places around the call (no copy, no allocation).
    std::mem::swap(&mut inst.pose, &mut inst.applied);
    // 4.3 mixes from the current applied values (`MixFrom.current`, sinew's `Replace`) and,
    // for an additive slider, with 4.3's `add`, never 4.2's add blend: the two differ for
    // absolute values and constraint mixes.
    let (clip, looping) = (data.clip, data.looping);
    let (blend, dir) = (MixBlend::Replace, MixDirection::In);
    if data.additive {
        apply_clip_with::<true>(rig, inst, clip, time, time, looping, None, mix, blend, dir);
    } else {
        apply_clip_with::<false>(rig, inst, clip, time, time, looping, None, mix, blend, dir);
    }
    std::mem::swap(&mut inst.pose, &mut inst.applied);
    crate::instance::slider_pose::after_slider(inst);
}
