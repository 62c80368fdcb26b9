// SinewCharacter.cs: Unity-style components: SinewCharacter drives one character (Start()
// loads and creates, Update() advances and reads the batched draw calls, OnDestroy() frees
// the native handle); MvcDeformer binds points to a cage once and deforms them each Update().
// Outside Unity (CI runs them under mono) a tiny MonoBehaviour/Time stand-in is used.
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
    public string extrasPath;
    public string animationName = "run";
    public bool loop = true;
    /// A fixed step in seconds instead of Time.deltaTime (0: use Time.deltaTime).
    public double fixedStep = 0;

    /// Rigs are shared between components that load the same files.
    static readonly Dictionary<string, Rig> Rigs = new Dictionary<string, Rig>();

    public Rig Rig { get; private set; }
    public Character Character { get; private set; }
    public int LastDrawCalls { get; private set; }
    /// Vertex positions of the last frame (x, y pairs; in Unity the Mesh's vertices).
    public float[] Positions = new float[0];

    public void Start()
    {
        string key = skeletonPath + "|" + atlasPath + "|" + extrasPath;
        if (!Rigs.TryGetValue(key, out var rig)) Rigs[key] = rig = Rig.LoadSpine(skeletonPath, atlasPath, extrasPath);
        Rig = rig;
        Character = new Character(rig);
        Character.SetAnimation(0, animationName, loop);
    }

    public void Update()
    {
        Character.Update(fixedStep > 0 ? fixedStep : Time.deltaTime);
        var rd = Character.Render();
        // In Unity: one Mesh with a sub-mesh per batch, the material chosen by page and blend
        // mode. Here: count the draw calls and copy the positions (arrays reused, grown rarely).
        int calls = 0;
        for (int i = 0; i < rd.BatchTotal; i++) if (rd.GetBatch(i).IndexCount > 0) calls++;
        LastDrawCalls = calls;
        if (Positions.Length < 2 * rd.VertexTotal) Positions = new float[4 * rd.VertexTotal];
        rd.CopyPositions(Positions);
    }

    public void OnDestroy()
    {
        Character?.Dispose();
        Character = null;
    }
}

/// A Unity-style cage deformer: binds points to a cage once, deforms them each Update().
public class MvcDeformer : MonoBehaviour
{
    public float[] cage;       // x, y pairs, one counter-clockwise loop
    public float[] points;     // x, y pairs inside it
    public float[] movedCage;  // set by game code each frame
    public float[] deformed;
    Cage handle;

    public void Start()
    {
        handle = new Cage();
        handle.BindPolygons(cage, new[] { (uint)(cage.Length / 2) }, points);
        deformed = new float[points.Length];
        movedCage = (float[])cage.Clone();
    }

    public void Update() => handle.Deform(movedCage, deformed);

    public void OnDestroy()
    {
        handle?.Dispose();
        handle = null;
    }
}
