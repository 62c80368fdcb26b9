// entry_options_sample.cpp: a C++17 host of the calls of ABI 107 (Spine 4.3 track entry
// options: additive, keep hold, the mix curve) through a small RAII wrapper, set the way a
// Spine host sets them on the entries setAnimation and addAnimation return: the current entry
// of a track or its last queued one. On a Spine 4.3 SKELETON it schedules what `sinew dump
// --from FROM --anim ANIM --at 0.3 --mix 0.4 --keep-hold --mix-interpolation pow:3 --layers
// LAYER --additive --layer-at 0.2 --layer-mix 0.3` does, runs FRAMES frames of 1/60 s and
// prints the bone world transforms (`bone NAME a b c d x y`) for bindings/run.sh to compare
// with the dump (the Rust facade) exactly. It then checks in process that the options read
// back, and that bad values are refused with their status and change nothing.
//
// Usage: entry_options_sample SKELETON FROM ANIM LAYER FRAMES
#include "sinew.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void check(SinewStatus s, const char* what) {
    if (s != SINEW_STATUS_OK) {
        std::vector<char> msg(4096);
        size_t len = 0;
        sinew_last_error(msg.data(), msg.size(), &len);
        throw std::runtime_error(std::string(what) + ": " + sinew_status_name(s) + ": " + msg.data());
    }
}

void require(bool ok, const std::string& what) {
    if (!ok) throw std::runtime_error("check failed: " + what);
}

struct RigDeleter {
    void operator()(SinewRig* r) const { sinew_rig_destroy(r); }
};
struct CharacterDeleter {
    void operator()(SinewCharacter* c) const { sinew_character_destroy(c); }
};
using Rig = std::unique_ptr<SinewRig, RigDeleter>;

bool operator==(const SinewEntryOptions& a, const SinewEntryOptions& b) {
    return a.additive == b.additive && a.keep_hold == b.keep_hold && a.mix_interpolation == b.mix_interpolation &&
           a.mix_power == b.mix_power;
}

