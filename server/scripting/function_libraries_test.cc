// The functions state and the library set on their own (no engine): shebang parsing, library
// creation and its checks, replacing, deleting, joining and swapping sets, running a function
// with its keys and arguments, and the shared PRNG.
#include "server/scripting/function_libraries.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/scripting/script_cache.h"

namespace redlab::server::scripting {
namespace {

class NullHost : public ScriptHost {
 public:
  bool Call(std::span<std::string> args, int resp, std::string* reply,
            std::string* error) override {
    *reply = "+OK\r\n";
    return true;
  }
  std::optional<bool> AclCheckCommand(std::span<const std::string>) override { return true; }
  bool Interrupt() override { return false; }
  void SetRepl(int flags) override {}
  void Log(int level, std::string_view message) override {}
};

std::string Lib(std::string_view name, std::string_view code) {
  return "#!lua name=" + std::string(name) + "\n" + std::string(code);
}

class FunctionLibrariesTest : public ::testing::Test {
 protected:
  // FCALL of `name` with keys and arguments, as reply bytes.
  std::string Call(const FunctionLibraries& set, std::string_view name,
                   std::vector<std::string> keys = {}, std::vector<std::string> args = {}) {
    const FunctionInfo* f = set.Find(name);
    if (f == nullptr) return "not found";
    std::string out;
    resp::ReplyWriter writer(&out, 2);
    lua_.Execute({.function_ref = f->ref, .sha = f->name, .keys = keys, .args = args}, host_,
                 writer);
    return out;
  }
  std::string Create(FunctionLibraries& set, const std::string& code, bool replace = false) {
    std::string error;
    std::optional<std::string> name = set.Create(code, replace, 0, &error);
    return name ? *name : "error: " + error;
  }

