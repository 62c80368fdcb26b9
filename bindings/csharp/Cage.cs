// Cage.cs: the cage solver on its own (IDisposable over a CageHandle): bind points to a
// cage of polygons or a mesh to its own boundary, once; deform per frame into the caller's
// array with no allocation; serialise the weights; CageGroup deforms many bindings in one
// call over arrays pinned once.
using System;
using System.Runtime.InteropServices;

namespace Sinew
{
    public sealed class Cage : IDisposable
    {
        public CageHandle Handle { get; }

        /// A new, unbound cage.
        public Cage()
        {
            var st = Native.sinew_cage_create(out var h);
            if (st != Status.Ok) { h?.Dispose(); Library.Check(st, "sinew_cage_create"); }
            Handle = h;
        }

        Cage(CageHandle h) { Handle = h; }

        static void Check(Status s, string call) { if (s != Status.Ok) Library.Check(s, call); }

        public void Dispose() => Handle.Dispose();

        /// The error SparseByError binds keep to (both finite and above 0; later binds only).
        public void SetSparseError(double maxError, double motion) =>
            Check(Native.sinew_cage_set_sparse_error(Handle, maxError, motion), "sinew_cage_set_sparse_error");

        /// The weights later binds compute (harmonic ones need the library's `harmonic` feature:
        /// Status.Unsupported without it).
        public void SetMethod(CageMethod method) => Check(Native.sinew_cage_set_method(Handle, (uint)method), "sinew_cage_set_method");

        /// Binds points (x, y pairs) to a cage of loops (every loop's x, y pairs one after
        /// another, loopSizes[i] vertices in loop i; outer loops counter-clockwise, holes
        /// clockwise). sparseK: 0 dense, K >= 3, Native.SparseByError or Native.GridByError.
        public void BindPolygons(float[] loopXy, uint[] loopSizes, float[] points, uint sparseK = 0) =>
            Check(Native.sinew_cage_bind_polygons(Handle, loopXy, loopSizes, (UIntPtr)loopSizes.Length, points, (UIntPtr)(points.Length / 2), sparseK), "sinew_cage_bind_polygons");

        /// Binds a triangle mesh's vertices (x, y pairs) to its own boundary (Boundary() gives
        /// the deform input's order).
        public void BindMesh(float[] positions, uint[] triangles, uint sparseK = 0) =>
            Check(Native.sinew_cage_bind_mesh(Handle, positions, (UIntPtr)(positions.Length / 2), triangles, (UIntPtr)(triangles.Length / 3), sparseK), "sinew_cage_bind_mesh");

        public CageInfo Info
        {
            get { Check(Native.sinew_cage_info(Handle, out var i), "sinew_cage_info"); return i; }
        }

        /// For a mesh bind, the mesh vertex of each cage vertex (empty otherwise).
        public uint[] Boundary()
        {
            var buf = new uint[Info.CageVertices];
            Check(Native.sinew_cage_boundary(Handle, buf, (UIntPtr)buf.Length, out var len), "sinew_cage_boundary");
            if ((int)len == buf.Length) return buf;
            Array.Resize(ref buf, (int)len);
            return buf;
        }

        /// The rest cage (x, y pairs, the deform input at rest; empty for loaded weights).
        public float[] Rest()
        {
            var buf = new float[2 * Info.CageVertices];
            Check(Native.sinew_cage_rest(Handle, buf, (UIntPtr)buf.Length, out var len), "sinew_cage_rest");
            if ((int)len == buf.Length) return buf;
            Array.Resize(ref buf, (int)len);
            return buf;
        }

        /// Deforms: `cageXy` the moved cage (2 * CageVertices floats) into `output` (at least
        /// 2 * Points floats). No allocation.
        public void Deform(float[] cageXy, float[] output) =>
            Check(Native.sinew_cage_deform(Handle, cageXy, (UIntPtr)(cageXy == null ? 0 : cageXy.Length), output, (UIntPtr)(output == null ? 0 : output.Length), out _), "sinew_cage_deform");

        /// The binding in sinew's versioned weights format (what `sinew cage bind` writes).
        public byte[] Serialize()
        {
            var st = Native.sinew_cage_serialize(Handle, null, UIntPtr.Zero, out var len);
            if (st != Status.BufferTooSmall) Check(st, "sinew_cage_serialize");
            var buf = new byte[(int)len];
            Check(Native.sinew_cage_serialize(Handle, buf, (UIntPtr)buf.Length, out len), "sinew_cage_serialize");
            return buf;
        }

        /// A bound cage from weights written by Serialize or `sinew cage bind`.
        public static Cage Deserialize(byte[] bytes)
        {
            var st = Native.sinew_cage_deserialize(bytes, Utf8.Len(bytes), out var h);
            if (st != Status.Ok) { h?.Dispose(); Library.Check(st, "sinew_cage_deserialize"); }
            return new Cage(h);
        }
    }

    /// Many bindings deformed in one call (sinew_cage_deform_many): the cages and their
    /// input and output arrays are pinned once here; each frame write the inputs in place
    /// and call Deform(). Dispose unpins.
    public sealed class CageGroup : IDisposable
    {
        readonly Cage[] cages;
        readonly IntPtr[] handles, ins, outs;
        readonly GCHandle[] pins;
        bool disposed;

        public CageGroup(Cage[] cages, float[][] inputs, float[][] outputs)
        {
            if (inputs.Length != cages.Length || outputs.Length != cages.Length)
                throw new ArgumentException("one input and one output array per cage");
            this.cages = (Cage[])cages.Clone();
            handles = new IntPtr[cages.Length]; ins = new IntPtr[cages.Length]; outs = new IntPtr[cages.Length];
            pins = new GCHandle[2 * cages.Length];
            for (int i = 0; i < cages.Length; i++)
            {
                var info = cages[i].Info;
                if (inputs[i].Length < 2 * info.CageVertices || outputs[i].Length < 2 * info.Points)
                    throw new ArgumentException("cage " + i + " needs " + 2 * info.CageVertices + " input and " + 2 * info.Points + " output floats");
                bool ok = false;
                cages[i].Handle.DangerousAddRef(ref ok);
                handles[i] = cages[i].Handle.DangerousGetHandle();
                pins[2 * i] = GCHandle.Alloc(inputs[i], GCHandleType.Pinned);
                pins[2 * i + 1] = GCHandle.Alloc(outputs[i], GCHandleType.Pinned);
                ins[i] = pins[2 * i].AddrOfPinnedObject();
                outs[i] = pins[2 * i + 1].AddrOfPinnedObject();
            }
        }

        /// Deforms every cage from its input array into its output array.
        public void Deform()
        {
            if (disposed) throw new ObjectDisposedException(nameof(CageGroup));
            Library.Check(Native.sinew_cage_deform_many(handles, ins, outs, (UIntPtr)handles.Length), "sinew_cage_deform_many");
        }

        public void Dispose()
        {
            if (disposed) return;
            disposed = true;
            foreach (var p in pins) if (p.IsAllocated) p.Free();
            foreach (var c in cages) c.Handle.DangerousRelease();
        }
    }
}
