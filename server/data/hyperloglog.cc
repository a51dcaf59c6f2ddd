// Redis's hyperloglog.c: MurmurHash64A, the dense and sparse encodings and their in-place
// updates (including the opcode splits and merges whose bytes GET shows), and the estimator.
#include "server/data/hyperloglog.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace redlab::server::hll {
namespace {

constexpr int kP = 14;
constexpr int kQ = 64 - kP;
constexpr uint64_t kPMask = kRegisters - 1;
constexpr int kRegisterMax = 63;
constexpr int kValMaxValue = 32;
constexpr int kValMaxLen = 4;
constexpr int kZeroMaxLen = 64;
constexpr int kXZeroMaxLen = 16384;
constexpr double kAlphaInf = 0.721347520444481703680;

bool IsZero(const uint8_t* p) { return (*p & 0xc0) == 0; }
bool IsXZero(const uint8_t* p) { return (*p & 0xc0) == 0x40; }
bool IsVal(const uint8_t* p) { return (*p & 0x80) != 0; }
int ZeroLen(const uint8_t* p) { return (*p & 0x3f) + 1; }
int XZeroLen(const uint8_t* p) { return (((*p & 0x3f) << 8) | p[1]) + 1; }
int ValValue(const uint8_t* p) { return ((*p >> 2) & 0x1f) + 1; }
int ValLen(const uint8_t* p) { return (*p & 0x3) + 1; }
void ValSet(uint8_t* p, int val, int len) {
  *p = static_cast<uint8_t>(((val - 1) << 2 | (len - 1)) | 0x80);
}
void ZeroSet(uint8_t* p, int len) { *p = static_cast<uint8_t>(len - 1); }
void XZeroSet(uint8_t* p, int len) {
  int l = len - 1;
  p[0] = static_cast<uint8_t>((l >> 8) | 0x40);
  p[1] = static_cast<uint8_t>(l & 0xff);
}

uint8_t GetDense(const uint8_t* regs, long regnum) {
  unsigned long byte = regnum * 6 / 8;
  unsigned long fb = regnum * 6 & 7;
  unsigned long fb8 = 8 - fb;
  unsigned long b0 = regs[byte];
  unsigned long b1 = regs[byte + 1];
  return static_cast<uint8_t>(((b0 >> fb) | (b1 << fb8)) & kRegisterMax);
}

// As HLL_DENSE_SET_REGISTER: the byte after the last register's is the string's terminator in
// Redis; a dense value here has no such byte, so the last register must not write past the end.
void SetDense(uint8_t* regs, long regnum, uint8_t val, size_t size) {
  unsigned long byte = regnum * 6 / 8;
  unsigned long fb = regnum * 6 & 7;
  unsigned long fb8 = 8 - fb;
  unsigned long v = val;
  regs[byte] &= static_cast<uint8_t>(~(kRegisterMax << fb));
  regs[byte] |= static_cast<uint8_t>(v << fb);
  if (byte + 1 < size) {
    regs[byte + 1] &= static_cast<uint8_t>(~(kRegisterMax >> fb8));
    regs[byte + 1] |= static_cast<uint8_t>(v >> fb8);
  }
}

constexpr size_t kDenseRegBytes = kDenseSize - kHeaderSize;

uint8_t* Regs(std::string* value) {
  return reinterpret_cast<uint8_t*>(value->data()) + kHeaderSize;
}
const uint8_t* Regs(std::string_view value) {
  return reinterpret_cast<const uint8_t*>(value.data()) + kHeaderSize;
}

int DenseSet(uint8_t* regs, long index, uint8_t count) {
  if (count > GetDense(regs, index)) {
    SetDense(regs, index, count, kDenseRegBytes);
    return 1;
  }
  return 0;
}

double Sigma(double x) {
  if (x == 1.) return INFINITY;
  double z_prime;
  double y = 1;
  double z = x;
  do {
    x *= x;
    z_prime = z;
    z += x * y;
    y += y;
  } while (z_prime != z);
  return z;
}

double Tau(double x) {
  if (x == 0. || x == 1.) return 0.;
  double z_prime;
  double y = 1.0;
  double z = 1 - x;
  do {
    x = std::sqrt(x);
    z_prime = z;
    y *= 0.5;
    z -= std::pow(1 - x, 2) * y;
  } while (z_prime != z);
  return z / 3;
}

uint64_t Estimate(const int* reghisto) {
  double m = kRegisters;
  double z = m * Tau((m - reghisto[kQ + 1]) / m);
  for (int j = kQ; j >= 1; --j) {
    z += reghisto[j];
    z *= 0.5;
  }
  z += m * Sigma(reghisto[0] / m);
  return static_cast<uint64_t>(llroundl(kAlphaInf * m * m / z));
}

}  // namespace

