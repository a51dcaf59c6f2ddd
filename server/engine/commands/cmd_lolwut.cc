// LOLWUT [VERSION v] [...]: computer art and the Redis version (Redis's lolwut.c, lolwut5.c,
// lolwut6.c). Version 7 has no art of its own and prints the version line only. Versions 5
// (Georg Nees's "Schotter") and 6 (a city skyline) are drawn as Redis draws them, with the same
// float arithmetic, so that their deterministic parts (Schotter's first two rows) match byte for
// byte; their random parts come from the node's generator instead of libc's rand().
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "server/base/text.h"
#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/help.h"

namespace redlab::server::engine {
namespace {

// lwCanvas: one byte per pixel; drawing outside it is allowed and does nothing.
class Canvas {
 public:
  Canvas(int width, int height, int background)
      : width_(width),
        height_(height),
        pixels_(static_cast<size_t>(width) * static_cast<size_t>(height),
                static_cast<uint8_t>(background)) {}
  int width() const { return width_; }
  int height() const { return height_; }
  void Set(int x, int y, int color) {
    if (x < 0 || x >= width_ || y < 0 || y >= height_) return;
    pixels_[static_cast<size_t>(x + y * width_)] = static_cast<uint8_t>(color);
  }
  int Get(int x, int y) const {
    if (x < 0 || x >= width_ || y < 0 || y >= height_) return 0;
    return pixels_[static_cast<size_t>(x + y * width_)];
  }
  // Bresenham's line, as lwDrawLine.
  void Line(int x1, int y1, int x2, int y2, int color) {
    int dx = std::abs(x2 - x1), dy = std::abs(y2 - y1);
    int sx = x1 < x2 ? 1 : -1, sy = y1 < y2 ? 1 : -1;
    int err = dx - dy;
    while (true) {
      Set(x1, y1, color);
      if (x1 == x2 && y1 == y2) break;
      int e2 = err * 2;
      if (e2 > -dy) {
        err -= dy;
        x1 += sx;
      }
      if (e2 < dx) {
        err += dx;
        y1 += sy;
      }
    }
  }
  // lwDrawSquare: a square of side `size` centred on (x, y), rotated by `angle`. The mix of float
  // and double is Redis's, kept so that the same pixels come out.
  void Square(int x, int y, float size, float angle, int color) {
    size /= 1.4142135623f;
    size = static_cast<float>(std::round(static_cast<double>(size)));
    int px[4], py[4];
    float k = static_cast<float>(M_PI / 4 + static_cast<double>(angle));
    for (int j = 0; j < 4; ++j) {
      px[j] = static_cast<int>(std::round(std::sin(static_cast<double>(k)) * size + x));
      py[j] = static_cast<int>(std::round(std::cos(static_cast<double>(k)) * size + y));
      k = static_cast<float>(static_cast<double>(k) + M_PI / 2);
    }
    for (int j = 0; j < 4; ++j) Line(px[j], py[j], px[(j + 1) % 4], py[(j + 1) % 4], color);
  }

