// ctest-labels: threads
// write_iolog / read_iolog (run/replay.h): parsing fio iolog v2/v3 with the
// replay_* options, the errors for bad logs, reshaping a replay job, and
// whole runs (null engine, real files on tmpfs) that record and replay.
#include "run/replay.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "fake_engine.h"
#include "jobfile/parser.h"
#include "run/coordinator.h"
#include "sys/job_paths.h"
#include "temp_dir.h"
#include "test_util.h"

namespace iobench {
namespace {

using testing::ParseOk;
using testing::ReadAll;
using testing::TempDir;
using testing::TestJob;

std::vector<ReplayEntry> ReadEntries(const std::string& path, const ReplayOptions& o = {}) {
  std::vector<ReplayEntry> out;
  auto r = IologReader::Open(path, o);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return out;
  ReplayEntry e;
  for (;;) {
    auto more = (*r)->Next(&e);
    EXPECT_TRUE(more.ok()) << more.status().ToString();
    if (!more.ok() || !*more) break;
    out.push_back(e);
  }
  return out;
}

// The error of the first failing step: opening or reading the log.
std::string ErrorOf(const std::string& path, const ReplayOptions& o = {}) {
  auto r = IologReader::Open(path, o);
  if (!r.ok()) return r.status().message();
  ReplayEntry e;
  for (;;) {
    auto more = (*r)->Next(&e);
    if (!more.ok()) return more.status().message();
    if (!*more) return "";
  }
}

const char kV3[] =
    "fio version 3 iolog\n"
    "14 /x/f add\n"
    "102 /x/f open\n"
    "105 /x/f read 0 4096\n"
    "1105 /x/f write 8192 8192\n"
    "1200 /x/f trim 4096 512\n"
    "1300 /x/f sync 4096 0\n"
    "1400 /x/f datasync 0 0\n"
    "1500 /x/f close\n";

TEST(ReplayReaderTest, Version3EntriesAndDelays) {
  TempDir d("/dev/shm");
  const std::string p = d.Write("v3.log", kV3);
  auto r = IologReader::Open(p, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->version(), 3);
  std::vector<ReplayEntry> e = ReadEntries(p);
  ASSERT_EQ(e.size(), 6u);
  EXPECT_EQ(e[0].op, IoOp::kRead);
  EXPECT_EQ(e[0].offset, 0u);
  EXPECT_EQ(e[0].length, 4096u);
  EXPECT_EQ(e[0].line, 4u);
  // The first line (14) is the origin; the open's time folds into the I/O.
  EXPECT_EQ(e[0].delay_ns, 91000u);
  EXPECT_EQ(e[1].op, IoOp::kWrite);
  EXPECT_EQ(e[1].offset, 8192u);
  EXPECT_EQ(e[1].length, 8192u);
  EXPECT_EQ(e[1].delay_ns, 1000000u);
  EXPECT_EQ(e[2].op, IoOp::kTrim);
  EXPECT_EQ(e[2].delay_ns, 95000u);
  EXPECT_EQ(e[3].op, IoOp::kFsync);
  EXPECT_EQ(e[3].length, 0u);
  EXPECT_EQ(e[4].op, IoOp::kFdatasync);
  // The close 100 us after the datasync: a wait before the log ends.
  EXPECT_TRUE(e[5].wait_only);
  EXPECT_EQ(e[5].delay_ns, 100000u);
  for (const auto& x : e) EXPECT_EQ(x.file, 0u);
  for (size_t i = 0; i < 5; ++i) EXPECT_FALSE(e[i].wait_only);
}

TEST(ReplayReaderTest, OptionsScaleAlignSkipNoStallTimeScale) {
  TempDir d("/dev/shm");
  const std::string p = d.Write("v3.log", kV3);
  ReplayOptions o;
  o.scale = 2;
  o.align = 4096;
  o.skip = (1u << static_cast<int>(Ddir::kTrim)) | ReplayOptions::kSkipSync;
  o.time_scale = 200;  // twice as fast: half the delays
  std::vector<ReplayEntry> e = ReadEntries(p, o);
  ASSERT_EQ(e.size(), 4u);  // trim and sync skipped; datasync is not a replay_skip class
  EXPECT_EQ(e[0].delay_ns, 45500u);
  EXPECT_EQ(e[1].offset, 4096u);  // 8192 / 2, aligned down to 4096
  EXPECT_EQ(e[1].delay_ns, 500000u);
  EXPECT_EQ(e[2].op, IoOp::kFdatasync);
  EXPECT_TRUE(e[3].wait_only);  // the close's 100 us, halved
  EXPECT_EQ(e[3].delay_ns, 50000u);
  o = ReplayOptions{};
  o.scale = 3;
  o.align = 512;
  o.no_stall = true;
  e = ReadEntries(p, o);
  ASSERT_EQ(e.size(), 5u);        // replay_no_stall: no waits, the close's neither
  EXPECT_EQ(e[1].offset, 2560u);  // 8192 / 3 = 2730, aligned down to 512
  for (const auto& x : e) EXPECT_EQ(x.delay_ns, 0u);
  for (const auto& x : e) EXPECT_FALSE(x.wait_only);
}

// The time a log holds after its last I/O (the close stamped later, a v2
// wait at the end) is one wait_only entry, which fio waits out before the
// job ends; a log whose last line is its last I/O has none.
TEST(ReplayReaderTest, TrailingTimeIsAWaitBeforeTheEnd) {
  TempDir d("/dev/shm");
  // "entries/wait_ns": how many entries, and the last one's wait (0: none).
  auto tail = [&](const char* name, const std::string& text) {
    const std::vector<ReplayEntry> e = ReadEntries(d.Write(name, text));
    if (e.empty()) return std::string("none");
    return std::to_string(e.size()) + "/" +
           std::to_string(e.back().wait_only ? e.back().delay_ns : 0);
  };
  const std::string v3 =
      "fio version 3 iolog\n0 /f add\n0 /f open\n10 /f write 0 4096\n20 /f write 4096 4096\n"
      "800020 /f close\n";
  EXPECT_EQ(tail("v3.log", v3), "3/800000000");
  EXPECT_EQ(tail("v2.log",
                 "fio version 2 iolog\n/f add\n/f open\n/f read 0 4096\n/f wait 300000 0\n"
                 "/f close\n"),
            "2/300000000");
  EXPECT_EQ(tail("none.log",
                 "fio version 3 iolog\n0 /f add\n0 /f open\n10 /f write 0 4096\n10 /f close\n"),
            "1/0");
  // The scan counts I/O only.
  auto s = ScanIolog(d.path() + "/v3.log", {});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->ios[1], 2u);
  EXPECT_EQ(s->syncs, 0u);
}

TEST(ReplayReaderTest, Version2WaitsAndFiles) {
  TempDir d("/dev/shm");
  const std::string p = d.Write("v2.log",
                                "fio version 2 iolog\n"
                                "/a add\n"
                                "/b add\n"
                                "/a open\n"
                                "/b open\n"
                                "/a wait 50 0\n"  // below 100 us: dropped
                                "/b write 512 512\n"
                                "/a wait 2000 0\n"
                                "\n"
                                "/a read 0 1024\n"
                                "/b close\n"
                                "/a close\n");
  auto r = IologReader::Open(p, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->version(), 2);
  std::vector<ReplayEntry> e = ReadEntries(p);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].file, 1u);
  EXPECT_EQ(e[0].delay_ns, 0u);
  EXPECT_EQ(e[1].file, 0u);
  EXPECT_EQ(e[1].delay_ns, 2000000u);
  EXPECT_EQ(e[1].line, 10u);
  // replay_redirect: both files go to the one target.
  ReplayOptions o;
  o.redirect = "/dev/shm/other";
  auto rr = IologReader::Open(p, o);
  ASSERT_TRUE(rr.ok());
  e = ReadEntries(p, o);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].file, 0u);
  EXPECT_EQ(e[1].file, 0u);
  EXPECT_EQ((*rr)->files(), std::vector<std::string>{"/dev/shm/other"});
}

