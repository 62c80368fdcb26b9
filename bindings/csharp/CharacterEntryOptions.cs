// CharacterEntryOptions.cs: Spine 4.3 track entry options and entry mix weights (ABI 107) as
// Character members,
// set where a Spine host sets them: on the entry SetAnimation started (TrackEntry.Current) or
// the one AddAnimation just queued (TrackEntry.Last):
//     c.AddAnimation(1, "aim", true, 0.2, 0.3);
//     c.SetEntryOptions(1, TrackEntry.Last, EntryOptions.Of(additive: true));
// Failures throw SinewException with sinew_last_error's text: an empty track is NotFound, a
// track from 256 on or a value out of range InvalidArgument, additive on a rig that is not
// Spine 4.3 or any option on a DragonBones entry Unsupported.
using System;

namespace Sinew
{
    public sealed partial class Character
    {
        /// Sets the Spine 4.3 options (additive, keep hold, mix curve) of `track`'s current
        /// or last queued entry; set additive before the entry's first update.
        public void SetEntryOptions(uint track, TrackEntry entry, EntryOptions options)
        {
            Check(Native.sinew_character_set_entry_options(Handle, track, entry, ref options), "sinew_character_set_entry_options");
        }

        /// Sets the mix weight (Spine TrackEntry.alpha, 1 when started) of `track`'s current or
        /// last queued entry: a layer mixes over the tracks below by it, an additive one adds
        /// that share. Not finite: InvalidArgument.
        public void SetEntryAlpha(uint track, TrackEntry entry, double alpha)
        {
            Check(Native.sinew_character_set_entry_alpha(Handle, track, entry, alpha), "sinew_character_set_entry_alpha");
        }

        /// The mix weight of `track`'s current or last queued entry.
        public double GetEntryAlpha(uint track, TrackEntry entry = TrackEntry.Current)
        {
            Check(Native.sinew_character_entry_alpha(Handle, track, entry, out var a), "sinew_character_entry_alpha");
            return a;
        }

        /// The Spine 4.3 options of `track`'s current or last queued entry.
        public EntryOptions GetEntryOptions(uint track, TrackEntry entry = TrackEntry.Current)
        {
            Check(Native.sinew_character_entry_options(Handle, track, entry, out var o), "sinew_character_entry_options");
            return o;
        }
    }
}
