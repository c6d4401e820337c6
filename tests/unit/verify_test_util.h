// Helpers for the verify tests: a temp dir on a chosen filesystem and
// pread/pwrite of whole buffers. Removed by their destructors.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "iobench/job.h"

namespace iobench::verify_testing {

class TempDir {
 public:
  explicit TempDir(const std::string& base) {
    std::string tmpl = base + "/iobench-verify-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data())) path_ = buf.data();
  }
  ~TempDir() {
    if (!path_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(path_, ec);
    }
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  bool ok() const { return !path_.empty(); }

 private:
  std::string path_;
};

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
