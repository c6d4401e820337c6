// Unit tests for openfiles below the file count (run/pattern.h file events,
// run/target.h CheckOpenFiles): which files the file service keeps open, in
// what order it opens and closes them, and the I/O each file gets.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "run/pattern.h"
#include "run/target.h"

namespace iobench {
namespace {

constexpr uint64_t kOfKi = 1024;

JobSpec OfJob(RwMode rw, uint32_t openfiles) {
  JobSpec j;
  j.rw = rw;
  for (auto& b : j.bs) b.min = b.max = 4 * kOfKi;
  j.openfiles = openfiles;
  return j;
}

std::vector<PatternRegion> OfFiles(size_t n, uint64_t blocks) {
  return std::vector<PatternRegion>(n, PatternRegion{0, blocks * 4 * kOfKi, 0, 0});
}

std::unique_ptr<IoPattern> OfPattern(const JobSpec& job, std::vector<PatternRegion> regions) {
  auto r = IoPattern::Create(job, std::move(regions), 7);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return nullptr;
  return std::move(r).value();
}

// Drives a pattern as the worker does: applies its file events after each
// call, checks that every I/O goes to an open file, and records the trace
// in write_iolog's shorthand ("o0 r0 ... c0").
struct OfDriver {
  explicit OfDriver(IoPattern* pattern) : p(pattern) {}
  IoPattern* p;
  std::set<uint32_t> open;
  size_t max_open = 0;
  std::map<uint32_t, uint64_t> ios;  // per file
  std::string trace;
  bool bad = false;  // an I/O to a closed file, or a close of one not open