uint64_t MurmurHash64A(const void* key, int len, unsigned int seed) {
  const uint64_t m = 0xc6a4a7935bd1e995ULL;
  const int r = 47;
  uint64_t h = seed ^ (len * m);
  const uint8_t* data = static_cast<const uint8_t*>(key);
  const uint8_t* end = data + (len - (len & 7));
  while (data != end) {
    uint64_t k;
    std::memcpy(&k, data, sizeof(k));  // little-endian, as on Redis's x86/ARM builds
    k *= m;
    k ^= k >> r;
    k *= m;
    h ^= k;
    h *= m;
    data += 8;
  }
  switch (len & 7) {
    case 7: h ^= static_cast<uint64_t>(data[6]) << 48; [[fallthrough]];
    case 6: h ^= static_cast<uint64_t>(data[5]) << 40; [[fallthrough]];
    case 5: h ^= static_cast<uint64_t>(data[4]) << 32; [[fallthrough]];
    case 4: h ^= static_cast<uint64_t>(data[3]) << 24; [[fallthrough]];
    case 3: h ^= static_cast<uint64_t>(data[2]) << 16; [[fallthrough]];
    case 2: h ^= static_cast<uint64_t>(data[1]) << 8; [[fallthrough]];
    case 1:
      h ^= static_cast<uint64_t>(data[0]);
      h *= m;
  }
  h ^= h >> r;
  h *= m;
  h ^= h >> r;
  return h;
}

int PatternLength(std::string_view element, long* index) {
  uint64_t hash = MurmurHash64A(element.data(), static_cast<int>(element.size()), 0xadc83b19ULL);
  *index = static_cast<long>(hash & kPMask);
  hash >>= kP;
  hash |= uint64_t{1} << kQ;
  uint64_t bit = 1;
  int count = 1;
  while ((hash & bit) == 0) {
    ++count;
    bit <<= 1;
  }
  return count;
}

std::string Create() {
  std::string s(kHeaderSize + 2, '\0');
  std::memcpy(s.data(), "HYLL", 4);
  s[4] = static_cast<char>(kSparse);
  XZeroSet(reinterpret_cast<uint8_t*>(s.data()) + kHeaderSize, kXZeroMaxLen);
  return s;
}

bool LooksValid(std::string_view value) {
  if (value.size() < kHeaderSize) return false;
  if (value.substr(0, 4) != "HYLL") return false;
  uint8_t encoding = static_cast<uint8_t>(value[4]);
  if (encoding > kSparse) return false;
  return encoding != kDense || value.size() == kDenseSize;
}

uint8_t Encoding(std::string_view value) { return static_cast<uint8_t>(value[4]); }

