// Parity with fio itself: run fio 3.33 once with normal and json+ output,
// rebuild a RunResult from fio's json+ (its histogram buckets are ours), and
// check that our normal reporter prints the same lines fio printed for the
// same measurements.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "iobench/report.h"
#include "test_util.h"

namespace iobench {
namespace {

using testing::Lines;

// LatStat from fio's {min, max, mean, stddev, N}: sum and sum of squares
// rebuilt so that Mean() and Stddev() give fio's values back (to rounding).
LatStat LatFromJson(const nlohmann::json& o) {
  LatStat s;
  const uint64_t n = o["N"].get<uint64_t>();
  if (!n) return s;
  const long double mean = o["mean"].get<double>(), dev = o["stddev"].get<double>();
  s.n = n;
  s.min = o["min"].get<uint64_t>();
  s.max = o["max"].get<uint64_t>();
  s.sum = static_cast<unsigned __int128>(std::llround(static_cast<double>(mean * n)));
  s.sumsq = static_cast<unsigned __int128>(dev * dev * static_cast<long double>(n - 1) +
                                           static_cast<long double>(n) * mean * mean);
  return s;
}

void HistFromBins(const nlohmann::json& o, Histogram& h) {
  if (!o.contains("bins")) return;
  for (auto it = o["bins"].begin(); it != o["bins"].end(); ++it)
    h.counts[Histogram::ValueToIndex(std::stoull(it.key()))] += it.value().get<uint64_t>();
}

RunResult FromFioJson(const nlohmann::json& d) {
  RunResult run;
  run.timestamp_s = d["timestamp"].get<uint64_t>();
  GroupResult g;
  for (const auto& j : d["jobs"]) {
    JobResult r;
    r.name = j["jobname"].get<std::string>();
    r.groupid = j["groupid"].get<int>();
    r.spec.name = r.name;
    r.spec.rw = RwMode::kRandRW;
    r.spec.ioengine = "psync";
    const char* const kDirs[] = {"read", "write", "trim"};
    for (int dd = 0; dd < kNumDdirs; ++dd) {
      const auto& s = j[kDirs[dd]];
      DirStats& ds = r.stats.dir[dd];
      ds.ios = s["total_ios"].get<uint64_t>();
      ds.bytes = s["io_bytes"].get<uint64_t>();
      ds.runtime_ns = s["runtime"].get<uint64_t>() * 1000000;
      ds.clat = LatFromJson(s["clat_ns"]);
      ds.lat = LatFromJson(s["lat_ns"]);
      ds.slat = LatFromJson(s["slat_ns"]);
      HistFromBins(s["clat_ns"], ds.clat_hist);
      r.stats.issued[dd] = ds.ios;
    }
    r.runtime_ms = j["job_runtime"].get<uint64_t>();
    r.stats.cpu.user_us = static_cast<uint64_t>(std::llround(
        j["usr_cpu"].get<double>() / 100.0 * static_cast<double>(r.runtime_ms) * 1000));
    r.stats.cpu.sys_us = static_cast<uint64_t>(std::llround(
        j["sys_cpu"].get<double>() / 100.0 * static_cast<double>(r.runtime_ms) * 1000));
    r.stats.cpu.ctx = j["ctx"].get<uint64_t>();
    r.stats.cpu.majf = j["majf"].get<uint64_t>();
    r.stats.cpu.minf = j["minf"].get<uint64_t>();
    g.jobs.push_back(std::move(r));
  }
  run.groups.push_back(std::move(g));
  if (d.contains("disk_util")) {
    for (const auto& u : d["disk_util"]) {
      DiskUtil du;
      du.name = u["name"].get<std::string>();
      du.ios[0] = u["read_ios"].get<uint64_t>();
      du.ios[1] = u["write_ios"].get<uint64_t>();
      du.merges[0] = u["read_merges"].get<uint64_t>();
      du.merges[1] = u["write_merges"].get<uint64_t>();
      du.ticks[0] = u["read_ticks"].get<uint64_t>();
      du.ticks[1] = u["write_ticks"].get<uint64_t>();
      du.time_in_queue = u["in_queue"].get<uint64_t>();
      du.util = u["util"].get<double>();
      run.disks.push_back(du);
    }
  }
  return run;
}

// "    clat (nsec): min=811, max=12049k, avg=4586.29, stdev=190737.55"
struct LatLine {
  std::string head, min, max;
  double avg = 0, stdev = 0;
};
bool ParseLatLine(const std::string& l, LatLine* out) {
  static const std::regex kRe(
      R"(^(\s+\w+ \(\w+\)): min=(\S+), max=(\S+), avg=\s*([0-9.]+), stdev=\s*([0-9.]+)$)");
  std::smatch m;
  if (!std::regex_match(l, m, kRe)) return false;
  *out = LatLine{m[1], m[2], m[3], std::stod(m[4]), std::stod(m[5])};
  return true;
}

// Runs fio with `args` on a file in a fresh directory under `parent`, and
// compares; skips when fio cannot run the job here.
void CheckParity(const std::string& parent, const std::string& args) {
  if (std::system("command -v fio >/dev/null 2>&1") != 0) GTEST_SKIP() << "fio is not installed";
  std::string tmpl = parent + "/iobench_parity_XXXXXX";
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr) << tmpl;
  const std::string dir = tmpl;
  const std::string out_file = dir + "/out.txt";
  const std::string cmd = "fio --name=t --filename=" + dir + "/data " + args +
                          " --output-format=normal,json+ --output=" + out_file + " >/dev/null 2>&1";
  const int rc = std::system(cmd.c_str());
  std::stringstream buf;
  buf << std::ifstream(out_file).rdbuf();
  std::filesystem::remove_all(dir);
  if (rc != 0) GTEST_SKIP() << "fio could not run here: " << cmd;

