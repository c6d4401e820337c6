// Worker: one thread per numjobs clone. It owns its Engine, request pool
// (iodepth requests whose buffers sit in one aligned region), IoPattern,
// RateLimiter, BufferFiller, ThreadStats and LiveCounters.
//
// Life cycle (all on the worker's own thread except where noted):
//   Setup()   open targets, allocate, create pattern/engine; parallel across workers
//   Run()     after the coordinator's start signal; the I/O loop
//   result()  read by the coordinator after the thread is joined
// live() may be read by any thread at any time (relaxed atomics).
//
// The loop is async-capable: it fills the queue (Queue: Completed -> account
// now; Queued -> in flight; Busy -> Commit + Reap, then retry), commits in
// batches of iodepth_batch_submit and reaps at least
// iodepth_batch_complete_min. The clock is read once per fill (prepare
// stamp), once per Commit (issue stamp) and once per Reap (completion stamp),
// never per I/O in a batch. No allocation, lock or printing per I/O.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "iobench/engine.h"
#include "iobench/job.h"
#include "iobench/stats.h"
#include "iobench/status.h"
#include "run/buffers.h"
#include "run/latency_target.h"
#include "run/pattern.h"
#include "run/replay.h"
#include "run/target.h"
#include "run/verify.h"
#include "run/verify_async.h"
#include "stats/helper_cpu.h"
#include "stats/iolog.h"

namespace iobench {

// Why a worker was told to stop early.
enum StopReason : int { kStopNone = 0, kStopSignal = 1, kStopExitall = 2 };

// Shared by the workers of one phase; owned by the coordinator. Workers only
// read their stop flag (`stop`, or their reporting group's: Worker::SetStopFlag;
// relaxed) once per batch and `start_ns` after the start signal.
// One flow_id's shared counts (fio's struct fio_flow): I/Os issued by its
// jobs so far (from 1, as fio, so a ratio never divides by 0) and the sum of
// the weights of its jobs still running. Relaxed atomics: a slightly stale
// count only moves a ratio by an I/O.
struct FlowGroup {
  std::atomic<uint64_t> ios{1};
  std::atomic<uint64_t> weight{0};
};

struct WorkerControl {
  std::atomic<int> go{0};  // 0: wait; 1: run; -1: abort (a setup failed)
  std::atomic<int> stop{kStopNone};
  std::atomic<int> setup_left{0};  // counted down by each worker after Setup()
  std::atomic<int> running{0};     // workers not yet finished
  uint64_t start_ns = 0;           // written before go = 1
  // The first phase's start_ns, fio's "genesis": startdelay counts from it,
  // so a job of a later phase (stonewall) or one released by wait_for
  // starts at once when its delay has passed already. 0: this phase's.
  uint64_t run_start_ns = 0;
  // Kernel helper-thread sampler of this phase (io-wq, SQPOLL), or null.
  // Each worker samples once when its I/O is done: the kernel ends a
  // thread's io-wq workers with the thread, so later samples miss them.
  HelperCpuSampler* helper_sampler = nullptr;
  // The run's log writer (issue 8), or null when no job of the run logs.
  // Workers open their files through it in Setup() (it locks; not hot).
  LogWriter* log_writer = nullptr;
  // flow=: this phase's groups by flow_id, filled before go = 1 (null: none).
  std::map<uint32_t, FlowGroup>* flows = nullptr;
  // The run's stop flag (a signal's number, 0 until one came), for the long
  // steps of a worker's Setup() (pre_read) that `stop` cannot reach yet.
  const std::atomic<int>* signal = nullptr;
  // RunOptions::interval_reports: keep every latency histogram.
  bool interval_reports = false;
};

// Whether an I/O error of `ddir` with errno `err` lets the job go on, as
// fio decides it (continue_on_error, ignore_error; see worker.cc).
bool ErrorTolerated(const JobSpec& job, Ddir ddir, int err);
// Whether continue_on_error covers the error's class (fio then counts the
// error in total_err, tolerated or not). EILSEQ is the verify class.
bool ClassCovered(const JobSpec& job, Ddir ddir, int err);

// startdelay in ns for a clone with `seed`: the fixed value, or one drawn
// uniformly in [lo, hi] (startdelay=lo-hi) from the seed's own stream.
uint64_t StartDelayNs(const JobSpec& job, uint64_t seed);

class Worker {
 public:
  // `engine` is the engine instance to use (from the registry, or a test's
  // fake). `targets` are resolved and laid out already. jobnum: the clone
  // index within numjobs; worker_index: this worker's index among all workers
  // of the run (seeds derive from it, so every worker gets its own sequence).
  Worker(const JobSpec& job, int jobnum, uint32_t worker_index, int groupid,
         std::vector<TargetFile> targets, std::unique_ptr<Engine> engine, WorkerControl* ctl);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  Status Setup();
  void Run();
  // exec_prerun / exec_postrun (run/worker_exec.cc), on the worker's thread
  // right before / after Run(), as fio runs them in the job's thread. A
  // failed prerun makes Run() issue no I/O and end with the error; the
  // postrun is then skipped. Both write <jobname>.<pre|post>run.txt.
  void ExecPrerun();
  void ExecPostrun();
  // Closes files (fsync_on_close) and shuts the engine down. Safe after a
  // failed Setup().
  void Teardown();
  // What the clone's thread calls when an exception left Run(), a hook or
  // Teardown() (std::bad_alloc under ulimit -v: it reached std::terminate,
  // and the whole report was lost). The job fails with it (ENOMEM for
  // bad_alloc, with what to reduce or raise; `stage`: "run", "teardown"),
  // unless it had failed already, and its result becomes final. Noexcept:
  // what it cannot say for want of memory is left at the errno.
  void FailOnException(const std::exception& e, const char* stage) noexcept;
  // Gives back the job's share of its flow= (weight and I/Os counted), once.
  void LeaveFlow() noexcept;

