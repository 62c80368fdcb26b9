// HeroSample.cs: a MonoBehaviour-style sample driving a character and a cage as a game
// would: stickbot walks, turns (a crossfade) and calms down (its hair and cape jiggle faded
// out over half a second) and breathes (a host-driven cage on its torso mesh, declared in
// the rig's extras, scaled each frame); it holds a banner between its forearms, a mesh bound
// once to a four-point cage whose control points follow the forearms each frame; a face puppet's
// ParamAngle follows the body's head. Start() loads and binds, Update() drives and reads
// back (no allocation per frame), OnDestroy() frees. UnityLoop calls them as Unity's player
// loop would (Start once, Update per frame with Time.deltaTime set, OnDestroy), so the same
// class runs here under mono and in Unity.
using System;
using System.Reflection;
using Sinew;

public class Hero : MonoBehaviour
{
    public string root = ".";      // where examples/ is (in Unity: Application.streamingAssetsPath)
    public float turnAt = 1.0f;    // seconds: crossfade from walk to turn
    public float mixTime = 0.25f;  // the crossfade's length
    public float calmAt = 1.5f;    // seconds: the jiggle fades out ...
    public float calmFade = 0.5f;  // ... over this long
    public float bannerDrop = 40;  // how far the banner hangs below the forearms

    Rig bodyRig, faceRig;
    public Character Body { get; private set; }
    public Character Face { get; private set; }
    Cage banner;
    public float[] BannerRest, BannerPoints, BannerCage, BannerRestCage;
    public float breathPeriod = 1.2f, breathDepth = 0.05f; // the chest cage's scale swing (depth 0: still)
    int chest;
    public float[] ChestRest, ChestPoints;
    public bool Clockwise;        // the cage's corner order (back forearm left of the front one or not)
    WorldTransform[] worlds;
    int backArm, frontArm, headBone;
    double headRest;
    public float Clock;
    public int Frame, DrawCalls;
    public int WalkInterruptedFrame = -1, TurnStartedFrame = -1;
    public double FaceAngle;
    bool turned, calmed;

    public void Start()
    {
        var dir = root + "/examples/stickbot/";
        // The rig's extras plus a host-driven cage on the torso mesh (docs/EXTRAS.md "Cages").
        var extras = System.IO.File.ReadAllText(dir + "stickbot.extras.json").TrimEnd();
        extras = extras.Substring(0, extras.Length - 1) + ", \"cages\": [{ \"name\": \"chest\", \"slot\": \"torso\"," +
            " \"drive\": \"host\", \"mode\": \"offset\", \"loops\": [[[-80, 20], [90, 20], [0, 260]]] }] }";
        bodyRig = Rig.LoadSpineMemory(System.IO.File.ReadAllBytes(dir + "stickbot.json"), System.IO.File.ReadAllText(dir + "stickbot.atlas"), extras);
        Body = new Character(bodyRig);
        Body.SetMix("walk", "turn", mixTime);
        Body.SetAnimation(0, "walk", true);
        Body.Update(0);
        chest = Body.FindCage("chest");
        ChestRest = new float[6];
        ChestPoints = new float[6];
        Body.CagePoints(chest, ChestRest);
        faceRig = Rig.LoadInochi2D(root + "/examples/face/face.inp");
        Face = new Character(faceRig);

        worlds = new WorldTransform[bodyRig.Info.Bones];
        backArm = bodyRig.FindBone("arm-lower-back");
        frontArm = bodyRig.FindBone("arm-lower-front");
        headBone = bodyRig.FindBone("head");
        Body.BoneWorlds(worlds);
        headRest = Degrees(worlds[headBone]);

        // The banner: a 4 x 3 grid of points inside the cage the forearms span now.
        BannerRestCage = new float[8];
        BannerCage = new float[8];
        CageFromHands(BannerRestCage);
        BannerRest = new float[24];
        for (int j = 0, k = 0; j < 3; j++)
            for (int i = 0; i < 4; i++, k += 2)
            {
                float u = (i + 0.5f) / 4, v = (j + 0.5f) / 3;
                Lerp(BannerRestCage, u, v, BannerRest, k);
            }
        BannerPoints = new float[24];
        banner = new Cage();
        banner.BindPolygons(BannerRestCage, new uint[] { 4 }, BannerRest);
    }

    static double Degrees(WorldTransform w) => Math.Atan2(w.C, w.A) * 180 / Math.PI;

