// Native.cs: every function of include/sinew.h as a raw P/Invoke (blittable arguments only:
// strings are UTF-8 byte[] + length, caller buffers are arrays the marshaller pins, handles
// are SafeHandles or, where the C side takes an array of them, IntPtr), the header's structs
// with the same layout, its enums and constants. The idiomatic layer (Rig, Character, Cage,
// Library) is built on these; bindings/csharp/check_header.py fails CI when a C function
// has no import here, or an import's arguments no longer match the header's.
using System;
using System.Runtime.InteropServices;

namespace Sinew
{
    /// What a call did (SinewStatus).
    public enum Status
    {
        Ok = 0, NullArgument = 1, InvalidHandle = 2, WrongHandleType = 3, InvalidUtf8 = 4,
        BufferTooSmall = 5, NotFound = 6, InvalidArgument = 7, Io = 8, LoadFailed = 9,
        CageFailed = 10, Panic = 11, Unsupported = 12,
    }

    /// The kind of an Event (SinewEventKind).
    public enum EventKind : uint { Start = 0, Interrupt = 1, End = 2, Dispose = 3, Complete = 4, Event = 5 }

    /// What Rig.Name lists (SinewNameKind).
    public enum NameKind : uint { Bone = 0, Slot = 1, Animation = 2, Skin = 3, Ik = 4, ParamAnimation = 5 }

    /// The weights a cage's later binds compute (SinewCageMethod).
    public enum CageMethod : uint { MeanValue = 0, Harmonic = 1, Biharmonic = 2 }

    /// The springs of a jiggle chain made from code (SinewJigglePreset).
    public enum JigglePreset : uint { SoftTissue = 0, HairTip = 1, Ribbon = 2, Earring = 3, Tail = 4, Vrm = 5 }

    /// Jiggle level of detail (sinew_character_set_jiggle_lod).
    public enum JiggleLod : uint { Full = 0, Coarse = 1, Frozen = 2 }

    /// How Spine physics constraints run (sinew_character_set_physics).
    public enum PhysicsMode : uint { None = 0, Reset = 1, Update = 2, Pose = 3 }

    /// What a mask belongs to (sinew_character_mask).
    public enum MaskKind : uint { Slot = 0, Group = 1 }

    /// A string owned by the library (SinewStringView): decode it with ToString(), or compare
    /// it with Equals(string) without allocating.
    [StructLayout(LayoutKind.Sequential)]
    public struct StringView
    {
        public IntPtr Ptr;
        public UIntPtr Len;

        public int Length => (int)(ulong)Len;

        public override string ToString()
        {
            int n = Length;
            if (n == 0) return "";
            var bytes = new byte[n];
            Marshal.Copy(Ptr, bytes, 0, n);
            return System.Text.Encoding.UTF8.GetString(bytes);
        }

        /// Whether the view holds `s` (UTF-8), byte for byte; no allocation after warm-up.
        public bool Equals(string s)
        {
            int n = Utf8.Encode(s, 0, out var buf);
            if (n != Length) return false;
            for (int i = 0; i < n; i++) if (Marshal.ReadByte(Ptr, i) != buf[i]) return false;
            return true;
        }
    }

    /// A string argument (SinewStr): pointer + length of UTF-8 bytes the caller pins.
    [StructLayout(LayoutKind.Sequential)]
    public struct Str { public IntPtr Ptr; public UIntPtr Len; }

    [StructLayout(LayoutKind.Sequential)]
    public struct CageInfo
    {
        public uint Bound, Points, CageVertices, SparseK; public double TruncationMaxL1;
        public bool IsBound => Bound != 0;
    }

    /// One event of the last update (SinewEvent); its strings point into the rig.
    [StructLayout(LayoutKind.Sequential)]
    public struct Event
    {
        public uint Kind, Track; public StringView Animation, Name;
        public int IntValue; public float FloatValue; public StringView StringValue;
        public double Time; public float Volume, Balance;
        public EventKind EventKind => (EventKind)Kind;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct BonePose { public double X, Y, Rotation, ScaleX, ScaleY, ShearX, ShearY; }

