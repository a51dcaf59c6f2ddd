#include "server/scripting/script_cache.h"

#include <cstring>

#include "server/resp/arg_list.h"
#include "server/resp/parser.h"
#include "server/scripting/sha1hex.h"

namespace redlab::server::scripting {
namespace {

// Redis prints these through %s: a NUL byte ends them.
std::string CString(std::string_view s) { return std::string(s.substr(0, s.find('\0'))); }

}  // namespace

bool ParseShebang(std::string_view body, uint64_t* flags, size_t* shebang_length,
                  std::string* error) {
  *flags = kScriptEvalCompatMode;
  *shebang_length = 0;
  if (body.substr(0, 2) != "#!") return true;
  size_t end = body.find('\n');
  if (end == std::string_view::npos) {
    *error = "Invalid script shebang";
    return false;
  }
  resp::ArgList parts;
  if (!resp::SplitInlineArgs(body.substr(0, end), &parts) || parts.empty()) {
    *error = "Invalid engine in script shebang";
    return false;
  }
  if (CString(parts[0]) != "#!lua") {
    *error = "Unexpected engine in script shebang: " + CString(parts[0]);
    return false;
  }
  *flags &= ~uint64_t{kScriptEvalCompatMode};
  for (size_t j = 1; j < parts.size(); ++j) {
    std::string_view part = parts[j];
    if (part.substr(0, 6) != "flags=") {
      *error = "Unknown lua shebang option: " + CString(part);
      return false;
    }
    std::string_view list = part.substr(6);
    // sdssplitlen: an empty list has no flags; otherwise every comma separates one.
    while (!list.empty() || part.size() > 6) {
      size_t comma = list.find(',');
      std::string_view name = list.substr(0, comma);
      const ScriptFlagName* found = nullptr;
      for (const ScriptFlagName& f : kScriptFlagNames) {
        if (CString(name) == f.name && name.find('\0') == std::string_view::npos) found = &f;
      }
      if (found == nullptr) {
        *error = "Unexpected flag in script shebang: " + CString(name);
        return false;
      }
      *flags |= found->flag;
      if (comma == std::string_view::npos) break;
      list = list.substr(comma + 1);
    }
  }
  *shebang_length = end;
  return true;
}

const Script* ScriptCache::Find(std::string_view sha) const {
  // EVALSHA looks its script up twice (its flags, then the run), mostly the same as last time.
  if (last_found_ != nullptr && last_found_->sha == sha) return last_found_;
  auto it = scripts_.find(sha);
  if (it == scripts_.end()) return nullptr;
  last_found_ = &it->second;  // the map's nodes stay put until Flush
  return last_found_;
}

const Script* ScriptCache::Load(std::string_view body, std::string* sha, std::string* error) {
  *sha = Sha1Hex(body);
  if (const Script* known = Find(*sha)) return known;
  uint64_t flags = 0;
  size_t shebang_length = 0;
  if (!ParseShebang(body, &flags, &shebang_length, error)) return nullptr;
  // The shebang line is left out of the code, its newline kept so line numbers stay right.
  if (!interpreter_->Define(FunctionName(*sha), body.substr(shebang_length), error)) return nullptr;
  memory_ += sha->size() + body.size();
  Script& script = scripts_[*sha];
  script.body.assign(body);
  script.flags = flags;
  script.sha = *sha;
  script.function = FunctionName(*sha);
  return &script;
}

void ScriptCache::Flush() {
  scripts_.clear();
  last_found_ = nullptr;
  memory_ = 0;
  interpreter_->Reset();
}

}  // namespace redlab::server::scripting
