// Redis's packed encodings as they appear inside RDB values: listpacks (small hashes, sorted
// sets and quicklist nodes), intsets, and the pre-7.0 ziplists and zipmaps RESTORE still
// accepts. Building follows listpack.c's choices byte for byte (integer forms for strings that
// read as integers, the smallest string header, back-lengths); parsing validates as it goes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace redlab::server::rdb {

class ListpackBuilder {
 public:
  // lpAppend: an integer form when `s` reads as an int64 (string2ll), else a string.
  void Append(std::string_view s);
  void AppendInteger(int64_t v);
  size_t count() const { return count_; }
  // The bytes lpBytes would report once built (header, entries, terminator).
  size_t bytes() const { return 6 + body_.size() + 1; }
  std::string Build() const;

  // The bytes one element adds to a listpack (encoding, data and back-length).
  static size_t EntrySize(std::string_view s);

 private:
  void Entry(std::string_view encoded);
  std::string body_;
  size_t count_ = 0;
};

// The elements of a listpack, integers formatted as lpGet does. Throws RdbCorrupt.
std::vector<std::string> ParseListpack(std::string_view lp);

// An intset blob (intsetBlobLen bytes): the narrowest width holding every value, values
// ascending. `sorted` must be ascending without duplicates.
std::string BuildIntset(const std::vector<int64_t>& sorted);
std::vector<int64_t> ParseIntset(std::string_view blob);

// The pre-7.0 encodings (ziplist.c, zipmap.c), read only.
std::vector<std::string> ParseZiplist(std::string_view zl);
std::vector<std::string> ParseZipmap(std::string_view zm);  // field, value, field, value...

}  // namespace redlab::server::rdb