    [StructLayout(LayoutKind.Sequential)]
    public struct WorldTransform { public double A, B, C, D, X, Y; }

    [StructLayout(LayoutKind.Sequential)]
    public struct IkState { public double Mix, Softness; public int BendDirection; public uint Compress, Stretch; }

    [StructLayout(LayoutKind.Sequential)]
    public struct TransformMix { public double Rotate, X, Y, ScaleX, ScaleY, ShearY; }

    [StructLayout(LayoutKind.Sequential)]
    public struct PathMix { public double Position, Spacing, MixRotate, MixX, MixY; }

    [StructLayout(LayoutKind.Sequential)]
    public struct PhysicsParams { public double Inertia, Strength, Damping, MassInverse, Wind, Gravity, Mix; }

    [StructLayout(LayoutKind.Sequential)]
    public struct SliderPose { public double Time, Mix; }

    [StructLayout(LayoutKind.Sequential)]
    public struct PhysicsDirections { public double WindX, WindY, GravityX, GravityY; }

    /// Which entry of a track the entry option calls address (SinewTrackEntry).
    public enum TrackEntry : uint { Current = 0, Last = 1 }

    /// The curve of an entry's crossfade in (SinewMixInterpolation; Pow and PowOut take MixPower).
    public enum MixInterpolation : uint { Linear = 0, Smooth = 1, SlowFast = 2, FastSlow = 3, Circle = 4, Pow = 5, PowOut = 6 }

    /// A track entry's Spine 4.3 options (SinewEntryOptions): flags are 0 or 1; all zero is the default.
    [StructLayout(LayoutKind.Sequential)]
    public struct EntryOptions
    {
        public uint Additive, KeepHold; public MixInterpolation MixInterpolation; public uint MixPower;

