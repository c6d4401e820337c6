#include <gtest/gtest.h>
#include <sys/resource.h>

#include "sys/safety.h"
#include "sys/target.h"
#include "sys_test_util.h"
#include "temp_dir.h"
#include "test_util.h"

namespace iobench::sys {
namespace {

using iobench::testing::Job;
using iobench::testing::kGiB;
using iobench::testing::kMiB;
using iobench::testing::TempDir;
using iobench::testing::WriteFile;

// Generous limits: nothing is refused unless a test lowers one.
SystemLimits Roomy() {
  SystemLimits l;
  l.mem_available = 64 * kGiB;
  l.nofile_soft = l.nofile_hard = 1 << 20;
  l.nproc_soft = 1 << 20;
  l.threads_max = 1 << 20;
  l.aio_max_nr = 65536;
  l.aio_nr = 0;
  l.memlock_soft = 64 * kGiB;
  return l;
}

TEST(SysReadonlyTest, RefusesWritesTrimsAndLayout) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.path() + "/f";
  ASSERT_TRUE(WriteFile(file, 1 * kMiB));

  JobSpec r = Job("r", file, RwMode::kRandRead);
  EXPECT_TRUE(CheckReadonly(r).ok());
  r.size = kMiB;
  EXPECT_TRUE(CheckReadonly(r).ok());

  JobSpec w = Job("w", file, RwMode::kRandWrite);
  w.job_file = "jobs/x.fio";
  w.line = 3;
  w.settings.push_back({"rw", "randwrite", OptionSource::kJob, "jobs/x.fio", 5});
  Status st = CheckReadonly(w);
  EXPECT_EQ(st.code(), Status::Code::kRefused);
  EXPECT_EQ(st.message(), "--readonly: job 'w' writes (rw=randwrite at jobs/x.fio:5)");

  JobSpec t = Job("t", file, RwMode::kTrim);
  t.job_file = "jobs/y.fio";
  t.line = 7;
  EXPECT_EQ(CheckReadonly(t).message(), "--readonly: job 't' trims (rw=trim at jobs/y.fio:7)");
  JobSpec tw = Job("tw", file, RwMode::kTrimWrite);
  EXPECT_EQ(CheckReadonly(tw).message(),
            "--readonly: job 'tw' writes and trims (rw=trimwrite at <cmdline>)");

