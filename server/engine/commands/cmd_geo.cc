// Redis's geo.c: GEOADD, GEODIST, GEOHASH, GEOPOS, GEORADIUS, GEORADIUSBYMEMBER (and their _RO
// forms), GEOSEARCH and GEOSEARCHSTORE on sorted sets whose scores are 52-bit geohashes
// (server/data/geohash.h).
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/command/command_table.h"
#include "server/data/geohash.h"
#include "server/engine/commands/cmd_zset.h"
#include "server/engine/commands/families.h"
#include "server/engine/commands/lookup.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/pubsub/notify.h"

namespace redlab::server::engine {
namespace {

// getDoubleFromObjectOrReply with its message (or "value is not a valid float").
bool DoubleOrReply(CommandContext& ctx, size_t i, double* out, std::string_view error = {}) {
  if (ParseDouble(ctx.arg(i), out)) return true;
  if (error.empty()) return ctx.DoubleArg(i, out);
  ctx.ReplyError(error);
  return false;
}

// extractLongLatOrReply: arguments i and i+1.
bool LongLatOrReply(CommandContext& ctx, size_t i, double* xy) {
  for (int k = 0; k < 2; ++k) {
    if (!DoubleOrReply(ctx, i + k, xy + k)) return false;
  }
  if (xy[0] < geo::kLongMin || xy[0] > geo::kLongMax || xy[1] < geo::kLatMin ||
      xy[1] > geo::kLatMax) {
    char buf[256];
    std::snprintf(buf, sizeof(buf), "-ERR invalid longitude,latitude pair %f,%f", xy[0], xy[1]);
    ctx.ReplyError(buf);
    return false;
  }
  return true;
}

// extractUnitOrReply: meters per unit, or -1 after the error.
double UnitOrReply(CommandContext& ctx, size_t i) {
  if (ctx.ArgIs(i, "m")) return 1;
  if (ctx.ArgIs(i, "km")) return 1000;
  if (ctx.ArgIs(i, "ft")) return 0.3048;
  if (ctx.ArgIs(i, "mi")) return 1609.34;
  ctx.ReplyError("unsupported unit provided. please use M, KM, FT, MI");
  return -1;
}

bool DistanceOrReply(CommandContext& ctx, size_t i, double* conversion, double* radius) {
  double distance = 0;
  if (!DoubleOrReply(ctx, i, &distance, "need numeric radius")) return false;
  if (distance < 0) {
    ctx.ReplyError("radius cannot be negative");
    return false;
  }
  *radius = distance;
  double to_meters = UnitOrReply(ctx, i + 1);
  if (to_meters < 0) return false;
  *conversion = to_meters;
  return true;
}

bool BoxOrReply(CommandContext& ctx, size_t i, geo::Shape* shape) {
  double w = 0, h = 0;
  if (!DoubleOrReply(ctx, i, &w, "need numeric width") ||
      !DoubleOrReply(ctx, i + 1, &h, "need numeric height")) {
    return false;
  }
  if (h < 0 || w < 0) {
    ctx.ReplyError("height or width cannot be negative");
    return false;
  }
  shape->height = h;
  shape->width = w;
  double to_meters = UnitOrReply(ctx, i + 2);
  if (to_meters < 0) return false;
  shape->conversion = to_meters;
  return true;
}

// addReplyDoubleDistance: fixedpoint_d2string with 4 decimals.
void ReplyDistance(CommandContext& ctx, double d) {
  long long v = llrint(d * 10000.0);
  bool negative = v < 0;
  unsigned long long u = negative ? 0ULL - static_cast<unsigned long long>(v) : v;
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%s%llu.%04llu", negative ? "-" : "", u / 10000, u % 10000);
  ctx.reply().Bulk(buf);
}

// addReplyHumanLongDouble: a bulk string in RESP2, a double in RESP3, as "%.17Lf" trimmed.
void ReplyHumanDouble(CommandContext& ctx, double d) {
  std::string text = FormatLongDoubleHuman(static_cast<long double>(d));
  if (ctx.reply().protocol() >= 3) {
    ctx.reply().Raw("," + text + "\r\n");
  } else {
    ctx.reply().Bulk(text);
  }
}

bool LongLatFromMember(const ZsetValue& zset, std::string_view member, double* xy) {
  double score = 0;
  if (!zset.Score(member, &score)) return false;
  return geo::DecodeScore(score, xy);
}

void GeoAddCommand(CommandContext& ctx) {
  bool xx = false, nx = false, ch = false;
  size_t longidx = 2;
  for (; longidx < ctx.argc(); ++longidx) {
    if (ctx.ArgIs(longidx, "nx")) {
      nx = true;
    } else if (ctx.ArgIs(longidx, "xx")) {
      xx = true;
    } else if (ctx.ArgIs(longidx, "ch")) {
      ch = true;
    } else {
      break;
    }
  }
  if ((ctx.argc() - longidx) % 3 || (xx && nx)) {
    ctx.ReplySyntaxError();
    return;
  }
  size_t elements = (ctx.argc() - longidx) / 3;
  if (elements == 0) {  // ZADD key [options] with no pair
    ctx.ReplySyntaxError();
    return;
  }
  // The ZADD it becomes (and is propagated as): ZADD key [options] score member ...
  std::vector<std::string> zadd = {"zadd"};  // as Redis spells the rewritten command
  for (size_t i = 1; i < longidx; ++i) zadd.push_back(ctx.arg(i));
  std::vector<double> scores;
  for (size_t i = 0; i < elements; ++i) {
    double xy[2];
    if (!LongLatOrReply(ctx, longidx + i * 3, xy)) return;
    geo::HashBits hash;
    geo::EncodeWGS84(xy[0], xy[1], geo::kStepMax, &hash);
    uint64_t bits = geo::Align52Bits(hash);
    scores.push_back(static_cast<double>(bits));
    zadd.push_back(std::to_string(bits));
    zadd.push_back(ctx.arg(longidx + i * 3 + 2));
  }
  const std::string& key = ctx.arg(1);
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(key, ObjectType::kZset, &node)) return;
  const ZsetLimits limits = ZsetLimitsOf(ctx);
  uint32_t flags = (nx ? static_cast<uint32_t>(kZaddNx) : 0u) | (xx ? static_cast<uint32_t>(kZaddXx) : 0u);
  int64_t added = 0, updated = 0;
  if (node == nullptr && !xx) {
    node = ctx.db().Add(key, Object::NewZset(ZsetValue::EncodingFor(
                                 limits, ctx.arg(longidx + 2))));
  }
  if (node != nullptr) {
    ZsetValue& zset = node->value.value.zset();
    for (size_t j = 0; j < elements; ++j) {
      double new_score = 0;
      ZaddResult r = zset.Add(scores[j], ctx.arg(longidx + j * 3 + 2), flags, limits, &new_score);
      if (r == ZaddResult::kAdded) ++added;
      if (r == ZaddResult::kUpdated) ++updated;
    }
    ctx.MarkDirty(static_cast<uint64_t>(added + updated));
  }
  ctx.reply().Integer(ch ? added + updated : added);
  if (added + updated > 0) {
    ctx.SignalModifiedKey(key);
    ctx.NotifyKeyspaceEvent(kNotifyZset, "zadd", key);
  }
  ctx.PropagateAs(std::move(zadd));
}

constexpr int kRadiusCoords = 1 << 0;
constexpr int kRadiusMember = 1 << 1;
constexpr int kRadiusNoStore = 1 << 2;
constexpr int kGeoSearch = 1 << 3;
constexpr int kGeoSearchStore = 1 << 4;

struct GeoPoint {
  double longitude;
  double latitude;
  double dist;
  double score;
  std::string member;
};

// geoGetPointsInRange over one box's score range [min, max).
void PointsInBox(const ZsetValue& zset, const geo::HashBits& box, geo::Shape* shape,
                 std::vector<GeoPoint>* out, size_t limit) {
  geo::HashBits next = box;
  next.bits++;
  ScoreRange range{static_cast<double>(geo::Align52Bits(box)),
                   static_cast<double>(geo::Align52Bits(next)), false, true};
  for (auto it = zset.FirstInRange(range); it.valid(); it.Next()) {
    double score = it.score();
    if (!range.LteMax(score)) break;
    double xy[2];
    double distance = 0;
    bool inside = geo::DecodeScore(score, xy);
    if (inside) {
      inside = shape->circular
                   ? geo::DistanceIfInRadius(shape->xy[0], shape->xy[1], xy[0], xy[1],
                                             shape->radius * shape->conversion, &distance)
                   : geo::DistanceIfInRectangle(shape->width * shape->conversion,
                                                shape->height * shape->conversion, shape->xy[0],
                                                shape->xy[1], xy[0], xy[1], &distance);
    }
    if (inside) out->push_back({xy[0], xy[1], distance, score, std::string(it.member())});
    if (!out->empty() && limit && out->size() >= limit) break;
  }
}

void GeoRadiusGeneric(CommandContext& ctx, size_t src, int flags) {
  const std::string* storekey = nullptr;
  bool storedist = false;
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(src), ObjectType::kZset, &node)) return;
  const ZsetValue* zset = node ? &node->value.value.zset() : nullptr;
  size_t base_args = 0;
  geo::Shape shape;
  if (flags & kRadiusCoords) {
    base_args = 6;
    shape.circular = true;
    if (!LongLatOrReply(ctx, 2, shape.xy)) return;
    if (!DistanceOrReply(ctx, base_args - 2, &shape.conversion, &shape.radius)) return;
  } else if ((flags & kRadiusMember) && zset == nullptr) {
    base_args = 5;
  } else if (flags & kRadiusMember) {
    base_args = 5;
    shape.circular = true;
    if (!LongLatFromMember(*zset, ctx.arg(2), shape.xy)) {
      ctx.ReplyError("could not decode requested zset member");
      return;
    }
    if (!DistanceOrReply(ctx, base_args - 2, &shape.conversion, &shape.radius)) return;
  } else {
    base_args = 2;
    if (flags & kGeoSearchStore) {
      base_args = 3;
      storekey = &ctx.arg(1);
    }
  }
  bool withdist = false, withhash = false, withcoords = false;
  bool frommember = false, fromloc = false, byradius = false, bybox = false;
  int sort = 0;  // 0 none, 1 asc, 2 desc
  bool any = false;
  int64_t count = 0;
  size_t remaining = ctx.argc() > base_args ? ctx.argc() - base_args : 0;
  for (size_t i = 0; i < remaining; ++i) {
    size_t a = base_args + i;
    if (ctx.ArgIs(a, "withdist")) {
      withdist = true;
    } else if (ctx.ArgIs(a, "withhash")) {
      withhash = true;
    } else if (ctx.ArgIs(a, "withcoord")) {
      withcoords = true;
    } else if (ctx.ArgIs(a, "any")) {
      any = true;
    } else if (ctx.ArgIs(a, "asc")) {
      sort = 1;
    } else if (ctx.ArgIs(a, "desc")) {
      sort = 2;
    } else if (ctx.ArgIs(a, "count") && i + 1 < remaining) {
      if (!ctx.IntArg(a + 1, &count)) return;
      if (count <= 0) {
        ctx.ReplyError("COUNT must be > 0");
        return;
      }
      ++i;
    } else if (ctx.ArgIs(a, "store") && i + 1 < remaining && !(flags & kRadiusNoStore) &&
               !(flags & kGeoSearch)) {
      storekey = &ctx.arg(a + 1);
      storedist = false;
      ++i;
    } else if (ctx.ArgIs(a, "storedist") && i + 1 < remaining && !(flags & kRadiusNoStore) &&
               !(flags & kGeoSearch)) {
      storekey = &ctx.arg(a + 1);
      storedist = true;
      ++i;
    } else if (ctx.ArgIs(a, "storedist") && (flags & kGeoSearch) &&
               (flags & kGeoSearchStore)) {
      storedist = true;
    } else if (ctx.ArgIs(a, "frommember") && i + 1 < remaining && (flags & kGeoSearch) &&
               !fromloc) {
      if (zset == nullptr) {
        frommember = true;
        ++i;
        continue;
      }
      if (!LongLatFromMember(*zset, ctx.arg(a + 1), shape.xy)) {
        ctx.ReplyError("could not decode requested zset member");
        return;
      }
      frommember = true;
      ++i;
    } else if (ctx.ArgIs(a, "fromlonlat") && i + 2 < remaining && (flags & kGeoSearch) &&
               !frommember) {
      if (!LongLatOrReply(ctx, a + 1, shape.xy)) return;
      fromloc = true;
      i += 2;
    } else if (ctx.ArgIs(a, "byradius") && i + 2 < remaining && (flags & kGeoSearch) &&
               !bybox) {
      if (!DistanceOrReply(ctx, a + 1, &shape.conversion, &shape.radius)) return;
      shape.circular = true;
      byradius = true;
      i += 2;
    } else if (ctx.ArgIs(a, "bybox") && i + 3 < remaining && (flags & kGeoSearch) &&
               !byradius) {
      if (!BoxOrReply(ctx, a + 1, &shape)) return;
      shape.circular = false;
      bybox = true;
      i += 3;
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  if (storekey && (withdist || withhash || withcoords)) {
    ctx.ReplyError(std::string(flags & kGeoSearchStore ? "GEOSEARCHSTORE"
                                                        : "STORE option in GEORADIUS") +
                   " is not compatible with WITHDIST, WITHHASH and WITHCOORD options");
    return;
  }
  if ((flags & kGeoSearch) && !(frommember || fromloc)) {
    ctx.ReplyError("exactly one of FROMMEMBER or FROMLONLAT can be specified for " + ctx.arg(0));
    return;
  }
  if ((flags & kGeoSearch) && !(byradius || bybox)) {
    ctx.ReplyError("exactly one of BYRADIUS and BYBOX can be specified for " + ctx.arg(0));
    return;
  }
  if (any && !count) {
    ctx.ReplyError("the ANY argument requires COUNT argument");
    return;
  }
  if (zset == nullptr) {
    if (storekey) {
      if (ctx.db().Delete(*storekey)) {
        ctx.SignalModifiedKey(*storekey);
        ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", *storekey);
        ctx.MarkDirty();
      }
      ctx.reply().Integer(0);
    } else {
      ctx.reply().EmptyArray();
    }
    return;
  }
  if (count != 0 && sort == 0 && !any) sort = 1;

  geo::SearchBoxes boxes = geo::BoxesForShape(&shape);
  std::vector<GeoPoint> points;
  size_t limit = any ? static_cast<size_t>(count) : 0;
  int last_processed = 0;
  for (int i = 0; i < 9; ++i) {
    const geo::HashBits& box = boxes.boxes[i];
    if (box.IsZero()) continue;
    // A huge radius can make neighbours equal: each range is visited once.
    if (last_processed && box.bits == boxes.boxes[last_processed].bits &&
        box.step == boxes.boxes[last_processed].step) {
      continue;
    }
    if (!points.empty() && limit && points.size() >= limit) break;
    PointsInBox(*zset, box, &shape, &points, limit);
    last_processed = i;
  }
  if (points.empty() && storekey == nullptr) {
    ctx.reply().EmptyArray();
    return;
  }
  size_t returned = (count == 0 || points.size() < static_cast<size_t>(count))
                        ? points.size()
                        : static_cast<size_t>(count);
  if (sort == 1) {
    std::stable_sort(points.begin(), points.end(),
                     [](const GeoPoint& a, const GeoPoint& b) { return a.dist < b.dist; });
  } else if (sort == 2) {
    std::stable_sort(points.begin(), points.end(),
                     [](const GeoPoint& a, const GeoPoint& b) { return a.dist > b.dist; });
  }
  if (storekey == nullptr) {
    size_t option_length = (withdist ? 1 : 0) + (withcoords ? 1 : 0) + (withhash ? 1 : 0);
    ctx.reply().ArrayHeader(returned);
    for (size_t i = 0; i < returned; ++i) {
      GeoPoint& gp = points[i];
      gp.dist /= shape.conversion;
      if (option_length) ctx.reply().ArrayHeader(option_length + 1);
      ctx.reply().Bulk(gp.member);
      if (withdist) ReplyDistance(ctx, gp.dist);
      if (withhash) ctx.reply().Integer(static_cast<int64_t>(gp.score));
      if (withcoords) {
        ctx.reply().ArrayHeader(2);
        ReplyHumanDouble(ctx, gp.longitude);
        ReplyHumanDouble(ctx, gp.latitude);
      }
    }
    return;
  }
  if (returned) {
    const ZsetLimits limits = ZsetLimitsOf(ctx);
    Object value = Object::NewZset(ZsetValue::Encoding::kSkiplist);
    ZsetValue& out = value.zset();
    for (size_t i = 0; i < returned; ++i) {
      GeoPoint& gp = points[i];
      gp.dist /= shape.conversion;
      double new_score = 0;
      out.Add(storedist ? gp.dist : gp.score, gp.member, 0, limits, &new_score);
    }
    out.ConvertToListpackIfFits(limits);
    ctx.db().LookupWrite(*storekey);  // setKey: an expired destination goes first
    ctx.db().Set(*storekey, std::move(value));
    ctx.SignalModifiedKey(*storekey);
    ctx.NotifyKeyspaceEvent(kNotifyZset, flags & kGeoSearch ? "geosearchstore" : "georadiusstore",
                            *storekey);
    ctx.MarkDirty(returned);
  } else if (ctx.db().Delete(*storekey)) {
    ctx.SignalModifiedKey(*storekey);
    ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", *storekey);
    ctx.MarkDirty();
  }
  ctx.reply().Integer(static_cast<int64_t>(returned));
}

void GeoRadiusCommand(CommandContext& ctx) { GeoRadiusGeneric(ctx, 1, kRadiusCoords); }
void GeoRadiusByMemberCommand(CommandContext& ctx) { GeoRadiusGeneric(ctx, 1, kRadiusMember); }
void GeoRadiusRoCommand(CommandContext& ctx) {
  GeoRadiusGeneric(ctx, 1, kRadiusCoords | kRadiusNoStore);
}
void GeoRadiusByMemberRoCommand(CommandContext& ctx) {
  GeoRadiusGeneric(ctx, 1, kRadiusMember | kRadiusNoStore);
}
void GeoSearchCommand(CommandContext& ctx) { GeoRadiusGeneric(ctx, 1, kGeoSearch); }
void GeoSearchStoreCommand(CommandContext& ctx) {
  GeoRadiusGeneric(ctx, 2, kGeoSearch | kGeoSearchStore);
}

// GEOHASH and GEOPOS: an array with one entry per member argument (from argument 2), `reply`
// called with the member's longitude and latitude, `missing` for a member (or key) not there.
template <typename Reply, typename Missing>
void ReplyEachPosition(CommandContext& ctx, Reply reply, Missing missing) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kZset, &node)) return;
  ctx.reply().ArrayHeader(ctx.argc() - 2);
  for (size_t j = 2; j < ctx.argc(); ++j) {
    double score = 0;
    double xy[2];
    if (node == nullptr || !node->value.value.zset().Score(ctx.arg(j), &score) ||
        !geo::DecodeScore(score, xy)) {
      missing();
    } else {
      reply(xy);
    }
  }
}

