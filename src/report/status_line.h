// The live status ("ETA") line, fio's format:
//   Jobs: 4 (f=4): [r(2),w(2)][40.0%][r=323MiB/s,w=12.0MiB/s][r=82.8k,w=3072 IOPS][eta 00m:03s]
//
// StatusLine renders one line from a snapshot of the jobs (pure: same input,
// same string; rates come from the counters' change since the previous
// Render). StatusPrinter decides whether to print at all (--eta), when
// (--eta-interval, --eta-newline), and redraws in place with '\r'.
//
// Thread-safety: both are owned by one thread (the main/status thread). The
// only shared data are the workers' LiveCounters, read with relaxed loads
// through JobStatus::Load(). Nothing here touches a worker.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "iobench/job.h"
#include "iobench/stats.h"
#include "iobench/status.h"

namespace iobench {

// The running letter for a job's rw mode: R r W w M m D d (uppercase:
// sequential). trimwrite shows as mixed.
char RunningLetter(RwMode rw);
// Whether a job in this state counts in "Jobs: N": fio's running states (a
// running letter, p pre-reading, / ramp, F fsync, V verifying, f finishing).
// P, C and I (not started: set up, waiting for its startdelay or for its
// phase) are pending; E, _, X and K have ended.
bool StateIsRunning(char state);
// Whether a job in this state has ended (E _ X K).
bool StateIsDone(char state);

// One job (one numjobs clone) as the status line sees it.
struct JobStatus {
  char state = job_state::kNotStarted;
  uint32_t open_files = 0;
  // The run's phase it runs in (a job file or stonewall starts one, as the
  // coordinator's phases): a later phase starts when the earlier one ended.
  uint32_t phase = 0;
  uint8_t ddir_mask = 0;                  // directions the job does (1 << ddir), from its rw
  uint64_t ios[kNumDdirs] = {0, 0, 0};    // cumulative
  uint64_t bytes[kNumDdirs] = {0, 0, 0};  // cumulative
  // When the counters began counting what they hold (the job's start, or
  // the end of its ramp); 0: unknown (rates then use the whole interval).
  uint64_t counting_since_ns = 0;
  // The job's ramp_time (0: none), and whether its counters hold ramp I/O,
  // which no rate counts (fio's eta.c rates none of a ramping job's): set
  // by Load for a job with a ramp whose measured period had not started
  // (the worker stores its running letter just before measured_since_ns,
  // so the letter alone may show the ramp over). Ramping() also takes the
  // ramp's letter '/'.
  uint64_t ramp_ns = 0;
  bool in_ramp = false;
  // The bytes its ramp moved, the most a Load in the ramp saw (a tick of
  // ramp I/O may be missing): they count toward its size, as in fio, but
  // the counters restart from 0 when the ramp ends.
  uint64_t ramp_bytes = 0;
  uint64_t ramp_seen_bytes = 0;  // the most bytes a Load in the ramp saw
  // Progress estimate of this job; planned_ns, planned_bytes and paced_ns
  // all 0: no known end (elapsed is shown).
  uint64_t elapsed_ns = 0;     // since this job started; 0 before
  uint64_t planned_ns = 0;     // runtime (+ ramp) if the job is time-limited
  uint64_t planned_bytes = 0;  // bytes it will move (io_size * loops, verify reads) if size-limited
  // A size-limited job with a rate limit: the time its bytes take at that
  // rate (the slowest limited direction); 0: not both.
  uint64_t paced_ns = 0;
  // startdelay, counted from the run's start as the worker counts it (the
  // middle of a startdelay=lo-hi range).
  uint64_t startdelay_ns = 0;
  // fio shows rate limits after "Jobs:": ", min-max" (bytes/s) and IOPS.
  uint64_t rate_min_bps = 0, rate_bps = 0;
  uint64_t rate_iops_min = 0, rate_iops = 0;

