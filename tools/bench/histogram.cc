// HDR histogram arithmetic, following HdrHistogram_c (unit magnitude 0: lowest value 1).
#include "tools/bench/histogram.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace redlab::tools::bench {

Histogram::Histogram(int64_t highest, int significant_figures)
    : highest_(highest), significant_figures_(significant_figures) {
  if (significant_figures < 1 || significant_figures > 5 || highest < 2) {
    throw std::invalid_argument("histogram: bad range or precision");
  }
  int64_t largest_single_unit = 2 * static_cast<int64_t>(std::pow(10, significant_figures));
  int sub_bucket_count_magnitude =
      static_cast<int>(std::ceil(std::log2(static_cast<double>(largest_single_unit))));
  sub_bucket_half_count_magnitude_ = std::max(sub_bucket_count_magnitude, 1) - 1;
  sub_bucket_count_ = int64_t{1} << (sub_bucket_half_count_magnitude_ + 1);
  sub_bucket_half_count_ = sub_bucket_count_ / 2;
  sub_bucket_mask_ = sub_bucket_count_ - 1;
  int64_t smallest_untrackable = sub_bucket_count_;
  bucket_count_ = 1;
  while (smallest_untrackable <= highest_) {
    if (smallest_untrackable > INT64_MAX / 2) {
      ++bucket_count_;
      break;
    }
    smallest_untrackable <<= 1;
    ++bucket_count_;
  }
  counts_.assign(static_cast<size_t>((bucket_count_ + 1) * sub_bucket_half_count_), 0);
}

int Histogram::BucketIndex(int64_t value) const {
  int pow2ceiling = 64 - __builtin_clzll(static_cast<uint64_t>(value | sub_bucket_mask_));
  return pow2ceiling - (sub_bucket_half_count_magnitude_ + 1);
}

int Histogram::CountsIndex(int64_t value) const {
  int bucket = BucketIndex(value);
  int64_t sub_bucket = value >> bucket;
  int64_t bucket_base = static_cast<int64_t>(bucket + 1) << sub_bucket_half_count_magnitude_;
  return static_cast<int>(bucket_base + (sub_bucket - sub_bucket_half_count_));
}

int64_t Histogram::ValueAtIndex(int index) const {
  int bucket = (index >> sub_bucket_half_count_magnitude_) - 1;
  int64_t sub_bucket = (index & (sub_bucket_half_count_ - 1)) + sub_bucket_half_count_;
  if (bucket < 0) {
    sub_bucket -= sub_bucket_half_count_;
    bucket = 0;
  }
  return sub_bucket << bucket;
}

int64_t Histogram::LowestEquivalent(int64_t value) const {
  int bucket = BucketIndex(value);
  return (value >> bucket) << bucket;
}

int64_t Histogram::HighestEquivalent(int64_t value) const {
  int bucket = BucketIndex(value);
  int64_t sub_bucket = value >> bucket;
  int adjusted = sub_bucket >= sub_bucket_count_ ? bucket + 1 : bucket;
  return LowestEquivalent(value) + (int64_t{1} << adjusted) - 1;
}

void Histogram::Record(int64_t value, int64_t count) {
  if (value < 0) value = 0;
  if (value > highest_) {
    value = highest_;
    clamped_ += count;
  }
  counts_[static_cast<size_t>(CountsIndex(value))] += count;
  total_count_ += count;
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
}

void Histogram::Add(const Histogram& other) {
  if (other.counts_.size() != counts_.size() || other.highest_ != highest_) {
    throw std::invalid_argument("histogram: adding a histogram of another layout");
  }
  for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
  total_count_ += other.total_count_;
  clamped_ += other.clamped_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

void Histogram::Reset() {
  std::fill(counts_.begin(), counts_.end(), 0);
  total_count_ = clamped_ = 0;
  min_ = INT64_MAX;
  max_ = 0;
}

int64_t Histogram::min() const { return total_count_ == 0 ? 0 : LowestEquivalent(min_); }

int64_t Histogram::max() const { return total_count_ == 0 ? 0 : HighestEquivalent(max_); }

double Histogram::mean() const {
  if (total_count_ == 0) return 0;
  double sum = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] == 0) continue;
    int64_t v = ValueAtIndex(static_cast<int>(i));
    // The middle of the slot, as hdr_mean's median equivalent value.
    int64_t median = LowestEquivalent(v) + ((HighestEquivalent(v) - LowestEquivalent(v) + 1) >> 1);
    sum += static_cast<double>(counts_[i]) * static_cast<double>(median);
  }
  return sum / static_cast<double>(total_count_);
}

int64_t Histogram::ValueAtPercentile(double percentile) const {
  if (total_count_ == 0) return 0;
  double requested = std::min(std::max(percentile, 0.0), 100.0);
  auto count_at = static_cast<int64_t>(requested / 100.0 * static_cast<double>(total_count_) + 0.5);
  count_at = std::max<int64_t>(count_at, 1);
  int64_t seen = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    seen += counts_[i];
    if (seen >= count_at) return HighestEquivalent(ValueAtIndex(static_cast<int>(i)));
  }
  return 0;
}

}  // namespace redlab::tools::bench
