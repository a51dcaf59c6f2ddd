// The client's errors: one hierarchy rooted at redlab::Error, always thrown on the caller's
// thread (a synchronous call, or std::future::get of an async one), never on the loop thread.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace redlab {

/// Base of every error the client throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The connection failed, was refused, reset or closed before a reply arrived.
class IoError : public Error {
 public:
  using Error::Error;
};

/// No reply within Config::timeout (or no connection within Config::connect_timeout, or no
/// subscription within Config::subscription_timeout).
class TimeoutError : public Error {
 public:
  using Error::Error;
};

/// The server answered with an error reply; what() is its text ("ERR ...", "NOSCRIPT ...").
class ReplyError : public Error {
 public:
  using Error::Error;
};

/// The configuration cannot work (a malformed server URL, no server).
class ConfigError : public Error {
 public:
  using Error::Error;
};

/// The client was shut down while the call was pending, or before it.
class ClientClosed : public Error {
 public:
  using Error::Error;
};

/// Unlock by a thread that does not hold the lock: Java's IllegalMonitorStateException as
/// Redisson throws it, naming the lock, the client (node) id and the thread id.
class IllegalMonitorState : public Error {
 public:
  IllegalMonitorState(const std::string& lock_name, const std::string& node_id, uint64_t thread_id)
      : Error("attempt to unlock lock '" + lock_name +
              "', not locked by current thread by node id: " + node_id +
              " thread-id: " + std::to_string(thread_id)) {}
};

/// A lock write reached the master but no replica acknowledged it within
/// Config::slaves_sync_timeout (Config::check_lock_synced_slaves). An acquisition that was
/// written has been released again before this is thrown.
class NoSyncedReplicas : public Error {
 public:
  using Error::Error;
};

/// LockInterruptibly gave up because its std::stop_token was triggered.
class LockInterrupted : public Error {
 public:
  using Error::Error;
};

}  // namespace redlab
