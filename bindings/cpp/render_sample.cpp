// render_sample.cpp: a C++17 host of include/sinew.h. Loads a Spine rig, plays an animation,
// submits the batched render output to its own tiny rasteriser (one "draw call" per batch:
// vertex colours on a white texture, the four core blend modes in premultiplied alpha, clip
// polygons as an even-odd test, one sample at each pixel centre) and writes PNG frames with
// its own encoder (stored deflate blocks, CRC-32, Adler-32). It prints the view it framed
// (`view X0 Y0 X1 Y1`, y up) and the bone world transforms at the last frame, for
// bindings/run.sh to compare the last frame with `sinew render` (the Rust CPU renderer, same
// frame, view and size) and the pose with `sinew dump` (the Rust facade).
//
// Usage: render_sample SKELETON ATLAS|none ANIMATION FRAMES OUT_DIR [SIZE]
#include "sinew.h"

#include <algorithm>
#include <array>
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

// CRC-32 (PNG chunks): the reflected polynomial 0xEDB88320, table made on first use.
uint32_t crc32(const uint8_t* p, size_t n, uint32_t crc = 0) {
    static const std::array<uint32_t, 256> table = [] {
        std::array<uint32_t, 256> t{};
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    crc = ~crc;
    for (size_t i = 0; i < n; i++) crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

// Adler-32 (the zlib stream's checksum).
uint32_t adler32(const std::vector<uint8_t>& d) {
    uint32_t a = 1, b = 0;
    for (uint8_t x : d) {
        a = (a + x) % 65521;
        b = (b + a) % 65521;
    }
    return (b << 16) | a;
}

void put_be32(std::vector<uint8_t>& v, uint32_t x) {
    for (int s = 24; s >= 0; s -= 8) v.push_back(static_cast<uint8_t>(x >> s));
}

// An 8-bit RGBA PNG: filter 0 on every row, the zlib stream made of stored (uncompressed)
// deflate blocks of at most 65,535 bytes.
void write_png(const std::string& path, int w, int h, const std::vector<uint8_t>& rgba) {
    std::vector<uint8_t> raw;
    raw.reserve(static_cast<size_t>(h) * (static_cast<size_t>(w) * 4 + 1));
    for (int y = 0; y < h; y++) {
        raw.push_back(0);
        const auto row = rgba.begin() + static_cast<std::ptrdiff_t>(y) * w * 4;
        raw.insert(raw.end(), row, row + static_cast<std::ptrdiff_t>(w) * 4);
    }
    std::vector<uint8_t> z = {0x78, 0x01};  // deflate, 32 KiB window, no dictionary
    for (size_t at = 0; at < raw.size() || at == 0; at += 65535) {
        const size_t n = std::min<size_t>(65535, raw.size() - at);
        const bool last = at + n >= raw.size();
        z.push_back(last ? 1 : 0);  // BFINAL, BTYPE 00 (stored)
        z.push_back(static_cast<uint8_t>(n));
        z.push_back(static_cast<uint8_t>(n >> 8));
        z.push_back(static_cast<uint8_t>(~n));
        z.push_back(static_cast<uint8_t>(~n >> 8));
        z.insert(z.end(), raw.begin() + static_cast<std::ptrdiff_t>(at),
                 raw.begin() + static_cast<std::ptrdiff_t>(at + n));
        if (last) break;
    }
    put_be32(z, adler32(raw));
    std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    auto chunk = [&png](const char* type, const std::vector<uint8_t>& data) {
        put_be32(png, static_cast<uint32_t>(data.size()));
        const size_t start = png.size();
        png.insert(png.end(), type, type + 4);
        png.insert(png.end(), data.begin(), data.end());
        put_be32(png, crc32(png.data() + start, png.size() - start));
    };
    std::vector<uint8_t> ihdr;
    put_be32(ihdr, static_cast<uint32_t>(w));
    put_be32(ihdr, static_cast<uint32_t>(h));
    ihdr.insert(ihdr.end(), {8, 6, 0, 0, 0});  // 8 bits, RGBA, deflate, filter 0, no interlace
    chunk("IHDR", ihdr);
    chunk("IDAT", z);
    chunk("IEND", {});
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write " + path);
    const bool ok = std::fwrite(png.data(), 1, png.size(), f) == png.size();
    if (std::fclose(f) != 0 || !ok) throw std::runtime_error("cannot write " + path);
}

// A premultiplied RGBA float canvas, transparent to start with (as `sinew render`'s).
struct Image {
    int w, h;
    std::vector<float> px;
    Image(int w_, int h_) : w(w_), h(h_), px(static_cast<size_t>(w_) * h_ * 4, 0.0f) {}
    void write(const std::string& path) const {
        std::vector<uint8_t> out(px.size());
        for (size_t i = 0; i < px.size(); i += 4) {
            const float a = std::clamp(px[i + 3], 0.0f, 1.0f);
            for (int c = 0; c < 3; c++) {
                const float straight = a > 0 ? std::clamp(px[i + c] / a, 0.0f, 1.0f) : 0.0f;
                out[i + c] = static_cast<uint8_t>(straight * 255.0f + 0.5f);
            }
            out[i + 3] = static_cast<uint8_t>(a * 255.0f + 0.5f);
        }
        write_png(path, w, h, out);
    }
};

// Whether (x, y) is inside the polygon of `n` x, y pairs (even-odd rule).
bool inside(const float* poly, uint32_t n, float x, float y) {
    bool in = false;
    for (uint32_t i = 0, j = n - 1; i < n; j = i++) {
        const float xi = poly[2 * i], yi = poly[2 * i + 1], xj = poly[2 * j], yj = poly[2 * j + 1];
        if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) in = !in;
    }
    return in;
}

// Premultiplied source over destination in one of the four core blend modes.
void blend(uint32_t mode, const float s[4], float* d) {
    float r[4];
    for (int c = 0; c < 4; c++) {
        switch (mode) {
            case 1: r[c] = s[c] + d[c]; break;                                        // additive
            case 2: r[c] = c < 3 ? s[c] * d[c] + d[c] * (1 - s[3]) : s[3] + d[3] * (1 - s[3]); break;  // multiply
            case 3: r[c] = c < 3 ? s[c] + d[c] * (1 - s[c]) : s[3] + d[3] * (1 - s[3]); break;  // screen
            default: r[c] = s[c] + d[c] * (1 - s[3]); break;                          // normal
        }
    }
    for (int c = 0; c < 4; c++) d[c] = std::clamp(r[c], 0.0f, 1.0f);
}

// Draws one batch: every triangle, the vertex colours interpolated (on a white texture),
// where the batch's clip polygon (if any) covers the pixel centre.
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
        for (int j = y0; j <= y1; j++) {
            for (int i = x0; i <= x1; i++) {
                const float qx = i + 0.5f, qy = j + 0.5f;
                float w[3];
                for (int k = 0; k < 3; k++) {
                    const int a1 = (k + 1) % 3, a2 = (k + 2) % 3;
                    w[k] = ((x[a2] - x[a1]) * (qy - y[a1]) - (qx - x[a1]) * (y[a2] - y[a1])) / area;
                }
                if (w[0] < 0 || w[1] < 0 || w[2] < 0) continue;
                if (b.clip >= 0) {
                    // The clip polygon in pixels: world -> image, then the even-odd test.
                    const SinewClip& cl = rd.clips[b.clip];
                    const float wx = view[0] + qx / sx, wy = view[3] - qy / sy;
                    if (!inside(rd.clip_vertices + 2 * cl.vertex_start, cl.vertex_count, wx, wy)) continue;
                }
                float c[4] = {0, 0, 0, 0};
                for (int k = 0; k < 3; k++) {
                    const float* vc = rd.colors + 4 * (b.vertex_start + tri[k]);
                    for (int ch = 0; ch < 4; ch++) c[ch] += w[k] * vc[ch];
                }
                if (!b.premultiplied_alpha) {
                    for (int ch = 0; ch < 3; ch++) c[ch] *= c[3];
                }
                blend(b.blend, c, &img.px[static_cast<size_t>((j * img.w + i) * 4)]);
            }
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: %s SKELETON ATLAS|none ANIMATION FRAMES OUT_DIR [SIZE]\n", argv[0]);
        return 2;
    }
    try {
        const std::string skel = argv[1], anim = argv[3], out = argv[5];
        // "none": untextured (regions keep the sizes the skeleton gives; drawn white).
        const std::string atlas = std::string(argv[2]) == "none" ? std::string() : argv[2];
        const int frames = std::atoi(argv[4]);
        const int size = argc > 6 ? std::atoi(argv[6]) : 192;
        if (frames < 1 || size < 8 || size > 4096) throw std::runtime_error("bad FRAMES or SIZE");
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
                std::printf("view %.9g %.9g %.9g %.9g\n", view[0], view[1], view[2], view[3]);
            }
            if (f == 1 || f == frames || f % 10 == 0) {
                Image img(size, size);
                for (size_t k = 0; k < rd.batch_count; k++) draw_batch(img, rd, rd.batches[k], view);
                char name[64];
                std::snprintf(name, sizeof name, "/frame%03d.png", f);
                img.write(out + name);
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
        // ABI 104: what track 0 plays, checked against the frames stepped and the clip's
        // duration; the first IK constraint's mix set and read back (after the poses printed).
        SinewTrackInfo t{};
        check(sinew_character_track(c.get(), 0, &t), "track");
        double duration = 0;
        check(sinew_character_animation_duration(c.get(), anim.data(), anim.size(), &duration), "duration");
        const auto require = [](bool ok, const char* what) {
            if (!ok) throw std::runtime_error(std::string("check failed: ") + what);
        };
        require(t.playing == 1 && std::string(t.animation.ptr, t.animation.len) == anim, "track 0 plays the animation");
        require(std::fabs(t.track_time - frames / 60.0) < 1e-9, "track time = frames / 60");
        require(duration > 0 && std::fabs(t.animation_time - std::fmod(t.track_time, duration)) < 1e-9,
                "animation time wraps the duration");
        std::printf("track 0: %.*s at %.6f s of %.6f s\n", static_cast<int>(t.animation.len), t.animation.ptr,
                    t.animation_time, duration);
        if (info.ik_constraints > 0) {
            SinewStringView ik{};
            check(sinew_rig_name(rig.get(), SINEW_NAME_KIND_IK, 0, &ik), "ik name");
            SinewIkState k{};
            check(sinew_character_ik(c.get(), ik.ptr, ik.len, &k), "ik");
            k.mix = 0.5;
            check(sinew_character_set_ik(c.get(), ik.ptr, ik.len, &k), "set_ik");
            SinewIkState back{};
            check(sinew_character_ik(c.get(), ik.ptr, ik.len, &back), "ik");
            require(back.mix == 0.5 && back.bend_direction == k.bend_direction, "IK mix set and read back");
            k.mix = std::nan("");
            require(sinew_character_set_ik(c.get(), ik.ptr, ik.len, &k) == SINEW_STATUS_INVALID_ARGUMENT, "NaN mix refused");
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