// write_iolog appends: a log can hold one run after another, each with its
// own header and a clock from 0 (a rerun, numjobs clones sharing the file).
// fio replays them all; so does iobench. A header with trailing blanks is
// a header (fio compares the header text only).
TEST(ReplayReaderTest, AppendedRunsAndHeaderBlanks) {
  TempDir d("/dev/shm");
  const std::string p = d.Write("twice.log",
                                "fio version 3 iolog \r\n"
                                "10 /f add\n"
                                "20 /f open\n"
                                "30 /f read 0 4096\n"
                                "40 /f close\n"
                                "fio version 3 iolog\t\n"
                                "5 /f add\n"
                                "7 /f open\n"
                                "9 /f write 4096 4096\n"
                                "fio version 2 iolog\n"
                                "/f wait 1000 0\n"
                                "/f read 8192 512\n");
  std::vector<ReplayEntry> e = ReadEntries(p);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].op, IoOp::kRead);
  EXPECT_EQ(e[0].delay_ns, 20000u);
  EXPECT_EQ(e[1].op, IoOp::kWrite);
  EXPECT_EQ(e[1].line, 9u);
  EXPECT_EQ(e[1].file, 0u);
  EXPECT_EQ(e[1].delay_ns, 14000u);  // the rest of run 1 (10 us), then 4 us into run 2
  EXPECT_EQ(e[2].offset, 8192u);
  EXPECT_EQ(e[2].delay_ns, 1000000u);
  auto s = ScanIolog(p, {});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->files, std::vector<std::string>{"/f"});
  // A time stamp before the previous line's: no wait, and the next waits
  // count from it (interleaved blocks of numjobs clones sharing the log).
  // This used to refuse the log, so iobench could not replay its own
  // numjobs=2 log once the clones' lines interleaved.
  const std::string back = d.Write("back.log",
                                   "fio version 3 iolog\n1 /f add\n2 /f open\n"
                                   "500 /f read 0 4096\n"
                                   "300 /f read 4096 4096\n"
                                   "350 /f read 8192 4096\n");
  e = ReadEntries(back);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].delay_ns, 499000u);
  EXPECT_EQ(e[1].delay_ns, 0u);
  EXPECT_EQ(e[2].delay_ns, 50000u);
  // The first stamp is the origin, as in fio: a log with absolute times (or
  // cut from a longer one) starts at once. iobench used to wait the first
  // stamp itself: here 1.7e15 us, for ever.
  const std::string epoch = d.Write("epoch.log",
                                    "fio version 3 iolog\n1700000000000000 /f add\n"
                                    "1700000000000000 /f open\n"
                                    "1700000000000100 /f read 0 4096\n");
  e = ReadEntries(epoch);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].delay_ns, 100000u);
  // Opens and closes are counted: one clone's close leaves the file open
  // for the other's I/O after it. One close too many is still an error.
  const std::string shared = d.Write("shared.log",
                                     "fio version 3 iolog\n1 /f add\n2 /f open\n"
                                     "fio version 3 iolog\n1 /f add\n2 /f open\n"
                                     "3 /f read 0 4096\n4 /f close\n"
                                     "5 /f read 4096 4096\n6 /f close\n7 /f close\n");
  EXPECT_EQ(
      ErrorOf(shared),
      "read_iolog " + shared + ":11: 'close' of file '/f', which is not open (closed at line 10)");
  // Only a whole header line restarts: anything else is still an error.
  const std::string q =
      d.Write("bad.log", "fio version 3 iolog\n1 /f add\n2 /f open\nfio version 3 iolog x\n");
  EXPECT_EQ(ErrorOf(q), "read_iolog " + q + ":4: timestamp 'fio' is not a number");
}

// fio's delay_since_ttime takes a previous stamp of 0 for none: a line after
// one stamped 0 does not wait. Measured with fio 3.33 (JSON job_runtime):
// "0 add, 0 open, 300000 read" 0 ms (iobench waited 300 ms); "5 add, 5 open,
// 300000 read" 300 ms; "0 add, 200000 open, 500000 read" 300 ms; two files
// opened at 300000 and 600000, closed at 400000 and 900000: 600 ms (iobench
// 900 ms). Opens and closes after the origin wait for their stamps.
TEST(ReplayReaderTest, LineAfterAZeroStampDoesNotWait) {
  TempDir d("/dev/shm");
  auto delays = [&](const std::string& name, const std::string& body, bool file_events) {
    ReplayOptions o;
    o.file_events = file_events;
    std::vector<uint64_t> out;
    for (const ReplayEntry& e : ReadEntries(d.Write(name, "fio version 3 iolog\n" + body), o))
      out.push_back(e.delay_ns);
    return out;
  };
  EXPECT_EQ(delays("a.log", "0 /f add\n0 /f open\n300000 /f read 0 4096\n300100 /f close\n", false),
            (std::vector<uint64_t>{0, 100000}));
  EXPECT_EQ(delays("b.log", "5 /f add\n5 /f open\n300000 /f read 0 4096\n", false),
            (std::vector<uint64_t>{299995000}));
  EXPECT_EQ(delays("d.log", "0 /f add\n200000 /f open\n500000 /f read 0 4096\n", false),
            (std::vector<uint64_t>{300000000}));
  // Open, read, close of f0 then of f1 (file events on): 100 + 200 + 300 ms.
  EXPECT_EQ(delays("c.log",
                   "0 /f0 add\n0 /f1 add\n300000 /f0 open\n300000 /f0 read 0 4096\n"
                   "400000 /f0 close\n600000 /f1 open\n600000 /f1 read 0 4096\n"
                   "900000 /f1 close\n",
                   true),
            (std::vector<uint64_t>{0, 0, 100000000, 200000000, 0, 300000000}));
  // Mid-log too: after a line stamped 0 (a clone's block of a shared log)
  // the next line does not wait.
  EXPECT_EQ(delays("m.log",
                   "1 /f add\n2 /f open\n500 /f read 0 4096\n0 /f read 0 4096\n"
                   "700 /f read 0 4096\n900 /f read 0 4096\n",
                   false),
            (std::vector<uint64_t>{499000, 0, 0, 200000}));
}