  // Copies the live counters (relaxed loads) into ios/bytes/state, and the
  // job's elapsed time and counting start as of now_ns (NowNs()); at the
  // first Load after its ramp, keeps the ramp's bytes (ramp_bytes).
  void Load(const LiveCounters& live, uint64_t now_ns);

  // In its ramp: state '/' or in_ramp.
  bool Ramping() const;

  // The plan of a job from its spec: directions, files, rate limits,
  // startdelay, and its end: time_based -> ramp + runtime; otherwise bytes =
  // (io_size or the resolved size) * loops (twice the writes with verify,
  // which reads them back, as fio's eta counts), also ramp + runtime if a
  // runtime caps it, and paced_ns if a rate limits it. resolved_size: the
  // bytes the job covers once its files are sized (the spec's `size` may be
  // 0 = whole file/device); 0 if unknown.
  static JobStatus FromSpec(const JobSpec& spec, uint64_t resolved_size);
};

// Every clone of a run's jobs (numjobs each), in job-file order, planned
// from its spec and numbered by phase as the coordinator splits them (a new
// job file or `stonewall` starts a phase). All pending.
std::vector<JobStatus> PlanRun(const std::vector<JobSpec>& jobs);

// The time a run of these jobs has left, `run_elapsed_ns` after its start:
// phase after phase, each as long as its longest job. A started job: its
// runtime left, or its bytes left at its own speed so far (whichever ends
// first); a pending one: its startdelay left plus its runtime, or its
// bytes at its rate limit, or else at the speed per job measured so far.
// -1: unknown (a job whose end nothing tells yet).
int64_t RunRemainingNs(const std::vector<JobStatus>& jobs, uint64_t run_elapsed_ns);

// The time the run of a report's snapshot (RunResult::snapshot: an interim
// report) has left, as the status line estimates it (RunRemainingNs): its
// jobs planned as PlanRun plans them (in group order, which is job order),
// each that started (JobResult::start_ms) at its elapsed time and bytes by
// the snapshot, one that failed or was cut short as ended, and the others
// pending. REQUIRES cumulative stats (what a snapshot holds, not an
// IntervalResult). -1: unknown (a job whose end nothing tells yet, or clones
// not as the specs number them).
int64_t SnapshotRemainingNs(const RunResult& snapshot);

// A time left in whole seconds as the line's ETA shows it: rounded up, so 0
// only once nothing is left.
inline uint64_t EtaSeconds(int64_t remaining_ns) {
  return remaining_ns <= 0 ? 0 : (static_cast<uint64_t>(remaining_ns) + 999999999) / 1000000000;
}

struct RunStatus {
  // Every job of the current run, all its phases, in job-file order (the
  // letters' order): a later phase's jobs show as P until they start.
  std::vector<JobStatus> jobs;
  uint64_t elapsed_ns = 0;      // since the session (sweep included) started
  uint64_t run_elapsed_ns = 0;  // since this run started (startdelay counts from there)
  // The runs after this one (later sweep points, repeats): later_ns is the
  // planned time of those whose jobs tell it (RunRemainingNs(PlanRun(...),
  // 0)); each of the later_unplanned others counts as pace_ns, the mean
  // length of the runs done so far, or, while none is (pace_ns 0), as this
  // run's own projected length.
  uint64_t later_ns = 0;
  uint32_t later_unplanned = 0;
  uint64_t pace_ns = 0;
};

// What the status line knows of a session (a sweep's points, repeats, each
// a run of the jobs): the planned length of every run, and every job of the
// current run, all its phases, as RunStatus. The caller passes NowNs()
// values (tests pass their own clock). Owned by the main thread.
class SessionProgress {
 public:
  explicit SessionProgress(uint64_t start_ns) : start_ns_(start_ns) {}

