#include "stats/helper_cpu.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace iobench {
namespace {

CpuUsage FromRusage(const struct rusage& ru) {
  CpuUsage c;
  c.user_us = static_cast<uint64_t>(ru.ru_utime.tv_sec) * 1000000u +
              static_cast<uint64_t>(ru.ru_utime.tv_usec);
  c.sys_us = static_cast<uint64_t>(ru.ru_stime.tv_sec) * 1000000u +
             static_cast<uint64_t>(ru.ru_stime.tv_usec);
  c.ctx = static_cast<uint64_t>(ru.ru_nvcsw + ru.ru_nivcsw);
  c.majf = static_cast<uint64_t>(ru.ru_majflt);
  c.minf = static_cast<uint64_t>(ru.ru_minflt);
  return c;
}

CpuUsage SelfCpuNow() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return FromRusage(ru);
}

uint64_t Sub(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

// Reads a small /proc file into buf (NUL-terminated). Returns bytes or -1.
ssize_t ReadSmall(const char* path, char* buf, size_t cap) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, cap - 1);
  close(fd);
  if (n < 0) return -1;
  buf[n] = '\0';
  return n;
}

// utime and stime (fields 14 and 15) of /proc/<pid>/task/<tid>/stat. The
// comm field (2) may contain spaces and parentheses, so parse after the last ')'.
bool ParseStatTimes(const char* stat, uint64_t* ut, uint64_t* st) {
  const char* p = std::strrchr(stat, ')');
  if (p == nullptr) return false;
  ++p;
  // After ')' come fields 3..; utime is the 12th of those.
  for (int field = 3; field < 14; ++field) {
    p = std::strchr(p + 1, ' ');
    if (p == nullptr) return false;
  }
  char* end = nullptr;
  *ut = std::strtoull(p + 1, &end, 10);
  if (end == nullptr || *end != ' ') return false;
  *st = std::strtoull(end + 1, &end, 10);
  return true;
}

uint64_t TicksToUs(uint64_t ticks) {
  static const long hz = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
  return ticks * 1000000u / static_cast<uint64_t>(hz);
}

