// hiredis's redisCommandArgv (and redis-cli's way of sending one command) for arguments held as
// std::strings: the one conversion the tools that talk to servers through hiredis share.
#pragma once

#include <hiredis/hiredis.h>

#include <memory>
#include <string>
#include <vector>

namespace redlab::tools {

struct ReplyDeleter {
  void operator()(redisReply* r) const { freeReplyObject(r); }
};
using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

// Sends `args` as one command on `c` and waits for its reply; null when the connection failed
// (c->errstr says why). Binary-safe: each argument is sent with its length.
inline ReplyPtr CommandArgv(redisContext* c, const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (const auto& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  return ReplyPtr(static_cast<redisReply*>(
      redisCommandArgv(c, static_cast<int>(args.size()), argv.data(), lens.data())));
}

}  // namespace redlab::tools
