// Refusals of a device target before the run say where the option that
// caused them was set (file:line), and which clone, as --readonly does.
// Root: a 16 MiB loop device with 4096-byte logical blocks.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "jobfile/parser.h"
#include "run/coordinator.h"
#include "run/target.h"
#include "sys_test_util.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using testing::RunCmd;
using testing::TempDir;

class RunTargetMessagesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root for losetup";
    ASSERT_TRUE(dir_.ok());
    int rc = 0;
    RunCmd("truncate -s 16M '" + dir_ / "image" + "'", &rc);
    ASSERT_EQ(rc, 0);
    dev_ = RunCmd("losetup -f --show --sector-size 4096 '" + dir_ / "image" + "'", &rc);
    if (rc != 0 || dev_.rfind("/dev/loop", 0) != 0) {
      const std::string why = dev_;
      dev_.clear();
      GTEST_SKIP() << "losetup -f --sector-size 4096 failed: " << why;
    }
  }
  void TearDown() override {
    int rc;
    if (!dev_.empty()) RunCmd("losetup -d '" + dev_ + "'", &rc);
  }

  // The job file "b.fio": line 1 [global], line 2 filename=, then `body`
  // from line 3 (each option on its own line), then [j] and `job`.
  // Returns the first refusal ResolveTargets or CheckDirectAlignment gives
  // any clone, as the coordinator asks them.
  std::string Refusal(const std::string& body, const std::string& job = "") {
    auto parsed = jobfile::ParseJobText("[global]\nfilename=" + dev_ + "\n" + body + "[j]\n" + job,
                                        "b.fio", dir_.path());
    EXPECT_TRUE(parsed.ok()) << parsed.status().message();
    if (!parsed.ok() || parsed->jobs.size() != 1) return "parse failed";
    const JobSpec& j = parsed->jobs[0];
    for (int n = 0; n < static_cast<int>(std::max<uint32_t>(1, j.numjobs)); ++n) {
      auto targets = ResolveTargets(j, n, false);
      if (!targets.ok()) return targets.status().message();
      for (const auto& t : *targets)
        if (Status st = CheckDirectAlignment(j, t, targets->size()); !st.ok()) return st.message();
    }
    return "";
  }

  TempDir dir_{"/var/tmp"};
  std::string dev_;
};

TEST_F(RunTargetMessagesTest, DirectAlignmentNamesTheOptionAndLine) {
  const std::string tail = " is not a multiple of the logical block size 4096 of " + dev_ +
                           "; direct=1 (b.fio:3) needs block-aligned I/O";
  EXPECT_EQ(Refusal("direct=1\nrw=read\nsize=64k\n", "offset=1k\n"),
            "job 'j': offset 1024 (offset=1k at b.fio:7)" + tail);
  EXPECT_EQ(Refusal("direct=1\nbs=512\nsize=64k\n"), "job 'j': bs=512 (read, at b.fio:4)" + tail);
  EXPECT_EQ(Refusal("direct=1\nrw=write\nsize=64k\n", "bssplit=4k/50:512/50\n"),
            "job 'j': block size 512 (write, bssplit=4k/50:512/50 at b.fio:7)" + tail);
  // The clone whose offset_increment share is not aligned.
  EXPECT_EQ(
      Refusal("direct=1\nsize=64k\nnumjobs=3\n", "offset_increment=6k\n"),
      "job 'j' (clone 1 of numjobs=3): offset 6144 (1 x offset_increment=6k at b.fio:7)" + tail);
  EXPECT_EQ(Refusal("direct=1\nsize=64k\n", "offset=8k\noffset_increment=4k\n"), "");
  // A range issues multiples of its minimum: 4k-6k issues 4k only.
  EXPECT_EQ(Refusal("direct=1\nsize=64k\n", "bsrange=4k-6k\n"), "");
  // bs_unaligned=1 issues any byte count of the range, even where both its
  // ends are multiples of the block size (4k-12k was let through).
  EXPECT_EQ(Refusal("direct=1\nsize=64k\n", "bsrange=4k-6k\nbs_unaligned=1\n"),
            "job 'j': a block size of any byte count from 4096 to 6144 (bs_unaligned=1 at "
            "b.fio:7; read, bsrange=4k-6k at b.fio:6)" +
                tail);
  EXPECT_EQ(Refusal("direct=1\nsize=64k\n", "bsrange=4k-12k\nbs_unaligned=1\n"),
            "job 'j': a block size of any byte count from 4096 to 12288 (bs_unaligned=1 at "
            "b.fio:7; read, bsrange=4k-12k at b.fio:6)" +
                tail);
  EXPECT_EQ(Refusal("direct=1\nsize=64k\n", "bsrange=4k-4k\nbs_unaligned=1\n"), "");
  // A discard needs aligned ranges whether the job says direct=1 or not;
  // reads and writes without direct=1 may be unaligned.
  const std::string discard = " is not a multiple of the logical block size 4096 of " + dev_ +
                              "; a discard needs block-aligned ranges";
  EXPECT_EQ(Refusal("rw=trim\nbs=2k\nsize=64k\n"), "job 'j': bs=2048 (trim, at b.fio:4)" + discard);
  EXPECT_EQ(Refusal("rw=trimwrite\nsize=64k\n", "offset=1k\n"),
            "job 'j': offset 1024 (offset=1k at b.fio:6)" + discard);
  EXPECT_EQ(Refusal("direct=1\nrw=randtrim\nbs=1k\nsize=64k\n"),
            "job 'j': bs=1024 (trim, at b.fio:5)" + discard);
  EXPECT_EQ(Refusal("rw=randrw\nbs=1k\nsize=64k\n"), "");
  // A random trim's blockalign is issued as it is without direct=1 (the
  // kernel said EINVAL at run time); direct=1 draws offsets on multiples of
  // lcm(blockalign, 4096), and a sequential trim never uses it.
  EXPECT_EQ(Refusal("rw=randtrim\nsize=256k\n", "blockalign=2k\n"),
            "job 'j': blockalign=2k at b.fio:6" + discard);
  EXPECT_EQ(Refusal("rw=randtrim\nsize=256k\n", "blockalign=,,2k\n"),
            "job 'j': blockalign=,,2k at b.fio:6" + discard);
  EXPECT_EQ(Refusal("rw=randtrim\nsize=256k\n", "blockalign=8k\n"), "");
  EXPECT_EQ(Refusal("rw=randtrim\ndirect=1\nsize=256k\n", "blockalign=2k\n"), "");
  EXPECT_EQ(Refusal("rw=trim\nsize=256k\n", "blockalign=2k\n"), "");
  EXPECT_EQ(Refusal("rw=randread\nsize=256k\n", "blockalign=2k\n"), "");
}

