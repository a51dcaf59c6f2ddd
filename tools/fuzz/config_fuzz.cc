// libFuzzer target for Redis's config-file reader (config.c loadServerConfigFromString): a
// redis.conf's text through the line splitter (sdssplitargs's quoting and escapes) and
// `include`, then every directive applied as a startup setting (each parameter's parser).
// An `include` reads the same text again, so nesting and its depth limit are exercised too.
//
//   build-fuzz/bin/config_fuzz tools/fuzz/corpus/config -max_total_time=300
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/config_file.h"
#include "server/engine/config/config.h"

namespace {

std::string_view current;

bool ReadInclude(const std::string&, std::string* out) {
  *out = std::string(current.substr(0, 4096));
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace server = redlab::server;
  current = std::string_view(reinterpret_cast<const char*>(data), size);
  auto parsed = server::ParseConfigText(current, ReadInclude);
  if (auto* error = std::get_if<server::ConfigFileError>(&parsed)) {
    (void)error->Report();
    return 0;
  }
  server::engine::ServerConfig config;
  server::engine::ConfigRegistry registry(&config);
  for (const server::ConfigDirective& d : std::get<std::vector<server::ConfigDirective>>(parsed)) {
    std::string value;
    for (size_t i = 0; i < d.words.size(); ++i) value += (i > 0 ? " " : "") + d.words[i];
    registry.Set({{d.name, value}}, /*startup=*/true);
  }
  // Every value the settings left must read back.
  registry.Get({"*"});
  return 0;
}
