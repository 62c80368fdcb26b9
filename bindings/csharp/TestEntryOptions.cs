// TestEntryOptions.cs: the calls of ABI 107 from C#: Spine 4.3 track entry options and mix
// weights (alpha 0.5 weights a layer as its closed form says). On a
// one-bone 4.3 rig written here the poses follow closed forms (an additive layer adds its
// rotation, a replacing one does not; a crossfade's weight follows the entry's curve); on
// testdata/spine43/slider-lab.json a queued entry's options are its own and move with it when
// it starts; misuse (empty tracks, track 256, unknown curves and selectors, flags not 0/1,
// additive on Spine 4.2, any option on DragonBones) throws with sinew's status and message and
// changes nothing. The same calls are checked bit for bit against the Rust facade by
// crates/sinew-capi/tests/all/entry_options.rs.
using System;
using System.Text;
using Sinew;

public static class TestEntryOptions
{
    // One bone `b` (setup rotation 10); `still` holds x 0, `go` x 100 and rotation +20, `tilt`
    // rotation +5.
    const string RigJson = "{\"skeleton\":{\"spine\":\"VERSION\"},\"bones\":[{\"name\":\"root\"},"
        + "{\"name\":\"b\",\"parent\":\"root\",\"rotation\":10}],\"animations\":{"
        + "\"still\":{\"bones\":{\"b\":{\"translate\":[{\"x\":0}]}}},"
        + "\"go\":{\"bones\":{\"b\":{\"translate\":[{\"x\":100}],\"rotate\":[{\"value\":20}]}}},"
        + "\"tilt\":{\"bones\":{\"b\":{\"rotate\":[{\"value\":5}]}}}}}";

    const string DbSke = "{\"name\":\"tiny\",\"version\":\"5.5\",\"frameRate\":30,\"armature\":[{\"type\":\"Armature\","
        + "\"name\":\"tiny\",\"frameRate\":30,\"bone\":[{\"name\":\"root\"},{\"name\":\"arm\",\"parent\":\"root\",\"length\":40}],"
        + "\"animation\":[{\"name\":\"spin\",\"duration\":30,\"playTimes\":0,\"bone\":[{\"name\":\"arm\","
        + "\"frame\":[{\"duration\":30,\"tweenEasing\":0,\"transform\":{}},{\"duration\":0,\"transform\":{\"skX\":90,\"skY\":90}}]}]}]}]}";

    static Rig Load(string version) => Rig.LoadSpineMemory(Encoding.UTF8.GetBytes(RigJson.Replace("VERSION", version)));

    static BonePose Layered(Rig rig, bool additive, double alpha = 1.0)
    {
        using (var c = new Character(rig))
        {
            c.SetAnimation(0, "go");
            c.SetAnimation(1, "tilt");
            c.SetEntryOptions(1, TrackEntry.Current, EntryOptions.Of(additive: additive));
            T.Expect(c.GetEntryAlpha(1) == 1.0, "an entry starts at alpha 1");
            c.SetEntryAlpha(1, TrackEntry.Current, alpha);
            T.Expect(c.GetEntryAlpha(1, TrackEntry.Last) == alpha, "alpha reads back");
            c.Update(0.25);
            return c.BoneLocal("b");
        }
    }

    static double CrossfadeX(Rig rig, MixInterpolation curve, uint power)
    {
        using (var c = new Character(rig))
        {
            c.SetMix("still", "go", 1.0);
            c.SetAnimation(0, "still");
            c.Update(0.125);
            c.SetAnimation(0, "go");
            c.SetEntryOptions(0, TrackEntry.Current, EntryOptions.Of(mix: curve, power: power));
            c.Update(0.125);
            c.Update(0.125);
            return c.BoneLocal("b").X;
        }
    }

    static bool Same(EntryOptions a, EntryOptions b) =>
        a.Additive == b.Additive && a.KeepHold == b.KeepHold && a.MixInterpolation == b.MixInterpolation && a.MixPower == b.MixPower;