namespace {

// Walks the opcodes of a sparse representation from the first register, calling
// on_run(first_register, run_length, value) for each run (value 0 for ZERO and XZERO, 1..32 for
// VAL); a false from on_run stops the walk before the run is counted. `*covered` is the number
// of registers walked. Returns false when an XZERO opcode is cut short by the end.
template <typename OnRun>
bool ForEachSparseRun(std::string_view value, long* covered, OnRun on_run) {
  const uint8_t* p = Regs(value);
  const uint8_t* end = reinterpret_cast<const uint8_t*>(value.data()) + value.size();
  *covered = 0;
  while (p < end) {
    long runlen = 0;
    uint8_t regval = 0;
    if (IsZero(p)) {
      runlen = ZeroLen(p);
      ++p;
    } else if (IsXZero(p)) {
      if (p + 1 >= end) return false;
      runlen = XZeroLen(p);
      p += 2;
    } else {
      runlen = ValLen(p);
      regval = static_cast<uint8_t>(ValValue(p));
      ++p;
    }
    if (!on_run(*covered, runlen, regval)) return true;
    *covered += runlen;
  }
  return true;
}

}  // namespace

bool SparseToDense(std::string* value) {
  if (Encoding(*value) == kDense) return true;
  std::string dense(kDenseSize, '\0');
  std::memcpy(dense.data(), value->data(), kHeaderSize);  // magic and cached cardinality
  dense[4] = static_cast<char>(kDense);
  uint8_t* regs = Regs(&dense);
  long idx = 0;
  bool whole = ForEachSparseRun(*value, &idx, [&](long first, long runlen, uint8_t regval) {
    if (regval == 0) return true;
    if (runlen + first > kRegisters) return false;
    for (long i = 0; i < runlen; ++i) SetDense(regs, first + i, regval, kDenseRegBytes);
    return true;
  });
  if (!whole || idx != kRegisters) return false;
  *value = std::move(dense);
  return true;
}

namespace {

int Promote(std::string* value, long index, uint8_t count) {
  if (!SparseToDense(value)) return -1;
  DenseSet(Regs(value), index, count);
  return 1;
}

int SparseSet(std::string* value, long index, uint8_t count, size_t sparse_max_bytes) {
  if (count > kValMaxValue) return Promote(value, index, count);
  // Room for the worst case (XZERO split into XZERO-VAL-XZERO), as sdsMakeRoomFor.
  size_t used = value->size();
  value->resize(used + 3);
  uint8_t* sparse = Regs(value);
  uint8_t* p = sparse;
  uint8_t* end = reinterpret_cast<uint8_t*>(value->data()) + used;
  auto finish = [&](uint8_t* new_end) {
    value->resize(static_cast<size_t>(new_end - reinterpret_cast<uint8_t*>(value->data())));
  };
  long first = 0;
  long span = 0;
  uint8_t* prev = nullptr;
  while (p < end) {
    long oplen = 1;
    if (IsZero(p)) {
      span = ZeroLen(p);
    } else if (IsVal(p)) {
      span = ValLen(p);
    } else {
      span = XZeroLen(p);
      oplen = 2;
    }
    if (index <= first + span - 1) break;
    prev = p;
    p += oplen;
    first += span;
  }
  if (span == 0 || p >= end) {
    finish(end);
    return -1;
  }
  uint8_t* next = IsXZero(p) ? p + 2 : p + 1;
  if (next >= end) next = nullptr;
  bool is_zero = false, is_xzero = false, is_val = false;
  long runlen = 0;
  if (IsZero(p)) {
    is_zero = true;
    runlen = ZeroLen(p);
  } else if (IsXZero(p)) {
    is_xzero = true;
    runlen = XZeroLen(p);
  } else {
    is_val = true;
    runlen = ValLen(p);
  }
  bool updated = false;
  if (is_val) {
    int oldcount = ValValue(p);
    if (oldcount >= count) {
      finish(end);
      return 0;
    }
    if (runlen == 1) {
      ValSet(p, count, 1);
      updated = true;
    }
  }
  if (!updated && is_zero && runlen == 1) {
    ValSet(p, count, 1);
    updated = true;
  }
  if (!updated) {
    uint8_t seq[5];
    uint8_t* n = seq;
    long last = first + span - 1;
    auto zeros = [&n](long len) {
      if (len > kZeroMaxLen) {
        XZeroSet(n, static_cast<int>(len));
        n += 2;
      } else {
        ZeroSet(n, static_cast<int>(len));
        ++n;
      }
    };
    if (is_zero || is_xzero) {
      if (index != first) zeros(index - first);
      ValSet(n++, count, 1);
      if (index != last) zeros(last - index);
    } else {
      int curval = ValValue(p);
      if (index != first) ValSet(n++, curval, static_cast<int>(index - first));
      ValSet(n++, count, 1);
      if (index != last) ValSet(n++, curval, static_cast<int>(last - index));
    }
    long seqlen = n - seq;
    long oldlen = is_xzero ? 2 : 1;
    long deltalen = seqlen - oldlen;
    if (deltalen > 0 && used + deltalen > sparse_max_bytes) {
      finish(end);
      return Promote(value, index, count);
    }
    if (deltalen && next) std::memmove(next + deltalen, next, end - next);
    std::memcpy(p, seq, seqlen);
    end += deltalen;
  }
  // Merge adjacent VAL opcodes of the same value, scanning up to 5 opcodes from prev.
  p = prev ? prev : sparse;
  int scanlen = 5;
  while (p < end && scanlen--) {
    if (IsXZero(p)) {
      p += 2;
      continue;
    } else if (IsZero(p)) {
      ++p;
      continue;
    }
    if (p + 1 < end && IsVal(p + 1)) {
      int v1 = ValValue(p);
      int v2 = ValValue(p + 1);
      if (v1 == v2) {
        int len = ValLen(p) + ValLen(p + 1);
        if (len <= kValMaxLen) {
          ValSet(p + 1, v1, len);
          std::memmove(p, p + 1, end - p);
          --end;
          continue;
        }
      }
    }
    ++p;
  }
  finish(end);
  InvalidateCache(value);
  return 1;
}

}  // namespace

