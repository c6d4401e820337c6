#include "run/coordinator.h"

#include <sched.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <utility>

#include "iobench/clock.h"
#include "iobench/stats.h"
#include "run/log_safety.h"
#include "run/replay.h"
#include "run/signals.h"
#include "run/steadystate.h"
#include "run/target.h"
#include "run/uncached_check.h"
#include "run/worker.h"
#include "stats/disk_util.h"
#include "stats/helper_cpu.h"
#include "stats/iolog.h"
#include "stats/summary.h"  // LayoutTallyNote
#include "sys/context.h"
#include "sys/host.h"
#include "sys/safety.h"
#include "sys/strings.h"
#include "sys/target.h"

namespace iobench {
namespace {

// An engine's refusal names the option it refuses ("io_uring: hipri=1 needs
// direct=1"): add where the job set it, as the job file's own errors do
// ("hipri=1 (t.fio:5) needs ..."). The first option of the job's settings
// named in the message as `name=` is the one.
Status WithOptionWhere(const JobSpec& job, Status st) {
  if (st.ok()) return st;
  const std::string& m = st.message();
  size_t best = std::string::npos;
  const OptionSetting* which = nullptr;
  for (const OptionSetting& set : job.settings) {
    const std::string key = set.name + "=";
    for (size_t at = m.find(key); at != std::string::npos; at = m.find(key, at + 1)) {
      if (at != 0 && m[at - 1] != ' ' && m[at - 1] != '(') continue;
      if (at < best) {
        best = at;
        which = &set;
      }
      break;
    }
    // "io_uring: sqthread_poll_cpu is set but ...": the option, bare, first.
    const std::string bare = ": " + set.name + " ";
    if (const size_t at = m.find(bare); at != std::string::npos && at + 2 < best) {
      best = at + 2;
      which = &set;
    }
  }
  if (which == nullptr || m.find(" (" + which->Where() + ")") != std::string::npos) return st;
  // After the value as the job gave it, else up to a blank or punctuation.
  const size_t value = best + which->name.size() + 1;
  size_t end =
      m[value - 1] != '='
          ? value - 1
          : (!which->value.empty() && m.compare(value, which->value.size(), which->value) == 0
                 ? value + which->value.size()
                 : m.find_first_of(" ),;:", value));
  if (end == std::string::npos) end = m.size();
  // A value that ends the sentence keeps its full stop after the location.
  if (end == m.size() && end > best && m[end - 1] == '.') --end;
  // "nowait=1 (RWF_NOWAIT) is ...": the flag the option stands for is
  // already in brackets there; the location joins it, "(RWF_NOWAIT,
  // <cmdline>)", rather than making two bracketed groups back to back.
  if (m.compare(end, 2, " (") == 0) {
    const size_t close = m.find(')', end + 2);
    const bool flag_name = close != std::string::npos && close > end + 2 &&
                           std::all_of(m.begin() + static_cast<std::ptrdiff_t>(end + 2),
                                       m.begin() + static_cast<std::ptrdiff_t>(close), [](char ch) {
                                         return std::isupper(static_cast<unsigned char>(ch)) ||
                                                std::isdigit(static_cast<unsigned char>(ch)) ||
                                                ch == '_';
                                       });
    if (flag_name)
      return Status(st.code(), m.substr(0, close) + ", " + which->Where() + m.substr(close),
                    st.errno_value());
  }
  return Status(st.code(), m.substr(0, end) + " (" + which->Where() + ")" + m.substr(end),
                st.errno_value());
}

// A mixed job whose block for one direction is larger than every region (the
// job's smallest block fits, or it would be refused): fio runs it, and both
// tools stop at the first I/O of that direction, so the report may show
// nothing at all. Say why.
// Why a numjobs clone has fewer files than its job (sys::ClonePaths):
// "file f belongs to this job's first clone: as fio, ...".
std::string DroppedFilesNote(const std::vector<JobSpec>& jobs, size_t index,
                             const std::vector<sys::TakenFile>& dropped, bool none_left) {
  std::string text = dropped.size() == 1 ? "file " : "files ";
  bool verb = false;
  for (size_t i = 0; i < dropped.size(); ++i) {
    const size_t by = dropped[i].by_job;
    if (i > 0) text += dropped[i - 1].by_job == by ? ", " : "; ";
    text += dropped[i].path;
    if (i + 1 < dropped.size() && dropped[i + 1].by_job == by) continue;
    if (!verb) text += dropped.size() == 1 ? " belongs" : " belong";
    verb = true;
    text += by == index ? " to this job's first clone"
                        : " to job '" + jobs[by].name +
                              "' (numjobs=" + std::to_string(jobs[by].numjobs) + ")";
  }
  return text +
         ": as fio, a numjobs clone gets no file name from filename_format that a job with "
         "numjobs > 1 already uses" +
         (none_left ? "; this clone has no file and did no I/O"
                    : "; this clone shares size= among the files left");
}

std::string BlockTooLargeNote(const JobSpec& job, const std::vector<TargetFile>& targets) {
  uint64_t region = 0;
  for (const TargetFile& t : targets) region = std::max(region, t.region_size);
  if (region == 0 || !job.read_iolog.empty()) return "";
  const bool uses[kNumDdirs] = {HasRead(job.rw), HasWrite(job.rw), HasTrim(job.rw)};
  static const char* const kNames[kNumDdirs] = {"read", "write", "trim"};
  std::string n;
  for (int d = 0; d < kNumDdirs; ++d) {
    if (!uses[d] || job.bs[d].min <= region) continue;
    n += std::string(n.empty() ? "" : "; ") + "the smallest " + kNames[d] + " block (" +
         std::to_string(job.bs[d].min) + " bytes) is larger than the region (" +
         std::to_string(region) + " bytes)";
  }
  if (n.empty()) return "";
  return n + ": no such I/O fits, so the job stops at its first one, as fio does";
}

// fio dates a report when it is made: the JSON "timestamp" of each interim
// report and of the final one is its own time, not the run's start.
void StampReportTime(RunResult* r) {
  r->timestamp_ms = WallTimeMs();
  r->timestamp_s = r->timestamp_ms / 1000;
}

struct Phase {
  std::vector<size_t> jobs;  // indices into the job list
};

// wait_for=NAME: the jobs of the phase whose clones must all finish before
// the job `j` starts. As fio 3.33's waitee_running(), every job of that
// name that has not ended, the ones defined after the waiter too.
std::vector<size_t> Waitees(const std::vector<JobSpec>& jobs, const Phase& phase, size_t j) {
  std::vector<size_t> w;
  if (jobs[j].wait_for.empty()) return w;
  for (size_t k : phase.jobs)
    if (k != j && jobs[k].name == jobs[j].wait_for) w.push_back(k);
  return w;
}

// One clone of one job, as the coordinator tracks it.
struct Clone {
  size_t job = 0;
  int jobnum = 0;
  int groupid = 0;
  // The stop flag its worker obeys: its own (PhaseShared::clone_stop).
  std::atomic<int>* stop = nullptr;
  std::vector<TargetFile> targets;
  std::vector<std::string> notes;
  LayoutTally layout;  // what was laid out for it (one of `notes` says so)
  std::unique_ptr<Worker> worker;
  Status setup;
  // wait_for=NAME on a job of the same phase: the jobs (indices into the job
  // list) whose clones must all finish before this clone starts its run.
  std::vector<size_t> waits;
};

// What the worker threads of one phase share with the coordinator. Held by
// shared_ptr from each thread: when the watchdog gives up on a stuck job, its
// thread is detached and keeps this alive (it may sit in a syscall on a hung
// device forever), so RunJobs can return without leaving it dangling
// pointers. The jobs are copies for the same reason.
struct PhaseShared {
  std::vector<JobSpec> jobs;
  WorkerControl ctl;
  std::mutex mu;
  std::condition_variable cv;
  std::vector<Clone> clones;
  std::unique_ptr<HelperCpuSampler> helpers;
  std::unique_ptr<std::atomic<bool>[]> finished;  // per clone, set when its thread is done
  // wait_for inside a phase: clones still running per job (index into jobs).
  std::unique_ptr<std::atomic<int>[]> job_left;
  std::map<uint32_t, FlowGroup> flows;  // flow=: this phase's groups (WorkerControl::flows)
  // exitall with exit_what=all fired: no later phase runs.
  std::atomic<bool> exit_all{false};
  // One stop flag per clone (Clone::stop), set with ctl.stop (StopPhase),
  // for its reporting group (fio's exit_what=group stops only the ending
  // job's group where new_group splits the phase), or, for exit_what=
  // stonewall, only where the clone is not held back (fio's
  // TERMINATE_STONEWALL stops the jobs running: one in its startdelay,
  // waiting on wait_for or in its ramp_time runs on; Worker::held_back).
  std::deque<std::atomic<int>> clone_stop;
  // Some job of the run has exitall: as in fio, where the option sets one
  // process-wide switch, every job's end then stops the others (exit_what:
  // the ending job's).
  bool exitall_any = false;
};

// Tells every clone of the phase to stop: a signal (`why` kStopSignal,
// replacing an exitall), or exitall with exit_what=all (kept if a stop came
// first). `started_only` (exit_what=stonewall): only the clones not held
// back by their startdelay, wait_for or ramp_time, as fio's
// TERMINATE_STONEWALL.
void StopPhase(PhaseShared& sh, int why, bool started_only = false) {
  const auto set = [why](std::atomic<int>& f) {
    int none = kStopNone;
    if (why == kStopSignal)
      f.store(why);
    else
      f.compare_exchange_strong(none, why);
  };
  if (!started_only) set(sh.ctl.stop);
  for (Clone& c : sh.clones)
    if (!started_only || !c.worker->held_back()) set(*c.stop);
}

std::atomic<int> g_left_behind{0};  // LeftBehindThreads()

// What a left-behind thread may still use after RunJobs returns: never
// freed, and held from here so that it stays reachable (LeakSanitizer
// reports what nothing points to, as a released pointer would be).
void KeepForLeftBehindThreads(void* p) {
  static std::mutex mu;
  static auto* const kept = new std::vector<void*>;
  std::lock_guard<std::mutex> lock(mu);
  kept->push_back(p);
}

// wait_for inside a phase: blocks the calling clone's thread until every
// clone of the jobs in `waits` has finished. False when the run is told to
// stop first (the waiting clone then does no I/O). Polls every millisecond:
// only waiting clones pay it, and a stop must end the wait too.
bool WaitForJobs(PhaseShared& sh, const std::vector<size_t>& waits, const std::atomic<int>& stop) {
  for (size_t k : waits)
    while (sh.job_left[k].load() != 0) {
      if (stop.load() != kStopNone) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  return stop.load() == kStopNone;
}

// Disk stats of several phases add up per device.
void MergeDisk(DiskUtil d, std::vector<DiskUtil>* disks) {
  for (auto& e : *disks) {
    if (e.name != d.name) continue;
    for (int i = 0; i < 2; ++i) {
      e.ios[i] += d.ios[i];
      e.merges[i] += d.merges[i];
      e.sectors[i] += d.sectors[i];
      e.ticks[i] += d.ticks[i];
    }
    e.io_ticks += d.io_ticks;
    e.time_in_queue += d.time_in_queue;
    e.util = std::max(e.util, d.util);
    e.fio_lists = e.fio_lists || d.fio_lists;  // fio's disk list spans the run's jobs
    return;
  }
  disks->push_back(std::move(d));
}

// A job's share of the group's unlabelled "other" CPU, at most the part of
// it that accrued while the job ran, taken as spread evenly over the group's
// longest measured runtime or the sampler's span if longer (`runtime_us` of
// `longest_us`). Spread by submissions only, the coordinator's CPU over a
// 6 s psync job went to the one io_uring job of the group, which ran 4 ms:
// other=140%. What the bound cuts is in no job's figures. Returns {user, sys}.
std::pair<uint64_t, uint64_t> OtherWhileRunning(const HelperCpu& share, const HelperCpu& group,
                                                uint64_t runtime_us, uint64_t longest_us) {
  const uint64_t got = share.other_user_us + share.other_sys_us;
  if (longest_us == 0 || runtime_us >= longest_us || got == 0) {
    return {share.other_user_us, share.other_sys_us};
  }
  const double frac = static_cast<double>(runtime_us) / static_cast<double>(longest_us);
  const double cap = static_cast<double>(group.other_user_us + group.other_sys_us) * frac;
  if (static_cast<double>(got) <= cap) return {share.other_user_us, share.other_sys_us};
  const double scale = cap / static_cast<double>(got);
  return {static_cast<uint64_t>(static_cast<double>(share.other_user_us) * scale),
          static_cast<uint64_t>(static_cast<double>(share.other_sys_us) * scale)};
}

// Fills JobResult::helpers: what the sampler saw under each worker's thread
// id (the kernel names io-wq workers after the thread that owns the ring) is
// exact; the part no sample could label is spread by io submissions.
void AttributeHelperCpu(HelperCpuSampler* sampler, std::vector<Clone>& clones) {
  sampler->Stop();
  CpuUsage own;
  std::vector<uint64_t> weights, runtime_us;
  uint64_t longest_us = 0;
  for (auto& c : clones) {
    const ThreadStats& ts = c.worker->result().stats;
    // The workers' CPU before their measured period too: the sampler's
    // interval spans it, and it is no helper's (a latency_target search of
    // 1 s put 0.8 s of the worker's CPU in "other": other=866% of 100 ms).
    own.user_us += ts.cpu.user_us + c.worker->unmeasured_cpu().user_us;
    own.sys_us += ts.cpu.sys_us + c.worker->unmeasured_cpu().sys_us;
    weights.push_back(c.worker->engine_is_sync() ? 0 : ts.submitted);
    const JobResult& r = c.worker->result();
    runtime_us.push_back(r.runtime_us != 0 ? r.runtime_us : r.runtime_ms * 1000);
    longest_us = std::max(longest_us, runtime_us.back());
  }
  const HelperCpu group = sampler->Result(own);
  // "other" accrued over the sampler's whole span, which a startdelay makes
  // longer than any job's runtime: the coordinator's CPU through a 1 s delay
  // read other=52% of a 6 ms SQPOLL job.
  longest_us = std::max(longest_us, sampler->WallUs());
  // What the samples labelled with a worker of this group is that job's.
  // The rest is spread by submissions, keeping its kind: the unlabelled
  // "other", and helpers named after a thread that is no worker here (glibc's
  // POSIX AIO threads outlive their creator's job by up to a second and
  // serve any posixaio job).
  uint64_t HelperCpu::*const kFields[] = {&HelperCpu::iowq_user_us,   &HelperCpu::iowq_sys_us,
                                          &HelperCpu::sqpoll_user_us, &HelperCpu::sqpoll_sys_us,
                                          &HelperCpu::aio_user_us,    &HelperCpu::aio_sys_us};
  std::vector<HelperCpu> labelled;
  HelperCpu unlabelled = group;
  bool unknown_owner = false;  // a PID namespace hid the kernel's number of a worker
  for (auto& c : clones) {
    unknown_owner |= c.worker->kernel_tid() == 0;
    labelled.push_back(sampler->ForThread(c.worker->tid(), c.worker->kernel_tid()));
    for (auto f : kFields) unlabelled.*f -= std::min(unlabelled.*f, labelled.back().*f);
  }
  const std::vector<HelperCpu> shares = SplitHelperCpu(unlabelled, weights);
  for (size_t i = 0; i < clones.size(); ++i) {
    // What they did for the job before its measured period (a ramp, a
    // SQPOLL thread's spinning from the ring's creation) or after it (the
    // SQPOLL thread spins on through the job's bookkeeping) is not the
    // period's: its shares divide by the measured runtime (ramp_time=2
    // runtime=500ms read io-wq sys 226% with one io-wq thread; a 9 ms SQPOLL
    // job sqpoll=135%). It is in no job's figures. fio reports no helper CPU.
    HelperCpu h = sampler->ForThread(clones[i].worker->tid(), clones[i].worker->kernel_tid(),
                                     /*to_period_end=*/true);
    const HelperCpu& before = clones[i].worker->unmeasured_helpers();
    for (auto f : kFields) h.*f -= std::min(h.*f, before.*f);
    // A posixaio job served only by helpers another thread made saw them
    // all the same: it gets the group's peak, as the spread part's owner.
    // So did a job whose io_uring helpers could not be told apart from the
    // others' (a PID namespace): its io-wq/SQPOLL share is apportioned.
    const bool uring_share = shares[i].iowq_user_us + shares[i].iowq_sys_us +
                                 shares[i].sqpoll_user_us + shares[i].sqpoll_sys_us >
                             0;
    if (unknown_owner && uring_share) h.apportioned = true;
    if (h.peak_threads == 0 &&
        (shares[i].aio_user_us + shares[i].aio_sys_us > 0 || (unknown_owner && uring_share)))
      h.peak_threads = shares[i].peak_threads;
    for (auto f : kFields) h.*f += shares[i].*f;
    const auto [other_user, other_sys] =
        OtherWhileRunning(shares[i], unlabelled, runtime_us[i], longest_us);
    h.other_user_us += other_user;
    h.other_sys_us += other_sys;
    clones[i].worker->result().helpers = h;
  }
}

// What the job's timing options do that the job file does not say: the
// thinktime_* options without a thinktime do nothing (fio ignores them too).
// Each a note for the job's report.
std::vector<std::string> TimingNotes(const JobSpec& job) {
  std::vector<std::string> notes;
  auto named = [&job](const char* name) { return SettingText(job, name); };
  if (job.thinktime_ns == 0) {
    std::string unused;
    for (const char* o :
         {"thinktime_spin", "thinktime_blocks", "thinktime_blocks_type", "thinktime_iotime"})
      if (job.FindSetting(o) != nullptr) unused += (unused.empty() ? "" : ", ") + named(o);
    if (!unused.empty())
      notes.push_back(unused + " did nothing: " +
                      (job.FindSetting("thinktime") != nullptr
                           ? named("thinktime")
                           : std::string("thinktime is unset")) +
                      ", so the job never thinks (fio 3.33 ignores them too)");
  }
  return notes;
}

// ioengine=filecreate lays nothing out (fio's FIO_DISKLESSIO engine): its
// call makes each file, as create_on_open=1's open would, and a file is one
// block (the smallest bs, fio's get_file_size) unless size= or filesize= set
// the job's size (filesize=16k bs=4k: four I/Os per file, as fio's).
void ShapeFileCreateJob(JobSpec* job) {
  job->create_on_open = true;
  if (job->size == 0 && job->filesize_min == 0 && job->size_percent == 0)
    job->filesize_min = job->filesize_max = SmallestBs(*job);
}

// Whether the job's file list needs the run core: an opendir= to walk, or
// a list that surprises (filename= in [global] and again in the job, an
// nrfiles= that cuts it), which the job's report then explains.
bool FileListNeedsRun(const JobSpec& job) {
  // (A replay's files are its log's: run/replay.h.)
  if (!job.opendir.empty() || !job.read_iolog.empty()) return !job.opendir.empty();
  size_t lists = 0;
  bool cut = false;
  for (const FileListStep& s : job.file_list) {
    if (s.kind != FileListStep::Kind::kCount)
      ++lists;
    else
      cut |= lists > 0;
  }
  return lists > 1 || cut;
}

// The files of the job, as fio lists them: every filename= and opendir= in
// the order fio applies them (FileListStep), opendir='s as fio's
// add_dir_files: every entry below its directory that is not a directory,
// depth first in the order the directory lists them (fio's order on the
// same filesystem); then cut to nrfiles= where fio cuts it. Special files
// are then refused by the target checks, as any target is. The notes say
// when the list is not what one filename= says.
Status ResolveJobFiles(JobSpec* job) {
  namespace fs = std::filesystem;
  using K = FileListStep::Kind;
  std::vector<FileListStep> steps = job->file_list;
  if (!job->opendir.empty() && std::none_of(steps.begin(), steps.end(), [](const FileListStep& s) {
        return s.kind == K::kDir;
      })) {
    // A JobSpec made in code, with `opendir` alone: after its filenames.
    steps.clear();
    if (!job->filenames.empty()) steps.push_back({K::kNames, job->filenames});
    steps.push_back({K::kDir, {job->opendir}});
  }
  // "filename=a:b at j.fio:5", as the step's setting was written.
  const auto option_at = [&](const FileListStep& step) {
    const char* option = step.kind == K::kNames ? "filename"
                         : step.kind == K::kDir ? "opendir"
                                                : "nrfiles";
    if (step.setting < job->settings.size()) {
      const OptionSetting& s = job->settings[step.setting];
      return std::string(option) + "=" + s.value + " at " + s.Where();
    }
    std::string value = step.kind == K::kCount ? std::to_string(step.count) : "";
    for (const std::string& n : step.names) value += (value.empty() ? "" : ":") + n;
    return std::string(option) + "=" + value + " at " + SettingOf(*job, option).Where();
  };
  std::vector<std::vector<std::string>> dir_files;
  for (const FileListStep& step : steps) {
    if (step.kind != K::kDir) continue;
    const std::string& dir = step.names.front();
    const std::string who = "job '" + job->name + "': " + option_at(step);
    std::error_code ec;
    const fs::path root = fs::absolute(dir, ec);
    if (ec || !fs::is_directory(root, ec))
      return Status::Invalid(who + ": not a directory" + (ec ? ": " + ec.message() : ""));
    std::vector<std::string>& found = dir_files.emplace_back();
    // Walked as written, so the files are named as fio names them (`od/a` in
    // the report and write_iolog, not an absolute path).
    for (auto it = fs::recursive_directory_iterator(fs::path(dir), ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      // As fio's recurse_dir (lstat): regular files only. A symlink (to a
      // file below, read twice; to a directory; dangling), a FIFO, a socket
      // or a device node is skipped; the iterator does not follow directory
      // links either.
      if (!fs::is_regular_file(it->symlink_status(ec))) continue;
      // An empty file (a .gitkeep, a lock file) is listed too, as fio adds
      // it: it counts for nrfiles= (the first N in the directory's order),
      // and without size= the job skips it as a file too small for a
      // block (ResolveTargets). Dropping it here made nrfiles=2 take two
      // files further on (32 KiB read where fio reads 16).
      found.push_back(it->path().string());
    }
    if (ec) return Status::Invalid(who + ": " + ec.message());
    if (found.empty()) return Status::Invalid(who + ": no files below it");
  }
  const ResolvedFileList list = ResolveFileList(steps, &dir_files);
  if (!list.started) return Status::Ok();
  job->filenames = list.files;
  job->nrfiles = static_cast<uint32_t>(job->filenames.size());

  if (!job->read_iolog.empty()) return Status::Ok();
  // A second filename= does not replace the first, as it would any other
  // option: say which the job uses.
  std::vector<std::string> lists;
  for (const FileListStep& step : steps)
    if (step.kind != K::kCount) lists.push_back(option_at(step));
  if (lists.size() > 1) {
    std::string all;
    for (size_t i = 0; i < lists.size(); ++i)
      all += (i == 0 ? "" : i + 1 == lists.size() ? " and " : ", ") + lists[i];
    job->parse_notes.push_back("job '" + job->name + "' uses the files of " + all +
                               ", in that order (" +
                               std::to_string(list.files.size() + list.left_out.size()) +
                               " files): fio adds each filename= and opendir= to the job's "
                               "files, in [global] and in the job's section alike");
  }
  if (list.cut_by != nullptr) {
    const size_t listed = list.files.size() + list.left_out.size();
    std::string left;
    constexpr size_t kShown = 4;
    for (size_t i = 0; i < list.left_out.size() && i < kShown; ++i)
      left += (i == 0 ? "" : ", ") + list.left_out[i];
    if (list.left_out.size() > kShown)
      left += " and " + std::to_string(list.left_out.size() - kShown) + " more";
    job->parse_notes.push_back(
        "job '" + job->name + "' uses the first " + std::to_string(list.files.size()) + " of the " +
        std::to_string(listed) + " files listed, not " + left + ": " + option_at(*list.cut_by) +
        " came after filename= or opendir= had listed files, and fio 3.33 then uses only that "
        "many, plus one for each file listed after it");
  }
  return Status::Ok();
}

// A CPU list (sorted) against the machine, as fio checks it ("CPU 5 too
// large"): before the run rather than a bare EINVAL from the thread. A CPU
// past CPU_SETSIZE could not even be put in a set. `names`: the options
// that set the list; the message names the one that took effect.
Status CheckCpus(const JobSpec& job, const std::vector<int>& cpus,
                 std::initializer_list<const char*> names) {
  const int ncpu = sys::ConfiguredCpus();
  if (cpus.empty()) return Status::Ok();
  OptionSetting set = SettingOf(job, *names.begin());
  for (auto it = job.settings.rbegin(); it != job.settings.rend(); ++it)
    if (std::find(names.begin(), names.end(), it->name) != names.end()) {
      set = *it;
      break;
    }
  if (cpus.back() < ncpu) {
    // A cgroup cpuset (a container's, cset) may forbid CPUs the machine has.
    // For cpus_allowed/cpumask the clone's own sched_setaffinity then fails
    // EINVAL, and that job alone fails (err=22), as in fio 3.33
    // (Worker::ApplyScheduling names the CPUs). verify_async_cpus is asked
    // here, before the run: the verify threads start mid-run.
    if (set.name == "verify_async_cpus") {
      std::string bad = sys::ForbiddenCpus(cpus);
      if (!bad.empty())
        return Status::Invalid("job '" + job.name + "': " + SettingText(job, set.name) + ": " +
                               bad);
    }
    return Status::Ok();
  }
  return Status::Invalid("job '" + job.name + "': " + set.name + " (" + set.Where() +
                         ") names CPU " + std::to_string(cpus.back()) +
                         ", and this machine's CPUs are 0-" + std::to_string(ncpu - 1));
}

// cmdprio_bssplit excludes cmdprio_percentage (as in fio).
Status CheckCmdprioBsSplit(const JobSpec& job) {
  if (job.cmdprio_bssplit[0].empty() && job.cmdprio_bssplit[1].empty()) return Status::Ok();
  if (job.cmdprio_percentage[0] != 0 || job.cmdprio_percentage[1] != 0) {
    const OptionSetting bs = SettingOf(job, "cmdprio_bssplit");
    const OptionSetting perc = SettingOf(job, "cmdprio_percentage");
    return Status::Invalid("job '" + job.name + "': cmdprio_percentage (" + perc.Where() +
                           ") and cmdprio_bssplit (" + bs.Where() +
                           ") are mutually exclusive: give one of them");
  }
  return Status::Ok();
}

// zonemode: fio's own refusals, and the strided cases iobench leaves out.
Status CheckZoneMode(const JobSpec& job) {
  using ZM = JobSpec::ZoneMode;
  auto refuse = [&job](const char* option, const std::string& what, const std::string& why) {
    return Status::Invalid("job '" + job.name + "': " + what + " (" +
                           SettingOf(job, option).Where() + "): " + why);
  };
  if (job.zone_mode == ZM::kZbd)
    return refuse("zonemode", "zonemode=zbd", "zoned block devices are not supported by iobench");
  if (job.zone_mode == ZM::kNone) {
    if (job.zone_size != 0)  // as fio: "--zonemode=none and --zonesize are not compatible"
      return refuse("zonesize", "zonesize", "needs zonemode=strided (zonemode is none)");
    return Status::Ok();
  }
  const std::string strided = "zonemode=strided";
  auto named = [&job](const char* option) { return SettingText(job, option); };
  // First: a replay's rw= and filename= are the log's (PrepareReplayJob),
  // so the checks below would name options the user did not set.
  if (!job.read_iolog.empty())
    return refuse("zonemode", strided, "not with read_iolog: the log gives the offsets");
  if (job.zone_size == 0)
    return refuse("zonemode", strided,
                  job.FindSetting("zonesize") != nullptr
                      ? named("zonesize") + " must be above 0: it is the size of each zone"
                      : "needs zonesize (the size of each zone)");
  if (job.rw == RwMode::kReadWrite || job.rw == RwMode::kRandRW || job.rw == RwMode::kTrimWrite ||
      job.rw == RwMode::kRandTrimWrite)
    return refuse("zonemode", strided,
                  named("rw") +
                      " mixes directions, which is not supported with it (one direction per "
                      "job)");
  if (job.nrfiles > 1 || job.filenames.size() > 1 || !job.opendir.empty()) {
    const char* many = job.filenames.size() > 1 ? "filename"
                       : !job.opendir.empty()   ? "opendir"
                                                : "nrfiles";
    return refuse(
        "zonemode", strided,
        named(many) + " gives the job more than one file, which is not supported with it");
  }
  if (job.verify.type != VerifyType::kNone)
    return refuse("zonemode", strided,
                  "verify (" + SettingOf(job, "verify").Where() + ") is not supported with it");
  return Status::Ok();
}

Status ValidateJob(const JobSpec& job, const RunOptions& opts) {
  if (!job.unimplemented.empty()) {
    const OptionSetting& s = job.unimplemented.front();
    return Status::Invalid(
        "option '" + s.name + "' (" + s.Where() +
        ") is not implemented yet in iobench: the job is refused, not run without it");
  }
  // Options the parser types but the run core does not do yet: refuse them
  // rather than run something else than what was asked.
  if (job.fill_device && job.rw != RwMode::kWrite && job.rw != RwMode::kRandWrite) {
    // fio fills the filesystem with a layout first and then reads.
    return Status::Invalid("job '" + job.name + "': fill_device=1 (" +
                           SettingOf(job, "fill_device").Where() +
                           ") needs rw=write or randwrite in iobench: fill the file with such a "
                           "job first (stonewall), then read it");
  }
  // pre_read fills the page cache through a buffered descriptor; O_DIRECT
  // I/O bypasses that cache, so the job would measure the same without it,
  // and nothing would say so. fio 3.33 fails such a job (err=5,
  // func=pre_read): refuse it before anything runs, naming both options.
  if (job.pre_read && job.direct && !opts.engine_factory && !DisklessEngine(job.ioengine)) {
    // buffered=0 is how some job files say direct=1: name what the job said.
    const bool by_buffered =
        job.FindSetting("direct") == nullptr && job.FindSetting("buffered") != nullptr;
    return Status::Invalid(
        "job '" + job.name + "': pre_read=1 (" + SettingOf(job, "pre_read").Where() + ") with " +
        (by_buffered ? "buffered=0 (" : "direct=1 (") +
        SettingOf(job, by_buffered ? "buffered" : "direct").Where() +
        "): pre_read reads the files into the page cache, which O_DIRECT I/O bypasses, so it "
        "would buy nothing (fio 3.33 fails such a job: err=5, func=pre_read); drop pre_read=1, "
        "or direct=1 to measure cached I/O");
  }
  IOB_RETURN_IF_ERROR(CheckOpenFiles(
      job, job.filenames.empty() ? std::max<uint32_t>(1, job.nrfiles) : job.filenames.size()));
  IOB_RETURN_IF_ERROR(CheckZoneMode(job));
  IOB_RETURN_IF_ERROR(CheckCmdprioBsSplit(job));
  if (job.thinktime_ns != 0 && job.thinktime_spin_ns > job.thinktime_ns) {
    // The spin is the first part of the think time; fio 3.33 hangs on such a job.
    const OptionSetting spin = SettingOf(job, "thinktime_spin");
    const OptionSetting think = SettingOf(job, "thinktime");
    return Status::Invalid("job '" + job.name + "': thinktime_spin=" + spin.value + " (" +
                           spin.Where() + ") is longer than thinktime=" + think.value + " (" +
                           think.Where() + "): the spin is part of the think time");
  }
  if (job.dedupe_percentage != 0 && job.dedupe_working_set &&
      job.dedupe_percentage + job.dedupe_working_set_percentage > 100) {
    // The working set's blocks are unique: with them written, at most
    // 100 - working set percent of the data can repeat them. fio 3.33
    // refuses the same (its fixup_options).
    const OptionSetting dedupe = SettingOf(job, "dedupe_percentage");
    const OptionSetting ws = SettingOf(job, "dedupe_working_set_percentage");
    return Status::Invalid(
        "job '" + job.name + "': dedupe_percentage=" + std::to_string(job.dedupe_percentage) +
        " (" + dedupe.Where() + ") cannot be reached with dedupe_mode=working_set (" +
        SettingOf(job, "dedupe_mode").Where() + "): dedupe_working_set_percentage=" +
        std::to_string(job.dedupe_working_set_percentage) + " (" +
        (job.FindSetting("dedupe_working_set_percentage") != nullptr ? ws.Where() : "default") +
        ") of size are the working set's unique blocks, so the two may add up to 100 at most");
  }
  // verify_only makes the job a reader (JobWrites): its target is opened
  // read-only and skips the mounted-device and --readonly checks. A
  // trim-only job has no writes to replay as verify reads, so it issued
  // its trims, which failed (EBADF). fio trims there, or refuses under
  // --readonly: refuse it up front. trimwrite verifies its writes.
  if (job.verify.VerifyOnly() && HasTrim(job.rw) && !HasWrite(job.rw))
    return Status::Invalid(
        "job '" + job.name + "': verify_only=1 (" + SettingOf(job, "verify_only").Where() +
        ") with rw=" + RwModeName(job.rw) + " (" + SettingOf(job, "rw").Where() +
        "): verify_only reads back what the job's writes wrote, and this job only trims, so it "
        "would trim the data it was to check: give the rw of the job that wrote the data "
        "(trimwrite and randtrimwrite verify their writes and trim nothing), or drop "
        "verify_only=1 to trim");
  IOB_RETURN_IF_ERROR(Verifier::CheckOptions(job).WithContext("job '" + job.name + "'"));
  IOB_RETURN_IF_ERROR(CheckCpus(job, job.cpus_allowed, {"cpus_allowed", "cpumask"}));
  IOB_RETURN_IF_ERROR(CheckCpus(job, job.verify.async_cpus, {"verify_async_cpus"}));
  if (job.ss_dur_s == 1 && (job.ss_mode == JobSpec::SteadyStateMode::kIopsSlope ||
                            job.ss_mode == JobSpec::SteadyStateMode::kBwSlope)) {
    // fio computes 0/0 here and prints "nan" (JSON that does not parse).
    return Status::Invalid(
        "job '" + job.name + "': steadystate_duration=1s (" +
        SettingOf(job, "steadystate_duration").Where() +
        ") gives one sample per window, and a slope criterion (steadystate=" +
        (job.ss_mode == JobSpec::SteadyStateMode::kIopsSlope ? "iops_slope" : "bw_slope") +
        ") needs at least 2 samples: give steadystate_duration=2 or more");
  }
  if (job.log_alternate_epoch) {  // fio would log garbage times for a clock the kernel lacks
    timespec ts{};
    if (clock_gettime(static_cast<clockid_t>(job.log_alternate_epoch_clock_id), &ts) != 0)
      return Status::Invalid(
          "job '" + job.name +
          "': log_alternate_epoch_clock_id=" + std::to_string(job.log_alternate_epoch_clock_id) +
          " (" + SettingOf(job, "log_alternate_epoch_clock_id").Where() +
          ") is not a clock this kernel has (clock_gettime: " + std::strerror(errno) + ")");
  }
  if (job.sync_file_range_blocks != 0 && (job.fsync_blocks != 0 || job.fdatasync_blocks != 0)) {
    const char* other = job.fsync_blocks != 0 ? "fsync" : "fdatasync";
    return Status::Unsupported("job '" + job.name + "': sync_file_range (" +
                               SettingOf(job, "sync_file_range").Where() + ") with " + other +
                               " (" + SettingOf(job, other).Where() +
                               ") is not supported: give one way to sync");
  }
  if (job.unlink_each_loop && job.loops > 1 && !job.time_based) {
    // The files are replaced between loops: a verify of earlier loops' data
    // would read the removed ones. (Engines follow the new files:
    // Engine::FileReopened.)
    if (job.verify.type != VerifyType::kNone)
      return Status::Unsupported("job '" + job.name + "': unlink_each_loop (" +
                                 SettingOf(job, "unlink_each_loop").Where() + ") with verify (" +
                                 SettingOf(job, "verify").Where() +
                                 ") is not supported: each loop's files are removed and created "
                                 "again");
  }
  // The same refusal as the full check before I/O (which only runs without
  // an engine factory): it names the option and where the job sets it.
  if (opts.readonly) IOB_RETURN_IF_ERROR(sys::CheckReadonlyOptions(job));
  if (!opts.engine_factory) {
    const EngineInfo* info = FindEngine(job.ioengine);
    if (info == nullptr)
      return Status::Invalid("job '" + job.name + "': ioengine=" + job.ioengine +
                             " is not a known engine (see --enghelp)");
    if (info->factory == nullptr) {  // listed for its options, not runnable (io_uring_cmd)
      const Status why = info->probe != nullptr ? info->probe() : Status::Ok();
      return Status::Unsupported("job '" + job.name + "': ioengine=" + job.ioengine + " (" +
                                 SettingOf(job, "ioengine").Where() + "): " +
                                 (why.ok() ? "not available in this build" : why.message()));
    }
    if (info->probe != nullptr) {
      Status st = info->probe();
      if (!st.ok()) return st.WithContext("job '" + job.name + "': ioengine=" + job.ioengine);
    }
  }
  return Status::Ok();
}

// Lays out the paths that need it, up to `threads` at a time (untimed, before the run).
// `notes[i]`: what LayOutFile said about work[i] ("" mostly).
Status LayOutAll(const std::vector<std::pair<const JobSpec*, TargetFile>>& work,
                 std::vector<uint64_t>* bytes, std::vector<std::string>* notes,
                 const std::atomic<int>* stop, unsigned threads,
                 std::vector<Status>* each = nullptr) {
  bytes->assign(work.size(), 0);
  notes->assign(work.size(), std::string());
  std::vector<Status> own;
  std::vector<Status>& status = each != nullptr ? *each : own;
  status.assign(work.size(), Status());
  if (work.empty()) return Status::Ok();
  std::atomic<size_t> next{0};
  const unsigned hw = std::max(2u, std::thread::hardware_concurrency());
  const size_t nthreads = std::min<size_t>(work.size(), std::min(hw, threads));
  auto body = [&] {
    for (size_t i = next++; i < work.size(); i = next++) {
      try {  // no exception leaves a thread
        Result<uint64_t> r = LayOutFile(*work[i].first, work[i].second, stop, &(*notes)[i]);
        if (r.ok())
          (*bytes)[i] = *r;
        else
          status[i] = r.status();
      } catch (const std::bad_alloc&) {
        status[i] = sys::OutOfMemory("job '" + work[i].first->name + "': laying out " +
                                     work[i].second.path);
      }
    }
  };
  std::vector<std::thread> pool;
  for (size_t i = 1; i < nthreads; ++i) pool.emplace_back(body);
  body();
  for (auto& t : pool) t.join();
  for (auto& st : status)  // an interruption is not the error to show
    if (!st.ok() && st.code() != Status::Code::kInterrupted) return st;
  for (auto& st : status) IOB_RETURN_IF_ERROR(st);
  return Status::Ok();
}

// A hung device must not hang the tool. A clone is stuck when it was told to
// stop (a signal, exitall: stop_grace after that; its runtime: runtime_grace
// after its runtime, ramp and start delay are over) and no I/O of it has
// completed for that grace period. Only progress counts, not time: a slow
// device that still completes I/O is never called stuck. Nor is time the
// whole process was stopped (Ctrl-Z, SIGSTOP, a frozen cgroup): neither
// clock stops with it, and a worker whose pread was pending when it stopped
// has completed nothing when the watch loop runs first on resume (1 s of
// runtime, stopped for 42 s: every result was lost). Main thread only.
class Watchdog {
 public:
  Watchdog(PhaseShared& sh, const RunOptions& opts, uint64_t start_ns)
      : sh_(sh),
        opts_(opts),
        last_(sh.clones.size()),
        since_(sh.clones.size(), start_ns),
        told_(sh.clones.size()),
        why_(sh.clones.size(), "") {
    for (const auto& c : sh.clones) {
      // Each clone's deadline counts from its own start (LiveCounters::
      // start_ns, stored when Run() begins, after its startdelay): a job
      // let go late by wait_for, or whose exec_prerun or pre_read (after
      // the prerun) took long, has its whole runtime still ahead of it.
      runtime_end_.push_back(kPending);
      sync_.push_back(c.worker->engine_is_sync());  // read once, not while workers run
    }
  }

  Status Check(uint64_t now) {
    // The watch loop calls this every ~20 ms (a snapshot waits 250 ms at
    // most). A gap of more than kPauseNs means the process did not run:
    // stopped, frozen or starved, it could not see the I/O complete either,
    // so every grace restarts from now. A signal's SIGCONT would miss a
    // frozen cgroup or a tracer's stop; the gap sees them all. (A loop held
    // up for a second at every tick, e.g. by a stdout nobody reads, would
    // put the give-up off too; such a loop cannot watch anything anyway.)
    if (last_check_ns_ != 0 && now - last_check_ns_ > kPauseNs)
      std::fill(since_.begin(), since_.end(), now);
    last_check_ns_ = now;
    std::string report;
    size_t stuck = 0;
    size_t not_io = 0;  // stuck clones not waiting on the device
    for (size_t i = 0; i < sh_.clones.size(); ++i) {
      if (sh_.finished[i].load()) continue;
      // When the clone's stop flag (its phase's or its group's) was first seen.
      if (told_[i] == 0) {
        const int stop = sh_.clones[i].stop->load();
        if (stop != kStopNone) {
          told_[i] = now;
          why_[i] = stop == kStopExitall ? "after exitall" : "after the stop signal";
        }
      }
      Worker& mw = *sh_.clones[i].worker;
      // Not started: waiting for its wait_for job, in its exec_prerun or
      // pre_read (no I/O counter moves there), or its startdelay. No
      // runtime to outlast yet; only a stop it does not answer counts.
      const bool started = mw.live().start_ns.load(std::memory_order_relaxed) != 0;
      if (!started && told_[i] == 0) continue;
      if (runtime_end_[i] == kPending && started)
        runtime_end_[i] = RuntimeEnd(sh_.jobs[sh_.clones[i].job],
                                     mw.live().start_ns.load(std::memory_order_relaxed));
      // A job sleeping on purpose (thinktime, a rate wait, startdelay) is not
      // stuck; its grace starts again when it wakes. fio finishes the pause.
      if (mw.pausing()) {
        since_[i] = now;
        continue;
      }
      uint64_t progress = mw.in_flight();
      for (int d = 0; d < kNumDdirs; ++d)
        progress += mw.live().ios[d].load(std::memory_order_relaxed) +
                    mw.live().bytes[d].load(std::memory_order_relaxed);
      if (progress != last_[i]) {
        last_[i] = progress;
        since_[i] = now;
      }
      const char state = static_cast<char>(mw.live().state.load(std::memory_order_relaxed));
      uint64_t grace = 0;
      uint64_t told = 0;  // when the clone was told to stop
      const char* why = "";
      if (told_[i] != 0 && opts_.stop_grace_ms != 0) {
        told = told_[i];
        grace = opts_.stop_grace_ms * 1000000ull;
        why = why_[i];
      } else if (runtime_end_[i] != 0 && runtime_end_[i] != kPending && now > runtime_end_[i] &&
                 state != 'F') {
        // end_fsync ('F') after the runtime may legitimately take long.
        told = runtime_end_[i];
        grace = opts_.runtime_grace_ms * 1000000ull;
        why = "after its runtime ended";
      }
      if (grace == 0 || now < told + grace || now < since_[i] + grace) continue;
      const JobSpec& j = sh_.jobs[sh_.clones[i].job];
      ++stuck;
      report += "; job '" + j.name + "'";
      if (j.numjobs > 1) report += " (clone " + std::to_string(sh_.clones[i].jobnum) + ")";
      report += " (ioengine=" + j.ioengine;
      for (const auto& t : sh_.clones[i].targets)
        if (!t.diskless) {
          report += ", " + t.path;
          break;
        }
      report += "): ";
      if (state == job_state::kPreReading)
        report += "stuck in its pre_read";
      else if (!started) {
        report += "stuck before its I/O (its exec_prerun)";
        ++not_io;
      } else if (state == '_')
        report += "stuck closing its files";
      else if (state == 'F')
        report += "stuck in its final fsync";
      else if (sync_[i])
        report += "1 I/O in flight, inside a synchronous engine call";
      else if (mw.in_flight() == 0) {  // past its I/O, or held up in user space (a log's disk)
        report += "no I/O in flight, but not finished";
        ++not_io;
      } else
        report += std::to_string(mw.in_flight()) + " I/O(s) in flight";
      // Tenths of a second; below 0.1 s in ms (--stuck-timeout=10ms said "0.0 s").
      report += ", none completed in the last " +
                (grace < 100000000ull
                     ? std::to_string(grace / 1000000ull) + " ms"
                     : std::to_string(grace / 1000000000ull) +
                           (grace % 1000000000ull
                                ? "." + std::to_string(grace % 1000000000ull / 100000000ull)
                                : std::string()) +
                           " s") +
                ", " + why;
    }
    if (stuck == 0) return Status::Ok();
    // The device only when some clone waits on it: a prerun that ignores
    // the stop, or a clone held up with nothing in flight, is no device's.
    return Status(Status::Code::kIoError,
                  std::string(not_io == stuck ? "a job does not finish"
                                              : "the device does not complete I/O") +
                      ": giving up" + report +
                      " (the job's thread is left behind; its results are lost)",
                  ETIMEDOUT);
  }

 private:
  PhaseShared& sh_;
  const RunOptions& opts_;
  std::vector<uint64_t> last_;
  std::vector<uint64_t> since_;
  std::vector<uint64_t> runtime_end_;
  std::vector<bool> sync_;
  std::vector<uint64_t> told_;  // per clone: when its stop flag was first seen set (0: not yet)
  std::vector<const char*> why_;
  uint64_t last_check_ns_ = 0;
  static constexpr uint64_t kPending = UINT64_MAX;
  static constexpr uint64_t kPauseNs = 1000ull * 1000 * 1000;

  // When a clone started at `start_ns` should be done (0: no runtime bound).
  uint64_t RuntimeEnd(const JobSpec& j, uint64_t start_ns) const {
    if (j.runtime_ns == 0 || opts_.runtime_grace_ms == 0) return 0;
    return start_ns + RampAndRuntimeNs(j);
  }
};

// Appends the clones of `which` jobs with no I/O: jobs of phases that have
// not run (yet). fio lists them so in its JSON and terse records, in the
// final report after a signal or exit_what=all, and in interim reports.
// `interrupted`: a signal stopped them before they ran (their phase was
// being set up), as against a later phase that never started.
void AppendUnrunJobs(const std::vector<JobSpec>& jobs, const std::vector<int>& groupids,
                     const std::vector<size_t>& which, RunResult* result,
                     bool interrupted = false) {
  for (size_t i : which) {
    auto g = std::find_if(result->groups.begin(), result->groups.end(),
                          [&](const GroupResult& gr) { return gr.id == groupids[i]; });
    for (uint32_t n = 0; n < std::max<uint32_t>(jobs[i].numjobs, 1); ++n) {
      JobResult j;
      j.name = jobs[i].name;
      j.groupid = groupids[i];
      j.jobnum = static_cast<int>(n);
      j.spec = jobs[i];
      j.interrupted = interrupted;
      g->jobs.push_back(std::move(j));
    }
  }
}

// The err= of a job that could not start: the errno of the failure, else
// EINVAL for a refusal of the job's input (a replayed log found malformed
// when its phase starts), as fio gives it, and EIO for the rest.
int PhaseErrno(const Status& st) {
  return st.errno_value() != 0                         ? st.errno_value()
         : st.code() == Status::Code::kInvalidArgument ? EINVAL
                                                       : EIO;
}

// Puts a phase's setup error on the job its message names ("job 'b': ...",
// "job 'b' (rec.fio:15): ..."),
// else on the phase's first job: the jobs appended to each group of `result`
// after its first `before[g]`.
void MarkPhaseError(const Status& st, const std::vector<size_t>& before, RunResult* result) {
  const std::string& message = st.message();
  JobResult* first = nullptr;
  JobResult* named = nullptr;
  for (size_t g = 0; g < result->groups.size(); ++g) {
    auto& jobs = result->groups[g].jobs;
    for (size_t i = g < before.size() ? before[g] : 0; i < jobs.size(); ++i) {
      if (first == nullptr) first = &jobs[i];
      if (named == nullptr && sys::WithoutJobName(jobs[i].name, message) != message)
        named = &jobs[i];
    }
  }
  JobResult* target = named != nullptr ? named : first;
  if (target == nullptr) return;
  target->error = PhaseErrno(st);
  // The report and stderr name the job already.
  target->error_message = named != nullptr ? sys::WithoutJobName(named->name, message) : message;
  // The phase's other jobs did not run either: say so, or a script reads
  // error 0 and no I/O as a clean run that did nothing.
  // The job only when the message named it: else the error went on the
  // phase's first job, and naming it would blame a job that did nothing.
  const std::string why = "did not run: its phase could not start (" +
                          (named != nullptr ? "job '" + target->name + "': " : std::string()) +
                          target->error_message + ")";
  for (size_t g = 0; g < result->groups.size(); ++g) {
    auto& jobs = result->groups[g].jobs;
    for (size_t i = g < before.size() ? before[g] : 0; i < jobs.size(); ++i)
      if (&jobs[i] != target) jobs[i].notes.push_back(why);
  }
}

// A system call's failure while one job is set up (its file's stat, the
// layout of its file, an open in the worker's set-up: an errno) fails that
// job alone, as in fio: err=errno, no I/O, listed in the report, and the
// other jobs of its phase run (the run exits 1). A refusal (IsRefusal: bad
// input, a safety check, a limit, and EACCES, EPERM, EROFS, which the user
// must fix before any number means anything) refuses the whole run before
// it starts instead (exit 2, no report, nothing left behind), as before.
bool FailsJobAlone(const Status& st) {
  return st.code() == Status::Code::kIoError && st.errno_value() != 0 && !IsRefusal(st);
}

// A clone whose Setup() failed it alone: a failure FailsJobAlone, or one
// applying its scheduling (nice, prio/prioclass, cpus_allowed: EPERM too,
// which fio reports on the job and which would otherwise refuse the run).
bool SetupFailsAlone(const Clone& c) {
  return FailsJobAlone(c.setup) ||
         (!c.setup.ok() && c.worker != nullptr && c.worker->scheduling_failed());
}

using sys::FilesOptionAt;

// The report's entry for a clone of a job that failed alone in its set-up.
JobResult FailedJobResult(const JobSpec& job, int jobnum, int groupid, const Status& st) {
  JobResult j;
  j.name = job.name;
  j.groupid = groupid;
  j.jobnum = jobnum;
  j.spec = job;
  j.error = st.errno_value();
  j.error_message = sys::WithoutJobName(job.name, st.message());
  return j;
}

class PhaseRunner {
 public:
  PhaseRunner(const std::vector<JobSpec>& jobs, const RunOptions& opts, RunResult* result)
      : jobs_(jobs), opts_(opts), result_(result) {}

  // --- issue 8: logs and interim reports, across the phases of one run ---
  void SetLogs(LogWriter* writer, AggregateBwLog* agg, uint64_t run_start_ns) {
    log_writer_ = writer;
    agg_ = agg;
    run_start_ns_ = run_start_ns;
    next_interim_ns_ = run_start_ns + opts_.status_interval_ns;
  }
  // The jobs of the phases after the one about to run: interim reports list
  // them with no I/O.
  // Job `job` fails alone when its phase starts, each clone with
  // PhaseErrno(st): a replayed log found malformed then, which an earlier
  // phase wrote. The phase's other jobs run, as in fio, where each job
  // reads its own log.
  void FailJob(size_t job, const Status& st) {
    failed_jobs_[job] = Status(st.code(), st.message(), PhaseErrno(st));
  }
  std::map<size_t, Status> failed_jobs_;

  // cpuio's exit_on_io_done, as fio 3.33 decides it: once every job of the
  // run with another engine has ended (a later phase's are still to run),
  // the cpuio jobs that have it end as at the end of their runtime; a run
  // of cpuio jobs only has no I/O to end, and they run on. True once they
  // were told (the phase's loop asks every ~20 ms and at each job's end).
  bool StopCpuioAfterIo(PhaseShared& sh) const {
    const auto io_job = [](const JobSpec& j) { return j.ioengine != "cpuio"; };
    if (std::none_of(jobs_.begin(), jobs_.end(), io_job)) return true;
    for (size_t j : later_jobs_)
      if (io_job(jobs_[j])) return true;  // never in this phase
    for (size_t ci = 0; ci < sh.clones.size(); ++ci)
      if (io_job(sh.jobs[sh.clones[ci].job]) && !sh.finished[ci].load()) return false;
    for (const Clone& c : sh.clones)
      if (!io_job(sh.jobs[c.job]) && sh.jobs[c.job].exit_on_io_done && c.worker != nullptr)
        c.worker->StopSteadyState();
    return true;
  }

  void SetLaterJobs(std::vector<size_t> later, const std::vector<int>* groupids) {
    later_jobs_ = std::move(later);
    later_groupids_ = groupids;
  }
  void FinishAggregate(uint64_t now) {
    if (agg_ != nullptr) agg_->Finish(now - run_start_ns_, done_bytes_);
  }

  // Returns false in *interrupted when a stop signal arrived.
  Status Run(const Phase& phase, const std::vector<int>& groupids, bool* interrupted) {
    ++phases_started_;
    auto sh = std::make_shared<PhaseShared>();
    sh->jobs = jobs_;
    for (const JobSpec& j : jobs_) sh->exitall_any = sh->exitall_any || j.exitall;
    std::vector<Clone>& clones = sh->clones;
    WorkerControl& ctl = sh->ctl;
    IOB_RETURN_IF_ERROR(Prepare(phase, groupids, &clones));
    if (clones.empty()) {  // every job of the phase failed alone
      AppendFailedJobs();
      return Status::Ok();
    }
    ctl.log_writer = log_writer_;  // issue 8: workers open their log files in Setup()
    const size_t logs_before = log_writer_ != nullptr ? log_writer_->FileCount() : 0;
    for (auto& c : clones) {  // flow=: each running job's weight joins its flow_id's
      const JobSpec& job = sh->jobs[c.job];
      if (job.flow != 0)
        sh->flows[job.flow_id].weight += static_cast<uint64_t>(job.flow < 0 ? -job.flow : job.flow);
    }
    if (!sh->flows.empty()) ctl.flows = &sh->flows;
    ctl.signal = opts_.stop_signal;
    ctl.interval_reports = opts_.interval_reports;
    sh->finished = std::make_unique<std::atomic<bool>[]>(clones.size());
    sh->job_left = std::make_unique<std::atomic<int>[]>(sh->jobs.size());
    for (auto& c : clones) sh->job_left[c.job].fetch_add(1);
    ctl.setup_left.store(static_cast<int>(clones.size()));
    ctl.running.store(static_cast<int>(clones.size()));
    for (auto& c : clones) c.stop = &sh->clone_stop.emplace_back(kStopNone);
    for (auto& c : clones) {
      const JobSpec& job = sh->jobs[c.job];
      std::unique_ptr<Engine> engine =
          opts_.engine_factory ? opts_.engine_factory(job) : FindEngine(job.ioengine)->factory();
      if (engine == nullptr)
        return Status::Internal("job '" + job.name + "': ioengine=" + job.ioengine +
                                ": the engine factory returned nothing");
      c.worker = std::make_unique<Worker>(job, c.jobnum, next_worker_index_++, c.groupid, c.targets,
                                          std::move(engine), &ctl);
      c.worker->SetStopFlag(c.stop);
      c.worker->SetHeldBack(!c.waits.empty());
      for (auto& n : c.notes) c.worker->AddNote(std::move(n));
      c.worker->result().layout_tally = c.layout;
    }
    // One thread per clone; they set up in parallel, then wait for the go.
    std::vector<std::thread> threads;
    threads.reserve(clones.size());
    for (size_t ci = 0; ci < clones.size(); ++ci) {
      auto body = [sh, ci] {
        Clone* cp = &sh->clones[ci];
        WorkerControl& ctl = sh->ctl;
        try {
          cp->setup = cp->worker->Setup();
        } catch (const std::bad_alloc&) {  // no exception leaves the thread
          cp->setup = sys::OutOfMemory("job '" + cp->worker->result().name +
                                       "': its setup could not allocate memory (std::bad_alloc)");
        } catch (const std::exception& e) {
          cp->setup = Status::Limit("job '" + cp->worker->result().name + "': setup: " + e.what());
        }
        if (ctl.setup_left.fetch_sub(1) == 1) ctl.setup_left.notify_all();
        int go;
        while ((go = ctl.go.load()) == 0) ctl.go.wait(0);
        if (go == 1 && !cp->waits.empty()) go = WaitForJobs(*sh, cp->waits, *cp->stop) ? 1 : 2;
        // No exception leaves the thread (std::terminate lost the report):
        // a try costs nothing per I/O.
        if (go == 1 && cp->setup.ok()) {
          try {
            cp->worker->ExecPrerun();  // a failure makes Run() do no I/O and report it
            cp->worker->Run();
            cp->worker->ExecPostrun();
          } catch (const std::exception& e) {
            cp->worker->FailOnException(e, "run");
          }
        }
        try {
          cp->worker->Teardown();
        } catch (const std::exception& e) {
          cp->worker->FailOnException(e, "teardown");
        }
        const JobSpec& job = sh->jobs[cp->job];
        // exitall_on_error counts a set-up that failed the job alone (its
        // open: O_DIRECT on ramfs, EINVAL) as fio does: the error is in
        // cp->setup, and Run() never put one in the result. A layout that
        // failed in Prepare() stops nothing, as in fio 3.33 (ENOSPC). Nor
        // does a failed exec_prerun: fio runs the job with no I/O and no
        // error, so its exitall_on_error stops nothing (iobench reports the
        // failure as the job's error, ECANCELED, and runs the others on).
        const bool failed =
            !cp->setup.ok() || (cp->worker->result().error != 0 && !cp->worker->prerun_failed());
        if (go == 1 && (sh->exitall_any || (job.exitall_on_error && failed))) {
          if (job.exit_what == JobSpec::ExitWhat::kGroup) {
            // Its reporting group only (the phase when that is the group).
            for (Clone& c : sh->clones) {
              int none = kStopNone;
              if (c.groupid == cp->groupid) c.stop->compare_exchange_strong(none, kStopExitall);
            }
          } else {
            StopPhase(*sh, kStopExitall, job.exit_what == JobSpec::ExitWhat::kStonewall);
          }
          if (job.exit_what == JobSpec::ExitWhat::kAll) sh->exit_all.store(true);
        }
        sh->job_left[cp->job].fetch_sub(1);
        sh->finished[ci].store(true);
        std::lock_guard<std::mutex> lock(sh->mu);
        ctl.running.fetch_sub(1);
        sh->cv.notify_all();
      };
      try {
        threads.emplace_back(body);
      } catch (const std::system_error& e) {
        // Out of threads: release the ones that exist and report.
        ctl.go.store(-1);
        ctl.go.notify_all();
        for (auto& t : threads) t.join();
        // Name the job and its numjobs= (65536 clones said only "thread
        // 32406 of 65536"), and where the limit is: the kernel's, the
        // cgroup's, or RLIMIT_NPROC, which the check before the run compares
        // with this run's threads only (the user's other processes count
        // against it too).
        const Clone& c = clones[threads.size()];
        const JobSpec& job = sh->jobs[c.job];
        std::string who = "job '" + job.name + "'";
        if (job.numjobs > 1)
          who += ", clone " + std::to_string(c.jobnum) + " of " +
                 sys::OptionAt(job, "numjobs", std::to_string(job.numjobs));
        const bool eagain = e.code() == std::errc::resource_unavailable_try_again;
        const std::string as = sys::ThreadAddressSpaceHint();
        UnlinkFiles(clones);
        return Status::Limit(
            "cannot start worker thread " + std::to_string(threads.size() + 1) + " of " +
            std::to_string(clones.size()) + " (" + who + "): " + e.what() +
            (eagain ? "; each clone is a thread, and the system allows fewer (ulimit -u, which "
                      "counts the user's other processes and threads too; kernel.threads-max; "
                      "the cgroup's pids.max; vm.max_map_count, two memory maps per thread; "
                      "memory for the threads' stacks" +
                          (as.empty() ? std::string() : "; " + as) + ")"
             : as.empty() ? std::string()
                          : " (" + as + ")"));
      }
    }
    for (int left = ctl.setup_left.load(); left != 0; left = ctl.setup_left.load())
      ctl.setup_left.wait(left);
    Status setup_error;
    for (auto& c : clones)  // a set-up a signal cut short (pre_read) is no error
      if (!c.setup.ok() && c.setup.code() != Status::Code::kInterrupted && !SetupFailsAlone(c) &&
          setup_error.ok())
        setup_error = c.setup;
    const bool signalled = opts_.stop_signal != nullptr && opts_.stop_signal->load() != 0;
    if (!setup_error.ok() || signalled) {
      ctl.go.store(-1);
      ctl.go.notify_all();
      for (auto& t : threads) t.join();
      // unlink=1 holds when the job never got to run, too: the files were
      // laid out for it.
      UnlinkFiles(clones);
      // A refused setup (exit 2) leaves nothing behind: the files and log
      // files this phase made go, the files it extended get their old size.
      if (!setup_error.ok()) {
        if (log_writer_ != nullptr) log_writer_->RemoveCreatedSince(logs_before);
        UndoLayout();
      }
      *interrupted = signalled && setup_error.ok();
      if (*interrupted) cut_short_ = true;  // the phase's jobs never ran
      return setup_error;
    }

    std::vector<std::string> paths, disk_paths;  // disk_paths: of jobs with disk_util=1
    // Of the jobs' files (holes, extents; the buffered jobs': page cache)
    // and devices (what the buffered jobs used).
    sys::TargetRegions regions;
    std::vector<const LiveCounters*> live;
    std::vector<const JobSpec*> specs;
    for (auto& c : clones) {
      live.push_back(&c.worker->live());
      specs.push_back(&jobs_[c.job]);
      for (const auto& t : c.targets) {
        if (t.diskless) continue;
        paths.push_back(t.path);
        if (t.regular_file() || t.is_block_device) {
          auto& r = regions[t.path];  // listed even when empty: nothing to measure
          if (t.region_size != 0) {
            r.all.emplace_back(t.region_offset, t.region_size);
            const JobSpec& j = jobs_[c.job];  // a trim does not use the page cache
            if (!j.direct && (HasRead(j.rw) || HasWrite(j.rw)))
              r.buffered.emplace_back(t.region_offset, t.region_size);
          }
        }
        if (jobs_[c.job].disk_util) disk_paths.push_back(t.path);
      }
    }
    // Each path once, in the jobs' order, as the Disk stats list the disks
    // (sorted, /dev/loop10 came before /dev/loop7).
    {
      std::set<std::string> seen;
      std::erase_if(paths, [&](const std::string& p) { return !seen.insert(p).second; });
    }
    // invalidate=1 that could not drop a device's cache: the numbers would
    // be cache hits, which the user must know before reading them.
    std::map<std::string, std::string> cache_kept;
    for (auto& c : clones)
      for (const auto& [path, why] : c.worker->cache_kept())
        if (cache_kept.emplace(path, why).second)
          std::fprintf(
              stderr,
              "iobench: warning: job '%s': invalidate=1: the page cache of %s was NOT "
              "dropped (%s): its reads may be served from memory, not the device; run with "
              "CAP_SYS_ADMIN or use direct=1\n",
              jobs_[c.job].name.c_str(), path.c_str(), why.c_str());
    // direct=1 off the file's direct I/O alignment: btrfs serves it through
    // the page cache without an error (files are laid out by now). Trims
    // off a file's blocks free less than they count, or nothing.
    // uncached=1 writes that stay cached are only seen after the phase.
    // Also in the report (the context's warnings), so that pasted results
    // say the numbers are the page cache's.
    std::set<std::pair<size_t, std::string>> misaligned;
    std::vector<std::string> misaligned_warnings;
    std::vector<std::pair<const JobSpec*, const TargetFile*>> uses;
    for (const auto& c : clones)
      for (const auto& t : c.targets) {
        uses.emplace_back(&jobs_[c.job], &t);
        if (!opts_.engine_factory && misaligned.emplace(c.job, t.path).second)
          for (std::string w : {DirectAlignmentWarning(jobs_[c.job], t, c.targets.size()),
                                FileTrimWarning(jobs_[c.job], t, c.targets.size())})
            if (!w.empty()) {
              std::fprintf(stderr, "iobench: warning: %s\n", w.c_str());
              misaligned_warnings.push_back(std::move(w));
            }
      }
    UncachedWriteCheck uncached;
    if (!opts_.engine_factory) uncached.Before(uses);
    CollectPhaseContext(phase, clones, paths, regions, cache_kept);
    for (std::string& w : misaligned_warnings)
      sys::AddContextWarning(&result_->context, std::move(w));
    if (opts_.on_context) opts_.on_context(result_->context);
    if (opts_.on_phase_start) opts_.on_phase_start(specs);
    // Disk stats list the disks in the jobs' order (fio's disk list is in
    // the order the files were added); DisksForTargets drops repeats.
    DiskUtilTracker disk_util(DisksForTargets(disk_paths));
    disk_util.Start();
    phase_disks_ = &disk_util;  // interim reports read it (Snapshot)
    // Helper threads only exist for the async engines; skip the sampler
    // thread otherwise (it reads /proc/self/task every 100 ms).
    std::unique_ptr<HelperCpuSampler>& helpers = sh->helpers;
    for (auto& c : clones)
      if (!helpers && !c.worker->engine_is_sync()) helpers = std::make_unique<HelperCpuSampler>();
    if (helpers && !helpers->Start().ok()) helpers.reset();
    ctl.helper_sampler = helpers.get();

    // steadystate: one-second samples of the live counters, from this loop.
    std::vector<SteadyStateMonitor::Member> ss_members;
    for (size_t ci = 0; ci < clones.size(); ++ci)
      ss_members.push_back({clones[ci].worker.get(), &sh->jobs[clones[ci].job], clones[ci].groupid,
                            &sh->finished[ci]});
    SteadyStateMonitor steady(ss_members);

    ctl.start_ns = NowNs();
    if (genesis_ns_ == 0) genesis_ns_ = ctl.start_ns;
    ctl.run_start_ns = genesis_ns_;
    Watchdog watchdog(*sh, opts_, ctl.start_ns);
    bool cpuio_exit = std::any_of(clones.begin(), clones.end(), [&](const Clone& c) {
      return sh->jobs[c.job].ioengine == "cpuio" && sh->jobs[c.job].exit_on_io_done;
    });
    ctl.go.store(1);
    ctl.go.notify_all();

    // Watch: stop signal and watchdog every ~20 ms, on_tick every tick_ns.
    const uint64_t tick_ns = std::max<uint64_t>(opts_.tick_ns, 1);
    uint64_t next_tick = NowNs() + tick_ns;

    Status stuck;
    {
      std::unique_lock<std::mutex> lock(sh->mu);
      while (ctl.running.load() != 0) {
        uint64_t wait_ns = 20ull * 1000 * 1000;
        if (steady.active()) {  // wake up for a steady state sample on time
          const uint64_t due = steady.next_due_ns(), now = NowNs();
          if (due != UINT64_MAX) wait_ns = due > now ? std::min(wait_ns, due - now) : 0;
        }
        sh->cv.wait_for(lock, std::chrono::nanoseconds(wait_ns));
        if (steady.active()) steady.Poll(NowNs());
        if (opts_.stop_signal != nullptr && opts_.stop_signal->load() != 0 &&
            ctl.stop.load() != kStopSignal) {
          StopPhase(*sh, kStopSignal);
          *interrupted = true;
        }
        Watch(clones, live, lock);  // issue 8
        if (cpuio_exit) cpuio_exit = !StopCpuioAfterIo(*sh);
        stuck = watchdog.Check(NowNs());
        if (!stuck.ok()) break;
        if (opts_.on_tick && NowNs() >= next_tick) {
          lock.unlock();
          opts_.on_tick(live);
          lock.lock();
          const uint64_t now = NowNs();
          next_tick += tick_ns;
          if (next_tick <= now) next_tick = now + tick_ns;  // fell behind: no burst
        }
      }
    }
    if (!stuck.ok()) {
      // A hung device is not a hung tool: leave the stuck threads behind
      // (they hold `sh`), tell the others to stop, and report.
      StopPhase(*sh, kStopSignal);
      g_left_behind.fetch_add(static_cast<int>(threads.size()));
      for (auto& t : threads) t.detach();
      phase_disks_ = nullptr;
      if (sh->helpers) sh->helpers->Stop();  // SampleNow() after Stop() is a no-op
      return stuck;
    }
    for (auto& t : threads) t.join();
    if (opts_.on_phase_end) opts_.on_phase_end(live);
    exit_all_ = sh->exit_all.load();
    if (steady.active()) {
      std::vector<SteadyStateResult> ss = steady.Results();
      for (size_t ci = 0; ci < clones.size(); ++ci)
        clones[ci].worker->result().steadystate = std::move(ss[ci]);
    }
    for (auto& c : clones)  // issue 8: --bandwidth-log continues from here in the next phase
      for (int d = 0; d < kNumDdirs; ++d) done_bytes_[d] += c.worker->result().stats.dir[d].bytes;

    phase_disks_ = nullptr;
    for (auto& d : disk_util.Stop()) MergeDisk(std::move(d), &result_->disks);
    if (helpers) AttributeHelperCpu(helpers.get(), clones);
    std::vector<uint64_t> written;  // per entry of `uses`
    for (const auto& c : clones)
      for (size_t k = 0; k < c.targets.size(); ++k)
        written.push_back(c.worker->result().stats.dir[1].bytes / c.targets.size());
    uncached.Report(written, opts_.stop_signal, &result_->context);

    UnlinkFiles(clones);
    for (const std::string& path : create_only_new_) ::unlink(path.c_str());

    // Reserve first: a JobResult holds ten histograms (145 KiB), and vector
    // growth would copy every one of them again (seed 003: 252 of them).
    for (auto& g : result_->groups) {
      size_t n = 0;
      for (const auto& c : clones) n += c.groupid == g.id;
      g.jobs.reserve(g.jobs.size() + n);
    }
    // In job order, as fio lists them: a job that failed alone in Prepare
    // goes where it was written, not after the jobs that ran (scripts index
    // the JSON's jobs by position).
    SortFailed();
    size_t next_failed = 0;
    const auto append_failed = [this](const FailedClone& f) { AppendFailedJob(f); };
    for (auto& c : clones) {
      FailedBefore(&next_failed, c.job, c.jobnum, append_failed);
      auto& groups = result_->groups;
      auto it = std::find_if(groups.begin(), groups.end(),
                             [&](const GroupResult& g) { return g.id == c.groupid; });
      if (SetupFailsAlone(c))  // it did not run
        it->jobs.push_back(FailedJobResult(jobs_[c.job], c.jobnum, c.groupid, c.setup));
      else
        it->jobs.push_back(std::move(c.worker->result()));
    }
    FailedBefore(&next_failed, SIZE_MAX, 0, append_failed);
    failed_.clear();
    return Status::Ok();
  }

 private:
  // --- issue 8 ---
  // Called every ~20 ms of the watch loop with `lock` held; drops it while
  // a snapshot is taken and reported.
  void Watch(std::vector<Clone>& clones, const std::vector<const LiveCounters*>& live,
             std::unique_lock<std::mutex>& lock) {
    const uint64_t now = NowNs();
    if (agg_ != nullptr) {
      uint64_t bytes[kNumDdirs];
      for (int d = 0; d < kNumDdirs; ++d) {
        bytes[d] = done_bytes_[d];
        for (const LiveCounters* l : live) {
          // As fio, the aggregate log counts measured I/O only: a job in its
          // ramp adds nothing (its counters restart from 0 when the ramp ends).
          const char st = l->state.load(std::memory_order_relaxed);
          if (st == job_state::kPreReading || st == job_state::kRamp) continue;
          bytes[d] += l->bytes[d].load(std::memory_order_relaxed);
        }
      }
      agg_->Sample(now - run_start_ns_, bytes);
    }
    if (!opts_.on_interim) return;
    bool due = opts_.report_signal != nullptr && opts_.report_signal->exchange(0) != 0;
    const uint64_t iv = opts_.status_interval_ns;
    if (iv != 0 && now >= next_interim_ns_) {
      due = true;
      // A late poll gives one report, then back on the grid.
      next_interim_ns_ += ((now - next_interim_ns_) / iv + 1) * iv;
    }
    if (!due) return;
    lock.unlock();
    opts_.on_interim(Snapshot(clones));
    lock.lock();
  }

  // The run so far: finished phases as they ended, this phase's workers as
  // of their answer to a snapshot request.
  RunResult Snapshot(std::vector<Clone>& clones) {
    ++snap_gen_;
    for (auto& c : clones) c.worker->RequestSnapshot(snap_gen_);
    const uint64_t deadline = NowNs() + opts_.snapshot_timeout_ns;
    for (auto& c : clones)
      while (!c.worker->SnapshotDone(snap_gen_) && NowNs() < deadline)
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    RunResult snap = *result_;
    snap.snapshot = true;
    // This phase's jobs in job order: the running clones as they answered,
    // and the clones that failed alone in their set-up with their error (an
    // interim report left them out, so its job count changed at the end).
    // (Merged, not sorted: a JobResult is over-aligned, and std::stable_sort's
    // buffer is not.)
    const auto add = [&snap](int groupid, JobResult&& j) {
      for (auto& g : snap.groups)
        if (g.id == groupid) g.jobs.push_back(std::move(j));
    };
    SortFailed();
    size_t next_failed = 0;
    const auto add_failed = [&](const FailedClone& f) {
      add(f.groupid, FailedJobResult(jobs_[f.job], f.jobnum, f.groupid, f.st));
    };
    for (auto& c : clones) {
      FailedBefore(&next_failed, c.job, c.jobnum, add_failed);
      if (SetupFailsAlone(c)) {  // its set-up failed it: listed with err=0 till the end
        add(c.groupid, FailedJobResult(jobs_[c.job], c.jobnum, c.groupid, c.setup));
        continue;
      }
      JobResult j;
      c.worker->CopySnapshot(&j);
      add(c.groupid, std::move(j));
    }
    FailedBefore(&next_failed, SIZE_MAX, 0, add_failed);
    if (later_groupids_ != nullptr) AppendUnrunJobs(jobs_, *later_groupids_, later_jobs_, &snap);
    // The disks as fio shows them in an interim report: the finished phases'
    // and this phase's so far.
    if (phase_disks_ != nullptr)
      for (auto& d : phase_disks_->SinceStart()) MergeDisk(std::move(d), &snap.disks);
    snap.groups.erase(std::remove_if(snap.groups.begin(), snap.groups.end(),
                                     [](const GroupResult& g) { return g.jobs.empty(); }),
                      snap.groups.end());
    StampReportTime(&snap);
    return snap;
  }

  LogWriter* log_writer_ = nullptr;
  AggregateBwLog* agg_ = nullptr;
  uint64_t run_start_ns_ = 0;
  uint64_t genesis_ns_ = 0;  // the first phase's start: startdelay counts from it
  uint64_t next_interim_ns_ = 0;
  uint64_t snap_gen_ = 0;
  const DiskUtilTracker* phase_disks_ = nullptr;  // this phase's, while its workers run
  std::vector<size_t> later_jobs_;                // the phases after this one
  size_t phases_started_ = 0;                     // Run() calls, this phase's included
  const std::vector<int>* later_groupids_ = nullptr;
  uint64_t done_bytes_[kNumDdirs] = {0, 0, 0};  // bytes of the phases that ended
  // --- end issue 8 ---

  // The file names fio's add_file has taken (sys::ClonePaths), over all the
  // run's jobs: fio sets every job up before the first runs.
  const sys::TakenNames& Taken() {
    if (!taken_) {
      taken_.emplace();
      for (size_t i = 0; i < jobs_.size(); ++i) sys::AddTakenNames(jobs_[i], i, &*taken_);
    }
    return *taken_;
  }
  std::optional<sys::TakenNames> taken_;

  Status Prepare(const Phase& phase, const std::vector<int>& groupids, std::vector<Clone>* clones) {
    failed_.clear();
    // Each file's size once the clones resolved so far are laid out, for
    // file_append=1 (ResolveTargets): fio 3.33 sets its jobs up in job
    // order, each laying its files out before the next, so a later clone
    // appends after an earlier one's region instead of over it. A later
    // phase finds the earlier phases' appends on disk.
    std::map<std::string, uint64_t> laid_out;
    for (size_t j : phase.jobs) {
      const JobSpec& job = jobs_[j];
      if (auto f = failed_jobs_.find(j); f != failed_jobs_.end()) {  // see FailJob
        for (uint32_t k = 0; k < std::max<uint32_t>(1, job.numjobs); ++k)
          failed_.push_back({j, static_cast<int>(k), groupids[j], f->second});
        continue;
      }
      const bool diskless = static_cast<bool>(opts_.engine_factory) || DisklessEngine(job.ioengine);
      const uint32_t n = std::max<uint32_t>(1, job.numjobs);
      std::vector<EngineFile> probe_files;
      std::set<std::string> probed;
      // Clones with no file that holds one block (files of their own that
      // are too small, a region offset_increment leaves under a block): as
      // fio, each fails alone and the others run. When every clone is so,
      // the job is refused as before: nothing of it would run.
      std::vector<FailedClone> no_block;
      Status no_block_refusal;
      for (uint32_t k = 0; k < n; ++k) {
        Clone c;
        c.job = j;
        c.jobnum = static_cast<int>(k);
        c.groupid = groupids[j];
        c.waits = Waitees(jobs_, phase, j);
        std::vector<sys::TakenFile> dropped;
        const std::vector<std::string> paths = sys::ClonePaths(job, j, c.jobnum, Taken(), &dropped);
        bool small = false;
        Result<std::vector<TargetFile>> resolved =
            ResolveTargets(job, c.jobnum, diskless, &paths, &small, &laid_out);
        small = small && n > 1;
        // After the first phase a clone whose files cannot be resolved
        // (no size for the null engine, a file to read that is missing)
        // fails alone too, as in fio 3.33, which runs the rest of the phase
        // (err=22): the earlier phases ran, so there is no run left to refuse,
        // and failing the phase listed its other jobs as clean runs of 0
        // bytes. In the first phase such a refusal refuses the run (exit 2).
        const bool later_refusal = !resolved.ok() && phases_started_ > 1 &&
                                   resolved.status().code() != Status::Code::kInterrupted;
        if (!resolved.ok() && (small || later_refusal || FailsJobAlone(resolved.status()))) {
          const Status& e = resolved.status();
          const std::string prefix = "job '" + job.name + "': ";
          std::string msg = sys::WithoutJobName(job.name, e.message());
          // Stderr names the clone too ("job 'j' #2"): drop "clone 2 of
          // numjobs=3: " (from "job 'j' (clone 2 of numjobs=3): ").
          if (const std::string clone = "clone " + std::to_string(c.jobnum) +
                                        " of numjobs=" + std::to_string(job.numjobs) + ": ";
              msg.rfind(clone, 0) == 0)
            msg = msg.substr(clone.size());
          if (const std::string where = FilesOptionAt(job);
              !where.empty() && !sys::NamesFilesOption(job, msg))
            msg = where + ": " + msg;
          // This clone fails alone; its job's other clones may still run.
          // No block fits: EINVAL (fio 3.33 says "blocksize is larger than
          // data set range" and lists the clone with err=0; its exit code is
          // 1 all the same).
          FailedClone f{j, c.jobnum, c.groupid,
                        Status(e.code(), prefix + msg,
                               small || e.errno_value() == 0 ? EINVAL : e.errno_value())};
          if (!small) {
            failed_.push_back(std::move(f));
          } else {
            if (no_block.empty()) no_block_refusal = e;
            no_block.push_back(std::move(f));
          }
          continue;
        }
        IOB_ASSIGN_OR_RETURN(c.targets, std::move(resolved));
        KeepExistingReplayFiles(job, &c.targets);  // size= lays out missing files only
        for (const TargetFile& t : c.targets)
          if (t.regular_file()) {
            uint64_t& end = laid_out[SameFileKey(t.path)];
            end = std::max({end, t.current_size, t.needed_size});
          }
        if (!dropped.empty()) c.notes.push_back(DroppedFilesNote(jobs_, j, dropped, paths.empty()));
        for (const auto& t : c.targets) {
          if (!t.note.empty()) c.notes.push_back(t.note);
          IOB_RETURN_IF_ERROR(CheckDirectAlignment(job, t, c.targets.size()));
          if (!job.allow_file_create && !diskless && !t.exists)
            return Status::Invalid(
                "job '" + job.name + "': " + t.path + " does not exist, and allow_file_create=0 (" +
                SettingOf(job, "allow_file_create").Where() + ") forbids creating it");
          if (!diskless && probed.insert(t.path).second) {
            EngineFile f;
            f.path = t.path;
            f.is_block_device = t.is_block_device;
            f.size = t.current_size;
            probe_files.push_back(f);
          }
        }
        // The job's notes go on its first clone that runs (clone 0 may
        // have failed alone above).
        const bool first = std::none_of(clones->begin(), clones->end(),
                                        [j](const Clone& o) { return o.job == j; });
        if (first)
          if (std::string n = BlockTooLargeNote(job, c.targets); !n.empty())
            c.notes.push_back(std::move(n));
        if (job.gtod_cpu >= 0 && first)
          c.notes.push_back("gtod_cpu=" + std::to_string(job.gtod_cpu) +
                            " has no effect: fio's time-keeping thread does not exist here; each "
                            "worker reads the clock itself (the TSC when the kernel trusts it)");
        const EngineInfo* einfo = FindEngine(job.ioengine);
        if (!opts_.engine_factory && einfo != nullptr && einfo->is_sync && job.iodepth > 1 &&
            first) {
          c.notes.push_back("iodepth=" + std::to_string(job.iodepth) + " has no effect with " +
                            job.ioengine +
                            ": a sync engine completes each I/O inside the call, so the "
                            "queue depth is 1");
        }
        // O_SYNC/O_DSYNC act on write(2) and its kin; the mmap engine's
        // writes are memcpy into a shared mapping, so nothing is synced as
        // it is written (as in fio, which opens the file O_SYNC all the same).
        // Not said of a trim-only job: it writes nothing.
        if (job.ioengine == "mmap" && (job.sync || job.dsync) && JobWrites(job) &&
            HasWrite(job.rw) && first) {
          const OptionSetting set = SettingOf(job, "sync");
          const std::string said =
              "sync=" + (set.value.empty() ? std::string(job.sync ? "1" : "dsync") : set.value);
          c.notes.push_back(said + " (" + (job.sync ? "O_SYNC" : "O_DSYNC") +
                            ") has no effect with ioengine=mmap: its writes are memory copies "
                            "into a shared mapping, not write calls, so none is synced as it is "
                            "made; the dirty pages are written back later (fsync=N, fdatasync=N "
                            "and end_fsync=1 sync them with msync)");
        }
        if (job.ioengine == "pvsync2" && job.hipri && job.hipri_percentage == 0 && first)
          c.notes.push_back(
              "hipri=1 with hipri_percentage=0: no I/O is issued with RWF_HIPRI, so nothing is "
              "polled (as in fio); the job runs as pvsync2 without hipri");
        if (job.ioengine == "pvsync2" && job.direct && (job.uncached || job.nowait) && first) {
          c.notes.push_back(
              std::string("pvsync2 with direct=1: ") +
              (job.uncached ? std::string("uncached=1 (RWF_DONTCACHE) only affects buffered I/O; "
                                          "with O_DIRECT the page cache is bypassed anyway.") +
                                  (job.nowait ? " " : "")
                            : "") +
              (job.nowait ? "nowait=1 (RWF_NOWAIT) with O_DIRECT returns EAGAIN wherever "
                            "the filesystem or the block layer would block: a full request "
                            "queue, and writes that must allocate blocks (new or sparse "
                            "files; on btrfs any copy-on-write file) or update timestamps."
                          : ""));
        }
        clones->push_back(std::move(c));
      }
      if (no_block.size() == n) return no_block_refusal;
      failed_.insert(failed_.end(), no_block.begin(), no_block.end());
      if (std::none_of(clones->begin(), clones->end(), [j](const Clone& c) { return c.job == j; }))
        continue;  // every clone of it failed alone

      if (!opts_.engine_factory) {
        const EngineInfo* info = FindEngine(job.ioengine);
        if (info != nullptr && info->check_job != nullptr && !diskless)
          IOB_RETURN_IF_ERROR(WithOptionWhere(job, info->check_job(job, probe_files))
                                  .WithContext("job '" + job.name + "'"));
      }
    }
    // Layout: each path once, to the largest size any clone needs.
    std::map<std::string, size_t> index;
    std::vector<std::pair<const JobSpec*, TargetFile>> work;
    std::vector<size_t> owner;  // clone that gets the "Laying out" note
    // Paths some job of this phase lays out that is not verify_only (a
    // writer in the same phase makes the file the verify_only job reads).
    std::set<std::string> laid_by_others;
    for (size_t ci = 0; ci < clones->size(); ++ci) {
      const Clone& c = (*clones)[ci];
      const JobSpec& cj = jobs_[c.job];
      const bool verify_only = cj.verify.VerifyOnly();
      for (const auto& t : c.targets) {
        if (!t.regular_file()) continue;
        if (!verify_only) laid_by_others.insert(t.path);
        auto [it, fresh] = index.emplace(t.path, work.size());
        if (fresh) {
          work.emplace_back(&cj, t);
          owner.push_back(ci);
        } else if (t.needed_size > work[it->second].second.needed_size) {
          work[it->second].second.needed_size = t.needed_size;
        }
      }
    }
    std::vector<std::pair<const JobSpec*, TargetFile>> todo;
    std::vector<size_t> todo_owner;
    for (size_t i = 0; i < work.size(); ++i) {
      const auto& [job, t] = work[i];
      const bool short_file = !(t.exists && t.current_size >= t.needed_size);
      // A /proc or /sys file reports 0 bytes: a read job would "lay it out"
      // with its data (a random hostname, a SysRq). create_on_open only
      // creates one that is missing, at open.
      if (!t.exists || (short_file && !job->create_on_open))
        if (const std::string fs = sys::PseudoFsName(t.path); !fs.empty())
          return sys::PseudoFsRefusal(*job, t.path, fs, t.exists ? "lay out" : "create",
                                      t.exists ? "it reports " + std::to_string(t.current_size) +
                                                     " bytes, and the job's " + "region ends at " +
                                                     std::to_string(t.needed_size) +
                                                     ", so its data would be written into it first"
                                               : "");
      if (job->create_on_open || !short_file) continue;
      // verify_only checks what is there: laying out a missing or short file
      // (zeros, or the layout's data) would destroy the evidence of a
      // truncated file, and check data no writer wrote.
      if (job->verify.VerifyOnly() && laid_by_others.count(t.path) == 0) {
        const std::string opts = sys::RegionOptionsAt(*job);
        const std::string region = "the job's region ends at byte " +
                                   std::to_string(t.needed_size) +
                                   (opts.empty() ? "" : ", from " + opts);
        return Status::Invalid(
            "job '" + job->name + "': verify_only=1 (" + SettingOf(*job, "verify_only").Where() +
            "): " + t.path +
            (t.exists ? " is " + std::to_string(t.current_size) + " bytes and " + region
                      : " does not exist (" + region + ")") +
            ": verify_only lays out nothing (it reads and checks the file as the writer left "
            "it); give the writer's file and size=, or run the writing job first");
      }
      if (opts_.readonly) {  // what sys::CheckReadonly could not size (filesize, file_append)
        const std::string who = "--readonly: job '" + job->name + "' would ";
        if (!t.exists)
          return Status::Refused(who + "create and lay out " + t.path + " (it does not exist)");
        const std::string opts = sys::RegionOptionsAt(*job);
        return Status::Refused(
            who + "extend " + t.path + " from " + std::to_string(t.current_size) + " to " +
            std::to_string(t.needed_size) + " bytes" + (opts.empty() ? "" : " (" + opts + ")"));
      }
      // A read job lays out a short file too: under a loop device in use
      // that is a write to the device's image (a write job was refused
      // before any layout, by sys::CheckJobsWriteSafety).
      if (t.exists)
        IOB_RETURN_IF_ERROR(sys::CheckLayoutSafety(*job, t.path, t.current_size, t.needed_size));
      todo.push_back(work[i]);
      todo_owner.push_back(owner[i]);
    }
    // create_serialize=1 (fio's default): one file at a time, so files laid
    // out together do not interleave on disk; =0 files go in parallel.
    std::vector<std::pair<const JobSpec*, TargetFile>> serial, parallel;
    std::vector<size_t> serial_owner, parallel_owner;
    for (size_t i = 0; i < todo.size(); ++i) {
      const bool ser = todo[i].first->create_serialize;
      (ser ? serial : parallel).push_back(todo[i]);
      (ser ? serial_owner : parallel_owner).push_back(todo_owner[i]);
    }
    todo = serial;
    todo.insert(todo.end(), parallel.begin(), parallel.end());
    todo_owner = serial_owner;
    todo_owner.insert(todo_owner.end(), parallel_owner.begin(), parallel_owner.end());
    std::vector<uint64_t> bytes, parallel_bytes;
    std::vector<std::string> notes, parallel_notes;
    std::vector<Status> each, parallel_each;
    // A file that cannot be laid out (ENOSPC, EROFS) fails its job alone.
    const auto whole = [](const std::vector<Status>& v) {
      for (const Status& e : v)
        if (!e.ok() && !FailsJobAlone(e)) return e;
      return Status::Ok();
    };
    ArmExitUnlink(*clones);
    Status st = LayOutAll(serial, &bytes, &notes, opts_.stop_signal, /*threads=*/1, &each);
    if (whole(each).ok())
      st = LayOutAll(parallel, &parallel_bytes, &parallel_notes, opts_.stop_signal,
                     /*threads=*/16, &parallel_each);
    bytes.resize(serial.size());
    notes.resize(serial.size());
    each.resize(serial.size());
    bytes.insert(bytes.end(), parallel_bytes.begin(), parallel_bytes.end());
    notes.insert(notes.end(), parallel_notes.begin(), parallel_notes.end());
    each.insert(each.end(), parallel_each.begin(), parallel_each.end());
    each.resize(todo.size());
    st = whole(each);
    if (!st.ok()) {
      UnlinkFiles(*clones);  // unlink=1 also covers files laid out halfway
      // A refused layout leaves nothing behind: the files laid out before
      // the one that failed are taken back too (a signal keeps them: they
      // are whole).
      if (st.code() != Status::Code::kInterrupted) {
        RecordMade(work);
        UndoLayout();
      }
      // A refusal names the option that named the file and its place, as a
      // job failing alone does (`create ro/f: Read-only file system` alone
      // did not say which line to change).
      for (size_t i = 0; i < todo.size(); ++i) {
        if (each[i].ok() || FailsJobAlone(each[i]) || each[i].code() == Status::Code::kInterrupted)
          continue;
        const JobSpec& job = *todo[i].first;
        const std::string where = FilesOptionAt(job);
        const std::string prefix = "job '" + job.name + "': ";
        const std::string& m = each[i].message();
        if (where.empty() || sys::NamesFilesOption(job, m)) break;
        const std::string rest = m.rfind(prefix, 0) == 0 ? m.substr(prefix.size()) : m;
        return Status(each[i].code(), prefix + where + ": " + rest, each[i].errno_value());
      }
      return st;
    }
    // A file that could not be laid out fails each clone that uses it, alone
    // (numjobs clones with files of their own: only the one whose file
    // failed). A file jobs share was laid out to the largest size any of
    // them needs; when that fails, it is laid out to the next smaller size
    // a job needs, and so on, and the jobs that fit run on it, as in fio
    // 3.33, which lays the file out job by job: size=1m and size=4m on one
    // file in a 2 MiB tmpfs, the 1m job runs, the 4m job alone fails.
    const auto uses_path = [](const Clone& c, const std::string& path) -> const TargetFile* {
      for (const TargetFile& x : c.targets)
        if (x.path == path) return &x;
      return nullptr;
    };
    std::set<size_t> layout_failed;
    std::vector<uint64_t> laid_size;  // what each file was laid out to
    for (const auto& w : todo) laid_size.push_back(w.second.needed_size);
    for (size_t i = 0; i < todo.size(); ++i) {
      if (each[i].ok()) continue;
      const TargetFile& t = todo[i].second;
      UndoLayOut(t.path, t.exists, t.current_size, t.link_to);  // leaves no half-laid file
      // What the file holds for the jobs now: its old size, or a smaller
      // layout that succeeded, and which job that layout was for.
      uint64_t have = t.exists ? t.current_size : 0;
      std::string fitted_job;
      if (FailsJobAlone(each[i])) {
        std::set<uint64_t, std::greater<>> sizes;
        for (const Clone& c : *clones)
          if (const TargetFile* x = uses_path(c, t.path);
              x != nullptr && x->needed_size < t.needed_size && x->needed_size > have)
            sizes.insert(x->needed_size);
        for (uint64_t size : sizes) {
          size_t fit = 0;
          for (size_t ci = 0; ci < clones->size(); ++ci)
            if (const TargetFile* x = uses_path((*clones)[ci], t.path);
                x != nullptr && x->needed_size == size) {
              fit = ci;
              break;
            }
          TargetFile smaller = t;
          smaller.needed_size = size;
          const JobSpec& fit_job = jobs_[(*clones)[fit].job];
          notes[i].clear();  // the failed layout's note is not this one's
          Result<uint64_t> r = LayOutFile(fit_job, smaller, opts_.stop_signal, &notes[i]);
          if (!r.ok()) continue;  // undone by LayOutFile
          have = size;
          fitted_job = fit_job.name;
          bytes[i] = *r;
          laid_size[i] = size;
          todo_owner[i] = fit;  // the "Laying out" note goes to the job it was for
          break;
        }
      }
      for (size_t ci = 0; ci < clones->size(); ++ci) {
        const Clone& c = (*clones)[ci];
        const TargetFile* x = uses_path(c, t.path);
        if (x == nullptr || (have != 0 && x->needed_size <= have)) continue;
        if (!layout_failed.insert(ci).second) continue;
        const JobSpec& job = jobs_[c.job];
        const std::string prefix = "job '" + job.name + "': ";
        const std::string& m = each[i].message();
        const size_t named = m.rfind("job '", 0) == 0 ? m.find("': ") : std::string::npos;
        std::string msg = named != std::string::npos ? m.substr(named + 3) : m;
        if (!fitted_job.empty()) {
          // Say which option asked for more than the file could hold.
          const char* opt = job.FindSetting("filesize") != nullptr ? "filesize" : "size";
          msg += "; " + sys::OptionAt(job, opt, HumanBytes(x->needed_size)) + " needs " +
                 HumanBytes(x->needed_size) + " of it, " + HumanBytes(have) +
                 " could be laid out (job '" + fitted_job + "' runs on that)";
        }
        failed_.push_back({c.job, c.jobnum, c.groupid,
                           Status(each[i].code(), prefix + msg, each[i].errno_value())});
      }
      if (!fitted_job.empty()) each[i] = Status::Ok();  // laid out: its note and bytes stand
    }
    // The note gives the size the files were laid out to, as fio's (the
    // sum of their sizes, not the bytes added: a 1 MiB file extended to 2
    // MiB is "1 file / 2MiB").
    struct Laid {
      LayoutTally tally;
      uint64_t written = 0;
    };
    std::map<size_t, Laid> per_clone;
    for (size_t i = 0; i < todo.size(); ++i) {
      if (!each[i].ok()) continue;
      Laid& p = per_clone[todo_owner[i]];
      ++p.tally.files;
      p.written += bytes[i];
      p.tally.bytes += laid_size[i];
    }
    for (auto& [ci, p] : per_clone) {
      if (p.written == 0 && jobs_[(*clones)[ci].job].fill_device)
        continue;  // created, not laid out
      (*clones)[ci].notes.push_back(LayoutTallyNote(p.tally));
      (*clones)[ci].layout = p.tally;
    }
    for (size_t i = 0; i < todo.size(); ++i)
      if (!notes[i].empty()) (*clones)[todo_owner[i]].notes.push_back(std::move(notes[i]));
    // What this phase changed on disk, undone if its setup is refused:
    // files that did not exist (laid out, or made by create_on_open at
    // open), files it extended.
    RecordMade(work);
    // create_on_open=1 with create_only=1: fio never opens the files, so
    // it creates none; the workers' set-up opens (creates) them here, and
    // the phase removes those again when it ends.
    create_only_new_.clear();
    for (const auto& [job, t] : work)
      if (job->create_only && job->create_on_open && !t.exists && !t.diskless &&
          !t.is_block_device && !t.is_char_device)
        create_only_new_.push_back(t.path);
    // What is on disk now is what the workers open.
    for (auto& c : *clones)
      for (auto& t : c.targets)
        if (!t.diskless && !t.is_block_device && index.count(t.path)) {
          t.exists = true;
          t.current_size = std::max(t.current_size, work[index[t.path]].second.needed_size);
          t.link_to.clear();  // a link the layout replaced is a file now
        }
    if (!layout_failed.empty()) {
      std::vector<Clone> kept;
      for (size_t ci = 0; ci < clones->size(); ++ci)
        if (!layout_failed.count(ci)) kept.push_back(std::move((*clones)[ci]));
      *clones = std::move(kept);
      // Their files are not the phase's to remove any more (UndoLayOut put
      // a user's file back as it was).
      ArmExitUnlink(*clones);
    }
    return Status::Ok();
  }

  // A clone that failed alone in Prepare (its file's stat, its layout): it
  // goes into the report with its error and no I/O, in its place.
  struct FailedClone {
    size_t job;
    int jobnum;
    int groupid;
    Status st;
  };
  // Calls emit on the failed clones from *next on that come before clone
  // `jobnum` of job `job` (failed_ sorted), advancing *next past them.
  template <class Emit>
  void FailedBefore(size_t* next, size_t job, int jobnum, const Emit& emit) const {
    for (; *next < failed_.size() &&
           std::pair(failed_[*next].job, failed_[*next].jobnum) < std::pair(job, jobnum);
         ++*next)
      emit(failed_[*next]);
  }
  void SortFailed() {
    std::stable_sort(failed_.begin(), failed_.end(),
                     [](const FailedClone& a, const FailedClone& b) {
                       return std::pair(a.job, a.jobnum) < std::pair(b.job, b.jobnum);
                     });
  }
  void AppendFailedJob(const FailedClone& f) {
    auto g = std::find_if(result_->groups.begin(), result_->groups.end(),
                          [&](const GroupResult& gr) { return gr.id == f.groupid; });
    g->jobs.push_back(FailedJobResult(jobs_[f.job], f.jobnum, f.groupid, f.st));
  }
  void AppendFailedJobs() {
    SortFailed();
    for (const auto& f : failed_) AppendFailedJob(f);
    failed_.clear();
  }
  std::vector<FailedClone> failed_;           // clones that failed alone (Prepare)
  std::vector<std::string> create_only_new_;  // see Prepare

  // Which of the phase's `n_paths` distinct target paths the context
  // describes: the first kMaxDescribed, then each path that is the first of
  // a job on a kind of target none of that job's described paths is on. The
  // kind is the device: a block device's own (st_rdev), a file's file
  // system (st_dev), a character device by its path. ResolveTargets stat'ed
  // each path already; a file it did not find (layout made it) is on its
  // directory's file system, one stat(2) per directory. A stat per file
  // cost 0.8 s for nrfiles=100000 on tmpfs here (8 us a call).
  static std::set<std::string> DescribedPaths(const std::vector<Clone>& clones, size_t n_paths) {
    constexpr size_t kMaxDescribed = 4;
    std::set<std::string> chosen;
    const bool all = n_paths <= kMaxDescribed;
    std::map<std::string, std::string> dir_kinds;
    auto kind_of = [&](const TargetFile& t) -> std::string {
      if (t.is_char_device) return "c " + t.path;
      if (t.device_id != 0) return (t.is_block_device ? "b " : "f ") + std::to_string(t.device_id);
      const size_t slash = t.path.rfind('/');
      const std::string dir = slash == std::string::npos ? "." : t.path.substr(0, slash + 1);
      auto [it, fresh] = dir_kinds.emplace(dir, "");
      if (fresh) {
        struct stat st {};
        it->second = stat(dir.c_str(), &st) == 0 ? "f " + std::to_string(st.st_dev) : "? " + dir;
      }
      return it->second;
    };
    std::set<std::pair<size_t, std::string>> covered;  // (job, kind) described
    for (const auto& c : clones)
      for (const auto& t : c.targets) {
        if (t.diskless) continue;
        if (all) {
          chosen.insert(t.path);
          continue;
        }
        const std::string kind = kind_of(t);
        if (chosen.count(t.path) != 0 || chosen.size() < kMaxDescribed) {
          chosen.insert(t.path);
          covered.emplace(c.job, kind);
        } else if (covered.emplace(c.job, kind).second) {
          chosen.insert(t.path);
        }
      }
    return chosen;
  }

  // "What was measured": host facts once, and each target of the phase as it
  // is right before the workers start (laid out, page cache invalidated).
  // Wide jobs (seed 003: 252 files in one directory) describe a few files:
  // the first kMaxDescribed of the phase, and after them each job's first
  // file on each further file system or device (DescribedPaths), so that a
  // fifth job on a block device or on tmpfs still gets its target line and
  // its warnings (it got neither: all four described files were another
  // job's).
  void CollectPhaseContext(const Phase& phase, const std::vector<Clone>& clones,
                           const std::vector<std::string>& paths, const sys::TargetRegions& regions,
                           const std::map<std::string, std::string>& cache_kept) {
    if (opts_.engine_factory) return;  // test seam: no real targets
    std::vector<std::string> described, unexamined;
    const std::set<std::string> chosen = DescribedPaths(clones, paths.size());
    for (const auto& p : paths) (chosen.count(p) ? described : unexamined).push_back(p);
    std::vector<JobSpec> phase_jobs;
    if (!described.empty())
      for (size_t j : phase.jobs) phase_jobs.push_back(jobs_[j]);
    RunContext ctx = sys::CollectContext(phase_jobs, described, unexamined, &regions,
                                         opts_.stop_signal, &cache_kept);
    if (!unexamined.empty())
      // Nothing to act on: a note ("note: " in the normal header).
      ctx.warnings.push_back("context: note: described " + std::to_string(described.size()) +
                             " of " + std::to_string(paths.size()) + " target files");
    RunContext& out = result_->context;
    if (out.kernel.empty() && out.iobench_version.empty()) {
      out = std::move(ctx);
      return;
    }
    for (auto& t : ctx.targets) {
      bool seen = false;
      for (const auto& o : out.targets) seen |= o.path == t.path;
      if (!seen) out.targets.push_back(std::move(t));
    }
    for (auto& w : ctx.warnings) sys::AddContextWarning(&out, std::move(w));
  }

  // unlink=1: remove the job's files after it ran, or was interrupted
  // (never block devices). A file that cannot be removed (its directory is
  // not writable) is named on stderr: the user asked for it to go (fio 3.33
  // says nothing and exits 0).
  void UnlinkFiles(const std::vector<Clone>& clones) const {
    for (const auto& [job, path] : UnlinkTargets(clones))
      if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
        const int err = errno;
        std::fprintf(stderr, "iobench: warning: job '%s': unlink=1: cannot remove %s: %s\n",
                     jobs_[job].name.c_str(), sys::Printable(path).c_str(), std::strerror(err));
      }
    SetExitUnlinkFiles({});  // gone: a later phase may use the same paths without unlink
  }
  // A second stop signal, which exits at once, removes what UnlinkFiles
  // would remove at the phase's end (run/signals.h).
  void ArmExitUnlink(const std::vector<Clone>& clones) const {
    std::vector<std::string> paths;
    for (auto& [job, path] : UnlinkTargets(clones)) paths.push_back(std::move(path));
    SetExitUnlinkFiles(std::move(paths));
  }
  // What UnlinkFiles removes: each path once, with the job that names it.
  std::vector<std::pair<size_t, std::string>> UnlinkTargets(
      const std::vector<Clone>& clones) const {
    std::vector<std::pair<size_t, std::string>> out;
    std::set<std::string> seen;
    for (const auto& c : clones) {
      if (!jobs_[c.job].unlink) continue;
      for (const auto& t : c.targets)
        if (t.regular_file() && seen.insert(t.path).second) out.emplace_back(c.job, t.path);
    }
    return out;
  }

  void RecordMade(const std::vector<std::pair<const JobSpec*, TargetFile>>& work) {
    made_.clear();
    for (const auto& [job, t] : work)
      if (!t.diskless && !t.is_block_device && !t.is_char_device &&
          (!t.exists || t.current_size < t.needed_size))
        made_.push_back({t.path, t.exists, t.current_size, t.link_to});
  }

  void UndoLayout() const {
    for (const auto& m : made_) UndoLayOut(m.path, m.existed, m.old_size, m.link_to);
  }

  struct Made {
    std::string path;
    bool existed = false;
    uint64_t old_size = 0;
    std::string link_to;  // a symbolic link the layout replaced
  };
  std::vector<Made> made_;  // this phase's, see Prepare

  const std::vector<JobSpec>& jobs_;
  const RunOptions& opts_;
  RunResult* result_;
  uint32_t next_worker_index_ = 0;  // run-wide, across phases
  bool exit_all_ = false;
  bool cut_short_ = false;

 public:
  // The last phase ended with exitall and exit_what=all.
  bool exit_all() const { return exit_all_; }
  // A signal stopped a phase before its workers ran.
  bool cut_short() const { return cut_short_; }
};

// wait_for waits for the jobs of that name defined later too (Waitees): a
// later one that waits, directly or through others, for the waiter closes a
// circle in which no job would start. fio 3.33 hangs there; refuse it.
Status CheckWaitCycles(const std::vector<JobSpec>& jobs, const std::vector<Phase>& phases) {
  for (const Phase& phase : phases) {
    std::map<size_t, std::vector<size_t>> waits;
    for (size_t j : phase.jobs) waits[j] = Waitees(jobs, phase, j);
    // Depth-first over "waits for" edges; 1 = on the current path, 2 = done.
    std::map<size_t, int> state;
    std::vector<size_t> path;
    std::function<std::optional<size_t>(size_t)> visit = [&](size_t j) -> std::optional<size_t> {
      state[j] = 1;
      path.push_back(j);
      for (size_t w : waits[j]) {
        if (state[w] == 1) return w;
        if (state[w] == 0)
          if (auto c = visit(w)) return c;
      }
      path.pop_back();
      state[j] = 2;
      return std::nullopt;
    };
    for (size_t j : phase.jobs) {
      if (state[j] != 0) continue;
      const std::optional<size_t> back = visit(j);
      if (!back) continue;
      std::string circle;
      for (auto it = std::find(path.begin(), path.end(), *back); it != path.end(); ++it)
        circle += (circle.empty() ? "" : ", ") + std::string("job '") + jobs[*it].name +
                  "' waits for '" + jobs[*it].wait_for + "' (" +
                  SettingOf(jobs[*it], "wait_for").Where() + ")";
      return Status::Invalid("wait_for goes in a circle: " + circle +
                             "; no job of the circle would start (fio 3.33 waits for every job "
                             "of the name, also those defined later, and hangs)");
    }
  }
  return Status::Ok();
}

// Phases (stonewall, job files) and reporting groups, and the checks that
// need them: wait_for names an earlier job, steady state agrees within a
// group.
Status GroupJobs(const std::vector<JobSpec>& jobs, std::vector<Phase>* phases_out,
                 std::vector<int>* groupids_out) {
  std::vector<Phase>& phases = *phases_out;
  std::vector<int>& groupids = *groupids_out;
  phases.clear();
  groupids.assign(jobs.size(), 0);
  int group = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const JobSpec& job = jobs[i];
    const bool wall = StartsPhase(jobs, i);
    if (!job.wait_for.empty()) {
      bool found = false;
      for (size_t k = 0; k < i; ++k) found |= jobs[k].name == job.wait_for;
      // fio refuses wait_for=its own name even when an earlier job has it.
      if (!found || job.wait_for == job.name)
        return Status::Invalid("job '" + job.name + "': wait_for=" + job.wait_for + " (" +
                               SettingOf(job, "wait_for").Where() +
                               (job.wait_for == job.name
                                    ? "): a job cannot wait for itself"  // fio's words
                                    : "): no job of that name comes before it"));
    }
    // wait_for only orders the jobs (the clone waits inside the phase, see
    // WaitForJobs); stonewall, new_group and job files regroup.
    if (i > 0 && (wall || job.new_group)) ++group;
    if (wall) phases.emplace_back();
    phases.back().jobs.push_back(i);
    groupids[i] = group;
  }

  IOB_RETURN_IF_ERROR(CheckWaitCycles(jobs, phases));
  IOB_RETURN_IF_ERROR(CheckSteadyStateGroups(jobs, groupids));

  // group_reporting prints one set of percentiles per group (the last job's
  // list, as fio), and fio refuses a group_reporting job whose
  // lat_percentiles differs from any job before it in its group, with
  // group_reporting or not ("lat_percentiles in job: b differs from group",
  // exit 1): `[a]` then `[b] group_reporting lat_percentiles=1` is refused,
  // `[a] group_reporting` then `[b] lat_percentiles=1` runs.
  std::map<int, std::array<size_t, 2>> first_with;  // group -> first job with lat_percentiles 0/1
  for (size_t i = 0; i < jobs.size(); ++i) {
    const JobSpec& b = jobs[i];
    std::array<size_t, 2>& first =
        first_with.emplace(groupids[i], std::array<size_t, 2>{SIZE_MAX, SIZE_MAX}).first->second;
    const size_t other = first[b.lat_percentiles ? 0 : 1];
    if (first[b.lat_percentiles ? 1 : 0] == SIZE_MAX) first[b.lat_percentiles ? 1 : 0] = i;
    // fio checks a job that keeps its stats only (stats=0: nothing of it is
    // printed), against every job before it.
    if (!b.group_reporting || !b.stats || other == SIZE_MAX) continue;
    const JobSpec& a = jobs[other];
    const JobSpec& set = b.FindSetting("lat_percentiles") != nullptr ? b : a;
    return Status::Invalid(
        "job '" + b.name + "': lat_percentiles=" + (b.lat_percentiles ? "1" : "0") +
        " differs from job '" + a.name + "' (lat_percentiles=" + (a.lat_percentiles ? "1" : "0") +
        ") of the same group, set at " + SettingOf(set, "lat_percentiles").Where() +
        ": group_reporting prints one kind of percentiles per group, and fio refuses this too; "
        "set it alike, or separate the jobs with stonewall or new_group");
  }

  return Status::Ok();
}

}  // namespace

Status CheckJobs(const std::vector<JobSpec>& jobs, const RunOptions& opts) {
  for (const JobSpec& job : jobs) {
    IOB_RETURN_IF_ERROR(ValidateJob(job, opts));
    // The engine's own refusals that do not need the files (trim on libaio,
    // uncached on libaio, depth limits...); with files they run again.
    const EngineInfo* info = opts.engine_factory ? nullptr : FindEngine(job.ioengine);
    if (info != nullptr && info->check_job != nullptr)
      IOB_RETURN_IF_ERROR(
          WithOptionWhere(job, info->check_job(job, {})).WithContext("job '" + job.name + "'"));
  }
  std::vector<Phase> phases;
  std::vector<int> groupids;
  return GroupJobs(jobs, &phases, &groupids);
}

Result<std::vector<int>> ReportGroupIds(const std::vector<JobSpec>& jobs) {
  std::vector<Phase> phases;
  std::vector<int> groupids;
  IOB_RETURN_IF_ERROR(GroupJobs(jobs, &phases, &groupids));
  return groupids;
}

Status PreflightJobs(const std::vector<JobSpec>& jobs, const RunOptions& opts,
                     bool hooks_make_paths) {
  IOB_RETURN_IF_ERROR(CheckJobs(jobs, opts));
  if (opts.engine_factory) return Status::Ok();
  // --readonly looks at the options and at files no point of a read-only
  // sweep can create: what it refuses now, a run refuses.
  if (opts.readonly)
    for (const JobSpec& job : jobs) IOB_RETURN_IF_ERROR(sys::CheckReadonly(job));
  // Files an earlier job of the point lays out past their present end: a
  // later job that sizes its region from such a file (no size=) finds it
  // grown when its phase runs. Checked against its size now, the sweep was
  // refused where a plain run of the same jobs ran.
  std::set<std::string> growing;
  auto file_key = [](const std::string& p) {
    std::error_code ec;
    const std::filesystem::path c = std::filesystem::weakly_canonical(p, ec);
    return ec ? p : c.string();
  };
  for (const JobSpec& job : jobs) {
    // A log or a directory listing reshapes the job when it runs.
    if (!job.read_iolog.empty() || !job.opendir.empty() || !job.unimplemented.empty()) continue;
    const bool diskless = DisklessEngine(job.ioengine);
    std::vector<std::string> grows;  // this job's, for the jobs after it
    const uint32_t n = std::max<uint32_t>(1, job.numjobs);
    for (uint32_t k = 0; k < n; ++k) {
      const std::vector<std::string> paths = sys::TargetPaths(job, static_cast<int>(k));
      // A file an earlier point or phase may create or grow: its region is
      // known only then, and the run checks it. That is this clone's own
      // file, so the job's other clones are still checked (they were
      // skipped, and a clone whose path is a FIFO failed at every point).
      // A device that is not there is no file a run creates: refused now,
      // unless a --sweep-cmd hook may make it (modprobe null_blk, losetup).
      bool settled = true;
      for (const auto& p : paths) {
        struct stat sb;
        if (!diskless && ::stat(p.c_str(), &sb) != 0 && (hooks_make_paths || !NoRunCreates(p)))
          settled = false;
        if (!diskless && growing.count(file_key(p)) != 0) settled = false;
      }
      if (!settled) continue;
      bool small = false;
      Result<std::vector<TargetFile>> resolved =
          ResolveTargets(job, static_cast<int>(k), diskless, &paths, &small);
      if (!resolved.ok()) {
        // Failed alone at run time (one clone of several, an errno): not a refusal.
        if ((small && n > 1) || FailsJobAlone(resolved.status())) continue;
        return resolved.status();
      }
      for (const TargetFile& t : *resolved) {
        IOB_RETURN_IF_ERROR(CheckDirectAlignment(job, t, resolved->size()));
        if (t.regular_file() && t.exists && t.region_offset + t.region_size > t.current_size)
          grows.push_back(file_key(t.path));
      }
    }
    growing.insert(grows.begin(), grows.end());
  }
  return Status::Ok();
}

Result<RunResult> RunJobs(const std::vector<JobSpec>& jobs_in, const RunOptions& opts) {
  // read_iolog: the log says which files, directions and sizes the job has
  // (run/replay.h); the run core then runs the reshaped copy.
  // opendir: the files found join the job's filenames, before anything
  // (safety checks, targets) looks at them; a file list built from several
  // filename= or cut by nrfiles= is explained in the job's notes.
  // time_based without a runtime: fio runs the job size-based (and says
  // so); iobench ran it until a signal.
  // A log recorded in one phase may be replayed in a later one (stonewall):
  // that replay is reshaped when its phase starts, once the log is written.
  std::vector<int> phase_of;
  {
    std::vector<Phase> phases;
    std::vector<int> groupids;
    if (GroupJobs(jobs_in, &phases, &groupids).ok()) {
      phase_of.assign(jobs_in.size(), 0);
      for (size_t p = 0; p < phases.size(); ++p)
        for (size_t j : phases[p].jobs) phase_of[j] = static_cast<int>(p);
    }
  }
  IOB_RETURN_IF_ERROR(CheckIologsApart(jobs_in, phase_of));
  const std::vector<bool> deferred = ReplaysEarlierRecord(jobs_in, phase_of);
  auto diskless_job = [&opts](const JobSpec& j) {
    return static_cast<bool>(opts.engine_factory) || DisklessEngine(j.ioengine);
  };
  std::vector<JobSpec> replayed;
  auto untimed = [](const JobSpec& j) { return j.time_based && j.runtime_ns == 0; };
  if (std::any_of(jobs_in.begin(), jobs_in.end(), [&](const JobSpec& j) {
        return !j.read_iolog.empty() || FileListNeedsRun(j) || untimed(j) ||
               !TimingNotes(j).empty() || j.ioengine == "filecreate";
      })) {
    replayed = jobs_in;
    for (size_t ji = 0; ji < replayed.size(); ++ji) {
      JobSpec& job = replayed[ji];
      if (untimed(job)) {
        job.time_based = false;
        job.parse_notes.push_back("time_based (" + SettingOf(job, "time_based").Where() +
                                  ") is ignored: it needs a runtime, and none is set; the job "
                                  "ran size-based, as fio runs it");
      }
      for (auto& n : TimingNotes(job)) job.parse_notes.push_back(std::move(n));
      if (job.ioengine == "filecreate") ShapeFileCreateJob(&job);
      if (FileListNeedsRun(job) && job.unimplemented.empty())
        IOB_RETURN_IF_ERROR(ResolveJobFiles(&job));
      if (!job.read_iolog.empty() && job.unimplemented.empty() && !deferred[ji])
        IOB_RETURN_IF_ERROR(PrepareReplayJob(&job, diskless_job(job)));
    }
  }
  const std::vector<JobSpec>& jobs = replayed.empty() ? jobs_in : replayed;
  const std::vector<uint32_t> first_worker_of = FirstWorkerOf(jobs);
  for (size_t ji = 0; ji < jobs.size(); ++ji)
    if (!deferred[ji]) IOB_RETURN_IF_ERROR(ValidateJob(jobs[ji], opts));
  if (!opts.engine_factory) {
    // Before any I/O: --readonly, devices in use, and the limits the run
    // needs (memory for buffers, files, threads, aio-max-nr, memlock).
    if (opts.readonly)
      for (const auto& job : jobs) IOB_RETURN_IF_ERROR(sys::CheckReadonly(job));
    IOB_RETURN_IF_ERROR(sys::CheckJobsWriteSafety(jobs));
    IOB_RETURN_IF_ERROR(
        CheckSideFilesAvoidRunFiles(jobs, first_worker_of, opts.bandwidth_log, opts.job_files));
    IOB_RETURN_IF_ERROR(CheckOutputsOutsideDevices(jobs, first_worker_of, opts.bandwidth_log));
  }

  // Phases and reporting groups.
  std::vector<Phase> phases;
  std::vector<int> groupids;
  IOB_RETURN_IF_ERROR(GroupJobs(jobs, &phases, &groupids));
  if (!opts.engine_factory) {  // the limits phase by phase: they run one after another
    std::vector<std::vector<size_t>> phase_jobs;
    for (const Phase& phase : phases) phase_jobs.push_back(phase.jobs);
    IOB_RETURN_IF_ERROR(sys::CheckResourceLimits(jobs, phase_jobs));
  }

  RunResult result;
  result.point = opts.point;
  result.repeat_run = opts.repeat_run;
  result.repeat_n = opts.repeat_n;
  // The first run of the process counts from the process's start, as fio's
  // "elapsed" does (its parse, layout and setup included); a later run (a
  // sweep point, a repeat) from its own start, as a run of its own would.
  static std::atomic<bool> first_run{true};
  result.start_ms = first_run.exchange(false) ? kProcessStartMs : WallTimeMs();
  for (size_t i = 0; i < jobs.size(); ++i)
    if (result.groups.empty() || result.groups.back().id != groupids[i])
      result.groups.emplace_back().id = groupids[i];

  // --- issue 8: one log writer per run, only when something logs ---
  std::unique_ptr<LogWriter> log_writer;
  std::unique_ptr<AggregateBwLog> agg;
  bool logs = opts.bandwidth_log;
  for (const auto& job : jobs) logs |= IoLogOptions::FromJob(job).Any() || !job.write_iolog.empty();
  if (logs) {
    IOB_ASSIGN_OR_RETURN(log_writer, LogWriter::Create());
    if (opts.bandwidth_log) {
      IOB_ASSIGN_OR_RETURN(agg, AggregateBwLog::Create(log_writer.get(), ""));
    }
  }
  PhaseRunner runner(jobs, opts, &result);
  runner.SetLogs(log_writer.get(), agg.get(), NowNs());
  // --- end issue 8 ---
  // A deferred replay (above), reshaped and checked as its phase starts.
  // A job that fails here fails alone (PhaseRunner::FailJob).
  auto prepare_deferred = [&](const Phase& phase) {
    for (size_t j : phase.jobs) {
      if (!deferred[j] || !replayed[j].unimplemented.empty()) continue;
      JobSpec& job = replayed[j];
      if (log_writer != nullptr) log_writer->Drain();  // the earlier phase's lines, on disk
      Status st = PrepareReplayJob(&job, diskless_job(job));
      if (st.ok()) st = ValidateJob(job, opts);
      if (st.ok() && !opts.engine_factory) {
        if (opts.readonly) st = sys::CheckReadonly(job);
        if (st.ok()) st = sys::CheckJobsWriteSafety({job});
      }
      if (!st.ok()) runner.FailJob(j, st);
    }
  };
  size_t phases_run = 0;
  const int left_behind_before = LeftBehindThreads();
  for (const Phase& phase : phases) {
    if (opts.stop_signal != nullptr && opts.stop_signal->load() != 0) {
      result.interrupted = true;
      break;
    }
    ++phases_run;
    std::vector<size_t> later;
    for (size_t p = phases_run; p < phases.size(); ++p)
      later.insert(later.end(), phases[p].jobs.begin(), phases[p].jobs.end());
    runner.SetLaterJobs(std::move(later), &groupids);
    bool interrupted = false;
    auto listed_jobs = [&result] {
      size_t n = 0;
      for (const auto& g : result.groups) n += g.jobs.size();
      return n;
    };
    const size_t listed = listed_jobs();
    prepare_deferred(phase);
    Status st = runner.Run(phase, groupids, &interrupted);
    // A signal while the phase's files were laid out stops the run as one
    // while it was set up: no error, the jobs are listed with no I/O.
    // Threads this run left behind (a stuck device); earlier runs' in the
    // same process (the tests) are not this run's business.
    const bool left_behind = LeftBehindThreads() > left_behind_before;
    if (st.code() == Status::Code::kInterrupted && !left_behind) {
      st = Status::Ok();
      interrupted = true;
    }
    if (!st.ok()) {
      // A stuck job's thread may still log when its device wakes up: its
      // log writer must outlive it (the process exits soon; see main.cc).
      if (left_behind) {
        KeepForLeftBehindThreads(log_writer.release());
        KeepForLeftBehindThreads(agg.release());
        return st;
      }
      // A refusal (bad input, a safety check, a limit) refuses the run.
      if (phases_run == 1 && (st.code() != Status::Code::kIoError || IsRefusal(st))) return st;
      // A phase could not start (its file system refused O_DIRECT, ran out
      // of space, went read-only): as fio, its jobs are listed with no I/O,
      // the error on the job it names (the run fails, exit 1), and the run
      // goes on with the next phase. The phases before it keep their
      // results; a first phase's failure no longer ends the whole run, and
      // a run of one phase prints its report too (fio's JSON and terse
      // output have the job with its error; iobench's had nothing).
      std::vector<size_t> before;
      for (const auto& g : result.groups) before.push_back(g.jobs.size());
      AppendUnrunJobs(jobs, groupids, phase.jobs, &result);
      MarkPhaseError(st, before, &result);
      continue;
    }
    if (interrupted) {
      result.interrupted = true;
      // Stopped before its jobs started (in its layout or set-up): they are
      // listed with no I/O, as fio lists a job it terminated on a signal
      // before it ran, and marked interrupted (a sweep's table marks the
      // point cut, not a measured 0). Nothing was listed, and a script
      // reading the terse or JSON output found no job at all.
      if (listed_jobs() == listed)
        AppendUnrunJobs(jobs, groupids, phase.jobs, &result, /*interrupted=*/true);
      break;
    }
    if (runner.exit_all()) break;  // exit_what=all: the later phases do not run
  }
  // The jobs of the phases that never ran (a signal, exit_what=all) are
  // reported with no I/O, as fio lists them: the JSON and terse records are
  // there, the normal report skips them (no I/O, no block).
  for (size_t p = phases_run; p < phases.size(); ++p)
    AppendUnrunJobs(jobs, groupids, phases[p].jobs, &result);
  // --- issue 8: every clone has Finish()ed its logger; flush and close ---
  if (log_writer != nullptr) {
    runner.FinishAggregate(NowNs());
    const Status st = log_writer->Stop();
    for (const std::string& w : log_writer->DeletedFiles())
      std::fprintf(stderr, "iobench: warning: %s\n", w.c_str());
    const LogWriter::Stats ls = log_writer->GetStats();
    bool noted = ls.stalls == 0;  // a fact of the run: said once, on the first logging job
    for (auto& g : result.groups)
      for (auto& j : g.jobs) {
        if (noted || !IoLogOptions::FromJob(j.spec).Any()) continue;
        noted = true;
        j.notes.push_back("logging slowed the run down: workers waited " +
                          std::to_string(ls.stalls) + " times (" +
                          std::to_string(ls.stall_ns / 1000000) +
                          " ms) for the log writer to catch up with the disk");
      }
    if (!st.ok()) {
      // The logs are incomplete: the run failed even if the I/O did not.
      for (auto& g : result.groups) {
        if (g.jobs.empty()) continue;
        JobResult& j = g.jobs.front();
        if (j.error == 0) {
          j.error = st.errno_value() != 0 ? st.errno_value() : EIO;
          j.error_message = "log: " + st.message();
        }
        break;
      }
    }
  }
  // --- end issue 8 ---
  // Groups that never ran (after an interruption) are dropped.
  result.groups.erase(std::remove_if(result.groups.begin(), result.groups.end(),
                                     [](const GroupResult& g) { return g.jobs.empty(); }),
                      result.groups.end());
  bool job_error = false;
  // A signal during an exec_postrun, after every job's I/O, cut nothing short.
  result.io_complete = phases_run == phases.size() && !runner.cut_short();
  for (const auto& g : result.groups)
    for (const auto& j : g.jobs) {
      job_error |= j.error != 0;
      if (j.interrupted) result.io_complete = false;
    }
  // 128 + the signal, as the process exits (129 SIGHUP, 130 SIGINT, 143
  // SIGTERM): the JSON said 130 after a SIGTERM that exited 143.
  const int signo = opts.stop_signal != nullptr ? opts.stop_signal->load() : 0;
  const int stopped = signo > 0 && signo < 64 ? 128 + signo : 130;
  result.exit_code = result.interrupted ? stopped : job_error ? 1 : 0;
  // A run none of whose phases got past its layout (the file system full,
  // out of inodes) never collected its context, but the report still
  // describes where it ran: the header said "iobench-0.1.0" alone and the
  // JSON context held zeros that looked measured. The host's facts; no
  // target, since none was laid out.
  if (!opts.engine_factory && result.context.kernel.empty() &&
      result.context.iobench_version.empty())
    result.context = sys::CollectContext({}, {});
  StampReportTime(&result);
  return result;
}

int LeftBehindThreads() { return g_left_behind.load(); }

}  // namespace iobench
