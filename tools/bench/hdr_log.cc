// HdrHistogram's V2 encoding and log lines (see hdr_log.h), written with zlib.
#include "tools/bench/hdr_log.h"

#include <fmt/format.h>
#include <zlib.h>

#include <cstring>
#include <ctime>
#include <stdexcept>

namespace redlab::tools::bench {
namespace {

constexpr uint32_t kV2EncodingCookie = 0x1c849303 | 0x10;
constexpr uint32_t kV2CompressionCookie = 0x1c849304 | 0x10;

void PutBig(std::string* out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// ZigZag, then LEB128 (at most 9 bytes: the 9th carries a whole byte, as HdrHistogram's).
void PutZigZag(std::string* out, int64_t value) {
  uint64_t v = (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
  for (int i = 0; i < 8; ++i) {
    if (v < 0x80) {
      out->push_back(static_cast<char>(v));
      return;
    }
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v & 0xff));
}

}  // namespace

std::string EncodeV2(const Histogram& h) {
  std::string counts;
  if (h.total_count() > 0) {
    const auto& c = h.counts();
    int limit = h.CountsIndex(h.max()) + 1;
    if (limit > static_cast<int>(c.size())) limit = static_cast<int>(c.size());
    for (int i = 0; i < limit;) {
      int64_t value = c[static_cast<size_t>(i++)];
      if (value == 0) {
        int64_t zeros = 1;
        while (i < limit && c[static_cast<size_t>(i)] == 0) {
          ++zeros;
          ++i;
        }
        if (zeros > 1) value = -zeros;
      }
      PutZigZag(&counts, value);
    }
  }
  std::string out;
  PutBig(&out, kV2EncodingCookie, 4);
  PutBig(&out, counts.size(), 4);
  PutBig(&out, 0, 4);  // normalizing index offset
  PutBig(&out, static_cast<uint64_t>(h.significant_figures()), 4);
  PutBig(&out, static_cast<uint64_t>(h.lowest_trackable()), 8);
  PutBig(&out, static_cast<uint64_t>(h.highest_trackable()), 8);
  double ratio = 1.0;
  uint64_t ratio_bits;
  std::memcpy(&ratio_bits, &ratio, sizeof ratio_bits);
  PutBig(&out, ratio_bits, 8);
  return out + counts;
}

std::string EncodeCompressed(const Histogram& h) {
  std::string encoded = EncodeV2(h);
  uLongf len = compressBound(static_cast<uLong>(encoded.size()));
  std::string deflated(len, '\0');
  if (compress(reinterpret_cast<Bytef*>(deflated.data()), &len,
               reinterpret_cast<const Bytef*>(encoded.data()),
               static_cast<uLong>(encoded.size())) != Z_OK) {
    throw std::runtime_error("zlib compress failed");
  }
  deflated.resize(len);
  std::string out;
  PutBig(&out, kV2CompressionCookie, 4);
  PutBig(&out, len, 4);
  return out + deflated;
}

std::string Base64Encode(const std::string& bytes) {
  static constexpr char kTable[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  auto byte = [&](size_t k) { return static_cast<uint32_t>(static_cast<uint8_t>(bytes[k])); };
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t v = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
    for (int s = 18; s >= 0; s -= 6) out.push_back(kTable[(v >> s) & 0x3f]);
  }
  size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v = byte(i) << 16 | (rest == 2 ? byte(i + 1) << 8 : 0);
    out.push_back(kTable[(v >> 18) & 0x3f]);
    out.push_back(kTable[(v >> 12) & 0x3f]);
    out.push_back(rest == 2 ? kTable[(v >> 6) & 0x3f] : '=');
    out.push_back('=');
  }
  return out;
}

void HdrLogWriter::WriteHeader(double start_epoch_s) {
  time_t secs = static_cast<time_t>(start_epoch_s);
  char when[64] = "";
  struct tm tm_utc;
  gmtime_r(&secs, &tm_utc);
  strftime(when, sizeof when, "%a %b %d %H:%M:%S UTC %Y", &tm_utc);
  out_ << "#[Histogram log format version 1.3]\n";
  out_ << fmt::format("#[StartTime: {:.3f} (seconds since epoch), {}]\n", start_epoch_s, when);
  out_ << fmt::format("#[BaseTime: {:.3f} (seconds since epoch)]\n", start_epoch_s);
  out_ << "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
          "\"Interval_Compressed_Histogram\"\n";
}

void HdrLogWriter::WriteInterval(const std::string& tag, double start_s, double length_s,
                                 const Histogram& h) {
  if (!tag.empty()) out_ << "Tag=" << tag << ",";
  out_ << fmt::format("{:.3f},{:.3f},{:.3f},{}\n", start_s, length_s,
                      static_cast<double>(h.max()) / 1e6, Base64Encode(EncodeCompressed(h)));
}

}  // namespace redlab::tools::bench
