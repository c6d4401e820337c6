// posixaio: POSIX asynchronous I/O through glibc (aio_read / aio_write /
// aio_fsync), fio's engine of that name.
//
// glibc implements POSIX AIO in user space: each request goes to a pool of
// helper threads of this process (at most 20 by default, aio_init(3)) that
// do the pread/pwrite/fsync. Requests for one file descriptor are served one
// at a time, in order, by one helper; that is glibc's design, not ours, and
// what fio measures too (docs/async-engines.md).
//
// One aiocb per pool request, set up in Init; the request carries it in
// engine_data. Queue() fills it and appends it to the pending list;
// Commit() hands each pending aiocb to glibc; Reap() polls aio_error() over
// the in-flight list and sleeps in aio_suspend() for what is still missing.
// An aiocb belongs to glibc from its aio_* call until aio_error() says it is
// done and aio_return() has been called: only then does Reap() hand the
// request back, and Shutdown() cancels or waits for everything in flight
// before the aiocbs (and the worker's buffers) may go away.
//
// Every request that Queue() accepted comes back exactly once from Reap(),
// including one that glibc refuses at submission (EAGAIN with nothing in
// flight aside): it completes with that error (engine.h, async-engines.md).
//
// Helper threads: glibc creates them from the thread that submits (or from
// another helper), and a new thread inherits its creator's name. Init names
// the worker's thread "iob-aio-<tid>", so the helpers it makes carry the
// same name and the helper CPU sampler (src/stats/helper_cpu.h) can label
// their CPU; Shutdown gives the worker its old name back.
//
// Thread-safety: one worker thread owns the engine (engine.h).
#include <aio.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engines/async_common.h"
#include "engines/engines.h"

namespace iobench {
namespace {

// aio_suspend() keeps two arrays of the list's length on the caller's stack
// (glibc), so a deep queue waits on this many of its requests at a time.
constexpr unsigned kMaxSuspendList = 1024;

class PosixAioEngine final : public Engine {
 public:
  ~PosixAioEngine() override { Shutdown(); }

  Status Init(const EngineContext& ctx) override {
    depth_ = ctx.iodepth == 0 ? 1 : ctx.iodepth;
    if (ctx.requests == nullptr || ctx.requests->size() < depth_)
      return Status::Internal("posixaio: request pool smaller than iodepth");
    files_ = ctx.files;
    sfr_flags_ = ctx.job->sync_file_range_flags;
    cbs_ = std::make_unique<struct aiocb[]>(depth_);
    pending_ = std::make_unique<struct aiocb*[]>(depth_);
    inflight_ = std::make_unique<struct aiocb*[]>(depth_);
    failed_ = std::make_unique<IoRequest*[]>(depth_);
    std::memset(cbs_.get(), 0, sizeof(struct aiocb) * depth_);
    for (uint32_t i = 0; i < depth_; ++i) {
      // Reaped by polling: glibc sends no notification and ignores
      // sigev_value, which carries the request back to us.
      cbs_[i].aio_sigevent.sigev_notify = SIGEV_NONE;
      cbs_[i].aio_sigevent.sigev_value.sival_ptr = &(*ctx.requests)[i];
      (*ctx.requests)[i].engine_data = &cbs_[i];
    }
    NameThread();
    return Status::Ok();
  }

  QueueResult Queue(IoRequest* req) override {
    if (npending_ + ninflight_ + nfailed_ >= depth_) return QueueResult::kBusy;
    // No aio operation for sync_file_range and trim: done in the call.
    // fio 3.33's posixaio answers busy for a trim while any I/O is in
    // flight (its pd->queued counts those not yet reaped), so the queue
    // drains before each: trimwrite iodepth=4 counts every I/O at depth 1.
    // sync_file_range waits so too: a write still in glibc's queue is not
    // yet in the page cache for it to sync. (fsync and fdatasync go to
    // glibc's queue behind the writes, as fio's aio_fsync.)
    if (req->op == IoOp::kTrim || req->op == IoOp::kSyncFileRange) [[unlikely]] {
      if (npending_ + ninflight_ + nfailed_ > 0) return QueueResult::kBusy;
    }
    if (auto done = QueueInCall(req, npending_, files_, sfr_flags_)) return *done;
    auto* cb = static_cast<struct aiocb*>(req->engine_data);
    cb->aio_fildes = req->fd;
    cb->aio_buf = req->buf;
    cb->aio_nbytes = req->length;
    cb->aio_offset = static_cast<off_t>(req->offset);
    cb->aio_reqprio = 0;
    pending_[npending_++] = cb;
    return QueueResult::kQueued;
  }