// The CPU time of thread `tid` of this process in ns from its thread CPU
// clock (clock_gettime on the clock id the kernel's MAKE_THREAD_CPUCLOCK
// forms; any thread of the calling process may be read, io_uring's helpers
// included). 0 when it cannot be read: the thread is gone, or /proc's tids
// are another PID namespace's than ours (a host /proc in a container), where
// the number would name another thread or none.
uint64_t ThreadClockNs(pid_t tid) {
  static const bool proc_is_ours = [] {
    char link[64];
    const ssize_t n = readlink("/proc/thread-self", link, sizeof(link) - 1);
    if (n <= 0) return false;
    link[n] = '\0';
    char want[64];
    std::snprintf(want, sizeof(want), "%d/task/%d", static_cast<int>(getpid()),
                  static_cast<int>(gettid()));
    return std::strcmp(link, want) == 0;
  }();
  if (!proc_is_ours || tid <= 0) return 0;
  // CPUCLOCK_PERTHREAD_MASK (4) | CPUCLOCK_SCHED (2), the tid inverted above them.
  const clockid_t id = static_cast<clockid_t>((~static_cast<unsigned>(tid) << 3) | 6u);
  timespec ts{};
  if (clock_gettime(id, &ts) != 0) return 0;
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

// CPU of one helper thread in µs. io-wq and SQPOLL threads never run user
// code, so all of their time is system time; schedstat's sum_exec_runtime
// gives it in ns. /proc/.../stat only has clock ticks (10 ms), which round a
// pool of short-lived workers down to zero, so it is the fallback for
// kernels without CONFIG_SCHED_INFO.
//
// glibc's POSIX AIO threads (user_code) run user code as well: their
// schedstat total is split into user and system time in the ratio of the
// stat file's tick counts (what the kernel does for getrusage), all system
// time while both counts are still 0.
//
// An io_uring helper's total comes first from its thread CPU clock, which
// is exact at the moment of the call: schedstat's figure of a thread that is
// running moves only when its CPU's scheduler updates it (a tick), so two
// readings of a spinning SQPOLL thread could differ by more than the wall
// time between them, up to a tick more.
bool ReadHelperCpu(pid_t tid, bool user_code, char* buf, size_t cap, uint64_t* ut_us,
                   uint64_t* st_us) {
  if (!user_code) {
    if (const uint64_t ns = ThreadClockNs(tid); ns != 0) {
      *ut_us = 0;
      *st_us = ns / 1000;
      return true;
    }
  }
  char path[320];
  std::snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", static_cast<int>(tid));
  uint64_t total_us = 0;
  bool have_total = false;
  if (ReadSmall(path, buf, cap) > 0) {
    char* end = nullptr;
    unsigned long long ns = std::strtoull(buf, &end, 10);
    if (end != buf) {
      total_us = ns / 1000;
      have_total = true;
      if (!user_code) {
        *ut_us = 0;
        *st_us = total_us;
        return true;
      }
    }
  }
  std::snprintf(path, sizeof(path), "/proc/self/task/%d/stat", static_cast<int>(tid));
  uint64_t ut = 0, st = 0;
  if (ReadSmall(path, buf, cap) <= 0 || !ParseStatTimes(buf, &ut, &st)) {
    if (!have_total) return false;
    ut = 0;  // no split known: all system time, as for the kernel's helpers
  }
  if (!have_total) {
    *ut_us = TicksToUs(ut);
    *st_us = TicksToUs(st);
    return true;
  }
  *ut_us = ut + st == 0
               ? 0
               : static_cast<uint64_t>(static_cast<unsigned __int128>(total_us) * ut / (ut + st));
  *st_us = total_us - *ut_us;
  return true;
}

// True when a SQPOLL ring made by the calling thread gets a thread named
// "iou-sqp-<number>" (the kernel's name for the calling thread's helpers):
// start-up only, at most ~100 ms (and until that thread is gone), and only
// in a PID namespace whose /proc shows more than our own namespace's ids.
bool NamesHelpersAs(pid_t number) {
  char want[32];
  std::snprintf(want, sizeof(want), "iou-sqp-%d\n", static_cast<int>(number));
  auto seen = [&] {
    DIR* dir = opendir("/proc/self/task");
    if (dir == nullptr) return false;
    bool found = false;
    char path[320], buf[64];
    while (struct dirent* de = readdir(dir)) {
      if (de->d_name[0] < '0' || de->d_name[0] > '9') continue;
      std::snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
      if (ReadSmall(path, buf, sizeof(buf)) > 0 && std::strcmp(buf, want) == 0) found = true;
    }
    closedir(dir);
    return found;
  };
  if (seen()) return false;  // a thread we did not make: no proof
  io_uring_params params{};
  params.flags = IORING_SETUP_SQPOLL;
  params.sq_thread_idle = 1;
  const int fd = static_cast<int>(syscall(__NR_io_uring_setup, 1, &params));
  if (fd < 0) return false;
  bool found = false;
  for (int i = 0; i < 100 && !found; ++i) {
    found = seen();
    if (!found) usleep(1000);
  }
  close(fd);
  // The ring's thread outlives close() (the kernel tears the ring down in a
  // work item): wait until it is gone, or the run's helper sampler would
  // count it as the job's SQPOLL thread (its CPU and peak_threads).
  for (int i = 0; i < 500 && found && seen(); ++i) usleep(1000);
  return found;
}

}  // namespace

HelperCpuSampler::HelperCpuSampler(uint32_t interval_ms)
    : interval_ms_(interval_ms == 0 ? 100 : interval_ms) {}

HelperCpuSampler::~HelperCpuSampler() { Stop(); }

CpuUsage HelperCpuSampler::ThreadCpuNow() {
  struct rusage ru;
  getrusage(RUSAGE_THREAD, &ru);
  CpuUsage c = FromRusage(ru);
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
    c.thread_ns =
        static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
  return c;
}

CpuUsage CpuSince(const CpuUsage& start, const CpuUsage& now) {
  CpuUsage d;
  d.ctx = Sub(now.ctx, start.ctx);
  d.majf = Sub(now.majf, start.majf);
  d.minf = Sub(now.minf, start.minf);
  uint64_t ut = Sub(now.user_us, start.user_us), st = Sub(now.sys_us, start.sys_us);
  if (now.thread_ns == 0) {  // no exact clock: getrusage's figures as they are
    d.user_us = ut;
    d.sys_us = st;
    return d;
  }
  const uint64_t total_us = Sub(now.thread_ns, start.thread_ns) / 1000;
  if (ut + st == 0) {  // no tick in the interval: the thread's overall ratio
    ut = now.user_us;
    st = now.sys_us;
  }
  d.user_us =
      ut + st == 0
          ? 0
          : static_cast<uint64_t>(static_cast<unsigned __int128>(total_us) * ut / (ut + st));
  d.sys_us = total_us - d.user_us;
  return d;
}

