// Whether a user may run a command with given arguments (Redis's ACLCheckAllUserCommandPerm):
// the command itself, the keys its key specs find, and the channels of the pub/sub commands.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "server/acl/user.h"

namespace redlab::server::acl {

// Why a command is refused, ordered as Redis's ACL_DENIED_* (a key beats a command, a channel
// beats a key when selectors disagree).
enum class Verdict { kAllowed = 0, kCommand = 1, kKey = 2, kChannel = 4 };

struct CheckResult {
  Verdict verdict = Verdict::kAllowed;
  size_t arg_index = 0;  // kKey, kChannel: the argument that was refused
  bool allowed() const { return verdict == Verdict::kAllowed; }
};

// The first selector that allows everything wins; otherwise the most relevant refusal: no
// selector could run the command at all, or else the last key or channel no selector matched.
CheckResult CheckCommand(const User& user, const server::Command& cmd,
                         std::span<const std::string> args);

// Whether one selector of `user` that allows this command with these arguments may also read
// every key (allkeys, or a `~*` or `%R~*` pattern): SORT's BY and GET name keys its key specs
// cannot see (ACLUserCheckCmdWithUnrestrictedKeyAccess with CMD_KEY_ACCESS).
bool HasUnrestrictedKeyAccess(const User& user, const server::Command& cmd,
                              std::span<const std::string> args);

// The pub/sub arguments a command names, for the channel checks (Redis's
// commands_with_channels): PUBLISH and SPUBLISH name one channel, the SUBSCRIBE commands all
// their arguments (PSUBSCRIBE as patterns). Unsubscribing is never checked.
struct ChannelArgs {
  size_t first = 0;  // 0: the command names no channel that is checked
  size_t count = 0;  // 0: all the arguments from `first` on
  bool patterns = false;
};
ChannelArgs CheckedChannels(const server::Command& cmd);

}  // namespace redlab::server::acl
