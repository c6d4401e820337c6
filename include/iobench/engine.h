// The I/O engine contract (fio's ioengine ops, trimmed).
//
// A worker owns one Engine and calls it only from its own thread:
//   Configure(job) and Init(ctx) once; then repeatedly Queue(req) for each prepared request,
//   Commit() to push queued requests to the kernel, Reap(min, max, out) to
//   collect completions; finally Shutdown(). Between passes, with nothing in
//   flight, FileReopened(i) when file i was replaced (unlink_each_loop);
//   with openfiles below the file count, FileClosing(i) / FileReopened(i)
//   as the worker closes and opens file i during the run (nothing of file i
//   in flight; other files' I/O may be).
// Sync engines complete inside Queue() and return kCompleted (req->res set).
// Async engines return kQueued (completion comes from Reap) or kBusy (no slot:
// the worker must Commit()/Reap() and retry the same request).
//
// The engine does I/O and nothing else: the worker stamps times, counts bytes,
// requeues short transfers and applies the error policy. Engines never print
// and never allocate per I/O. res is bytes transferred or -errno.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "iobench/job.h"
#include "iobench/status.h"

namespace iobench {

// kSyncFileRange: sync_file_range(2) of [offset, offset + length) with the
// job's sync_file_range flags (EngineContext::job->sync_file_range_flags).
enum class IoOp : uint8_t {
  kRead = 0,
  kWrite = 1,
  kTrim = 2,
  kFsync = 3,
  kFdatasync = 4,
  kSyncFileRange = 5,
};

// One I/O in flight. Lives in the worker's request pool for the whole run;
// the pointer is stable, so async engines carry it in user_data / iocb->data.
struct IoRequest {
  IoOp op = IoOp::kRead;
  uint8_t flags = 0;        // kReqForceAsync, kReqHighPrio, ...
  uint16_t prio = 0;        // ioprio value for cmdprio, 0: none
  uint32_t file_index = 0;  // index into EngineContext::files
  int fd = -1;
  uint64_t offset = 0;  // byte offset of this (possibly requeued) part
  uint64_t length = 0;  // bytes to transfer in this part
  void* buf = nullptr;  // aligned buffer, owned by the worker
  int64_t res = 0;      // set by the engine: bytes or -errno
  // Worker-owned bookkeeping (engines must not touch):
  uint64_t start_ns = 0;        // prepared
  uint64_t issue_ns = 0;        // handed to the kernel
  uint64_t xfer_offset = 0;     // offset of the whole I/O
  uint64_t xfer_length = 0;     // length of the whole I/O
  uint32_t index = 0;           // slot in the worker pool
  uint32_t buf_index = 0;       // registered buffer index (fixedbufs)
  void* engine_data = nullptr;  // engine-private per-request state, set in Init
};

inline constexpr uint8_t kReqForceAsync = 1u << 0;  // io_uring IOSQE_ASYNC
inline constexpr uint8_t kReqHighPrio = 1u << 1;    // cmdprio chose this one
inline constexpr uint8_t kReqHipri = 1u << 2;       // RWF_HIPRI / polled
// A sync_file_range with nothing written since the last one: it completes
// without a call, as fio's do_sync_file_range does for its empty range.
inline constexpr uint8_t kReqEmptyRange = 1u << 3;

enum class QueueResult : uint8_t { kCompleted, kQueued, kBusy };

struct EngineFile {
  std::string path;
  // Opened by the worker just before Init (or FileReopened) and not read or
  // written through since: its file position is 0 (sync/vsync rely on it).
  int fd = -1;
  bool is_block_device = false;
  uint64_t size = 0;
};

// What an engine gets at Init. Pointers stay valid until Shutdown().
struct EngineContext {
  const JobSpec* job = nullptr;
  uint32_t iodepth = 1;
  const std::vector<EngineFile>* files = nullptr;
  std::vector<IoRequest>* requests = nullptr;  // the pool, size == iodepth
  void* buffer_base = nullptr;                 // one contiguous region holding all buffers
  uint64_t buffer_bytes = 0;                   // for fixedbufs registration
  uint64_t buffer_stride = 0;                  // bytes per request buffer
};

// Per-engine counters the worker reports (t/io_uring's "IOS/call").
struct EngineCounters {
  uint64_t submit_calls = 0;  // io_submit / io_uring_enter for submission
  uint64_t submitted = 0;     // requests those calls submitted
  uint64_t reap_calls = 0;    // reaps that returned completions or entered the kernel
  uint64_t reaped = 0;
  uint64_t reap_syscalls = 0;  // system calls made to reap (io_getevents, io_uring_enter)
  uint64_t eagain = 0;         // submissions refused with EAGAIN (retried)