// The largest ranges sync_file_range(2) takes pass the check (the kernel
// wants offset and offset + length within 2^63 - 1), and replay_scale
// applies first.
TEST(ReplayReaderTest, SyncFileRangeUpToTheLargestOffset) {
  TempDir d("/dev/shm");
  const std::string p = d.Write("sfr.log",
                                "fio version 3 iolog\n1 /f add\n2 /f open\n"
                                "3 /f sync_file_range 9223372036854775807 0\n"
                                "4 /f sync_file_range 0 9223372036854775807\n"
                                "5 /f sync_file_range 9223372036854775808 0\n");
  EXPECT_EQ(ErrorOf(p), "read_iolog " + p +
                            ":6: sync_file_range offset 9223372036854775808 + length 0 is past "
                            "2^63 - 1, the largest file offset sync_file_range(2) takes");
  ReplayOptions o;
  o.scale = 2;
  std::vector<ReplayEntry> e = ReadEntries(p, o);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[2].offset, 4611686018427387904u);
}

// fio 3.33 takes replay_scale=0 and replays the offsets unscaled; iobench
// refused it as out of range.
TEST(ReplayReaderTest, ReplayScaleZeroIsUnscaled) {
  auto parsed = jobfile::ParseJobText("[r]\nread_iolog=x.log\nreplay_scale=0\n", "t.fio", "/tmp");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const JobSpec& j = parsed->jobs.at(0);
  EXPECT_EQ(j.replay_scale, 0u);
  EXPECT_EQ(ReplayOptions::FromJob(j).scale, 1u);
  TempDir d("/dev/shm");
  ReplayOptions o = ReplayOptions::FromJob(j);
  std::vector<ReplayEntry> e = ReadEntries(d.Write("v3.log", kV3), o);
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e[1].offset, 8192u);
}

TEST(ReplayReaderTest, ErrorsNameFileAndLine) {
  TempDir d("/dev/shm");
  const std::string h3 = "fio version 3 iolog\n1 /f add\n2 /f open\n";
  struct Case {
    std::string text;
    std::string error;  // after "read_iolog PATH"
  };
  const Case cases[] = {
      {"", ": the file is empty, not a fio iolog"},
      {"rw, 0, 4096\n",
       ":1: 'rw, 0, 4096' is not a fio iolog header (expected 'fio version 2 iolog' or 'fio "
       "version 3 iolog'; version 1 logs are not supported, as in fio)"},
      // NUL and binary bytes escaped as the later lines' are (they showed as '?').
      {std::string("fio version 3 iolog\0\n", 21),
       ":1: 'fio version 3 iolog\\x00' is not a fio iolog header (expected 'fio version 2 "
       "iolog' or 'fio version 3 iolog'; version 1 logs are not supported, as in fio)"},
      {"\x01\xfe\xff\n",
       ":1: '\\x01\\xfe\\xff' is not a fio iolog header (expected 'fio version 2 iolog' or "
       "'fio version 3 iolog'; version 1 logs are not supported, as in fio)"},
      {h3 + "3 /f frob 0 4096\n",
       ":4: unknown action 'frob' (read, write, trim, sync, datasync, sync_file_range; add, "
       "open, close)"},
      {h3 + "3 /f read x 4096\n", ":4: offset 'x' is not a number"},
      {h3 + "3 /f read 0 -1\n", ":4: length '-1' is not a number"},
      {h3 + "3 /f read 0\n",
       ":4: expected 'TIME FILE ACTION' or 'TIME FILE ACTION OFFSET LENGTH', got 4 fields"},
      {h3 + "3 /f wait 500 0\n",
       ":4: 'wait' is not allowed in a version 3 iolog (its lines carry times)"},
      {h3 + "3 /g read 0 4096\n", ":4: file '/g' is used before its 'add' line"},
      {"fio version 3 iolog\n1 /f add\n2 /f read 0 4096\n",
       ":3: I/O on file '/f', which is not open (no 'open' line before it)"},
      // Opened and closed before: the error says where it was closed.
      {h3 + "3 /f close\n4 /f read 0 4096\n",
       ":5: I/O on file '/f', which was closed at line 4 (no 'open' line after it)"},
      {h3 + "3 /f close\n4 /f sync 0 0\n",
       ":5: 'sync' on file '/f', which was closed at line 4 (no 'open' line after it)"},
      {h3 + "3 /f close\n4 /f open\n5 /f close\n6 /f datasync 0 0\n",
       ":7: 'datasync' on file '/f', which was closed at line 6 (no 'open' line after it)"},
      {h3 + "3 /f close\n4 /f close\n",
       ":5: 'close' of file '/f', which is not open (closed at line 4)"},
      {h3 + "3 /f write 0 0\n", ":4: write of length 0"},
      // Ranges sync_file_range(2) refuses (EINVAL): refused before the run.
      {h3 + "3 /f sync_file_range 9223372036854775808 0\n",
       ":4: sync_file_range offset 9223372036854775808 + length 0 is past 2^63 - 1, the "
       "largest file offset sync_file_range(2) takes"},
      {h3 + "3 /f sync_file_range 9223372036854775807 1\n",
       ":4: sync_file_range offset 9223372036854775807 + length 1 is past 2^63 - 1, the "
       "largest file offset sync_file_range(2) takes"},
      {h3 + "3 /f sync_file_range 1 9223372036854775807\n",
       ":4: sync_file_range offset 1 + length 9223372036854775807 is past 2^63 - 1, the "
       "largest file offset sync_file_range(2) takes"},
      {h3 + "3 /f read 18446744073709551615 2\n",
       ":4: offset 18446744073709551615 + length 2 overflows"},
      {h3 + "3 /f unlink\n", ":4: unknown file action 'unlink' (add, open, close)"},
      // A file action with numbers: it was an unknown action, in a list holding it.
      {h3 + "3 /f open 0 0\n", ":4: file action 'open' takes no offset and length"},
      {"fio version 2 iolog\n/f add 0 0\n", ":2: file action 'add' takes no offset and length"},
      {"fio version 2 iolog\n/f add\n/f close x y\n",
       ":3: file action 'close' takes no offset and length"},
      {"fio version 2 iolog\n/f add\n/f open\n/f read 0 4096 7\n",
       ":4: expected 'FILE ACTION' or 'FILE ACTION OFFSET LENGTH', got 5 fields"},
      // Lines of the other version than the header says: a hint, when the
      // line parses under that version (they read as stray fields or
      // timestamps, without a word of the header).
      {"fio version 2 iolog\n1 /f add\n",
       ":2: expected 'FILE ACTION' or 'FILE ACTION OFFSET LENGTH', got 3 fields (the line reads "
       "as a version 3 iolog line, but the header at line 1 says version 2)"},
      {"fio version 2 iolog\n/f add\n/f open\n3 /f read 0 4096\n",
       ":4: expected 'FILE ACTION' or 'FILE ACTION OFFSET LENGTH', got 5 fields (the line reads "
       "as a version 3 iolog line, but the header at line 1 says version 2)"},
      {"fio version 3 iolog\n/f add\n",
       ":2: timestamp '/f' is not a number (the line reads as a version 2 iolog line, but the "
       "header at line 1 says version 3)"},
      {h3 + "/f wait 500 0\n",
       ":4: timestamp '/f' is not a number (the line reads as a version 2 iolog line, but the "
       "header at line 1 says version 3)"},
      // The header in force: a later run's (logs append).
      {h3 + "3 /f close\nfio version 2 iolog\n1 /f add\n",
       ":6: expected 'FILE ACTION' or 'FILE ACTION OFFSET LENGTH', got 3 fields (the line reads "
       "as a version 3 iolog line, but the header at line 5 says version 2)"},
      // No hint for a line that fits neither version.
      {"fio version 2 iolog\n1 /f frob\n",
       ":2: expected 'FILE ACTION' or 'FILE ACTION OFFSET LENGTH', got 3 fields"},
      {"fio version 3 iolog\n/f frob 0 0\n", ":2: timestamp '/f' is not a number"},
      {"fio version 2 iolog\n1 /f read 0 x\n",
       ":2: expected 'FILE ACTION' or 'FILE ACTION OFFSET LENGTH', got 5 fields"},
      {"fio version 2 iolog\n/f add\n/f close\n", ":3: 'close' of file '/f', which is not open"},
      // A wait line's first number is its delay (it was called an offset).
      {"fio version 2 iolog\n/f add\n/f open\n/f wait -1 0\n", ":4: delay '-1' is not a number"},
      {h3 + std::string("3 /f read\0 0 4096\n", 19),
       ":4: binary data (a NUL byte): not a text iolog"},
      {h3 + std::string(70000, 'a') + "\n", ":4: the line is longer than 64 KiB"},
  };
  int i = 0;
  for (const Case& c : cases) {
    const std::string p = d.Write("bad" + std::to_string(i++) + ".log", c.text);
    EXPECT_EQ(ErrorOf(p), "read_iolog " + p + c.error) << c.text;
  }
}

