/*
 * sinew_test.c: every function of include/sinew.h, used and misused (null, destroyed, foreign
 * and wrong-type handles, short buffers, bad UTF-8, bad files), checked by status and by
 * results: poses, parameters, pages, render spans, path and memory loads alike. Built by
 * bindings/run.sh with gcc -std=c99 -Wall -Wextra -Werror and run under valgrind
 * (--error-exitcode=1 --leak-check=full).
 * Usage: sinew_test REPO_ROOT SCRATCH_DIR [FIXTURES_DIR]
 * (SCRATCH_DIR: where crafted files are written; FIXTURES_DIR: the shared fixtures, whose
 * tests are skipped with a notice when it is not given.)
 */
#include "sinew.h"

#include <stdio.h>
#include <stdlib.h>
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
        fprintf(stderr, "line %d: %s: got %s (%d), want %s (%d); last error: %s\n", line, what,
                sinew_status_name((uint32_t)got), (int)got, sinew_status_name((uint32_t)want),
                (int)want, msg);
        failures++;
    }
}
#define OK(call) expect((call), SINEW_STATUS_OK, #call, __LINE__)
#define IS(call, st) expect((call), SINEW_STATUS_##st, #call, __LINE__)
#define TRUE(cond) do { checks++; if (!(cond)) { fprintf(stderr, "line %d: %s is false\n", __LINE__, #cond); failures++; } } while (0)

static char path_buf[6][1024];
static const char *join(int slot, const char *root, const char *rel) {
    snprintf(path_buf[slot], sizeof path_buf[slot], "%s/%s", root, rel);
    return path_buf[slot];
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = (char *)malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    fclose(f);
    if (buf) { buf[n] = 0; *len = (size_t)n; }
    return buf;
}