  Result<unsigned> Commit() override {
    unsigned done = 0;
    unsigned i = 0;
    for (; i < npending_; ++i) {
      struct aiocb* cb = pending_[i];
      IoRequest* req = RequestOf(cb);
      int r;
      switch (req->op) {
        case IoOp::kRead:
          r = aio_read(cb);
          break;
        case IoOp::kWrite:
          r = aio_write(cb);
          break;
        case IoOp::kFsync:
          r = aio_fsync(O_SYNC, cb);
          break;
        default:  // kFdatasync: Queue() completes the other operations itself
          r = aio_fsync(O_DSYNC, cb);
          break;
      }
      ++counters_.submit_calls;
      if (r == 0) {
        ++counters_.submitted;
        last_submitted_ = cb;
        inflight_[ninflight_++] = cb;
        ++done;
        continue;
      }
      const int err = errno;
      if (err == EAGAIN) {
        // glibc could not take the request (no memory for it, no helper
        // thread could be made): the worker reaps, then commits again. With
        // nothing in flight there is nothing to reap.
        ++counters_.eagain;
        if (ninflight_ == 0 && nfailed_ == 0) {
          npending_ = 0;  // handed back to the worker with the error (engine.h)
          return ErrnoStatus("posixaio: aio_read/aio_write with nothing in flight", EAGAIN);
        }
        break;
      }
      // Refused outright (glibc's aio_fsync checks the descriptor: EBADF):
      // complete it with that error, go on with the rest.
      req->res = -err;
      failed_[nfailed_++] = req;
      ++done;
    }
    if (i < npending_)
      std::memmove(pending_.get(), pending_.get() + i, (npending_ - i) * sizeof(struct aiocb*));
    npending_ -= i;
    return done;
  }

  Result<unsigned> Reap(unsigned min, unsigned max, IoRequest** out) override {
    const uint64_t syscalls_before = counters_.reap_syscalls;
    unsigned n = TakeFailed(max, out);
    if (min > ninflight_ + n) min = ninflight_ + n;  // never wait for what cannot come
    n += Harvest(max - n, out + n);
    while (n < min && n < max) {
      if (Suspend(nullptr) < 0 && errno != EINTR && errno != EAGAIN)
        return ErrnoStatus("posixaio: aio_suspend", errno);
      n += Harvest(max - n, out + n);
    }
    counters_.CountReap(n, syscalls_before);
    return n;
  }

  Result<unsigned> ReapFor(unsigned max, IoRequest** out, uint64_t timeout_ns) override {
    const uint64_t syscalls_before = counters_.reap_syscalls;
    unsigned n = TakeFailed(max, out);
    n += Harvest(max - n, out + n);
    if (n == 0 && ninflight_ > 0) {
      struct timespec ts = {static_cast<time_t>(timeout_ns / 1000000000u),
                            static_cast<long>(timeout_ns % 1000000000u)};
      // 0: one finished; EAGAIN: the timeout passed; EINTR: a signal.
      if (Suspend(&ts) < 0 && errno != EINTR && errno != EAGAIN)
        return ErrnoStatus("posixaio: aio_suspend", errno);
      n += Harvest(max, out);
    }
    counters_.CountReap(n, syscalls_before);
    return n;
  }

  void Shutdown() override {
    if (cbs_ == nullptr) return;
    // Cancel what a helper has not started yet (glibc cannot stop a running
    // one), then wait for all of it: until then glibc may still write the
    // aiocbs and the helpers the buffers.
    for (unsigned i = 0; i < ninflight_; ++i) aio_cancel(inflight_[i]->aio_fildes, inflight_[i]);
    for (;;) {
      unsigned busy = 0;
      for (unsigned i = 0; i < ninflight_; ++i) busy += aio_error(inflight_[i]) == EINPROGRESS;
      if (busy == 0) break;
      (void)Suspend(nullptr);
    }
    for (unsigned i = 0; i < ninflight_; ++i) (void)aio_return(inflight_[i]);
    // A helper publishes a completion and then, still under glibc's request
    // lock, reads the aiocb once more. aio_suspend takes that lock: once it
    // returns, no helper touches our aiocbs again.
    if (last_submitted_ != nullptr) {
      const struct aiocb* one[1] = {last_submitted_};
      struct timespec zero = {0, 0};
      (void)aio_suspend(one, 1, &zero);
    }
    ninflight_ = npending_ = nfailed_ = 0;
    RestoreThreadName();
    cbs_.reset();
  }

  bool IsSync() const override { return false; }

 private:
  static IoRequest* RequestOf(struct aiocb* cb) {
    // Init put the request's address in sigev_value (unused with SIGEV_NONE).
    return reinterpret_cast<IoRequest*>(cb->aio_sigevent.sigev_value.sival_ptr);
  }

  unsigned TakeFailed(unsigned max, IoRequest** out) {
    unsigned n = 0;
    while (nfailed_ > 0 && n < max) out[n++] = failed_[--nfailed_];
    return n;
  }

