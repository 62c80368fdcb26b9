// Render.cs: a character's render output (SinewRenderData, library-owned arrays valid until
// the next call on the character) with readers that allocate nothing: batches, clips and
// groups read field by field, vertex and index arrays copied into the caller's arrays (in
// Unity: the arrays behind Mesh.SetVertices/SetUVs/SetColors/SetTriangles, reused each frame).
using System;
using System.Runtime.InteropServices;

namespace Sinew
{
    [StructLayout(LayoutKind.Sequential)]
    public struct RenderData
    {
        public IntPtr Batches; public UIntPtr BatchCount; public UIntPtr CommandCount;
        public IntPtr Positions, Uvs, Colors, DarkColors; public UIntPtr VertexCount;
        public IntPtr Indices; public UIntPtr IndexCount;
        public IntPtr Clips; public UIntPtr ClipCount; public IntPtr ClipVertices;
        public IntPtr Groups; public UIntPtr GroupCount;

        public int BatchTotal => (int)(ulong)BatchCount;
        public int VertexTotal => (int)(ulong)VertexCount;
        public int IndexTotal => (int)(ulong)IndexCount;

        [StructLayout(LayoutKind.Explicit)]
        struct Bits { [FieldOffset(0)] public int I; [FieldOffset(0)] public float F; }

        // The header's sizes (Test.cs checks these structs' layouts against the C compiler's).
        static readonly int BatchSize = Marshal.SizeOf(typeof(Batch));
        static readonly int ClipSize = Marshal.SizeOf(typeof(Clip));
        static readonly int GroupSize = Marshal.SizeOf(typeof(Group));

        static float ReadFloat(IntPtr p, int offset) => new Bits { I = Marshal.ReadInt32(p, offset) }.F;

        static void CheckIndex(int i, UIntPtr count, string what)
        {
            if (i < 0 || (ulong)i >= (ulong)count) throw new ArgumentOutOfRangeException(what);
        }

        /// Batch `i` (0..BatchCount): one draw call.
        public Batch GetBatch(int i)
        {
            CheckIndex(i, BatchCount, "batch");
            var p = Batches + i * BatchSize;
            return new Batch
            {
                Page = Marshal.ReadInt32(p, 0), Blend = (uint)Marshal.ReadInt32(p, 4),
                PremultipliedAlpha = (uint)Marshal.ReadInt32(p, 8), DarkKind = (uint)Marshal.ReadInt32(p, 12),
                Clip = Marshal.ReadInt32(p, 16), Group = Marshal.ReadInt32(p, 20), MaskSlot = Marshal.ReadInt32(p, 24),
                FirstSlot = (uint)Marshal.ReadInt32(p, 28), VertexStart = (uint)Marshal.ReadInt32(p, 32),
                VertexCount = (uint)Marshal.ReadInt32(p, 36), IndexStart = (uint)Marshal.ReadInt32(p, 40),
                IndexCount = (uint)Marshal.ReadInt32(p, 44), FirstCommand = (uint)Marshal.ReadInt32(p, 48),
                CommandCount = (uint)Marshal.ReadInt32(p, 52),
            };
        }

        /// Clip polygon `i` (0..ClipCount).
        public Clip GetClip(int i)
        {
            CheckIndex(i, ClipCount, "clip");
            var p = Clips + i * ClipSize;
            return new Clip { Slot = (uint)Marshal.ReadInt32(p, 0), VertexStart = (uint)Marshal.ReadInt32(p, 4), VertexCount = (uint)Marshal.ReadInt32(p, 8) };
        }

        /// Composite group `i` (0..GroupCount).
        public Group GetGroup(int i)
        {
            CheckIndex(i, GroupCount, "group");
            var p = Groups + i * GroupSize;
            return new Group
            {
                Bone = (uint)Marshal.ReadInt32(p, 0), FirstBatch = (uint)Marshal.ReadInt32(p, 4),
                BatchCount = (uint)Marshal.ReadInt32(p, 8), Blend = (uint)Marshal.ReadInt32(p, 12),
                ColorR = ReadFloat(p, 16), ColorG = ReadFloat(p, 20), ColorB = ReadFloat(p, 24), ColorA = ReadFloat(p, 28),
                ScreenR = ReadFloat(p, 32), ScreenG = ReadFloat(p, 36), ScreenB = ReadFloat(p, 40),
            };
        }

        static void Copy(IntPtr src, int n, float[] dst, string what)
        {
            if (dst.Length < n) throw new ArgumentException(what + " needs " + n + " floats, the array has " + dst.Length);
            if (n > 0) Marshal.Copy(src, dst, 0, n);
        }

        /// x, y per vertex (2 * VertexTotal floats), world units, y up.
        public void CopyPositions(float[] dst) => Copy(Positions, 2 * VertexTotal, dst, "positions");
        /// u, v per vertex (2 * VertexTotal floats).
        public void CopyUvs(float[] dst) => Copy(Uvs, 2 * VertexTotal, dst, "uvs");
        /// r, g, b, a per vertex (4 * VertexTotal floats).
        public void CopyColors(float[] dst) => Copy(Colors, 4 * VertexTotal, dst, "colors");
        /// The dark or screen colour per vertex (4 * VertexTotal floats; see Batch.DarkKind).
        public void CopyDarkColors(float[] dst) => Copy(DarkColors, 4 * VertexTotal, dst, "dark colours");

        /// The u16 triangle indices (IndexTotal of them, relative to each batch's VertexStart)
        /// as their bits in shorts (`& 0xFFFF` for the value).
        public void CopyIndices(short[] dst)
        {
            int n = IndexTotal;
            if (dst.Length < n) throw new ArgumentException("indices need " + n + " shorts, the array has " + dst.Length);
            if (n > 0) Marshal.Copy(Indices, dst, 0, n);
        }

        /// Clip polygon `i`'s x, y pairs (2 * its VertexCount floats).
        public void CopyClipVertices(int i, float[] dst)
        {
            var c = GetClip(i);
            Copy(ClipVertices + (int)c.VertexStart * 8, 2 * (int)c.VertexCount, dst, "clip vertices");
        }
    }
}
