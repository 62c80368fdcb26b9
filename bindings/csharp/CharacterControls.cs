// CharacterControls.cs: the character calls of ABI 104 and 105 as C# methods on a CharacterHandle
// (extension methods, so `component.Handle.SetIk("aim-ik", state)` reads like the Rust
// facade): constraint mixes by name, DragonBones play counts, track times and durations,
// attachments, jiggle control. Failures throw SinewException with sinew_last_error's text
// (which lists the valid names for an unknown one).
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Sinew
{
    public static class CharacterControls
    {
        static byte[] U(string s) => Native.Utf8(s);
        static UIntPtr L(byte[] b) => Native.Len(b);

        public static IkState GetIk(this CharacterHandle c, string name)
        { var n = U(name); Native.Check(Native.sinew_character_ik(c, n, L(n), out var v), "ik " + name); return v; }
        public static void SetIk(this CharacterHandle c, string name, IkState v)
        { var n = U(name); Native.Check(Native.sinew_character_set_ik(c, n, L(n), ref v), "set_ik " + name); }
        public static TransformMix GetTransformMix(this CharacterHandle c, string name)
        { var n = U(name); Native.Check(Native.sinew_character_transform_mix(c, n, L(n), out var v), "transform_mix " + name); return v; }
        public static void SetTransformMix(this CharacterHandle c, string name, TransformMix v)
        { var n = U(name); Native.Check(Native.sinew_character_set_transform_mix(c, n, L(n), ref v), "set_transform_mix " + name); }
        public static PathMix GetPathMix(this CharacterHandle c, string name)
        { var n = U(name); Native.Check(Native.sinew_character_path_mix(c, n, L(n), out var v), "path_mix " + name); return v; }
        public static void SetPathMix(this CharacterHandle c, string name, PathMix v)
        { var n = U(name); Native.Check(Native.sinew_character_set_path_mix(c, n, L(n), ref v), "set_path_mix " + name); }
        public static PhysicsParams GetPhysicsParams(this CharacterHandle c, string name)
        { var n = U(name); Native.Check(Native.sinew_character_physics_params(c, n, L(n), out var v), "physics_params " + name); return v; }
        public static void SetPhysicsParams(this CharacterHandle c, string name, PhysicsParams v)
        { var n = U(name); Native.Check(Native.sinew_character_set_physics_params(c, n, L(n), ref v), "set_physics_params " + name); }

        /// Plays with the format's defaults (DragonBones playTimes and fadeInTime; -1 keeps the clip's own).
        public static void Play(this CharacterHandle c, uint track, string name, double fadeIn = -1, int playTimes = -1)
        { var n = U(name); Native.Check(Native.sinew_character_play(c, track, n, L(n), fadeIn, playTimes), "play " + name); }
        public static double AnimationDuration(this CharacterHandle c, string name)
        { var n = U(name); Native.Check(Native.sinew_character_animation_duration(c, n, L(n), out var d), "animation_duration " + name); return d; }
        public static TrackInfo Track(this CharacterHandle c, uint track)
        { Native.Check(Native.sinew_character_track(c, track, out var t), "track"); return t; }

        /// Shows attachment `name` on `slot`; null hides the slot's attachment.
        public static void SetAttachment(this CharacterHandle c, string slot, string name)
        { var s = U(slot); var n = U(name); Native.Check(Native.sinew_character_set_attachment(c, s, L(s), n, L(n)), "set_attachment " + slot); }
        /// The attachment `slot` shows ("" for none).
        public static string Attachment(this CharacterHandle c, string slot)
        { var s = U(slot); Native.Check(Native.sinew_character_attachment(c, s, L(s), out var v), "attachment " + slot); return v.ToString(); }

        public static string[] JiggleChains(this CharacterHandle c)
        {
            Native.Check(Native.sinew_character_jiggle_chain_count(c, out var n), "jiggle_chain_count");
            var names = new string[n];
            for (uint i = 0; i < n; i++)
            {
                Native.Check(Native.sinew_character_jiggle_chain_name(c, i, out var v), "jiggle_chain_name");
                names[i] = v.ToString();
            }
            return names;
        }
        public static double GetJiggleStrength(this CharacterHandle c, string chain)
        { var n = U(chain); Native.Check(Native.sinew_character_jiggle_strength(c, n, L(n), out var s), "jiggle_strength " + chain); return s; }
        /// Sets a chain's strength (null: every chain), at once or faded over `fadeSeconds`.
        public static void SetJiggleStrength(this CharacterHandle c, string chain, double strength, double fadeSeconds = 0)
        { var n = U(chain); Native.Check(Native.sinew_character_set_jiggle_strength(c, n, L(n), strength, fadeSeconds), "set_jiggle_strength"); }
        public static JiggleLod GetJiggleLod(this CharacterHandle c)
        { Native.Check(Native.sinew_character_jiggle_lod(c, out var l), "jiggle_lod"); return (JiggleLod)l; }
        public static void SetJiggleLod(this CharacterHandle c, JiggleLod lod)
        { Native.Check(Native.sinew_character_set_jiggle_lod(c, (uint)lod), "set_jiggle_lod"); }
        public static void SetJiggleViewDistance(this CharacterHandle c, double distance)
        { Native.Check(Native.sinew_character_set_jiggle_view_distance(c, distance), "set_jiggle_view_distance"); }
        public static void SetJiggleEnabled(this CharacterHandle c, bool enabled)
        { Native.Check(Native.sinew_character_set_jiggle_enabled(c, enabled), "set_jiggle_enabled"); }
        /// Switches one chain (null: every chain) off (the animated pose, no cost) or back on (from rest).
        public static void SetJiggleChainEnabled(this CharacterHandle c, string chain, bool enabled)
        { var n = U(chain); Native.Check(Native.sinew_character_set_jiggle_chain_enabled(c, n, L(n), enabled), "set_jiggle_chain_enabled " + chain); }
        public static bool GetJiggleChainEnabled(this CharacterHandle c, string chain)
        { var n = U(chain); Native.Check(Native.sinew_character_jiggle_chain_enabled(c, n, L(n), out var e), "jiggle_chain_enabled " + chain); return e; }
        /// Solves one chain (null: every chain) only every `every`-th fixed step (1..16; 1: every step).
        public static void SetJiggleChainEvery(this CharacterHandle c, string chain, uint every)
        { var n = U(chain); Native.Check(Native.sinew_character_set_jiggle_chain_every(c, n, L(n), every), "set_jiggle_chain_every " + chain); }
        public static uint GetJiggleChainEvery(this CharacterHandle c, string chain)
        { var n = U(chain); Native.Check(Native.sinew_character_jiggle_chain_every(c, n, L(n), out var e), "jiggle_chain_every " + chain); return e; }
        /// The strength the chain's solver used last update (set or faded, times the animations' cues).
        public static double GetJiggleEffectiveStrength(this CharacterHandle c, string chain)
        { var n = U(chain); Native.Check(Native.sinew_character_jiggle_effective_strength(c, n, L(n), out var s), "jiggle_effective_strength " + chain); return s; }
        /// Culls the jiggle while the character misses this view rectangle (min x, min y, max x, max y; y up); null: never.
        public static void SetJiggleView(this CharacterHandle c, double[] rect)
        {
            if (rect != null && rect.Length != 4) throw new ArgumentException("a view rectangle is 4 numbers");
            Native.Check(Native.sinew_character_set_jiggle_view(c, rect), "set_jiggle_view");
        }
        public static bool JiggleCulled(this CharacterHandle c)
        { Native.Check(Native.sinew_character_jiggle_culled(c, out var b), "jiggle_culled"); return b; }

        static Str Pin(string s, System.Collections.Generic.List<GCHandle> pins)
        {
            var b = Encoding.UTF8.GetBytes(s);
            var h = GCHandle.Alloc(b, GCHandleType.Pinned);
            pins.Add(h);
            return new Str { Ptr = h.AddrOfPinnedObject(), Len = (UIntPtr)b.Length };
        }

        /// Replaces the jiggle chains with one made from code: its bones by name and a preset.
        public static void SetJiggleChain(this CharacterHandle c, string name, string[] bones, JigglePreset preset)
        {
            var pins = new System.Collections.Generic.List<GCHandle>();
            try
            {
                var strs = new Str[bones.Length];
                for (int i = 0; i < bones.Length; i++) strs[i] = Pin(bones[i], pins);
                var arr = GCHandle.Alloc(strs, GCHandleType.Pinned);
                pins.Add(arr);
                var chain = new JiggleChainDesc { Name = Pin(name, pins), Bones = arr.AddrOfPinnedObject(), BoneCount = (UIntPtr)bones.Length, Preset = (uint)preset };
                Native.Check(Native.sinew_character_set_jiggle_chains(c, new[] { chain }, (UIntPtr)1), "set_jiggle_chains " + name);
            }
            finally
            {
                foreach (var h in pins) h.Free();
            }
        }
    }
}
