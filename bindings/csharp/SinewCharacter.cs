// SinewCharacter.cs: a Unity-style component driving one sinew character: Start() loads and
// creates, Update() advances and submits the batched draw calls, OnDestroy() frees the native
// handle. Outside Unity (CI runs it under mono) a tiny MonoBehaviour/Time stand-in is used.
using System;
using System.Collections.Generic;
using Sinew;

#if !UNITY_5_3_OR_NEWER
public class MonoBehaviour { }
public static class Time { public static float deltaTime = 1f / 60f; }
#endif

public class SinewCharacter : MonoBehaviour
{
    public string skeletonPath;
    public string atlasPath;
    public string animationName = "run";
    public bool loop = true;
    /// A fixed step in seconds instead of Time.deltaTime (0: use Time.deltaTime).
    public double fixedStep = 0;

    /// Rigs are shared between components that load the same files.
    static readonly Dictionary<string, Rig> Rigs = new Dictionary<string, Rig>();

    public Rig Rig { get; private set; }
    public CharacterHandle Handle { get; private set; }
    public int LastDrawCalls { get; private set; }

    public void Start()
    {
        string key = skeletonPath + "|" + atlasPath;
        if (!Rigs.TryGetValue(key, out var rig)) Rigs[key] = rig = new Rig(skeletonPath, atlasPath);
        Rig = rig;
        Native.Check(Native.sinew_character_create(rig.Handle, out var h), "create");
        Handle = h;
        var name = Native.Utf8(animationName);
        Native.Check(Native.sinew_character_set_animation(Handle, 0, name, Native.Len(name), loop), "set_animation");
    }

    public void Update()
    {
        Native.Check(Native.sinew_character_update(Handle, fixedStep > 0 ? fixedStep : Time.deltaTime), "update");
        Native.Check(Native.sinew_character_render(Handle, out var rd), "render");
        // In Unity: one Mesh with a submesh per batch (or Graphics.DrawMesh per batch), the
        // material chosen by page and blend mode. Here: count the draw calls.
        int calls = 0;
        for (int i = 0; i < (int)rd.BatchCount; i++)
        {
            var b = rd.GetBatch(i);
            if (b.IndexCount > 0) calls++;
        }
        LastDrawCalls = calls;
    }

    public WorldTransform[] BoneWorlds()
    {
        var w = new WorldTransform[Rig.Info.Bones];
        Native.Check(Native.sinew_character_bone_worlds(Handle, w, (UIntPtr)w.Length, out _), "bone_worlds");
        return w;
    }

    public void OnDestroy()
    {
        Handle?.Dispose();
        Handle = null;
    }
}

/// A Unity-style cage deformer: binds points to a cage once, deforms them each Update().
public class MvcDeformer : MonoBehaviour
{
    public float[] cage;       // x, y pairs, one counter-clockwise loop
    public float[] points;     // x, y pairs inside it
    public float[] movedCage;  // set by game code each frame
    public float[] deformed;
    CageHandle handle;

    public void Start()
    {
        Native.Check(Native.sinew_cage_create(out handle), "cage_create");
        Native.Check(Native.sinew_cage_bind_polygons(handle, cage, new[] { (uint)(cage.Length / 2) }, (UIntPtr)1,
            points, (UIntPtr)(points.Length / 2), 0), "cage_bind");
        deformed = new float[points.Length];
        movedCage = (float[])cage.Clone();
    }

    public void Update()
    {
        Native.Check(Native.sinew_cage_deform(handle, movedCage, (UIntPtr)movedCage.Length, deformed,
            (UIntPtr)deformed.Length, out _), "cage_deform");
    }

    public void OnDestroy()
    {
        handle?.Dispose();
        handle = null;
    }
}
