// Sinew.cs: the idiomatic layer's base: SafeHandles that destroy the native handle when
// disposed or collected, SinewException (a failed call's status and sinew_last_error's
// text), the per-thread UTF-8 scratch that lets per-frame calls taking names run without
// allocating, the library-wide calls (Library) and Rig. Drop bindings/csharp/*.cs (less the
// tests) into a Unity project's Scripts folder with the native library under Plugins/
// (see docs/ENGINES.md).
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;

namespace Sinew
{
    public sealed class RigHandle : SafeHandle
    {
        public RigHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid => handle == IntPtr.Zero;
        protected override bool ReleaseHandle() => Native.sinew_rig_destroy(handle) == Status.Ok;
    }

    public sealed class CharacterHandle : SafeHandle
    {
        public CharacterHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid => handle == IntPtr.Zero;
        protected override bool ReleaseHandle() => Native.sinew_character_destroy(handle) == Status.Ok;
    }

    public sealed class CageHandle : SafeHandle
    {
        public CageHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid => handle == IntPtr.Zero;
        protected override bool ReleaseHandle() => Native.sinew_cage_destroy(handle) == Status.Ok;
    }

    /// A failed call: its status and sinew's message (which names the file, JSON path and
    /// name, or lists the valid names for an unknown one).
    public sealed class SinewException : Exception
    {
        public Status Status { get; }
        /// sinew_last_error's text alone (Message is "call: Status: text").
        public string NativeMessage { get; }
        public SinewException(string call, Status status, string nativeMessage)
            : base(call + ": " + status + ": " + nativeMessage)
        {
            Status = status;
            NativeMessage = nativeMessage;
        }
    }

    /// UTF-8 encoding into per-thread scratch buffers (two slots, for the calls taking two
    /// names): encoding a name for a call allocates nothing once the buffer is big enough.
    /// The bytes are valid until the slot's next use on this thread.
    public static class Utf8
    {
        [ThreadStatic] static byte[] slot0, slot1;

        /// Encodes `s` into scratch slot `slot` (0 or 1); null and "" are length 0 with a
        /// null buffer (the C side's "none" / "every chain").
        public static int Encode(string s, int slot, out byte[] buf)
        {
            if (string.IsNullOrEmpty(s)) { buf = null; return 0; }
            int n = Encoding.UTF8.GetByteCount(s);
            buf = slot == 0 ? slot0 : slot1;
            if (buf == null || buf.Length < n)
            {
                buf = new byte[Math.Max(n, 64)];
                if (slot == 0) slot0 = buf; else slot1 = buf;
            }
            Encoding.UTF8.GetBytes(s, 0, s.Length, buf, 0);
            return n;
        }

        /// A fresh array (for strings the library keeps a pointer to during a longer call).
        public static byte[] Bytes(string s) => s == null ? null : Encoding.UTF8.GetBytes(s);
        public static UIntPtr Len(byte[] b) => (UIntPtr)(b == null ? 0 : b.Length);
    }

    /// Calls that belong to no handle.
    public static class Library
    {
        [ThreadStatic] static IntPtr[] handles;

        /// sinew_last_error of this thread ("" when no call failed).
        public static string LastError()
        {
            // Ask for the length first: messages listing a rig's names can be long.
            var st = Native.sinew_last_error(null, UIntPtr.Zero, out var len);
            if (st != Status.BufferTooSmall && st != Status.Ok) return "";
            var buf = new byte[(int)len + 1];
            if (Native.sinew_last_error(buf, (UIntPtr)buf.Length, out len) != Status.Ok) return "";
            return Encoding.UTF8.GetString(buf, 0, (int)len);
        }

        /// Throws SinewException for any status but Ok.
        public static void Check(Status s, string call)
        {
            if (s != Status.Ok) throw new SinewException(call, s, LastError());
        }

        /// sinew_status_name: a short English name of a status ("unknown status" for others).
        public static string StatusName(Status s) => Marshal.PtrToStringAnsi(Native.sinew_status_name((uint)s));

        /// The ABI version of the loaded library (Native.AbiVersion is this binding's).
        public static uint AbiVersion
        {
            get { Check(Native.sinew_abi_version(out var v), "sinew_abi_version"); return v; }
        }

