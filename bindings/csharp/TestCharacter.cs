// TestCharacter.cs: Character's playback, placement, events, bones, IK targets, parameters,
// render output and masks, UpdateMany, and the pose after N frames against the Rust facade
// (`sinew dump`, written by bindings/run.sh as "name a b c d x y" lines).
using System;
using System.Globalization;
using System.IO;
using System.Runtime.InteropServices;
using Sinew;

public static class TestCharacter
{
    public static void Run(string root)
    {
        var dir = root + "/examples/stickbot/";
        using (var rig = Rig.LoadSpine(dir + "stickbot.json", dir + "stickbot.atlas"))
        using (var c = new Character(rig))
        using (var c2 = new Character(rig))
        {
            T.Expect(c.RigInfo.Bones == 20, "RigInfo on the character");
            c.SetAnimation(0, "walk", true);
            T.Throws(() => c.SetAnimation(0, "fly"), Status.NotFound, "this rig's animations: `walk`, `turn`", "unknown animation lists them");
            c.AddAnimation(1, "turn", false, 0.5, 0.2);
            c.AddAnimation(1, "turn", false);
            T.Throws(() => c.AddAnimation(1, "turn", false, double.PositiveInfinity, 0.2), Status.InvalidArgument, "", "infinite delay");
            c.SetEmptyAnimation(1, 0.3);
            c.ClearTrack(1);
            T.Expect(!c.Track(1).IsPlaying && c.Track(0).AnimationName == "walk", "track 1 cleared, 0 walks");
            c.SetTimeScale(1);
            T.Throws(() => c.SetTimeScale(-1), Status.InvalidArgument, "", "negative time scale");
            c.SetMix("walk", "turn", 0.2);
            T.Throws(() => c.SetMix("walk", "swim", 0.2), Status.NotFound, "swim", "unknown mix target");
            c.SetDefaultMix(0.1);
            c.SetSkins("default");
            T.Throws(() => c.SetSkins("default", "nope"), Status.NotFound, "nope", "unknown skin");
            c.SetSkins("default");
            c.SetToSetupPose();
            c.SetToSetupPose(true);
            c.SetTransform(10, 5);
            T.Throws(() => c.SetTransform(double.NaN, 5), Status.InvalidArgument, "", "NaN position");
            c.SetColor(1, 0.5f, 1, 1);
            c.SetPhysics(PhysicsMode.Update, true);
            T.Throws(() => c.SetPhysics((PhysicsMode)9), Status.InvalidArgument, "", "physics mode 9");

            // Events polled each frame: walk's footsteps, compared without allocating.
            int footsteps = 0, starts = 0;
            for (int f = 0; f < 90; f++)
            {
                c.Update(1.0 / 60.0);
                for (int e = 0; e < c.EventCount; e++)
                {
                    var ev = c.GetEvent(e);
                    if (ev.EventKind == EventKind.Event && ev.Name.Equals("footstep")) footsteps++;
                    if (ev.EventKind == EventKind.Start && ev.Animation.Equals("walk")) starts++;
                }
                if (f == 0) T.Throws(() => c.GetEvent(c.EventCount), Status.InvalidArgument, "", "event out of range");
            }
            T.Expect(footsteps >= 1 && starts == 1, "footsteps " + footsteps + ", walk started once (" + starts + ")");

            // Track times: 90 frames in, the set_to_setup_pose/skins calls kept the entry.
            var t = c.Track(0);
            T.Expect(t.IsPlaying && t.IsLooping && T.Near(t.TrackTime, 1.5, 1e-9) && t.PlayTimes == -1, "walk track time 1.5 s (" + t.TrackTime + ")");

            // Bones: local get, hold, clear; world; all worlds; the world's x is offset by the transform.
            var pose = c.BoneLocal("head");
            var held = pose;
            held.Rotation += 30;
            c.SetBoneLocal("head", held);
            T.Throws(() => c.SetBoneLocal("tail", held), Status.NotFound, "tail", "unknown bone to hold");
            c.Update(1.0 / 60.0);
            T.Expect(T.Near(c.BoneLocal("head").Rotation, held.Rotation, 1e-9), "held rotation " + c.BoneLocal("head").Rotation);
            var w = c.BoneWorld("head");
            c.ClearBoneLocal("head");
            c.MarkBoneMoved("head");
            c.Update(1.0 / 60.0);
            T.Expect(!T.Near(c.BoneLocal("head").Rotation, held.Rotation, 1e-6), "cleared: the walk poses the head again");
            T.Throws(() => c.BoneWorld("tail"), Status.NotFound, "tail", "unknown bone world");
            T.Throws(() => c.BoneWorlds(new WorldTransform[2]), Status.BufferTooSmall, "", "short bone buffer");
            var worlds = new WorldTransform[32];
            T.Expect(c.BoneWorlds(worlds) == 20, "20 bone worlds");
            var head = worlds[rig.FindBone("head")];
            var wh = c.BoneWorld("head");
            T.Expect(head.X == wh.X && head.Y == wh.Y && head.A == wh.A, "BoneWorlds agrees with BoneWorld");
            T.Expect(w.X != wh.X || w.A != wh.A, "holding the head changed its world transform");
            T.Expect(worlds[0].X == 10 && worlds[0].Y == 5, "root at the transform (10, 5): " + worlds[0].X + ", " + worlds[0].Y);

            // IK target: the front hand reaches a point within its reach.
            var shoulder = c.BoneWorld("arm-upper-front");
            double tx = shoulder.X + 30, ty = shoulder.Y - 30;
            c.SetIkTarget("arm-front-ik", tx, ty);
            c.Update(1.0 / 60.0);
            T.Expect(T.Near(c.BoneWorld("hand-target-front").X, tx, 1e-6) && T.Near(c.BoneWorld("hand-target-front").Y, ty, 1e-6), "IK target held at the point");
            c.ClearIkTarget("arm-front-ik");
            T.Throws(() => c.ClearIkTarget("no-ik"), Status.NotFound, "no-ik", "unknown IK");
            T.Throws(() => c.SetParam("ParamAngle", 1), Status.NotFound, "ParamAngle", "a Spine rig has no parameters");

            // Render: batches cover every command; GetBatch reads as the marshaller does.
            var rd = c.Render();
            T.Expect(rd.BatchTotal >= 1 && rd.BatchTotal <= (int)rd.CommandCount && rd.VertexTotal > 0 && rd.IndexTotal > 0, "stickbot renders");
            uint merged = 0;
            bool same = true, inRange = true;
            var idx = new short[rd.IndexTotal];
            rd.CopyIndices(idx);
            for (int b = 0; b < rd.BatchTotal; b++)
            {
                var batch = rd.GetBatch(b);
                same &= batch.Equals(Marshal.PtrToStructure<Batch>(rd.Batches + b * Marshal.SizeOf<Batch>()));
                merged += batch.CommandCount;
                for (int k = 0; k < batch.IndexCount; k++) inRange &= (idx[batch.IndexStart + k] & 0xFFFF) < batch.VertexCount;
            }
            T.Expect(same && merged == (uint)rd.CommandCount && inRange, "batches read field by field, indices in range");
            var pos = new float[2 * rd.VertexTotal];
            var uvs = new float[2 * rd.VertexTotal];
            var cols = new float[4 * rd.VertexTotal];
            var dark = new float[4 * rd.VertexTotal];
            rd.CopyPositions(pos); rd.CopyUvs(uvs); rd.CopyColors(cols); rd.CopyDarkColors(dark);
            bool uvOk = true, tint = true;
            for (int v = 0; v < rd.VertexTotal; v++)
            {
                uvOk &= uvs[2 * v] >= 0 && uvs[2 * v] <= 1 && uvs[2 * v + 1] >= 0 && uvs[2 * v + 1] <= 1;
                tint &= cols[4 * v + 1] <= 0.5f + 1e-6f; // SetColor(1, 0.5, 1, 1) halves green
            }
            T.Expect(uvOk && tint, "uvs in 0..1, the tint halves green");
            T.Expect(rd.ClipCount.ToUInt64() >= 1, "the visor clip polygon");
            var clip = rd.GetClip(0);
            var clipXy = new float[2 * clip.VertexCount];
            rd.CopyClipVertices(0, clipXy);
            T.Expect(clip.VertexCount >= 3 && clipXy[0] == Marshal.PtrToStructure<float>(rd.ClipVertices + 8 * (int)clip.VertexStart), "clip polygon copied");
            T.Throws(() => c.Mask((MaskKind)5, 0, null, out _), Status.InvalidArgument, "", "mask kind 5");
            T.Expect(c.Mask(MaskKind.Slot, 0, null, out _) == 0, "stickbot's slots have no masks");

            // UpdateMany on 2 threads equals Update() one by one, bit for bit.
            c.SetTransform(0, 0);
            c.ClearTracks();
            c.SetToSetupPose();
            c.SetAnimation(0, "walk", true);
            c2.SetAnimation(0, "walk", true);
            c.Update(0); c2.Update(0);
            using (var lone = new Character(rig))
            {
                lone.SetAnimation(0, "walk", true);
                lone.Update(0);
                var many = new[] { c2, lone };
                for (int f = 0; f < 20; f++) { Library.UpdateMany(many, 1, 1.0 / 60.0, 2); lone.Update(1.0 / 60.0); }
                var a = new WorldTransform[20]; var b = new WorldTransform[20];
                c2.BoneWorlds(a); lone.BoneWorlds(b);
                bool eq = true;
                for (int i = 0; i < 20; i++) eq &= a[i].Equals(b[i]);
                T.Expect(eq, "UpdateMany equals Update()");
                many[1] = c2;
                T.Throws(() => Library.UpdateMany(many, 1.0 / 60.0, 2), Status.InvalidArgument, "", "a character listed twice");
                T.Throws(() => Library.UpdateMany(many, 1, 1.0 / 60.0, 65), Status.InvalidArgument, "", "65 threads");
            }
            c.Dispose();
            T.ThrowsDisposed(() => c.Update(0.1), "a disposed character");
        }

        // A puppet: parameters, a parameter animation, masks.
        using (var face = Rig.LoadInochi2D(root + "/examples/face/face.inp"))
        using (var p = new Character(face))
        {
            p.SetParam("ParamAngle", 12.5, -3);
            T.Throws(() => p.SetParam("ParamAngle", double.PositiveInfinity), Status.InvalidArgument, "", "infinite parameter");
            T.Throws(() => p.SetParam("ParamNose", 1), Status.NotFound, "ParamNose", "unknown parameter");
            p.Update(1.0 / 60.0);
            p.GetParam("ParamAngle", out var x, out var y);
            T.Expect(x == 12.5 && y == -3, "ParamAngle reads back (12.5, -3)");
            p.PlayParamAnimation("idle");
            T.Throws(() => p.PlayParamAnimation("dance"), Status.NotFound, "dance", "unknown parameter animation");
            for (int f = 0; f < 30; f++) p.Update(1.0 / 60.0);
            p.GetParam("ParamAngle", out var ax, out _);
            T.Expect(ax != 12.5, "idle moves ParamAngle (" + ax + ")");
            var rd = p.Render();
            int masked = 0;
            var sources = new MaskSource[8];
            for (int b = 0; b < rd.BatchTotal; b++)
            {
                var batch = rd.GetBatch(b);
                if (batch.MaskSlot < 0) continue;
                masked++;
                int need = p.Mask(MaskKind.Slot, (uint)batch.MaskSlot, null, out _);
                int n = p.Mask(MaskKind.Slot, (uint)batch.MaskSlot, sources, out var threshold);
                T.Expect(need >= 1 && n == need && sources[0].Slot < face.Info.Slots && threshold >= 0 && threshold <= 1, "mask of slot " + batch.MaskSlot);
            }
            T.Expect(masked >= 1, "face has masked batches (" + masked + ")");
            T.Throws(() => p.Mask(MaskKind.Slot, 100000, sources, out _), Status.InvalidArgument, "", "mask of no slot");
        }
    }