  JobResult& result() { return result_; }
  const CpuUsage& unmeasured_cpu() const { return unmeasured_cpu_; }
  // The helpers' CPU labelled with this job before its measured period (a
  // ramp, a latency_target search): the coordinator takes it out.
  const HelperCpu& unmeasured_helpers() const { return unmeasured_helpers_; }
  // Setup() failed applying cpus_allowed, nice or prio/prioclass: the job
  // fails alone (err=errno, as fio), whatever the errno (EPERM included).
  // Read by the coordinator after Setup() returned.
  bool scheduling_failed() const { return scheduling_failed_; }
  LiveCounters& live() { return live_; }
  // The worker thread's id (valid after Run() started): io-wq workers are
  // named after it, which attributes helper CPU to this job exactly.
  pid_t tid() const { return tid_; }
  // The number in the names of its io_uring helpers (HelperCpuSampler::KernelTid; 0: unknown).
  pid_t kernel_tid() const { return kernel_tid_; }
  // No thread but this worker's does the engine's I/O, and none is in flight
  // outside its calls: a sync engine, or null (which queues at iodepth > 1
  // but does no I/O). No helper CPU is sampled or attributed to the job.
  bool engine_is_sync() const { return engine_ == nullptr || !engine_->UsesHelperThreads(); }
  // I/Os committed to an async engine and not reaped yet, as of the last
  // commit or reap batch (relaxed; any thread). The coordinator's watchdog
  // names it when a job does not finish after it was told to stop.
  uint32_t in_flight() const { return in_flight_.load(std::memory_order_relaxed); }
  // True while the worker sleeps or spins on purpose (thinktime, a rate or
  // flow wait, startdelay, a replay's delay): not stuck, whatever the time
  // without a completion (relaxed; any thread; stored on the pause path only).
  bool pausing() const { return pausing_.load(std::memory_order_relaxed); }
  // Its exec_prerun failed (or its pre_read after it): no I/O was done.
  bool prerun_failed() const { return prerun_failed_; }
  void AddNote(std::string note) { result_.notes.push_back(std::move(note)); }
  // Obey `flag` instead of ctl->stop (set before the worker's thread starts):
  // the clone's own, which the coordinator sets with ctl->stop, for its
  // reporting group (exit_what=group) or unless it is held back
  // (exit_what=stonewall).
  void SetStopFlag(const std::atomic<int>* flag) { stop_ = flag; }
  // Held back from its measured I/O: in its startdelay, waiting on wait_for
  // (`waits`: the coordinator's) or in its ramp_time. Set before the thread
  // starts, cleared once the startdelay is over and the ramp, if any, has
  // ended. exit_what=stonewall stops only the clones not held back, as fio's
  // TERMINATE_STONEWALL the jobs running (a ramping one is TD_RAMP there).
  void SetHeldBack(bool waits) {
    held_back_.store(
        waits || job_.startdelay_ns != 0 || job_.startdelay_max_ns != 0 || job_.ramp_time_ns != 0,
        std::memory_order_relaxed);
  }
  bool held_back() const { return held_back_.load(std::memory_order_relaxed); }
  // invalidate=1 could not drop these targets' cache at Setup(): path and
  // why. Read by the coordinator after Setup() returned.
  const std::vector<std::pair<std::string, std::string>>& cache_kept() const { return cache_kept_; }

  // --- steady state (run/steadystate.h) ---
  // When the measured period began (after startdelay and ramp_time; the
  // live counters count from there), or 0 before. Any thread.
  uint64_t measure_start_ns() const {
    return live_.measured_since_ns.load(std::memory_order_acquire);
  }
  // The job reached steady state: it ends as at the end of its runtime.
  // Any thread; the worker sees it within ~10 ms (CheckTimeSlow, SleepNs).
  void StopSteadyState() { ss_stop_.store(true, std::memory_order_relaxed); }

  // --- interim snapshots (issue 8: --status-interval, SIGUSR1) ---
  // The main thread asks for a copy of the stats with RequestSnapshot(gen)
  // (gen increases per request); the worker copies its ThreadStats at its
  // next batch boundary (or sleep slice) and publishes gen. The hot path
  // only reads one relaxed atomic per batch. Once Run() ended the snapshot
  // is the final result and every gen is done.
  void RequestSnapshot(uint64_t gen) { snap_req_.store(gen, std::memory_order_relaxed); }
  bool SnapshotDone(uint64_t gen) const {
    return snap_done_.load(std::memory_order_acquire) >= gen;
  }
  // The latest published snapshot (possibly older than the last request if
  // the worker did not answer in time). Main thread.
  void CopySnapshot(JobResult* out);
  // Tests only: holding it makes the worker's next snapshot wait.
  std::mutex& SnapshotMutexForTest() { return snap_mu_; }

 private:
  void PreReadAfterPrerun();  // pre_read with exec_prerun: after it, as fio (worker_exec.cc)
  std::vector<PatternRegion> PatternRegions() const;
  // --- logs and snapshots (issue 8) ---
  void CompleteLogged(IoRequest* req, uint64_t now);
  // An async engine's I/O completed in its queue call: counted at the depth
  // in flight, then completed; returns the clock for what follows.
  uint64_t CompleteInCall(IoRequest* req, uint64_t t);
  // The slat log of the first n uncommitted I/Os, issued at now.
  void LogSlats(unsigned n, uint64_t now);
  // max_latency: ends the job with ETIMEDOUT when req's latency exceeds it.
  void CheckMaxLatency(const IoRequest* req, uint64_t now);
  void ServeSnapshot(uint64_t now, bool final);
  uint32_t LatencyDepth() const;
  // Whether it served one (which takes time: the caller's clock is stale).
  bool PollSnapshot(uint64_t now) {
    if (snap_req_.load(std::memory_order_relaxed) == snap_served_) return false;
    ServeSnapshot(now, false);
    return true;
  }
  std::unique_ptr<IoLogger> iolog_;  // null: no log (the common case)
  uint16_t log_prio_value_ = 0;      // ioprio of the job's I/O, for log_prio
  // As fio: the priority an I/O carried, for its log lines (cmdprio's, or
  // the job's own).
  uint16_t LogPrio(const IoRequest* req) const {
    return (req->flags & kReqHighPrio) != 0 ? req->prio : log_prio_value_;
  }
  std::atomic<uint64_t> snap_req_{0};
  std::atomic<uint64_t> snap_done_{0};
  uint64_t snap_served_ = 0;         // worker thread only
  std::mutex snap_mu_;               // guards snap_ (never taken per I/O)
  std::unique_ptr<JobResult> snap_;  // guarded by snap_mu_; see Snap()
  bool snap_final_ = false;          // guarded by snap_mu_: result_ is the snapshot
  JobResult& Snap();
  // --- end issue 8 ---

