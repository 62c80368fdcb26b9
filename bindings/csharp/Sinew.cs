// Sinew.cs: P/Invoke wrapper of include/sinew.h (blittable structs, SafeHandles that destroy
// the native handle when collected or disposed). Drop it into a Unity project's Scripts
// folder with the native library under Plugins/ (see docs/ENGINES.md).
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Sinew
{
    public enum Status
    {
        Ok = 0, NullArgument = 1, InvalidHandle = 2, WrongHandleType = 3, InvalidUtf8 = 4,
        BufferTooSmall = 5, NotFound = 6, InvalidArgument = 7, Io = 8, LoadFailed = 9,
        CageFailed = 10, Panic = 11, Unsupported = 12,
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct StringView
    {
        public IntPtr Ptr;
        public UIntPtr Len;
        public override string ToString()
        {
            int n = (int)Len;
            var bytes = new byte[n];
            if (n > 0) Marshal.Copy(Ptr, bytes, 0, n);
            return Encoding.UTF8.GetString(bytes);
        }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct WorldTransform { public double A, B, C, D, X, Y; }

    [StructLayout(LayoutKind.Sequential)]
    public struct BonePose { public double X, Y, Rotation, ScaleX, ScaleY, ShearX, ShearY; }

    [StructLayout(LayoutKind.Sequential)]
    public struct RigInfo
    {
        public uint Bones, Slots, Animations, ParamAnimations, Skins, Params, IkConstraints, Pages, IsPuppet;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct PageInfo { public StringView Name; public uint Width, Height, PremultipliedAlpha; }

    [StructLayout(LayoutKind.Sequential)]
    public struct Batch
    {
        public int Page; public uint Blend, PremultipliedAlpha, DarkKind;
        public int Clip, Group, MaskSlot; public uint FirstSlot;
        public uint VertexStart, VertexCount, IndexStart, IndexCount, FirstCommand, CommandCount;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct RenderData
    {
        public IntPtr Batches; public UIntPtr BatchCount; public UIntPtr CommandCount;
        public IntPtr Positions, Uvs, Colors, DarkColors; public UIntPtr VertexCount;
        public IntPtr Indices; public UIntPtr IndexCount;
        public IntPtr Clips; public UIntPtr ClipCount; public IntPtr ClipVertices;
        public IntPtr Groups; public UIntPtr GroupCount;

        public Batch GetBatch(int i) =>
            Marshal.PtrToStructure<Batch>(Batches + i * Marshal.SizeOf<Batch>());
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct IkState { public double Mix, Softness; public int BendDirection; public uint Compress, Stretch; }

    [StructLayout(LayoutKind.Sequential)]
    public struct TransformMix { public double Rotate, X, Y, ScaleX, ScaleY, ShearY; }

    [StructLayout(LayoutKind.Sequential)]
    public struct PathMix { public double Position, Spacing, MixRotate, MixX, MixY; }

    [StructLayout(LayoutKind.Sequential)]
    public struct PhysicsParams { public double Inertia, Strength, Damping, MassInverse, Wind, Gravity, Mix; }

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

    public enum JigglePreset { SoftTissue = 0, HairTip = 1, Ribbon = 2, Earring = 3, Tail = 4, Vrm = 5 }

    public enum JiggleLod { Full = 0, Coarse = 1, Frozen = 2 }

    [StructLayout(LayoutKind.Sequential)]
    public struct Str { public IntPtr Ptr; public UIntPtr Len; }

    [StructLayout(LayoutKind.Sequential)]
    public struct JiggleChainDesc { public Str Name; public IntPtr Bones; public UIntPtr BoneCount; public uint Preset; }

    [StructLayout(LayoutKind.Sequential)]
    public struct CageInfo { public uint Bound, Points, CageVertices, SparseK; public double TruncationMaxL1; }

    public sealed class RigHandle : SafeHandle
    {
        public RigHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid => handle == IntPtr.Zero;
        protected override bool ReleaseHandle() => Native.sinew_rig_destroy(handle) == Status.Ok;
    }

    public sealed class CharacterHandle : SafeHandle
    {
        public CharacterHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid => handle == IntPtr.Zero;
        protected override bool ReleaseHandle() => Native.sinew_character_destroy(handle) == Status.Ok;
    }

    public sealed class CageHandle : SafeHandle
    {
        public CageHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid => handle == IntPtr.Zero;
        protected override bool ReleaseHandle() => Native.sinew_cage_destroy(handle) == Status.Ok;
    }

    public static class Native
    {
        const string Lib = "sinew_capi";

        [DllImport(Lib)] public static extern Status sinew_last_error(byte[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] public static extern Status sinew_rig_load_spine(byte[] skel, UIntPtr skelLen, byte[] atlas, UIntPtr atlasLen, byte[] extras, UIntPtr extrasLen, out RigHandle rig);
        [DllImport(Lib)] public static extern Status sinew_rig_load_spine_memory(byte[] skel, UIntPtr skelLen, byte[] atlas, UIntPtr atlasLen, byte[] extras, UIntPtr extrasLen, out RigHandle rig);
        [DllImport(Lib)] public static extern Status sinew_rig_destroy(IntPtr rig);
        [DllImport(Lib)] public static extern Status sinew_rig_info(RigHandle rig, out RigInfo info);
        [DllImport(Lib)] public static extern Status sinew_rig_page(RigHandle rig, uint index, out PageInfo page);
        [DllImport(Lib)] public static extern Status sinew_rig_name(RigHandle rig, uint kind, uint index, out StringView name);
        [DllImport(Lib)] public static extern Status sinew_character_create(RigHandle rig, out CharacterHandle c);
        [DllImport(Lib)] public static extern Status sinew_character_destroy(IntPtr c);
        [DllImport(Lib)] public static extern Status sinew_character_update(CharacterHandle c, double dt);
        [DllImport(Lib)] public static extern Status sinew_update_many(IntPtr[] characters, UIntPtr count, double dt, uint threads);
        [DllImport(Lib)] public static extern Status sinew_character_set_animation(CharacterHandle c, uint track, byte[] name, UIntPtr len, [MarshalAs(UnmanagedType.U1)] bool loop);
        [DllImport(Lib)] public static extern Status sinew_character_bone_worlds(CharacterHandle c, [Out] WorldTransform[] buf, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] public static extern Status sinew_character_bone_world(CharacterHandle c, byte[] name, UIntPtr len, out WorldTransform w);
        [DllImport(Lib)] public static extern Status sinew_character_render(CharacterHandle c, out RenderData data);
        [DllImport(Lib)] public static extern Status sinew_pool_shutdown();
        [DllImport(Lib)] public static extern Status sinew_character_ik(CharacterHandle c, byte[] name, UIntPtr len, out IkState v);
        [DllImport(Lib)] public static extern Status sinew_character_set_ik(CharacterHandle c, byte[] name, UIntPtr len, ref IkState v);
        [DllImport(Lib)] public static extern Status sinew_character_transform_mix(CharacterHandle c, byte[] name, UIntPtr len, out TransformMix v);
        [DllImport(Lib)] public static extern Status sinew_character_set_transform_mix(CharacterHandle c, byte[] name, UIntPtr len, ref TransformMix v);
        [DllImport(Lib)] public static extern Status sinew_character_path_mix(CharacterHandle c, byte[] name, UIntPtr len, out PathMix v);
        [DllImport(Lib)] public static extern Status sinew_character_set_path_mix(CharacterHandle c, byte[] name, UIntPtr len, ref PathMix v);
        [DllImport(Lib)] public static extern Status sinew_character_physics_params(CharacterHandle c, byte[] name, UIntPtr len, out PhysicsParams v);
        [DllImport(Lib)] public static extern Status sinew_character_set_physics_params(CharacterHandle c, byte[] name, UIntPtr len, ref PhysicsParams v);
        [DllImport(Lib)] public static extern Status sinew_character_play(CharacterHandle c, uint track, byte[] name, UIntPtr len, double fadeIn, int playTimes);
        [DllImport(Lib)] public static extern Status sinew_character_animation_duration(CharacterHandle c, byte[] name, UIntPtr len, out double seconds);
        [DllImport(Lib)] public static extern Status sinew_character_track(CharacterHandle c, uint track, out TrackInfo info);
        [DllImport(Lib)] public static extern Status sinew_character_set_attachment(CharacterHandle c, byte[] slot, UIntPtr slotLen, byte[] name, UIntPtr nameLen);
        [DllImport(Lib)] public static extern Status sinew_character_attachment(CharacterHandle c, byte[] slot, UIntPtr slotLen, out StringView name);
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_chain_count(CharacterHandle c, out uint count);
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_chain_name(CharacterHandle c, uint index, out StringView name);
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_strength(CharacterHandle c, byte[] chain, UIntPtr len, out double strength);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_strength(CharacterHandle c, byte[] chain, UIntPtr len, double strength, double fadeSeconds);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_lod(CharacterHandle c, uint lod);
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_lod(CharacterHandle c, out uint lod);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_view_distance(CharacterHandle c, double distance);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_enabled(CharacterHandle c, [MarshalAs(UnmanagedType.U1)] bool enabled);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_chains(CharacterHandle c, [In] JiggleChainDesc[] chains, UIntPtr count);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_chain_enabled(CharacterHandle c, byte[] chain, UIntPtr len, [MarshalAs(UnmanagedType.U1)] bool enabled);
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_chain_enabled(CharacterHandle c, byte[] chain, UIntPtr len, [MarshalAs(UnmanagedType.U1)] out bool enabled);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_chain_every(CharacterHandle c, byte[] chain, UIntPtr len, uint every);
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_chain_every(CharacterHandle c, byte[] chain, UIntPtr len, out uint every);
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_effective_strength(CharacterHandle c, byte[] chain, UIntPtr len, out double strength);
        [DllImport(Lib)] public static extern Status sinew_character_set_jiggle_view(CharacterHandle c, [In] double[] rect);
        [DllImport(Lib)] public static extern Status sinew_character_jiggle_culled(CharacterHandle c, [MarshalAs(UnmanagedType.U1)] out bool culled);
        [DllImport(Lib)] public static extern Status sinew_cage_create(out CageHandle cage);
        [DllImport(Lib)] public static extern Status sinew_cage_destroy(IntPtr cage);
        /// <summary>`sparseK` for the bind functions: per point the fewest weights within the error set by sinew_cage_set_sparse_error.</summary>
        public const uint SparseByError = 0xFFFFFFFF;
        /// <summary>`sparseK` for the bind functions: each point interpolated from four grid nodes within the error set by sinew_cage_set_sparse_error.</summary>
        public const uint GridByError = 0xFFFFFFFE;
        [DllImport(Lib)] public static extern Status sinew_cage_set_sparse_error(CageHandle cage, double maxError, double motion);
        [DllImport(Lib)] public static extern Status sinew_cage_bind_polygons(CageHandle cage, float[] loopXy, uint[] loopSizes, UIntPtr loopCount, float[] points, UIntPtr pointCount, uint sparseK);
        [DllImport(Lib)] public static extern Status sinew_cage_deform(CageHandle cage, float[] cageXy, UIntPtr cageFloats, [Out] float[] output, UIntPtr cap, out UIntPtr len);
        [DllImport(Lib)] public static extern Status sinew_cage_info(CageHandle cage, out CageInfo info);

        public static string LastError()
        {
            var buf = new byte[4096];
            sinew_last_error(buf, (UIntPtr)buf.Length, out var len);
            return Encoding.UTF8.GetString(buf, 0, Math.Min((int)len, buf.Length));
        }

        public static void Check(Status s, string what)
        {
            if (s != Status.Ok) throw new SinewException(what + ": " + s + ": " + LastError(), s);
        }

        public static byte[] Utf8(string s) => s == null ? null : Encoding.UTF8.GetBytes(s);
        public static UIntPtr Len(byte[] b) => (UIntPtr)(b == null ? 0 : b.Length);
    }

    public sealed class SinewException : Exception
    {
        public Status Status { get; }
        public SinewException(string message, Status status) : base(message) { Status = status; }
    }

    /// A loaded rig, shared by characters.
    public sealed class Rig : IDisposable
    {
        public RigHandle Handle { get; }
        public RigInfo Info { get; }

        public Rig(string skeletonPath, string atlasPath, string extrasPath = null)
        {
            var s = Native.Utf8(skeletonPath); var a = Native.Utf8(atlasPath); var e = Native.Utf8(extrasPath);
            Native.Check(Native.sinew_rig_load_spine(s, Native.Len(s), a, Native.Len(a), e, Native.Len(e), out var h), "load " + skeletonPath);
            Handle = h;
            Native.Check(Native.sinew_rig_info(h, out var info), "info");
            Info = info;
        }

        public string Name(uint kind, uint index)
        {
            Native.Check(Native.sinew_rig_name(Handle, kind, index, out var v), "name");
            return v.ToString();
        }

        public void Dispose() => Handle.Dispose();
    }
}
