// Character.cs: one character of a rig (IDisposable over a CharacterHandle): playback,
// placement, events, bones, IK targets, parameters and render output. Every failure throws
// SinewException with sinew's message. The per-frame calls (Update, SetParam, GetParam,
// BoneWorld(s), Event, Render, Mask, the setters taking names) allocate nothing: names go
// through the per-thread UTF-8 scratch, buffers are the caller's arrays.
// CharacterControls.cs (constraints, tracks, attachments) and CharacterJiggle.cs (jiggle)
// hold the rest of the class.
using System;

namespace Sinew
{
    public sealed partial class Character : IDisposable
    {
        public CharacterHandle Handle { get; }
        /// The rig's sizes (bones for BoneWorlds' buffer, ...).
        public RigInfo RigInfo { get; }

        /// A new character of `rig` in the setup pose.
        public Character(Rig rig)
        {
            var st = Native.sinew_character_create(rig.Handle, out var h);
            if (st != Status.Ok) { h?.Dispose(); Library.Check(st, "sinew_character_create"); }
            Handle = h;
            RigInfo = rig.Info;
        }

        static void Check(Status s, string call) { if (s != Status.Ok) Library.Check(s, call); }

        /// Destroys the native character (library-owned render buffers become invalid).
        public void Dispose() => Handle.Dispose();

        /// One frame of `dt` seconds (non-finite counts as 0).
        public void Update(double dt) => Check(Native.sinew_character_update(Handle, dt), "sinew_character_update");

