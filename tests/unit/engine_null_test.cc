// ctest-labels: threads
// The null engine as fio 3.33's: synchronous at iodepth=1; above, it queues
// one batch at a time (Commit issues everything queued, Queue answers busy
// until Reap returned the whole batch, whatever min and max say), so the
// worker's depth, submit and complete counts are the batch sizes and every
// I/O has a submission latency.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "engines/engines.h"
#include "fake_engine.h"
#include "iobench/engine.h"
#include "run/coordinator.h"

namespace iobench {
namespace {

using testing::NullJob;

std::unique_ptr<Engine> MakeNull(uint32_t iodepth, std::vector<IoRequest>* pool) {
  std::unique_ptr<Engine> e = FindEngine("null")->factory();
  JobSpec job = NullJob("n");
  job.iodepth = iodepth;
  e->Configure(job);
  pool->resize(iodepth);
  for (IoRequest& r : *pool) r.length = 4096;
  EngineContext ctx;
  ctx.job = &job;
  ctx.iodepth = iodepth;
  ctx.requests = pool;
  EXPECT_TRUE(e->Init(ctx).ok());
  return e;
}

TEST(NullEngineTest, DepthOneCompletesInTheCall) {
  std::vector<IoRequest> pool;
  auto e = MakeNull(1, &pool);
  EXPECT_TRUE(e->IsSync());
  EXPECT_FALSE(e->OneBatchAtATime());
  EXPECT_FALSE(e->UsesHelperThreads());
  EXPECT_EQ(e->Queue(&pool[0]), QueueResult::kCompleted);
  EXPECT_EQ(pool[0].res, 4096);
}

TEST(NullEngineTest, DeeperQueuesOneBatchAtATime) {
  std::vector<IoRequest> pool;
  auto e = MakeNull(8, &pool);
  EXPECT_FALSE(e->IsSync());
  EXPECT_TRUE(e->OneBatchAtATime());
  EXPECT_FALSE(e->UsesHelperThreads());  // no kernel thread does its I/O
  for (int i = 0; i < 3; ++i) EXPECT_EQ(e->Queue(&pool[i]), QueueResult::kQueued);
  auto c = e->Commit();
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c, 3u);
  EXPECT_EQ(e->Queue(&pool[3]), QueueResult::kBusy);  // the batch is out
  // The whole batch, though min and max ask for one (fio's getevents).
  std::vector<IoRequest*> out(8, nullptr);
  auto r = e->Reap(1, 1, out.data());
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(*r, 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(out[i], &pool[i]);
    EXPECT_EQ(pool[i].res, 4096);
  }
  auto none = e->Reap(1, 8, out.data());
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, 0u);
  EXPECT_EQ(e->Queue(&pool[3]), QueueResult::kQueued);  // room again
  EXPECT_EQ(e->counters().submit_calls, 1u);
  EXPECT_EQ(e->counters().reaped, 3u);
}

// Raw counts through the whole worker: 256 reads in batches of 8 (fio 3.33:
// IO depths, submit and complete 8=100%), each with slat, clat and lat.
TEST(NullEngineTest, WorkerCountsEachBatch) {
  JobSpec j = NullJob("q");  // 1 MiB of 4k reads
  j.iodepth = 64;
  j.iodepth_batch_submit = 8;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const ThreadStats& ts = r->groups.at(0).jobs.at(0).stats;
  const DirStats& d = ts.dir[0];
  EXPECT_EQ(d.ios, 256u);
  EXPECT_EQ(d.slat.n, 256u);
  EXPECT_EQ(d.clat.n, 256u);
  EXPECT_EQ(d.lat.n, 256u);
  // Every I/O's latency is its submission plus its completion latency.
  EXPECT_EQ(d.lat.sum, d.slat.sum + d.clat.sum);
  EXPECT_EQ(ts.depth.depth, (std::array<uint64_t, 7>{0, 0, 0, 256, 0, 0, 0}));
  EXPECT_EQ(ts.depth.submit, (std::array<uint64_t, 7>{0, 0, 32, 0, 0, 0, 0}));
  EXPECT_EQ(ts.depth.complete, (std::array<uint64_t, 7>{0, 0, 32, 0, 0, 0, 0}));
  EXPECT_EQ(ts.depth.submit_events, 32u);
  EXPECT_EQ(ts.depth.complete_events, 32u);

  // iodepth=1: in the call, no slat, and fio counts no submit or complete.
  JobSpec one = NullJob("one");
  auto r1 = RunJobs({one}, {});
  ASSERT_TRUE(r1.ok()) << r1.status().ToString();
  const ThreadStats& t1 = r1->groups.at(0).jobs.at(0).stats;
  EXPECT_EQ(t1.dir[0].slat.n, 0u);
  EXPECT_EQ(t1.depth.depth[0], 256u);
  EXPECT_EQ(t1.depth.submit_events, 0u);
}

