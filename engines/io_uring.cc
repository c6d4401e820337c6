// io_uring through liburing.
//
// The ring's CQ is sized to twice the SQ (at least the whole pool) so every
// request in flight always has a CQE slot. Setup flags are tried from the most
// to the least capable and dropped when the kernel says EINVAL:
//   SINGLE_ISSUER + DEFER_TASKRUN (not with SQPOLL) -> SINGLE_ISSUER +
//   COOP_TASKRUN -> COOP_TASKRUN -> none (TASKRUN_FLAG with each that allows it).
// The IoRequest pointer rides in sqe->user_data. Queue() only writes an SQE;
// Commit() is io_uring_submit(); Reap() waits for `min` CQEs and takes a batch.
//
// Per-request state is set up in Init: one iovec per request (vectored ops),
// its engine_data points there. Nothing is allocated per I/O.
//
// Thread-safety: one worker thread owns the engine and must be the thread
// that calls Init (SINGLE_ISSUER ties the ring to it).
#include <liburing.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engines/async_common.h"
#include "engines/engines.h"

namespace iobench {
namespace {

// IORING_MAX_ENTRIES: the SQ cannot be larger. Deeper pools still work: Queue
// returns kBusy when the SQ is full, and the worker commits (with SQPOLL and
// nothing left to commit, Queue waits for the SQ thread: WaitForSqSpace).
constexpr unsigned kMaxSqEntries = 32768;
constexpr unsigned kMaxCqEntries = 65536;
// io_uring refuses a single registered buffer above 1 GiB.
constexpr uint64_t kMaxFixedBuf = 1ull << 30;

std::string MemlockText() {
  struct rlimit rl;
  if (getrlimit(RLIMIT_MEMLOCK, &rl) != 0) return "RLIMIT_MEMLOCK unknown";
  if (rl.rlim_cur == RLIM_INFINITY) return "RLIMIT_MEMLOCK is unlimited";
  return "RLIMIT_MEMLOCK is " + std::to_string(rl.rlim_cur / 1024) +
         " KiB (raise it with ulimit -l or LimitMEMLOCK=)";
}

// A ring, and without CAP_IPC_LOCK its registered buffers, are charged to
// RLIMIT_MEMLOCK (measured on 6.18), and a closed ring's charge is
// released later by a kernel worker: the probe's ring (ProbeIoUring), or
// the rings of the phase before, may still count when a job sets up its
// own. ENOMEM is retried for up to about a second before it is reported,
// so that a limit fio's rings fit in runs iobench's too.
template <typename Fn>
int RetryOnEnomem(Fn fn) {
  int r = fn();
  for (int wait_ms = 1; r == -ENOMEM && wait_ms <= 512; wait_ms *= 2) {
    std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
    r = fn();
  }
  return r;
}

// `what` carries no "io_uring: " prefix where the worker adds the engine's
// name (Init); the probe, which stands alone, adds it itself.
Status UringStatus(const std::string& what, int neg) {
  Status st = ErrnoStatus(what, -neg);
  if (neg == -EPERM) {
    auto disabled = ReadUintFile("/proc/sys/kernel/io_uring_disabled");
    if (disabled && *disabled != 0)
      return Status(Status::Code::kRefused,
                    st.message() + " (io_uring is disabled by sysctl kernel.io_uring_disabled=" +
                        std::to_string(*disabled) + "; set it to 0 to enable)",
                    EPERM);
  }
  return st;
}

class IoUringEngine final : public Engine {
 public:
  ~IoUringEngine() override { Shutdown(); }

