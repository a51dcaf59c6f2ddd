// HdrHistogram's log format (version 1.3, as HistogramLogWriter and hdr_log_write write it),
// so `redlab bench --hdr FILE` can be read by HdrHistogram's own tools (HistogramLogProcessor,
// the online plotter, hdr_log_read): a header, then one line per interval,
//   [Tag=NAME,]start_s,length_s,max,BASE64(compressed V2 encoding)
// Values are nanoseconds; the max column is in milliseconds (Java's default unit ratio 10^6).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "tools/bench/histogram.h"

namespace redlab::tools::bench {

// The V2 encoding: big-endian header (cookie, payload length, normalizing offset, significant
// figures, lowest and highest trackable value, conversion ratio 1.0), then the counts up to the
// largest recorded value as ZigZag LEB128, a run of zeros written as its negated length.
std::string EncodeV2(const Histogram& h);
// That, deflated (zlib) behind the compression cookie and length: what a log line carries.
std::string EncodeCompressed(const Histogram& h);
std::string Base64Encode(const std::string& bytes);

class HdrLogWriter {
 public:
  explicit HdrLogWriter(std::ostream& out) : out_(out) {}
  // The header: format version, start time (seconds since the epoch), column names.
  void WriteHeader(double start_epoch_s);
  // One interval: `start_s` from the start time, `length_s` long; `tag` may be empty.
  void WriteInterval(const std::string& tag, double start_s, double length_s, const Histogram& h);

 private:
  std::ostream& out_;
};

}  // namespace redlab::tools::bench
