// ctest-labels: threads
// IoLogger / LogWriter: fio's log names and line formats from a synthetic
// stream of completions with known timing, written to real files in a temp
// directory and read back.
#include "stats/iolog.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "iobench/clock.h"
#include "temp_dir.h"
#include "test_util.h"

namespace iobench {
namespace {

using testing::kMs;
using testing::ReadAll;
using testing::TempDir;

// The lines of the file at `path`.
std::vector<std::string> ReadLines(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

std::vector<uint64_t> Fields(const std::string& line) {
  std::vector<uint64_t> out;
  std::stringstream ss(line);
  std::string tok;
  while (std::getline(ss, tok, ',')) out.push_back(std::stoull(tok, nullptr, 0));
  return out;
}

std::unique_ptr<LogWriter> NewWriter(size_t mem = LogWriter::kDefaultMemoryLimit) {
  auto w = LogWriter::Create(mem);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  return std::move(w).value();
}

std::unique_ptr<IoLogger> NewLogger(const IoLogOptions& o, int jobnum, LogWriter* w) {
  auto l = IoLogger::Create(o, jobnum, w);
  EXPECT_TRUE(l.ok()) << l.status().ToString();
  return std::move(l).value();
}

// One I/O issued and completed at t_ns: its slat logged at the submission
// (OnSubmit), then its completion, as the worker logs an I/O.
void Io(IoLogger* log, uint64_t t_ns, Ddir d, uint64_t bytes, uint64_t slat_ns, uint64_t clat_ns,
        uint64_t lat_ns, uint64_t offset, uint16_t prio) {
  log->OnSubmit(t_ns, d, bytes, slat_ns, offset, prio);
  log->OnComplete(t_ns, d, bytes, clat_ns, lat_ns, offset, prio);
}
void Io(const std::unique_ptr<IoLogger>& log, uint64_t t_ns, Ddir d, uint64_t bytes,
        uint64_t slat_ns, uint64_t clat_ns, uint64_t lat_ns, uint64_t offset, uint16_t prio) {
  Io(log.get(), t_ns, d, bytes, slat_ns, clat_ns, lat_ns, offset, prio);
}

// Options writing the bw, iops and lat logs under one prefix, with windows
// of avg_msec (0: a line per I/O).
IoLogOptions AllLogs(const std::string& prefix, uint64_t avg_msec) {
  IoLogOptions o;
  o.bw_prefix = prefix;
  o.iops_prefix = prefix;
  o.lat_prefix = prefix;
  o.avg_msec = avg_msec;
  return o;
}

TEST(IoLogNames, FioFileNames) {
  EXPECT_EQ(LogFileName("t", LogKind::kBw, 0, true), "t_bw.1.log");
  EXPECT_EQ(LogFileName("t", LogKind::kIops, 3, true), "t_iops.4.log");
  EXPECT_EQ(LogFileName("d/x", LogKind::kSlat, 1, true), "d/x_slat.2.log");
  EXPECT_EQ(LogFileName("t", LogKind::kClat, 0, true), "t_clat.1.log");
  EXPECT_EQ(LogFileName("t", LogKind::kLat, 0, true), "t_lat.1.log");
  EXPECT_EQ(LogFileName("t", LogKind::kClatHist, 0, true), "t_clat_hist.1.log");
  EXPECT_EQ(LogFileName("t", LogKind::kBw, 5, false), "t_bw.log");
}

TEST(IoLogOptionsTest, FromJobBareFlagUsesJobName) {
  JobSpec spec;
  spec.name = "seqread";
  spec.bw_log_set = true;        // bare write_bw_log
  spec.write_lat_log = "mylat";  // with a prefix
  spec.rw = RwMode::kRandRW;
  spec.disable_slat = true;
  spec.log_hist_coarseness = 9;  // clamped to fio's 0..6
  const IoLogOptions o = IoLogOptions::FromJob(spec);
  EXPECT_EQ(o.bw_prefix, "seqread");
  EXPECT_EQ(o.lat_prefix, "mylat");
  EXPECT_EQ(o.iops_prefix, "");
  EXPECT_EQ(o.hist_prefix, "");
  EXPECT_FALSE(o.log_slat);
  EXPECT_TRUE(o.log_clat);
  EXPECT_EQ(o.hist_coarseness, 6u);
  EXPECT_TRUE(o.Any());
}

// log_window_value: newer fio's avg|max|both and fio 3.33's 0|1 (as
// written: MAX is refused, as fio matches its keywords);
// anything else is refused naming the option and its place (2 and mean
// were taken, which fio refuses).
TEST(IoLogOptionsTest, LogWindowValueTakesFiosValues) {
  struct Case {
    const char* text;
    int want;  // -1: refused
  };
  for (const Case& c : {Case{"avg", 0}, Case{"0", 0}, Case{"max", 1}, Case{"MAX", -1}, Case{"1", 1},
                        Case{"both", 2}, Case{"2", -1}, Case{"mean", -1}, Case{"true", -1}}) {
    for (const char* name : {"log_window_value", "log_max_value"}) {
      auto r = testing::ParseNullJob(std::string(name) + "=" + c.text);
      if (c.want < 0) {
        ASSERT_FALSE(r.ok()) << name << "=" << c.text;
        EXPECT_NE(r.status().message().find("t.fio:4"), std::string::npos) << r.status().message();
        // The option as written (the alias said "bad log_window_value").
        EXPECT_NE(r.status().message().find("option '" + std::string(name) + "': bad value '"),
                  std::string::npos)
            << r.status().message();
      } else {
        ASSERT_TRUE(r.ok()) << name << "=" << c.text << ": " << r.status().ToString();
        EXPECT_EQ(r->jobs.at(0).log_window_value, c.want) << name << "=" << c.text;
      }
    }
  }
}

// log_unix_epoch / log_alternate_epoch: the options pick the clock (the
// alternate one wins, as fio), and every time column adds that clock's ms at
// StartEpoch().
TEST(IoLogEpoch, OptionsPickTheClock) {
  JobSpec spec;
  spec.iops_log_set = true;
  EXPECT_EQ(IoLogOptions::FromJob(spec).epoch_clock, -1);
  spec.log_unix_epoch = true;
  EXPECT_EQ(IoLogOptions::FromJob(spec).epoch_clock, CLOCK_REALTIME);
  spec.log_alternate_epoch = true;
  spec.log_alternate_epoch_clock_id = CLOCK_MONOTONIC;
  EXPECT_EQ(IoLogOptions::FromJob(spec).epoch_clock, CLOCK_MONOTONIC);
  // fio 3.33 reads the clock id "if either log_unix_epoch or
  // log_alternate_epoch" is set: log_unix_epoch=1 with clock id 1 logs
  // CLOCK_MONOTONIC ms (checked against fio: the time column matched
  // /proc/uptime).
  spec.log_alternate_epoch = false;
  EXPECT_EQ(IoLogOptions::FromJob(spec).epoch_clock, CLOCK_MONOTONIC);
  spec.log_unix_epoch = false;  // the clock id alone changes nothing
  EXPECT_EQ(IoLogOptions::FromJob(spec).epoch_clock, -1);
}

TEST(IoLogEpoch, TimesCountFromTheClocksEpoch) {
  TempDir dir;
  auto writer = NewWriter();
  IoLogOptions o;
  o.iops_prefix = dir / "t";
  o.hist_prefix = dir / "t";
  o.hist_msec = 100;
  o.epoch_clock = CLOCK_MONOTONIC;
  auto log = NewLogger(o, 0, writer.get());
  const uint64_t before = MonotonicNs() / kMs;
  log->StartEpoch();
  const uint64_t after = MonotonicNs() / kMs;
  Io(log, 7 * kMs, Ddir::kRead, 4096, 0, 1000, 1000, 0, 0);
  log->Finish(100 * kMs);
  ASSERT_TRUE(writer->Stop().ok());
  const auto iops = ReadLines(dir / "t_iops.1.log");
  ASSERT_EQ(iops.size(), 1u);
  const auto f = Fields(iops[0]);
  EXPECT_GE(f[0], before + 7);
  EXPECT_LE(f[0], after + 7);
  EXPECT_EQ(iops[0].substr(iops[0].find(',')), ", 1, 0, 4096, 0");
  const auto hist = ReadLines(dir / "t_clat_hist.1.log");
  ASSERT_EQ(hist.size(), 1u);
  const auto h = Fields(hist[0]);
  EXPECT_GE(h[0], before + 100);
  EXPECT_LE(h[0], after + 100);
}

TEST(IoLogEpoch, UnknownClockIsRefusedBeforeAnyFile) {
  TempDir dir;
  auto writer = NewWriter();
  IoLogOptions o;
  o.iops_prefix = dir / "t";
  o.epoch_clock = 77;
  auto l = IoLogger::Create(o, 0, writer.get());
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.status().message(),
            "log_alternate_epoch_clock_id=77: clock_gettime: Invalid argument");
  ASSERT_TRUE(writer->Stop().ok());
  EXPECT_FALSE(std::filesystem::exists(dir / "t_iops.1.log"));
}

// log_avg_msec=1000 and exactly 1000 I/Os per second for 5 s: four bw/iops
// lines of 1000 IOPS, 4000 KiB/s, and five latency lines with the window's
// mean latency. The window that ends with the job (at 5000 ms) gets latency
// lines only: fio's helper thread never samples it, nor does the report.
TEST(IoLogWindowed, FiveSecondsAtThousandIops) {
  TempDir dir;
  auto writer = NewWriter();
  IoLogOptions o = AllLogs(dir / "t", 1000);
  auto log = NewLogger(o, 0, writer.get());
  for (uint64_t i = 0; i < 5000; ++i)
    Io(log, i * kMs, Ddir::kRead, 4096, 100, 1000 + i % 10, 1100 + i % 10, i * 4096, 0);
  log->Finish(5000 * kMs);
  ASSERT_TRUE(writer->Stop().ok());

  const auto iops = ReadLines(dir / "t_iops.1.log");
  ASSERT_EQ(iops.size(), 4u);
  for (size_t k = 0; k < iops.size(); ++k)
    EXPECT_EQ(iops[k], std::to_string((k + 1) * 1000) + ", 1000, 0, 0, 0");
  const auto bw = ReadLines(dir / "t_bw.1.log");
  ASSERT_EQ(bw.size(), 4u);
  EXPECT_EQ(bw[0], "1000, 4000, 0, 0, 0");  // 4096 B * 1000/s = 4000 KiB/s
  const auto clat = ReadLines(dir / "t_clat.1.log");
  ASSERT_EQ(clat.size(), 5u);
  EXPECT_EQ(clat[4], "5000, 1005, 0, 0, 0");  // mean of 1000..1009, 1004.5 rounded as fio
  const auto slat = ReadLines(dir / "t_slat.1.log");
  ASSERT_EQ(slat.size(), 5u);
  EXPECT_EQ(slat[0], "1000, 100, 0, 0, 0");
  EXPECT_EQ(ReadLines(dir / "t_lat.1.log")[2], "3000, 1105, 0, 0, 0");
}

// The worker's checks close the windows (OnComplete, Tick) while the job
// runs; with a runtime, the window that ends at its end gets no bw/iops line
// even when a check sees it closed (the worker's last check comes after the
// end), as the report takes no sample of it: runtime=1 with 500 ms windows
// is one line, as fio 3.33's (iobench wrote 500 and 1000, with samples=1).
TEST(IoLogWindowed, WindowEndingWithTheRuntimeHasNoRateLine) {
  for (const bool tick : {false, true}) {
    TempDir dir;
    auto writer = NewWriter();
    IoLogOptions o = AllLogs(dir / "t", 500);
    o.rate_end_ns = 1000 * kMs;
    auto log = NewLogger(o, 0, writer.get());
    for (uint64_t i = 0; i < 1000; ++i) Io(log, i * kMs, Ddir::kRead, 4096, 100, 1000, 1100, 0, 0);
    if (tick) log->Tick(1000 * kMs + 200000);  // the check that ends the job
    log->Finish(1000 * kMs + 300000);
    ASSERT_TRUE(writer->Stop().ok());
    EXPECT_EQ(ReadLines(dir / "t_iops.1.log"), std::vector<std::string>{"500, 1000, 0, 0, 0"})
        << tick;
    EXPECT_EQ(ReadLines(dir / "t_bw.1.log"), std::vector<std::string>{"500, 4000, 0, 0, 0"})
        << tick;
    // Latency lines for both windows, as fio's.
    const std::vector<std::string> clat = {"500, 1000, 0, 0, 0", "1000, 1000, 0, 0, 0"};
    EXPECT_EQ(ReadLines(dir / "t_clat.1.log"), clat) << tick;
  }
}

// fio logs a bw (iops) entry only when its helper thread takes a report
// sample, every bwavgtime (iopsavgtime): with bwavgtime=1000 above
// log_avg_msec=250 over 2 s its bw log has a line at 1000 (the one at 2000
// ends with the job), not one per 250 ms window; the latency lines keep
// log_avg_msec. Below it (iopsavgtime=100) a line per 100 ms sample, as fio
// (18-19 lines for 2 s). iobench wrote 7 lines at 250..1750 for both.
TEST(IoLogWindowed, RateLinesFollowTheReportsSampleWindows) {
  TempDir dir;
  auto writer = NewWriter();
  IoLogOptions o = AllLogs(dir / "t", 250);
  o.bw_msec = 1000;
  o.iops_msec = 100;
  o.rate_end_ns = 2000 * kMs;
  auto log = NewLogger(o, 0, writer.get());
  for (uint64_t i = 0; i < 2000; ++i) {
    log->Tick(i * kMs);
    Io(log, i * kMs + 1, Ddir::kRead, 4096, 100, 1000, 1100, 0, 0);
  }
  log->Tick(2000 * kMs);
  log->Finish(2000 * kMs + 100000);
  ASSERT_TRUE(writer->Stop().ok());
  EXPECT_EQ(ReadLines(dir / "t_bw.1.log"), std::vector<std::string>{"1000, 4000, 0, 0, 0"});
  const auto iops = ReadLines(dir / "t_iops.1.log");
  ASSERT_EQ(iops.size(), 19u);
  for (size_t k = 0; k < iops.size(); ++k)
    EXPECT_EQ(iops[k], std::to_string((k + 1) * 100) + ", 1000, 0, 0, 0");
  const auto clat = ReadLines(dir / "t_clat.1.log");
  ASSERT_EQ(clat.size(), 8u);  // 250 .. 2000
  EXPECT_EQ(clat[0], "250, 1000, 0, 0, 0");
  EXPECT_EQ(clat[7], "2000, 1000, 0, 0, 0");
}

// fio's add_slat_sample logs a slat when the I/O is issued, with the
// submission's time: per I/O the slat file is in submission order and its
// time column is the submission's; with log_avg_msec the slat goes to the
// window it was issued in. (iobench logged it at the completion, with the
// completion's time and window.)
TEST(IoLogSlat, SlatCarriesTheSubmissionTime) {
  TempDir dir;
  auto writer = NewWriter();
  IoLogOptions per_io = AllLogs(dir / "p", 0);
  per_io.log_offset = true;
  IoLogOptions win = AllLogs(dir / "w", 100);
  auto p = NewLogger(per_io, 0, writer.get());
  auto w = NewLogger(win, 0, writer.get());
  for (IoLogger* l : {p.get(), w.get()}) {
    // Two I/Os issued at 90 ms, completed at 150 and 120 ms.
    l->OnSubmit(90 * kMs, Ddir::kRead, 4096, 500, 8192, 0);
    l->OnSubmit(90 * kMs, Ddir::kWrite, 4096, 700, 4096, 0);
    l->OnComplete(120 * kMs, Ddir::kWrite, 4096, 30 * kMs, 30 * kMs + 700, 4096, 0);
    l->OnComplete(150 * kMs, Ddir::kRead, 4096, 60 * kMs, 60 * kMs + 500, 8192, 0);
    l->Finish(160 * kMs);
  }
  ASSERT_TRUE(writer->Stop().ok());
  const std::vector<std::string> slat = {"90, 500, 0, 4096, 8192, 0", "90, 700, 1, 4096, 4096, 0"};
  EXPECT_EQ(ReadLines(dir / "p_slat.1.log"), slat);
  const std::vector<std::string> clat = {"120, 30000000, 1, 4096, 4096, 0",
                                         "150, 60000000, 0, 4096, 8192, 0"};
  EXPECT_EQ(ReadLines(dir / "p_clat.1.log"), clat);
  // Windowed: the slats in the window [0, 100) they were issued in, the
  // clats in the partial last one (its time: the job's end).
  const std::vector<std::string> wslat = {"100, 500, 0, 0, 0", "100, 700, 1, 0, 0"};
  EXPECT_EQ(ReadLines(dir / "w_slat.1.log"), wslat);
  const std::vector<std::string> wclat = {"160, 60000000, 0, 0, 0", "160, 30000000, 1, 0, 0"};
  EXPECT_EQ(ReadLines(dir / "w_clat.1.log"), wclat);
}

TEST(IoLogWindowed, IdleWindowsHaveNoLine) {
  TempDir dir;
  auto writer = NewWriter();
  IoLogOptions o;
  o.iops_prefix = dir / "t";
  o.lat_prefix = dir / "t";
  o.avg_msec = 1000;
  auto log = NewLogger(o, 0, writer.get());
  for (uint64_t i = 0; i < 500; ++i) Io(log, i * 2 * kMs, Ddir::kWrite, 4096, 0, 50, 60, 0, 0);
  log->Tick(2500 * kMs);  // no I/O for 1.5 s: windows 2 (ends 2000) closes
  log->Finish(3000 * kMs);
  ASSERT_TRUE(writer->Stop().ok());
  // fio 3.33 writes no line for a direction without I/O in a window (not a 0):
  // the idle reads, and the writes once they stop, have none.
  EXPECT_EQ(ReadLines(dir / "t_iops.1.log"), std::vector<std::string>{"1000, 500, 1, 0, 0"});
  EXPECT_EQ(ReadLines(dir / "t_clat.1.log"), std::vector<std::string>{"1000, 50, 1, 0, 0"});
}

// fio 3.33's end of an averaged log (finalize_logs): the slat/clat/lat logs
// get the last, partial window of each direction with I/O in it, however
// short, at the job's end truncated to the ms; the bw/iops logs get no line
// for it (fio's helper thread samples them once per window). fio's repro:
// size=100k bs=4k rate_iops=100 log_avg_msec=100 gives lat lines
// 100/200/240 and bw/iops lines for two windows only. iobench dropped a lat
// tail under half a window and wrote a bw/iops tail over half a window.
TEST(IoLogWindowed, PartialLastWindowHasLatencyLinesOnly) {
  for (const uint64_t end_ns : {240 * kMs + 40000, 261 * kMs + 900000}) {  // 40.04 / 61.9 ms tails
    TempDir dir;
    auto writer = NewWriter();
    IoLogOptions o = AllLogs(dir / "t", 100);
    auto log = NewLogger(o, 0, writer.get());
    // One 4k write every 10 ms up to the end, latencies 1000 + k.
    uint64_t k = 0;
    for (uint64_t t = 0; t < end_ns; t += 10 * kMs, ++k)
      Io(log, t, Ddir::kWrite, 4096, 100 + k, 1000 + k, 1100 + k, 0, 0);
    log->Finish(end_ns);
    ASSERT_TRUE(writer->Stop().ok());
    const std::vector<std::string> rates = {"100, 100, 1, 0, 0", "200, 100, 1, 0, 0"};
    EXPECT_EQ(ReadLines(dir / "t_iops.1.log"), rates) << end_ns;
    EXPECT_EQ(ReadLines(dir / "t_bw.1.log").size(), 2u) << end_ns;
    // The tail: I/Os 20..k-1; the mean of 1000+20 .. 1000+k-1, rounded to
    // the nearest ns as fio rounds it (mean + 0.5, truncated).
    const uint64_t mean = 1000 + (20 + k) / 2;
    const std::vector<std::string> clat = {
        "100, 1005, 1, 0, 0", "200, 1015, 1, 0, 0",
        std::to_string(end_ns / kMs) + ", " + std::to_string(mean) + ", 1, 0, 0"};
    EXPECT_EQ(ReadLines(dir / "t_clat.1.log"), clat) << end_ns;
    EXPECT_EQ(ReadLines(dir / "t_slat.1.log").size(), 3u) << end_ns;
    EXPECT_EQ(ReadLines(dir / "t_lat.1.log").back(),
              std::to_string(end_ns / kMs) + ", " + std::to_string(mean + 100) + ", 1, 0, 0")
        << end_ns;
  }
}

// The tail line is per direction (only those with I/O in the tail, in ddir
// order, as fio's rw=randrw lines "320, .., 0" and "320, .., 1"); it carries
// the job's end even when the last I/O completed earlier (fio: a thinktime
// after the last I/O gives "351" for an I/O at 280 ms), and the max with
// log_max_value. A job ending exactly on a window's end has no tail.
TEST(IoLogWindowed, PartialLastWindowPerDirectionAtJobEnd) {
  TempDir dir;
  auto writer = NewWriter();
  IoLogOptions o;
  o.lat_prefix = dir / "avg";
  o.iops_prefix = dir / "avg";
  o.avg_msec = 100;
  IoLogOptions omax = o;
  omax.lat_prefix = dir / "max";
  omax.iops_prefix = dir / "max";
  omax.window_value = LogWindowValue::kMax;
  IoLogOptions oedge = o;
  oedge.lat_prefix = dir / "edge";
  oedge.iops_prefix = dir / "edge";
  auto avg = NewLogger(o, 0, writer.get());
  auto max = NewLogger(omax, 0, writer.get());
  auto edge = NewLogger(oedge, 0, writer.get());
  for (IoLogger* l : {avg.get(), max.get(), edge.get()}) {
    Io(l, 50 * kMs, Ddir::kRead, 4096, 0, 10, 10, 0, 0);
    Io(l, 60 * kMs, Ddir::kWrite, 4096, 0, 20, 20, 0, 0);
    Io(l, 110 * kMs, Ddir::kWrite, 4096, 0, 30, 30, 0, 0);
    Io(l, 120 * kMs, Ddir::kWrite, 4096, 0, 41, 41, 0, 0);
    Io(l, 130 * kMs, Ddir::kRead, 4096, 0, 50, 50, 0, 0);
    Io(l, 140 * kMs, Ddir::kTrim, 4096, 0, 70, 70, 0, 0);
  }
  avg->Finish(180 * kMs + 999999);  // last I/O at 140 ms, end at 180.999 ms
  max->Finish(180 * kMs + 999999);
  Io(edge, 150 * kMs, Ddir::kRead, 4096, 0, 60, 60, 0, 0);
  edge->Finish(200 * kMs);  // the I/Os after 100 ms are in the full window [100, 200)
  ASSERT_TRUE(writer->Stop().ok());
  const std::vector<std::string> avg_clat = {"100, 10, 0, 0, 0", "100, 20, 1, 0, 0",
                                             "180, 50, 0, 0, 0", "180, 36, 1, 0, 0",
                                             "180, 70, 2, 0, 0"};
  EXPECT_EQ(ReadLines(dir / "avg_clat.1.log"), avg_clat);
  const std::vector<std::string> max_clat = {"100, 10, 0, 0, 0", "100, 20, 1, 0, 0",
                                             "180, 50, 0, 0, 0", "180, 41, 1, 0, 0",
                                             "180, 70, 2, 0, 0"};
  EXPECT_EQ(ReadLines(dir / "max_clat.1.log"), max_clat);
  EXPECT_EQ(ReadLines(dir / "avg_iops.1.log").size(), 2u);  // the full window's only
  const std::vector<std::string> edge_clat = {"100, 10, 0, 0, 0", "100, 20, 1, 0, 0",
                                              "200, 55, 0, 0, 0", "200, 36, 1, 0, 0",
                                              "200, 70, 2, 0, 0"};
  EXPECT_EQ(ReadLines(dir / "edge_clat.1.log"), edge_clat);
  // The window ending with the job gets latency lines only (no bw/iops).
  EXPECT_EQ(ReadLines(dir / "edge_iops.1.log").size(), 2u);
}

TEST(IoLogWindowed, MaxAndBothWindowValues) {
  TempDir dir;
  auto writer = NewWriter();
  IoLogOptions omax;
  omax.lat_prefix = dir / "max";
  omax.avg_msec = 1000;
  omax.window_value = LogWindowValue::kMax;
  IoLogOptions oboth = omax;
  oboth.lat_prefix = dir / "both";
  oboth.iops_prefix = dir / "both";
  oboth.window_value = LogWindowValue::kBoth;
  oboth.log_offset = true;
  auto lmax = NewLogger(omax, 0, writer.get());
  auto lboth = NewLogger(oboth, 0, writer.get());
  for (uint64_t v : {10, 30, 20}) {
    Io(lmax, v * kMs, Ddir::kRead, 4096, 0, v, v, 0, 0);
    Io(lboth, v * kMs, Ddir::kRead, 4096, 0, v, v, 0, 0);
  }
  // A check at the window's end closes it (Finish alone gives no iops line).
  lmax->Tick(1000 * kMs);
  lboth->Tick(1000 * kMs);
  lmax->Finish(1000 * kMs);
  lboth->Finish(1000 * kMs);
  ASSERT_TRUE(writer->Stop().ok());
  EXPECT_EQ(ReadLines(dir / "max_clat.1.log"), std::vector<std::string>{"1000, 30, 0, 0, 0"});
  // time, avg, max, ddir, bs, offset, prio
  EXPECT_EQ(ReadLines(dir / "both_clat.1.log"),
            std::vector<std::string>{"1000, 20, 30, 0, 0, 0, 0"});
  EXPECT_EQ(ReadLines(dir / "both_iops.1.log"), std::vector<std::string>{"1000, 3, 3, 0, 0, 0, 0"});
}

// log_avg_msec=0: one line per I/O with bs, optional offset and priority.
TEST(IoLogPerIo, OneLinePerCompletion) {
  TempDir dir;
  auto writer = NewWriter();
  IoLogOptions o = AllLogs(dir / "t", 0);
  o.log_slat = false;  // a sync engine: fio leaves the slat file empty
  auto log = NewLogger(o, 1, writer.get());
  constexpr uint64_t kN = 123457;  // several chunks' worth
  for (uint64_t i = 0; i < kN; ++i) {
    const Ddir d = i % 3 == 0 ? Ddir::kWrite : Ddir::kRead;
    Io(log, i * 10000, d, 8192, 0, 2000 + i % 7, 2500 + i % 7, i * 8192, 0);
  }
  log->Finish(kN * 10000);
  EXPECT_EQ(log->lines(), 4 * kN);
  ASSERT_TRUE(writer->Stop().ok());
  ASSERT_TRUE(std::filesystem::exists(dir / "t_slat.2.log"));
  EXPECT_EQ(std::filesystem::file_size(dir / "t_slat.2.log"), 0u);
  const auto clat = ReadLines(dir / "t_clat.2.log");
  ASSERT_EQ(clat.size(), kN);
  for (uint64_t i = 0; i < kN; i += 9973) {
    const auto f = Fields(clat[i]);
    ASSERT_EQ(f.size(), 5u) << clat[i];
    EXPECT_EQ(f[0], i * 10000 / kMs);
    EXPECT_EQ(f[1], 2000 + i % 7);
    EXPECT_EQ(f[2], i % 3 == 0 ? 1u : 0u);
    EXPECT_EQ(f[3], 8192u);
    EXPECT_EQ(f[4], 0u);
  }
  EXPECT_EQ(ReadLines(dir / "t_lat.2.log").size(), kN);
  const auto iops = ReadLines(dir / "t_iops.2.log");
  ASSERT_EQ(iops.size(), kN);
  EXPECT_EQ(iops[1], "0, 1, 0, 8192, 0");
  // bw per I/O: bytes over clat, fio's scaling (8192e6 / 2001 ns).
  EXPECT_EQ(ReadLines(dir / "t_bw.2.log")[1], "0, 4093953, 0, 8192, 0");
}

// fio 3.33 creates no file for a latency the job disables (disable_clat,
// disable_lat, gtod_reduce) and writes no hist lines without clat; a latency
// only the engine does not measure (slat of psync) keeps its empty file.
TEST(IoLogPerIo, DisabledLatenciesHaveNoFileAndNoHistLines) {
  TempDir dir;
  auto writer = NewWriter();
  JobSpec spec;
  spec.name = "d";
  spec.write_lat_log = dir / "d";
  spec.write_hist_log = dir / "d";
  spec.log_hist_msec = 10;
  spec.disable_clat = true;
  spec.disable_lat = true;
  auto log = NewLogger(IoLogOptions::FromJob(spec), 0, writer.get());
  for (uint64_t i = 0; i < 50; ++i) Io(log, i * kMs, Ddir::kRead, 4096, 700, 0, 0, 0, 0);
  log->Finish(50 * kMs);
  ASSERT_TRUE(writer->Stop().ok());
  EXPECT_FALSE(std::filesystem::exists(dir / "d_clat.1.log"));
  EXPECT_FALSE(std::filesystem::exists(dir / "d_lat.1.log"));
  EXPECT_EQ(ReadLines(dir / "d_slat.1.log").size(), 50u);
  ASSERT_TRUE(std::filesystem::exists(dir / "d_clat_hist.1.log"));
  EXPECT_EQ(std::filesystem::file_size(dir / "d_clat_hist.1.log"), 0u);

  TempDir dir2;
  auto writer2 = NewWriter();
  spec = JobSpec();
  spec.name = "g";
  spec.write_lat_log = dir2 / "g";
  spec.gtod_reduce = true;  // what the gtod_reduce setter implies
  spec.disable_slat = spec.disable_clat = spec.disable_lat = spec.disable_bw = true;
  auto log2 = NewLogger(IoLogOptions::FromJob(spec), 0, writer2.get());
  log2->Finish(kMs);
  ASSERT_TRUE(writer2->Stop().ok());
  EXPECT_TRUE(std::filesystem::is_empty(dir2.path()));
}

// fio 3.33: disable_bw_measurement leaves the per-I/O bw log empty (the iops
// log is written); gtod_reduce leaves both empty. Window lines stay.
TEST(IoLogPerIo, DisableBwAndGtodReduceEmptyThePerIoBwIopsLogs) {
  for (const bool reduce : {false, true}) {
    for (const uint64_t avg : {uint64_t{0}, uint64_t{100}}) {
      SCOPED_TRACE(std::string(reduce ? "gtod_reduce" : "disable_bw") +
                   " avg=" + std::to_string(avg));
      TempDir dir;
      auto writer = NewWriter();
      JobSpec spec;
      spec.name = "b";
      spec.write_bw_log = dir / "b";
      spec.write_iops_log = dir / "b";
      spec.log_avg_msec = avg;
      spec.disable_bw = true;
      if (reduce)
        spec.gtod_reduce = spec.disable_slat = spec.disable_clat = spec.disable_lat = true;
      auto log = NewLogger(IoLogOptions::FromJob(spec), 0, writer.get());
      for (uint64_t i = 0; i < 20; ++i)
        Io(log, i * 10 * kMs, Ddir::kRead, 4096, 0, 1000, 1000, 0, 0);
      log->Finish(200 * kMs);
      ASSERT_TRUE(writer->Stop().ok());
      const size_t windows = 1;  // 100 ms (the window ending with the job has none)
      EXPECT_EQ(ReadLines(dir / "b_bw.1.log").size(), avg != 0 ? windows : 0u);
      EXPECT_EQ(ReadLines(dir / "b_iops.1.log").size(), avg != 0 ? windows : reduce ? 0u : 20u);
    }
  }
}

TEST(IoLogPerIo, OffsetAndPriorityColumns) {
  TempDir dir;
  auto writer = NewWriter();
  IoLogOptions o;
  o.lat_prefix = dir / "p";
  o.log_offset = true;
  o.log_prio = true;
  IoLogOptions plain = o;
  plain.lat_prefix = dir / "q";
  plain.log_prio = false;
  auto lp = NewLogger(o, 0, writer.get());
  auto lq = NewLogger(plain, 0, writer.get());
  const uint16_t rt_level4 = (1u << 13) | 4;  // IOPRIO_CLASS_RT, level 4
  Io(lp, 7 * kMs, Ddir::kWrite, 4096, 300, 1500, 1800, 8192, rt_level4);
  Io(lq, 7 * kMs, Ddir::kWrite, 4096, 300, 1500, 1800, 8192, rt_level4);
  Io(lq, 8 * kMs, Ddir::kTrim, 4096, 300, 1500, 1800, 0, (2u << 13) | 1);
  lp->Finish(9 * kMs);
  lq->Finish(9 * kMs);
  ASSERT_TRUE(writer->Stop().ok());
  EXPECT_EQ(ReadAll(dir / "p_clat.1.log"), "7, 1500, 1, 4096, 8192, 0x2004\n");
  EXPECT_EQ(ReadAll(dir / "p_slat.1.log"), "7, 300, 1, 4096, 8192, 0x2004\n");
  // Without log_prio the column says 1 for the RT class, else 0.
  EXPECT_EQ(ReadAll(dir / "q_lat.1.log"), "7, 1800, 1, 4096, 8192, 1\n8, 1800, 2, 4096, 0, 0\n");
}

TEST(IoLogPerIo, PerJobLogsOffSharesOneFile) {
  TempDir dir;
  auto writer = NewWriter();
  IoLogOptions o;
  o.iops_prefix = dir / "t";
  o.per_job_logs = false;
  auto a = NewLogger(o, 0, writer.get());
  auto b = NewLogger(o, 1, writer.get());
  for (uint64_t i = 0; i < 30000; ++i) {
    Io(a, i * 1000, Ddir::kRead, 4096, 0, 1, 1, 0, 0);
    if (i % 2) Io(b, i * 1000, Ddir::kWrite, 4096, 0, 1, 1, 0, 0);
  }
  a->Finish(30 * kMs);
  b->Finish(30 * kMs);
  ASSERT_TRUE(writer->Stop().ok());
  EXPECT_FALSE(std::filesystem::exists(dir / "t_iops.1.log"));
  const auto lines = ReadLines(dir / "t_iops.log");
  ASSERT_EQ(lines.size(), 45000u);
  size_t reads = 0, writes = 0;
  for (const auto& l : lines) {  // chunks interleave only at line boundaries
    if (l == "" + std::to_string(Fields(l)[0]) + ", 1, 0, 4096, 0") ++reads;
    if (l == "" + std::to_string(Fields(l)[0]) + ", 1, 1, 4096, 0") ++writes;
  }
  EXPECT_EQ(reads, 30000u);
  EXPECT_EQ(writes, 15000u);
}

// Hist log: every log_hist_msec one line per direction with that interval's
// clat bucket counts; all counts together equal the number of I/Os.
void CheckHist(unsigned coarseness) {
  TempDir dir;
  auto writer = NewWriter();
  IoLogOptions o;
  o.hist_prefix = dir / "h";
  o.hist_msec = 100;
  o.hist_coarseness = coarseness;
  auto log = NewLogger(o, 0, writer.get());
  constexpr uint64_t kN = 10007;
  uint64_t lcg = 12345;
  for (uint64_t i = 0; i < kN; ++i) {
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    const uint64_t clat = (lcg >> 33) % 5000000;  // up to 5 ms
    Io(log, i * 100000, i % 2 ? Ddir::kWrite : Ddir::kRead, 4096, 0, clat, clat, 0, 0);
  }
  log->Finish(kN * 100000);  // 1000.7 ms: a partial last interval
  ASSERT_TRUE(writer->Stop().ok());
  const auto lines = ReadLines(dir / "h_clat_hist.1.log");
  ASSERT_EQ(lines.size(), 2u * 11);  // 10 full intervals + the partial one
  uint64_t total = 0;
  for (size_t k = 0; k < lines.size(); ++k) {
    const auto f = Fields(lines[k]);
    ASSERT_EQ(f.size(), 3u + (Histogram::kNr >> coarseness)) << k;
    EXPECT_EQ(f[0], k < 20 ? (k / 2 + 1) * 100 : 1001u);  // the end, rounded up
    EXPECT_EQ(f[1], k % 2);
    EXPECT_EQ(f[2], 4096u);
    for (size_t j = 3; j < f.size(); ++j) total += f[j];
  }
  EXPECT_EQ(total, kN);
}

TEST(IoLogHist, BucketSumsEqualIoCount) { CheckHist(0); }
TEST(IoLogHist, CoarsenessMergesAdjacentBuckets) {
  CheckHist(3);
  CheckHist(6);
}

TEST(IoLogHist, ValueLandsInItsBucket) {
  TempDir dir;
  auto writer = NewWriter();
  IoLogOptions o;
  o.hist_prefix = dir / "h";
  o.hist_msec = 1000;
  o.hist_coarseness = 1;
  auto log = NewLogger(o, 0, writer.get());
  Io(log, 1 * kMs, Ddir::kRead, 4096, 0, 100000, 100000, 0, 0);
  log->Finish(2000 * kMs);
  ASSERT_TRUE(writer->Stop().ok());
  const auto lines = ReadLines(dir / "h_clat_hist.1.log");
  ASSERT_EQ(lines.size(), 1u);
  const auto f = Fields(lines[0]);
  const unsigned want = Histogram::ValueToIndex(100000) >> 1;
  for (unsigned b = 0; b + 3 < f.size(); ++b) EXPECT_EQ(f[b + 3], b == want ? 1u : 0u) << b;
}

TEST(LogWriterTest, SmallMemoryCapAppliesBackpressureWithoutLoss) {
  TempDir dir;
  auto writer = NewWriter(0);  // the floor: 2 chunks per stream + 2
  IoLogOptions o;
  o.iops_prefix = dir / "t";
  auto log = NewLogger(o, 0, writer.get());
  constexpr uint64_t kN = 200000;
  for (uint64_t i = 0; i < kN; ++i) Io(log, i, Ddir::kRead, 4096, 0, 1, 1, 0, 0);
  log->Finish(kN);
  ASSERT_TRUE(writer->Stop().ok());
  const LogWriter::Stats st = writer->GetStats();
  EXPECT_LE(st.chunks_allocated, 4u);
  EXPECT_EQ(st.bytes_written, std::filesystem::file_size(dir / "t_iops.1.log"));
  EXPECT_EQ(ReadLines(dir / "t_iops.1.log").size(), kN);
}

// A log file whose reader does not read (a FIFO): the worker must wait for
// the writer (backpressure, counted), and no line is lost once it drains.
TEST(LogWriterTest, SlowDiskStallsTheWorkerAndLosesNothing) {
  TempDir dir;
  const std::string fifo = dir / "t_iops.1.log";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto writer = NewWriter(0);
  LogWriter* w = writer.get();
  std::string got;
  // The reader is there first: a log FIFO with no reader is refused.
  const int fd = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK), 0);
  std::thread reader([&] {
    while (w->GetStats().stalls == 0) std::this_thread::yield();  // until the worker waits
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof(buf))) > 0) got.append(buf, static_cast<size_t>(n));
    close(fd);
  });
  IoLogOptions o;
  o.iops_prefix = dir / "t";
  auto log = NewLogger(o, 0, w);
  constexpr uint64_t kN = 200000;  // ~3.5 MB: more than the pool and the pipe hold
  for (uint64_t i = 0; i < kN; ++i) Io(log, i, Ddir::kRead, 4096, 0, 1, 1, 0, 0);
  log->Finish(kN);
  ASSERT_TRUE(w->Stop().ok());
  reader.join();
  EXPECT_GE(w->GetStats().stalls, 1u);
  EXPECT_EQ(static_cast<uint64_t>(std::count(got.begin(), got.end(), '\n')), kN);
}

