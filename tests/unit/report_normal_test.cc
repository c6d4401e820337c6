// The normal (human) report: golden files for synthetic runs, and the lines
// users grep for.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "iobench/report.h"
#include "report/common.h"
#include "report/fio_report.h"
#include "report_testdata.h"

namespace iobench {
namespace {

// The date line uses local time; the golden files are in UTC.
class NormalReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tz = std::getenv("TZ");
    if (tz) saved_tz_ = tz;
    had_tz_ = tz != nullptr;
    setenv("TZ", "UTC", 1);
    tzset();
  }
  void TearDown() override {
    if (had_tz_)
      setenv("TZ", saved_tz_.c_str(), 1);
    else
      unsetenv("TZ");
    tzset();
  }

 private:
  std::string saved_tz_;
  bool had_tz_ = false;
};

std::string Normal(const RunResult& run) {
  std::ostringstream out;
  EXPECT_TRUE(WriteNormal(run, ReportOptions{}, out).ok());
  // pid is the process's, which varies; the golden files say PID.
  return std::regex_replace(out.str(), std::regex(": pid=[0-9]+"), ": pid=PID");
}

// Compares with tests/golden/report/<name>; IOBENCH_UPDATE_GOLDEN=1 rewrites
// the file instead (review the diff before committing it).
void ExpectReportGolden(const std::string& name, const std::string& got) {
  const std::string path = std::string(IOBENCH_SOURCE_DIR) + "/tests/golden/report/" + name;
  if (std::getenv("IOBENCH_UPDATE_GOLDEN")) {
    std::ofstream(path) << got;
    return;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << "missing golden file " << path
                         << " (run with IOBENCH_UPDATE_GOLDEN=1 to create it)";
  std::stringstream want;
  want << in.rdbuf();
  EXPECT_EQ(got, want.str()) << "golden file " << path;
}

TEST_F(NormalReportTest, PerJobGolden) {
  ExpectReportGolden("normal_per_job.txt", Normal(testdata::MakeRun(false)));
}

TEST_F(NormalReportTest, GroupReportingGolden) {
  ExpectReportGolden("normal_group_reporting.txt", Normal(testdata::MakeRun(true)));
}

// "other" is the group's unlabelled helper CPU spread over its jobs by
// io_uring submissions: the line says it is apportioned, as
// docs/cpu-accounting.md promises (it printed a bare "other=23.3%").
TEST_F(NormalReportTest, HelpersOtherIsLabelledApportioned) {
  RunResult run = testdata::MakeRun(false, 1);
  run.groups[0].jobs[0].helpers.other_sys_us = 100000;
  const std::string s = Normal(run);
  EXPECT_TRUE(std::regex_search(
      s, std::regex(R"(\n  helpers      : io-wq usr=0\.0%, sys=20\.6%, sqpoll=0\.0%, )"
                    R"(other=[0-9.]+% \(apportioned\), threads=4\n)")))
      << s;
}

TEST_F(NormalReportTest, FirstLineNamesIobenchAndVersion) {
  const std::string s = Normal(testdata::MakeRun(false));
  EXPECT_EQ(s.rfind("iobench-0.1.0: kernel 6.1.0-18-amd64, 2 CPUs (Test CPU @ 2.00GHz), "
                    "memory 8192MiB, clock clock_gettime (kernel clocksource kvm-clock)\n",
                    0),
            0u)
      << s.substr(0, 200);
}

TEST_F(NormalReportTest, FirstLineNamesTheClockAndTheKernelsWhenTheyDiffer) {
  RunResult run = testdata::MakeRun(false);
  run.context.clock = "tsc";
  run.context.kernel_clocksource = "tsc";
  const std::string s = Normal(run);
  EXPECT_EQ(s.rfind("iobench-0.1.0: kernel 6.1.0-18-amd64, 2 CPUs (Test CPU @ 2.00GHz), "
                    "memory 8192MiB, clock tsc\n",
                    0),
            0u)
      << s.substr(0, 200);
}

// A target with no block device says so in the header, and that its data
// is in memory where it is (an overlay on tmpfs said only fs=overlay).
TEST_F(NormalReportTest, TargetWithoutADiskNamesWhereItsDataIs) {
  RunResult run = testdata::MakeRun(false);
  TargetContext t;
  t.path = "/m/f";
  t.fs_type = "overlay";
  t.backing_fs = "tmpfs";
  run.context.targets = {t};
  t.path = "/dev/shm/f";
  t.fs_type = "tmpfs";
  t.backing_fs.clear();
  run.context.targets.push_back(t);
  t.path = "/mnt/nfs/f";
  t.fs_type = "nfs4";
  run.context.targets.push_back(t);
  t.path = "/data/f";
  t.fs_type = "ext4";
  t.device = "nvme0n1";
  run.context.targets.push_back(t);
  const std::string s = Normal(run);
  EXPECT_NE(s.find("\ntarget /m/f: fs=overlay, device=none (overlay on tmpfs: data in memory)\n"
                   "target /dev/shm/f: fs=tmpfs, device=none (tmpfs: data in memory)\n"
                   "target /mnt/nfs/f: fs=nfs4, device=none (nfs4: no local block device)\n"
                   "target /data/f: fs=ext4, device=nvme0n1\n"),
            std::string::npos)
      << s.substr(0, 600);
}

// The mount options that change what is measured are on the target line;
// the ones every mount has are not (the JSON context has them all).
TEST_F(NormalReportTest, TargetLineShowsTheMountOptionsThatChangeTheNumbers) {
  RunResult run = testdata::MakeRun(false);
  TargetContext t;
  t.path = "/mnt/f";
  t.fs_type = "ext4";
  t.device = "loop0 on vda";
  t.mount_options = "rw,relatime,sync,nodioread_nolock,nodelalloc,data=journal";
  run.context.targets = {t};
  t.path = "/data/f";
  t.mount_options = "rw,relatime,errors=remount-ro";
  run.context.targets.push_back(t);
  t.path = "/dev/shm/f";
  t.fs_type = "tmpfs";
  t.device.clear();
  t.mount_options = "rw,nosuid,nodev,size=65536k";
  run.context.targets.push_back(t);
  t.path = "/dev/loop0";
  t.fs_type.clear();
  t.device = "loop0";
  t.mount_options.clear();
  run.context.targets.push_back(t);
  const std::string s = Normal(run);
  EXPECT_NE(s.find("\ntarget /mnt/f: fs=ext4, mount_options=sync,nodelalloc,data=journal, "
                   "device=loop0 on vda\n"
                   "target /data/f: fs=ext4, device=loop0 on vda\n"
                   "target /dev/shm/f: fs=tmpfs, device=none (tmpfs: data in memory)\n"
                   "target /dev/loop0: device=loop0\n"),
            std::string::npos)
      << s.substr(0, 600);
}

TEST_F(NormalReportTest, GreppableLines) {
  const std::string s = Normal(testdata::MakeRun(false));
  const char* const kPatterns[] = {
      R"(\nt: \(g=0\): rw=randrw, bs=\(R\) 4096B-4096B, \(W\) 4096B-4096B, \(T\) 4096B-4096B, ioengine=libaio, iodepth=8\n\.\.\.\n)",
      R"(\nt: \(groupid=0, jobs=1\): err= 0: pid=PID: Mon Nov 30 \d\d:\d\d:\d\d 2026\n)",
      R"(\n  read: IOPS=\d+, BW=[0-9.]+KiB/s \([0-9.]+kB/s\)\([0-9.]+MiB/2001msec\)\n)",
      R"(\n  write: IOPS=\d+, BW=.*; 0 zone resets\n)",
      R"(\n    slat \(nsec\): min=3000, max=9000, avg=)",
      R"(\n    clat percentiles \(usec\):\n     \|  1\.00th=\[ +\d+\],  5\.00th=)",
      R"(\n   bw \(  KiB/s\): min= ?\d+, max= ?\d+, per=[0-9.]+%, avg=[0-9.]+, stdev=[0-9.]+, samples=4\n)",
      R"(\n   iops        : min= ?\d+, max= ?\d+, avg=[0-9.]+, stdev=[0-9.]+, samples=4\n)",
      R"(\n  lat \(usec\)   : \d+=)",
      R"(\n  cpu          : usr=\d+\.\d\d%, sys=\d+\.\d\d%, ctx=12043, majf=0, minf=15\n)",
      R"(\n  helpers      : io-wq usr=0\.0%, sys=20\.6%, sqpoll=0\.0%, threads=4\n)",
      R"(\n  IOS/call     : submit=4\.00, reap=2\.00\n)",
      R"(\n  IO depths    : 1=0\.1%, 2=0\.1%, 4=0\.1%, 8=99\.9%, 16=0\.0%, 32=0\.0%, >=64=0\.0%\n)",
      R"(\n     issued rwts: total=4000,3900,0,0 short=0,0,0,0 dropped=0,0,0,0\n)",
      R"(\nRun status group 0 \(all jobs\):\n   READ: bw=.*, io=[0-9.]+MiB \([0-9.]+MB\), run=2001-2001msec\n  WRITE: )",
      R"(\nDisk stats \(read/write\):\n  vda: ios=86059/85762, merge=1/0, ticks=10999/10383, in_queue=21383, util=77\.07%\n$)",
      R"(\n  note: buffered I/O: the page cache served part of the reads\n)",
      R"(\nwarning: libaio with direct=0 is synchronous \(example warning\)\n)",
      R"(\ntarget /var/tmp/iobench\.t: fs=ext4, device=vda, model=QEMU HARDDISK, scheduler=mq-deadline, read_ahead_kb=128, nr_requests=256, rotational=1, block_size=512/512, write_cache=write back\n)",
  };
  for (const char* p : kPatterns)
    EXPECT_TRUE(std::regex_search(s, std::regex(p))) << p << "\n" << s;
}

// "clat prio" lines and percentile blocks only when two priorities or more
// completed I/O in the direction, as fio's get_nr_prios_with_samples() >= 2.
TEST_F(NormalReportTest, PrioLinesOnlyWithTwoPrioritiesWithSamples) {
  RunResult run = testdata::MakeRunOnePrioWithSamples();
  DirStats& rd = run.groups[0].jobs[0].stats.dir[0];
  EXPECT_EQ(Normal(run).find(" prio "), std::string::npos) << Normal(run);
  rd.prios[0].lat.Add(3000);
  rd.prios[0].hist.Add(3000);
  const std::string s = Normal(run);
  for (const char* want : {"\n    clat prio 0/0 (nsec): min=3000, max=3000,",
                           "\n    clat prio 1/0 (nsec): min=1000, max=2000,",
                           "\n    clat prio 0/0 (33.33% of IOs) percentiles (nsec):\n",
                           "\n    clat prio 1/0 (66.67% of IOs) percentiles (nsec):\n"})
    EXPECT_NE(s.find(want), std::string::npos) << want << "\n" << s;
}

TEST_F(NormalReportTest, GroupReportingMergesIntoOneBlock) {
  const std::string s = Normal(testdata::MakeRun(true));
  EXPECT_NE(s.find("t: (groupid=0, jobs=2): err= 0:"), std::string::npos) << s;
  EXPECT_EQ(s.find("jobs=1"), std::string::npos);
  EXPECT_NE(s.find("issued rwts: total=8000,7800,0,0"), std::string::npos) << s;
}

TEST_F(NormalReportTest, InterruptedRunIsMarked) {
  RunResult run = testdata::MakeRun(false, 1);
  run.interrupted = true;
  run.groups[0].jobs[0].interrupted = true;
  const std::string s = Normal(run);
  EXPECT_NE(s.find("note: the run was interrupted by a signal; results are partial\n"),
            std::string::npos);
  EXPECT_NE(s.find("  note: interrupted by a signal; the figures cover the time until then\n"),
            std::string::npos);
}

TEST_F(NormalReportTest, JobBlocksFirstThenOneStatusPerGroup) {
  RunResult run = testdata::MakeRun(false, 1);
  GroupResult g1;
  g1.id = 1;
  g1.jobs.push_back(testdata::MakeJob("second", 1, 0, 1, 5, 100, 0));
  run.groups.push_back(g1);
  const std::string s = Normal(run);
  const size_t job0 = s.find("\nt: (groupid=0, jobs=1)");
  const size_t job1 = s.find("\nsecond: (groupid=1, jobs=1)");
  const size_t st0 = s.find("\nRun status group 0 (all jobs):\n   READ: ");
  const size_t st1 = s.find("\nRun status group 1 (all jobs):\n   READ: ");
  ASSERT_NE(job0, std::string::npos);
  ASSERT_NE(job1, std::string::npos);
  ASSERT_NE(st0, std::string::npos);
  ASSERT_NE(st1, std::string::npos);
  EXPECT_LT(job0, job1);
  EXPECT_LT(job1, st0);
  EXPECT_LT(st0, st1);
  EXPECT_EQ(s.find("  WRITE: ", st1), std::string::npos) << "group 1 did no writes";
  EXPECT_NE(s.find("\nsecond: (g=1): rw=randrw"), std::string::npos);
}

TEST_F(NormalReportTest, SweepPointNamedInContext) {
  RunResult run = testdata::MakeRun(false, 1);
  run.point = {{"iodepth", "32"}, {"force_async", "1"}};
  const std::string s = Normal(run);
  // In --sweep order, as the "=== iodepth=32 force_async=1 ===" label and
  // the JSON write it (it was alphabetical).
  EXPECT_NE(s.find("\nsweep point: iodepth=32, force_async=1\ntarget /var/tmp/iobench.t:"),
            std::string::npos)
      << s;
}

TEST_F(NormalReportTest, ErrorShownWithMessage) {
  RunResult run = testdata::MakeRun(false, 1);
  JobResult& j = run.groups[0].jobs[0];
  j.error = 5;
  j.error_message = "read /var/tmp/iobench.t offset=4096: Input/output error";
  j.stats.first_error = ErrorInfo{5, "/var/tmp/iobench.t", 4096, Ddir::kRead, "Input/output error"};
  j.stats.total_errors = 1;
  const std::string s = Normal(run);
  EXPECT_NE(s.find("err= 5 (read /var/tmp/iobench.t offset=4096: Input/output error): pid="),
            std::string::npos)
      << s;
  // No continue_on_error: err= says it all; fio prints no errors line then.
  EXPECT_EQ(s.find("     errors    :"), std::string::npos) << s;
  EXPECT_NE(s.find("     first error: read /var/tmp/iobench.t offset=4096: Input/output error\n"),
            std::string::npos)
      << s;
}

// A file name from an opendir= listing may hold control characters: the
// error, first-error and note lines escape them as stderr and the JSON do
// (a raw ESC recoloured the terminal, a newline split the line in two).
TEST_F(NormalReportTest, ControlCharactersInMessagesAreEscaped) {
  RunResult run = testdata::MakeRun(false, 1);
  JobResult& j = run.groups[0].jobs[0];
  const std::string path = "/d/x\x1b[31my\nz";
  j.error = 28;
  j.error_message = "write " + path + " offset=0: No space left on device";
  j.stats.first_error = ErrorInfo{28, path, 0, Ddir::kWrite, "No space left on device"};
  j.stats.total_errors = 1;
  j.notes.push_back("file " + path + " was short");
  const std::string s = Normal(run);
  EXPECT_EQ(s.find('\x1b'), std::string::npos) << s;
  EXPECT_NE(s.find("err=28 (write /d/x\\x1b[31my\\nz offset=0: No space left on device): pid="),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("     first error: write /d/x\\x1b[31my\\nz offset=0: No space left"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("  note: file /d/x\\x1b[31my\\nz was short\n"), std::string::npos) << s;
}

TEST_F(NormalReportTest, ErrorsLineOnlyWithContinueOnError) {
  RunResult run = testdata::MakeRun(false, 1);
  JobResult& j = run.groups[0].jobs[0];
  j.spec.continue_on_error = kCoeIo;
  j.error = 5;
  j.stats.first_error = ErrorInfo{5, "/var/tmp/iobench.t", 4096, Ddir::kRead, "Input/output error"};
  j.stats.total_errors = 3;
  j.stats.coe_errors = 2;
  j.stats.coe_first_error = 5;
  const std::string s = Normal(run);
  EXPECT_NE(s.find("     errors    : total=2, first_error=5/<Input/output error>\n"),
            std::string::npos)
      << s;
}

// The "bw (KiB/s)" line is over fio's whole-KiB/s samples: two samples of
// 3000.98 and 4000.999 KiB/s are 3000 and 4000, so avg=3500.00 (it printed
// 3500.99) and per= is that mean over the group's aggregate in KiB/s
// (4000 * 4096 B over 2001 ms: 7995.998 KiB/s).
TEST_F(NormalReportTest, BwSampleLineIsOverWholeKibSamples) {
  RunResult run = testdata::MakeRun(false, 1);
  run.groups[0].jobs[0].stats.dir[0].bw_samples = {{500, 3000 * 1024 + 1000},
                                                   {1000, 4000 * 1024 + 1023}};
  const std::string s = Normal(run);
  EXPECT_NE(s.find("   bw (  KiB/s): min= 3000, max= 4000, per=43.77%, avg=3500.00, "
                   "stdev=707.11, samples=2\n"),
            std::string::npos)
      << s;
  run.groups[0].jobs[0].stats.dir[0].bw_samples = {{700, 102390 * 1024 + 640}};
  const std::string one = Normal(run);
  EXPECT_NE(one.find("   bw (  KiB/s): min=102390, max=102390, per=100.00%, avg=102390.00, "
                     "stdev= 0.00, samples=1\n"),
            std::string::npos)
      << one;
}

// The "(g=0): rw=..." header sizes use the job's significant_figures and its
// kb_base, as fio's num2str(bs, sig_figs, 1, is_power_of_2(kb_base), N2S_BYTE)
// does. Expected strings are fio 3.33's output for the same options.
TEST_F(NormalReportTest, HeaderLineFollowsKbBaseAndSignificantFigures) {
  struct Case {
    uint32_t kb_base;
    int sig_figs;
    uint64_t bs[3][2];
    bool seq_rand;
    const char* want;
  };
  const Case cases[] = {
      {1024,
       4,
       {{4096, 4096}, {12288, 12288}, {1572864, 1572864}},
       false,
       "bs=(R) 4096B-4096B, (W) 12.0KiB-12.0KiB, (T) 1536KiB-1536KiB, "},
      {1000,
       4,
       {{4000, 4000}, {12000, 12000}, {1536000, 1536000}},
       false,
       "bs=(R) 4000B-4000B, (W) 12.0kB-12.0kB, (T) 1536kB-1536kB, "},
      {1000,
       4,
       {{1000, 1000}, {99960, 99960}, {10237, 10237}},
       false,
       "bs=(R) 1000B-1000B, (W) 100.0kB-100.0kB, (T) 10.2kB-10.2kB, "},
      {1000,
       4,
       {{1000, 100000}, {512, 2000000}, {512, 2000000}},
       false,
       "bs=(R) 1000B-100kB, (W) 512B-2000kB, (T) 512B-2000kB, "},
      {1024,
       2,
       {{4096, 4096}, {12288, 12288}, {1572864, 1572864}},
       false,
       "bs=(R) 4KiB-4KiB, (W) 12KiB-12KiB, (T) 2MiB-2MiB, "},
      {1024,
       1,
       {{512, 512}, {4096, 4096}, {1572864, 1572864}},
       false,
       "bs=(R) 1KiB-1KiB, (W) 4KiB-4KiB, (T) 2MiB-2MiB, "},
      {1024,
       3,
       {{1024, 102400}, {512, 2097152}, {512, 2097152}},
       false,
       "bs=(R) 1.0KiB-100KiB, (W) 512B-2.0MiB, (T) 512B-2.0MiB, "},
      {1024,
       6,
       {{512, 512}, {12288, 12288}, {1572864, 1572864}},
       false,
       "bs=(R) 512B-512B, (W) 12288B-12288B, (T) 1536.0KiB-1536.0KiB, "},
      {1000,
       3,
       {{512, 512}, {12000, 12000}, {1536000, 1536000}},
       false,
       "bs=(R) 512B-512B, (W) 12kB-12kB, (T) 1.5MB-1.5MB, "},
      {1024,
       10,
       {{4096, 4096}, {16777216, 16777216}, {1073741824, 1073741824}},
       false,
       "bs=(R) 4096B-4096B, (W) 16777216B-16777216B, (T) 1073741824B-1073741824B, "},
      // bs_is_seq_rand: the pairs are seq and rand; fio names the mode and drops (T).
      {1000,
       4,
       {{4000, 4000}, {8000, 8000}, {8000, 8000}},
       true,
       "bs=(R) 4000B-4000B, (W) 8000B-8000B, bs_is_seq_rand, "},
  };
  for (const Case& c : cases) {
    JobResult j = testdata::MakeJob("a", 0, 0, 1, 5, 1, 0);
    j.spec.kb_base = c.kb_base;
    j.spec.significant_figures = c.sig_figs;
    j.spec.bs_is_seq_rand = c.seq_rand;
    for (int d = 0; d < 3; ++d) {
      j.spec.bs[d].min = c.bs[d][0];
      j.spec.bs[d].max = c.bs[d][1];
    }
    EXPECT_EQ(JobHeaderLine(j),
              std::string("a: (g=0): rw=randrw, ") + c.want + "ioengine=libaio, iodepth=8")
        << "kb_base=" << c.kb_base << " significant_figures=" << c.sig_figs;
  }
}

// fio's show_thread_status_normal: a job that moved no data and issued no
// I/O (create_only, a failed exec_prerun) has no block; one that issued I/Os
// that all failed keeps its block (its error lines say what happened).
TEST_F(NormalReportTest, JobThatDidNoIoHasNoBlock) {
  RunResult run = testdata::MakeRun(false, 1);
  JobResult idle = testdata::MakeJob("idle", 0, 0, 1, 5, 100, 0);
  idle.stats = ThreadStats{};
  idle.error = ECANCELED;
  idle.error_message = "exec_prerun 'false' exited with status 1";
  JobResult failed = idle;
  failed.name = "failed";
  failed.stats.issued[0] = 1;
  failed.stats.dir[0].errors = 1;
  run.groups[0].jobs.push_back(idle);
  run.groups[0].jobs.push_back(failed);
  const std::string s = Normal(run);
  EXPECT_NE(s.find("\nt: (groupid=0, jobs=1)"), std::string::npos) << s;
  EXPECT_EQ(s.find("\nidle: (groupid=0"), std::string::npos) << s;
  EXPECT_NE(s.find("\nidle: (g=0)"), std::string::npos) << "the header line stays: " << s;
  EXPECT_NE(s.find("\nfailed: (groupid=0, jobs=1): err=125 (exec_prerun"), std::string::npos) << s;
}

// A job that did nothing but has a note saying why (a write block larger than
// the region) keeps its block, so the note is seen; create_only does not.
TEST_F(NormalReportTest, JobThatDidNoIoKeepsItsNotes) {
  RunResult run = testdata::MakeRun(false, 1);
  JobResult idle = testdata::MakeJob("idle", 0, 0, 1, 5, 100, 0);
  idle.stats = ThreadStats{};
  idle.notes = {"the smallest write block (1048576 bytes) is larger than the region"};
  JobResult created = idle;
  created.name = "created";
  created.spec.create_only = true;
  run.groups[0].jobs.push_back(idle);
  run.groups[0].jobs.push_back(created);
  const std::string s = Normal(run);
  EXPECT_NE(s.find("\nidle: (groupid=0, jobs=1): err= 0"), std::string::npos) << s;
  EXPECT_NE(s.find("  note: the smallest write block (1048576 bytes) is larger than the region\n"),
            std::string::npos)
      << s;
  EXPECT_EQ(s.find("\ncreated: (groupid=0"), std::string::npos) << s;
}

TEST_F(NormalReportTest, SyncSectionWhenFsyncsWereTimed) {
  RunResult run = testdata::MakeRun(false, 1);
  ThreadStats& ts = run.groups[0].jobs[0].stats;
  for (uint64_t v : {283000ull, 388000ull, 575000ull}) {
    ts.sync_lat.Add(v);
    ts.sync_hist.Add(v);
  }
  ts.sync_ios = 3;
  const std::string s = Normal(run);
  EXPECT_NE(
      s.find("  fsync/fdatasync/sync_file_range:\n    sync (usec): min=283, max=575, avg=415.33"),
      std::string::npos)
      << s;
  EXPECT_NE(s.find("    sync percentiles (usec):\n"), std::string::npos);
  EXPECT_NE(s.find("issued rwts: total=4000,3900,0,3 "), std::string::npos);
}

}  // namespace
}  // namespace iobench