uint64_t HistTotal(const Histogram& h) {
  uint64_t n = 0;
  for (unsigned i = 0; i < Histogram::kNr; ++i) n += h.counts[i];
  return n;
}

// The slat and lat histograms are filled only when something reads them:
// their percentiles, or interval reports' min and max. clat's always is.
TEST(NullEngineTest, LatencyHistogramsOnlyWhenRead) {
  struct Case {
    bool slat_p, lat_p, interval;
    uint64_t slat_hist, lat_hist;
  };
  for (const Case& c : {Case{false, false, false, 0, 0}, Case{true, false, false, 256, 0},
                        Case{false, true, false, 0, 256}, Case{false, false, true, 256, 256}}) {
    JobSpec j = NullJob("h");  // 1 MiB of 4k reads
    j.iodepth = 4;
    j.slat_percentiles = c.slat_p;
    j.lat_percentiles = c.lat_p;
    RunOptions o;
    o.interval_reports = c.interval;
    auto r = RunJobs({j}, o);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    const DirStats& d = r->groups.at(0).jobs.at(0).stats.dir[0];
    SCOPED_TRACE(::testing::Message() << c.slat_p << c.lat_p << c.interval);
    EXPECT_EQ(d.slat.n, 256u);  // the means, min and max are kept in every case
    EXPECT_EQ(d.lat.n, 256u);
    EXPECT_EQ(HistTotal(d.clat_hist), 256u);
    EXPECT_EQ(HistTotal(d.slat_hist), c.slat_hist);
    EXPECT_EQ(HistTotal(d.lat_hist), c.lat_hist);
  }
}

// thinktime at iodepth > 1, one batch at a time: fio 3.33 counts a batch's
// completions at its next I/O's busy queue call, so a pause due after the
// job's last I/O is not taken (unless the batch filled the queue, reaped
// and counted at once). The pauses the worker took (think_stalls), each
// against fio 3.33's count (measured from its runtime with thinktime=300ms).
TEST(NullEngineTest, ThinkPausesAsFioOneBatchAtATime) {
  struct Case {
    const char* what;
    uint64_t number_ios, size, loops;
    uint32_t iodepth, batch;
    bool on_issue;
    uint64_t pauses;
  };
  const Case cases[] = {
      {"number_ios=6", 6, 1 << 30, 1, 4, 1, false, 0},
      {"number_ios=12", 12, 1 << 30, 1, 4, 1, false, 1},
      {"number_ios=13", 13, 1 << 30, 1, 4, 1, false, 2},
      {"number_ios=24", 24, 1 << 30, 1, 4, 1, false, 3},
      {"number_ios=6 iodepth=2", 6, 1 << 30, 1, 2, 1, false, 0},
      {"size=24k", 0, 24 << 10, 1, 4, 1, false, 0},
      {"size=24k loops=2", 0, 24 << 10, 2, 4, 1, false, 1},
      {"number_ios=12 iodepth_batch=2", 12, 1 << 30, 1, 4, 2, false, 1},
      {"number_ios=24 iodepth_batch=4", 24, 1 << 30, 1, 4, 4, false, 3},
      {"number_ios=12 thinktime_blocks_type=issue", 12, 1 << 30, 1, 4, 1, true, 2},
      {"number_ios=6 iodepth=1", 6, 1 << 30, 1, 1, 1, false, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    JobSpec j = NullJob("t", RwMode::kRead, 4096, c.size);
    j.thinktime_ns = 1000;  // 1 us: the count is what is checked, not the time
    j.thinktime_blocks = 6;
    j.thinktime_blocks_complete = !c.on_issue;
    j.number_ios = c.number_ios;
    j.loops = c.loops;
    j.iodepth = c.iodepth;
    j.iodepth_batch_submit = c.batch;
    auto r = RunJobs({j}, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->groups.at(0).jobs.at(0).think_stalls, c.pauses);
  }
}

}  // namespace
}  // namespace iobench