// A FIFO with no reader: the open blocked for good under the writer's lock
// (a first Ctrl-C did not end it); it is refused at once.
TEST(LogWriterTest, FifoWithoutReaderIsRefused) {
  TempDir dir;
  const std::string fifo = dir / "t_bw.1.log";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto writer = NewWriter();
  auto r = writer->Open(fifo);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "open log file " + fifo +
                                      ": it is a FIFO that no reader opened within 5 s (start "
                                      "the reader first)");
}

TEST(LogWriterTest, OpenFailureNamesTheFile) {
  auto writer = NewWriter();
  auto r = writer->Open("/nonexistent-dir/x_bw.1.log");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "open log file /nonexistent-dir/x_bw.1.log: No such file or directory");
}

TEST(LogWriterTest, WriteErrorIsReportedAtStop) {
  if (access("/dev/full", W_OK) != 0) GTEST_SKIP() << "/dev/full is not writable here";
  auto writer = NewWriter();
  auto id = writer->Open("/dev/full");
  ASSERT_TRUE(id.ok());
  LogChunk* c = writer->Acquire();
  c->file = *id;
  c->len = 3;
  std::memcpy(c->data, "x\n\n", 3);
  writer->Submit(c);
  const Status st = writer->Stop();
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "write /dev/full: No space left on device");
}