        /// The options from C# values (the power is for Pow and PowOut).
        public static EntryOptions Of(bool additive = false, bool keepHold = false,
            MixInterpolation mix = MixInterpolation.Linear, uint power = 0) =>
            new EntryOptions { Additive = additive ? 1u : 0u, KeepHold = keepHold ? 1u : 0u, MixInterpolation = mix, MixPower = power };
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct TrackInfo
    {
        public uint Playing; public StringView Animation;
        public double TrackTime, AnimationTime, Duration;
        public uint Looping; public int PlayTimes; public uint Complete;
        public bool IsPlaying => Playing != 0;
        public bool IsLooping => Looping != 0;
        public bool IsComplete => Complete != 0;
        public string AnimationName => Animation.ToString();
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct JiggleChain { public Str Name; public IntPtr Bones; public UIntPtr BoneCount; public uint Preset; }

    [StructLayout(LayoutKind.Sequential)]
    public struct Batch
    {
        public int Page; public uint Blend, PremultipliedAlpha, DarkKind;
        public int Clip, Group, MaskSlot; public uint FirstSlot;
        public uint VertexStart, VertexCount, IndexStart, IndexCount, FirstCommand, CommandCount;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Clip { public uint Slot, VertexStart, VertexCount; }

    [StructLayout(LayoutKind.Sequential)]
    public struct Group
    {
        public uint Bone, FirstBatch, BatchCount, Blend;
        public float ColorR, ColorG, ColorB, ColorA, ScreenR, ScreenG, ScreenB;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct MaskSource { public uint Slot, Dodge; }

    [StructLayout(LayoutKind.Sequential)]
    public struct CompanionFile { public IntPtr Name; public UIntPtr NameLen; public IntPtr Data; public UIntPtr Len; }

    [StructLayout(LayoutKind.Sequential)]
    public struct RigInfo
    {
        public uint Bones, Slots, Animations, ParamAnimations, Skins, Params, IkConstraints, Pages, IsPuppet;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct PageInfo { public StringView Name; public uint Width, Height, PremultipliedAlpha; }

    [StructLayout(LayoutKind.Sequential)]
    public struct ParamInfo
    {
        public StringView Name; public uint Axes;
        public double MinX, MinY, MaxX, MaxY, DefaultValueX, DefaultValueY;
    }

    public static class Native
    {
        const string Lib = "sinew_capi";

        /// The ABI version this binding was written for (SINEW_ABI_VERSION of include/sinew.h).
        public const uint AbiVersion = 107;
        public const uint SparseByError = 0xFFFFFFFF;
        public const uint GridByError = 0xFFFFFFFE;
        public const uint MaxThreads = 64;
        public const uint MaxBatchVertices = 65536;
        public const int None = -1;

        [DllImport(Lib)] public static extern Status sinew_last_error(byte[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] public static extern IntPtr sinew_status_name(uint status);
        [DllImport(Lib)] public static extern Status sinew_abi_version(out uint version);
        [DllImport(Lib)] public static extern Status sinew_update_many(IntPtr[] characters, UIntPtr count, double dt, uint threads);
        [DllImport(Lib)] public static extern Status sinew_pool_shutdown();

        // Rigs.
        [DllImport(Lib)] public static extern Status sinew_rig_load_spine(byte[] skel, UIntPtr skelLen, byte[] atlas, UIntPtr atlasLen, byte[] extras, UIntPtr extrasLen, out RigHandle rig);
        [DllImport(Lib)] public static extern Status sinew_rig_load_spine_memory(byte[] skel, UIntPtr skelLen, byte[] atlas, UIntPtr atlasLen, byte[] extras, UIntPtr extrasLen, out RigHandle rig);
        [DllImport(Lib)] public static extern Status sinew_rig_load_inochi2d(byte[] path, UIntPtr pathLen, byte[] physics3, UIntPtr physics3Len, byte[] extras, UIntPtr extrasLen, out RigHandle rig);
        [DllImport(Lib)] public static extern Status sinew_rig_load_inochi2d_memory(byte[] puppet, UIntPtr puppetLen, byte[] physics3, UIntPtr physics3Len, byte[] extras, UIntPtr extrasLen, out RigHandle rig);
        [DllImport(Lib)] public static extern Status sinew_rig_load_dragonbones(byte[] ske, UIntPtr skeLen, byte[] tex, UIntPtr texLen, byte[] armature, UIntPtr armatureLen, out RigHandle rig);
        [DllImport(Lib)] public static extern Status sinew_rig_load_dragonbones_memory(byte[] ske, UIntPtr skeLen, byte[] tex, UIntPtr texLen, byte[] armature, UIntPtr armatureLen, out RigHandle rig);
        [DllImport(Lib)] public static extern Status sinew_rig_load_memory(byte[] name, UIntPtr nameLen, byte[] data, UIntPtr len, [In] CompanionFile[] files, UIntPtr filesLen, byte[] armature, UIntPtr armatureLen, out RigHandle rig);
        [DllImport(Lib)] public static extern Status sinew_rig_destroy(IntPtr rig);
        [DllImport(Lib)] public static extern Status sinew_rig_info(RigHandle rig, out RigInfo info);
        [DllImport(Lib)] public static extern Status sinew_rig_page(RigHandle rig, uint index, out PageInfo page);
        [DllImport(Lib)] public static extern Status sinew_rig_param(RigHandle rig, uint index, out ParamInfo param);
        [DllImport(Lib)] public static extern Status sinew_rig_name(RigHandle rig, uint kind, uint index, out StringView name);
        [DllImport(Lib)] public static extern Status sinew_rig_find_bone(RigHandle rig, byte[] name, UIntPtr len, out uint index);

        // Characters: life, playback, placement.
        [DllImport(Lib)] public static extern Status sinew_character_create(RigHandle rig, out CharacterHandle character);
        [DllImport(Lib)] public static extern Status sinew_character_destroy(IntPtr character);
        [DllImport(Lib)] public static extern Status sinew_character_update(CharacterHandle c, double dt);
        [DllImport(Lib)] public static extern Status sinew_character_set_animation(CharacterHandle c, uint track, byte[] name, UIntPtr len, [MarshalAs(UnmanagedType.U1)] bool loop);
        [DllImport(Lib)] public static extern Status sinew_character_add_animation(CharacterHandle c, uint track, byte[] name, UIntPtr len, [MarshalAs(UnmanagedType.U1)] bool loop, double delay, double mixDuration);
        [DllImport(Lib)] public static extern Status sinew_character_set_empty_animation(CharacterHandle c, uint track, double mixDuration);
        [DllImport(Lib)] public static extern Status sinew_character_clear_track(CharacterHandle c, uint track);
        [DllImport(Lib)] public static extern Status sinew_character_clear_tracks(CharacterHandle c);
        [DllImport(Lib)] public static extern Status sinew_character_set_time_scale(CharacterHandle c, double scale);
        [DllImport(Lib)] public static extern Status sinew_character_set_track_time_scale(CharacterHandle c, uint track, double scale);
        [DllImport(Lib)] public static extern Status sinew_character_set_track_layer(CharacterHandle c, uint track, int layer);
        [DllImport(Lib)] public static extern Status sinew_character_fade_out_track(CharacterHandle c, uint track, double seconds);
        [DllImport(Lib)] public static extern Status sinew_character_set_mix(CharacterHandle c, byte[] from, UIntPtr fromLen, byte[] to, UIntPtr toLen, double seconds);
        [DllImport(Lib)] public static extern Status sinew_character_set_default_mix(CharacterHandle c, double seconds);
        [DllImport(Lib)] public static extern Status sinew_character_set_skins(CharacterHandle c, [In] Str[] names, UIntPtr count);
        [DllImport(Lib)] public static extern Status sinew_character_set_to_setup_pose(CharacterHandle c, [MarshalAs(UnmanagedType.U1)] bool slotsOnly);
        [DllImport(Lib)] public static extern Status sinew_character_set_transform(CharacterHandle c, double x, double y, double scaleX, double scaleY);
        [DllImport(Lib)] public static extern Status sinew_character_set_color(CharacterHandle c, float r, float g, float b, float a);
        [DllImport(Lib)] public static extern Status sinew_character_set_physics(CharacterHandle c, uint mode, [MarshalAs(UnmanagedType.U1)] bool resetNow);
        [DllImport(Lib)] public static extern Status sinew_character_play(CharacterHandle c, uint track, byte[] name, UIntPtr len, double fadeIn, int playTimes);
        [DllImport(Lib)] public static extern Status sinew_character_animation_duration(CharacterHandle c, byte[] name, UIntPtr len, out double seconds);
        [DllImport(Lib)] public static extern Status sinew_character_track(CharacterHandle c, uint track, out TrackInfo info);

        // Characters: events, bones, IK targets, parameters, output.
        [DllImport(Lib)] public static extern Status sinew_character_event_count(CharacterHandle c, out uint count);
        [DllImport(Lib)] public static extern Status sinew_character_event(CharacterHandle c, uint index, out Event ev);
        [DllImport(Lib)] public static extern Status sinew_character_bone_local(CharacterHandle c, byte[] name, UIntPtr len, out BonePose pose);
        [DllImport(Lib)] public static extern Status sinew_character_set_bone_local(CharacterHandle c, byte[] name, UIntPtr len, ref BonePose pose);
        [DllImport(Lib)] public static extern Status sinew_character_clear_bone_local(CharacterHandle c, byte[] name, UIntPtr len);
        [DllImport(Lib)] public static extern Status sinew_character_mark_bone_moved(CharacterHandle c, byte[] name, UIntPtr len);
        [DllImport(Lib)] public static extern Status sinew_character_bone_world(CharacterHandle c, byte[] name, UIntPtr len, out WorldTransform w);
        [DllImport(Lib)] public static extern Status sinew_character_bone_worlds(CharacterHandle c, [Out] WorldTransform[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] public static extern Status sinew_character_set_ik_target(CharacterHandle c, byte[] name, UIntPtr len, double x, double y);
        [DllImport(Lib)] public static extern Status sinew_character_clear_ik_target(CharacterHandle c, byte[] name, UIntPtr len);
        [DllImport(Lib)] public static extern Status sinew_character_set_param(CharacterHandle c, byte[] name, UIntPtr len, double x, double y);
        [DllImport(Lib)] public static extern Status sinew_character_get_param(CharacterHandle c, byte[] name, UIntPtr len, out double x, out double y);
        [DllImport(Lib)] public static extern Status sinew_character_play_param_animation(CharacterHandle c, byte[] name, UIntPtr len, [MarshalAs(UnmanagedType.U1)] bool loop);
        [DllImport(Lib)] public static extern Status sinew_character_render(CharacterHandle c, out RenderData data);
        [DllImport(Lib)] public static extern Status sinew_character_mask(CharacterHandle c, uint kind, uint index, [Out] MaskSource[] buf, UIntPtr cap, out UIntPtr len, out float threshold);

        // Characters: constraints and attachments (ABI 104).
        [DllImport(Lib)] public static extern Status sinew_character_ik(CharacterHandle c, byte[] name, UIntPtr len, out IkState v);
        [DllImport(Lib)] public static extern Status sinew_character_set_ik(CharacterHandle c, byte[] name, UIntPtr len, ref IkState v);
        [DllImport(Lib)] public static extern Status sinew_character_transform_mix(CharacterHandle c, byte[] name, UIntPtr len, out TransformMix v);
        [DllImport(Lib)] public static extern Status sinew_character_set_transform_mix(CharacterHandle c, byte[] name, UIntPtr len, ref TransformMix v);
        [DllImport(Lib)] public static extern Status sinew_character_path_mix(CharacterHandle c, byte[] name, UIntPtr len, out PathMix v);
        [DllImport(Lib)] public static extern Status sinew_character_set_path_mix(CharacterHandle c, byte[] name, UIntPtr len, ref PathMix v);
        [DllImport(Lib)] public static extern Status sinew_character_physics_params(CharacterHandle c, byte[] name, UIntPtr len, out PhysicsParams v);
        [DllImport(Lib)] public static extern Status sinew_character_set_physics_params(CharacterHandle c, byte[] name, UIntPtr len, ref PhysicsParams v);
        [DllImport(Lib)] public static extern Status sinew_character_set_attachment(CharacterHandle c, byte[] slot, UIntPtr slotLen, byte[] name, UIntPtr nameLen);
        [DllImport(Lib)] public static extern Status sinew_character_attachment(CharacterHandle c, byte[] slot, UIntPtr slotLen, out StringView name);

        // Characters: jiggle (ABI 104 and 105).
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_chain_count(CharacterHandle c, out uint count);
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_chain_name(CharacterHandle c, uint index, out StringView name);
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_strength(CharacterHandle c, byte[] chain, UIntPtr len, out double strength);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_strength(CharacterHandle c, byte[] chain, UIntPtr len, double strength, double fadeSeconds);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_lod(CharacterHandle c, uint lod);
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_lod(CharacterHandle c, out uint lod);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_view_distance(CharacterHandle c, double distance);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_enabled(CharacterHandle c, [MarshalAs(UnmanagedType.U1)] bool enabled);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_chains(CharacterHandle c, [In] JiggleChain[] chains, UIntPtr count);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_chain_enabled(CharacterHandle c, byte[] chain, UIntPtr len, [MarshalAs(UnmanagedType.U1)] bool enabled);
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_chain_enabled(CharacterHandle c, byte[] chain, UIntPtr len, [MarshalAs(UnmanagedType.U1)] out bool enabled);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_chain_every(CharacterHandle c, byte[] chain, UIntPtr len, uint every);
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_chain_every(CharacterHandle c, byte[] chain, UIntPtr len, out uint every);
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_effective_strength(CharacterHandle c, byte[] chain, UIntPtr len, out double strength);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_view(CharacterHandle c, [In] double[] rect);
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_culled(CharacterHandle c, [MarshalAs(UnmanagedType.U1)] out bool culled);

        // Characters: cages and example shapes from the rig's extras or code.
        [DllImport(Lib)] public static extern Status sinew_character_cage_count(CharacterHandle c, out uint count);
        [DllImport(Lib)] public static extern Status sinew_character_find_cage(CharacterHandle c, byte[] name, UIntPtr len, out uint index);
        [DllImport(Lib)] public static extern Status sinew_character_cage_name(CharacterHandle c, uint index, out StringView name);
        [DllImport(Lib)] public static extern Status sinew_character_cage_points(CharacterHandle c, uint index, [Out] float[] points, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] public static extern Status sinew_character_set_cage_points(CharacterHandle c, uint index, [In] float[] points, UIntPtr count);
        [DllImport(Lib)] public static extern Status sinew_character_set_shape_weight(CharacterHandle c, byte[] set, UIntPtr setLen, byte[] example, UIntPtr exampleLen, double weight);

        // Characters: Spine 4.3 sliders, wind and gravity directions (ABI 106).
        [DllImport(Lib)] public static extern Status sinew_character_slider_count(CharacterHandle c, out uint count);
        [DllImport(Lib)] public static extern Status sinew_character_find_slider(CharacterHandle c, byte[] name, UIntPtr len, out uint index);
        [DllImport(Lib)] public static extern Status sinew_character_slider_name(CharacterHandle c, uint index, out StringView name);
        [DllImport(Lib)] public static extern Status sinew_character_slider(CharacterHandle c, uint index, out SliderPose pose);
        [DllImport(Lib)] public static extern Status sinew_character_set_slider(CharacterHandle c, uint index, ref SliderPose pose);
        [DllImport(Lib)] public static extern Status sinew_character_physics_directions(CharacterHandle c, out PhysicsDirections directions);
        [DllImport(Lib)] public static extern Status sinew_character_set_physics_directions(CharacterHandle c, ref PhysicsDirections directions);

        // Characters: Spine 4.3 track entry options (ABI 107).
        [DllImport(Lib)] public static extern Status sinew_character_set_entry_options(CharacterHandle c, uint track, TrackEntry entry, ref EntryOptions options);
        [DllImport(Lib)] public static extern Status sinew_character_entry_options(CharacterHandle c, uint track, TrackEntry entry, out EntryOptions options);
        [DllImport(Lib)] public static extern Status sinew_character_set_entry_alpha(CharacterHandle c, uint track, TrackEntry entry, double alpha);
        [DllImport(Lib)] public static extern Status sinew_character_entry_alpha(CharacterHandle c, uint track, TrackEntry entry, out double alpha);

        // Cages.
        [DllImport(Lib)] public static extern Status sinew_cage_create(out CageHandle cage);
        [DllImport(Lib)] public static extern Status sinew_cage_destroy(IntPtr cage);
        [DllImport(Lib)] public static extern Status sinew_cage_set_sparse_error(CageHandle cage, double maxError, double motion);
        [DllImport(Lib)] public static extern Status sinew_cage_set_method(CageHandle cage, uint method);
        [DllImport(Lib)] public static extern Status sinew_cage_bind_polygons(CageHandle cage, [In] float[] loopXy, [In] uint[] loopSizes, UIntPtr loopCount, [In] float[] points, UIntPtr pointCount, uint sparseK);
        [DllImport(Lib)] public static extern Status sinew_cage_bind_mesh(CageHandle cage, [In] float[] positions, UIntPtr vertexCount, [In] uint[] triangles, UIntPtr triangleCount, uint sparseK);
        [DllImport(Lib)] public static extern Status sinew_cage_info(CageHandle cage, out CageInfo info);
        [DllImport(Lib)] public static extern Status sinew_cage_boundary(CageHandle cage, [Out] uint[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] public static extern Status sinew_cage_rest(CageHandle cage, [Out] float[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] public static extern Status sinew_cage_deform(CageHandle cage, [In] float[] cageXy, UIntPtr cageFloats, [Out] float[] output, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] public static extern Status sinew_cage_deform_many(IntPtr[] cages, IntPtr[] cageXy, IntPtr[] output, UIntPtr count);
        [DllImport(Lib)] public static extern Status sinew_cage_serialize(CageHandle cage, [Out] byte[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] public static extern Status sinew_cage_deserialize([In] byte[] bytes, UIntPtr len, out CageHandle cage);
    }
}
