#include "run/worker.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <thread>

#include "iobench/clock.h"
#include "stats/ioprio.h"
#include "sys/host.h"
#include "sys/job_paths.h"
#include "sys/safety.h"
#include "sys/strings.h"
#include "sys/target.h"

namespace iobench {
namespace {

// A steady state job looks for the monitor's stop this often (off the
// per-I/O path: CheckTimeSlow becomes due at least this often).
constexpr uint64_t kSteadyPollNs = 10ull * 1000 * 1000;
constexpr uint64_t kMsNs = 1000ull * 1000;
// read_iolog waits spin through their last 100 us instead of sleeping: the
// kernel's default timer slack (50 us) plus a wake-up is more than the whole
// gap between entries of a dense log.
constexpr uint64_t kReplaySpinNs = 100ull * 1000;
// The startdelay=lo-hi draw's stream of the clone's seed ("dly").
constexpr uint64_t kStartdelayStream = 0x646c7900ULL;

// fio 3.33's do_io lets a random writer without a random map issue io_size
// bytes (not size) before it returns: such a job's loop is io_size bytes,
// its passes over the region inside a loop follow each other without a
// drain, and loops x io_size bytes are issued in all.
bool WritesIoSizePerLoop(const JobSpec& job) {
  return job.HasIoSize() && !job.time_based && HasWrite(job.rw) && IsRandom(job.rw) &&
         job.norandommap;
}

// fio's IO depth buckets: 1, 2, 4, 8, 16, 32, >=64: the power of two at
// or below n (per batch: a few instructions, no chain of compares).
unsigned DepthBucket(uint64_t n) {
  const unsigned log2 = 63u - static_cast<unsigned>(__builtin_clzll(n | 1));
  return log2 < 6 ? log2 : 6;
}

// fio's submit/complete buckets: 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64: the
// power of two at or above n, from 4 up.
unsigned BatchBucket(uint64_t n) {
  if (n <= 4) return n != 0 ? 1 : 0;
  const unsigned up = 64u - static_cast<unsigned>(__builtin_clzll(n - 1));  // 2^up >= n
  return up < 8 ? up - 1 : 6;
}

// n I/Os completed inside the queue call: each is one submission and one
// completion of one I/O (bucket 1-4), as fio counts them.
void CountSubmitComplete(DepthDist* d, uint64_t n) {
  d->submit[1] += n;
  d->complete[1] += n;
  d->submit_events += n;
  d->complete_events += n;
}

bool DirUsed(const JobSpec& job, int d) {
  return (d == 0 && HasRead(job.rw)) || (d == 1 && HasWrite(job.rw)) || (d == 2 && HasTrim(job.rw));
}

// The letter a job shows once it runs I/O (after any ramp). A job that reads
// and does not write, with a verify type, checks every read: fio's do_io
// sets TD_VERIFYING for such a read (verify set, a read, and not a
// read+write job), so fio 3.33 shows `V` for rw=read or randread with
// verify=md5/crc32c, do_verify or not; randrw with verify stays `m`.
char StateLetter(const JobSpec& job) {
  const bool r = HasRead(job.rw), w = HasWrite(job.rw), t = HasTrim(job.rw);
  if (r && !w && job.verify.type != VerifyType::kNone) return job_state::kVerifying;
  char c = (r && w) ? 'M' : w ? 'W' : t ? 'D' : 'R';
  return IsRandom(job.rw) ? static_cast<char>(c - 'A' + 'a') : c;
}

const char* DirName(int d) { return d == 0 ? "read" : d == 1 ? "write" : "trim"; }

// The ioprio value a cmdprio I/O of direction d carries: the entry's own
// class/level (cmdprio_bssplit's second format) or the job's cmdprio_class
// (fio's default 1, real-time) and cmdprio.
uint16_t CmdprioValue(const JobSpec& job, int d, const CmdprioBsEntry* e = nullptr) {
  const int cls = e != nullptr && e->cls >= 0 ? e->cls
                  : job.cmdprio_class[d] != 0 ? job.cmdprio_class[d]
                                              : 1;
  const int level = e != nullptr && e->level >= 0 ? e->level : job.cmdprio[d];
  return IoprioValue(cls, level);
}

// The I/O's first part (a short transfer's rest goes out again as a later
// part with its own offset): its issue stamp is taken then. A sync is never
// split, and its offset is the one its slot last carried (fio names a failed
// sync so) while xfer_offset is 0: comparing the two left a sync's issue
// stamp at 0, and its latency read as the time since boot.
[[gnu::always_inline]] inline bool FirstPart(const IoRequest& r) {
  return r.offset == r.xfer_offset || r.op > IoOp::kTrim;
}

}  // namespace

Worker::Worker(const JobSpec& job, int jobnum, uint32_t worker_index, int groupid,
               std::vector<TargetFile> targets, std::unique_ptr<Engine> engine, WorkerControl* ctl)
    : job_(job),
      jobnum_(jobnum),
      worker_index_(worker_index),
      targets_(std::move(targets)),
      engine_(std::move(engine)),
      ctl_(ctl),
      stop_(&ctl->stop),
      ts_(result_.stats) {
  if (engine_ != nullptr) engine_->Configure(job_);  // before anything asks IsSync()
  file_calls_ = engine_ != nullptr && engine_->CallsPerFile();
  result_.name = job.name;
  result_.groupid = groupid;
  result_.jobnum = jobnum;
  result_.spec = job;
  result_.nr_files = static_cast<uint32_t>(targets_.size());
  for (const auto& t : targets_) result_.files.push_back(t.path);
  // cpuio's exit_on_io_done: the coordinator ends the job the same way
  // (StopSteadyState) once the run's I/O jobs are done.
  ss_poll_ = job.ss_dur_s != 0 || (job.ioengine == "cpuio" && job.exit_on_io_done);
  think_blocks_set_ = job.FindSetting("thinktime_blocks") != nullptr;
}

// Interim snapshots start with the job's identity and no stats. Allocated on
// the first request only: a JobResult holds ten histograms (145 KiB), and
// most runs never ask. The identity fields are set in the constructor and
// never change, so either thread may copy them. REQUIRES: snap_mu_ held.
JobResult& Worker::Snap() {
  if (!snap_) {
    snap_ = std::make_unique<JobResult>();
    snap_->name = result_.name;
    snap_->groupid = result_.groupid;
    snap_->jobnum = result_.jobnum;
    snap_->spec = result_.spec;
    snap_->nr_files = result_.nr_files;
    snap_->files = result_.files;
  }
  return *snap_;
}

Worker::~Worker() { Teardown(); }

// The regions the pattern covers (the write pass and the verify replay alike).
std::vector<PatternRegion> Worker::PatternRegions() const {
  std::vector<PatternRegion> regions;
  for (const auto& t : targets_) {
    PatternRegion r;
    r.offset = t.region_offset;
    r.size = t.region_size;
    r.block_align = (job_.direct && t.is_block_device) ? t.logical_block_size : 0;
    r.file_size = t.is_block_device ? t.current_size : std::max(t.current_size, t.needed_size);
    // The null engine with filesize= and no size= in bytes: fio's file has
    // no end (filesize=20k rw=write bs=8k writes 0, 8k and 16k; rw=write:8k
    // bs=4k twice, not wrapping at 20k).
    r.no_end = t.diskless && job_.size == 0;
    regions.push_back(r);
  }
  return regions;
}

namespace {

// The option that set the job's CPUs, with its value and place: the later
// of cpus_allowed and cpumask.
std::string CpusOptionAt(const JobSpec& job) {
  for (auto it = job.settings.rbegin(); it != job.settings.rend(); ++it)
    if (it->name == "cpus_allowed" || it->name == "cpumask")
      return sys::OptionAt(job, it->name, it->value);
  return "cpus_allowed";
}

// "prioclass=1 at j.fio:5, prio=3 at j.fio:4": the options that set the
// job's I/O priority.
std::string PrioOptionsAt(const JobSpec& job) {
  std::string out;
  if (job.prioclass) out = sys::OptionAt(job, "prioclass", std::to_string(*job.prioclass));
  if (job.prio)
    out += (out.empty() ? "" : ", ") + sys::OptionAt(job, "prio", std::to_string(*job.prio));
  return out;
}

// Why the kernel refused an I/O that cmdprio gave a priority with EPERM
// (error path only): ioprio_check_cap lets only CAP_SYS_ADMIN or
// CAP_SYS_NICE use the real-time class, cmdprio_class's default. "" for
// another class.
std::string CmdprioEpermHint(const JobSpec& job, int d, uint16_t prio) {
  if ((prio >> 13) != 1) return "";
  std::string why;
  if (!job.cmdprio_bssplit[d].empty()) {
    why = sys::OptionAt(job, "cmdprio_bssplit", "") + " gave this I/O";
  } else {
    why = sys::OptionAt(job, "cmdprio_percentage", std::to_string(job.cmdprio_percentage[d])) +
          " with " +
          (job.FindSetting("cmdprio_class") != nullptr ? sys::OptionAt(job, "cmdprio_class", "1")
                                                       : "cmdprio_class=1 (the default)") +
          " gave this I/O";
  }
  return why +
         " the real-time priority class, which needs CAP_SYS_ADMIN or CAP_SYS_NICE; "
         "cmdprio_class=2 (best effort) needs neither";
}

// Why an I/O failed that a thread the kernel or libc could not start would
// have done (error path only; "" otherwise): io_uring hands an I/O that
// would block (a tmpfs or buffered file) to an io-wq worker thread, and
// cancels it (ECANCELED) when that thread cannot be made under
// RLIMIT_NPROC; glibc's POSIX AIO starts helper threads and fails the
// request with EAGAIN when it cannot. The error alone named neither.
std::string ThreadLimitHint(const JobSpec& job, int err) {
  const bool uring = job.ioengine.rfind("io_uring", 0) == 0 && err == ECANCELED;
  const bool posixaio = job.ioengine == "posixaio" && err == EAGAIN;
  struct rlimit nproc {};
  if ((!uring && !posixaio) || getrlimit(RLIMIT_NPROC, &nproc) != 0 ||
      nproc.rlim_cur == RLIM_INFINITY)
    return "";
  return std::string(uring ? "the kernel may not have been able to start an io-wq worker thread "
                             "for this I/O"
                           : "glibc may not have been able to start a POSIX AIO helper thread "
                             "for this I/O") +
         ": threads count against ulimit -u, now " + std::to_string(nproc.rlim_cur) +
         ", with every process and thread of the user; raise it, or lower numjobs" +
         (uring ? " or iodepth" : "");
}

// "...: Operation not permitted; what would let it": a permission error
// with what the user can do about it.
Status WithRemedy(Status st, const std::string& remedy) {
  return Status(st.code(), st.message() + "; " + remedy, st.errno_value());
}

}  // namespace

// Each failure names the option, its value and place, and fails this job
// alone (scheduling_failed_), as fio's td_verror in thread_main: err=errno,
// the other jobs run.
Status Worker::ApplyScheduling() {
  if (!job_.cpus_allowed.empty()) {
    std::vector<int> cpus = job_.cpus_allowed;
    std::string what = "sched_setaffinity";
    if (job_.cpus_allowed_policy == CpusAllowedPolicy::kSplit) {
      // One CPU each, by the worker's place among all the run's workers (fio's
      // td->thread_number - 1): separate jobs sharing a list spread over it too.
      cpus = {job_.cpus_allowed[worker_index_ % job_.cpus_allowed.size()]};
      what += "(CPU " + std::to_string(cpus[0]) + ", cpus_allowed_policy=split)";
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int c : cpus) CPU_SET(c, &set);
    if (int e = pthread_setaffinity_np(pthread_self(), sizeof(set), &set); e != 0) {
      // EINVAL: a cgroup cpuset (a container's) forbids the CPUs; say which,
      // and which it allows. This thread's mask is still its own.
      if (e == EINVAL && cpus.back() < CPU_SETSIZE)
        if (std::string why = sys::ForbiddenCpus(cpus); !why.empty()) what += ": " + why;
      return ErrnoStatus(CpusOptionAt(job_) + ": " + what, e);
    }
  }
  const pid_t tid = static_cast<pid_t>(syscall(SYS_gettid));
  if (job_.nice) {
    // fio calls nice(N): an increment on the niceness the run started
    // with (under `nice -n 10`, nice=5 runs at 15), clamped to [-20, 19].
    // Going below the current value needs CAP_SYS_NICE (or RLIMIT_NICE):
    // EPERM, as fio (glibc's nice() turns setpriority's EACCES into it).
    const std::string option = sys::OptionAt(job_, "nice", std::to_string(*job_.nice));
    errno = 0;
    const int now = getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
    if (now == -1 && errno != 0) return ErrnoStatus(option + ": getpriority");
    const int want = std::clamp(now + *job_.nice, -20, 19);
    if (setpriority(PRIO_PROCESS, static_cast<id_t>(tid), want) < 0) {
      const int e = errno == EACCES ? EPERM : errno;
      Status st = ErrnoStatus(option + ": nice(" + std::to_string(*job_.nice) + "), niceness " +
                                  std::to_string(now) + " -> " + std::to_string(want),
                              e);
      if (e != EPERM) return st;
      // What would let it: RLIMIT_NICE allows down to 20 - its value.
      rlimit rl{};
      getrlimit(RLIMIT_NICE, &rl);
      const rlim_t need = static_cast<rlim_t>(20 - want);
      const std::string how =
          rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need
              ? "`ulimit -e " + std::to_string(need) + "` before the run"
              : "its hard limit is " + std::to_string(rl.rlim_max) + ", which only root can raise";
      return WithRemedy(std::move(st), "a lower niceness needs CAP_SYS_NICE or an RLIMIT_NICE of " +
                                           std::to_string(need) + " (" + how + ")");
    }
  }
  if (const uint16_t v = JobIoprio(job_); v != 0) {
    if (syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, tid, v) < 0) {
      Status st = ErrnoStatus(PrioOptionsAt(job_) + ": ioprio_set(class " +
                              std::to_string(v >> 13) + ", level " + std::to_string(v & 7) + ")");
      if (st.errno_value() != EPERM || (v >> 13) != 1) return st;
      return WithRemedy(std::move(st),
                        "the real-time I/O priority class needs CAP_SYS_ADMIN or CAP_SYS_NICE; "
                        "prioclass=2 (best effort) needs neither");
    }
  }
  return Status::Ok();
}