static int write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    size_t n = strlen(text);
    int ok;
    if (!f) return 0;
    ok = fwrite(text, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

static int near(double a, double b, double tol) { return a - b <= tol && b - a <= tol; }

/* Every bone's world transform (up to 256 bones) into `out`; the count. */
static size_t bone_worlds(SinewCharacter *c, SinewWorldTransform *out) {
    size_t len = 0;
    OK(sinew_character_bone_worlds(c, out, 256, &len));
    return len;
}

static void test_errors_and_misuse(const char *root) {
    SinewRig *rig = NULL, *bad = NULL;
    SinewCharacter *c = NULL;
    char small[4];
    char msg[512];
    size_t len = 0;
    uint32_t version = 0;
    const char bad_utf8[] = {(char)0xff, (char)0xfe, 0};
    const char *sk = join(0, root, "examples/stickbot/stickbot.json");
    const char *at = join(1, root, "examples/stickbot/stickbot.atlas");
    SinewRigInfo info;

    OK(sinew_abi_version(&version));
    TRUE(version == SINEW_ABI_VERSION);
    IS(sinew_abi_version(NULL), NULL_ARGUMENT);
    TRUE(strcmp(sinew_status_name(SINEW_STATUS_NOT_FOUND), "not found") == 0);
    TRUE(strcmp(sinew_status_name(999), "unknown status") == 0);

    /* Bad files and buffers. */
    IS(sinew_rig_load_spine(S("/no/such/skeleton.json"), NULL, 0, NULL, 0, &bad), IO);
    OK(sinew_last_error(msg, sizeof msg, &len));
    TRUE(strstr(msg, "/no/such/skeleton.json") != NULL);
    IS(sinew_last_error(small, sizeof small, &len), BUFFER_TOO_SMALL);
    TRUE(len > sizeof small);
    IS(sinew_last_error(NULL, 0, NULL), NULL_ARGUMENT);
    IS(sinew_rig_load_spine_memory((const uint8_t *)"{ nope", 6, NULL, 0, NULL, 0, &bad), LOAD_FAILED);
    IS(sinew_rig_load_spine_memory((const uint8_t *)"{\"skeleton\":{\"spine\":\"3.8.99\"}}", 31, NULL, 0, NULL, 0, &bad), LOAD_FAILED);
    IS(sinew_rig_load_spine(bad_utf8, 2, NULL, 0, NULL, 0, &bad), INVALID_UTF8);
    IS(sinew_rig_load_spine(NULL, 5, NULL, 0, NULL, 0, &bad), NULL_ARGUMENT);
    IS(sinew_rig_load_spine(sk, strlen(sk), NULL, 0, NULL, 0, NULL), NULL_ARGUMENT);
    IS(sinew_rig_load_spine(sk, strlen(sk), S("/no/such.atlas"), NULL, 0, &bad), IO);
    IS(sinew_rig_load_spine(sk, strlen(sk), at, strlen(at), S("/no/such.extras.json"), &bad), IO);
    IS(sinew_rig_load_inochi2d(S("/no/such.inp"), NULL, 0, NULL, 0, &bad), IO);
    IS(sinew_rig_load_inochi2d_memory((const uint8_t *)"TRNSRTS\0junk", 12, NULL, 0, NULL, 0, &bad), LOAD_FAILED);
    IS(sinew_rig_load_inochi2d_memory(NULL, 0, NULL, 0, NULL, 0, &bad), LOAD_FAILED);

    /* Handles: null, wrong type, foreign, destroyed, double destroy. */
    OK(sinew_rig_load_spine(sk, strlen(sk), at, strlen(at), NULL, 0, &rig));
    OK(sinew_character_create(rig, &c));
    IS(sinew_character_create(NULL, &c), INVALID_HANDLE);
    IS(sinew_character_create((SinewRig *)c, &c), WRONG_HANDLE_TYPE);
    IS(sinew_character_update(NULL, 0.1), INVALID_HANDLE);
    IS(sinew_character_update((SinewCharacter *)rig, 0.1), WRONG_HANDLE_TYPE);
    IS(sinew_character_update((SinewCharacter *)(uintptr_t)0x12345678u, 0.1), INVALID_HANDLE);
    IS(sinew_character_update((SinewCharacter *)&info, 0.1), INVALID_HANDLE);
    IS(sinew_rig_info((const SinewRig *)(uintptr_t)0x7u, &info), INVALID_HANDLE);
    IS(sinew_rig_info(rig, NULL), NULL_ARGUMENT);
    IS(sinew_cage_info((const SinewCage *)c, NULL), WRONG_HANDLE_TYPE);
    IS(sinew_rig_destroy((SinewRig *)c), WRONG_HANDLE_TYPE);
    IS(sinew_character_destroy((SinewCharacter *)(uintptr_t)0x12345678u), INVALID_HANDLE);
    OK(sinew_character_destroy(NULL));
    OK(sinew_character_destroy(c));
    OK(sinew_character_destroy(c));
    IS(sinew_character_update(c, 0.1), INVALID_HANDLE);
    IS(sinew_character_render(c, NULL), NULL_ARGUMENT);
    OK(sinew_rig_destroy(rig));
    OK(sinew_rig_destroy(rig));
    OK(sinew_rig_destroy(NULL));
    IS(sinew_rig_info(rig, &info), INVALID_HANDLE);
    IS(sinew_character_create(rig, &c), INVALID_HANDLE);
}

static void test_character(const char *root) {
    SinewRig *rig = NULL, *rig2 = NULL;
    SinewCharacter *c = NULL, *c2 = NULL;
    SinewRigInfo info;
    SinewPageInfo page;
    SinewStringView name;
    SinewBonePose pose;
    SinewWorldTransform w, worlds[64];
    SinewRenderData rd;
    SinewEvent ev;
    SinewStr skins[2];
    size_t len = 0, n_len = 0, i;
    uint32_t n = 0, bone = 0, footsteps = 0, frame;
    const char bad_utf8[] = {(char)0xc3, (char)0x28};
    const char *sk = join(0, root, "examples/stickbot/stickbot.json");
    const char *at = join(1, root, "examples/stickbot/stickbot.atlas");
    const char *ex = join(2, root, "examples/stickbot/stickbot.extras.json");
    size_t skel_len = 0, atlas_len = 0, extras_len = 0;
    char *skel_text, *atlas_text, *extras_text;

    OK(sinew_rig_load_spine(sk, strlen(sk), at, strlen(at), ex, strlen(ex), &rig));
    skel_text = read_file(sk, &skel_len);
    atlas_text = read_file(at, &atlas_len);
    extras_text = read_file(ex, &extras_len);
    TRUE(skel_text && atlas_text && extras_text);
    OK(sinew_rig_load_spine_memory((const uint8_t *)skel_text, skel_len, atlas_text, atlas_len, extras_text, extras_len, &rig2));
    IS(sinew_rig_load_spine_memory((const uint8_t *)skel_text, skel_len, "page.png\nsize: 4,4\n", 19, NULL, 0, &c2 == NULL ? NULL : &rig2), LOAD_FAILED);
    {
        /* Any format from memory: the companions by the names the skeleton gives them. */
        SinewFile files[2] = {
            {"stickbot.atlas", 14, (const uint8_t *)atlas_text, atlas_len},
            {"stickbot.extras.json", 20, (const uint8_t *)extras_text, extras_len},
        };
        SinewRig *any = NULL;
        SinewRigInfo any_info;
        OK(sinew_rig_load_memory(S("stickbot.json"), (const uint8_t *)skel_text, skel_len, files, 2, NULL, 0, &any));
        OK(sinew_rig_info(any, &any_info));
        TRUE(any_info.bones == 20 && any_info.pages == 2 && any_info.is_puppet == 0);
        OK(sinew_rig_destroy(any));
        /* An atlas given as the rig says what it is. */
        IS(sinew_rig_load_memory(S("stickbot.atlas"), (const uint8_t *)atlas_text, atlas_len, NULL, 0, NULL, 0, &any), LOAD_FAILED);
    }
    free(skel_text);
    free(atlas_text);
    free(extras_text);

    OK(sinew_rig_info(rig, &info));
    TRUE(info.bones == 20 && info.slots == 15 && info.animations == 2 && info.ik_constraints == 3);
    TRUE(info.pages >= 1 && info.is_puppet == 0);
    OK(sinew_rig_page(rig, 0, &page));
    TRUE(page.name.len > 0);
    IS(sinew_rig_page(rig, info.pages, &page), INVALID_ARGUMENT);
    IS(sinew_rig_param(rig, 0, NULL), INVALID_ARGUMENT);
    OK(sinew_rig_name(rig, SINEW_NAME_KIND_ANIMATION, 0, &name));
    TRUE(name.len == 4 && memcmp(name.ptr, "walk", 4) == 0);
    OK(sinew_rig_name(rig, SINEW_NAME_KIND_BONE, 1, &name));
    OK(sinew_rig_name(rig, SINEW_NAME_KIND_SLOT, 1, &name));
    OK(sinew_rig_name(rig, SINEW_NAME_KIND_SKIN, 0, &name));
    OK(sinew_rig_name(rig, SINEW_NAME_KIND_IK, 2, &name));
    IS(sinew_rig_name(rig, SINEW_NAME_KIND_PARAM_ANIMATION, 0, &name), INVALID_ARGUMENT);
    IS(sinew_rig_name(rig, 42, 0, &name), INVALID_ARGUMENT);
    OK(sinew_rig_find_bone(rig, S("head"), &bone));
    IS(sinew_rig_find_bone(rig, S("tail"), &bone), NOT_FOUND);

    OK(sinew_character_create(rig, &c));
    OK(sinew_character_create(rig2, &c2));
    OK(sinew_rig_destroy(rig2));
    OK(sinew_character_set_animation(c, 0, S("walk"), true));
    IS(sinew_character_set_animation(c, 0, S("fly"), true), NOT_FOUND);
    IS(sinew_character_set_animation(c, 0, bad_utf8, 2, true), INVALID_UTF8);
    IS(sinew_character_set_animation(c, 0, NULL, 3, true), NULL_ARGUMENT);
    OK(sinew_character_add_animation(c, 1, S("turn"), false, 0.5, 0.2));
    OK(sinew_character_add_animation(c, 1, S("turn"), false, 0.0, -1.0));
    IS(sinew_character_add_animation(c, 1, S("turn"), false, 1.0 / 0.0, 0.2), INVALID_ARGUMENT);
    OK(sinew_character_set_empty_animation(c, 1, 0.3));
    OK(sinew_character_clear_track(c, 1));
    OK(sinew_character_set_time_scale(c, 1.0));
    IS(sinew_character_set_time_scale(c, -1.0), INVALID_ARGUMENT);
    OK(sinew_character_set_mix(c, S("walk"), S("turn"), 0.2));
    IS(sinew_character_set_mix(c, S("walk"), S("swim"), 0.2), NOT_FOUND);
    OK(sinew_character_set_default_mix(c, 0.1));
    skins[0].ptr = "default";
    skins[0].len = 7;
    OK(sinew_character_set_skins(c, skins, 1));
    skins[1].ptr = "nope";
    skins[1].len = 4;
    IS(sinew_character_set_skins(c, skins, 2), NOT_FOUND);
    IS(sinew_character_set_skins(c, NULL, 2), NULL_ARGUMENT);
    OK(sinew_character_set_skins(c, skins, 1));
    OK(sinew_character_set_to_setup_pose(c, false));
    OK(sinew_character_set_to_setup_pose(c, true));
    OK(sinew_character_set_transform(c, 10.0, 5.0, 1.0, 1.0));
    IS(sinew_character_set_transform(c, 0.0 / 0.0, 5.0, 1.0, 1.0), INVALID_ARGUMENT);
    OK(sinew_character_set_color(c, 1.0f, 1.0f, 1.0f, 1.0f));
    OK(sinew_character_set_physics(c, 2, true));
    IS(sinew_character_set_physics(c, 9, false), INVALID_ARGUMENT);

    /* Frames: events polled each frame. */
    for (frame = 0; frame < 90; frame++) {
        OK(sinew_character_update(c, 1.0 / 60.0));
        OK(sinew_character_event_count(c, &n));
        for (i = 0; i < n; i++) {
            OK(sinew_character_event(c, (uint32_t)i, &ev));
            if (ev.kind == SINEW_EVENT_KIND_EVENT && ev.name.len == 8 && memcmp(ev.name.ptr, "footstep", 8) == 0) footsteps++;
        }
        IS(sinew_character_event(c, n, &ev), INVALID_ARGUMENT);
    }
    TRUE(footsteps >= 1);
    IS(sinew_character_event_count(c, NULL), NULL_ARGUMENT);

    /* Bones: local get/set/clear, world, all worlds (short buffer first). */
    OK(sinew_character_bone_local(c, S("head"), &pose));
    pose.rotation += 30.0;
    OK(sinew_character_set_bone_local(c, S("head"), &pose));
    IS(sinew_character_set_bone_local(c, S("head"), NULL), NULL_ARGUMENT);
    IS(sinew_character_set_bone_local(c, S("tail"), &pose), NOT_FOUND);
    OK(sinew_character_update(c, 1.0 / 60.0));
    OK(sinew_character_bone_world(c, S("head"), &w));
    IS(sinew_character_bone_world(c, S("tail"), &w), NOT_FOUND);
    OK(sinew_character_clear_bone_local(c, S("head")));
    OK(sinew_character_mark_bone_moved(c, S("head")));
    IS(sinew_character_bone_worlds(c, worlds, 2, &len), BUFFER_TOO_SMALL);
    TRUE(len == 20);
    OK(sinew_character_bone_worlds(c, worlds, 64, &len));
    TRUE(worlds[bone].x == w.x && worlds[bone].y == w.y);
    IS(sinew_character_bone_worlds(c, NULL, 64, &len), NULL_ARGUMENT);

    /* IK targets. */
    OK(sinew_character_set_ik_target(c, S("arm-front-ik"), 50.0, 120.0));
    IS(sinew_character_set_ik_target(c, S("no-ik"), 50.0, 120.0), NOT_FOUND);
    OK(sinew_character_update(c, 1.0 / 60.0));
    OK(sinew_character_clear_ik_target(c, S("arm-front-ik")));
    IS(sinew_character_clear_ik_target(c, S("no-ik")), NOT_FOUND);

    /* Parameters on a Spine rig: none. */
    IS(sinew_character_set_param(c, S("ParamAngle"), 1.0, 0.0), NOT_FOUND);
    IS(sinew_character_play_param_animation(c, S("idle"), true), NOT_FOUND);

    /* Render: batches cover every command; the clip polygon exists. */
    OK(sinew_character_render(c, &rd));
    TRUE(rd.batch_count >= 1 && rd.batch_count <= rd.command_count);
    TRUE(rd.vertex_count > 0 && rd.index_count > 0 && rd.clip_count >= 1);
    {
        uint32_t merged = 0, k;
        for (i = 0; i < rd.batch_count; i++) {
            const SinewBatch *b = &rd.batches[i];
            merged += b->command_count;
            TRUE(b->vertex_count <= SINEW_MAX_BATCH_VERTICES);
            for (k = 0; k < b->index_count; k++) TRUE(rd.indices[b->index_start + k] < b->vertex_count);
        }
        TRUE(merged == rd.command_count);
        printf("stickbot: %u commands -> %u batches (draw calls)\n", (unsigned)rd.command_count, (unsigned)rd.batch_count);
    }
    OK(sinew_character_mask(c, 0, 0, NULL, 0, &n_len, &pose.x == NULL ? NULL : (float *)&n));
    TRUE(n_len == 0);
    IS(sinew_character_mask(c, 5, 0, NULL, 0, &n_len, NULL), INVALID_ARGUMENT);

    /* update_many with the persistent pool; misuse. */
    {
        SinewCharacter *many[3];
        many[0] = c;
        many[1] = c2;
        many[2] = c;
        OK(sinew_update_many(many, 2, 1.0 / 60.0, 2));
        OK(sinew_update_many(many, 2, 1.0 / 60.0, 0));
        IS(sinew_update_many(many, 3, 1.0 / 60.0, 2), INVALID_ARGUMENT);
        IS(sinew_update_many(NULL, 2, 1.0 / 60.0, 2), NULL_ARGUMENT);
        IS(sinew_update_many(many, 2, 1.0 / 60.0, 65), INVALID_ARGUMENT);
        many[1] = (SinewCharacter *)rig;
        IS(sinew_update_many(many, 2, 1.0 / 60.0, 2), WRONG_HANDLE_TYPE);
    }
    OK(sinew_character_clear_tracks(c));
    OK(sinew_character_destroy(c2));
    OK(sinew_rig_destroy(rig));
    OK(sinew_character_update(c, 0.1)); /* the character outlives its rig handle */
    OK(sinew_character_destroy(c));
}

static void test_puppet(const char *root) {
    SinewRig *rig = NULL, *rig2 = NULL;
    SinewCharacter *c = NULL;
    SinewRigInfo info;
    SinewParamInfo p;
    SinewRenderData rd;
    SinewMaskSource sources[8];
    double x = 0, y = 0;
    float threshold = 0;
    size_t len = 0, plen = 0;
    uint32_t i, masked = 0;
    const char *inp = join(0, root, "examples/face/face.inp");
    char *bytes = read_file(inp, &plen);

    OK(sinew_rig_load_inochi2d(inp, strlen(inp), NULL, 0, NULL, 0, &rig));
    TRUE(bytes != NULL);
    OK(sinew_rig_load_inochi2d_memory((const uint8_t *)bytes, plen, NULL, 0, NULL, 0, &rig2));
    IS(sinew_rig_load_inochi2d_memory((const uint8_t *)bytes, plen, S("{ bad"), NULL, 0, &rig2 == NULL ? NULL : &rig2), LOAD_FAILED);
    free(bytes);
    OK(sinew_rig_destroy(rig2));
    OK(sinew_rig_info(rig, &info));
    TRUE(info.is_puppet == 1 && info.params == 4 && info.param_animations == 1);
    for (i = 0; i < info.params; i++) OK(sinew_rig_param(rig, i, &p));
    OK(sinew_rig_param(rig, 0, &p));
    TRUE(p.axes == 2 && p.min[0] == -30.0 && p.max[0] == 30.0);
    IS(sinew_rig_param(rig, info.params, &p), INVALID_ARGUMENT);

    OK(sinew_character_create(rig, &c));
    OK(sinew_character_set_param(c, S("ParamAngle"), 12.5, -3.0));
    IS(sinew_character_set_param(c, S("ParamAngle"), 1.0 / 0.0, -3.0), INVALID_ARGUMENT);
    IS(sinew_character_set_param(c, S("ParamNose"), 1.0, 0.0), NOT_FOUND);
    OK(sinew_character_update(c, 1.0 / 60.0));
    OK(sinew_character_get_param(c, S("ParamAngle"), &x, &y));
    TRUE(x == 12.5 && y == -3.0);
    IS(sinew_character_get_param(c, S("ParamAngle"), NULL, &y), NULL_ARGUMENT);
    OK(sinew_character_play_param_animation(c, S("idle"), true));
    IS(sinew_character_play_param_animation(c, S("dance"), true), NOT_FOUND);
    for (i = 0; i < 30; i++) OK(sinew_character_update(c, 1.0 / 60.0));
    OK(sinew_character_render(c, &rd));
    TRUE(rd.batch_count >= 1 && rd.batch_count <= rd.command_count);
    printf("face: %u commands -> %u batches (draw calls)\n", (unsigned)rd.command_count, (unsigned)rd.batch_count);
    for (i = 0; i < rd.batch_count; i++) {
        if (rd.batches[i].mask_slot >= 0) {
            masked++;
            IS(sinew_character_mask(c, 0, (uint32_t)rd.batches[i].mask_slot, sources, 0, &len, &threshold), BUFFER_TOO_SMALL);
            OK(sinew_character_mask(c, 0, (uint32_t)rd.batches[i].mask_slot, sources, 8, &len, &threshold));
            TRUE(len >= 1);
        }
    }
    IS(sinew_character_mask(c, 0, 100000, sources, 8, &len, &threshold), INVALID_ARGUMENT);
    printf("face: %u masked batches\n", (unsigned)masked);
    OK(sinew_character_destroy(c));
    OK(sinew_rig_destroy(rig));
}

static void test_cage(void) {
    /* A square cage with a square hole, points between; then a mesh bind. */
    const float loops[] = {0, 0, 10, 0, 10, 10, 0, 10, /* hole, clockwise: */ 4, 4, 4, 6, 6, 6, 6, 4};
    const uint32_t sizes[] = {4, 4};
    const float points[] = {1, 1, 2, 8, 9, 5, 5, 2};
    const float grid[] = {0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1, 0, 2, 1, 2, 2, 2};
    const uint32_t tris[] = {0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4, 3, 4, 7, 3, 7, 6, 4, 5, 8, 4, 8, 7};
    const uint32_t bad_tris[] = {0, 1, 1};
    SinewCage *cage = NULL, *mesh = NULL, *loaded = NULL, *dead = NULL;
    SinewCageInfo info;
    float moved[16], out[18], out2[18], rest[16];
    uint32_t boundary[16];
    uint8_t *bytes;
    size_t len = 0, n = 0, i;
    const SinewCage *many[2];
    const float *ins[2];
    float *outs[2];

    OK(sinew_cage_create(&cage));
    IS(sinew_cage_create(NULL), NULL_ARGUMENT);
    /* Methods: this build (default features) has mean value coordinates only. */
    IS(sinew_cage_set_method(cage, SINEW_CAGE_METHOD_HARMONIC), UNSUPPORTED);
    IS(sinew_cage_set_method(cage, SINEW_CAGE_METHOD_BIHARMONIC), UNSUPPORTED);
    IS(sinew_cage_set_method(cage, 7), INVALID_ARGUMENT);
    IS(sinew_cage_set_method(NULL, SINEW_CAGE_METHOD_MEAN_VALUE), INVALID_HANDLE);
    OK(sinew_cage_set_method(cage, SINEW_CAGE_METHOD_MEAN_VALUE));
    TRUE(strcmp(sinew_status_name(SINEW_STATUS_UNSUPPORTED), "unsupported") == 0);
    OK(sinew_cage_info(cage, &info));
    TRUE(info.bound == 0);
    IS(sinew_cage_deform(cage, loops, 16, out, 18, &len), INVALID_ARGUMENT);
    IS(sinew_cage_serialize(cage, NULL, 0, &len), INVALID_ARGUMENT);
    OK(sinew_cage_bind_polygons(cage, loops, sizes, 2, points, 4, 0));
    OK(sinew_cage_info(cage, &info));
    TRUE(info.bound == 1 && info.points == 4 && info.cage_vertices == 8 && info.sparse_k == 0);
    IS(sinew_cage_rest(cage, rest, 3, &len), BUFFER_TOO_SMALL);
    TRUE(len == 16);
    OK(sinew_cage_rest(cage, rest, 16, &len));
    OK(sinew_cage_boundary(cage, boundary, 16, &len));
    TRUE(len == 0);
    /* Rest pose reproduces the points; a translation moves them with it. */
    OK(sinew_cage_deform(cage, rest, 16, out, 18, &len));
    TRUE(len == 8);
    for (i = 0; i < 8; i++) TRUE(out[i] > points[i] - 1e-4f && out[i] < points[i] + 1e-4f);
    for (i = 0; i < 16; i++) moved[i] = loops[i] + (i % 2 ? 3.0f : -2.0f);
    OK(sinew_cage_deform(cage, moved, 16, out, 18, &len));
    for (i = 0; i < 8; i++) TRUE(out[i] > points[i] + (i % 2 ? 3.0f : -2.0f) - 1e-3f && out[i] < points[i] + (i % 2 ? 3.0f : -2.0f) + 1e-3f);
    IS(sinew_cage_deform(cage, moved, 15, out, 18, &len), CAGE_FAILED);
    IS(sinew_cage_deform(cage, moved, 16, out, 4, &len), BUFFER_TOO_SMALL);
    IS(sinew_cage_deform(cage, NULL, 16, out, 18, &len), NULL_ARGUMENT);
    /* Bad cages: a 2-vertex loop, a NaN point, K < 3. */
    {
        const uint32_t short_sizes[] = {2};
        const float outside[] = {5, 0.0f / 0.0f};
        IS(sinew_cage_bind_polygons(cage, loops, short_sizes, 1, points, 4, 0), CAGE_FAILED);
        IS(sinew_cage_bind_polygons(cage, loops, sizes, 2, outside, 1, 0), CAGE_FAILED);
        IS(sinew_cage_bind_polygons(cage, loops, sizes, 2, points, 4, 2), CAGE_FAILED);
    }
    /* Sparse by error: refused until an error is set, then within it of the dense. */
    IS(sinew_cage_bind_polygons(cage, loops, sizes, 2, points, 4, SINEW_SPARSE_BY_ERROR), INVALID_ARGUMENT);
    IS(sinew_cage_set_sparse_error(cage, 0.0, 1.0), INVALID_ARGUMENT);
    IS(sinew_cage_set_sparse_error(cage, 0.01, 1.0 / 0.0), INVALID_ARGUMENT);
    IS(sinew_cage_set_sparse_error(NULL, 0.01, 0.5), INVALID_HANDLE);
    OK(sinew_cage_bind_polygons(cage, loops, sizes, 2, points, 4, 0));
    OK(sinew_cage_deform(cage, moved, 16, out2, 18, &len));
    OK(sinew_cage_set_sparse_error(cage, 0.01, 0.5));
    OK(sinew_cage_bind_polygons(cage, loops, sizes, 2, points, 4, SINEW_SPARSE_BY_ERROR));
    OK(sinew_cage_info(cage, &info));
    TRUE(info.bound == 1 && info.sparse_k >= 3 && info.sparse_k <= 8 && info.truncation_max_l1 <= 0.02);
    OK(sinew_cage_deform(cage, moved, 16, out, 18, &len));
    for (i = 0; i < 8; i++) TRUE(out[i] > out2[i] - 1e-3f && out[i] < out2[i] + 1e-3f);
    /* Grid-interpolated by the same error: within it of the dense, and it round-trips. */
    OK(sinew_cage_bind_polygons(cage, loops, sizes, 2, points, 4, SINEW_GRID_BY_ERROR));
    OK(sinew_cage_info(cage, &info));
    TRUE(info.bound == 1 && info.sparse_k == 4 && info.points == 4 && info.truncation_max_l1 <= 0.02);
    OK(sinew_cage_deform(cage, moved, 16, out, 18, &len));
    for (i = 0; i < 8; i++) TRUE(out[i] > out2[i] - 1e-3f && out[i] < out2[i] + 1e-3f);
    {
        uint8_t *grid_bytes;
        SinewCage *grid_copy = NULL;
        float out3[18];
        IS(sinew_cage_serialize(cage, NULL, 0, &n), BUFFER_TOO_SMALL);
        grid_bytes = (uint8_t *)malloc(n);
        OK(sinew_cage_serialize(cage, grid_bytes, n, &n));
        OK(sinew_cage_deserialize(grid_bytes, n, &grid_copy));
        free(grid_bytes);
        OK(sinew_cage_deform(grid_copy, moved, 16, out3, 18, &len));
        for (i = 0; i < 8; i++) TRUE(out3[i] == out[i]);
        OK(sinew_cage_destroy(grid_copy));
    }
    /* Sparse. */
    OK(sinew_cage_bind_polygons(cage, loops, sizes, 2, points, 4, 4));
    OK(sinew_cage_info(cage, &info));
    TRUE(info.sparse_k == 4);
    /* Serialise, deserialise: same deformation. */
    IS(sinew_cage_serialize(cage, NULL, 0, &n), BUFFER_TOO_SMALL);
    bytes = (uint8_t *)malloc(n);
    OK(sinew_cage_serialize(cage, bytes, n, &n));
    OK(sinew_cage_deserialize(bytes, n, &loaded));
    bytes[n / 2] ^= 0x55;
    IS(sinew_cage_deserialize(bytes, n, &dead), CAGE_FAILED);
    IS(sinew_cage_deserialize(bytes, 3, &dead), CAGE_FAILED);
    free(bytes);
    OK(sinew_cage_deform(cage, moved, 16, out, 18, &len));
    OK(sinew_cage_deform(loaded, moved, 16, out2, 18, &len));
    TRUE(memcmp(out, out2, 8 * sizeof(float)) == 0);
    /* A triangle mesh: its boundary is the cage. */
    OK(sinew_cage_create(&mesh));
    IS(sinew_cage_bind_mesh(mesh, grid, 9, bad_tris, 1, 0), CAGE_FAILED);
    OK(sinew_cage_bind_mesh(mesh, grid, 9, tris, 8, 0));
    OK(sinew_cage_info(mesh, &info));
    TRUE(info.points == 9 && info.cage_vertices == 8);
    OK(sinew_cage_boundary(mesh, boundary, 16, &len));
    TRUE(len == 8);
    OK(sinew_cage_rest(mesh, rest, 16, &len));
    OK(sinew_cage_deform(mesh, rest, 16, out, 18, &len));
    TRUE(out[8] > 1.0f - 1e-4f && out[8] < 1.0f + 1e-4f); /* the centre vertex */
    /* Batch deform. */
    many[0] = cage;
    many[1] = mesh;
    ins[0] = moved;
    ins[1] = rest;
    outs[0] = out;
    outs[1] = out2;
    OK(sinew_cage_deform_many(many, ins, outs, 2));
    IS(sinew_cage_deform_many(many, NULL, outs, 2), NULL_ARGUMENT);
    /* Handles. */
    OK(sinew_cage_destroy(loaded));
    OK(sinew_cage_destroy(loaded));
    many[1] = loaded;
    IS(sinew_cage_deform_many(many, ins, outs, 2), INVALID_HANDLE);
    IS(sinew_cage_deform(loaded, moved, 16, out, 18, &len), INVALID_HANDLE);
    IS(sinew_cage_bind_mesh((SinewCage *)(uintptr_t)0x5u, grid, 9, tris, 8, 0), INVALID_HANDLE);
    OK(sinew_cage_destroy(mesh));
    OK(sinew_cage_destroy(cage));
    OK(sinew_cage_destroy(NULL));
}

/* A DragonBones armature written here: one 40-unit bone `arm` at (5, -10) (y down), a
 * 16 x 8 image `box` centred 20 units along it, and `spin` turning the arm from 0 to 90
 * degrees over 30 frames at 30 fps; its page 64 x 32 with the box at the top-left. */
static const char DB_SKE[] =
    "{\"name\":\"tiny\",\"version\":\"5.5\",\"frameRate\":30,\"armature\":[{\"type\":\"Armature\","
    "\"name\":\"tiny\",\"frameRate\":30,\"bone\":[{\"name\":\"root\"},{\"name\":\"arm\","
    "\"parent\":\"root\",\"length\":40,\"transform\":{\"x\":5,\"y\":-10}}],"
    "\"slot\":[{\"name\":\"box\",\"parent\":\"arm\"}],\"skin\":[{\"slot\":[{\"name\":\"box\","
    "\"display\":[{\"name\":\"box\",\"type\":\"image\",\"transform\":{\"x\":20}}]}]}],"
    "\"animation\":[{\"name\":\"spin\",\"duration\":30,\"playTimes\":0,\"bone\":[{\"name\":\"arm\","
    "\"frame\":[{\"duration\":30,\"tweenEasing\":0,\"transform\":{}},"
    "{\"duration\":0,\"transform\":{\"skX\":90,\"skY\":90}}]}]}]}]}";
static const char DB_TEX[] =
    "{\"imagePath\":\"tiny_tex.png\",\"width\":64,\"height\":32,\"SubTexture\":"
    "[{\"name\":\"box\",\"x\":0,\"y\":0,\"width\":16,\"height\":8}]}";

static void span(const SinewRenderData *rd, int axis, float *lo, float *hi) {
    size_t v;
    *lo = 1e30f;
    *hi = -1e30f;
    for (v = 0; v < rd->vertex_count; v++) {
        float x = rd->positions[2 * v + (size_t)axis];
        if (x < *lo) *lo = x;
        if (x > *hi) *hi = x;
    }
}

static void test_dragonbones_crafted(const char *scratch) {
    SinewRig *rig = NULL, *by_path = NULL, *bad = NULL;
    SinewCharacter *c = NULL, *c2 = NULL;
    SinewRigInfo info;
    SinewPageInfo page;
    SinewRenderData rd;
    SinewWorldTransform w, wa[256], wb[256];
    float lo, hi;
    char msg[512];
    size_t len = 0, na, nb;
    int i;
    const char bad_utf8[] = {(char)0xff, (char)0xfe};
    const char *ske = join(4, scratch, "tiny_ske.json");
    const char *tex = join(5, scratch, "tiny_tex.json");

    OK(sinew_rig_load_dragonbones_memory(DB_SKE, strlen(DB_SKE), DB_TEX, strlen(DB_TEX), NULL, 0, &rig));
    OK(sinew_rig_info(rig, &info));
    TRUE(info.bones == 2 && info.slots == 1 && info.animations == 1 && info.pages == 1 && info.is_puppet == 0);
    OK(sinew_rig_page(rig, 0, &page));
    TRUE(page.name.len == 12 && memcmp(page.name.ptr, "tiny_tex.png", 12) == 0);
    TRUE(page.width == 64 && page.height == 32 && page.premultiplied_alpha == 0);
    OK(sinew_character_create(rig, &c));
    /* Setup pose: the box centred at (25, 10) in the y-up output, 16 x 8 units. */
    OK(sinew_character_update(c, 0.0));
    OK(sinew_character_render(c, &rd));
    TRUE(rd.batch_count == 1 && rd.command_count == 1 && rd.vertex_count == 4 && rd.batches[0].page == 0);
    span(&rd, 0, &lo, &hi);
    TRUE(near(lo, 17.0, 1e-4) && near(hi, 33.0, 1e-4));
    span(&rd, 1, &lo, &hi);
    TRUE(near(lo, 6.0, 1e-4) && near(hi, 14.0, 1e-4));
    /* Half way through `spin` the arm has turned 45 degrees about its origin. */
    OK(sinew_character_set_animation(c, 0, S("spin"), true));
    for (i = 0; i < 30; i++) OK(sinew_character_update(c, 1.0 / 60.0));
    OK(sinew_character_bone_world(c, S("arm"), &w));
    TRUE(near(w.a, 0.70710678, 1e-6) && near(w.c, 0.70710678, 1e-6) && w.x == 5.0 && w.y == -10.0);

    /* The same files on disk: the same poses, bit for bit. */
    TRUE(write_file(ske, DB_SKE) && write_file(tex, DB_TEX));
    OK(sinew_rig_load_dragonbones(ske, strlen(ske), tex, strlen(tex), S("tiny"), &by_path));
    OK(sinew_character_create(by_path, &c2));
    OK(sinew_character_set_animation(c2, 0, S("spin"), true));
    for (i = 0; i < 30; i++) OK(sinew_character_update(c2, 1.0 / 60.0));
    na = bone_worlds(c, wa);
    nb = bone_worlds(c2, wb);
    TRUE(na == 2 && na == nb && memcmp(wa, wb, na * sizeof wa[0]) == 0);

    /* Misuse. */
    IS(sinew_rig_load_dragonbones_memory(DB_SKE, strlen(DB_SKE), DB_TEX, strlen(DB_TEX), S("nope"), &bad), LOAD_FAILED);
    OK(sinew_last_error(msg, sizeof msg, &len));
    TRUE(strstr(msg, "nope") != NULL);
    IS(sinew_rig_load_dragonbones_memory(DB_SKE, 10, NULL, 0, NULL, 0, &bad), LOAD_FAILED);
    IS(sinew_rig_load_dragonbones_memory(bad_utf8, 2, NULL, 0, NULL, 0, &bad), INVALID_UTF8);
    IS(sinew_rig_load_dragonbones_memory(DB_SKE, strlen(DB_SKE), NULL, 0, NULL, 0, NULL), NULL_ARGUMENT);
    IS(sinew_rig_load_dragonbones(S("/no/such_ske.json"), NULL, 0, NULL, 0, &bad), IO);
    IS(sinew_rig_load_dragonbones(ske, strlen(ske), S("/no/such_tex.json"), NULL, 0, &bad), IO);
    IS(sinew_rig_load_dragonbones(ske, strlen(ske), tex, strlen(tex), bad_utf8, 2, &bad), INVALID_UTF8);
    OK(sinew_character_destroy(c));
    OK(sinew_character_destroy(c2));
    OK(sinew_rig_destroy(rig));
    OK(sinew_rig_destroy(by_path));
    remove(ske);
    remove(tex);
}

static void test_dragonbones_fixture(const char *fx) {
    SinewRig *by_path = NULL, *by_memory = NULL, *bad = NULL;
    SinewCharacter *a = NULL, *m = NULL;
    SinewRigInfo info;
    SinewPageInfo page;
    SinewStringView name;
    SinewRenderData rd;
    SinewWorldTransform wa[256], wb[256], first[256];
    char msg[512];
    size_t len = 0, ske_len = 0, tex_len = 0, na = 0, nb = 0, i;
    uint32_t k, walk = 0;
    int f, moved = 0;
    const char *ske = join(4, fx, "dragonbones/dragon_boy/dragon_boy_ske.json");
    const char *tex = join(5, fx, "dragonbones/dragon_boy/dragon_boy_tex.json");
    char *ske_text = read_file(ske, &ske_len), *tex_text = read_file(tex, &tex_len);

    TRUE(ske_text != NULL && tex_text != NULL);
    if (!ske_text || !tex_text) { free(ske_text); free(tex_text); return; }
    OK(sinew_rig_load_dragonbones(ske, strlen(ske), tex, strlen(tex), NULL, 0, &by_path));
    OK(sinew_rig_load_dragonbones_memory(ske_text, ske_len, tex_text, tex_len, S("DragonBoy"), &by_memory));
    IS(sinew_rig_load_dragonbones(ske, strlen(ske), tex, strlen(tex), S("Nope"), &bad), LOAD_FAILED);
    OK(sinew_last_error(msg, sizeof msg, &len));
    TRUE(strstr(msg, "DragonBoy") != NULL); /* the error lists the armatures there are */
    free(ske_text);
    free(tex_text);
    OK(sinew_rig_info(by_path, &info));
    TRUE(info.animations == 4 && info.bones > 10 && info.pages == 1);
    for (k = 0; k < info.animations; k++) {
        OK(sinew_rig_name(by_path, SINEW_NAME_KIND_ANIMATION, k, &name));
        if (name.len == 4 && memcmp(name.ptr, "walk", 4) == 0) walk = 1;
    }
    TRUE(walk == 1);
    OK(sinew_rig_page(by_path, 0, &page));
    TRUE(page.name.len == 18 && memcmp(page.name.ptr, "dragon_boy_tex.png", 18) == 0);
    TRUE(page.width == 256 && page.height == 256);

    OK(sinew_character_create(by_path, &a));
    OK(sinew_character_create(by_memory, &m));
    OK(sinew_character_set_animation(a, 0, S("walk"), true));
    OK(sinew_character_set_animation(m, 0, S("walk"), true));
    for (f = 0; f < 40; f++) {
        OK(sinew_character_update(a, 1.0 / 60.0));
        OK(sinew_character_update(m, 1.0 / 60.0));
        na = bone_worlds(a, wa);
        nb = bone_worlds(m, wb);
        TRUE(na == info.bones && na == nb && memcmp(wa, wb, na * sizeof wa[0]) == 0);
        if (f == 0) memcpy(first, wa, na * sizeof wa[0]);
    }
    for (i = 0; i < na; i++) moved |= wa[i].x != first[i].x || wa[i].y != first[i].y;
    TRUE(moved); /* the walk moves bones */
    OK(sinew_character_render(a, &rd));
    TRUE(rd.batch_count >= 1 && rd.command_count >= 10);
    for (i = 0; i < rd.batch_count; i++) TRUE(rd.batches[i].page == 0);
    printf("dragon_boy walk: %u commands -> %u batches (draw calls)\n", (unsigned)rd.command_count, (unsigned)rd.batch_count);
    OK(sinew_character_destroy(a));
    OK(sinew_character_destroy(m));
    OK(sinew_rig_destroy(by_path));
    OK(sinew_rig_destroy(by_memory));
}

/* The binary `.skel` export of spineboy poses like its JSON export. */
static void test_skel(const char *fx) {
    SinewRig *skel = NULL, *json = NULL, *mem = NULL, *bad = NULL;
    SinewCharacter *a = NULL, *b = NULL, *c = NULL;
    SinewRigInfo ia, ib;
    SinewRenderData rd;
    SinewWorldTransform wa[256], wb[256], wc[256];
    size_t n = 0, na, nb, nc, i;
    int f;
    double worst = 0, worst_m = 0;
    const char *sk = join(2, fx, "spine/spineboy/spineboy-pro.skel");
    const char *js = join(3, fx, "spine/spineboy/spineboy-pro.json");
    const char *at = join(4, fx, "spine/spineboy/spineboy.atlas");
    char *bytes = read_file(sk, &n);

    TRUE(bytes != NULL && n > 1000);
    if (!bytes) return;
    OK(sinew_rig_load_spine(sk, strlen(sk), at, strlen(at), NULL, 0, &skel));
    OK(sinew_rig_load_spine(js, strlen(js), at, strlen(at), NULL, 0, &json));
    OK(sinew_rig_load_spine_memory((const uint8_t *)bytes, n, NULL, 0, NULL, 0, &mem));
    IS(sinew_rig_load_spine_memory((const uint8_t *)bytes, n / 2, NULL, 0, NULL, 0, &bad), LOAD_FAILED);
    free(bytes);
    OK(sinew_rig_info(skel, &ia));
    OK(sinew_rig_info(json, &ib));
    TRUE(ia.bones == ib.bones && ia.slots == ib.slots && ia.animations == ib.animations &&
         ia.skins == ib.skins && ia.ik_constraints == ib.ik_constraints && ia.bones == 67);
    OK(sinew_character_create(skel, &a));
    OK(sinew_character_create(json, &b));
    OK(sinew_character_create(mem, &c));
    OK(sinew_character_set_animation(a, 0, S("run"), true));
    OK(sinew_character_set_animation(b, 0, S("run"), true));
    OK(sinew_character_set_animation(c, 0, S("run"), true));
    for (f = 0; f < 30; f++) {
        OK(sinew_character_update(a, 1.0 / 60.0));
        OK(sinew_character_update(b, 1.0 / 60.0));
        OK(sinew_character_update(c, 1.0 / 60.0));
    }
    na = bone_worlds(a, wa);
    nb = bone_worlds(b, wb);
    nc = bone_worlds(c, wc);
    TRUE(na == ia.bones && na == nb && na == nc);
    for (i = 0; i < na && i < nb; i++) {
        double d[6];
        int k;
        d[0] = wa[i].a - wb[i].a; d[1] = wa[i].b - wb[i].b; d[2] = wa[i].c - wb[i].c;
        d[3] = wa[i].d - wb[i].d; d[4] = wa[i].x - wb[i].x; d[5] = wa[i].y - wb[i].y;
        for (k = 0; k < 4; k++) worst_m = d[k] > worst_m ? d[k] : (-d[k] > worst_m ? -d[k] : worst_m);
        for (k = 4; k < 6; k++) worst = d[k] > worst ? d[k] : (-d[k] > worst ? -d[k] : worst);
    }
    /* The JSON export rounds its numbers to 2 decimals (the binary keeps the f32s), which
     * moves world positions of this 690-unit skeleton by tenths of a unit and the axes by
     * thousandths; a wrong key, curve or bone would move them by tens of units. */
    TRUE(worst < 1.0 && worst_m < 0.02);
    /* The untextured memory load poses exactly like the path load of the same bytes. */
    TRUE(memcmp(wa, wc, na * sizeof wa[0]) == 0);
    OK(sinew_character_render(a, &rd));
    TRUE(rd.command_count >= 15 && rd.batch_count == 1);
    printf("spineboy-pro.skel run: bone positions within %.3g, axes within %.3g of the JSON export's\n", worst, worst_m);
    OK(sinew_character_destroy(a));
    OK(sinew_character_destroy(b));
    OK(sinew_character_destroy(c));
    OK(sinew_rig_destroy(skel));
    OK(sinew_rig_destroy(json));
    OK(sinew_rig_destroy(mem));
}

/* A Cubism physics3 chain: the head angle swings the root sideways in a side wind and the
 * second particle's angle drives ParamEyeLOpen (which nothing else moves). */
static const char PHYSICS3[] =
    "{\"Version\":3,\"Meta\":{\"Fps\":60,\"EffectiveForces\":{\"Gravity\":{\"X\":0,\"Y\":-1},"
    "\"Wind\":{\"X\":5,\"Y\":0}}},\"PhysicsSettings\":[{\"Id\":\"Blink\","
    "\"Input\":[{\"Source\":{\"Target\":\"Parameter\",\"Id\":\"ParamAngle\"},\"Weight\":100,"
    "\"Type\":\"X\",\"Reflect\":false}],"
    "\"Output\":[{\"Destination\":{\"Target\":\"Parameter\",\"Id\":\"ParamEyeLOpen\"},"
    "\"VertexIndex\":1,\"Scale\":2.0,\"Weight\":100,\"Type\":\"Angle\",\"Reflect\":false}],"
    "\"Vertices\":[{\"Position\":{\"X\":0,\"Y\":0},\"Mobility\":1,\"Delay\":1,\"Acceleration\":1,"
    "\"Radius\":0},{\"Position\":{\"X\":0,\"Y\":10},\"Mobility\":0.9,\"Delay\":0.8,"
    "\"Acceleration\":1.5,\"Radius\":10}],\"Normalization\":{\"Position\":{\"Minimum\":-10,"
    "\"Default\":0,\"Maximum\":10},\"Angle\":{\"Minimum\":-10,\"Default\":0,\"Maximum\":10}}}]}";
/* Rig extras: the Head node follows its own translation a quarter of a second late. */
static const char EXTRAS[] =
    "{\"sinewExtras\":1,\"follow\":[{\"name\":\"lag\",\"bone\":\"Head\",\"source\":\"Head\","
    "\"delay\":0.25,\"translate\":true,\"rotate\":false}]}";

static void test_puppet_physics_extras(const char *root, const char *scratch) {
    SinewRig *plain = NULL, *by_path = NULL, *by_memory = NULL, *bad = NULL;
    SinewCharacter *p = NULL, *a = NULL, *m = NULL;
    SinewWorldTransform hp, ha, hm, wa[256], wm[256];
    double ex = 0, ey = 0, eym = 0, ep = 0, eyp = 0, swing = 0, lag_early = 0, lag_late = 0;
    size_t n = 0, na, nm;
    int f;
    const char *inp = join(0, root, "examples/face/face.inp");
    const char *phys = join(4, scratch, "face.physics3.json");
    const char *extras = join(5, scratch, "face.extras.json");
    char *bytes = read_file(inp, &n);

    TRUE(bytes != NULL && write_file(phys, PHYSICS3) && write_file(extras, EXTRAS));
    if (!bytes) return;
    OK(sinew_rig_load_inochi2d(inp, strlen(inp), NULL, 0, NULL, 0, &plain));
    OK(sinew_rig_load_inochi2d(inp, strlen(inp), phys, strlen(phys), extras, strlen(extras), &by_path));
    OK(sinew_rig_load_inochi2d_memory((const uint8_t *)bytes, n, PHYSICS3, strlen(PHYSICS3), EXTRAS, strlen(EXTRAS), &by_memory));
    /* A chain naming a parameter the puppet lacks; extras naming a bone it lacks. */
    IS(sinew_rig_load_inochi2d_memory((const uint8_t *)bytes, n, S("{\"PhysicsSettings\":[{\"Id\":\"x\",\"Input\":[],\"Output\":[{\"Destination\":{\"Id\":\"ParamNose\"},\"VertexIndex\":0}],\"Vertices\":[]}]}"), NULL, 0, &bad), LOAD_FAILED);
    IS(sinew_rig_load_inochi2d_memory((const uint8_t *)bytes, n, NULL, 0, S("{\"sinewExtras\":1,\"follow\":[{\"name\":\"x\",\"bone\":\"Tail\",\"source\":\"Head\"}]}"), &bad), LOAD_FAILED);
    IS(sinew_rig_load_inochi2d(inp, strlen(inp), S("/no/such.physics3.json"), NULL, 0, &bad), IO);
    free(bytes);
    OK(sinew_character_create(plain, &p));
    OK(sinew_character_create(by_path, &a));
    OK(sinew_character_create(by_memory, &m));
    for (f = 0; f < 80; f++) {
        if (f == 10) { /* turn the head: the chain swings, the Head lags */
            OK(sinew_character_set_param(p, S("ParamAngle"), 30.0, 0.0));
            OK(sinew_character_set_param(a, S("ParamAngle"), 30.0, 0.0));
            OK(sinew_character_set_param(m, S("ParamAngle"), 30.0, 0.0));
        }
        OK(sinew_character_update(p, 1.0 / 60.0));
        OK(sinew_character_update(a, 1.0 / 60.0));
        OK(sinew_character_update(m, 1.0 / 60.0));
        OK(sinew_character_get_param(p, S("ParamEyeLOpen"), &ep, &eyp));
        OK(sinew_character_get_param(a, S("ParamEyeLOpen"), &ex, &ey));
        OK(sinew_character_get_param(m, S("ParamEyeLOpen"), &eym, &eyp));
        TRUE(ex == eym); /* path and memory loads alike */
        TRUE(ep == 1.0 && ex >= 0.0 && ex <= 1.0);
        if (ex - ep > swing) swing = ex - ep;
        if (ep - ex > swing) swing = ep - ex;
        OK(sinew_character_bone_world(p, S("Head"), &hp));
        OK(sinew_character_bone_world(a, S("Head"), &ha));
        OK(sinew_character_bone_world(m, S("Head"), &hm));
        TRUE(ha.x == hm.x && ha.y == hm.y);
        if (f == 14) lag_early = ha.x - hp.x;
        if (f == 79) lag_late = ha.x - hp.x;
    }
    na = bone_worlds(a, wa);
    nm = bone_worlds(m, wm);
    TRUE(na == nm && memcmp(wa, wm, na * sizeof wa[0]) == 0);
    TRUE(swing > 1e-3);                                  /* the chain moves ParamEyeLOpen */
    TRUE(lag_early > 1.0 || lag_early < -1.0);           /* 5 frames after the turn: behind */
    TRUE(lag_late < 1e-3 && lag_late > -1e-3);           /* a second later: caught up */
    printf("face with physics3 + extras: ParamEyeLOpen swung %.3f, Head %.2f behind then %.2g\n", swing, lag_early, lag_late);
    OK(sinew_character_destroy(p));
    OK(sinew_character_destroy(a));
    OK(sinew_character_destroy(m));
    OK(sinew_rig_destroy(plain));
    OK(sinew_rig_destroy(by_path));
    OK(sinew_rig_destroy(by_memory));
    remove(phys);
    remove(extras);
}

static void test_spineboy(const char *dir) {
    SinewRig *rig = NULL;
    SinewCharacter *cs[100];
    SinewRenderData rd;
    const char *sk = join(0, dir, "spine/spineboy/spineboy-pro.json");
    const char *at = join(1, dir, "spine/spineboy/spineboy.atlas");
    int i, f;
    OK(sinew_rig_load_spine(sk, strlen(sk), at, strlen(at), NULL, 0, &rig));
    for (i = 0; i < 100; i++) {
        OK(sinew_character_create(rig, &cs[i]));
        OK(sinew_character_set_animation(cs[i], 0, S("run"), true));
    }
    for (f = 0; f < 5; f++) OK(sinew_update_many(cs, 100, 1.0 / 60.0, 2));
    OK(sinew_character_render(cs[0], &rd));
    printf("spineboy run: %u commands -> %u batches (draw calls)\n", (unsigned)rd.command_count, (unsigned)rd.batch_count);
    for (i = 0; i < 100; i++) OK(sinew_character_destroy(cs[i]));
    OK(sinew_rig_destroy(rig));
}

int main(int argc, char **argv) {
    const char *root = argc > 1 ? argv[1] : ".";
    const char *scratch = argc > 2 ? argv[2] : ".";
    test_errors_and_misuse(root);
    test_character(root);
    test_puppet(root);
    test_puppet_physics_extras(root, scratch);
    test_dragonbones_crafted(scratch);
    test_cage();
    if (argc > 3) {
        test_spineboy(argv[3]);
        test_skel(argv[3]);
        test_dragonbones_fixture(argv[3]);
    } else {
        printf("shared fixtures not given: spineboy, .skel and DragonBones fixture tests skipped\n");
    }
    OK(sinew_pool_shutdown());
    OK(sinew_pool_shutdown());
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
