// TestRig.cs: the library-wide calls and every loader (paths and memory, each format) with
// the rig queries, misuse included: errors arrive as SinewException carrying sinew's text.
using System;
using System.Collections.Generic;
using System.IO;
using Sinew;

public static class TestRig
{
    /// A DragonBones armature: one 40-unit bone `arm` at (5, -10) (y down), a 16 x 8 image
    /// `box` 20 units along it; `spin` turns the arm 0 to 90 degrees over 1 s, `tilt` holds it
    /// at 40 degrees (bindings/c/sinew_test.c's, with `tilt` added).
    public const string DbSke =
        "{\"name\":\"tiny\",\"version\":\"5.5\",\"frameRate\":30,\"armature\":[{\"type\":\"Armature\"," +
        "\"name\":\"tiny\",\"frameRate\":30,\"bone\":[{\"name\":\"root\"},{\"name\":\"arm\"," +
        "\"parent\":\"root\",\"length\":40,\"transform\":{\"x\":5,\"y\":-10}}]," +
        "\"slot\":[{\"name\":\"box\",\"parent\":\"arm\"}],\"skin\":[{\"slot\":[{\"name\":\"box\"," +
        "\"display\":[{\"name\":\"box\",\"type\":\"image\",\"transform\":{\"x\":20}}]}]}]," +
        "\"animation\":[{\"name\":\"spin\",\"duration\":30,\"playTimes\":0,\"bone\":[{\"name\":\"arm\"," +
        "\"frame\":[{\"duration\":30,\"tweenEasing\":0,\"transform\":{}}," +
        "{\"duration\":0,\"transform\":{\"skX\":90,\"skY\":90}}]}]}," +
        "{\"name\":\"tilt\",\"duration\":30,\"playTimes\":0,\"bone\":[{\"name\":\"arm\",\"frame\":[" +
        "{\"duration\":30,\"transform\":{\"skX\":40,\"skY\":40}},{\"duration\":0,\"transform\":{\"skX\":40,\"skY\":40}}]}]}]}]}";
    public const string DbTex =
        "{\"imagePath\":\"tiny_tex.png\",\"width\":64,\"height\":32,\"SubTexture\":" +
        "[{\"name\":\"box\",\"x\":0,\"y\":0,\"width\":16,\"height\":8}]}";

    static bool SamePose(Rig a, Rig b, string anim, int frames)
    {
        using (var ca = new Character(a))
        using (var cb = new Character(b))
        {
            if (anim != null) { ca.SetAnimation(0, anim, true); cb.SetAnimation(0, anim, true); }
            for (int f = 0; f < frames; f++) { ca.Update(1.0 / 60.0); cb.Update(1.0 / 60.0); }
            var wa = new WorldTransform[a.Info.Bones];
            var wb = new WorldTransform[b.Info.Bones];
            if (ca.BoneWorlds(wa) != wa.Length || cb.BoneWorlds(wb) != wb.Length || wa.Length != wb.Length) return false;
            for (int i = 0; i < wa.Length; i++) if (!wa[i].Equals(wb[i])) return false;
            return true;
        }
    }