  Status Init(const EngineContext& ctx) override {
    const JobSpec& job = *ctx.job;
    sfr_flags_ = job.sync_file_range_flags;
    depth_ = ctx.iodepth == 0 ? 1 : ctx.iodepth;
    if (depth_ > kMaxAsyncDepth)
      return Status::Limit("iodepth=" + std::to_string(depth_) + " is above the ring limit of " +
                           std::to_string(kMaxAsyncDepth) + " completions");
    if (ctx.requests == nullptr || ctx.requests->size() < depth_)
      return Status::Internal("request pool smaller than iodepth");
    force_async_ = job.force_async;
    sqpoll_ = job.sqthread_poll;
    fixedbufs_ = job.fixedbufs;
    // fio's fio_ioring_init: "sqthread submission requires registered
    // files", so sqthread_poll registers them whatever registerfiles says.
    registerfiles_ = job.registerfiles || sqpoll_;
    files_ = ctx.files;
    // RWF_DONTCACHE on buffered I/O only, as pvsync2 (sync.cc).
    rw_flags_ = (job.nowait ? kRwfNowait : 0) | (job.uncached && !job.direct ? kRwfDontcache : 0);

    IOB_RETURN_IF_ERROR(SetupRing(job));

    // The ring fd registered with the ring itself saves an fget per enter.
    // Best effort: kernels before 5.18 say EINVAL and we go on without it.
    (void)io_uring_register_ring_fd(&ring_);

    io_uring_probe* probe = io_uring_get_probe_ring(&ring_);
    bool have_read = probe != nullptr && io_uring_opcode_supported(probe, IORING_OP_READ);
    if (probe != nullptr) io_uring_free_probe(probe);
    if (job.nonvectored == 1 && !have_read)
      return Status::Unsupported(
          "nonvectored=1 needs IORING_OP_READ/WRITE (Linux 5.6+); this kernel (" + KernelRelease() +
          ") lacks them");
    nonvectored_ = job.nonvectored == -1 ? have_read : job.nonvectored == 1;

    iovecs_ = std::make_unique<struct iovec[]>(depth_);
    cqes_ = std::make_unique<io_uring_cqe*[]>(depth_);
    for (uint32_t i = 0; i < depth_; ++i) (*ctx.requests)[i].engine_data = &iovecs_[i];

    if (fixedbufs_) IOB_RETURN_IF_ERROR(RegisterBuffers(ctx));
    if (registerfiles_) {
      std::vector<int> fds;
      for (const auto& f : *ctx.files) fds.push_back(f.fd);
      int r = io_uring_register_files(&ring_, fds.data(), static_cast<unsigned>(fds.size()));
      if (r < 0) return UringStatus("register_files (" + std::to_string(fds.size()) + " files)", r);
    }
    return Status::Ok();
  }

  QueueResult Queue(IoRequest* req) override {
    if (!broken_.ok()) [[unlikely]] {
      req->res = -EIO;
      return QueueResult::kCompleted;
    }
    if (req->op > IoOp::kWrite) [[unlikely]] {  // one test per read or write
      if (req->op == IoOp::kTrim) {
        // No discard opcode for every target: done in the call (BLKDISCARD, a
        // hole punch), as fio's io_uring does, after what was queued before.
        if (unsubmitted_ > 0) return QueueResult::kBusy;
        req->res = TrimNow(files_, req);
        return QueueResult::kCompleted;
      }
      if ((req->flags & kReqEmptyRange) != 0) {
        // A sync_file_range with nothing written since the last one: no call,
        // as fio's do_sync_file_range and the other engines (its range, from
        // offset 2^64-1, made the kernel answer EINVAL and failed the job).
        req->res = 0;
        return QueueResult::kCompleted;
      }
    }
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    if (sqe == nullptr) [[unlikely]] {
      sqe = WaitForSqSpace();
      if (sqe == nullptr) return QueueResult::kBusy;
    }
    const int fd = registerfiles_ ? static_cast<int>(req->file_index) : req->fd;
    switch (req->op) {
      case IoOp::kRead:
      case IoOp::kWrite: {
        const bool rd = req->op == IoOp::kRead;
        const unsigned len = static_cast<unsigned>(req->length);
        if (fixedbufs_) {
          const int idx = BufIndex(req->buf);
          if (rd)
            io_uring_prep_read_fixed(sqe, fd, req->buf, len, req->offset, idx);
          else
            io_uring_prep_write_fixed(sqe, fd, req->buf, len, req->offset, idx);
        } else if (nonvectored_) {
          if (rd)
            io_uring_prep_read(sqe, fd, req->buf, len, req->offset);
          else
            io_uring_prep_write(sqe, fd, req->buf, len, req->offset);
        } else {
          auto* iov = static_cast<struct iovec*>(req->engine_data);
          iov->iov_base = req->buf;
          iov->iov_len = req->length;
          if (rd)
            io_uring_prep_readv(sqe, fd, iov, 1, req->offset);
          else
            io_uring_prep_writev(sqe, fd, iov, 1, req->offset);
        }
        sqe->rw_flags = rw_flags_;
        break;
      }
      case IoOp::kFsync:
        io_uring_prep_fsync(sqe, fd, 0);
        break;
      case IoOp::kFdatasync:
        io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
        break;
      case IoOp::kSyncFileRange:
        // The SQE's length is 32 bits: a range of 4 GiB or more syncs from
        // its start to the end of the file (length 0) rather than a part.
        io_uring_prep_sync_file_range(
            sqe, fd, req->length > UINT32_MAX ? 0u : static_cast<unsigned>(req->length),
            req->offset, static_cast<int>(sfr_flags_));
        break;
      case IoOp::kTrim:  // handled above
        break;
    }
    uint8_t sqe_flags = registerfiles_ ? IOSQE_FIXED_FILE : 0;
    if ((req->flags & kReqForceAsync) != 0) sqe_flags |= IOSQE_ASYNC;
    if (force_async_ != 0 && ++async_count_ >= force_async_) {
      async_count_ = 0;
      sqe_flags |= IOSQE_ASYNC;
    }
    sqe->flags = sqe_flags;
    if (req->prio != 0) sqe->ioprio = req->prio;
    io_uring_sqe_set_data(sqe, req);
    ++unsubmitted_;
    return QueueResult::kQueued;
  }

