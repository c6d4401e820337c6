// libaio: Linux native AIO (io_setup / io_submit / io_getevents).
//
// One iocb per pool request, allocated in Init; the IoRequest pointer rides
// in iocb->data and comes back in io_event.data. Queue() only fills the iocb
// and appends it to the pending list; Commit() hands the pending list to
// io_submit(); Reap() first takes what has completed straight from the
// completion ring the kernel maps into our address space (no syscall), and
// calls io_getevents() only to wait for the rest. userspace_reap=0 (fio's
// default; iobench's is 1) calls io_getevents() for every reap instead (fio
// reads the ring only with userspace_reap=1 and min == 0).
//
// Every request that Queue() accepted comes back exactly once from Reap():
// a request the kernel refuses at submission time (io_submit returns -errno
// for it, e.g. EBADF) is completed by the engine with that error, so the
// worker sees one error path for all async engines.
//
// Thread-safety: one worker thread owns the engine (engine.h).
#include <libaio.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engines/async_common.h"
#include "engines/engines.h"

namespace iobench {
namespace {

// The completion ring io_setup() maps at the address of the io_context_t
// (kernel fs/aio.c, struct aio_ring). Stable ABI since 2.6; the magic and the
// feature words tell us whether we may read it from user space.
struct AioRing {
  unsigned id;
  unsigned nr;    // number of io_events
  unsigned head;  // consumer index: written by us (or the kernel in io_getevents)
  unsigned tail;  // producer index: written by the kernel
  unsigned magic;
  unsigned compat_features;
  unsigned incompat_features;
  unsigned header_length;  // sizeof(AioRing)
  struct io_event events[];
};
static_assert(sizeof(AioRing) == 32, "aio_ring header is 32 bytes");
constexpr unsigned kAioRingMagic = 0xa10a10a1;
// linux/aio_abi.h IOCB_FLAG_IOPRIO: aio_reqprio carries an ioprio value.
constexpr unsigned kIocbFlagIoprio = 1u << 1;

int SystemAioLimit(uint64_t* max_nr, uint64_t* nr) {
  auto m = ReadUintFile("/proc/sys/fs/aio-max-nr");
  auto n = ReadUintFile("/proc/sys/fs/aio-nr");
  if (!m || !n) return -1;
  *max_nr = *m;
  *nr = *n;
  return 0;
}

class LibaioEngine final : public Engine {
 public:
  ~LibaioEngine() override { Shutdown(); }

  Status Init(const EngineContext& ctx) override {
    const JobSpec& job = *ctx.job;
    depth_ = ctx.iodepth == 0 ? 1 : ctx.iodepth;
    if (ctx.requests == nullptr || ctx.requests->size() < depth_)
      return Status::Internal("libaio: request pool smaller than iodepth");
    userspace_reap_ = job.userspace_reap;  // 0: fio's default, io_getevents for every reap
    sfr_flags_ = job.sync_file_range_flags;
    rw_flags_ = job.nowait ? kRwfNowait : 0;
    files_ = ctx.files;

    int r = io_setup(static_cast<int>(depth_), &ctx_);
    if (r < 0) {
      Status st = ErrnoStatus("libaio: io_setup(" + std::to_string(depth_) + ")", -r);
      if (r == -EAGAIN) {
        uint64_t max_nr = 0, nr = 0;
        if (SystemAioLimit(&max_nr, &nr) == 0)
          return Status::Limit(
              st.message() + "; fs.aio-max-nr=" + std::to_string(max_nr) +
              ", fs.aio-nr=" + std::to_string(nr) +
              " in use; raise it with sysctl fs.aio-max-nr=" + std::to_string(nr + depth_ * 2));
      }
      return st;
    }
    ctx_live_ = true;

    iocbs_ = std::make_unique<struct iocb[]>(depth_);
    pending_ = std::make_unique<struct iocb*[]>(depth_);
    events_ = std::make_unique<struct io_event[]>(depth_);
    failed_ = std::make_unique<IoRequest*[]>(depth_);
    std::memset(iocbs_.get(), 0, sizeof(struct iocb) * depth_);
    for (uint32_t i = 0; i < depth_; ++i) (*ctx.requests)[i].engine_data = &iocbs_[i];

    if (userspace_reap_) {
      auto* ring = reinterpret_cast<AioRing*>(ctx_);
      // An unknown layout (incompat features) means io_getevents only.
      ring_ = (ring->magic == kAioRingMagic && ring->incompat_features == 0) ? ring : nullptr;
    }
    return Status::Ok();
  }