    /// Characters driven by name from two threads at once (each thread its own UTF-8
    /// scratch) pose as the same calls made on one thread.
    public static void Threads(string root)
    {
        var dir = root + "/examples/stickbot/";
        using (var rig = Rig.LoadSpine(dir + "stickbot.json"))
        {
            var poses = new WorldTransform[4][];
            Action<int> drive = i =>
            {
                using (var c = new Character(rig))
                {
                    c.SetAnimation(0, i % 2 == 0 ? "walk" : "turn", true);
                    for (int f = 0; f < 60; f++)
                    {
                        c.SetIkTarget("arm-front-ik", 40 + f, 100 - f);
                        c.SetBoneLocal("head", new BonePose { Rotation = f, ScaleX = 1, ScaleY = 1 });
                        c.Update(1.0 / 60.0);
                    }
                    poses[i] = new WorldTransform[rig.Info.Bones];
                    c.BoneWorlds(poses[i]);
                }
            };
            var threads = new[] { new System.Threading.Thread(() => drive(0)), new System.Threading.Thread(() => drive(1)) };
            foreach (var t in threads) t.Start();
            foreach (var t in threads) t.Join();
            drive(2);
            drive(3);
            bool same = true;
            for (int b = 0; b < poses[0].Length; b++) same &= poses[0][b].Equals(poses[2][b]) && poses[1][b].Equals(poses[3][b]);
            T.Expect(same && !poses[0][4].Equals(poses[1][4]), "two threads driving characters by name pose as one thread does");
        }
    }

