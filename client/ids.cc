#include "client/ids.h"

#include <openssl/rand.h>

#include <atomic>
#include <stdexcept>
#include <vector>

namespace redlab {

ThreadId ThreadId::Current() {
  // Thread identity is process-wide by nature: one counter for the process, so an id is never
  // handed to a second thread while a lock may still name the first.
  static std::atomic<uint64_t> next{1};
  thread_local const uint64_t id = next.fetch_add(1, std::memory_order_relaxed);
  return ThreadId{id};
}

namespace client {
namespace {

std::vector<unsigned char> RandomBytes(size_t n) {
  std::vector<unsigned char> b(n);
  if (RAND_bytes(b.data(), static_cast<int>(n)) != 1) {
    throw std::runtime_error("OpenSSL RAND_bytes failed");
  }
  return b;
}

constexpr char kHex[] = "0123456789abcdef";

}  // namespace

std::string RandomUuid() {
  std::vector<unsigned char> b = RandomBytes(16);
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);  // version 4
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);  // RFC 4122 variant
  std::string s;
  s.reserve(36);
  for (size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    s += kHex[b[i] >> 4];
    s += kHex[b[i] & 0xf];
  }
  return s;
}

std::string RandomHex(size_t bytes) {
  std::vector<unsigned char> b = RandomBytes(bytes);
  std::string s;
  s.reserve(bytes * 2);
  for (unsigned char c : b) {
    s += kHex[c >> 4];
    s += kHex[c & 0xf];
  }
  return s;
}

}  // namespace client
}  // namespace redlab
