// Test.cs: runs the components as Unity would (Start, Update per frame, OnDestroy) under mono
// and checks the poses against the Rust facade's (`sinew dump`, written by bindings/run.sh as
// "name a b c d x y" lines), misuse through the SafeHandles, and the cage deformer.
using System;
using System.Globalization;
using System.IO;
using Sinew;

public static class SinewTest
{
    static int passed, failed;

    static void Expect(bool ok, string what)
    {
        if (ok) passed++; else { failed++; Console.Error.WriteLine("FAIL: " + what); }
    }

    public static int Main(string[] args)
    {
        // args: SKELETON ATLAS ANIMATION FRAMES EXPECTED_POSES
        var component = new SinewCharacter { skeletonPath = args[0], atlasPath = args[1], animationName = args[2], fixedStep = 1.0 / 60.0 };
        int frames = int.Parse(args[3], CultureInfo.InvariantCulture);
        component.Start();
        for (int f = 0; f < frames; f++) component.Update();
        var worlds = component.BoneWorlds();
        double maxDiff = 0;
        int compared = 0;
        foreach (var line in File.ReadAllLines(args[4]))
        {
            var p = line.Split(' ');
            if (p.Length != 7) continue;
            int bone = -1;
            for (uint i = 0; i < component.Rig.Info.Bones; i++) if (component.Rig.Name(0, i) == p[0]) bone = (int)i;
            Expect(bone >= 0, "bone " + p[0] + " exists");
            if (bone < 0) continue;
            var w = worlds[bone];
            double[] got = { w.A, w.B, w.C, w.D, w.X, w.Y };
            for (int k = 0; k < 6; k++)
                maxDiff = Math.Max(maxDiff, Math.Abs(got[k] - double.Parse(p[k + 1], CultureInfo.InvariantCulture)));
            compared++;
        }
        Expect(compared == (int)component.Rig.Info.Bones, "every bone compared");
        Expect(maxDiff <= 1e-12, "poses equal the Rust facade's (max diff " + maxDiff + ")");
        Console.WriteLine("C#: " + compared + " bones after " + frames + " frames, max diff vs Rust " + maxDiff +
            ", " + component.LastDrawCalls + " draw calls");

        // Misuse: an unknown animation, a destroyed character, update_many with a dead handle.
        var bad = Native.Utf8("no-such-animation");
        Expect(Native.sinew_character_set_animation(component.Handle, 0, bad, Native.Len(bad), true) == Status.NotFound, "unknown animation");
        Expect(Native.LastError().Contains("no-such-animation"), "last error names it");
        var raw = component.Handle.DangerousGetHandle();
        component.OnDestroy();
        component.OnDestroy();
        Expect(Native.sinew_update_many(new[] { raw }, (UIntPtr)1, 0.1, 1) == Status.InvalidHandle, "destroyed handle refused");
        Expect(Native.sinew_update_many(new[] { new IntPtr(0x1230) }, (UIntPtr)1, 0.1, 1) == Status.InvalidHandle, "foreign handle refused");

        // Many characters through update_many on 2 threads equal one updated alone.
        var a = new SinewCharacter { skeletonPath = args[0], atlasPath = args[1], animationName = args[2] };
        var b = new SinewCharacter { skeletonPath = args[0], atlasPath = args[1], animationName = args[2] };
        a.Start(); b.Start();
        var handles = new[] { a.Handle.DangerousGetHandle(), b.Handle.DangerousGetHandle() };
        for (int f = 0; f < frames; f++) Native.Check(Native.sinew_update_many(handles, (UIntPtr)2, 1.0 / 60.0, 2), "update_many");
        var wa = a.BoneWorlds();
        bool same = true;
        for (int i = 0; i < wa.Length; i++) same &= wa[i].X == worlds[i].X && wa[i].Y == worlds[i].Y && wa[i].A == worlds[i].A;
        Expect(same, "update_many equals Update()");
        a.OnDestroy(); b.OnDestroy();

        // The cage deformer: a translated cage translates the points.
        var d = new MvcDeformer { cage = new float[] { 0, 0, 10, 0, 10, 10, 0, 10 }, points = new float[] { 2, 3, 7, 7 } };
        d.Start();
        for (int i = 0; i < d.movedCage.Length; i++) d.movedCage[i] += 5;
        d.Update();
        Expect(Math.Abs(d.deformed[0] - 7) < 1e-4 && Math.Abs(d.deformed[3] - 12) < 1e-4, "cage deform follows the cage");
        d.OnDestroy();
        Native.Check(Native.sinew_pool_shutdown(), "shutdown");
        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}
