// ctest-labels: threads
// Interim snapshots (--status-interval, SIGUSR1) and the latencies around
// them: the worker copies its statistics between I/Os, and that copy must
// not be counted in the next I/O's latency.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "fake_engine.h"
#include "iobench/clock.h"
#include "run/target.h"
#include "run/worker.h"

namespace iobench {
namespace {

using testing::NullJob;

// A sync engine that completes every I/O in the call, records when each was
// stamped as started, and holds its pause_at-th call until release is 1 or
// more, and the call 5 after it until release is 2.
class StampingEngine final : public Engine {
 public:
  StampingEngine(uint32_t pause_at, std::vector<uint64_t>* starts, std::atomic<bool>* paused,
                 std::atomic<int>* release)
      : pause_at_(pause_at), starts_(starts), paused_(paused), release_(release) {}
  Status Init(const EngineContext&) override { return Status::Ok(); }
  QueueResult Queue(IoRequest* req) override {
    starts_->push_back(req->start_ns);
    if (starts_->size() == pause_at_) {
      paused_->store(true);
      while (release_->load() < 1) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (starts_->size() == pause_at_ + 5)
      while (release_->load() < 2) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    req->res = static_cast<int64_t>(req->length);
    ++counters_.submit_calls;
    ++counters_.submitted;
    return QueueResult::kCompleted;
  }
  bool IsSync() const override { return true; }

 private:
  uint32_t pause_at_;
  std::vector<uint64_t>* starts_;
  std::atomic<bool>* paused_;
  std::atomic<int>* release_;
};

// A null job of 20 I/Os on a StampingEngine that holds I/O 10 (and 15), its
// worker running on a thread of its own once Start() returned true.
struct Rig {
  std::vector<uint64_t> starts;
  std::atomic<bool> paused{false};
  std::atomic<int> release{0};
  WorkerControl ctl;
  // The worker keeps a reference to its job: it must outlive the worker
  // (a local of Start() was read after Start() returned).
  JobSpec job = NullJob("s");
  std::unique_ptr<Worker> w;
  std::thread runner;

  bool Start() {
    job.number_ios = 20;
    auto targets = ResolveTargets(job, 0, /*diskless=*/true);
    if (!targets.ok()) return false;
    starts.reserve(64);
    ctl.setup_left.store(1);
    ctl.running.store(1);
    w = std::make_unique<Worker>(job, 0, 0, 0, std::move(*targets),
                                 std::make_unique<StampingEngine>(10, &starts, &paused, &release),
                                 &ctl);
    if (!w->Setup().ok()) return false;
    ctl.start_ns = NowNs();
    ctl.go.store(1);
    runner = std::thread([this] { w->Run(); });
    while (!paused.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return true;
  }
  void Finish() {
    release.store(2);
    runner.join();
    w->Teardown();
  }
};

// The worker reads its clock at the top of a batch, then serves a snapshot
// request. Serving took up to milliseconds (the first one allocates the
// copy), and the next I/O was stamped with the clock read before it, so
// --status-interval added 1-10 ms to one I/O's clat every run. Holding the
// snapshot lock makes the serve wait for as long as the test likes: the I/O
// after it must be stamped after the lock was given back.
TEST(WorkerSnapshotTest, TheNextIoIsStampedAfterTheSnapshotWasServed) {
  Rig rig;
  ASSERT_TRUE(rig.Start());
  uint64_t given_back = 0;
  {
    std::unique_lock<std::mutex> hold(rig.w->SnapshotMutexForTest());
    rig.w->RequestSnapshot(1);
    rig.release.store(2);
    // The worker finishes I/O 10, reads the clock, and waits here.
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    given_back = NowNs();
  }
  rig.Finish();
  EXPECT_TRUE(rig.w->SnapshotDone(1));
  ASSERT_EQ(rig.starts.size(), 20u);
  EXPECT_EQ(rig.w->result().stats.dir[0].ios, 20u);
  EXPECT_LT(rig.starts[9], given_back);
  EXPECT_GT(rig.starts[10], given_back) << "I/O 11 was stamped before the snapshot was served";
}

// The snapshot carries the engine's call counters (IOs per call): interim
// reports showed 0 submit calls while the final one had them all.
TEST(WorkerSnapshotTest, TheSnapshotCarriesTheEngineCounters) {
  Rig rig;
  ASSERT_TRUE(rig.Start());
  // Requested while I/O 10 is held, so it is answered after I/O 10; the
  // worker then waits at I/O 15 while the test reads the snapshot.
  rig.w->RequestSnapshot(1);
  rig.release.store(1);
  while (!rig.w->SnapshotDone(1)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  JobResult snap;
  rig.w->CopySnapshot(&snap);
  rig.Finish();
  EXPECT_EQ(snap.stats.submit_calls, 10u);
  EXPECT_EQ(snap.stats.submitted, 10u);
  EXPECT_EQ(rig.w->result().stats.submit_calls, 20u);
}

// startdelay=lo-hi: a draw in [lo, hi] from the clone's seed. With the
// default seed the old draw (the seed's top bits modulo the range) put every
// whole-second range at its top (0-4: 3.999 s, 1-3: 2.999 s, 0-2: 1.999 s):
// the delay was in effect hi. Each clone's seed gives its own value, and
// the same seed the same value (randrepeat).
TEST(WorkerStartDelay, DrawnInTheRangeNotAtItsTop) {
  constexpr uint64_t kSec = 1000000000ull;
  JobSpec j;
  j.startdelay_ns = 2 * kSec;
  EXPECT_EQ(StartDelayNs(j, 12345), 2 * kSec);  // a fixed delay
  int near_top = 0;
  const uint64_t seed0 = DeriveSeed(j, 0);  // randrepeat=1: the default seed
  for (uint64_t hi : {2ull, 3ull, 4ull, 5ull, 10ull}) {
    j.startdelay_ns = 0;
    j.startdelay_max_ns = hi * kSec;
    const uint64_t d = StartDelayNs(j, seed0);
    EXPECT_LE(d, hi * kSec) << hi;
    near_top += d > hi * kSec - hi * kSec / 100;
    EXPECT_EQ(StartDelayNs(j, seed0), d) << "the same seed, the same delay";
  }
  EXPECT_LT(near_top, 2) << "the default seed's delays sit at the top of their ranges";
  j.startdelay_ns = kSec;
  j.startdelay_max_ns = 3 * kSec;
  std::vector<uint64_t> clones;
  for (uint32_t k = 0; k < 8; ++k) {
    const uint64_t d = StartDelayNs(j, DeriveSeed(j, k));
    EXPECT_GE(d, kSec);
    EXPECT_LE(d, 3 * kSec);
    clones.push_back(d);
  }
  std::sort(clones.begin(), clones.end());
  EXPECT_EQ(std::unique(clones.begin(), clones.end()), clones.end()) << "clones share a delay";
}

}  // namespace
}  // namespace iobench
