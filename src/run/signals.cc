#include "run/signals.h"

#include <signal.h>
#include <unistd.h>

namespace iobench {
namespace {

std::atomic<int>* g_stop = nullptr;
std::atomic<int>* g_report = nullptr;

// Async-signal-safe: atomic stores and _exit only.
void OnStop(int signo) {
  if (g_stop == nullptr) _exit(128 + signo);
  int expected = 0;
  if (!g_stop->compare_exchange_strong(expected, signo)) _exit(128 + signo);
}

void OnReport(int) {
  if (g_report != nullptr) g_report->store(1);
}

}  // namespace

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
  sigaction(SIGHUP, &sa, nullptr);
  sa.sa_handler = OnReport;
  sigaction(SIGUSR1, &sa, nullptr);
  // A write past RLIMIT_FSIZE raises SIGXFSZ, whose default action kills the process without a
  // word (fio dies the same way). Ignored, the write fails with EFBIG instead, and the job's error
  // names the file and "File too large".
  signal(SIGXFSZ, SIG_IGN);
}

}  // namespace iobench
