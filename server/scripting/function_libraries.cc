#include "server/scripting/function_libraries.h"

#include <strings.h>

#include <cctype>
#include <vector>

#include "server/resp/arg_list.h"
#include "server/resp/parser.h"

namespace redlab::server::scripting {
namespace {

constexpr const char* kBadName =
    "Library names can only contain letters, numbers, or underscores(_) and must be at least one "
    "character long";

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Redis formats these with a C string's %s: a NUL byte ends them.
std::string CString(std::string_view s) { return std::string(s.substr(0, s.find('\0'))); }

// The bytes a library and a function hold, roughly as Redis counts them (libraryMallocSize,
// functionMallocSize, and their dictionary entries).
size_t LibraryMemory(const Library& library) {
  size_t bytes = 48 + library.name.size() + library.code.size();
  for (const auto& [name, f] : library.functions) {
    bytes += 80 + name.size() + (f.description ? f.description->size() : 0);
  }
  return bytes;
}

}  // namespace

bool ParseLibraryMetadata(std::string_view payload, LibraryMetadata* metadata, std::string* error) {
  if (payload.substr(0, 2) != "#!") {
    *error = "Missing library metadata";
    return false;
  }
  // Redis looks for the newline with strchr: it does not look past a NUL byte.
  size_t end = payload.substr(0, payload.find('\0')).find('\n');
  resp::ArgList parts;
  if (end == std::string_view::npos || !resp::SplitInlineArgs(payload.substr(0, end), &parts) ||
      parts.empty()) {
    *error = "Invalid library metadata";
    return false;
  }
  metadata->engine = parts[0].substr(2);
  bool has_name = false;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    if (strncasecmp(part.c_str(), "name=", 5) == 0) {
      if (has_name) {
        *error = "Invalid metadata value, name argument was given multiple times";
        return false;
      }
      metadata->name = part.substr(5);
      has_name = true;
      continue;
    }
    *error = "Invalid metadata value given: " + CString(part);
    return false;
  }
  if (!has_name) {
    *error = "Library name was not given";
    return false;
  }
  metadata->code_start = end;
  return true;
}

bool ValidFunctionName(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

FunctionLibraries::~FunctionLibraries() { Clear(); }

std::optional<std::string> FunctionLibraries::Create(std::string_view code, bool replace,
                                                     int64_t timeout_ms, std::string* error) {
  LibraryMetadata metadata;
  if (!ParseLibraryMetadata(code, &metadata, error)) return std::nullopt;
  if (!ValidFunctionName(metadata.name)) {
    *error = kBadName;
    return std::nullopt;
  }
  // Engines are looked up ignoring case (as C strings).
  if (strcasecmp(CString(metadata.engine).c_str(), std::string(kLuaEngineName).c_str()) != 0 ||
      metadata.engine.find('\0') != std::string::npos) {
    *error = "Engine '" + metadata.engine + "' not found";
    return std::nullopt;
  }
  auto existing = libraries_.find(metadata.name);
  if (existing != libraries_.end() && !replace) {
    *error = "Library '" + metadata.name + "' already exists";
    return std::nullopt;
  }
  // The old library's functions may be registered again by the new one.
  std::unique_ptr<Library> old;
  if (existing != libraries_.end()) old = Unlink(metadata.name);

  auto library = std::make_unique<Library>();
  library->name = metadata.name;
  library->code.assign(code);
  Interpreter::Registrar registrar =
      [&](Interpreter::RegisteredFunction&& f) -> std::optional<std::string> {
    if (!ValidFunctionName(f.name)) return kBadName;
    if (library->functions.count(f.name) != 0) return "Function already exists in the library";
    FunctionInfo& info = library->functions[f.name];
    info.name = std::move(f.name);
    info.description = std::move(f.description);
    info.flags = f.flags;
    info.ref = f.ref;
    return std::nullopt;
  };
  bool ok = lua_->LoadLibrary(code.substr(metadata.code_start), timeout_ms, registrar, error);
  if (ok && library->functions.empty()) {
    *error = "No functions registered";
    ok = false;
  }
  if (ok) {
    for (const auto& [name, f] : library->functions) {
      if (functions_.count(Lower(name)) != 0) {
        *error = "Function " + name + " already exists";
        ok = false;
        break;
      }
    }
  }
  if (!ok) {
    Release(*library);
    if (old != nullptr) Link(std::move(old));
    return std::nullopt;
  }
  Link(std::move(library));
  if (old != nullptr) Release(*old);
  return metadata.name;
}

bool FunctionLibraries::Delete(std::string_view name) {
  auto it = libraries_.find(std::string(name));
  if (it == libraries_.end()) return false;
  std::unique_ptr<Library> library = Unlink(it->first);
  Release(*library);
  return true;
}

void FunctionLibraries::Clear() {
  for (auto& [name, library] : libraries_) Release(*library);
  libraries_.clear();
  functions_.clear();
  memory_ = 0;
}

bool FunctionLibraries::Join(FunctionLibraries& other, bool replace, std::string* error) {
  std::vector<std::unique_ptr<Library>> replaced;
  auto revert = [&] {
    for (auto& library : replaced) Link(std::move(library));
  };
  for (const auto& [name, library] : other.libraries_) {
    if (libraries_.count(name) == 0) continue;
    if (!replace) {
      *error = "Library " + name + " already exists";
      revert();
      return false;
    }
    replaced.push_back(Unlink(name));
  }
  for (const auto& [lower, f] : other.functions_) {
    if (functions_.count(lower) != 0) {
      *error = "Function " + f->name + " already exists";
      revert();
      return false;
    }
  }
  for (auto& [name, library] : other.libraries_) Link(std::move(library));
  other.libraries_.clear();
  other.functions_.clear();
  other.memory_ = 0;
  for (auto& library : replaced) Release(*library);
  return true;
}

void FunctionLibraries::Swap(FunctionLibraries& other) {
  std::swap(libraries_, other.libraries_);
  std::swap(functions_, other.functions_);
  std::swap(memory_, other.memory_);
}

const FunctionInfo* FunctionLibraries::Find(std::string_view name) const {
  auto it = functions_.find(Lower(name));
  return it == functions_.end() ? nullptr : it->second;
}

void FunctionLibraries::Link(std::unique_ptr<Library> library) {
  for (const auto& [name, f] : library->functions) functions_[Lower(name)] = &f;
  memory_ += LibraryMemory(*library);
  std::string name = library->name;
  libraries_[name] = std::move(library);
}

std::unique_ptr<Library> FunctionLibraries::Unlink(const std::string& name) {
  auto it = libraries_.find(name);
  std::unique_ptr<Library> library = std::move(it->second);
  libraries_.erase(it);
  for (const auto& [fname, f] : library->functions) functions_.erase(Lower(fname));
  memory_ -= LibraryMemory(*library);
  return library;
}

void FunctionLibraries::Release(Library& library) {
  for (auto& [name, f] : library.functions) lua_->Release(f.ref);
  library.functions.clear();
}

}  // namespace redlab::server::scripting
