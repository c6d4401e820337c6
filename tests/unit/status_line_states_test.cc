// ctest-labels: threads
// The letters workers leave for the status line when they end (fio's
// check_str_update): X when an error ended the job, K when a signal stopped
// it, _ otherwise, as seen by RunOptions::on_phase_end after each phase.
// Driven through the coordinator with the scripted fake engine (no timing:
// the states are final when on_phase_end is called).
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <cerrno>
#include <memory>
#include <string>
#include <vector>

#include "fake_engine.h"
#include "report/status_line.h"
#include "run/coordinator.h"

namespace iobench {
namespace {

using testing::FakeEngine;
using testing::FakeLedger;
using testing::FakeScript;
using testing::TestJob;

// The final letter of every clone, phase after phase.
std::string FinalLetters(const std::vector<JobSpec>& jobs, FakeScript script,
                         std::atomic<int>* stop = nullptr) {
  RunOptions opts;
  // A ledger per engine: the clones run on threads of their own (one shared
  // ledger was a data race under TSan).
  opts.engine_factory = [script](const JobSpec& job) {
    FakeScript s = script;
    if (job.name != "bad") s.fail_every = 0;
    return std::unique_ptr<Engine>(new FakeEngine(s, std::make_shared<FakeLedger>()));
  };
  std::string letters;
  opts.on_phase_end = [&letters](const std::vector<const LiveCounters*>& live) {
    for (const LiveCounters* l : live) letters += static_cast<char>(l->state.load());
    letters += '|';
  };
  if (stop != nullptr) {
    opts.stop_signal = stop;
    opts.on_tick = [stop](const std::vector<const LiveCounters*>&) { stop->store(SIGINT); };
    opts.tick_ns = 1;
  }
  auto r = RunJobs(jobs, opts);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return letters;
}

// A job that fails with ENOSPC mid-run showed '_' like one that ended well.
TEST(StatusLineFinalStates, AnErrorLeavesXAndTheOthersReaped) {
  JobSpec bad = TestJob("bad", RwMode::kWrite, 4096, 1 << 20);
  JobSpec good = TestJob("good", RwMode::kRead, 4096, 1 << 20);
  good.numjobs = 2;
  JobSpec later = TestJob("later", RwMode::kRead, 4096, 1 << 20);
  later.stonewall = true;
  FakeScript script;
  script.fail_every = 10;
  script.fail_errno = ENOSPC;
  const std::string letters = FinalLetters({bad, good, later}, script);
  EXPECT_EQ(letters, "X__|_|");
  EXPECT_TRUE(StateIsDone('X'));
}

TEST(StatusLineFinalStates, ASignalLeavesK) {
  JobSpec j = TestJob("long", RwMode::kRead, 4096, 1 << 20);
  j.time_based = true;
  j.runtime_ns = 120ull * 1000 * 1000 * 1000;
  std::atomic<int> stop{0};
  EXPECT_EQ(FinalLetters({j}, FakeScript{}, &stop), "K|");
}

}  // namespace
}  // namespace iobench
