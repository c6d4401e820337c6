// ctest-labels: threads
// The coordinator on the null engine: exact counts, groups, clones, limits,
// signals, and 252 workers.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "fake_engine.h"
#include "jobfile/parser.h"
#include "run/coordinator.h"
#include "run/signals.h"
#include "stats/summary.h"
#include "test_util.h"

namespace iobench {
namespace {

using testing::NullJob;
using testing::TempDir;
using testing::TestJob;

RunResult MustRun(const std::vector<JobSpec>& jobs, const RunOptions& opts = {}) {
  auto r = RunJobs(jobs, opts);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(r).value() : RunResult{};
}

TEST(RunCoordinatorTest, NumberIosGivesExactCounts) {
  for (uint64_t n : {1ull, 7ull, 1000ull}) {
    JobSpec j = NullJob("n", RwMode::kRandRead, 8192, 64ull << 20);
    j.number_ios = n;
    RunResult r = MustRun({j});
    const JobResult& jr = r.groups.at(0).jobs.at(0);
    EXPECT_EQ(jr.stats.dir[0].ios, n);
    EXPECT_EQ(jr.stats.dir[0].bytes, n * 8192);
    EXPECT_EQ(jr.stats.issued[0], n);
    EXPECT_EQ(jr.stats.dir[0].clat.n, n);
    EXPECT_EQ(jr.stats.dir[0].slat.n, 0u);  // sync engine: no slat, as fio
    EXPECT_EQ(jr.stats.depth.depth[0], n);
    // null at iodepth=1 counts no submission, as fio (its commit hook).
    EXPECT_EQ(jr.stats.depth.submit[1], 0u);
    EXPECT_EQ(r.exit_code, 0);
  }
}

// VmLck of this process, in KiB (the kernel's count of mlocked memory).
uint64_t LockedKib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmLck:", 0) == 0) return std::stoull(line.substr(6));
  return 0;
}

// lockmem: each clone pins its share for the run, and lets it go after.
TEST(RunCoordinatorTest, LockmemPinsMemoryForTheRun) {
  if (iobench::testing::UnderAsanOrTsan())
    GTEST_SKIP() << "the sanitizer runtime makes mlock a no-op";
  const uint64_t before = LockedKib();
  JobSpec j = NullJob("lm");
  j.time_based = true;
  j.runtime_ns = 600'000'000;
  j.lockmem = 8 << 20;
  j.numjobs = 2;
  std::atomic<uint64_t> most{0};
  std::atomic<bool> done{false};
  std::thread watcher([&] {
    while (!done.load()) {
      most = std::max<uint64_t>(most.load(), LockedKib());
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  RunResult r = MustRun({j});
  done = true;
  watcher.join();
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_GE(most.load(), before + 2 * 8192) << "two clones x 8 MiB";
  EXPECT_EQ(LockedKib(), before);
}

// Options fio job files carry that change nothing here run, and gtod_cpu
// says in the report why it has no effect.
TEST(RunCoordinatorTest, FioOnlyOptionsRunAndGtodCpuIsNoted) {
  JobSpec j = NullJob("g");
  j.number_ios = 5;
  j.gtod_cpu = 0;
  j.unique_filename = false;
  j.log_entries = 1 << 20;
  RunResult r = MustRun({j});
  const JobResult& jr = r.groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.stats.dir[0].ios, 5u);
  ASSERT_EQ(jr.notes.size(), 1u);
  EXPECT_EQ(jr.notes[0].rfind("gtod_cpu=0 has no effect", 0), 0u) << jr.notes[0];
}

// rw=rw whose write block is larger than the region: fio runs it and stops at
// the first write; the report says why nothing (or little) was done.
TEST(RunCoordinatorTest, MixedJobWithABlockLargerThanTheRegionIsNoted) {
  JobSpec j = NullJob("m");
  j.rw = RwMode::kReadWrite;
  j.size = 64 << 10;
  j.bs[1] = BlockSizeSpec{1 << 20, 1 << 20, {}};
  RunResult r = MustRun({j});
  const JobResult& jr = r.groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.stats.dir[1].ios, 0u);
  ASSERT_EQ(jr.notes.size(), 1u);
  EXPECT_EQ(jr.notes[0],
            "the smallest write block (1048576 bytes) is larger than the region (65536 bytes): no "
            "such I/O fits, so the job stops at its first one, as fio does");
  j.bs[1] = BlockSizeSpec{4096, 4096, {}};
  EXPECT_TRUE(MustRun({j}).groups.at(0).jobs.at(0).notes.empty());
}

// A CPU the machine does not have is refused before the run, naming the
// option that set it (fio: "CPU 5 too large"); the last CPU it has runs.
TEST(RunCoordinatorTest, CpusBeyondTheMachineAreRefused) {
  const int ncpu = static_cast<int>(sysconf(_SC_NPROCESSORS_CONF));
  JobSpec j = NullJob("c");
  j.number_ios = 10;
  j.cpus_allowed = {ncpu - 1};
  EXPECT_EQ(MustRun({j}).groups.at(0).jobs.at(0).stats.dir[0].ios, 10u);
  j.cpus_allowed = {0, ncpu};
  j.settings.push_back({"cpumask", "0x3", OptionSource::kJob, "t.fio", 7});
  auto r = RunJobs({j}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "job 'c': cpumask (t.fio:7) names CPU " + std::to_string(ncpu) +
                                      ", and this machine's CPUs are 0-" +
                                      std::to_string(ncpu - 1));
}

// fio 3.33 stops at number_ios x loops over the whole job (the first pass
// is not cut short at number_ios), and ignores number_ios with time_based.
TEST(RunCoordinatorTest, NumberIosCountsOverLoopsAndNotWithTimeBased) {
  JobSpec j = NullJob("n", RwMode::kRead, 4096, 4 << 20);  // 1024 blocks a pass
  j.number_ios = 100;
  j.loops = 3;
  EXPECT_EQ(MustRun({j}).groups.at(0).jobs.at(0).stats.dir[0].ios, 300u);
  j.number_ios = 2000;  // 6000 is more than the 3 passes hold
  EXPECT_EQ(MustRun({j}).groups.at(0).jobs.at(0).stats.dir[0].ios, 3072u);
  JobSpec t = NullJob("t");
  t.number_ios = 10;
  t.time_based = true;
  t.runtime_ns = 200ull * 1000 * 1000;  // more than a loaded machine's preemption
  RunResult r = MustRun({t});
  const JobResult& jr = r.groups.at(0).jobs.at(0);
  EXPECT_GT(jr.stats.dir[0].ios, 10u);
  EXPECT_NE(std::find_if(jr.notes.begin(), jr.notes.end(),
                         [](const std::string& n) { return n.find("number_ios is ignored") == 0; }),
            jr.notes.end());
}

// io_size as fio 3.33: passes cover the region; more while less than
// io_size moved; the job stops at io_size x loops.
TEST(RunCoordinatorTest, IoSizeOverLoopsAsFio) {
  struct Case {
    uint64_t io_size_blocks, loops, want;
  };
  for (const Case& c : {Case{768, 1, 768}, Case{768, 2, 768}, Case{768, 3, 768}, Case{128, 3, 384},
                        Case{512, 2, 512}, Case{256, 3, 768}}) {
    JobSpec j = NullJob("n", RwMode::kRead, 4096, 256 * 4096);
    j.io_size = c.io_size_blocks * 4096;
    j.loops = c.loops;
    EXPECT_EQ(MustRun({j}).groups.at(0).jobs.at(0).stats.dir[0].ios, c.want)
        << "io_size " << c.io_size_blocks << " blocks, loops " << c.loops;
  }
  // 12k blocks on 1 MiB: 85 a pass; after two passes 8 KiB of io_size=2m is
  // left, less than a block, so no third pass (fio: 170 I/Os).
  JobSpec j = NullJob("n", RwMode::kRead, 12 << 10, 1 << 20);
  j.io_size = 2 << 20;
  EXPECT_EQ(MustRun({j}).groups.at(0).jobs.at(0).stats.dir[0].ios, 170u);
}

// io_size=N% is N% of the bytes a pass moves, as fio 3.33 multiplies its
// size by it (iobench refused the percentage). fio's counts: 1 MiB at 50%:
// 128 blocks; size=100k at 30%: 30 KiB, so 8 blocks (the last one starts
// below io_size); with loops=2 and 75%: 2 x 192; 0% is unset: 256.
TEST(RunCoordinatorTest, IoSizePercentOfThePass) {
  struct Case {
    uint64_t size;
    uint32_t pct;
    uint64_t loops, want;
  };
  for (const Case& c : {Case{1 << 20, 50, 1, 128}, Case{100 << 10, 30, 1, 8},
                        Case{1 << 20, 75, 2, 384}, Case{1 << 20, 0, 1, 256}}) {
    JobSpec j = NullJob("n", RwMode::kRead, 4096, c.size);
    j.io_size_percent = c.pct;
    j.loops = c.loops;
    EXPECT_EQ(MustRun({j}).groups.at(0).jobs.at(0).stats.dir[0].ios, c.want)
        << "size " << c.size << " io_size=" << c.pct << "% loops " << c.loops;
  }
}

TEST(RunCoordinatorTest, SyncEngineDepthIsOneAndSaysSo) {
  TempDir d("/dev/shm");
  JobSpec j = TestJob("qd", RwMode::kRead, 4096, 1 << 20);
  j.ioengine = "psync";
  j.filenames = {d.File("f", 1 << 20)};
  j.iodepth = 8;
  j.numjobs = 2;
  RunResult r = MustRun({j});
  EXPECT_EQ(r.groups[0].jobs[0].notes,
            (std::vector<std::string>{"iodepth=8 has no effect with psync: a sync engine "
                                      "completes each I/O inside the call, so the queue depth "
                                      "is 1"}));
  EXPECT_TRUE(r.groups[0].jobs[1].notes.empty());  // once per job, not per clone
  EXPECT_EQ(r.groups[0].jobs[0].stats.depth.depth[0], 256u);
  // The null engine queues at iodepth > 1, as fio's: no such note, and its
  // depth is the size of each committed batch (1 here: iodepth_batch=1).
  JobSpec n = NullJob("null_qd");
  n.iodepth = 8;
  RunResult rn = MustRun({n});
  EXPECT_TRUE(rn.groups[0].jobs[0].notes.empty());
  EXPECT_EQ(rn.groups[0].jobs[0].stats.depth.depth[0], 256u);
  EXPECT_EQ(rn.groups[0].jobs[0].stats.dir[0].slat.n, 256u);
}

TEST(RunCoordinatorTest, SizeLoopsAndIoSize) {
  JobSpec j = NullJob("loops", RwMode::kRead, 4096, 1 << 20);
  j.loops = 3;
  RunResult r = MustRun({j});
  EXPECT_EQ(r.groups[0].jobs[0].stats.dir[0].ios, 3u * 256);

  JobSpec k = NullJob("iosize", RwMode::kWrite, 4096, 1 << 20);
  k.io_size = 3 << 20;  // wraps around the 1 MiB region
  r = MustRun({k});
  EXPECT_EQ(r.groups[0].jobs[0].stats.dir[1].ios, 3u * 256);
  EXPECT_EQ(r.groups[0].jobs[0].stats.dir[1].bytes, 3ull << 20);
}

// fsync=N: a sync after every N writes, but only when another I/O follows,
// as fio 3.33 counts them (100 writes, fsync=10: 9; 104 writes: 10).
TEST(RunCoordinatorTest, FsyncEveryNWrites) {
  for (auto [ios, syncs] : {std::pair<uint64_t, uint64_t>{100, 9}, {104, 10}, {10, 0}}) {
    JobSpec j = NullJob("fsync", RwMode::kWrite);
    j.number_ios = ios;
    j.fsync_blocks = 10;
    RunResult r = MustRun({j});
    EXPECT_EQ(r.groups[0].jobs[0].stats.dir[1].ios, ios);
    EXPECT_EQ(r.groups[0].jobs[0].stats.sync_ios, syncs) << ios << " writes";
  }
  JobSpec k = NullJob("fsync1", RwMode::kWrite, 4096, 1 << 20);  // size-bounded: 256 writes
  k.fsync_blocks = 1;
  RunResult r = MustRun({k});
  EXPECT_EQ(r.groups[0].jobs[0].stats.sync_ios, 255u);
}

// fsync=N over several loops, as fio 3.33's sync engines count them (psync
// and null agree, 64 KiB of 4k writes per loop): a sync owed by a loop's
// last write is issued before the loop ends and again when the next loop
// starts; the last loop's is dropped, unless the job has not issued its
// io_size x loops bytes. iobench used to issue one at each loop boundary
// (loops=3 fsync=4: 11, loops=5 randwrite fsync=8: 9, io_size=192k loops=2
// fsync=16: 2).
TEST(RunCoordinatorTest, FsyncOwedAtALoopEndIsIssuedTwiceAsFio) {
  struct Case {
    RwMode rw;
    uint32_t loops;
    uint64_t io_size, fsync, writes, syncs;
  };
  for (const Case& c : {Case{RwMode::kWrite, 3, 0, 4, 48, 13},
                        {RwMode::kRandWrite, 5, 0, 8, 80, 13},
                        {RwMode::kWrite, 3, 0, 5, 48, 9},
                        {RwMode::kWrite, 3, 0, 16, 48, 4},
                        {RwMode::kWrite, 3, 0, 32, 48, 2},
                        {RwMode::kWrite, 1, 128 << 10, 4, 32, 8},
                        {RwMode::kWrite, 2, 192 << 10, 16, 48, 5}}) {
    JobSpec j = NullJob("fsync", c.rw, 4096, 64 << 10);
    j.loops = c.loops;
    j.io_size = c.io_size;
    j.fsync_blocks = c.fsync;
    RunResult r = MustRun({j});
    const std::string what = "loops=" + std::to_string(c.loops) +
                             " io_size=" + std::to_string(c.io_size) +
                             " fsync=" + std::to_string(c.fsync);
    EXPECT_EQ(r.groups[0].jobs[0].stats.dir[1].ios, c.writes) << what;
    EXPECT_EQ(r.groups[0].jobs[0].stats.sync_ios, c.syncs) << what;
  }
  // time_based passes are not loops: one sync per fsync writes (fio:
  // 344,238 writes, 21,514 syncs).
  JobSpec t = NullJob("fsync_tb", RwMode::kWrite, 4096, 64 << 10);
  t.time_based = true;
  t.number_ios = 0;
  t.runtime_ns = 200'000'000;  // more than a loaded machine's preemption
  t.fsync_blocks = 16;
  RunResult r = MustRun({t});
  const uint64_t w = r.groups[0].jobs[0].stats.dir[1].ios;
  EXPECT_GT(w, 64u);
  // The run may stop between a sync and the write that follows it.
  EXPECT_GE(r.groups[0].jobs[0].stats.sync_ios, (w - 1) / 16);
  EXPECT_LE(r.groups[0].jobs[0].stats.sync_ios, w / 16);
}

// etcd's fdatasync test (size=22m bs=2300 fdatasync=1): a size that is not
// a multiple of the block leaves bytes unissued after the last write, so
// fio's loop asks for one more I/O and the sync owed by that write goes out:
// one per write (10 writes, 10 syncs; fio 3.33 on psync, sync and libaio or
// io_uring at depth 1). iobench dropped it: 9. A size that divides stays
// at 9, as in fio.
TEST(RunCoordinatorTest, TheLastWritesSyncGoesOutWhenBytesAreLeft) {
  struct Case {
    uint64_t size, fsync, syncs;
    uint32_t loops;
  };
  for (const Case& c :
       {Case{23100, 1, 10, 1}, Case{23000, 1, 9, 1}, Case{23100, 5, 2, 1}, Case{23100, 5, 8, 3}}) {
    JobSpec j = NullJob("etcd", RwMode::kWrite, 2300, c.size);
    j.fsync_blocks = c.fsync;
    j.loops = c.loops;
    RunResult r = MustRun({j});
    EXPECT_EQ(r.groups[0].jobs[0].stats.dir[1].ios, 10u * c.loops) << c.size;
    EXPECT_EQ(r.groups[0].jobs[0].stats.sync_ios, c.syncs)
        << "size=" << c.size << " fsync=" << c.fsync << " loops=" << c.loops;
  }
}

// size= not a multiple of bs, null engine, fio 3.33's counts: a pass goes
// on until size bytes are issued (the last I/O may end past it), over all
// the files, and with loops the job stops at size x loops bytes. iobench
// rounded each file's share down to the block: 21, 63, 30 and 63 I/Os.
TEST(RunCoordinatorTest, SizeNotAMultipleOfBs) {
  struct Case {
    RwMode rw;
    bool norandommap;
    uint64_t size, bs;
    uint32_t nrfiles, loops;
    uint64_t ios;
  };
  for (const Case& c : {Case{RwMode::kRandRead, true, 87381, 4096, 1, 1, 22},
                        {RwMode::kRandRead, true, 256 << 10, 4096, 3, 1, 64},
                        {RwMode::kRandRead, true, 256 << 10, 8192, 3, 1, 32},
                        {RwMode::kRandRead, true, 87381, 4096, 1, 3, 64},
                        {RwMode::kRandRead, false, 87381, 4096, 1, 1, 21},
                        {RwMode::kRead, false, 87381, 4096, 1, 1, 21},
                        {RwMode::kRead, false, 10000, 4096, 1, 3, 6}}) {
    JobSpec j = NullJob("odd", c.rw, c.bs, c.size);
    j.norandommap = c.norandommap;
    j.nrfiles = c.nrfiles;
    j.loops = c.loops;
    RunResult r = MustRun({j});
    EXPECT_EQ(r.groups[0].jobs[0].stats.dir[0].ios, c.ios)
        << "size=" << c.size << " bs=" << c.bs << " nrfiles=" << c.nrfiles << " loops=" << c.loops
        << " norandommap=" << c.norandommap;
  }
}

TEST(RunCoordinatorTest, DisableAndGtodReduce) {
  JobSpec j = NullJob("gtod");
  ASSERT_TRUE(jobfile::SetOption(&j, "gtod_reduce", "1").ok());
  RunResult r = MustRun({j});
  const DirStats& d = r.groups[0].jobs[0].stats.dir[0];
  EXPECT_EQ(d.ios, 256u);
  EXPECT_EQ(d.clat.n, 0u);
  EXPECT_EQ(d.lat.n, 0u);
  // fio: gtod_reduce only sets the disable_* options; one set after it wins.
  ASSERT_TRUE(jobfile::SetOption(&j, "disable_clat", "0").ok());
  r = MustRun({j});
  EXPECT_EQ(r.groups[0].jobs[0].stats.dir[0].clat.n, 256u);
  EXPECT_EQ(r.groups[0].jobs[0].stats.dir[0].lat.n, 0u);
  j = NullJob("gtod");
  j.disable_lat = true;
  r = MustRun({j});
  EXPECT_EQ(r.groups[0].jobs[0].stats.dir[0].clat.n, 256u);
  EXPECT_EQ(r.groups[0].jobs[0].stats.dir[0].lat.n, 0u);
}

// fio refuses a group_reporting group whose jobs differ in lat_percentiles
// (exit 1, "lat_percentiles in job: b differs from group"); iobench says so
// before the run, with the setting's place. Another group may differ.
TEST(RunCoordinatorTest, LatPercentilesMustAgreeInAReportedGroup) {
  const std::string head = "[global]\nioengine=null\nsize=64k\ngroup_reporting\n";
  Status st = CheckJobs(testing::ParseOk(head + "[a]\nlat_percentiles=1\n[b]\n").jobs, {});
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(st.message().find("job 'b': lat_percentiles=0 differs from job 'a' "
                              "(lat_percentiles=1) of the same group, set at t.fio:6"),
            std::string::npos)
      << st.message();
  EXPECT_TRUE(
      CheckJobs(testing::ParseOk(head + "[a]\nlat_percentiles=1\n[b]\nnew_group\n").jobs, {}).ok());
  EXPECT_TRUE(
      CheckJobs(
          testing::ParseOk("[a]\nioengine=null\nlat_percentiles=1\n[b]\nioengine=null\n").jobs, {})
          .ok());
  // fio 3.33 compares a group_reporting job with every job before it in its
  // group, with group_reporting or not; a job without it is not checked.
  // Each row: the jobs (g: group_reporting, 0/1: lat_percentiles), and the
  // job refused ("" runs), all checked against fio 3.33.
  const struct {
    const char* jobs;
    const char* refused;
  } cases[] = {
      {"a0 bg1", "b"},    {"a1 bg0", "b"},        {"ag0 b1", ""},           {"ag1 b0 cg0", "c"},
      {"a0 b1 cg1", "c"}, {"a1 b0 cg0", "c"},     {"a1 b1 cg1", ""},        {"a0 bg0 c1", ""},
      {"a1 b0 cg1", "c"}, {"a1 bg1 c0 dg1", "d"}, {"ag1 bg1 |c0 dg1", "d"}, {"a1 |bg0", ""},
  };
  for (const auto& c : cases) {
    std::string file = "[global]\nioengine=null\nsize=64k\n";
    std::istringstream in(c.jobs);
    for (std::string w; in >> w;) {
      file += "[" + std::string(1, w[w[0] == '|' ? 1 : 0]) + "]\n";
      if (w[0] == '|') file += "stonewall\n";
      if (w.find('g') != std::string::npos) file += "group_reporting\n";
      if (w.back() == '1') file += "lat_percentiles=1\n";
    }
    const Status s = CheckJobs(testing::ParseOk(file).jobs, {});
    if (*c.refused == 0) {
      EXPECT_TRUE(s.ok()) << c.jobs << ": " << s.message();
    } else {
      EXPECT_NE(s.message().find("job '" + std::string(c.refused) + "': lat_percentiles="),
                std::string::npos)
          << c.jobs << ": " << s.message();
    }
  }
  // fio checks only a job that keeps its stats: stats=0 runs.
  EXPECT_TRUE(CheckJobs(testing::ParseOk("[global]\nioengine=null\nsize=64k\n[a]\n[b]\n"
                                         "group_reporting\nlat_percentiles=1\nstats=0\n")
                            .jobs,
                        {})
                  .ok());
}

// fio 3.33 keeps the bw/iops sample statistics with disable_bw_measurement
// and gtod_reduce (they only empty its per-I/O bw log); iobench dropped both.
TEST(RunCoordinatorTest, BwAndIopsSamplesSurviveDisableBwAndGtodReduce) {
  for (const char* opt : {"disable_bw_measurement", "gtod_reduce"}) {
    JobSpec j = NullJob("s");
    j.time_based = true;
    j.runtime_ns = 200ull * 1000 * 1000;  // more than a loaded machine's preemption
    j.rate_iops[0] = 2000;                // idle between I/Os
    j.bw_avg_ms = j.iops_avg_ms = 10;
    ASSERT_TRUE(jobfile::SetOption(&j, opt, "1").ok());
    RunResult r = MustRun({j});
    const DirStats& d = r.groups[0].jobs[0].stats.dir[0];
    EXPECT_FALSE(d.bw_samples.empty()) << opt;
    EXPECT_FALSE(d.iops_samples.empty()) << opt;
  }
}

TEST(RunCoordinatorTest, GroupsStonewallNewGroupAndJobFiles) {
  JobSpec a = NullJob("a");
  JobSpec b = NullJob("b");
  JobSpec c = NullJob("c");
  c.stonewall = true;
  JobSpec d = NullJob("d");
  d.new_group = true;
  JobSpec e = NullJob("e");
  e.job_file_index = 1;
  RunResult r = MustRun({a, b, c, d, e});
  ASSERT_EQ(r.groups.size(), 4u);
  EXPECT_EQ(r.groups[0].jobs.size(), 2u);
  EXPECT_EQ(r.groups[0].jobs[0].name, "a");
  EXPECT_EQ(r.groups[0].jobs[1].name, "b");
  EXPECT_EQ(r.groups[1].jobs.at(0).name, "c");
  EXPECT_EQ(r.groups[2].jobs.at(0).name, "d");
  EXPECT_EQ(r.groups[3].jobs.at(0).name, "e");
  for (size_t g = 0; g < r.groups.size(); ++g) {
    EXPECT_EQ(r.groups[g].id, static_cast<int>(g));
    for (const auto& jr : r.groups[g].jobs) EXPECT_EQ(jr.groupid, static_cast<int>(g));
  }
}

TEST(RunCoordinatorTest, WaitForMustNameAnEarlierJob) {
  JobSpec a = NullJob("a");
  JobSpec b = NullJob("b");
  b.wait_for = "zzz";
  b.settings.push_back({"wait_for", "zzz", OptionSource::kJob, "w.fio", 7});
  auto r = RunJobs({a, b}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'b': wait_for=zzz (w.fio:7): no job of that name comes before it");
  // fio: "a job cannot wait for itself".
  b.wait_for = "b";
  b.settings.back().value = "b";
  r = RunJobs({a, b}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "job 'b': wait_for=b (w.fio:7): a job cannot wait for itself");
  b.wait_for = "a";
  RunResult ok = MustRun({a, b});
  ASSERT_EQ(ok.groups.size(), 1u);  // wait_for orders, it does not regroup
  EXPECT_EQ(ok.groups[0].jobs.size(), 2u);
  // Its own name, even when an earlier job has it (fio refuses it too).
  JobSpec b2 = b;
  b2.wait_for = "b";
  b2.settings.back().value = "b";
  r = RunJobs({a, b, b2}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "job 'b': wait_for=b (w.fio:7): a job cannot wait for itself");
}

// fio 3.33's waitee_running() waits for every job of the name in the phase,
// the ones defined after the waiter too: b started when the first a ended
// and ran alongside the second. Ordering, not speed: b starts after both.
TEST(RunCoordinatorTest, WaitForWaitsForLaterJobsOfTheName) {
  JobSpec a1 = NullJob("a");
  a1.number_ios = 1;
  JobSpec b = NullJob("b", RwMode::kRandRead, 4096, 64ull << 20);
  b.number_ios = 1;
  b.wait_for = "a";
  JobSpec a2 = NullJob("a", RwMode::kRandRead, 4096, 64ull << 20);
  a2.time_based = true;
  a2.runtime_ns = 300ull * 1000 * 1000;
  RunResult r = MustRun({a1, b, a2});
  ASSERT_EQ(r.groups.size(), 1u);
  const auto& jobs = r.groups[0].jobs;
  ASSERT_EQ(jobs.size(), 3u);
  ASSERT_EQ(jobs[1].name, "b");
  EXPECT_GE(jobs[1].start_ms + 1, jobs[2].start_ms + jobs[2].runtime_ms)
      << "b started before the second a finished";
  EXPECT_EQ(jobs[1].stats.dir[0].ios, 1u);
}

// A later job of the name that waits for the waiter closes a circle: no job
// of it would start (fio 3.33 hangs). Refused before the run, naming each.
TEST(RunCoordinatorTest, WaitForInACircleIsRefused) {
  JobSpec a1 = NullJob("a");
  JobSpec b = NullJob("b");
  b.wait_for = "a";
  b.settings.push_back({"wait_for", "a", OptionSource::kJob, "w.fio", 7});
  JobSpec a2 = NullJob("a");
  a2.wait_for = "b";
  a2.settings.push_back({"wait_for", "b", OptionSource::kJob, "w.fio", 11});
  auto r = RunJobs({a1, b, a2}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "wait_for goes in a circle: job 'b' waits for 'a' (w.fio:7), job 'a' waits for 'b' "
            "(w.fio:11); no job of the circle would start (fio 3.33 waits for every job of the "
            "name, also those defined later, and hangs)");
  // In another phase the later a does not count: it is not waited for.
  a2.stonewall = true;
  RunResult ok = MustRun({a1, b, a2});
  EXPECT_EQ(ok.groups.size(), 2u);
}

// wait_for holds back only the job that names another one: a job after it
// in the same phase starts at once (fio's semantics; stonewall would hold
// back everything after it). Ordering, not speed: b starts when both clones
// of a are done, and c is done long before that.
TEST(RunCoordinatorTest, WaitForHoldsBackOnlyTheWaitingJob) {
  JobSpec a = NullJob("a", RwMode::kRandRead, 4096, 64ull << 20);
  a.time_based = true;
  a.runtime_ns = 1000ull * 1000 * 1000;
  a.numjobs = 2;
  JobSpec b = a;
  b.name = "b";
  b.numjobs = 1;
  b.runtime_ns = 100ull * 1000 * 1000;
  b.wait_for = "a";
  JobSpec c = b;
  c.name = "c";
  c.wait_for.clear();
  RunResult r = MustRun({a, b, c});
  ASSERT_EQ(r.groups.size(), 1u);
  const auto& jobs = r.groups[0].jobs;
  ASSERT_EQ(jobs.size(), 4u);
  const JobResult *a0 = &jobs[0], *a1 = &jobs[1], *jb = &jobs[2], *jc = &jobs[3];
  ASSERT_EQ(jb->name, "b");
  ASSERT_EQ(jc->name, "c");
  const uint64_t a_end = std::max(a0->start_ms + a0->runtime_ms, a1->start_ms + a1->runtime_ms);
  EXPECT_GE(jb->start_ms + 1, a_end) << "b started before a finished";
  EXPECT_LE(jc->start_ms + jc->runtime_ms, jb->start_ms) << "c waited for a too";
  EXPECT_GT(jb->stats.dir[0].ios, 0u);
  EXPECT_GT(jc->stats.dir[0].ios, 0u);
}

// A stop request ends the wait: the waiting job does no I/O and the run ends.
TEST(RunCoordinatorTest, StopWhileWaitingForAJob) {
  JobSpec a = NullJob("a", RwMode::kRandRead, 4096, 64ull << 20);
  a.time_based = true;
  a.runtime_ns = 60ull * 1000 * 1000 * 1000;
  JobSpec b = a;
  b.name = "b";
  b.wait_for = "a";
  std::atomic<int> stop{0};
  RunOptions opts;
  opts.stop_signal = &stop;
  // The stop comes once a has done I/O (b is waiting then), not after a fixed
  // time: on a loaded machine or under TSan a may not have started by then.
  opts.tick_ns = 20ull * 1000 * 1000;
  opts.on_tick = [&](const std::vector<const LiveCounters*>& live) {
    for (const LiveCounters* l : live)
      if (l->ios[0].load(std::memory_order_relaxed) > 0) stop.store(SIGINT);
  };
  RunResult r = MustRun({a, b}, opts);
  ASSERT_EQ(r.groups.at(0).jobs.size(), 2u);
  EXPECT_GT(r.groups[0].jobs[0].stats.dir[0].ios, 0u);
  EXPECT_EQ(r.groups[0].jobs[1].stats.dir[0].ios, 0u);
}

TEST(RunCoordinatorTest, NumjobsClonesEachReportSeparately) {
  JobSpec j = NullJob("clone");
  j.numjobs = 4;
  j.number_ios = 10;
  j.group_reporting = true;
  RunResult r = MustRun({j});
  ASSERT_EQ(r.groups.size(), 1u);
  EXPECT_TRUE(r.groups[0].jobs[3].spec.group_reporting);
  ASSERT_EQ(r.groups[0].jobs.size(), 4u);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(r.groups[0].jobs[k].jobnum, k);
    EXPECT_EQ(r.groups[0].jobs[k].name, "clone");
    EXPECT_EQ(r.groups[0].jobs[k].stats.dir[0].ios, 10u);
  }
}

TEST(RunCoordinatorTest, TwoHundredFiftyTwoWorkers) {
  JobSpec j = NullJob("seed003", RwMode::kRandRW, 65536, 64ull << 20);
  j.numjobs = 252;
  j.number_ios = 1;
  j.group_reporting = true;
  RunResult r = MustRun({j});
  ASSERT_EQ(r.groups.size(), 1u);
  ASSERT_EQ(r.groups[0].jobs.size(), 252u);
  uint64_t total = 0;
  for (int k = 0; k < 252; ++k) {
    const JobResult& jr = r.groups[0].jobs[k];
    EXPECT_EQ(jr.jobnum, k);
    EXPECT_EQ(jr.error, 0);
    const uint64_t ios = jr.stats.dir[0].ios + jr.stats.dir[1].ios;
    EXPECT_EQ(ios, 1u);
    total += jr.stats.dir[0].bytes + jr.stats.dir[1].bytes;
  }
  EXPECT_EQ(total, 252ull * 65536);
}

TEST(RunCoordinatorTest, UnimplementedOptionIsRefusedByName) {
  JobSpec j = NullJob("x");
  OptionSetting s;
  s.name = "zonemode";
  s.value = "zbd";
  s.file = "jobs/a.fio";
  s.line = 12;
  j.unimplemented.push_back(s);
  auto r = RunJobs({j}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "option 'zonemode' (jobs/a.fio:12) is not implemented yet in iobench: the job is "
            "refused, not run without it");
}

// fill_device runs for write jobs (run_files_options_test FilesOptionsFill);
// a reading job is refused rather than run without the fill.
TEST(RunCoordinatorTest, FillDeviceOnAReadJobIsRefusedNotIgnored) {
  JobSpec j = NullJob("fill");
  j.fill_device = true;
  j.settings.push_back({"fill_device", "1", OptionSource::kJob, "seed.fio", 7});
  auto r = RunJobs({j}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'fill': fill_device=1 (seed.fio:7) needs rw=write or randwrite in iobench: fill "
            "the file with such a job first (stonewall), then read it");
}

TEST(RunCoordinatorTest, UnknownEngineAndReadonly) {
  JobSpec j = NullJob("x");
  j.ioengine = "nosuch";
  auto r = RunJobs({j}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("ioengine=nosuch is not a known engine"), std::string::npos);
  JobSpec w = NullJob("w", RwMode::kRandRW);
  w.settings.push_back({"rw", "randrw", OptionSource::kJob, "ro.fio", 3});
  RunOptions ro;
  ro.readonly = true;
  r = RunJobs({w}, ro);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kRefused);
  // The refusal names the option, what the job does and where (docs/safety.md);
  // it used to say "job 'w' would write or trim, and --readonly is in effect".
  EXPECT_EQ(r.status().message(), "--readonly: job 'w' writes (rw=randrw at ro.fio:3)");
}

TEST(RunCoordinatorTest, ExitCodeIsTheStopSignals) {
  // 128 + the signal, as the process exits: the JSON said 130 after SIGTERM.
  for (int sig : {SIGHUP, SIGTERM}) {
    JobSpec j = NullJob("long");
    j.time_based = true;
    j.runtime_ns = 120ull * 1000 * 1000 * 1000;
    std::atomic<int> stop{0};
    RunOptions opts;
    opts.stop_signal = &stop;
    opts.on_tick = [&](const std::vector<const LiveCounters*>&) { stop.store(sig); };
    RunResult r = MustRun({j}, opts);
    EXPECT_TRUE(r.interrupted);
    EXPECT_EQ(r.exit_code, 128 + sig);
  }
}

TEST(RunCoordinatorTest, StopSignalInterruptsAndKeepsWhatWasMeasured) {
  JobSpec j = NullJob("long");
  j.time_based = true;
  j.runtime_ns = 120ull * 1000 * 1000 * 1000;
  j.numjobs = 2;
  std::atomic<int> stop{0};
  RunOptions opts;
  opts.stop_signal = &stop;
  std::atomic<int> ticks{0};
  // The stop comes from the status tick, i.e. while the workers are running.
  opts.on_tick = [&](const std::vector<const LiveCounters*>& live) {
    EXPECT_EQ(live.size(), 2u);
    if (++ticks == 1) stop.store(SIGINT);
  };
  JobSpec after = NullJob("after");
  after.stonewall = true;
  after.numjobs = 2;
  RunResult r = MustRun({j, after}, opts);
  EXPECT_TRUE(r.interrupted);
  EXPECT_EQ(r.exit_code, 130);
  // The group that never ran is listed with no I/O, each clone, as fio.
  ASSERT_EQ(r.groups.size(), 2u);
  ASSERT_EQ(r.groups[1].jobs.size(), 2u);
  for (int n = 0; n < 2; ++n) {
    const JobResult& jr = r.groups[1].jobs[static_cast<size_t>(n)];
    EXPECT_EQ(jr.name, "after");
    EXPECT_EQ(jr.jobnum, n);
    EXPECT_EQ(jr.groupid, 1);
    EXPECT_EQ(jr.stats.issued[0] + jr.stats.dir[0].ios + jr.runtime_ms, 0u);
    EXPECT_EQ(jr.error, 0);
  }
  for (const auto& jr : r.groups[0].jobs) {
    EXPECT_TRUE(jr.interrupted);
    EXPECT_GT(jr.stats.dir[0].ios, 0u);
    EXPECT_EQ(jr.stats.dir[0].ios, jr.stats.issued[0]);  // in-flight I/O was reaped
    EXPECT_LT(jr.runtime_ms, 60000u);
  }
}

// A signal while the phase is set up (before any worker was let go): the
// phase's jobs and the later phases' are listed with no I/O, as fio lists a
// job it terminated before it ran. The result had no job at all, and the
// terse and JSON output no record (CI's signals.sh lost its report so, under
// load, when timeout(1)'s SIGTERM came while the workers were set up).
class StopInInitEngine final : public testing::FakeEngine {
 public:
  explicit StopInInitEngine(std::atomic<int>* stop)
      : FakeEngine({}, std::make_shared<testing::FakeLedger>()), stop_(stop) {}
  Status Init(const EngineContext& ctx) override {
    stop_->store(SIGTERM);
    return FakeEngine::Init(ctx);
  }

