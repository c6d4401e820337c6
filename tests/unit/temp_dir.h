// A fresh directory for a test's files under `base` ("/tmp", "/dev/shm" for
// tmpfs, "/var/tmp" for a disk filesystem), removed with its contents by the
// destructor even when an assertion fails. path() is empty, and ok() false,
// when the directory could not be made.
#pragma once

#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace iobench::testing {

class TempDir {
 public:
  explicit TempDir(const std::string& base = "/tmp") {
    std::string tmpl = base + "/iobench-test-XXXXXX";
    if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  bool ok() const { return !path_.empty(); }
  const std::string& path() const { return path_; }

  // The path of `name` in the directory.
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

  // Writes `text` to the file `name` in the directory; returns its path.
  std::string Write(const std::string& name, const std::string& text) const {
    const std::string p = *this / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }

  // Creates the file `name` in the directory, `size` bytes of zeros (a hole);
  // returns its path.
  std::string File(const std::string& name, uint64_t size) const {
    const std::string p = *this / name;
    std::ofstream(p, std::ios::binary).close();
    std::filesystem::resize_file(p, size);
    return p;
  }

 private:
  std::string path_;
};

// A small tmpfs (root only) mounted over a fresh directory under /tmp, for
// tests that need a full filesystem; unmounted by the destructor. error() is
// why it is not mounted (then GTEST_SKIP with it), "" when it is.
class SmallTmpfs {
 public:
  explicit SmallTmpfs(const std::string& size) : dir_("/tmp") {
    if (!dir_.ok()) {
      error_ = "mkdtemp failed";
    } else if (geteuid() != 0) {
      error_ = "needs root to mount a small tmpfs";
    } else if (mount("iobench-test", dir_.path().c_str(), "tmpfs", 0, ("size=" + size).c_str()) !=
               0) {
      error_ = std::string("mount tmpfs: ") + std::strerror(errno);
    } else {
      mounted_ = true;
    }
  }
  ~SmallTmpfs() {
    if (mounted_) umount(dir_.path().c_str());
  }
  SmallTmpfs(const SmallTmpfs&) = delete;
  SmallTmpfs& operator=(const SmallTmpfs&) = delete;

  const std::string& error() const { return error_; }
  const std::string& path() const { return dir_.path(); }
  std::string operator/(const std::string& name) const { return dir_ / name; }

 private:
  TempDir dir_;
  bool mounted_ = false;
  std::string error_;
};

}  // namespace iobench::testing
