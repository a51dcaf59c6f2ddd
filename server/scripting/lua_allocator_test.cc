// LuaAllocator: Lua's lua_Alloc contract, the reuse of small blocks and the bound on what is kept.
#include "server/scripting/lua_allocator.h"

#include <gtest/gtest.h>

#include <cstring>
#include <lua.hpp>
#include <string>
#include <vector>

namespace redlab::server::scripting {
namespace {

void* Alloc(LuaAllocator& a, void* ptr, size_t osize, size_t nsize) {
  return LuaAllocator::Alloc(&a, ptr, osize, nsize);
}

TEST(LuaAllocatorTest, FreedSmallBlockIsReusedForItsSizeClass) {
  if (!LuaAllocator::kPools) GTEST_SKIP() << "no free lists under AddressSanitizer";
  LuaAllocator a;
  void* p = Alloc(a, nullptr, 0, 40);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(Alloc(a, p, 40, 0), nullptr);
  EXPECT_EQ(a.free_blocks(), 1u);
  // 33..48 bytes share the class of 40.
  EXPECT_EQ(Alloc(a, nullptr, 0, 48), p);
  EXPECT_EQ(a.free_blocks(), 0u);
  void* other = Alloc(a, nullptr, 0, 16);
  EXPECT_NE(other, p);
  Alloc(a, p, 48, 0);
  Alloc(a, other, 16, 0);
  EXPECT_EQ(a.free_blocks(), 2u);
}

TEST(LuaAllocatorTest, ReallocKeepsContentAcrossClassesAndIntoLargeBlocks) {
  LuaAllocator a;
  auto* p = static_cast<char*>(Alloc(a, nullptr, 0, 20));
  std::memcpy(p, "0123456789abcdefghi", 20);
  // Same class: the block itself (with the free lists on).
  char* same = static_cast<char*>(Alloc(a, p, 20, 30));
  if (LuaAllocator::kPools) EXPECT_EQ(same, p);
  EXPECT_STREQ(same, "0123456789abcdefghi");
  auto* q = static_cast<char*>(Alloc(a, same, 30, 200));
  EXPECT_STREQ(q, "0123456789abcdefghi");
  auto* r = static_cast<char*>(Alloc(a, q, 200, 5000));
  EXPECT_STREQ(r, "0123456789abcdefghi");
  auto* s = static_cast<char*>(Alloc(a, r, 5000, 20));
  EXPECT_STREQ(s, "0123456789abcdefghi");
  Alloc(a, s, 20, 0);
  EXPECT_EQ(Alloc(a, nullptr, 0, 0), nullptr);  // freeing NULL is allowed
}

TEST(LuaAllocatorTest, KeepsAtMostTheBoundPerClass) {
  if (!LuaAllocator::kPools) GTEST_SKIP() << "no free lists under AddressSanitizer";
  LuaAllocator a;
  std::vector<void*> blocks;
  for (size_t i = 0; i < LuaAllocator::kMaxFreePerClass + 10; ++i) {
    blocks.push_back(Alloc(a, nullptr, 0, 64));
  }
  for (void* b : blocks) Alloc(a, b, 64, 0);
  EXPECT_EQ(a.free_blocks(), LuaAllocator::kMaxFreePerClass);
}

TEST(LuaAllocatorTest, RunsALuaStateThroughGarbageCollections) {
  LuaAllocator a;
  lua_State* lua = lua_newstate(&LuaAllocator::Alloc, &a);
  ASSERT_NE(lua, nullptr);
  luaL_openlibs(lua);
  const char* code =
      "local t = {} for i = 1, 20000 do t[i] = string.rep('x', i % 300) .. i end "
      "local n = 0 for i = 1, 20000 do n = n + #t[i] end t = nil collectgarbage() return n";
  ASSERT_EQ(luaL_dostring(lua, code), 0) << lua_tostring(lua, -1);
  // sum over i of (i % 300) + number of digits of i
  long expected = 0;
  for (long i = 1; i <= 20000; ++i) expected += i % 300 + static_cast<long>(std::to_string(i).size());
  EXPECT_EQ(static_cast<long>(lua_tonumber(lua, -1)), expected);
  lua_close(lua);
  EXPECT_EQ(a.free_blocks() > 0, LuaAllocator::kPools);
}

}  // namespace
}  // namespace redlab::server::scripting