  // fio writes the JSON document first, then the normal output.
  const auto lines = Lines(buf.str());
  std::string json_text, fio_normal;
  bool in_json = false, json_done = false;
  for (const auto& l : lines) {
    if (!json_done && l == "{") in_json = true;
    if (in_json) {
      json_text += l + "\n";
      if (l == "}") in_json = false, json_done = true;
    } else if (json_done) {
      fio_normal += l + "\n";
    }
  }
  ASSERT_TRUE(json_done) << buf.str();
  const RunResult run = FromFioJson(nlohmann::json::parse(json_text));
  std::ostringstream ours_out;
  ASSERT_TRUE(WriteNormal(run, ReportOptions{}, ours_out).ok());
  const auto fio_lines = Lines(fio_normal);
  const auto our_lines = Lines(ours_out.str());
  auto has = [&](const std::string& l) {
    for (const auto& o : our_lines)
      if (o == l) return true;
    return false;
  };

  int compared = 0;
  bool in_percentiles = false;
  for (const auto& l : fio_lines) {
    const bool exact = l.rfind("  read: IOPS=", 0) == 0 || l.rfind("  write: IOPS=", 0) == 0 ||
                       l.rfind("   READ: ", 0) == 0 || l.rfind("  WRITE: ", 0) == 0 ||
                       l.rfind("     issued rwts:", 0) == 0 ||
                       (l.rfind("  ", 0) == 0 && l.find(": ios=") != std::string::npos) ||
                       l.rfind("    clat percentiles", 0) == 0 || l.rfind("  cpu  ", 0) == 0 ||
                       (in_percentiles && l.rfind("     |", 0) == 0);
    in_percentiles =
        l.rfind("    clat percentiles", 0) == 0 || (in_percentiles && l.rfind("     |", 0) == 0);
    if (exact) {
      EXPECT_TRUE(has(l)) << "fio printed\n" << l << "\nours:\n" << ours_out.str();
      ++compared;
      continue;
    }
    LatLine f;
    if (ParseLatLine(l, &f)) {
      bool found = false;
      for (const auto& o : our_lines) {
        LatLine g;
        if (!ParseLatLine(o, &g) || g.head != f.head || g.min != f.min || g.max != f.max) continue;
        // avg/stdev are rebuilt from fio's rounded JSON values: 0.01 slack.
        if (std::fabs(g.avg - f.avg) <= 0.011 && std::fabs(g.stdev - f.stdev) <= 0.011)
          found = true;
      }
      EXPECT_TRUE(found) << "fio printed\n" << l << "\nours:\n" << ours_out.str();
      ++compared;
    }
  }
  EXPECT_GE(compared, 15) << fio_normal;
}

// Sub-microsecond completions: nsec units throughout.
TEST(ReportFioParityTest, PsyncOnTmpfs) {
  CheckParity("/dev/shm", "--size=8m --rw=randrw --bs=4k --ioengine=psync");
}

// Direct I/O on the root filesystem at depth 8 for one second: usec units,
// slat lines, bandwidth samples.
TEST(ReportFioParityTest, LibaioDirectOnRootFs) {
  CheckParity("/var/tmp",
              "--size=8m --rw=randrw --bs=4k --ioengine=libaio --iodepth=8 --direct=1 "
              "--runtime=1 --time_based");
}

}  // namespace
}  // namespace iobench