  // --- write_iolog / read_iolog (run/replay.h): null for the common job,
  // which then never leaves the fast path for them.
  std::unique_ptr<IologRecorder> recorder_;
  std::unique_ptr<IologReader> replay_log_;
  ReplayEntry replay_entry_{};
  bool replay_has_entry_ = false;  // replay_entry_ is read and not issued yet
  uint64_t replay_last_issue_ns_ = 0;
  uint64_t replay_overshoot_ns_ = 0;  // how late the last wait ended (fio's time_offset)
  // The last entry replayed was a sync: the job's end syncs (end_fsync,
  // fsync_on_close) are not issued again, as fio's should_fsync() says no
  // after a sync (its td->last_was_sync).
  bool replay_synced_last_ = false;
  uint64_t reap_until_ns_ = 0;  // set by PrepareReplay: reap until then, then issue
  // The next I/O or sync from the log (slow path only).
  bool ReplayEntryDue(uint64_t* now, uint32_t in_use, uint64_t* overshoot);
  bool PrepareReplay(uint64_t now, uint32_t in_use, IoRequest** out);
  // Stops the job with a replay error (the log changed while it ran).
  bool FailReplay(const Status& st);

  pid_t tid_ = 0;
  pid_t kernel_tid_ = 0;
  // The common job (no verify, thinktime, rate, fsync, io_size, cmdprio):
  // one pattern call and the request fill. Everything else, and the end of
  // the job, goes through PrepareNext(), which also recomputes fast_prepare_.
  inline bool PrepareFast(uint64_t now, IoRequest** out);
  // *now: the batch's clock; moved forward when the preparation slept.
  bool PrepareNext(uint64_t* now, IoRequest** out);
  bool PrepareSlow(uint64_t now, IoRequest** out);
  bool SyncWaits(uint32_t in_use) const;
  // Stops the job naming a plan that breaks the pattern's contract; returns false.
  bool RejectPlan(const IoPlan& plan);
  // Takes a free slot and fills it from the plan, stamped `now`; counts it issued.
  inline IoRequest* TakeRequest(const IoPlan& plan, uint64_t now);
  void UpdateFastPrepare();
  bool NextPlan(IoPlan* plan);
  bool EndPass(IoPlan* plan);
  // The pattern's next plan, counted: a verify phase replays as many of the
  // pass's plans as the pass drew (it may have ended early).
  bool PatternNext(IoPlan* plan) {
    ++pass_draws_;
    return pattern_->Next(plan);
  }
  // new_loop: the pass starts a loop (fio's clear_io_state), not a
  // time_based pass or a further pass inside a loop of io_size bytes.
  void ResetPattern(bool new_loop) {
    if (file_calls_) RearmFileCalls();  // fio reopens each file per pass (time_based too)
    if (new_loop) {
      StartLoop(pattern_.get(), job_);
      // fio's clear_io_state re-seeds the buffer contents with the rest.
      if (ReseedsEachLoop(job_)) filler_->Reseed();
    } else {
      pattern_->Reset();
    }
    pass_draws_ = 0;
    eof_in_pass_ = false;
    write_owed_ = false;  // (a pass never ends between a trim and its write)
  }
  // A new pass over the files (loops, time_based): invalidate=1 drops their
  // cached pages again, as fio does when it wraps or reopens a file.
  bool PassDropsCache() const;
  void InvalidateForPass();
  bool MorePasses() const { return MorePassesAfter(passes_); }
  // As MorePasses, with `passes` passes done.
  bool MorePassesAfter(uint64_t passes) const;
  // Once a pass that ended with I/O in flight has drained (pass_drain_):
  // starts the next pass, if MorePasses() still says so. False when it does
  // not, or (error_ set) when unlink_each_loop cannot reopen a file.
  bool StartDrainedPass();
  // unlink_each_loop: closes, unlinks and (reopen) reopens the job's files.
  // False (error_ set) when a file cannot be removed or reopened (a reading
  // job: fio fails with ENOENT too).
  bool ReplaceFiles(bool reopen = true);
  // --- openfiles below the file count (open_limit_ != 0) ---
  // Opens and closes the descriptors as the pattern's file service did
  // (IoPattern::file_events), in order. A file is closed once none of its
  // I/O is in flight, as fio closes it when its last I/O completes, so at
  // most openfiles descriptors are ever open: kWait until then (the caller
  // keeps its plan and reaps). kFailed: an open, or fsync_on_close, failed
  // (error_ set, the job stops). closes_only: stop at the first open (a
  // loop's end logs its closes first).
  enum class FilesState : uint8_t { kReady, kWait, kFailed };
  FilesState ApplyFileEvents(bool closes_only = false);
  bool FileInFlight(uint32_t file);
  bool OpenLimitedFile(uint32_t file);
  std::string OpenReason(uint32_t file, bool name) const;
  // sync_on_close: fsync_on_close applies (not at a replayed log's close).
  bool CloseLimitedFile(uint32_t file, bool sync_on_close = true);
  // invalidate=1: drops file i's cached pages (each pass), as InvalidateTarget:
  // the job's region of a file, the whole device (BLKFLSBUF) for a device.
  void InvalidateFile(size_t i);
  // create_on_open=1: whether Setup leaves regular file `t` for its first
  // I/O to open (and create): it is not there yet, and nothing needs every
  // file open before the run (pre_read, io_uring's registered files, a
  // replayed log).
  bool DefersOpen(const TargetFile& t) const;
  // Opens (creates) such a file for its first I/O, inside the job's time; it
  // stays open. False (error_ set, the job stops) when the open fails.
  bool OpenDeferredFile(uint32_t file);
  // Engine::CallsPerFile: the engine's call on `file` instead of its open
  // (once per loop); RearmFileCalls makes the next loop call them again.
  bool CallFile(uint32_t file);
  void RearmFileCalls();
  void Complete(IoRequest* req, uint64_t now);
  // Complete() for the common case (a full read/write/trim transfer, no
  // verify), inlined into the loop; anything else goes to Complete().
  inline void CompleteFast(IoRequest* req, uint64_t now);
  // Counts a fully transferred I/O: counters, live counters, clat/lat.
  inline void Account(const IoRequest* req, uint64_t now);
  void HandleError(IoRequest* req, int err);
  // offset: where the error happened (the failing part of a short transfer).
  void NoteError(Ddir ddir, int err, const IoRequest* req, uint64_t offset,
                 const std::string& message);
  // fio's error counts for an I/O error or a verify failure: total_errors,
  // the first error, total_err when continue_on_error covers the class.
  // Returns whether the policy tolerates it.
  bool CountError(Ddir ddir, int err, const std::string& file, uint64_t offset,
                  const std::string& message);
  bool WantsErrorMessage(Ddir ddir, int err) const;
  std::string FilePath(const IoRequest* req) const;
  // How stderr names this job: with numjobs, the clone too ("job 'w' #1"),
  // as the end-of-run error lines do (PrintJobErrors).
  std::string StderrWho() const;
  bool OverlapsInFlight(const IoPlan& p);
  std::vector<uint8_t> overlap_free_;  // OverlapsInFlight's scratch (no allocation after the first)
  // Commits the queued requests: the batch's issue stamp (0 when latencies
  // are not stamped, or nothing was queued). The test is inline: the loop
  // calls it per batch, mostly with nothing queued.
  uint64_t Submit() { return uncommitted_n_ == 0 ? 0 : SubmitQueued(); }
  uint64_t SubmitQueued();
  // SubmitQueued's body, inlined where the loop commits a full batch (the
  // per-batch path of every queueing engine); its failure is out of line.
  [[gnu::always_inline]] inline uint64_t CommitBatch();
  [[gnu::cold]] [[gnu::noinline]] void CommitFailed(const Status& st);
  void ReapAndAccount(unsigned min);
  void ReapUntil(uint64_t until);
  void WaitPrecise(uint64_t until);
  // Completes what a reap returned; how many (0 after an error or a timeout).
  unsigned AccountReaped(const Result<unsigned>& r);
  // AccountReaped's body, inlined where a one-batch engine's batch is reaped
  // straight after its commit; a failed reap is out of line.
  [[gnu::always_inline]] inline unsigned AccountBatch(const Result<unsigned>& r);
  [[gnu::cold]] [[gnu::noinline]] void ReapFailed(const Status& st);
  void PollOne();
  // Per batch: two relaxed loads and one compare; the rest (ramp end,
  // bandwidth samples, runtime end, snapshots, log windows) only when one of
  // them is due, in CheckTimeSlow(), which computes the next due time.
  // `now` is read again when the slow path served an interim snapshot:
  // copying the statistics takes up to milliseconds, which the next I/O's
  // latency must not include (--status-interval inflated clat max).
  void CheckTime(uint64_t& now) {
    if (now >= next_event_ns_ || stop_->load(std::memory_order_relaxed) != kStopNone ||
        snap_req_.load(std::memory_order_relaxed) != snap_served_)
      now = CheckTimeSlow(now);
  }
  uint64_t CheckTimeSlow(uint64_t now);  // the time to go on with
  // Counters the loop does not keep per I/O, added to a copy of the stats
  // (the final result, an interim snapshot): a sync engine's depth/submit/
  // complete distributions (one I/O per call) and its lat (== clat, see
  // lat_from_clat_).
  void FoldDerived(ThreadStats* ts) const;
  // The engine's call counters (IOs per call), for the result and snapshots.
  void CopyEngineCounters(ThreadStats* ts) const;
  // restart: reset the statistics even without ramp_time (latency_target's
  // final run).
  void BeginMeasuring(uint64_t now, bool restart = false);
  // --- latency_target (run/latency_target.h); only jobs that set it ---
  // PrepareSlow's gate: false while the queue is at the search's depth or
  // draining for it (and runs what a drain was for once it is empty).
  bool LatencyGate(uint64_t now, uint32_t in_use);
  void LatencyCompleted(const IoRequest* req, uint64_t now);
  uint64_t CompletedIos() const;
  std::unique_ptr<DepthSearch> lat_search_;
  DepthSearch::Action lat_pending_ = DepthSearch::Action::kNone;  // kDrain or kFinalRun
  void TakeSamples(uint64_t now);
  // Before a completion batch stamped `now` is counted: closes the bw/iops
  // windows that ended before it, so its bytes go to the window it
  // completed in. One compare per batch (`now` is 0 when nothing is
  // stamped: the batch-top check in CheckTimeSlow closes them then).
  void SampleDue(uint64_t now) {
    if (now >= next_sample_ns_) [[unlikely]]
      TakeSamples(now);
  }
  bool WaitStep(uint64_t now);
  void SpinNs(uint64_t ns);
  void SleepNs(uint64_t ns);
  bool StoppedDuringSleep(uint64_t& now);
  // A rate wait in the ramp past this ends the job (fio 3.33's rate_ddir):
  // start + runtime when the runtime is shorter than the ramp, else never.
  uint64_t RampRateCutNs() const;
  std::string RampRateCutNote() const;
  bool EndOfLoopSync(bool another_loop);
  bool SyncFiles(const char* why);
  void FreeSlot(IoRequest* req) { free_[free_n_++] = req; }
  // A write's buffer contents (scramble, refill). Preparing them is no part
  // of the I/O's latency (fio fills before its start stamp; scrambling cost
  // 1 MiB writes ~30 us of clat): the start is stamped again, a clock read
  // only when the filler touched the buffer.
  inline void FillWriteBuffer(IoRequest* r);
  void PublishLive();
  Status ApplyScheduling();

