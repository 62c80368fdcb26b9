/*
 * sliders_test.c: the calls of ABI 106 from C, used and misused, checked by results: Spine
 * 4.3 sliders on testdata/spine43/slider-lab.json (counted, found by name, named, read and
 * set by index; a slider at time t with mix 1 poses its animation as playing it at t does)
 * and the wind and gravity directions of physics on testdata/spine43/physics-lab.json (read
 * back; an updraft moves the physics bones). Misuse returns a typed status and changes
 * nothing: null pointers and handles, a rig where a character is expected, destroyed
 * handles, indices out of range (also ones that wrap to 0 as 16 bits), NaN and 1e30 values,
 * unknown names, a 4.2 rig (no sliders). The same calls are checked bit for bit against the
 * Rust facade by crates/sinew-capi/tests/all/sliders.rs.
 * Built by bindings/run.sh with gcc -std=c99 -Wall -Wextra -Werror and run under valgrind.
 * Usage: sliders_test REPO_ROOT
 */
#include "sinew.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
static int checks = 0;

#define S(lit) lit, (sizeof(lit) - 1)

static void expect(SinewStatus got, SinewStatus want, const char *what, int line) {
    checks++;
    if (got != want) {
        char msg[1024];
        size_t len = 0;
        if (sinew_last_error(msg, sizeof msg, &len) != SINEW_STATUS_OK) msg[0] = 0;
        fprintf(stderr, "line %d: %s: got %s, want %s; last error: %s\n", line, what,
                sinew_status_name((uint32_t)got), sinew_status_name((uint32_t)want), msg);
        failures++;
    }
}
#define OK(call) expect((call), SINEW_STATUS_OK, #call, __LINE__)
#define IS(call, st) expect((call), SINEW_STATUS_##st, #call, __LINE__)
#define TRUE(cond) do { checks++; if (!(cond)) { fprintf(stderr, "line %d: %s is false\n", __LINE__, #cond); failures++; } } while (0)

static int view_is(SinewStringView v, const char *s) {
    return v.len == strlen(s) && memcmp(v.ptr, s, v.len) == 0;
}

static const char *last_error(void) {
    static char msg[2048];
    size_t len = 0;
    if (sinew_last_error(msg, sizeof msg, &len) != SINEW_STATUS_OK) msg[0] = 0;
    return msg;
}

static SinewRig *load(const char *root, const char *file) {
    char path[4096];
    SinewRig *rig = NULL;
    snprintf(path, sizeof path, "%s/%s", root, file);
    OK(sinew_rig_load_spine(path, strlen(path), NULL, 0, NULL, 0, &rig));
    return rig;
}

#define MAX_BONES 64

/* Every bone's world transform, a b c d x y each; the bone count. */
static size_t worlds(SinewCharacter *c, SinewWorldTransform *out) {
    size_t len = 0;
    OK(sinew_character_bone_worlds(c, out, MAX_BONES, &len));
    return len;
}

/* The largest difference between two characters' bone worlds. */
static double pose_distance(SinewCharacter *a, SinewCharacter *b) {
    SinewWorldTransform wa[MAX_BONES], wb[MAX_BONES];
    size_t n = worlds(a, wa), m = worlds(b, wb), i;
    double d = 0;
    TRUE(n == m && n > 0);
    for (i = 0; i < n && i < m; i++) {
        double v[6] = {wa[i].a - wb[i].a, wa[i].b - wb[i].b, wa[i].c - wb[i].c,
                       wa[i].d - wb[i].d, wa[i].x - wb[i].x, wa[i].y - wb[i].y};
        int k;
        for (k = 0; k < 6; k++) d = fabs(v[k]) > d ? fabs(v[k]) : d;
    }
    return d;
}