int SetRegister(std::string* value, long index, uint8_t count, size_t sparse_max_bytes) {
  switch (Encoding(*value)) {
    case kDense: return DenseSet(Regs(value), index, count);
    case kSparse: return SparseSet(value, index, count, sparse_max_bytes);
    default: return -1;
  }
}

int Add(std::string* value, std::string_view element, size_t sparse_max_bytes) {
  long index = 0;
  uint8_t count = static_cast<uint8_t>(PatternLength(element, &index));
  return SetRegister(value, index, count, sparse_max_bytes);
}

bool MergeInto(Registers* max, std::string_view value) {
  if (Encoding(value) == kDense) {
    for (int i = 0; i < kRegisters; ++i) {
      uint8_t val = GetDense(Regs(value), i);
      if (val > (*max)[i]) (*max)[i] = val;
    }
    return true;
  }
  long i = 0;
  bool whole = ForEachSparseRun(value, &i, [&](long first, long runlen, uint8_t regval) {
    if (regval == 0) return true;
    if (runlen + first > kRegisters) return false;
    for (long j = first; j < first + runlen; ++j) {
      if (regval > (*max)[j]) (*max)[j] = regval;
    }
    return true;
  });
  return whole && i == kRegisters;
}

uint64_t Count(std::string_view value, bool* invalid) {
  int reghisto[64] = {0};
  if (Encoding(value) == kDense) {
    for (int j = 0; j < kRegisters; ++j) reghisto[GetDense(Regs(value), j)]++;
  } else {
    long idx = 0;
    ForEachSparseRun(value, &idx, [&](long, long runlen, uint8_t regval) {
      reghisto[regval] += static_cast<int>(runlen);
      return true;
    });
    if (idx != kRegisters && invalid) *invalid = true;
  }
  return Estimate(reghisto);
}

uint64_t CountRegisters(const Registers& registers) {
  int reghisto[64] = {0};
  for (uint8_t r : registers) reghisto[r & 63]++;
  return Estimate(reghisto);
}

bool CachedCount(std::string_view value, uint64_t* card) {
  const auto* c = reinterpret_cast<const uint8_t*>(value.data()) + 8;
  if (c[7] & 0x80) return false;
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | c[i];
  *card = v;
  return true;
}