Status HelperCpuSampler::Start() {
  if (running_) return Status::Internal("HelperCpuSampler::Start called twice");
  tracks_.clear();
  owner_peak_.clear();
  peak_iowq_ = peak_sqpoll_ = peak_aio_ = peak_total_ = 0;
  samples_ = 0;
  sampler_own_ = CpuUsage();
  stop_ = false;
  // Baseline of the helpers alive now (a previous job's ring may still have
  // workers), then the process baseline.
  {
    std::lock_guard<std::mutex> lock(sample_mu_);
    SampleLocked(/*initial=*/true);
    active_ = true;
  }
  self_start_ = SelfCpuNow();
  start_wall_ = std::chrono::steady_clock::now();
  try {
    thread_ = std::thread([this] { Loop(); });
  } catch (const std::system_error& e) {
    return Status::Limit(std::string("helper CPU sampler: cannot start thread: ") + e.what());
  }
  running_ = true;
  return Status::Ok();
}

void HelperCpuSampler::Stop() {
  if (!running_) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_one();
  thread_.join();  // the thread takes the final sample before it exits
  {
    std::lock_guard<std::mutex> lock(sample_mu_);
    active_ = false;
  }
  self_end_ = SelfCpuNow();
  end_wall_ = std::chrono::steady_clock::now();
  running_ = false;
}

void HelperCpuSampler::Loop() {
  const CpuUsage own_start = ThreadCpuNow();
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    cv_.wait_for(lock, std::chrono::milliseconds(interval_ms_), [this] { return stop_; });
    lock.unlock();
    try {                         // no exception leaves the thread: out of memory, the samples stop
      Sample(/*initial=*/false);  // also the final sample when stop_ is set
    } catch (const std::bad_alloc&) {
      lock.lock();
      break;
    }
    lock.lock();
  }
  const CpuUsage own_end = ThreadCpuNow();
  sampler_own_.user_us = Sub(own_end.user_us, own_start.user_us);
  sampler_own_.sys_us = Sub(own_end.sys_us, own_start.sys_us);
}

void HelperCpuSampler::SampleNow() {
  std::lock_guard<std::mutex> lock(sample_mu_);
  if (active_) SampleLocked(/*initial=*/false);
}

HelperCpu HelperCpuSampler::SampleForThread(pid_t worker_tid, pid_t kernel_tid, bool scan,
                                            std::vector<pid_t>* helpers) {
  std::lock_guard<std::mutex> lock(sample_mu_);
  if (helpers != nullptr) helpers->clear();
  if (!active_) return HelperCpu();
  if (scan) SampleLocked(/*initial=*/false);
  char buf[1024];
  for (auto& [tid, t] : tracks_) {
    if (!Mine(t, worker_tid, kernel_tid)) continue;
    if (helpers != nullptr) helpers->push_back(tid);
    if (scan) continue;  // just read
    uint64_t ut = 0, st = 0;
    if (!ReadHelperCpu(tid, t.kind == Kind::kPosixAio, buf, sizeof(buf), &ut, &st)) continue;
    t.last_ut = std::max(t.last_ut, ut);
    t.last_st = std::max(t.last_st, st);
  }
  return ForThread(worker_tid, kernel_tid);
}

void HelperCpuSampler::ReadThreads(const std::vector<pid_t>& helpers, std::vector<Reading>* out) {
  out->clear();
  char buf[1024];
  for (pid_t tid : helpers) {
    Reading r{tid, 0, 0};
    // Only the total: EndPeriod splits it as the kind's last sample did.
    if (ReadHelperCpu(tid, /*user_code=*/false, buf, sizeof(buf), &r.user_us, &r.sys_us))
      out->push_back(r);
  }
}