  JobSpec grow = Job("g", file, RwMode::kRead);
  grow.size = 2 * kMiB;
  EXPECT_EQ(CheckReadonly(grow).message(),
            "--readonly: job 'g' would extend " + file +
                " from 1048576 to 2097152 bytes (size=" + std::to_string(2 * kMiB) + ")");
  // The options behind the region, each with its place: the offset too.
  JobSpec off = Job("o", file, RwMode::kRead);
  off.offset = kMiB;
  off.size = 4096;
  off.settings.push_back({"offset", "1m", OptionSource::kJob, "jobs/o.fio", 4});
  off.settings.push_back({"size", "4k", OptionSource::kJob, "jobs/o.fio", 5});
  EXPECT_EQ(CheckReadonly(off).message(),
            "--readonly: job 'o' would extend " + file +
                " from 1048576 to 1052672 bytes (offset=1m at jobs/o.fio:4, size=4k at "
                "jobs/o.fio:5)");
  JobSpec missing = Job("m", dir.path() + "/missing", RwMode::kRead);
  EXPECT_EQ(CheckReadonly(missing).message(), "--readonly: job 'm' would create and lay out " +
                                                  dir.path() + "/missing (it does not exist)");
  JobSpec unl = Job("u", file, RwMode::kRead);
  unl.unlink = true;
  EXPECT_EQ(CheckReadonly(unl).message(),
            "--readonly: job 'u' deletes its files (unlink=1 at <cmdline>)");
  // unlink_each_loop=1 removed a read job's file between its loops.
  JobSpec uel = Job("uel", file, RwMode::kRead);
  uel.unlink_each_loop = true;
  uel.settings.push_back({"unlink_each_loop", "1", OptionSource::kJob, "jobs/z.fio", 4});
  EXPECT_EQ(CheckReadonly(uel).message(),
            "--readonly: job 'uel' deletes its files (unlink_each_loop=1 at jobs/z.fio:4)");
  EXPECT_EQ(CheckReadonlyOptions(uel).message(), CheckReadonly(uel).message());
  EXPECT_EQ(CheckReadonlyOptions(unl).code(), Status::Code::kRefused);
  EXPECT_TRUE(CheckReadonlyOptions(missing).ok());  // the files are not looked at
  // mem=mmap:FILE truncates FILE to the buffers' size: one that exists is
  // refused, null engine or not; one the run would create is its scratch.
  for (const char* engine : {"psync", "null"}) {
    JobSpec mf = Job("mf", file, RwMode::kRead);
    mf.ioengine = engine;
    mf.mem = JobSpec::MemType::kMmap;
    mf.mem_file = file;
    mf.settings.push_back({"mem", "mmap:" + file, OptionSource::kCommandLine, "<cmdline>", 0});
    EXPECT_EQ(CheckReadonly(mf).message(), "--readonly: job 'mf' would truncate " + file +
                                               " to the size of its buffers (mem=mmap:" + file +
                                               " at <cmdline>)");
    mf.mem_file = dir.path() + "/scratch";
    EXPECT_TRUE(CheckReadonly(mf).ok()) << CheckReadonly(mf).message();
  }
  // A read job with verify= checks what it reads and writes nothing: fio
  // runs it under --readonly; iobench refused it ("writes verification data").
  JobSpec rv = Job("rv", file, RwMode::kRead);
  rv.verify.type = VerifyType::kMd5;
  EXPECT_TRUE(CheckReadonly(rv).ok()) << CheckReadonly(rv).message();
  JobSpec wv = Job("wv", file, RwMode::kWrite);
  wv.verify.type = VerifyType::kMd5;
  EXPECT_EQ(CheckReadonly(wv).message(), "--readonly: job 'wv' writes (rw=write at <cmdline>)");
  // The null engine lays out nothing: a read job of a file that does not
  // exist is fine (fio's readonly test runs exactly that); a write job is not.
  JobSpec null_read = missing;
  null_read.ioengine = "null";
  EXPECT_TRUE(CheckReadonly(null_read).ok());
  JobSpec null_write = Job("nw", dir.path() + "/missing", RwMode::kRandWrite);
  null_write.ioengine = "null";
  EXPECT_EQ(CheckReadonly(null_write).code(), Status::Code::kRefused);
}

// write_iolog= or mem=mmap: naming a directory failed the job once it ran
// (err=21 after "Starting 1 thread", exit 1), where a missing directory
// above the file is refused before the run: now refused before it too.
TEST(SysWriteSafetyTest, SideFileThatIsADirectoryIsRefused) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.path() + "/f";
  ASSERT_TRUE(WriteFile(file, kMiB));
  JobSpec j = Job("j", file, RwMode::kRead);
  j.write_iolog = dir.path();
  j.settings.push_back({"write_iolog", dir.path(), OptionSource::kJob, "jobs/x.fio", 4});
  Status st = CheckJobsWriteSafety({j});
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(st.message(), "job 'j': the I/O log (write_iolog=" + dir.path() +
                              " at jobs/x.fio:4): " + dir.path() + " is a directory; name a file");
  j.write_iolog = dir.path() + "/log";  // a file in it is fine
  EXPECT_TRUE(CheckJobsWriteSafety({j}).ok());
  j.mem_file = dir.path();
  EXPECT_EQ(CheckJobsWriteSafety({j}).code(), Status::Code::kInvalidArgument);
}

TEST(SysResourceTest, NeedsAreCountedExactly) {
  JobSpec a = Job("a", "/f", RwMode::kRandRW);
  a.ioengine = "libaio";
  a.iodepth = 64;
  a.numjobs = 4;
  a.bs[0].max = 4096;
  a.bs[1].max = 128 * 1024;
  JobSpec u = Job("u", "/g", RwMode::kRead);
  u.ioengine = "io_uring";
  u.fixedbufs = true;
  u.iodepth = 32;
  u.numjobs = 2;
  u.filenames = {"/g1", "/g2", "/g3"};
  const ResourceNeeds n = ComputeResourceNeeds({a, u});
  EXPECT_EQ(n.buffer_bytes, 64u * 128 * 1024 * 4 + 32u * 4096 * 2);
  EXPECT_EQ(n.open_files, 16u + 1 * 4 + (3 + 1) * 2);
  EXPECT_EQ(n.threads, 2u + 4 + 2);
  EXPECT_EQ(n.aio_events, 64u * 4);
  EXPECT_EQ(n.locked_bytes, 32u * 4096 * 2);
  EXPECT_TRUE(CheckResourceLimitsAgainst({a, u}, Roomy()).ok());

  // A trim carries no data: its size counts only when a write of the same
  // block follows (trimwrite), not in a replayed log's trims (fio's t0038).
  JobSpec t = Job("t", "/t", RwMode::kRandTrim);
  t.iodepth = 128;
  t.bs[2].max = uint64_t{2} << 30;
  EXPECT_EQ(ComputeResourceNeeds({t}).buffer_bytes, 128u * 4096);
  t.rw = RwMode::kTrimWrite;
  EXPECT_EQ(ComputeResourceNeeds({t}).buffer_bytes, 128u * (uint64_t{2} << 30));
  t.read_iolog = "trims.log";  // a replay's rw names its directions only
  EXPECT_EQ(ComputeResourceNeeds({t}).buffer_bytes, 128u * 4096);
}

