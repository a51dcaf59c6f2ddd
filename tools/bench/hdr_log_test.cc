// HdrHistogram's V2 encoding and log lines: hand-computed bytes for small histograms, and a
// decode (base64, zlib, ZigZag LEB128) of a larger one back to the same counts.
#include "tools/bench/hdr_log.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "conformance/harness/child_process.h"

namespace redlab::tools::bench {
namespace {

std::string Base64Decode(const std::string& s) {
  auto val = [](char c) -> uint32_t {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : 0;
  };
  std::string out;
  for (size_t i = 0; i + 4 <= s.size(); i += 4) {
    uint32_t v = val(s[i]) << 18 | val(s[i + 1]) << 12 | val(s[i + 2]) << 6 | val(s[i + 3]);
    out.push_back(static_cast<char>(v >> 16));
    if (s[i + 2] != '=') out.push_back(static_cast<char>(v >> 8 & 0xff));
    if (s[i + 3] != '=') out.push_back(static_cast<char>(v & 0xff));
  }
  return out;
}

uint64_t Big(const std::string& s, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = v << 8 | static_cast<uint8_t>(s[at + static_cast<size_t>(i)]);
  return v;
}

// The counts of a V2 payload, zero runs expanded.
std::vector<int64_t> DecodeCounts(const std::string& payload) {
  std::vector<int64_t> counts;
  size_t i = 0;
  while (i < payload.size()) {
    uint64_t v = 0;
    int shift = 0;
    for (int n = 0; n < 9; ++n) {
      auto b = static_cast<uint8_t>(payload[i++]);
      if (n == 8) {
        v |= static_cast<uint64_t>(b) << 56;
        break;
      }
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      shift += 7;
      if ((b & 0x80) == 0) break;
    }
    auto value = static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));
    if (value < 0) {
      counts.insert(counts.end(), static_cast<size_t>(-value), 0);
    } else {
      counts.push_back(value);
    }
  }
  return counts;
}

TEST(HdrLogTest, Base64) {
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64Encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode(""), "");
}

TEST(HdrLogTest, V2EncodingOfSmallHistogramsByHand) {
  Histogram h(3600000000000, 3);
  h.Record(1, 2);
  std::string e = EncodeV2(h);
  ASSERT_EQ(e.size(), 40u + 2);
  EXPECT_EQ(Big(e, 0, 4), 0x1c849313u);  // V2 encoding cookie, word size bit set
  EXPECT_EQ(Big(e, 4, 4), 2u);           // payload length
  EXPECT_EQ(Big(e, 8, 4), 0u);           // normalizing index offset
  EXPECT_EQ(Big(e, 12, 4), 3u);          // significant figures
  EXPECT_EQ(Big(e, 16, 8), 1u);          // lowest trackable
  EXPECT_EQ(Big(e, 24, 8), 3600000000000u);
  EXPECT_EQ(Big(e, 32, 8), 0x3ff0000000000000u);  // 1.0
  // counts[0] = 0 (a single zero, written as 0), counts[1] = 2 (ZigZag 4).
  EXPECT_EQ(e.substr(40), std::string("\x00\x04", 2));

  Histogram g(3600000000000, 3);
  g.Record(5);
  std::string f = EncodeV2(g);
  // Five zeros (-5, ZigZag 9), then 1 (ZigZag 2).
  EXPECT_EQ(f.substr(40), std::string("\x09\x02", 2));

  Histogram big(3600000000000, 3);
  big.Record(1, 300);  // 300: ZigZag 600 = 0b1001011000, two LEB128 bytes
  EXPECT_EQ(EncodeV2(big).substr(40), std::string("\x00\xd8\x04", 3));
}

