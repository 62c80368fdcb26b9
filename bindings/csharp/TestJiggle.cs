// TestJiggle.cs: jiggle control on stickbot with its extras (hair, cape) and a chain made
// from code: strengths set and faded, level of detail, chains on and off, every N-th step,
// effective strength, culling by a view rectangle.
using System;
using Sinew;

public static class TestJiggle
{
    public static void Run(string root)
    {
        var dir = root + "/examples/stickbot/";
        using (var rig = Rig.LoadSpine(dir + "stickbot.json", null, dir + "stickbot.extras.json"))
        using (var c = new Character(rig))
        {
            c.SetAnimation(0, "walk", true);
            var chains = c.JiggleChains();
            T.Expect(chains.Length == 2 && chains[0] == "hair" && chains[1] == "cape" && c.JiggleChainCount == 2, "jiggle chains hair, cape");
            c.SetJiggleStrength("cape", 0, 0.5);
            c.SetJiggleStrength("hair", 0);
            for (int f = 0; f < 15; f++) c.Update(1.0 / 60.0);
            T.Expect(T.Near(c.GetJiggleStrength("cape"), 0.5, 1e-6), "cape half faded: " + c.GetJiggleStrength("cape"));
            T.Expect(c.GetJiggleStrength("hair") == 0, "hair off");
            T.Throws(() => c.GetJiggleStrength("hiar"), Status.NotFound, "this rig's jiggle chains: `hair`, `cape`", "unknown chain");
            T.Throws(() => c.SetJiggleStrength(null, 2.0), Status.InvalidArgument, "not in 0..1", "strength 2");
            c.SetJiggleViewDistance(5000);
            T.Expect(c.JiggleLod == JiggleLod.Frozen, "frozen beyond 4000");
            c.SetJiggleViewDistance(2000);
            T.Expect(c.JiggleLod == JiggleLod.Coarse, "coarse beyond 1500");
            c.JiggleLod = JiggleLod.Full;
            T.Expect(c.JiggleLod == JiggleLod.Full, "full again");
            T.Throws(() => c.JiggleLod = (JiggleLod)3, Status.InvalidArgument, "", "LOD 3");

            // ABI 105: chains on and off, every N-th step, culling by a view rectangle.
            c.SetJiggleChainEnabled("cape", false);
            T.Expect(!c.GetJiggleChainEnabled("cape") && c.GetJiggleChainEnabled("hair"), "cape off, hair on");
            c.SetJiggleChainEvery(null, 4);
            T.Expect(c.GetJiggleChainEvery("hair") == 4 && c.GetJiggleChainEvery("cape") == 4, "every 4th step");
            T.Throws(() => c.SetJiggleChainEvery("hair", 0), Status.InvalidArgument, "not in 1..16", "every 0");
            c.SetJiggleStrength(null, 1);
            for (int f = 0; f < 8; f++) c.Update(1.0 / 60.0);
            T.Expect(c.GetJiggleEffectiveStrength("hair") == 1, "hair at full strength");
            c.SetJiggleView(1e5, 1e5, 1e5 + 1, 1e5 + 1);
            c.Update(1.0 / 60.0);
            T.Expect(c.JiggleCulled, "culled by a far view");
            T.Throws(() => c.SetJiggleView(1, 0, 0, 1), Status.InvalidArgument, "min above max", "bad view");
            c.SetJiggleView(-1e4, -1e4, 1e4, 1e4);
            c.Update(1.0 / 60.0);
            T.Expect(!c.JiggleCulled, "in view, not culled");
            c.ClearJiggleView();
            c.Update(1.0 / 60.0);
            T.Expect(!c.JiggleCulled, "no view, no culling");
            c.SetJiggleChainEnabled(null, true);
            c.SetJiggleChainEvery(null, 1);
            c.SetJiggleEnabled(false);
            T.Expect(c.JiggleChainCount == 0, "jiggle off");
            c.SetJiggleEnabled(true);
            T.Expect(c.JiggleChainCount == 2, "jiggle on");
            c.SetJiggleChains(new Character.JiggleChainSpec("tail", JigglePreset.Ribbon, "cape-1", "cape-2"));
            chains = c.JiggleChains();
            T.Expect(chains.Length == 1 && chains[0] == "tail" && c.JiggleChainName(0) == "tail", "a chain from code replaces the extras'");
            T.Throws(() => c.SetJiggleChains(new Character.JiggleChainSpec("x", JigglePreset.Tail, "nope")), Status.NotFound, "this rig's bones: `root`", "unknown jiggle bone");
            c.SetJiggleChains();
            T.Expect(c.JiggleChainCount == 0, "no chains");
        }
    }
}