Status Worker::Setup() {
  live_.state.store(job_state::kInitialized, std::memory_order_relaxed);
  const std::string who = "job '" + job_.name + "'";
  if (Status st = ApplyScheduling(); !st.ok()) {
    scheduling_failed_ = true;
    return st.WithContext(who);
  }
  IOB_RETURN_IF_ERROR(LockMemory());

  seed_ = DeriveSeed(job_, worker_index_);
  prio_rng_ = seed_ ^ 0x2545F4914F6CDD1Dull;  // cmdprio's draws, repeatable like the offsets
  // cmdprio_bssplit: the share depends on the I/O's size, and each entry
  // may carry its own class/level. fio sorts the entries by size (they keep
  // their order within one size) and ignores those with a 0 % share.
  for (int d = 0; d < 2; ++d) {
    std::vector<PrioBySize>& sizes = prio_by_size_[d];
    if (job_.cmdprio_percentage[d] != 0) {
      sizes.push_back({0, {{job_.cmdprio_percentage[d], CmdprioValue(job_, d)}}});
    } else {
      std::vector<CmdprioBsEntry> used;
      for (const CmdprioBsEntry& e : job_.cmdprio_bssplit[d])
        if (e.perc != 0) used.push_back(e);
      std::stable_sort(
          used.begin(), used.end(),
          [](const CmdprioBsEntry& a, const CmdprioBsEntry& b) { return a.bs < b.bs; });
      for (const CmdprioBsEntry& e : used) {
        if (sizes.empty() || sizes.back().bs != e.bs) sizes.push_back({e.bs, {}});
        std::vector<PrioChoice>& c = sizes.back().choices;
        c.push_back({(c.empty() ? 0 : c.back().upto) + e.perc, CmdprioValue(job_, d, &e)});
      }
    }
    if (sizes.empty()) continue;
    cmdprio_on_ = cmdprio_dir_[d] = true;
    // One latency record per distinct priority: the job's own first (the
    // I/Os that drew none carry it), then each other value as it comes.
    std::vector<PrioStat>& stats = prio_stats_[d];
    stats.emplace_back().value = JobIoprio(job_);
    for (const PrioBySize& size : sizes)
      for (const PrioChoice& c : size.choices)
        if (std::none_of(stats.begin(), stats.end(),
                         [&c](const PrioStat& p) { return p.value == c.value; }))
          stats.emplace_back().value = c.value;
  }

  if (!job_.write_iolog.empty()) {  // fio's iolog v3: every add first, an open at first use
    if (ctl_->log_writer == nullptr)
      return Status::Internal(who + ": write_iolog set but the run has no log writer");
    std::vector<std::string> names;
    for (const auto& t : targets_) names.push_back(t.path);
    // The log's lines are split at blanks (fio's format): such a name
    // makes a log that neither fio nor iobench can replay. fio writes it
    // silently; the run goes on, with a warning to act on.
    const auto blank = std::find_if(names.begin(), names.end(), [](const std::string& n) {
      return n.find_first_of(" \t\n\r") != std::string::npos;
    });
    if (blank != names.end() && jobnum_ == 0)
      std::fprintf(stderr,
                   "iobench: warning: %s: write_iolog=%s: the file name '%s' holds a blank, and "
                   "the log's lines are split at blanks: neither fio nor iobench can replay "
                   "this log; name the files without blanks (filename=, or a job name without "
                   "them)\n",
                   sys::Printable(who).c_str(), sys::Printable(job_.write_iolog).c_str(),
                   sys::Printable(*blank).c_str());
    auto rec = IologRecorder::Create(job_.write_iolog, std::move(names), ctl_->log_writer, NowNs());
    if (!rec.ok())  // "job 'j': write_iolog=nodir/p (j.fio:4): open log file nodir/p: ..."
      return rec.status().WithContext(who + ": write_iolog=" + job_.write_iolog + " (" +
                                      sys::OptionWhere(job_, "write_iolog") + ")");
    recorder_ = std::move(rec).value();
    const uint64_t now = NowNs();
    // A file's "open" comes with its first I/O: create_only's files, and
    // those the job never comes to, have their "add" line alone, as in fio.
    for (uint32_t i = 0; i < targets_.size(); ++i)
      recorder_->File(now, i, IologRecorder::FileAction::kAdd);
  }
  // openfiles below the file count: each file is opened below to get it
  // ready (invalidate, fadvise, pre_read) and closed again at once; the
  // file service opens it when it picks it (as fio, which opens none before
  // the first I/O). So at most one is open here.
  open_limit_ = OpenLimit(job_, targets_.size());
  IOB_RETURN_IF_ERROR(CheckOpenFiles(job_, targets_.size()));  // (opendir's files are known now)
  // read_iolog: likewise, the log's "open" and "close" lines open and close
  // them (PrepareReplay), as in fio, so a log of more files than
  // RLIMIT_NOFILE allows replays (PrepareReplayJob: read_iolog_open_max).
  if (job_.read_iolog_open_max != 0) open_limit_ = static_cast<uint32_t>(targets_.size());
  if (open_limit_ != 0) {
    service_opened_.assign(targets_.size(), 0);
  }
  file_events_on_ = open_limit_ != 0;
  uint64_t align = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  for (const auto& t : targets_) {
    EngineFile f;
    f.path = t.path;
    f.is_block_device = t.is_block_device;
    f.size = t.is_block_device ? t.current_size : t.needed_size;
    if (file_calls_) {
      // The engine's call on the file is its open (CallFile), at its first
      // I/O or its openfiles turn: the worker opens nothing.
      files_.push_back(f);
      if (open_limit_ == 0) ++deferred_opens_;
    } else if (DefersOpen(t)) {
      // Created by the open for its first I/O, as fio creates it "when it's
      // time to do I/O to that file": a file the job never reaches is never
      // made, and the creation counts in the job's time.
      files_.push_back(f);
      if (open_limit_ == 0) ++deferred_opens_;
    } else if (!t.diskless) {
      IOB_ASSIGN_OR_RETURN(f.fd, OpenTarget(job_, t));
      files_.push_back(f);      // pushed at once so Teardown closes it on a later error
      if (!t.is_char_device) {  // /dev/null, /dev/zero: no page cache to drop, advise or fill
        if (job_.invalidate) {
          std::string kept;
          IOB_RETURN_IF_ERROR(InvalidateTarget(f.fd, t, &kept).WithContext(who));
          if (!kept.empty()) cache_kept_.emplace_back(t.path, std::move(kept));
        }
        IOB_RETURN_IF_ERROR(AdviseTarget(f.fd, t, job_).WithContext(who));
        // With exec_prerun, after the prerun (PreReadAfterPrerun), as fio:
        // a prerun that drops the caches would undo it.
        if (job_.pre_read && job_.exec_prerun.empty()) {
          live_.state.store(job_state::kPreReading, std::memory_order_relaxed);
          IOB_RETURN_IF_ERROR(PreReadTarget(f.fd, t, ctl_->signal).WithContext(who));
          live_.state.store(job_state::kInitialized, std::memory_order_relaxed);
        }
      }
      if (t.is_block_device) align = std::max<uint64_t>(align, t.logical_block_size);
      if (open_limit_ != 0) {
        close(files_.back().fd);
        files_.back().fd = -1;
      }
    } else {
      files_.push_back(f);
    }
  }

  sync_engine_ = engine_->IsSync();
  moves_data_ = engine_->MovesData();
  // verify_async: a sync engine keeps iodepth slots too, so it reads on
  // while earlier verify reads are checked (fio documents the same).
  const bool verify_async = job_.verify.async != 0 && job_.verify.type != VerifyType::kNone;
  depth_ = sync_engine_ && !verify_async ? 1 : std::max<uint32_t>(1, job_.iodepth);
  batch_submit_ =
      job_.iodepth_batch_submit == 0 ? depth_ : std::min(job_.iodepth_batch_submit, depth_);
  batch_complete_min_ = std::min(job_.iodepth_batch_complete_min, depth_);
  // As fio: at most iodepth_batch_complete_max completions per reap, which is
  // iodepth_batch_complete_min (1) unless set. Reaping one at a time and
  // refilling that slot keeps a full queue at iodepth; reaping everything
  // that completed would let it drain and refill in bursts (a different
  // workload: at iodepth=32 half the I/Os went out at a depth of 16-31).
  batch_complete_max_ = std::min(job_.iodepth_batch_complete_max, depth_);
  batch_complete_max_ = std::max(batch_complete_max_, std::max<uint32_t>(1, batch_complete_min_));
  poll_each_ =
      !sync_engine_ && job_.iodepth_batch_complete_min == 0 && job_.iodepth_batch_complete_max == 0;
  iodepth_low_ = job_.iodepth_low == 0 ? depth_ : std::min(job_.iodepth_low, depth_);

  const uint64_t max_bs = BufferBs(job_);  // trims need no buffer room (job.h)
  stride_ = (std::max<uint64_t>(max_bs, 1) + align - 1) / align * align;
  buffer_bytes_ = stride_ * depth_;
  IOB_RETURN_IF_ERROR(io_mem_.Allocate(job_, buffer_bytes_, align, who));
  buffers_ = io_mem_.base();
  filler_ = std::make_unique<BufferFiller>(job_, seed_);
  // fio fills each of its iodepth buffers (a synchronous engine's too) from
  // the content stream, and a re-seeded loop writes those fills first; so
  // does iobench, whose synchronous engines have one buffer: the first loop
  // writes the same in a loops=1 and a loops=2 run, as in fio.
  filler_->FillInitial(buffers_, stride_, depth_, std::max(depth_, job_.iodepth));

  pool_.resize(depth_);
  free_.resize(depth_);
  uncommitted_.resize(depth_);
  requeue_.resize(depth_);
  reaped_.resize(depth_);
  for (uint32_t i = 0; i < depth_; ++i) {
    pool_[i].index = i;
    pool_[i].buf_index = i;
    pool_[i].buf = static_cast<uint8_t*>(buffers_) + i * stride_;
    free_[depth_ - 1 - i] = &pool_[i];
  }
  free_n_ = depth_;

  if (!job_.read_iolog.empty()) {
    // The coordinator checked the whole log (PrepareReplayJob); the files
    // come in the same order as the targets it made of them.
    ReplayOptions replay_opts = ReplayOptions::FromJob(job_);
    replay_opts.file_events = job_.read_iolog_open_max != 0;
    IOB_ASSIGN_OR_RETURN(replay_log_, IologReader::Open(sys::ReadIologPath(job_), replay_opts));
  } else if (!targets_.empty()) {  // a clone fio gave no file (sys::ClonePaths) does no I/O
    // file_append=1: the region starts at each file's end, and fio 3.33
    // moves it to the end it laid out before every later loop
    // (clear_io_state), where nothing is left to do: the job makes one pass
    // of size bytes, whatever loops, io_size or time_based say (its next
    // loop does nothing and ends it). So time_based does not wrap the
    // pattern either. Loops that fio runs as one walk (LoopsRunAsOnePass,
    // below) have no later loop: that walk goes on to size x loops bytes.
    append_once_ = job_.file_append && std::all_of(targets_.begin(), targets_.end(),
                                                   [](const TargetFile& t) { return t.appended; });
    JobSpec once;
    const JobSpec* pattern_spec = &job_;
    if (append_once_ && job_.time_based) {
      once = job_;
      once.time_based = false;
      pattern_spec = &once;
    }
    const JobSpec& pattern_job = *pattern_spec;
    Result<std::unique_ptr<IoPattern>> pattern =
        IoPattern::Create(pattern_job, PatternRegions(), seed_);
    if (!pattern.ok() && pattern.status().code() == Status::Code::kResourceLimit &&
        job_.softrandommap && !job_.norandommap && job_.verify.type == VerifyType::kNone) {
      // softrandommap: the map does not fit; run as norandommap, as fio does.
      AddNote("softrandommap: " + pattern.status().message() +
              "; ran without a random map (offsets may repeat within a pass)");
      JobSpec no_map = pattern_job;
      no_map.norandommap = true;
      pattern = IoPattern::Create(no_map, PatternRegions(), seed_);
    }
    if (!pattern.ok()) return pattern.status().WithContext("job '" + job_.name + "'");
    pattern_ = std::move(*pattern);
    file_events_on_ = file_events_on_ || pattern_->RestartsFilesInPlace();
    if (pattern_job.time_based && sync_engine_) pattern_->EndPassesAtRegions();
    if (std::string n = pattern_->Note(); !n.empty()) AddNote(std::move(n));
  }
  rate_ = RateLimiter::Create(job_, 1, seed_);
  min_rate_ = MinRateCheck::Create(job_);
  if (rate_ != nullptr && pattern_ != nullptr &&
      (job_.rw == RwMode::kReadWrite || job_.rw == RwMode::kRandRW)) {
    rate_steer_.w = this;
    pattern_->SetSteer(&rate_steer_);
  }
  // io_size as fio 3.33 counts it: a pass is one traversal of the region,
  // passes go on while loops remain or less than io_size was issued, and the
  // job stops once io_size x loops bytes are issued. time_based ignores it.
  // With filesize= and size= both given, size= is the job's bytes per pass
  // across its files (fio does not split it over them then): when the files'
  // regions hold more, it caps the job as io_size does. size=N% needs no
  // cap: each file's region is its N% share already (see ResolveTargets;
  // fio: filesize=1m size=25% reads 256 KiB, also with offset=50%;
  // size=10% bs=64k one block; nrfiles=2 filesize=1m size=30% 2 x 76
  // blocks of 4k; filesize=1m offset=50% size=60% on an existing 1 MiB
  // file the 128 blocks from 512 KiB, not 153).
  io_size_ = job_.io_size;
  if (io_size_ == 0 && job_.filesize_min != 0 && job_.size != 0) {
    uint64_t regions = 0;
    for (const TargetFile& t : targets_) regions += t.region_size;
    if (job_.size < regions) io_size_ = job_.size;
  }
  if (job_.io_size_percent != 0) {
    // io_size=N%: N% of the bytes a pass moves, as fio multiplies its size
    // (capped at the files' regions) by it: size=100k io_size=30% issues
    // 30 KiB, so 8 blocks of 4k; nrfiles=2 filesize=256k io_size=50%: 256 KiB.
    uint64_t pass = 0;
    for (const TargetFile& t : targets_) pass += t.region_size;
    if (io_size_ != 0 && io_size_ < pass) pass = io_size_;
    io_size_ =
        static_cast<uint64_t>(static_cast<unsigned __int128>(pass) * job_.io_size_percent / 100);
    if (io_size_ == 0) io_size_ = 1;  // a percentage of a tiny pass: one I/O, not "unset"
  }
  // x loops, saturating.
  const auto times_loops = [loops = std::max<uint64_t>(job_.loops, 1)](uint64_t n) {
    return n > UINT64_MAX / loops ? UINT64_MAX : n * loops;
  };
  io_total_ = io_size_ != 0 && !job_.time_based ? times_loops(io_size_) : 0;
  // fio runs the loops of a random job whose passes end by bytes as one
  // pass with an engine that completes inside its queue call
  // (LoopsRunAsOnePass): psync rw=randread:4 loops=2 goes on with its
  // sequential run where the first size bytes ended. The job stops at
  // size x loops bytes.
  uint64_t region = 0;
  for (const TargetFile& t : targets_) region += t.region_size;
  const bool joined =
      pattern_ != nullptr && LoopsRunAsOnePass(job_, sync_engine_) && pattern_->JoinLoops();
  if (joined && io_total_ == 0) io_total_ = times_loops(region);
  if (append_once_ && !joined && (job_.loops > 1 || job_.time_based || job_.HasIoSize()))
    AddNote(
        "file_append=1: one pass over the appended region, as fio (each later loop, "
        "io_size or time_based pass starts where it ended and finds nothing to do)");
  // A size that is not a multiple of the block: fio's passes each end at
  // the first I/O that reaches size, but the job stops once size x loops
  // bytes are issued (size=10000 bs=4k loops=2 on a 1 MiB file: 3 reads,
  // then 2). Multiples of the block need no limit: their passes end on it.
  if (io_total_ == 0 && !job_.time_based && job_.loops > 1 &&
      (region % std::max<uint64_t>(1, SmallestBs(job_)) != 0 ||
       MixedLoopsEndAtRegionEnd(job_, targets_.size())))
    io_total_ = times_loops(region);
  tb_restarts_ = job_.time_based && !IsRandom(job_.rw) &&
                 (targets_.size() > 1 || (job_.rw != RwMode::kReadWrite && job_.rw_skip == 0 &&
                                          region % std::max<uint64_t>(1, SmallestBs(job_)) != 0));
  // The bytes the job is to issue, for the sync owed by its last write.
  job_bytes_ = io_total_ != 0 ? io_total_ : job_.time_based ? 0 : times_loops(region);
  // number_ios as fio 3.33 counts it: number_ios x loops I/Os over the whole
  // job (loops=3 number_ios=100 stops after 300, all in the first pass if it
  // is long enough), and no limit at all with time_based.
  ios_left_ = job_.number_ios != 0 && !job_.time_based ? times_loops(job_.number_ios) : UINT64_MAX;
  if (job_.number_ios != 0 && job_.time_based)
    AddNote("number_ios is ignored with time_based (as fio): the job runs for its runtime");
  for (const std::string& n : job_.parse_notes) AddNote(n);
  // create_only: the files are laid out; that was the job. No file: nothing to do.
  const bool no_io = job_.create_only || (pattern_ == nullptr && replay_log_ == nullptr);
  if (no_io) ios_left_ = 0;
  ios_limit_ = ios_left_;
  if (!no_io) IOB_RETURN_IF_ERROR(SetupVerify().WithContext(who));
  nfiles_ = static_cast<uint32_t>(files_.size());
  if (job_.latency_target_ns != 0) lat_search_ = std::make_unique<DepthSearch>(job_);
  if (job_.sync_file_range_blocks != 0 || replay_log_ != nullptr)
    sfr_range_.assign(nfiles_, {UINT64_MAX, 0});
  max_latency_on_ =
      job_.max_latency_ns[0] != 0 || job_.max_latency_ns[1] != 0 || job_.max_latency_ns[2] != 0;
  slow_complete_ = verifier_ != nullptr || cmdprio_on_ || lat_search_ != nullptr || max_latency_on_;
  if (job_.flow != 0 && ctl_->flows != nullptr) {
    // The coordinator made the group and added our weight; workers only
    // look it up (find: no insertion while the others set up too).
    auto it = ctl_->flows->find(job_.flow_id);
    if (it != ctl_->flows->end()) flow_ = &it->second;
    flow_weight_ = static_cast<uint64_t>(job_.flow < 0 ? -job_.flow : job_.flow);
  }
  trimwrite_ = job_.rw == RwMode::kTrimWrite || job_.rw == RwMode::kRandTrimWrite;
  tw_apart_ = TrimWriteWalksApart(job_);
  fast_eligible_ = !trimwrite_ && flow_ == nullptr && verifier_ == nullptr &&
                   job_.thinktime_ns == 0 && rate_ == nullptr && min_rate_ == nullptr &&
                   job_.fsync_blocks == 0 && job_.fdatasync_blocks == 0 &&
                   job_.sync_file_range_blocks == 0 && io_total_ == 0 && !cmdprio_on_ &&
                   lat_search_ == nullptr && recorder_ == nullptr && replay_log_ == nullptr &&
                   !job_.serialize_overlap && !file_events_on_ && !file_calls_;
  sync_counts_ =
      job_.fsync_blocks != 0 || job_.fdatasync_blocks != 0 || job_.sync_file_range_blocks != 0;
  UpdateFastPrepare();

  EngineContext ctx;
  ctx.job = &job_;
  ctx.iodepth = depth_;
  ctx.files = &files_;
  ctx.requests = &pool_;
  ctx.buffer_base = buffers_;
  ctx.buffer_bytes = buffer_bytes_;
  ctx.buffer_stride = stride_;
  // Before the ring exists: inside a PID namespace, learning it may need a
  // helper this thread provably made (HelperCpuSampler::KernelTid).
  kernel_tid_ = HelperCpuSampler::KernelTid();
  if (Status st = engine_->Init(ctx); !st.ok()) {
    // Engines name themselves in most of their messages ("libaio: io_setup
    // ..."): add the engine's name only where one does not.
    const bool named = st.message().rfind(job_.ioengine + ":", 0) == 0;
    return st.WithContext(named ? who : who + ": " + job_.ioengine);
  }
  one_batch_ = engine_->OneBatchAtATime();

  // Measurement switches. gtod_reduce is not one: as in fio it sets the
  // disable_* options when it is parsed, and a later disable_clat=0 wins.
  // An engine whose work is a call per file records that call's time
  // (CallFile) and none for its I/Os, as fio's FIO_NOSTATS engines.
  record_clat_ = !job_.disable_clat && !file_calls_;
  record_lat_ = !job_.disable_lat && !file_calls_;
  if (file_calls_) {
    file_called_.assign(files_.size(), 0);
    // fio's: read if the job reads, else write if it writes, else read.
    call_dir_ =
        static_cast<int>(HasWrite(job_.rw) && !HasRead(job_.rw) ? Ddir::kWrite : Ddir::kRead);
  }
  record_slat_ = !sync_engine_ && !job_.disable_slat;
  slat_hist_ = record_slat_ && (job_.slat_percentiles || ctl_->interval_reports);
  lat_hist_ = record_lat_ && (job_.lat_percentiles || ctl_->interval_reports);
  stamp_ = record_slat_ || record_clat_ || record_lat_ || max_latency_on_;
  lat_from_clat_ = sync_engine_ && record_clat_ && record_lat_;
  prio_total_lat_ = job_.lat_percentiles;
  for (int d = 0; d < kNumDdirs; ++d) sample_dir_[d] = DirUsed(job_, d);

  // --- issue 8: per-I/O and per-interval logs ---
  if (IoLogOptions lo = IoLogOptions::FromJob(job_); lo.Any()) {
    if (ctl_->log_writer == nullptr)
      return Status::Internal(who + ": logs requested but the run has no log writer");
    lo.window_value = static_cast<LogWindowValue>(job_.log_window_value);
    lo.log_slat = lo.log_slat && record_slat_;  // sync engines: the slat file stays empty
    lo.log_clat = lo.log_clat && (record_clat_ || (file_calls_ && !job_.disable_lat));
    lo.log_lat = lo.log_lat && record_lat_;
    for (int d = 0; d < kNumDdirs; ++d) lo.window_rate_dir[d] = sample_dir_[d];
    // The windowed bw/iops lines are the report's samples (TakeSamples), as
    // fio logs a bw/iops entry only when it takes a sample.
    lo.bw_msec = job_.bw_avg_ms;
    lo.iops_msec = job_.iops_avg_ms;
    // Numbered by the clone's place in the run, as fio's thread_number: two
    // jobs with the same prefix get files .1 and .2, not both .1.
    auto logger = IoLogger::Create(lo, static_cast<int>(worker_index_), ctl_->log_writer);
    if (!logger.ok()) return logger.status().WithContext(who);
    iolog_ = std::move(logger).value();
    if (!lo.name_note.empty()) AddNote(lo.name_note);
    stamp_ = true;  // log lines carry times even when no latency is recorded
    log_prio_value_ = JobIoprio(job_);
  }
  // --- end issue 8 ---
  return Status::Ok();
}

// One step of a wait (SleepNs, SpinNs): false on a stop request or steady
// state; else answers what a waiting worker still owes.
bool Worker::WaitStep(uint64_t now) {
  if (stop_->load(std::memory_order_relaxed) != kStopNone) return false;
  if (ss_poll_ && ss_stop_.load(std::memory_order_relaxed)) return false;
  PollSnapshot(now);  // issue 8: answer interim requests while waiting
  if (iolog_ != nullptr && measuring_) iolog_->Tick(now - measure_start_ns_);
  // bw/iops windows close on time during a rate or think wait too (they
  // stretched to the next I/O: a 1 IOPS job sampled 1000 ms windows).
  if (measuring_ && now >= next_sample_ns_) TakeSamples(now);
  return true;
}

// thinktime_spin: busy-waits, checking for a stop as it goes (a 5 s spin
// held Ctrl-C off for 5 s; fio 3.33's does too).
void Worker::SpinNs(uint64_t ns) {
  pausing_.store(true, std::memory_order_relaxed);
  const uint64_t until = SaturatingAddNs(NowNs(), ns);
  for (uint64_t now = NowNs(); now < until; now = NowNs())
    if (!WaitStep(now)) break;
  pausing_.store(false, std::memory_order_relaxed);
}

void Worker::SleepNs(uint64_t ns) {
  // The stuck-job watchdog leaves a pausing worker alone: thinktime=3s with
  // --stuck-timeout=1 was called a device that does not complete I/O.
  pausing_.store(true, std::memory_order_relaxed);
  // In slices, so a stop request is honoured within ~10 ms.
  const uint64_t until = SaturatingAddNs(NowNs(), ns);
  for (uint64_t now = NowNs(); now < until; now = NowNs()) {
    if (!WaitStep(now)) break;
    const uint64_t slice = std::min<uint64_t>(until - now, 10ull * 1000 * 1000);
    timespec ts{static_cast<time_t>(slice / 1000000000ull),
                static_cast<long>(slice % 1000000000ull)};
    nanosleep(&ts, nullptr);
  }
  pausing_.store(false, std::memory_order_relaxed);
}

uint64_t Worker::RampRateCutNs() const {
  return RampCutByRate(job_) ? start_ns_ + job_.runtime_ns : UINT64_MAX;
}

std::string Worker::RampRateCutNote() const {
  return SettingText(job_, "runtime") + " is shorter than " + SettingText(job_, "ramp_time") +
         " and the job waits on its rate: as fio 3.33 ends such a job, it ended at its "
         "runtime, inside its ramp; its I/Os are the ramp's, with no latencies (without a "
         "rate, or with a runtime at least as long as the ramp, the runtime counts after it)";
}

// SleepNs returns early on a stop request or steady state; the runtime may
// have ended while it slept. CheckTimeSlow turns each into stopping_ (and
// ends a ramp that ended meanwhile), so the caller issues nothing more.
bool Worker::StoppedDuringSleep(uint64_t& now) {
  now = CheckTimeSlow(now);
  return stopping_;
}

