// Builders of fio-schema JSON documents for the sweep/table/compare/plot
// tests: synthetic, so that every expected number is exact.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "temp_dir.h"

namespace iobench::testing {

using Point = std::vector<std::pair<std::string, std::string>>;

struct DirFigures {
  double iops = 0;
  double bw_bytes = 0;
  double clat_p50_ns = 0;
  double clat_p99_ns = 0;
  double lat_mean_ns = 0;
  uint64_t runtime_ms = 10000;
};

inline nlohmann::json MakeDir(const DirFigures& f) {
  nlohmann::json d;
  const uint64_t ios = static_cast<uint64_t>(f.iops * static_cast<double>(f.runtime_ms) / 1000.0);
  d["io_bytes"] = static_cast<uint64_t>(f.bw_bytes * static_cast<double>(f.runtime_ms) / 1000.0);
  d["bw_bytes"] = static_cast<uint64_t>(f.bw_bytes);
  d["bw"] = static_cast<uint64_t>(f.bw_bytes / 1024);
  d["iops"] = f.iops;
  d["runtime"] = f.runtime_ms;
  d["total_ios"] = ios;
  d["slat_ns"] = {{"min", 0}, {"max", 0}, {"mean", 0.0}, {"N", 0}};
  d["clat_ns"] = {{"mean", f.clat_p50_ns},
                  {"N", ios},
                  {"percentile",
                   {{"50.000000", f.clat_p50_ns},
                    {"99.000000", f.clat_p99_ns},
                    {"99.900000", f.clat_p99_ns * 2}}}};
  d["lat_ns"] = {{"mean", f.lat_mean_ns}, {"N", ios}};
  return d;
}

inline nlohmann::json EmptyDir() {
  return {{"io_bytes", 0}, {"bw_bytes", 0}, {"bw", 0},
          {"iops", 0.0},   {"runtime", 0},  {"total_ios", 0}};
}

// One job doing I/O in `dir` ("read"/"write"), or both when dir is "rw".
inline nlohmann::json MakeJob(const std::string& name, const Point& point, const std::string& dir,
                              const DirFigures& f,
                              const std::map<std::string, std::string>& options = {}) {
  nlohmann::json j;
  j["jobname"] = name;
  j["groupid"] = 0;
  j["error"] = 0;
  nlohmann::json opts = {{"name", name}};
  for (const auto& [k, v] : options) opts[k] = v;
  j["job options"] = opts;
  j["read"] = (dir == "read" || dir == "rw") ? MakeDir(f) : EmptyDir();
  j["write"] = (dir == "write" || dir == "rw") ? MakeDir(f) : EmptyDir();
  j["trim"] = EmptyDir();
  j["usr_cpu"] = 10.0;
  j["sys_cpu"] = 30.0;
  if (!point.empty()) {
    nlohmann::json p = nlohmann::json::object();
    for (const auto& [k, v] : point) p[k] = v;
    j["iobench"] = {{"point", p}};
  }
  return j;
}

inline nlohmann::json MakeDoc(const std::vector<nlohmann::json>& jobs,
                              const std::vector<std::string>& keys = {}) {
  nlohmann::json d;
  d["fio version"] = "iobench-test";
  d["jobs"] = jobs;
  if (!keys.empty()) d["iobench"] = {{"sweep", {{"keys", keys}}}};
  return d;
}

// Seed 000's first table (readahead 0): QD 1..128 x FMODE_BUF_RASYNC set
// (force_async=0: async buffered reads) / not set (force_async=1: io-wq).
inline nlohmann::json Seed000Doc() {
  const double set[] = {12900, 32400, 65800, 123000, 211000, 235000, 241000, 229000};
  const double not_set[] = {11000, 29700, 62100, 116000, 208000, 296000, 328000, 312000};
  const std::map<std::string, std::string> opts = {{"filename", "/mnt/nvme0n1/fio_read_test.txt"},
                                                   {"buffered", "1"},
                                                   {"rw", "randread"},
                                                   {"ioengine", "io_uring"},
                                                   {"randseed", "89"},
                                                   {"runtime", "10s"},
                                                   {"norandommap", "1"},
                                                   {"direct", "0"},
                                                   {"bs", "4k"},
                                                   {"size", "4G"}};
  std::vector<nlohmann::json> jobs;
  int qd = 1;
  for (int i = 0; i < 8; ++i, qd *= 2) {
    for (int fa = 0; fa < 2; ++fa) {
      DirFigures f;
      f.iops = fa == 0 ? set[i] : not_set[i];
      f.bw_bytes = f.iops * 4096;
      f.clat_p50_ns = 1000.0 * qd * 1.5;
      f.clat_p99_ns = 1000.0 * qd * 4.25;
      f.lat_mean_ns = 1000.0 * qd * 2;
      f.runtime_ms = 10001;
      jobs.push_back(MakeJob("rand_read_4k",
                             {{"iodepth", std::to_string(qd)}, {"force_async", fa ? "1" : "0"}},
                             "read", f, opts));
    }
  }
  nlohmann::json doc = MakeDoc(jobs, {"iodepth", "force_async"});
  doc["iobench"]["context"] = {{"kernel", "5.9.0-rc8+"},
                               {"targets",
                                {{{"path", "/mnt/nvme0n1/fio_read_test.txt"},
                                  {"fstype", "ext4"},
                                  {"disk", "/dev/nvme0n1"}}}}};
  return doc;
}

// Reads tests/golden/table/<name>; with IOBENCH_UPDATE_GOLDEN=1 writes it.
inline void ExpectGolden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(IOBENCH_SOURCE_DIR) + "/tests/golden/table/" + name;
  if (const char* u = std::getenv("IOBENCH_UPDATE_GOLDEN"); u && std::string(u) == "1") {
    std::ofstream(path) << actual;
    return;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << "missing golden file " << path
                         << " (run with IOBENCH_UPDATE_GOLDEN=1 to create it)";
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), actual) << "golden file " << path;
}

}  // namespace iobench::testing
