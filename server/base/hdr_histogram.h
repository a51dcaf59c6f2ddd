// The HDR histogram Redis keeps per command for INFO latencystats (its deps/hdr_histogram with
// lowest 1 ns, highest 1e9 ns and 2 significant digits): 24 ranges of 128 sub-buckets, each range
// twice as wide as the one before, and value_at_percentile answered as that library answers it
// (the highest value equivalent to the bucket where the count is reached). The counts are
// allocated on the first record, as Redis allocates a command's histogram on its first call.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace redlab::server {

class HdrHistogram {
 public:
  static constexpr int64_t kLowest = 1;
  static constexpr int64_t kHighest = 1000000000;
  static constexpr int kSubBucketHalfCountMagnitude = 7;  // 2 significant digits: 256 sub-buckets
  static constexpr int64_t kSubBucketHalfCount = int64_t{1} << kSubBucketHalfCountMagnitude;
  static constexpr int64_t kSubBucketMask = 2 * kSubBucketHalfCount - 1;
  static constexpr int kBucketCount = 23;  // until 256 * 2^22 exceeds kHighest
  static constexpr size_t kCountsLen = (kBucketCount + 1) * kSubBucketHalfCount;

  void Record(int64_t value_ns) {
    if (counts_.empty()) counts_.assign(kCountsLen, 0);
    value_ns = std::clamp(value_ns, kLowest, kHighest);
    ++counts_[CountsIndex(value_ns)];
    ++total_;
  }
  bool empty() const { return total_ == 0; }
  int64_t total() const { return total_; }

  // hdr_value_at_percentile.
  int64_t ValueAtPercentile(double percentile) const {
    double requested = std::min(percentile, 100.0);
    auto count_at = static_cast<int64_t>(requested / 100 * static_cast<double>(total_) + 0.5);
    count_at = std::max<int64_t>(count_at, 1);
    int64_t seen = 0;
    for (size_t i = 0; i < counts_.size(); ++i) {
      seen += static_cast<int64_t>(counts_[i]);
      if (seen >= count_at) {
        int64_t value = ValueAtIndex(i);
        return percentile == 0.0 ? LowestEquivalent(value) : HighestEquivalent(value);
      }
    }
    return 0;
  }

  static int BucketIndex(int64_t value) {
    int pow2ceiling = 64 - std::countl_zero(static_cast<uint64_t>(value | kSubBucketMask));
    return pow2ceiling - (kSubBucketHalfCountMagnitude + 1);
  }
  static int64_t SubBucketIndex(int64_t value, int bucket) { return value >> bucket; }
  static size_t CountsIndex(int64_t value) {
    int bucket = BucketIndex(value);
    int64_t base = static_cast<int64_t>(bucket + 1) << kSubBucketHalfCountMagnitude;
    return static_cast<size_t>(base + SubBucketIndex(value, bucket) - kSubBucketHalfCount);
  }
  static int64_t ValueAtIndex(size_t index) {
    int bucket = static_cast<int>(index >> kSubBucketHalfCountMagnitude) - 1;
    int64_t sub = static_cast<int64_t>(index & (kSubBucketHalfCount - 1)) + kSubBucketHalfCount;
    if (bucket < 0) {
      sub -= kSubBucketHalfCount;
      bucket = 0;
    }
    return sub << bucket;
  }
  static int64_t LowestEquivalent(int64_t value) {
    int bucket = BucketIndex(value);
    return SubBucketIndex(value, bucket) << bucket;
  }
  static int64_t HighestEquivalent(int64_t value) {
    int bucket = BucketIndex(value);
    int64_t sub = SubBucketIndex(value, bucket);
    int adjusted = sub >= 2 * kSubBucketHalfCount ? bucket + 1 : bucket;
    return LowestEquivalent(value) + (int64_t{1} << adjusted) - 1;
  }

 private:
  std::vector<uint64_t> counts_;
  int64_t total_ = 0;
};

}  // namespace redlab::server
