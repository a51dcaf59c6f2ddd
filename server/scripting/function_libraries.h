// The libraries FUNCTION LOAD made and the functions they registered (Redis's functionsLibCtx):
// creating a library from its code, replacing and deleting one, and joining a set of libraries
// into another as FUNCTION RESTORE does, with Redis's checks and error texts. The functions live
// in the functions-mode Interpreter given at construction, which several sets may share (RESTORE
// builds its libraries in a set of their own before joining them to the node's).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "server/scripting/interpreter.h"

namespace redlab::server::scripting {

struct FunctionInfo {
  std::string name;
  std::optional<std::string> description;
  uint64_t flags = 0;  // ScriptFlag bits
  int ref = 0;         // the callback in the interpreter
};

struct Library {
  std::string name;
  std::string code;  // the whole payload, shebang line included (WITHCODE, DUMP)
  // By name, case-sensitive (two functions may differ only in case until they are linked).
  std::map<std::string, FunctionInfo> functions;
};

// The one engine there is; Redis names engines in upper case.
inline constexpr std::string_view kLuaEngineName = "LUA";

// What a library's shebang line says (functionExtractLibMetaData).
struct LibraryMetadata {
  std::string engine;
  std::string name;
  size_t code_start = 0;  // the code starts at the newline ending the shebang line
};
bool ParseLibraryMetadata(std::string_view payload, LibraryMetadata* metadata, std::string* error);

// Function and library names: letters, digits and underscores, at least one.
bool ValidFunctionName(std::string_view name);

class FunctionLibraries {
 public:
  explicit FunctionLibraries(Interpreter* lua) : lua_(lua) {}
  ~FunctionLibraries();
  FunctionLibraries(const FunctionLibraries&) = delete;
  FunctionLibraries& operator=(const FunctionLibraries&) = delete;

  // FUNCTION LOAD [REPLACE] (functionsCreateWithLibraryCtx): compiles and runs `code`, then adds
  // the library, replacing the one of the same name when `replace`. Returns the library's name,
  // or nullopt with the error text; a failure leaves the set as it was.
  std::optional<std::string> Create(std::string_view code, bool replace, int64_t timeout_ms,
                                    std::string* error);
  // FUNCTION DELETE: false when there is no library of that (case-sensitive) name.
  bool Delete(std::string_view name);
  // FUNCTION FLUSH.
  void Clear();
  // FUNCTION RESTORE APPEND/REPLACE (libraryJoin): moves every library of `other` here, which
  // empties it. A library name taken here fails the join, unless `replace` (the old one then
  // goes); a function name taken here fails it always. On failure both sets stay as they were.
  bool Join(FunctionLibraries& other, bool replace, std::string* error);
  // FUNCTION RESTORE FLUSH: exchanges the contents of two sets.
  void Swap(FunctionLibraries& other);

  // The function of this name, ignoring case (FCALL), or nullptr.
  const FunctionInfo* Find(std::string_view name) const;

  const std::map<std::string, std::unique_ptr<Library>>& libraries() const { return libraries_; }
  size_t function_count() const { return functions_.size(); }
  // Bytes held for names, descriptions and code (INFO used_memory_functions, less the fixed
  // part).
  size_t memory() const { return memory_; }

 private:
  void Link(std::unique_ptr<Library> library);
  std::unique_ptr<Library> Unlink(const std::string& name);
  void Release(Library& library);

  Interpreter* lua_;
  std::map<std::string, std::unique_ptr<Library>> libraries_;       // by name, case-sensitive
  std::unordered_map<std::string, const FunctionInfo*> functions_;  // by lower-case name
  size_t memory_ = 0;
};

}  // namespace redlab::server::scripting
