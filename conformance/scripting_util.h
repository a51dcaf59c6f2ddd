// Helpers for the scripting suites: the SHA1 of a script (computed here with OpenSSL, not by the
// server under test) and the error a failing script gets.
#pragma once

#include <string>
#include <string_view>

#include "conformance/digest.h"
#include "conformance/harness/fixture.h"

namespace redlab::conformance {

// The error reply of a script that failed with `message` at `line` (Redis appends where).
inline Reply ScriptError(std::string_view message, std::string_view body, int line = 1) {
  return Error(std::string(message) + " script: " + Sha1(body) +
               ", on @user_script:" + std::to_string(line) + ".");
}

}  // namespace redlab::conformance
