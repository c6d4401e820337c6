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
// mmap (fio's engine of that name) is synchronous too: each file is mapped
// whole (MAP_SHARED) at Init (a character device, which has no size: the
// job's region), and a read or write is a memcpy from or to the
// mapping; fsync and fdatasync are msync(MS_SYNC) of the mapping, and with
// direct=1 each I/O is followed by msync, madvise(MADV_DONTNEED) and
// posix_fadvise(DONTNEED) of its pages: they leave the page cache, as fio's
// engine means to do ("not really direct, but should drop the pages").
// Not on tmpfs/ramfs: there the pages are the file and cannot leave memory,
// so unmapping them would only make every next access fault.
//
// Owned by one worker thread; no allocation and no locks after Init().
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csetjmp>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "engines/async_common.h"
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
int64_t TrimNow(const std::vector<EngineFile>* files, const IoRequest* req) {
  const bool blk = files != nullptr && req->file_index < files->size() &&
                   (*files)[req->file_index].is_block_device;
  if (blk) {
    uint64_t range[2] = {req->offset, req->length};
    if (ioctl(req->fd, BLKDISCARD, range) < 0) return -errno;
  } else if (fallocate(req->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                       static_cast<off_t>(req->offset), static_cast<off_t>(req->length)) < 0) {
    return -errno;
  }
  return static_cast<int64_t>(req->length);
}

namespace {

enum class SyncMode { kSync, kPsync, kVsync, kPvsync, kPvsync2 };

class SyncEngine final : public Engine {
 public:
  explicit SyncEngine(SyncMode mode) : mode_(mode) {}

  Status Init(const EngineContext& ctx) override {
    files_ = ctx.files;
    // A descriptor the worker has just opened is at position 0 (engine.h):
    // the first sequential pass needs no lseek, as in fio. One closed until
    // its turn (openfiles) is renewed in FileReopened.
    if (files_ != nullptr) {
      positions_.assign(files_->size(), UINT64_MAX);
      for (size_t i = 0; i < files_->size(); ++i)
        if ((*files_)[i].fd >= 0) positions_[i] = 0;
    }
    if (ctx.job != nullptr) sfr_flags_ = ctx.job->sync_file_range_flags;
    if (mode_ == SyncMode::kPvsync2 && ctx.job != nullptr) {
      if (ctx.job->nowait) base_flags_ |= RWF_NOWAIT;
      // O_DIRECT bypasses the page cache that RWF_DONTCACHE would drop, and
      // filesystems without buffered DONTCACHE support (tmpfs) refuse the
      // flag even on O_DIRECT calls: it is only set on buffered I/O.
      if (ctx.job->uncached && !ctx.job->direct) base_flags_ |= RWF_DONTCACHE;
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
        req->res = TrimNow(files_, req);
        break;
      case IoOp::kFsync:
      case IoOp::kFdatasync:
      case IoOp::kSyncFileRange:
        req->res = SyncOpNow(req, sfr_flags_);
        break;
    }
    return QueueResult::kCompleted;
  }