  // The SQ is full. Without SQPOLL, or with SQEs not committed yet, the
  // worker commits (kBusy). With SQPOLL and everything committed, the SQ
  // thread holds the SQEs: it posts a request's CQE before it moves the SQ
  // head past it, so at iodepth=1 the request just reaped can still fill the
  // SQ while nothing is in flight, and kBusy would leave the worker nothing
  // to wait for (it failed the I/O with EBUSY). Wait for the thread to free
  // a slot (IORING_ENTER_SQ_WAIT), as fio waits and retries; each wait is an
  // io_uring_enter on the submission side and counts as a submit call.
  io_uring_sqe* WaitForSqSpace() {
    if (!sqpoll_ || unsubmitted_ > 0) return nullptr;
    io_uring_sqe* sqe = nullptr;
    for (int tries = 0; sqe == nullptr && tries < 64; ++tries) {
      // liburing waits in the kernel only while the SQ is still full: a
      // slot freed since get_sqe failed is taken without a system call,
      // and a submit call counts an enter.
      if (io_uring_sq_space_left(&ring_) == 0) {
        ++counters_.submit_calls;
        int r = io_uring_sqring_wait(&ring_);
        if (r < 0 && r != -EINTR) return nullptr;
      }
      sqe = io_uring_get_sqe(&ring_);
    }
    return sqe;
  }

  Result<unsigned> Commit() override {
    if (!broken_.ok()) return broken_;
    if (unsubmitted_ == 0) return 0u;
    int r;
    do {  // EINTR took nothing: ask again rather than hand back a 0
      r = io_uring_submit(&ring_);
      ++counters_.submit_calls;
    } while (r == -EINTR);
    if (r < 0) {
      if (r == -EAGAIN || r == -EBUSY) {
        // Out of kernel resources or CQ backlog: the worker reaps and
        // retries; the SQEs stay in the ring for the next Commit. With
        // nothing in flight there is nothing to reap: treat as fatal below.
        ++counters_.eagain;
        if (counters_.submitted != counters_.reaped) return 0u;
      }
      // The SQEs are already in the shared ring and cannot be taken back, yet
      // an error hands the requests back to the worker (engine.h). The ring
      // is unusable after such an error anyway (EBADF, EFAULT, EINVAL...):
      // stop using it so no stale completion can ever surface.
      broken_ = UringStatus("io_uring_enter (submit)", r);
      unsubmitted_ = 0;
      return broken_;
    }
    // With SQPOLL, io_uring_submit() returns everything the SQ thread has
    // not consumed yet (earlier commits included): what we handed over now is
    // what Queue() added since the last commit.
    unsigned n = sqpoll_ ? unsubmitted_ : static_cast<unsigned>(r);
    if (n > unsubmitted_) n = unsubmitted_;
    unsubmitted_ -= n;
    counters_.submitted += n;
    return n;
  }