TEST(ReplayReaderTest, BlktraceIsRefusedClearly) {
  TempDir d("/dev/shm");
  // A blk_io_trace record starts with magic 0x65617407 (little-endian here).
  const std::string p = d.Write("trace.bin", std::string("\x07\x74\x61\x65\x01\x00\x00\x00", 8));
  auto r = IologReader::Open(p, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kUnsupported);
  EXPECT_EQ(r.status().message(), "read_iolog " + p +
                                      ": this is a blktrace binary trace; iobench does not "
                                      "replay blktrace yet (only fio iolog versions 2 and 3)");
  EXPECT_EQ(ErrorOf(d.path() + "/none"),
            "read_iolog: open " + d.path() + "/none: No such file or directory");
  // A FIFO used to block the run in fopen (no writer) or be drained by the
  // check before the replay read it again; a directory failed on read.
  const std::string fifo = d.path() + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string why =
      ", not a regular file (iobench reads the log twice: once to check it, once to replay it)";
  EXPECT_EQ(ErrorOf(fifo), "read_iolog " + fifo + ": is a FIFO" + why);
  EXPECT_EQ(ErrorOf(d.path()), "read_iolog " + d.path() + ": is a directory, not a log file");
  EXPECT_EQ(ErrorOf("/dev/null"), "read_iolog /dev/null: is a device" + why);
}

// A compressed log was refused by quoting its binary header and saying
// version 1 logs are not supported; it now says what it is and how to read it.
TEST(ReplayReaderTest, CompressedLogIsNamed) {
  TempDir d("/dev/shm");
  const std::pair<std::string, std::string> cases[] = {
      {std::string("\x1f\x8b\x08\x08_W", 6), "gzip-compressed; decompress it first (zcat "},
      {std::string("\x28\xb5\x2f\xfd\x04", 5), "zstd-compressed; decompress it first (zstdcat "},
      {"BZh91AY&SY", "bzip2-compressed; decompress it first (bzcat "},
      {std::string("\xfd"
                   "7zXZ\x00\x00",
                   8),
       "xz-compressed; decompress it first (xzcat "}};
  for (const auto& [bytes, says] : cases) {
    const std::string p = d.Write("log.z", bytes + "\n");
    EXPECT_EQ(ErrorOf(p), "read_iolog " + p + ": is " + says + p +
                              " > FILE): neither iobench nor fio reads a compressed log");
  }
}

TEST(ReplayScanTest, SummaryCountsBytesAndExtents) {
  TempDir d("/dev/shm");
  const std::string p = d.Write("v3.log", kV3);
  auto s = ScanIolog(p, {});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->files, std::vector<std::string>{"/x/f"});
  EXPECT_EQ(s->ios[0], 1u);
  EXPECT_EQ(s->ios[1], 1u);
  EXPECT_EQ(s->ios[2], 1u);
  EXPECT_EQ(s->bytes[1], 8192u);
  EXPECT_EQ(s->syncs, 2u);
  EXPECT_EQ(s->end.at(0), 16384u);
  EXPECT_EQ(s->end_line.at(0), 5u);
}

TEST(ReplayJobTest, ShapesTheJobFromTheLog) {
  TempDir d("/dev/shm");
  const std::string f = d.File("target", 64 << 10);
  const std::string p =
      d.Write("log", "fio version 2 iolog\n" + f + " add\n" + f + " open\n" + f +
                         " write 0 8192\n" + f + " write 8192 4096\n" + f + " close\n");
  JobSpec j = TestJob("r", RwMode::kRandRead, 4096, 0);
  j.read_iolog = p;
  ASSERT_TRUE(PrepareReplayJob(&j, false).ok());
  EXPECT_EQ(j.filenames, std::vector<std::string>{f});
  EXPECT_EQ(j.rw, RwMode::kWrite);
  EXPECT_EQ(j.bs[1].min, 4096u);
  EXPECT_EQ(j.bs[1].max, 8192u);
}

// The job line shows the reshaped job; fio's shows the job as written
// (rw=randread, bs=64k), which is not what is replayed. iobench's line shows
// the log's directions and lengths in every direction (the job's bs=64k stayed
// in the unused ones), and a note names the log, what it holds and the
// options of the job that did not apply.
TEST(ReplayJobTest, NoteNamesTheLogAndWhatDidNotApply) {
  TempDir d("/dev/shm");
  const std::string f = d.File("target", 64 << 10);
  const std::string p =
      d.Write("log", "fio version 3 iolog\n0 " + f + " add\n0 " + f + " open\n1 " + f +
                         " write 0 8192\n2 " + f + " write 8192 4096\n3 " + f + " sync 8192 0\n4 " +
                         f + " close\n");
  JobSpec j =
      ParseOk("[r]\nread_iolog=" + p + "\nrw=randread\nbs=64k\nfilename=/nowhere\n").jobs.at(0);
  ASSERT_TRUE(PrepareReplayJob(&j, false).ok());
  EXPECT_EQ(j.rw, RwMode::kWrite);
  for (int dir = 0; dir < kNumDdirs; ++dir) {
    EXPECT_EQ(j.bs[dir].min, 4096u) << dir;
    EXPECT_EQ(j.bs[dir].max, 8192u) << dir;
  }
  ASSERT_EQ(j.parse_notes.size(), 1u);
  EXPECT_EQ(j.parse_notes[0], "replayed read_iolog " + p + " (fio iolog version 3): 2 writes, " +
                                  "1 sync on " + f +
                                  "; rw= and bs= in the job line are the log's; the job's own "
                                  "rw=randread (t.fio:3), bs=64k (t.fio:4), filename=/nowhere "
                                  "(t.fio:5) did not apply");
  // Entries replay_skip drops are counted (they went unmentioned).
  j = ParseOk("[r]\nread_iolog=" + p + "\nreplay_skip=sync\n").jobs.at(0);
  ASSERT_TRUE(PrepareReplayJob(&j, false).ok());
  ASSERT_EQ(j.parse_notes.size(), 1u);
  EXPECT_EQ(j.parse_notes[0], "replayed read_iolog " + p + " (fio iolog version 3): 2 writes on " +
                                  f +
                                  ", replay_skip=sync dropped 1 entry; rw= and bs= in the job " +
                                  "line are the log's");
}

