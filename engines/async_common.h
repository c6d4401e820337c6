// Helpers shared by the engines with RWF_* flags (pvsync2, libaio, io_uring):
// small probes of the kernel, the filesystem and the target that their
// check_job and Init need, so one job is refused the same way whichever
// engine runs it; plus the user-facing warning for buffered libaio.
//
// Owner: the engine work (engines/sync.cc, engines/libaio.cc,
// engines/io_uring.cc).
// Thread-safety: every function here is reentrant; none keeps state.
// None of these is called per I/O.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "iobench/btrfs.h"
#include "iobench/engine.h"
#include "iobench/job.h"
#include "iobench/status.h"

namespace iobench {

// RWF_DONTCACHE (Linux 6.14): uncached buffered I/O. Older userspace headers
// lack it; the value is ABI.
inline constexpr int kRwfDontcache = 0x00000080;
// RWF_NOWAIT (Linux 4.14), for the same reason.
inline constexpr int kRwfNowait = 0x00000008;

// Largest iodepth either async engine accepts. io_uring's CQ ring tops out at
// 65536 entries (IORING_MAX_CQ_ENTRIES); we size the CQ to hold every request
// in flight, so this is also io_uring's depth limit.
inline constexpr uint32_t kMaxAsyncDepth = 65536;

// Returns the first unsigned number in a /proc or /sys file, or nullopt.
inline std::optional<uint64_t> ReadUintFile(const char* path) {
  FILE* f = std::fopen(path, "re");
  if (f == nullptr) return std::nullopt;
  unsigned long long v = 0;
  int n = std::fscanf(f, "%llu", &v);
  std::fclose(f);
  if (n != 1) return std::nullopt;
  return static_cast<uint64_t>(v);
}

inline std::string KernelRelease() {
  struct utsname u;
  if (uname(&u) != 0) return "unknown";
  return u.release;
}

// A readable name for the filesystem holding `fd` ("ext4", "tmpfs", ...).
inline std::string FsTypeName(int fd) {
  struct statfs s;
  if (fstatfs(fd, &s) != 0) return "unknown filesystem";
  switch (static_cast<unsigned long>(s.f_type)) {
    case 0xEF53:
      return "ext4";
    case 0x01021994:
      return "tmpfs";
    case 0x58465342:
      return "xfs";
    case 0x9123683E:
      return "btrfs";
    case 0x2FC12FC1:
      return "zfs";
    case 0xF2F52010:
      return "f2fs";
    case 0x6969:
      return "nfs";
    case 0x62656572:
      return "sysfs";
    case 0x9fa0:
      return "proc";
    case 0x794c7630:
      return "overlayfs";
    case 0x65735546:
      return "fuse";
    case 0x858458f6:
      return "ramfs";
    case 0x4d44:
      return "vfat";
    case 0x5346544e:
      return "ntfs";
    case 0x42465331:
      return "befs";
    case 0xde5e81e4:
      return "efivarfs";
    case 0x62646576:
      return "bdev";  // block devices themselves
    default:
      break;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), "fs magic 0x%lx", static_cast<unsigned long>(s.f_type));
  return buf;
}

// Whether `fd` is a block device. A message must not name the filesystem of
// a device node: /dev is devtmpfs ("tmpfs"), which says nothing about the
// device behind it.
inline bool IsBlockDeviceFd(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 && S_ISBLK(st.st_mode);
}

// Opens `path` for a probe. When the file does not exist yet (the run will
// create it), probes an unnamed O_TMPFILE in its directory instead, or in
// the nearest existing parent when the run will create the directories too
// (a directory made there is on the parent's file system): nothing the user
// did not name is left behind. Returns -1 with errno set on failure.
inline int OpenForProbe(const std::string& path, bool* is_tmpfile) {
  *is_tmpfile = false;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0 || errno != ENOENT) return fd;
  std::string dir = path;
  for (;;) {
    const auto slash = dir.find_last_not_of('/') == std::string::npos
                           ? std::string::npos
                           : dir.rfind('/', dir.find_last_not_of('/'));
    dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : dir.substr(0, slash));
    fd = open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) {
      *is_tmpfile = true;
      return fd;
    }
    if (errno != ENOENT || dir == "." || dir == "/") return -1;
  }
}