void HelperCpuSampler::EndPeriod(const std::vector<Reading>& readings) {
  std::lock_guard<std::mutex> lock(sample_mu_);
  for (const Reading& r : readings) {
    auto it = tracks_.find(r.tid);
    if (it == tracks_.end()) continue;
    Track& t = it->second;
    const uint64_t total = r.user_us + r.sys_us;
    const uint64_t last = t.last_ut + t.last_st;
    // The kind's user/system split as last sampled, scaled to this total.
    t.end_ut =
        last == 0 ? 0
                  : static_cast<uint64_t>(static_cast<unsigned __int128>(total) * t.last_ut / last);
    t.end_st = total - t.end_ut;
    t.ended = true;
  }
}

void HelperCpuSampler::Sample(bool initial) {
  std::lock_guard<std::mutex> lock(sample_mu_);
  SampleLocked(initial);
}

void HelperCpuSampler::SampleLocked(bool initial) {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return;
  uint32_t n_iowq = 0, n_sqpoll = 0, n_aio = 0;
  std::vector<pid_t> seen;  // the helpers alive in this sample
  char path[320];           // d_name is up to 255 bytes
  char buf[1024];
  while (struct dirent* de = readdir(dir)) {
    if (de->d_name[0] < '0' || de->d_name[0] > '9') continue;
    std::snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
    if (ReadSmall(path, buf, sizeof(buf)) <= 0) continue;
    Kind kind;
    const pid_t owner = static_cast<pid_t>(std::atoi(buf + 8));
    const pid_t tid = static_cast<pid_t>(std::atoi(de->d_name));
    if (std::strncmp(buf, "iou-wrk-", 8) == 0) {
      kind = Kind::kIoWq;
    } else if (std::strncmp(buf, "iou-sqp-", 8) == 0) {
      kind = Kind::kSqPoll;
    } else if (std::strncmp(buf, "iob-aio-", 8) == 0 && tid != owner) {
      // glibc's POSIX AIO threads carry the name of the posixaio worker
      // that made them (engines/posixaio.cc); the worker itself is not one.
      kind = Kind::kPosixAio;
    } else {
      continue;
    }
    uint64_t ut = 0, st = 0;
    if (!ReadHelperCpu(tid, kind == Kind::kPosixAio, buf, sizeof(buf), &ut, &st)) continue;
    auto it = tracks_.find(tid);
    if (it == tracks_.end()) {
      Track t{kind, owner};
      // Alive at Start: only what it uses from now on counts. Born later:
      // all of its CPU counts.
      if (initial) {
        t.base_ut = ut;
        t.base_st = st;
      }
      it = tracks_.emplace(tid, t).first;
    }
    it->second.last_ut = ut;
    it->second.last_st = st;
    if (kind == Kind::kIoWq)
      ++n_iowq;
    else if (kind == Kind::kSqPoll)
      ++n_sqpoll;
    else
      ++n_aio;
    seen.push_back(tid);
  }
  closedir(dir);
  if (initial) return;
  // Per job after the whole directory: an io-wq worker's owner may be a
  // SQPOLL thread listed after it.
  std::map<std::pair<bool, pid_t>, uint32_t> per_owner;  // (posixaio?, owner)
  for (pid_t tid : seen) {
    const Track& t = tracks_.at(tid);
    ++per_owner[{t.kind == Kind::kPosixAio, JobOwner(t)}];
  }
  ++samples_;
  if (n_iowq > peak_iowq_) peak_iowq_ = n_iowq;
  if (n_sqpoll > peak_sqpoll_) peak_sqpoll_ = n_sqpoll;
  if (n_aio > peak_aio_) peak_aio_ = n_aio;
  if (n_iowq + n_sqpoll + n_aio > peak_total_) peak_total_ = n_iowq + n_sqpoll + n_aio;
  for (const auto& [owner, n] : per_owner) {
    uint32_t& peak = owner_peak_[owner];
    if (n > peak) peak = n;
  }
}

