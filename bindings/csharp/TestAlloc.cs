// TestAlloc.cs: the per-frame calls allocate nothing on the managed heap once warm
// (GC.GetAllocatedBytesForCurrentThread over 120 frames): names through the UTF-8 scratch,
// events compared in place, render output read and copied into reused arrays, bone worlds,
// parameters, IK targets, jiggle strength and view, cage deforms, UpdateMany.
using System;
using Sinew;

public static class TestAlloc
{
    public static void Run(string root)
    {
        var dir = root + "/examples/stickbot/";
        using (var rig = Rig.LoadSpine(dir + "stickbot.json", dir + "stickbot.atlas", dir + "stickbot.extras.json"))
        using (var face = Rig.LoadInochi2D(root + "/examples/face/face.inp"))
        using (var c = new Character(rig))
        using (var other = new Character(rig))
        using (var p = new Character(face))
        using (var cage = new Cage())
        {
            c.SetAnimation(0, "walk", true);
            other.SetAnimation(0, "walk", true);
            var cageXy = new float[] { 0, 0, 10, 0, 10, 10, 0, 10 };
            cage.BindPolygons(cageXy, new uint[] { 4 }, new float[] { 2, 3, 7, 7, 5, 5 });
            var deformed = new float[6];
            var worlds = new WorldTransform[rig.Info.Bones];
            var positions = new float[1 << 16];
            var colors = new float[1 << 17];
            var indices = new short[1 << 16];
            var group = new[] { c, other };
            int footsteps = 0;
            double sum = 0;
            long before = 0;
            for (int f = 0; f < 121; f++)
            {
                if (f == 1) before = GC.GetAllocatedBytesForCurrentThread(); // frame 0 warms up (JIT, scratch)
                c.SetJiggleStrength("hair", (f % 10) / 10.0);
                c.SetJiggleView(-1e4 + f, -1e4, 1e4, 1e4);
                c.SetIkTarget("arm-front-ik", 40 + f % 7, 120);
                c.Update(1.0 / 60.0);
                Library.UpdateMany(group, 2, 1.0 / 60.0, 2);
                for (int e = 0; e < c.EventCount; e++)
                {
                    var ev = c.GetEvent(e);
                    if (ev.EventKind == EventKind.Event && ev.Name.Equals("footstep")) footsteps++;
                }
                sum += c.BoneWorld("head").X + c.BoneWorlds(worlds) + c.Track(0).TrackTime;
                sum += c.GetJiggleStrength("hair") + (c.JiggleCulled ? 1 : 0) + (c.AttachmentView("head").Equals("head") ? 1 : 0);
                var rd = c.Render();
                for (int b = 0; b < rd.BatchTotal; b++) sum += rd.GetBatch(b).IndexCount;
                rd.CopyPositions(positions);
                rd.CopyColors(colors);
                rd.CopyIndices(indices);
                p.SetParam("ParamAngle", f % 30, -(f % 20));
                p.Update(1.0 / 60.0);
                p.GetParam("ParamAngle", out var x, out var y);
                sum += x + y;
                cageXy[0] = f * 0.01f;
                cage.Deform(cageXy, deformed);
                sum += deformed[0];
            }
            long bytes = GC.GetAllocatedBytesForCurrentThread() - before;
            T.Expect(bytes == 0, "120 frames of per-frame calls allocated " + bytes + " bytes");
            T.Expect(footsteps >= 1 && !double.IsNaN(sum), "the frames ran (" + footsteps + " footsteps)");
            Console.WriteLine("C#: 120 frames of per-frame calls allocated " + bytes + " managed bytes");
        }
    }
}