TEST(HdrLogTest, CompressedEncodingDecodesToTheSameCounts) {
  Histogram h(3600000000000, 3);
  for (int64_t v = 1000; v < 5000000; v = v * 11 / 10) h.Record(v, v % 7 + 1);
  h.Record(123456789);
  std::string c = Base64Decode(Base64Encode(EncodeCompressed(h)));
  ASSERT_GT(c.size(), 8u);
  EXPECT_EQ(Big(c, 0, 4), 0x1c849314u);  // V2 compression cookie
  ASSERT_EQ(Big(c, 4, 4), c.size() - 8);
  std::string encoded(1 << 20, '\0');
  uLongf len = encoded.size();
  ASSERT_EQ(uncompress(reinterpret_cast<Bytef*>(encoded.data()), &len,
                       reinterpret_cast<const Bytef*>(c.data() + 8), c.size() - 8),
            Z_OK);
  encoded.resize(len);
  ASSERT_EQ(Big(encoded, 4, 4), len - 40);
  std::vector<int64_t> counts = DecodeCounts(encoded.substr(40));
  ASSERT_EQ(counts.size(), static_cast<size_t>(h.CountsIndex(h.max()) + 1));
  for (size_t i = 0; i < counts.size(); ++i) ASSERT_EQ(counts[i], h.counts()[i]) << i;
}

TEST(HdrLogTest, LogHeaderAndTaggedIntervalLines) {
  std::ostringstream out;
  HdrLogWriter w(out);
  w.WriteHeader(1700000000.5);
  Histogram h(3600000000000, 3);
  h.Record(1500000);  // 1.5 ms
  w.WriteInterval("redlab", 0, 1, h);
  w.WriteInterval("", 1.25, 0.5, h);
  std::istringstream in(out.str());
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0], "#[Histogram log format version 1.3]");
  EXPECT_EQ(lines[1],
            "#[StartTime: 1700000000.500 (seconds since epoch), Tue Nov 14 22:13:20 UTC 2023]");
  EXPECT_EQ(lines[2], "#[BaseTime: 1700000000.500 (seconds since epoch)]");
  EXPECT_EQ(lines[3],
            "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
            "\"Interval_Compressed_Histogram\"");
  std::string b64 = Base64Encode(EncodeCompressed(h));
  EXPECT_EQ(b64.substr(0, 8), "HISTFAAA");  // what every V2 compressed histogram starts with
  EXPECT_EQ(lines[4], "Tag=redlab,0.000,1.000,1.500," + b64);
  EXPECT_EQ(lines[5], "1.250,0.500,1.500," + b64);
}

// HdrHistogram's own reader (Java's HistogramLogProcessor, Debian's libhdrhistogram-java) reads
// the log back to the same count, max and mean.
TEST(HdrLogTest, HdrHistogramsOwnLogProcessorReadsIt) {
  const char* jar = "/usr/share/java/hdrhistogram.jar";
  if (!std::filesystem::exists(jar) || !std::filesystem::exists("/usr/bin/java")) {
    GTEST_SKIP() << "libhdrhistogram-java (and a Java runtime) not installed";
  }
  Histogram h(3600000000000, 3);
  for (int64_t v = 1; v <= 1000; ++v) h.Record(v * 1000);  // 1..1000 us in ns
  std::string path = (std::filesystem::temp_directory_path() /
                      ("redlab-hdr-log-" + std::to_string(getpid()) + ".hdr"))
                         .string();
  {
    std::ofstream out(path);
    HdrLogWriter w(out);
    w.WriteHeader(1700000000);
    w.WriteInterval("redlab", 0, 1, h);
  }
  // Through a shell into a file: its report has blank lines, which ReadLine cannot tell from EOF.
  conformance::ChildProcess p(
      "/bin/sh", {"-c", std::string("/usr/bin/java -cp ") + jar +
                            " org.HdrHistogram.HistogramLogProcessor -i " + path +
                            " -tag redlab -outputValueUnitRatio 1000 > " + path + ".out"});
  EXPECT_EQ(p.Wait(std::chrono::seconds(60)), 0) << p.Stderr();
  std::ifstream in(path + ".out");
  std::string out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(path + ".out");
  std::filesystem::remove(path);
  // In microseconds: the max's slot ends at 1000447 ns; the mean of the slots' middles.
  EXPECT_NE(out.find("#[Max     =     1000.447, Total count    =         1000]"), std::string::npos)
      << out;
  EXPECT_NE(out.find(fmt::format("#[Mean    = {:12.3f}", h.mean() / 1000)), std::string::npos)
      << out;
}

}  // namespace
}  // namespace redlab::tools::bench
