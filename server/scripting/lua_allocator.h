// The memory allocator of a Lua state (lua_Alloc; Redis gives its Lua state jemalloc through
// zmalloc). Lua allocates and frees many small blocks per script run — strings, the KEYS and
// ARGV tables, redis.call's reply tables — so blocks of up to kMaxSmall bytes are kept on a free
// list per 16-byte size class and reused, without a trip through malloc. Each list keeps at most
// kMaxFreePerClass blocks; larger blocks and the excess go to malloc and free. Lua itself counts
// the bytes it uses (used_memory_lua), so the lists do not change that figure.
#pragma once

#include <array>
#include <cstddef>

namespace redlab::server::scripting {

// Under AddressSanitizer the lists are off (every block goes to malloc and free), so a Lua
// object used after it was freed is still caught.
#if defined(__SANITIZE_ADDRESS__)
#define REDLAB_LUA_ALLOCATOR_POOLS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REDLAB_LUA_ALLOCATOR_POOLS 0
#endif
#endif
#ifndef REDLAB_LUA_ALLOCATOR_POOLS
#define REDLAB_LUA_ALLOCATOR_POOLS 1
#endif

class LuaAllocator {
 public:
  static constexpr bool kPools = REDLAB_LUA_ALLOCATOR_POOLS;
  static constexpr size_t kClassBytes = 16;
  static constexpr size_t kMaxSmall = 256;
  static constexpr size_t kMaxFreePerClass = 4096;

  LuaAllocator() = default;
  ~LuaAllocator();
  LuaAllocator(const LuaAllocator&) = delete;
  LuaAllocator& operator=(const LuaAllocator&) = delete;

  // A lua_Alloc: `ud` is the LuaAllocator.
  static void* Alloc(void* ud, void* ptr, size_t osize, size_t nsize);

  // Blocks waiting on the free lists (for tests).
  size_t free_blocks() const;

 private:
  struct FreeBlock {
    FreeBlock* next;
  };
  struct FreeList {
    FreeBlock* head = nullptr;
    size_t count = 0;
  };
  static constexpr size_t kClasses = kMaxSmall / kClassBytes;

  static size_t ClassOf(size_t size) { return (size + kClassBytes - 1) / kClassBytes - 1; }
  void* Allocate(size_t size);
  void Release(void* ptr, size_t size);

  std::array<FreeList, kClasses> free_{};
};

}  // namespace redlab::server::scripting