void Worker::BeginMeasuring(uint64_t now, bool restart) {
  // Ramp ends: what happened so far is not measured (fio resets its stats).
  // Without a ramp nothing was recorded yet (this runs before the first I/O),
  // and a reset would only trade fresh histogram storage for fresh storage.
  if (job_.ramp_time_ns != 0 || restart) {
    // The counts of issued and completed I/Os restart with the stats, the
    // count at the last pause does not (fio 3.33 resets io_blocks and
    // io_issues, not last_thinktime_blocks): the first pause after the ramp
    // comes that many I/Os late, as in fio.
    think_issued_ = 0;
    const ErrorInfo first_error = ts_.first_error;
    const uint64_t total_errors = ts_.total_errors, coe_errors = ts_.coe_errors;
    const int coe_first_error = ts_.coe_first_error;
    // In place: `ts_ = ThreadStats()` would build a temporary on the stack.
    std::destroy_at(&ts_);
    std::construct_at(&ts_);
    ts_.first_error = first_error;
    ts_.total_errors = total_errors;
    ts_.coe_errors = coe_errors;
    ts_.coe_first_error = coe_first_error;
    for (std::vector<PrioStat>& stats : prio_stats_)
      for (PrioStat& p : stats) {
        p.lat = LatStat();
        p.hist = Histogram();
      }
    // fio's number_ios counts the I/Os issued since its stats were reset:
    // the ramp's do not count.
    if (!restart) {
      ios_left_ = ios_limit_;
      tw_half_ = false;
      sync_marked_ = false;  // the count restarted: the mark means nothing now
      // fio 3.33 resets its rate counters and epoch at the ramp's end: the
      // rate counts from here. Counted from the job's start, the rate the
      // ramp's pauses left unused came as a burst after it (rate_iops=100
      // thinktime=200ms thinktime_blocks=10 ramp_time=1 runtime=2: 150 I/Os,
      // as with no rate at all; fio 120).
      if (rate_ != nullptr) {
        rate_->Restart();
        due_ns_ = 0;
        // A plan that waited for its slot across the ramp's end is issued
        // now, at the new epoch: it is the new schedule's first I/O. It was
        // charged to the ramp's schedule only, so the next one went out at
        // once too (rate_iops=100 ramp_time=1 runtime=2: 201 I/Os, fio 200).
        if (has_pending_plan_ && !lookahead_plan_)
          (void)rate_->DelayNs(pending_plan_.ddir, pending_plan_.length, 0);
      }
    }
  }
  sync_done_ = 0;
  next_event_ns_ = 0;  // CheckTime recomputes what is due next
  PublishLive();       // the ramp's counts are gone; Account() keeps them current from here
  // A runtime says how many samples come: no growth in the loop. Without one,
  // room for 8 s; growth after that doubles, once per 8, 16, 32 s... (1024
  // reserved samples cost 64 KiB per worker, 16 MiB for 252 workers whose
  // run ends before the first sample).
  // (Capped: a 1 ms bwavgtime over hours grows instead of reserving it all.)
  auto room = [&](uint64_t window_ms) {
    return job_.runtime_ns ? std::min<uint64_t>(job_.runtime_ns / MsToNs(window_ms) + 8, 65536)
                           : 16;
  };
  for (int d = 0; d < kNumDdirs; ++d) {
    if (!sample_dir_[d]) continue;
    ts_.dir[d].bw_samples.reserve(room(job_.bw_avg_ms));
    ts_.dir[d].iops_samples.reserve(room(job_.iops_avg_ms));
    sample_bytes_[d] = sample_ios_[d] = 0;
  }
  measuring_ = true;
  held_back_.store(false, std::memory_order_relaxed);  // past its ramp (SetHeldBack)
  measure_start_ns_ = now;
  if (!restart) rate_epoch_ns_ = now;
  // The measured period is `runtime` long from here, however late the ramp
  // was noticed.
  end_ns_ = job_.runtime_ns != 0 ? now + job_.runtime_ns : 0;
  // A window longer than 64 bits of ns never closes (log_avg_msec, which a
  // log makes the window, takes any count of ms): no sample, as in fio.
  next_bw_ns_ = SaturatingAddNs(now, MsToNs(job_.bw_avg_ms));
  next_iops_ns_ = SaturatingAddNs(now, MsToNs(job_.iops_avg_ms));
  next_sample_ns_ = std::min(next_bw_ns_, next_iops_ns_);
  if (iolog_ != nullptr) iolog_->StartEpoch();  // log_unix_epoch: times count from here
  // The helpers' CPU so far is not this period's (their figures divide by
  // the measured runtime): a ramp's or a search's (ramp_time=2
  // runtime=500ms read io-wq sys 226% on one thread), or without either a
  // SQPOLL thread's spinning since its ring was made (135% of a 9 ms run).
  // Read after `now`, the period's start, and before this thread's CPU is
  // read, so the reading is the time before the period, not its CPU.
  const bool ran_before = ru_start_.thread_ns != 0;  // a ramp or a search
  const CpuUsage cpu_before = ran_before ? ru_start_ : HelperCpuSampler::ThreadCpuNow();
  if (ctl_->helper_sampler != nullptr && !engine_is_sync()) {
    HelperCpuSampler& h = *ctl_->helper_sampler;
    unmeasured_helpers_ = h.SampleForThread(tid_, kernel_tid_, ran_before, &period_helpers_);
    // The SQPOLL thread names itself when it first runs: on a busy machine
    // it may not have by the sampler's start, nor be known now (it then read
    // up to 111% of a 2 ms run, counted to a sample after the end).
    if (period_helpers_.empty() && job_.sqthread_poll && !ran_before)
      unmeasured_helpers_ = h.SampleForThread(tid_, kernel_tid_, true, &period_helpers_);
    period_helpers_end_.reserve(std::max<size_t>(period_helpers_.size(), 1));
  }
  const CpuUsage cpu_now = HelperCpuSampler::ThreadCpuNow();
  if (cpu_before.thread_ns != 0) {  // the ramp, the search, the reading: no helper's CPU
    const CpuUsage before = CpuSince(cpu_before, cpu_now);
    unmeasured_cpu_.user_us += before.user_us;
    unmeasured_cpu_.sys_us += before.sys_us;
  }
  ru_start_ = cpu_now;
  live_.state.store(StateLetter(job_), std::memory_order_relaxed);
  live_.measured_since_ns.store(now, std::memory_order_release);  // after PublishLive
  if (lat_search_ != nullptr) lat_search_->Restart(now, 0);       // as fio: the search starts over
}

uint64_t Worker::CompletedIos() const {
  uint64_t n = 0;
  for (const DirStats& ds : ts_.dir) n += ds.ios;
  return n;
}

// As fio's handle_thinktime, asked before each new I/O: a pause is due once
// thinktime_blocks more I/Os were completed (thinktime_blocks_type=complete,
// the default: with a queue the job issues more before the first pause, e.g.
// bursts of 9, 6, 6 at iodepth=4 and thinktime_blocks=6) or issued (issue:
// 6, 6, 6) since the last one, or, with thinktime_iotime, once that much time
// passed since the last pause. With thinktime_iotime alone (thinktime_blocks
// not given) only the time counts. The count is taken when the pause becomes
// due, before the queue drains. As in fio, the check runs once per issued
// I/O, at the first chance to issue the next (after the reap a full queue
// needs), so no pause follows the job's last I/O unless it was due then.
bool Worker::ThinkDue(uint64_t now) {
  think_check_ = false;
  if (job_.thinktime_iotime_ns != 0 && now < think_last_ns_ + job_.thinktime_iotime_ns &&
      !think_blocks_set_)
    return false;
  const uint64_t b = job_.thinktime_blocks_complete ? CompletedIos() : think_issued_;
  const bool by_time =
      job_.thinktime_iotime_ns != 0 && now >= think_last_ns_ + job_.thinktime_iotime_ns;
  if (!by_time && b < think_last_blocks_ + std::max<uint64_t>(1, job_.thinktime_blocks))
    return false;
  think_last_blocks_ = b;
  return true;
}

bool Worker::LatencyGate(uint64_t now, uint32_t in_use) {
  using A = DepthSearch::Action;
  if (lat_pending_ == A::kNone && measuring_) {
    const A a = lat_search_->Check(now, CompletedIos());
    if (a == A::kDone) {  // the final window met the target: the job ends
      stopping_ = true;
      return false;
    }
    if (a == A::kDrain || a == A::kFinalRun) lat_pending_ = a;
  }
  if (lat_pending_ != A::kNone) {
    if (in_use > 0) return false;  // fio quiesces: the new depth starts from an empty queue
    if (lat_pending_ == A::kFinalRun) BeginMeasuring(now, true);  // only the found depth counts
    lat_search_->NewCycle(now, CompletedIos());
    lat_pending_ = A::kNone;
  }
  return in_use < lat_search_->depth();
}

void Worker::LatencyCompleted(const IoRequest* req, uint64_t now) {
  const uint64_t lat = now - req->start_ns;
  const DepthSearch::Action a = lat_search_->OnCompletion(lat);
  if (a == DepthSearch::Action::kDrain) {
    lat_pending_ = a;
  } else if (a == DepthSearch::Action::kFatal && error_ == 0) {
    // fio: "latency of N nsec exceeds specified max", the job fails with ETIMEDOUT.
    error_ = ETIMEDOUT;
    stopping_ = true;
    ErrorInfo& e = ts_.first_error;
    if (e.err == 0) {
      e.err = ETIMEDOUT;
      e.file = req->file_index < files_.size() ? files_[req->file_index].path : "";
      e.offset = req->xfer_offset;
      e.ddir = static_cast<Ddir>(req->op);
      e.message = "latency of " + std::to_string(lat) + " nsec exceeds latency_target (" +
                  std::to_string(job_.latency_target_ns) + " nsec) at queue depth 1";
    }
  }
}

void Worker::TakeSamples(uint64_t now) {
  // The windows lie on a fixed grid from the start of the measured period,
  // as the log's do and as fio's helper thread takes them on time: the
  // window that ended at its grid point holds the I/O completed before it
  // (a completion batch is checked here before it is counted, see
  // SampleDue), and its rate is over the window's own length. (Closing it
  // at the batch that noticed it stretched it to a slow I/O's completion:
  // 300 ms reads in 500 ms windows read 13 KiB/s every time, where the log
  // and fio alternate 8 and 16.) Returns the window's end, 0 if not due.
  // A window that ends at or after the runtime's end is no sample: fio's
  // helper thread does not sample the window that ends with the job
  // (runtime=1 in 500 ms windows: samples=1, where iobench took 2 when the
  // worker's last check came after the end), and the log, which the report's
  // samples mirror, has no line for it (IoLogOptions::rate_end_ns).
  auto close = [this, now](uint64_t& next, uint64_t window_ms) {
    if (now < next) return uint64_t{0};
    const uint64_t end = next;
    const uint64_t w = MsToNs(window_ms);
    next = SaturatingAddNs(next, (now - next) / w * w + w);  // the first grid point after now
    return end_ns_ != 0 && end >= end_ns_ ? uint64_t{0} : end;
  };
  const uint64_t bw_end = close(next_bw_ns_, job_.bw_avg_ms);
  const uint64_t iops_end = close(next_iops_ns_, job_.iops_avg_ms);
  // As fio's __add_samples: a rate over the window in whole milliseconds,
  // and no sample for a direction that moved nothing in the window (a job
  // slower than one I/O per window read min=0 and half its real rate, a
  // bursty one a mean below fio's).
  const auto rate = [](uint64_t n, uint64_t window_ms) {
    return n * 1000 / std::max<uint64_t>(1, window_ms);
  };
  const auto t_ms = [this](uint64_t end) { return (end - measure_start_ns_) / kMsNs; };
  for (int d = 0; d < kNumDdirs; ++d) {
    if (!sample_dir_[d]) continue;
    DirStats& ds = ts_.dir[d];
    if (bw_end != 0) {
      const uint64_t db = ds.bytes - sample_bytes_[d];
      if (db != 0) ds.bw_samples.push_back({t_ms(bw_end), rate(db, job_.bw_avg_ms)});
      sample_bytes_[d] = ds.bytes;
    }
    if (iops_end != 0) {
      const uint64_t di = ds.ios - sample_ios_[d];
      if (di != 0) ds.iops_samples.push_back({t_ms(iops_end), rate(di, job_.iops_avg_ms)});
      sample_ios_[d] = ds.ios;
    }
  }
  next_sample_ns_ = std::min(next_bw_ns_, next_iops_ns_);
}

uint64_t Worker::CheckTimeSlow(uint64_t now) {
  if (!stopping_) {
    const int s = stop_->load(std::memory_order_relaxed);
    if (s != kStopNone) {
      stopping_ = true;
      interrupted_ = s == kStopSignal;
    }
    // Steady state reached: the job ends as at the end of its runtime.
    if (ss_poll_ && ss_stop_.load(std::memory_order_relaxed)) stopping_ = true;
  }
  if (!measuring_) {
    if (now >= ramp_end_ns_) BeginMeasuring(now);
  } else if (now >= next_sample_ns_) {
    TakeSamples(now);
  }
  if (end_ns_ != 0 && now >= end_ns_ && !verifying_) stopping_ = true;  // verify runs to the end
  // --- issue 8: one relaxed load per batch; the logger's windows close on time ---
  const bool served = PollSnapshot(now);
  if (iolog_ != nullptr && measuring_) iolog_->Tick(now - measure_start_ns_);
  // What is due next. A stop request and a snapshot request are seen by
  // CheckTime's loads; a logging job checks its windows every batch.
  // bw/iops samples are taken whatever disable_bw or gtod_reduce say, as
  // fio 3.33 takes them (those only keep the per-I/O bw log empty).
  uint64_t next = measuring_ ? next_sample_ns_ : ramp_end_ns_;
  if (end_ns_ != 0 && end_ns_ < next) next = end_ns_;
  if (iolog_ != nullptr) next = 0;
  if (ss_poll_) next = std::min(next, now + kSteadyPollNs);
  next_event_ns_ = next;
  return served ? NowNs() : now;
}

void Worker::CopyEngineCounters(ThreadStats* ts) const {
  const EngineCounters& c = engine_->counters();
  ts->submit_calls = c.submit_calls;
  ts->submitted = c.submitted;
  ts->reap_calls = c.reap_calls;
  ts->reaped = c.reaped;
  ts->reap_syscalls = c.reap_syscalls;
}

void Worker::FoldDerived(ThreadStats* ts) const {
  for (int d = 0; d < 2; ++d) {
    if (!cmdprio_dir_[d] || !record_clat_) continue;
    ts->dir[d].prio_split = true;
    ts->dir[d].prios = prio_stats_[d];
  }
  if (sync_done_ != 0) {
    ts->depth.depth[0] += sync_done_;
    // fio counts an I/O completed inside the queue call as one submission
    // and one completion only for an engine without a commit hook. Its null
    // engine has one, and completes in the call at iodepth=1 (above, it
    // queues and commits, which counts): there fio's submit and complete
    // lines are 0.0% in every bucket.
    const bool fio_counts = !(job_.ioengine == "null" && job_.iodepth == 1);
    if (fio_counts) CountSubmitComplete(&ts->depth, sync_done_);
    // With iodepth_batch_complete_min=0 and _max=0 (fio's io_in_polling)
    // fio 3.33 reaps after every I/O; a sync engine has nothing in flight
    // then, so td_io_getevents finds 0 events and still counts the call:
    // one "0" completion per I/O (psync: 0=50%, 4=50%; null at iodepth=1:
    // 0=100%).
    if (sync_engine_ && job_.iodepth_batch_complete_min == 0 &&
        job_.iodepth_batch_complete_max == 0) {
      ts->depth.complete[0] += sync_done_;
      ts->depth.complete_events += sync_done_;
    }
  }
  // cpuio: its requests are counted with their lengths like any other,
  // here taken back (fio reports its chunks as reads of 0 bytes).
  if (!moves_data_)
    for (DirStats& ds : ts->dir) {
      ds.bytes = 0;
      ds.bw_samples.clear();
    }
  if (lat_from_clat_) {
    for (DirStats& ds : ts->dir) {
      ds.lat = ds.clat;
      ds.lat_hist = ds.clat_hist;
    }
  }
}

void Worker::PublishLive() {
  for (int d = 0; d < kNumDdirs; ++d) {
    live_.ios[d].store(ts_.dir[d].ios, std::memory_order_relaxed);
    live_.bytes[d].store(ts_.dir[d].bytes, std::memory_order_relaxed);
  }
}

// Whether another pass follows the one that ended (fio's keep_running): while
// loops remain, or while the job moved less than io_size, counting verify
// reads as fio does; never once io_size x loops bytes were issued.
bool Worker::MorePassesAfter(uint64_t passes) const {
  if (append_once_) return false;  // file_append: fio's later loops find nothing to do
  // fill_device: one pass fills the filesystem; fio's never ends before
  // ENOSPC, time_based or not.
  if (job_.fill_device) return false;
  // Two passes in a row found the end of the file before any data: so
  // would every later one.
  if (eof_empty_passes_ >= kEofEmptyPassesStop || eof_rand_stop_) return false;
  if (job_.time_based) return true;
  if (io_total_ != 0 && issued_bytes_ >= io_total_) return false;
  if (WritesIoSizePerLoop(job_) && io_total_ != 0) return true;  // to io_size x loops
  // A holed trimwrite walk (trimwrite:4k) that wraps at the file's end: fio
  // 3.33's do_io never returns from it, so its keep_running (which counts
  // trims and writes) is not asked; it goes on to io_size x loops bytes of
  // writes, as issued_bytes_ counts them (size=32k io_size=64k: 16 pairs).
  if (job_.rw == RwMode::kTrimWrite && io_total_ != 0 && pattern_ != nullptr &&
      pattern_->HoledWalkGoesOn())
    return true;
  if (passes < std::max<uint64_t>(1, job_.loops)) return true;
  if (io_total_ == 0) return false;
  // fio's keep_running: the files are done and no io_size= asks for more.
  if (!job_.HasIoSize() && pattern_ != nullptr && pattern_->EndedAtFileEnd()) return false;
  uint64_t moved = 0, max_bs = 0;
  for (int d = 0; d < kNumDdirs; ++d) {
    moved += ts_.dir[d].bytes;
    max_bs = std::max(max_bs, job_.bs[d].max);
  }
  // Less than a largest block left is no reason for another pass (fio).
  return moved < io_size_ && io_size_ - moved >= max_bs;
}

// fill_device without a size: the region the free space sized when the
// job started (FillRegionBytes) is written and no write found the
// filesystem full. Data the filesystem compresses takes less room than it
// counts (btrfs compress=zstd, 200 MiB: the 194 MiB region written, 6%
// still free; fio 3.33 wrote 259 MB). fio's size is "something really
// large" and it writes on to ENOSPC: so does the job, over a new region
// from where the last one ended, as large as the free space is now plus a
// block, as often as it takes. At the end of a region, never per I/O. A
// job that cannot go on (its verify replays, io_size or openfiles hold the
// first region's plan) keeps what is free for its report's note.
bool Worker::FillGoesOn() {
  if (fill_full_ != 0 || stopping_ || error_ != 0 || ios_left_ == 0 || pattern_ == nullptr ||
      targets_.empty() || (io_total_ != 0 && issued_bytes_ >= io_total_))
    return false;
  for (const TargetFile& t : targets_)
    if (!t.fill_sized) return false;
  const Result<uint64_t> free = FillFreeBytes(job_, targets_[0].path);
  if (!free.ok()) return false;
  fill_stop_why_ = verifier_ != nullptr ? "its verify replays the first region's plan"
                   : job_.HasIoSize()   ? "io_size= is set"
                   : open_limit_ != 0   ? "openfiles= is set"
                                        : "";
  fill_stop_free_ = *free;
  if (!fill_stop_why_.empty()) return false;
  if (fill_regions_.empty()) fill_regions_ = PatternRegions();
  const uint64_t gran = SmallestBs(job_);
  uint64_t added = 0;
  for (PatternRegion& r : fill_regions_) {
    // Every I/O of the pass ended inside the region, the last at its end
    // less what is left under a block (writes may still be in flight).
    r.offset += r.size - r.size % gran;
    r.size = FillRegionBytes(job_, *free);
    r.file_size = r.offset + r.size;
    added += r.size;
  }
  Result<std::unique_ptr<IoPattern>> next = IoPattern::Create(job_, fill_regions_, seed_);
  if (!next.ok()) {
    fill_stop_why_ = "the next region: " + next.status().message();
    return false;
  }
  pattern_ = std::move(*next);
  if (io_total_ != 0) io_total_ += added;
  job_bytes_ += added;
  ++fill_more_;
  return true;
}