  // The new descriptor is at position 0, not where the old one was left:
  // an I/O at offset 0 needs no lseek.
  Status FileReopened(uint32_t file_index) override {
    if (file_index < positions_.size()) positions_[file_index] = 0;
    return Status::Ok();
  }
  void FileClosing(uint32_t file_index) override {
    if (file_index < positions_.size()) positions_[file_index] = UINT64_MAX;
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

// Why mmap(2) of `len` bytes of `path` (open as `fd`; 0: the pre-run probe,
// whose one page is not the job's size) failed, in the user's words: a
// read-only block device cannot be mapped for writing (EINVAL/EACCES), a
// character device without mmap support says ENODEV.
Status MapError(const std::string& path, int fd, uint64_t len, bool writable, int err) {
  std::string why;
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && writable) {
    int ro = 0;
    if (ioctl(fd, BLKROGET, &ro) == 0 && ro != 0)
      why = "; the block device is read-only, so a job that writes cannot map it";
  } else if (fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) && err == ENODEV) {
    why = "; this character device cannot be mapped: use another engine (psync)";
  }
  return Status(Status::Code::kUnsupported,
                "cannot map " + path + " " +
                    (len != 0 ? "(" + std::to_string(len) + " bytes, " : "(") +
                    (writable ? "read-write" : "read-only") + "): " + std::strerror(err) + why,
                err);
}

namespace {
// A page of a mapping that cannot be backed faults with SIGBUS: a write into
// a hole when the file system is full (a sparse 2 MiB file on a 1 MiB tmpfs),
// a disk error, or a file truncated by someone else. fio 3.33 dies of it,
// with no report. The copy runs with this thread's jump buffer armed, and
// the handler returns to it, so that I/O ends as read(2) or write(2) would
// have ended it (MmapFaultResult). A SIGBUS anywhere else is not ours: the default action
// is restored and the fault, repeated, ends the process as before.
// volatile, and fenced in GuardedCopy: the compiler sees that memcpy never
// reads it and dropped the store that arms it (the first build crashed).
thread_local sigjmp_buf* volatile t_mmap_fault = nullptr;

void OnMmapFault(int sig, siginfo_t*, void*) {
  if (sigjmp_buf* jb = t_mmap_fault) {
    t_mmap_fault = nullptr;
    siglongjmp(*jb, 1);
  }
  std::signal(sig, SIG_DFL);
}

void InstallMmapFaultHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = OnMmapFault;
    // SA_NODEFER: the jump leaves the handler without sigreturn, and SIGBUS
    // must not stay blocked (a blocked SIGBUS from a fault kills at once).
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, nullptr);
  });
}

// memcpy with the fault handler armed: false when a page of the mapping
// faulted (part of the bytes may have been copied).
bool GuardedCopy(void* to, const void* from, size_t n) {
  sigjmp_buf fault;
  if (sigsetjmp(fault, 0) != 0) return false;  // from OnMmapFault
  t_mmap_fault = &fault;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  std::memcpy(to, from, n);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  t_mmap_fault = nullptr;
  return true;
}

// What a copy that faulted returns, as read(2) or write(2) would have: a
// file that shrank under the mapping ends there (a read is short, or 0 at
// the end; a write there fails with EFBIG, as past the end of any mapped
// file); a file system with no free block left is no space; anything else
// (a disk error) is EIO.
// `n`: the bytes the copy was for (within the mapping).
int64_t MmapFaultResult(uint8_t* at, IoRequest* req, uint64_t n, bool rd) {
  struct stat st {};
  if (fstat(req->fd, &st) == 0 && S_ISREG(st.st_mode) &&
      static_cast<uint64_t>(st.st_size) < req->offset + n) {
    if (!rd) return -EFBIG;
    if (static_cast<uint64_t>(st.st_size) <= req->offset) return 0;
    // Below n: never past the mapping, whatever the file's size now.
    const uint64_t k = static_cast<uint64_t>(st.st_size) - req->offset;
    return GuardedCopy(req->buf, at, k) ? static_cast<int64_t>(k) : -EIO;
  }
  struct statfs sf {};
  if (fstatfs(req->fd, &sf) == 0 && (sf.f_bfree == 0 || sf.f_bavail == 0)) return -ENOSPC;
  return -EIO;
}
}  // namespace

class MmapEngine final : public Engine {
 public:
  ~MmapEngine() override { Shutdown(); }

