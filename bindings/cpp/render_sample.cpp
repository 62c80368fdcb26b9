// render_sample.cpp: a C++17 host of include/sinew.h. Loads a Spine rig, plays an animation,
// submits the batched render output to its own tiny rasteriser (one "draw call" per batch,
// flat vertex colours modulated by a UV checker, normal alpha blending) and writes PPM
// frames, then prints the bone world transforms at the last frame for bindings/run.sh to
// compare with `sinew dump` (the Rust facade).
//
// Usage: render_sample SKELETON ATLAS ANIMATION FRAMES OUT_DIR
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

// RAII owners of the C handles.
struct RigDeleter {
    void operator()(SinewRig* r) const { sinew_rig_destroy(r); }
};
struct CharacterDeleter {
    void operator()(SinewCharacter* c) const { sinew_character_destroy(c); }
};
using Rig = std::unique_ptr<SinewRig, RigDeleter>;
using Character = std::unique_ptr<SinewCharacter, CharacterDeleter>;

struct Image {
    int w, h;
    std::vector<float> rgb;
    Image(int w_, int h_) : w(w_), h(h_), rgb(static_cast<size_t>(w_ * h_ * 3), 0.15f) {}
    void write_ppm(const std::string& path) const {
        FILE* f = std::fopen(path.c_str(), "wb");
        if (!f) throw std::runtime_error("cannot write " + path);
        std::fprintf(f, "P6\n%d %d\n255\n", w, h);
        for (float v : rgb) std::fputc(static_cast<int>(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f), f);
        std::fclose(f);
    }
};