// directory= is joined to the log's relative file names, as to filename=
// (and in fio): the note names the path the replay opens, as the errors and
// write_iolog do (it showed the log's name alone). An absolute name stays.
TEST(ReplayJobTest, DirectoryJoinsTheLogsRelativeNames) {
  TempDir d("/dev/shm");
  const std::string f = d.File("rel.dat", 64 << 10);
  const std::string abs = d.File("abs.dat", 64 << 10);
  const std::string p =
      d.Write("log", "fio version 3 iolog\n0 rel.dat add\n0 " + abs + " add\n0 rel.dat open\n0 " +
                         abs + " open\n1 rel.dat write 0 4096\n2 " + abs + " read 0 4096\n");
  JobSpec j = ParseOk("[r]\nread_iolog=" + p + "\ndirectory=" + d.path() + "\n").jobs.at(0);
  ASSERT_TRUE(PrepareReplayJob(&j, false).ok());
  EXPECT_EQ(sys::TargetPaths(j, 0), (std::vector<std::string>{f, abs}));
  ASSERT_EQ(j.parse_notes.size(), 1u);
  EXPECT_EQ(j.parse_notes[0], "replayed read_iolog " + p + " (fio iolog version 3): 1 read, " +
                                  "1 write on " + f + ", " + abs +
                                  "; rw= and bs= in the job line are the log's");
}

// A sync_file_range line (fio's record of sync_file_range=: the last
// write's offset, length 0) is an entry with its offset and length, after
// replay_scale; the job replays it with its own flags, else write.
TEST(ReplayJobTest, SyncFileRangeEntriesAndFlags) {
  TempDir d("/dev/shm");
  const std::string f = d.File("target", 64 << 10);
  const std::string p =
      d.Write("log", "fio version 3 iolog\n0 " + f + " add\n0 " + f + " open\n1 " + f +
                         " write 0 8192\n2 " + f + " sync_file_range 8192 0\n3 " + f +
                         " sync_file_range 0 4096\n4 " + f + " close\n");
  ReplayOptions o;
  o.scale = 2;
  std::vector<ReplayEntry> e = ReadEntries(p, o);
  ASSERT_GE(e.size(), 3u);
  EXPECT_EQ(e[1].op, IoOp::kSyncFileRange);
  EXPECT_EQ(e[1].offset, 4096u);
  EXPECT_EQ(e[1].length, 0u);
  EXPECT_EQ(e[2].op, IoOp::kSyncFileRange);
  EXPECT_EQ(e[2].length, 4096u);
  JobSpec j = ParseOk("[r]\nread_iolog=" + p + "\n").jobs.at(0);
  ASSERT_TRUE(PrepareReplayJob(&j, false).ok());
  EXPECT_EQ(j.sync_file_range_flags, static_cast<uint32_t>(SYNC_FILE_RANGE_WRITE));
  ASSERT_EQ(j.parse_notes.size(), 1u);
  EXPECT_NE(j.parse_notes[0].find("1 write, 2 sync_file_ranges (flags write) on " + f),
            std::string::npos)
      << j.parse_notes[0];
  j = ParseOk("[r]\nread_iolog=" + p + "\nsync_file_range=wait_after:4\n").jobs.at(0);
  ASSERT_TRUE(PrepareReplayJob(&j, false).ok());
  EXPECT_EQ(j.sync_file_range_flags, static_cast<uint32_t>(SYNC_FILE_RANGE_WAIT_AFTER));
}

// With file_events the reader returns a file's first "open" and its last
// "close" (the lines are counted: clones sharing a log); the scan counts
// the most files open at once, which the job's file descriptors follow.
TEST(ReplayJobTest, FileEventsAndTheMostFilesOpen) {
  TempDir d("/dev/shm");
  const std::string a = d.File("a", 8 << 10), b = d.File("b", 8 << 10);
  const std::string p =
      d.Write("log", "fio version 2 iolog\n" + a + " add\n" + b + " add\n" + a + " open\n" + a +
                         " open\n" + a + " write 0 4096\n" + a + " close\n" + a + " close\n" + b +
                         " open\n" + b + " write 0 4096\n" + b + " close\n");
  ReplayOptions o;
  o.file_events = true;
  std::vector<ReplayEntry> e = ReadEntries(p, o);
  ASSERT_EQ(e.size(), 6u);
  EXPECT_EQ(e[0].action, ReplayAction::kOpen);
  EXPECT_EQ(e[0].line, 4u);
  EXPECT_EQ(e[1].action, ReplayAction::kIo);
  EXPECT_EQ(e[2].action, ReplayAction::kClose);
  EXPECT_EQ(e[2].line, 8u);
  EXPECT_EQ(e[3].action, ReplayAction::kOpen);
  EXPECT_EQ(e[3].file, 1u);
  EXPECT_EQ(e[5].action, ReplayAction::kClose);
  EXPECT_EQ(ReadEntries(p).size(), 2u);  // without: the I/O alone
  auto s = ScanIolog(p, {});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->open_max, 1u);
  JobSpec j = ParseOk("[r]\nread_iolog=" + p + "\n").jobs.at(0);
  ASSERT_TRUE(PrepareReplayJob(&j, false).ok());
  EXPECT_EQ(j.read_iolog_open_max, 1u);
  EXPECT_EQ(sys::JobFilesPerClone(j), 1u);
  // io_uring's registered files must all be open: the replay keeps them so.
  j = ParseOk("[r]\nread_iolog=" + p + "\nioengine=io_uring\nregisterfiles=1\n").jobs.at(0);
  ASSERT_TRUE(PrepareReplayJob(&j, false).ok());
  EXPECT_EQ(j.read_iolog_open_max, 0u);
  EXPECT_EQ(sys::JobFilesPerClone(j), 2u);
}

