// Parsing and expanding `redlab bench` patterns (see pattern.h for the syntax).
#include "tools/bench/pattern.h"

#include <charconv>
#include <stdexcept>

namespace redlab::tools::bench {
namespace {

bool ParseInt(std::string_view s, int64_t* v) {
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && end == s.data() + s.size();
}

// "A..B" into low and high; false when malformed.
bool ParseRange(std::string_view s, int64_t* low, int64_t* high) {
  size_t dots = s.find("..");
  if (dots == std::string_view::npos) return false;
  return ParseInt(s.substr(0, dots), low) && ParseInt(s.substr(dots + 2), high);
}

}  // namespace

Pattern::Pattern(const std::string& text) : text_(text) {
  std::string literal;
  auto flush = [&] {
    if (!literal.empty()) parts_.push_back({.kind = Kind::kLiteral, .literal = literal});
    literal.clear();
  };
  size_t i = 0;
  while (i < text.size()) {
    size_t close = text[i] == '{' ? text.find('}', i) : std::string::npos;
    if (close == std::string::npos) {
      literal += text[i++];
      continue;
    }
    std::string_view body(text.data() + i + 1, close - i - 1);
    std::string_view name = body.substr(0, body.find(':'));
    bool has_arg = name.size() < body.size();  // `{rand}` without a colon is literal text
    std::string_view arg = has_arg ? body.substr(name.size() + 1) : "";
    Part part{.kind = Kind::kLiteral};
    auto bad = [&](const char* why) {
      return std::invalid_argument("bad pattern placeholder {" + std::string(body) + "} in '" +
                                   text + "': " + why);
    };
    if ((name == "rand" || name == "seq") && has_arg) {
      part.kind = name == "rand" ? Kind::kRand : Kind::kSeq;
      if (!ParseRange(arg, &part.low, &part.high)) throw bad("expected A..B");
      if (part.low > part.high) throw bad("A must not be above B");
      part.next = part.low;
    } else if (name == "client" && body == "client") {
      part.kind = Kind::kClient;
    } else if (name == "randstr" && has_arg) {
      part.kind = Kind::kRandStr;
      if (!ParseInt(arg, &part.high) || part.high < 0 || part.high > 1 << 20) {
        throw bad("expected a length 0..1048576");
      }
    } else {
      literal += text[i++];  // not a placeholder: a hash tag or any other text
      continue;
    }
    flush();
    parts_.push_back(part);
    i = close + 1;
  }
  flush();
}

bool Pattern::is_literal() const {
  for (const Part& p : parts_) {
    if (p.kind != Kind::kLiteral) return false;
  }
  return true;
}

void Pattern::Expand(int client, std::mt19937_64& rng, std::string* out) {
  static constexpr char kChars[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (Part& p : parts_) {
    switch (p.kind) {
      case Kind::kLiteral:
        out->append(p.literal);
        break;
      case Kind::kRand:
        out->append(std::to_string(std::uniform_int_distribution<int64_t>(p.low, p.high)(rng)));
        break;
      case Kind::kSeq:
        out->append(std::to_string(p.next));
        p.next = p.next == p.high ? p.low : p.next + 1;
        break;
      case Kind::kClient:
        out->append(std::to_string(client));
        break;
      case Kind::kRandStr: {
        std::uniform_int_distribution<int> pick(0, sizeof(kChars) - 2);
        for (int64_t n = 0; n < p.high; ++n) out->push_back(kChars[pick(rng)]);
        break;
      }
    }
  }
}

}  // namespace redlab::tools::bench
