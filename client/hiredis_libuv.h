// hiredis's libuv adapter (hiredis/adapters/libuv.h) with hiredis 1.0's fix for poll errors.
// Debian's hiredis 0.14 adapter drops a poll callback whose status is an error, but libuv
// reports a refused connect or a reset socket exactly so (POLLERR -> UV_EBADF, handle
// stopped): hiredis then never learns, and the connection hangs until a timeout. Here, as
// upstream since 1.0, an error status makes hiredis read/write so it sees the failure itself.
#pragma once

#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <uv.h>

namespace redlab::client {

struct HiredisLibuvEvents {
  redisAsyncContext* context;
  uv_poll_t handle;
  int events;
};

inline void HiredisLibuvPoll(uv_poll_t* handle, int status, int events) {
  auto* p = static_cast<HiredisLibuvEvents*>(handle->data);
  int ev = status != 0 ? p->events : events;
  if (p->context != nullptr && (ev & UV_READABLE)) redisAsyncHandleRead(p->context);
  if (p->context != nullptr && (ev & UV_WRITABLE)) redisAsyncHandleWrite(p->context);
}

inline void HiredisLibuvUpdate(HiredisLibuvEvents* p) {
  if (p->events) {
    uv_poll_start(&p->handle, p->events, HiredisLibuvPoll);
  } else {
    uv_poll_stop(&p->handle);
  }
}

// Starts or stops watching the connection of `privdata` for `event` (UV_READABLE, UV_WRITABLE).
inline void HiredisLibuvWatch(void* privdata, int event, bool on) {
  auto* p = static_cast<HiredisLibuvEvents*>(privdata);
  p->events = on ? (p->events | event) : (p->events & ~event);
  HiredisLibuvUpdate(p);
}

inline void HiredisLibuvAddRead(void* privdata) { HiredisLibuvWatch(privdata, UV_READABLE, true); }
inline void HiredisLibuvDelRead(void* privdata) { HiredisLibuvWatch(privdata, UV_READABLE, false); }
inline void HiredisLibuvAddWrite(void* privdata) { HiredisLibuvWatch(privdata, UV_WRITABLE, true); }
inline void HiredisLibuvDelWrite(void* privdata) {
  HiredisLibuvWatch(privdata, UV_WRITABLE, false);
}

inline void HiredisLibuvCleanup(void* privdata) {
  auto* p = static_cast<HiredisLibuvEvents*>(privdata);
  p->context = nullptr;  // the context is being freed; the poll handle goes in its close callback
  uv_close(reinterpret_cast<uv_handle_t*>(&p->handle),
           [](uv_handle_t* h) { delete static_cast<HiredisLibuvEvents*>(h->data); });
}

/// Attaches `ac` to `loop`; REDIS_OK or REDIS_ERR.
inline int HiredisLibuvAttach(redisAsyncContext* ac, uv_loop_t* loop) {
  if (ac->ev.data != nullptr) return REDIS_ERR;
  auto* p = new HiredisLibuvEvents{};
  if (uv_poll_init(loop, &p->handle, ac->c.fd) != 0) {
    delete p;
    return REDIS_ERR;
  }
  p->handle.data = p;
  p->context = ac;
  ac->ev.addRead = HiredisLibuvAddRead;
  ac->ev.delRead = HiredisLibuvDelRead;
  ac->ev.addWrite = HiredisLibuvAddWrite;
  ac->ev.delWrite = HiredisLibuvDelWrite;
  ac->ev.cleanup = HiredisLibuvCleanup;
  ac->ev.data = p;
  return REDIS_OK;
}

}  // namespace redlab::client