 private:
  int width_, height_;
  std::vector<uint8_t> pixels_;
};

// libc's rand() range, fed by the node's generator.
constexpr int kRandMax = 2147483647;
int Rand(CommandContext& ctx) { return static_cast<int>(ctx.keyspace().rng()() & kRandMax); }

Canvas Schotter(CommandContext& ctx, int cols, int per_row, int per_col) {
  int canvas_width = cols * 2;
  int padding = canvas_width > 4 ? 2 : 0;
  float side = static_cast<float>(canvas_width - padding * 2) / static_cast<float>(per_row);
  int canvas_height =
      static_cast<int>(side * static_cast<float>(per_col) + static_cast<float>(padding * 2));
  Canvas canvas(canvas_width, canvas_height, 0);
  for (int y = 0; y < per_col; ++y) {
    for (int x = 0; x < per_row; ++x) {
      int sx =
          static_cast<int>(static_cast<float>(x) * side + side / 2 + static_cast<float>(padding));
      int sy =
          static_cast<int>(static_cast<float>(y) * side + side / 2 + static_cast<float>(padding));
      float angle = 0;
      // Squares are rotated and moved more and more randomly from the third row down.
      if (y > 1) {
        auto r = [&] {
          return static_cast<float>(Rand(ctx)) / static_cast<float>(kRandMax) /
                 static_cast<float>(per_col) * static_cast<float>(y);
        };
        float r1 = r(), r2 = r(), r3 = r();
        if (Rand(ctx) % 2) r1 = -r1;
        if (Rand(ctx) % 2) r2 = -r2;
        if (Rand(ctx) % 2) r3 = -r3;
        angle = r1;
        sx = static_cast<int>(static_cast<float>(sx) + r2 * side / 3);
        sy = static_cast<int>(static_cast<float>(sy) + r3 * side / 3);
      }
      canvas.Square(sx, sy, side, angle, 1);
    }
  }
  return canvas;
}

// Each 2x4 block of pixels becomes one Braille character (U+2800 + the dots), in UTF-8.
std::string RenderBraille(const Canvas& canvas) {
  std::string text;
  for (int y = 0; y < canvas.height(); y += 4) {
    for (int x = 0; x < canvas.width(); x += 2) {
      int byte = 0;
      if (canvas.Get(x, y)) byte |= 1 << 0;
      if (canvas.Get(x, y + 1)) byte |= 1 << 1;
      if (canvas.Get(x, y + 2)) byte |= 1 << 2;
      if (canvas.Get(x + 1, y)) byte |= 1 << 3;
      if (canvas.Get(x + 1, y + 1)) byte |= 1 << 4;
      if (canvas.Get(x + 1, y + 2)) byte |= 1 << 5;
      if (canvas.Get(x, y + 3)) byte |= 1 << 6;
      if (canvas.Get(x + 1, y + 3)) byte |= 1 << 7;
      int code = 0x2800 + byte;
      text += static_cast<char>(0xE0 | (code >> 12));
      text += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      text += static_cast<char>(0x80 | (code & 0x3F));
    }
    if (y != canvas.height() - 1) text += '\n';
  }
  return text;
}

// The optional numeric arguments of a version, from `first`, clamped to [1, max].
bool SizeArgs(CommandContext& ctx, size_t first, std::vector<int64_t>* values, int64_t max) {
  for (size_t i = 0; i < values->size() && first + i < ctx.argc(); ++i) {
    if (!ctx.IntArg(first + i, &(*values)[i])) return false;
  }
  for (int64_t& v : *values) v = std::clamp<int64_t>(v, 1, max);
  return true;
}

// LOLWUT VERSION 5 [columns] [squares per row] [squares per column].
void Lolwut5(CommandContext& ctx, size_t first) {
  std::vector<int64_t> sizes = {66, 8, 12};
  if (!SizeArgs(ctx, first, &sizes, 1000)) return;
  sizes[1] = std::min<int64_t>(sizes[1], 200);
  sizes[2] = std::min<int64_t>(sizes[2], 200);
  Canvas canvas = Schotter(ctx, static_cast<int>(sizes[0]), static_cast<int>(sizes[1]),
                           static_cast<int>(sizes[2]));
  ctx.reply().Verbatim(RenderBraille(canvas) +
                       "\nGeorg Nees - schotter, plotter on paper, 1968. Redis ver. " +
                       std::string(kRedisVersion) + "\n");
}

// One building of the skyline (generateSkyscraper): windows are two pixels wide, one tall.
struct Skyscraper {
  int xoff, width, height;
  bool windows;
  int color;
};

void DrawSkyscraper(CommandContext& ctx, Canvas& canvas, const Skyscraper& si) {
  int starty = canvas.height() - 1;
  int endy = starty - si.height + 1;
  for (int y = starty; y >= endy; --y) {
    for (int x = si.xoff; x < si.xoff + si.width; ++x) {
      if (y == endy && (x <= si.xoff + 1 || x >= si.xoff + si.width - 2)) continue;  // the roof
      int color = si.color;
      if (si.windows && x > si.xoff + 1 && x < si.xoff + si.width - 2 && y > endy + 1 &&
          y < starty - 1) {
        int relx = x - (si.xoff + 1);
        int rely = y - (endy + 1);
        if (relx / 2 % 2 && rely % 2) {
          do {
            color = 1 + Rand(ctx) % 2;
          } while (color == si.color);
          if (relx % 2) color = canvas.Get(x - 1, y);
        }
      }
      canvas.Set(x, y, color);
    }
  }
}

void DrawSkyline(CommandContext& ctx, Canvas& canvas) {
  int h = canvas.height();
  // The lighter buildings behind, then the black ones with windows in front.
  for (int color = 2; color >= 1; --color) {
    for (int offset = -10; offset < canvas.width();) {
      offset += Rand(ctx) % 8;
      Skyscraper si{offset, 10 + Rand(ctx) % 9, 0, false, color};
      si.height = color == 2 ? h / 2 + Rand(ctx) % h / 2 : h / 2 + Rand(ctx) % h / 3;
      DrawSkyscraper(ctx, canvas, si);
      offset += color == 2 ? si.width / 2 : si.width + 1;
    }
  }
  for (int offset = -10; offset < canvas.width();) {
    offset += Rand(ctx) % 8;
    Skyscraper si{offset, 5 + Rand(ctx) % 14, 0, true, 0};
    if (si.width % 4) si.width += si.width % 3;
    si.height = h / 3 + Rand(ctx) % h / 2;
    DrawSkyscraper(ctx, canvas, si);
    offset += si.width + 5;
  }
}

// LOLWUT VERSION 6 [columns] [rows]: the skyline in terminal colours.
void Lolwut6(CommandContext& ctx, size_t first) {
  std::vector<int64_t> sizes = {80, 20};
  if (!SizeArgs(ctx, first, &sizes, 1000)) return;
  Canvas canvas(static_cast<int>(sizes[0]), static_cast<int>(sizes[1]), 3);
  DrawSkyline(ctx, canvas);
  static constexpr const char* kColors[] = {"0;30;40m", "0;90;100m", "0;37;47m", "0;97;107m"};
  std::string text;
  for (int y = 0; y < canvas.height(); ++y) {
    for (int x = 0; x < canvas.width(); ++x) {
      int color = canvas.Get(x, y);
      text += "\033[";
      text += kColors[color >= 0 && color <= 3 ? color : 0];
      text += " \033[0m";
    }
    if (y != canvas.height() - 1) text += '\n';
  }
  ctx.reply().Verbatim(text +
                       "\nDedicated to the 8 bit game developers of past and present.\n"
                       "Original 8 bit image from Plaguemon by hikikomori. Redis ver. " +
                       std::string(kRedisVersion) + "\n");
}

void LolwutCommand(CommandContext& ctx) {
  std::string version(kRedisVersion);
  size_t first = 1;  // the version's own arguments
  if (ctx.argc() >= 3 && EqualsIgnoreCase(CStringPrefix(ctx.arg(1)), "version")) {
    int64_t v = 0;
    if (!ctx.IntArg(2, &v)) return;
    version = std::to_string(static_cast<unsigned int>(v)) + ".0.0";
    first = 3;
  }
  // Redis picks the art by the version's first characters.
  auto starts = [&](std::string_view p) { return version.compare(0, p.size(), p) == 0; };
  if ((starts("5.") && !starts("5.9")) || starts("4.9")) {
    Lolwut5(ctx, first);
  } else if ((starts("6.") && !starts("6.9")) || starts("5.9")) {
    Lolwut6(ctx, first);
  } else {
    ctx.reply().Verbatim("Redis ver. " + std::string(kRedisVersion) + "\n");
  }
}

}  // namespace

// The commands of specs/lolwut.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/lolwut.inc"

}  // namespace redlab::server::engine