  Status Init(const EngineContext& ctx) override {
    files_ = ctx.files;
    if (ctx.job != nullptr) {
      sfr_flags_ = ctx.job->sync_file_range_flags;
      direct_ = ctx.job->direct;
      page_ = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));  // once, not per I/O
    }
    if (files_ == nullptr) return Status::Ok();
    // fadvise_hint is the mapping's advice too, as in fio's engine: 0 gives
    // none (readahead as the kernel sets it), 1 by the workload, and
    // sequential/random as named. It advised by the workload whatever the
    // option said (fadvise_hint=0 on a random read: 128 pages cached,
    // readahead off, against fio's 1003).
    using H = JobSpec::FadviseHint;
    const H hint = ctx.job != nullptr ? ctx.job->fadvise_hint : H::kWorkload;
    advice_ = hint == H::kNone ? -1
              : hint == H::kRandom ||
                      (hint == H::kWorkload && ctx.job != nullptr && IsRandom(ctx.job->rw))
                  ? POSIX_MADV_RANDOM
                  : POSIX_MADV_SEQUENTIAL;
    InstallMmapFaultHandler();
    maps_.assign(files_->size(), Map{});
    for (size_t i = 0; i < files_->size(); ++i) IOB_RETURN_IF_ERROR(MapFile(i));
    return Status::Ok();
  }

  // The old mapping holds the removed file: map the new one at its size.
  Status FileReopened(uint32_t file_index) override {
    if (file_index >= maps_.size()) return Status::Ok();
    Unmap(maps_[file_index]);
    return MapFile(file_index);
  }
  // openfiles: a closed file keeps no mapping (it would keep it open).
  void FileClosing(uint32_t file_index) override {
    if (file_index < maps_.size()) Unmap(maps_[file_index]);
  }

  // end_fsync, fsync_on_close: msync(MS_SYNC) of the mapping, as fio's
  // engine does for every sync it is given; a file without one (closed by
  // openfiles, reopened for the sync) gets fsync.
  int EndSync(uint32_t file_index, int fd) override {
    const Map* m = file_index < maps_.size() ? &maps_[file_index] : nullptr;
    if (m == nullptr || m->base == nullptr || m->len == 0) return Engine::EndSync(file_index, fd);
    return msync(m->base, m->len, MS_SYNC) == 0 ? 0 : -errno;
  }

  QueueResult Queue(IoRequest* req) override {
    ++counters_.submit_calls;
    ++counters_.submitted;
    const Map* m = req->file_index < maps_.size() ? &maps_[req->file_index] : nullptr;
    switch (req->op) {
      case IoOp::kRead:
      case IoOp::kWrite:
        req->res = m != nullptr ? Copy(*m, req) : -EBADF;
        break;
      case IoOp::kTrim:
        req->res = TrimNow(files_, req);
        break;
      case IoOp::kFsync:
      case IoOp::kFdatasync:
        req->res = m == nullptr || m->len == 0 || msync(m->base, m->len, MS_SYNC) == 0 ? 0 : -errno;
        break;
      case IoOp::kSyncFileRange:
        req->res = SyncFileRangeNow(req, sfr_flags_);
        break;
    }
    return QueueResult::kCompleted;
  }

  // madvise(MADV_DONTNEED) unmaps the range from this process, so the
  // worker's POSIX_FADV_DONTNEED that follows can drop it (dirty pages keep
  // their data: the page is marked dirty as it is unmapped). fio 3.33 does
  // not do this: its mmap passes read from the cache after the first.
  // On tmpfs/ramfs nothing can be dropped: the range stays mapped (unmapped,
  // each page of the next pass faulted, and fio's tmpfs example ran 50x
  // slower than fio's).
  void ReleaseCachedRange(uint32_t file_index, uint64_t offset, uint64_t len) override {
    if (file_index >= maps_.size()) return;
    const Map& m = maps_[file_index];
    if (m.base == nullptr || offset >= m.len || m.in_memory) return;
    const uint64_t start = offset / page_ * page_;  // madvise wants a page-aligned start
    const uint64_t end = std::min(m.len, offset + len);
    (void)madvise(m.base + start, end - start, MADV_DONTNEED);
  }

  void Shutdown() override {
    for (Map& m : maps_) Unmap(m);
    maps_.clear();
  }

  bool IsSync() const override { return true; }

 private:
  struct Map {
    uint8_t* base = nullptr;
    uint64_t len = 0;
    bool writable = false;
    bool in_memory = false;  // tmpfs/ramfs: the page cache is the file
  };

  // Maps file i (open at files_[i].fd) into maps_[i].
  Status MapFile(size_t i) {
    const EngineFile& f = (*files_)[i];
    if (f.fd < 0) return Status::Ok();
    // A block device is mapped whole (its size), a regular file at its
    // size (laid out to at least the job's region). A character device
    // (/dev/zero) has no size (st_size 0): its mapping is the job's region,
    // [0, offset + size), which the worker passes as f.size, as fio maps
    // io_size there. (Mapping 0 bytes would make every read an empty EOF:
    // a run of 0 I/Os reported as a success.)
    uint64_t len = f.size;
    if (!f.is_block_device) {
      struct stat st {};
      if (fstat(f.fd, &st) != 0) return ErrnoStatus("fstat " + f.path);
      if (S_ISREG(st.st_mode)) len = static_cast<uint64_t>(st.st_size);
    }
    // Writable as the descriptor is: a write through a read-only file
    // fails with EBADF, as write(2) would, instead of faulting.
    const int mode = fcntl(f.fd, F_GETFL);
    const bool writable = mode >= 0 && (mode & O_ACCMODE) != O_RDONLY;
    Map& m = maps_[i];
    m.writable = writable;
    // A file on tmpfs/ramfs (or a character device such as /dev/zero). Not
    // a block device: fstatfs on /dev/loop0 describes /dev, devtmpfs, whose
    // magic is tmpfs's, and a block device taken as "in memory" was never
    // written back or dropped (mmap direct=1 on a loop device measured the
    // page cache: 11 us against fio's 3 ms).
    struct statfs sf {};
    m.in_memory = !f.is_block_device && fstatfs(f.fd, &sf) == 0 &&
                  (static_cast<uint64_t>(sf.f_type) == TMPFS_MAGIC ||
                   static_cast<uint64_t>(sf.f_type) == RAMFS_MAGIC);
    if (len == 0) return Status::Ok();  // nothing to map: reads find the end, writes fail
    void* p = mmap(nullptr, len, PROT_READ | (writable ? PROT_WRITE : 0), MAP_SHARED, f.fd, 0);
    // No "mmap: " prefix: the worker names the engine.
    if (p == MAP_FAILED) return MapError(f.path, f.fd, len, writable, errno);
    m.base = static_cast<uint8_t*>(p);
    m.len = len;
    // As fio: tell the kernel how the mapping will be read (readahead).
    if (advice_ >= 0) (void)posix_madvise(p, len, advice_);
    return Status::Ok();
  }

  static void Unmap(Map& m) {
    if (m.base != nullptr) munmap(m.base, m.len);
    m.base = nullptr;
    m.len = 0;
  }

  // A mapping ends at the file's end: touching a page past it is SIGBUS, so
  // a read there finds the end of the file (short, or 0), and a write fails
  // with EFBIG (a mapped file cannot grow; fio's engine does not extend
  // files either).
  int64_t Copy(const Map& m, IoRequest* req) {
    const bool rd = req->op == IoOp::kRead;
    if (!rd && !m.writable) return -EBADF;
    if (req->offset >= m.len) return rd ? 0 : -EFBIG;
    uint64_t n = req->length;
    if (n > m.len - req->offset) {
      if (!rd) return -EFBIG;
      n = m.len - req->offset;
    }
    uint8_t* at = m.base + req->offset;
    if (!(rd ? GuardedCopy(req->buf, at, n) : GuardedCopy(at, req->buf, n))) [[unlikely]]
      return MmapFaultResult(at, req, n, rd);
    if (direct_ && !m.in_memory) {
      // Not really direct: write the pages back, unmap them and drop them
      // from the page cache, so the next access reads the device. (fio
      // means to do this, but glibc's posix_madvise(POSIX_MADV_DONTNEED) is
      // a no-op: with fio the pages stay cached.) tmpfs has no device.
      const uint64_t lo = req->offset & ~(page_ - 1);
      const uint64_t hi = std::min<uint64_t>((req->offset + n + page_ - 1) & ~(page_ - 1), m.len);
      void* base = m.base + lo;
      if (msync(base, hi - lo, MS_SYNC) != 0) return -errno;
      if (madvise(base, hi - lo, MADV_DONTNEED) != 0) return -errno;
      if (int e = posix_fadvise(req->fd, static_cast<off_t>(lo), static_cast<off_t>(hi - lo),
                                POSIX_FADV_DONTNEED);
          e != 0)
        return -e;
    }
    return static_cast<int64_t>(n);
  }

  const std::vector<EngineFile>* files_ = nullptr;
  std::vector<Map> maps_;
  uint32_t sfr_flags_ = 0;
  bool direct_ = false;
  int advice_ = POSIX_MADV_SEQUENTIAL;  // the mapping's posix_madvise, -1: none
  uint64_t page_ = 4096;                // the page size (direct=1 drops whole pages)
};