    /// The pose after `frames` frames at 60 fps equals the Rust facade's (sinew dump) exactly.
    public static void AgainstRust(string skeleton, string atlas, string anim, int frames, string expected)
    {
        using (var rig = Rig.LoadSpine(skeleton, atlas))
        using (var c = new Character(rig))
        {
            c.SetAnimation(0, anim, true);
            for (int f = 0; f < frames; f++) c.Update(1.0 / 60.0);
            var worlds = new WorldTransform[rig.Info.Bones];
            c.BoneWorlds(worlds);
            double maxDiff = 0;
            int compared = 0;
            foreach (var line in File.ReadAllLines(expected))
            {
                var p = line.Split(' ');
                if (p.Length != 7) continue;
                var wt = worlds[rig.FindBone(p[0])];
                double[] got = { wt.A, wt.B, wt.C, wt.D, wt.X, wt.Y };
                for (int k = 0; k < 6; k++)
                    maxDiff = Math.Max(maxDiff, Math.Abs(got[k] - double.Parse(p[k + 1], CultureInfo.InvariantCulture)));
                compared++;
            }
            T.Expect(compared == (int)rig.Info.Bones && maxDiff == 0, "pose equals the Rust facade's: " + compared + " bones, max diff " + maxDiff);
            Console.WriteLine("C#: " + compared + " bones after " + frames + " frames of " + anim + ", max diff vs Rust " + maxDiff);
        }
    }
}