        /// Updates the first `count` characters by `dt` on `threads` threads (0: every core),
        /// deterministically (the same bits as Update() one by one). No allocation after the
        /// first call with this many characters.
        public static void UpdateMany(Character[] characters, int count, double dt, uint threads)
        {
            if (count < 0 || count > characters.Length) throw new ArgumentOutOfRangeException(nameof(count));
            if (handles == null || handles.Length < count) handles = new IntPtr[Math.Max(count, 16)];
            int added = 0;
            try
            {
                // AddRef keeps a character disposed on another thread alive for the call.
                for (; added < count; added++)
                {
                    bool ok = false;
                    characters[added].Handle.DangerousAddRef(ref ok);
                    handles[added] = characters[added].Handle.DangerousGetHandle();
                }
                Check(Native.sinew_update_many(handles, (UIntPtr)count, dt, threads), "sinew_update_many");
            }
            finally
            {
                for (int i = 0; i < added; i++) characters[i].Handle.DangerousRelease();
            }
        }

        /// Updates every character of the array (see the overload).
        public static void UpdateMany(Character[] characters, double dt, uint threads) =>
            UpdateMany(characters, characters.Length, dt, threads);

        /// Joins the update pool's threads (OnApplicationQuit, before a domain reload).
        public static void PoolShutdown() => Check(Native.sinew_pool_shutdown(), "sinew_pool_shutdown");
    }

    /// A loaded rig (Spine, Inochi2D or DragonBones), shared read-only by its characters.
    public sealed class Rig : IDisposable
    {
        public RigHandle Handle { get; }
        public RigInfo Info { get; }

        Rig(RigHandle h)
        {
            Handle = h;
            Library.Check(Native.sinew_rig_info(h, out var info), "sinew_rig_info");
            Info = info;
        }

        static Rig Load(Status st, RigHandle h, string what)
        {
            if (st != Status.Ok) { h?.Dispose(); Library.Check(st, what); }
            return new Rig(h);
        }

        /// A Spine 4.2 skeleton (JSON or .skel) with its atlas ("" or null: untextured) and extras.
        public static Rig LoadSpine(string skeletonPath, string atlasPath = null, string extrasPath = null)
        {
            var s = Utf8.Bytes(skeletonPath); var a = Utf8.Bytes(atlasPath); var e = Utf8.Bytes(extrasPath);
            var st = Native.sinew_rig_load_spine(s, Utf8.Len(s), a, Utf8.Len(a), e, Utf8.Len(e), out var h);
            return Load(st, h, "sinew_rig_load_spine " + skeletonPath);
        }

        /// A Spine skeleton from bytes (JSON text or .skel), atlas and extras text.
        public static Rig LoadSpineMemory(byte[] skeleton, string atlasText = null, string extrasText = null)
        {
            var a = Utf8.Bytes(atlasText); var e = Utf8.Bytes(extrasText);
            var st = Native.sinew_rig_load_spine_memory(skeleton, Utf8.Len(skeleton), a, Utf8.Len(a), e, Utf8.Len(e), out var h);
            return Load(st, h, "sinew_rig_load_spine_memory");
        }

        /// An Inochi2D puppet (.inp/.inx) with an optional Cubism physics3.json and extras.
        public static Rig LoadInochi2D(string path, string physics3Path = null, string extrasPath = null)
        {
            var p = Utf8.Bytes(path); var ph = Utf8.Bytes(physics3Path); var e = Utf8.Bytes(extrasPath);
            var st = Native.sinew_rig_load_inochi2d(p, Utf8.Len(p), ph, Utf8.Len(ph), e, Utf8.Len(e), out var h);
            return Load(st, h, "sinew_rig_load_inochi2d " + path);
        }

        public static Rig LoadInochi2DMemory(byte[] puppet, string physics3Text = null, string extrasText = null)
        {
            var ph = Utf8.Bytes(physics3Text); var e = Utf8.Bytes(extrasText);
            var st = Native.sinew_rig_load_inochi2d_memory(puppet, Utf8.Len(puppet), ph, Utf8.Len(ph), e, Utf8.Len(e), out var h);
            return Load(st, h, "sinew_rig_load_inochi2d_memory");
        }