bool Worker::EndPass(IoPlan* plan) {
  // fill_device: the region ran out before the filesystem did.
  if (job_.fill_device && FillGoesOn()) return PatternNext(plan);
  ++passes_;
  bool loop_end = true;
  if (WritesIoSizePerLoop(job_)) {  // a loop is io_size bytes (its verify phase follows it)
    loop_end = issued_bytes_ - loop_mark_bytes_ >= io_size_;
    if (loop_end) loop_mark_bytes_ = issued_bytes_;
  }
  const bool more = MorePasses();
  if (verifier_ != nullptr && VerifyAfterPass(more)) return false;
  if (!more) return false;
  // fio's do_io returns at the end of each loop after reaping every I/O in
  // flight, and the next loop starts on an empty queue: its I/Os never
  // overlap the last pass's (a random pass may pick an offset the previous
  // one still has in flight) and the depth ramps up again (loops=8 over 64
  // blocks at iodepth=64: 1=1.56% ... 32=50%, >=64=1.56%). time_based jobs
  // wrap inside do_io instead (the file is reset in place) and keep the
  // queue full, except where a pass closes its files (tb_restarts_: a
  // sequential job over several files, or one whose size is no multiple of
  // the block): all of them done ends fio's do_io there too, with the
  // loop's end sync. Run() starts the next pass once the queue is empty
  // (StartDrainedPass); with nothing in flight, at once.
  // A sequential pass that found the end of the file drains too: its
  // reads still in flight lie past the end, and must not end the next pass.
  const bool drains = (loop_end && (!job_.time_based || tb_restarts_)) || eof_in_pass_;
  if ((drains && free_n_ != depth_) || (loop_end && job_.unlink_each_loop && !job_.time_based)) {
    pass_drain_ = true;
    return false;
  }
  if (drains && !EndOfLoopSync(true)) return false;
  ResetPattern(loop_end);
  InvalidateForPass();
  StartPassSync();
  return PatternNext(plan);
}

// The pass ended owing a sync (its last write was the Nth), with nothing in
// flight. Whether the sync goes out now, before the pass ends, as in fio
// 3.33: its sync engines issue it as long as the job's bytes are not all
// issued (their do_io asks for one more I/O and gets the sync), and every
// engine does in a time_based job, whose do_io goes on; a queueing engine's
// loop ends on its bytes first. Where fio's do_io then starts again (each
// loop; a time_based pass that closed its files) its last_was_sync is
// reset and the new pass starts with the sync once more (restart_sync_:
// psync loops=3 size=64k fsync=4: 13 syncs, 11 without the repeat;
// time_based size=42k bs=4k fsync=1: 11 syncs per pass of 10 writes). A
// pass that only wraps (a time_based random job) syncs once. Sets
// pass_eof_ (NextPlan ends the pass), or no_more_ at the job's end.
bool Worker::PassEndSync() {
  if (job_.fill_device && FillGoesOn()) return true;  // the next I/O follows, in a new region
  bool loop_end = true;
  if (WritesIoSizePerLoop(job_) && !job_.time_based)
    loop_end = issued_bytes_ - loop_mark_bytes_ >= io_size_;
  if (!job_.time_based && !MorePassesAfter(passes_ + 1)) {
    no_more_ = true;
    IoPlan unused;
    (void)EndPass(&unused);  // counts the pass, as NextPlan would
    // The job's last pass ended short of its io_size x loops bytes: fio
    // still syncs, since its loop asks for one more I/O (io_size=192k
    // loops=2 on 64k: 5; size=23100 bs=2300 fdatasync=1, etcd's fdatasync
    // test shape: 10 writes, 10 syncs). At depth 1 an async engine goes
    // the same way.
    return (sync_engine_ || depth_ == 1) && issued_bytes_ < job_bytes_;
  }
  pass_eof_ = true;
  const bool restart = job_.time_based ? tb_restarts_ : loop_end;
  if (!restart) return true;  // the next I/O follows in the same do_io
  restart_sync_ = true;
  // sync_file_range: a queueing engine makes the one call, in the new loop
  // (fio 3.33's libaio: after the reopen; its vsync, which queues, too). A
  // sync engine syncs here as for fsync; the new loop's sync then finds
  // nothing written since, and fio counts it without a call (psync loops=2
  // size=80k, every 4: 9 calls, 10 in sync lat N).
  if (job_.sync_file_range_blocks != 0 && (!sync_engine_ || job_.ioengine == "vsync")) return false;
  return job_.time_based || sync_engine_;
}

// A trimwrite job's I/O against its limits. Paired (the same block sizes):
// a trim and its write count once, and the write is owed. Walking apart
// (TrimWriteWalksApart): as fio 3.33, the writes' bytes count towards size,
// io_size and loops, and every two I/Os, trims or writes, make one of
// number_ios.
void Worker::CountTrimWrite(const IoPlan& plan) {
  if (!tw_apart_) {
    if (plan.ddir != Ddir::kWrite) {
      --ios_left_;
      issued_bytes_ += plan.length;
    }
    write_owed_ = plan.ddir == Ddir::kTrim;
    return;
  }
  if (plan.ddir == Ddir::kWrite) issued_bytes_ += plan.length;
  tw_half_ = !tw_half_;
  if (!tw_half_) --ios_left_;
}

// fio 3.33's get_rw_ddir after the Wth write of the job: an fsync when W is
// a multiple of fsync=, else an fdatasync when it is one of fdatasync=, else
// a sync_file_range (never with the other two). Each count runs on its own:
// fsync=2 fdatasync=1 alternates fdatasync and fsync after every write.
void Worker::CountSyncWrite() {
  const uint64_t every[3] = {job_.fsync_blocks, job_.fdatasync_blocks, job_.sync_file_range_blocks};
  static constexpr IoOp kOps[3] = {IoOp::kFsync, IoOp::kFdatasync, IoOp::kSyncFileRange};
  bool due = false;
  // Backwards, so that the first kind due (fsync, fdatasync) is the one kept.
  for (int i = 2; i >= 0; --i) {
    if (every[i] == 0 || ++writes_since_sync_[i] < every[i]) continue;
    writes_since_sync_[i] = 0;
    sync_op_ = kOps[i];
    due = true;
  }
  if (due) need_sync_ = true;
}

void Worker::StartPassSync() {
  if (!restart_sync_) return;
  restart_sync_ = false;
  need_sync_ = true;
  sync_file_ = pattern_->SyncFile();  // the new pass's first turn
}

// fio's do_io ends every loop of a writing job with end_fsync or
// fsync_on_close: one fsync per file, inside the job's measured time, before
// a verify phase (which syncs on its own), and a failure fails the job. Not
// for a job that only read, nor twice with nothing written since (a verify
// phase's sync). False when a sync failed. another_loop: a loop follows.
bool Worker::EndOfLoopSync(bool another_loop) {
  // ios_left_ moves with every issued I/O (verify reads aside), on the fast
  // path too: unchanged since the last sync means nothing was written since.
  // fio's last_was_sync: the last I/O was a sync (fsync=N, a replayed one,
  // a verify phase's).
  const bool last_was_sync = replay_synced_last_ || (sync_marked_ && ios_left_ == synced_ios_left_);
  if (!another_loop) final_sync_skipped_ = last_was_sync;
  const bool sync =
      (job_.end_fsync || job_.fsync_on_close) && HasWrite(job_.rw) && error_ == 0 && !last_was_sync;
  // openfiles: the files the pass finished are closed (and logged) before
  // a loop's end; nothing is in flight here. Not at the job's end: fio's
  // last loop ends on its bytes, before the file service finds them done,
  // and its end sync finds them open.
  if (another_loop && open_limit_ != 0 &&
      ApplyFileEvents(/*closes_only=*/true) == FilesState::kFailed)
    return false;
  // write_iolog: fio closes the files when a loop's I/O runs out, its end
  // sync reopens each one, and the next loop opens them at their first I/O.
  // A time_based pass always ends on its files (a queueing engine's too).
  if (another_loop && recorder_ != nullptr)
    recorder_->LoopEnd(NowNs(), sync,
                       (!sync_engine_ && !job_.time_based) || ios_left_ == 0 ||
                           (io_total_ != 0 && issued_bytes_ >= io_total_));
  if (!sync) return true;
  sync_marked_ = true;
  synced_ios_left_ = ios_left_;
  const int prev = live_.state.load(std::memory_order_relaxed);
  live_.state.store(job_state::kFsync, std::memory_order_relaxed);
  if (!SyncFiles(job_.end_fsync ? "end_fsync" : "fsync_on_close")) return false;
  live_.state.store(prev, std::memory_order_relaxed);
  return true;
}

// fsync of every open file; the first failure fails the job, naming what
// asked for the sync and the file.
bool Worker::SyncFiles(const char* why) {
  for (size_t i = 0; i < files_.size(); ++i) {
    if (files_[i].fd < 0 && open_limit_ != 0 && !targets_[i].diskless && !file_calls_) {
      // A file openfiles has closed: opened for the sync and closed again,
      // as fio's fio_file_fsync does.
      Result<int> fd = OpenTarget(job_, targets_[i]);
      int err = fd.ok() ? 0 : (fd.status().errno_value() != 0 ? fd.status().errno_value() : EIO);
      if (fd.ok()) {
        if (fsync(*fd) != 0) err = errno;
        close(*fd);
      }
      if (err == 0) continue;
      error_ = err;
      job_error_ =
          std::string(why) + " failed for file " + targets_[i].path + ": " + std::strerror(err);
      stopping_ = true;
      return false;
    }
    if (files_[i].fd < 0) continue;
    // Through the engine, as fio's sync: mmap's is msync of the mapping.
    const int res = engine_->EndSync(static_cast<uint32_t>(i), files_[i].fd);
    if (res == 0) continue;
    error_ = -res;
    job_error_ =
        std::string(why) + " failed for file " + targets_[i].path + ": " + std::strerror(error_);
    stopping_ = true;
    return false;
  }
  return true;
}

void Worker::InvalidateForPass() {
  if (!PassDropsCache()) return;
  for (size_t i = 0; i < files_.size(); ++i) InvalidateFile(i);
}

// Whether a new pass drops the page cache, as fio 3.33's
// loop_cache_invalidate at a wrap and its reopen at each loop: invalidate=1
// without direct I/O (which bypasses the cache), except in a time_based
// job whose offsets never run out (RandomWithoutEnd: norandommap, a
// non-uniform distribution), which fio never wraps. Dropping there at each
// of iobench's byte-budget passes read a 32 MiB file from the device
// through a 2 s norandommap run that fio served from the cache: 17k IOPS
// against fio's 550k.
bool Worker::PassDropsCache() const {
  if (!job_.invalidate || job_.direct) return false;
  return !job_.time_based || !pattern_->RandomWithoutEnd();
}

void Worker::InvalidateFile(size_t i) {
  const TargetFile& t = targets_[i];
  if (files_[i].fd < 0 || t.diskless || t.is_char_device) return;
  // As at the job's start and as fio's file_invalidate_cache at each wrap
  // and reopen: the job's region of a file, BLKFLSBUF on a block device.
  // posix_fadvise(DONTNEED) there left the pass's dirty pages in the cache
  // (loops=50 of 1 MiB wrote 2-6 MiB to the device, fio 50 MiB). Best effort,
  // as fio, which ignores the result; a refused BLKFLSBUF falls back as at
  // the start, which warned if that failed too. The mmap engine unmaps first.
  engine_->ReleaseCachedRange(static_cast<uint32_t>(i), t.region_offset, t.region_size);
  (void)InvalidateTarget(files_[i].fd, t);
}

Worker::FilesState Worker::ApplyFileEvents(bool closes_only) {
  const std::vector<IoPattern::FileEvent>& events = pattern_->file_events();
  while (file_event_pos_ < events.size()) {
    const IoPattern::FileEvent e = events[file_event_pos_];
    switch (e.kind) {
      case IoPattern::FileEventKind::kClose:
        if (FileInFlight(e.file)) return FilesState::kWait;
        if (recorder_ != nullptr) recorder_->Close(NowNs(), e.file);
        if (!CloseLimitedFile(e.file)) return FilesState::kFailed;
        break;
      case IoPattern::FileEventKind::kOpen:
        if (closes_only) return FilesState::kReady;
        if (!OpenLimitedFile(e.file)) return FilesState::kFailed;
        break;
      case IoPattern::FileEventKind::kRestart:
        // fio drops the file's pages when it starts it over (invalidate=1).
        if (PassDropsCache()) InvalidateFile(e.file);
        break;
    }
    ++file_event_pos_;
  }
  pattern_->ClearFileEvents();
  file_event_pos_ = 0;
  return FilesState::kReady;
}

// Whether a request on `file` is in flight or waits to be requeued (a short
// transfer's rest). Scans the pool: once per file closed, not per I/O.
bool Worker::FileInFlight(uint32_t file) {
  if (free_n_ == depth_) return false;
  overlap_free_.assign(depth_, 0);
  for (uint32_t j = 0; j < free_n_; ++j) overlap_free_[free_[j]->index] = 1;
  for (uint32_t i = 0; i < depth_; ++i)
    if (!overlap_free_[i] && pool_[i].file_index == file) return true;
  return false;
}

// Why OpenLimitedFile opens file i, for its errors: the log's line that
// opens it, or " (openfiles=N: opening PATH for its turn)" (name: else "it").
std::string Worker::OpenReason(uint32_t i, bool name) const {
  if (replay_log_ != nullptr)
    return " (read_iolog " + replay_log_->path() + ":" + std::to_string(replay_entry_.line) +
           " opens " + targets_[i].path + ")";
  const std::string why = job_.SequentialOpensInTurn(targets_.size())
                              ? std::string("file_service_type=sequential")
                              : "openfiles=" + std::to_string(job_.openfiles);
  return " (" + why + ": opening " + (name ? targets_[i].path : std::string("it")) +
         " for its turn)";
}

bool Worker::OpenLimitedFile(uint32_t i) {
  if (file_calls_) return CallFile(i);
  const TargetFile& t = targets_[i];
  if (t.diskless || files_[i].fd >= 0) return true;
  const auto open = [this, &t]() -> Result<int> {
    if (!files_unlinked_ || !t.regular_file()) return OpenTarget(job_, t);
    // unlink_each_loop removed it: a writing job creates it anew (ReplaceFiles).
    JobSpec open_spec = job_;
    open_spec.create_on_open = job_.create_on_open || (JobWrites(job_) && job_.allow_file_create);
    return OpenTarget(open_spec, t);
  };
  Result<int> fd = open();
  if (!fd.ok()) {
    error_ = fd.status().errno_value() != 0 ? fd.status().errno_value() : EIO;
    // OpenTarget's message names the job, as the report does already.
    job_error_ =
        sys::WithoutJobName(job_.name, fd.status().message()) + OpenReason(i, /*name=*/false);
    stopping_ = true;
    return false;
  }
  files_[i].fd = *fd;
  if (!t.is_char_device) {
    (void)AdviseTarget(*fd, t, job_);  // as at the first open; a refusal there already failed
    // A later open starts a new pass over the file: its pages go again
    // (the first found them dropped by Setup, or filled by pre_read).
    if (service_opened_[i] && job_.invalidate && !job_.direct) InvalidateFile(i);
  }
  service_opened_[i] = 1;
  // The engine's state for the file (a known position, a mapping).
  if (Status st = engine_->FileReopened(i); !st.ok()) {
    error_ = st.errno_value() != 0 ? st.errno_value() : EIO;
    job_error_ = job_.ioengine + ": " + st.message() + OpenReason(i, /*name=*/true);
    stopping_ = true;
    return false;
  }
  return true;
}

bool Worker::DefersOpen(const TargetFile& t) const {
  if (!job_.create_on_open || !job_.allow_file_create || !t.regular_file() || job_.pre_read ||
      job_.RegistersFiles() || !job_.read_iolog.empty() || job_.create_only)
    return false;
  // The coordinator marks every target as there once the layout is done,
  // and create_on_open lays nothing out: ask the file system.
  struct stat st {};
  return ::stat(t.path.c_str(), &st) != 0 && errno == ENOENT;
}

bool Worker::OpenDeferredFile(uint32_t i) {
  if (file_calls_) return CallFile(i);
  const TargetFile& t = targets_[i];
  Result<int> fd = OpenTarget(job_, t);
  Status st = fd.ok() ? Status::Ok() : fd.status();
  if (fd.ok()) {
    files_[i].fd = *fd;
    --deferred_opens_;
    st = AdviseTarget(*fd, t, job_);
    // The engine's state for the file (Init saw it closed).
    if (st.ok()) st = engine_->FileReopened(i);
  }
  if (st.ok()) return true;
  error_ = st.errno_value() != 0 ? st.errno_value() : EIO;
  // "open PATH: ...", as the open at setup said it (the report names the job)
  job_error_ = sys::WithoutJobName(job_.name, st.message());
  stopping_ = true;
  return false;
}

// The engine's call on file i (Engine::CallsPerFile), once per loop: its
// time is a completion latency of the job's direction, unless disable_lat
// (fio's engines skip the sample then, gtod_reduce too).
bool Worker::CallFile(uint32_t i) {
  if (file_called_[i]) return true;
  file_called_[i] = 1;
  if (open_limit_ == 0) --deferred_opens_;
  const uint64_t start = NowNs();
  Result<int> fd = engine_->FileCall(files_[i]);
  const uint64_t ns = NowNs() - start;
  if (!fd.ok()) {
    error_ = fd.status().errno_value() != 0 ? fd.status().errno_value() : EIO;
    job_error_ = fd.status().message();
    stopping_ = true;
    return false;
  }
  files_[i].fd = *fd;
  if (!job_.disable_lat) {
    DirStats& ds = ts_.dir[call_dir_];
    ds.clat.Add(ns);
    ds.clat_hist.Add(ns);
    ++ts_.file_calls;
    if (iolog_ != nullptr && measuring_)
      iolog_->OnCallClat(NowNs() - measure_start_ns_, static_cast<Ddir>(call_dir_), ns);
  }
  return true;
}

// A new loop calls again on every file, as fio closes and reopens them.
void Worker::RearmFileCalls() {
  for (size_t i = 0; i < files_.size(); ++i) {
    if (files_[i].fd >= 0) close(files_[i].fd);
    files_[i].fd = -1;
  }
  file_called_.assign(files_.size(), 0);
  if (open_limit_ == 0) deferred_opens_ = static_cast<uint32_t>(files_.size());
}

bool Worker::CloseLimitedFile(uint32_t i, bool sync_on_close) {
  const int fd = files_[i].fd;
  if (fd < 0) return true;
  engine_->FileClosing(i);
  files_[i].fd = -1;
  // fsync_on_close: fio syncs a written file as it closes it.
  const bool sync = sync_on_close && job_.fsync_on_close && HasWrite(job_.rw);
  const int err = sync && fsync(fd) != 0 ? errno : 0;
  close(fd);
  if (err == 0) return true;
  error_ = err;
  job_error_ = "fsync_on_close failed for file " + targets_[i].path + ": " + std::strerror(err);
  stopping_ = true;
  return false;
}

bool Worker::StartDrainedPass() {
  pass_drain_ = false;
  // What completed while draining counts, as in fio, whose keep_running
  // asks once do_io has reaped: an io_size job may need no other pass now.
  if (!MorePasses()) return false;
  if (!EndOfLoopSync(true)) return false;  // each loop, each time_based pass that closed its files
  if (job_.unlink_each_loop && !job_.time_based) {
    if (!ReplaceFiles()) return false;
  } else {
    InvalidateForPass();
  }
  ResetPattern(/*new_loop=*/true);
  StartPassSync();
  no_more_ = false;
  UpdateFastPrepare();
  return true;
}

bool Worker::ReplaceFiles(bool reopen) {
  // Every file goes before any is opened again, as fio's unlink_all_files
  // removes them all before the next loop opens one: a reading job with
  // nrfiles=3 failed on the first file's reopen and left the other two.
  std::vector<bool> deferred(files_.size(), false);
  for (size_t i = 0; i < files_.size(); ++i) {
    const TargetFile& t = targets_[i];
    if (!t.regular_file()) continue;
    // create_on_open: a file no I/O has reached yet is still left to its
    // first I/O (none was made to remove, unless another job made it).
    deferred[i] = files_[i].fd < 0 && deferred_opens_ != 0;
    if (files_[i].fd >= 0) {
      if (open_limit_ != 0) engine_->FileClosing(static_cast<uint32_t>(i));
      if (job_.fsync_on_close) (void)fsync(files_[i].fd);
      close(files_[i].fd);
      files_[i].fd = -1;
    }
    // One that cannot go (its directory is not writable, a read-only file
    // system) fails the job after this loop, as fio's unlink_all_files.
    // So does a missing one when an engine's calls are the job (fio 3.33:
    // filedelete unlink_each_loop=1 loops=2 fails with ENOENT after loop 1).
    if (::unlink(t.path.c_str()) != 0 && (errno != ENOENT || file_calls_)) {
      error_ = errno;
      job_error_ = "unlink_each_loop=1: cannot remove " + t.path + " after loop " +
                   std::to_string(passes_) + ": " + std::strerror(error_);
      return false;
    }
  }
  // An engine's call is the next loop's open (CallFile).
  if (!reopen || file_calls_) return true;
  for (size_t i = 0; i < files_.size(); ++i) {
    const TargetFile& t = targets_[i];
    if (!t.regular_file()) continue;
    // openfiles: the file service opens it when it comes to it
    // (OpenLimitedFile creates it then, as below).
    if (open_limit_ != 0) {
      files_unlinked_ = true;
      continue;
    }
    if (deferred[i]) continue;
    // A writing job recreates the file empty (its writes fill it, as in
    // fio); a reading job finds it gone, as fio's does.
    JobSpec open_spec = job_;
    open_spec.create_on_open = JobWrites(job_) && job_.allow_file_create;
    Result<int> fd = OpenTarget(open_spec, t);
    if (!fd.ok()) {
      error_ = fd.status().errno_value() != 0 ? fd.status().errno_value() : EIO;
      // OpenTarget's message names the job, as the report does already.
      job_error_ = sys::WithoutJobName(job_.name, fd.status().message()) +
                   " (unlink_each_loop removed it after loop " + std::to_string(passes_) + ")";
      return false;
    }
    files_[i].fd = *fd;
    (void)AdviseTarget(*fd, t, job_);  // as at the first open; a refusal there already failed
    // The engine's state for the file (a position, a mapping, a registered
    // file) is the removed file's until it is told.
    if (Status st = engine_->FileReopened(static_cast<uint32_t>(i)); !st.ok()) {
      error_ = st.errno_value() != 0 ? st.errno_value() : EIO;
      job_error_ = job_.ioengine + ": " + st.message() + " (unlink_each_loop created " + t.path +
                   " again after loop " + std::to_string(passes_) + ")";
      return false;
    }
  }
  return true;
}