  Result<unsigned> Reap(unsigned min, unsigned max, IoRequest** out) override {
    if (!broken_.ok()) return broken_;
    if (max > depth_) max = depth_;
    if (min > max) min = max;
    const uint64_t syscalls_before = counters_.reap_syscalls;
    if (min > 0) {
      io_uring_cqe* cqe = nullptr;
      // liburing enters the kernel only when the ring holds fewer than min.
      if (io_uring_cq_ready(&ring_) < min) ++counters_.reap_syscalls;
      int r = io_uring_wait_cqe_nr(&ring_, &cqe, min);
      if (r < 0 && r != -EINTR && r != -ETIME && r != -EAGAIN)
        return UringStatus("io_uring_enter (wait " + std::to_string(min) + ")", r);
    }
    unsigned n = PeekReady(max);
    if (n == 0 && min == 0 && (needs_enter_to_reap_ || CqNeedsFlush())) {
      // DEFER_TASKRUN runs completions only inside io_uring_enter(GETEVENTS);
      // IOPOLL polls the device only there; the kernel flags completion
      // work it holds back (IORING_SQ_TASKRUN, a CQ overflow). One
      // non-blocking enter.
      ++counters_.reap_syscalls;
      (void)io_uring_get_events(&ring_);
      n = PeekReady(max);
    }
    return TakeBatch(n, out, syscalls_before);
  }

  Result<unsigned> ReapFor(unsigned max, IoRequest** out, uint64_t timeout_ns) override {
    if (!broken_.ok()) return broken_;
    // Without EXT_ARG (before 5.11) liburing would spend an SQE on a timeout
    // request: do not wait, the worker sleeps instead.
    if ((ring_.features & IORING_FEAT_EXT_ARG) == 0) return Reap(0, max, out);
    if (max > depth_) max = depth_;
    const uint64_t syscalls_before = counters_.reap_syscalls;
    if (io_uring_cq_ready(&ring_) == 0) {
      ++counters_.reap_syscalls;
      __kernel_timespec ts;
      ts.tv_sec = static_cast<long long>(timeout_ns / 1000000000u);
      ts.tv_nsec = static_cast<long long>(timeout_ns % 1000000000u);
      io_uring_cqe* cqe = nullptr;
      int r = io_uring_wait_cqe_timeout(&ring_, &cqe, &ts);
      if (r < 0 && r != -EINTR && r != -ETIME && r != -EAGAIN)
        return UringStatus("io_uring_enter (wait up to " + std::to_string(timeout_ns) + " ns)", r);
    }
    return TakeBatch(PeekReady(max), out, syscalls_before);
  }

  // A registered file (registerfiles, sqthread_poll) is the ring's own
  // reference to the old, removed file: SQEs name the slot, not the fd, so
  // the slot is pointed at the new file (IORING_REGISTER_FILES_UPDATE,
  // Linux 5.5+). fio 3.33 keeps the old registration, writes the later
  // loops to the removed file and leaves none.
  Status FileReopened(uint32_t file_index) override {
    if (!registerfiles_ || files_ == nullptr || file_index >= files_->size()) return Status::Ok();
    int fd = (*files_)[file_index].fd;
    int r = io_uring_register_files_update(&ring_, file_index, &fd, 1);
    if (r < 0)
      return UringStatus("register_files_update (file " + (*files_)[file_index].path + ")", r);
    return Status::Ok();
  }

  void Shutdown() override {
    if (ring_live_) {
      // Closing the ring cancels and waits for what is in flight.
      io_uring_queue_exit(&ring_);
      ring_live_ = false;
    }
  }