void AttributeHelperCpu(HelperCpuDetail* d, const CpuUsage& workers_own_total,
                        const HelperCpu& tracked) {
  // The totals are exact; each user/sys split is the kernel's estimate from
  // ticks, made per thread and again for the whole process, and the two need
  // not agree (with SQPOLL the worker's own user time exceeded the process's
  // by 0.25 s). Subtracting user and system apart and dropping a negative
  // part counted that time twice: in the worker's own CPU and again as
  // "other" helper CPU. So the helpers get the process's total minus the
  // workers' and the sampler's, and only that total is split.
  const uint64_t helpers_total = Sub(d->process_user_us + d->process_sys_us,
                                     workers_own_total.user_us + workers_own_total.sys_us +
                                         d->sampler_user_us + d->sampler_sys_us);
  d->all_helpers_user_us = std::min(
      helpers_total, Sub(Sub(d->process_user_us, workers_own_total.user_us), d->sampler_user_us));
  d->all_helpers_sys_us = helpers_total - d->all_helpers_user_us;
  HelperCpu& c = d->cpu;
  c = tracked;
  const uint64_t tracked_user = c.iowq_user_us + c.sqpoll_user_us + c.aio_user_us;
  const uint64_t tracked_sys = c.iowq_sys_us + c.sqpoll_sys_us + c.aio_sys_us;
  const uint64_t other_total = Sub(helpers_total, tracked_user + tracked_sys);
  c.other_user_us = std::min(other_total, Sub(d->all_helpers_user_us, tracked_user));
  c.other_sys_us = other_total - c.other_user_us;
}

uint64_t HelperCpuSampler::WallUs() const {
  const auto us =
      std::chrono::duration_cast<std::chrono::microseconds>(end_wall_ - start_wall_).count();
  return us > 0 ? static_cast<uint64_t>(us) : 0;
}

HelperCpuDetail HelperCpuSampler::Detail(const CpuUsage& workers_own_total) const {
  HelperCpuDetail d;
  d.process_user_us = Sub(self_end_.user_us, self_start_.user_us);
  d.process_sys_us = Sub(self_end_.sys_us, self_start_.sys_us);
  d.sampler_user_us = sampler_own_.user_us;
  d.sampler_sys_us = sampler_own_.sys_us;
  HelperCpu tracked;
  for (const auto& [tid, t] : tracks_) {
    (void)tid;
    AddTo(&tracked, t.kind, Sub(t.last_ut, t.base_ut), Sub(t.last_st, t.base_st));
  }
  AttributeHelperCpu(&d, workers_own_total, tracked);
  d.cpu.peak_threads = peak_total_;
  d.peak_iowq_threads = peak_iowq_;
  d.peak_sqpoll_threads = peak_sqpoll_;
  d.peak_aio_threads = peak_aio_;
  d.samples = samples_;
  return d;
}

pid_t HelperCpuSampler::JobOwner(const Track& t) const {
  if (t.kind != Kind::kIoWq) return t.owner;
  // With SQPOLL the SQPOLL thread submits, so the io-wq workers are its own
  // and carry its tid: "iou-wrk-<sqp tid>", not the job thread's. That
  // thread is named after the job's: follow the chain one step.
  auto it = tracks_.find(t.owner);
  return it != tracks_.end() && it->second.kind == Kind::kSqPoll ? it->second.owner : t.owner;
}

bool HelperCpuSampler::Mine(const Track& t, pid_t worker_tid, pid_t kernel_tid) const {
  // io_uring's helpers carry the kernel's number of their creator, glibc's
  // the name engines/posixaio.cc gave: the worker's own gettid().
  return t.kind == Kind::kPosixAio ? t.owner == worker_tid
                                   : kernel_tid != 0 && JobOwner(t) == kernel_tid;
}

HelperCpu HelperCpuSampler::ForThread(pid_t worker_tid, pid_t kernel_tid,
                                      bool to_period_end) const {
  HelperCpu h;
  for (const auto& [tid, t] : tracks_) {
    (void)tid;
    if (!Mine(t, worker_tid, kernel_tid)) continue;
    const bool at_end = to_period_end && t.ended;
    const uint64_t u = Sub(at_end ? t.end_ut : t.last_ut, t.base_ut);
    const uint64_t s = Sub(at_end ? t.end_st : t.last_st, t.base_st);
    AddTo(&h, t.kind, u, s);
  }
  // A worker has one engine: at most one of the two peaks is not 0.
  for (const auto& key : {std::make_pair(true, worker_tid), std::make_pair(false, kernel_tid)}) {
    if (key.second == 0) continue;
    auto it = owner_peak_.find(key);
    if (it != owner_peak_.end()) h.peak_threads += it->second;
  }
  return h;
}