  QueueResult Queue(IoRequest* req) override {
    if (npending_ == depth_) return QueueResult::kBusy;
    if (req->op == IoOp::kFsync || req->op == IoOp::kFdatasync) [[unlikely]] {
      // Done in the call, as fio 3.33's libaio does (do_io_u_sync): after
      // the iocbs queued before it are submitted (busy until then), with
      // those in flight, and its error is the job's at once. Sent as an
      // IOCB_CMD_FSYNC it stayed in flight while more writes were queued
      // behind it: fsync=2 on /dev/null issued 6 writes and 2 syncs before
      // the EINVAL stopped the job, where fio issues 2 and 1.
      if (npending_ > 0) return QueueResult::kBusy;
      req->res = SyncOpNow(req, sfr_flags_);
      return QueueResult::kCompleted;
    }
    if (auto done = QueueInCall(req, npending_, files_, sfr_flags_)) return *done;
    auto* cb = static_cast<struct iocb*>(req->engine_data);
    switch (req->op) {
      case IoOp::kRead:
        io_prep_pread(cb, req->fd, req->buf, req->length, static_cast<long long>(req->offset));
        break;
      case IoOp::kWrite:
        io_prep_pwrite(cb, req->fd, req->buf, req->length, static_cast<long long>(req->offset));
        break;
      case IoOp::kFsync:  // done in the call, above and in QueueInCall
      case IoOp::kFdatasync:
      case IoOp::kSyncFileRange:
      case IoOp::kTrim:
        break;
    }
    cb->aio_rw_flags = (req->op == IoOp::kRead || req->op == IoOp::kWrite) ? rw_flags_ : 0;
    cb->aio_reqprio = 0;
    if (req->prio != 0) {
      cb->u.c.flags |= kIocbFlagIoprio;
      cb->aio_reqprio = static_cast<short>(req->prio);
    }
    cb->data = req;
    pending_[npending_++] = cb;
    return QueueResult::kQueued;
  }

  Result<unsigned> Commit() override {
    unsigned done = 0;
    while (npending_ > 0) {
      int r = io_submit(ctx_, static_cast<long>(npending_), pending_.get());
      ++counters_.submit_calls;
      if (r > 0) {
        counters_.submitted += static_cast<uint64_t>(r);
        inflight_ += static_cast<unsigned>(r);
        done += static_cast<unsigned>(r);
        Consume(static_cast<unsigned>(r));
        continue;
      }
      if (r == -EAGAIN) {
        // The kernel has no room right now: the worker reaps, then commits
        // again. With nothing in flight there is nothing to reap.
        ++counters_.eagain;
        if (inflight_ == 0 && nfailed_ == 0) {
          // An error hands the unsubmitted requests back to the worker
          // (engine.h): forget them so they are never submitted later.
          npending_ = 0;
          return ErrnoStatus("libaio: io_submit with nothing in flight", EAGAIN);
        }
        return done;
      }
      if (r == -EINTR) continue;  // nothing was taken: just ask again
      if (r == 0) return done;
      // The first pending iocb was refused (EBADF, EINVAL, ...): complete it
      // with that error and go on with the rest.
      auto* req = static_cast<IoRequest*>(pending_[0]->data);
      req->res = r;
      failed_[nfailed_++] = req;
      ++done;
      Consume(1);
    }
    return done;
  }

  Result<unsigned> Reap(unsigned min, unsigned max, IoRequest** out) override {
    return ReapWaiting(min, max, out, nullptr);
  }

