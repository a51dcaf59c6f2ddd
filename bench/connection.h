// A blocking hiredis connection for the benchmarks, and the reply check they share: an error
// reply fails the run (a failing command must not pass for a fast one).
#pragma once

#include <hiredis/hiredis.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace redlab::bench {

struct ContextDeleter {
  void operator()(redisContext* c) const { redisFree(c); }
};
using Connection = std::unique_ptr<redisContext, ContextDeleter>;

inline Connection Connect(int port) {
  Connection c(redisConnect("127.0.0.1", port));
  if (!c || c->err) throw std::runtime_error("cannot connect to port " + std::to_string(port));
  return c;
}

// Frees `reply` (a redisReply*); throws when there is none or it is an error.
inline void Check(void* reply) {
  auto* r = static_cast<redisReply*>(reply);
  if (r == nullptr || r->type == REDIS_REPLY_ERROR) {
    std::string what = r ? std::string(r->str, r->len) : "no reply";
    if (r) freeReplyObject(r);
    throw std::runtime_error(what);
  }
  freeReplyObject(r);
}

}  // namespace redlab::bench
