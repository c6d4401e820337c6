// The synchronous engines: sync, psync, vsync, pvsync, pvsync2.
//
// They share one class: each request completes inside Queue() (one syscall),
// which returns kCompleted with res = bytes or -errno. The modes differ only in
// the syscall used:
//   sync    lseek + read/write (lseek skipped when the file position is right)
//   psync   pread/pwrite (fio's default engine)
//   vsync   lseek + readv/writev
//   pvsync  preadv/pwritev
//   pvsync2 preadv2/pwritev2 with per-call RWF_* flags: hipri (RWF_HIPRI for
//           hipri_percentage of the calls), nowait (RWF_NOWAIT), uncached
//           (RWF_DONTCACHE, 0x80, Linux 6.14+).
// Trim is BLKDISCARD on block devices and a hole punch on files; fsync and
// fdatasync are the syscalls of those names.
//
// Owned by one worker thread; no allocation and no locks after Init().
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "engines/engines.h"

// RWF_DONTCACHE is 0x80 since Linux 6.14 (uapi/linux/fs.h). Older headers
// lack it. Note: 0x40 is RWF_ATOMIC; fio 3.17-3.37 sent 0x40 for `uncached`.
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080
#endif
#ifndef RWF_HIPRI
#define RWF_HIPRI 0x00000001
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif
static_assert(RWF_DONTCACHE == 0x80, "RWF_DONTCACHE must be 0x80 (0x40 is RWF_ATOMIC)");

namespace iobench {
namespace {

enum class SyncMode { kSync, kPsync, kVsync, kPvsync, kPvsync2 };

class SyncEngine final : public Engine {
 public:
  explicit SyncEngine(SyncMode mode) : mode_(mode) {}

  Status Init(const EngineContext& ctx) override {
    files_ = ctx.files;
    if (files_ != nullptr) positions_.assign(files_->size(), UINT64_MAX);
    if (ctx.job != nullptr) sfr_flags_ = ctx.job->sync_file_range_flags;
    if (mode_ == SyncMode::kPvsync2 && ctx.job != nullptr) {
      if (ctx.job->nowait) base_flags_ |= RWF_NOWAIT;
      if (ctx.job->uncached) base_flags_ |= RWF_DONTCACHE;
      if (ctx.job->hipri) hipri_percentage_ = ctx.job->hipri_percentage;
    }
    return Status::Ok();
  }

  QueueResult Queue(IoRequest* req) override {
    ++counters_.submit_calls;
    ++counters_.submitted;
    switch (req->op) {
      case IoOp::kRead:
      case IoOp::kWrite:
        req->res = DoRw(req);
        break;
      case IoOp::kTrim:
        req->res = DoTrim(req);
        break;
      case IoOp::kFsync:
        req->res = fsync(req->fd) == 0 ? 0 : -errno;
        break;
      case IoOp::kFdatasync:
        req->res = fdatasync(req->fd) == 0 ? 0 : -errno;
        break;
      case IoOp::kSyncFileRange:
        req->res = sync_file_range(req->fd, static_cast<off64_t>(req->offset),
                                   static_cast<off64_t>(req->length), sfr_flags_) == 0
                       ? 0
                       : -errno;
        break;
    }
    return QueueResult::kCompleted;
  }

  bool IsSync() const override { return true; }

 private:
  // Seeks when the file position is not where the I/O starts; returns -errno
  // on failure, 0 otherwise.
  int64_t SeekTo(IoRequest* req) {
    uint64_t* pos = req->file_index < positions_.size() ? &positions_[req->file_index] : nullptr;
    if (pos != nullptr && *pos == req->offset) return 0;
    if (lseek(req->fd, static_cast<off_t>(req->offset), SEEK_SET) < 0) return -errno;
    if (pos != nullptr) *pos = req->offset;
    return 0;
  }