  // --- Data verification (verify=...; docs/verify.md). Everything the
  // worker does for verify lives in these hooks (worker_verify.cc); the I/O
  // loop only calls them. The verify phase reuses the I/O loop: reads come
  // from NextVerifyPlan() instead of the IoPattern.
  Status SetupVerify();
  // Write issue: fills the buffer (headers, data) and tracks the write.
  void VerifyPrepareWrite(IoRequest* req);
  // A write completed fully (short parts requeued and done).
  void VerifyWriteDone(IoRequest* req);
  // A write or verify read was dropped (error, stop): a write's chunks become
  // unknown. Together with VerifyWriteDone: exactly once per write.
  void VerifyDropped(IoRequest* req);
  // A read completed with `got` bytes (== xfer_length, or 0 at end of file):
  // checks it when it is a verify read or the job only reads. Returns true
  // when it was a verify read (an end of file then is a failure, not a pass end).
  bool VerifyReadDone(IoRequest* req, uint64_t got);
  // fsync + invalidate the files, then read back from the verifier.
  void StartVerifyPhase();
  // Counts a failure, prints it, dumps it, stops the job with verify_fatal.
  void OnVerifyFailure(const Status& st, const VerifyFailure& failure);
  // 1: *plan is a verify read to issue; 0: no verify read, go on with the
  // workload; -1: issue nothing now (a backlog batch waits for the queue to drain).
  int NextVerifyPlan(uint32_t in_use, IoPlan* plan);
  // A write pass ended; returns true when a verify phase must run before
  // anything else (`more`: the workload has another pass after it).
  bool VerifyAfterPass(bool more);
  // The queue is empty and nothing more is planned: starts the verify phase
  // or resumes the workload after it. False: the job is done.
  bool VerifyPhaseStep();
  // End of job: state file, error, counters into the result.
  void FinishVerify();

