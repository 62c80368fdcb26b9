// CharacterSliders.cs: Spine 4.3 sliders and the wind and gravity directions of physics (ABI
// 106) as Character members. A slider is found by name once (`int dial = c.FindSlider("dial")`)
// and read or set by index each frame (no allocation); the name overloads look it up per call.
// Failures throw SinewException with sinew_last_error's text (an unknown name lists the rig's
// sliders; an index out of range names the count).
using System;

namespace Sinew
{
    public sealed partial class Character
    {
        /// How many Spine 4.3 sliders the rig has (0 for any other rig).
        public int SliderCount
        {
            get { Check(Native.sinew_character_slider_count(Handle, out var n), "sinew_character_slider_count"); return (int)n; }
        }

        /// The index of the slider called `name`.
        public int FindSlider(string name)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_find_slider(Handle, b, (UIntPtr)n, out var i), "sinew_character_find_slider");
            return (int)i;
        }

        /// Slider `index`'s name.
        public string SliderName(int index)
        {
            Check(Native.sinew_character_slider_name(Handle, (uint)index, out var v), "sinew_character_slider_name");
            return v.ToString();
        }

        /// Slider `index`'s current time and mix (after the last update, or as set).
        public SliderPose GetSlider(int index)
        {
            Check(Native.sinew_character_slider(Handle, (uint)index, out var p), "sinew_character_slider");
            return p;
        }

        /// Slider `name`'s current time and mix.
        public SliderPose GetSlider(string name) => GetSlider(FindSlider(name));

        /// Sets slider `index`'s time and mix between frames (held until an animation keys the
        /// slider; a bone-driven slider recomputes its time each update).
        public void SetSlider(int index, SliderPose pose)
        {
            Check(Native.sinew_character_set_slider(Handle, (uint)index, ref pose), "sinew_character_set_slider");
        }

        /// Sets slider `name`'s time and mix.
        public void SetSlider(string name, SliderPose pose) => SetSlider(FindSlider(name), pose);

        /// The directions physics constraints' wind blows and gravity pulls (x right, y down;
        /// defaults wind (1, 0), gravity (0, 1)), from the next update on.
        public PhysicsDirections PhysicsDirections
        {
            get { Check(Native.sinew_character_physics_directions(Handle, out var d), "sinew_character_physics_directions"); return d; }
            set { Check(Native.sinew_character_set_physics_directions(Handle, ref value), "sinew_character_set_physics_directions"); }
        }
    }
}