  void Advance(IoRequest* req, ssize_t r) {
    if (req->file_index >= positions_.size()) return;
    positions_[req->file_index] = r >= 0 ? req->offset + static_cast<uint64_t>(r) : UINT64_MAX;
  }

  int64_t DoRw(IoRequest* req) {
    const bool rd = req->op == IoOp::kRead;
    const off_t off = static_cast<off_t>(req->offset);
    iovec iov{req->buf, req->length};
    ssize_t r = -1;
    switch (mode_) {
      case SyncMode::kSync: {
        int64_t s = SeekTo(req);
        if (s < 0) return s;
        r = rd ? read(req->fd, req->buf, req->length) : write(req->fd, req->buf, req->length);
        Advance(req, r);
        break;
      }
      case SyncMode::kVsync: {
        int64_t s = SeekTo(req);
        if (s < 0) return s;
        r = rd ? readv(req->fd, &iov, 1) : writev(req->fd, &iov, 1);
        Advance(req, r);
        break;
      }
      case SyncMode::kPsync:
        r = rd ? pread(req->fd, req->buf, req->length, off)
               : pwrite(req->fd, req->buf, req->length, off);
        break;
      case SyncMode::kPvsync:
        r = rd ? preadv(req->fd, &iov, 1, off) : pwritev(req->fd, &iov, 1, off);
        break;
      case SyncMode::kPvsync2: {
        int flags = base_flags_;
        if (hipri_percentage_ > 0 && NextPercent() < hipri_percentage_) {
          flags |= RWF_HIPRI;
          req->flags |= kReqHipri;
        }
        // EAGAIN (nowait) is not retried here: the worker counts it per
        // direction and applies the error policy.
        r = rd ? preadv2(req->fd, &iov, 1, off, flags) : pwritev2(req->fd, &iov, 1, off, flags);
        break;
      }
    }
    return r < 0 ? -errno : r;
  }

  int64_t DoTrim(IoRequest* req) {
    const bool blk = files_ != nullptr && req->file_index < files_->size() &&
                     (*files_)[req->file_index].is_block_device;
    if (blk) {
      uint64_t range[2] = {req->offset, req->length};
      if (ioctl(req->fd, BLKDISCARD, range) < 0) return -errno;
    } else if (fallocate(req->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                         static_cast<off_t>(req->offset), static_cast<off_t>(req->length)) < 0) {
      return -errno;
    }
    return static_cast<int64_t>(req->length);
  }

  // Cheap per-call choice for hipri_percentage (xorshift; not for statistics).
  uint32_t NextPercent() {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return static_cast<uint32_t>(rng_ % 100);
  }

