// The client's handling of one command's result (no Redis counterpart: Redisson's
// CommandAsyncService turns an error reply into RedisException the same way).
#include "client/lock_core.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace redlab::client {
namespace {

CommandResult Replied(Reply reply) {
  CommandResult r;
  r.reply = std::move(reply);
  return r;
}

CommandResult Broken() {
  CommandResult r;
  r.error = std::make_exception_ptr(IoError("connection reset"));
  return r;
}

template <typename T>
std::string ErrorOf(std::future<T>& f) {
  try {
    f.get();
  } catch (const ReplyError& e) {
    return std::string("ReplyError: ") + e.what();
  } catch (const IoError& e) {
    return std::string("IoError: ") + e.what();
  } catch (const std::exception& e) {
    return std::string("other: ") + e.what();
  }
  return "none";
}

TEST(SettleTest, ConvertsAReply) {
  auto p = std::make_shared<std::promise<int64_t>>();
  auto f = p->get_future();
  Settle(p, Replied(Reply::Integer(7)), [](const Reply& r) { return r.integer * 2; });
  EXPECT_EQ(f.get(), 14);
}

TEST(SettleTest, VoidRunsTheConversionForItsChecks) {
  auto p = std::make_shared<std::promise<void>>();
  auto f = p->get_future();
  int seen = 0;
  Settle(p, Replied(Reply::Integer(1)), [&seen](const Reply& r) { seen = int(r.integer); });
  f.get();
  EXPECT_EQ(seen, 1);
}

TEST(SettleTest, AnErrorReplyIsAReplyErrorWithItsText) {
  auto p = std::make_shared<std::promise<bool>>();
  auto f = p->get_future();
  bool converted = false;
  Settle(p, Replied(Reply::Error("NOPERM this user has no permissions")),
         [&converted](const Reply&) { return converted = true; });
  EXPECT_EQ(ErrorOf(f), "ReplyError: NOPERM this user has no permissions");
  EXPECT_FALSE(converted);
}

TEST(SettleTest, ATransportErrorPassesThrough) {
  auto p = std::make_shared<std::promise<bool>>();
  auto f = p->get_future();
  Settle(p, Broken(), [](const Reply&) { return true; });
  EXPECT_EQ(ErrorOf(f), "IoError: connection reset");
}

TEST(SettleTest, WhatTheConversionThrowsSettlesThePromise) {
  auto p = std::make_shared<std::promise<int64_t>>();
  auto f = p->get_future();
  Settle(p, Replied(Reply::Integer(0)), [](const Reply&) -> int64_t {
    throw std::invalid_argument("stoll");
  });
  EXPECT_EQ(ErrorOf(f), "other: stoll");
}

TEST(AcquireOutcomeTest, FailedRecordsTransportAndReplyErrors) {
  AcquireOutcome replied;
  EXPECT_FALSE(replied.Failed(Replied(Reply::Integer(1))));
  EXPECT_EQ(replied.error, nullptr);

  AcquireOutcome error_reply;
  EXPECT_TRUE(error_reply.Failed(Replied(Reply::Error("ERR wrong"))));
  try {
    std::rethrow_exception(error_reply.error);
  } catch (const ReplyError& e) {
    EXPECT_STREQ(e.what(), "ERR wrong");
  }

  AcquireOutcome broken;
  EXPECT_TRUE(broken.Failed(Broken()));
  EXPECT_THROW(std::rethrow_exception(broken.error), IoError);
}

}  // namespace
}  // namespace redlab::client
