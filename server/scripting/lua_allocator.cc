#include "server/scripting/lua_allocator.h"

#include <cstdlib>
#include <cstring>

namespace redlab::server::scripting {

LuaAllocator::~LuaAllocator() {
  for (FreeList& list : free_) {
    while (list.head != nullptr) {
      FreeBlock* next = list.head->next;
      std::free(list.head);
      list.head = next;
    }
  }
}

size_t LuaAllocator::free_blocks() const {
  size_t n = 0;
  for (const FreeList& list : free_) n += list.count;
  return n;
}

void* LuaAllocator::Allocate(size_t size) {
  if (!kPools || size > kMaxSmall) return std::malloc(size);
  FreeList& list = free_[ClassOf(size)];
  if (list.head == nullptr) return std::malloc((ClassOf(size) + 1) * kClassBytes);
  FreeBlock* block = list.head;
  list.head = block->next;
  --list.count;
  return block;
}

void LuaAllocator::Release(void* ptr, size_t size) {
  if (!kPools || size > kMaxSmall) {
    std::free(ptr);
    return;
  }
  FreeList& list = free_[ClassOf(size)];
  if (list.count == kMaxFreePerClass) {
    std::free(ptr);
    return;
  }
  auto* block = static_cast<FreeBlock*>(ptr);
  block->next = list.head;
  list.head = block;
  ++list.count;
}

// Lua's contract (lua_Alloc, Lua 5.1 manual §3.7): nsize 0 frees ptr (which may be NULL) and
// returns NULL; otherwise returns a block of nsize bytes holding the first min(osize, nsize)
// bytes of ptr, or NULL (leaving ptr untouched) when it cannot; shrinking must not fail.
void* LuaAllocator::Alloc(void* ud, void* ptr, size_t osize, size_t nsize) {
  auto* self = static_cast<LuaAllocator*>(ud);
  if (ptr == nullptr) osize = 0;  // Lua 5.1 passes garbage-free 0 here, but be explicit
  if (nsize == 0) {
    if (ptr != nullptr) self->Release(ptr, osize);
    return nullptr;
  }
  if (ptr == nullptr) return self->Allocate(nsize);
  if (!kPools) return std::realloc(ptr, nsize);
  bool old_small = osize <= kMaxSmall;
  bool new_small = nsize <= kMaxSmall;
  if (old_small && new_small && ClassOf(osize) == ClassOf(nsize)) return ptr;
  if (!old_small && !new_small) return std::realloc(ptr, nsize);
  void* block = self->Allocate(nsize);
  if (block == nullptr) {
    // A failed shrink into a small class keeps the old (larger) block, which still fits.
    return nsize < osize ? ptr : nullptr;
  }
  std::memcpy(block, ptr, osize < nsize ? osize : nsize);
  self->Release(ptr, osize);
  return block;
}

}  // namespace redlab::server::scripting
