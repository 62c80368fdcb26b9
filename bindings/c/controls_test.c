/*
 * controls_test.c: the calls of ABI 104 from C, used and misused, checked by results:
 * constraint mixes by name (a rig written here with one constraint of each kind), track
 * times and durations, attachments shown and hidden, not-found errors that list the names,
 * DragonBones play counts (sinew_character_play) and jiggle control on examples/stickbot.
 * Built by bindings/run.sh with gcc -std=c99 -Wall -Wextra -Werror and run under valgrind.
 * Usage: controls_test REPO_ROOT
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

static int near(double a, double b, double tol) { return fabs(a - b) <= tol; }

static int view_is(SinewStringView v, const char *s) {
    return v.len == strlen(s) && memcmp(v.ptr, s, v.len) == 0;
}

/* The last error as a NUL-terminated string. */
static const char *last_error(void) {
    static char msg[2048];
    size_t len = 0;
    if (sinew_last_error(msg, sizeof msg, &len) != SINEW_STATUS_OK) msg[0] = 0;
    return msg;
}

/* Bones upper/lower (two-bone IK `leg-ik` to `target`), `follower` (transform `follow-tc`),
 * `rider` (path `ride` on slot `track`), `tail` (physics `sway`); slot `hand` shows `fist` or
 * `open`; animations `idle` (1 s) and `run` (0.5 s). Every mix starts at 0. */
static const char RIG[] =
    "{\"skeleton\":{\"spine\":\"4.2.22\"},\"bones\":[{\"name\":\"root\"},{\"name\":\"upper"
    "\",\"parent\":\"root\",\"length\":50,\"rotation\":-90},{\"name\":\"lower\",\"parent\""
    ":\"upper\",\"length\":50,\"x\":50,\"rotation\":30},{\"name\":\"target\",\"parent\":\""
    "root\",\"x\":40,\"y\":-60},{\"name\":\"follower\",\"parent\":\"root\",\"x\":-30},{\"na"
    "me\":\"pathbone\",\"parent\":\"root\"},{\"name\":\"rider\",\"parent\":\"root\",\"lengt"
    "h\":10},{\"name\":\"mover\",\"parent\":\"root\"},{\"name\":\"tail\",\"parent\":\"mover"
    "\",\"x\":10,\"length\":50,\"rotation\":30}],\"slots\":[{\"name\":\"track\",\"bone\":\""
    "pathbone\",\"attachment\":\"track\"},{\"name\":\"hand\",\"bone\":\"lower\",\"attachm"
    "ent\":\"fist\"}],\"ik\":[{\"name\":\"leg-ik\",\"order\":0,\"bones\":[\"upper\",\"lower"
    "\"],\"target\":\"target\",\"mix\":0}],\"transform\":[{\"name\":\"follow-tc\",\"order"
    "\":1,\"bones\":[\"follower\"],\"target\":\"target\",\"mixRotate\":0,\"mixX\":0,\"mix"
    "Y\":0,\"mixScaleX\":0,\"mixScaleY\":0,\"mixShearY\":0}],\"path\":[{\"name\":\"ride"
    "\",\"order\":2,\"bones\":[\"rider\"],\"target\":\"track\",\"positionMode\":\"percent"
    "\",\"position\":0.1,\"spacingMode\":\"length\",\"spacing\":5,\"rotateMode\":\"tang"
    "ent\",\"mixRotate\":0,\"mixX\":0,\"mixY\":0}],\"physics\":[{\"name\":\"sway\",\"orde"
    "r\":3,\"bone\":\"tail\",\"x\":1,\"rotate\":1,\"inertia\":0.8,\"strength\":120,\"damp"
    "ing\":0.9,\"mass\":2,\"mix\":0}],\"skins\":[{\"name\":\"default\",\"attachments\":{"
    "\"track\":{\"track\":{\"type\":\"path\",\"closed\":false,\"constantSpeed\":true,\"v"
    "ertexCount\":6,\"vertices\":[-20,-10,0,0,30,20,50,40,80,30,110,20],\"lengt"
    "hs\":[89.24,172.94]}},\"hand\":{\"fist\":{\"width\":10,\"height\":10},\"open\":{\""
    "width\":12,\"height\":12}}}}],\"animations\":{\"idle\":{\"bones\":{\"mover\":{\"tr"
    "anslate\":[{\"x\":0},{\"time\":1,\"x\":40}]}}},\"run\":{\"bones\":{\"target\":{\"tra"
    "nslate\":[{\"x\":0},{\"time\":0.5,\"x\":0}]}}}}}";