// Draws one batch: every triangle, flat colours from the vertices, a checker from the UVs.
void draw_batch(Image& img, const SinewRenderData& rd, const SinewBatch& b, const float view[4]) {
    const float sx = img.w / (view[2] - view[0]), sy = img.h / (view[3] - view[1]);
    auto px = [&](uint32_t v, float& x, float& y) {
        const float* p = rd.positions + 2 * (b.vertex_start + v);
        x = (p[0] - view[0]) * sx;
        y = (view[3] - p[1]) * sy;  // y up in the world, down in the image
    };
    for (uint32_t t = 0; t + 2 < b.index_count; t += 3) {
        const uint16_t* tri = rd.indices + b.index_start + t;
        float x[3], y[3];
        for (int k = 0; k < 3; k++) px(tri[k], x[k], y[k]);
        const float area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
        if (std::fabs(area) < 1e-12f) continue;
        const int x0 = std::max(0, static_cast<int>(std::floor(std::min({x[0], x[1], x[2]}))));
        const int x1 = std::min(img.w - 1, static_cast<int>(std::ceil(std::max({x[0], x[1], x[2]}))));
        const int y0 = std::max(0, static_cast<int>(std::floor(std::min({y[0], y[1], y[2]}))));
        const int y1 = std::min(img.h - 1, static_cast<int>(std::ceil(std::max({y[0], y[1], y[2]}))));
        const float* c = rd.colors + 4 * (b.vertex_start + tri[0]);
        for (int j = y0; j <= y1; j++) {
            for (int i = x0; i <= x1; i++) {
                const float qx = i + 0.5f, qy = j + 0.5f;
                float w[3];
                for (int k = 0; k < 3; k++) {
                    const int a1 = (k + 1) % 3, a2 = (k + 2) % 3;
                    w[k] = ((x[a2] - x[a1]) * (qy - y[a1]) - (qx - x[a1]) * (y[a2] - y[a1])) / area;
                }
                if (w[0] < 0 || w[1] < 0 || w[2] < 0) continue;
                float u = 0, v = 0;
                for (int k = 0; k < 3; k++) {
                    u += w[k] * rd.uvs[2 * (b.vertex_start + tri[k])];
                    v += w[k] * rd.uvs[2 * (b.vertex_start + tri[k]) + 1];
                }
                const float checker = ((static_cast<int>(u * 32) + static_cast<int>(v * 32)) & 1) ? 1.0f : 0.7f;
                const float alpha = c[3] * 0.85f;
                float* dst = &img.rgb[static_cast<size_t>((j * img.w + i) * 3)];
                for (int ch = 0; ch < 3; ch++) {
                    const float src = b.premultiplied_alpha ? c[ch] / std::max(c[3], 1e-6f) : c[ch];
                    dst[ch] = dst[ch] * (1 - alpha) + src * checker * alpha;
                }
            }
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: %s SKELETON ATLAS ANIMATION FRAMES OUT_DIR\n", argv[0]);
        return 2;
    }
    try {
        const std::string skel = argv[1], atlas = argv[2], anim = argv[3], out = argv[5];
        const int frames = std::atoi(argv[4]);
        SinewRig* raw_rig = nullptr;
        check(sinew_rig_load_spine(skel.data(), skel.size(), atlas.data(), atlas.size(), nullptr, 0, &raw_rig), "load");
        Rig rig(raw_rig);
        SinewCharacter* raw_c = nullptr;
        check(sinew_character_create(rig.get(), &raw_c), "create");
        Character c(raw_c);
        check(sinew_character_set_animation(c.get(), 0, anim.data(), anim.size(), true), "set_animation");

        SinewRigInfo info{};
        check(sinew_rig_info(rig.get(), &info), "info");
        float view[4] = {0, 0, 0, 0};
        for (int f = 1; f <= frames; f++) {
            check(sinew_character_update(c.get(), 1.0 / 60.0), "update");
            SinewRenderData rd{};
            check(sinew_character_render(c.get(), &rd), "render");
            if (f == 1) {  // frame the first pose, padded
                float b[4] = {1e30f, 1e30f, -1e30f, -1e30f};
                for (size_t v = 0; v < rd.vertex_count; v++) {
                    b[0] = std::min(b[0], rd.positions[2 * v]);
                    b[1] = std::min(b[1], rd.positions[2 * v + 1]);
                    b[2] = std::max(b[2], rd.positions[2 * v]);
                    b[3] = std::max(b[3], rd.positions[2 * v + 1]);
                }
                const float pad = 0.25f * std::max(b[2] - b[0], b[3] - b[1]);
                const float cx = (b[0] + b[2]) / 2, cy = (b[1] + b[3]) / 2;
                const float half = std::max(b[2] - b[0], b[3] - b[1]) / 2 + pad;
                view[0] = cx - half; view[1] = cy - half; view[2] = cx + half; view[3] = cy + half;
            }
            if (f == 1 || f == frames || f % 10 == 0) {
                Image img(192, 192);
                for (size_t k = 0; k < rd.batch_count; k++) draw_batch(img, rd, rd.batches[k], view);
                char name[64];
                std::snprintf(name, sizeof name, "/frame%03d.ppm", f);
                img.write_ppm(out + name);
                std::printf("frame %d: %zu commands, %zu draw calls\n", f, rd.command_count, rd.batch_count);
            }
        }
        std::vector<SinewWorldTransform> w(info.bones);
        size_t len = 0;
        check(sinew_character_bone_worlds(c.get(), w.data(), w.size(), &len), "bone_worlds");
        for (uint32_t i = 0; i < info.bones; i++) {
            SinewStringView n{};
            check(sinew_rig_name(rig.get(), SINEW_NAME_KIND_BONE, i, &n), "name");
            std::printf("bone %.*s %.17g %.17g %.17g %.17g %.17g %.17g\n", static_cast<int>(n.len), n.ptr,
                        w[i].a, w[i].b, w[i].c, w[i].d, w[i].x, w[i].y);
        }
        c.reset();
        rig.reset();
        check(sinew_pool_shutdown(), "shutdown");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "render_sample: %s\n", e.what());
        return 1;
    }
    return 0;
}
