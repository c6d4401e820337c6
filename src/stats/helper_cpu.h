// HelperCpuSampler: the CPU of the kernel's helper threads that served this
// process — io_uring's io-wq workers ("iou-wrk-<tid>") and SQPOLL threads
// ("iou-sqp-<tid>"), where <tid> is the thread that created the ring (with
// SQPOLL, the io-wq workers are made by, and named after, the SQPOLL thread).
// fio leaves them out; iobench reports them, per interval and per worker thread.
//
// Method (docs/cpu-accounting.md):
//  * all helper CPU = getrusage(RUSAGE_SELF) delta over [Start, Stop]
//    - the worker threads' own RUSAGE_THREAD totals (the caller passes them)
//    - the sampler thread's own CPU.
//    RUSAGE_SELF includes threads that already exited, so short-lived io-wq
//    workers are never lost.
//  * the split by kind comes from a sampler thread that reads
//    /proc/self/task/*/comm and .../schedstat (ns of CPU; .../stat ticks as a
//    fallback) every `interval_ms` and once more at Stop: per-thread CPU
//    deltas, and the peak count of each kind. The kernel's helper threads
//    run only in the kernel, so their time is reported as sys.
//  * glibc's POSIX AIO threads (ioengine=posixaio) are ordinary threads of
//    the process named "iob-aio-<tid>" after the posixaio worker whose
//    submission made them (engines/posixaio.cc names the worker; a new
//    thread inherits its creator's name). They run user code too: their
//    schedstat total is split by the stat file's user/system tick ratio.
//    glibc's pool is shared by the whole process and an idle thread lives on
//    for a second, so one may serve another posixaio job than its creator's:
//    ForThread() labels by creator.
//  * what the samples cannot attribute (helpers that exited between two
//    samples, the coordinator/main thread) is reported as "other".
//
// Ownership and threads: one sampler per measured interval (a group run),
// owned by the coordinator. Start(), Stop() and the queries must not race:
// call them from one thread, or hand the sampler over with a join. The
// sampler's own thread is private. Order: Start() before the workers create
// their rings; Stop() while the workers' threads and rings still exist (after
// the measured I/O, before Shutdown() and thread exit): the kernel ends a
// thread's io-wq workers with it, and whatever they did after the last sample
// is then only in "other", not attributed.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "iobench/stats.h"
#include "iobench/status.h"

namespace iobench {

// Everything the sampler measured; HelperCpu (stats.h) is the part the
// report needs. Times in microseconds.
struct HelperCpuDetail {
  HelperCpu cpu;  // iowq, sqpoll, aio, other; peak_threads = max(iowq+sqpoll+aio)
  uint32_t peak_iowq_threads = 0;
  uint32_t peak_sqpoll_threads = 0;
  uint32_t peak_aio_threads = 0;
  uint64_t all_helpers_user_us = 0;  // RUSAGE_SELF delta - workers - sampler
  uint64_t all_helpers_sys_us = 0;
  uint64_t process_user_us = 0;  // RUSAGE_SELF delta
  uint64_t process_sys_us = 0;
  uint64_t sampler_user_us = 0;  // the sampler's own cost, excluded above
  uint64_t sampler_sys_us = 0;
  uint64_t samples = 0;
};

// Fills d->all_helpers_*, and d->cpu from `tracked` (the io-wq, SQPOLL and
// POSIX AIO threads' own CPU) plus "other": the rest of the helpers' total,
// which is d's process CPU minus the workers' and the sampler's. The totals
// add up exactly; only the user/system split is an estimate.
void AttributeHelperCpu(HelperCpuDetail* d, const CpuUsage& workers_own_total,
                        const HelperCpu& tracked);

class HelperCpuSampler {
 public:
  explicit HelperCpuSampler(uint32_t interval_ms = 100);
  ~HelperCpuSampler();  // stops the sampler if still running
  HelperCpuSampler(const HelperCpuSampler&) = delete;
  HelperCpuSampler& operator=(const HelperCpuSampler&) = delete;