// A sequential walk's later offsets: a rw=...:N skip and a strided zone
// step off the block size put the second I/O or the second zone off it (the
// kernel said EINVAL after 2 or 3 discards). Refused only where the walk
// surely gets there.
TEST_F(RunTargetMessagesTest, SkipsAndZoneStepsOffTheBlockSize) {
  const std::string discard = " is not a multiple of the logical block size 4096 of " + dev_ +
                              "; a discard needs block-aligned ranges";
  EXPECT_EQ(Refusal("rw=trim:2k\nsize=64k\n"),
            "job 'j': the skip of 2048 bytes (rw=trim:2k at b.fio:3)" + discard);
  EXPECT_EQ(Refusal("rw=trimwrite:6k\nsize=64k\n"),
            "job 'j': the skip of 6144 bytes (rw=trimwrite:6k at b.fio:3)" + discard);
  EXPECT_EQ(Refusal("rw=trim:-2k\nsize=64k\n"),
            "job 'j': the skip of 2048 bytes (rw=trim:-2k at b.fio:3)" + discard);
  EXPECT_EQ(Refusal("rw=trim:-6k\nsize=64k\n"),
            "job 'j': the skip of 6144 bytes (rw=trim:-6k at b.fio:3)" + discard);
  EXPECT_EQ(Refusal("rw=trim:8k\nsize=64k\n"), "");
  // One trim only: nothing past the first.
  EXPECT_EQ(Refusal("rw=trim:2k\nsize=4k\n"), "");
  EXPECT_EQ(Refusal("rw=trim:2k\nsize=64k\nnumber_ios=1\n"), "");
  // Reads and writes: with direct=1 only.
  EXPECT_EQ(Refusal("rw=read:2k\nsize=64k\n"), "");
  EXPECT_EQ(Refusal("direct=1\nrw=write:1k\nsize=64k\n"),
            "job 'j': the skip of 1024 bytes (rw=write:1k at b.fio:4) is not a multiple of the "
            "logical block size 4096 of " +
                dev_ + "; direct=1 (b.fio:3) needs block-aligned I/O");

  // zonemode=strided: the next zone starts zonerange + zoneskip on.
  const std::string z = "rw=trim\nsize=64k\nzonemode=strided\n";
  EXPECT_EQ(Refusal(z + "zonesize=6k\n"),
            "job 'j': the zone step 6144 (zonesize=6k at b.fio:6)" + discard);
  EXPECT_EQ(Refusal(z + "zonesize=8k\nzonerange=6k\n"),
            "job 'j': the zone step 6144 (zonerange=6k at b.fio:7)" + discard);
  EXPECT_EQ(
      Refusal(z + "zonesize=4k\nzoneskip=2k\n"),
      "job 'j': the zone step 6144 (zonesize=4k at b.fio:6 + zoneskip=2k at b.fio:7)" + discard);
  EXPECT_EQ(Refusal(z + "zonesize=6k\nzonerange=6k\nzoneskip=2k\n"), "");  // 8k apart
  EXPECT_EQ(Refusal(z + "zonesize=8k\n"), "");
  // The first zone is all the job does: size=6k is 2 trims there.
  EXPECT_EQ(Refusal("rw=trim\nsize=6k\nzonemode=strided\nzonesize=6k\n"), "");
  // A region below zonesize starts over each loop, never at the step (fio:
  // 0, 4k three times); a region of zonesize gets there on its second loop.
  const std::string r = "rw=read\ndirect=1\nzonemode=strided\nzonesize=16k\nzonerange=18k\n";
  EXPECT_EQ(Refusal(r + "size=8k\nloops=3\n"), "");
  EXPECT_EQ(Refusal(r + "size=8k\nio_size=24k\n"), "");
  EXPECT_NE(Refusal(r + "size=16k\nloops=2\n"), "");
  // A random walk inside a zone is not followed.
  EXPECT_EQ(Refusal("rw=randtrim\nsize=64k\nzonemode=strided\nzonesize=6k\n"), "");
}

