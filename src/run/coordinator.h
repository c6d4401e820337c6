// The coordinator: turns JobSpecs into a RunResult.
//
// It splits the jobs into phases (a job file, or a `stonewall`/`wait_for`,
// starts a new phase; a phase runs after the previous one has finished) and
// reporting groups (each phase, and `new_group`, starts a new group); clones
// each job `numjobs` times; resolves and lays out targets; sets up every
// worker of a phase in parallel, each on its own thread; starts them together
// (a start latch after all are set up); watches the stop signal and calls
// on_tick; joins; and returns the results in job order.
//
// RunJobs is called from the main thread and blocks until the run is over.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "iobench/engine.h"
#include "iobench/job.h"
#include "iobench/stats.h"
#include "iobench/status.h"

namespace iobench {

struct RunOptions {
  // Refuse jobs that would write (and any file layout).
  bool readonly = false;
  // Set by the signal handler (run/signals.h): 0 none, else the signal number.
  // Polled by the main thread every ~20 ms while workers run.
  std::atomic<int>* stop_signal = nullptr;
  // Optional; called every tick_ns (at a ~20 ms granularity) from the main
  // thread while a phase runs, with the live counters of its workers (the
  // status line, which polls and draws when its own interval is due).
  std::function<void(const std::vector<const LiveCounters*>&)> on_tick;
  uint64_t tick_ns = 1000000000;
  // Optional; called from the main thread when a phase's workers are about
  // to start, with each worker's job in the order on_tick's counters use.
  std::function<void(const std::vector<const JobSpec*>&)> on_phase_start;
  // Optional; called from the main thread at each phase's start, after its
  // targets are laid out and described and before on_phase_start, with the
  // context of this phase and the earlier ones: the normal report's header
  // can go out as the jobs start, where fio prints it.
  std::function<void(const RunContext&)> on_context;
  // Optional; called from the main thread when all of a phase's workers
  // have finished, with their counters as on_tick's: the jobs' final states
  // (_, X, K), which the last on_tick may not have seen.
  std::function<void(const std::vector<const LiveCounters*>&)> on_phase_end;

  // Watchdog (a hung device is not a hung tool): a job told to stop that
  // completes no I/O for this long is reported as stuck, and RunJobs returns
  // an error naming it (kIoError, ETIMEDOUT) instead of waiting forever; its
  // thread is left behind, so the caller should exit soon. stop_grace_ms
  // counts from a stop signal or exitall, runtime_grace_ms from the end of a
  // job's runtime (startdelay + ramp_time + runtime). 0 turns one off.
  uint32_t stop_grace_ms = 10000;
  uint32_t runtime_grace_ms = 30000;

  // The job files the jobs were read from, includes too ("-": standard
  // input): no side file of the run (a log, the buffers' file, the verify
  // state, a hook's output) may be one of them (CheckSideFilesAvoidRunFiles).
  std::vector<std::string> job_files;

  // Test seam: when set, builds every job's engine instead of the registry,
  // and targets are diskless (nothing is opened or laid out), as for `null`.
  std::function<std::unique_ptr<Engine>(const JobSpec&)> engine_factory;

  // --- watching a run (issue 8; docs/status.md, docs/logs.md) ---
  // --bandwidth-log: agg-{read,write,trim}_bw.log in the current directory,
  // sampled from the main thread's watch loop.
  bool bandwidth_log = false;
  // Optional; called from the main thread while workers run, with a
  // cumulative snapshot of the run so far (same shape as the final result:
  // earlier phases' jobs and the running ones; groups without jobs yet are
  // left out). Due every status_interval_ns of run time (0: never by time)
  // and whenever *report_signal is set (SIGUSR1; the coordinator clears it).
  std::function<void(const RunResult& snapshot)> on_interim;
  uint64_t status_interval_ns = 0;
  std::atomic<int>* report_signal = nullptr;
  // --status-interval-mode=interval: interim reports print each interval's
  // own min and max, read from the interval's slat and lat histograms, so
  // workers keep those histograms even when no percentile of them is printed
  // (otherwise only slat_percentiles / lat_percentiles need them).
  bool interval_reports = false;
  // How long the main thread waits for every worker to copy its stats for a
  // snapshot; a worker stuck in a long I/O is reported as of its previous
  // snapshot.
  uint64_t snapshot_timeout_ns = 250ull * 1000 * 1000;
  // The sweep point this run is (RunResult::point), set from the start so
  // that interim reports name it too. In --sweep order.
  std::vector<std::pair<std::string, std::string>> point;
  // With --repeat=N: which run of the N this is (RunResult::repeat_run).
  uint32_t repeat_run = 0, repeat_n = 0;
};

// Runs the jobs. Returns an error (and runs nothing of the failing phase)
// when a job cannot start: an unimplemented option, an unknown engine, a bad
// target, a misaligned direct bs, an engine's check_job refusal. Errors that
// happen during I/O are per job (JobResult::error) and the run still returns
// a RunResult. RunResult::interrupted and exit_code (128 + the signal) tell a stop signal.
// A stuck job (see the watchdog above) is an error naming the job.
Result<RunResult> RunJobs(const std::vector<JobSpec>& jobs, const RunOptions& opts);

// The refusals RunJobs makes before it looks at any file: unimplemented
// options, option combinations, engines and their file-independent checks,
// reporting groups (steady state, exitall). --parse-only runs these, so a job
// file it passes is not then refused for one of them. (Targets, layout,
// device safety and resource limits need the files and the machine's state:
// only a run checks those.)
Status CheckJobs(const std::vector<JobSpec>& jobs, const RunOptions& opts);

// Each job's reporting group as a run numbers it (fio's "groupid": stonewall,
// new_group and job files start a new one), with GroupJobs' refusals. What
// --compare matches a run's jobs by before the run (sweep/session.cc).
Result<std::vector<int>> ReportGroupIds(const std::vector<JobSpec>& jobs);

// What a sweep checks of each point before the first one runs (docs/sweep.md):
// CheckJobs, --readonly, and each clone's targets and regions (size against
// bs, offsets, direct alignment) where its files exist already or it has none
// (ioengine=null); a file that is still to be created is left to the run
// (its clone only: the job's other clones are checked). A missing path that
// no run creates (a device under /dev) is refused, unless
// `hooks_make_paths`: a --sweep-cmd hook runs before each point and may
// create it. Touches nothing.
Status PreflightJobs(const std::vector<JobSpec>& jobs, const RunOptions& opts,
                     bool hooks_make_paths = false);

// Worker threads the watchdog left behind in this process (detached; they may
// still wake up when the device resumes). Non-zero: the process should flush
// and _exit() instead of running static destructors (src/main.cc). Any thread.
int LeftBehindThreads();

}  // namespace iobench
