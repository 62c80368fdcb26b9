// TestControls.cs: the character calls of ABI 104 (constraint mixes by name, format-default
// playback, track times, attachments) on a rig with one constraint of each kind, and the
// DragonBones track controls (time scale, layers, fade out, play counts) against their
// closed forms (the arm's angle), as crates/sinew-capi/tests/all/dragonbones.rs checks them.
using System;
using Sinew;

public static class TestControls
{
    /// bindings/c/controls_test.c's rig: bones upper/lower (two-bone IK `leg-ik` to `target`),
    /// `follower` (transform `follow-tc`), `rider` (path `ride`), `tail` (physics `sway`); slot
    /// `hand` shows `fist` or `open`; animations `idle` (1 s) and `run` (0.5 s); every mix 0.
    const string RigJson = @"{""skeleton"":{""spine"":""4.2.22""},""bones"":[{""name"":""root""},{""name"":""upper"",""parent"":""root"",""length"":50,""rotation"":-90},{""name"":""lower"",""parent"":""upper"",""length"":50,""x"":50,""rotation"":30},{""name"":""target"",""parent"":""root"",""x"":40,""y"":-60},{""name"":""follower"",""parent"":""root"",""x"":-30},{""name"":""pathbone"",""parent"":""root""},{""name"":""rider"",""parent"":""root"",""length"":10},{""name"":""mover"",""parent"":""root""},{""name"":""tail"",""parent"":""mover"",""x"":10,""length"":50,""rotation"":30}],""slots"":[{""name"":""track"",""bone"":""pathbone"",""attachment"":""track""},{""name"":""hand"",""bone"":""lower"",""attachment"":""fist""}],""ik"":[{""name"":""leg-ik"",""order"":0,""bones"":[""upper"",""lower""],""target"":""target"",""mix"":0}],""transform"":[{""name"":""follow-tc"",""order"":1,""bones"":[""follower""],""target"":""target"",""mixRotate"":0,""mixX"":0,""mixY"":0,""mixScaleX"":0,""mixScaleY"":0,""mixShearY"":0}],""path"":[{""name"":""ride"",""order"":2,""bones"":[""rider""],""target"":""track"",""positionMode"":""percent"",""position"":0.1,""spacingMode"":""length"",""spacing"":5,""rotateMode"":""tangent"",""mixRotate"":0,""mixX"":0,""mixY"":0}],""physics"":[{""name"":""sway"",""order"":3,""bone"":""tail"",""x"":1,""rotate"":1,""inertia"":0.8,""strength"":120,""damping"":0.9,""mass"":2,""mix"":0}],""skins"":[{""name"":""default"",""attachments"":{""track"":{""track"":{""type"":""path"",""closed"":false,""constantSpeed"":true,""vertexCount"":6,""vertices"":[-20,-10,0,0,30,20,50,40,80,30,110,20],""lengths"":[89.24,172.94]}},""hand"":{""fist"":{""width"":10,""height"":10},""open"":{""width"":12,""height"":12}}}}],""animations"":{""idle"":{""bones"":{""mover"":{""translate"":[{""x"":0},{""time"":1,""x"":40}]}}},""run"":{""bones"":{""target"":{""translate"":[{""x"":0},{""time"":0.5,""x"":0}]}}}}}";

    static double ArmDegrees(Character c)
    {
        var w = c.BoneWorld("arm");
        return Math.Abs(Math.Atan2(w.C, w.A) * 180 / Math.PI);
    }

    static void Frames(Character c, int n) { for (int i = 0; i < n; i++) c.Update(1.0 / 60.0); }