  bool IsSync() const override { return false; }

  // What the ring was set up with, for the report and tests.
  unsigned setup_flags() const { return setup_flags_; }

 private:
  // Up to max CQEs that are in the CQ ring now, into cqes_, without a system
  // call. Not io_uring_peek_batch_cqe: on an empty CQ with IORING_SQ_TASKRUN
  // set it enters the kernel itself (liburing 2.3), and reap_syscalls, which
  // counts the reaps that entered the kernel, missed those enters (17
  // counted against 261 io_uring_enter(GETEVENTS) in strace for randread
  // iodepth=8 iodepth_batch_complete_min=0 on a loop device). Reap makes
  // that enter itself and counts it.
  unsigned PeekReady(unsigned max) {
    unsigned head, n = 0;
    io_uring_cqe* cqe;
    io_uring_for_each_cqe(&ring_, head, cqe) {
      if (n == max) break;
      cqes_[n++] = cqe;
    }
    return n;
  }

  // What makes liburing's peek enter the kernel on an empty CQ: completion
  // work the kernel holds back for this task, or CQEs that overflowed.
  bool CqNeedsFlush() const {
    return (IO_URING_READ_ONCE(*ring_.sq.kflags) & (IORING_SQ_CQ_OVERFLOW | IORING_SQ_TASKRUN)) !=
           0;
  }

  // Hands the n CQEs peeked into cqes_ back as requests and consumes them;
  // syscalls_before: reap_syscalls when the reap began.
  unsigned TakeBatch(unsigned n, IoRequest** out, uint64_t syscalls_before) {
    for (unsigned i = 0; i < n; ++i) {
      auto* req = static_cast<IoRequest*>(io_uring_cqe_get_data(cqes_[i]));
      req->res = cqes_[i]->res;
      out[i] = req;
    }
    if (n > 0) io_uring_cq_advance(&ring_, n);
    counters_.CountReap(n, syscalls_before);
    return n;
  }

  Status SetupRing(const JobSpec& job) {
    unsigned sq = depth_ > kMaxSqEntries ? kMaxSqEntries : depth_;
    unsigned cq = depth_ * 2 > kMaxCqEntries ? kMaxCqEntries : depth_ * 2;
    if (cq < 2 * sq) cq = 2 * sq > kMaxCqEntries ? kMaxCqEntries : 2 * sq;
    unsigned base = IORING_SETUP_CQSIZE;
    if (job.hipri) base |= IORING_SETUP_IOPOLL;
    if (job.sqthread_poll) {
      base |= IORING_SETUP_SQPOLL;
      if (job.sqthread_poll_cpu) base |= IORING_SETUP_SQ_AFF;
    }
    // Most capable first; each step drops what an older kernel rejects.
    // TASKRUN_FLAG makes the kernel flag pending completion work in the SQ
    // ring, so liburing's peek enters the kernel exactly when needed.
    constexpr unsigned kCoop = IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG;
    std::vector<unsigned> tries;
    if (!job.sqthread_poll)
      tries.push_back(base | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
                      IORING_SETUP_TASKRUN_FLAG);
    tries.push_back(base | IORING_SETUP_SINGLE_ISSUER | kCoop);
    tries.push_back(base | kCoop);
    tries.push_back(base);
    int r = -EINVAL;
    for (unsigned flags : tries) {
      io_uring_params p;
      std::memset(&p, 0, sizeof(p));
      p.flags = flags;
      p.cq_entries = cq;
      if (job.sqthread_poll_cpu) p.sq_thread_cpu = static_cast<unsigned>(*job.sqthread_poll_cpu);
      const io_uring_params asked = p;  // the kernel writes the params back
      r = RetryOnEnomem([&] {
        p = asked;
        return io_uring_queue_init_params(sq, &ring_, &p);
      });
      if (r == 0) {
        setup_flags_ = flags;
        ring_live_ = true;
        if (job.sqthread_poll && !job.registerfiles &&
            (p.features & IORING_FEAT_SQPOLL_NONFIXED) == 0)
          return Status::Unsupported(
              "sqthread_poll on kernel " + KernelRelease() +
              " (before 5.11) works only with registered files; add registerfiles=1");
        needs_enter_to_reap_ = (flags & (IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_IOPOLL)) != 0;
        return Status::Ok();
      }
      if (r != -EINVAL) break;
    }
    std::string what = "setup (sq=" + std::to_string(sq) + ", cq=" + std::to_string(cq);
    if (job.sqthread_poll) what += ", sqthread_poll";
    if (job.sqthread_poll_cpu)
      what += ", sqthread_poll_cpu=" + std::to_string(*job.sqthread_poll_cpu);
    if (job.hipri) what += ", hipri";
    what += ")";
    Status st = UringStatus(what, r);
    if (r == -ENOMEM) return Status::Limit(st.message() + "; " + MemlockText());
    return st;
  }

