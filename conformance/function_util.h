// Helpers for the functions suites: library code in the shapes Redis's tests use, a fixture that
// starts every test without libraries, and the parts of replies the suites look at.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <string_view>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {

// A library `lib` registering `fn` (positional form) with `body` inside function(KEYS, ARGV).
inline std::string FunctionCode(std::string_view lib, std::string_view fn, std::string_view body) {
  return "#!lua name=" + std::string(lib) + "\nredis.register_function('" + std::string(fn) +
         "', function(KEYS, ARGV)\n " + std::string(body) + " \nend)";
}

// The same with the named form and the no-writes flag.
inline std::string NoWritesFunctionCode(std::string_view lib, std::string_view fn,
                                        std::string_view body) {
  return "#!lua name=" + std::string(lib) + "\nredis.register_function{function_name='" +
         std::string(fn) + "', callback=function(KEYS, ARGV)\n " + std::string(body) +
         " \nend, flags={'no-writes'}}";
}

// A library `lib` whose code (after the shebang line) is `code`.
inline std::string Library(std::string_view lib, std::string_view code) {
  return "#!lua name=" + std::string(lib) + "\n" + std::string(code);
}

// FUNCTION LIST's entry for a library of functions without description or flags.
inline Reply ListEntry(std::string_view lib, std::vector<std::string> functions) {
  std::vector<Reply> fs;
  for (const std::string& f : functions) {
    fs.push_back(
        Array({Bulk("name"), Bulk(f), Bulk("description"), Nil(), Bulk("flags"), Array({})}));
  }
  return Array({Bulk("library_name"), Bulk(std::string(lib)), Bulk("engine"), Bulk("LUA"),
                Bulk("functions"), Array(std::move(fs))});
}

// A new empty directory for a server's files, removed with its contents when this goes: a real
// Redis replica may save the snapshot it received, and a server started in a directory loads the
// dump.rdb it finds there.
class PrivateDir {
 public:
  PrivateDir() {
    char dir[] = "/tmp/redlab-functions-XXXXXX";
    if (mkdtemp(dir) != nullptr) path_ = dir;
  }
  ~PrivateDir() {
    if (!path_.empty()) std::filesystem::remove_all(path_);
  }
  PrivateDir(const PrivateDir&) = delete;
  PrivateDir& operator=(const PrivateDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The suites' base: a server of the current target with no libraries at the start of a test
// (FLUSHALL leaves them).
class FunctionTest : public ConformanceTest {
 protected:
  void SetUp() override {
    ConformanceTest::SetUp();
    ASSERT_EQ(c()({"FUNCTION", "FLUSH"}), Status("OK"));
  }
  Reply Load(const std::string& code) { return c().Call({"FUNCTION", "LOAD", code}); }
  Reply LoadReplace(const std::string& code) {
    return c().Call({"FUNCTION", "LOAD", "REPLACE", code});
  }
};

}  // namespace redlab::conformance
