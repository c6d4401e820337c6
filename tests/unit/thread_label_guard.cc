// Which unit test files start threads, checked. CI's TSan stage builds only
// the test files labelled "threads" (a "// ctest-labels: threads" line; see
// IOBENCH_UNIT_LABEL in CMakeLists.txt): TSan finds races only where threads
// run, and the other files were more than half of its build. A test that
// starts a thread from a file without the label would leave that code
// unchecked by TSan, so here every pthread_create is counted, and a test
// whose file lacks the label and that started one fails the run, naming the
// file. The sanitizer runtimes intercept pthread_create themselves: there
// the check is off (the release build runs it), and compiled out where this
// file is built with the sanitizer.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "test_util.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define IOBENCH_GUARD_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define IOBENCH_GUARD_SANITIZED 1
#endif

#ifndef IOBENCH_GUARD_SANITIZED

namespace {
std::atomic<uint64_t> g_threads_started{0};
}  // namespace

// Takes the place of libc's for the whole test binary (std::thread in
// libstdc++ calls it through the dynamic linker), counts, and hands over.
extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*),
                              void* arg) noexcept {
  using Fn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
  static const Fn real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "pthread_create"));
  if (real == nullptr) return EAGAIN;
  g_threads_started.fetch_add(1, std::memory_order_relaxed);
  return real(thread, attr, start, arg);
}

namespace {

// True when the file has a "// ctest-labels:" line naming "threads".
bool HasThreadsLabel(const std::string& path) {
  static std::mutex mu;
  static std::map<std::string, bool> seen;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = seen.find(path); it != seen.end()) return it->second;
  bool found = false;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("// ctest-labels:", 0) != 0) continue;
    const std::string rest = " " + line.substr(16) + " ";
    if (rest.find(" threads ") != std::string::npos) found = true;
  }
  seen[path] = found;
  return found;
}

std::vector<std::string>& Offenders() {
  static std::vector<std::string> v;
  return v;
}

class ThreadLabelListener : public testing::EmptyTestEventListener {
  uint64_t before_ = 0;
  void OnTestStart(const testing::TestInfo&) override {
    before_ = g_threads_started.load(std::memory_order_relaxed);
  }
  void OnTestEnd(const testing::TestInfo& info) override {
    const uint64_t n = g_threads_started.load(std::memory_order_relaxed) - before_;
    if (n == 0 || HasThreadsLabel(info.file())) return;
    Offenders().push_back(std::string(info.file()) + ": " + info.test_suite_name() + "." +
                          info.name() + " started " + std::to_string(n) + " thread(s)");
  }
};

class ThreadLabelCheck : public testing::Environment {
  void TearDown() override {
    for (const std::string& o : Offenders())
      ADD_FAILURE() << o
                    << ", and its file has no \"// ctest-labels: threads\" line: add one, "
                       "or CI's TSan stage leaves the test out";
  }
};

[[maybe_unused]] const bool g_thread_label_guard = [] {
  if (iobench::testing::UnderAsanOrTsan()) return false;
  testing::UnitTest::GetInstance()->listeners().Append(new ThreadLabelListener);
  testing::AddGlobalTestEnvironment(new ThreadLabelCheck);
  return true;
}();

}  // namespace

#endif  // IOBENCH_GUARD_SANITIZED