TEST(ReplayJobTest, OffsetPastTheEndAndRefusals) {
  TempDir d("/dev/shm");
  const std::string f = d.File("small", 8192);
  const std::string p =
      d.Write("log", "fio version 3 iolog\n1 " + f + " add\n2 " + f + " open\n3 " + f +
                         " read 4096 4096\n4 " + f + " read 8192 512\n");
  JobSpec j = TestJob("r", RwMode::kRead, 4096, 0);
  j.read_iolog = p;
  Status st = PrepareReplayJob(&j, false);
  EXPECT_EQ(st.message(), "job 'r': read_iolog " + p +
                              ":5: an I/O ends at byte 8704, past the end of " + f +
                              " (8192 bytes)");
  // An I/O longer than the whole file: the same error (it was "the region of
  // FILE is smaller than the block size 16384", naming no log line).
  const std::string big = d.Write(
      "big", "fio version 3 iolog\n1 " + f + " add\n2 " + f + " open\n3 " + f + " read 0 16384\n");
  j = TestJob("r", RwMode::kRead, 4096, 0);
  j.read_iolog = big;
  EXPECT_EQ(PrepareReplayJob(&j, false).message(),
            "job 'r': read_iolog " + big + ":4: an I/O ends at byte 16384, past the end of " + f +
                " (8192 bytes)");
  // An existing empty file: the same error (it was "size is not set and FILE
  // does not exist or is empty", naming no log line).
  const std::string empty = d.File("empty", 0);
  const std::string onto_empty =
      d.Write("onto_empty", "fio version 3 iolog\n1 " + empty + " add\n2 " + empty + " open\n3 " +
                                empty + " write 0 512\n4 " + empty + " write 512 512\n");
  j = TestJob("r", RwMode::kRead, 4096, 0);
  j.read_iolog = onto_empty;
  EXPECT_EQ(PrepareReplayJob(&j, false).message(),
            "job 'r': read_iolog " + onto_empty + ":5: an I/O ends at byte 1024, past the end of " +
                empty + " (0 bytes)");
  // replay_scale brings it inside.
  j = TestJob("r", RwMode::kRead, 4096, 0);
  j.read_iolog = p;
  j.replay_scale = 2;
  EXPECT_TRUE(PrepareReplayJob(&j, false).ok());
  // Not far enough: the end quoted is the scaled one, and the message says
  // so (it read as the log's own end).
  const std::string far = d.Write("far", "fio version 3 iolog\n1 " + f + " add\n2 " + f +
                                             " open\n3 " + f + " read 32768 4096\n");
  j = TestJob("r", RwMode::kRead, 4096, 0);
  j.read_iolog = far;
  j.replay_scale = 2;
  EXPECT_EQ(PrepareReplayJob(&j, false).message(),
            "job 'r': read_iolog " + far +
                ":4: an I/O ends at byte 20480 (after replay_scale=2), " + "past the end of " + f +
                " (8192 bytes)");
  // A missing file that size= lays out: said so (it read as an existing
  // file of that size).
  const std::string m1 = d.path() + "/m1";
  const std::string lay = d.Write(
      "lay", "fio version 2 iolog\n" + m1 + " add\n" + m1 + " open\n" + m1 + " read 65536 4096\n");
  j = TestJob("r", RwMode::kRead, 4096, 32768);
  j.read_iolog = lay;
  EXPECT_EQ(PrepareReplayJob(&j, false).message(),
            "job 'r': read_iolog " + lay + ":4: an I/O ends at byte 69632, past the end of " + m1 +
                " (missing: size= will lay it out at 32768 bytes)");
  // A log naming a file that does not exist, without size=.
  const std::string q = d.Write(
      "log2", "fio version 2 iolog\n" + d.path() + "/nope add\n" + d.path() + "/nope open\n");
  j = TestJob("r", RwMode::kRead, 4096, 0);
  j.read_iolog = q;
  EXPECT_EQ(PrepareReplayJob(&j, false).message(),
            "job 'r': read_iolog " + q + ":2: " + d.path() +
                "/nope does not exist; iobench replays onto existing files and devices (create "
                "it, or set size= to lay it out)");
  // A file the log adds and never opens is no target, as in fio: it need not
  // exist (it was refused as missing). A log opening none says so.
  const std::string used = d.File("used", 8192);
  const std::string unused =
      d.Write("unused", "fio version 2 iolog\n" + d.path() + "/nope add\n" + used + " add\n" +
                            used + " open\n" + used + " read 0 4096\n" + used + " close\n");
  j = TestJob("r", RwMode::kRead, 4096, 0);
  j.read_iolog = unused;
  ASSERT_TRUE(PrepareReplayJob(&j, false).ok());
  EXPECT_EQ(j.filenames, std::vector<std::string>{used});
  const std::string adds_only = d.Write("adds_only", "fio version 2 iolog\n" + used + " add\n");
  j = TestJob("r", RwMode::kRead, 4096, 0);
  j.read_iolog = adds_only;
  EXPECT_EQ(PrepareReplayJob(&j, false).message(),
            "job 'r': read_iolog " + adds_only +
                " opens no file ('FILE open' lines) and replay_redirect is not set");
  // I/O on an added file that was never opened: the "not open" error.
  const std::string unopened =
      d.Write("unopened", "fio version 2 iolog\n" + used + " add\n" + used + " read 0 4096\n");
  j = TestJob("r", RwMode::kRead, 4096, 0);
  j.read_iolog = unopened;
  EXPECT_NE(PrepareReplayJob(&j, false).message().find(unopened + ":3: I/O on file '" + used +
                                                       "', which is not open"),
            std::string::npos);
  j = TestJob("r", RwMode::kRead, 4096, 0);
  j.read_iolog = p;
  j.verify.type = VerifyType::kCrc32c;
  j.settings.push_back({"verify", "crc32c", OptionSource::kJob, "job.fio", 7});
  EXPECT_EQ(PrepareReplayJob(&j, false).message(),
            "job 'r': read_iolog=" + p +
                " (<default>) does not combine with verify (job.fio:7): the log alone says what "
                "is issued and when");
  j = TestJob("r", RwMode::kRead, 4096, 0);
  j.read_iolog = p + ":" + p;
  EXPECT_EQ(PrepareReplayJob(&j, false).code(), Status::Code::kUnsupported);
}

// The null engine runs exactly the log's I/O: counts and bytes per direction.
// A job that records into the log a job replays, by any spelling, would
// replay its own new lines without end (it filled the disk): refused, for
// one job and across jobs; another file is fine.
TEST(ReplayJobTest, WriteIologNeverTheReplayedLog) {
  TempDir d("/dev/shm");
  const std::string f = d.File("data", 8192);
  const std::string p = d.Write(
      "log", "fio version 3 iolog\n1 " + f + " add\n2 " + f + " open\n3 " + f + " read 0 4096\n");
  std::filesystem::create_symlink(p, d.path() + "/link");
  JobSpec j = TestJob("r", RwMode::kRead, 4096, 0);
  j.read_iolog = p;
  for (const std::string& w : {d.path() + "/./log", d.path() + "/link", d.path() + "/sub/../log"}) {
    j.write_iolog = w;
    Status st = CheckIologsApart({j});
    EXPECT_EQ(st.code(), Status::Code::kInvalidArgument) << w;
    EXPECT_NE(
        st.message().find("job 'r': write_iolog=" + w + " (<default>) is its own read_iolog="),
        std::string::npos)
        << st.message();
  }
  JobSpec a = TestJob("a", RwMode::kRead, 4096, 0);
  a.write_iolog = d.path() + "/./log";
  j.write_iolog = d.path() + "/other.log";
  Status st = CheckIologsApart({a, j});
  EXPECT_NE(
      st.message().find("job 'a': write_iolog=" + a.write_iolog + " (<default>) is job 'r''s"),
      std::string::npos)
      << st.message();
  EXPECT_TRUE(CheckIologsApart({j}).ok());
  // In different phases (a stonewall between them) one has ended before the
  // other starts: allowed, and the replay is reshaped at its phase's start.
  {
    JobSpec w = TestJob("w", RwMode::kWrite, 4096, 4096);
    w.write_iolog = "same.log";
    JobSpec r = TestJob("r", RwMode::kRead, 4096, 4096);
    r.read_iolog = "same.log";
    EXPECT_FALSE(CheckIologsApart({w, r}, {0, 0}).ok());
    EXPECT_TRUE(CheckIologsApart({w, r}, {0, 1}).ok());
    EXPECT_EQ(ReplaysEarlierRecord({w, r}, {0, 1}), (std::vector<bool>{false, true}));
    EXPECT_EQ(ReplaysEarlierRecord({r, w}, {0, 1}), (std::vector<bool>{false, false}));
  }
}

