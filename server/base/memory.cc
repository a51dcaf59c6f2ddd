// Replaces the global operator new/delete with counting versions (see memory.h). Each
// allocation's real size comes from malloc_usable_size (plus the allocator's chunk header), and
// nothing is added to the allocation itself.
#include "server/base/memory.h"

#include <malloc.h>

#include <cstdlib>
#include <new>

namespace redlab::server {
namespace {

thread_local int64_t allocated_bytes = 0;

// glibc keeps a size word in front of every chunk; counting it makes used_memory track what the
// process really pays per allocation, not only the usable bytes.
constexpr int64_t kChunkHeader = sizeof(size_t);

int64_t ChunkBytes(void* p) { return static_cast<int64_t>(malloc_usable_size(p)) + kChunkHeader; }

void* Allocate(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  allocated_bytes += ChunkBytes(p);
  return p;
}

void* AllocateNoThrow(std::size_t size) noexcept {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p != nullptr) allocated_bytes += ChunkBytes(p);
  return p;
}

void* AllocateAligned(std::size_t size, std::align_val_t align) {
  std::size_t a = static_cast<std::size_t>(align);
  void* p = std::aligned_alloc(a, (size + a - 1) / a * a);
  if (p == nullptr) throw std::bad_alloc();
  allocated_bytes += ChunkBytes(p);
  return p;
}

void Free(void* p) noexcept {
  if (p == nullptr) return;
  allocated_bytes -= ChunkBytes(p);
  std::free(p);
}

}  // namespace

int64_t ThreadAllocatedBytes() { return allocated_bytes; }

void* CountedRealloc(void* p, size_t size) noexcept {
  int64_t old_bytes = p ? ChunkBytes(p) : 0;
  void* q = std::realloc(p, size);
  if (q == nullptr) return nullptr;  // the old block is untouched and still counted
  allocated_bytes += ChunkBytes(q) - old_bytes;
  return q;
}

void CountedFree(void* p) noexcept { Free(p); }

}  // namespace redlab::server

using redlab::server::Allocate;
using redlab::server::AllocateAligned;
using redlab::server::AllocateNoThrow;
using redlab::server::Free;

void* operator new(std::size_t size) { return Allocate(size); }
void* operator new[](std::size_t size) { return Allocate(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return AllocateNoThrow(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return AllocateNoThrow(size);
}
void* operator new(std::size_t size, std::align_val_t align) {
  return AllocateAligned(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align) {
  return AllocateAligned(size, align);
}
void operator delete(void* p) noexcept { Free(p); }
void operator delete[](void* p) noexcept { Free(p); }
void operator delete(void* p, std::size_t) noexcept { Free(p); }
void operator delete[](void* p, std::size_t) noexcept { Free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Free(p); }
void operator delete(void* p, std::align_val_t) noexcept { Free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { Free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { Free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { Free(p); }
