// TestSample.cs: the Hero sample run by UnityLoop for 2.5 s at 60 fps beside reference
// characters stepped the same way, checked frame by frame: the banner is the affine image
// of its rest points (a parallelogram cage moves by an affine map, which mean value
// coordinates reproduce exactly), the crossfade happens when asked and blends (the pose
// differs from an unmixed switch while it runs), the jiggle fade is linear and ends on the
// animated pose, the face's ParamAngle is the head's turn, the chest cage holds the host's
// points and moves only the torso (against a second Hero that does not breathe). Also the
// SinewCharacter and MvcDeformer components.
using System;
using Sinew;

public static class TestSample
{
    static double MaxBoneDiff(Character a, Character b, WorldTransform[] wa, WorldTransform[] wb)
    {
        a.BoneWorlds(wa); b.BoneWorlds(wb);
        double d = 0;
        for (int i = 0; i < wa.Length; i++)
            d = Math.Max(d, Math.Max(Math.Max(Math.Abs(wa[i].X - wb[i].X), Math.Abs(wa[i].Y - wb[i].Y)), Math.Max(Math.Abs(wa[i].A - wb[i].A), Math.Abs(wa[i].C - wb[i].C))));
        return d;
    }

    public static void Run(string root)
    {
        var dir = root + "/examples/stickbot/";
        var hero = new Hero { root = root };
        var calm = new Hero { root = root, breathDepth = 0 }; // the same, not breathing
        using (var rig = Rig.LoadSpine(dir + "stickbot.json", dir + "stickbot.atlas", dir + "stickbot.extras.json"))
        using (var unmixed = new Character(rig))
        using (var still = new Character(rig))
        {
            // unmixed: the same schedule with no crossfade; still: the same schedule, no jiggle.
            unmixed.SetMix("walk", "turn", 0);
            still.SetMix("walk", "turn", hero.mixTime);
            still.SetJiggleEnabled(false);
            foreach (var c in new[] { unmixed, still }) { c.SetAnimation(0, "walk", true); c.Update(0); }
            var wa = new WorldTransform[rig.Info.Bones];
            var wb = new WorldTransform[rig.Info.Bones];
            float clock = 0, dt = 1f / 60;
            bool turned = false;
            bool faceSame = true, chestSame = true, breathOk = true;
            int maxBreathing = 0;
            var chestRead = new float[6];
            float[] ph = new float[0], ps = new float[0];
            double bannerErr = 0, bannerMoved = 0, mixDiff = 0, faceMax = 0, halfFade = double.NaN, endDiff = double.NaN;
            int turnFrame = (int)Math.Round(hero.turnAt * 60) + 1, mixFrames = (int)(hero.mixTime * 60);
            var want = new float[2];
            UnityLoop.Run(150, dt, frame =>
            {
                if (!turned && clock + 1e-6f >= hero.turnAt) { unmixed.SetAnimation(0, "turn", true); still.SetAnimation(0, "turn", true); turned = true; }
                unmixed.Update(dt); still.Update(dt);
                clock += dt;
                // The banner: each point where its (u, v) in the moved parallelogram puts it.
                var cage = hero.BannerCage;
                for (int j = 0, k = 0; j < 3; j++)
                    for (int i = 0; i < 4; i++, k += 2)
                    {
                        float u = (i + 0.5f) / 4, v = (j + 0.5f) / 3;
                        if (hero.Clockwise) u = 1 - u;
                        want[0] = cage[0] + u * (cage[6] - cage[0]) + v * (cage[2] - cage[0]);
                        want[1] = cage[1] + u * (cage[7] - cage[1]) + v * (cage[3] - cage[1]);
                        bannerErr = Math.Max(bannerErr, Math.Max(Math.Abs(want[0] - hero.BannerPoints[k]), Math.Abs(want[1] - hero.BannerPoints[k + 1])));
                        bannerMoved = Math.Max(bannerMoved, Math.Abs(hero.BannerPoints[k] - hero.BannerRest[k]));
                    }
                if (frame > turnFrame && frame < turnFrame + mixFrames) mixDiff = Math.Max(mixDiff, MaxBoneDiff(hero.Body, unmixed, wa, wb));
                if (frame == (int)Math.Round((hero.calmAt + hero.calmFade / 2) * 60)) halfFade = hero.Body.GetJiggleStrength("hair");
                // The chest cage holds what the host wrote; only the torso's 15 vertices breathe.
                hero.Body.CagePoints(0, chestRead);
                for (int i = 0; i < 6; i++) chestSame &= chestRead[i] == hero.ChestPoints[i];
                var rh = hero.Body.Render(); var rs = calm.Body.Render();
                if (ph.Length < 2 * rh.VertexTotal) { ph = new float[2 * rh.VertexTotal]; ps = new float[2 * rh.VertexTotal]; }
                rh.CopyPositions(ph); rs.CopyPositions(ps);
                int breathing = 0;
                for (int v = 0; v < rh.VertexTotal; v++) if (ph[2 * v] != ps[2 * v] || ph[2 * v + 1] != ps[2 * v + 1]) breathing++;
                breathOk &= rh.VertexTotal == rs.VertexTotal && breathing <= 15;
                maxBreathing = Math.Max(maxBreathing, breathing);
                hero.Face.GetParam("ParamAngle", out var fx, out _);
                faceSame &= fx == hero.FaceAngle;
                faceMax = Math.Max(faceMax, Math.Abs(fx));
                if (frame == 150)
                {
                    endDiff = MaxBoneDiff(hero.Body, still, wa, wb);
                    T.Expect(hero.Body.GetJiggleStrength("cape") == 0 && hero.Body.GetJiggleStrength("hair") == 0 && hero.Body.GetJiggleEffectiveStrength("hair") == 0, "jiggle faded to 0");
                    T.Expect(hero.Body.Track(0).AnimationName == "turn", "turn plays at the end");
                }
            }, hero, calm);
            T.Expect(bannerErr < 1e-3, "the banner is the affine image of its rest points (max error " + bannerErr + ")");
            T.Expect(bannerMoved > 5, "the banner moved with the forearms (" + bannerMoved + " units)");
            T.Expect(hero.TurnStartedFrame == turnFrame && hero.WalkInterruptedFrame == turnFrame,
                "turn started and walk was interrupted at frame " + turnFrame + " (" + hero.TurnStartedFrame + ", " + hero.WalkInterruptedFrame + ")");
            T.Expect(mixDiff > 1e-3, "the crossfade blends: the pose differs from an unmixed switch by " + mixDiff);
            T.Expect(T.Near(halfFade, 0.5, 1e-6), "half way through the fade the strength is 0.5 (" + halfFade + ")");
            T.Expect(endDiff == 0, "faded out, the pose is the animated pose (max diff " + endDiff + ")");
            T.Expect(chestSame, "every frame the chest cage holds the points the host wrote");
            T.Expect(breathOk && maxBreathing == 15, "breathing moves the torso's 15 vertices and no other (at most " + maxBreathing + ")");
            T.Expect(faceSame, "every frame the face's ParamAngle is the head's turn");
            T.Expect(faceMax > 0.5, "the face turned with the head (up to " + faceMax + ")");
            T.Expect(hero.DrawCalls >= 1 && hero.Body == null && hero.Face == null, "drew, then OnDestroy freed everything");
            Console.WriteLine("C# sample: banner within " + bannerErr + " of its affine image, moved " + bannerMoved.ToString("0.0") +
                " units; crossfade differs by " + mixDiff.ToString("0.00") + " from an unmixed switch; face turned up to " + faceMax.ToString("0.0") + " degrees");
        }

        // The plain components: a character rendering draw calls, a cage deformer following its cage.
        var sc = new SinewCharacter { skeletonPath = dir + "stickbot.json", atlasPath = dir + "stickbot.atlas", animationName = "walk" };
        var d = new MvcDeformer { cage = new float[] { 0, 0, 10, 0, 10, 10, 0, 10 }, points = new float[] { 2, 3, 7, 7 } };
        int moved = 0;
        UnityLoop.Run(10, 1f / 60, f =>
        {
            for (int i = 0; i < d.movedCage.Length; i++) d.movedCage[i] = d.cage[i] + f; // game code, for the next Update
            if (f > 1 && T.Near(d.deformed[0], 2 + f - 1, 1e-4) && T.Near(d.deformed[3], 7 + f - 1, 1e-4)) moved++;
        }, sc, d);
        T.Expect(moved == 9, "the deformer follows its cage a frame behind the game code (" + moved + " of 9)");
        T.Expect(sc.LastDrawCalls >= 1 && sc.Positions.Length > 0 && sc.Character == null, "SinewCharacter drew and was destroyed");
    }
}