    /// The cage's corners: the two forearms' origins on top, each dropped by bannerDrop below, in
    /// counter-clockwise order at rest (the order chosen at Start is kept).
    void CageFromHands(float[] cage)
    {
        float lx = (float)worlds[backArm].X, ly = (float)worlds[backArm].Y;
        float rx = (float)worlds[frontArm].X, ry = (float)worlds[frontArm].Y;
        if (Clockwise || (cage == BannerRestCage && lx > rx)) { Clockwise = true; Swap(ref lx, ref rx); Swap(ref ly, ref ry); }
        // top-left, bottom-left, bottom-right, top-right: counter-clockwise with y up.
        cage[0] = lx; cage[1] = ly; cage[2] = lx; cage[3] = ly - bannerDrop;
        cage[4] = rx; cage[5] = ry - bannerDrop; cage[6] = rx; cage[7] = ry;
    }

    static void Swap(ref float a, ref float b) { var t = a; a = b; b = t; }

    /// The point at (u, v) of the cage's parallelogram (u along the top, v down).
    static void Lerp(float[] cage, float u, float v, float[] dst, int k)
    {
        dst[k] = cage[0] + u * (cage[6] - cage[0]) + v * (cage[2] - cage[0]);
        dst[k + 1] = cage[1] + u * (cage[7] - cage[1]) + v * (cage[3] - cage[1]);
    }

    public void Update()
    {
        float dt = Time.deltaTime;
        if (!turned && Clock + 1e-6f >= turnAt) { Body.SetAnimation(0, "turn", true); turned = true; }
        if (!calmed && Clock + 1e-6f >= calmAt) { Body.SetJiggleStrength(null, 0, calmFade); calmed = true; }
        // Breathing: the chest cage scaled about its centroid, written before the update.
        float breath = 1 + breathDepth * (float)Math.Sin(2 * Math.PI * Clock / breathPeriod);
        float cx = (ChestRest[0] + ChestRest[2] + ChestRest[4]) / 3, cy = (ChestRest[1] + ChestRest[3] + ChestRest[5]) / 3;
        for (int i = 0; i < 6; i += 2)
        {
            ChestPoints[i] = cx + breath * (ChestRest[i] - cx);
            ChestPoints[i + 1] = cy + breath * (ChestRest[i + 1] - cy);
        }
        Body.SetCagePoints(chest, ChestPoints);
        Body.Update(dt);
        Clock += dt;
        Frame++;
        for (int e = 0; e < Body.EventCount; e++)
        {
            var ev = Body.GetEvent(e);
            if (ev.EventKind == EventKind.Interrupt && ev.Animation.Equals("walk")) WalkInterruptedFrame = Frame;
            if (ev.EventKind == EventKind.Start && ev.Animation.Equals("turn")) TurnStartedFrame = Frame;
        }

        // The banner's control points follow the forearms; the mesh follows the cage.
        Body.BoneWorlds(worlds);
        CageFromHands(BannerCage);
        banner.Deform(BannerCage, BannerPoints);

        // The face turns as the head does (ParamAngle x is -30..30, clamped on use).
        FaceAngle = Math.Max(-30, Math.Min(30, Degrees(worlds[headBone]) - headRest));
        Face.SetParam("ParamAngle", FaceAngle, 0);
        Face.Update(dt);

        var rd = Body.Render();
        DrawCalls = rd.BatchTotal;
    }

    public void OnDestroy()
    {
        banner?.Dispose();
        Body?.Dispose();
        Face?.Dispose();
        bodyRig?.Dispose();
        faceRig?.Dispose();
        banner = null; Body = null; Face = null;
    }
}

/// Unity's player loop in miniature: Start() on every component before its first Update(),
/// Update() once a frame with Time.deltaTime set, OnDestroy() at the end, each found by name
/// as Unity finds them (a component may lack any of them).
public static class UnityLoop
{
    static void Call(object o, string name)
    {
        var m = o.GetType().GetMethod(name, BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic, null, Type.EmptyTypes, null);
        m?.Invoke(o, null);
    }

    public static void Run(int frames, float dt, Action<int> afterFrame, params MonoBehaviour[] components)
    {
        foreach (var c in components) Call(c, "Start");
        for (int f = 0; f < frames; f++)
        {
            Time.deltaTime = dt;
            foreach (var c in components) Call(c, "Update");
            afterFrame?.Invoke(f + 1);
        }
        foreach (var c in components) Call(c, "OnDestroy");
    }
}
