#include "server/base/glob.h"

#include <cctype>

namespace redlab::server {
namespace {

// Redis caps recursion on '*' so patterns like "a*a*a*...b" cannot blow the stack or take
// exponential time; `skip_longer` stops retrying a '*' once the rest of the text cannot match.
bool Match(const char* p, int plen, const char* s, int slen, bool nocase, bool* skip_longer,
           int nesting) {
  if (nesting > 1000) return false;
  auto lower = [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  };
  while (plen && slen) {
    switch (p[0]) {
      case '*':
        while (plen > 1 && p[1] == '*') {
          ++p;
          --plen;
        }
        if (plen == 1) return true;
        while (slen) {
          if (Match(p + 1, plen - 1, s, slen, nocase, skip_longer, nesting + 1)) return true;
          if (*skip_longer) return false;
          ++s;
          --slen;
        }
        *skip_longer = true;
        return false;
      case '?':
        ++s;
        --slen;
        break;
      case '[': {
        ++p;
        --plen;
        bool negate = plen > 0 && p[0] == '^';
        if (negate) {
          ++p;
          --plen;
        }
        bool matched = false;
        while (true) {
          if (plen == 0) {
            // An unterminated class: Redis steps back so the loop below consumes nothing more.
            --p;
            ++plen;
            break;
          }
          if (p[0] == '\\' && plen >= 2) {
            ++p;
            --plen;
            if (p[0] == s[0]) matched = true;
          } else if (p[0] == ']') {
            break;
          } else if (plen >= 3 && p[1] == '-') {
            char start = p[0], end = p[2], c = s[0];
            if (start > end) std::swap(start, end);
            if (nocase) {
              start = lower(start);
              end = lower(end);
              c = lower(c);
            }
            p += 2;
            plen -= 2;
            if (c >= start && c <= end) matched = true;
          } else {
            if (!nocase) {
              if (p[0] == s[0]) matched = true;
            } else if (lower(p[0]) == lower(s[0])) {
              matched = true;
            }
          }
          ++p;
          --plen;
        }
        if (negate) matched = !matched;
        if (!matched) return false;
        ++s;
        --slen;
        break;
      }
      case '\\':
        if (plen >= 2) {
          ++p;
          --plen;
        }
        [[fallthrough]];
      default:
        if (!nocase) {
          if (p[0] != s[0]) return false;
        } else if (lower(p[0]) != lower(s[0])) {
          return false;
        }
        ++s;
        --slen;
        break;
    }
    ++p;
    --plen;
    if (slen == 0) {
      while (plen && *p == '*') {
        ++p;
        --plen;
      }
      break;
    }
  }
  return plen == 0 && slen == 0;
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view text, bool nocase) {
  bool skip_longer = false;
  return Match(pattern.data(), static_cast<int>(pattern.size()), text.data(),
               static_cast<int>(text.size()), nocase, &skip_longer, 0);
}

}  // namespace redlab::server