// verify_async=N adds N check threads per clone (only when the job verifies).
TEST(SysResourceTest, VerifyAsyncThreadsAreCounted) {
  JobSpec v = Job("v", "/f", RwMode::kWrite);
  v.numjobs = 3;
  v.verify.async = 4;
  EXPECT_EQ(ComputeResourceNeeds({v}).threads, 2u + 3);  // verify= not set: no checks
  v.verify.type = VerifyType::kCrc32c;
  EXPECT_EQ(ComputeResourceNeeds({v}).threads, 2u + 3 + 3 * 4);
}

TEST(SysResourceTest, EachLimitIsNamedWithHowToRaiseIt) {
  JobSpec j = Job("j", "/f", RwMode::kRead);
  j.iodepth = 128;
  j.numjobs = 512;
  j.bs[0].max = 1 << 20;  // 64 GiB of buffers
  SystemLimits l = Roomy();
  l.mem_available = 20 * kGiB;
  Status st = CheckResourceLimitsAgainst({j}, l);
  EXPECT_EQ(st.code(), Status::Code::kResourceLimit);
  EXPECT_EQ(st.message(),
            "memory: the I/O buffers need 64 GiB (iodepth x largest bs x numjobs, summed over "
            "jobs) but MemAvailable is 20 GiB; lower iodepth, bs or numjobs");

  // A replay's bs is its log's: the message says so and names the line
  // with the longest read or write (PrepareReplayJob sets it).
  JobSpec r = Job("r", "/f", RwMode::kRead);
  r.read_iolog = "a\\:big.log";  // the file a:big.log
  r.bs[0].max = 32 * kGiB;
  r.read_iolog_max_len_line = 7;
  EXPECT_EQ(CheckResourceLimitsAgainst({j, r}, l).message(),
            "memory: the I/O buffers need 96 GiB (iodepth x largest bs x numjobs, summed over "
            "jobs) but MemAvailable is 20 GiB; lower iodepth, bs or numjobs (in a replay, bs is "
            "the log's longest read or write: job 'r': 32 GiB at read_iolog a:big.log:7)");

  JobSpec f = Job("f", "/f", RwMode::kRead);
  f.numjobs = 300;
  l = Roomy();
  l.nofile_soft = 256;
  l.nofile_hard = 4096;
  // Within the hard limit: iobench raises the soft one (CheckResourceLimits).
  uint64_t open_files = 0;
  EXPECT_TRUE(CheckResourceLimitsAgainst({f}, {{0}}, l, &open_files).ok());
  EXPECT_EQ(open_files, 316u);
  l.nofile_hard = 300;
  EXPECT_EQ(CheckResourceLimitsAgainst({f}, l).message(),
            "open files: the jobs need 316 file descriptors but RLIMIT_NOFILE is 256 (hard limit "
            "300); raise the hard limit (nofile in /etc/security/limits.conf), then "
            "`ulimit -n 316`");
  // Log files stay open for the run: slat, clat, lat and bw for each clone
  // of a psync job (fio's 252-clone seed with latency logs ran out of the
  // usual soft 1024 mid-setup, after a check that counted none).
  JobSpec g = Job("g", "/g", RwMode::kRead);
  g.numjobs = 252;
  g.lat_log_set = g.bw_log_set = true;
  l = Roomy();
  EXPECT_TRUE(CheckResourceLimitsAgainst({g}, {{0}}, l, &open_files).ok());
  EXPECT_EQ(open_files, 16u + 252 * (1 + 4));
  g.per_job_logs = false;  // one file per log for the whole job
  g.disable_slat = true;
  EXPECT_TRUE(CheckResourceLimitsAgainst({g}, {{0}}, l, &open_files).ok());
  EXPECT_EQ(open_files, 16u + 252 + 3);
  g.write_iolog = "io.log";
  EXPECT_TRUE(CheckResourceLimitsAgainst({g}, {{0}}, l, &open_files).ok());
  EXPECT_EQ(open_files, 16u + 252 + 3 + 252);
  // The log files of earlier phases stay open (one log writer per run):
  // three stonewalled phases of 100 clones with lat and bw logs hold 300,
  // 600, then 900 log files (the check took the largest phase alone, 516,
  // and the run failed in its third phase).
  JobSpec p = Job("p", "/p", RwMode::kRead);
  p.numjobs = 100;
  p.lat_log_set = p.bw_log_set = true;
  EXPECT_TRUE(CheckResourceLimitsAgainst({p, p, p}, {{0}, {1}, {2}}, l, &open_files).ok());
  EXPECT_EQ(open_files, 16u + 100 + 3 * 100 * 4);

  l = Roomy();
  l.nproc_soft = 100;
  EXPECT_EQ(CheckResourceLimitsAgainst({f}, l).message(),
            "threads: the jobs need 302 threads but RLIMIT_NPROC is 100; raise it with "
            "`ulimit -u 302`");
  l.nproc_exempt = true;  // root: RLIMIT_NPROC not enforced
  EXPECT_TRUE(CheckResourceLimitsAgainst({f}, l).ok());
  l = Roomy();
  l.threads_max = 200;
  EXPECT_EQ(CheckResourceLimitsAgainst({f}, l).message(),
            "threads: the jobs need 302 threads but kernel.threads-max is 200; raise it with "
            "`sysctl kernel.threads-max=302`");
  // Each thread's stack is two mappings (the stack and its guard page): at
  // vm.max_map_count 65530 about 32,700 threads start, whatever the other
  // limits say.
  l = Roomy();
  // 302 threads counted, the main thread among them (already mapped).
  l.max_map_count = 702;
  l.maps_in_use = 100;
  EXPECT_TRUE(CheckResourceLimitsAgainst({f}, l).ok());  // 100 + 2 x 301
  l.max_map_count = 701;
  EXPECT_EQ(CheckResourceLimitsAgainst({f}, l).message(),
            "memory maps: the 301 threads the run starts need 602 memory maps (a stack and its "
            "guard page each), 100 are in use, but vm.max_map_count is 701; raise it with "
            "`sysctl vm.max_map_count=877`");

  JobSpec a = Job("a", "/f", RwMode::kRead);
  a.ioengine = "libaio";
  a.direct = true;
  a.iodepth = 256;
  a.numjobs = 64;  // 16384 events
  // The message names the job and where its iodepth and numjobs were set.
  a.settings.push_back({"iodepth", "256", OptionSource::kJob, "a.fio", 3});
  a.settings.push_back({"numjobs", "64", OptionSource::kCommandLine, "<cmdline>", 0});
  l = Roomy();
  l.aio_nr = 60000;
  EXPECT_EQ(CheckResourceLimitsAgainst({a}, l).message(),
            "aio: the libaio jobs reserve 16384 events (iodepth x numjobs) but only 5536 are free "
            "(fs.aio-max-nr=65536, fs.aio-nr=60000 in use); raise it with "
            "`sysctl fs.aio-max-nr=76384` (job 'a': iodepth=256 at a.fio:3 x numjobs=64 at "
            "<cmdline>)");
  a.ioengine = "io_uring";  // io_uring does not use aio-nr
  EXPECT_TRUE(CheckResourceLimitsAgainst({a}, l).ok());

  JobSpec u = Job("u", "/f", RwMode::kRead);
  u.ioengine = "io_uring";
  u.fixedbufs = true;
  u.iodepth = 64;
  u.bs[0].max = 128 * 1024;  // 8 MiB registered
  u.settings.push_back({"fixedbufs", "", OptionSource::kJob, "u.fio", 4});
  l = Roomy();
  l.memlock_soft = 8 * 1024 * 1024 - 1;
  EXPECT_EQ(CheckResourceLimitsAgainst({u}, l).message(),
            "locked memory: io_uring fixedbufs registers 8 MiB of buffers but RLIMIT_MEMLOCK is "
            "8.0 MiB; raise it with `ulimit -l 8192` (KiB) or run with CAP_IPC_LOCK (job 'u': "
            "fixedbufs=1 at u.fio:4, 8 MiB)");
  l.cap_ipc_lock = true;
  EXPECT_TRUE(CheckResourceLimitsAgainst({u}, l).ok());
  u.fixedbufs = false;
  l.cap_ipc_lock = false;
  EXPECT_TRUE(CheckResourceLimitsAgainst({u}, l).ok());
}

