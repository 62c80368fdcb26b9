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

    static void ExpectThrows(Action a, Status status, string message, string what)
    {
        try { a(); Expect(false, what + ": no exception"); }
        catch (SinewException e) { Expect(e.Status == status && e.Message.Contains(message), what + " (" + e.Message + ")"); }
    }

    /// Jiggle control on stickbot with its extras (hair, cape), and a chain from code.
    static void TestJiggle(string root)
    {
        var dir = root + "/examples/stickbot/";
        var rig = new Rig(dir + "stickbot.json", "", dir + "stickbot.extras.json");
        Native.Check(Native.sinew_character_create(rig.Handle, out var c), "create");
        var walk = Native.Utf8("walk");
        Native.Check(Native.sinew_character_set_animation(c, 0, walk, Native.Len(walk), true), "walk");
        var chains = c.JiggleChains();
        Expect(chains.Length == 2 && chains[0] == "hair" && chains[1] == "cape", "jiggle chains hair, cape");
        c.SetJiggleStrength("cape", 0, 0.5);
        c.SetJiggleStrength("hair", 0);
        for (int f = 0; f < 15; f++) Native.Check(Native.sinew_character_update(c, 1.0 / 60.0), "update");
        Expect(Math.Abs(c.GetJiggleStrength("cape") - 0.5) < 1e-6, "cape half faded: " + c.GetJiggleStrength("cape"));
        Expect(c.GetJiggleStrength("hair") == 0, "hair off");
        ExpectThrows(() => c.GetJiggleStrength("hiar"), Status.NotFound, "this rig's jiggle chains: `hair`, `cape`", "unknown chain");
        ExpectThrows(() => c.SetJiggleStrength(null, 2.0), Status.InvalidArgument, "not in 0..1", "strength 2 refused");
        c.SetJiggleViewDistance(5000);
        Expect(c.GetJiggleLod() == JiggleLod.Frozen, "frozen beyond 4000");
        c.SetJiggleLod(JiggleLod.Full);
        Expect(c.GetJiggleLod() == JiggleLod.Full, "full again");
        // ABI 105: chains on and off, every N-th step, culling by a view rectangle.
        c.SetJiggleChainEnabled("cape", false);
        Expect(!c.GetJiggleChainEnabled("cape") && c.GetJiggleChainEnabled("hair"), "cape off, hair on");
        c.SetJiggleChainEvery(null, 4);
        Expect(c.GetJiggleChainEvery("hair") == 4, "hair every 4th step");
        ExpectThrows(() => c.SetJiggleChainEvery("hair", 0), Status.InvalidArgument, "not in 1..16", "every 0 refused");
        c.SetJiggleStrength(null, 1);
        for (int f = 0; f < 8; f++) Native.Check(Native.sinew_character_update(c, 1.0 / 60.0), "update");
        Expect(c.GetJiggleEffectiveStrength("hair") == 1, "hair at full strength");
        c.SetJiggleView(new double[] { 1e5, 1e5, 1e5 + 1, 1e5 + 1 });
        Native.Check(Native.sinew_character_update(c, 1.0 / 60.0), "update");
        Expect(c.JiggleCulled(), "culled by a far view");
        ExpectThrows(() => c.SetJiggleView(new double[] { 1, 0, 0, 1 }), Status.InvalidArgument, "min above max", "bad view refused");
        c.SetJiggleView(null);
        Native.Check(Native.sinew_character_update(c, 1.0 / 60.0), "update");
        Expect(!c.JiggleCulled(), "no view, no culling");
        c.SetJiggleChainEnabled(null, true);
        c.SetJiggleChainEvery(null, 1);
        c.SetJiggleEnabled(false);
        Expect(c.JiggleChains().Length == 0, "jiggle off");
        c.SetJiggleEnabled(true);
        Expect(c.JiggleChains().Length == 2, "jiggle on");
        c.SetJiggleChain("tail", new[] { "cape-1", "cape-2" }, JigglePreset.Ribbon);
        chains = c.JiggleChains();
        Expect(chains.Length == 1 && chains[0] == "tail", "a chain from code replaces the extras'");
        ExpectThrows(() => c.SetJiggleChain("x", new[] { "nope" }, JigglePreset.Tail), Status.NotFound, "this rig's bones: `root`", "unknown jiggle bone");
        // A Spine clip with a play count plays once (no DragonBones count).
        c.Play(0, "walk", 0, 1);
        var t = c.Track(0);
        Expect(!t.IsLooping && t.PlayTimes == -1 && t.AnimationName == "walk", "walk played once");
        c.Dispose();
        rig.Dispose();
    }

    public static int Main(string[] args)
    {
        // args: SKELETON ATLAS ANIMATION FRAMES EXPECTED_POSES [REPO_ROOT (jiggle tests)]
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

        // The calls of ABI 104 (CharacterControls.cs) on the component's character.
        var h = component.Handle;
        var track = h.Track(0);
        Expect(track.IsPlaying && track.AnimationName == args[2], "track 0 plays " + args[2]);
        Expect(Math.Abs(track.TrackTime - frames / 60.0) < 1e-9, "track time " + track.TrackTime);
        double duration = h.AnimationDuration(args[2]);
        Expect(duration > 0 && Math.Abs(track.AnimationTime - track.TrackTime % duration) < 1e-9,
            "animation time " + track.AnimationTime + " wraps the duration " + duration);
        Expect(!h.Track(1).IsPlaying, "track 1 is empty");
        if (component.Rig.Info.IkConstraints > 0)
        {
            string ikName = component.Rig.Name(4, 0);
            var ik = h.GetIk(ikName);
            ik.Mix = 0.25;
            h.SetIk(ikName, ik);
            Expect(h.GetIk(ikName).Mix == 0.25, "IK mix of " + ikName + " set");
            ik.Mix = double.NaN;
            ExpectThrows(() => h.SetIk(ikName, ik), Status.InvalidArgument, "must be finite", "NaN IK mix refused");
            Expect(h.GetIk(ikName).Mix == 0.25, "a refused mix changes nothing");
        }
        ExpectThrows(() => h.GetTransformMix("no-such-constraint"), Status.NotFound, "transform constraint not found", "unknown transform constraint");
        ExpectThrows(() => h.Play(0, "no-such-animation"), Status.NotFound, "this rig's animations: `", "unknown animation lists the animations");
        string slot = component.Rig.Name(1, 0);
        h.SetAttachment(slot, null);
        Expect(h.Attachment(slot) == "", "attachment of " + slot + " hidden");
        ExpectThrows(() => h.SetAttachment(slot, "no-such-attachment"), Status.NotFound, "no-such-attachment", "unknown attachment");
        ExpectThrows(() => h.Track(999), Status.InvalidArgument, "track 999", "track out of range");
        if (args.Length > 5) TestJiggle(args[5]);

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