 private:
  std::atomic<int>* stop_;
};

TEST(RunCoordinatorTest, StopSignalDuringSetUpListsThePhasesJobs) {
  JobSpec j = NullJob("first");
  j.numjobs = 2;
  JobSpec after = NullJob("after");
  after.stonewall = true;
  std::atomic<int> stop{0};
  RunOptions opts;
  opts.stop_signal = &stop;
  opts.engine_factory = [&stop](const JobSpec&) -> std::unique_ptr<Engine> {
    return std::make_unique<StopInInitEngine>(&stop);
  };
  RunResult r = MustRun({j, after}, opts);
  EXPECT_TRUE(r.interrupted);
  EXPECT_FALSE(r.io_complete);
  EXPECT_EQ(r.exit_code, 128 + SIGTERM);
  ASSERT_EQ(r.groups.size(), 2u);
  ASSERT_EQ(r.groups[0].jobs.size(), 2u);
  ASSERT_EQ(r.groups[1].jobs.size(), 1u);
  for (const auto& g : r.groups)
    for (const auto& jr : g.jobs) {
      EXPECT_EQ(jr.name, g.id == 0 ? "first" : "after");
      EXPECT_EQ(jr.stats.issued[0] + jr.stats.dir[0].ios + jr.runtime_ms, 0u);
      EXPECT_EQ(jr.error, 0);
      // The phase that was stopped is marked cut; the one after never ran.
      EXPECT_EQ(jr.interrupted, g.id == 0) << jr.name;
    }
  EXPECT_EQ(r.groups[0].jobs[1].jobnum, 1);
}

TEST(RunCoordinatorTest, ExitallStopsThePhase) {
  JobSpec quick = NullJob("quick");
  quick.number_ios = 5;
  quick.exitall = true;
  JobSpec slow = NullJob("slow");
  slow.time_based = true;
  slow.runtime_ns = 120ull * 1000 * 1000 * 1000;
  RunResult r = MustRun({quick, slow});
  ASSERT_EQ(r.groups[0].jobs.size(), 2u);
  EXPECT_EQ(r.groups[0].jobs[0].stats.dir[0].ios, 5u);
  EXPECT_LT(r.groups[0].jobs[1].runtime_ms, 60000u);
  EXPECT_FALSE(r.groups[0].jobs[1].interrupted);
  EXPECT_FALSE(r.interrupted);
}

// exitall_on_error: a job that ends in an error stops the others; one that
// ends well does not. The failing job fails every 3rd I/O on the fake engine.
TEST(RunCoordinatorTest, ExitallOnErrorStopsThePhaseOnlyOnError) {
  for (bool fails : {true, false}) {
    JobSpec bad = NullJob("bad");
    bad.number_ios = 100;
    bad.exitall_on_error = true;
    JobSpec slow = NullJob("slow");
    slow.time_based = true;
    slow.runtime_ns = fails ? 120ull * 1000 * 1000 * 1000 : 300ull * 1000 * 1000;
    RunOptions o;
    o.engine_factory = [fails](const JobSpec& job) -> std::unique_ptr<Engine> {
      testing::FakeScript script;
      if (job.name == "bad" && fails) script.fail_every = 3;
      // A ledger per engine: the two jobs run on two threads.
      return std::make_unique<testing::FakeEngine>(script, std::make_shared<testing::FakeLedger>());
    };
    RunResult r = MustRun({bad, slow}, o);
    ASSERT_EQ(r.groups.at(0).jobs.size(), 2u);
    EXPECT_EQ(r.groups[0].jobs[0].error != 0, fails);
    if (fails) {
      EXPECT_LT(r.groups[0].jobs[1].runtime_ms, 60000u);  // stopped, not its 120 s
    } else {
      EXPECT_GE(r.groups[0].jobs[1].runtime_ms, 300u);  // ran its whole runtime
    }
    EXPECT_FALSE(r.groups[0].jobs[1].interrupted);
  }
}

// exit_what: stonewall stops the running jobs and goes on with the next
// phase; all stops the run there.
TEST(RunCoordinatorTest, ExitWhatStonewallAndAll) {
  for (auto what : {JobSpec::ExitWhat::kStonewall, JobSpec::ExitWhat::kAll}) {
    JobSpec quick = NullJob("quick");
    quick.number_ios = 5;
    quick.exitall = true;
    quick.exit_what = what;
    JobSpec slow = NullJob("slow");
    slow.time_based = true;
    slow.runtime_ns = 120ull * 1000 * 1000 * 1000;
    JobSpec later = NullJob("later");
    later.stonewall = true;
    later.number_ios = 7;
    RunResult r = MustRun({quick, slow, later});
    // exit_what=all: the later group did not run; it is listed with no
    // I/O, as fio lists it.
    ASSERT_EQ(r.groups.size(), 2u);
    EXPECT_LT(r.groups[0].jobs.at(1).runtime_ms, 60000u);
    ASSERT_EQ(r.groups[1].jobs.size(), 1u);
    EXPECT_EQ(r.groups[1].jobs[0].name, "later");
    EXPECT_EQ(r.groups[1].jobs[0].stats.dir[0].ios,
              what == JobSpec::ExitWhat::kStonewall ? 7u : 0u);
    EXPECT_FALSE(r.interrupted);
  }
}

// fio's default exit_what=group stops only the ending job's reporting
// group, also where new_group splits a phase (fio's examples/exitwhat.fio;
// iobench refused that job file): 'quick' (exitall, 5 I/Os) cuts 'mate' of
// its group, and 'other' (new_group) runs its 1000 I/Os 1 ms apart to the
// end. With exit_what=stonewall on 'quick', 'other' is cut too; with it on
// 'other' alone, 'quick' still stops only its group (each job's end obeys
// its own exit_what, as in fio).
TEST(RunCoordinatorTest, ExitallGroupStopsOnlyTheEndingJobsGroup) {
  JobSpec quick = NullJob("quick");
  quick.number_ios = 5;
  quick.exitall = true;
  JobSpec mate = NullJob("mate");
  mate.time_based = true;
  mate.runtime_ns = 120ull * 1000 * 1000 * 1000;
  JobSpec other = NullJob("other", RwMode::kRead, 4096, 64ull << 20);
  other.new_group = true;
  other.number_ios = 1000;
  other.thinktime_ns = 1000 * 1000;
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    quick.exit_what = round == 1 ? JobSpec::ExitWhat::kStonewall : JobSpec::ExitWhat::kGroup;
    other.exit_what = round == 2 ? JobSpec::ExitWhat::kStonewall : JobSpec::ExitWhat::kGroup;
    RunResult r = MustRun({quick, mate, other});
    ASSERT_EQ(r.groups.size(), 2u);
    ASSERT_EQ(r.groups[0].jobs.size(), 2u);
    ASSERT_EQ(r.groups[1].jobs.size(), 1u);
    EXPECT_EQ(r.groups[0].jobs[0].stats.dir[0].ios, 5u);
    EXPECT_LT(r.groups[0].jobs[1].runtime_ms, 60000u);  // mate: cut by quick's end
    const uint64_t other_ios = r.groups[1].jobs[0].stats.dir[0].ios;
    if (round == 1)
      EXPECT_LT(other_ios, 1000u);  // quick's exit_what=stonewall cuts it (1 s)
    else
      EXPECT_EQ(other_ios, 1000u);
    EXPECT_EQ(r.groups[1].jobs[0].error, 0);
    EXPECT_FALSE(r.interrupted);
  }
}

