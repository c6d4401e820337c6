// ctest-labels: threads
// Interim snapshots (--status-interval, SIGUSR1) and the latencies around
// them: the worker copies its statistics between I/Os, and that copy must
// not be counted in the next I/O's latency.
#include <gtest/gtest.h>

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
// stamped as started, and holds its pause_at-th call until released.
class StampingEngine final : public Engine {
 public:
  StampingEngine(uint32_t pause_at, std::vector<uint64_t>* starts, std::atomic<bool>* paused,
                 std::atomic<bool>* release)
      : pause_at_(pause_at), starts_(starts), paused_(paused), release_(release) {}
  Status Init(const EngineContext&) override { return Status::Ok(); }
  QueueResult Queue(IoRequest* req) override {
    starts_->push_back(req->start_ns);
    if (starts_->size() == pause_at_) {
      paused_->store(true);
      while (!release_->load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    req->res = static_cast<int64_t>(req->length);
    return QueueResult::kCompleted;
  }
  bool IsSync() const override { return true; }

 private:
  uint32_t pause_at_;
  std::vector<uint64_t>* starts_;
  std::atomic<bool>* paused_;
  std::atomic<bool>* release_;
};

// The worker reads its clock at the top of a batch, then serves a snapshot
// request. Serving took up to milliseconds (the first one allocates the
// copy), and the next I/O was stamped with the clock read before it, so
// --status-interval added 1-10 ms to one I/O's clat every run. Holding the
// snapshot lock makes the serve wait for as long as the test likes: the I/O
// after it must be stamped after the lock was given back.
TEST(WorkerSnapshotTest, TheNextIoIsStampedAfterTheSnapshotWasServed) {
  JobSpec job = NullJob("s");
  job.number_ios = 20;
  auto targets = ResolveTargets(job, 0, /*diskless=*/true);
  ASSERT_TRUE(targets.ok()) << targets.status().ToString();
  std::vector<uint64_t> starts;
  starts.reserve(64);
  std::atomic<bool> paused{false}, release{false};
  WorkerControl ctl;
  ctl.setup_left.store(1);
  ctl.running.store(1);
  Worker w(job, 0, 0, 0, std::move(*targets),
           std::make_unique<StampingEngine>(10, &starts, &paused, &release), &ctl);
  ASSERT_TRUE(w.Setup().ok());
  ctl.start_ns = NowNs();
  ctl.go.store(1);
  std::thread runner([&w] { w.Run(); });
  while (!paused.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  uint64_t given_back = 0;
  {
    std::unique_lock<std::mutex> hold(w.SnapshotMutexForTest());
    w.RequestSnapshot(1);
    release.store(true);
    // The worker finishes I/O 10, reads the clock, and waits here.
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    given_back = NowNs();
  }
  runner.join();
  w.Teardown();
  EXPECT_TRUE(w.SnapshotDone(1));
  ASSERT_EQ(starts.size(), 20u);
  EXPECT_EQ(w.result().stats.dir[0].ios, 20u);
  EXPECT_LT(starts[9], given_back);
  EXPECT_GT(starts[10], given_back) << "I/O 11 was stamped before the snapshot was served";
}

}  // namespace
}  // namespace iobench
