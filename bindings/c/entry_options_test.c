/*
 * entry_options_test.c: the calls of ABI 107 from C, used and misused, checked by results:
 * Spine 4.3 track entry options (sinew_character_set_entry_options and
 * sinew_character_entry_options) on a track's current and last queued entry. On a one-bone
 * 4.3 rig written here, poses follow closed forms: an additive layer adds its rotation to the
 * base track's (a replacing one does not), and a crossfade's weight follows the entry's mix
 * curve (smooth, powOut 2, linear). On testdata/spine43/slider-lab.json the options of a
 * queued entry move with it when it starts. Misuse returns a typed status and changes
 * nothing: null pointers and handles, a rig where a character is expected, a destroyed
 * character, empty tracks, tracks from 256 on, unknown selectors and curves, flags not 0/1
 * (an uninitialised struct), a powered curve without a power, additive on a Spine 4.2 rig
 * and any option on a DragonBones entry. crates/sinew-capi/tests/all/entry_options.rs checks
 * the same calls bit for bit against the Rust facade.
 * Built by bindings/run.sh with gcc -std=c99 -Wall -Wextra -Werror and run under valgrind.
 * Usage: entry_options_test REPO_ROOT
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

static const char *last_error(void) {
    static char msg[2048];
    size_t len = 0;
    if (sinew_last_error(msg, sizeof msg, &len) != SINEW_STATUS_OK) msg[0] = 0;
    return msg;
}

/* One bone `b` (setup rotation 10) and three held poses: `still` (x 0), `go` (x 100, rotation
 * +20) and `tilt` (rotation +5). %s is the Spine version. */
static const char RIG[] =
    "{\"skeleton\":{\"spine\":\"%s\"},\"bones\":[{\"name\":\"root\"},"
    "{\"name\":\"b\",\"parent\":\"root\",\"rotation\":10}],\"animations\":{"
    "\"still\":{\"bones\":{\"b\":{\"translate\":[{\"x\":0}]}}},"
    "\"go\":{\"bones\":{\"b\":{\"translate\":[{\"x\":100}],\"rotate\":[{\"value\":20}]}}},"
    "\"tilt\":{\"bones\":{\"b\":{\"rotate\":[{\"value\":5}]}}}}}";

static SinewRig *load_rig(const char *version) {
    char json[1024];
    SinewRig *rig = NULL;
    int n = snprintf(json, sizeof json, RIG, version);
    OK(sinew_rig_load_spine_memory((const uint8_t *)json, (size_t)n, NULL, 0, NULL, 0, &rig));
    return rig;
}

static SinewEntryOptions options(uint32_t additive, uint32_t keep_hold, SinewMixInterpolation curve,
                                 uint32_t power) {
    SinewEntryOptions o;
    o.additive = additive;
    o.keep_hold = keep_hold;
    o.mix_interpolation = (uint32_t)curve;
    o.mix_power = power;
    return o;
}

static int same(SinewEntryOptions a, SinewEntryOptions b) {
    return a.additive == b.additive && a.keep_hold == b.keep_hold &&
           a.mix_interpolation == b.mix_interpolation && a.mix_power == b.mix_power;
}