static void test_constraints(void) {
    SinewRig *rig = NULL;
    SinewCharacter *c = NULL;
    SinewIkState ik, back;
    SinewTransformMix tm, tm2;
    SinewPathMix pm, pm2;
    SinewPhysicsParams pp, pp2;
    SinewWorldTransform lower, follower;
    int i;

    OK(sinew_rig_load_spine_memory((const uint8_t *)RIG, strlen(RIG), NULL, 0, NULL, 0, &rig));
    OK(sinew_character_create(rig, &c));
    OK(sinew_character_ik(c, S("leg-ik"), &ik));
    TRUE(ik.mix == 0.0 && ik.bend_direction == 1);
    OK(sinew_character_transform_mix(c, S("follow-tc"), &tm));
    TRUE(tm.x == 0.0 && tm.rotate == 0.0);
    OK(sinew_character_path_mix(c, S("ride"), &pm));
    TRUE(pm.position == 0.1 && pm.spacing == 5.0);
    OK(sinew_character_physics_params(c, S("sway"), &pp));
    TRUE(pp.strength == 120.0 && pp.mass_inverse == 0.5 && pp.mix == 0.0);

    ik.mix = 1.0;
    OK(sinew_character_set_ik(c, S("leg-ik"), &ik));
    tm.x = 0.5;
    tm.y = 0.25;
    OK(sinew_character_set_transform_mix(c, S("follow-tc"), &tm));
    pm.mix_rotate = 1.0;
    pm.position = 0.3;
    OK(sinew_character_set_path_mix(c, S("ride"), &pm));
    pp.mix = 1.0;
    pp.wind = 3.0;
    OK(sinew_character_set_physics_params(c, S("sway"), &pp));
    OK(sinew_character_ik(c, S("leg-ik"), &back));
    TRUE(back.mix == 1.0 && back.bend_direction == 1);
    OK(sinew_character_transform_mix(c, S("follow-tc"), &tm2));
    TRUE(tm2.x == 0.5 && tm2.y == 0.25);
    OK(sinew_character_path_mix(c, S("ride"), &pm2));
    TRUE(pm2.position == 0.3 && pm2.mix_rotate == 1.0);
    OK(sinew_character_physics_params(c, S("sway"), &pp2));
    TRUE(pp2.mix == 1.0 && pp2.wind == 3.0);
    for (i = 0; i < 3; i++) OK(sinew_character_update(c, 1.0 / 60.0));
    /* Full IK mix: the lower bone's tip (50 units along it) reaches the target (40, -60). */
    OK(sinew_character_bone_world(c, S("lower"), &lower));
    TRUE(near(lower.x + 50 * lower.a, 40.0, 0.5) && near(lower.y + 50 * lower.c, -60.0, 0.5));
    /* The follower moved half way to the target in x, a quarter in y. */
    OK(sinew_character_bone_world(c, S("follower"), &follower));
    TRUE(near(follower.x, 5.0, 1e-4) && near(follower.y, -15.0, 1e-4));

    /* Refused values change nothing; hostile pointers and names. */
    ik.mix = NAN;
    IS(sinew_character_set_ik(c, S("leg-ik"), &ik), INVALID_ARGUMENT);
    ik.mix = 1.0;
    ik.bend_direction = 0;
    IS(sinew_character_set_ik(c, S("leg-ik"), &ik), INVALID_ARGUMENT);
    pp.mass_inverse = -1.0;
    IS(sinew_character_set_physics_params(c, S("sway"), &pp), INVALID_ARGUMENT);
    tm.rotate = INFINITY;
    IS(sinew_character_set_transform_mix(c, S("follow-tc"), &tm), INVALID_ARGUMENT);
    OK(sinew_character_ik(c, S("leg-ik"), &back));
    TRUE(back.mix == 1.0 && back.bend_direction == 1);
    IS(sinew_character_set_ik(c, S("leg-ik"), NULL), NULL_ARGUMENT);
    IS(sinew_character_path_mix(c, S("ride"), NULL), NULL_ARGUMENT);
    IS(sinew_character_ik(c, NULL, 4, &back), NULL_ARGUMENT);
    IS(sinew_character_ik(c, "\xff", 1, &back), INVALID_UTF8);
    IS(sinew_character_transform_mix(c, S("leg-ik"), &tm2), NOT_FOUND);
    TRUE(strstr(last_error(), "this rig's transform constraints: `follow-tc`") != NULL);
    IS(sinew_character_physics_params((SinewCharacter *)rig, S("sway"), &pp2), WRONG_HANDLE_TYPE);
    OK(sinew_character_destroy(c));
    IS(sinew_character_set_path_mix(c, S("ride"), &pm), INVALID_HANDLE);
    OK(sinew_rig_destroy(rig));
}