  // Registers the worker's buffer region in chunks of at most 1 GiB that
  // never split a request's buffer; a request's fixed-buffer index is the
  // chunk its buffer lies in. One chunk in all but huge pools.
  Status RegisterBuffers(const EngineContext& ctx) {
    if (ctx.buffer_base == nullptr || ctx.buffer_bytes == 0 || ctx.buffer_stride == 0)
      return Status::Internal("fixedbufs needs the worker's contiguous buffer region");
    base_ = static_cast<char*>(ctx.buffer_base);
    uint64_t per = kMaxFixedBuf / ctx.buffer_stride;
    if (per == 0)
      return Status::Limit("fixedbufs: a request buffer of " + std::to_string(ctx.buffer_stride) +
                           " bytes exceeds the 1 GiB limit");
    chunk_bytes_ = per * ctx.buffer_stride;
    std::vector<struct iovec> iov;
    for (uint64_t off = 0; off < ctx.buffer_bytes; off += chunk_bytes_) {
      uint64_t len = ctx.buffer_bytes - off < chunk_bytes_ ? ctx.buffer_bytes - off : chunk_bytes_;
      iov.push_back({base_ + off, len});
    }
    single_chunk_ = iov.size() == 1;
    int r = RetryOnEnomem([&] {
      return io_uring_register_buffers(&ring_, iov.data(), static_cast<unsigned>(iov.size()));
    });
    if (r < 0) {
      Status st = UringStatus(
          "fixedbufs: register_buffers (" + std::to_string(ctx.buffer_bytes) + " bytes)", r);
      // Without CAP_IPC_LOCK the pinned buffers count against
      // RLIMIT_MEMLOCK together with every io_uring ring of the user (the
      // job's own and the other jobs'): 52 KiB of buffers can fail under a
      // 64 KiB limit.
      if (r == -ENOMEM || r == -EPERM)
        return Status::Limit(st.message() +
                             "; the buffers count against RLIMIT_MEMLOCK together with the "
                             "user's io_uring rings, this job's included; " +
                             MemlockText());
      return st;
    }
    return Status::Ok();
  }

  int BufIndex(const void* buf) const {
    if (single_chunk_) return 0;
    return static_cast<int>(static_cast<uint64_t>(static_cast<const char*>(buf) - base_) /
                            chunk_bytes_);
  }

