#include <cmath>

#include "iobench/histogram.h"

namespace iobench {

double LatStat::Stddev() const {
  if (n < 2) return 0.0;
  const long double nn = static_cast<long double>(n);
  const long double mean = static_cast<long double>(sum) / nn;
  long double var = (static_cast<long double>(sumsq) - nn * mean * mean) / (nn - 1);
  if (var < 0) var = 0;
  return static_cast<double>(std::sqrt(var));
}

}  // namespace iobench