static void test_tracks_attachments_errors(void) {
    SinewRig *rig = NULL;
    SinewCharacter *c = NULL;
    SinewTrackInfo t;
    SinewStringView v;
    SinewRenderData rd;
    double d = 0;
    uint32_t index = 0;
    int i;

    OK(sinew_rig_load_spine_memory((const uint8_t *)RIG, strlen(RIG), NULL, 0, NULL, 0, &rig));
    OK(sinew_character_create(rig, &c));
    OK(sinew_character_animation_duration(c, S("idle"), &d));
    TRUE(d == 1.0);
    OK(sinew_character_animation_duration(c, S("run"), &d));
    TRUE(d == 0.5);
    OK(sinew_character_track(c, 0, &t));
    TRUE(t.playing == 0 && t.animation.len == 0);
    OK(sinew_character_set_animation(c, 0, S("run"), true));
    for (i = 0; i < 45; i++) OK(sinew_character_update(c, 1.0 / 60.0));
    OK(sinew_character_track(c, 0, &t));
    TRUE(t.playing == 1 && view_is(t.animation, "run") && t.looping == 1 && t.play_times == -1);
    TRUE(near(t.track_time, 0.75, 1e-9) && near(t.animation_time, 0.25, 1e-9) && t.duration == 0.5 && t.complete == 1);
    IS(sinew_character_track(c, 256, &t), INVALID_ARGUMENT);
    IS(sinew_character_track(c, 0, NULL), NULL_ARGUMENT);
    IS(sinew_character_animation_duration(c, S("run"), NULL), NULL_ARGUMENT);

    /* Attachments: shown by name, hidden by NULL, an unknown one refused with the list. */
    OK(sinew_character_attachment(c, S("hand"), &v));
    TRUE(view_is(v, "fist"));
    OK(sinew_character_set_attachment(c, S("hand"), S("open")));
    OK(sinew_character_attachment(c, S("hand"), &v));
    TRUE(view_is(v, "open"));
    OK(sinew_character_set_attachment(c, S("hand"), NULL, 0));
    OK(sinew_character_attachment(c, S("hand"), &v));
    TRUE(v.len == 0);
    OK(sinew_character_update(c, 0.0));
    OK(sinew_character_render(c, &rd));
    TRUE(rd.command_count == 0);
    IS(sinew_character_set_attachment(c, S("hand"), S("sword")), NOT_FOUND);
    TRUE(strstr(last_error(), "`sword`") && strstr(last_error(), "`fist`, `open`"));
    IS(sinew_character_set_attachment(c, S("hand"), "\xc3", 1), INVALID_UTF8);
    IS(sinew_character_set_attachment(c, NULL, 3, S("open")), NULL_ARGUMENT);
    IS(sinew_character_attachment(c, S("hand"), NULL), NULL_ARGUMENT);

    /* Not found: the message lists the names. */
    IS(sinew_character_set_animation(c, 0, S("runn"), true), NOT_FOUND);
    TRUE(strcmp(last_error(), "animation not found: `runn`; this rig's animations: `idle`, `run`") == 0);
    IS(sinew_character_animation_duration(c, S("runn"), &d), NOT_FOUND);
    TRUE(strstr(last_error(), "`idle`, `run`") != NULL);
    IS(sinew_character_set_attachment(c, S("foot"), S("open")), NOT_FOUND);
    TRUE(strcmp(last_error(), "slot not found: `foot`; this rig's slots: `track`, `hand`") == 0);
    IS(sinew_rig_find_bone(rig, S("uper"), &index), NOT_FOUND);
    TRUE(strstr(last_error(), "bone not found: `uper`; this rig's bones: `root`, `upper`") != NULL);
    IS(sinew_character_set_ik_target(c, S("arm-ik"), 1.0, 2.0), NOT_FOUND);
    TRUE(strstr(last_error(), "this rig's IK constraints: `leg-ik`") != NULL);
    OK(sinew_character_destroy(c));
    IS(sinew_character_track(c, 0, &t), INVALID_HANDLE);
    OK(sinew_rig_destroy(rig));
}

