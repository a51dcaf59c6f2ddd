// Bit-level operations on string values for the bitmap commands (Redis's bitops.c): counting and
// searching bits, and reading or writing integers of 1 to 64 bits at any bit offset. Bit 0 is the
// most significant bit of the first byte, as SETBIT numbers bits.
#pragma once

#include <cstdint>
#include <string_view>

namespace redlab::server::bitmap {

// The number of bits set in `bytes`.
uint64_t PopCount(std::string_view bytes);

// The position of the first bit equal to `bit` (0 or 1) in `bytes`. When there is none: -1 when
// looking for a 1, and bytes.size() * 8 when looking for a 0 (a string reads as followed by zero
// bits), as Redis's redisBitpos.
int64_t FirstBit(std::string_view bytes, int bit);

// The `bits`-wide integer at bit `offset` of `bytes`; bits past the end read as zeros.
uint64_t GetUnsigned(std::string_view bytes, uint64_t offset, int bits);
// The same read as two's complement: the top bit of the field is the sign.
int64_t GetSigned(std::string_view bytes, uint64_t offset, int bits);
// Writes the low `bits` bits of `value` at bit `offset` of `p`, which must hold them.
void SetBits(unsigned char* p, uint64_t offset, int bits, uint64_t value);

// What BITFIELD does when a SET or INCRBY result does not fit its type.
enum class Overflow { kWrap, kSat, kFail };

// Redis's checkUnsignedBitfieldOverflow / checkSignedBitfieldOverflow: whether `value` + `incr`
// fits a `bits`-wide integer: 0 when it does, 1 on overflow, -1 on underflow. When it does not,
// *limit receives the value to store instead (wrapped for kWrap, the bound for kSat). Redis's
// exact comparisons are kept, including their corner cases for values far outside the type.
int CheckUnsignedOverflow(uint64_t value, int64_t incr, int bits, Overflow overflow,
                          uint64_t* limit);
int CheckSignedOverflow(int64_t value, int64_t incr, int bits, Overflow overflow, int64_t* limit);

}  // namespace redlab::server::bitmap