  // Ends one reap that returned n completions; syscalls_before is
  // reap_syscalls when it began. A reap counts as a call when it returned
  // completions or entered the kernel (an empty min=0 poll that made a
  // system call is one), so reap_syscalls <= reap_calls and reaped /
  // reap_calls falls when polling spins. Only a look at the ring that found
  // nothing and made no system call is left out: it costs a load.
  void CountReap(unsigned n, uint64_t syscalls_before) {
    if (n == 0 && reap_syscalls == syscalls_before) return;
    ++reap_calls;
    reaped += n;
  }
};

class Engine {
 public:
  virtual ~Engine() = default;

  // Called once, by the worker that owns the engine, before any other call
  // (IsSync() included): an engine whose kind depends on the job decides it
  // here (null: synchronous at iodepth=1 only, as fio's). Not on the hot path.
  virtual void Configure(const JobSpec& job) { (void)job; }
  virtual Status Init(const EngineContext& ctx) = 0;
  virtual QueueResult Queue(IoRequest* req) = 0;
  // Submits what Queue() accepted. Returns how many were submitted, or an
  // error when the kernel refused the batch (requests stay owned by the
  // engine only if submitted).
  virtual Result<unsigned> Commit() { return 0u; }
  // Waits for at least `min` completions (0: don't block), stores up to `max`
  // request pointers in `out`, returns how many. `out` has room for iodepth:
  // an engine whose completions come in batches may store its whole batch
  // (null, as fio's null engine ignores min and max).
  virtual Result<unsigned> Reap(unsigned min, unsigned max, IoRequest** out) {
    (void)min;
    (void)max;
    (void)out;
    return 0u;
  }
  // Waits at most `timeout_ns` for one completion, stores up to `max` in
  // `out`, returns how many (0: none came in time). The worker uses it while
  // the next I/O is not due yet (read_iolog timing), so completions are
  // stamped when they arrive and the next I/O still goes out on time. This
  // default does not wait: the worker sleeps the rest itself.
  virtual Result<unsigned> ReapFor(unsigned max, IoRequest** out, uint64_t timeout_ns) {
    (void)timeout_ns;
    return Reap(0, max, out);
  }
  virtual void Shutdown() {}
  // Called before the worker drops [offset, offset + len) of file
  // `file_index` from the page cache (invalidate=1, each pass): an engine
  // that maps files releases its pages of that range, which the page cache
  // cannot drop while they are mapped. Not on the hot path.
  virtual void ReleaseCachedRange(uint32_t file_index, uint64_t offset, uint64_t len) {
    (void)file_index;
    (void)offset;
    (void)len;
  }
  // Called when the worker has closed file `file_index` and opened it again
  // (unlink_each_loop: removed and created anew, empty for a writing job;
  // openfiles: the file service's turn came to a closed file):
  // EngineContext::files[file_index].fd is the new descriptor, at position 0,
  // and nothing of the file is in flight. An engine that keeps state per file
  // from Init (a known file position, a mapping, a registered file) renews
  // it here, so no I/O goes to the old descriptor. An error fails the job.
  // With openfiles, Init may see files whose fd is -1 (closed until their
  // turn). Not on the hot path.
  virtual Status FileReopened(uint32_t file_index) {
    (void)file_index;
    return Status::Ok();
  }
  // Called before the worker closes file `file_index`'s descriptor during
  // the run (openfiles below the file count: the file's pass is over), with
  // nothing of that file in flight. An engine that keeps state per file (a
  // mapping, a known position) drops it; FileReopened follows if the file
  // is opened again. Not on the hot path.
  virtual void FileClosing(uint32_t file_index) { (void)file_index; }
  // The sync that ends a loop or the job (end_fsync, fsync_on_close) of file
  // `file_index`, open at `fd`, with nothing in flight: 0 or -errno. fio
  // sends it through the engine as a sync request, so an engine whose syncs
  // are something else does that (mmap: msync(MS_SYNC) of the mapping).
  // fsync(2) here. Not on the hot path.
  virtual int EndSync(uint32_t file_index, int fd) {
    (void)file_index;
    return ::fsync(fd) == 0 ? 0 : -errno;
  }
  // An engine whose work is one call on each file, made where the worker
  // would open it (filecreate, filestat, filedelete, as fio's engines of
  // those names): the worker opens no file itself, calls FileCall(file) at
  // the file's first I/O of each loop (or its openfiles turn), in the job's
  // time, and records how long the call took as a completion latency of the
  // job's direction. The I/Os themselves complete in Queue without a call
  // and record no latency (fio's FIO_NOSTATS). Asked once, after
  // Configure(). Not on the hot path.
  virtual bool CallsPerFile() const { return false; }
  // That call on `file`: the descriptor it opened, which the worker keeps
  // as the file's and closes (-1: none), or the error.
  virtual Result<int> FileCall(const EngineFile& file) {
    (void)file;
    return -1;
  }
  // Sync engines complete in Queue; the worker skips Commit/Reap for them.
  virtual bool IsSync() const = 0;
  // True when, once Commit() issued a batch, Queue() takes nothing more
  // (kBusy) until Reap() returned that batch (null at iodepth > 1, as fio's).
  // The worker then reaps right after each commit instead of preparing an
  // I/O only to have it refused. Asked once, after Init().
  virtual bool OneBatchAtATime() const { return false; }
  // Whether threads other than the worker's (io-wq, SQPOLL, glibc's AIO
  // helpers) may do the engine's I/O, so the run samples their CPU time and
  // attributes it to the job: the async engines, not null (it does no I/O).
  virtual bool UsesHelperThreads() const { return !IsSync(); }
  // False for an engine whose requests move no data (cpuio): the worker
  // reports their count and latency but no bytes, as fio does for its
  // FIO_NOIO engines. Asked once, at the end of the run and per snapshot.
  virtual bool MovesData() const { return true; }
  virtual const EngineCounters& counters() const { return counters_; }

 protected:
  EngineCounters counters_;
};

// What the registry knows about an engine (engines/registry.cc, one table).
struct EngineInfo {
  const char* name;
  const char* help;
  bool is_sync;
  std::unique_ptr<Engine> (*factory)();
  // Can this machine run the engine at all? OK, or why not and what to do.
  Status (*probe)();
  // Names of the engine's own options (rows in the option table).
  std::vector<std::string> options;
  // Checks a job against this engine and this kernel before the run
  // (e.g. pvsync2 uncached on tmpfs). May be null.
  Status (*check_job)(const JobSpec& job, const std::vector<EngineFile>& files);
};

// Whether jobs of engine `name` have no file: nothing is opened, created or
// laid out (null and cpuio, as fio's FIO_DISKLESSIO engines).
inline bool DisklessEngine(const std::string& name) { return name == "null" || name == "cpuio"; }

const std::vector<EngineInfo>& EngineRegistry();
const EngineInfo* FindEngine(const std::string& name);

}  // namespace iobench