// A character with the track and entry option calls as methods.
class Character {
public:
    explicit Character(const Rig& rig) {
        SinewCharacter* c = nullptr;
        check(sinew_character_create(rig.get(), &c), "sinew_character_create");
        c_.reset(c);
    }
    SinewCharacter* get() const { return c_.get(); }
    void set_animation(uint32_t track, const std::string& anim) {
        check(sinew_character_set_animation(get(), track, anim.data(), anim.size(), true), "set_animation");
    }
    void add_animation(uint32_t track, const std::string& anim, double delay, double mix) {
        check(sinew_character_add_animation(get(), track, anim.data(), anim.size(), true, delay, mix),
              "add_animation");
    }
    void set_empty(uint32_t track) { check(sinew_character_set_empty_animation(get(), track, 0), "set_empty"); }
    void set_options(uint32_t track, SinewTrackEntry which, const SinewEntryOptions& o) {
        check(sinew_character_set_entry_options(get(), track, which, &o), "set_entry_options");
    }
    SinewEntryOptions options(uint32_t track, SinewTrackEntry which) const {
        SinewEntryOptions o{};
        check(sinew_character_entry_options(get(), track, which, &o), "entry_options");
        return o;
    }
    void update(double dt) { check(sinew_character_update(get(), dt), "update"); }
    std::vector<SinewWorldTransform> worlds() const {
        size_t len = 0;
        require(sinew_character_bone_worlds(get(), nullptr, 0, &len) == SINEW_STATUS_BUFFER_TOO_SMALL, "bone count");
        std::vector<SinewWorldTransform> w(len);
        check(sinew_character_bone_worlds(get(), w.data(), w.size(), &len), "bone_worlds");
        return w;
    }

private:
    std::unique_ptr<SinewCharacter, CharacterDeleter> c_;
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: entry_options_sample SKELETON FROM ANIM LAYER FRAMES\n");
        return 2;
    }
    try {
        const std::string path = argv[1], from = argv[2], anim = argv[3], layer = argv[4];
        const int frames = std::atoi(argv[5]);
        Rig rig;
        {
            SinewRig* r = nullptr;
            check(sinew_rig_load_spine(path.data(), path.size(), nullptr, 0, nullptr, 0, &r), path.c_str());
            rig.reset(r);
        }
        Character c(rig);
        const SinewEntryOptions keep{0, 1, SINEW_MIX_INTERPOLATION_LINEAR, 0};
        const SinewEntryOptions pow3{0, 0, SINEW_MIX_INTERPOLATION_POW, 3};
        const SinewEntryOptions additive_pow3{1, 0, SINEW_MIX_INTERPOLATION_POW, 3};
        // --from FROM --keep-hold: the current entry of track 0.
        c.set_animation(0, from);
        c.set_options(0, SINEW_TRACK_ENTRY_CURRENT, keep);
        // --anim ANIM --at 0.3 --mix 0.4 --mix-interpolation pow:3: the entry just queued.
        c.add_animation(0, anim, 0.3, 0.4);
        c.set_options(0, SINEW_TRACK_ENTRY_LAST, pow3);
        // --layers LAYER --additive --layer-at 0.2 --layer-mix 0.3 (with the same curve).
        c.set_empty(1);
        c.add_animation(1, layer, 0.2, 0.3);
        c.set_options(1, SINEW_TRACK_ENTRY_LAST, additive_pow3);
        require(c.options(0, SINEW_TRACK_ENTRY_CURRENT) == keep, "track 0's current entry keeps its options");
        require(c.options(0, SINEW_TRACK_ENTRY_LAST) == pow3, "track 0's queued entry has its own");
        for (int f = 0; f < frames; f++) c.update(1.0 / 60.0);
        if (frames >= 30) {
            require(c.options(0, SINEW_TRACK_ENTRY_CURRENT) == pow3, "the queued entry started with its options");
            require(c.options(1, SINEW_TRACK_ENTRY_CURRENT) == additive_pow3, "the layer started with its options");
        }
        SinewStringView name{};
        const auto w = c.worlds();
        for (uint32_t i = 0; i < w.size(); i++) {
            check(sinew_rig_name(rig.get(), SINEW_NAME_KIND_BONE, i, &name), "rig_name");
            std::printf("bone %.*s %.17g %.17g %.17g %.17g %.17g %.17g\n", static_cast<int>(name.len), name.ptr,
                        w[i].a, w[i].b, w[i].c, w[i].d, w[i].x, w[i].y);
        }

        // Misuse: typed statuses, nothing changed.
        SinewEntryOptions bad{0, 0, 99, 0};
        require(sinew_character_set_entry_options(c.get(), 1, SINEW_TRACK_ENTRY_CURRENT, &bad) ==
                    SINEW_STATUS_INVALID_ARGUMENT,
                "an unknown curve");
        bad = SinewEntryOptions{1, 2, SINEW_MIX_INTERPOLATION_LINEAR, 0};
        require(sinew_character_set_entry_options(c.get(), 1, SINEW_TRACK_ENTRY_CURRENT, &bad) ==
                    SINEW_STATUS_INVALID_ARGUMENT,
                "keep_hold 2");
        require(sinew_character_set_entry_options(c.get(), 300, SINEW_TRACK_ENTRY_CURRENT, &keep) ==
                    SINEW_STATUS_INVALID_ARGUMENT,
                "track 300");
        require(sinew_character_set_entry_options(c.get(), 7, SINEW_TRACK_ENTRY_LAST, &keep) ==
                    SINEW_STATUS_NOT_FOUND,
                "an empty track");
        require(c.options(1, SINEW_TRACK_ENTRY_CURRENT) == additive_pow3 || frames < 30, "refused values change nothing");
        std::fprintf(stderr, "entry_options_sample: ok\n");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "entry_options_sample: %s\n", e.what());
        return 1;
    }
    return 0;
}
