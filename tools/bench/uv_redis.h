// hiredis's async contexts on a libuv loop, as hiredis's adapters/libuv.h, except that a poll
// error is passed on to hiredis: Debian's hiredis 0.14 adapter drops it, and libuv stops the
// handle, so a connection reset by the server (or refused) would never answer its callbacks.
#pragma once

#include <hiredis/async.h>
#include <uv.h>

namespace redlab::tools::bench {

// Attaches `ac` to `loop`; REDIS_OK or REDIS_ERR, as redisLibuvAttach.
int AttachToLoop(redisAsyncContext* ac, uv_loop_t* loop);

}  // namespace redlab::tools::bench