// A device is mapped before the run as the job will map it (one page, with
// the job's access mode): a character device that cannot be mapped
// (/dev/null: ENODEV) or a read-only block device a job writes to is refused
// here (exit 2), not in the worker. Regular files are laid out later and
// always map; a target that cannot be opened is the run's to report.
Status ProbeDeviceMapping(const JobSpec& job, const EngineFile& f) {
  struct stat st {};
  if (stat(f.path.c_str(), &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)))
    return Status::Ok();
  const bool writes = JobWrites(job);
  const int fd = open(f.path.c_str(), (writes ? O_RDWR : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) return Status::Ok();
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* p = mmap(nullptr, page, PROT_READ | (writes ? PROT_WRITE : 0), MAP_SHARED, fd, 0);
  Status st_map = Status::Ok();
  if (p == MAP_FAILED)
    st_map = MapError(f.path, fd, 0, writes, errno).WithContext("mmap");  // a page, no size
  else
    munmap(p, page);
  close(fd);
  return st_map;
}

// " (file:line)" of the option's setting, or "" when it was not set.
std::string SetAt(const JobSpec& job, const std::string& name) {
  const OptionSetting* s = job.FindSetting(name);
  if (s == nullptr) return "";
  return " (" + (s->line > 0 ? s->file + ":" + std::to_string(s->line) : s->file) + ")";
}