  Result<unsigned> ReapFor(unsigned max, IoRequest** out, uint64_t timeout_ns) override {
    struct timespec ts = {static_cast<time_t>(timeout_ns / 1000000000u),
                          static_cast<long>(timeout_ns % 1000000000u)};
    return ReapWaiting(1, max, out, &ts);
  }

  void Shutdown() override {
    if (ctx_live_) {
      // io_destroy waits for in-flight I/O, so buffers stay valid until it returns.
      io_destroy(ctx_);
      ctx_live_ = false;
      ctx_ = nullptr;
      ring_ = nullptr;
    }
  }

  bool IsSync() const override { return false; }

 private:
  // Reap's work; `timeout` bounds the wait for `min` (nullptr: wait as long
  // as it takes). io_getevents returns 0 when the timeout passes first.
  Result<unsigned> ReapWaiting(unsigned min, unsigned max, IoRequest** out,
                               struct timespec* timeout) {
    unsigned n = 0;
    while (nfailed_ > 0 && n < max) out[n++] = failed_[--nfailed_];
    if (n >= max) return n;
    unsigned want_min = min > n ? min - n : 0;
    if (want_min > inflight_) want_min = inflight_;  // never wait for what cannot come
    unsigned room = max - n;
    if (room > depth_) room = depth_;
    if (inflight_ == 0) return n;

    // What has completed is in the ring already: take it without a system
    // call, and enter the kernel only to wait for what is still missing.
    unsigned got = 0;
    if (ring_ != nullptr) {
      got = ReapRing(room, out + n);
      n += got;
      if (got >= want_min) {
        counters_.CountReap(got, counters_.reap_syscalls);  // no system call
        return n;
      }
      want_min -= got;
      room -= got;
    }
    // Nothing to wait for: min_nr 0 with no timeout, as fio 3.33 asks, which
    // the kernel answers at once. A zero timeout would not do: libaio's
    // io_getevents wrapper (0.3.113) then returns 0 without a system call
    // when the ring is empty, and reap_syscalls would count calls that never
    // entered the kernel (495520 counted against 256 made).
    const uint64_t syscalls_before = counters_.reap_syscalls++;
    int r = io_getevents(ctx_, static_cast<long>(want_min), static_cast<long>(room), events_.get(),
                         want_min == 0 ? nullptr : timeout);
    if (r == -EINTR) r = 0;  // a signal: hand back what the ring gave
    if (r < 0) return ErrnoStatus("libaio: io_getevents", -r);
    for (int i = 0; i < r; ++i) {
      auto* req = static_cast<IoRequest*>(events_[i].data);
      // res is a long holding bytes or -errno; res2 is driver status.
      req->res = static_cast<int64_t>(static_cast<long>(events_[i].res));
      out[n++] = req;
    }
    inflight_ -= static_cast<unsigned>(r);
    counters_.CountReap(got + static_cast<unsigned>(r), syscalls_before);
    return n;
  }

  void Consume(unsigned k) {
    // Shift the unsubmitted tail down; k is usually all of it.
    if (k < npending_)
      std::memmove(pending_.get(), pending_.get() + k, (npending_ - k) * sizeof(struct iocb*));
    npending_ -= k;
  }

  // Reads completions straight from the mapped ring. The kernel publishes an
  // event and then advances tail (with a write barrier), so we load tail with
  // acquire before reading events, and store head with release after we are
  // done with them so the kernel never overwrites an event we still read.
  unsigned ReapRing(unsigned max, IoRequest** out) {
    unsigned head = __atomic_load_n(&ring_->head, __ATOMIC_RELAXED);
    unsigned tail = __atomic_load_n(&ring_->tail, __ATOMIC_ACQUIRE);
    const unsigned nr = ring_->nr;
    unsigned got = 0;
    while (head != tail && got < max) {
      const struct io_event& ev = ring_->events[head];
      auto* req = static_cast<IoRequest*>(ev.data);
      req->res = static_cast<int64_t>(static_cast<long>(ev.res));
      out[got++] = req;
      head = head + 1 == nr ? 0 : head + 1;
    }
    if (got > 0) {
      __atomic_store_n(&ring_->head, head, __ATOMIC_RELEASE);
      inflight_ -= got;
    }
    return got;
  }

