// Test helpers for the sys/ and disk_util tests: a loop device with ext4
// mounted from it, removed by its destructor even when an assertion fails.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "iobench/job.h"
#include "temp_dir.h"

namespace iobench::testing {

// Runs a shell command; returns its stdout (trimmed) and exit status.
inline std::string RunCmd(const std::string& cmd, int* status) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) {
    *status = -1;
    return out;
  }
  char buf[512];
  while (fgets(buf, sizeof(buf), p)) out += buf;
  const int rc = pclose(p);
  *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

// A job named `name` doing `rw` on the one file `file`; all else default.
inline JobSpec Job(const std::string& name, const std::string& file, RwMode rw) {
  JobSpec j;
  j.name = name;
  j.filenames = {file};
  j.rw = rw;
  return j;
}

// Writes `bytes` of non-zero data to `path` (real blocks, not a hole).
inline bool WriteFile(const std::string& path, size_t bytes) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return false;
  std::string chunk(1 << 16, 'x');
  size_t done = 0;
  while (done < bytes) {
    const size_t n = std::min(chunk.size(), bytes - done);
    if (write(fd, chunk.data(), n) != static_cast<ssize_t>(n)) {
      close(fd);
      return false;
    }
    done += n;
  }
  fsync(fd);
  close(fd);
  return true;
}

// Writes an MBR with one Linux partition from sector 2048 to the end.
inline bool WriteMbr(const std::string& image, uint64_t image_bytes) {
  unsigned char mbr[512] = {};
  unsigned char* e = mbr + 446;
  e[4] = 0x83;  // Linux
  const uint32_t start = 2048;
  const uint32_t count = static_cast<uint32_t>(image_bytes / 512) - start;
  for (int i = 0; i < 4; ++i) {
    e[8 + i] = static_cast<unsigned char>(start >> (8 * i));
    e[12 + i] = static_cast<unsigned char>(count >> (8 * i));
  }
  mbr[510] = 0x55;
  mbr[511] = 0xAA;
  const int fd = open(image.c_str(), O_WRONLY);
  if (fd < 0) return false;
  const bool ok = pwrite(fd, mbr, sizeof(mbr), 0) == 512;
  close(fd);
  return ok;
}

// A 64 MiB image under /var/tmp attached to a free loop device, with ext4
// made on it (or, `partitioned`, on its first partition) and mounted on a
// temp dir. Needs root; `skip_reason()` says why it could not be set up.
// Everything is undone in reverse order.
class LoopExt4 {
 public:
  // The image goes in `parent` (a directory on tmpfs makes a loop device
  // whose data lives in memory).
  explicit LoopExt4(bool partitioned = false, const char* parent = "/var/tmp") : dir_(parent) {
    if (geteuid() != 0) {
      why_ = "needs root for losetup/mount";
      return;
    }
    if (access("/dev/loop-control", F_OK) != 0) {
      why_ = "no /dev/loop-control (loop driver missing)";
      return;
    }
    if (!dir_.ok()) {
      why_ = std::string("cannot create a temp dir in ") + parent;
      return;
    }
    image_ = dir_.path() + "/image";
    mnt_ = dir_.path() + "/mnt";
    int st = 0;
    RunCmd("truncate -s 64M '" + image_ + "'", &st);
    if (st != 0) {
      why_ = "truncate failed";
      return;
    }
    if (partitioned && !WriteMbr(image_, 64 << 20)) {
      why_ = "cannot write a partition table";
      return;
    }
    dev_ = RunCmd(
        std::string("losetup -f --show ") + (partitioned ? "-P " : "") + "'" + image_ + "'", &st);
    if (st != 0 || dev_.rfind("/dev/loop", 0) != 0) {
      why_ = "losetup -f failed: " + dev_;
      dev_.clear();
      return;
    }
    fs_dev_ = partitioned ? dev_ + "p1" : dev_;
    for (int i = 0; i < 50 && access(fs_dev_.c_str(), F_OK) != 0; ++i) usleep(20000);
    if (access(fs_dev_.c_str(), F_OK) != 0) {
      why_ = "the kernel did not create " + fs_dev_ + " (no MBR partition scanning for loop)";
      return;
    }
    std::string out = RunCmd("mkfs.ext4 -q -F '" + fs_dev_ + "'", &st);
    if (st != 0) {
      why_ = "mkfs.ext4 failed: " + out;
      return;
    }
    mkdir(mnt_.c_str(), 0755);
    out = RunCmd("mount '" + fs_dev_ + "' '" + mnt_ + "'", &st);
    if (st != 0) {
      why_ = "mount failed: " + out;
      return;
    }
    mounted_ = true;
  }
  ~LoopExt4() {
    int st;
    Unmount();
    if (!dev_.empty()) RunCmd("losetup -d '" + dev_ + "'", &st);
  }
  LoopExt4(const LoopExt4&) = delete;
  LoopExt4& operator=(const LoopExt4&) = delete;

  bool Unmount() {
    if (!mounted_) return true;
    int st;
    RunCmd("umount '" + mnt_ + "'", &st);
    // A busy mount must not survive the test: detach it lazily.
    if (st != 0) RunCmd("umount -l '" + mnt_ + "'", &st);
    mounted_ = st != 0;
    return st == 0;
  }

  bool ready() const { return mounted_; }
  const std::string& skip_reason() const { return why_; }
  const std::string& device() const { return dev_; }        // "/dev/loop3"
  std::string name() const { return dev_.substr(5); }       // "loop3"
  const std::string& fs_device() const { return fs_dev_; }  // device() or its "p1"
  const std::string& mount_point() const { return mnt_; }
  const std::string& image() const { return image_; }

 private:
  TempDir dir_;
  std::string image_, mnt_, dev_, fs_dev_, why_;
  bool mounted_ = false;
};

}  // namespace iobench::testing