Ddir Worker::RateSteer::Steer(Ddir drawn, bool other_ok) {
  return w->rate_->Steer(drawn, NowNs() - w->rate_epoch_ns_, other_ok);
}

bool Worker::NextPlan(IoPlan* plan) {
  if (pass_eof_) {
    pass_eof_ = false;
    return EndPass(plan);
  }
  if (io_total_ != 0 && issued_bytes_ >= io_total_) return EndPass(plan);
  if (PatternNext(plan)) return true;
  return EndPass(plan);
}

// The pattern broke its contract (a length beyond the buffer slot, a file
// that does not exist): stop the job with an error that says so, rather than
// overrun a buffer. Never happens unless the pattern code has a bug.
bool Worker::RejectPlan(const IoPlan& plan) {
  error_ = EINVAL;
  stopping_ = true;
  if (ts_.first_error.err == 0) {
    ts_.first_error.err = EINVAL;
    ts_.first_error.message =
        "job '" + job_.name + "': internal error: the I/O pattern planned file " +
        std::to_string(plan.file) + " of " + std::to_string(nfiles_) + ", offset " +
        std::to_string(plan.offset) + ", length " + std::to_string(plan.length) +
        " (buffer slot: " + std::to_string(stride_) + " bytes); please report it";
  }
  return false;
}

IoRequest* Worker::TakeRequest(const IoPlan& plan, uint64_t now) {
  IoRequest* r = free_[--free_n_];
  const int d = static_cast<int>(plan.ddir);
  r->op = static_cast<IoOp>(d);
  r->flags = 0;
  r->prio = 0;
  r->file_index = plan.file;
  r->fd = files_[plan.file].fd;
  r->offset = r->xfer_offset = plan.offset;
  r->length = r->xfer_length = plan.length;
  r->buf = static_cast<uint8_t*>(buffers_) + r->index * stride_;
  r->res = 0;
  r->start_ns = now;
  r->issue_ns = 0;
  ++ts_.issued[d];
  return r;
}

[[gnu::always_inline]] inline void Worker::FillWriteBuffer(IoRequest* r) {
  if (filler_->BeforeWrite(r->buf, r->length) && stamp_) r->start_ns = NowNs();
}

void Worker::UpdateFastPrepare() {
  // (Files still to be opened at their first I/O go through PrepareSlow.)
  fast_prepare_ = fast_eligible_ && !no_more_ && !pass_eof_ && deferred_opens_ == 0;
}

[[gnu::always_inline]] inline bool Worker::PrepareFast(uint64_t now, IoRequest** out) {
  IoPlan plan;
  if (ios_left_ == 0 || (!pattern_->NextInline(&plan) && !EndPass(&plan))) {
    no_more_ = true;
    fast_prepare_ = false;
    return false;
  }
  if ((plan.length > stride_ && plan.ddir != Ddir::kTrim) || plan.file >= nfiles_) [[unlikely]]
    return RejectPlan(plan);
  --ios_left_;
  IoRequest* r = TakeRequest(plan, now);
  if (r->op == IoOp::kWrite) {
    FillWriteBuffer(r);
    last_write_file_ = plan.file;
  }
  *out = r;
  return true;
}

bool Worker::PrepareNext(uint64_t* now, IoRequest** out) {
  const bool ok = PrepareSlow(*now, out);
  // PrepareSlow may have slept (thinktime, rate): the I/O's start stamp is
  // after the sleep, and so must be the next ones of this batch, or their
  // slat and lat would include the pause.
  if (ok && (*out)->start_ns > *now) *now = (*out)->start_ns;
  UpdateFastPrepare();
  return ok;
}

// The range [first, end) written to `file` since its last sync_file_range
// ({UINT64_MAX, 0} when none), and a fresh one from now on.
std::pair<uint64_t, uint64_t> Worker::TakeSyncRange(uint32_t file) {
  return std::exchange(sfr_range_[file], {UINT64_MAX, 0});
}

// flow=, as fio 3.33 decides it: a job whose share of its flow's I/Os is
// above its share of the flow's weight is held back; with flow_sleep it
// first lets its I/O in flight complete, then sleeps (fio quiesces and
// sleeps); without, it yields and asks again. Otherwise the I/O counts.
bool Worker::FlowGate(uint32_t in_use) {
  const double ios = static_cast<double>(flow_->ios.load(std::memory_order_relaxed));
  const double weight = static_cast<double>(flow_->weight.load(std::memory_order_relaxed));
  if (weight > 0 &&
      static_cast<double>(flow_ios_) / ios > static_cast<double>(flow_weight_) / weight) {
    if (in_use > 0 && job_.flow_sleep_us != 0) return false;  // reap first
    ++flow_stalls_;
    if (job_.flow_sleep_us != 0)
      SleepNs(UsToNs(job_.flow_sleep_us));
    else if (in_use == 0)
      std::this_thread::yield();
    return false;
  }
  flow_->ios.fetch_add(1, std::memory_order_relaxed);
  ++flow_ios_;
  return true;
}

// rate_min / rate_iops_min (MinRateCheck, as fio): asked with what has
// completed so far where fio's do_io asks check_min_rate: before each new I/O
// (after the completions that freed its slot), after a thinktime pause
// instead when one is taken (fio judges at the pause's end, not before it),
// and when the job's I/O ends before its runtime does (FinalMinRateCheck:
// fio's last check follows the last I/O and the last pause). Not in the
// ramp, nor in a verify phase (fio's do_verify never asks). A miss fails the job with EIO at once,
// as fio's check_min_rate does.
bool Worker::MinRateMet(uint64_t now) {
  if (min_rate_ == nullptr || !measuring_ || verifying_) return true;
  uint64_t bytes[kNumDdirs], ios[kNumDdirs];
  for (int d = 0; d < kNumDdirs; ++d) {
    bytes[d] = ts_.dir[d].bytes;
    ios[d] = ts_.dir[d].ios;
  }
  if (min_rate_->Check(now - measure_start_ns_, bytes, ios)) return true;
  if (error_ == 0) {
    error_ = EIO;
    job_error_ = min_rate_->Failure();
  }
  stopping_ = true;
  return false;
}

// The job's I/O has ended (its bytes or number_ios, a pass drained): the
// stretch since the last check is judged, as fio's check after its last I/O
// judges it. Not when the job was stopped from outside (a signal, exitall,
// steady state: fio's loop stops before its check then), has failed already,
// or ended waiting out its runtime for a rate (judged before that wait).
// Nor when its runtime ended it: fio's loop looks at the runtime before each
// I/O and stops there, so its last check follows the last I/O issued before
// the end, which an engine that completes at once (null, psync to memory)
// completes before the end too; and its 2 s settle counts from td->start,
// taken after the epoch its runtime counts from, so the window the settle
// opens ends after the runtime when runtime = 2 s + rate_cycle. Judging here,
// after the end, failed that job where fio 3.33 passes it (runtime=3
// rate_min=1000g, null engine). A pause that runs past the end is judged at
// its end (PrepareSlow), before the runtime is looked at, as in fio.
void Worker::FinalMinRateCheck() {
  if (min_rate_ == nullptr || error_ != 0 || min_rate_final_done_) return;
  if (stop_->load(std::memory_order_relaxed) != kStopNone) return;
  if (ss_poll_ && ss_stop_.load(std::memory_order_relaxed)) return;
  const uint64_t now = NowNs();
  if (end_ns_ != 0 && now >= end_ns_) return;  // the runtime ended the job
  MinRateMet(now);
}

// Whether a sync (fsync, fdatasync, sync_file_range; of the job's options or
// of a replayed log) waits before it goes out. A sync engine has the I/O
// before it done. An async engine's sync waits only for what is queued and
// not yet submitted (the caller submits it and reaps one), not for what is
// in flight: fio 3.33's libaio answers busy only while it holds unsubmitted
// iocbs, then makes the fsync/fdatasync/sync_file_range call with the writes
// in flight; its io_uring queues the sync behind them. An engine that must
// have the I/O in flight done first (posixaio's sync_file_range) answers
// kBusy until it is.
bool Worker::SyncWaits(uint32_t in_use) const {
  return sync_engine_ ? in_use > 0 : uncommitted_n_ > 0;
}

bool Worker::PrepareSlow(uint64_t now, IoRequest** out) {
  if (no_more_) {
    need_sync_ = false;  // fio syncs before the next I/O only: none after the last write
    return false;
  }
  const uint32_t in_use = depth_ - free_n_;
  if (need_sync_) {  // before the limits: the writes that asked for it were issued
    // The sync follows the writes before it (SyncWaits). Drained first on an
    // async engine, sync_file_range=write:4 at iodepth=4 sent the writes out
    // at depth 1, 2, 3, 4 after each sync (IO depths 1=40% 2=40% 4=20%; fio
    // counts 1276 of its 1024 writes and 255 syncs at 4).
    if (SyncWaits(in_use)) return false;
    // As fio, the sync goes out only when another I/O follows (fsync=16
    // after 256 writes: 15 syncs): look that I/O up now and keep it.
    if (ios_left_ == 0) {
      need_sync_ = false;
      no_more_ = true;
      return false;
    }
    // The sync takes the file service's turn before the next I/O looks its
    // file up (fio picks the file first, then finds a sync is due).
    if (sync_file_ < 0) sync_file_ = pattern_->SyncFile();
    // openfiles: the sync's turn may have opened its file; one it closes
    // waits for its I/O in flight (an async engine's). (What the plan looked
    // up next does, it does before that plan goes out, after the sync: a
    // file it closes waits for the sync, as fio's sync holds its file.)
    if (open_limit_ != 0 && ApplyFileEvents() != FilesState::kReady) return false;
    if (!has_pending_plan_) {
      if (!pass_eof_ && !(io_total_ != 0 && issued_bytes_ >= io_total_) &&
          PatternNext(&pending_plan_)) {
        has_pending_plan_ = true;
        lookahead_plan_ = true;  // its rate delay is still to be computed
      } else if (!PassEndSync()) {
        need_sync_ = false;
        sync_file_ = -1;
        if (no_more_) return false;
        return PrepareSlow(now, out);  // the next pass's first I/O (EndPass)
      }
    }
    IoRequest* r = free_[--free_n_];
    r->op = sync_op_;
    // Which file: the one whose turn the sync took (SyncFile: nrfiles=2
    // fsync=4 syncs 0, 1, 0 as fio; the file last written would leave the
    // other never synced), else the file last written.
    const uint32_t sync_file =
        sync_file_ >= 0 ? static_cast<uint32_t>(sync_file_) : last_write_file_;
    sync_file_ = -1;
    // r->offset keeps what the slot last carried (the Nth write, for a
    // synchronous engine), as fio's io_u does: fio logs the sync with it and
    // names it in a failed sync's message ("sync offset=12288, buflen=0"
    // after 4 writes of 4k). The engines sync the whole file whatever it
    // says; xfer_offset 0 and no length overlap nothing (serialize_overlap).
    if (recorder_ != nullptr) recorder_->Io(now, sync_file, r->op, r->offset, 0);
    r->file_index = sync_file;
    r->fd = files_[sync_file].fd;
    r->xfer_offset = 0;
    r->length = r->xfer_length = 0;
    if (r->op == IoOp::kSyncFileRange) {
      // The range written to this file since its last sync_file_range (fio).
      const auto [first, end] = TakeSyncRange(sync_file);
      r->offset = r->xfer_offset = first;
      // Nothing written: first is 2^64-1 and the range is empty, not 1 byte.
      r->length = r->xfer_length = first == UINT64_MAX ? 0 : end - first;
    }
    r->res = 0;
    // Nothing written since the last one: fio's do_sync_file_range makes no
    // call for its empty range, and the sync counts all the same.
    r->flags = r->op == IoOp::kSyncFileRange && r->xfer_offset == UINT64_MAX ? kReqEmptyRange : 0;
    r->prio = 0;
    r->start_ns = now;
    r->issue_ns = 0;
    need_sync_ = false;
    // fio's last_was_sync: a loop's end sync (end_fsync) that would follow
    // at once is not issued.
    sync_marked_ = true;
    synced_ios_left_ = ios_left_;
    *out = r;
    return true;
  }
  if (no_more_) return false;
  if (flow_ != nullptr && !FlowGate(in_use)) return false;
  if (lat_search_ != nullptr && !LatencyGate(now, in_use)) return false;
  if (replay_log_ != nullptr) return MinRateMet(now) && PrepareReplay(now, in_use, out);
  IoPlan plan;
  // Verify reads (verify phase, backlog batches) bypass limits, think time and rate.
  const int vr = verifier_ != nullptr ? NextVerifyPlan(in_use, &plan) : 0;
  if (vr < 0) return false;
  // number_ios used up: nothing more is issued, but a think time due after
  // the last I/O is still taken, as fio does and as a job that ends on its
  // bytes does (number_ios=3 thinktime=200ms: 600 ms of runtime, not 400),
  // except with an engine that takes one batch at a time (below).
  const bool ios_used_up = vr == 0 && ios_left_ == 0 && !write_owed_;
  bool paused = false;
  if (vr == 0 && job_.thinktime_ns != 0 && (think_pending_ || (think_check_ && ThinkDue(now)))) {
    if (!think_pending_ && one_batch_ && !think_batch_full_ && !write_owed_ && !has_pending_plan_ &&
        job_.thinktime_blocks_complete && job_.thinktime_iotime_ns == 0) {
      // An engine that takes one batch at a time (null at iodepth > 1): fio
      // checks its think time right after queueing, before the batch is
      // reaped, unless it filled the queue; it reaps and counts the batch
      // when its next I/O, already prepared, finds the engine busy. So the
      // pause these completions made due is taken only if an I/O follows:
      // none after the job's last (thinktime_blocks=6 iodepth=4,
      // number_ios=6: no pause, 12: one, 24: three; fio 3.33). Prepare the
      // next I/O now. (thinktime_blocks_type=issue and thinktime_iotime
      // are not deferred: the check after the queueing sees them.)
      IoPlan next;
      if (ios_used_up || !NextPlan(&next)) {
        no_more_ = true;
        return false;
      }
      pending_plan_ = next;
      has_pending_plan_ = true;
      lookahead_plan_ = true;  // its rate delay is still to be computed
      if (need_sync_) {        // a new pass's sync goes first, then the pause
        think_pending_ = true;
        return PrepareSlow(now, out);
      }
    }
    think_pending_ = true;
    if (in_use > 0) return false;  // think after the I/O has completed (fio quiesces)
    const uint64_t spin = std::min(job_.thinktime_spin_ns, job_.thinktime_ns);
    if (spin != 0) SpinNs(spin);
    const uint64_t think_start = now;
    SleepNs(job_.thinktime_ns - spin);
    think_pending_ = false;
    ++result_.think_stalls;
    now = NowNs();
    if (job_.rate_ignore_thinktime && rate_ != nullptr) rate_->Paused(now - think_start);
    think_last_ns_ = now;
    // fio judges rate_min at the pause's end, before it looks at the
    // runtime: a job whose pauses hold it below its minimum fails even when
    // its runtime ends with this pause.
    if (!MinRateMet(now)) return false;
    paused = true;
    // A pause that ran past the runtime, a stop or steady state: nothing more
    // is issued (fio checks the runtime after its thinktime).
    if (StoppedDuringSleep(now)) return false;
  }
  if (!paused && !MinRateMet(now)) return false;
  if (ios_used_up) {
    no_more_ = true;
    return false;
  }
  if (vr > 0) {
    // planned by NextVerifyPlan
  } else if (has_pending_plan_) {
    plan = pending_plan_;
  } else if (write_owed_ && PatternNext(&plan)) {
    // the trim's write: it follows whatever number_ios or io_size say
  } else if (!NextPlan(&plan)) {
    no_more_ = true;
    return false;
  } else if (need_sync_) [[unlikely]] {
    // A new pass starts with the sync the last one owed (StartPassSync):
    // the plan waits for it.
    pending_plan_ = plan;
    has_pending_plan_ = true;
    lookahead_plan_ = true;
    return PrepareSlow(now, out);
  }
  if (file_events_on_ && vr == 0 && !pattern_->file_events().empty()) [[unlikely]] {
    // The plan's file opened, or others closed, as the file service said:
    // a file still owed I/O in flight is closed once that completes (the
    // plan waits, the caller reaps), as fio's EBUSY waits for a slot. A
    // file restarted in place drops its pages (kRestart).
    if (const FilesState st = ApplyFileEvents(); st != FilesState::kReady) {
      if (st == FilesState::kFailed) return false;
      if (!has_pending_plan_) lookahead_plan_ = true;  // its rate delay is still to come
      pending_plan_ = plan;
      has_pending_plan_ = true;
      return false;
    }
  }
  if (deferred_opens_ != 0 && vr == 0 && files_[plan.file].fd < 0 && !targets_[plan.file].diskless)
      [[unlikely]] {
    // create_on_open: the file's first I/O opens (creates) it. In the job's
    // time, not in the I/O's latency: fio stamps the I/O after the open.
    if (!OpenDeferredFile(plan.file)) return false;
    now = NowNs();
  }
  if (vr == 0 && rate_ != nullptr) {
    if (!has_pending_plan_ || lookahead_plan_) {
      lookahead_plan_ = false;
      const uint64_t delay = rate_->DelayNs(plan.ddir, plan.length, now - rate_epoch_ns_);
      due_ns_ = now + delay;
    }
    if (now < due_ns_) {
      pending_plan_ = plan;
      has_pending_plan_ = true;
      if (in_use > 0) return false;  // reap what is in flight while waiting
      if (!measuring_ && due_ns_ > RampRateCutNs()) [[unlikely]] {
        // fio 3.33 quirk: its rate wait (rate_ddir) measures from the job's
        // start during the ramp and ends the job once a wait would pass
        // the runtime, so a rate-limited job whose runtime is shorter than
        // its ramp ends at its runtime, inside the ramp (ramp_time=3
        // runtime=1 rate_iops=100: fio 101 I/Os in 1 s, no latencies); one
        // that never waits (no rate) runs the whole ramp, then the runtime.
        // fio sleeps to the runtime, issues that I/O, and ends at the next.
        if (now > RampRateCutNs()) {
          AddNote(RampRateCutNote());
          stopping_ = true;
          min_rate_final_done_ = true;
          return false;
        }
        due_ns_ = RampRateCutNs();
      }
      if (end_ns_ != 0 && due_ns_ >= end_ns_) {
        // The next I/O is due after the runtime ends: wait out the runtime
        // and issue nothing more, so no I/O lands beyond the measured period.
        // rate_min was judged above, after the last completion; fio 3.33
        // does not judge this wait either (its loop ends at the runtime).
        if (end_ns_ > now) SleepNs(end_ns_ - now);
        stopping_ = true;
        min_rate_final_done_ = true;
        return false;
      }
      SleepNs(due_ns_ - now);
      now = NowNs();
      if (StoppedDuringSleep(now)) return false;
    }
  }
  if (vr == 0 && job_.serialize_overlap && in_use > 0 && OverlapsInFlight(plan)) {
    // Wait for the overlapping I/O: reap, then try the same plan again
    // (any rate wait for it is already done). Verify reads are not held
    // back: they read blocks whose writes have completed.
    pending_plan_ = plan;
    has_pending_plan_ = true;
    lookahead_plan_ = false;
    return false;
  }
  if (vr == 0) has_pending_plan_ = lookahead_plan_ = false;
  if ((plan.length > stride_ && plan.ddir != Ddir::kTrim) || plan.file >= nfiles_) [[unlikely]]
    return RejectPlan(plan);
  IoRequest* r = TakeRequest(plan, now);
  const int d = static_cast<int>(plan.ddir);
  if (cmdprio_on_ && d < 2 && cmdprio_dir_[d]) {
    for (const PrioBySize& size : prio_by_size_[d]) {
      if (size.bs != 0 && size.bs != r->length) continue;  // fio: the entries for this exact size
      prio_rng_ ^= prio_rng_ << 13;
      prio_rng_ ^= prio_rng_ >> 7;
      prio_rng_ ^= prio_rng_ << 17;
      const uint32_t draw = static_cast<uint32_t>(prio_rng_ % 100);
      if (draw < size.choices.back().upto) {
        const PrioChoice* c = size.choices.data();
        while (draw >= c->upto) ++c;
        r->prio = c->value;
        r->flags |= kReqHighPrio;
        ++ts_.dir[d].high_prio_ios;
      }
      break;
    }
  }
  if (verifier_ != nullptr) {
    vslot_[r->index] = vr > 0 ? kVSlotRead : 0;
    vlast_read_ = plan.ddir == Ddir::kRead;  // verify_backlog's batches (NextVerifyPlan)
  }
  if (vr > 0) ++vreads_in_flight_;
  if (r->op == IoOp::kWrite) {
    if (verifier_ != nullptr) {
      VerifyPrepareWrite(r);              // fills the whole buffer: the filler's work would be lost
      if (stamp_) r->start_ns = NowNs();  // (as FillWriteBuffer)
    } else {
      FillWriteBuffer(r);
    }
    last_write_file_ = plan.file;
    if (job_.sync_file_range_blocks != 0) {
      auto& [first, end] = sfr_range_[plan.file];
      first = std::min(first, plan.offset);
      end = std::max(end, plan.offset + plan.length);
    }
    if (sync_counts_) [[unlikely]]
      CountSyncWrite();
  }
  if (vr == 0) {
    if (!trimwrite_) {
      --ios_left_;
      issued_bytes_ += plan.length;
    } else {
      CountTrimWrite(plan);
    }
    ++think_issued_;
    think_check_ = true;
  } else if (ios_left_ != 0 && ios_limit_ != UINT64_MAX) {
    // fio 3.33 counts the verify reads in number_ios too (its I/Os done,
    // against number_ios x loops): loops=2 number_ios=300 over 256 blocks
    // writes 256, reads them, then writes and reads 88.
    --ios_left_;
  }
  if (recorder_ != nullptr) recorder_->Io(now, plan.file, r->op, plan.offset, plan.length);
  *out = r;
  return true;
}

