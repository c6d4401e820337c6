// ctest-labels: threads
// The worker's verify hooks against an engine that does real I/O on a real
// file (ext4 under /var/tmp) but completes out of order, short, and failing:
// no false positives after short writes, failed writes (continue_on_error) or
// overlapping in-flight writes, and OnWriteComplete exactly once per write.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "fake_engine.h"
#include "iobench/clock.h"
#include "run/target.h"
#include "run/worker.h"

namespace iobench {
namespace {

using testing::TestJob;

// Async engine whose Reap does the pread/pwrite, in reverse order of
// submission: two writes to one block in flight land in the other order.
// Every short_every-th write (first part) writes only half; every
// fail_every-th write fails with EIO without writing; every 5th read is short.
struct ScriptCounts {
  uint64_t writes_failed = 0, writes_short = 0, reads_short = 0;
};

class ScriptedRealEngine final : public Engine {
 public:
  ScriptedRealEngine(uint32_t short_every, uint32_t fail_every, ScriptCounts* counts,
                     uint64_t fail_read_at = UINT64_MAX)
      : short_every_(short_every),
        fail_every_(fail_every),
        fail_read_at_(fail_read_at),
        counts_(counts) {}
  Status Init(const EngineContext& ctx) override {
    files_ = ctx.files;
    return Status::Ok();
  }
  QueueResult Queue(IoRequest* req) override {
    pending_.push_back(req);
    return QueueResult::kQueued;
  }
  Result<unsigned> Commit() override {
    const unsigned n = static_cast<unsigned>(pending_.size());
    for (IoRequest* r : pending_) in_kernel_.push_back(r);
    pending_.clear();
    return n;
  }
  Result<unsigned> Reap(unsigned min, unsigned max, IoRequest** out) override {
    (void)min;
    unsigned n = 0;
    while (n < max && !in_kernel_.empty()) {
      IoRequest* r = in_kernel_.back();  // last in, first out
      in_kernel_.pop_back();
      Do(r);
      out[n++] = r;
    }
    return n;
  }
  bool IsSync() const override { return false; }

 private:
  void Do(IoRequest* r) {
    const int fd = (*files_)[r->file_index].fd;
    const bool first = r->offset == r->xfer_offset;
    uint64_t len = r->length;
    if (r->op == IoOp::kWrite) {
      ++writes_;
      if (first && fail_every_ != 0 && writes_ % fail_every_ == 0) {
        ++counts_->writes_failed;
        r->res = -EIO;
        return;
      }
      if (first && short_every_ != 0 && writes_ % short_every_ == 0 && len > 512) {
        len = len / 2;
        ++counts_->writes_short;
      }
      r->res = pwrite(fd, r->buf, len, static_cast<off_t>(r->offset));
    } else {
      ++reads_;
      if (r->offset == fail_read_at_) {  // an unreadable sector there
        r->res = -EIO;
        return;
      }
      if (first && reads_ % 5 == 0 && len > 512) {
        len = len / 2;
        ++counts_->reads_short;
      }
      r->res = pread(fd, r->buf, len, static_cast<off_t>(r->offset));
    }
    if (r->res < 0) r->res = -errno;
  }

  const std::vector<EngineFile>* files_ = nullptr;
  std::vector<IoRequest*> pending_, in_kernel_;
  uint32_t short_every_, fail_every_;
  uint64_t fail_read_at_;
  ScriptCounts* counts_;
  uint64_t writes_ = 0, reads_ = 0;
};

class WorkerVerifyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/var/tmp/iobench_worker_verify_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Runs one clone of `job` on a real file with the scripted engine.
  JobResult RunOne(JobSpec job, uint32_t short_every, uint32_t fail_every,
                   uint64_t fail_read_at = UINT64_MAX) {
    job.filenames = {dir_ + "/data"};
    auto targets = ResolveTargets(job, 0, false);
    EXPECT_TRUE(targets.ok()) << targets.status().ToString();
    for (auto& t : *targets) {
      auto laid = LayOutFile(job, t);
      EXPECT_TRUE(laid.ok()) << laid.status().ToString();
      t.exists = true;
      t.current_size = std::max(t.current_size, t.needed_size);
    }
    auto engine =
        std::make_unique<ScriptedRealEngine>(short_every, fail_every, &counts_, fail_read_at);
    WorkerControl ctl;
    ctl.setup_left.store(1);
    ctl.running.store(1);
    Worker w(job, 0, 0, 0, std::move(*targets), std::move(engine), &ctl);
    Status st = w.Setup();
    EXPECT_TRUE(st.ok()) << st.ToString();
    if (!st.ok()) return {};
    ctl.start_ns = NowNs();
    ctl.go.store(1);
    w.Run();
    w.Teardown();
    return w.result();
  }