  io_uring ring_{};
  bool ring_live_ = false;
  unsigned setup_flags_ = 0;
  bool needs_enter_to_reap_ = false;
  bool sqpoll_ = false;
  Status broken_;             // set by a failed submit; every later call reports it
  unsigned unsubmitted_ = 0;  // SQEs queued since the last Commit
  uint32_t depth_ = 0;
  uint32_t force_async_ = 0;
  uint32_t async_count_ = 0;
  bool fixedbufs_ = false;
  bool registerfiles_ = false;
  bool nonvectored_ = false;
  const std::vector<EngineFile>* files_ = nullptr;  // TrimNow: block device or file
  int rw_flags_ = 0;
  uint32_t sfr_flags_ = 0;  // sync_file_range flags (SYNC_FILE_RANGE_*)
  char* base_ = nullptr;
  uint64_t chunk_bytes_ = 0;
  bool single_chunk_ = true;
  std::unique_ptr<struct iovec[]> iovecs_;
  std::unique_ptr<io_uring_cqe*[]> cqes_;
};

Status ProbeIoUringOnce() {
  io_uring ring;
  int r = RetryOnEnomem([&] { return io_uring_queue_init(1, &ring, 0); });
  if (r < 0) {
    if (r == -ENOSYS)
      return Status::Unsupported(
          "io_uring: this kernel has no io_uring (Linux 5.1+, CONFIG_IO_URING)");
    Status st = UringStatus("io_uring: io_uring_setup(1)", r);
    if (r == -ENOMEM) return Status::Limit(st.message() + "; " + MemlockText());
    return st;
  }
  io_uring_queue_exit(&ring);
  return Status::Ok();
}

// Once per process: each probe ring is charged to RLIMIT_MEMLOCK until a
// kernel worker releases it after the close (RetryOnEnomem).
Status ProbeIoUring() {
  static const Status result = ProbeIoUringOnce();
  return result;
}

// The first line of a /proc or /sys file, or "" when it cannot be read.
std::string FirstLine(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "re");
  if (f == nullptr) return "";
  char buf[4096] = {};
  const bool got = std::fgets(buf, sizeof(buf), f) != nullptr;
  std::fclose(f);
  std::string line = got ? buf : "";
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
  return line;
}

// Whether `cpu` is in a kernel CPU list ("0-3,8,10-11").
bool CpuListHas(const std::string& list, int cpu) {
  size_t pos = 0;
  while (pos < list.size()) {
    int lo = 0, hi = 0;
    const size_t end = std::min(list.find(',', pos), list.size());
    const std::string part = list.substr(pos, end - pos);
    const int n = std::sscanf(part.c_str(), "%d-%d", &lo, &hi);
    if (n >= 1 && cpu >= lo && cpu <= (n == 2 ? hi : lo)) return true;
    pos = end + 1;
  }
  return false;
}

// The CPUs this process's cpuset allows (cgroup v1 cpuset controller, else
// cgroup v2), as a CPU list, or "" when no cpuset file can be read.
std::string CpusetCpus() {
  FILE* f = std::fopen("/proc/self/cgroup", "re");
  if (f == nullptr) return "";
  std::string v1, v2;
  char line[4096];
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    std::string l(line);
    while (!l.empty() && l.back() == '\n') l.pop_back();
    const size_t a = l.find(':'), b = a == std::string::npos ? a : l.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = l.substr(a + 1, b - a - 1), path = l.substr(b + 1);
    if (("," + controllers + ",").find(",cpuset,") != std::string::npos)
      v1 = "/sys/fs/cgroup/cpuset" + path + "/cpuset.effective_cpus";
    else if (l.compare(0, a, "0") == 0 && controllers.empty())
      v2 = "/sys/fs/cgroup" + path + "/cpuset.cpus.effective";
  }
  std::fclose(f);
  std::string cpus = v1.empty() ? "" : FirstLine(v1);
  if (cpus.empty() && !v2.empty()) cpus = FirstLine(v2);
  return cpus;
}

// IORING_SETUP_SQ_AFF fails with a bare EINVAL at ring setup, inside the
// run, when the CPU is not online or not in the task's cpuset (the kernel
// checks both). Say which before the run.
Status CheckSqthreadCpu(int cpu) {
  const std::string head =
      "io_uring: sqthread_poll_cpu=" + std::to_string(cpu) + ": CPU " + std::to_string(cpu);
  const std::string online = FirstLine("/sys/devices/system/cpu/online");
  if (cpu < 0 || (!online.empty() && !CpuListHas(online, cpu)))
    return Status::Invalid(head + " does not exist or is offline on this machine (online CPUs: " +
                           (online.empty() ? "unknown" : online) + ")");
  const std::string allowed = CpusetCpus();
  if (!allowed.empty() && !CpuListHas(allowed, cpu))
    return Status::Invalid(head + " is not in this process's cpuset (allowed CPUs: " + allowed +
                           "); the kernel pins the SQ thread only to an allowed CPU");
  return Status::Ok();
}

