// TestCage.cs: the cage solver from C#: polygon and mesh binds, methods, sparse and grid
// weights within their error, the rest pose reproducing the points, a translation moving
// them with it, serialisation round trips, CageGroup against one-by-one deforms, misuse.
using System;
using Sinew;

public static class TestCage
{
    // A square cage with a square hole (clockwise), points between; a 3 x 3 grid mesh.
    static readonly float[] Loops = { 0, 0, 10, 0, 10, 10, 0, 10, 4, 4, 4, 6, 6, 6, 6, 4 };
    static readonly uint[] Sizes = { 4, 4 };
    static readonly float[] Points = { 1, 1, 2, 8, 9, 5, 5, 2 };
    static readonly float[] Grid = { 0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1, 0, 2, 1, 2, 2, 2 };
    static readonly uint[] Tris = { 0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4, 3, 4, 7, 3, 7, 6, 4, 5, 8, 4, 8, 7 };

    static float MaxDiff(float[] a, float[] b, int n)
    {
        float d = 0;
        for (int i = 0; i < n; i++) d = Math.Max(d, Math.Abs(a[i] - b[i]));
        return d;
    }

    public static void Run()
    {
        var moved = new float[16];
        for (int i = 0; i < 16; i++) moved[i] = Loops[i] + (i % 2 == 1 ? 3f : -2f);
        var shifted = new float[8];
        for (int i = 0; i < 8; i++) shifted[i] = Points[i] + (i % 2 == 1 ? 3f : -2f);
        var dense = new float[8];
        var output = new float[8];
        using (var cage = new Cage())
        {
            T.Throws(() => cage.SetMethod(CageMethod.Harmonic), Status.Unsupported, "harmonic", "harmonic needs the feature");
            T.Throws(() => cage.SetMethod((CageMethod)7), Status.InvalidArgument, "", "method 7");
            cage.SetMethod(CageMethod.MeanValue);
            T.Expect(!cage.Info.IsBound, "a new cage is unbound");
            T.Throws(() => cage.Deform(Loops, output), Status.InvalidArgument, "", "deform unbound");
            T.Throws(() => cage.Serialize(), Status.InvalidArgument, "", "serialize unbound");
            cage.BindPolygons(Loops, Sizes, Points);
            var info = cage.Info;
            T.Expect(info.IsBound && info.Points == 4 && info.CageVertices == 8 && info.SparseK == 0, "bound: 4 points, 8 cage vertices");
            var rest = cage.Rest();
            T.Expect(rest.Length == 16 && MaxDiff(rest, Loops, 16) == 0, "the rest cage is the loops");
            T.Expect(cage.Boundary().Length == 0, "a polygon bind has no mesh boundary");
            cage.Deform(rest, output);
            T.Expect(MaxDiff(output, Points, 8) < 1e-4f, "the rest pose reproduces the points");
            cage.Deform(moved, dense);
            T.Expect(MaxDiff(dense, shifted, 8) < 1e-3f, "a translated cage translates the points");
            T.Throws(() => cage.Deform(new float[15], output), Status.CageFailed, "", "15 cage floats");
            T.Throws(() => cage.Deform(moved, new float[4]), Status.BufferTooSmall, "", "short output");
            T.Throws(() => cage.BindPolygons(Loops, new uint[] { 2 }, Points), Status.CageFailed, "", "a 2-vertex loop");
            T.Throws(() => cage.BindPolygons(Loops, Sizes, Points, 2), Status.CageFailed, "", "K = 2");

            // Sparse and grid weights by error: refused until an error is set, then within it.
            T.Throws(() => cage.BindPolygons(Loops, Sizes, Points, Native.SparseByError), Status.InvalidArgument, "", "sparse before an error is set");
            T.Throws(() => cage.SetSparseError(0, 1), Status.InvalidArgument, "", "error 0");
            cage.SetSparseError(0.01, 0.5);
            cage.BindPolygons(Loops, Sizes, Points, Native.SparseByError);
            info = cage.Info;
            T.Expect(info.SparseK >= 3 && info.SparseK <= 8 && info.TruncationMaxL1 <= 0.02, "sparse by error: K " + info.SparseK);
            cage.Deform(moved, output);
            T.Expect(MaxDiff(output, dense, 8) < 1e-3f, "sparse within the error of dense");
            cage.BindPolygons(Loops, Sizes, Points, Native.GridByError);
            T.Expect(cage.Info.SparseK == 4, "grid binding reads K 4");
            cage.Deform(moved, output);
            T.Expect(MaxDiff(output, dense, 8) < 1e-3f, "grid within the error of dense");

            // K = 4, serialised and loaded: the same deformation, bit for bit.
            cage.BindPolygons(Loops, Sizes, Points, 4);
            var bytes = cage.Serialize();
            using (var loaded = Cage.Deserialize(bytes))
            {
                var a = new float[8]; var b = new float[8];
                cage.Deform(moved, a);
                loaded.Deform(moved, b);
                T.Expect(bytes.Length > 16 && MaxDiff(a, b, 8) == 0 && loaded.Info.Points == 4, "a serialised binding deforms the same");
                bytes[bytes.Length / 2] ^= 0x55;
                T.Throws(() => Cage.Deserialize(bytes), Status.CageFailed, "", "a corrupted binding");

                // A mesh bound to its own boundary; many deformed in one call.
                using (var mesh = new Cage())
                {
                    T.Throws(() => mesh.BindMesh(Grid, new uint[] { 0, 1, 1 }), Status.CageFailed, "", "a degenerate mesh");
                    mesh.BindMesh(Grid, Tris);
                    T.Expect(mesh.Info.Points == 9 && mesh.Info.CageVertices == 8, "mesh: 9 points, 8 boundary vertices");
                    var boundary = mesh.Boundary();
                    bool noCentre = boundary.Length == 8;
                    foreach (var v in boundary) noCentre &= v != 4;
                    T.Expect(noCentre, "the boundary is every vertex but the centre");
                    var meshRest = mesh.Rest();
                    var meshMoved = (float[])meshRest.Clone();
                    for (int i = 0; i < meshMoved.Length; i += 2) meshMoved[i] *= 2; // stretch x by 2
                    var o1 = new float[8]; var o2 = new float[18];
                    using (var group = new CageGroup(new[] { cage, mesh }, new[] { moved, meshMoved }, new[] { o1, o2 }))
                    {
                        group.Deform();
                        var want = new float[18];
                        mesh.Deform(meshMoved, want);
                        T.Expect(MaxDiff(o1, a, 8) == 0 && MaxDiff(o2, want, 18) == 0, "CageGroup equals one-by-one deforms");
                        T.Expect(T.Near(o2[8], 2, 1e-4) && T.Near(o2[9], 1, 1e-4), "the centre stretched to (2, 1): " + o2[8] + ", " + o2[9]);
                        meshMoved[0] = -1; // inputs are read in place each call
                        group.Deform();
                        T.Expect(o2[8] != want[8] || o2[9] != want[9], "CageGroup reads the inputs in place");
                    }
                }
                // Bound on a loading thread, deformed here (the handle serialises its calls).
                Cage worker = null;
                var loader = new System.Threading.Thread(() => { worker = new Cage(); worker.BindPolygons(Loops, Sizes, Points); });
                loader.Start();
                loader.Join();
                using (worker)
                {
                    var w = new float[8];
                    worker.Deform(moved, w);
                    T.Expect(MaxDiff(w, dense, 8) == 0, "a cage bound on another thread deforms the same");
                }
                loaded.Dispose();
                T.ThrowsDisposed(() => loaded.Deform(moved, a), "a disposed cage");
            }
        }
    }
}