  // The planned length of each run of the session, in order
  // (RunRemainingNs(PlanRun(jobs), 0); -1: its jobs do not tell).
  void SetPlan(std::vector<int64_t> runs) { plan_ = std::move(runs); }
  // Run `index` of the plan is about to run these jobs (before RunJobs).
  void StartRun(size_t index, const std::vector<JobSpec>& jobs, uint64_t now_ns);
  // The run has ended: its length joins the pace of the unplanned runs.
  void EndRun(uint64_t now_ns);
  // A phase's workers start (RunOptions::on_phase_start): they are the
  // next slots of the run (the coordinator runs the phases in job-file
  // order), planned again from the coordinator's specs (a replayed copy, a
  // time_based job without runtime run size-based). The earlier phases'
  // jobs have ended. The run's clock (startdelay) starts at its first phase.
  void PhaseStart(const std::vector<const JobSpec*>& specs, uint64_t now_ns);
  // The running phase's live counters (on_tick, on_phase_end), in the
  // order PhaseStart's specs were.
  void Load(const std::vector<const LiveCounters*>& live, uint64_t now_ns);

  const RunStatus& status() const { return run_; }

 private:
  uint64_t start_ns_;
  RunStatus run_;
  std::vector<int64_t> plan_;
  size_t next_slot_ = 0;       // the first slot of the next phase
  size_t phase_first_ = 0;     // the running phase's first slot
  uint64_t run_begin_ns_ = 0;  // StartRun
  uint64_t run_start_ns_ = 0;  // the run's first phase started
  bool run_started_ = false;
  uint64_t runs_done_ = 0;
  uint64_t runs_ns_ = 0;  // the runs done, their total length
};

// fio's compact number: at most 4 significant digits, 1024-based units for
// bytes ("12.0MiB", "323MiB", "0B"), 1000-based for counts ("3072", "82.8k").
std::string FormatBytes(uint64_t bytes);
std::string FormatCount(uint64_t count);
// fio's eta string (eta_to_str): "01m:05s", "02h:01m:05s", "03d:02h:01m:05s".
std::string FormatEta(uint64_t seconds);

class StatusLine {
 public:
  // Renders the line at now_ns (the clock of the jobs' counting_since_ns;
  // only differences are used). Rates are the counters' change since the
  // previous Render (the first Render: since the run started), per job: a
  // job whose counters started from 0 during the interval (it started, or
  // its ramp ended) is rated over the time since then, not over the whole
  // interval (which showed half the rate on the tick after a ramp).
  // The % done never goes back from one Render to the next: an estimate
  // that grows (a job slower than it was) holds it still, and the ETA says
  // the rest.
  std::string Render(const RunStatus& run, uint64_t now_ns);

  // Rates are measured over at least this long (StatusPrinter: 95% of the
  // --eta-interval, fio's eta_time_within_slack): a Render sooner after the
  // previous measurement shows the rates measured then, and one before the
  // first full window (the first draw, a few ms into the run) shows none.
  // 0 (the default): every Render measures.
  void set_min_window_ns(uint64_t ns) { min_window_ns_ = ns; }

  // The remaining time estimate used by the last Render; -1: unknown.
  int64_t last_eta_ns() const { return last_eta_ns_; }

