// Blocking TCP links (engine::SyncLink) on POSIX sockets with poll() deadlines, as Redis's
// connBlockingConnect / connSyncWrite / connSyncReadLine (syncio.c).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "server/engine/core/sync_link.h"

namespace redlab::server::net {

// Connects to host:port (a name or an address, IPv4 or IPv6) within timeout_ms; nullptr when
// that fails or times out.
std::unique_ptr<engine::SyncLink> ConnectSync(const std::string& host, int port,
                                              int64_t timeout_ms);

}  // namespace redlab::server::net