// fio 3.33's exitall sets one process-wide switch: the first job of the
// phase to finish stops the others, whichever job set it (man fio: "as soon
// as one job of that group finishes"). Here the quick job has no exitall.
TEST(RunCoordinatorTest, ExitallStopsThePhaseWhenAnyJobFinishes) {
  JobSpec quick = NullJob("quick");
  quick.number_ios = 5;
  JobSpec setter = NullJob("setter");
  setter.exitall = true;
  setter.time_based = true;
  setter.runtime_ns = 120ull * 1000 * 1000 * 1000;
  JobSpec slow = setter;
  slow.name = "slow";
  slow.exitall = false;
  RunResult r = MustRun({quick, setter, slow});
  ASSERT_EQ(r.groups[0].jobs.size(), 3u);
  EXPECT_EQ(r.groups[0].jobs[0].stats.dir[0].ios, 5u);
  EXPECT_LT(r.groups[0].jobs[1].runtime_ms, 60000u);
  EXPECT_LT(r.groups[0].jobs[2].runtime_ms, 60000u);
  EXPECT_FALSE(r.groups[0].jobs[2].interrupted);
}

TEST(RunCoordinatorTest, RampIsNotMeasured) {
  JobSpec j = NullJob("ramp");
  j.time_based = true;
  j.ramp_time_ns = 200ull * 1000 * 1000;
  j.runtime_ns = 700ull * 1000 * 1000;
  RunResult r = MustRun({j});
  const JobResult& jr = r.groups[0].jobs[0];
  // Lower bounds only (no timing-based pass/fail on the upper side).
  EXPECT_GE(jr.runtime_ms, 700u);
  EXPECT_GE(jr.elapsed_ms, 900u);
  EXPECT_LT(jr.runtime_ms, jr.elapsed_ms);
  // Samples start after the ramp: t is measured from the end of the ramp,
  // on the 500 ms grid (from the job's start the first was at 700). Not
  // "the first is at 500": a thread stalled over a whole window merges it
  // with the next (1000).
  ASSERT_FALSE(jr.stats.dir[0].bw_samples.empty());
  EXPECT_GE(jr.stats.dir[0].bw_samples[0].t_ms, 500u);
  EXPECT_EQ(jr.stats.dir[0].bw_samples[0].t_ms % 500, 0u);
}