  // --- verify_async (VerifyAsyncPool): the slot of a verify read stays
  // busy until a check thread is done with its buffer.
  // A read completed in full: with verify_async, hands its check to the pool
  // and returns true (the caller must not free the slot); otherwise checks it
  // here (VerifyReadDone) and returns false.
  bool VerifyReadComplete(IoRequest* req);
  // Frees the slots of finished checks and reports their failures. wait:
  // block until one finished. Once per loop iteration; a load when none did.
  void VerifyCollect(bool wait);
  // Nothing is in flight but slots are busy: true when checks hold them
  // (collected, waiting for one when the loop issued nothing since the last
  // call), false when the slots are really lost.
  bool VerifyWaitChecks();
  // Slot i's buffer is being checked (not free, not in the engine).
  bool VerifySlotChecking(uint32_t i) const {
    return i < vslot_.size() && (vslot_[i] & (kVSlotCheck | kVSlotCheckAll)) != 0;
  }

  std::unique_ptr<Verifier> verifier_;
  std::unique_ptr<VerifyBacklog> backlog_;
  std::unique_ptr<IoPattern> replay_;           // verify order for random-with-map jobs
  std::vector<VerifyWriteToken> vtoken_;        // per request slot
  static constexpr uint8_t kVSlotWrite = 1;     // a tracked write is in flight
  static constexpr uint8_t kVSlotRead = 2;      // a verify read is in flight
  static constexpr uint8_t kVSlotCheck = 4;     // verify_async: a verify read is being checked
  static constexpr uint8_t kVSlotCheckAll = 8;  // verify_async: a read-only job's read, same
  std::vector<uint8_t> vslot_;                  // per slot: 0 or one kVSlot* value
  uint32_t vreads_in_flight_ = 0;
  bool vlast_read_ = false;  // the last issued I/O was a read (fio's last_ddir)
  VerifyCursor vcursor_;
  bool verifying_ = false;  // verify phase: reads come from the verifier
  bool resume_after_verify_ = false;
  bool verify_skip_phase_ = false;  // time_based or diskless: no verify phase
  bool verify_all_reads_ = false;   // read-only job: every read is checked
  bool use_replay_ = false;
  uint64_t verify_failures_ = 0;
  // Chunks a verify read found past the end of the file (VerifyReadDone):
  // failures the verifier's own count never saw.
  uint64_t verify_eof_chunks_ = 0;
  uint64_t verify_unread_ = 0;  // chunks whose verify read failed (an I/O error, not checked)
  int verify_error_ = 0;
  std::string verify_message_;
  uint64_t verify_start_ns_ = 0;
  uint8_t verify_prev_state_ = 0;   // live state letter before 'V'
  uint64_t verify_ns_ = 0;          // time spent in verify phases (the read runtime)
  uint64_t verify_mark_bytes_ = 0;  // issued_bytes_ when the last verify phase started
  // Declared after verifier_ so that it is destroyed (threads joined) first.
  std::unique_ptr<VerifyAsyncPool> vasync_;
  std::vector<uint32_t> vdone_;  // Collect() output, one entry per slot
  uint64_t vissued_seen_ = 0;    // issued I/Os at the last VerifyWaitChecks()