  const SyncMode mode_;
  const std::vector<EngineFile>* files_ = nullptr;
  std::vector<uint64_t> positions_;  // sync/vsync: known file positions
  int base_flags_ = 0;
  uint32_t sfr_flags_ = 0;  // sync_file_range flags (SYNC_FILE_RANGE_*)
  uint32_t hipri_percentage_ = 0;
  uint64_t rng_ = 0x9e3779b97f4a7c15ull;
};

std::string FsTypeName(int64_t type) {
  switch (static_cast<uint64_t>(type)) {
    case 0x01021994:
      return "tmpfs";
    case 0xEF53:
      return "ext4";
    case 0x58465342:
      return "xfs";
    case 0x9123683E:
      return "btrfs";
    case 0xF2F52010:
      return "f2fs";
    case 0xCA451A4E:
      return "bcachefs";
    case 0x6969:
      return "nfs";
    case 0x794C7630:
      return "overlayfs";
    case 0x858458F6:
      return "ramfs";
    case 0x65735546:
      return "fuse";
    case 0x2FC12FC1:
      return "zfs";
    case 0x62646576:
      return "bdev";
    case 0x4D44:
      return "vfat";
    default: {
      char buf[32];
      snprintf(buf, sizeof(buf), "fs type 0x%llx",
               static_cast<unsigned long long>(static_cast<uint64_t>(type)));
      return buf;
    }
  }
}

std::string KernelRelease() {
  utsname u{};
  if (uname(&u) != 0) return "unknown";
  return u.release;
}

// Probes RWF_DONTCACHE on the filesystem of `path`: a one-block preadv2 on the
// file itself, or, when it does not exist yet, on an unnamed O_TMPFILE in its
// directory (so the probe creates nothing visible). The kernel checks the
// flag before looking at the file size, so an empty file answers too.
Status ProbeUncached(const EngineFile& f) {
  int fd = open(f.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) {
    std::string dir = f.path;
    const size_t slash = dir.rfind('/');
    dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : dir.substr(0, slash));
    fd = open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) return Status::Ok();  // cannot probe before layout; the run reports errors
  } else if (fd < 0) {
    return ErrnoStatus("pvsync2: open " + f.path);
  }
  struct statfs sfs {};
  const std::string fs = fstatfs(fd, &sfs) == 0 ? FsTypeName(sfs.f_type) : "unknown filesystem";
  void* buf = nullptr;
  if (posix_memalign(&buf, 4096, 4096) != 0) {
    close(fd);
    return Status::Limit("pvsync2: out of memory probing " + f.path);
  }
  iovec iov{buf, 4096};
  const ssize_t r = preadv2(fd, &iov, 1, 0, RWF_DONTCACHE);
  const int err = r < 0 ? errno : 0;
  free(buf);
  close(fd);
  if (err == EOPNOTSUPP || err == EINVAL) {
    return Status(Status::Code::kUnsupported,
                  "pvsync2 uncached=1: " + f.path + " is on " + fs + ", and kernel " +
                      KernelRelease() + " refuses RWF_DONTCACHE there (" + std::strerror(err) +
                      "). Uncached buffered I/O needs Linux 6.14+ and filesystem support "
                      "(XFS 6.15+, ext4 6.17+, tmpfs never). iobench does not fall back to "
                      "cached I/O: drop uncached=1 or put the file on a filesystem that "
                      "supports it.",
                  err);
  }
  return Status::Ok();
}

Status Pvsync2CheckJob(const JobSpec& job, const std::vector<EngineFile>& files) {
  if (!job.uncached) return Status::Ok();
  for (const auto& f : files) IOB_RETURN_IF_ERROR(ProbeUncached(f));
  return Status::Ok();
}

template <SyncMode M>
std::unique_ptr<Engine> MakeSync() {
  return std::unique_ptr<Engine>(new SyncEngine(M));
}

Status AlwaysOk() { return Status::Ok(); }

}  // namespace

std::vector<EngineInfo> SyncEngineInfos() {
  std::vector<EngineInfo> v;
  v.push_back({"sync",
               "read/write after lseek (one syscall per I/O, seek skipped when in place)",
               true,
               &MakeSync<SyncMode::kSync>,
               &AlwaysOk,
               {},
               nullptr});
  v.push_back({"psync",
               "pread/pwrite (the default engine)",
               true,
               &MakeSync<SyncMode::kPsync>,
               &AlwaysOk,
               {},
               nullptr});
  v.push_back({"vsync",
               "readv/writev after lseek",
               true,
               &MakeSync<SyncMode::kVsync>,
               &AlwaysOk,
               {},
               nullptr});
  v.push_back(
      {"pvsync", "preadv/pwritev", true, &MakeSync<SyncMode::kPvsync>, &AlwaysOk, {}, nullptr});
  v.push_back({"pvsync2",
               "preadv2/pwritev2 with RWF_HIPRI (hipri), RWF_NOWAIT (nowait) and RWF_DONTCACHE "
               "(uncached, Linux 6.14+)",
               true,
               &MakeSync<SyncMode::kPvsync2>,
               &AlwaysOk,
               {"hipri", "hipri_percentage", "nowait", "uncached"},
               &Pvsync2CheckJob});
  return v;
}

}  // namespace iobench
