// The libuv event hooks of a hiredis async context (see uv_redis.h).
#include "tools/bench/uv_redis.h"

namespace redlab::tools::bench {
namespace {

struct Events {
  redisAsyncContext* context;
  uv_poll_t handle;
  int events = 0;
};

void OnPoll(uv_poll_t* handle, int status, int events) {
  auto* p = static_cast<Events*>(handle->data);
  if (p->context == nullptr) return;
  if (status < 0) {
    // libuv has stopped the handle. hiredis finds the socket's error itself: the connect check
    // (not connected yet) or a read fails with it, and the context disconnects, answering every
    // pending callback with no reply.
    if (p->context->c.flags & REDIS_CONNECTED) {
      redisAsyncHandleRead(p->context);
    } else {
      redisAsyncHandleWrite(p->context);
    }
    return;
  }
  if (events & UV_READABLE) redisAsyncHandleRead(p->context);
  if (p->context != nullptr && (events & UV_WRITABLE)) redisAsyncHandleWrite(p->context);
}

void Update(Events* p, int add, int remove) {
  p->events = (p->events | add) & ~remove;
  if (p->events != 0) {
    uv_poll_start(&p->handle, p->events, OnPoll);
  } else {
    uv_poll_stop(&p->handle);
  }
}

void AddRead(void* data) { Update(static_cast<Events*>(data), UV_READABLE, 0); }
void DelRead(void* data) { Update(static_cast<Events*>(data), 0, UV_READABLE); }
void AddWrite(void* data) { Update(static_cast<Events*>(data), UV_WRITABLE, 0); }
void DelWrite(void* data) { Update(static_cast<Events*>(data), 0, UV_WRITABLE); }

void Cleanup(void* data) {
  auto* p = static_cast<Events*>(data);
  p->context = nullptr;  // the context is being freed; the handle's memory goes on close
  uv_close(reinterpret_cast<uv_handle_t*>(&p->handle),
           [](uv_handle_t* h) { delete static_cast<Events*>(h->data); });
}

}  // namespace

int AttachToLoop(redisAsyncContext* ac, uv_loop_t* loop) {
  if (ac->ev.data != nullptr) return REDIS_ERR;
  auto* p = new Events{.context = ac};
  if (uv_poll_init(loop, &p->handle, ac->c.fd) != 0) {
    delete p;
    return REDIS_ERR;
  }
  p->handle.data = p;
  ac->ev.addRead = AddRead;
  ac->ev.delRead = DelRead;
  ac->ev.addWrite = AddWrite;
  ac->ev.delWrite = DelWrite;
  ac->ev.cleanup = Cleanup;
  ac->ev.data = p;
  return REDIS_OK;
}

}  // namespace redlab::tools::bench