TEST(AggregateBwLogTest, WritesFioAggFiles) {
  TempDir dir;
  auto writer = NewWriter();
  auto agg = AggregateBwLog::Create(writer.get(), dir.path(), 500);
  ASSERT_TRUE(agg.ok()) << agg.status().ToString();
  uint64_t bytes[kNumDdirs] = {0, 0, 0};
  for (uint64_t t = 100; t <= 2000; t += 100) {
    bytes[0] += 102400;  // 1000 KiB/s of reads
    (*agg)->Sample(t * kMs, bytes);
  }
  (*agg)->Finish(2000 * kMs, bytes);
  ASSERT_TRUE(writer->Stop().ok());
  const std::vector<std::string> want = {"500, 1000, 0, 0, 0", "1000, 1000, 0, 0, 0",
                                         "1500, 1000, 0, 0, 0", "2000, 1000, 0, 0, 0"};
  EXPECT_EQ(ReadLines(dir / "agg-read_bw.log"), want);
  EXPECT_EQ(ReadLines(dir / "agg-write_bw.log")[0], "500, 0, 1, 0, 0");
  EXPECT_EQ(ReadLines(dir / "agg-trim_bw.log").size(), 4u);
}

// ------------------------------------------------ fio's own tools read ours

bool HaveExecutable(const std::string& path) { return access(path.c_str(), X_OK) == 0; }

