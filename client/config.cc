#include "client/config.h"

#include <algorithm>
#include <charconv>
#include <random>

#include "client/errors.h"

namespace redlab {
namespace {

int ParseNumber(std::string_view text, std::string_view what, std::string_view url) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() || value < 0) {
    throw ConfigError("bad " + std::string(what) + " in server URL '" + std::string(url) + "'");
  }
  return value;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// RFC 3986 percent-decoding of the userinfo (a password may hold ':', '@', '/' or '%' only so
// encoded). '+' stays '+': it means a space only in HTML forms, not in URIs.
std::string PercentDecode(std::string_view text, std::string_view what, std::string_view url) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    int high = i + 1 < text.size() ? HexDigit(text[i + 1]) : -1;
    int low = i + 2 < text.size() ? HexDigit(text[i + 2]) : -1;
    if (high < 0 || low < 0) {
      throw ConfigError("bad %-escape in the " + std::string(what) + " of server URL '" +
                        std::string(url) + "'");
    }
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

}  // namespace

ServerAddress ServerAddress::Parse(std::string_view url) {
  ServerAddress a;
  std::string_view rest = url;
  if (size_t scheme = rest.find("://"); scheme != std::string_view::npos) {
    if (rest.substr(0, scheme) != "redis") {
      throw ConfigError("unsupported scheme in server URL '" + std::string(url) +
                        "' (only redis:// is)");
    }
    rest.remove_prefix(scheme + 3);
  }
  if (size_t at = rest.rfind('@'); at != std::string_view::npos) {
    std::string_view auth = rest.substr(0, at);
    rest.remove_prefix(at + 1);
    size_t colon = auth.find(':');
    if (colon == std::string_view::npos) {
      a.password = PercentDecode(auth, "password", url);  // "redis://secret@host": alone
    } else {
      a.user = PercentDecode(auth.substr(0, colon), "user", url);
      a.password = PercentDecode(auth.substr(colon + 1), "password", url);
    }
  }
  if (size_t slash = rest.find('/'); slash != std::string_view::npos) {
    std::string_view db = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
    if (!db.empty()) a.db = ParseNumber(db, "database number", url);
  }
  std::string_view host = rest;
  if (!rest.empty() && rest.front() == '[') {  // [::1]:6379
    size_t close = rest.find(']');
    if (close == std::string_view::npos)
      throw ConfigError("bad host in '" + std::string(url) + "'");
    host = rest.substr(1, close - 1);
    rest.remove_prefix(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') throw ConfigError("bad host in '" + std::string(url) + "'");
      a.port = ParseNumber(rest.substr(1), "port", url);
    }
  } else if (size_t colon = rest.rfind(':'); colon != std::string_view::npos) {
    host = rest.substr(0, colon);
    a.port = ParseNumber(rest.substr(colon + 1), "port", url);
  }
  // Lettuce and redis-cli do not read an empty host as localhost either: say it.
  if (host.empty()) throw ConfigError("no host in server URL '" + std::string(url) + "'");
  a.host = std::string(host);
  if (a.port == 0 || a.port > 65535) throw ConfigError("bad port in '" + std::string(url) + "'");
  return a;
}

std::string ServerAddress::ToString() const {
  std::string host_part = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  std::string s = "redis://" + host_part + ":" + std::to_string(port);
  if (db != 0) s += "/" + std::to_string(db);
  return s;
}

Config Config::SingleServer(std::string_view url) {
  Config c;
  c.mode = Mode::kSingle;
  c.masters.push_back(ServerAddress::Parse(url));
  return c;
}

Config Config::MasterReplica(std::string_view master_url,
                             const std::vector<std::string>& replica_urls) {
  Config c;
  c.mode = Mode::kMasterReplica;
  c.masters.push_back(ServerAddress::Parse(master_url));
  for (const std::string& url : replica_urls) c.replicas.push_back(ServerAddress::Parse(url));
  return c;
}

Config Config::IndependentMasters(const std::vector<std::string>& urls) {
  Config c;
  c.mode = Mode::kIndependentMasters;
  for (const std::string& url : urls) c.masters.push_back(ServerAddress::Parse(url));
  return c;
}

Config Config::Sentinel(std::string master_name, const std::vector<std::string>& sentinel_urls) {
  Config c;
  c.mode = Mode::kSentinel;
  c.sentinel_master_name = std::move(master_name);
  c.masters.push_back(ServerAddress{});  // credentials only; the sentinels give the address
  for (const std::string& url : sentinel_urls) c.sentinels.push_back(ServerAddress::Parse(url));
  return c;
}

std::chrono::milliseconds Config::RetryDelay(int attempt) const {
  if (retry_interval.count() > 0) return retry_interval;
  // EqualJitterDelay.calcDelay.
  int64_t base = retry_delay_base.count();
  int64_t max = retry_delay_max.count();
  int64_t exponential = max;
  if (attempt < 63 && base > 0 && base < max) {
    int64_t shifted = int64_t{1} << attempt;
    exponential = shifted > max / base ? max : std::min(base * shifted, max);
  }
  int64_t half = exponential / 2;
  thread_local std::mt19937_64 random{std::random_device{}()};
  int64_t jitter = half > 0 ? std::uniform_int_distribution<int64_t>(0, half)(random) : 0;
  return std::chrono::milliseconds(half + jitter);
}

void Config::Validate() const {
  if (masters.empty()) throw ConfigError("no server configured");
  if (mode != Mode::kIndependentMasters && masters.size() != 1) {
    throw ConfigError("a single-server or master-replica configuration has exactly one master");
  }
  if (mode != Mode::kMasterReplica && !replicas.empty()) {
    throw ConfigError("replicas are only configured in master-replica mode");
  }
  if (mode == Mode::kSentinel) {
    if (sentinels.empty()) throw ConfigError("no sentinel configured");
    if (sentinel_master_name.empty()) throw ConfigError("no master name for the sentinels");
  } else if (!sentinels.empty()) {
    throw ConfigError("sentinels are only configured in sentinel mode");
  }
  auto positive = [](std::chrono::milliseconds d, const char* what) {
    if (d.count() <= 0) throw ConfigError(std::string(what) + " must be positive");
  };
  positive(connect_timeout, "connect_timeout");
  positive(timeout, "timeout");
  positive(lock_watchdog_timeout, "lock_watchdog_timeout");
  positive(fair_lock_wait_timeout, "fair_lock_wait_timeout");
  positive(slaves_sync_timeout, "slaves_sync_timeout");
  positive(subscription_timeout, "subscription_timeout");
  positive(red_lock_node_timeout, "red_lock_node_timeout");
  positive(red_lock_retry_delay, "red_lock_retry_delay");
  positive(sentinel_scan_interval, "sentinel_scan_interval");
  if (lock_watchdog_timeout.count() < 3) throw ConfigError("lock_watchdog_timeout is under 3 ms");
  if (retry_attempts < 0) throw ConfigError("retry_attempts must not be negative");
  if (retry_interval.count() < 0) throw ConfigError("retry_interval must not be negative");
  if (retry_delay_base.count() < 0 || retry_delay_max.count() < 0) {
    throw ConfigError("retry_delay_base and retry_delay_max must not be negative");
  }
  if (ping_connection_interval.count() < 0) {
    throw ConfigError("ping_connection_interval must not be negative");
  }
  if (connection_pool_size < 1) throw ConfigError("connection_pool_size must be at least 1");
  if (lock_watchdog_batch_size < 1) throw ConfigError("lock_watchdog_batch_size must be >= 1");
}

}  // namespace redlab