// uncached=1 (RWF_DONTCACHE) pre-run probe, the one rule of pvsync2 and
// io_uring: a one-byte preadv2 with the flag on each target (the kernel checks
// the flag before the file size, so an empty file answers too). Refuses
// (never falls back to cached I/O) when the kernel or filesystem says
// EOPNOTSUPP/EINVAL. A target that cannot be opened is left to the run, which
// reports the open error with its own context.
inline Status ProbeUncached(const std::string& engine, const std::vector<EngineFile>& files) {
  for (const auto& f : files) {
    bool tmp = false;
    int fd = OpenForProbe(f.path, &tmp);
    if (fd < 0) continue;
    char byte[64];
    struct iovec iov = {byte, 1};
    ssize_t r = preadv2(fd, &iov, 1, 0, kRwfDontcache);
    int err = errno;
    std::string fs = FsTypeName(fd);
    const bool block = IsBlockDeviceFd(fd);
    close(fd);
    if (r < 0 && (err == EOPNOTSUPP || err == EINVAL) && block) {
      return Status(Status::Code::kUnsupported,
                    engine + ": uncached=1 (RWF_DONTCACHE) is not supported for " + f.path +
                        ": the block device does not support RWF_DONTCACHE with kernel " +
                        KernelRelease() + " (preadv2: " + std::strerror(err) +
                        "). Uncached buffered I/O works on files of a filesystem that supports "
                        "it (Linux 6.14+: XFS 6.15+, ext4 6.17+). iobench does not fall back "
                        "to cached I/O: drop uncached=1 (direct=1 bypasses the page cache) or "
                        "run the job on such a file.",
                    err);
    }
    if (r < 0 && (err == EOPNOTSUPP || err == EINVAL)) {
      return Status(Status::Code::kUnsupported,
                    engine + ": uncached=1 (RWF_DONTCACHE) is not supported for " + f.path +
                        " on " + fs + " with kernel " + KernelRelease() +
                        " (preadv2: " + std::strerror(err) +
                        "). Uncached buffered I/O needs Linux 6.14+ and filesystem support "
                        "(XFS 6.15+, ext4 6.17+, tmpfs never). iobench does not fall back to "
                        "cached I/O: drop uncached=1 or put the file on a filesystem that "
                        "supports it.",
                    err);
    }
  }
  return Status::Ok();
}

// nowait=1 (RWF_NOWAIT) pre-run probe: a one-byte preadv2 with the flag.
// Files whose filesystem cannot honour it (tmpfs) fail every I/O with
// EOPNOTSUPP, which is a configuration error, not a measurement: refuse.
// EAGAIN here just means "not cached", i.e. supported.
inline Status ProbeNowait(const std::string& engine, const std::vector<EngineFile>& files) {
  for (const auto& f : files) {
    bool tmp = false;
    int fd = OpenForProbe(f.path, &tmp);
    if (fd < 0) continue;
    char byte[64];
    struct iovec iov = {byte, 1};
    ssize_t r = preadv2(fd, &iov, 1, 0, kRwfNowait);
    int err = errno;
    std::string fs = IsBlockDeviceFd(fd) ? "a block device" : FsTypeName(fd);
    close(fd);
    if (r < 0 && err == EOPNOTSUPP) {
      return Status(Status::Code::kUnsupported,
                    engine + ": nowait=1 (RWF_NOWAIT) is not supported for " + f.path + " on " +
                        fs + " with kernel " + KernelRelease() +
                        " (preadv2: Operation not supported); every I/O would fail. Remove "
                        "nowait=1 for this target.",
                    err);
    }
  }
  return Status::Ok();
}

// A block device under a target: "MAJ:MIN" and its /sys/class/block name.
struct BackingBlockDevice {
  std::string id;
  std::string name;
};