void HelperCpuSampler::AddTo(HelperCpu* h, Kind kind, uint64_t user_us, uint64_t sys_us) {
  switch (kind) {
    case Kind::kIoWq:
      h->iowq_user_us += user_us;
      h->iowq_sys_us += sys_us;
      break;
    case Kind::kSqPoll:
      h->sqpoll_user_us += user_us;
      h->sqpoll_sys_us += sys_us;
      break;
    case Kind::kPosixAio:
      h->aio_user_us += user_us;
      h->aio_sys_us += sys_us;
      break;
  }
}

pid_t HelperCpuSampler::CurrentTid() { return static_cast<pid_t>(gettid()); }

pid_t HelperCpuSampler::KernelTid() {
  // The initial PID namespace's inode number is fixed (PROC_PID_INIT_INO).
  static constexpr char kInitPidNs[] = "pid:[4026531836]";
  const pid_t tid = static_cast<pid_t>(gettid());
  char link[64];
  ssize_t n = readlink("/proc/self/ns/pid", link, sizeof(link) - 1);
  if (n < 0) return tid;  // no /proc: the sampler sees no helpers either
  link[n] = '\0';
  if (std::strcmp(link, kInitPidNs) == 0) return tid;
  // A child PID namespace (a container): gettid() is our namespace's number,
  // the kernel names the helpers with the initial namespace's. NSpid lists
  // the tid in each namespace from the one /proc was mounted in inwards; its
  // first entry is that number only when this /proc belongs to the initial
  // namespace (its pid 1 is the initial namespace's init).
  char buf[2048];
  if (ReadSmall("/proc/thread-self/status", buf, sizeof(buf)) <= 0) return 0;
  const char* p = std::strstr(buf, "\nNSpid:");
  if (p == nullptr) return 0;
  char* end = nullptr;
  const long first = std::strtol(p + 7, &end, 10);
  if (end == p + 7 || first <= 0) return 0;
  // One entry: /proc is our own namespace's (a container's): no id of the
  // initial namespace is visible.
  if (std::strtol(end, nullptr, 10) <= 0) return 0;
  const pid_t candidate = static_cast<pid_t>(first);
  n = readlink("/proc/1/ns/pid", link, sizeof(link) - 1);
  if (n >= 0) {
    link[n] = '\0';
    return std::strcmp(link, kInitPidNs) == 0 ? candidate : 0;
  }
  // /proc/1 is not ours to look at (no ptrace access): ask the kernel. A
  // throw-away SQPOLL ring's thread is named "iou-sqp-<our kernel tid>".
  return NamesHelpersAs(candidate) ? candidate : 0;
}

HelperCpu HelperCpuSampler::Result(const CpuUsage& workers_own_total) const {
  return Detail(workers_own_total).cpu;
}

std::vector<HelperCpu> SplitHelperCpu(const HelperCpu& group,
                                      const std::vector<uint64_t>& weights) {
  std::vector<HelperCpu> out(weights.size());
  if (weights.empty()) return out;
  uint64_t total = 0;
  for (uint64_t w : weights) total += w;
  const bool equal = total == 0;
  if (equal) total = weights.size();
  uint64_t HelperCpu::*fields[] = {&HelperCpu::iowq_user_us,   &HelperCpu::iowq_sys_us,
                                   &HelperCpu::sqpoll_user_us, &HelperCpu::sqpoll_sys_us,
                                   &HelperCpu::aio_user_us,    &HelperCpu::aio_sys_us,
                                   &HelperCpu::other_user_us,  &HelperCpu::other_sys_us};
  // The rounding remainder goes to the last job with a weight: a psync job
  // in an io_uring group got 1 µs of io-wq CPU, and a helpers line of zeros.
  size_t last = weights.size() - 1;
  while (!equal && last > 0 && weights[last] == 0) --last;
  for (auto field : fields) {
    uint64_t given = 0;
    for (size_t i = 0; i < weights.size(); ++i) {
      const uint64_t w = equal ? 1 : weights[i];
      uint64_t share;
      if (i > last) {
        share = 0;
      } else if (i == last) {
        share = group.*field - given;
      } else {
        // 128-bit product: CPU µs times submission counts can exceed 64 bits.
        share = static_cast<uint64_t>(static_cast<unsigned __int128>(group.*field) * w / total);
      }
      out[i].*field = share;
      given += share;
    }
  }
  for (size_t i = 0; i < weights.size(); ++i)
    out[i].peak_threads = (equal || weights[i] > 0) ? group.peak_threads : 0;
  return out;
}

}  // namespace iobench