// read_iolog: the log replaces the pattern, think time, rate and fsync=
// (PrepareReplayJob refuses those with it). Its timing: an entry waits until
// its delay has passed since the previous issue, as fio does.
// Whether the current replay entry is due: false while it waits (reaping
// what is in flight, or past the runtime); else waits out the rest of its
// delay, *now the time after it, *overshoot its wait's lateness.
bool Worker::ReplayEntryDue(uint64_t* now, uint32_t in_use, uint64_t* overshoot) {
  ReplayEntry& e = replay_entry_;
  // This entry's wait's overshoot, or what is left of the last one when it
  // was longer than this entry's whole delay (a 600 us oversleep over 500 us
  // gaps): carried on, so that no lateness of a sleep is lost.
  *overshoot = 0;
  if (e.delay_ns == 0) return true;
  *overshoot = replay_overshoot_ns_ > e.delay_ns ? replay_overshoot_ns_ - e.delay_ns : 0;
  const uint64_t due = ReplayDueNs(replay_last_issue_ns_ != 0 ? replay_last_issue_ns_ : start_ns_,
                                   e.delay_ns, replay_overshoot_ns_);
  if (*now < due) {
    if (in_use > 0) {  // reap what is in flight while waiting (ReapUntil)
      reap_until_ns_ = due;
      return false;
    }
    if (end_ns_ != 0 && due >= end_ns_) {  // due after runtime: wait it out, issue no more
      if (end_ns_ > *now) SleepNs(end_ns_ - *now);
      stopping_ = true;
      return false;
    }
    WaitPrecise(due);
    if (stop_->load(std::memory_order_relaxed) != kStopNone) return false;
    *now = NowNs();
    *overshoot = *now > due ? *now - due : 0;
  }
  e.delay_ns = 0;
  return true;
}

bool Worker::PrepareReplay(uint64_t now, uint32_t in_use, IoRequest** out) {
  uint64_t overshoot = 0;
  for (;;) {
    if (!replay_has_entry_) {
      if (ios_left_ == 0) {
        no_more_ = true;
        return false;
      }
      Result<bool> got = replay_log_->Next(&replay_entry_);
      if (!got.ok()) return FailReplay(got.status());
      if (!*got) {
        no_more_ = true;
        return false;
      }
      replay_has_entry_ = true;
    }
    const bool delayed = replay_entry_.delay_ns != 0;
    if (!ReplayEntryDue(&now, in_use, &overshoot)) return false;
    if (replay_entry_.action == ReplayAction::kIo) break;
    // The log opens or closes a file (ReplayOptions::file_events), at its
    // time: the next entry's delay counts from it, as in fio. A file is
    // closed once its I/O in flight has completed (the caller reaps).
    if (delayed) {
      replay_last_issue_ns_ = now;
      replay_overshoot_ns_ = overshoot;
    }
    const uint32_t f = replay_entry_.file;
    if (replay_entry_.action == ReplayAction::kClose) {
      if (in_use > 0 && FileInFlight(f)) return false;
      if (recorder_ != nullptr) recorder_->Close(now, f);
      // fsync_on_close syncs a written file at each close line, as fio's
      // put_file does, unless the last entry was a sync (should_fsync).
      if (!CloseLimitedFile(f, /*sync_on_close=*/!replay_synced_last_)) return false;
    } else if (!OpenLimitedFile(f)) {
      return false;
    }
    replay_has_entry_ = false;
  }
  ReplayEntry& e = replay_entry_;
  if (e.wait_only) {  // the log's last lines' time, waited out: the log ends here
    replay_has_entry_ = false;
    no_more_ = true;
    return false;
  }
  // Only reads and writes carry data (a trim's or sync_file_range's length
  // is a range).
  if (e.file >= nfiles_ || (e.length > stride_ && e.op <= IoOp::kWrite)) {
    IoPlan bad;
    bad.file = e.file;
    bad.offset = e.offset;
    bad.length = e.length;
    return RejectPlan(bad);
  }
  IoRequest* r;
  if (e.op == IoOp::kFsync || e.op == IoOp::kFdatasync) {
    if (SyncWaits(in_use)) return false;  // a sync follows the I/O before it, as in fio
    r = free_[--free_n_];
    if (recorder_ != nullptr) recorder_->Io(now, e.file, e.op, r->offset, 0);
    r->op = e.op;
    r->file_index = e.file;
    r->fd = files_[e.file].fd;
    r->length = r->xfer_length = 0;  // the offset stays, as in fio's record of it
    r->res = 0;
    r->flags = 0;
    r->prio = 0;
    r->start_ns = now;
    r->issue_ns = 0;
    replay_synced_last_ = true;
  } else if (e.op == IoOp::kSyncFileRange) {
    if (SyncWaits(in_use)) return false;
    r = free_[--free_n_];
    if (recorder_ != nullptr) recorder_->Io(now, e.file, e.op, e.offset, e.length);
    r->op = e.op;
    r->file_index = e.file;
    r->fd = files_[e.file].fd;
    // The log's line holds the last write's offset and length 0 (fio's
    // record of a sync_file_range= job): the range the log wrote to the file
    // since its previous sync_file_range is what that job synced. A line
    // with a length names its range; with no write before it, from its
    // offset to the end of the file (length 0, as sync_file_range(2) reads it).
    const auto [first, end] = TakeSyncRange(e.file);
    const bool written = e.length == 0 && first < end;
    r->offset = r->xfer_offset = written ? first : e.offset;
    r->length = r->xfer_length = written ? end - first : e.length;
    r->res = 0;
    r->flags = 0;
    r->prio = 0;
    r->start_ns = now;
    r->issue_ns = 0;
    replay_synced_last_ = true;  // fio's last_was_sync: any ddir_sync
  } else {
    replay_synced_last_ = false;
    IoPlan plan;
    plan.ddir = static_cast<Ddir>(e.op);
    plan.file = e.file;
    plan.offset = e.offset;
    plan.length = e.length;
    r = TakeRequest(plan, now);
    if (r->op == IoOp::kWrite) {
      FillWriteBuffer(r);
      auto& [first, end] = sfr_range_[e.file];
      first = std::min(first, e.offset);
      end = std::max(end, e.offset + e.length);
    }
    if (recorder_ != nullptr) recorder_->Io(now, e.file, e.op, e.offset, e.length);
    --ios_left_;
  }
  replay_has_entry_ = false;
  replay_last_issue_ns_ = now;
  replay_overshoot_ns_ = overshoot;
  *out = r;
  return true;
}

bool Worker::FailReplay(const Status& st) {
  error_ = EINVAL;
  stopping_ = true;
  if (ts_.first_error.err == 0) {
    ts_.first_error.err = EINVAL;
    ts_.first_error.message = "job '" + job_.name + "': " + st.message();
  }
  return false;
}

// fio's td_non_fatal_error: an error belongs to a class (EILSEQ to verify,
// a read to read, anything else to write); the class must be in
// continue_on_error (ignore_error puts it there), and the errno in the
// class's ignore_error list, which is EIO and EILSEQ when none was given.
// So continue_on_error=all alone still stops at ENOSPC or EAGAIN.
namespace {
int ErrorClass(Ddir ddir, int err) { return err == EILSEQ ? 2 : ddir == Ddir::kRead ? 0 : 1; }
}  // namespace

bool ClassCovered(const JobSpec& job, Ddir ddir, int err) {
  static constexpr uint8_t kCoeBits[] = {kCoeRead, kCoeWrite, kCoeVerify};
  return (job.continue_on_error & kCoeBits[ErrorClass(ddir, err)]) != 0;
}

bool ErrorTolerated(const JobSpec& job, Ddir ddir, int err) {
  if (!ClassCovered(job, ddir, err)) return false;
  const std::vector<int>& list = job.ignore_error[ErrorClass(ddir, err)];
  if (list.empty()) return err == EIO || err == EILSEQ;
  return std::find(list.begin(), list.end(), err) != list.end();
}

void Worker::HandleError(IoRequest* req, int err) {
  const bool is_sync_op = req->op >= IoOp::kFsync;
  const int d = is_sync_op ? static_cast<int>(Ddir::kWrite) : static_cast<int>(req->op);
  if (job_.fill_device && req->op == IoOp::kWrite && (err == ENOSPC || err == EDQUOT)) {
    // fill_device: the filesystem is full, which is how the job ends (fio's
    // terminating condition), not an error. The write wrote nothing, and
    // counts in total_ios as fio's does.
    ++fill_full_;
    stopping_ = true;
    ++ts_.dir[d].failed;
    if (verifier_ != nullptr) VerifyDropped(req);
    FreeSlot(req);
    return;
  }
  if (verifier_ != nullptr) {
    if (vslot_[req->index] == kVSlotRead) {  // a block the verify summary must not pass over
      const uint64_t iv = std::max<uint64_t>(verifier_->interval(), 1);
      verify_unread_ += std::max<uint64_t>((req->xfer_length + iv - 1) / iv, 1);
    }
    VerifyDropped(req);
  }
  DirStats& ds = ts_.dir[d];
  ++ds.errors;
  if (err == EAGAIN) ++ds.eagain;
  // An I/O for total_ios and IOPS, as fio; no bytes, no latency. A failed
  // fsync is a sync I/O (fio's DDIR_SYNC: "issued rwts" and the JSON sync
  // total_ios), not a write; its error class is still write's.
  if (!is_sync_op)
    ++ds.failed;
  else if (req->op == IoOp::kFsync)
    ++ts_.sync_ios;
  std::string message;  // error path only: allocating here is fine
  if (WantsErrorMessage(static_cast<Ddir>(d), err))
    message = std::string(!is_sync_op                       ? DirName(d)
                          : req->op == IoOp::kSyncFileRange ? "sync_file_range"
                          : req->op == IoOp::kFdatasync     ? "fdatasync"
                                                            : "fsync") +
              " " + FilePath(req) + " offset=" + std::to_string(req->offset) +
              " length=" + std::to_string(req->length) + ": " + std::strerror(err);
  // A discard needs block-aligned ranges with or without direct=1, and
  // direct=0 is no fix for it: a trim gets its own hint.
  if (err == EINVAL && !message.empty() && req->file_index < files_.size()) {
    const int fd = files_[req->file_index].fd;
    if (req->op == IoOp::kTrim) {
      if (std::string hint = sys::DiscardEinvalHint(fd, req->offset, req->length); !hint.empty())
        message += "; " + hint;
    } else if (job_.direct && !is_sync_op) {
      message += "; direct=1: " + sys::DirectIoEinvalHint(fd, req->offset, req->length, req->buf);
    }
  }
  // nowait=1 is what the kernel answers: name it, or the error reads like a
  // fault of the file or the device (docs/engines.md).
  if (job_.nowait && !is_sync_op && !message.empty() && (err == EAGAIN || err == EOPNOTSUPP))
    message +=
        "; " + sys::OptionAt(job_, "nowait", "1") +
        (err == EAGAIN ? std::string(": the kernel would have had to wait for this I/O")
         : req->file_index < files_.size() && files_[req->file_index].is_block_device
             // A block device takes RWF_NOWAIT with O_DIRECT only.
             ? std::string(": this block device has no non-blocking ") +
                   (job_.direct ? "" : "buffered ") + DirName(d) + " path" +
                   (job_.direct ? "" : " (it has one with direct=1)")
             : std::string(": this file system has no non-blocking ") + DirName(d) + " path");
  if ((err == ECANCELED || err == EAGAIN) && !message.empty())
    if (std::string hint = ThreadLimitHint(job_, err); !hint.empty()) message += "; " + hint;
  if (err == EPERM && (req->flags & kReqHighPrio) != 0 && d < 2 && !message.empty())
    if (std::string hint = CmdprioEpermHint(job_, d, req->prio); !hint.empty())
      message += "; " + hint;
  // The part that failed: the rest of a short transfer has its own range (fio:
  // "write offset=1048576, buflen=131072" after a short 384k write).
  NoteError(static_cast<Ddir>(d), err, req, req->offset, message);
  FreeSlot(req);
}

void Worker::CheckMaxLatency(const IoRequest* req, uint64_t now) {
  const int d = static_cast<int>(req->op);
  const uint64_t max = job_.max_latency_ns[d];
  const uint64_t lat = now > req->start_ns ? now - req->start_ns : 0;
  if (max == 0 || lat <= max || error_ != 0) return;
  // The I/O itself completed and is counted (as fio); the error is fio's
  // ETIMEDOUT, and says which I/O was too slow. It goes through the same
  // policy as an I/O error: ignore_error=110 counts every late I/O.
  std::string message;
  if (WantsErrorMessage(static_cast<Ddir>(d), ETIMEDOUT))
    message = "max latency exceeded: latency of " + std::to_string(lat) +
              " nsec exceeds specified max (" + std::to_string(max) + " nsec): " + FilePath(req) +
              " " + DirName(d) + " offset=" + std::to_string(req->xfer_offset) +
              " length=" + std::to_string(req->xfer_length);
  NoteError(static_cast<Ddir>(d), ETIMEDOUT, req, req->xfer_offset, message);
}

// serialize_overlap: whether the plan shares a byte of its file with an I/O
// in flight (any slot not free and not being checked by verify_async; a
// requeued remainder counts, it is yet to be written). O(iodepth), on the
// general path of the jobs that ask for it only.
bool Worker::OverlapsInFlight(const IoPlan& p) {
  overlap_free_.assign(depth_, 0);
  for (uint32_t j = 0; j < free_n_; ++j) overlap_free_[free_[j]->index] = 1;
  for (uint32_t i = 0; i < depth_; ++i) {
    if (overlap_free_[i] || VerifySlotChecking(i)) continue;
    const IoRequest& r = pool_[i];
    if (r.file_index == p.file && r.xfer_offset < p.offset + p.length &&
        p.offset < r.xfer_offset + r.xfer_length)
      return true;
  }
  return false;
}

// Each clone checks its own writes and meets its own errors, so "job 'w'"
// alone did not say whose block or I/O failed.
std::string Worker::StderrWho() const {
  return "job '" + job_.name + "'" + (job_.numjobs > 1 ? " #" + std::to_string(jobnum_) : "");
}

std::string Worker::FilePath(const IoRequest* req) const {
  return req->file_index < files_.size() ? files_[req->file_index].path : "";
}

// Keeps the first error, counts every one (total_err as fio counts it:
// only the classes continue_on_error covers, and of the errors after one
// that stopped the job, none: the I/Os still in flight then, failing the
// same way, are that one stop, as a sync engine's single error is), prints
// a tolerated one when error_dump asks (a fatal one reaches stderr when the
// job ends), and stops the job unless the policy tolerates the error.
bool Worker::CountError(Ddir ddir, int err, const std::string& file, uint64_t offset,
                        const std::string& message) {
  ++ts_.total_errors;
  if (ts_.first_error.err == 0) {
    ErrorInfo& e = ts_.first_error;
    e.err = err;
    e.file = file;
    e.offset = offset;
    e.ddir = ddir;
    e.message = message;
  }
  if (error_ == 0 && ClassCovered(job_, ddir, err)) {
    ++ts_.coe_errors;
    if (ts_.coe_first_error == 0) ts_.coe_first_error = err;
  }
  return ErrorTolerated(job_, ddir, err);
}

// Whether an I/O error's message is worth building (error path only): it
// is the job's first error, error_dump prints it, or it is the one that
// stops the job. The last may follow errors the policy let through
// (ignore_error, continue_on_error): its message is the job's error, and a
// bare strerror would not say which file, operation and offset failed.
bool Worker::WantsErrorMessage(Ddir ddir, int err) const {
  return ts_.first_error.err == 0 || job_.error_dump ||
         (error_ == 0 && !ErrorTolerated(job_, ddir, err));
}

void Worker::NoteError(Ddir ddir, int err, const IoRequest* req, uint64_t offset,
                       const std::string& message) {
  if (CountError(ddir, err, FilePath(req), offset, message)) {
    if (job_.error_dump)
      std::fprintf(stderr, "iobench: %s: %s (err=%d, tolerated)\n", StderrWho().c_str(),
                   sys::Printable(message).c_str(), err);
    return;
  }
  if (error_ == 0) {
    error_ = err;
    error_message_ = message;
    stopping_ = true;
  }
}

[[gnu::always_inline]] inline void Worker::Account(const IoRequest* req, uint64_t now) {
  const int d = static_cast<int>(req->op);
  DirStats& ds = ts_.dir[d];
  ++ds.ios;
  ds.bytes += req->xfer_length;
  // The status line's counters: two relaxed stores to this worker's own
  // cache line, instead of republishing every direction per I/O.
  live_.ios[d].store(ds.ios, std::memory_order_relaxed);
  live_.bytes[d].store(ds.bytes, std::memory_order_relaxed);
  if (record_clat_) {
    ds.clat.Add(now - req->issue_ns);
    ds.clat_hist.Add(now - req->issue_ns);
  }
  if (record_lat_ && !lat_from_clat_) {
    ds.lat.Add(now - req->start_ns);
    if (lat_hist_) ds.lat_hist.Add(now - req->start_ns);
  }
}

[[gnu::always_inline]] inline void Worker::CompleteFast(IoRequest* req, uint64_t now) {
  // Anything but a full read/write/trim transfer without verify: the general path.
  if (req->op > IoOp::kTrim || req->res <= 0 || static_cast<uint64_t>(req->res) != req->length ||
      slow_complete_) [[unlikely]] {
    Complete(req, now);
    return;
  }
  Account(req, now);
  FreeSlot(req);
}

