#include "run/signals.h"

#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <utility>

namespace iobench {
namespace {

std::atomic<int>* g_stop = nullptr;
std::atomic<int>* g_report = nullptr;
// CLOCK_MONOTONIC ns of the first stop signal; 0 until its handler stored it.
std::atomic<int64_t> g_first_stop_ns{0};

// SetExitUnlinkFiles' list: immutable once published. g_exiting is set by a
// handler that is about to read it, before it loads the pointer; a setter
// that sees it clear after its exchange knows no handler holds the old list
// (both seq_cst), else it leaves the old one alone (the process is exiting).
struct UnlinkList {
  std::vector<std::string> paths;
};
std::atomic<const UnlinkList*> g_unlink{nullptr};
std::atomic<bool> g_exiting{false};

// Async-signal-safe: lstat and unlink. A name the phase's layout or a worker
// is creating at this instant may come back after it (the process exits
// right after; docs/safety.md).
void RemoveExitUnlinkFiles() {
  g_exiting.store(true);
  const UnlinkList* list = g_unlink.load();
  if (list == nullptr) return;
  for (const std::string& path : list->paths) {
    struct stat st {};
    if (lstat(path.c_str(), &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
      (void)unlink(path.c_str());
  }
}

// Not MonotonicNs: that is clock.h's (a unity batch may hold both files).
int64_t SignalClockNs() {
  struct timespec t {};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

// Async-signal-safe: clock_gettime, atomics, write and _exit only.
void OnStop(int signo) {
  if (g_stop == nullptr) _exit(128 + signo);
  const int64_t now = SignalClockNs();
  int expected = 0;
  if (g_stop->compare_exchange_strong(expected, signo)) {
    g_first_stop_ns.store(now);
    return;
  }
  // SIGPIPE is raised by each write to the closed pipe (the status line,
  // the next report): the stop is under way, and the write fails with EPIPE.
  if (signo == SIGPIPE) return;
  // SIGXCPU comes again each second of CPU past the soft RLIMIT_CPU: the
  // stop is under way (the hard limit's SIGKILL is beyond any handler).
  if (signo == SIGXCPU) return;
  // A second signal within a second of the first is the same stop delivered
  // twice: timeout(1) signals its child and then the child's process group,
  // and the run lost its report in 1 of 8 runs. A later one (Ctrl-C again)
  // is a user who does not want to wait: exit now, and say so.
  const int64_t first = g_first_stop_ns.load();
  if (first == 0 || now - first < 1000000000) return;
  RemoveExitUnlinkFiles();  // what unlink=1 removes at the phase's end
  static const char kMsg[] = "iobench: second signal: exiting without a report\n";
  ssize_t ignored = write(STDERR_FILENO, kMsg, sizeof(kMsg) - 1);
  (void)ignored;
  _exit(128 + signo);
}

void OnReport(int) {
  if (g_report != nullptr) g_report->store(1);
}

}  // namespace

void SetExitUnlinkFiles(std::vector<std::string> paths) {
  const UnlinkList* next = paths.empty() ? nullptr : new UnlinkList{std::move(paths)};
  const UnlinkList* old = g_unlink.exchange(next);
  if (!g_exiting.load()) delete old;
}

void InstallSignalHandlers(std::atomic<int>* stop_flag, std::atomic<int>* report_flag) {
  static_assert(std::atomic<int>::is_always_lock_free, "signal handlers need lock-free atomics");
  g_stop = stop_flag;
  g_report = report_flag;
  struct sigaction sa {};
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sa.sa_handler = OnStop;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  // Under nohup SIGHUP arrives ignored, and must stay so: a logout stopped
  // a `nohup iobench job.fio &` run after a second (fio installs no SIGHUP
  // handler, so nohup works for it).
  struct sigaction hup {};
  if (sigaction(SIGHUP, nullptr, &hup) != 0 || hup.sa_handler != SIG_IGN)
    sigaction(SIGHUP, &sa, nullptr);
  // A write to a pipe whose reader has gone (`iobench ... | head`) raises
  // SIGPIPE, whose default action killed the process mid-run: the files of
  // unlink=1 jobs stayed, and what was measured was lost. It is a stop like
  // SIGINT's (exit 141), and the write that raised it fails with EPIPE.
  // Installed whatever was inherited (an ignored SIGPIPE would let the run
  // go on writing into the closed pipe); a hook's child gets the default
  // back (sys/spawn.h).
  sigaction(SIGPIPE, &sa, nullptr);
  // The soft CPU time limit (ulimit -t) raises SIGXCPU, whose default
  // action killed the run (exit 152) with its report lost: a stop like
  // SIGTERM's, exit 152 with the report.
  sigaction(SIGXCPU, &sa, nullptr);
  sa.sa_handler = OnReport;
  sigaction(SIGUSR1, &sa, nullptr);
  // A write past RLIMIT_FSIZE raises SIGXFSZ, whose default action kills the process without a
  // word (fio dies the same way). Ignored, the write fails with EFBIG instead, and the job's error
  // names the file and "File too large".
  signal(SIGXFSZ, SIG_IGN);
}

}  // namespace iobench