// fio's iolog_delay takes the previous wait's overshoot off the next delay,
// so sleep lateness does not add up over a log (500 us gaps over 1 s: 1059
// ms before, 1000 now, as fio's 1005); never earlier than the last issue.
TEST(ReplayTimingTest, OvershootComesOffTheNextDelay) {
  EXPECT_EQ(ReplayDueNs(1000, 500, 0), 1500u);
  EXPECT_EQ(ReplayDueNs(1000, 500, 120), 1380u);
  EXPECT_EQ(ReplayDueNs(1000, 500, 500), 1000u);
  EXPECT_EQ(ReplayDueNs(1000, 500, 900), 1000u);
}

TEST(ReplayRunTest, NullEngineCountsEqualTheLog) {
  TempDir d("/dev/shm");
  std::string text = "fio version 3 iolog\n0 /nowhere/a add\n0 /nowhere/a open\n";
  uint64_t t = 1;
  for (int i = 0; i < 100; ++i)
    text += std::to_string(t++) + " /nowhere/a " + (i % 3 == 0 ? "write " : "read ") +
            std::to_string((i * 7919 % 1000) * 4096) + " " + std::to_string(4096 << (i % 3)) + "\n";
  text += std::to_string(t++) + " /nowhere/a trim 0 65536\n";
  text += std::to_string(t++) + " /nowhere/a sync 0 0\n";
  text += std::to_string(t++) + " /nowhere/a datasync 0 0\n";
  text += std::to_string(t++) + " /nowhere/a sync 0 0\n";
  const std::string p = d.Write("log", text);
  JobSpec j = TestJob("null-replay", RwMode::kRead, 4096, 0);
  j.ioengine = "null";
  j.read_iolog = p;
  j.replay_no_stall = true;
  j.numjobs = 2;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  for (const JobResult& jr : r->groups.at(0).jobs) {
    EXPECT_EQ(jr.error, 0) << jr.error_message;
    EXPECT_EQ(jr.stats.dir[0].ios, 66u);
    EXPECT_EQ(jr.stats.dir[1].ios, 34u);
    EXPECT_EQ(jr.stats.dir[2].ios, 1u);
    uint64_t rb = 0, wb = 0;
    for (int i = 0; i < 100; ++i) (i % 3 == 0 ? wb : rb) += 4096u << (i % 3);
    EXPECT_EQ(jr.stats.dir[0].bytes, rb);
    EXPECT_EQ(jr.stats.dir[1].bytes, wb);
    EXPECT_EQ(jr.stats.dir[2].bytes, 65536u);
    // As fio 3.33: fsyncs are counted as issued syncs, an fdatasync only
    // shows in the sync latency.
    EXPECT_EQ(jr.stats.sync_ios, 2u);
    EXPECT_EQ(jr.stats.sync_lat.n, 3u);
  }
}

// fio replays only the reads under --readonly; iobench refuses the job (the
// safety check sees its writes) and says how to get fio's replay.
// fio waits out a close stamped after the last I/O before the job ends, and
// counts it in the job's runtime (802 ms for a close 800 ms after the last
// write); the replay used to end at its last I/O. A lower bound only: a
// sleep cannot end early.
TEST(ReplayRunTest, TrailingCloseTimeIsWaitedOut) {
  TempDir d("/dev/shm");
  const std::string p = d.Write("log",
                                "fio version 3 iolog\n0 /nowhere/a add\n0 /nowhere/a open\n"
                                "0 /nowhere/a write 0 4096\n1 /nowhere/a write 4096 4096\n"
                                "120001 /nowhere/a close\n");
  JobSpec j = TestJob("tail", RwMode::kRead, 4096, 0);
  j.ioengine = "null";
  j.read_iolog = p;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const JobResult& jr = r->groups.at(0).jobs.at(0);
  EXPECT_EQ(jr.error, 0) << jr.error_message;
  EXPECT_EQ(jr.stats.dir[1].ios, 2u);
  EXPECT_GE(jr.runtime_ms, 120u);
}

TEST(ReplayRunTest, ReadonlyRefusalNamesReplaySkip) {
  TempDir d("/dev/shm");
  const std::string p = d.Write("log",
                                "fio version 3 iolog\n0 /nowhere/a add\n0 /nowhere/a open\n"
                                "1 /nowhere/a read 0 4096\n2 /nowhere/a write 0 4096\n");
  JobSpec j = TestJob("ro", RwMode::kRead, 4096, 0);
  j.ioengine = "null";
  j.read_iolog = p;
  RunOptions opts;
  opts.readonly = true;
  auto r = RunJobs({j}, opts);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "--readonly: job 'ro' replays writes or trims (read_iolog " + p +
                " at <cmdline>; replay_skip=write,trim replays its reads alone, which fio "
                "does under --readonly)");
  j.replay_skip = 1u << static_cast<int>(Ddir::kWrite);
  auto ok = RunJobs({j}, opts);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->groups.at(0).jobs.at(0).stats.dir[0].ios, 1u);
  EXPECT_EQ(ok->groups.at(0).jobs.at(0).stats.dir[1].ios, 0u);
}

// Drop the time column of an iolog v3 text.
std::string WithoutTimes(const std::string& log) {
  std::istringstream in(log);
  std::string line, out;
  while (std::getline(in, line)) {
    const size_t sp = line.find(' ');
    out += (line.rfind("fio version", 0) == 0 ? line : line.substr(sp + 1)) + "\n";
  }
  return out;
}

