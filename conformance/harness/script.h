// Conformance scripts: a table of commands and the exact replies they must get (for tests that
// differ only by data), and whole SCAN-family iterations (scan.c's cursor protocol).
#pragma once

#include <map>
#include <set>
#include <source_location>
#include <string>
#include <vector>

#include "conformance/harness/client.h"

namespace redlab::conformance {

// One step of a conformance script: a command and the exact reply it must get.
struct Exchange {
  std::vector<std::string> command;
  Reply reply;
};
// Sends the commands of `script` on `c` one by one, in order, and expects each to get exactly its
// reply (as one EXPECT_EQ per step would); a failure names the step's command and is reported at
// the caller's line.
void ExpectReplies(Client& c, const std::vector<Exchange>& script,
                   std::source_location where = std::source_location::current());

// A whole iteration of a SCAN-family command, from cursor 0 until the cursor is 0 again (at most
// 10000 calls). `command` is what stands before the cursor ({"SCAN"}, {"HSCAN", "h"}), `options`
// what follows it. Every reply must be [cursor, [elements]], all bulk strings: one of another
// shape fails the test, and one without two elements ends the iteration.
struct ScanSteps {
  std::vector<std::vector<Reply>> batches;  // each call's elements, in order
  int calls = 0;
};
ScanSteps ScanAll(Client& c, const std::vector<std::string>& command,
                  const std::vector<std::string>& options = {});
// The distinct elements of all the batches (SCAN and SSCAN may return one twice).
std::set<std::string> Members(const ScanSteps& steps);
// The elements of all the batches as field (or member) -> value (or score), for HSCAN and ZSCAN;
// a batch of an odd size fails the test.
std::map<std::string, std::string> FieldValues(const ScanSteps& steps);

}  // namespace redlab::conformance