void GeoHashCommand(CommandContext& ctx) {
  static constexpr char kAlphabet[] = "0123456789bcdefghjkmnpqrstuvwxyz";
  ReplyEachPosition(
      ctx,
      [&](const double* xy) {
        // Re-encoded over the standard latitude range (-90, 90), as geohash strings use.
        geo::HashBits hash;
        geo::Encode({-180, 180}, {-90, 90}, xy[0], xy[1], 26, &hash);
        char buf[11];
        for (int i = 0; i < 11; ++i) {
          int idx = i == 10 ? 0 : static_cast<int>((hash.bits >> (52 - ((i + 1) * 5))) & 0x1f);
          buf[i] = kAlphabet[idx];
        }
        ctx.reply().Bulk(std::string_view(buf, 11));
      },
      [&] { ctx.reply().Null(); });
}

void GeoPosCommand(CommandContext& ctx) {
  ReplyEachPosition(
      ctx,
      [&](const double* xy) {
        ctx.reply().ArrayHeader(2);
        ReplyHumanDouble(ctx, xy[0]);
        ReplyHumanDouble(ctx, xy[1]);
      },
      [&] { ctx.reply().NullArray(); });
}

void GeoDistCommand(CommandContext& ctx) {
  double to_meter = 1;
  if (ctx.argc() == 5) {
    to_meter = UnitOrReply(ctx, 4);
    if (to_meter < 0) return;
  } else if (ctx.argc() > 5) {
    ctx.ReplySyntaxError();
    return;
  }
  Db::Node* node = ReadOrReply(ctx, ctx.arg(1), ObjectType::kZset, IfMissing::kNull);
  if (node == nullptr) return;
  const ZsetValue& zset = node->value.value.zset();
  double score1 = 0, score2 = 0, xyxy[4];
  if (!zset.Score(ctx.arg(2), &score1) || !zset.Score(ctx.arg(3), &score2) ||
      !geo::DecodeScore(score1, xyxy) || !geo::DecodeScore(score2, xyxy + 2)) {
    ctx.reply().Null();
    return;
  }
  ReplyDistance(ctx, geo::Distance(xyxy[0], xyxy[1], xyxy[2], xyxy[3]) / to_meter);
}

// georadiusGetKeys: the source key, and the STORE/STOREDIST key when there is one.
std::vector<FoundKey> GeoRadiusKeys(std::span<const std::string> args) {
  std::vector<FoundKey> keys = {{1, kKeyRO | kKeyAccess}};
  for (size_t i = 5; i + 1 < args.size(); ++i) {
    if (EqualsIgnoreCase(args[i], "store") || EqualsIgnoreCase(args[i], "storedist")) {
      keys.push_back({i + 1, kKeyOW | kKeyUpdate});
      break;
    }
  }
  return keys;
}

}  // namespace

// The commands of specs/geo.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/geo.inc"

}  // namespace redlab::server::engine