  io_context_t ctx_ = nullptr;
  bool ctx_live_ = false;
  uint32_t depth_ = 0;
  bool userspace_reap_ = false;
  int rw_flags_ = 0;
  uint32_t sfr_flags_ = 0;  // sync_file_range flags (SYNC_FILE_RANGE_*)
  AioRing* ring_ = nullptr;
  std::unique_ptr<struct iocb[]> iocbs_;
  std::unique_ptr<struct iocb*[]> pending_;
  unsigned npending_ = 0;
  const std::vector<EngineFile>* files_ = nullptr;  // TrimNow: block device or file
  std::unique_ptr<struct io_event[]> events_;
  std::unique_ptr<IoRequest*[]> failed_;  // refused at submit, delivered by Reap
  unsigned nfailed_ = 0;
  unsigned inflight_ = 0;
};

Status ProbeLibaio() {
  io_context_t ctx = nullptr;
  int r = io_setup(1, &ctx);
  if (r < 0) {
    Status st = ErrnoStatus("libaio: io_setup(1)", -r);
    if (r == -ENOSYS)
      return Status::Unsupported(st.message() + ": this kernel has no native AIO (CONFIG_AIO=n)");
    if (r == -EAGAIN)
      return Status::Limit(st.message() +
                           ": fs.aio-max-nr is exhausted; raise it with sysctl fs.aio-max-nr=<n>");
    return st;
  }
  io_destroy(ctx);
  return Status::Ok();
}

Status CheckLibaioJob(const JobSpec& job, const std::vector<EngineFile>& files) {
  if (job.iodepth > kMaxAsyncDepth)
    return Status::Limit("libaio: iodepth=" + std::to_string(job.iodepth) +
                         " is above iobench's limit of " + std::to_string(kMaxAsyncDepth));
  uint64_t max_nr = 0, nr = 0;
  if (SystemAioLimit(&max_nr, &nr) == 0) {
    // Every clone (numjobs) sets up its own context of iodepth events. The
    // kernel charges fs.aio-nr with what io_setup asked: the limit needed is
    // what is in use plus this job's events, as the run's phase-wide check
    // (sys::CheckResources) says.
    uint64_t need = static_cast<uint64_t>(job.iodepth) * (job.numjobs == 0 ? 1 : job.numjobs);
    uint64_t avail = nr >= max_nr ? 0 : max_nr - nr;
    if (need > avail)
      return Status::Limit(
          "libaio: iodepth=" + std::to_string(job.iodepth) +
          (job.numjobs > 1 ? " x numjobs=" + std::to_string(job.numjobs) : "") + " needs " +
          std::to_string(need) + " AIO events but only " + std::to_string(avail) +
          " are free (fs.aio-max-nr=" + std::to_string(max_nr) +
          ", fs.aio-nr=" + std::to_string(nr) +
          "); raise it with `sysctl fs.aio-max-nr=" + std::to_string(nr + need) + "`");
  }
  if (job.nowait) IOB_RETURN_IF_ERROR(ProbeNowait("libaio", files));
  if (job.uncached)
    return Status::Unsupported(
        "libaio: uncached=1 is not supported by the libaio engine; use io_uring or pvsync2");
  return Status::Ok();
}

}  // namespace

EngineInfo LibaioEngineInfo() {
  return {"libaio",
          "Linux native asynchronous I/O (io_submit); async only with direct=1",
          false,
          [] { return std::unique_ptr<Engine>(new LibaioEngine()); },
          ProbeLibaio,
          {"userspace_reap", "nowait", "cmdprio_percentage", "cmdprio_class", "cmdprio",
           "cmdprio_bssplit"},
          CheckLibaioJob};
}

}  // namespace iobench