  const JobSpec& job_;
  const int jobnum_;
  const uint32_t worker_index_;
  std::vector<TargetFile> targets_;
  std::vector<std::pair<std::string, std::string>> cache_kept_;  // see cache_kept()
  std::unique_ptr<Engine> engine_;
  WorkerControl* const ctl_;
  // The stop flag this worker obeys: ctl_->stop, or the clone's own
  // (SetStopFlag), which exit_what=group and stonewall may set alone.
  const std::atomic<int>* stop_;

  JobResult result_;
  ThreadStats& ts_;
  LiveCounters live_;

  std::vector<EngineFile> files_;
  uint32_t open_limit_ = 0;    // OpenLimit(job_, files): 0, every file stays open
  size_t file_event_pos_ = 0;  // the pattern's file events applied so far
  // The pattern reports file events (open_limit_, or a time_based random
  // job whose files restart in place): PrepareSlow applies and clears them
  // after each plan, so such a job never takes PrepareFast (which left the
  // restarts unapplied, invalidate=1 undone, and piling up without bound).
  bool file_events_on_ = false;
  // Per file: opened by the file service in this run before (another open
  // is a new pass over it: invalidate=1 drops its pages again).
  std::vector<uint8_t> service_opened_;
  bool files_unlinked_ = false;  // unlink_each_loop removed them: a writing job creates them again
  // create_on_open: files not opened yet, left for their first I/O
  // (DefersOpen; without open_limit_, whose file service opens them then).
  uint32_t deferred_opens_ = 0;
  // Engine::CallsPerFile: the engine's call per file replaces its open;
  // file_called_[i]: made in this loop; call_dir_: the direction its time
  // is a completion latency of.
  bool file_calls_ = false;
  std::vector<uint8_t> file_called_;
  int call_dir_ = 0;
  // file_append=1 on regular files: the job makes one pass (see Setup).
  bool append_once_ = false;
  std::vector<IoRequest> pool_;
  IoMemory io_mem_;  // mem=, mem_align=: owns the memory buffers_ points into
  void* buffers_ = nullptr;
  uint64_t buffer_bytes_ = 0;
  uint64_t stride_ = 0;
  std::unique_ptr<IoPattern> pattern_;
  std::unique_ptr<RateLimiter> rate_;
  // Rated mixed jobs: the pattern asks this for each I/O's direction, which
  // fio's rate_ddir rule picks (RateLimiter::Steer) at the current time.
  struct RateSteer final : DdirSteer {
    const Worker* w = nullptr;  // set for rated rw/randrw jobs only
    Ddir Steer(Ddir drawn, bool other_ok) override;
  } rate_steer_;
  std::unique_ptr<MinRateCheck> min_rate_;  // null: no rate_min / rate_iops_min
  bool MinRateMet(uint64_t now);            // true when met, or not to be judged now
  void FinalMinRateCheck();
  bool min_rate_final_done_ = false;  // the job's last window needs no check
  std::unique_ptr<BufferFiller> filler_;
  uint64_t seed_ = 0;
  // cmdprio (libaio, io_uring): per direction, the I/O sizes that may carry
  // a cmdprio priority (bs 0: any size, cmdprio_percentage), each with its
  // priorities' cumulative shares. As fio: an I/O of a listed size draws
  // 0..99 (a xorshift per worker), and a draw below the size's total share
  // picks the priority whose cumulative share first exceeds it.
  struct PrioChoice {
    uint32_t upto;   // cumulative share, percent
    uint16_t value;  // ioprio value, class << 13 | level
  };
  struct PrioBySize {
    uint64_t bs;
    std::vector<PrioChoice> choices;  // choices.back().upto: the size's total share
  };
  bool cmdprio_on_ = false;
  // lat_percentiles: the split by priority is of the total latency (fio).
  bool prio_total_lat_ = false;
  bool cmdprio_dir_[2] = {false, false};  // reads / writes draw a priority
  std::vector<PrioBySize> prio_by_size_[2];
  // clat per priority of each direction with cmdprio: [0] the job's own
  // priority, then the others in fio's order. Restarted with the stats at
  // the ramp's end; FoldDerived copies them into DirStats::prios.
  std::vector<PrioStat> prio_stats_[2];
  uint64_t prio_rng_ = 0;

  // Loop state. Requests move between three places: the free stack, the
  // uncommitted list (queued, not yet committed) and the kernel; short
  // transfers go to the requeue stack and keep their slot.
  std::vector<IoRequest*> free_;
  uint32_t free_n_ = 0;
  std::vector<IoRequest*> uncommitted_;
  uint32_t uncommitted_n_ = 0;
  std::vector<IoRequest*> requeue_;
  uint32_t requeue_n_ = 0;
  std::vector<IoRequest*> reaped_;
  uint32_t committed_ = 0;  // in the kernel, not reaped
  uint32_t depth_ = 1;
  uint32_t batch_submit_ = 1;
  uint32_t batch_complete_min_ = 1;
  uint32_t batch_complete_max_ = 1;
  // fio's io_in_polling: iodepth_batch_complete_min=0 and _max=0 (as set):
  // after each submit, poll without blocking until one completion came.
  bool poll_each_ = false;
  uint32_t iodepth_low_ = 0;
  bool sync_engine_ = true;
  bool moves_data_ = true;  // Engine::MovesData (false: cpuio; no bytes reported)
  // Whether direction d gets the job's runtime: it did I/O or sampled, and
  // moved data. A cpuio job's chunks move none, and fio counts a
  // direction's runtime only with bytes moved: its reports show no read
  // line, bandwidth or IOPS, only the chunks' count and latencies.
  bool DirHasRuntime(int d) const { return (ts_.dir[d].ios != 0 || sample_dir_[d]) && moves_data_; }
  bool one_batch_ = false;  // Engine::OneBatchAtATime()