// Without CAP_IPC_LOCK registered buffers count against RLIMIT_MEMLOCK on
// any kernel, and on 6.18 the rings do too (measured: 56 KiB of buffers
// and an 8 KiB ring fit 64 KiB, 60 KiB do not). The run's resource check
// (sys/safety.cc, "locked memory") weighs the buffers against the limit
// on every kernel, minding CAP_IPC_LOCK; this older check stays for
// kernels before 5.12, as it was. A failed registration names the limit.
Status CheckFixedbufsMemlock(const JobSpec& job) {
  int major_v = 0, minor_v = 0;
  if (std::sscanf(KernelRelease().c_str(), "%d.%d", &major_v, &minor_v) != 2) return Status::Ok();
  if (major_v > 5 || (major_v == 5 && minor_v >= 12)) return Status::Ok();
  struct rlimit rl;
  if (getrlimit(RLIMIT_MEMLOCK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return Status::Ok();
  uint64_t bs = 0;
  for (const auto& b : job.bs) bs = b.max > bs ? b.max : bs;
  const uint64_t need = bs * job.iodepth * (job.numjobs == 0 ? 1 : job.numjobs);
  if (need <= rl.rlim_cur) return Status::Ok();
  return Status::Limit("io_uring: fixedbufs pins iodepth x bs x numjobs = " + std::to_string(need) +
                       " bytes, above " + MemlockText() + " on kernel " + KernelRelease() +
                       " (before 5.12 registered buffers count against it)");
}

Status CheckIoUringJob(const JobSpec& job, const std::vector<EngineFile>& files) {
  if (job.iodepth > kMaxAsyncDepth)
    return Status::Limit("io_uring: iodepth=" + std::to_string(job.iodepth) +
                         " is above the ring limit of " + std::to_string(kMaxAsyncDepth) +
                         " (IORING_MAX_CQ_ENTRIES); use several jobs (numjobs) for more");
  if (job.hipri) IOB_RETURN_IF_ERROR(CheckHipri("io_uring", job, files));
  if (job.sqthread_poll_cpu && !job.sqthread_poll)
    return Status::Invalid("io_uring: sqthread_poll_cpu is set but sqthread_poll is not");
  if (job.sqthread_poll_cpu) IOB_RETURN_IF_ERROR(CheckSqthreadCpu(*job.sqthread_poll_cpu));
  // Not with direct=1, as pvsync2: O_DIRECT I/O is issued without
  // RWF_DONTCACHE (it would do nothing there), so a filesystem that refuses
  // the flag (tmpfs) has nothing to refuse.
  if (job.uncached && !job.direct) IOB_RETURN_IF_ERROR(ProbeUncached("io_uring", files));
  if (job.nowait) IOB_RETURN_IF_ERROR(ProbeNowait("io_uring", files));
  if (job.fixedbufs) IOB_RETURN_IF_ERROR(CheckFixedbufsMemlock(job));
  return Status::Ok();
}

}  // namespace

EngineInfo IoUringEngineInfo() {
  return {"io_uring",
          "Linux io_uring (liburing): batched async I/O, buffered or direct",
          false,
          [] { return std::unique_ptr<Engine>(new IoUringEngine()); },
          ProbeIoUring,
          {"force_async", "fixedbufs", "registerfiles", "sqthread_poll", "sqthread_poll_cpu",
           "hipri", "nonvectored", "nowait", "uncached", "cmdprio_percentage", "cmdprio_class",
           "cmdprio", "cmdprio_bssplit"},
          CheckIoUringJob};
}

EngineInfo IoUringCmdEngineInfo() {
  return {"io_uring_cmd",
          "NVMe passthrough through io_uring (/dev/ngXnY): not available in iobench yet",
          false,
          nullptr,
          [] {
            return Status::Unsupported(
                "io_uring_cmd (NVMe passthrough) is not available in iobench yet");
          },
          {},
          nullptr};
}

}  // namespace iobench