  // Hands out up to `max` finished requests. aio_error() and aio_return()
  // read the aiocb (no system call); the helper stores the result before the
  // status, so the acquire fence orders our read of the result after it.
  unsigned Harvest(unsigned max, IoRequest** out) {
    unsigned n = 0;
    for (unsigned i = 0; i < ninflight_ && n < max;) {
      struct aiocb* cb = inflight_[i];
      const int err = aio_error(cb);
      if (err == EINPROGRESS) {
        ++i;
        continue;
      }
#if !defined(__SANITIZE_THREAD__)
      // GCC refuses fences under -fsanitize=thread (-Werror=tsan); TSan does
      // not see glibc's uninstrumented helper writes anyway.
      std::atomic_thread_fence(std::memory_order_acquire);
#endif
      const ssize_t ret = aio_return(cb);
      IoRequest* req = RequestOf(cb);
      req->res = err != 0 ? -static_cast<int64_t>(err) : static_cast<int64_t>(ret);
      out[n++] = req;
      inflight_[i] = inflight_[--ninflight_];  // order does not matter
    }
    return n;
  }

  // Sleeps until one of (up to kMaxSuspendList of) the in-flight requests
  // finishes or `timeout` passes. aio_suspend's return and errno.
  int Suspend(const struct timespec* timeout) {
    ++counters_.reap_syscalls;
    const unsigned n = ninflight_ < kMaxSuspendList ? ninflight_ : kMaxSuspendList;
    return aio_suspend(inflight_.get(), static_cast<int>(n), timeout);
  }

  // See the header comment: the helpers inherit this name, so their CPU can
  // be told from the rest of the process. prctl(PR_SET_NAME) names the
  // calling thread only.
  void NameThread() {
    char name[16] = {};
    if (prctl(PR_GET_NAME, old_name_) != 0) return;
    named_tid_ = gettid();
    std::snprintf(name, sizeof(name), "iob-aio-%d", static_cast<int>(named_tid_));
    if (prctl(PR_SET_NAME, name) == 0) renamed_ = true;
  }
  void RestoreThreadName() {
    // Only on the thread that was renamed (the destructor may run elsewhere).
    if (renamed_ && gettid() == named_tid_) (void)prctl(PR_SET_NAME, old_name_);
    renamed_ = false;
  }

  uint32_t depth_ = 0;
  uint32_t sfr_flags_ = 0;
  const std::vector<EngineFile>* files_ = nullptr;  // TrimNow
  std::unique_ptr<struct aiocb[]> cbs_;             // one per pool request
  std::unique_ptr<struct aiocb*[]> pending_;        // queued, not yet submitted
  unsigned npending_ = 0;
  std::unique_ptr<struct aiocb*[]> inflight_;  // glibc's until aio_return
  unsigned ninflight_ = 0;
  std::unique_ptr<IoRequest*[]> failed_;  // refused at submit, delivered by Reap
  unsigned nfailed_ = 0;
  const struct aiocb* last_submitted_ = nullptr;
  char old_name_[16] = {};
  pid_t named_tid_ = 0;
  bool renamed_ = false;
};

// glibc's AIO answers here: aio_cancel on /dev/null with nothing queued is
// AIO_ALLDONE. No request is made: a request starts a helper thread that
// idles on for a second and serves the run's first job, with the prober's
// I/O priority, nice and CPU affinity instead of the job's (prio=2 came out
// as the default 0x2,0,4 on the block layer). A job's first request starts
// its helpers from its own thread, with its settings; if glibc cannot start
// one, that aio_read says EAGAIN and the job fails with it.
Status ProbePosixAio() {
  int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("posixaio: open /dev/null", errno);
  const int r = aio_cancel(fd, nullptr);
  const int err = errno;
  close(fd);
  if (r == -1) return ErrnoStatus("posixaio: aio_cancel", err);
  if (r != AIO_ALLDONE)
    return Status::Unsupported("posixaio: aio_cancel of nothing said " + std::to_string(r) +
                               ", not AIO_ALLDONE");
  return Status::Ok();
}

Status CheckPosixAioJob(const JobSpec& job, const std::vector<EngineFile>&) {
  if (job.iodepth > kMaxAsyncDepth)
    return Status::Limit("posixaio: iodepth=" + std::to_string(job.iodepth) +
                         " is above iobench's limit of " + std::to_string(kMaxAsyncDepth));
  return Status::Ok();
}

}  // namespace

EngineInfo PosixAioEngineInfo() {
  return {"posixaio",
          "POSIX asynchronous I/O (glibc aio_read/aio_write, served by helper threads)",
          false,
          [] { return std::unique_ptr<Engine>(new PosixAioEngine()); },
          ProbePosixAio,
          {},
          CheckPosixAioJob};
}

}  // namespace iobench
