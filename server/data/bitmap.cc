#include "server/data/bitmap.h"

#include <bit>
#include <cstring>

namespace redlab::server::bitmap {

uint64_t PopCount(std::string_view bytes) {
  const char* p = bytes.data();
  size_t n = bytes.size();
  uint64_t count = 0;
  // Eight bytes at a time; memcpy keeps the loads legal at any alignment.
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    count += static_cast<uint64_t>(std::popcount(word));
  }
  for (; n > 0; ++p, --n) count += static_cast<uint64_t>(std::popcount(static_cast<uint8_t>(*p)));
  return count;
}

int64_t FirstBit(std::string_view bytes, int bit) {
  const unsigned char skip = bit ? 0x00 : 0xff;
  const uint64_t skip_word = bit ? 0 : ~uint64_t{0};
  size_t i = 0;
  // Whole words that cannot hold the bit are skipped eight bytes at a time.
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, bytes.data() + i, 8);
    if (word != skip_word) break;
  }
  for (; i < bytes.size(); ++i) {
    auto byte = static_cast<unsigned char>(bytes[i]);
    if (byte == skip) continue;
    auto wanted = static_cast<uint8_t>(bit ? byte : ~byte);
    return static_cast<int64_t>(i * 8) + std::countl_zero(wanted);
  }
  return bit ? -1 : static_cast<int64_t>(bytes.size() * 8);
}

uint64_t GetUnsigned(std::string_view bytes, uint64_t offset, int bits) {
  uint64_t value = 0;
  for (int j = 0; j < bits; ++j, ++offset) {
    uint64_t byte = offset >> 3;
    uint64_t bit = 0;
    if (byte < bytes.size()) {
      bit = (static_cast<unsigned char>(bytes[byte]) >> (7 - (offset & 7))) & 1;
    }
    value = (value << 1) | bit;
  }
  return value;
}

int64_t GetSigned(std::string_view bytes, uint64_t offset, int bits) {
  uint64_t value = GetUnsigned(bytes, offset, bits);
  // Two's complement: a set top bit extends to every higher bit.
  if (bits < 64 && (value & (uint64_t{1} << (bits - 1)))) value |= ~uint64_t{0} << bits;
  return static_cast<int64_t>(value);
}

void SetBits(unsigned char* p, uint64_t offset, int bits, uint64_t value) {
  for (int j = 0; j < bits; ++j, ++offset) {
    unsigned bit = (value >> (bits - 1 - j)) & 1;
    unsigned shift = 7 - (offset & 7);
    unsigned char& byte = p[offset >> 3];
    byte = static_cast<unsigned char>((byte & ~(1u << shift)) | (bit << shift));
  }
}

int CheckUnsignedOverflow(uint64_t value, int64_t incr, int bits, Overflow overflow,
                          uint64_t* limit) {
  const uint64_t max = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
  // As Redis computes them: differences taken as signed 64-bit values.
  const auto max_incr = static_cast<int64_t>(max - value);
  const auto min_incr = static_cast<int64_t>(uint64_t{0} - value);
  auto wrap = [&] {
    uint64_t res = value + static_cast<uint64_t>(incr);
    if (bits < 64) res &= ~(~uint64_t{0} << bits);
    *limit = res;
  };
  if (value > max || (incr > 0 && incr > max_incr)) {
    if (limit != nullptr) {
      if (overflow == Overflow::kWrap) {
        wrap();
      } else if (overflow == Overflow::kSat) {
        *limit = max;
      }
    }
    return 1;
  }
  if (incr < 0 && incr < min_incr) {
    if (limit != nullptr) {
      if (overflow == Overflow::kWrap) {
        wrap();
        return 1;  // Redis reports a wrapped underflow as an overflow too
      }
      if (overflow == Overflow::kSat) *limit = 0;
    }
    return -1;
  }
  return 0;
}

int CheckSignedOverflow(int64_t value, int64_t incr, int bits, Overflow overflow, int64_t* limit) {
  const int64_t max = bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
  const int64_t min = -max - 1;
  // Redis computes these with wrapping arithmetic and uses them only where they are meaningful
  // (or where its results, however odd, are what clients see).
  const auto max_incr =
      static_cast<int64_t>(static_cast<uint64_t>(max) - static_cast<uint64_t>(value));
  const auto min_incr =
      static_cast<int64_t>(static_cast<uint64_t>(min) - static_cast<uint64_t>(value));
  auto wrap = [&] {
    uint64_t c = static_cast<uint64_t>(value) + static_cast<uint64_t>(incr);
    if (bits < 64) {
      uint64_t mask = ~uint64_t{0} << bits;
      if (c & (uint64_t{1} << (bits - 1))) {
        c |= mask;
      } else {
        c &= ~mask;
      }
    }
    *limit = static_cast<int64_t>(c);
  };
  if (value > max || (bits != 64 && incr > max_incr) ||
      (value >= 0 && incr > 0 && incr > max_incr)) {
    if (limit != nullptr) {
      if (overflow == Overflow::kWrap) {
        wrap();
      } else if (overflow == Overflow::kSat) {
        *limit = max;
      }
    }
    return 1;
  }
  if (value < min || (bits != 64 && incr < min_incr) ||
      (value < 0 && incr < 0 && incr < min_incr)) {
    if (limit != nullptr) {
      if (overflow == Overflow::kWrap) {
        wrap();
        return 1;  // as Redis: a wrapped underflow is reported as an overflow
      }
      if (overflow == Overflow::kSat) *limit = min;
    }
    return -1;
  }
  return 0;
}

}  // namespace redlab::server::bitmap
