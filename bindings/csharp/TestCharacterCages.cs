// TestCharacterCages.cs: cages declared in a rig's extras, from C#: stickbot with a
// host-driven cage `pad` on its torso mesh (offset mode): found by name, its points read
// back, and moved by the host: translating every cage point by (dx, dy) moves each of the
// torso's 15 vertices by exactly that and no other vertex, scaling them about their centroid
// scales the torso's offsets (mean value coordinates reproduce affine maps); bad writes
// refused with sinew's message. Example shapes: a host weight of 0.5 moves the one vertex
// the example offsets by half its offset.
using System;
using System.IO;
using Sinew;

public static class TestCharacterCages
{
    const string Extras = "{\"sinewExtras\":1,\"cages\":[{\"name\":\"pad\",\"slot\":\"torso\",\"drive\":\"host\"," +
        "\"mode\":\"offset\",\"loops\":[[[-80,20],[90,20],[0,260]]]}]}";

    public static void Run(string root)
    {
        var dir = root + "/examples/stickbot/";
        using (var rig = Rig.LoadSpineMemory(File.ReadAllBytes(dir + "stickbot.json"), null, Extras))
        using (var moved = new Character(rig))
        using (var still = new Character(rig))
        {
            T.Expect(moved.CageCount == 1 && moved.CageName(0) == "pad" && moved.FindCage("pad") == 0, "one cage, pad");
            T.Throws(() => moved.FindCage("belly"), Status.NotFound, "belly", "unknown cage");
            T.Throws(() => moved.CageName(1), Status.InvalidArgument, "out of range", "cage 1 of 1");
            moved.Update(0); still.Update(0);
            var rest = new float[6];
            T.Expect(moved.CagePoints(0, rest) == 6 && rest[0] == -80 && rest[1] == 20 && rest[5] == 260, "the pad's bind points read back");
            T.Throws(() => moved.CagePoints(0, new float[2]), Status.BufferTooSmall, "", "short point buffer");
            var shifted = new float[6];
            for (int i = 0; i < 6; i++) shifted[i] = rest[i] + (i % 2 == 0 ? 7f : -3f);
            moved.SetCagePoints(0, shifted);
            T.Throws(() => moved.SetCagePoints(0, new float[4]), Status.InvalidArgument, "4 floats for a cage of 6", "wrong point count");
            shifted[0] = float.NaN;
            T.Throws(() => moved.SetCagePoints(0, shifted), Status.InvalidArgument, "", "NaN point");
            moved.Update(0); still.Update(0);
            var now = new float[6];
            moved.CagePoints(0, now);
            T.Expect(now[0] == -73 && now[1] == 17, "the host's points held (" + now[0] + ", " + now[1] + ")");
            var a = moved.Render(); var b = still.Render();
            var pa = new float[2 * a.VertexTotal]; var pb = new float[2 * b.VertexTotal];
            a.CopyPositions(pa); b.CopyPositions(pb);
            int changed = 0;
            double worst = 0;
            for (int v = 0; v < a.VertexTotal && a.VertexTotal == b.VertexTotal; v++)
            {
                double dx = pa[2 * v] - pb[2 * v], dy = pa[2 * v + 1] - pb[2 * v + 1];
                if (dx == 0 && dy == 0) continue;
                changed++;
                worst = Math.Max(worst, Math.Max(Math.Abs(dx - 7), Math.Abs(dy + 3)));
            }
            T.Expect(a.VertexTotal == b.VertexTotal && changed == 15 && worst < 1e-3,
                "the torso's 15 vertices moved by (7, -3), no other (" + changed + " moved, worst " + worst + ")");

            // Scaled by 1.2 about its centroid: each torso vertex moves by 0.2 times its setup
            // position's offset from the centroid (`still` shows the setup pose).
            float cx = (rest[0] + rest[2] + rest[4]) / 3, cy = (rest[1] + rest[3] + rest[5]) / 3;
            for (int i = 0; i < 6; i += 2) { shifted[i] = cx + 1.2f * (rest[i] - cx); shifted[i + 1] = cy + 1.2f * (rest[i + 1] - cy); }
            moved.SetCagePoints(0, shifted);
            moved.Update(0);
            moved.Render().CopyPositions(pa);
            changed = 0;
            worst = 0;
            for (int v = 0; v < b.VertexTotal; v++)
            {
                double dx = pa[2 * v] - pb[2 * v], dy = pa[2 * v + 1] - pb[2 * v + 1];
                if (dx == 0 && dy == 0) continue;
                changed++;
                worst = Math.Max(worst, Math.Max(Math.Abs(dx - 0.2 * (pb[2 * v] - cx)), Math.Abs(dy - 0.2 * (pb[2 * v + 1] - cy))));
            }
            T.Expect(changed == 15 && worst < 1e-3, "scaled by 1.2: the torso follows the affine map (worst " + worst + ")");
        }

        // Example shapes: `in` moves the torso's first vertex by (6, -4) times its weight.
        var offsets = "[6, -4]";
        for (int i = 0; i < 14; i++) offsets += ", [0, 0]";
        var shapes = "{\"sinewExtras\":1,\"shapes\":[{\"name\":\"breath\",\"slot\":\"torso\",\"examples\":[{\"name\":\"in\",\"offsets\":[" + offsets + "]}]}]}";
        using (var rig = Rig.LoadSpineMemory(File.ReadAllBytes(dir + "stickbot.json"), null, shapes))
        using (var shaped = new Character(rig))
        using (var plain = new Character(rig))
        {
            shaped.SetShapeWeight("breath", "in", 0.5);
            T.Throws(() => shaped.SetShapeWeight("breath", "out", 1), Status.NotFound, "out", "unknown example");
            T.Throws(() => shaped.SetShapeWeight("sigh", "in", 1), Status.NotFound, "sigh", "unknown shape set");
            T.Throws(() => shaped.SetShapeWeight("breath", "in", 11), Status.InvalidArgument, "", "weight 11");
            shaped.Update(0); plain.Update(0);
            var a = shaped.Render(); var b = plain.Render();
            var pa = new float[2 * a.VertexTotal]; var pb = new float[2 * b.VertexTotal];
            a.CopyPositions(pa); b.CopyPositions(pb);
            int changed = 0;
            double worst = 0;
            for (int v = 0; v < a.VertexTotal; v++)
            {
                double dx = pa[2 * v] - pb[2 * v], dy = pa[2 * v + 1] - pb[2 * v + 1];
                if (dx == 0 && dy == 0) continue;
                changed++;
                worst = Math.Max(Math.Abs(dx - 3), Math.Abs(dy + 2));
            }
            T.Expect(changed == 1 && worst < 1e-4, "weight 0.5 moves one torso vertex by (3, -2) (" + changed + " moved, worst " + worst + ")");
        }
    }
}
