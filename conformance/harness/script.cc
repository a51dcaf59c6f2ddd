#include "conformance/harness/script.h"

#include <gtest/gtest.h>

namespace redlab::conformance {

void ExpectReplies(Client& c, const std::vector<Exchange>& script, std::source_location where) {
  for (const Exchange& step : script) {
    Reply got = c.Call(step.command);
    if (got == step.reply) continue;
    std::string command;
    for (const std::string& arg : step.command) command += (command.empty() ? "" : " ") + arg;
    ADD_FAILURE_AT(where.file_name(), static_cast<int>(where.line()))
        << command << "\n  got: " << got << "\n  expected: " << step.reply;
  }
}

ScanSteps ScanAll(Client& c, const std::vector<std::string>& command,
                  const std::vector<std::string>& options) {
  ScanSteps steps;
  std::string cursor = "0";
  do {
    std::vector<std::string> args = command;
    args.push_back(cursor);
    args.insert(args.end(), options.begin(), options.end());
    Reply r = c.Call(args);
    EXPECT_EQ(r.type, Reply::Type::kArray) << r;
    if (r.elements.size() != 2) {
      ADD_FAILURE() << r;
      break;
    }
    EXPECT_EQ(r.elements[0].type, Reply::Type::kBulk) << r;
    EXPECT_EQ(r.elements[1].type, Reply::Type::kArray) << r;
    for (const Reply& e : r.elements[1].elements) EXPECT_EQ(e.type, Reply::Type::kBulk) << r;
    cursor = r.elements[0].str;
    steps.batches.push_back(r.elements[1].elements);
    ++steps.calls;
  } while (cursor != "0" && steps.calls < 10000);
  return steps;
}

std::set<std::string> Members(const ScanSteps& steps) {
  std::set<std::string> seen;
  for (const auto& batch : steps.batches) {
    for (const Reply& e : batch) seen.insert(e.str);
  }
  return seen;
}

std::map<std::string, std::string> FieldValues(const ScanSteps& steps) {
  std::map<std::string, std::string> seen;
  for (const auto& batch : steps.batches) {
    EXPECT_EQ(batch.size() % 2, 0u) << "a batch of " << batch.size() << " elements";
    for (size_t i = 0; i + 1 < batch.size(); i += 2) seen[batch[i].str] = batch[i + 1].str;
  }
  return seen;
}

}  // namespace redlab::conformance
