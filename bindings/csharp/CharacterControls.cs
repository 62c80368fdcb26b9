// CharacterControls.cs: the character calls of ABI 104 as Character methods: constraint
// mixes by name (`c.SetIk("aim-ik", state)` reads like the Rust facade), format-default
// playback (DragonBones play counts), track times and durations, attachments. Failures throw
// SinewException with sinew_last_error's text (which lists the valid names for an unknown one).
using System;

namespace Sinew
{
    public sealed partial class Character
    {
        public IkState GetIk(string name)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_ik(Handle, b, (UIntPtr)n, out var v), "sinew_character_ik");
            return v;
        }

        /// Sets an IK constraint's state between frames (held until an animation keys it).
        public void SetIk(string name, IkState v)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_set_ik(Handle, b, (UIntPtr)n, ref v), "sinew_character_set_ik");
        }

        public TransformMix GetTransformMix(string name)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_transform_mix(Handle, b, (UIntPtr)n, out var v), "sinew_character_transform_mix");
            return v;
        }

        public void SetTransformMix(string name, TransformMix v)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_set_transform_mix(Handle, b, (UIntPtr)n, ref v), "sinew_character_set_transform_mix");
        }

        public PathMix GetPathMix(string name)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_path_mix(Handle, b, (UIntPtr)n, out var v), "sinew_character_path_mix");
            return v;
        }

        public void SetPathMix(string name, PathMix v)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_set_path_mix(Handle, b, (UIntPtr)n, ref v), "sinew_character_set_path_mix");
        }

        public PhysicsParams GetPhysicsParams(string name)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_physics_params(Handle, b, (UIntPtr)n, out var v), "sinew_character_physics_params");
            return v;
        }

        public void SetPhysicsParams(string name, PhysicsParams v)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_set_physics_params(Handle, b, (UIntPtr)n, ref v), "sinew_character_set_physics_params");
        }

        /// Plays with the format's defaults (DragonBones playTimes and fadeInTime; -1 keeps the clip's own).
        public void Play(uint track, string name, double fadeIn = -1, int playTimes = -1)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_play(Handle, track, b, (UIntPtr)n, fadeIn, playTimes), "sinew_character_play");
        }

        /// Animation `name`'s duration in seconds (a DragonBones clip: one play).
        public double AnimationDuration(string name)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_animation_duration(Handle, b, (UIntPtr)n, out var d), "sinew_character_animation_duration");
            return d;
        }

        /// What `track` plays now (IsPlaying false for an empty track).
        public TrackInfo Track(uint track)
        {
            Check(Native.sinew_character_track(Handle, track, out var t), "sinew_character_track");
            return t;
        }

        /// Shows attachment `name` on `slot`; null or "" hides the slot's attachment.
        public void SetAttachment(string slot, string name)
        {
            int ns = Utf8.Encode(slot, 0, out var s);
            int nn = Utf8.Encode(name, 1, out var a);
            Check(Native.sinew_character_set_attachment(Handle, s, (UIntPtr)ns, a, (UIntPtr)nn), "sinew_character_set_attachment");
        }

        /// The attachment `slot` shows ("" for none).
        public string Attachment(string slot) => AttachmentView(slot).ToString();

        /// The attachment `slot` shows, as a view into the rig (compare with Equals(string): no allocation).
        public StringView AttachmentView(string slot)
        {
            int n = Utf8.Encode(slot, 0, out var s);
            Check(Native.sinew_character_attachment(Handle, s, (UIntPtr)n, out var v), "sinew_character_attachment");
            return v;
        }
    }
}
