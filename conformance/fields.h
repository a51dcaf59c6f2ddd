// A reply of alternating names and values (SENTINEL MASTER and REPLICAS entries) as a map.
#pragma once

#include <map>
#include <string>

#include "conformance/harness/reply.h"

namespace redlab::conformance {

inline std::map<std::string, std::string> Fields(const Reply& r) {
  std::map<std::string, std::string> out;
  for (size_t i = 0; i + 1 < r.elements.size(); i += 2) {
    out[r.elements[i].str] = r.elements[i + 1].str;
  }
  return out;
}

}  // namespace redlab::conformance
