// ctest-labels: threads
// Faults during a run that need no root and no real device: the coordinator's
// watchdog against an engine that never completes (a hung device), after a
// runtime, after a stop signal, for async and sync engines. The engines here
// are our own seam (RunOptions::engine_factory); nothing is mocked below the
// Engine interface.
//
// Real-device faults (ENOSPC on a small tmpfs, a target deleted or truncated
// mid-run, EAGAIN under nowait) are in tests/e2e/faults.sh.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <map>
#include <memory>
#include <new>
#include <thread>
#include <vector>

#include "fake_engine.h"
#include "run/coordinator.h"

namespace iobench {
namespace {

using testing::TestJob;

// What a hung engine shares with its test. The engine may outlive the test's
// RunJobs call (the watchdog leaves its thread behind), so it is shared.
struct HangControl {
  std::atomic<bool> release{false};  // set by the test: complete everything now
  std::atomic<int> hung{0};          // the engine entered its blocking call
  std::atomic<int> destroyed{0};     // engines destroyed (the left-behind thread ended)
};

// Accepts I/O and never completes it until released: Reap (async) or Queue
// (sync) blocks like a syscall on a device that stopped answering.
class HungEngine final : public Engine {
 public:
  HungEngine(std::shared_ptr<HangControl> ctl, bool sync) : ctl_(std::move(ctl)), sync_(sync) {}
  ~HungEngine() override { ctl_->destroyed.fetch_add(1); }

  Status Init(const EngineContext& ctx) override {
    capacity_ = ctx.iodepth;
    return Status::Ok();
  }
  QueueResult Queue(IoRequest* req) override {
    if (sync_) {
      Block();
      req->res = static_cast<int64_t>(req->length);
      return QueueResult::kCompleted;
    }
    if (queued_.size() + in_kernel_.size() >= capacity_) return QueueResult::kBusy;
    queued_.push_back(req);
    return QueueResult::kQueued;
  }
  Result<unsigned> Commit() override {
    const unsigned n = static_cast<unsigned>(queued_.size());
    for (IoRequest* r : queued_) in_kernel_.push_back(r);
    queued_.clear();
    counters_.submitted += n;
    return n;
  }
  Result<unsigned> Reap(unsigned, unsigned max, IoRequest** out) override {
    Block();
    unsigned n = 0;
    while (n < max && !in_kernel_.empty()) {
      IoRequest* r = in_kernel_.back();
      in_kernel_.pop_back();
      r->res = static_cast<int64_t>(r->length);
      out[n++] = r;
    }
    counters_.reaped += n;
    return n;
  }
  bool IsSync() const override { return sync_; }