  // Takes the RUSAGE_SELF baseline and the helpers' current CPU, and starts
  // the sampler thread. Fails only if the thread cannot be created.
  Status Start();
  // Takes a final sample, stops the thread, takes the RUSAGE_SELF end point.
  // Idempotent.
  void Stop();
  // Takes a sample now, from any thread, between Start() and Stop(). A
  // worker (or the coordinator) calls it when its I/O is done and before its
  // ring is torn down or its thread exits, so the helpers' last CPU is still
  // attributed (the kernel ends a thread's io-wq workers with the thread).
  void SampleNow();

  // After Stop(). `workers_own_total` = sum of the workers' RUSAGE_THREAD
  // deltas over the same interval (ThreadStats::cpu summed over all jobs).
  HelperCpu Result(const CpuUsage& workers_own_total) const;
  HelperCpuDetail Detail(const CpuUsage& workers_own_total) const;
  // After Stop(): the wall time from Start() to Stop() in µs, over which
  // Result()'s "other" accrued.
  uint64_t WallUs() const;

  // After Stop(). The helpers that served one worker thread (the thread that
  // created the io_uring ring, i.e. the job's worker): the kernel names them
  // "iou-wrk-<N>" / "iou-sqp-<N>" with N = `kernel_tid` (KernelTid() of that
  // thread; 0 = unknown: no io_uring helper is labelled), posixaio's carry
  // `worker_tid` (its gettid()). With SQPOLL the io-wq workers are the
  // SQPOLL thread's ("iou-wrk-<its tid>"): they count for the job of
  // "iou-sqp-<N>", in the CPU and in peak_threads. Exact up to sampling.
  // other_* is 0 here: what the samples missed is only known for the whole
  // interval (Result()); spread it with SplitHelperCpu.
  // With `to_period_end`, a helper whose CPU EndPeriod() recorded counts up
  // to that reading only (the job's own figures); without, up to the last
  // sample (what the group's totals hold).
  HelperCpu ForThread(pid_t worker_tid, pid_t kernel_tid, bool to_period_end = false) const;
  // Between Start() and Stop(), from the worker when its measured period
  // begins: returns ForThread() so far (empty when not sampling), and the
  // coordinator takes that part out of the job's helpers, so the period's
  // CPU shares divide by the measured runtime only (SQPOLL spinning from the
  // ring's creation to the first I/O read 135% of a 9 ms run). `scan`: after
  // a ramp or a latency_target search, which may have made helpers, a whole
  // sample of /proc/self/task; without, only the worker's helpers seen so
  // far are read (its ring made them before Start()): a few syscalls, not a
  // scan per worker, which 252 workers would take in turn under one lock.
  // `helpers` (may be null) gets the tids of the worker's helpers known now,
  // for ReadThreads() at the period's end. Not per I/O.
  HelperCpu SampleForThread(pid_t worker_tid, pid_t kernel_tid, bool scan,
                            std::vector<pid_t>* helpers);
  // One helper's CPU at the end of its job's measured period.
  struct Reading {
    pid_t tid = 0;
    uint64_t user_us = 0, sys_us = 0;
  };
  // From the worker, the moment its measured period ends (before it reads
  // the end time): the CPU of `helpers` now, exactly (their thread CPU
  // clocks) into `out` (cleared; reserve it beforehand: no allocation). No
  // lock, no /proc scan: a few syscalls inside the runtime.
  static void ReadThreads(const std::vector<pid_t>& helpers, std::vector<Reading>* out);
  // Then, from the same worker, once its end time is taken: records those
  // readings as the helpers' CPU at the period's end (ForThread with
  // `to_period_end`). A SQPOLL thread spins on after the last I/O: what it
  // does after the end (the job's bookkeeping, SampleNow) is not the
  // period's. Helpers not read here (born during the period) count up to
  // the last sample, as before.
  void EndPeriod(const std::vector<Reading>& readings);