int RunShell(const std::string& cmd) {
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// A 10-second, two-clone randrw run at 1000 IOPS per direction, windowed.
void WriteSampleLogs(const TempDir& dir, const std::string& prefix, uint64_t avg_msec) {
  auto writer = NewWriter();
  IoLogOptions o;
  o.bw_prefix = dir / prefix;
  o.iops_prefix = dir / prefix;
  o.lat_prefix = dir / prefix;
  o.hist_prefix = dir / prefix;
  o.avg_msec = avg_msec;
  o.hist_msec = 1000;
  for (int job = 0; job < 2; ++job) {
    auto log = NewLogger(o, job, writer.get());
    for (uint64_t i = 0; i < 20000; ++i) {
      const uint64_t clat = 20000 + (i * 7919) % 50000;
      Io(log, i * kMs / 2, i % 2 ? Ddir::kWrite : Ddir::kRead, 4096, 1000, clat, clat + 1000,
         (i * 4096) % (1 << 30), 0);
    }
    log->Finish(10000 * kMs);
  }
  ASSERT_TRUE(writer->Stop().ok());
}

TEST(IoLogFioTools, Fio2gnuplotReadsBwAndIopsLogs) {
  if (!HaveExecutable("/usr/bin/fio2gnuplot")) GTEST_SKIP() << "fio2gnuplot not installed (fio)";
  if (!HaveExecutable("/usr/bin/gnuplot")) GTEST_SKIP() << "gnuplot not installed";
  TempDir dir;
  WriteSampleLogs(dir, "job", 500);
  ASSERT_EQ(
      RunShell("cd " + dir.path() + " && mkdir out && fio2gnuplot -b -g -d out > out.txt 2>&1"), 0)
      << ReadAll(dir / "out.txt");
  ASSERT_EQ(RunShell("cd " + dir.path() + " && fio2gnuplot -i -g -d out >> out.txt 2>&1"), 0)
      << ReadAll(dir / "out.txt");
  size_t pngs = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir / "out")) {
    const std::string ext = e.path().extension();
    if (ext == ".png" && e.file_size() > 0) ++pngs;
  }
  EXPECT_GT(pngs, 0u) << ReadAll(dir / "out.txt");
}

