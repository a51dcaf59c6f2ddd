#include "conformance/harness/replication_stream.h"

#include <chrono>
#include <stdexcept>

namespace redlab::conformance {
namespace {

bool IsLinkCommand(const std::string& name) {
  return name == "PING" || name == "ping" || name == "REPLCONF" || name == "replconf";
}

}  // namespace

ReplicationStream::ReplicationStream(int port) : port_(port), link_(port) {
  Client admin(port);
  Reply period = admin({"CONFIG", "GET", "repl-ping-replica-period"});
  if (period.elements.size() == 2) ping_period_ = period.elements[1].str;
  admin({"CONFIG", "SET", "repl-ping-replica-period", "3600"});
  // Real Redis waits this long for more replicas before a diskless sync (redlab lacks it).
  admin({"CONFIG", "SET", "repl-diskless-sync-delay", "0"});

  // Announcing EOF-delimited snapshots keeps Redis from writing one to disk.
  Reply capa = link_({"REPLCONF", "capa", "eof"});
  if (capa.type != Reply::Type::kStatus) throw std::runtime_error("REPLCONF capa eof refused");
  link_.SendCommand({"PSYNC", "?", "-1"});
  std::string line;
  do {
    line = link_.ReadLine();  // an empty line is a keepalive while the snapshot is prepared
  } while (line.empty());
  if (line.rfind("+FULLRESYNC", 0) != 0) throw std::runtime_error("no full resync: " + line);
  std::string offset = line.substr(line.rfind(' ') + 1);
  do {
    line = link_.ReadLine();
  } while (line.empty());
  if (line.rfind("$EOF:", 0) == 0) {
    // The snapshot ends with the 40-byte mark that follows "$EOF:".
    std::string mark = line.substr(5);
    std::string tail;
    while (tail.size() < mark.size() ||
           tail.compare(tail.size() - mark.size(), mark.size(), mark) != 0) {
      tail += link_.ReadExact(1);
      if (tail.size() > 4 * mark.size()) tail.erase(0, tail.size() - mark.size());
    }
  } else if (!line.empty() && line[0] == '$') {
    link_.ReadExact(std::stoull(line.substr(1)));
  } else {
    throw std::runtime_error("no snapshot: " + line);
  }
  offset_ = offset;
}

ReplicationStream::~ReplicationStream() {
  try {
    Client admin(port_);
    if (!ping_period_.empty()) admin({"CONFIG", "SET", "repl-ping-replica-period", ping_period_});
    admin({"CONFIG", "SET", "repl-diskless-sync-delay", "5"});
  } catch (const std::exception&) {
    // The server may be gone already; nothing to restore then.
  }
}

std::vector<std::string> ReplicationStream::Next() {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (true) {
    // After a diskless snapshot Redis streams nothing until an ack from the replica that comes
    // once it has finished sending (an earlier one is ignored): ack until the stream flows.
    while (!link_.Readable(std::chrono::milliseconds(50))) {
      if (std::chrono::steady_clock::now() > deadline) {
        throw std::runtime_error("nothing on the replication stream");
      }
      link_.SendCommand({"REPLCONF", "ACK", offset_});
    }
    Reply r = link_.Read();
    std::vector<std::string> args;
    for (const Reply& e : r.elements) args.push_back(e.str);
    if (args.empty() || IsLinkCommand(args[0])) continue;
    return args;
  }
}

}  // namespace redlab::conformance