// On a kernel that charges the rings to RLIMIT_MEMLOCK too, the limit the
// message suggests must hold them: iodepth=64 bs=64k fixedbufs asked for
// `ulimit -l 4096`, under which register_buffers then failed (the job's
// 8 KiB ring and 4 MiB of buffers need 4104 KiB).
TEST(SysResourceTest, MemlockCountsTheRingsWhereTheKernelCharges) {
  EXPECT_EQ(IoUringRingBytes(1), 8192u);
  EXPECT_EQ(IoUringRingBytes(64), 8192u);
  // 128 entries: 192 + 256 x 16 + 128 x 4 bytes of rings, 8 KiB of SQEs.
  EXPECT_EQ(IoUringRingBytes(128), 8192u + 8192u);
  EXPECT_EQ(IoUringRingBytes(15), 8192u);  // sq 16, cq 32
  EXPECT_TRUE(KernelChargesRings("6.18.44-fc-v1272"));
  EXPECT_TRUE(KernelChargesRings("6.14.0"));
  EXPECT_FALSE(KernelChargesRings("6.13.2"));
  EXPECT_FALSE(KernelChargesRings("5.12.0"));
  EXPECT_TRUE(KernelChargesRings("5.11.22"));

  JobSpec u = Job("u", "/f", RwMode::kRead);
  u.ioengine = "io_uring";
  u.fixedbufs = true;
  u.iodepth = 64;
  u.bs[0].max = 64 * 1024;  // 4 MiB registered
  u.settings.push_back({"fixedbufs", "", OptionSource::kJob, "u.fio", 4});
  JobSpec plain = Job("p", "/g", RwMode::kRead);  // its ring counts too
  plain.ioengine = "io_uring";
  SystemLimits l = Roomy();
  l.rings_charged = true;
  l.memlock_soft = 4096 * 1024;
  EXPECT_EQ(CheckResourceLimitsAgainst({u, plain}, l).message(),
            "locked memory: io_uring fixedbufs registers 4 MiB of buffers, the io_uring rings "
            "take 16 KiB but RLIMIT_MEMLOCK is 4 MiB; raise it with `ulimit -l 4112` (KiB) or "
            "run with CAP_IPC_LOCK (job 'u': fixedbufs=1 at u.fio:4, 4 MiB)");
  l.memlock_soft = 4112 * 1024;
  EXPECT_TRUE(CheckResourceLimitsAgainst({u, plain}, l).ok());
  // Where the kernel does not charge them (5.12 to 6.13), 4 MiB do.
  l.rings_charged = false;
  l.memlock_soft = 4096 * 1024;
  EXPECT_TRUE(CheckResourceLimitsAgainst({u, plain}, l).ok());
  // Rings alone are left to the ring setup, which names the limit.
  l.rings_charged = true;
  l.memlock_soft = 4096;
  EXPECT_TRUE(CheckResourceLimitsAgainst({plain}, l).ok());
}