Status MmapCheckJob(const JobSpec& job, const std::vector<EngineFile>& files) {
  // msync and madvise work on whole pages (fio's rule and message).
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  uint64_t min_bs = UINT64_MAX;
  for (int d = 0; d < kNumDdirs; ++d)
    if (job.bs[d].min != 0) min_bs = std::min<uint64_t>(min_bs, job.bs[d].min);
  if ((job.direct || job.fsync_blocks != 0 || job.fdatasync_blocks != 0) && min_bs != UINT64_MAX &&
      min_bs % page != 0) {
    // The setting that asks for the page-wise calls, as written ("fdatasync=4 (j.fio:9)").
    const char* why = job.direct ? "direct" : job.fsync_blocks != 0 ? "fsync" : "fdatasync";
    const OptionSetting* s = job.FindSetting(why);
    return Status::Invalid(
        "mmap: " + std::string(why) + "=" + (s != nullptr ? s->value : "1") + SetAt(job, why) +
        " needs a block size that is a multiple of the page size (" + std::to_string(page) +
        " bytes) with the mmap engine; the smallest "
        "here is " +
        std::to_string(min_bs) + SetAt(job, "bs"));
  }
  if (job.create_on_open)
    return Status::Unsupported(
        "mmap: create_on_open=1" + SetAt(job, "create_on_open") +
        ": the mmap engine maps each file at its size when the job starts and cannot grow "
        "it; let iobench lay the files out (drop create_on_open)");
  // Each later loop's files are created again empty (a reading job's are
  // gone: it fails with ENOENT as with any engine). fio 3.33's engine maps
  // the empty file and dies of SIGBUS.
  if (job.unlink_each_loop && job.loops > 1 && !job.time_based && JobWrites(job))
    return Status::Unsupported(
        "mmap: unlink_each_loop=1" + SetAt(job, "unlink_each_loop") +
        " with loops=" + std::to_string(job.loops) + SetAt(job, "loops") +
        ": each loop's files are created again empty, and the mmap engine maps a file at its "
        "size and cannot grow it; use another engine (psync)");
  for (const auto& f : files) IOB_RETURN_IF_ERROR(ProbeDeviceMapping(job, f));
  return Status::Ok();
}

// Flags the kernel would not honour for a target are refused before the run,
// with the probes io_uring and libaio use (one rule, one message).
// hipri_percentage=0 flags no call RWF_HIPRI (fio passes flags 0 too): there
// is nothing to poll, so nothing to refuse (the job's report says so).
Status Pvsync2CheckJob(const JobSpec& job, const std::vector<EngineFile>& files) {
  if (job.hipri && job.hipri_percentage > 0) IOB_RETURN_IF_ERROR(CheckHipri("pvsync2", job, files));
  if (job.uncached && !job.direct) IOB_RETURN_IF_ERROR(ProbeUncached("pvsync2", files));
  if (job.nowait) IOB_RETURN_IF_ERROR(ProbeNowait("pvsync2", files));
  return Status::Ok();
}

std::unique_ptr<Engine> MakeMmap() { return std::unique_ptr<Engine>(new MmapEngine()); }

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
  v.push_back({"mmap",
               "memcpy to and from a shared mapping of each file (msync for fsync; direct=1: "
               "each I/O's pages written back and dropped from the page cache)",
               true,
               &MakeMmap,
               &AlwaysOk,
               {},
               &MmapCheckJob});
  return v;
}

}  // namespace iobench