 private:
  void Block() {
    if (ctl_->release.load()) return;
    ctl_->hung.fetch_add(1);
    while (!ctl_->release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::shared_ptr<HangControl> ctl_;
  bool sync_;
  uint32_t capacity_ = 1;
  std::vector<IoRequest*> queued_;
  std::vector<IoRequest*> in_kernel_;
};

RunOptions HungOptions(const std::shared_ptr<HangControl>& ctl, bool sync) {
  RunOptions o;
  o.engine_factory = [ctl, sync](const JobSpec&) -> std::unique_ptr<Engine> {
    return std::make_unique<HungEngine>(ctl, sync);
  };
  o.stop_grace_ms = 200;
  o.runtime_grace_ms = 200;
  return o;
}

// Releases the engine and waits until the left-behind thread has ended and
// freed the phase (which also proves it had nothing dangling: ASan checks).
void ReleaseAndWait(HangControl* ctl, int engines) {
  ctl->release.store(true);
  for (int i = 0; i < 2000 && ctl->destroyed.load() < engines; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(ctl->destroyed.load(), engines);
}

TEST(RunWatchdogTest, AsyncJobStuckAfterItsRuntimeIsNamedWithItsInFlightCount) {
  auto ctl = std::make_shared<HangControl>();
  JobSpec j = TestJob("hung", RwMode::kRandRead, 4096, 1 << 20);
  j.ioengine = "io_uring";
  j.iodepth = 4;
  j.time_based = true;
  j.runtime_ns = 1'000'000'000;  // time to reach the engine on a loaded machine
  auto r = RunJobs({j}, HungOptions(ctl, /*sync=*/false));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kIoError);
  EXPECT_EQ(r.status().errno_value(), ETIMEDOUT);
  EXPECT_EQ(r.status().message().rfind("the device does not complete I/O: giving up; ", 0), 0u)
      << r.status().message();
  EXPECT_NE(r.status().message().find("job 'hung' (ioengine=io_uring): 4 I/O(s) in flight, none "
                                      "completed in the last 0.2 s, after its runtime ended"),
            std::string::npos)
      << r.status().message();
  ReleaseAndWait(ctl.get(), 1);
}

TEST(RunWatchdogTest, AGraceBelowATenthIsGivenInMilliseconds) {
  // --stuck-timeout=50ms said "none completed in the last 0.0 s".
  auto ctl = std::make_shared<HangControl>();
  JobSpec j = TestJob("hung", RwMode::kRandRead, 4096, 1 << 20);
  j.ioengine = "io_uring";
  j.iodepth = 2;
  j.time_based = true;
  j.runtime_ns = 1'000'000'000;
  RunOptions o = HungOptions(ctl, /*sync=*/false);
  o.runtime_grace_ms = 50;
  auto r = RunJobs({j}, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("2 I/O(s) in flight, none completed in the last 50 ms, "
                                      "after its runtime ended"),
            std::string::npos)
      << r.status().message();
  ReleaseAndWait(ctl.get(), 1);
}

TEST(RunWatchdogTest, SyncJobStuckAfterAStopSignal) {
  auto ctl = std::make_shared<HangControl>();
  JobSpec j = TestJob("stuck", RwMode::kWrite, 4096, 1ull << 30);  // no runtime: never ends
  j.ioengine = "psync";
  j.numjobs = 2;
  std::atomic<int> stop{0};
  RunOptions o = HungOptions(ctl, /*sync=*/true);
  o.stop_signal = &stop;
  Result<RunResult> r = Status::Internal("not run");
  std::atomic<bool> returned{false};
  std::thread runner([&] {
    r = RunJobs({j}, o);
    returned.store(true);
  });
  // Both clones inside the engine, or a run that ended without them (a
  // setup error): waiting for the hung count alone would never end then.
  while (ctl->hung.load() < 2 && !returned.load())
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  stop.store(SIGINT);
  runner.join();
  ASSERT_FALSE(r.ok());
  const std::string& m = r.status().message();
  EXPECT_NE(m.find("job 'stuck' (clone 0) (ioengine=psync): 1 I/O in flight, inside a "
                   "synchronous engine call, none completed in the last 0.2 s, after the "
                   "stop signal"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("job 'stuck' (clone 1)"), std::string::npos) << m;
  ReleaseAndWait(ctl.get(), 2);
}

TEST(RunWatchdogTest, OnlyTheStuckJobIsNamed) {
  // One job completes on the null-like fake, the other hangs: the report
  // names only the hung one.
  auto ctl = std::make_shared<HangControl>();
  auto ledger = std::make_shared<testing::FakeLedger>();
  JobSpec ok = TestJob("fine", RwMode::kRead, 4096, 1 << 20);
  JobSpec bad = TestJob("hung", RwMode::kRead, 4096, 1 << 20);
  bad.ioengine = "libaio";
  bad.iodepth = 2;
  bad.time_based = true;
  bad.runtime_ns = 1'000'000'000;  // time to reach the engine on a loaded machine
  RunOptions o = HungOptions(ctl, false);
  o.engine_factory = [ctl, ledger](const JobSpec& job) -> std::unique_ptr<Engine> {
    if (job.name == "hung") return std::make_unique<HungEngine>(ctl, false);
    return std::make_unique<testing::FakeEngine>(testing::FakeScript{}, ledger);
  };
  auto r = RunJobs({ok, bad}, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().find("'fine'"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("job 'hung' (ioengine=libaio): 2 I/O(s) in flight"),
            std::string::npos)
      << r.status().message();
  EXPECT_EQ(ledger->completions, 256u);  // the fine job did all of its I/O
  ReleaseAndWait(ctl.get(), 1);
}

TEST(RunWatchdogTest, TimeTheProcessDidNotRunIsNotAHang) {
  // A process stopped (Ctrl-Z, SIGSTOP) past its runtime and the grace: on
  // resume the watch loop ran before the worker's pending I/O returned, and
  // every result was lost. A watch loop that was not run for a long while
  // stands in for the stop here: on_tick sleeps 2 s (the runtime and the
  // grace are long over) while the I/O is held, and lets it complete only
  // at its next call, after the watchdog has looked again.
  auto ctl = std::make_shared<HangControl>();
  JobSpec j = TestJob("paused", RwMode::kRandRead, 4096, 1 << 20);
  j.ioengine = "psync";
  j.time_based = true;
  j.runtime_ns = 300'000'000;
  RunOptions o = HungOptions(ctl, /*sync=*/true);
  o.tick_ns = 10'000'000;
  bool paused = false;
  o.on_tick = [&](const std::vector<const LiveCounters*>&) {
    if (paused) {
      ctl->release.store(true);
    } else if (ctl->hung.load() > 0) {
      std::this_thread::sleep_for(std::chrono::seconds(2));
      paused = true;
    }
  };
  auto r = RunJobs({j}, o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(paused);
  ASSERT_EQ(r->groups.size(), 1u);
  ASSERT_EQ(r->groups[0].jobs.size(), 1u);
  EXPECT_EQ(r->groups[0].jobs[0].error, 0);
  EXPECT_GT(r->groups[0].jobs[0].stats.dir[0].ios, 0u);
}

TEST(RunWatchdogTest, ZeroGraceTurnsItOff) {
  // With the watchdog off, a released engine lets the run finish normally.
  auto ctl = std::make_shared<HangControl>();
  JobSpec j = TestJob("late", RwMode::kRead, 4096, 64 << 10);
  j.iodepth = 2;
  j.time_based = true;
  // Long enough that the worker reaches the engine within it on a loaded
  // machine: a worker first scheduled after its runtime does no I/O (as
  // fio's), and the releaser below waited for a hang that never came, for
  // ever (CI's TSan shard, with 10 ms).
  j.runtime_ns = 200'000'000;
  RunOptions o = HungOptions(ctl, false);
  o.stop_grace_ms = 0;
  o.runtime_grace_ms = 0;
  std::atomic<bool> returned{false};
  std::thread releaser([&] {
    while (ctl->hung.load() == 0 && !returned.load())
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    // Past the runtime by more than the default grace (HungOptions: 200 ms).
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    ctl->release.store(true);
  });
  auto r = RunJobs({j}, o);
  returned.store(true);
  releaser.join();
  EXPECT_GT(ctl->hung.load(), 0) << "the worker never reached the engine within its runtime";
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_GE(r->groups.at(0).jobs.at(0).stats.dir[0].ios, 2u);
}

// An engine whose queue runs out of memory on its third I/O: std::bad_alloc
// in the worker's thread.
class OutOfMemoryEngine : public testing::FakeEngine {
 public:
  OutOfMemoryEngine()
      : FakeEngine(testing::FakeScript{}, std::make_shared<testing::FakeLedger>()) {}
  QueueResult Queue(IoRequest* req) override {
    if (++n_ == 3) throw std::bad_alloc();
    return FakeEngine::Queue(req);
  }

 private:
  int n_ = 0;
};

// The engine of a job named "oom" runs out of memory; the others' work.
std::unique_ptr<Engine> OomEngineForJobOom(const JobSpec& job) {
  if (job.name == "oom") return std::make_unique<OutOfMemoryEngine>();
  return std::make_unique<testing::FakeEngine>(testing::FakeScript{},
                                               std::make_shared<testing::FakeLedger>());
}

TEST(RunFaultsTest, AnExceptionInAWorkerThreadFailsItsJobNotTheProcess) {
  // It reached std::terminate (exit 134, no report): verify_state_save's
  // std::bad_alloc under ulimit -v after the run and its verify.
  JobSpec bad = TestJob("oom", RwMode::kRandRead, 4096, 1 << 20);
  bad.ioengine = "libaio";
  JobSpec fine = TestJob("fine", RwMode::kRandRead, 4096, 1 << 20);
  fine.ioengine = "libaio";
  RunOptions o;
  o.engine_factory = OomEngineForJobOom;
  auto r = RunJobs({bad, fine}, o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::map<std::string, const JobResult*> by_name;
  for (const auto& g : r->groups)
    for (const auto& j : g.jobs) by_name[j.name] = &j;
  ASSERT_EQ(by_name.count("oom"), 1u);
  ASSERT_EQ(by_name.count("fine"), 1u);
  EXPECT_EQ(by_name["oom"]->error, ENOMEM);
  EXPECT_NE(by_name["oom"]->error_message.find("out of memory: "), std::string::npos)
      << by_name["oom"]->error_message;
  EXPECT_NE(by_name["oom"]->error_message.find("reduce numjobs, iodepth, bs or nrfiles"),
            std::string::npos)
      << by_name["oom"]->error_message;
  EXPECT_EQ(by_name["fine"]->error, 0) << by_name["fine"]->error_message;
  EXPECT_EQ(by_name["fine"]->stats.dir[0].ios, 256u);
}

// A job of a flow= that fails by an exception gives its share back: the
// flow's other job was held back for good (ending only at its runtime, a
// few I/Os done), as if the failed job were still running.
TEST(RunFaultsTest, AJobLeavingItsFlowByAnExceptionLetsTheOthersGo) {
  JobSpec bad = TestJob("oom", RwMode::kRandRead, 4096, 1 << 20);
  JobSpec fine = TestJob("fine", RwMode::kRandRead, 4096, 1 << 20);
  for (JobSpec* j : {&bad, &fine}) {
    j->ioengine = "libaio";
    j->flow_id = 1;
    j->flow = 1;
    j->runtime_ns = 3'000'000'000;  // the end, were it held back
  }
  RunOptions o;
  o.engine_factory = OomEngineForJobOom;
  auto r = RunJobs({bad, fine}, o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  for (const auto& g : r->groups)
    for (const auto& j : g.jobs)
      if (j.name == "fine") {
        EXPECT_EQ(j.error, 0) << j.error_message;
        EXPECT_EQ(j.stats.dir[0].ios, 256u);
      } else {
        EXPECT_EQ(j.error, ENOMEM);
      }
}

// What ReapFailsEngine saw.
struct ReapFailLedger {
  std::atomic<int> committed_after_failure{0};
  std::atomic<int> reaps{0};
};

// Takes one queued request per commit (a kernel that took part of a batch)
// and fails its first reap, as an io_getevents or io_uring_enter error.
class ReapFailsEngine final : public Engine {
 public:
  explicit ReapFailsEngine(std::shared_ptr<ReapFailLedger> l) : ledger_(std::move(l)) {}
  Status Init(const EngineContext& ctx) override {
    capacity_ = ctx.iodepth;
    return Status::Ok();
  }
  QueueResult Queue(IoRequest* req) override {
    if (queued_.size() + in_kernel_.size() >= capacity_) return QueueResult::kBusy;
    queued_.push_back(req);
    return QueueResult::kQueued;
  }
  Result<unsigned> Commit() override {
    if (queued_.empty()) return 0u;
    if (failed_) ledger_->committed_after_failure.fetch_add(1);
    in_kernel_.push_back(queued_.front());
    queued_.erase(queued_.begin());
    return 1u;
  }
  Result<unsigned> Reap(unsigned, unsigned max, IoRequest** out) override {
    ledger_->reaps.fetch_add(1);
    if (!failed_) {
      failed_ = true;
      return Status(Status::Code::kIoError, "io_getevents: Bad address", EFAULT);
    }
    unsigned n = 0;
    while (n < max && !in_kernel_.empty()) {
      IoRequest* r = in_kernel_.back();
      in_kernel_.pop_back();
      r->res = static_cast<int64_t>(r->length);
      out[n++] = r;
    }
    return n;
  }
  bool IsSync() const override { return false; }

 private:
  std::shared_ptr<ReapFailLedger> ledger_;
  uint32_t capacity_ = 1;
  bool failed_ = false;
  std::vector<IoRequest*> queued_;
  std::vector<IoRequest*> in_kernel_;
};

// A failed reap ends the job and frees every slot, those still waiting to
// be committed (the rest of a batch the engine took part of) included; they
// were then committed all the same, and their completions freed the slots
// a second time, past the end of the free list.
TEST(RunFaultsTest, AFailedReapCommitsNothingMore) {
  auto ledger = std::make_shared<ReapFailLedger>();
  JobSpec job = TestJob("r", RwMode::kRandRead, 4096, 1 << 20);
  job.ioengine = "libaio";
  job.iodepth = 4;
  job.iodepth_batch_submit = 4;
  RunOptions o;
  o.engine_factory = [ledger](const JobSpec&) -> std::unique_ptr<Engine> {
    return std::make_unique<ReapFailsEngine>(ledger);
  };
  auto r = RunJobs({job}, o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->groups.size(), 1u);
  ASSERT_EQ(r->groups[0].jobs.size(), 1u);
  EXPECT_EQ(r->groups[0].jobs[0].error, EFAULT) << r->groups[0].jobs[0].error_message;
  EXPECT_EQ(ledger->committed_after_failure.load(), 0);
  EXPECT_EQ(ledger->reaps.load(), 1);
}

}  // namespace
}  // namespace iobench