void Worker::Complete(IoRequest* req, uint64_t now) {
  if (req->op >= IoOp::kFsync) {  // fsync, fdatasync, sync_file_range
    if (req->res < 0) {
      HandleError(req, static_cast<int>(-req->res));
      return;
    }
    // fio 3.33 counts fsyncs only (its DDIR_SYNC) in "issued rwts" and the
    // JSON sync total_ios; an fdatasync shows in the sync latency alone.
    if (req->op == IoOp::kFsync) ++ts_.sync_ios;
    if (record_clat_) {
      ts_.sync_lat.Add(now - req->issue_ns);
      ts_.sync_hist.Add(now - req->issue_ns);
    }
    FreeSlot(req);
    return;
  }
  if (req->res < 0) {
    HandleError(req, static_cast<int>(-req->res));
    return;
  }
  const int d = static_cast<int>(req->op);
  const uint64_t done = static_cast<uint64_t>(req->res);
  if (done == 0) {
    if (req->op == IoOp::kRead) {                            // end of file
      if (verifier_ != nullptr && VerifyReadDone(req, 0)) {  // a verify read: not a pass end
        FreeSlot(req);
        return;
      }
      if (IsRandom(job_.rw)) {
        // A random read past the end (a file that create_on_open left
        // short, or one that shrank): the blocks before it are still to
        // do, so the pass goes on; the report says how many there were.
        RandomEof();
      } else if (!eof_in_pass_) {  // sequential: the rest of the pass lies past the end too
        SequentialEof(req);
      }  // (else another read past the end, in flight when the first came back)
      // Nothing read: not an I/O (issued = ios + failed + short + dropped).
      // The rest of a short read that starts at the end of the file is not
      // either: fio does not issue it (the short read is its own I/O, in
      // short_ios, without bytes: a 6000-byte file read in 4k is issued 2,
      // short 1, 4096 bytes).
      if (ts_.issued[d] > 0) --ts_.issued[d];
      FreeSlot(req);
    } else {
      HandleError(req, ENOSPC);  // a write that writes nothing cannot make progress
    }
    return;
  }
  if (done < req->length) {  // short transfer: issue the rest, same slot
    // As fio: the short part is an I/O of its own (short_ios, in total_ios
    // and IOPS; its bytes count when the whole I/O completes), and the rest
    // is issued as another (in "issued rwts": a 384k write cut short by
    // ENOSPC is issued 2, short 1). A rest that finds the end of the file
    // is taken back above; one left unissued when the job stops is dropped.
    ++ts_.dir[d].short_ios;
    ++ts_.short_issued[d];
    ++ts_.issued[d];
    req->offset += done;
    req->length -= done;
    req->buf = static_cast<uint8_t*>(req->buf) + done;
    requeue_[requeue_n_++] = req;
    return;
  }
  Account(req, now);
  // As fio: no latency recorded (disable_lat, gtod_reduce), no I/O misses the target.
  if (lat_search_ != nullptr && measuring_ && record_lat_) LatencyCompleted(req, now);
  if (max_latency_on_) CheckMaxLatency(req, now);
  if (cmdprio_on_ && (prio_total_lat_ ? record_lat_ : record_clat_) && req->op <= IoOp::kWrite &&
      cmdprio_dir_[d]) {
    // fio's latency split by priority: [0] unless cmdprio gave the I/O a
    // value (always in the list; a value equal to the job's own is [0] too).
    // Completion latency, or the total with lat_percentiles, as fio.
    PrioStat* p = prio_stats_[d].data();
    if ((req->flags & kReqHighPrio) != 0)
      while (p->value != req->prio) ++p;
    const uint64_t lat = now - (prio_total_lat_ ? req->start_ns : req->issue_ns);
    p->lat.Add(lat);
    p->hist.Add(lat);
  }
  if (verifier_ != nullptr) {
    if (req->op == IoOp::kWrite)
      VerifyWriteDone(req);
    else if (req->op == IoOp::kRead && VerifyReadComplete(req))
      return;  // verify_async: a check thread reads the buffer; VerifyCollect frees the slot
  }
  FreeSlot(req);
}

// A sequential read found the end of the file: the pass ends there (NextPlan
// ends it, and EndPass drains what it still has in flight, reads past the
// end too, before the next pass). Counts the pass and the bytes of its
// region it could not read for the report's note, and whether the passes
// find nothing at all now (a file emptied under a time_based job): a pass
// that read nothing after one that read nothing ends the job (MorePasses),
// which would otherwise spin on reads of 0 bytes for the rest of its
// runtime (docs/running.md).
void Worker::SequentialEof(const IoRequest* req) {
  pass_eof_ = true;
  eof_in_pass_ = true;
  fast_prepare_ = false;  // PrepareNext ends the pass
  ++eof_passes_;
  if (req->file_index < targets_.size()) {
    const TargetFile& t = targets_[req->file_index];
    const uint64_t end = t.region_offset + t.region_size;
    if (req->offset < end) eof_bytes_short_ += end - req->offset;
  }
  // Reads that completed (a short one counts: its bytes were read) since
  // the last pass that ended at the end of the file.
  const uint64_t reads = ts_.dir[0].ios + ts_.dir[0].short_ios;
  eof_empty_passes_ = reads == eof_reads_mark_ ? eof_empty_passes_ + 1 : 0;
  eof_reads_mark_ = reads;
}

// A random read found the end of the file. The pass goes on (the blocks
// before the end are still to do), unless nothing is left to read: a file
// truncated to nothing under a time_based job spun on reads of 0 bytes for
// the rest of its runtime (6 million on psync in 2 s) and reported its
// bandwidth over all of it. A random job has no pass that ends at the end
// of the file, as a sequential one does (SequentialEof): a run of reads
// that found the end with no read of data between them, as many as the
// regions' blocks (a full round, at most kEofRandCheckMax), has the
// files' sizes looked at, and the job ends once every region lies past its
// file's end. A file that still has data, a shrinking tail, goes on: its
// next check is another run away. Reads that found the end only: no cost
// per I/O.
void Worker::RandomEof() {
  ++eof_reads_;
  // A job that writes may still lay data where its reads look (randrw on an
  // empty file stopped before its first write landed, 7 runs in 30).
  if (eof_rand_off_ || HasWrite(job_.rw)) return;
  const uint64_t reads = ts_.dir[0].ios + ts_.dir[0].short_ios;
  if (reads != eof_rand_mark_ || eof_rand_need_ == 0) {  // a run begins
    eof_rand_mark_ = reads;
    eof_rand_run_ = 0;
    uint64_t blocks = 0;
    const uint64_t bs = std::max<uint64_t>(1, job_.bs[0].min);
    for (const TargetFile& t : targets_) blocks += (t.region_size + bs - 1) / bs;
    eof_rand_need_ = std::clamp<uint64_t>(blocks, 1, kEofRandCheckMax);
  }
  if (++eof_rand_run_ < eof_rand_need_) return;
  eof_rand_run_ = 0;
  if (!RegionsPastEnd()) return;
  eof_rand_stop_ = true;
  no_more_ = true;
  fast_prepare_ = false;
}

// Whether every file of the job is a regular file that ends at or before
// its region's start (nothing in the region to read), by its size now. A
// file that is not a regular one (a character device that reads 0 bytes)
// has no such size: the job never asks again (eof_rand_off_).
bool Worker::RegionsPastEnd() {
  for (size_t i = 0; i < targets_.size(); ++i) {
    const TargetFile& t = targets_[i];
    struct stat st {};
    const int fd = i < files_.size() ? files_[i].fd : -1;
    if ((fd >= 0 ? fstat(fd, &st) : stat(t.path.c_str(), &st)) != 0) return false;
    eof_rand_off_ = !S_ISREG(st.st_mode);
    if (eof_rand_off_ || static_cast<uint64_t>(st.st_size) > t.region_offset) return false;
  }
  return !targets_.empty();
}

// An async engine completed a trim (or a sync_file_range) in its queue
// call. fio 3.33 counts it at the depth in flight, this I/O included
// (td_io_queue's io_u_mark_depth(td, 1): 1 is the count, the bucket comes
// from td->cur_depth), not at depth 1: trimwrite at iodepth=4 is 1=1.6%
// 2=3.1% 4=95.3%, as its rw=write (counted at 1 it was 1=50.8%). Its libaio
// and io_uring count one submission and one completion for it. Returns the
// clock after the checks below.
uint64_t Worker::CompleteInCall(IoRequest* req, uint64_t t) {
  ++ts_.depth.depth[DepthBucket(depth_ - free_n_)];
  CountSubmitComplete(&ts_.depth, 1);
  if (iolog_ == nullptr)  // issue 8
    CompleteFast(req, t);
  else
    CompleteLogged(req, t);
  // Its slot is free at once, so a trim-only job never fills the queue and
  // never gets back to the clock and stop checks at the top of the loop:
  // runtime, SIGINT and exitall went unseen (time_based: forever). Check
  // them here; the trim was a syscall, a clock read is cheap.
  uint64_t now = stamp_ ? t : NowNs();
  CheckTime(now);
  return now;
}

void Worker::CommitFailed(const Status& st) {
  // The kernel took none of them: they fail as errors of their own.
  const int err = st.errno_value() != 0 ? st.errno_value() : EIO;
  for (uint32_t i = 0; i < uncommitted_n_; ++i) HandleError(uncommitted_[i], err);
  uncommitted_n_ = 0;
}

inline uint64_t Worker::CommitBatch() {
  Result<unsigned> r = engine_->Commit();
  if (!r.ok()) [[unlikely]] {
    CommitFailed(r.status());
    return 0;
  }
  const unsigned n = std::min<unsigned>(*r, uncommitted_n_);
  // One clock read per submit batch, none when no latency is recorded.
  const uint64_t now = stamp_ ? NowNs() : 0;
  for (unsigned i = 0; i < n; ++i) {
    IoRequest* req = uncommitted_[i];
    if (FirstPart(*req)) {
      req->issue_ns = now;
      if (record_slat_ && req->op <= IoOp::kTrim) {
        DirStats& ds = ts_.dir[static_cast<int>(req->op)];
        ds.slat.Add(now - req->start_ns);
        if (slat_hist_) ds.slat_hist.Add(now - req->start_ns);
      }
    }
  }
  if (iolog_ != nullptr && record_slat_ && measuring_) LogSlats(n, now);  // issue 8
  ts_.depth.depth[DepthBucket(depth_ - free_n_)] += n;
  ++ts_.depth.submit[BatchBucket(n)];
  ++ts_.depth.submit_events;
  committed_ += n;
  in_flight_.store(committed_, std::memory_order_relaxed);
  if (n != uncommitted_n_)
      [[unlikely]]  // the engine took part of the batch: keep the rest in order
    std::memmove(uncommitted_.data(), uncommitted_.data() + n,
                 (uncommitted_n_ - n) * sizeof(IoRequest*));
  uncommitted_n_ -= n;
  if (n == 0 && committed_ == 0) {  // nothing in flight and the engine takes nothing
    for (uint32_t i = 0; i < uncommitted_n_; ++i) HandleError(uncommitted_[i], EAGAIN);
    uncommitted_n_ = 0;
  }
  return now;
}

uint64_t Worker::SubmitQueued() { return CommitBatch(); }

// iodepth_batch_complete_min=0 with _max=0 (fio's io_in_polling): fio's
// wait_for_completions then wants one completion, which its engines look for
// with non-blocking calls (libaio io_getevents(0, 1), io_uring enter(0, 0))
// until it comes: a busy poll, and the queue stays at one I/O in flight.
void Worker::PollOne() {
  while (committed_ > 0 && AccountReaped(engine_->Reap(0, 1, reaped_.data())) == 0)
    if (stop_->load(std::memory_order_relaxed) != kStopNone) return;
}

void Worker::ReapAndAccount(unsigned min) {
  if (committed_ == 0) return;
  min = std::min(min, committed_);
  const unsigned max = std::max(min, std::min(batch_complete_max_, committed_));
  AccountBatch(engine_->Reap(min, max, reaped_.data()));  // per reap of a deep queue
}

// The next I/O is due at `until` and I/O is in flight (read_iolog timing):
// take completions as they come until then, in slices of at most 10 ms so
// CheckTime still answers stops and snapshots, and poll through the last
// kReplaySpinNs (a kernel wait overshoots by the timer slack, 50 us by
// default: more than a dense log's whole gap). fio sleeps without reaping,
// so a completion that arrives during the wait gets the rest of the wait
// added to its clat; waiting for a completion instead (the old way) held the
// next I/O back until one came.
void Worker::ReapUntil(uint64_t until) {
  uint64_t now = NowNs();
  if (committed_ == 0 || now >= until) return;
  const unsigned max = std::max(1u, std::min(batch_complete_max_, committed_));
  if (until - now > kReplaySpinNs) {
    const uint64_t wait = std::min<uint64_t>(until - now - kReplaySpinNs, 10ull * 1000 * 1000);
    if (AccountReaped(engine_->ReapFor(max, reaped_.data(), wait)) == 0) {
      const uint64_t t = NowNs();  // an engine that cannot wait returns at once
      if (t < now + wait) SleepNs(now + wait - t);
    }
    return;
  }
  while (committed_ > 0 && now < until && stop_->load(std::memory_order_relaxed) == kStopNone) {
    AccountReaped(engine_->Reap(0, std::min(max, committed_), reaped_.data()));
    now = NowNs();
  }
}

// Waits until `until` without the timer slack's overshoot: sleeps all but
// the last kReplaySpinNs, then spins (read_iolog timing only).
void Worker::WaitPrecise(uint64_t until) {
  uint64_t now = NowNs();
  if (now + kReplaySpinNs < until) {
    SleepNs(until - now - kReplaySpinNs);
    now = NowNs();
  }
  while (now < until && stop_->load(std::memory_order_relaxed) == kStopNone) now = NowNs();
}

void Worker::ReapFailed(const Status& st) {
  // The engine lost track of its requests: stop, and count them as errors.
  if (error_ == 0) error_ = st.errno_value() != 0 ? st.errno_value() : EIO;
  stopping_ = true;
  if (ts_.first_error.err == 0) {
    ts_.first_error.err = error_;
    ts_.first_error.message = job_.ioengine + ": reap: " + st.message();
  }
  ts_.total_errors += committed_;
  for (uint32_t i = 0; i < depth_; ++i) {
    bool is_free = false;
    for (uint32_t j = 0; j < free_n_; ++j) is_free |= free_[j] == &pool_[i];
    for (uint32_t j = 0; j < requeue_n_; ++j) is_free |= requeue_[j] == &pool_[i];
    is_free |= VerifySlotChecking(i);  // verify_async: VerifyCollect frees it
    if (is_free) continue;
    if (verifier_ != nullptr) VerifyDropped(&pool_[i]);
    FreeSlot(&pool_[i]);
  }
  committed_ = 0;
  // Those queued but not yet committed (a commit that took part of a batch)
  // were freed above too: committing them now would hand the engine free
  // slots, whose completions would free them twice.
  uncommitted_n_ = 0;
  in_flight_.store(0, std::memory_order_relaxed);
}

inline unsigned Worker::AccountBatch(const Result<unsigned>& r) {
  if (!r.ok()) [[unlikely]] {
    ReapFailed(r.status());
    return 0;
  }
  const unsigned n = std::min<unsigned>(*r, committed_);
  if (n == 0) return 0;  // a signal or a timed wait: nothing to count (fio skips it too)
  // One clock read per completion batch, none when no latency is recorded.
  const uint64_t now = stamp_ ? NowNs() : 0;
  SampleDue(now);
  committed_ -= n;
  in_flight_.store(committed_, std::memory_order_relaxed);
  ++ts_.depth.complete[BatchBucket(n)];
  ++ts_.depth.complete_events;
  if (iolog_ == nullptr) {  // issue 8: the log costs this one branch per batch when off
    for (unsigned i = 0; i < n; ++i) CompleteFast(reaped_[i], now);
  } else {
    for (unsigned i = 0; i < n; ++i) CompleteLogged(reaped_[i], now);
  }
  return n;
}

unsigned Worker::AccountReaped(const Result<unsigned>& r) { return AccountBatch(r); }

uint64_t StartDelayNs(const JobSpec& job, uint64_t seed) {
  uint64_t delay = job.startdelay_ns;
  // Drawn from a stream of its own: the seed's top bits alone put every
  // range of whole seconds at its top with the default seed (0-4: 4.0 s,
  // 1-3: 3.0 s).
  if (job.startdelay_max_ns > delay)
    delay += prng::MixSeed(seed, kStartdelayStream) % (job.startdelay_max_ns - delay + 1);
  return delay;
}

