// ctest-labels: threads
// An async engine's sync and the writes in flight (fio 3.33's libaio: a
// sync waits only for the iocbs not yet submitted, and IO depths counts it
// at the depth in flight). The exact IO depths counts, against the fake
// engine.
#include <gtest/gtest.h>

#include "fake_engine.h"
#include "run/coordinator.h"

namespace iobench {
namespace {

// rw=write bs=4k size=4m iodepth=4 fsync=4: the sync goes out with the three
// writes before it in flight, so every I/O after the first three is counted
// at 4 (fio 3.33's libaio: 1, 2 and 1276 of 1024 writes and 255 syncs). The
// worker drained the queue before each sync: the sync and the write after
// it went out at 1, then 2, 3, 4 (256, 512 and 511).
TEST(WorkerSyncDepthTest, AsyncSyncGoesOutWithTheWritesInFlight) {
  for (const bool range : {false, true}) {
    JobSpec job = testing::TestJob("fake", RwMode::kWrite, 4096, 4 << 20);
    job.iodepth = 4;
    (range ? job.sync_file_range_blocks : job.fsync_blocks) = 4;
    auto ledger = std::make_shared<testing::FakeLedger>();
    RunOptions opts;
    opts.engine_factory = [ledger](const JobSpec&) {
      return std::unique_ptr<Engine>(new testing::FakeEngine(testing::FakeScript{}, ledger));
    };
    auto r = RunJobs({job}, opts);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    const JobResult& jr = r->groups.at(0).jobs.at(0);
    EXPECT_EQ(jr.stats.dir[1].ios, 1024u) << range;
    EXPECT_EQ(jr.stats.sync_lat.n, 255u) << range;
    const std::array<uint64_t, 7> want = {1, 2, 1276, 0, 0, 0, 0};
    EXPECT_EQ(jr.stats.depth.depth, want) << range;
    EXPECT_EQ(ledger->max_in_kernel, 4u) << range;
    EXPECT_EQ(ledger->protocol_errors, 0u) << range;
  }
}

}  // namespace
}  // namespace iobench