  void Apply() {
    for (const IoPattern::FileEvent& e : p->file_events()) {
      switch (e.kind) {
        case IoPattern::FileEventKind::kOpen:
          bad |= !open.insert(e.file).second;
          trace += "o" + std::to_string(e.file) + " ";
          break;
        case IoPattern::FileEventKind::kClose:
          bad |= open.erase(e.file) != 1;
          trace += "c" + std::to_string(e.file) + " ";
          break;
        case IoPattern::FileEventKind::kRestart:
          bad |= open.count(e.file) != 1;
          break;
      }
      max_open = std::max(max_open, open.size());
    }
    p->ClearFileEvents();
  }
  // One pass, or `cap` I/Os.
  size_t Pass(size_t cap = 1'000'000) {
    IoPlan io;
    size_t n = 0;
    while (n < cap) {
      const bool got = p->Next(&io);
      Apply();
      if (!got) break;
      bad |= open.count(io.file) != 1;
      ++ios[io.file];
      trace += "r" + std::to_string(io.file) + " ";
      ++n;
    }
    return n;
  }
};

// fio 3.33's write_iolog for rw=read nrfiles=4 openfiles=2 size=64k (4k
// blocks): the first two files round robin, each closed when done, then the
// other two.
TEST(PatternOpenFiles, RoundRobinOpensTheNextFileWhenOneIsDone) {
  auto p = OfPattern(OfJob(RwMode::kRead, 2), OfFiles(4, 4));
  OfDriver d(p.get());
  EXPECT_EQ(d.Pass(), 16u);
  EXPECT_EQ(d.trace, "o0 r0 o1 r1 r0 r1 r0 r1 r0 r1 c0 c1 o2 r2 o3 r3 r2 r3 r2 r3 r2 r3 c2 c3 ");
  EXPECT_FALSE(d.bad);
  EXPECT_EQ(d.max_open, 2u);
}

// Three files, two slots: the third runs alone once the first two are done.
TEST(PatternOpenFiles, RoundRobinOddFileCount) {
  auto p = OfPattern(OfJob(RwMode::kRead, 2), OfFiles(3, 3));
  OfDriver d(p.get());
  EXPECT_EQ(d.Pass(), 9u);
  EXPECT_EQ(d.trace, "o0 r0 o1 r1 r0 r1 r0 r1 c0 c1 o2 r2 r2 r2 c2 ");
  EXPECT_FALSE(d.bad);
}

TEST(PatternOpenFiles, SequentialKeepsOneFileOpen) {
  JobSpec job = OfJob(RwMode::kRandRead, 3);
  job.file_service_type = FileServiceType::kSequential;
  auto p = OfPattern(job, OfFiles(5, 2));
  OfDriver d(p.get());
  EXPECT_EQ(d.Pass(), 10u);
  EXPECT_EQ(d.trace, "o0 r0 r0 c0 o1 r1 r1 c1 o2 r2 r2 c2 o3 r3 r3 c3 o4 r4 r4 c4 ");
  EXPECT_EQ(d.max_open, 1u);
}

// Random service (also with a switch count): every file gets its blocks
// once, never more than openfiles are open, and each is opened once.
TEST(PatternOpenFiles, RandomServiceStaysWithinTheSlots) {
  for (uint32_t nr : {1u, 3u}) {
    JobSpec job = OfJob(RwMode::kRandRead, 3);
    job.file_service_type = FileServiceType::kRandom;
    job.file_service_nr = nr;
    auto p = OfPattern(job, OfFiles(10, 20));
    OfDriver d(p.get());
    EXPECT_EQ(d.Pass(), 200u);
    EXPECT_FALSE(d.bad);
    EXPECT_EQ(d.max_open, 3u);
    EXPECT_TRUE(d.open.empty());
    for (uint32_t f = 0; f < 10; ++f) EXPECT_EQ(d.ios[f], 20u) << "file " << f;
    size_t opens = 0;
    for (size_t at = d.trace.find('o'); at != std::string::npos; at = d.trace.find('o', at + 1))
      ++opens;
    EXPECT_EQ(opens, 10u);
  }
}

// fio 3.33 resets a time_based random job's file in place when its blocks
// are used up: it stays open, and files past the first openfiles get no I/O.
TEST(PatternOpenFiles, TimeBasedRandomStaysOnTheFirstFiles) {
  JobSpec job = OfJob(RwMode::kRandRead, 2);
  job.time_based = true;
  auto p = OfPattern(job, OfFiles(4, 8));
  OfDriver d(p.get());
  EXPECT_EQ(d.Pass(1000), 1000u);
  EXPECT_FALSE(d.bad);
  EXPECT_EQ(d.ios[0], 500u);
  EXPECT_EQ(d.ios[1], 500u);
  EXPECT_EQ(d.ios.count(2), 0u);
  EXPECT_EQ(d.ios.count(3), 0u);
}

// A new pass (loop) closes what is still open: fio's clear_io_state.
TEST(PatternOpenFiles, ResetClosesOpenFiles) {
  auto p = OfPattern(OfJob(RwMode::kRead, 2), OfFiles(4, 4));
  OfDriver d(p.get());
  EXPECT_EQ(d.Pass(3), 3u);  // o0 r0 o1 r1 r0
  p->Reset();
  d.Apply();
  EXPECT_TRUE(d.open.empty());
  EXPECT_EQ(d.Pass(), 16u);
  EXPECT_FALSE(d.bad);
}

// A sync takes the file service's turn, which may open a file.
TEST(PatternOpenFiles, SyncFileTurnOpensItsFile) {
  auto p = OfPattern(OfJob(RwMode::kWrite, 1), OfFiles(3, 2));
  OfDriver d(p.get());
  const int f = p->SyncFile();
  d.Apply();
  EXPECT_EQ(f, 0);
  EXPECT_EQ(d.trace, "o0 ");
  EXPECT_EQ(d.Pass(), 6u);
  EXPECT_FALSE(d.bad);
  EXPECT_EQ(d.max_open, 1u);
}

// No limit (0, or not below the file count): no events, as before.
TEST(PatternOpenFiles, NoLimitNoEvents) {
  for (uint32_t of : {0u, 4u, 9u}) {
    auto p = OfPattern(OfJob(RwMode::kRandRead, of), OfFiles(4, 4));
    IoPlan io;
    size_t n = 0;
    while (p->Next(&io)) ++n;
    p->SyncFile();
    p->Reset();
    EXPECT_EQ(n, 16u);
    EXPECT_TRUE(p->file_events().empty()) << "openfiles=" << of;
  }
  EXPECT_EQ(OpenLimit(OfJob(RwMode::kRead, 2), 4), 2u);
  EXPECT_EQ(OpenLimit(OfJob(RwMode::kRead, 4), 4), 0u);
  EXPECT_EQ(OpenLimit(OfJob(RwMode::kRead, 0), 4), 0u);
}

// file_service_type=sequential: as fio 3.33, a file is opened when the job
// comes to it and closed when it is done, so two are open at most (the next
// one while the last one's I/O completes); every file stayed open.
TEST(PatternOpenFiles, SequentialServiceOpensFilesInTurn) {
  JobSpec job = OfJob(RwMode::kRead, 0);
  job.file_service_type = FileServiceType::kSequential;
  EXPECT_EQ(OpenLimit(job, 300), 2u);
  EXPECT_TRUE(job.SequentialOpensInTurn(300));
  // Two files too: the first is closed (and synced, fsync_on_close) when it
  // is done, not at the end, as fio (both stayed open with 2).
  EXPECT_EQ(OpenLimit(job, 2), 2u);
  EXPECT_EQ(OpenLimit(job, 1), 0u);
  job.openfiles = 1;  // the user's limit
  EXPECT_EQ(OpenLimit(job, 300), 1u);
  EXPECT_FALSE(job.SequentialOpensInTurn(300));
  job.openfiles = 300;  // not below the count: as unset
  EXPECT_EQ(OpenLimit(job, 300), 2u);
  job.openfiles = 0;
  // Where every file must stay open, they do (openfiles= is refused there).
  JobSpec v = job;
  v.verify.type = VerifyType::kCrc32c;
  EXPECT_EQ(OpenLimit(v, 300), 0u);
  v.verify.do_verify = false;  // headers only: no read-back
  EXPECT_EQ(OpenLimit(v, 300), 2u);
  JobSpec r = job;
  r.read_iolog = "x.log";
  EXPECT_EQ(OpenLimit(r, 300), 0u);
  JobSpec u = job;
  u.ioengine = "io_uring";
  u.registerfiles = true;
  EXPECT_EQ(OpenLimit(u, 300), 0u);
  JobSpec n = job;
  n.file_service_nr = 4;  // sequential:4 moves on after 4 I/Os
  EXPECT_EQ(OpenLimit(n, 300), 0u);
  // The pattern opens and closes each file in turn.
  auto p = OfPattern(job, OfFiles(3, 2));
  OfDriver d(p.get());
  EXPECT_EQ(d.Pass(), 6u);
  EXPECT_EQ(d.trace, "o0 r0 r0 c0 o1 r1 r1 c1 o2 r2 r2 c2 ");
  EXPECT_FALSE(d.bad);
  EXPECT_EQ(d.max_open, 1u);
}

TEST(PatternOpenFiles, CheckOpenFilesRefusesWhatCannotWork) {
  JobSpec job = OfJob(RwMode::kWrite, 2);
  job.name = "j";
  job.settings.push_back({"openfiles", "2", OptionSource::kJob, "a.fio", 5});
  EXPECT_TRUE(CheckOpenFiles(job, 4).ok());
  EXPECT_TRUE(CheckOpenFiles(job, 2).ok());  // not below: nothing to do

  JobSpec v = job;
  v.verify.type = VerifyType::kCrc32c;
  v.settings.push_back({"verify", "crc32c", OptionSource::kJob, "a.fio", 6});
  Status st = CheckOpenFiles(v, 4);
  EXPECT_NE(st.message().find("openfiles=2 (a.fio:5) below its 4 files is not supported with "
                              "verify (a.fio:6)"),
            std::string::npos)
      << st.message();
  EXPECT_TRUE(CheckOpenFiles(v, 2).ok());

  JobSpec r = job;
  r.read_iolog = "x.log";
  EXPECT_NE(CheckOpenFiles(r, 4).message().find("read_iolog"), std::string::npos);

  JobSpec u = job;
  u.ioengine = "io_uring";
  EXPECT_TRUE(CheckOpenFiles(u, 4).ok());
  u.registerfiles = true;
  EXPECT_NE(CheckOpenFiles(u, 4).message().find("registerfiles=1"), std::string::npos);
  u.registerfiles = false;
  u.sqthread_poll = true;
  EXPECT_NE(CheckOpenFiles(u, 4).message().find("sqthread_poll=1"), std::string::npos);
}

}  // namespace
}  // namespace iobench
