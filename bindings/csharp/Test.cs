// Test.cs: the C# binding under mono, run by bindings/run.sh: every wrapped function called
// at least once with its result checked (TestRig.cs, TestCharacter.cs, TestControls.cs,
// TestJiggle.cs, TestCharacterCages.cs, TestSliders.cs, TestEntryOptions.cs, TestCage.cs), the per-frame calls checked to
// allocate nothing (TestAlloc.cs), the Unity-style sample driven as Unity would (TestSample.cs), and the
// structs' layouts printed for run.sh to compare with the C compiler's (--layout).
// Usage: sinew_cs.exe REPO_ROOT SCRATCH SKELETON ATLAS ANIMATION FRAMES EXPECTED_POSES
//        sinew_cs.exe --layout
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Runtime.InteropServices;
using Sinew;

public static class T
{
    static int passed, failed;
    public static int Failed => failed;
    public static int Passed => passed;

    public static void Expect(bool ok, string what)
    {
        if (ok) passed++; else { failed++; Console.Error.WriteLine("FAIL: " + what); }
    }

    /// `a` throws SinewException with `status` and a native message containing `message`.
    public static void Throws(Action a, Status status, string message, string what)
    {
        try { a(); Expect(false, what + ": no exception"); }
        catch (SinewException e)
        {
            Expect(e.Status == status && e.NativeMessage.Contains(message) && e.Message.Contains(e.NativeMessage),
                what + " (" + e.Status + ": " + e.NativeMessage + ")");
        }
    }

    /// `a` throws ObjectDisposedException (a disposed handle's SafeHandle refuses the call).
    public static void ThrowsDisposed(Action a, string what)
    {
        try { a(); Expect(false, what + ": no exception"); }
        catch (ObjectDisposedException) { Expect(true, what); }
    }

    public static bool Near(double a, double b, double tol) => Math.Abs(a - b) <= tol;
}

public static class SinewTest
{
    /// The C# structs' sizes and field offsets, "Struct size N" and "Struct.Field offset N"
    /// lines, for bindings/csharp/check_layout.py to compare with the header's.
    static void PrintLayout()
    {
        var types = new[] {
            typeof(CageInfo), typeof(Str), typeof(StringView), typeof(Event), typeof(BonePose),
            typeof(WorldTransform), typeof(IkState), typeof(TransformMix), typeof(PathMix),
            typeof(PhysicsParams), typeof(SliderPose), typeof(PhysicsDirections), typeof(EntryOptions), typeof(TrackInfo), typeof(JiggleChain), typeof(Batch), typeof(Clip),
            typeof(Group), typeof(RenderData), typeof(MaskSource), typeof(CompanionFile), typeof(RigInfo),
            typeof(PageInfo), typeof(ParamInfo),
        };
        foreach (var t in types)
        {
            Console.WriteLine(t.Name + " size " + Marshal.SizeOf(t));
            foreach (var f in t.GetFields(System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Instance))
                Console.WriteLine(t.Name + "." + f.Name + " offset " + Marshal.OffsetOf(t, f.Name));
        }
    }

    public static int Main(string[] args)
    {
        if (args.Length == 1 && args[0] == "--layout") { PrintLayout(); return 0; }
        string root = args[0], scratch = args[1];
        TestRig.Run(root, scratch);
        TestCharacter.Run(root);
        TestCharacter.Threads(root);
        TestCharacter.AgainstRust(args[2], args[3], args[4], int.Parse(args[5], CultureInfo.InvariantCulture), args[6]);
        TestControls.Run(root);
        TestJiggle.Run(root);
        TestCharacterCages.Run(root);
        TestSliders.Run(root);
        TestEntryOptions.Run(root);
        TestCage.Run();
        TestAlloc.Run(root);
        TestSample.Run(root);
        Library.PoolShutdown();
        Library.PoolShutdown();
        Console.WriteLine("C#: " + T.Passed + " passed, " + T.Failed + " failed");
        return T.Failed == 0 ? 0 : 1;
    }
}