    public static void Run(string root)
    {
        using (var rig = Load("4.3.13"))
        {
            var add = Layered(rig, true);
            var replace = Layered(rig, false);
            T.Expect(add.Rotation == 35 && add.X == 100, "additive tilt adds 5 to go's 30 (" + add.Rotation + ")");
            T.Expect(replace.Rotation == 15, "replacing tilt: 10 + 5 (" + replace.Rotation + ")");
            // Alpha 0.5: 30 + 0.5 * 5 added; 30 + 0.5 * (15 - 30) replacing.
            T.Expect(Layered(rig, true, 0.5).Rotation == 32.5, "additive tilt at alpha 0.5");
            T.Expect(Layered(rig, false, 0.5).Rotation == 22.5, "replacing tilt at alpha 0.5");
            T.Expect(CrossfadeX(rig, MixInterpolation.Linear, 0) == 25, "linear mix at a quarter");
            T.Expect(CrossfadeX(rig, MixInterpolation.Smooth, 0) == 15.625, "smooth mix at a quarter");
            T.Expect(CrossfadeX(rig, MixInterpolation.PowOut, 2) == 43.75, "powOut 2 mix at a quarter");

            // Misuse: typed statuses, nothing changed.
            using (var c = new Character(rig))
            {
                var good = EntryOptions.Of(additive: true, keepHold: true, mix: MixInterpolation.Pow, power: 2);
                T.Throws(() => c.SetEntryOptions(0, TrackEntry.Current, good), Status.NotFound, "track 0 has no entry", "an empty track");
                T.Throws(() => c.GetEntryOptions(3, TrackEntry.Last), Status.NotFound, "track 3 has no entry", "an empty track read");
                c.SetAnimation(0, "go");
                c.SetEntryOptions(0, TrackEntry.Last, good);
                T.Expect(Same(c.GetEntryOptions(0), good), "nothing queued: last is current");
                T.Throws(() => c.SetEntryOptions(256, TrackEntry.Current, good), Status.InvalidArgument, "256", "track 256");
                T.Throws(() => c.GetEntryOptions(0, (TrackEntry)2), Status.InvalidArgument, "SinewTrackEntry", "selector 2");
                var bad = good;
                bad.MixInterpolation = (MixInterpolation)9;
                T.Throws(() => c.SetEntryOptions(0, TrackEntry.Current, bad), Status.InvalidArgument, "mix_interpolation 9", "curve 9");
                bad = good;
                bad.KeepHold = 3;
                T.Throws(() => c.SetEntryOptions(0, TrackEntry.Current, bad), Status.InvalidArgument, "keep_hold is 3", "keep_hold 3");
                bad = EntryOptions.Of(mix: MixInterpolation.PowOut);
                T.Throws(() => c.SetEntryOptions(0, TrackEntry.Current, bad), Status.InvalidArgument, "mix_power is 0", "powOut without a power");
                T.Expect(Same(c.GetEntryOptions(0), good), "refused options change nothing");
                T.Throws(() => c.SetEntryAlpha(0, TrackEntry.Current, double.NaN), Status.InvalidArgument, "alpha", "alpha NaN");
                T.Expect(c.GetEntryAlpha(0) == 1.0, "a refused alpha changes nothing");
            }
        }

        // A queued entry's options are its own, and move with it.
        using (var rig = Rig.LoadSpine(root + "/testdata/spine43/slider-lab.json"))
        using (var c = new Character(rig))
        {
            var keep = EntryOptions.Of(keepHold: true);
            var pow3 = EntryOptions.Of(additive: true, mix: MixInterpolation.Pow, power: 3);
            c.SetAnimation(0, "wave");
            c.SetEntryOptions(0, TrackEntry.Current, keep);
            c.AddAnimation(0, "bend", true, 0.3, 0.4);
            c.SetEntryOptions(0, TrackEntry.Last, pow3);
            T.Expect(Same(c.GetEntryOptions(0, TrackEntry.Current), keep), "the current entry keeps its options");
            T.Expect(Same(c.GetEntryOptions(0, TrackEntry.Last), pow3), "the queued entry has its own");
            for (int f = 0; f < 30; f++) c.Update(1.0 / 60.0);
            T.Expect(Same(c.GetEntryOptions(0), pow3), "the queued entry started with its options");
        }

        // Spine 4.2 takes keep hold and the curve, not additive; DragonBones takes none.
        using (var rig = Load("4.2.22"))
        using (var c = new Character(rig))
        {
            c.SetAnimation(0, "go");
            T.Throws(() => c.SetEntryOptions(0, TrackEntry.Current, EntryOptions.Of(additive: true)), Status.Unsupported, "additive", "additive on 4.2");
            var curve = EntryOptions.Of(keepHold: true, mix: MixInterpolation.Circle);
            c.SetEntryOptions(0, TrackEntry.Current, curve);
            T.Expect(Same(c.GetEntryOptions(0), curve), "4.2 keeps the curve");
        }
        using (var rig = Rig.LoadDragonBonesMemory(DbSke))
        using (var c = new Character(rig))
        {
            c.Play(0, "spin");
            T.Throws(() => c.SetEntryOptions(0, TrackEntry.Current, EntryOptions.Of(mix: MixInterpolation.Smooth)), Status.Unsupported, "DragonBones", "options on DragonBones");
            T.Expect(Same(c.GetEntryOptions(0), default(EntryOptions)), "a DragonBones entry reads as the defaults");
        }
    }
}
