// TestSliders.cs: the calls of ABI 106 from C#: Spine 4.3 sliders on
// testdata/spine43/slider-lab.json (counted, found, named; `move` keys wave-slider's time and
// mix to their closed forms; a slider set from code poses its animation as playing it does;
// bad values, indices and names refused with sinew's message) and the wind and gravity
// directions on testdata/spine43/physics-lab.json (defaults, read back, an updraft moves the
// physics bones, NaN refused). The same calls are checked bit for bit against the Rust facade
// by crates/sinew-capi/tests/all/sliders.rs.
using System;
using System.IO;
using Sinew;

public static class TestSliders
{
    static double Distance(Character a, Character b)
    {
        var wa = new WorldTransform[64];
        var wb = new WorldTransform[64];
        int n = a.BoneWorlds(wa), m = b.BoneWorlds(wb);
        T.Expect(n == m && n > 0, "the same bones");
        double d = 0;
        for (int i = 0; i < n; i++)
        {
            foreach (var v in new[] { wa[i].A - wb[i].A, wa[i].B - wb[i].B, wa[i].C - wb[i].C, wa[i].D - wb[i].D, wa[i].X - wb[i].X, wa[i].Y - wb[i].Y })
                d = Math.Max(d, Math.Abs(v));
        }
        return d;
    }

    static void Frames(Character c, int n) { for (int i = 0; i < n; i++) c.Update(1.0 / 60.0); }

    public static void Run(string root)
    {
        var dir = root + "/testdata/spine43/";
        using (var rig = Rig.LoadSpine(dir + "slider-lab.json"))
        using (var c = new Character(rig))
        using (var set = new Character(rig))
        using (var played = new Character(rig))
        {
            var names = new[] { "wave-slider", "nod-slider", "bend-slider", "off-slider", "tint-slider" };
            T.Expect(c.SliderCount == 5, "five sliders");
            for (int i = 0; i < names.Length; i++)
                T.Expect(c.SliderName(i) == names[i] && c.FindSlider(names[i]) == i, "slider " + i + " is " + names[i]);
            var off = c.GetSlider("off-slider");
            T.Expect(off.Time == 0.3 && off.Mix == 0, "off-slider's setup time and mix");

            // `move` keys wave-slider's time 0 -> 1.2 over 2 s and its mix 1 -> 0.5 over 1.5 s
            // (key values are f32: within 1e-6).
            int wave = c.FindSlider("wave-slider");
            c.SetAnimation(0, "move", true);
            Frames(c, 45);
            var p = c.GetSlider(wave);
            T.Expect(T.Near(p.Time, 0.6 * 0.75, 1e-6) && T.Near(p.Mix, 0.75, 1e-6), "wave-slider keyed (" + p.Time + ", " + p.Mix + ")");

            // A slider set from code: wave-slider at 0.25 with mix 1 poses `wave` at 0.25.
            set.SetSlider(wave, new SliderPose { Time = 0.25, Mix = 1 });
            played.SetSlider("wave-slider", new SliderPose { Time = 0, Mix = 0 });
            played.SetAnimation(0, "wave", false);
            set.Update(0.25);
            played.Update(0.25);
            T.Expect(Distance(set, played) < 1e-9, "a slider poses its animation as playing it does");
            set.SetSlider(wave, new SliderPose { Time = 0.75, Mix = 1 });
            set.Update(0);
            T.Expect(Distance(set, played) > 1, "control: at 0.75 the pose differs");

            T.Throws(() => c.FindSlider("dial"), Status.NotFound, "wave-slider", "unknown slider");
            T.Throws(() => c.GetSlider(5), Status.InvalidArgument, "5 sliders", "slider 5 of 5");
            T.Throws(() => c.SliderName(65536), Status.InvalidArgument, "out of range", "slider 65536");
            T.Throws(() => c.SetSlider(wave, new SliderPose { Time = double.NaN, Mix = 1 }), Status.InvalidArgument, "slider time must be finite", "NaN slider time");
            T.Throws(() => c.SetSlider(wave, new SliderPose { Time = 0, Mix = 1e30 }), Status.InvalidArgument, "", "huge slider mix");
            T.Expect(set.GetSlider(wave).Time == 0.75, "refused values change nothing");
        }
        using (var rig = Rig.LoadSpine(root + "/examples/stickbot/stickbot.json"))
        using (var c = new Character(rig))
        {
            T.Expect(c.SliderCount == 0, "a 4.2 rig has no slider");
            T.Throws(() => c.FindSlider("wave-slider"), Status.NotFound, "", "no slider on 4.2");
        }

        using (var rig = Rig.LoadSpine(dir + "physics-lab.json"))
        using (var up = new Character(rig))
        using (var plain = new Character(rig))
        {
            var d = up.PhysicsDirections;
            T.Expect(d.WindX == 1 && d.WindY == 0 && d.GravityX == 0 && d.GravityY == 1, "default directions");
            up.PhysicsDirections = new PhysicsDirections { WindX = 0, WindY = -1, GravityX = 0.6, GravityY = 0.8 };
            d = up.PhysicsDirections;
            T.Expect(d.WindY == -1 && d.GravityX == 0.6 && d.GravityY == 0.8, "the updraft read back");
            up.SetAnimation(0, "move", true);
            plain.SetAnimation(0, "move", true);
            Frames(up, 30);
            Frames(plain, 30);
            T.Expect(Distance(up, plain) > 1e-3, "the updraft moves the physics bones");
            T.Throws(() => up.PhysicsDirections = new PhysicsDirections { WindX = double.NaN, GravityY = 1 }, Status.InvalidArgument, "wind direction must be finite", "NaN wind");
            T.Expect(up.PhysicsDirections.WindY == -1, "a refused direction changes nothing");
        }
    }
}
