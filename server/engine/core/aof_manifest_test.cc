// The AOF manifest: the lines Redis 7.0 writes, what it refuses with which text, and the file
// names a rewrite moves from incremental to history.
#include "server/engine/core/aof_manifest.h"

#include <gtest/gtest.h>

#include <string>

namespace redlab::server::engine {
namespace {

AofManifest ParseOk(std::string_view text) {
  std::string error;
  std::optional<AofManifest> am = AofManifest::Parse(text, &error);
  EXPECT_TRUE(am.has_value()) << error;
  return am.value_or(AofManifest{});
}

std::string ParseError(std::string_view text, int* line = nullptr) {
  std::string error;
  int at = -1;
  EXPECT_FALSE(AofManifest::Parse(text, &error, &at).has_value()) << text;
  if (line != nullptr) *line = at;
  return error;
}

TEST(AofManifestTest, WritesBaseHistoryThenIncrementalFiles) {
  AofManifest am;
  EXPECT_EQ(am.NewBase("appendonly.aof", true), "appendonly.aof.1.base.rdb");
  EXPECT_EQ(am.LastIncr("appendonly.aof"), "appendonly.aof.1.incr.aof");
  EXPECT_EQ(am.LastIncr("appendonly.aof"), "appendonly.aof.1.incr.aof");
  EXPECT_EQ(am.ToString(),
            "file appendonly.aof.1.base.rdb seq 1 type b\n"
            "file appendonly.aof.1.incr.aof seq 1 type i\n");
  // A rewrite: a new incremental file, then a new base; what came before becomes history.
  EXPECT_EQ(am.NewIncr("appendonly.aof"), "appendonly.aof.2.incr.aof");
  EXPECT_EQ(am.NewBase("appendonly.aof", false), "appendonly.aof.2.base.aof");
  am.MarkRewrittenIncrAsHistory(/*keep_last=*/true);
  EXPECT_EQ(am.ToString(),
            "file appendonly.aof.2.base.aof seq 2 type b\n"
            "file appendonly.aof.1.incr.aof seq 1 type h\n"
            "file appendonly.aof.1.base.rdb seq 1 type h\n"
            "file appendonly.aof.2.incr.aof seq 2 type i\n");
  // With the AOF off nothing is being written: every incremental file is history.
  am.MarkRewrittenIncrAsHistory(/*keep_last=*/false);
  EXPECT_TRUE(am.incr.empty());
  EXPECT_EQ(am.history.front().name, "appendonly.aof.2.incr.aof");
}

TEST(AofManifestTest, ParsesWhatItWrites) {
  AofManifest am = ParseOk(
      "file appendonly.aof.2.base.rdb seq 2 type b\n"
      "# a comment line\n"
      "file appendonly.aof.1.incr.aof seq 1 type h\n"
      "file appendonly.aof.3.incr.aof seq 3 type i\n"
      "file appendonly.aof.4.incr.aof seq 4 type i extra words\n");
  ASSERT_TRUE(am.base.has_value());
  EXPECT_EQ(*am.base, (AofFileInfo{"appendonly.aof.2.base.rdb", 2, 'b'}));
  ASSERT_EQ(am.history.size(), 1u);
  ASSERT_EQ(am.incr.size(), 2u);
  EXPECT_EQ(am.incr[1], (AofFileInfo{"appendonly.aof.4.incr.aof", 4, 'i'}));
  EXPECT_EQ(am.curr_base_seq, 2);
  EXPECT_EQ(am.curr_incr_seq, 4);
  EXPECT_EQ(am.NewIncr("appendonly.aof"), "appendonly.aof.5.incr.aof");
}

TEST(AofManifestTest, QuotesNamesThatNeedIt) {
  AofManifest am;
  am.NewBase("my file\x01.aof", true);
  EXPECT_EQ(am.ToString(), "file \"my file\\x01.aof.1.base.rdb\" seq 1 type b\n");
  AofManifest back = ParseOk(am.ToString());
  ASSERT_TRUE(back.base.has_value());
  EXPECT_EQ(back.base->name, "my file\x01.aof.1.base.rdb");
}

TEST(AofManifestTest, RefusesWhatRedisRefuses) {
  int line = 0;
  EXPECT_EQ(ParseError(""), "Found an empty AOF manifest");
  EXPECT_EQ(ParseError("file a seq 1 type b"),  // no newline at the end: fgets's "too long"
            "The AOF manifest file contains too long line");
  EXPECT_EQ(ParseError("file a seq 1 type b\n\n", &line), "Invalid AOF manifest file format");
  EXPECT_EQ(line, 2);
  EXPECT_EQ(ParseError("file a seq 1\n"), "Invalid AOF manifest file format");
  EXPECT_EQ(ParseError("file a seq 0 type b\n"), "Invalid AOF manifest file format");
  EXPECT_EQ(ParseError("file \"a seq 1 type b\n"), "Invalid AOF manifest file format");
  EXPECT_EQ(ParseError("file dir/a seq 1 type b\n"), "File can't be a path, just a filename");
  EXPECT_EQ(ParseError("file a seq 1 type b\nfile b seq 2 type b\n"),
            "Found duplicate base file information");
  EXPECT_EQ(ParseError("file a seq 2 type i\nfile b seq 2 type i\n"),
            "Found a non-monotonic sequence number");
  EXPECT_EQ(ParseError("file a seq 1 type x\n"), "Unknown AOF file type");
  EXPECT_EQ(ParseError(std::string(1100, 'x') + "\n"),
            "The AOF manifest file contains too long line");
}

}  // namespace
}  // namespace redlab::server::engine
