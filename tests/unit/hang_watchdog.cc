// A unit test that hangs, caught. The unit tests run in four shards of one
// process each, under a ctest timeout of 30 minutes: a test that never
// returns used to end its shard after those 30 minutes with no word of which
// test it was, or where its threads waited (a CI run's TSan shard, once).
// Here a thread watches the running test: when one has run for
// IOBENCH_TEST_HANG_S seconds (default 300; the longest test takes a few
// seconds, and about ten times that under a sanitizer on a loaded machine),
// it names the test on stderr, prints every thread's stack (gdb, where it is
// installed), and ends the process with exit code 124, as timeout(1) does.
// IOBENCH_TEST_HANG_S=0 turns the watch off (a test under a debugger).
//
// A thread, not SIGALRM: ThreadSanitizer runs a signal's handler only when
// the thread it lands on leaves a blocking call, and a hung thread does not.
// The thread starts before the first test, so thread_label_guard.cc does not
// count it against any test.
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

extern char** environ;

namespace {

struct Watch {
  std::mutex mu;
  std::string test;  // the running test, "" between tests
  std::chrono::steady_clock::time_point started;
};

Watch& TheWatch() {
  static Watch* w = new Watch;  // never destroyed: the thread outlives main's statics
  return *w;
}

// Every thread's stack, from gdb attached to this process, on stderr.
void PrintStacks() {
  const char* gdb = nullptr;
  for (const char* p : {"/usr/bin/gdb", "/usr/local/bin/gdb"})
    if (access(p, X_OK) == 0) gdb = p;
  if (gdb == nullptr) {
    std::fprintf(stderr, "iobench_tests: no gdb installed, so no thread stacks\n");
    return;
  }
  const std::string pid = std::to_string(getpid());
  const char* argv[] = {gdb,   "-p",  pid.c_str(),           "-batch",
                        "-nx", "-ex", "thread apply all bt", nullptr};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
  pid_t child = -1;
  if (posix_spawn(&child, gdb, &fa, nullptr, const_cast<char**>(argv), environ) == 0) {
    int ws = 0;
    while (waitpid(child, &ws, 0) < 0 && errno == EINTR) {
    }
  }
  posix_spawn_file_actions_destroy(&fa);
}

void WatchLoop(unsigned limit_s) {
  Watch& w = TheWatch();
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::unique_lock<std::mutex> lock(w.mu);
    if (w.test.empty() ||
        std::chrono::steady_clock::now() - w.started < std::chrono::seconds(limit_s))
      continue;
    // The lock is kept to the end: a test that returns now waits in
    // OnTestEnd, so the process ends here, with exit code 124.
    std::fprintf(stderr,
                 "iobench_tests: %s has run for %u s (IOBENCH_TEST_HANG_S): taken as hung, "
                 "the stacks of its threads follow\n",
                 w.test.c_str(), limit_s);
    std::fflush(nullptr);
    PrintStacks();
    std::fprintf(stderr, "iobench_tests: %s hung: exit 124\n", w.test.c_str());
    std::fflush(nullptr);
    _exit(124);
  }
}

class HangListener : public testing::EmptyTestEventListener {
  void OnTestStart(const testing::TestInfo& info) override {
    Watch& w = TheWatch();
    std::lock_guard<std::mutex> lock(w.mu);
    w.test = std::string(info.test_suite_name()) + "." + info.name();
    w.started = std::chrono::steady_clock::now();
  }
  void OnTestEnd(const testing::TestInfo&) override {
    Watch& w = TheWatch();
    std::lock_guard<std::mutex> lock(w.mu);
    w.test.clear();
  }
};

// The limit in seconds from IOBENCH_TEST_HANG_S; 0 when the watch is off.
unsigned HangLimit() {
  const char* env = std::getenv("IOBENCH_TEST_HANG_S");
  if (env == nullptr || *env == '\0') return 300;
  char* end = nullptr;
  const unsigned long v = std::strtoul(env, &end, 10);
  if (*end != '\0' || v > 86400) {
    std::fprintf(stderr, "iobench_tests: IOBENCH_TEST_HANG_S=%s is not a number of seconds\n", env);
    std::exit(2);
  }
  return static_cast<unsigned>(v);
}

[[maybe_unused]] const bool g_hang_watchdog = [] {
  const unsigned limit = HangLimit();
  if (limit == 0) return false;
  testing::UnitTest::GetInstance()->listeners().Append(new HangListener);
  std::thread(WatchLoop, limit).detach();
  return true;
}();

}  // namespace
