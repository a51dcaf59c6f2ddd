#include "server/net/stall.h"

#include <gtest/gtest.h>

#include <string>

namespace redlab::server::net {
namespace {

bool Breaks(const std::string& s) { return StallWaiter::BreaksStall(s.data(), s.size()); }

TEST(StallWaiterTest, OnlyAFirstFaultResetOrShutdownBreaksAStall) {
  EXPECT_TRUE(Breaks("*2\r\n$5\r\nFAULT\r\n$5\r\nRESET\r\n"));
  EXPECT_TRUE(Breaks("fault reset\r\n"));
  EXPECT_TRUE(Breaks("\r\nFault Reset\r\n"));  // an empty inline line first is skipped
  EXPECT_TRUE(Breaks("SHUTDOWN NOSAVE\r\n"));
  EXPECT_TRUE(Breaks("*1\r\n$8\r\nshutdown\r\n*1\r\n$4\r\nPING\r\n"));
  EXPECT_FALSE(Breaks("*2\r\n$5\r\nFAULT\r\n$5\r\nRES"));  // not whole yet
  EXPECT_FALSE(Breaks("PING\r\nFAULT RESET\r\n"));         // behind another request
  EXPECT_FALSE(Breaks("FAULT RESET now\r\n"));
  EXPECT_FALSE(Breaks("FAULT LIST\r\n"));
  EXPECT_FALSE(Breaks(""));
}

}  // namespace
}  // namespace redlab::server::net
