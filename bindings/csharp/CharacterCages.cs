// CharacterCages.cs: a character's cages as Character methods: those its rig's extras declare
// (docs/EXTRAS.md "Cages") or bound by code, found by name, their points as the last update
// left them, and the points of a host-driven cage written before an update (per frame: into
// and from the caller's arrays, no allocation); the host's weights of example shapes.
using System;

namespace Sinew
{
    public sealed partial class Character
    {
        /// How many cages the character runs (the extras' first, in file order).
        public int CageCount
        {
            get { Check(Native.sinew_character_cage_count(Handle, out var n), "sinew_character_cage_count"); return (int)n; }
        }

        /// The index of the cage called `name` (declared in the rig's extras).
        public int FindCage(string name)
        {
            int n = Utf8.Encode(name, 0, out var b);
            Check(Native.sinew_character_find_cage(Handle, b, (UIntPtr)n, out var i), "sinew_character_find_cage");
            return (int)i;
        }

        /// Cage `index`'s name ("" for a cage bound by code).
        public string CageName(int index)
        {
            Check(Native.sinew_character_cage_name(Handle, (uint)index, out var v), "sinew_character_cage_name");
            return v.ToString();
        }

        /// Cage `index`'s points after the last update (x, y pairs) into `points`; the float
        /// count. Status.NotFound while the cage did not run (its mesh not shown, no update yet).
        public int CagePoints(int index, float[] points)
        {
            Check(Native.sinew_character_cage_points(Handle, (uint)index, points, (UIntPtr)(points == null ? 0 : points.Length), out var len), "sinew_character_cage_points");
            return (int)len;
        }

        /// Writes host-driven cage `index`'s points (x, y pairs in the setup pose's world frame,
        /// as many as the cage has), used from the next update on.
        public void SetCagePoints(int index, float[] points)
        {
            Check(Native.sinew_character_set_cage_points(Handle, (uint)index, points, (UIntPtr)(points == null ? 0 : points.Length)), "sinew_character_set_cage_points");
        }

        /// Sets the host's weight (-10..10) of example `example` of shape set `set` (declared in
        /// the rig's extras `shapes`); the animations' weight tracks add to it from the next update.
        public void SetShapeWeight(string set, string example, double weight)
        {
            int ns = Utf8.Encode(set, 0, out var s);
            int ne = Utf8.Encode(example, 1, out var e);
            Check(Native.sinew_character_set_shape_weight(Handle, s, (UIntPtr)ns, e, (UIntPtr)ne, weight), "sinew_character_set_shape_weight");
        }
    }
}