// lockmem x numjobs is pinned: refused unless 256 MiB stay available (fio
// would pin up to the machine's memory less 128 MiB and get processes
// OOM-killed), and counted against RLIMIT_MEMLOCK.
TEST(SysResourceTest, LockmemMustLeaveMemoryAvailable) {
  JobSpec j = Job("j", "/f", RwMode::kRead);
  j.lockmem = kGiB;
  j.numjobs = 2;
  EXPECT_EQ(ComputeResourceNeeds({j}).lockmem_bytes, 2 * kGiB);
  SystemLimits l = Roomy();
  l.mem_available = 2 * kGiB + (256 << 20) + 4096;  // the buffers: one 4 KiB block per clone
  EXPECT_FALSE(CheckResourceLimitsAgainst({j}, l).ok());
  l.mem_available += 4096;
  EXPECT_TRUE(CheckResourceLimitsAgainst({j}, l).ok());
  l.mem_available = 2 * kGiB;
  EXPECT_EQ(CheckResourceLimitsAgainst({j}, l).message(),
            "memory: lockmem pins 2 GiB (lockmem x numjobs, summed over jobs) and the buffers "
            "need 8 KiB, but MemAvailable is 2 GiB and iobench keeps 256 MiB of it free (pinning "
            "more gets processes OOM-killed); lower lockmem or numjobs");
  l = Roomy();
  l.memlock_soft = kGiB;
  EXPECT_EQ(CheckResourceLimitsAgainst({j}, l).message(),
            "locked memory: lockmem pins 2 GiB but RLIMIT_MEMLOCK is 1 GiB; raise it with "
            "`ulimit -l 2097152` (KiB) or run with CAP_IPC_LOCK");
  l.cap_ipc_lock = true;
  EXPECT_TRUE(CheckResourceLimitsAgainst({j}, l).ok());
}

TEST(SysResourceTest, SeveralFailuresAreAllListed) {
  JobSpec j = Job("j", "/f", RwMode::kRead);
  j.numjobs = 300;
  SystemLimits l = Roomy();
  l.nofile_soft = l.nofile_hard = 100;
  l.threads_max = 100;
  const Status st = CheckResourceLimitsAgainst({j}, l);
  EXPECT_NE(st.message().find("open files: "), std::string::npos);
  EXPECT_NE(st.message().find("; threads: "), std::string::npos);
}