TEST_F(RunTargetMessagesTest, RegionPastTheEndNamesOffsetSizeAndClone) {
  const std::string end = ") is beyond the end of " + dev_ + " (16777216 bytes)";
  EXPECT_EQ(Refusal("size=64m\n"), "job 'j': region [0, 67108864" + end + ": size=64m at b.fio:3");
  EXPECT_EQ(Refusal("numjobs=5\noffset_increment=4m\n", "size=4m\n"),
            "job 'j' (clone 4 of numjobs=5): region [16777216, 20971520" + end +
                ": offset 16777216 (4 x offset_increment=4m at b.fio:4), size=4m at b.fio:6");
  EXPECT_EQ(Refusal("offset=15m\nsize=2m\n"),
            "job 'j': region [15728640, 17825792" + end +
                ": offset 15728640 (offset=15m at b.fio:3), size=2m at b.fio:4");
  EXPECT_EQ(Refusal("", "offset=20m\n"),
            "job 'j': offset 20971520 (offset=20m at b.fio:4) is beyond the end of " + dev_ +
                " (16777216 bytes)");
}

// A block device of 0 bytes: "size is not set" would send the user to
// size=, which is then refused as past the end; the refusal says what is
// wrong (fio: "zero sized block device?").
TEST(RunTargetZeroDevice, SaysTheDeviceIsEmpty) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root for losetup";
  TempDir dir("/var/tmp");
  ASSERT_TRUE(dir.ok());
  int rc = 0;
  RunCmd("truncate -s 0 '" + dir / "empty" + "'", &rc);
  ASSERT_EQ(rc, 0);
  const std::string dev = RunCmd("{ losetup -f --show '" + dir / "empty" + "' 2>/dev/null; }", &rc);
  if (rc != 0 || dev.rfind("/dev/loop", 0) != 0) GTEST_SKIP() << "losetup failed: " << dev;
  auto parsed = jobfile::ParseJobText("[z]\nfilename=" + dev + "\nrw=read\n", "z.fio", dir.path());
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  auto targets = ResolveTargets(parsed->jobs[0], 0, false);
  RunCmd("losetup -d '" + dev + "'", &rc);
  ASSERT_FALSE(targets.ok());
  EXPECT_EQ(targets.status().message(),
            "job 'z': " + dev +
                " is a block device of 0 bytes: no I/O fits (fio: zero sized block device?)");
}

// The coordinator gives the same message (it checks every clone).
TEST_F(RunTargetMessagesTest, RunJobsRefusesWithTheLine) {
  auto parsed = jobfile::ParseJobText("[j]\nfilename=" + dev_ +
                                          "\nioengine=psync\nnumjobs=5\noffset_increment=4m\n"
                                          "size=4m\nrw=read\n",
                                      "e.fio", dir_.path());
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  auto r = RunJobs(parsed->jobs, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "job 'j' (clone 4 of numjobs=5): region [16777216, 20971520) "
            "is beyond the end of " +
                dev_ +
                " (16777216 bytes): offset 16777216 (4 x "
                "offset_increment=4m at e.fio:5), size=4m at e.fio:6");
}

// time_based runs for its runtime whatever the region holds: a size above
// the device's (a cloud vendor's --filesize=2500G on a slightly smaller
// disk) keeps the device from the offset to its end, as fio, with a note.
// An offset past the end is still refused.
TEST_F(RunTargetMessagesTest, TimeBasedKeepsTheDeviceToItsEnd) {
  auto parsed = jobfile::ParseJobText(
      "[j]\nfilename=" + dev_ + "\nsize=64m\noffset=4m\ntime_based\nruntime=1\n", "t.fio",
      dir_.path());
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  auto targets = ResolveTargets(parsed->jobs[0], 0, false);
  ASSERT_TRUE(targets.ok()) << targets.status().message();
  EXPECT_EQ(targets->at(0).region_offset, 4u << 20);
  EXPECT_EQ(targets->at(0).region_size, 12u << 20);
  EXPECT_EQ(targets->at(0).note,
            "region [4194304, 71303168) runs past the end of " + dev_ +
                " (16777216 bytes): offset 4194304 (offset=4m at t.fio:4), size=64m at t.fio:3; "
                "time_based: the job used [4194304, 16777216)");
  EXPECT_EQ(Refusal("time_based\nruntime=1\n", "offset=20m\n"),
            "job 'j': offset 20971520 (offset=20m at b.fio:6) is beyond the end of " + dev_ +
                " (16777216 bytes)");
}

}  // namespace
}  // namespace iobench
