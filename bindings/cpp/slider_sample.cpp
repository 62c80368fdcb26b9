// slider_sample.cpp: a C++17 host of the calls of ABI 106 (Spine 4.3 sliders, the wind and
// gravity directions of physics) through small RAII wrappers. On testdata/spine43/slider-lab.json
// it plays `move` (its slider timelines key wave-slider's time and mix; bones drive
// nod-slider and tint-slider) for FRAMES frames of 1/60 s, checks the keyed slider values
// against their closed forms, and prints the bone world transforms (`bone NAME a b c d x y`)
// for bindings/run.sh to compare with `sinew dump` (the Rust facade) exactly. It then checks,
// in process, that a slider set from code poses its animation as playing it does, that bad
// values and indices are refused with their status, and that an updraft set with
// sinew_character_set_physics_directions moves physics-lab.json's bones.
//
// Usage: slider_sample REPO_ROOT FRAMES
#include "sinew.h"

#include <algorithm>
#include <cmath>
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

Rig load(const std::string& path) {
    SinewRig* r = nullptr;
    check(sinew_rig_load_spine(path.data(), path.size(), nullptr, 0, nullptr, 0, &r), path.c_str());
    return Rig(r);
}

// A character with the slider and direction calls as methods.
class Character {
public:
    explicit Character(const Rig& rig) {
        SinewCharacter* c = nullptr;
        check(sinew_character_create(rig.get(), &c), "sinew_character_create");
        c_.reset(c);
    }
    SinewCharacter* get() const { return c_.get(); }
    void play(const std::string& anim, bool loop) {
        check(sinew_character_set_animation(get(), 0, anim.data(), anim.size(), loop), "set_animation");
    }
    void update(double dt) { check(sinew_character_update(get(), dt), "update"); }
    uint32_t slider_count() const {
        uint32_t n = 0;
        check(sinew_character_slider_count(get(), &n), "slider_count");
        return n;
    }
    uint32_t find_slider(const std::string& name) const {
        uint32_t i = 0;
        check(sinew_character_find_slider(get(), name.data(), name.size(), &i), name.c_str());
        return i;
    }
    std::string slider_name(uint32_t i) const {
        SinewStringView v{};
        check(sinew_character_slider_name(get(), i, &v), "slider_name");
        return std::string(v.ptr, v.len);
    }
    SinewSliderPose slider(uint32_t i) const {
        SinewSliderPose p{};
        check(sinew_character_slider(get(), i, &p), "slider");
        return p;
    }
    void set_slider(uint32_t i, double time, double mix) {
        SinewSliderPose p{time, mix};
        check(sinew_character_set_slider(get(), i, &p), "set_slider");
    }
    SinewPhysicsDirections directions() const {
        SinewPhysicsDirections d{};
        check(sinew_character_physics_directions(get(), &d), "physics_directions");
        return d;
    }
    void set_directions(const SinewPhysicsDirections& d) {
        check(sinew_character_set_physics_directions(get(), &d), "set_physics_directions");
    }
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

double distance(const Character& a, const Character& b) {
    auto wa = a.worlds(), wb = b.worlds();
    require(wa.size() == wb.size() && !wa.empty(), "same bones");
    double d = 0;
    for (size_t i = 0; i < wa.size(); i++) {
        for (double v : {wa[i].a - wb[i].a, wa[i].b - wb[i].b, wa[i].c - wb[i].c, wa[i].d - wb[i].d,
                         wa[i].x - wb[i].x, wa[i].y - wb[i].y}) {
            d = std::max(d, std::fabs(v));
        }
    }
    return d;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: slider_sample REPO_ROOT FRAMES\n");
        return 2;
    }
    try {
        const std::string root = argv[1];
        const int frames = std::atoi(argv[2]);
        Rig rig = load(root + "/testdata/spine43/slider-lab.json");
        Character c(rig);
        require(c.slider_count() == 5, "five sliders");
        const uint32_t wave = c.find_slider("wave-slider");
        require(c.slider_name(wave) == "wave-slider", "the name of the index found");
        c.play("move", true);
        for (int f = 0; f < frames; f++) c.update(1.0 / 60.0);
        // `move` keys wave-slider's time 0 -> 1.2 over 2 s and its mix 1 -> 0.5 over 1.5 s
        // (key values are stored as f32: 1.2 is 1.2000000477).
        const double t = frames / 60.0;
        const SinewSliderPose p = c.slider(wave);
        require(std::fabs(p.time - 0.6 * t) < 1e-6 && std::fabs(p.mix - (1 - t / 3)) < 1e-6,
                "wave-slider keyed to its closed form");
        for (uint32_t i = 0; i < c.slider_count(); i++) {
            const SinewSliderPose s = c.slider(i);
            std::printf("slider %s %.17g %.17g\n", c.slider_name(i).c_str(), s.time, s.mix);
        }
        SinewStringView name{};
        const auto w = c.worlds();
        for (uint32_t i = 0; i < w.size(); i++) {
            check(sinew_rig_name(rig.get(), SINEW_NAME_KIND_BONE, i, &name), "rig_name");
            std::printf("bone %.*s %.17g %.17g %.17g %.17g %.17g %.17g\n", static_cast<int>(name.len), name.ptr,
                        w[i].a, w[i].b, w[i].c, w[i].d, w[i].x, w[i].y);
        }

        // A slider set from code: wave-slider at 0.25 with mix 1 poses `wave` at 0.25.
        Character set(rig), played(rig);
        set.set_slider(wave, 0.25, 1);
        played.set_slider(wave, 0, 0);
        played.play("wave", false);
        set.update(0.25);
        played.update(0.25);
        require(distance(set, played) < 1e-9, "a slider poses its animation as playing it does");
        SinewSliderPose bad{std::nan(""), 1};
        require(sinew_character_set_slider(set.get(), wave, &bad) == SINEW_STATUS_INVALID_ARGUMENT, "NaN time");
        require(sinew_character_set_slider(set.get(), 5, &bad) == SINEW_STATUS_INVALID_ARGUMENT, "index 5 of 5");
        require(set.slider(wave).time == 0.25, "refused values change nothing");

        // Wind and gravity directions.
        Rig physics = load(root + "/testdata/spine43/physics-lab.json");
        Character up(physics), plain(physics);
        const SinewPhysicsDirections d = up.directions();
        require(d.wind_x == 1 && d.wind_y == 0 && d.gravity_x == 0 && d.gravity_y == 1, "default directions");
        up.set_directions({0, -1, 0, 1});
        require(up.directions().wind_y == -1, "the updraft read back");
        for (Character* x : {&up, &plain}) {
            x->play("move", true);
            for (int f = 0; f < 30; f++) x->update(1.0 / 60.0);
        }
        require(distance(up, plain) > 1e-3, "the updraft moves the physics bones");
        std::fprintf(stderr, "slider_sample: ok\n");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "slider_sample: %s\n", e.what());
        return 1;
    }
    return 0;
}