  bool stopping_ = false;  // issue nothing new; drain
  bool no_more_ = false;   // limits reached / last pass done
  bool measuring_ = false;
  bool interrupted_ = false;
  int error_ = 0;
  bool pass_eof_ = false;
  bool scheduling_failed_ = false;  // see scheduling_failed()
  bool prerun_failed_ = false;      // exec_prerun failed: no I/O, no postrun
  // The job entered its I/O loop (fio's do_io), which sets the depth the
  // reports show as latency_depth (LatencyDepth()).
  bool io_loop_entered_ = false;
  // Why the job failed outside any I/O (exec_prerun, unlink_each_loop's
  // reopen): the result's error message; "" for I/O errors (first_error).
  std::string job_error_;
  // The message of the I/O error that stopped the job (NoteError), which
  // need not be its first error: one the policy let through may precede it.
  std::string error_message_;
  bool pass_drain_ = false;  // a pass ended; the next starts once nothing is in flight
  // trimwrite/randtrimwrite: each trim is followed by a write of the same
  // block, and the pair is one I/O of the job, as in fio (number_ios=5 is 5
  // trims and 5 writes; io_size and size x loops count the pair's bytes
  // once). Such jobs take the slow path, which never stops between a trim
  // and its write (write_owed_) and does not count the write. A trimwrite
  // whose trims and writes differ in block size walks them apart
  // (TrimWriteWalksApart, tw_apart_): see CountTrimWrite.
  bool trimwrite_ = false;
  bool write_owed_ = false;  // a trim was issued; its write is the next I/O of the pattern
  bool tw_apart_ = false;
  bool tw_half_ = false;  // walking apart: an odd number of I/Os issued
  void CountTrimWrite(const IoPlan& plan);
  bool has_pending_plan_ = false;
  bool lookahead_plan_ = false;  // pending_plan_ came from the fsync look-ahead
  IoPlan pending_plan_{};

  uint64_t start_ns_ = 0;       // job start (after startdelay)
  uint64_t rate_epoch_ns_ = 0;  // the rate counts from here: start_ns_, then the ramp's end
  uint64_t ramp_end_ns_ = 0;
  uint64_t measure_start_ns_ = 0;
  uint64_t end_ns_ = 0;  // runtime limit (0: none)
  // The earlier of the next bw and iops sample; none before the measured
  // period starts (SampleDue needs no measuring_ test).
  uint64_t next_sample_ns_ = UINT64_MAX;
  // bwavgtime / iopsavgtime: each kind of sample has its own window.
  uint64_t next_bw_ns_ = 0, next_iops_ns_ = 0;
  uint64_t sample_bytes_[kNumDdirs] = {0, 0, 0};
  uint64_t sample_ios_[kNumDdirs] = {0, 0, 0};
  bool sample_dir_[kNumDdirs] = {false, false, false};