// A job whose size is done within its ramp reports the ramp's I/O over the
// time since it started, as fio (its stats were never reset): 20 I/Os at
// rate_iops=1000 take at least 19 ms, where iobench printed 1 ms (20k IOPS).
TEST(RunCoordinatorTest, JobEndingInItsRampReportsTheRamp) {
  JobSpec j = NullJob("in-ramp", RwMode::kRead, 4096, 20 * 4096);
  j.ramp_time_ns = 60ull * 1000 * 1000 * 1000;
  j.rate_iops[0] = 1000;
  RunResult r = MustRun({j});
  const JobResult& jr = r.groups[0].jobs[0];
  EXPECT_EQ(jr.stats.dir[0].ios, 20u);
  EXPECT_GE(jr.runtime_ms, 19u);
  EXPECT_GE(jr.stats.dir[0].runtime_ns, 19ull * 1000 * 1000);
  // fio accounts no completion in its ramp: the I/Os count, their
  // latencies do not (clat N=0, no percentiles, no latency buckets).
  EXPECT_EQ(jr.stats.dir[0].clat.n, 0u);
  EXPECT_EQ(jr.stats.dir[0].lat.n, 0u);
  EXPECT_EQ(jr.stats.dir[0].slat.n, 0u);
}

// fio's number_ios counts from the end of the ramp (its stats reset zeroes
// the count): the measured part has all number_ios I/Os. The first I/O is
// issued at once, inside the 5 ms ramp, so a count that included the ramp
// would measure fewer.
TEST(RunCoordinatorTest, NumberIosCountsAfterTheRamp) {
  JobSpec j = NullJob("ramp-n");
  j.ramp_time_ns = 5ull * 1000 * 1000;
  j.rate_iops[0] = 1000;
  j.number_ios = 12;
  RunResult r = MustRun({j});
  EXPECT_EQ(r.groups[0].jobs[0].stats.dir[0].ios, 12u);
}

}  // namespace
}  // namespace iobench