/* b's local pose after `go` on track 0 and `tilt` on track 1 (additive or not) for 0.25 s. */
static SinewBonePose layered(SinewRig *rig, uint32_t additive, double alpha) {
    SinewCharacter *c = NULL;
    SinewBonePose p;
    double a = -1;
    SinewEntryOptions o = options(additive, 0, SINEW_MIX_INTERPOLATION_LINEAR, 0), got;
    memset(&p, 0, sizeof p);
    OK(sinew_character_create(rig, &c));
    OK(sinew_character_set_animation(c, 0, S("go"), true));
    OK(sinew_character_set_animation(c, 1, S("tilt"), true));
    OK(sinew_character_set_entry_options(c, 1, SINEW_TRACK_ENTRY_CURRENT, &o));
    OK(sinew_character_entry_options(c, 1, SINEW_TRACK_ENTRY_LAST, &got));
    TRUE(same(got, o));
    OK(sinew_character_entry_alpha(c, 1, SINEW_TRACK_ENTRY_CURRENT, &a));
    TRUE(a == 1.0);
    OK(sinew_character_set_entry_alpha(c, 1, SINEW_TRACK_ENTRY_CURRENT, alpha));
    OK(sinew_character_entry_alpha(c, 1, SINEW_TRACK_ENTRY_LAST, &a));
    TRUE(a == alpha);
    /* Not finite: refused, nothing changed. */
    IS(sinew_character_set_entry_alpha(c, 1, SINEW_TRACK_ENTRY_CURRENT, NAN), INVALID_ARGUMENT);
    OK(sinew_character_entry_alpha(c, 1, SINEW_TRACK_ENTRY_CURRENT, &a));
    TRUE(a == alpha);
    OK(sinew_character_update(c, 0.25));
    OK(sinew_character_bone_local(c, S("b"), &p));
    OK(sinew_character_destroy(c));
    return p;
}

/* b's x a quarter into a 1 s crossfade from `still` (x 0) to `go` (x 100) whose curve is
 * `curve`: 100 times the curve at 0.25. */
static double crossfade_x(SinewRig *rig, SinewMixInterpolation curve, uint32_t power) {
    SinewCharacter *c = NULL;
    SinewBonePose p;
    SinewEntryOptions o = options(0, 0, curve, power);
    memset(&p, 0, sizeof p);
    OK(sinew_character_create(rig, &c));
    OK(sinew_character_set_mix(c, S("still"), S("go"), 1.0));
    OK(sinew_character_set_animation(c, 0, S("still"), true));
    OK(sinew_character_update(c, 0.125));
    OK(sinew_character_set_animation(c, 0, S("go"), true));
    OK(sinew_character_set_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, &o));
    OK(sinew_character_update(c, 0.125));
    OK(sinew_character_update(c, 0.125));
    OK(sinew_character_bone_local(c, S("b"), &p));
    OK(sinew_character_destroy(c));
    return p.x;
}

static void test_closed_forms(void) {
    SinewRig *rig = load_rig("4.3.13");
    SinewBonePose add = layered(rig, 1, 1.0), replace = layered(rig, 0, 1.0);
    /* Setup 10, `go` +20, `tilt` +5: added, 35; replacing, 15. */
    TRUE(add.rotation == 35 && add.x == 100);
    TRUE(replace.rotation == 15 && replace.x == 100);
    /* At alpha 0.5: 30 + 0.5 * 5 added; 30 + 0.5 * (15 - 30) replacing. */
    TRUE(layered(rig, 1, 0.5).rotation == 32.5);
    TRUE(layered(rig, 0, 0.5).rotation == 22.5);
    /* The mix weight at a quarter: linear 0.25, smooth 0.15625, powOut 2 0.4375. */
    TRUE(crossfade_x(rig, SINEW_MIX_INTERPOLATION_LINEAR, 0) == 25);
    TRUE(crossfade_x(rig, SINEW_MIX_INTERPOLATION_SMOOTH, 0) == 15.625);
    TRUE(crossfade_x(rig, SINEW_MIX_INTERPOLATION_POW_OUT, 2) == 43.75);
    OK(sinew_rig_destroy(rig));
}