    public static void Run(string root)
    {
        using (var rig = Rig.LoadSpineMemory(System.Text.Encoding.UTF8.GetBytes(RigJson)))
        using (var c = new Character(rig))
        {
            var ik = c.GetIk("leg-ik");
            var tm = c.GetTransformMix("follow-tc");
            var pm = c.GetPathMix("ride");
            var pp = c.GetPhysicsParams("sway");
            T.Expect(ik.Mix == 0 && ik.BendDirection == 1 && tm.X == 0 && pm.Position == 0.1 && pm.Spacing == 5, "setup mixes");
            T.Expect(pp.Strength == 120 && pp.MassInverse == 0.5 && pp.Mix == 0, "setup physics parameters");
            ik.Mix = 1; c.SetIk("leg-ik", ik);
            tm.X = 0.5; tm.Y = 0.25; c.SetTransformMix("follow-tc", tm);
            pm.MixRotate = 1; pm.Position = 0.3; c.SetPathMix("ride", pm);
            pp.Mix = 1; pp.Wind = 3; c.SetPhysicsParams("sway", pp);
            T.Expect(c.GetIk("leg-ik").Mix == 1 && c.GetTransformMix("follow-tc").Y == 0.25, "IK and transform mixes set");
            T.Expect(c.GetPathMix("ride").Position == 0.3 && c.GetPhysicsParams("sway").Wind == 3, "path and physics set");
            Frames(c, 3);
            // Full IK: the lower bone's tip reaches the target (40, -60); the follower moved half
            // way to the target in x and a quarter in y.
            var lower = c.BoneWorld("lower");
            T.Expect(T.Near(lower.X + 50 * lower.A, 40, 0.5) && T.Near(lower.Y + 50 * lower.C, -60, 0.5), "the leg reaches the target");
            var follower = c.BoneWorld("follower");
            T.Expect(T.Near(follower.X, 5, 1e-4) && T.Near(follower.Y, -15, 1e-4), "the follower at (5, -15)");
            ik.Mix = double.NaN;
            T.Throws(() => c.SetIk("leg-ik", ik), Status.InvalidArgument, "must be finite", "NaN IK mix");
            ik.Mix = 1; ik.BendDirection = 0;
            T.Throws(() => c.SetIk("leg-ik", ik), Status.InvalidArgument, "", "bend direction 0");
            pp.MassInverse = -1;
            T.Throws(() => c.SetPhysicsParams("sway", pp), Status.InvalidArgument, "", "negative inverse mass");
            T.Throws(() => c.GetTransformMix("leg-ik"), Status.NotFound, "this rig's transform constraints: `follow-tc`", "an IK is no transform constraint");
            T.Expect(c.GetIk("leg-ik").BendDirection == 1, "refused values change nothing");

            // Tracks and durations.
            T.Expect(c.AnimationDuration("idle") == 1 && c.AnimationDuration("run") == 0.5, "durations 1 and 0.5 s");
            T.Expect(!c.Track(0).IsPlaying && c.Track(0).AnimationName == "", "nothing plays yet");
            c.SetAnimation(0, "run", true);
            Frames(c, 45);
            var t = c.Track(0);
            T.Expect(t.IsPlaying && t.AnimationName == "run" && t.IsLooping && t.PlayTimes == -1, "run loops");
            T.Expect(T.Near(t.TrackTime, 0.75, 1e-9) && T.Near(t.AnimationTime, 0.25, 1e-9) && t.Duration == 0.5 && t.IsComplete, "run at 0.75 s wraps to 0.25");
            T.Throws(() => c.Track(256), Status.InvalidArgument, "", "track 256");
            c.Play(0, "idle", 0, 1);
            T.Expect(!c.Track(0).IsLooping && c.Track(0).AnimationName == "idle", "a Spine clip played once");

            // Attachments by name.
            T.Expect(c.Attachment("hand") == "fist" && c.AttachmentView("hand").Equals("fist"), "hand shows fist");
            c.SetAttachment("hand", "open");
            T.Expect(c.Attachment("hand") == "open", "hand shows open");
            c.SetAttachment("hand", null);
            T.Expect(c.Attachment("hand") == "", "hand hidden");
            T.Throws(() => c.SetAttachment("hand", "sword"), Status.NotFound, "`fist`, `open`", "unknown attachment lists the slot's");
            T.Throws(() => c.SetAttachment("foot", "open"), Status.NotFound, "this rig's slots: `track`, `hand`", "unknown slot");
        }

        // DragonBones: play counts, a track played backwards, layers, fading a track out.
        using (var db = Rig.LoadDragonBonesMemory(TestRig.DbSke, TestRig.DbTex))
        {
            using (var c = new Character(db))
            {
                c.Play(0, "spin", 0, 2);
                var t = c.Track(0);
                T.Expect(t.PlayTimes == 2 && !t.IsLooping && T.Near(c.AnimationDuration("spin"), 1, 1e-12), "spin plays twice, 1 s each");
                Frames(c, 150);
                t = c.Track(0);
                T.Expect(t.IsComplete && T.Near(ArmDegrees(c), 90, 1e-9), "after two plays the end holds at 90 degrees (" + ArmDegrees(c) + ")");
                T.Throws(() => c.Play(0, "spin", double.NaN, 1), Status.InvalidArgument, "", "NaN fade-in");
            }
            using (var back = new Character(db))
            using (var fwd = new Character(db))
            {
                T.Throws(() => back.SetTrackTimeScale(0, -1), Status.InvalidArgument, "", "no clip to scale yet");
                back.Play(0, "spin", 0, 0);
                fwd.Play(0, "spin", 0, 0);
                back.SetTrackTimeScale(0, -1);
                Frames(back, 15);
                Frames(fwd, 45);
                T.Expect(T.Near(ArmDegrees(back), 67.5, 1e-4) && T.Near(ArmDegrees(fwd), 67.5, 1e-4), "0.25 s backwards is 0.75 s forwards: 67.5 degrees (" + ArmDegrees(back) + ")");
            }
            // tilt fading in over 0.5 s on track 1 over spin on track 0, 0.25 s in: on its own
            // (higher) layer it takes half the weight first (31.25 degrees); on layer 0 the
            // weights add (42.5 degrees).
            for (int layered = 0; layered < 2; layered++)
            {
                using (var c = new Character(db))
                {
                    if (layered == 0) c.SetTrackLayer(1, 0);
                    c.Play(0, "spin", 0, 0);
                    c.Play(1, "tilt", 0.5, 0);
                    Frames(c, 15);
                    double want = layered == 1 ? 31.25 : 42.5;
                    T.Expect(T.Near(ArmDegrees(c), want, 1e-9), "layers: " + ArmDegrees(c) + " degrees, want " + want);
                }
            }
            using (var c = new Character(db))
            {
                T.Throws(() => c.SetTrackLayer(256, 1), Status.InvalidArgument, "", "layer of track 256");
                T.Throws(() => c.FadeOutTrack(1, 0.5), Status.InvalidArgument, "", "nothing to fade out");
                c.Play(1, "tilt", 0, 0);
                Frames(c, 1);
                c.FadeOutTrack(1, 0.5);
                Frames(c, 15);
                T.Expect(T.Near(ArmDegrees(c), 20, 1e-9), "half faded out: 20 degrees (" + ArmDegrees(c) + ")");
                Frames(c, 30);
                T.Expect(ArmDegrees(c) < 1e-9, "faded out");
            }
        }
    }
}