TEST(IoLogFioTools, FioGeneratePlotsMakesItsImages) {
  if (!HaveExecutable("/usr/bin/fio_generate_plots"))
    GTEST_SKIP() << "fio_generate_plots not installed (fio)";
  if (!HaveExecutable("/usr/bin/gnuplot"))
    GTEST_SKIP() << "gnuplot not installed (apt-get install gnuplot-nox)";
  TempDir dir;
  WriteSampleLogs(dir, "job", 500);
  ASSERT_EQ(RunShell("cd " + dir.path() + " && fio_generate_plots run > out.txt 2>&1"), 0)
      << ReadAll(dir / "out.txt");
  for (const char* kind : {"bw", "iops", "lat", "clat", "slat"}) {
    const std::string svg = dir / (std::string("run-") + kind + ".svg");
    ASSERT_TRUE(std::filesystem::exists(svg)) << svg << "\n" << ReadAll(dir / "out.txt");
    EXPECT_NE(ReadAll(svg).find("<svg"), std::string::npos) << svg;
  }
}

// fio ships two hist log parsers as docs: fiologparser_hist.py (needs pandas
// and numpy) and fio-histo-log-pctiles.py (plain python3).
TEST(IoLogFioTools, HistoLogPctilesParsesHistLogs) {
  const std::string gz = "/usr/share/doc/fio/fio-histo-log-pctiles.py.gz";
  if (access(gz.c_str(), R_OK) != 0) GTEST_SKIP() << gz << " not installed (fio)";
  if (RunShell("command -v python3 > /dev/null 2>&1") != 0) GTEST_SKIP() << "python3 not found";
  TempDir dir;
  WriteSampleLogs(dir, "job", 0);
  ASSERT_EQ(RunShell("zcat " + gz + " > " + (dir / "pctiles.py")), 0);
  ASSERT_EQ(RunShell("cd " + dir.path() +
                     " && python3 pctiles.py --log-hist-msec 1000 --time-quantum 1 "
                     "job_clat_hist.1.log job_clat_hist.2.log > out.txt 2>&1"),
            0)
      << ReadAll(dir / "out.txt");
  // It prints "msec, samples, min, median, ..." per time quantum; the samples
  // of all quanta are the I/Os of both logs (2 x 20000), and the median sits
  // in the middle of the 20..70 us clat range written.
  uint64_t samples = 0;
  size_t rows = 0;
  for (const auto& line : ReadLines(dir / "out.txt")) {
    unsigned long long ms = 0, n = 0;
    double min = 0, median = 0;
    if (std::sscanf(line.c_str(), " %llu, %llu, %lf, %lf", &ms, &n, &min, &median) != 4) continue;
    ++rows;
    samples += n;
    EXPECT_NEAR(median, 45.0, 1.0) << line;
  }
  EXPECT_EQ(rows, 10u) << ReadAll(dir / "out.txt");
  EXPECT_EQ(samples, 40000u) << ReadAll(dir / "out.txt");
}

TEST(IoLogFioTools, FiologparserHistParsesHistLogs) {
  const std::string gz = "/usr/share/doc/fio/fiologparser_hist.py.gz";
  if (access(gz.c_str(), R_OK) != 0) GTEST_SKIP() << gz << " not installed (fio)";
  if (RunShell("python3 -c 'import pandas, numpy' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "fiologparser_hist.py needs python3 pandas and numpy, not installed";
  TempDir dir;
  WriteSampleLogs(dir, "job", 0);
  ASSERT_EQ(RunShell("zcat " + gz + " > " + (dir / "parser.py")), 0);
  ASSERT_EQ(
      RunShell("cd " + dir.path() +
               " && python3 parser.py job_clat_hist.1.log job_clat_hist.2.log > out.txt 2>&1"),
      0)
      << ReadAll(dir / "out.txt");
  EXPECT_GT(ReadLines(dir / "out.txt").size(), 2u);
}

}  // namespace
}  // namespace iobench