  uint64_t ios_left_ = UINT64_MAX;   // number_ios still to issue (UINT64_MAX: no limit)
  uint64_t ios_limit_ = UINT64_MAX;  // its start value: the count restarts after a ramp (fio)
  uint64_t next_event_ns_ = 0;       // CheckTime: the next time CheckTimeSlow is due
  bool fast_prepare_ = false;        // PrepareFast may run (see UpdateFastPrepare)
  uint32_t nfiles_ = 0;              // files_.size(), for the per-I/O contract check
  bool fast_eligible_ = false;       // the job has none of the slow-path features
  // Sync engine: I/Os completed inside Queue since measuring began; each is
  // one depth-1 I/O, one submit and one 1-I/O completion (FoldDerived). An
  // async engine's (CompleteInCall) are counted at once.
  uint64_t sync_done_ = 0;
  // Sync engine recording clat and lat: the issue stamp is the prepare stamp,
  // so lat == clat for every I/O; only clat is recorded and lat is copied
  // from it in FoldDerived (saves a LatStat and a histogram add per I/O).
  bool lat_from_clat_ = false;
  // Completions that need more than CompleteFast: verify, cmdprio's clat split.
  bool slow_complete_ = false;
  bool max_latency_on_ = false;  // max_latency set for some direction (Complete checks it)
  // Bytes issued by the job (verify reads not counted); verify_only: the
  // bytes of the writer's plan it replays, as if issued (VerifyPhaseStep).
  uint64_t issued_bytes_ = 0;
  // ios_left_ at the last end-of-loop or pre-verify sync (EndOfLoopSync).
  uint64_t synced_ios_left_ = 0;
  bool sync_marked_ = false;
  uint64_t io_size_ = 0;    // io_size, or size= capping filesize= files (0: none)
  uint64_t io_total_ = 0;   // io_size_ x loops (0: no io_size_, or time_based)
  uint64_t job_bytes_ = 0;  // io_total_, else the regions x loops (0: time_based)
  uint64_t passes_ = 0;
  uint64_t loop_mark_bytes_ = 0;  // issued_bytes_ when the loop began (WritesIoSizePerLoop)
  uint64_t pass_draws_ = 0;       // pattern_->Next calls in this pass (PatternNext)
  uint64_t vphase_reads0_ = 0;    // ts_.issued[0] when the verify phase started
  uint64_t replay_budget_ = 0;    // of them, what the verify phase's replay may still draw
  // verify_only: bytes of the plan the writer issued (io_size), still to replay.
  uint64_t replay_bytes_left_ = UINT64_MAX;
  uint64_t eof_reads_ = 0;   // random reads that found the end of the file
  uint64_t eof_passes_ = 0;  // sequential passes a read at the end of the file ended
  // Of their regions, the bytes from where each found the end to the region's end.
  uint64_t eof_bytes_short_ = 0;
  // Reads done (ios + short_ios) when the last such pass ended, and how many
  // of those passes in a row read nothing: kEofEmptyPassesStop ends the job.
  uint64_t eof_reads_mark_ = 0;
  uint32_t eof_empty_passes_ = 0;
  static constexpr uint32_t kEofEmptyPassesStop = 2;
  // This pass found the end of the file (sequential): its other reads past
  // the end, in flight then, are not passes of their own. A new pass
  // (ResetPattern) starts once they were reaped: EndPass drains.
  bool eof_in_pass_ = false;
  void SequentialEof(const IoRequest* req);
  // Random reads that found the end of the file in a row (no read with
  // data since: the reads done were eof_rand_mark_ when the run began),
  // and how many make RandomEof look at the files' sizes.
  uint64_t eof_rand_mark_ = 0;
  uint64_t eof_rand_run_ = 0;
  uint64_t eof_rand_need_ = 0;
  // The files' regions all lie past their end now: the job ended there.
  bool eof_rand_stop_ = false;
  bool eof_rand_off_ = false;  // a file is no regular one: RandomEof never looks
  static constexpr uint64_t kEofRandCheckMax = 1024;
  void RandomEof();
  bool RegionsPastEnd();
  uint64_t fill_full_ = 0;  // fill_device: writes that found the filesystem full
  // fill_device without a size, its region written with room left (data
  // that compresses): FillGoesOn sizes another from where it ended. The
  // regions it made, how many, and when the job could not go on, why (the
  // option) and the bytes left free.
  std::vector<PatternRegion> fill_regions_;
  uint32_t fill_more_ = 0;
  std::string fill_stop_why_;
  uint64_t fill_stop_free_ = 0;
  bool FillGoesOn();
  // flow= (slow path only): the group, this job's weight and I/Os, the
  // times the flow held it back.
  FlowGroup* flow_ = nullptr;
  uint64_t flow_weight_ = 0, flow_ios_ = 0, flow_stalls_ = 0;
  bool FlowGate(uint32_t in_use);
  // fsync=, fdatasync=, sync_file_range=: the writes since each one's last
  // due sync (CountSyncWrite), the kind of the sync owed (need_sync_).
  uint64_t writes_since_sync_[3] = {0, 0, 0};
  IoOp sync_op_ = IoOp::kFsync;
  bool sync_counts_ = false;  // any of the three given
  void CountSyncWrite();
  // thinktime: I/Os issued so far, the count (issued or completed) at the
  // last pause, when the last pause ended, and a pause waiting for the queue
  // to empty. ThinkDue decides, as fio's handle_thinktime.
  uint64_t think_issued_ = 0;
  uint64_t think_last_blocks_ = 0;
  uint64_t think_last_ns_ = 0;
  bool think_pending_ = false;
  bool think_check_ = false;       // an I/O was issued since ThinkDue last ran
  bool think_blocks_set_ = false;  // thinktime_blocks given (matters with thinktime_iotime)
  // OneBatchAtATime: the batch last reaped had filled the queue. fio reaps
  // such a batch at once and its thinktime check counts it; a smaller one
  // it reaps, and counts, only when its next queue call finds the engine
  // busy, that is when another I/O follows.
  bool think_batch_full_ = false;
  bool ThinkDue(uint64_t now);
  bool need_sync_ = false;
  // The owed sync's file, its turn in the file service taken (-1: not yet).
  int sync_file_ = -1;
  // The pass ended owing a sync and fio's do_io starts again: the next pass
  // starts with the sync (PassEndSync, StartPassSync).
  bool restart_sync_ = false;
  // time_based passes that fio 3.33 ends by closing its files (do_io
  // returns): sequential over several files, or over one whose size is not
  // a multiple of the block size. Others wrap in place.
  bool tb_restarts_ = false;
  // The job's end sync was not issued, the last I/O being a sync (fio's
  // should_fsync): nor is it logged.
  bool final_sync_skipped_ = false;
  bool PassEndSync();
  void StartPassSync();
  // sync_file_range: per file, [first, end) of the writes since its last one.
  std::vector<std::pair<uint64_t, uint64_t>> sfr_range_;
  std::pair<uint64_t, uint64_t> TakeSyncRange(uint32_t file);
  bool record_slat_ = false, record_clat_ = false, record_lat_ = false;
  // The slat and lat histograms are read only for their percentiles
  // (slat_percentiles, lat_percentiles: off by default) and for interval
  // reports' min/max: without those, each I/O skips their Add (~12
  // instructions each). clat's is always kept (the latency distribution).
  bool slat_hist_ = false, lat_hist_ = false;
  bool stamp_ = true;  // any latency recorded: stamp issue and completion
  CpuUsage ru_start_;
  // The thread's CPU before its measured period (the ramp, a latency_target
  // search before its final run): in no report's cpu line, and not helper
  // CPU either (AttributeHelperCpu takes it out of "other").
  CpuUsage unmeasured_cpu_;
  HelperCpu unmeasured_helpers_;  // cumulative up to the last BeginMeasuring
  // This job's helpers known when its measured period began, and their CPU
  // at its end (HelperCpuSampler::ReadThreads; reserved at the start).
  std::vector<pid_t> period_helpers_;
  std::vector<HelperCpuSampler::Reading> period_helpers_end_;
  uint64_t due_ns_ = 0;  // rate limit: pending plan may go at this time
  uint32_t last_write_file_ = 0;
  bool torn_down_ = false;
  // lockmem: the pinned mapping, released in Teardown.
  void* locked_mem_ = nullptr;
  size_t locked_bytes_ = 0;
  Status LockMemory();
  std::atomic<uint32_t> in_flight_{0};  // published once per commit/reap batch
  std::atomic<bool> pausing_{false};    // pausing(): set by SleepNs, SpinNs and ExecPostrun
  std::atomic<bool> held_back_{false};  // held_back()
  // Steady state: ss_poll_ (the job has steadystate_duration, or is cpuio
  // with exit_on_io_done) makes
  // CheckTimeSlow due every kSteadyPollNs to read ss_stop_; other jobs
  // never look at it.
  bool ss_poll_ = false;
  std::atomic<bool> ss_stop_{false};
};

}  // namespace iobench