/* Current and last: options set on a queued entry are its own, and move with it. */
static void test_queued(const char *root) {
    char path[4096];
    SinewRig *rig = NULL;
    SinewCharacter *c = NULL;
    SinewEntryOptions keep = options(0, 1, SINEW_MIX_INTERPOLATION_LINEAR, 0);
    SinewEntryOptions pow3 = options(1, 0, SINEW_MIX_INTERPOLATION_POW, 3), got, zero;
    int frame;
    memset(&zero, 0, sizeof zero);
    snprintf(path, sizeof path, "%s/testdata/spine43/slider-lab.json", root);
    OK(sinew_rig_load_spine(path, strlen(path), NULL, 0, NULL, 0, &rig));
    OK(sinew_character_create(rig, &c));
    OK(sinew_character_set_animation(c, 0, S("wave"), true));
    OK(sinew_character_set_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, &keep));
    OK(sinew_character_add_animation(c, 0, S("bend"), true, 0.3, 0.4));
    OK(sinew_character_add_animation(c, 0, S("nod"), true, 0.5, 0.2));
    OK(sinew_character_set_entry_options(c, 0, SINEW_TRACK_ENTRY_LAST, &pow3));
    OK(sinew_character_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, &got));
    TRUE(same(got, keep));
    OK(sinew_character_entry_options(c, 0, SINEW_TRACK_ENTRY_LAST, &got));
    TRUE(same(got, pow3));
    /* bend starts at 0.3 s (defaults), nod at 0.8 s (its options). */
    for (frame = 0; frame < 30; frame++) OK(sinew_character_update(c, 1.0 / 60.0));
    OK(sinew_character_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, &got));
    TRUE(same(got, zero));
    for (frame = 0; frame < 30; frame++) OK(sinew_character_update(c, 1.0 / 60.0));
    OK(sinew_character_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, &got));
    TRUE(same(got, pow3));
    /* Cleared: nothing to address. */
    OK(sinew_character_clear_track(c, 0));
    IS(sinew_character_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, &got), NOT_FOUND);
    TRUE(strstr(last_error(), "track 0 has no entry") != NULL);
    OK(sinew_character_destroy(c));
    OK(sinew_rig_destroy(rig));
}

/* A DragonBones armature of one bone and one clip. */
static const char DB_SKE[] =
    "{\"name\":\"tiny\",\"version\":\"5.5\",\"frameRate\":30,\"armature\":[{\"type\":\"Armature\","
    "\"name\":\"tiny\",\"frameRate\":30,\"bone\":[{\"name\":\"root\"},{\"name\":\"arm\","
    "\"parent\":\"root\",\"length\":40}],"
    "\"animation\":[{\"name\":\"spin\",\"duration\":30,\"playTimes\":0,\"bone\":[{\"name\":\"arm\","
    "\"frame\":[{\"duration\":30,\"tweenEasing\":0,\"transform\":{}},"
    "{\"duration\":0,\"transform\":{\"skX\":90,\"skY\":90}}]}]}]}]}";