  static std::string VerifyNote(const JobResult& jr) {
    for (const auto& n : jr.notes)
      if (n.rfind("verify: ", 0) == 0 && n.find("blocks written") != std::string::npos) return n;
    return "";
  }

  std::string dir_;
  ScriptCounts counts_;
};

TEST_F(WorkerVerifyTest, ShortAndFailedWritesGiveNoFalsePositives) {
  JobSpec job = TestJob("wv", RwMode::kRandWrite, 4096, 256 * 4096);
  job.iodepth = 8;
  job.norandommap = true;  // overwrites, several in flight at once
  job.loops = 3;
  job.continue_on_error = kCoeWrite;
  job.verify.type = VerifyType::kCrc32c;
  job.verify.state_save = false;
  const JobResult jr = RunOne(job, 3, 7);
  EXPECT_GT(counts_.writes_short, 0u);
  EXPECT_GT(counts_.writes_failed, 0u);
  EXPECT_GT(counts_.reads_short, 0u);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  const std::string note = VerifyNote(jr);
  EXPECT_NE(note.find(" 0 failed"), std::string::npos) << note;
  // Failed writes leave their blocks unknown: not read back, never failed.
  EXPECT_EQ(note.find(" 0 verified"), std::string::npos) << note;
  EXPECT_EQ(jr.stats.dir[1].errors, counts_.writes_failed);
  EXPECT_GT(jr.stats.dir[0].ios, 0u);  // verify reads are reads
}

// A verify read that fails (EIO, tolerated by continue_on_error=read) checks
// nothing: the summary says how many chunks went unchecked instead of
// reading as a clean pass ("16 written, 12 verified, 0 failed" before).
TEST_F(WorkerVerifyTest, AFailedVerifyReadIsNotAPass) {
  JobSpec job = TestJob("wv", RwMode::kWrite, 16384, 4 * 16384);
  job.continue_on_error = kCoeRead;
  job.verify.type = VerifyType::kCrc32c;
  job.verify.interval = 4096;
  job.verify.state_save = false;
  const JobResult jr = RunOne(job, 0, 0, /*fail_read_at=*/16384);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.stats.total_errors, 1u);
  EXPECT_EQ(VerifyNote(jr),
            "verify: 16 blocks written, 12 verified, 0 skipped, 0 failed, 4 not checked (the "
            "read failed) (verify_interval 4096 bytes)");
}

// 4 loops of 128 overwrites at QD 16, read back after every 8 writes.
JobSpec BacklogJob() {
  JobSpec job = TestJob("wv", RwMode::kRandWrite, 4096, 128 * 4096);
  job.iodepth = 16;
  job.norandommap = true;
  job.loops = 4;
  job.verify.type = VerifyType::kXxhash;
  job.verify.state_save = false;
  job.verify.backlog = 8;  // each block is read back by the backlog, none after the pass
  job.verify.backlog_batch = 8;
  return job;
}

