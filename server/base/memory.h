// Memory accounting per thread. A node runs on its own thread, so the bytes its thread has
// allocated (through C++ new) and not yet freed are what the node uses: INFO used_memory and the
// maxmemory limit read this. Frees of memory another thread allocated are credited to the freeing
// thread, which is rare in a node (its data is made and dropped on its loop thread).
#pragma once

#include <cstddef>
#include <cstdint>

namespace redlab::server {

// Bytes allocated by the calling thread through operator new and not freed (may be negative on
// a thread that frees what others allocated).
int64_t ThreadAllocatedBytes();

// realloc / free that keep the count, for code that manages raw blocks itself (packed values).
void* CountedRealloc(void* p, size_t size) noexcept;
void CountedFree(void* p) noexcept;

}  // namespace redlab::server