  // The calling thread's CPU (what a worker records as its own): getrusage's
  // RUSAGE_THREAD plus the exact total (CpuUsage::thread_ns). Subtract two
  // readings with CpuSince().
  static CpuUsage ThreadCpuNow();
  // The calling thread's id (gettid), what a worker reports for ForThread().
  static pid_t CurrentTid();
  // The number the kernel writes into the names of the io_uring helpers the
  // calling thread creates: its tid in the initial PID namespace. gettid()
  // outside a PID namespace; inside one, NSpid's first entry when /proc is
  // the initial namespace's; 0 when it cannot be learnt (a container's own
  // /proc shows no id of the initial namespace). Once per worker, not per I/O.
  static pid_t KernelTid();

 private:
  enum class Kind : uint8_t { kIoWq, kSqPoll, kPosixAio };
  static void AddTo(HelperCpu* h, Kind kind, uint64_t user_us, uint64_t sys_us);
  struct Track {
    Kind kind;
    pid_t owner = 0;                    // the thread that made this helper (comm suffix)
    uint64_t base_ut = 0, base_st = 0;  // µs when first seen (0 if born after Start)
    uint64_t last_ut = 0, last_st = 0;
    uint64_t end_ut = 0, end_st = 0;  // at its job's period end (EndPeriod)
    bool ended = false;
  };
  bool Mine(const Track& t, pid_t worker_tid, pid_t kernel_tid) const;
  // The job thread a helper served: its owner, or for an io-wq worker of a
  // SQPOLL thread ("iou-wrk-<sqp tid>") that thread's owner.
  // REQUIRES: sample_mu_ held, or after Stop().
  pid_t JobOwner(const Track& t) const;
  void Loop();
  void Sample(bool initial);
  void SampleLocked(bool initial);  // REQUIRES: sample_mu_ held

  const uint32_t interval_ms_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;     // guarded by mu_
  bool active_ = false;   // guarded by sample_mu_: between Start and Stop
  bool running_ = false;  // coordinator thread only

  // Written under sample_mu_ by the sampler thread and SampleNow(); read by
  // the queries after Stop() (the join orders them).
  std::mutex sample_mu_;
  std::map<pid_t, Track> tracks_;
  uint32_t peak_iowq_ = 0, peak_sqpoll_ = 0, peak_aio_ = 0, peak_total_ = 0;
  std::map<std::pair<bool, pid_t>, uint32_t> owner_peak_;  // (posixaio?, owner)
  uint64_t samples_ = 0;
  CpuUsage sampler_own_;

  CpuUsage self_start_, self_end_;
  std::chrono::steady_clock::time_point start_wall_, end_wall_;
};

// Splits a group's helper CPU over its jobs in proportion to `weights`
// (e.g. each job's io_uring submissions; jobs of other engines weigh 0). Meant
// for the part ForThread() cannot label (the group's other_*): that part is
// apportioned, not measured; see docs/cpu-accounting.md. With all weights 0
// every job gets an equal share. Rounding goes to the last job so the parts
// sum to the whole. peak_threads is copied to every job with a non-zero
// weight (to all when the weights are all 0).
std::vector<HelperCpu> SplitHelperCpu(const HelperCpu& group, const std::vector<uint64_t>& weights);

// The thread's CPU between two ThreadCpuNow() readings (`start` may be a
// default CpuUsage: since the thread began). getrusage's user and system
// times of a thread advance only at scheduler ticks (4 ms at HZ=250), so a
// short job read 0 % or 130 %; the total is now the exact one, split into
// user and system time in the ratio getrusage saw over the interval (over
// the thread's life when no tick fell in it; all system time when none did
// at all, as for the kernel's helpers).
CpuUsage CpuSince(const CpuUsage& start, const CpuUsage& now);

}  // namespace iobench