// The null engine opens no file: fio runs --ioengine=null --nrfiles=40
// --numjobs=8 --filesize=4k under `ulimit -n 256`; iobench counted 336 fds.
TEST(SysResourceTest, NullEngineOpensNoFiles) {
  JobSpec n = Job("n", "", RwMode::kRead);
  n.filenames.clear();
  n.ioengine = "null";
  n.nrfiles = 40;
  n.numjobs = 8;
  EXPECT_EQ(ComputeResourceNeeds({n}).open_files, 16u);
  EXPECT_EQ(ComputeResourceNeeds({n}).threads, 2u + 8);
  n.ioengine = "psync";
  EXPECT_EQ(ComputeResourceNeeds({n}).open_files, 16u + 40 * 8);
}

// Phases (stonewall, job files) run one after another: each limit is held
// against the phase that needs the most of it, not the sum of the run. fio
// runs two stonewalled libaio jobs at iodepth=40000 with aio-max-nr 65536,
// and [a] [b] stonewall with nrfiles=40 numjobs=4 under `ulimit -n 256`.
// A replay with io_uring's registered files keeps every file of its log
// open; the open-files refusal says so, naming the option and its place,
// and that without it the replay would follow the log's open and close
// lines (it used to give only the count).
TEST(SysResourceTest, RegisteredFilesReplayIsNamed) {
  JobSpec r = Job("r", "/f0", RwMode::kWrite);
  for (int i = 1; i < 100; ++i) r.filenames.push_back("/f" + std::to_string(i));
  r.read_iolog = "many.log";
  r.ioengine = "io_uring";
  r.registerfiles = true;
  r.settings.push_back({"registerfiles", "1", OptionSource::kJob, "r.fio", 4});
  SystemLimits l = Roomy();
  l.nofile_soft = l.nofile_hard = 64;
  const std::string head =
      "open files: the jobs need 117 file descriptors but RLIMIT_NOFILE is 64 (hard limit 64); "
      "raise the hard limit (nofile in /etc/security/limits.conf), then `ulimit -n 117` ";
  EXPECT_EQ(CheckResourceLimitsAgainst({r}, l).message(),
            head +
                "(job 'r' keeps all 100 files of its read_iolog open for the run, as "
                "registerfiles=1 at r.fio:4 registers them with io_uring; without it the replay "
                "would open and close them as the log's lines say)");
  r.sqthread_poll = true;
  EXPECT_EQ(CheckResourceLimitsAgainst({r}, l).message(),
            head +
                "(job 'r' keeps all 100 files of its read_iolog open for the run, as "
                "registerfiles=1 at r.fio:4 and sqthread_poll=1 register them with io_uring; "
                "without them the replay would open and close them as the log's lines say)");
  // Not a replay, or redirected to one file: no such note.
  r.replay_redirect = "/dev/x";
  EXPECT_EQ(CheckResourceLimitsAgainst({r}, l).message().find("keeps all"), std::string::npos);
}

// A replay that follows its log's open and close lines holds as many files
// open as the log does at its most: the refusal says the count is the
// log's (it gave the count alone, which the user could not trace).
TEST(SysResourceTest, ReplayLogsOpenFilesAreNamed) {
  JobSpec r = Job("r", "/f0", RwMode::kWrite);
  for (int i = 1; i < 100; ++i) r.filenames.push_back("/f" + std::to_string(i));
  r.read_iolog = "many.log";
  r.read_iolog_open_max = 100;
  r.settings.push_back({"read_iolog", "many.log", OptionSource::kJob, "r.fio", 3});
  SystemLimits l = Roomy();
  l.nofile_soft = l.nofile_hard = 64;
  EXPECT_EQ(CheckResourceLimitsAgainst({r}, l).message(),
            "open files: the jobs need 116 file descriptors but RLIMIT_NOFILE is 64 (hard limit "
            "64); raise the hard limit (nofile in /etc/security/limits.conf), then `ulimit -n "
            "116` (job 'r' holds up to 100 files open at once, as the 'open' and 'close' lines "
            "of its read_iolog=many.log at r.fio:3 do; the replay opens and closes them as the "
            "log says)");
  r.numjobs = 2;
  EXPECT_NE(CheckResourceLimitsAgainst({r}, l).message().find(
                "(job 'r' holds up to 100 files open at once in each of its 2 clones, as "),
            std::string::npos);
  // One file open at a time: the count is not the log's.
  r.numjobs = 1;
  r.read_iolog_open_max = 1;
  l.nofile_soft = l.nofile_hard = 16;
  EXPECT_EQ(CheckResourceLimitsAgainst({r}, l).message().find("holds up to"), std::string::npos);
}