void Worker::Run() {
  // startdelay (fixed, or random in [lo, hi] per clone), from the run's
  // start as fio's (mtime_since_genesis), not from this phase's or release.
  const uint64_t delay = StartDelayNs(job_, seed_);
  if (delay != 0) {
    const uint64_t due = (ctl_->run_start_ns != 0 ? ctl_->run_start_ns : ctl_->start_ns) + delay;
    if (const uint64_t now = NowNs(); due > now) SleepNs(due - now);
  }
  if (job_.ramp_time_ns == 0) held_back_.store(false, std::memory_order_relaxed);

  tid_ = HelperCpuSampler::CurrentTid();
  start_ns_ = NowNs();
  rate_epoch_ns_ = start_ns_;
  live_.start_ns.store(start_ns_, std::memory_order_relaxed);
  result_.start_ms = WallTimeMs();
  ramp_end_ns_ = start_ns_ + job_.ramp_time_ns;
  // fio's first thinktime_iotime pause comes after iotime + thinktime of I/O
  // (100ms/300ms: at 400 ms, then every 300 ms of I/O after each pause).
  think_last_ns_ = start_ns_ + (job_.thinktime_iotime_ns != 0 ? job_.thinktime_ns : 0);
  live_.state.store(job_.ramp_time_ns ? job_state::kRamp : StateLetter(job_),
                    std::memory_order_relaxed);
  if (job_.ramp_time_ns == 0)
    BeginMeasuring(start_ns_);
  else  // a job that ends within its ramp reports the ramp (fio): CPU from here
    ru_start_ = HelperCpuSampler::ThreadCpuNow();
  if (verifier_ != nullptr && job_.verify.verify_only && HasWrite(job_.rw)) StartVerifyPhase();
  // fio sets latency_qd, which its reports show as latency_depth, when a job
  // enters do_io. A create_only job, a verify_only job that writes (fio's dry
  // run, then the verify) and one whose exec_prerun failed never do, and fio
  // leaves the latency_* keys and line out for them.
  io_loop_entered_ =
      !prerun_failed_ && !job_.create_only && !(job_.verify.verify_only && HasWrite(job_.rw));

  while (true) {
  next_batch:
    uint64_t now = NowNs();  // one clock read per submit batch
    CheckTime(now);
    if (vasync_ != nullptr) VerifyCollect(false);  // verify_async: free slots of finished checks
    if (error_ != 0) {
      while (requeue_n_ > 0) {  // the job stops: unfinished parts are dropped
        IoRequest* req = requeue_[--requeue_n_];
        ++ts_.dir[static_cast<int>(req->op)].dropped;
        ++ts_.dropped_issued[static_cast<int>(req->op)];
        if (verifier_ != nullptr) VerifyDropped(req);
        FreeSlot(req);
      }
    }
    // Fill the queue.
    unsigned fill_batches = 0;
    while (true) {
      IoRequest* req = nullptr;
      if (requeue_n_ > 0) {
        req = requeue_[--requeue_n_];
      } else if (stopping_ || free_n_ == 0 ||
                 !(fast_prepare_ ? PrepareFast(now, &req) : PrepareNext(&now, &req))) {
        break;
      }
      const QueueResult qr = engine_->Queue(req);
      if (qr == QueueResult::kCompleted) {
        // Issued when prepared: start_ns, not the batch's `now`, which is
        // older when PrepareNext slept for rate or thinktime (the sleep is
        // not completion latency). For a sync engine this makes lat == clat.
        if (FirstPart(*req)) req->issue_ns = req->start_ns;
        const uint64_t t = stamp_ ? NowNs() : now;
        SampleDue(t);
        if (!sync_engine_) [[unlikely]] {  // a trim or a sync, done in the call
          now = CompleteInCall(req, t);
          continue;
        }
        ++sync_done_;           // FoldDerived: depth 1, one per call
        if (iolog_ == nullptr)  // issue 8
          CompleteFast(req, t);
        else
          CompleteLogged(req, t);
        // A sync engine's slot is free again (or requeued): the next I/O
        // gets fresh stamps at the top; the end-of-job checks below run
        // there too, once nothing more can be prepared.
        goto next_batch;
      } else if (qr == QueueResult::kQueued) {
        uncommitted_[uncommitted_n_++] = req;
        // The next I/O is prepared after this batch went in: its slat starts
        // at the submit's stamp, not at the top of the fill (which gave the
        // k-th I/O of a refill the submit time of the k-1 before it).
        if (uncommitted_n_ >= batch_submit_) {
          uint64_t t = CommitBatch();  // inline: one call per batch of every queueing engine
          // The engine takes nothing more before this batch is reaped: reap
          // it now, as fio does when its next queue answers busy, and
          // prepare the next batch after that (with a fresh stamp, as fio
          // stamps a requeued I/O again). The top of the loop reads the
          // clock and checks the time, so no check is needed here.
          if (one_batch_ && committed_ != 0) {
            think_batch_full_ = free_n_ == 0;
            AccountBatch(engine_->Reap(committed_, committed_, reaped_.data()));
            goto next_batch;
          }
          // Filling a deep queue through an engine whose submit does the
          // I/O (libaio on a buffered or tmpfs file) can outlast the
          // runtime: iodepth=20000 took 600 ms of a 100 ms job. The clock
          // and stop checks run between the batches of one fill, as fio's
          // between its submits; the first batch has the top's reading.
          // Not in the ramp: its end would start the measured period at
          // this batch's own issue stamp, and the batch would count as
          // issued after the ramp (a slat log line) with its slat reset
          // away; the top of the loop notices the ramp's end.
          if (t == 0 && measuring_ && ++fill_batches > 1) t = NowNs();
          if (t != 0) {
            now = t;
            if (measuring_) CheckTime(now);
          }
        }
        if (poll_each_) {
          // fio's polling mode checks for a completion before the next I/O,
          // and its getevents commits what is queued first: iodepth_batch
          // does not hold I/Os back here (it held 8 back: depth 8, not 1).
          if (uncommitted_n_ > 0) {
            if (const uint64_t t = Submit(); t != 0) now = t;
          }
          if (committed_ > 0) {
            PollOne();
            goto next_batch;
          }
        }
      } else {  // kBusy: no slot in the engine; push what we have and make room
        requeue_[requeue_n_++] = req;
        Submit();
        if (committed_ > 0) {
          ReapAndAccount(1);
        } else if (uncommitted_n_ == 0) {
          --requeue_n_;
          HandleError(req, EBUSY);
        }
        break;
      }
    }
    Submit();
    if (committed_ == 0) {
      if (requeue_n_ > 0) continue;
      if (free_n_ == depth_ && (stopping_ || no_more_)) {
        FinalMinRateCheck();
        // A pass that ended with I/O in flight: the next one starts now
        // (before any verify phase: EndPass asked the verifier already).
        if (pass_drain_ && !stopping_ && error_ == 0 && StartDrainedPass()) continue;
        if (verifier_ != nullptr && !stopping_ && VerifyPhaseStep()) continue;
        break;
      }
      if (free_n_ != depth_ && uncommitted_n_ == 0 && VerifyWaitChecks())
        continue;  // verify_async: the busy slots are being checked
      if (free_n_ != depth_ && uncommitted_n_ == 0) {  // a request went missing: never hang
        error_ = error_ ? error_ : EFAULT;
        break;
      }
      if (free_n_ == depth_ && error_ != 0) break;
      continue;
    }
    if (reap_until_ns_ != 0) {  // PrepareReplay: the next entry is not due yet
      const uint64_t until = reap_until_ns_;
      reap_until_ns_ = 0;
      ReapUntil(until);
      continue;
    }
    unsigned min = 1;
    if (free_n_ == 0 && !stopping_ && !no_more_) {
      min = std::max<unsigned>(1, batch_complete_min_);
      if (iodepth_low_ < depth_) {
        // A full queue drains to iodepth_low before it is refilled, one
        // reap call of batch_complete_min..max completions at a time, as
        // fio does (iodepth=8 iodepth_low=2: "complete" 4=100%; one call
        // for in_use - iodepth_low gave 8=91.3%).
        do {
          ReapAndAccount(min);
        } while (committed_ > 0 && depth_ - free_n_ > iodepth_low_);
        continue;
      }
    } else if (no_more_ && !stopping_) {
      // Nothing more to issue: what is in flight is reaped in one call, as
      // fio's end-of-job cleanup does (iodepth=16 over 32 I/Os: "complete"
      // 4=94.44%, 16=5.56%; one at a time gave 4=100%). Not a job the
      // runtime or a signal stopped, though fio reaps its depth at once
      // there too: the stuck-job watchdog sees progress only as
      // completions, and one call waiting for 255 I/Os of a slow device
      // (20 IOPS) showed none for 10 s, so the job was called stuck and its
      // results lost. One at a time, each completion is progress.
      min = committed_;
    }
    ReapAndAccount(min);
  }

  LeaveFlow();
  // fio 3.33 runs one more loop when loops remain after the job's I/O ran
  // out (io_size x loops bytes or number_ios x loops I/Os issued before the
  // last loop): it issues nothing, but ends with the end_fsync or
  // fsync_on_close sync of any loop, its last_was_sync being reset
  // (io_size=32k loops=2 on 64k, psync: 16 writes, then 2 syncs). Then it
  // stops: nothing was done in that loop.
  const bool ran_out = ios_left_ == 0 || (io_total_ != 0 && issued_bytes_ >= io_total_);
  const uint64_t loops_done = ios_left_ == 0 ? passes_ + 1 : passes_;
  // With unlink_each_loop that loop removes the files first, as any loop
  // after the first: none is left behind (loops=2 number_ios=5 on 64k: 10
  // writes, no file), unless the loop's sync opens them again, empty
  // (end_fsync or fsync_on_close: fio leaves a 0-byte file).
  if (ran_out && !job_.time_based && !job_.fill_device && verifier_ == nullptr &&
      !WritesIoSizePerLoop(job_) && !stopping_ && error_ == 0 &&
      loops_done < std::max<uint64_t>(1, job_.loops) &&
      (!job_.unlink_each_loop ||
       ReplaceFiles(JobWrites(job_) && (job_.end_fsync || job_.fsync_on_close))) &&
      EndOfLoopSync(true))
    sync_marked_ = false;
  (void)EndOfLoopSync(false);
  // The helpers' CPU at the period's end, before its end time: a SQPOLL
  // thread spins on after the last I/O, through the bookkeeping below.
  if (period_helpers_.empty() && job_.sqthread_poll && measuring_ &&
      ctl_->helper_sampler != nullptr)  // not named yet at the start (rare: a lock, a scan)
    (void)ctl_->helper_sampler->SampleForThread(tid_, kernel_tid_, true, &period_helpers_);
  if (!period_helpers_.empty())
    HelperCpuSampler::ReadThreads(period_helpers_, &period_helpers_end_);
  const uint64_t end = NowNs();
  // The thread's CPU up to the end, not the work after it (the helper
  // sample reads /proc): it is a share of the runtime.
  const CpuUsage cpu_end = HelperCpuSampler::ThreadCpuNow();
  FoldDerived(&ts_);
  if (ctl_->helper_sampler != nullptr) {
    if (!period_helpers_end_.empty()) ctl_->helper_sampler->EndPeriod(period_helpers_end_);
    ctl_->helper_sampler->SampleNow();
  }
  // Ended within its ramp (size reached, exitall, Ctrl-C): fio never reset
  // its stats, so it reports the ramp's I/O over the time since the start
  // (100 I/Os at rate_iops=200 in a 2 s ramp: 496 ms, not 1 ms).
  if (!measuring_) {
    measure_start_ns_ = start_ns_ != 0 ? start_ns_ : end;
    // fio accounts no completion in its ramp (should_account): the ramp's
    // I/Os and bytes count, its latencies do not (clat N=0, no percentiles,
    // no latency buckets), as the latency logs already leave them out.
    // An engine's per-file calls keep theirs: fio's engines add those
    // samples themselves, ramp or not (filecreate nrfiles=3 ramp_time=1s:
    // clat N=3).
    for (DirStats& d : file_calls_ ? std::span<DirStats>() : std::span<DirStats>(ts_.dir)) {
      d.slat = d.clat = d.lat = LatStat();
      d.slat_hist = d.clat_hist = d.lat_hist = Histogram();
      for (PrioStat& p : d.prios) {
        p.lat = LatStat();
        p.hist = Histogram();
      }
    }
    ts_.sync_lat = LatStat();
    ts_.sync_hist = Histogram();
  }
  ts_.cpu = CpuSince(ru_start_, cpu_end);
  const uint64_t runtime_ns = end - measure_start_ns_;
  for (int d = 0; d < kNumDdirs; ++d)
    if (DirHasRuntime(d)) ts_.dir[d].runtime_ns = runtime_ns;
  result_.runtime_ms = runtime_ns / 1000000;
  result_.runtime_us = runtime_ns / 1000;
  result_.elapsed_ms = (end - ctl_->start_ns) / 1000000;
  result_.end_ms = WallTimeMs();
  result_.interrupted = interrupted_;
  result_.latency_depth = LatencyDepth();
  CopyEngineCounters(&ts_);

  if (error_ != 0) {
    result_.error = error_;
    result_.error_message = !job_error_.empty()       ? job_error_
                            : !error_message_.empty() ? error_message_
                            : ts_.first_error.err == error_ && !ts_.first_error.message.empty()
                                ? ts_.first_error.message
                                : std::string(std::strerror(error_));
  }
  if (flow_stalls_ != 0)
    AddNote("flow: held back " + std::to_string(flow_stalls_) + " times to keep flow_id " +
            std::to_string(job_.flow_id) +
            " in the ratio of its weights (this job's: " + std::to_string(flow_weight_) + ")");
  if (fill_full_ != 0)
    AddNote("fill_device: the filesystem was full (" + std::to_string(ts_.dir[1].bytes) +
            " bytes written): the job ended there, as fio's does");
  // Only when the room was really there: with iodepth > 1 the writes in
  // flight when the region ends go on into a next one and fail there
  // (ENOSPC, no more bytes than the region); that is no sign of room.
  uint64_t sized = 0;
  for (const TargetFile& t : targets_) sized += t.region_size;
  if ((fill_more_ != 0 && ts_.dir[1].bytes > sized) ||
      (!fill_stop_why_.empty() && fill_stop_free_ != 0 && fill_full_ == 0)) {
    AddNote("fill_device: the job's size, the free space when it started (" + HumanBytes(sized) +
            "), ran out before the filesystem was full (data it compresses takes less room than "
            "it counts, btrfs compress=; or space freed during the run); " +
            (fill_stop_why_.empty()
                 ? "the job wrote on past it, " + std::to_string(fill_more_) + " more region" +
                       (fill_more_ == 1 ? "" : "s") +
                       " sized by the free space then, as fio's writes on to ENOSPC"
                 : "the job ended there with " + HumanBytes(fill_stop_free_) +
                       " still free: " + fill_stop_why_ + " (fio's writes on to ENOSPC)"));
  }
  if (eof_reads_ != 0)
    AddNote(std::to_string(eof_reads_) +
            " random reads found the end of the file: nothing read, not counted as I/Os "
            "(fio's psync fails them with EIO, its libaio counts them)");
  if (eof_passes_ != 0 && ts_.dir[0].ios + ts_.dir[0].short_ios != 0)
    AddNote(std::to_string(eof_passes_) + " sequential pass" + (eof_passes_ == 1 ? "" : "es") +
            " found the end of the file early: " + std::to_string(eof_bytes_short_) +
            " bytes of the region" + (eof_passes_ == 1 ? "" : "s") +
            " not read (fio fails such a read with EIO)");
  if (eof_empty_passes_ >= kEofEmptyPassesStop &&
      (job_.time_based || passes_ < std::max<uint64_t>(1, job_.loops)))
    AddNote(std::to_string(kEofEmptyPassesStop) +
            " passes in a row found the end of the file before any data: the job ended there, "
            "before its " +
            (job_.time_based ? "runtime" : "loops") + " (fio fails such a job with EIO)");
  if (eof_rand_stop_)
    AddNote(std::to_string(eof_rand_need_) +
            " random reads in a row found the end of the file, and no file had data left in "
            "its region: the job ended there, before its " +
            (job_.time_based ? "runtime" : "loops") + " (fio fails such a job with EIO)");
  // A read job that found the end at once read nothing (a file
  // create_on_open made empty, a region past the end): no block, no error,
  // exit 0 said nothing at all; fio fails it with EIO ("full resid").
  if (eof_passes_ != 0 && ts_.dir[0].ios == 0 && ts_.dir[0].bytes == 0)
    AddNote(
        "the reads found the end of the file before any data (an empty file, or a region "
        "that starts at or past its end): nothing read (fio fails such a job with EIO)");
  if (verifier_ != nullptr) FinishVerify();
  PublishLive();
  // --- issue 8: flush this clone's logs; the final result answers every later snapshot ---
  if (iolog_ != nullptr) iolog_->Finish(measuring_ ? end - measure_start_ns_ : 0);
  ServeSnapshot(end, true);
  // --- end issue 8 ---
  // Exited, not yet torn down (exec_postrun, closing): fio's E; Teardown()
  // stores the final letter.
  live_.state.store(job_state::kExited, std::memory_order_relaxed);
}

// --- issue 8: logs and interim snapshots -----------------------------------

// Only called when the job logs slat: the slat lines (or window samples) of
// the first n uncommitted I/Os, just issued at `now`, stamped with their
// submission time as fio's add_slat_sample, for each slat Submit() counted
// (an I/O issued in the ramp has none: measuring_ is false then).
void Worker::LogSlats(unsigned n, uint64_t now) {
  if (now < measure_start_ns_) return;
  for (unsigned i = 0; i < n; ++i) {
    const IoRequest* req = uncommitted_[i];
    if (!FirstPart(*req) || req->op > IoOp::kTrim) continue;
    const uint16_t prio = LogPrio(req);
    iolog_->OnSubmit(now - measure_start_ns_, static_cast<Ddir>(req->op), req->xfer_length,
                     now - req->start_ns, req->xfer_offset, prio);
  }
}

// Only called when the job logs. The request's fields are read before
// Complete() because a short transfer rewrites them for the requeue.
void Worker::CompleteLogged(IoRequest* req, uint64_t now) {
  const bool full =
      req->op <= IoOp::kTrim && req->res > 0 && static_cast<uint64_t>(req->res) >= req->length;
  const uint16_t prio = LogPrio(req);  // before Complete() rewrites the request
  Complete(req, now);
  // An engine whose calls are the samples logs those (CallFile), not its
  // I/Os, as fio's FIO_NOSTATS engines.
  if (!full || !measuring_ || now < measure_start_ns_ || file_calls_) return;
  // The slat was logged when the I/O was issued (LogSlats).
  const uint64_t clat = now >= req->issue_ns ? now - req->issue_ns : 0;
  const uint64_t lat = now >= req->start_ns ? now - req->start_ns : 0;
  iolog_->OnComplete(now - measure_start_ns_, static_cast<Ddir>(req->op), req->xfer_length, clat,
                     lat, req->xfer_offset, prio);
}

// fio's latency_qd: the depth latency_target's search is at, else iodepth; 0
// until the job entered its I/O loop.
uint32_t Worker::LatencyDepth() const {
  if (!io_loop_entered_) return 0;
  return lat_search_ != nullptr ? lat_search_->depth() : std::max<uint32_t>(1, job_.iodepth);
}

void Worker::ServeSnapshot(uint64_t now, bool final) {
  const uint64_t gen = snap_req_.load(std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(snap_mu_);  // rare: one request per interim report
    if (final) {
      // The result itself answers from now on (CopySnapshot): copying it
      // here cost every worker a second JobResult.
      snap_final_ = true;
      snap_.reset();
    } else {
      JobResult& snap = Snap();
      if (measuring_) {
        snap.stats = ts_;
        FoldDerived(&snap.stats);
        CopyEngineCounters(&snap.stats);  // (IOs per call were 0 in interim reports)
        const uint64_t runtime_ns = now - measure_start_ns_;
        for (int d = 0; d < kNumDdirs; ++d)
          if (DirHasRuntime(d)) snap.stats.dir[d].runtime_ns = runtime_ns;
        snap.stats.cpu = CpuSince(ru_start_, HelperCpuSampler::ThreadCpuNow());
        snap.runtime_ms = runtime_ns / 1000000;
        snap.runtime_us = runtime_ns / 1000;
      } else {
        snap.stats = ThreadStats();  // ramp or startdelay: nothing measured yet
        snap.runtime_ms = 0;
        snap.runtime_us = 0;
      }
      snap.start_ms = result_.start_ms;
      snap.latency_depth = LatencyDepth();
      snap.elapsed_ms = now > ctl_->start_ns ? (now - ctl_->start_ns) / 1000000 : 0;
      snap.end_ms = WallTimeMs();
    }
  }
  snap_served_ = gen;
  snap_done_.store(final ? UINT64_MAX : gen, std::memory_order_release);
}

void Worker::LeaveFlow() noexcept {
  if (flow_ == nullptr) return;
  // As fio's flow_exit_job: the others no longer wait for this job.
  flow_->weight.fetch_sub(flow_weight_, std::memory_order_relaxed);
  flow_->ios.fetch_sub(flow_ios_, std::memory_order_relaxed);
  flow_ = nullptr;
}

void Worker::FailOnException(const std::exception& e, const char* stage) noexcept {
  // A job that leaves its flow by an exception leaves it too: its share
  // held the flow's other jobs back for good (the late review's case).
  LeaveFlow();
  const bool oom = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
  std::lock_guard<std::mutex> lock(snap_mu_);
  if (result_.error == 0) {
    result_.error = oom ? ENOMEM : EFAULT;
    try {
      result_.error_message =
          oom ? sys::OutOfMemoryText(std::string("the job's thread could not allocate memory in "
                                                 "its ") +
                                     stage + " (std::bad_alloc)")
              : std::string("internal error in the job's ") + stage + ": " + e.what();
    } catch (const std::exception&) {  // the errno alone, then
    }
  }
  // Whatever Run() got to, the result answers the snapshots from now on.
  snap_final_ = true;
  snap_.reset();
  snap_done_.store(UINT64_MAX, std::memory_order_release);
  live_.state.store(job_state::kExited, std::memory_order_relaxed);
}

// After the final snapshot the worker no longer writes result_ (the run
// ended; its thread only tears down), so reading it under the lock is safe.
void Worker::CopySnapshot(JobResult* out) {
  std::lock_guard<std::mutex> lock(snap_mu_);
  *out = snap_final_ ? result_ : Snap();
}

// --- end issue 8 --------------------------------------------------------------

// lockmem, as fio's fio_pin_memory: an anonymous mapping pinned by mlock
// (which faults every page in). CheckResourceLimits already refused a size
// that would leave less than 256 MiB available.
Status Worker::LockMemory() {
  if (job_.lockmem == 0) return Status::Ok();
  const uint64_t want = job_.lockmem;
  void* p = mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return ErrnoStatus("job '" + job_.name + "': lockmem: mmap of " + std::to_string(want) +
                       " bytes");
  if (mlock(p, want) != 0) {
    const int e = errno;
    (void)munmap(p, want);
    struct rlimit rl {};
    (void)getrlimit(RLIMIT_MEMLOCK, &rl);
    return ErrnoStatus("job '" + job_.name + "': lockmem: mlock of " + std::to_string(want) +
                           " bytes (RLIMIT_MEMLOCK " +
                           (rl.rlim_cur == RLIM_INFINITY ? std::string("unlimited")
                                                         : std::to_string(rl.rlim_cur)) +
                           ", ulimit -l)",
                       e);
  }
  locked_mem_ = p;
  locked_bytes_ = want;
  return Status::Ok();
}

void Worker::Teardown() {
  if (torn_down_) return;
  torn_down_ = true;
  if (locked_mem_ != nullptr) {
    (void)munmap(locked_mem_, locked_bytes_);  // unmapping unlocks
    locked_mem_ = nullptr;
  }
  vasync_.reset();  // verify_async: join the check threads before their buffers go
  if (engine_) engine_->Shutdown();
  if (recorder_ != nullptr) {
    // fio logs a writing job's closing syncs (end_fsync after a clean run,
    // fsync_on_close below): a replay of the log then syncs as the job did.
    if (HasWrite(job_.rw) && ((job_.end_fsync && error_ == 0) || job_.fsync_on_close) &&
        !replay_synced_last_ && !final_sync_skipped_)
      recorder_->SyncAll(NowNs());
    recorder_->Finish(NowNs());
  }
  for (auto& f : files_) {
    if (f.fd < 0) continue;
    close(f.fd);  // fsync_on_close synced it at the end of the job (EndOfLoopSync)
    f.fd = -1;
  }
  io_mem_.Release();
  buffers_ = nullptr;
  // fio's letters for an ended job: X an error ended it, K a signal
  // stopped it (Ctrl-C, SIGTERM: a thread cannot be killed alone), _ it
  // ended.
  live_.state.store(error_ != 0    ? job_state::kError
                    : interrupted_ ? job_state::kSignal
                                   : job_state::kReaped,
                    std::memory_order_relaxed);
}

}  // namespace iobench