// The devices of the btrfs filesystem holding the directory `dir`, from
// /sys/fs/btrfs/<fsid>/devices/ (fsid from BTRFS_IOC_FS_INFO, which needs no
// privilege). Empty when `dir` is not on btrfs or they cannot be read.
inline std::vector<BackingBlockDevice> BtrfsDevices(const std::string& dir) {
  std::vector<BackingBlockDevice> out;
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return out;
  struct statfs sfs;
  const bool btrfs = fstatfs(fd, &sfs) == 0 &&
                     static_cast<uint32_t>(sfs.f_type) == static_cast<uint32_t>(BTRFS_SUPER_MAGIC);
  const std::string fsid = btrfs ? BtrfsFsidOfFd(fd) : "";
  close(fd);
  if (fsid.empty()) return out;
  DIR* d = opendir(("/sys/fs/btrfs/" + fsid + "/devices").c_str());
  if (d == nullptr) return out;
  while (const struct dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    FILE* f = std::fopen(("/sys/class/block/" + name + "/dev").c_str(), "re");
    if (f == nullptr) continue;
    unsigned maj = 0, min = 0;
    const int n = std::fscanf(f, "%u:%u", &maj, &min);
    std::fclose(f);
    if (n == 2) out.push_back({std::to_string(maj) + ":" + std::to_string(min), name});
  }
  closedir(d);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

// The block devices under a file (or the device itself), empty when the file
// lives on no block device (tmpfs, NFS, ...). A file the run will create is
// judged by its directory. btrfs reports an anonymous st_dev (0:N) for its
// files: its devices (there may be several) come from BtrfsDevices(), and
// *fs (when given) is set to "btrfs".
inline std::vector<BackingBlockDevice> BackingDevices(const std::string& path,
                                                      std::string* fs = nullptr) {
  const auto slash = path.rfind('/');
  const std::string dir =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  struct stat st;
  bool is_dir = false;
  if (stat(path.c_str(), &st) == 0) {
    is_dir = S_ISDIR(st.st_mode);
  } else if (errno != ENOENT || stat(dir.c_str(), &st) != 0) {
    return {};
  }
  dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
  if (major(dev) == 0) {
    std::vector<BackingBlockDevice> devs = BtrfsDevices(is_dir ? path : dir);
    if (fs != nullptr && !devs.empty()) *fs = "btrfs";
    return devs;
  }
  std::string id = std::to_string(major(dev)) + ":" + std::to_string(minor(dev));
  std::string name;
  char link[512];
  std::string sys = "/sys/dev/block/" + id;
  ssize_t n = readlink(sys.c_str(), link, sizeof(link) - 1);
  if (n > 0) {
    link[n] = '\0';
    std::string l(link);
    name = l.substr(l.rfind('/') + 1);
  }
  return {{id, name}};
}

// hipri=1 (io_uring's IOPOLL, pvsync2's RWF_HIPRI) polls only for O_DIRECT
// I/O on devices with poll queues; anywhere else the kernel completes the
// I/O by interrupt as if the flag were not there, so the job would measure
// something other than what it asks for: refused before the run. The
// queue's io_poll attribute says whether a device has poll queues (a
// partition inherits its disk's queue); a btrfs needs it on each device.
inline Status CheckHipri(const std::string& engine, const JobSpec& job,
                         const std::vector<EngineFile>& files) {
  if (!job.direct)
    return Status::Invalid(engine +
                           ": hipri=1 needs direct=1 (polled completions exist only for "
                           "O_DIRECT I/O)");
  const std::string need = engine +
                           ": hipri needs a block device with poll queues (nvme "
                           "poll_queues=N); ";
  for (const auto& f : files) {
    std::string fs;
    const std::vector<BackingBlockDevice> devs = BackingDevices(f.path, &fs);
    if (devs.empty()) return Status::Unsupported(need + f.path + " is not on a block device");
    // "(loop3)"; a file on btrfs names the filesystem too: "(btrfs on loop1, loop2)".
    std::string on;
    for (const auto& d : devs) on += (on.empty() ? "" : ", ") + d.name;
    if (!fs.empty()) on = fs + " on " + on;
    for (const auto& d : devs) {
      std::string q = "/sys/dev/block/" + d.id + "/queue/io_poll";
      auto v = ReadUintFile(q.c_str());
      if (!v) v = ReadUintFile(("/sys/dev/block/" + d.id + "/../queue/io_poll").c_str());
      if (v && *v != 0) continue;
      return Status::Unsupported(need + f.path + (on.empty() ? "" : " (" + on + ")") +
                                 (devs.size() > 1 ? ": " + d.name + " has none" : " has none"));
    }
  }
  return Status::Ok();
}

}  // namespace iobench