// Registered files are all open for the run (openfiles= below their count
// is refused), so "or openfiles=N" was no way out and was left off with
// nothing in its place: the hint names the option that registers them.
TEST(SysResourceTest, RegisteredFilesNameTheirOption) {
  JobSpec r = Job("t", "/f0", RwMode::kRead);
  for (int i = 1; i < 100; ++i) r.filenames.push_back("/f" + std::to_string(i));
  r.nrfiles = 100;
  r.ioengine = "io_uring";
  r.registerfiles = true;
  r.settings.push_back({"registerfiles", "1", OptionSource::kJob, "r.fio", 4});
  SystemLimits l = Roomy();
  l.nofile_soft = l.nofile_hard = 60;
  const std::string msg = CheckResourceLimitsAgainst({r}, l).message();
  EXPECT_NE(
      msg.find("(job 't' keeps its 100 files open at once, as registerfiles=1 at r.fio:4 registers "
               "them all with io_uring; without it, openfiles=N would keep fewer open)"),
      std::string::npos)
      << msg;
  r.registerfiles = false;
  EXPECT_NE(CheckResourceLimitsAgainst({r}, l).message().find(
                "(or openfiles=N: job 't' keeps its 100 files open at once)"),
            std::string::npos);
}

TEST(SysResourceTest, PhasesRunOneAfterAnother) {
  JobSpec a = Job("a", "/f", RwMode::kRead);
  a.ioengine = "libaio";
  a.iodepth = 40000;
  JobSpec b = a;
  b.name = "b";
  SystemLimits l = Roomy();
  EXPECT_TRUE(CheckResourceLimitsAgainst({a, b}, {{0}, {1}}, l).ok());
  EXPECT_EQ(CheckResourceLimitsAgainst({a, b}, {{0, 1}}, l).message(),
            "aio: the libaio jobs reserve 80000 events (iodepth x numjobs) but only 65536 are "
            "free (fs.aio-max-nr=65536, fs.aio-nr=0 in use); raise it with "
            "`sysctl fs.aio-max-nr=80000` (job 'a': iodepth=40000; job 'b': iodepth=40000)");
  EXPECT_EQ(CheckResourceLimitsAgainst({a, b}, l).code(), Status::Code::kResourceLimit);

  JobSpec f = Job("fa", "", RwMode::kRead);
  f.filenames.clear();
  f.ioengine = "psync";
  f.nrfiles = 40;
  f.numjobs = 4;
  JobSpec g = f;
  g.name = "fb";
  l = Roomy();
  l.nofile_soft = l.nofile_hard = 256;
  EXPECT_TRUE(CheckResourceLimitsAgainst({f, g}, {{0}, {1}}, l).ok());
  EXPECT_EQ(CheckResourceLimitsAgainst({f, g}, {{0, 1}}, l).message(),
            "open files: the jobs need 336 file descriptors but RLIMIT_NOFILE is 256 (hard limit "
            "256); raise the hard limit (nofile in /etc/security/limits.conf), then "
            "`ulimit -n 336` (or openfiles=N: job 'fa' keeps its 40 files open at once in each "
            "of its 4 clones)");
  // With openfiles= set a job is not the one the hint names.
  JobSpec fo = f;
  fo.openfiles = 100;  // above its 40 files: all stay open
  const std::string fo_msg = CheckResourceLimitsAgainst({fo, g}, {{0, 1}}, l).message();
  EXPECT_EQ(fo_msg.find("openfiles=N: job 'fa'"), std::string::npos) << fo_msg;
  EXPECT_NE(fo_msg.find("openfiles=N: job 'fb'"), std::string::npos) << fo_msg;
  // Each limit is named once, for the phase that needs the most of it, and
  // the message says which jobs that phase runs.
  g.numjobs = 6;  // 16 + 240 fds, 8 threads
  f.numjobs = 7;  // 16 + 280 fds, 9 threads
  l.threads_max = 8;
  EXPECT_EQ(
      CheckResourceLimitsAgainst({f, g, g}, {{1, 2}, {0}}, l).message(),
      "open files (phase 1 of 2: job 'fb'): the jobs need 496 file descriptors but "
      "RLIMIT_NOFILE is 256 (hard limit 256); raise the hard limit (nofile in "
      "/etc/security/limits.conf), then `ulimit -n 496` (or openfiles=N: job 'fb' keeps its 40 "
      "files open at once in each of its 6 clones); threads (phase 1 of 2: job 'fb'): the "
      "jobs need 14 threads but kernel.threads-max is 8; raise it with "
      "`sysctl kernel.threads-max=14`");
  EXPECT_EQ(
      CheckResourceLimitsAgainst({f, g}, {{1}, {0}}, l).message(),
      "open files (phase 2 of 2: job 'fa'): the jobs need 296 file descriptors but "
      "RLIMIT_NOFILE is 256 (hard limit 256); raise the hard limit (nofile in "
      "/etc/security/limits.conf), then `ulimit -n 296` (or openfiles=N: job 'fa' keeps its 40 "
      "files open at once in each of its 7 clones); threads (phase 2 of 2: job 'fa'): the "
      "jobs need 9 threads but kernel.threads-max is 8; raise it with "
      "`sysctl kernel.threads-max=9`");

  // Memory and lockmem: per phase too.
  JobSpec m = Job("m", "/f", RwMode::kRead);
  m.iodepth = 64;
  m.bs[0].max = 1 << 20;  // 64 MiB of buffers
  m.lockmem = 512 * kMiB;
  l = Roomy();
  l.mem_available = 1 * kGiB;  // one phase: 64 MiB + 512 MiB + 256 MiB spare fits
  EXPECT_TRUE(CheckResourceLimitsAgainst({m, m}, {{0}, {1}}, l).ok());
  const Status both = CheckResourceLimitsAgainst({m, m}, {{0, 1}}, l);
  EXPECT_NE(both.message().find("memory: lockmem pins 1 GiB"), std::string::npos) << both.message();
}

