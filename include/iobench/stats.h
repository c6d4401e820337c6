// Measurements: what a worker records (ThreadStats) and what a run returns
// (RunResult). Results are plain data; reporters only format them.
//
// Ownership: each worker thread owns its ThreadStats and writes it without
// locks; the coordinator moves it into a JobResult after the join. The
// reporter thread may read only LiveCounters (relaxed atomics) during a run.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "iobench/histogram.h"
#include "iobench/job.h"

namespace iobench {

// One bandwidth/IOPS sample window (fio logs these every 500 ms by default).
struct RateSample {
  uint64_t t_ms = 0;   // end of window, ms since job start
  uint64_t value = 0;  // bytes/s (bw) or IO/s (iops)
};

// Summary of samples: fio's bw_min/bw_max/bw_mean/bw_dev/bw_samples.
struct SampleStat {
  uint64_t min = 0, max = 0, samples = 0;
  double mean = 0, stddev = 0;
};

// The latency of the I/Os that carried one priority (cmdprio): completion
// latency, or the total with lat_percentiles (fio's "clat prio"/"lat prio").
struct PrioStat {
  uint16_t value = 0;  // ioprio value: class << 13 | level
  LatStat lat;
  Histogram hist;
};

// Everything about one direction (read, write or trim). 512-byte aligned
// (376 bytes of fields): the worker finds its direction's record per I/O
// with one shift instead of a multiply by an odd size.
struct alignas(512) DirStats {
  uint64_t ios = 0;        // completed I/Os
  uint64_t bytes = 0;      // bytes completed
  uint64_t short_ios = 0;  // short transfers (requeued)
  uint64_t dropped = 0;    // requeued remainders dropped when the job stopped
  // I/Os that ended in an error (res < 0, fill_device's full write): fio
  // counts them in total_ios and IOPS (its total_io_u), not in bytes or
  // latency. Reports use ReportedIos() = ios + failed + short_ios.
  uint64_t failed = 0;
  uint64_t errors = 0;
  uint64_t eagain = 0;         // RWF_NOWAIT / IOCB_NOWAIT refusals
  uint64_t high_prio_ios = 0;  // issued with a cmdprio priority
  // cmdprio (libaio, io_uring): clat per priority, fio's "clat prio C/L"
  // lines and JSON "prios". prios[0] is the job's own priority (prioclass/
  // prio, 0 when unset), then each other priority cmdprio gives this
  // direction, in fio's order (cmdprio_bssplit's entries sorted by block
  // size). prio_split is false (and prios empty) for a job without cmdprio;
  // a merged group or mixed direction may split it anyway (MergeThreadStats).
  bool prio_split = false;
  std::vector<PrioStat> prios;
  uint64_t runtime_ns = 0;  // time this direction was active (fio: per-ddir runtime)
  LatStat slat, clat, lat;
  Histogram slat_hist, clat_hist, lat_hist;
  std::vector<RateSample> bw_samples;  // per 500 ms window, bytes/s
  std::vector<RateSample> iops_samples;
};

struct CpuUsage {
  uint64_t user_us = 0;
  uint64_t sys_us = 0;
  uint64_t ctx = 0;  // voluntary + involuntary context switches
  uint64_t majf = 0;
  uint64_t minf = 0;
  // A thread's reading only (HelperCpuSampler::ThreadCpuNow): its CPU time
  // from CLOCK_THREAD_CPUTIME_ID, exact, where user_us/sys_us (getrusage)
  // may lag by a scheduler tick. CpuSince() turns two readings into a
  // delta; 0 in deltas and sums.
  uint64_t thread_ns = 0;
};

// The helper threads that served a job: the kernel's (io-wq workers, SQPOLL)
// and glibc's POSIX AIO threads (posixaio), which run in user space too.
struct HelperCpu {
  uint64_t iowq_user_us = 0, iowq_sys_us = 0;
  uint64_t sqpoll_user_us = 0, sqpoll_sys_us = 0;
  uint64_t aio_user_us = 0, aio_sys_us = 0;      // glibc POSIX AIO threads
  uint64_t other_user_us = 0, other_sys_us = 0;  // unattributed helper time
  uint32_t peak_threads = 0;
  // io-wq/SQPOLL time split over the group's jobs by submissions, not
  // measured per job: in a PID namespace whose /proc hides the initial
  // namespace's thread ids, the helpers' names cannot be matched to workers.
  bool apportioned = false;
};

// fio's IO depth / submit / complete distributions: buckets
// depth: 1, 2, 4, 8, 16, 32, >=64; submit/complete: 0, 4, 8, 16, 32, 64, >=64.
struct DepthDist {
  std::array<uint64_t, 7> depth{};
  std::array<uint64_t, 7> submit{};
  std::array<uint64_t, 7> complete{};
  uint64_t submit_events = 0;    // number of submission batches counted
  uint64_t complete_events = 0;  // number of completion batches counted
};

struct ErrorInfo {
  int err = 0;  // errno, 0: none
  std::string file;
  uint64_t offset = 0;
  Ddir ddir = Ddir::kRead;
  std::string message;
};

// What one worker thread measured. Filled only by its thread.
struct ThreadStats {
  DirStats dir[kNumDdirs];
  LatStat sync_lat;  // fsync/fdatasync latency
  Histogram sync_hist;
  uint64_t sync_ios = 0;
  DepthDist depth;
  CpuUsage cpu;                            // RUSAGE_THREAD over the run
  uint64_t issued[kNumDdirs] = {0, 0, 0};  // issued I/Os ("issued rwts")
  uint64_t short_issued[kNumDdirs] = {0, 0, 0};
  uint64_t dropped_issued[kNumDdirs] = {0, 0, 0};
  uint64_t submit_calls = 0, submitted = 0, reap_calls = 0, reaped = 0;
  uint64_t reap_syscalls = 0;  // reaps that entered the kernel (the ring answers the rest)
  ErrorInfo first_error;
  uint64_t total_errors = 0;
  // fio's total_err: the errors of a class continue_on_error covers (fio
  // does not count an error that stopped a job whose class it does not).
  uint64_t coe_errors = 0;
  // fio's first_error beside total_err: the errno of the first error
  // counted in coe_errors (0 when none was, even if an error stopped the job).
  int coe_first_error = 0;
  // clat samples that are an engine's per-file calls (Engine::CallsPerFile:
  // filecreate, filestat, filedelete), not I/Os: as fio's FIO_NOSTATS
  // engines, they mark no latency bucket ("lat (usec)", latency_us).
  uint64_t file_calls = 0;
};

// Steady state detection (steadystate=, ss_dur=): the last window of
// one-second samples and the criterion computed over it, as fio reports
// them. With group_reporting every clone of the group holds the group's.
struct SteadyStateResult {
  bool enabled = false;      // the job had steadystate_duration
  bool attained = false;     // the criterion held: the job was stopped
  double criterion = 0;      // last evaluated value (percent when ss_percent)
  double max_deviation = 0;  // iops/bw modes: max |sample - mean|
  double slope = 0;          // *_slope modes: least squares slope per second
  // ss_dur_s entries, oldest first; zeros where no sample was taken.
  std::vector<uint64_t> bw;    // bytes/s
  std::vector<uint64_t> iops;  // IO/s
  // How many clones each sample sums (a group's; 1 for a job on its own):
  // not in fio's output, which cannot say it; the tests check it.
  std::vector<uint32_t> clones;
};

// What verify did in one job (its "verify: N blocks written, ..." note):
// counts, so a group's record can sum its members' (VerifyTallyNote).
struct VerifyTally {
  bool set = false;  // the job verified (the note is in its notes)
  uint64_t written = 0, verified = 0, skipped = 0, failed = 0;
  uint64_t unread = 0;    // not checked: the read failed
  uint64_t interval = 0;  // verify_interval in bytes; 0: members differ
};

// What one job laid out before its run (its "Laying out IO file" note): the
// files and the size they were laid out to, so a group's record can sum its
// members' (LayoutTallyNote). files == 0: the job laid out nothing.
struct LayoutTally {
  uint32_t files = 0;
  uint64_t bytes = 0;
};

// One job (one numjobs clone) after the run.
struct JobResult {
  std::string name;
  int groupid = 0;
  int jobnum = 0;  // clone index within numjobs
  int error = 0;   // errno-style error of the job, 0 ok
  std::string error_message;
  // What the reports' err= and "error" show: the job's error or, when every
  // error was tolerated (continue_on_error, ignore_error), the first one, as
  // fio shows it. Only `error` fails the job (exit code).
  int shown_error() const { return error != 0 ? error : stats.first_error.err; }
  const std::string& shown_error_message() const {
    return error != 0 ? error_message : stats.first_error.message;
  }
  bool error_printed = false;  // the error already went to stderr when it happened (verify)
  JobSpec spec;                // the resolved job (job options in JSON come from spec.settings)
  ThreadStats stats;
  HelperCpu helpers;
  uint64_t elapsed_ms = 0;  // wall time the job existed
  uint64_t runtime_ms = 0;  // measured time (after ramp)
  uint64_t runtime_us = 0;  // the same to the microsecond: the denominator of CPU shares
  uint64_t start_ms = 0;    // wall-clock start, for logs
  uint64_t end_ms = 0;      // wall-clock end (or snapshot time): JSON "elapsed"
  bool interrupted = false;
  uint32_t nr_files = 0;
  std::vector<std::string> files;  // targets this clone used
  std::vector<std::string> notes;  // what was measured, for the report (not stderr)
  VerifyTally verify_tally;        // the counts of its verify note
  LayoutTally layout_tally;        // the counts of its "Laying out" note
  SteadyStateResult steadystate;
  // fio's latency_qd, its reports' "latency_depth": the queue depth the
  // latency_target search settled on, else iodepth; 0 when the job never
  // entered its I/O loop (create_only, a failed exec_prerun, a setup error,
  // verify_only with writes), and the reports then leave latency_* out.
  uint32_t latency_depth = 0;
  // thinktime: how many times the job paused (not in fio's reports; tests).
  uint64_t think_stalls = 0;
};

struct GroupResult {
  int id = 0;
  std::vector<JobResult> jobs;  // the units of its report come from them (ComputeGroupTotals)
};

// /sys/block/X/stat deltas over the run (fio "Disk stats").
struct DiskUtil {
  std::string name;          // e.g. "nvme0n1", "loop0"
  uint64_t ios[2] = {0, 0};  // read, write completed
  uint64_t merges[2] = {0, 0};
  uint64_t sectors[2] = {0, 0};
  uint64_t ticks[2] = {0, 0};  // ms
  uint64_t io_ticks = 0;       // ms busy
  uint64_t time_in_queue = 0;  // ms
  double util = 0;             // percent
  // fio 3.33 lists the disk for the run's targets (sys::TargetInfo::fio_disks).
  // The others (the disk under a loop device's backing file, btrfs's
  // devices, ...) are in the normal Disk stats and JSON
  // iobench.other_disk_util, not in terse or JSON disk_util.
  bool fio_lists = true;
};

// Description of one target, for "what was measured".
struct TargetContext {
  std::string path;
  std::vector<std::string> jobs;  // names of the jobs on it, in job order, each once
  std::string fs_type;  // "ext4", "tmpfs", "" for block devices
  // The driver behind fs_type when it is not the type's own: "ext4" for an
  // ext2 or ext3 mount the ext4 code serves (its /sys/fs/ext4/<dev>).
  std::string fs_driver;
  // The options of the mount holding a file target: the mount's own, then
  // its super block's not already listed, as /proc/self/mountinfo lists
  // them ("rw,relatime,sync,data=journal"); "" for a block device. The
  // normal report shows those that change what is measured
  // (sys::MeasuredMountOptions).
  std::string mount_options;
  std::string device;  // block device under the target, resolved to the disk
  // A loop device over a file on a filesystem without a disk (tmpfs): that
  // filesystem ("loop0 on tmpfs" in `device`). An overlay: the filesystem
  // of the layer overlay_layer names.
  std::string backing_fs;
  // An overlay: the layer backing_fs and the device are those of, "upper
  // directory" or "lower layer DIR" (an existing file only there, that no
  // job writes); "" when the overlay's directories are not known.
  std::string overlay_layer;
  std::string model;
  std::string scheduler;
  int64_t read_ahead_kb = -1;
  int64_t nr_requests = -1;
  int rotational = -1;
  uint32_t logical_block_size = 0;
  uint32_t physical_block_size = 0;
  std::string write_cache;
  // Why O_DIRECT I/O on this target goes through the page cache all the same
  // ("ext4 data=journal": ext4 then does direct I/O buffered), "" when
  // nothing says it does.
  std::string direct_buffered;
  // Buffered jobs: share of the pages of the jobs' region of the file (their
  // offset..offset+size, all clones) cached at the start; -1 not measured.
  double page_cache_percent = -1;
  uint64_t page_cache_region_bytes = 0;    // the region measured
  uint64_t page_cache_examined_bytes = 0;  // < region: sampled (sys::kPageCacheMaxExamined)
  // Jobs that read a regular file: share of their region of it that is
  // holes (sys::HolesIn) at the start; -1 not measured.
  double hole_percent = -1;
  // What makes the file system compress the data that compresses written to
  // this target ("btrfs compress=zstd:3", "the file's compression attribute
  // (chattr +c)"), "" when nothing does, or when the jobs' region is
  // preallocated (fallocate): btrfs writes that space in place, uncompressed.
  std::string compression;
  // Jobs that read a regular file on btrfs: share of their region of it
  // stored compressed (sys::CompressedIn) at the start; -1 not measured.
  double compressed_percent = -1;
};

struct RunContext {
  std::string iobench_version;
  std::string kernel;  // uname -r
  std::string cpu_model;
  uint32_t cpus = 0;
  uint64_t mem_bytes = 0;
  // The clock every timestamp came from ("tsc" or "clock_gettime", see
  // include/iobench/clock.h) and the kernel's clocksource, which decides it.
  std::string clock;
  std::string kernel_clocksource;
  std::vector<TargetContext> targets;
  std::vector<std::string> warnings;  // traps detected (one line each, with the reason)
};

struct RunResult {
  // Wall clock when the report was made (the run's end, or an interim
  // report's snapshot), as fio's JSON "timestamp" and the normal "pid=N: date".
  uint64_t timestamp_s = 0;
  uint64_t timestamp_ms = 0;
  uint64_t start_ms = 0;  // wall clock at the run's start: JSON "elapsed"
  std::vector<GroupResult> groups;
  std::vector<DiskUtil> disks;
  RunContext context;
  // A stop signal (SIGINT, SIGTERM, SIGHUP) ended the run: exit_code is 128 +
  // the signal. It may have come after every job's I/O (during an
  // exec_postrun): then io_complete is set and the results are whole.
  bool interrupted = false;
  // Set at the run's end when no job was cut short by a signal and every
  // phase ran (JobResult::interrupted says which jobs were cut short).
  bool io_complete = false;
  // An interim report's snapshot: its CPU figures leave out the kernel
  // helpers (io-wq, sqpoll), which are sampled for the final report only.
  bool snapshot = false;
  // An interval report (--status-interval-mode=interval): the run's time
  // left as its cumulative snapshot tells it (the interval's own bytes do
  // not); -1 unknown. INT64_MIN: not an interval report (read the stats).
  int64_t interval_remaining_ns = INT64_MIN;
  int exit_code = 0;
  // Sweep point values when this run is one point of a sweep (key, value),
  // in --sweep order, as the JSON and the "=== ... ===" labels write them.
  std::vector<std::pair<std::string, std::string>> point;
  // With --repeat=N (N > 1): this run is run repeat_run (1..N) of N.
  uint32_t repeat_run = 0, repeat_n = 0;
};

// fio's per-job state letters, as stored in LiveCounters::state (the worker
// writes them, the status line and the coordinator read them).
namespace job_state {
inline constexpr char kNotStarted = 0;  // shown as 'P'
inline constexpr char kSetup = 'P';
inline constexpr char kCreated = 'C';
inline constexpr char kInitialized = 'I';
inline constexpr char kPreReading = 'p';
inline constexpr char kRamp = '/';
inline constexpr char kFsync = 'F';
inline constexpr char kVerifying = 'V';
inline constexpr char kFinishing = 'f';
inline constexpr char kExited = 'E';
inline constexpr char kReaped = '_';
inline constexpr char kError = 'X';
inline constexpr char kSignal = 'K';
}  // namespace job_state

// Live counters a worker updates with relaxed stores and the status thread
// reads. One cache line per worker; nothing else is shared on the hot path.
struct alignas(64) LiveCounters {
  std::atomic<uint64_t> ios[kNumDdirs] = {0, 0, 0};
  std::atomic<uint64_t> bytes[kNumDdirs] = {0, 0, 0};
  std::atomic<uint8_t> state{0};  // fio's state letter as a char, 0: not started
  // NowNs() when the job started (after startdelay); 0: not yet. Relaxed.
  std::atomic<uint64_t> start_ns{0};
  // NowNs() when ios/bytes last restarted from 0 for the measured period
  // (ramp end, a latency-target final run); 0: not yet (during a ramp the
  // counters count from start_ns). Stored with release after the zeroed
  // counters, so a reader that loads it (acquire) first sees counts of that
  // period or later.
  std::atomic<uint64_t> measured_since_ns{0};
};

}  // namespace iobench