void StoreCount(std::string* value, uint64_t card) {
  for (int i = 0; i < 8; ++i) (*value)[8 + i] = static_cast<char>((card >> (8 * i)) & 0xff);
}

void InvalidateCache(std::string* value) {
  (*value)[15] = static_cast<char>(static_cast<uint8_t>((*value)[15]) | 0x80);
}

uint8_t DenseRegister(std::string_view value, int i) { return GetDense(Regs(value), i); }

std::string DecodeSparse(std::string_view value) {
  std::string out;
  const uint8_t* p = Regs(value);
  const uint8_t* end = reinterpret_cast<const uint8_t*>(value.data()) + value.size();
  while (p < end) {
    if (!out.empty()) out += ' ';
    if (IsZero(p)) {
      out += "z:" + std::to_string(ZeroLen(p));
      ++p;
    } else if (IsXZero(p)) {
      if (p + 1 >= end) break;
      out += "Z:" + std::to_string(XZeroLen(p));
      p += 2;
    } else {
      out += "v:" + std::to_string(ValValue(p)) + "," + std::to_string(ValLen(p));
      ++p;
    }
  }
  return out;
}

std::string SelfTest(size_t sparse_max_bytes) {
  // Test 1: every register of a dense array keeps its value and leaves its neighbours alone.
  std::string bitcounters(kDenseSize, '\0');
  uint8_t* regs = Regs(&bitcounters);
  Registers bytecounters{};
  for (int j = 0; j < 1000; ++j) {
    for (int i = 0; i < kRegisters; ++i) {
      unsigned r = static_cast<unsigned>(std::rand()) & kRegisterMax;
      bytecounters[i] = static_cast<uint8_t>(r);
      SetDense(regs, i, static_cast<uint8_t>(r), kDenseRegBytes);
    }
    for (int i = 0; i < kRegisters; ++i) {
      unsigned val = GetDense(regs, i);
      if (val != bytecounters[i]) {
        return "TESTFAILED Register " + std::to_string(i) + " should be " +
               std::to_string(bytecounters[i]) + " but is " + std::to_string(val);
      }
    }
  }
  // Test 2: the estimate's error, dense and sparse side by side.
  std::memset(regs, 0, kDenseRegBytes);
  bitcounters[4] = static_cast<char>(kDense);
  std::memcpy(bitcounters.data(), "HYLL", 4);
  std::string o = Create();
  double relerr = 1.04 / std::sqrt(static_cast<double>(kRegisters));
  int64_t checkpoint = 1;
  uint64_t seed = static_cast<uint64_t>(std::rand()) | static_cast<uint64_t>(std::rand()) << 32;
  for (uint64_t j = 1; j <= 10000000; ++j) {
    uint64_t ele = j ^ seed;
    std::string_view bytes(reinterpret_cast<const char*>(&ele), sizeof(ele));
    long index = 0;
    uint8_t count = static_cast<uint8_t>(PatternLength(bytes, &index));
    DenseSet(regs, index, count);
    Add(&o, bytes, sparse_max_bytes);
    if (static_cast<int64_t>(j) != checkpoint) continue;
    if (j < sparse_max_bytes / 2 && Encoding(o) != kSparse) {
      return "TESTFAILED sparse encoding not used";
    }
    uint64_t dense_count = Count(bitcounters, nullptr);
    if (dense_count != Count(o, nullptr)) return "TESTFAILED dense/sparse disagree";
    int64_t abserr = checkpoint - static_cast<int64_t>(dense_count);
    auto maxerr = static_cast<uint64_t>(std::ceil(relerr * 6 * checkpoint));
    if (j == 10) maxerr = 1;
    if (abserr < 0) abserr = -abserr;
    if (abserr > static_cast<int64_t>(maxerr)) {
      return "TESTFAILED Too big error. card:" + std::to_string(checkpoint) +
             " abserr:" + std::to_string(abserr);
    }
    checkpoint *= 10;
  }
  return std::string();
}

}  // namespace redlab::server::hll