namespace iobench {
namespace {

void RestoreDefaultSignals() {
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGUSR1}) signal(s, SIG_DFL);
}

TEST(RunSignalsTest, HandlersSetTheFlags) {
  std::atomic<int> stop{0};
  std::atomic<int> report{0};
  InstallSignalHandlers(&stop, &report);
  raise(SIGUSR1);
  EXPECT_EQ(report.load(), 1);
  EXPECT_EQ(stop.load(), 0);
  raise(SIGTERM);
  EXPECT_EQ(stop.load(), SIGTERM);
  RestoreDefaultSignals();  // a second signal would _exit() the test binary
}

TEST(RunSignalsTest, RealSigintStopsTheRun) {
  std::atomic<int> stop{0};
  InstallSignalHandlers(&stop);
  JobSpec j = NullJob("sig", RwMode::kRandWrite);
  j.time_based = true;
  j.runtime_ns = 120ull * 1000 * 1000 * 1000;
  RunOptions opts;
  opts.stop_signal = &stop;
  opts.on_tick = [](const std::vector<const LiveCounters*>& live) {
    EXPECT_GT(live[0]->ios[1].load(std::memory_order_relaxed), 0u);
    raise(SIGINT);
  };
  RunResult r = MustRun({j}, opts);
  RestoreDefaultSignals();
  EXPECT_EQ(stop.load(), SIGINT);
  EXPECT_TRUE(r.interrupted);
  EXPECT_EQ(r.exit_code, 130);
  ASSERT_EQ(r.groups.size(), 1u);
  EXPECT_TRUE(r.groups[0].jobs[0].interrupted);
  EXPECT_GT(r.groups[0].jobs[0].stats.dir[1].ios, 0u);
  EXPECT_FALSE(r.groups[0].jobs[0].stats.dir[1].bw_samples.empty());
  // A second of busy I/O loop costs CPU, measured per thread.
  const CpuUsage& cpu = r.groups[0].jobs[0].stats.cpu;
  EXPECT_GT(cpu.user_us + cpu.sys_us, 0u);
}

