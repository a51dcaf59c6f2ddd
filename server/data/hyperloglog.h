// Redis's hyperloglog.c representation: a HyperLogLog is a string value, "HYLL", an encoding
// byte (0 dense, 1 sparse), 3 unused bytes, an 8-byte little-endian cached cardinality (its top
// bit set: stale), then 16384 6-bit registers either packed (dense, 12288 bytes) or run-length
// coded (sparse: ZERO, XZERO and VAL opcodes). Every operation edits the bytes as Redis does, so
// a value made by redis-server works here and the other way round, byte for byte.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace redlab::server::hll {

inline constexpr int kRegisters = 16384;
inline constexpr size_t kHeaderSize = 16;
inline constexpr size_t kDenseSize = kHeaderSize + (kRegisters * 6 + 7) / 8;
inline constexpr uint8_t kDense = 0;
inline constexpr uint8_t kSparse = 1;

// The error Redis replies for a value whose registers cannot be decoded.
inline constexpr std::string_view kInvalidError = "-INVALIDOBJ Corrupted HLL object detected";
// The error for a string that is not a HyperLogLog at all.
inline constexpr std::string_view kNotHllError =
    "-WRONGTYPE Key is not a valid HyperLogLog string value.";

using Registers = std::array<uint8_t, kRegisters>;

uint64_t MurmurHash64A(const void* key, int len, unsigned int seed);

// The register an element falls in and its run of zeroes plus one (hllPatLen).
int PatternLength(std::string_view element, long* index);

// An empty HyperLogLog, sparse, as Redis creates it.
std::string Create();

// Redis's isHLLObject checks: the magic, a known encoding, a dense value's exact length.
bool LooksValid(std::string_view value);

uint8_t Encoding(std::string_view value);

// Adds one element; 1 when a register changed, 0 when none did, -1 when the value is corrupt. A
// sparse value that would grow past `sparse_max_bytes` (or needs a register above 32) becomes
// dense.
int Add(std::string* value, std::string_view element, size_t sparse_max_bytes);

// Sets register `index` to `count` if that is larger (hllSparseSet / hllDenseSet).
int SetRegister(std::string* value, long index, uint8_t count, size_t sparse_max_bytes);

// Converts a sparse value to dense; false when it is corrupt (the value is left alone).
bool SparseToDense(std::string* value);

// max[i] = MAX(max[i], register i); false when the value is corrupt.
bool MergeInto(Registers* max, std::string_view value);

// The estimate of the registers (Ertl's estimator, as Redis 7.0); `invalid` is set when a sparse
// value does not cover exactly 16384 registers.
uint64_t Count(std::string_view value, bool* invalid);
uint64_t CountRegisters(const Registers& registers);

// The cached cardinality, if valid; storing one clears the stale bit.
bool CachedCount(std::string_view value, uint64_t* card);
void StoreCount(std::string* value, uint64_t card);
void InvalidateCache(std::string* value);

// Register i of a dense value.
uint8_t DenseRegister(std::string_view value, int i);

// PFDEBUG DECODE's text of a sparse value ("z:12 v:3,1 Z:16371").
std::string DecodeSparse(std::string_view value);

// PFSELFTEST: empty when every check passes, else Redis's TESTFAILED text.
std::string SelfTest(size_t sparse_max_bytes);

}  // namespace redlab::server::hll