        /// Plays `name` on `track` now, mixing from what played (Spine setAnimation).
        public void SetAnimation(uint track, string name, bool loop = true)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_set_animation(Handle, track, b, (UIntPtr)n, loop), "sinew_character_set_animation");
        }

        /// Queues `name` after the track's last entry (Spine addAnimation); mixDuration < 0 keeps the table's.
        public void AddAnimation(uint track, string name, bool loop, double delay = 0, double mixDuration = -1)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_add_animation(Handle, track, b, (UIntPtr)n, loop, delay, mixDuration), "sinew_character_add_animation");
        }

        /// Mixes `track` out to the setup pose over `mixDuration` seconds.
        public void SetEmptyAnimation(uint track, double mixDuration) =>
            Check(Native.sinew_character_set_empty_animation(Handle, track, mixDuration), "sinew_character_set_empty_animation");
        public void ClearTrack(uint track) => Check(Native.sinew_character_clear_track(Handle, track), "sinew_character_clear_track");
        public void ClearTracks() => Check(Native.sinew_character_clear_tracks(Handle), "sinew_character_clear_tracks");
        /// Speed of the whole character (animation, physics, jiggle); 1 by default.
        public void SetTimeScale(double scale) => Check(Native.sinew_character_set_time_scale(Handle, scale), "sinew_character_set_time_scale");
        /// Speed of the clip on `track` (negative plays a DragonBones clip backwards).
        public void SetTrackTimeScale(uint track, double scale) =>
            Check(Native.sinew_character_set_track_time_scale(Handle, track, scale), "sinew_character_set_track_time_scale");
        /// Puts `track` on DragonBones animation layer `layer` (higher layers take weight first).
        public void SetTrackLayer(uint track, int layer) =>
            Check(Native.sinew_character_set_track_layer(Handle, track, layer), "sinew_character_set_track_layer");
        /// Fades the DragonBones clip on `track` out over `seconds`.
        public void FadeOutTrack(uint track, double seconds) =>
            Check(Native.sinew_character_fade_out_track(Handle, track, seconds), "sinew_character_fade_out_track");

        /// This character's crossfade time from `from` to `to` (Spine setMix).
        public void SetMix(string from, string to, double seconds)
        {
            int nf = Utf8.Encode(from, 0, out var f);
            int nt = Utf8.Encode(to, 1, out var t);
            Check(Native.sinew_character_set_mix(Handle, f, (UIntPtr)nf, t, (UIntPtr)nt, seconds), "sinew_character_set_mix");
        }

        /// The crossfade time of pairs the mix table does not list.
        public void SetDefaultMix(double seconds) => Check(Native.sinew_character_set_default_mix(Handle, seconds), "sinew_character_set_default_mix");

        /// Shows these skins combined (later ones win); none shows no skin. Allocates: not per frame.
        public void SetSkins(params string[] names)
        {
            var pins = new System.Collections.Generic.List<System.Runtime.InteropServices.GCHandle>();
            try
            {
                var strs = new Str[names.Length];
                for (int i = 0; i < names.Length; i++)
                {
                    var b = Utf8.Bytes(names[i]);
                    strs[i] = new Str { Ptr = Rig.Pin(b, pins), Len = Utf8.Len(b) };
                }
                Check(Native.sinew_character_set_skins(Handle, strs, (UIntPtr)strs.Length), "sinew_character_set_skins");
            }
            finally
            {
                foreach (var p in pins) p.Free();
            }
        }

        /// Resets bones, constraints, slots and draw order (slotsOnly: only slots) to the setup pose.
        public void SetToSetupPose(bool slotsOnly = false) =>
            Check(Native.sinew_character_set_to_setup_pose(Handle, slotsOnly), "sinew_character_set_to_setup_pose");
        /// Places and scales the skeleton in world space (negative scales flip).
        public void SetTransform(double x, double y, double scaleX = 1, double scaleY = 1) =>
            Check(Native.sinew_character_set_transform(Handle, x, y, scaleX, scaleY), "sinew_character_set_transform");
        /// The skeleton's tint, multiplied into every vertex colour.
        public void SetColor(float r, float g, float b, float a) =>
            Check(Native.sinew_character_set_color(Handle, r, g, b, a), "sinew_character_set_color");
        /// How Spine physics constraints run; resetNow also resets physics and jiggle (a teleport).
        public void SetPhysics(PhysicsMode mode, bool resetNow = false) =>
            Check(Native.sinew_character_set_physics(Handle, (uint)mode, resetNow), "sinew_character_set_physics");

        /// How many events the last update produced (read them with GetEvent).
        public int EventCount
        {
            get { Check(Native.sinew_character_event_count(Handle, out var n), "sinew_character_event_count"); return (int)n; }
        }

        public Event GetEvent(int index)
        {
            Check(Native.sinew_character_event(Handle, (uint)index, out var e), "sinew_character_event");
            return e;
        }

        /// A bone's local pose as the animation (or code) left it.
        public BonePose BoneLocal(string bone)
        {
            int n = Utf8.Encode(bone, 0, out var b);
            Check(Native.sinew_character_bone_local(Handle, b, (UIntPtr)n, out var p), "sinew_character_bone_local");
            return p;
        }

        /// Holds a bone's local pose from code, every frame, until ClearBoneLocal.
        public void SetBoneLocal(string bone, BonePose pose)
        {
            int n = Utf8.Encode(bone, 0, out var b);
            Check(Native.sinew_character_set_bone_local(Handle, b, (UIntPtr)n, ref pose), "sinew_character_set_bone_local");
        }

        public void ClearBoneLocal(string bone)
        {
            int n = Utf8.Encode(bone, 0, out var b);
            Check(Native.sinew_character_clear_bone_local(Handle, b, (UIntPtr)n), "sinew_character_clear_bone_local");
        }

        /// Marks a bone moved (DragonBones invalidUpdate: its IK chain is solved afresh).
        public void MarkBoneMoved(string bone)
        {
            int n = Utf8.Encode(bone, 0, out var b);
            Check(Native.sinew_character_mark_bone_moved(Handle, b, (UIntPtr)n), "sinew_character_mark_bone_moved");
        }

        public WorldTransform BoneWorld(string bone)
        {
            int n = Utf8.Encode(bone, 0, out var b);
            Check(Native.sinew_character_bone_world(Handle, b, (UIntPtr)n, out var w), "sinew_character_bone_world");
            return w;
        }

        /// Every bone's world transform into `buffer` (at least RigInfo.Bones long); the bone count.
        public int BoneWorlds(WorldTransform[] buffer)
        {
            Check(Native.sinew_character_bone_worlds(Handle, buffer, (UIntPtr)(buffer == null ? 0 : buffer.Length), out var len), "sinew_character_bone_worlds");
            return (int)len;
        }

        /// Moves IK constraint `ik`'s target to a world position, every frame until ClearIkTarget.
        public void SetIkTarget(string ik, double x, double y)
        {
            int n = Utf8.Encode(ik, 0, out var b);
            Check(Native.sinew_character_set_ik_target(Handle, b, (UIntPtr)n, x, y), "sinew_character_set_ik_target");
        }

        public void ClearIkTarget(string ik)
        {
            int n = Utf8.Encode(ik, 0, out var b);
            Check(Native.sinew_character_clear_ik_target(Handle, b, (UIntPtr)n), "sinew_character_clear_ik_target");
        }

        /// Sets parameter `name` (y ignored for one-axis parameters).
        public void SetParam(string name, double x, double y = 0)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_set_param(Handle, b, (UIntPtr)n, x, y), "sinew_character_set_param");
        }

        /// Parameter `name`'s value after the last update.
        public void GetParam(string name, out double x, out double y)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_get_param(Handle, b, (UIntPtr)n, out x, out y), "sinew_character_get_param");
        }

        /// Plays the puppet's parameter animation `name` from its start.
        public void PlayParamAnimation(string name, bool loop = true)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_play_param_animation(Handle, b, (UIntPtr)n, loop), "sinew_character_play_param_animation");
        }

        /// The batched render output of the current pose (library-owned, valid until the next
        /// call on this character; copy what you keep with RenderData's Copy* methods).
        public RenderData Render()
        {
            Check(Native.sinew_character_render(Handle, out var rd), "sinew_character_render");
            return rd;
        }

        /// The mask of a masked slot or composite group: its source count (0: no mask), the
        /// sources copied into `buffer` when it is long enough (else nothing is copied: call
        /// again with a buffer of the returned size), the alpha threshold in `threshold`.
        public int Mask(MaskKind kind, uint index, MaskSource[] buffer, out float threshold)
        {
            var st = Native.sinew_character_mask(Handle, (uint)kind, index, buffer, (UIntPtr)(buffer == null ? 0 : buffer.Length), out var len, out threshold);
            if (st != Status.BufferTooSmall) Check(st, "sinew_character_mask");
            return (int)len;
        }
    }
}