static void test_sliders(const char *root) {
    static const char *names[] = {"wave-slider", "nod-slider", "bend-slider", "off-slider", "tint-slider"};
    SinewRig *rig = load(root, "testdata/spine43/slider-lab.json");
    SinewCharacter *slider = NULL, *played = NULL;
    SinewSliderPose p, setup;
    SinewStringView v;
    uint32_t n = 0, i, wave = 99, bad = 7;
    OK(sinew_character_create(rig, &slider));
    OK(sinew_character_create(rig, &played));

    OK(sinew_character_slider_count(slider, &n));
    TRUE(n == 5);
    for (i = 0; i < 5; i++) {
        uint32_t found = 99;
        OK(sinew_character_slider_name(slider, i, &v));
        TRUE(view_is(v, names[i]));
        OK(sinew_character_find_slider(slider, names[i], strlen(names[i]), &found));
        TRUE(found == i);
    }
    OK(sinew_character_find_slider(slider, S("wave-slider"), &wave));
    OK(sinew_character_find_slider(slider, S("off-slider"), &i));
    OK(sinew_character_slider(slider, i, &p));
    TRUE(p.time == 0.3 && p.mix == 0);
    OK(sinew_character_slider(slider, wave, &setup));
    TRUE(setup.time == 0 && setup.mix == 1);

    /* wave-slider at 0.25 with mix 1 poses `wave` at 0.25: the same pose as playing `wave`
     * for 0.25 s with the slider's mix at 0 (the slider then leaves the pose alone). */
    p.time = 0.25;
    p.mix = 1;
    OK(sinew_character_set_slider(slider, wave, &p));
    p.time = 0;
    p.mix = 0;
    OK(sinew_character_set_slider(played, wave, &p));
    OK(sinew_character_set_animation(played, 0, S("wave"), false));
    OK(sinew_character_update(slider, 0.25));
    OK(sinew_character_update(played, 0.25));
    TRUE(pose_distance(slider, played) < 1e-9);
    OK(sinew_character_slider(slider, wave, &p));
    TRUE(p.time == 0.25 && p.mix == 1);
    /* Control: at another time the poses differ. */
    p.time = 0.75;
    OK(sinew_character_set_slider(slider, wave, &p));
    OK(sinew_character_update(slider, 0));
    TRUE(pose_distance(slider, played) > 1);

    /* Misuse: unknown names, indices out of range, bad values, null pointers. */
    IS(sinew_character_find_slider(slider, S("no-such-slider"), &bad), NOT_FOUND);
    TRUE(strstr(last_error(), "wave-slider") != NULL && bad == 7);
    IS(sinew_character_find_slider(slider, NULL, 3, &bad), NULL_ARGUMENT);
    IS(sinew_character_find_slider(slider, S("wave-slider"), NULL), NULL_ARGUMENT);
    IS(sinew_character_slider(slider, 5, &p), INVALID_ARGUMENT);
    TRUE(strstr(last_error(), "5 sliders") != NULL);
    IS(sinew_character_slider(slider, 65536, &p), INVALID_ARGUMENT);
    IS(sinew_character_set_slider(slider, 0xFFFFFFFFu, &setup), INVALID_ARGUMENT);
    IS(sinew_character_slider_name(slider, 65536 + 1, &v), INVALID_ARGUMENT);
    IS(sinew_character_slider(slider, wave, NULL), NULL_ARGUMENT);
    IS(sinew_character_set_slider(slider, wave, NULL), NULL_ARGUMENT);
    IS(sinew_character_slider_count(slider, NULL), NULL_ARGUMENT);
    IS(sinew_character_slider_name(slider, 0, NULL), NULL_ARGUMENT);
    p.time = NAN;
    p.mix = 1;
    IS(sinew_character_set_slider(slider, wave, &p), INVALID_ARGUMENT);
    p.time = 0;
    p.mix = 1e30;
    IS(sinew_character_set_slider(slider, wave, &p), INVALID_ARGUMENT);
    OK(sinew_character_slider(slider, wave, &p));
    TRUE(p.time == 0.75 && p.mix == 1);
    IS(sinew_character_slider_count(NULL, &n), INVALID_HANDLE);
    IS(sinew_character_slider(NULL, 0, &p), INVALID_HANDLE);
    IS(sinew_character_set_slider((SinewCharacter *)rig, 0, &setup), WRONG_HANDLE_TYPE);

    OK(sinew_character_destroy(slider));
    IS(sinew_character_find_slider(slider, S("wave-slider"), &n), INVALID_HANDLE);
    IS(sinew_character_slider_name(slider, 0, &v), INVALID_HANDLE);
    IS(sinew_character_set_slider(slider, 0, &setup), INVALID_HANDLE);
    OK(sinew_character_destroy(played));
    OK(sinew_rig_destroy(rig));

    /* A 4.2 rig has none. */
    rig = load(root, "examples/stickbot/stickbot.json");
    OK(sinew_character_create(rig, &slider));
    OK(sinew_character_slider_count(slider, &n));
    TRUE(n == 0);
    IS(sinew_character_find_slider(slider, S("wave-slider"), &n), NOT_FOUND);
    IS(sinew_character_slider(slider, 0, &p), INVALID_ARGUMENT);
    OK(sinew_character_destroy(slider));
    OK(sinew_rig_destroy(rig));
}

static void test_physics_directions(const char *root) {
    SinewRig *rig = load(root, "testdata/spine43/physics-lab.json");
    SinewCharacter *up = NULL, *plain = NULL;
    SinewPhysicsDirections d, updraft = {0, -1, 0.6, 0.8}, bad;
    int frame;
    OK(sinew_character_create(rig, &up));
    OK(sinew_character_create(rig, &plain));
    OK(sinew_character_physics_directions(up, &d));
    TRUE(d.wind_x == 1 && d.wind_y == 0 && d.gravity_x == 0 && d.gravity_y == 1);
    OK(sinew_character_set_physics_directions(up, &updraft));
    OK(sinew_character_physics_directions(up, &d));
    TRUE(d.wind_x == 0 && d.wind_y == -1 && d.gravity_x == 0.6 && d.gravity_y == 0.8);
    OK(sinew_character_set_animation(up, 0, S("move"), true));
    OK(sinew_character_set_animation(plain, 0, S("move"), true));
    for (frame = 0; frame < 60; frame++) {
        OK(sinew_character_update(up, 1.0 / 60.0));
        OK(sinew_character_update(plain, 1.0 / 60.0));
    }
    TRUE(pose_distance(up, plain) > 1e-3);

    bad = updraft;
    bad.wind_x = NAN;
    IS(sinew_character_set_physics_directions(up, &bad), INVALID_ARGUMENT);
    bad = updraft;
    bad.gravity_y = -1e30;
    IS(sinew_character_set_physics_directions(up, &bad), INVALID_ARGUMENT);
    IS(sinew_character_set_physics_directions(up, NULL), NULL_ARGUMENT);
    IS(sinew_character_physics_directions(up, NULL), NULL_ARGUMENT);
    OK(sinew_character_physics_directions(up, &d));
    TRUE(d.wind_y == -1 && d.gravity_y == 0.8);
    IS(sinew_character_physics_directions((SinewCharacter *)rig, &d), WRONG_HANDLE_TYPE);
    IS(sinew_character_set_physics_directions(NULL, &updraft), INVALID_HANDLE);
    OK(sinew_character_destroy(up));
    IS(sinew_character_physics_directions(up, &d), INVALID_HANDLE);
    OK(sinew_character_destroy(plain));
    OK(sinew_rig_destroy(rig));
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: sliders_test REPO_ROOT\n");
        return 2;
    }
    test_sliders(argv[1]);
    test_physics_directions(argv[1]);
    printf("sliders_test: %d checks, %d failures\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