TEST(RunCoordinatorTest, ThinktimeAndStartdelayWait) {
  JobSpec j = NullJob("think");
  j.number_ios = 50;
  j.thinktime_ns = 2ull * 1000 * 1000;
  j.thinktime_blocks = 10;
  j.startdelay_ns = 50ull * 1000 * 1000;
  RunResult r = MustRun({j});
  const JobResult& jr = r.groups[0].jobs[0];
  EXPECT_EQ(jr.stats.dir[0].ios, 50u);
  EXPECT_GE(jr.runtime_ms, 8u);   // four thinks between five bursts
  EXPECT_GE(jr.elapsed_ms, 58u);  // plus the start delay
}

// startdelay counts from the run's start, as fio's (mtime_since_genesis):
// a job after a stonewall whose delay has passed starts with its phase, not
// a whole delay later (fio: [a] runtime=1 then [b] stonewall startdelay=1
// takes 1.7 s; it took 2.0 here). Its phase starts >= 1.1 s in, so the
// old way started b at least 1 s after a's end; now it starts at once (the
// 900 ms bound is slack for a loaded machine that stalls the test, not a
// measurement).
TEST(RunCoordinatorTest, StartdelayCountsFromTheRunsStart) {
  JobSpec a = NullJob("a");
  a.time_based = true;
  a.runtime_ns = 1100ull * 1000 * 1000;
  a.rate_iops[0] = 100;  // idle, not a busy loop
  JobSpec b = NullJob("b");
  b.stonewall = true;
  b.number_ios = 1;
  b.startdelay_ns = 1000ull * 1000 * 1000;
  RunResult r = MustRun({a, b});
  ASSERT_EQ(r.groups.size(), 2u);
  const JobResult& ja = r.groups[0].jobs.at(0);
  const JobResult& jb = r.groups[1].jobs.at(0);
  EXPECT_EQ(jb.stats.dir[0].ios, 1u);
  EXPECT_GE(jb.start_ms, r.start_ms + 1000);
  EXPECT_LT(jb.start_ms, ja.end_ms + 900);
}