TEST_F(WorkerVerifyTest, BacklogWithOutOfOrderCompletionsIsClean) {
  const JobResult jr = RunOne(BacklogJob(), 3, 0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_NE(VerifyNote(jr).find(" 0 failed"), std::string::npos) << VerifyNote(jr);
  // 512 writes; after every 8 the worker drains and reads those 8 back,
  // a block written twice among them once (fio drops the older write).
  EXPECT_EQ(jr.stats.dir[1].ios, 512u);
  EXPECT_LE(jr.stats.dir[0].ios, 512u);
  EXPECT_GE(jr.stats.dir[0].ios, 448u);  // ~0.2 repeats per batch of 8 over 128 blocks
}

TEST_F(WorkerVerifyTest, RandomWithMapIsReadBackInWrittenOrderOnce) {
  JobSpec job = TestJob("wv", RwMode::kRandWrite, 8192, 64 * 8192);
  job.iodepth = 4;
  job.verify.type = VerifyType::kSha256;
  job.verify.state_save = false;
  const JobResult jr = RunOne(job, 0, 0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.stats.dir[1].ios, 64u);
  EXPECT_EQ(jr.stats.dir[0].ios, 64u);
  // Each short read's rest is issued as an I/O of its own, as in fio.
  EXPECT_EQ(jr.stats.issued[0], 64u + jr.stats.dir[0].short_ios);
  EXPECT_NE(VerifyNote(jr).find("64 blocks written, 64 verified, 0 skipped, 0 failed"),
            std::string::npos)
      << VerifyNote(jr);
}

// A write that failed (ENOSPC, tolerated by continue_on_error) leaves its
// block unknown, and the verify phase does not read it back, random or
// sequential, as fio 3.33 (randwrite over 2 MiB on a 1 MiB tmpfs: 256
// reads). A random job read back all 64 blocks here, the 16 that failed
// too ("16 skipped").
TEST_F(WorkerVerifyTest, FailedWritesAreNotReadBack) {
  for (const RwMode rw : {RwMode::kRandWrite, RwMode::kWrite}) {
    JobSpec job = TestJob("wv", rw, 4096, 64 * 4096);
    job.iodepth = 4;
    job.continue_on_error = kCoeWrite;
    job.verify.type = VerifyType::kCrc32c;
    job.verify.state_save = false;
    counts_ = {};
    const JobResult jr = RunOne(job, 0, 4);
    EXPECT_EQ(jr.error, 0) << jr.error_message;
    EXPECT_EQ(counts_.writes_failed, 16u);
    EXPECT_EQ(jr.stats.dir[1].errors, 16u);
    EXPECT_EQ(jr.stats.dir[0].ios, 48u) << static_cast<int>(rw);
    EXPECT_NE(VerifyNote(jr).find("48 verified, 0 skipped, 0 failed"), std::string::npos)
        << VerifyNote(jr);
  }
}

// verify=null keeps no record of the writes: each is read back (not
// checked), as in fio 3.33. A sequential job read back nothing (its
// record had no written block), fio 256k of 256k.
TEST_F(WorkerVerifyTest, VerifyNullReadsBackEveryWrite) {
  for (const RwMode rw : {RwMode::kRandWrite, RwMode::kWrite}) {
    JobSpec job = TestJob("wv", rw, 4096, 64 * 4096);
    job.verify.type = VerifyType::kNull;
    job.verify.state_save = false;
    const JobResult jr = RunOne(job, 0, 0);
    EXPECT_EQ(jr.error, 0) << jr.error_message;
    EXPECT_EQ(jr.stats.dir[0].bytes, 64 * 4096u) << static_cast<int>(rw);
  }
}

// Writes off the grid of verify_interval chunks from offset 0 are read back
// too, each once (fio verifies every write it logged): offset=1k, holes
// (rw=write:1k), a last block cut short by size. They used to be written and
// never read.
TEST_F(WorkerVerifyTest, WritesOffTheIntervalGridAreReadBackOnce) {
  JobSpec job = TestJob("wv", RwMode::kWrite, 4096, 64 * 4096);
  job.iodepth = 4;
  job.offset = 1024;
  job.verify.type = VerifyType::kCrc32c;
  job.verify.state_save = false;
  JobResult jr = RunOne(job, 0, 0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.stats.dir[1].ios, 64u);
  EXPECT_EQ(jr.stats.dir[0].ios, 64u);
  EXPECT_NE(VerifyNote(jr).find("64 blocks written, 64 verified, 0 skipped, 0 failed"),
            std::string::npos)
      << VerifyNote(jr);
  job.offset = 0;
  job.rw_skip = 1024;  // rw=write:1k: blocks at 0, 5k, 10k, ...
  jr = RunOne(job, 0, 0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.stats.dir[1].ios, 51u);
  EXPECT_EQ(jr.stats.dir[0].ios, 51u);
  job.rw_skip = 0;
  job.size = 10000;  // three blocks, the last past the grid of 2 chunks
  jr = RunOne(job, 0, 0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.stats.dir[1].ios, 3u);
  EXPECT_EQ(jr.stats.dir[0].ios, 3u);
  EXPECT_EQ(jr.stats.dir[0].bytes, 3 * 4096u);
}

// blockalign below the block size and a non-uniform random_distribution
// turn the random map off (fio too): writes overlap and repeat, and only
// what the last writes left is read back. The verify phase used to replay
// every write and report the overlapped ones as corrupted.
TEST_F(WorkerVerifyTest, RandomWithoutAMapReadsBackWhatTheLastWritesLeft) {
  JobSpec job = TestJob("wv", RwMode::kRandWrite, 4096, 64 * 4096);
  job.iodepth = 8;
  job.verify.type = VerifyType::kCrc32c;
  job.verify.state_save = false;
  for (int d = 0; d < kNumDdirs; ++d) job.blockalign[d] = 1024;
  JobResult jr = RunOne(job, 0, 0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.stats.dir[1].ios, 64u);
  EXPECT_GT(jr.stats.dir[0].ios, 0u);
  EXPECT_LT(jr.stats.dir[0].ios, 64u);  // overlapped writes are not read back
  EXPECT_NE(VerifyNote(jr).find(" 0 skipped, 0 failed"), std::string::npos) << VerifyNote(jr);
  // Short and failed writes, out of order, overlapping in flight.
  job.continue_on_error = kCoeWrite;
  jr = RunOne(job, 3, 7);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_NE(VerifyNote(jr).find(" 0 failed"), std::string::npos) << VerifyNote(jr);
  job = TestJob("wv", RwMode::kRandWrite, 4096, 64 * 4096);
  job.verify.type = VerifyType::kCrc32c;
  job.verify.state_save = false;
  job.random_distribution.type = DistType::kZipf;
  job.random_distribution.param = 1.2;
  jr = RunOne(job, 0, 0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.stats.dir[1].ios, 64u);
  EXPECT_LT(jr.stats.dir[0].ios, 64u);  // each distinct block once
}

// io_size shorter than the region, over loops (fio 3.33): a whole pass,
// then the half the second pass rewrote; each block is read back once per
// write, so the second verify phase reads only that half.
TEST_F(WorkerVerifyTest, IoSizeOverLoopsReadsBackOnlyWhatWasRewritten) {
  JobSpec job = TestJob("wv", RwMode::kWrite, 4096, 256 * 4096);
  job.iodepth = 4;
  job.io_size = 128 * 4096;
  job.loops = 3;
  job.verify.type = VerifyType::kCrc32c;
  job.verify.state_save = false;
  const JobResult jr = RunOne(job, 0, 0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.stats.dir[1].ios, 384u);  // io_size x loops
  EXPECT_EQ(jr.stats.dir[0].ios, 384u);  // 256 after the first pass, 128 after the second
  // io_size twice the region: one pass written and read back is 2 x region
  // moved, so no second pass (verify reads count, as in fio).
  job.io_size = 512 * 4096;
  job.loops = 1;
  const JobResult j2 = RunOne(job, 0, 0);
  EXPECT_EQ(j2.stats.dir[1].ios, 256u);
  EXPECT_EQ(j2.stats.dir[0].ios, 256u);
}

// verify_async: the same jobs with checks on other threads; the slots
// stay busy until collected, so counts are exact and nothing is lost.
TEST_F(WorkerVerifyTest, VerifyAsyncBacklogGivesTheSameCounts) {
  JobSpec job = BacklogJob();
  job.verify.do_verify = true;  // and a verify phase after each loop
  const JobResult inline_jr = RunOne(job, 3, 0);
  job.verify.async = 3;
  const JobResult jr = RunOne(job, 3, 0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.stats.dir[1].ios, 512u);
  EXPECT_EQ(jr.stats.dir[0].ios, inline_jr.stats.dir[0].ios);
  EXPECT_EQ(jr.stats.issued[0], inline_jr.stats.issued[0]);
  EXPECT_EQ(VerifyNote(jr), VerifyNote(inline_jr));
  EXPECT_NE(VerifyNote(jr).find(" 0 failed"), std::string::npos) << VerifyNote(jr);
  bool cpu_note = false;
  for (const auto& n : jr.notes)
    cpu_note |= n.rfind("verify_async: 3 check thread(s) used", 0) == 0;
  EXPECT_TRUE(cpu_note);
}

TEST_F(WorkerVerifyTest, VerifyAsyncShortAndFailedWritesGiveNoFalsePositives) {
  JobSpec job = TestJob("wv", RwMode::kRandWrite, 4096, 256 * 4096);
  job.iodepth = 8;
  job.norandommap = true;
  job.loops = 2;
  job.continue_on_error = kCoeWrite;
  job.verify.type = VerifyType::kCrc32c;
  job.verify.state_save = false;
  job.verify.async = 2;
  const JobResult jr = RunOne(job, 3, 7);
  EXPECT_GT(counts_.reads_short, 0u);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_NE(VerifyNote(jr).find(" 0 failed"), std::string::npos) << VerifyNote(jr);
  EXPECT_EQ(jr.stats.dir[1].errors, counts_.writes_failed);
  EXPECT_GT(jr.stats.dir[0].ios, 0u);
  EXPECT_EQ(jr.stats.dir[0].errors, 0u);
}

// A file of random bytes read with verify=crc32c: every one of its 16
// blocks fails (no header). fio's error policy decides what a failure does,
// as for an I/O error: continue_on_error=verify|all or ignore_error=,,84
// tolerate it (exit 0, every failure in total_err, err=84 shown as the
// first error), even with verify_fatal; otherwise it is the job's error.
TEST_F(WorkerVerifyTest, VerifyFailuresFollowTheErrorPolicy) {
  struct Case {
    const char* what;
    uint8_t coe;
    std::vector<int> verify_list;
    bool fatal;
    bool tolerated;
    uint64_t counted;  // total_err
  };
  const Case cases[] = {
      {"default", kCoeNone, {}, false, false, 0},
      {"verify_fatal", kCoeNone, {}, true, false, 0},
      {"continue_on_error=verify", kCoeVerify, {}, false, true, 16},
      {"continue_on_error=all verify_fatal=1", kCoeAll, {}, true, true, 16},
      {"ignore_error=,,84", kCoeVerify, {EILSEQ}, false, true, 16},
      {"continue_on_error=read", kCoeRead, {}, false, false, 0},
      {"ignore_error=,,EIO", kCoeVerify, {EIO}, false, false, 16},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    {
      std::vector<uint8_t> junk(16 * 4096);
      uint64_t x = 0x9e3779b97f4a7c15ULL;
      for (auto& b : junk) b = static_cast<uint8_t>((x = x * 6364136223846793005ULL + 1) >> 56);
      const int fd = open((dir_ + "/data").c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
      ASSERT_GE(fd, 0);
      ASSERT_EQ(write(fd, junk.data(), junk.size()), static_cast<ssize_t>(junk.size()));
      close(fd);
    }
    JobSpec job = TestJob("v", RwMode::kRead, 4096, 16 * 4096);
    job.verify.type = VerifyType::kCrc32c;
    job.verify.state_save = false;
    job.verify.fatal = c.fatal;
    job.continue_on_error = c.coe;
    job.ignore_error[2] = c.verify_list;
    const JobResult jr = RunOne(job, 0, 0);
    EXPECT_EQ(jr.error, c.tolerated ? 0 : EILSEQ) << jr.error_message;
    EXPECT_EQ(jr.shown_error(), EILSEQ);
    EXPECT_EQ(jr.stats.first_error.err, EILSEQ);
    EXPECT_EQ(jr.stats.first_error.offset, 0u);
    EXPECT_EQ(jr.stats.coe_errors, c.counted);
    const uint64_t failed = c.fatal && !c.tolerated ? 1 : 16;
    EXPECT_EQ(jr.stats.total_errors, failed);
    EXPECT_NE(VerifyNote(jr).find(" " + std::to_string(failed) + " failed"), std::string::npos)
        << VerifyNote(jr);
  }
}

}  // namespace
}  // namespace iobench