/* DragonBones: `spin` (1 s, the arm turning 0 to 90 degrees) with playTimes 2. */
static const char DB_SKE[] =
    "{\"name\":\"tiny\",\"version\":\"5.5\",\"frameRate\":30,\"armature\":[{\"type\":\"Armature\","
    "\"name\":\"tiny\",\"frameRate\":30,\"bone\":[{\"name\":\"root\"},{\"name\":\"arm\","
    "\"parent\":\"root\",\"length\":40,\"transform\":{\"x\":5,\"y\":-10}}],"
    "\"animation\":[{\"name\":\"spin\",\"duration\":30,\"playTimes\":2,\"bone\":[{\"name\":\"arm\","
    "\"frame\":[{\"duration\":30,\"tweenEasing\":0,\"transform\":{}},"
    "{\"duration\":0,\"transform\":{\"skX\":90,\"skY\":90}}]}]}]}]}";

/* Plays counted from the arm's rotation over 4 s: one, plus one per wrap back. */
static int count_plays(SinewCharacter *c) {
    SinewWorldTransform w;
    double prev = -1e9, deg;
    int f, plays = 1;
    for (f = 0; f < 240; f++) {
        OK(sinew_character_update(c, 1.0 / 60.0));
        OK(sinew_character_bone_world(c, S("arm"), &w));
        deg = atan2(w.c, w.a) * 180.0 / 3.14159265358979323846;
        if (deg < prev - 1.0) plays++;
        prev = deg;
    }
    return plays;
}

static void test_dragonbones_play_times(void) {
    SinewRig *rig = NULL;
    SinewCharacter *c = NULL, *l = NULL;
    SinewTrackInfo t;
    SinewWorldTransform w;
    OK(sinew_rig_load_dragonbones_memory(DB_SKE, strlen(DB_SKE), NULL, 0, NULL, 0, &rig));
    OK(sinew_character_create(rig, &c));
    OK(sinew_character_create(rig, &l));
    /* The file's playTimes: two plays, then the end (90 degrees) holds. */
    OK(sinew_character_play(c, 0, S("spin"), -1.0, -1));
    TRUE(count_plays(c) == 2);
    OK(sinew_character_bone_world(c, S("arm"), &w));
    TRUE(near(w.a, 0.0, 1e-9) && near(w.c, 1.0, 1e-9));
    OK(sinew_character_track(c, 0, &t));
    TRUE(t.play_times == 2 && t.looping == 0 && t.complete == 1 && view_is(t.animation, "spin"));
    /* A count given: three. set_animation looping: forever, four plays in 4 s. */
    OK(sinew_character_play(c, 0, S("spin"), 0.0, 3));
    TRUE(count_plays(c) == 3);
    OK(sinew_character_set_animation(l, 0, S("spin"), true));
    TRUE(count_plays(l) == 4);
    IS(sinew_character_play(c, 0, S("spin"), NAN, 1), INVALID_ARGUMENT);
    IS(sinew_character_play(c, 300, S("spin"), -1.0, -1), INVALID_ARGUMENT);
    IS(sinew_character_play(c, 0, S("spinn"), -1.0, -1), NOT_FOUND);
    TRUE(strcmp(last_error(), "animation not found: `spinn`; this rig's animations: `spin`") == 0);
    OK(sinew_character_destroy(c));
    OK(sinew_character_destroy(l));
    OK(sinew_rig_destroy(rig));
}

static char path_buf[2][1024];