static void test_misuse(void) {
    SinewRig *rig = load_rig("4.3.13"), *rig42 = load_rig("4.2.22"), *db = NULL;
    SinewCharacter *c = NULL, *c42 = NULL, *dbc = NULL;
    SinewEntryOptions good = options(1, 1, SINEW_MIX_INTERPOLATION_CIRCLE, 0), got, bad, zero;
    memset(&zero, 0, sizeof zero);
    OK(sinew_character_create(rig, &c));

    /* Nothing plays yet. */
    IS(sinew_character_set_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, &good), NOT_FOUND);
    IS(sinew_character_set_entry_options(c, 0, SINEW_TRACK_ENTRY_LAST, &good), NOT_FOUND);
    IS(sinew_character_entry_options(c, 4, SINEW_TRACK_ENTRY_LAST, &got), NOT_FOUND);
    TRUE(strstr(last_error(), "track 4") != NULL);
    OK(sinew_character_set_animation(c, 0, S("go"), true));
    OK(sinew_character_set_entry_options(c, 0, SINEW_TRACK_ENTRY_LAST, &good));

    /* Tracks from 256 on, unknown selectors. */
    IS(sinew_character_set_entry_options(c, 256, SINEW_TRACK_ENTRY_CURRENT, &good), INVALID_ARGUMENT);
    TRUE(strstr(last_error(), "256") != NULL);
    IS(sinew_character_entry_options(c, 0xFFFFFFFFu, SINEW_TRACK_ENTRY_CURRENT, &got), INVALID_ARGUMENT);
    IS(sinew_character_set_entry_options(c, 0, 2, &good), INVALID_ARGUMENT);
    TRUE(strstr(last_error(), "SinewTrackEntry") != NULL);
    IS(sinew_character_entry_options(c, 0, 0xFFFFFFFFu, &got), INVALID_ARGUMENT);
    /* Garbage in the struct: flags, curves, powers. */
    bad = good;
    bad.additive = 2;
    IS(sinew_character_set_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, &bad), INVALID_ARGUMENT);
    TRUE(strstr(last_error(), "additive is 2") != NULL);
    bad = good;
    bad.keep_hold = 0xFFFFFFFFu;
    IS(sinew_character_set_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, &bad), INVALID_ARGUMENT);
    bad = good;
    bad.mix_interpolation = 7;
    IS(sinew_character_set_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, &bad), INVALID_ARGUMENT);
    TRUE(strstr(last_error(), "mix_interpolation 7") != NULL);
    bad = good;
    bad.mix_interpolation = 0xDEADBEEFu;
    IS(sinew_character_set_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, &bad), INVALID_ARGUMENT);
    bad = options(0, 0, SINEW_MIX_INTERPOLATION_POW, 0);
    IS(sinew_character_set_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, &bad), INVALID_ARGUMENT);
    TRUE(strstr(last_error(), "mix_power is 0") != NULL);
    /* Null pointers and handles. */
    IS(sinew_character_set_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, NULL), NULL_ARGUMENT);
    IS(sinew_character_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, NULL), NULL_ARGUMENT);
    IS(sinew_character_set_entry_options(NULL, 0, SINEW_TRACK_ENTRY_CURRENT, &good), INVALID_HANDLE);
    IS(sinew_character_entry_options((SinewCharacter *)rig, 0, SINEW_TRACK_ENTRY_CURRENT, &got),
       WRONG_HANDLE_TYPE);
    /* None of it changed the entry. */
    OK(sinew_character_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, &got));
    TRUE(same(got, good));
    OK(sinew_character_destroy(c));
    IS(sinew_character_set_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, &good), INVALID_HANDLE);
    IS(sinew_character_entry_options(c, 0, SINEW_TRACK_ENTRY_CURRENT, &got), INVALID_HANDLE);

    /* Spine 4.2: keep hold and the curve, not additive. */
    OK(sinew_character_create(rig42, &c42));
    OK(sinew_character_set_animation(c42, 0, S("go"), true));
    IS(sinew_character_set_entry_options(c42, 0, SINEW_TRACK_ENTRY_CURRENT, &good), UNSUPPORTED);
    TRUE(strstr(last_error(), "additive") != NULL);
    OK(sinew_character_entry_options(c42, 0, SINEW_TRACK_ENTRY_CURRENT, &got));
    TRUE(same(got, zero));
    good.additive = 0;
    OK(sinew_character_set_entry_options(c42, 0, SINEW_TRACK_ENTRY_CURRENT, &good));
    OK(sinew_character_entry_options(c42, 0, SINEW_TRACK_ENTRY_CURRENT, &got));
    TRUE(same(got, good));
    OK(sinew_character_destroy(c42));

    /* DragonBones: no Spine options; its entry reads as the defaults. */
    OK(sinew_rig_load_dragonbones_memory(DB_SKE, strlen(DB_SKE), NULL, 0, NULL, 0, &db));
    OK(sinew_character_create(db, &dbc));
    OK(sinew_character_play(dbc, 0, S("spin"), -1.0, -1));
    IS(sinew_character_set_entry_options(dbc, 0, SINEW_TRACK_ENTRY_CURRENT, &good), UNSUPPORTED);
    TRUE(strstr(last_error(), "DragonBones") != NULL);
    IS(sinew_character_set_entry_options(dbc, 0, SINEW_TRACK_ENTRY_LAST, &zero), UNSUPPORTED);
    OK(sinew_character_entry_options(dbc, 0, SINEW_TRACK_ENTRY_CURRENT, &got));
    TRUE(same(got, zero));
    OK(sinew_character_destroy(dbc));
    OK(sinew_rig_destroy(db));
    OK(sinew_rig_destroy(rig42));
    OK(sinew_rig_destroy(rig));
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: entry_options_test REPO_ROOT\n");
        return 2;
    }
    test_closed_forms();
    test_queued(argv[1]);
    test_misuse();
    printf("entry_options_test: %d checks, %d failures\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
