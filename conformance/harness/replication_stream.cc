#include "conformance/harness/replication_stream.h"

#include <chrono>
#include <stdexcept>

namespace redlab::conformance {
namespace {

bool IsLinkCommand(const std::string& name) {
  return name == "PING" || name == "ping" || name == "REPLCONF" || name == "replconf";
}

std::string ConfigValue(Client& admin, const std::string& name) {
  Reply r = admin({"CONFIG", "GET", name});
  return r.elements.size() == 2 ? r.elements[1].str : std::string();
}

}  // namespace

ReplicationStream::ReplicationStream(int port) : port_(port), link_(port) {
  Client admin(port);
  ping_period_ = ConfigValue(admin, "repl-ping-replica-period");
  sync_delay_ = ConfigValue(admin, "repl-diskless-sync-delay");
  admin({"CONFIG", "SET", "repl-ping-replica-period", "3600"});
  // Real Redis waits this long for more replicas before a diskless sync.
  admin({"CONFIG", "SET", "repl-diskless-sync-delay", "0"});
  // Announcing EOF-delimited snapshots keeps Redis from writing one to disk.
  Reply capa = link_({"REPLCONF", "capa", "eof", "capa", "psync2"});
  if (capa.type != Reply::Type::kStatus) throw std::runtime_error("REPLCONF capa refused");
}

ReplicationStream::~ReplicationStream() {
  try {
    Client admin(port_);
    if (!ping_period_.empty()) admin({"CONFIG", "SET", "repl-ping-replica-period", ping_period_});
    if (!sync_delay_.empty()) admin({"CONFIG", "SET", "repl-diskless-sync-delay", sync_delay_});
  } catch (const std::exception&) {
    // The server may be gone already; nothing to restore then.
  }
}

std::string ReplicationStream::NonEmptyLine() {
  std::string line;
  while ((line = link_.ReadLine()).empty()) {
  }
  return line;
}

void ReplicationStream::FullSync() {
  link_.SendCommand({"PSYNC", "?", "-1"});
  std::string line = NonEmptyLine();
  // "+FULLRESYNC <40-character replid> <offset>"
  if (line.rfind("+FULLRESYNC ", 0) != 0) throw std::runtime_error("no full resync: " + line);
  replid_ = line.substr(12, 40);
  offset_ = std::stoll(line.substr(53));
  std::string header = NonEmptyLine();
  if (header.rfind("$EOF:", 0) == 0) {
    link_.ReadThrough(header.substr(5));  // a diskless snapshot ends with the 40-byte mark
  } else if (header[0] == '$') {
    link_.ReadExact(std::stoull(header.substr(1)));
  } else {
    throw std::runtime_error("no snapshot: " + header);
  }
  synced_ = true;
}

std::string ReplicationStream::PartialSync(const std::string& replid, int64_t offset) {
  link_.SendCommand({"PSYNC", replid, std::to_string(offset)});
  replid_ = replid;
  offset_ = offset - 1;
  std::string line = NonEmptyLine();
  synced_ = line.rfind("+CONTINUE", 0) == 0;
  return line;
}

std::vector<std::string> ReplicationStream::Next() {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (true) {
    while (!link_.Readable(std::chrono::milliseconds(50))) {
      if (std::chrono::steady_clock::now() > deadline) {
        throw std::runtime_error("nothing on the replication stream");
      }
      if (synced_) link_.SendCommand({"REPLCONF", "ACK", std::to_string(offset_)});
    }
    std::string raw = link_.ReadRaw();
    offset_ += static_cast<int64_t>(raw.size());
    Reply r;
    ReplyReader::Parse(raw, &r);
    std::vector<std::string> args;
    for (const Reply& e : r.elements) args.push_back(e.str);
    if (args.empty() || IsLinkCommand(args[0])) continue;
    return args;
  }
}

}  // namespace redlab::conformance