// fio logs a writing job's closing syncs (end_fsync, fsync_on_close): one
// "sync LAST_OFFSET 0" line per file before the closes; a read job none.
TEST(ReplayRunTest, RecordsTheClosingSyncs) {
  TempDir d("/dev/shm");
  const std::string a = d.File("a", 64 << 10), b = d.File("b", 64 << 10);
  for (int mode = 0; mode < 3; ++mode) {
    const std::string rec = d.path() + "/rec" + std::to_string(mode) + ".log";
    JobSpec j = TestJob("rec", mode == 2 ? RwMode::kRead : RwMode::kWrite, 4096, 16384);
    j.ioengine = "psync";
    j.filenames = {a, b};
    j.nrfiles = 2;
    (mode == 1 ? j.fsync_on_close : j.end_fsync) = true;
    j.write_iolog = rec;
    auto r = RunJobs({j}, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    const std::string body = WithoutTimes(ReadAll(rec));
    const std::string tail =
        mode == 2 ? a + " close\n" + b + " close\n"
                  : a + " sync 4096 0\n" + b + " sync 4096 0\n" + a + " close\n" + b + " close\n";
    ASSERT_GE(body.size(), tail.size());
    EXPECT_EQ(body.substr(body.size() - tail.size()), tail) << body;
  }
}

// loops=N: fio closes the files when a loop's I/O runs out, its end sync
// (end_fsync, fsync_on_close) reopens each file to sync it, and the next
// loop opens them again at their first I/O; the record says so (fio 3.33's
// text, times aside). iobench wrote the loops' I/O as one run of lines.
TEST(ReplayRunTest, RecordsCloseAndOpenBetweenLoops) {
  TempDir d("/dev/shm");
  const std::string a = d.File("a", 64 << 10), b = d.File("b", 64 << 10);
  for (int mode = 0; mode < 2; ++mode) {
    const std::string rec = d.path() + "/loops" + std::to_string(mode) + ".log";
    JobSpec j = TestJob("loops", RwMode::kWrite, 4096, 16384);
    j.ioengine = "psync";
    j.filenames = {a, b};
    j.nrfiles = 2;
    j.loops = 2;
    j.end_fsync = mode == 1;
    j.write_iolog = rec;
    auto r = RunJobs({j}, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    std::string loop;
    for (const std::string& f : {a, b}) loop += f + " open\n" + f + " write 0 4096\n";
    loop += a + " write 4096 4096\n" + b + " write 4096 4096\n";
    const std::string sync = mode == 1 ? a + " sync 4096 0\n" + b + " sync 4096 0\n" : "";
    std::string between = a + " close\n" + b + " close\n";
    if (mode == 1)
      for (const std::string& f : {a, b})
        between += f + " open\n" + f + " sync 4096 0\n" + f + " close\n";
    EXPECT_EQ(WithoutTimes(ReadAll(rec)), "fio version 3 iolog\n" + a + " add\n" + b + " add\n" +
                                              loop + between + loop + sync + a + " close\n" + b +
                                              " close\n")
        << "end_fsync=" << mode;
  }
}

// A file the job never comes to (io_size runs out after two files of
// three) has its "add" line alone, as in fio 3.33's log; iobench logged an
// "open" and a "close" for it at the job's end. An end sync still opens,
// syncs and closes it there (fio_file_fsync), before the others close.
TEST(ReplayRunTest, RecordsNoOpenOfAFileNeverUsed) {
  TempDir d("/dev/shm");
  const std::string a = d.File("a", 16 << 10), b = d.File("b", 16 << 10), c = d.File("c", 16 << 10);
  for (int mode = 0; mode < 2; ++mode) {
    const std::string rec = d.path() + "/unused" + std::to_string(mode) + ".log";
    JobSpec j = TestJob("unused", mode == 1 ? RwMode::kWrite : RwMode::kRead, 4096, 48 << 10);
    j.ioengine = "psync";
    j.filenames = {a, b, c};
    j.nrfiles = 3;
    j.io_size = 8192;
    j.end_fsync = mode == 1;
    j.write_iolog = rec;
    auto r = RunJobs({j}, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    const std::string op = mode == 1 ? " write 0 4096\n" : " read 0 4096\n";
    std::string want = "fio version 3 iolog\n" + a + " add\n" + b + " add\n" + c + " add\n" + a +
                       " open\n" + a + op + b + " open\n" + b + op;
    if (mode == 1)
      want += a + " sync 0 0\n" + b + " sync 0 0\n" + c + " open\n" + c + " sync 0 0\n" + c +
              " close\n";
    EXPECT_EQ(WithoutTimes(ReadAll(rec)), want + a + " close\n" + b + " close\n")
        << "end_fsync=" << mode;
  }
}

// A log whose last entry is a sync (a record of an end_fsync job): fio's
// end_fsync and fsync_on_close do not sync again after it (should_fsync()
// is false after a sync); the replay used to add one more per file. Seen
// here in the replay's own record: the log's sync, and no second one.
TEST(ReplayRunTest, NoEndSyncAfterTheLogsLastSync) {
  TempDir d("/dev/shm");
  const std::string f = d.File("data", 64 << 10);
  const std::string head = "fio version 3 iolog\n0 " + f + " add\n0 " + f + " open\n1 " + f +
                           " write 0 4096\n2 " + f + " write 4096 4096\n";
  for (int mode = 0; mode < 4; ++mode) {
    // 0, 1: ends in a sync (end_fsync, fsync_on_close); 2, 3: a write after it.
    const std::string log =
        d.Write("in" + std::to_string(mode) + ".log",
                head + "3 " + f + " sync 4096 0\n" +
                    (mode >= 2 ? "4 " + f + " write 8192 4096\n" : "") + "5 " + f + " close\n");
    const std::string rec = d.path() + "/rec" + std::to_string(mode) + ".log";
    JobSpec j = TestJob("endsync", RwMode::kRead, 4096, 0);
    j.ioengine = "psync";
    j.read_iolog = log;
    j.replay_no_stall = true;
    (mode % 2 == 0 ? j.end_fsync : j.fsync_on_close) = true;
    j.write_iolog = rec;
    auto r = RunJobs({j}, {});
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->groups.at(0).jobs.at(0).error, 0);
    const std::string body = WithoutTimes(ReadAll(rec));
    size_t syncs = 0;
    for (size_t at = 0; (at = body.find(" sync ", at)) != std::string::npos; ++at) ++syncs;
    EXPECT_EQ(syncs, mode >= 2 ? 2u : 1u) << "mode " << mode << ":\n" << body;
  }
}

// Record a real job on tmpfs, replay the record with write_iolog on the
// replay: the second record has the same lines (times aside).
TEST(ReplayRunTest, RecordThenReplayGivesTheSameLog) {
  TempDir d("/dev/shm");
  const std::string f = d.File("data", 64 << 10);
  const std::string rec = d.path() + "/rec.log";
  JobSpec j = TestJob("rec", RwMode::kRandRW, 4096, 0);
  j.ioengine = "psync";
  j.filenames = {f};
  j.fsync_blocks = 4;
  j.write_iolog = rec;
  auto r = RunJobs({j}, {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const std::string first = ReadAll(rec);
  const std::string body = WithoutTimes(first);
  ASSERT_EQ(body.substr(0, body.find('\n', body.find("open")) + 1),
            "fio version 3 iolog\n" + f + " add\n" + f + " open\n");
  EXPECT_EQ(body.substr(body.size() - f.size() - 7), f + " close\n");
  size_t ios = 0, syncs = 0;
  for (size_t at = 0; (at = body.find(f + " read ", at)) != std::string::npos; ++at) ++ios;
  for (size_t at = 0; (at = body.find(f + " write ", at)) != std::string::npos; ++at) ++ios;
  for (size_t at = 0; (at = body.find(f + " sync ", at)) != std::string::npos; ++at) ++syncs;
  EXPECT_EQ(ios, 16u);
  const JobResult& jr = r->groups.at(0).jobs.at(0);
  EXPECT_EQ(ios, jr.stats.dir[0].ios + jr.stats.dir[1].ios);
  EXPECT_GT(syncs, 0u);

  const std::string again = d.path() + "/again.log";
  JobSpec k = TestJob("replay", RwMode::kRead, 4096, 0);
  k.ioengine = "psync";
  k.read_iolog = rec;
  k.replay_no_stall = true;
  k.write_iolog = again;
  auto r2 = RunJobs({k}, {});
  ASSERT_TRUE(r2.ok()) << r2.status().ToString();
  EXPECT_EQ(WithoutTimes(ReadAll(again)), body);
  const JobResult& kr = r2->groups.at(0).jobs.at(0);
  EXPECT_EQ(kr.stats.dir[0].ios, jr.stats.dir[0].ios);
  EXPECT_EQ(kr.stats.dir[1].ios, jr.stats.dir[1].ios);
  EXPECT_EQ(kr.stats.dir[1].bytes, jr.stats.dir[1].bytes);
  // write_iolog appends, as fio: a second run adds a second header.
  ASSERT_TRUE(RunJobs({j}, {}).ok());
  const std::string twice = ReadAll(rec);
  EXPECT_EQ(twice.substr(0, first.size()), first);
  EXPECT_EQ(twice.substr(first.size(), 20), "fio version 3 iolog\n");
}

}  // namespace
}  // namespace iobench