    public static void Run(string root, string scratch)
    {
        T.Expect(Library.AbiVersion == Native.AbiVersion, "the library's ABI is the binding's (" + Native.AbiVersion + ")");
        T.Expect(Library.StatusName(Status.NotFound) == "not found", "status name of NotFound");
        T.Expect(Library.StatusName((Status)999) == "unknown status", "status name of 999");
        T.Expect(Native.MaxBatchVertices == 65536 && Native.None == -1 && Native.MaxThreads == 64, "header constants");

        var dir = root + "/examples/stickbot/";
        T.Throws(() => Rig.LoadSpine("/no/such/skeleton.json"), Status.Io, "/no/such/skeleton.json", "missing skeleton");
        T.Expect(Library.LastError().Contains("/no/such/skeleton.json"), "LastError keeps the message");
        T.Throws(() => Rig.LoadSpine(dir + "stickbot.json", "/no/such.atlas"), Status.Io, "/no/such.atlas", "missing atlas");
        T.Throws(() => Rig.LoadSpineMemory(System.Text.Encoding.UTF8.GetBytes("{ nope")), Status.LoadFailed, "<skeleton>", "bad skeleton bytes");

        // Spine from paths and from memory: the same rig, pose for pose.
        using (var rig = Rig.LoadSpine(dir + "stickbot.json", dir + "stickbot.atlas", dir + "stickbot.extras.json"))
        using (var mem = Rig.LoadSpineMemory(File.ReadAllBytes(dir + "stickbot.json"), File.ReadAllText(dir + "stickbot.atlas"), File.ReadAllText(dir + "stickbot.extras.json")))
        {
            var i = rig.Info;
            T.Expect(i.Bones == 20 && i.Slots == 15 && i.Animations == 2 && i.IkConstraints == 3 && i.Pages == 2 && i.IsPuppet == 0,
                "stickbot's sizes: " + i.Bones + " bones, " + i.Slots + " slots, " + i.Pages + " pages");
            var page = rig.Page(0);
            T.Expect(page.Name.Equals("stickbot.png") && page.Name.ToString() == "stickbot.png" && page.Width > 0, "page 0 is stickbot.png (" + page.Name + ")");
            T.Throws(() => rig.Page(i.Pages), Status.InvalidArgument, "", "page out of range");
            T.Throws(() => rig.Param(0), Status.InvalidArgument, "", "a Spine rig has no parameters");
            var anims = rig.Names(NameKind.Animation);
            T.Expect(anims.Length == 2 && anims[0] == "walk" && anims[1] == "turn", "animations walk, turn");
            T.Expect(rig.Name(NameKind.Bone, 0) == "root" && rig.Names(NameKind.Slot).Length == 15, "bone 0 is root, 15 slots");
            T.Expect(rig.Names(NameKind.Ik)[2] == "arm-front-ik" && rig.Names(NameKind.Skin)[0] == "default", "IK and skin names");
            T.Expect(rig.Names(NameKind.ParamAnimation).Length == 0, "no parameter animations");
            T.Throws(() => rig.Name((NameKind)42, 0), Status.InvalidArgument, "", "unknown name kind");
            T.Expect(rig.FindBone("head") == 4 && rig.Name(NameKind.Bone, 4) == "head", "FindBone(head) is 4");
            T.Throws(() => rig.FindBone("tail"), Status.NotFound, "tail", "unknown bone");
            T.Expect(mem.Info.Bones == 20 && SamePose(rig, mem, "walk", 20), "memory load poses as the path load");

            // Any format from memory, companions by name.
            var files = new Dictionary<string, byte[]> {
                { "stickbot.atlas", File.ReadAllBytes(dir + "stickbot.atlas") },
                { "stickbot.extras.json", File.ReadAllBytes(dir + "stickbot.extras.json") },
            };
            using (var any = Rig.LoadMemory("stickbot.json", File.ReadAllBytes(dir + "stickbot.json"), files))
                T.Expect(any.Info.Bones == 20 && any.Info.Pages == 2 && SamePose(rig, any, "walk", 20), "LoadMemory finds the companions");
            T.Throws(() => Rig.LoadMemory("stickbot.atlas", files["stickbot.atlas"]), Status.LoadFailed, "atlas", "an atlas is no rig");
        }

        // Inochi2D: path and memory, parameters with their ranges.
        var inp = root + "/examples/face/face.inp";
        using (var face = Rig.LoadInochi2D(inp))
        using (var faceMem = Rig.LoadInochi2DMemory(File.ReadAllBytes(inp)))
        {
            var i = face.Info;
            T.Expect(i.IsPuppet == 1 && i.Params == 4 && i.ParamAnimations == 1, "face: a puppet with 4 parameters");
            var p = face.Param(0);
            T.Expect(p.Name.ToString() == "ParamAngle" && p.Axes == 2 && p.MinX == -30 && p.MaxX == 30 && p.MinY == -30 && p.DefaultValueX == 0,
                "ParamAngle: 2 axes, -30..30 (" + p.Name + " " + p.MinX + ".." + p.MaxX + ")");
            T.Expect(face.Names(NameKind.ParamAnimation)[0] == "idle", "parameter animation idle");
            T.Expect(SamePose(face, faceMem, null, 5), "puppet memory load poses as the path load");
            T.Throws(() => Rig.LoadInochi2DMemory(File.ReadAllBytes(inp), "{ bad"), Status.LoadFailed, "", "bad physics3");
            T.Throws(() => Rig.LoadInochi2D("/no/such.inp"), Status.Io, "/no/such.inp", "missing puppet");
        }

        // DragonBones: memory and the same files on disk.
        var ske = Path.Combine(scratch, "tiny_ske.json");
        var tex = Path.Combine(scratch, "tiny_tex.json");
        File.WriteAllText(ske, DbSke);
        File.WriteAllText(tex, DbTex);
        using (var db = Rig.LoadDragonBonesMemory(DbSke, DbTex))
        using (var dbPath = Rig.LoadDragonBones(ske, tex, "tiny"))
        {
            T.Expect(db.Info.Bones == 2 && db.Info.Slots == 1 && db.Info.Animations == 2 && db.Info.Pages == 1, "tiny armature's sizes");
            var pg = db.Page(0);
            T.Expect(pg.Name.Equals("tiny_tex.png") && pg.Width == 64 && pg.Height == 32 && pg.PremultipliedAlpha == 0, "tiny page 64 x 32");
            T.Expect(SamePose(db, dbPath, "spin", 30), "DragonBones path and memory loads alike");
            T.Throws(() => Rig.LoadDragonBonesMemory(DbSke, DbTex, "nope"), Status.LoadFailed, "nope", "unknown armature");
            T.Throws(() => Rig.LoadDragonBones("/no/such_ske.json"), Status.Io, "/no/such_ske.json", "missing ske");
        }
        File.Delete(ske);
        File.Delete(tex);

        // Handles: a disposed rig refuses calls; characters outlive their rig.
        var r = Rig.LoadSpine(dir + "stickbot.json");
        var c = new Character(r);
        r.Dispose();
        r.Dispose();
        T.Expect(r.Handle.IsClosed, "disposed rig handle closed");
        c.Update(0.1);
        T.Expect(c.BoneWorld("head").X != 0 || c.BoneWorld("head").Y != 0, "a character outlives its rig");
        var raw = c.Handle.DangerousGetHandle();
        c.Dispose();
        c.Dispose();
        T.ThrowsDisposed(() => c.Update(0.1), "a disposed character");
        T.Expect(Native.sinew_update_many(new[] { raw }, (UIntPtr)1, 0.1, 1) == Status.InvalidHandle, "a destroyed handle is refused");
        T.Expect(Native.sinew_update_many(new[] { new IntPtr(0x1230) }, (UIntPtr)1, 0.1, 1) == Status.InvalidHandle, "a foreign handle is refused");
    }
}
