// Synthetic, deterministic RunResults for the report and stats tests.
// The numbers imitate a libaio 4k randrw run at depth 8 on an ext4 file, so
// the output can be compared by eye with fio's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "iobench/stats.h"

namespace iobench::testdata {

// A small deterministic generator (no dependence on libstdc++'s engines).
class Lcg {
 public:
  explicit Lcg(uint64_t seed) : s_(seed * 6364136223846793005ull + 1442695040888963407ull) {}
  uint64_t Next() {
    s_ = s_ * 6364136223846793005ull + 1442695040888963407ull;
    return s_ >> 17;
  }
  uint64_t Range(uint64_t lo, uint64_t hi) { return lo + Next() % (hi - lo + 1); }

 private:
  uint64_t s_;
};

inline void AddIo(DirStats& d, Lcg& rng, uint64_t bs) {
  const uint64_t slat = rng.Range(3000, 9000);
  uint64_t clat = rng.Range(60000, 260000);
  const uint64_t r = rng.Next() % 1000;
  if (r == 0)
    clat = rng.Range(2000000, 4000000);  // rare slow I/O
  else if (r < 5)
    clat = rng.Range(500000, 900000);
  d.slat.Add(slat);
  d.slat_hist.Add(slat);
  d.clat.Add(clat);
  d.clat_hist.Add(clat);
  d.lat.Add(slat + clat);
  d.lat_hist.Add(slat + clat);
  d.ios += 1;
  d.bytes += bs;
}

inline JobSpec MakeSpec(const std::string& name, uint32_t numjobs) {
  JobSpec s;
  s.name = name;
  s.job_file = "t.fio";
  s.rw = RwMode::kRandRW;
  s.ioengine = "libaio";
  s.iodepth = 8;
  s.numjobs = numjobs;
  s.direct = true;
  auto set = [&](const char* n, const char* v, OptionSource src) {
    s.settings.push_back(OptionSetting{n, v, src, "t.fio", 1});
  };
  set("size", "16m", OptionSource::kGlobal);
  set("ioengine", "libaio", OptionSource::kGlobal);
  set("rw", "randrw", OptionSource::kJob);
  set("iodepth", "8", OptionSource::kJob);
  set("bs", "4k", OptionSource::kJob);
  set("direct", "1", OptionSource::kJob);
  if (numjobs > 1) set("numjobs", std::to_string(numjobs).c_str(), OptionSource::kJob);
  return s;
}

// One clone of job `name`. `seed` varies the samples between clones.
inline JobResult MakeJob(const std::string& name, int groupid, int jobnum, uint32_t numjobs,
                         uint64_t seed, uint64_t reads = 4000, uint64_t writes = 3900) {
  JobResult j;
  j.name = name;
  j.groupid = groupid;
  j.jobnum = jobnum;
  j.spec = MakeSpec(name, numjobs);
  j.latency_depth = j.spec.iodepth;  // it ran: the worker sets fio's latency_qd
  Lcg rng(seed);
  ThreadStats& ts = j.stats;
  for (uint64_t i = 0; i < reads; ++i) AddIo(ts.dir[0], rng, 4096);
  for (uint64_t i = 0; i < writes; ++i) AddIo(ts.dir[1], rng, 4096);
  ts.dir[0].runtime_ns = 2001000000ull;
  ts.dir[1].runtime_ns = 2001000000ull;
  // Four 500 ms windows per direction, bytes/s and IO/s.
  for (int d = 0; d < 2; ++d) {
    for (uint64_t w = 1; w <= 4; ++w) {
      const uint64_t iops = (d == 0 ? 2000 : 1950) + rng.Range(0, 40);
      ts.dir[d].iops_samples.push_back({w * 500, iops});
      ts.dir[d].bw_samples.push_back({w * 500, iops * 4096});
    }
  }
  ts.issued[0] = reads;
  ts.issued[1] = writes;
  ts.depth.depth = {2, 2, 4, reads + writes - 8, 0, 0, 0};
  ts.depth.submit = {0, (reads + writes) / 4, 0, 0, 0, 0, 0};
  ts.depth.submit_events = (reads + writes) / 4;
  ts.depth.complete = {0, (reads + writes) / 4 - 3, 3, 0, 0, 0, 0};
  ts.depth.complete_events = (reads + writes) / 4;
  ts.cpu = CpuUsage{60000, 530000, 12043, 0, 15};
  ts.submit_calls = (reads + writes) / 4;
  ts.submitted = reads + writes;
  ts.reap_calls = (reads + writes) / 2;
  ts.reaped = reads + writes;
  ts.reap_syscalls = (reads + writes) / 8;
  j.helpers.iowq_sys_us = 412000;
  j.helpers.iowq_user_us = 1000;
  j.helpers.peak_threads = 4;
  j.elapsed_ms = 2003;
  j.runtime_ms = 2001;
  j.start_ms = 1000;
  j.nr_files = 1;
  j.files = {"/var/tmp/iobench.t"};
  return j;
}

inline RunContext MakeContext() {
  RunContext c;
  c.iobench_version = "0.1.0";
  c.kernel = "6.1.0-18-amd64";
  c.cpu_model = "Test CPU @ 2.00GHz";
  c.cpus = 2;
  c.mem_bytes = 8ull << 30;
  c.clock = "clock_gettime";
  c.kernel_clocksource = "kvm-clock";
  TargetContext t;
  t.path = "/var/tmp/iobench.t";
  t.fs_type = "ext4";
  t.mount_options = "rw,relatime,errors=remount-ro";
  t.device = "vda";
  t.model = "QEMU HARDDISK";
  t.scheduler = "mq-deadline";
  t.read_ahead_kb = 128;
  t.nr_requests = 256;
  t.rotational = 1;
  t.logical_block_size = 512;
  t.physical_block_size = 512;
  t.write_cache = "write back";
  c.targets.push_back(t);
  c.warnings.push_back("libaio with direct=0 is synchronous (example warning)");
  return c;
}

inline DiskUtil MakeDisk() {
  DiskUtil d;
  d.name = "vda";
  d.ios[0] = 86059;
  d.ios[1] = 85762;
  d.merges[0] = 1;
  d.ticks[0] = 10999;
  d.ticks[1] = 10383;
  d.io_ticks = 1542;
  d.time_in_queue = 21383;
  d.util = 77.07;
  return d;
}

// One group; two clones of job "t"; group_reporting as asked.
inline RunResult MakeRun(bool group_reporting, uint32_t numjobs = 2) {
  RunResult run;
  run.timestamp_s = 1796027085;
  run.timestamp_ms = 1796027085957ull;
  run.start_ms = run.timestamp_ms - 1000;
  GroupResult g;
  g.id = 0;
  for (uint32_t i = 0; i < numjobs; ++i) {
    JobResult j = MakeJob("t", 0, static_cast<int>(i), numjobs, 11 + i);
    j.spec.group_reporting = group_reporting;
    if (i == 0) j.notes.push_back("buffered I/O: the page cache served part of the reads");
    g.jobs.push_back(std::move(j));
  }
  run.groups.push_back(std::move(g));
  run.disks.push_back(MakeDisk());
  run.context = MakeContext();
  return run;
}

// MakeRun's one job with cmdprio on for reads: the job's own 0/0, with
// no samples, and 1/0 with two (1 and 2 us), as cmdprio_percentage=100 leaves them.
inline RunResult MakeRunOnePrioWithSamples() {
  RunResult run = MakeRun(false, 1);
  DirStats& rd = run.groups[0].jobs[0].stats.dir[0];
  rd.prio_split = true;
  rd.prios.emplace_back().value = 0;
  rd.prios.emplace_back().value = 1 << 13;
  for (uint64_t ns : {1000, 2000}) {
    rd.prios[1].lat.Add(ns);
    rd.prios[1].hist.Add(ns);
  }
  return run;
}

}  // namespace iobench::testdata