        /// A DragonBones 5.x armature (null or "": the file's default) from its _ske.json and _tex.json.
        public static Rig LoadDragonBones(string skePath, string texPath = null, string armature = null)
        {
            var s = Utf8.Bytes(skePath); var t = Utf8.Bytes(texPath); var a = Utf8.Bytes(armature);
            var st = Native.sinew_rig_load_dragonbones(s, Utf8.Len(s), t, Utf8.Len(t), a, Utf8.Len(a), out var h);
            return Load(st, h, "sinew_rig_load_dragonbones " + skePath);
        }

        public static Rig LoadDragonBonesMemory(string skeText, string texText = null, string armature = null)
        {
            var s = Utf8.Bytes(skeText); var t = Utf8.Bytes(texText); var a = Utf8.Bytes(armature);
            var st = Native.sinew_rig_load_dragonbones_memory(s, Utf8.Len(s), t, Utf8.Len(t), a, Utf8.Len(a), out var h);
            return Load(st, h, "sinew_rig_load_dragonbones_memory");
        }

        /// Any format from memory, told apart by content: `name` names the main file (and finds
        /// its companions in `files`, by name: "hero.atlas", "hero.extras.json", ...).
        public static Rig LoadMemory(string name, byte[] data, IDictionary<string, byte[]> files = null, string armature = null)
        {
            var pins = new List<GCHandle>();
            try
            {
                var list = new CompanionFile[files == null ? 0 : files.Count];
                int i = 0;
                if (files != null)
                {
                    foreach (var kv in files)
                    {
                        var n = Utf8.Bytes(kv.Key);
                        list[i++] = new CompanionFile { Name = Pin(n, pins), NameLen = Utf8.Len(n), Data = Pin(kv.Value, pins), Len = Utf8.Len(kv.Value) };
                    }
                }
                var nb = Utf8.Bytes(name); var a = Utf8.Bytes(armature);
                var st = Native.sinew_rig_load_memory(nb, Utf8.Len(nb), data, Utf8.Len(data), list, (UIntPtr)list.Length, a, Utf8.Len(a), out var h);
                return Load(st, h, "sinew_rig_load_memory " + name);
            }
            finally
            {
                foreach (var p in pins) p.Free();
            }
        }

        internal static IntPtr Pin(byte[] b, List<GCHandle> pins)
        {
            if (b == null || b.Length == 0) return IntPtr.Zero;
            var h = GCHandle.Alloc(b, GCHandleType.Pinned);
            pins.Add(h);
            return h.AddrOfPinnedObject();
        }

        /// Texture page `index` (0..Info.Pages): its image name and size.
        public PageInfo Page(uint index)
        {
            Library.Check(Native.sinew_rig_page(Handle, index, out var p), "sinew_rig_page");
            return p;
        }

        /// Parameter `index` (0..Info.Params) with its range (puppets).
        public ParamInfo Param(uint index)
        {
            Library.Check(Native.sinew_rig_param(Handle, index, out var p), "sinew_rig_param");
            return p;
        }

        public string Name(NameKind kind, uint index)
        {
            Library.Check(Native.sinew_rig_name(Handle, (uint)kind, index, out var v), "sinew_rig_name");
            return v.ToString();
        }

        /// Every name of a kind, in the rig's order.
        public string[] Names(NameKind kind)
        {
            uint n;
            switch (kind)
            {
                case NameKind.Bone: n = Info.Bones; break;
                case NameKind.Slot: n = Info.Slots; break;
                case NameKind.Animation: n = Info.Animations; break;
                case NameKind.Skin: n = Info.Skins; break;
                case NameKind.Ik: n = Info.IkConstraints; break;
                default: n = Info.ParamAnimations; break;
            }
            var names = new string[n];
            for (uint i = 0; i < n; i++) names[i] = Name(kind, i);
            return names;
        }

        /// A bone's index (into Character.BoneWorlds' output).
        public int FindBone(string name)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Library.Check(Native.sinew_rig_find_bone(Handle, b, (UIntPtr)n, out var i), "sinew_rig_find_bone " + name);
            return (int)i;
        }

        /// Destroys the handle; characters made from it keep working.
        public void Dispose() => Handle.Dispose();
    }
}
