// Small helpers shared by the unit tests: size and time units, reading a
// file or a text back, and parsing job files.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "jobfile/parser.h"
#include "temp_dir.h"

// Defined by the ASan and TSan runtimes; null without them. The test files
// may be built without the sanitizer that the library and the binary have
// (the asan preset), so they ask the runtime, not the compiler.
extern "C" void __asan_init() __attribute__((weak));
extern "C" void __tsan_init() __attribute__((weak));

namespace iobench::testing {

// True in a process that runs under ASan or TSan.
inline bool UnderAsanOrTsan() { return &__asan_init != nullptr || &__tsan_init != nullptr; }

inline constexpr uint64_t kMiB = 1ull << 20;
inline constexpr uint64_t kGiB = 1ull << 30;
inline constexpr uint64_t kMs = 1000000;      // in ns
inline constexpr uint64_t kSec = 1000000000;  // in ns

// The whole content of the file at `path` ("" when it cannot be read).
inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The lines of `s`, without their '\n'.
inline std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}

// Parses `text`, a job file that must parse, in an empty temp dir (for its
// includes); its jobs, or none after the test failure.
inline jobfile::ParseOutput ParseOk(const std::string& text) {
  TempDir d;
  auto r = jobfile::ParseJobText(text, "t.fio", d.path());
  EXPECT_TRUE(r.ok()) << r.status().message();
  if (!r.ok()) return {};
  return std::move(r).value();
}

// Parses a job file of one job "j" on the null engine, size=1m, with the
// options in `body` (one a line) added.
inline Result<jobfile::ParseOutput> ParseNullJob(const std::string& body) {
  return jobfile::ParseJobText("[j]\nioengine=null\nsize=1m\n" + body, "t.fio", "/tmp");
}

}  // namespace iobench::testing
