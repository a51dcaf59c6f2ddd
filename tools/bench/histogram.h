// An HDR histogram (Gil Tene's HdrHistogram, as HdrHistogram_c lays it out): integer values from
// 1 to a highest trackable value kept to a fixed number of significant decimal digits, in
// power-of-two buckets of linear sub-buckets. Debian packages no C/C++ HdrHistogram, so this is
// the small part `redlab bench` needs: record, percentiles, min/max/mean, add, and the counts
// array that hdr_log.h encodes.
#pragma once

#include <cstdint>
#include <vector>

namespace redlab::tools::bench {

class Histogram {
 public:
  // Tracks 1..`highest` with `significant_figures` (1..5) digits of precision.
  Histogram(int64_t highest, int significant_figures);

  // Values above the highest trackable are recorded as the highest (and counted in clamped()).
  void Record(int64_t value, int64_t count = 1);
  void Add(const Histogram& other);  // same layout required
  void Reset();

  int64_t total_count() const { return total_count_; }
  int64_t clamped() const { return clamped_; }
  int64_t min() const;  // 0 when empty
  int64_t max() const;  // 0 when empty; the highest equivalent value of the largest recorded
  double mean() const;
  // The value at `percentile` (0..100), as hdr_value_at_percentile: the highest value
  // equivalent to the smallest recorded value with at least that share of the count at or
  // below it. 0 when empty.
  int64_t ValueAtPercentile(double percentile) const;

  // Equivalence: values that share a counting slot.
  int64_t LowestEquivalent(int64_t value) const;
  int64_t HighestEquivalent(int64_t value) const;

  // The layout, as HdrHistogram's encodings carry it.
  int64_t lowest_trackable() const { return 1; }
  int64_t highest_trackable() const { return highest_; }
  int significant_figures() const { return significant_figures_; }
  const std::vector<int64_t>& counts() const { return counts_; }
  // The counts index of `value`, and the (lowest) value of a counts index.
  int CountsIndex(int64_t value) const;
  int64_t ValueAtIndex(int index) const;

 private:
  int BucketIndex(int64_t value) const;

  int64_t highest_;
  int significant_figures_;
  int sub_bucket_half_count_magnitude_ = 0;
  int64_t sub_bucket_count_ = 0;
  int64_t sub_bucket_half_count_ = 0;
  int64_t sub_bucket_mask_ = 0;
  int bucket_count_ = 0;
  std::vector<int64_t> counts_;
  int64_t total_count_ = 0;
  int64_t clamped_ = 0;
  int64_t min_ = INT64_MAX;
  int64_t max_ = 0;
};

}  // namespace redlab::tools::bench