 private:
  // A job's counters and rates at the previous Render.
  struct JobPrev {
    uint64_t since_ns = 0;
    uint64_t ios[kNumDdirs] = {0, 0, 0};
    uint64_t bytes[kNumDdirs] = {0, 0, 0};
    uint64_t rate_iops[kNumDdirs] = {0, 0, 0};
    uint64_t rate_bps[kNumDdirs] = {0, 0, 0};
    bool rated = false;
  };
  bool have_prev_ = false;
  bool have_rates_ = false;  // a window was measured
  uint64_t min_window_ns_ = 0;
  uint64_t prev_ns_ = 0;
  std::vector<JobPrev> prev_;
  uint64_t rate_bps_[kNumDdirs] = {0, 0, 0};
  uint64_t rate_iops_[kNumDdirs] = {0, 0, 0};
  int64_t last_eta_ns_ = -1;
  double shown_pct_ = 0;  // the highest % shown
};

enum class EtaMode : uint8_t { kAuto, kAlways, kNever };
// "auto", "always", "never" (fio's --eta values).
Result<EtaMode> ParseEtaMode(std::string_view text);

struct StatusPrinterOptions {
  EtaMode mode = EtaMode::kAuto;
  uint64_t interval_ns = 1000000000;  // --eta-interval; fio refuses < 250 ms
  uint64_t newline_ns = 0;            // --eta-newline; 0: never
  bool allowed = true;                // false: never drawn, whatever the mode (StatusLineAllowed)
  // The reports (interim, final) go to the line's own stream (ReportGoesToFd):
  // Clear ends the line there. false: into a pipe or file the line is left
  // as drawn (each ended by '\r' alone, as fio's), no "\n" before reports
  // that are not there.
  bool reports_here = true;
};

// Whether the line may be drawn at all, given where the report goes (fio's
// rule in calc_thread_status): not when the report goes to standard output
// in formats without `normal` (json, json+, terse, table alone), whose
// document the line's bytes would corrupt, be stdout a pipe, a file or a
// terminal whose output is captured (script, ssh -t). With --output=FILE the
// report is elsewhere and the line may go to stdout, as fio's does, unless
// FILE is stdout itself (ReportGoesToFd: report_to_stdout is true then).
bool StatusLineAllowed(const std::vector<std::string>& formats, bool report_to_stdout);

// Whether the report goes to the stream `fd` has open: no --output
// (`output` empty), or an --output naming that same file (equal st_dev and
// st_ino: /dev/stdout, /proc/self/fd/1, the terminal's /dev/pts/N, the file
// stdout was redirected to, the same pipe). Such a report lands beside the
// line as one with no --output does. False when either cannot be stat'ed
// (an --output file not created yet is another file).
bool ReportGoesToFd(const std::string& output, int fd);

// Where and when the line is drawn. The line goes to `fd` (main passes
// STDOUT_FILENO, as fio does): with --eta=auto only if fd is a terminal,
// so nothing is ever written into a pipe or a redirected file; --eta=always
// prints even there (the user asked); never when !opts.allowed (a JSON or
// terse report on the same stdout). The --output file never gets the
// line: it is a separate file, and the reports are written after Clear().
class StatusPrinter {
 public:
  static constexpr uint64_t kMinIntervalNs = 250000000;

  StatusPrinter(int fd, const StatusPrinterOptions& opts);

  bool enabled() const { return enabled_; }

  // Redraws the line if enabled and its next draw is due (the first call
  // draws). Draws are due every interval_ns from the first one, not from
  // whenever the previous one happened: a caller that polls every ~20 ms
  // gets a line every interval, never one skipped for being a few ms early.
  // Returns whether it wrote.
  bool Update(const RunStatus& run, uint64_t now_ns);
  // Erases the line (before an interim or final report is printed on the
  // same terminal); the next Update redraws it. Into a pipe or a file it
  // ends the line with "\n" if the reports go there too (reports_here),
  // else does nothing.
  void Clear();
  // Erases the line for good; later Updates print nothing.
  void Finish();

  // Exposed for tests: the rendering engine (rates state lives here).
  StatusLine& line() { return line_; }

 private:
  void Write(const std::string& s);
  size_t Room() const;  // columns a line may take (SIZE_MAX: no terminal width known)

  int fd_;
  StatusPrinterOptions opts_;
  bool enabled_;
  bool finished_ = false;
  bool drawn_ = false;
  uint64_t next_draw_ns_ = 0;
  uint64_t next_newline_ns_ = 0;
  bool newline_started_ = false;
  size_t shown_len_ = 0;  // visible length of the line on screen now
  bool tty_ = false;      // fd_ is a terminal: its width is read at each draw
  StatusLine line_;
};

}  // namespace iobench