  Interpreter lua_{Interpreter::Mode::kFunctions};
  NullHost host_;
};

TEST(LibraryMetadataTest, Parses) {
  LibraryMetadata m;
  std::string error;
  ASSERT_TRUE(ParseLibraryMetadata("#!lua name=lib\ncode", &m, &error));
  EXPECT_EQ(m.engine, "lua");
  EXPECT_EQ(m.name, "lib");
  EXPECT_EQ(m.code_start, 14u);
  ASSERT_TRUE(ParseLibraryMetadata("#!LUA  NAME='a b'\n", &m, &error));
  EXPECT_EQ(m.name, "a b");
  EXPECT_FALSE(ParseLibraryMetadata("lua name=lib\n", &m, &error));
  EXPECT_EQ(error, "Missing library metadata");
  EXPECT_FALSE(ParseLibraryMetadata("#!lua name=lib", &m, &error));
  EXPECT_EQ(error, "Invalid library metadata");
  EXPECT_FALSE(ParseLibraryMetadata(std::string("#!lua name=lib\0\n", 16), &m, &error));
  EXPECT_EQ(error, "Invalid library metadata");
  EXPECT_FALSE(ParseLibraryMetadata("#!lua x=y\n", &m, &error));
  EXPECT_EQ(error, "Invalid metadata value given: x=y");
  EXPECT_FALSE(ParseLibraryMetadata("#!lua name=a name=b\n", &m, &error));
  EXPECT_EQ(error, "Invalid metadata value, name argument was given multiple times");
  EXPECT_FALSE(ParseLibraryMetadata("#!lua\n", &m, &error));
  EXPECT_EQ(error, "Library name was not given");
}

TEST(LibraryMetadataTest, Names) {
  EXPECT_TRUE(ValidFunctionName("a_Z_09"));
  EXPECT_FALSE(ValidFunctionName(""));
  EXPECT_FALSE(ValidFunctionName("a-b"));
  EXPECT_FALSE(ValidFunctionName(std::string("a\0b", 3)));
}

TEST_F(FunctionLibrariesTest, CreateReplaceDelete) {
  FunctionLibraries set(&lua_);
  EXPECT_EQ(Create(set, Lib("lib",
                            "redis.register_function('f', function(k, a) "
                            "return {k[1], a[1], a[2]} end)")),
            "lib");
  EXPECT_EQ(Call(set, "F", {"key"}, {"x", "y"}), "*3\r\n$3\r\nkey\r\n$1\r\nx\r\n$1\r\ny\r\n");
  EXPECT_EQ(Create(set, Lib("lib", "redis.register_function('g', function() return 1 end)")),
            "error: Library 'lib' already exists");
  EXPECT_EQ(Create(set, Lib("lib", "redis.register_function('g', function() return 1 end)"), true),
            "lib");
  EXPECT_EQ(Call(set, "f"), "not found");
  EXPECT_EQ(Call(set, "g"), ":1\r\n");
  EXPECT_EQ(Create(set, Lib("other", "redis.register_function('G', function() return 2 end)")),
            "error: Function G already exists");
  EXPECT_EQ(Create(set, Lib("other", "return 1")), "error: No functions registered");
  EXPECT_EQ(Create(set, "#!js name=x\n"), "error: Engine 'js' not found");
  EXPECT_EQ(set.libraries().size(), 1u);
  EXPECT_EQ(set.function_count(), 1u);
  size_t memory = set.memory();
  EXPECT_GT(memory, 0u);
  EXPECT_FALSE(set.Delete("LIB"));
  EXPECT_TRUE(set.Delete("lib"));
  EXPECT_EQ(set.function_count(), 0u);
  EXPECT_EQ(set.memory(), 0u);
}

TEST_F(FunctionLibrariesTest, JoinAndSwap) {
  FunctionLibraries current(&lua_);
  FunctionLibraries restored(&lua_);
  ASSERT_EQ(Create(current, Lib("a", "redis.register_function('fa', function() return 'a' end)")),
            "a");
  ASSERT_EQ(Create(restored, Lib("a", "redis.register_function('fa2', function() return 'A' end)")),
            "a");
  ASSERT_EQ(Create(restored, Lib("b", "redis.register_function('fb', function() return 'b' end)")),
            "b");
  std::string error;
  EXPECT_FALSE(current.Join(restored, false, &error));
  EXPECT_EQ(error, "Library a already exists");
  EXPECT_TRUE(current.Join(restored, true, &error));
  EXPECT_EQ(restored.libraries().size(), 0u);
  EXPECT_EQ(Call(current, "fa"), "not found");
  EXPECT_EQ(Call(current, "fa2"), "$1\r\nA\r\n");
  EXPECT_EQ(Call(current, "fb"), "$1\r\nb\r\n");

  // A function collision fails the join and puts replaced libraries back.
  ASSERT_EQ(Create(restored, Lib("a", "redis.register_function('FB', function() return 1 end)")),
            "a");
  EXPECT_FALSE(current.Join(restored, true, &error));
  EXPECT_EQ(error, "Function FB already exists");
  EXPECT_EQ(Call(current, "fa2"), "$1\r\nA\r\n");
  EXPECT_EQ(restored.libraries().size(), 1u);

  current.Swap(restored);
  EXPECT_EQ(Call(current, "fb"), ":1\r\n");
  EXPECT_EQ(Call(restored, "fa2"), "$1\r\nA\r\n");
}

TEST_F(FunctionLibrariesTest, RegistrationDetails) {
  FunctionLibraries set(&lua_);
  ASSERT_EQ(Create(set, Lib("lib",
                            "redis.register_function{function_name='f', "
                            "callback=function() return 1 end, description='d', "
                            "flags={'no-writes', 'ALLOW-OOM'}}\n"
                            "redis.register_function(12, function() return 2 end)")),
            "lib");
  const FunctionInfo* f = set.Find("f");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->description, "d");
  EXPECT_EQ(f->flags, kScriptNoWrites | kScriptAllowOom);
  // A number is a string to register_function.
  EXPECT_EQ(Call(set, "12"), ":2\r\n");
  const Library& library = *set.libraries().at("lib");
  EXPECT_EQ(library.code.substr(0, 15), "#!lua name=lib\n");
}

TEST_F(FunctionLibrariesTest, PrngIsShared) {
  Rand48 rand;
  Interpreter eval(Interpreter::Mode::kEval, &rand);
  Interpreter functions(Interpreter::Mode::kFunctions, &rand);
  FunctionLibraries set(&functions);
  ASSERT_EQ(Create(set, Lib("r",
                            "redis.register_function('r', function() "
                            "return math.random(1000000) end)")),
            "r");
  std::string error;
  ASSERT_TRUE(eval.Define("f_r", "return math.random(1000000)", &error));
  auto run = [&](Interpreter& lua, int ref, std::string_view name) {
    std::string out;
    resp::ReplyWriter writer(&out, 2);
    lua.Execute({.function = name, .function_ref = ref, .sha = "x"}, host_, writer);
    return out;
  };
  Rand48 expected;
  std::string first = run(eval, 0, "f_r");
  std::string second = run(functions, set.Find("r")->ref, "");
  // Both drew from one sequence: the second value is the sequence's second.
  expected.Next();
  double r = static_cast<double>(expected.Next() % Rand48::kMax) / Rand48::kMax;
  EXPECT_EQ(second, ":" + std::to_string(static_cast<int64_t>(r * 1000000) + 1) + "\r\n");
  EXPECT_NE(first, "");
}

}  // namespace
}  // namespace redlab::server::scripting