TEST(RunCoordinatorTest, RateAndThinktimeSleepsAreNotCompletionLatency) {
  // The worker sleeps before issuing (rate_iops, thinktime): that wait is
  // neither clat nor lat. A sync engine issues when it prepares, so lat ==
  // clat exactly, and both are far below the 10 ms gaps between I/Os (the
  // null engine completes in nanoseconds; the median I/O taking a whole gap
  // would need the machine to stall for 10 ms inside one call, every other
  // time; a mean could be moved by one long stall).
  for (int variant = 0; variant < 2; ++variant) {
    JobSpec j = NullJob(variant == 0 ? "rate" : "think");
    j.number_ios = 20;
    if (variant == 0) {
      j.rate_iops[0] = 100;
    } else {
      j.thinktime_ns = 10ull * 1000 * 1000;
    }
    RunResult r = MustRun({j});
    const DirStats& d = r.groups[0].jobs[0].stats.dir[0];
    ASSERT_EQ(d.ios, 20u);
    EXPECT_EQ(d.lat.n, d.clat.n);
    EXPECT_EQ(d.lat.sum, d.clat.sum);
    EXPECT_EQ(d.lat.max, d.clat.max);
    for (unsigned i = 0; i < Histogram::kNr; ++i)
      ASSERT_EQ(d.lat_hist.counts[i], d.clat_hist.counts[i]) << i;
    EXPECT_LT(Percentile(d.clat_hist, 50), 5'000'000u) << j.name;  // with the sleep: ~10 ms
  }
}

// fio 3.33 checks rate_min only after 2 s (then per rate_cycle, see
// MinRateCheck): a job that is over sooner never fails it, however slow.
// iobench used to judge the whole run at the end and failed this one.
TEST(RunCoordinatorTest, RateMinIsNotJudgedInTheFirstTwoSeconds) {
  JobSpec j = NullJob("short");
  j.number_ios = 100;
  j.rate_min[0] = UINT64_MAX / 4;  // no machine reads this fast
  RunResult r = MustRun({j});
  const JobResult& jr = r.groups[0].jobs[0];
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.stats.dir[0].ios, 100u);
  EXPECT_EQ(r.exit_code, 0);
}

}  // namespace
}  // namespace iobench