static void test_jiggle(const char *root) {
    SinewRig *rig = NULL, *bare = NULL;
    SinewCharacter *c = NULL, *b = NULL, *plain = NULL;
    SinewStringView v;
    SinewWorldTransform wb, wp;
    uint32_t n = 9, lod = 9;
    double s = -1;
    int i;
    SinewStr bones[2] = {{"cape-1", 6}, {"cape-2", 6}};
    SinewJiggleChain chain;
    const char *sk = path_buf[0], *ex = path_buf[1];
    snprintf(path_buf[0], sizeof path_buf[0], "%s/examples/stickbot/stickbot.json", root);
    snprintf(path_buf[1], sizeof path_buf[1], "%s/examples/stickbot/stickbot.extras.json", root);

    OK(sinew_rig_load_spine(sk, strlen(sk), NULL, 0, ex, strlen(ex), &rig));
    OK(sinew_character_create(rig, &c));
    OK(sinew_character_set_animation(c, 0, S("walk"), true));
    OK(sinew_character_jiggle_chain_count(c, &n));
    TRUE(n == 2);
    OK(sinew_character_jiggle_chain_name(c, 1, &v));
    TRUE(view_is(v, "cape"));
    OK(sinew_character_jiggle_strength(c, S("hair"), &s));
    TRUE(s == 1.0);
    OK(sinew_character_set_jiggle_strength(c, S("hair"), 0.0, 0.0));
    OK(sinew_character_set_jiggle_strength(c, S("cape"), 0.0, 0.5));
    for (i = 0; i < 15; i++) OK(sinew_character_update(c, 1.0 / 60.0));
    OK(sinew_character_jiggle_strength(c, S("hair"), &s));
    TRUE(s == 0.0);
    OK(sinew_character_jiggle_strength(c, S("cape"), &s));
    TRUE(near(s, 0.5, 1e-6));
    OK(sinew_character_set_jiggle_view_distance(c, 5000.0));
    OK(sinew_character_jiggle_lod(c, &lod));
    TRUE(lod == 2);
    OK(sinew_character_set_jiggle_lod(c, 1));
    OK(sinew_character_jiggle_lod(c, &lod));
    TRUE(lod == 1);
    IS(sinew_character_set_jiggle_lod(c, 3), INVALID_ARGUMENT);
    IS(sinew_character_set_jiggle_strength(c, S("hair"), 1.5, 0.0), INVALID_ARGUMENT);
    IS(sinew_character_set_jiggle_strength(c, S("hair"), 1.0, -1.0), INVALID_ARGUMENT);
    IS(sinew_character_set_jiggle_view_distance(c, NAN), INVALID_ARGUMENT);
    IS(sinew_character_jiggle_strength(c, S("hiar"), &s), NOT_FOUND);
    TRUE(strstr(last_error(), "this rig's jiggle chains: `hair`, `cape`") != NULL);
    OK(sinew_character_set_jiggle_enabled(c, false));
    OK(sinew_character_jiggle_chain_count(c, &n));
    TRUE(n == 0);
    IS(sinew_character_set_jiggle_lod(c, 0), NOT_FOUND);
    OK(sinew_character_set_jiggle_enabled(c, true));
    OK(sinew_character_jiggle_chain_count(c, &n));
    TRUE(n == 2);

    /* Without an extras file: a cape chain from code moves the cape. */
    OK(sinew_rig_load_spine(sk, strlen(sk), NULL, 0, NULL, 0, &bare));
    OK(sinew_character_create(bare, &b));
    OK(sinew_character_create(bare, &plain));
    chain.name.ptr = "cape";
    chain.name.len = 4;
    chain.bones = bones;
    chain.bone_count = 2;
    chain.preset = SINEW_JIGGLE_PRESET_RIBBON;
    OK(sinew_character_set_jiggle_chains(b, &chain, 1));
    OK(sinew_character_jiggle_chain_count(b, &n));
    TRUE(n == 1);
    OK(sinew_character_set_animation(b, 0, S("walk"), true));
    OK(sinew_character_set_animation(plain, 0, S("walk"), true));
    for (i = 0; i < 40; i++) {
        OK(sinew_character_update(b, 1.0 / 60.0));
        OK(sinew_character_update(plain, 1.0 / 60.0));
    }
    OK(sinew_character_bone_world(b, S("cape-2"), &wb));
    OK(sinew_character_bone_world(plain, S("cape-2"), &wp));
    TRUE(wb.a != wp.a || wb.c != wp.c);
    chain.preset = 99;
    IS(sinew_character_set_jiggle_chains(b, &chain, 1), INVALID_ARGUMENT);
    chain.preset = SINEW_JIGGLE_PRESET_RIBBON;
    bones[1].ptr = "cape-3";
    IS(sinew_character_set_jiggle_chains(b, &chain, 1), NOT_FOUND);
    TRUE(strstr(last_error(), "bone not found: `cape-3`; this rig's bones:") != NULL);
    IS(sinew_character_set_jiggle_chains(b, NULL, 2), NULL_ARGUMENT);
    OK(sinew_character_jiggle_chain_count(b, &n));
    TRUE(n == 1);
    OK(sinew_character_set_jiggle_chains(b, NULL, 0));
    OK(sinew_character_jiggle_chain_count(b, &n));
    TRUE(n == 0);
    OK(sinew_character_destroy(c));
    OK(sinew_character_destroy(b));
    OK(sinew_character_destroy(plain));
    IS(sinew_character_set_jiggle_enabled(c, true), INVALID_HANDLE);
    OK(sinew_rig_destroy(rig));
    OK(sinew_rig_destroy(bare));
}

int main(int argc, char **argv) {
    const char *root = argc > 1 ? argv[1] : ".";
    test_constraints();
    test_tracks_attachments_errors();
    test_dragonbones_play_times();
    test_jiggle(root);
    OK(sinew_pool_shutdown());
    printf("controls: %d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