TEST(SysResourceTest, ThisSystemCarriesASmallJob) {
  auto l = ReadSystemLimits();
  ASSERT_TRUE(l.ok()) << l.status().ToString();
  struct rlimit r;
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &r), 0);
  EXPECT_EQ(l->nofile_soft, r.rlim_cur == RLIM_INFINITY ? UINT64_MAX : r.rlim_cur);
  EXPECT_GT(l->mem_available, 0u);
  EXPECT_GT(l->threads_max, 0u);
  EXPECT_GT(l->max_map_count, 0u);
  EXPECT_GT(l->maps_in_use, 10u);  // the binary, libc, the stack, the heap...
  JobSpec j = Job("small", "/dev/shm/f", RwMode::kRead);
  EXPECT_TRUE(CheckResourceLimits({j}, {{0}}).ok());
}

TEST(SysWriteSafetyTest, FilesAreNotCheckedAndMissingPathsAreErrors) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(WriteFile(dir.path() + "/f", 4096));
  EXPECT_TRUE(CheckWriteSafety(dir.path() + "/f", false).ok());
  const Status st = CheckWriteSafety(dir.path() + "/missing", false);
  EXPECT_EQ(st.code(), Status::Code::kNotFound);
  EXPECT_EQ(st.message(),
            "write safety check: stat " + dir.path() + "/missing: No such file or directory");
}

// What would stop the report or the plot from being written after the run
// is found before it (docs/safety.md): access(dir, W_OK) alone passed a
// regular file as the directory, and /sys for root.
TEST(SysOutputFileTest, RefusesWhatTheWriteAfterTheRunWouldFail) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  const std::string file = dir.path() + "/f";
  ASSERT_TRUE(WriteFile(file, 4096));
  auto check = [](const std::string& path) {
    return CheckOutputFile(path, "--output", "the report (--output)");
  };
  EXPECT_TRUE(check(file).ok());                      // overwritten
  EXPECT_TRUE(check(dir.path() + "/new.json").ok());  // created
  EXPECT_TRUE(check("/dev/null").ok());
  EXPECT_TRUE(check("").ok());
  EXPECT_EQ(check(file + "/x.json").message(),
            "--output=" + file + "/x.json: directory " + file + ": Not a directory");
  EXPECT_EQ(check(dir.path() + "/no/x.json").message(), "--output=" + dir.path() +
                                                            "/no/x.json: directory " + dir.path() +
                                                            "/no: No such file or directory");
  EXPECT_EQ(check(dir.path()).message(), "--output=" + dir.path() + ": Is a directory");
  if (PseudoFsName("/sys") != "sysfs") GTEST_SKIP() << "/sys is not sysfs here";
  const Status sys = check("/sys/x.json");
  EXPECT_EQ(sys.code(), Status::Code::kRefused);
  EXPECT_EQ(sys.message(),
            "--output=/sys/x.json: directory /sys is on sysfs, a pseudo file system whose files "
            "are the kernel's settings and state, not storage; name a file on a real file system");
  EXPECT_NE(CheckOutputFile("/proc/x.svg", "--plot", "the plot (--plot)")
                .message()
                .find("--plot=/proc/x.svg: directory /proc"),
            std::string::npos);
}

}  // namespace
}  // namespace iobench::sys
