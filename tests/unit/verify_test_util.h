// Helpers for the verify tests: pread/pwrite of whole buffers and a verify
// job.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "iobench/job.h"

namespace iobench::verify_testing {

inline bool PwriteAll(int fd, const void* buf, size_t len, uint64_t off) {
  return ::pwrite(fd, buf, len, static_cast<off_t>(off)) == static_cast<ssize_t>(len);
}
inline bool PreadAll(int fd, void* buf, size_t len, uint64_t off) {
  return ::pread(fd, buf, len, static_cast<off_t>(off)) == static_cast<ssize_t>(len);
}

inline JobSpec VerifyJob(VerifyType type, uint64_t bs = 4096) {
  JobSpec job;
  job.name = "vjob";
  job.rw = RwMode::kWrite;
  for (auto& b : job.bs) b.min = b.max = bs;
  job.verify.type = type;
  return job;
}

}  // namespace iobench::verify_testing
