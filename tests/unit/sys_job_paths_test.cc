// A job whose name is an existing path that is not a regular file runs on
// that path when it names no file, as fio's add_job (exists_and_not_regfile):
// fio's examples/disk-zone-profile.fio is [/dev/sdb] with no filename=.
// And the files named after such a job (logs, hook output, verify state)
// stay out of /dev. /dev/null and /dev/zero stand in for a block device:
// the rule is the same for any node that is not a regular file.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "fake_engine.h"
#include "run/target.h"
#include "run/verify.h"
#include "stats/iolog.h"
#include "sys/job_paths.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using sys::JobFilePaths;
using sys::JobNameIsTarget;
using sys::TargetPaths;
using testing::TempDir;
using testing::TestJob;
using Paths = std::vector<std::string>;

JobSpec Named(const std::string& name) { return TestJob(name, RwMode::kRead, 4096, 64 << 10); }

// [/dev/null]: the device itself, for every clone (they share it, as in
// fio), whatever filename_format says; iobench used to look for
// /dev/null.0.0 ("device /dev/null.0.0 does not exist").
TEST(JobPathsTest, ADeviceNamedByTheJobIsItsFile) {
  JobSpec j = Named("/dev/null");
  j.numjobs = 4;
  EXPECT_TRUE(JobNameIsTarget(j));
  EXPECT_EQ(TargetPaths(j, 0), Paths{"/dev/null"});
  EXPECT_EQ(TargetPaths(j, 3), Paths{"/dev/null"});
  EXPECT_EQ(JobFilePaths(j), Paths{"/dev/null"});
  j.filename_format = "$jobname.$jobnum";  // fio checks the name first
  EXPECT_EQ(TargetPaths(j, 2), Paths{"/dev/null"});
}

// Only with one file per clone and nothing else naming the files: fio's
// nr_files == 1, no filename= (nor opendir=, which adds files), no
// read_iolog (the log names them).
TEST(JobPathsTest, OnlyWhenNothingElseNamesTheFiles) {
  JobSpec j = Named("/dev/zero");
  j.nrfiles = 2;
  EXPECT_FALSE(JobNameIsTarget(j));
  EXPECT_EQ(TargetPaths(j, 0), (Paths{"/dev/zero.0.0", "/dev/zero.0.1"}));
  j = Named("/dev/zero");
  j.filenames = {"/tmp/f"};
  EXPECT_FALSE(JobNameIsTarget(j));
  EXPECT_EQ(TargetPaths(j, 0), Paths{"/tmp/f"});
  j = Named("/dev/zero");
  j.opendir = "/tmp";
  EXPECT_FALSE(JobNameIsTarget(j));
  j = Named("/dev/zero");
  j.read_iolog = "trace.log";
  EXPECT_FALSE(JobNameIsTarget(j));
}

// lstat(), as fio: anything but a regular file counts, a symlink too
// (/dev/disk/by-id/... names are symlinks to block devices); a regular file
// or a missing name gets the generated names.
TEST(JobPathsTest, WhatCountsIsLstatNotARegularFile) {
  TempDir dir("/tmp");
  ASSERT_TRUE(dir.ok());
  const std::string reg = dir.Write("reg", "x");
  ASSERT_EQ(mkdir((dir / "sub").c_str(), 0700), 0);
  ASSERT_EQ(mkfifo((dir / "fifo").c_str(), 0600), 0);
  ASSERT_EQ(symlink(reg.c_str(), (dir / "link").c_str()), 0);
  ASSERT_EQ(symlink((dir / "none").c_str(), (dir / "dangling").c_str()), 0);
  for (const char* n : {"sub", "fifo", "link", "dangling"}) {
    const std::string name = dir / n;
    EXPECT_TRUE(JobNameIsTarget(Named(name))) << n;
    EXPECT_EQ(TargetPaths(Named(name), 1), Paths{name}) << n;
  }
  for (const char* n : {"reg", "missing"}) {
    const std::string name = dir / n;
    EXPECT_FALSE(JobNameIsTarget(Named(name))) << n;
    EXPECT_EQ(TargetPaths(Named(name), 1), Paths{name + ".1.0"}) << n;
  }
}

// directory= goes in front as for any name, as fio's add_file: a relative
// name is looked up as written (here ".", which always exists) and placed
// in the clone's directory; an absolute one becomes <directory><name>
// (fio: /d/dev/null, a regular file, never the device), which the run
// refuses, as the parser refuses directory= with an absolute filename=.
TEST(JobPathsTest, DirectoryGoesInFrontAsInFio) {
  JobSpec j = Named(".");
  j.directory = "/d1:/d2";
  EXPECT_EQ(TargetPaths(j, 0), Paths{"/d1/."});
  EXPECT_EQ(TargetPaths(j, 1), Paths{"/d2/."});
  j = Named("/dev/null");
  j.directory = "/d/";
  EXPECT_EQ(TargetPaths(j, 0), Paths{"/d/dev/null"});
  j.directory = "/d";
  EXPECT_EQ(TargetPaths(j, 0), Paths{"/d/dev/null"});
  j.rw = RwMode::kWrite;
  auto r = ResolveTargets(j, 0, /*diskless=*/false);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("the job's name is the existing path /dev/null"),
            std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("fio would use /d/dev/null"), std::string::npos);
}

// A generated name that is absolute (through $jobname; the parser refuses
// an absolute filename_format with directory=) goes under directory= as in
// fio's add_file, never alone: iobench used the absolute path itself.
TEST(JobPathsTest, DirectoryGoesInFrontOfAbsoluteGeneratedNames) {
  JobSpec j = Named("/no/such/job");
  j.nrfiles = 2;
  j.directory = "d";
  EXPECT_EQ(TargetPaths(j, 0), (Paths{"d/no/such/job.0.0", "d/no/such/job.0.1"}));
  j.filename_format = "/dev/loop0";
  j.nrfiles = 1;
  j.directory = "d/";
  EXPECT_EQ(TargetPaths(j, 0), Paths{"d/dev/loop0"});
  j.directory = "";
  EXPECT_EQ(TargetPaths(j, 0), Paths{"/dev/loop0"});
}

// The run resolves the named node; a directory named like the job is
// refused with why (fio fails such a job too: "Is a directory").
TEST(JobPathsTest, ResolvesTheNamedNode) {
  JobSpec j = Named("/dev/zero");
  j.numjobs = 2;
  for (int clone : {0, 1}) {
    auto r = ResolveTargets(j, clone, /*diskless=*/false);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_EQ(r->size(), 1u);
    EXPECT_EQ(r->at(0).path, "/dev/zero");
    EXPECT_TRUE(r->at(0).is_char_device);
  }
  TempDir dir("/tmp");
  auto r = ResolveTargets(Named(dir.path()), 0, /*diskless=*/false);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("is a directory (the job's name"), std::string::npos)
      << r.status().message();
}

// Files named after the job never land among the device nodes: fio creates
// /dev/sdb_bw.1.log for [/dev/sdb] with a bare write_bw_log; iobench writes
// sdb_bw.1.log in the current directory and says so. A prefix the user
// gives is used as given.
TEST(JobPathsTest, FilesNamedAfterTheJobStayOutOfDev) {
  EXPECT_EQ(sys::JobNameFilePrefix("/dev/loop1"), "loop1");
  EXPECT_EQ(sys::JobNameFilePrefix("/dev/mapper/vg-lv"), "vg-lv");
  EXPECT_EQ(sys::JobNameFilePrefix("/dev/"), "dev");
  EXPECT_EQ(sys::JobNameFilePrefix("/dev/shm/j"), "/dev/shm/j");
  EXPECT_EQ(sys::JobNameFilePrefix("/mnt/j"), "/mnt/j");
  EXPECT_EQ(sys::JobNameFilePrefix("j"), "j");

  JobSpec j = Named("/dev/loop1");
  j.bw_log_set = j.lat_log_set = true;
  IoLogOptions o = IoLogOptions::FromJob(j);
  EXPECT_EQ(o.bw_prefix, "loop1");
  EXPECT_EQ(o.lat_prefix, "loop1");
  EXPECT_EQ(LogFileName(o.bw_prefix, LogKind::kBw, 0, true), "loop1_bw.1.log");
  EXPECT_NE(o.name_note.find("/dev/loop1_*.log"), std::string::npos) << o.name_note;
  j.write_bw_log = "/dev/shm/mine";
  j.lat_log_set = false;
  o = IoLogOptions::FromJob(j);
  EXPECT_EQ(o.bw_prefix, "/dev/shm/mine");
  EXPECT_EQ(o.name_note, "");
  j = Named("plain");
  j.bw_log_set = true;
  o = IoLogOptions::FromJob(j);
  EXPECT_EQ(o.bw_prefix, "plain");
  EXPECT_EQ(o.name_note, "");

  // fio's verify_state_gen_name turns '/' into '.'.
  EXPECT_EQ(Verifier::StateFileName("/dev/sdb", 0), "local-.dev.sdb-0-verify.state");
}

// filename_format keywords match in any case, as fio's strcasestr.
TEST(JobPathsTest, FormatKeywordsInAnyCase) {
  JobSpec j = Named("j");
  j.filename_format = "$JOBNAME.$JobNum.$fileNUM$ClientUid";
  EXPECT_EQ(TargetPaths(j, 1), Paths{"j.1.0"});
}

// [a] name=b: the job is b, its files a's, as fio names them after the
// section (it made a.0.0 and a.x; iobench made b.0.0 and b.x), and a
// section named after a device stays that device.
TEST(JobPathsTest, FilesAreNamedAfterTheSectionNotName) {
  JobSpec j = Named("b");
  j.section = "a";
  j.numjobs = 2;
  EXPECT_EQ(JobFilePaths(j), (Paths{"a.0.0", "a.1.0"}));
  j.filename_format = "$jobname.x";
  EXPECT_EQ(TargetPaths(j, 0), Paths{"a.x"});
  j.section = "/dev/null";
  EXPECT_TRUE(JobNameIsTarget(j));
  EXPECT_EQ(TargetPaths(j, 1), Paths{"/dev/null"});
  j.section.clear();  // a job built without a section: its name
  EXPECT_EQ(TargetPaths(j, 0), Paths{"b.x"});
}

// directory=: empty parts are skipped, as fio ("x::y" is x:y, "x:" is x).
TEST(JobPathsTest, EmptyDirectoryPartsAreSkipped) {
  JobSpec j = Named("j");
  j.filename_format = "f";
  j.directory = "x::y";
  EXPECT_EQ(sys::JobDirectories(j), (Paths{"x", "y"}));
  EXPECT_EQ(TargetPaths(j, 1), Paths{"y/f"});
  j.directory = ":x:";
  EXPECT_EQ(sys::JobDirectories(j), Paths{"x"});
}

// Every clone's files once each, in the order the clones name them, however
// many (e2e many_files_scale.sh: a million files in a few seconds).
TEST(JobPathsTest, JobFilePathsKeepsFirstOrderWithoutRepeats) {
  JobSpec j = Named("j");
  j.numjobs = 3;
  j.nrfiles = 2;
  j.filename_format = "f.$filenum";  // every clone names f.0 and f.1
  j.directory = "y:x";
  EXPECT_EQ(JobFilePaths(j), (Paths{"y/f.0", "y/f.1", "x/f.0", "x/f.1"}));
  j.filename_format = "$jobnum.$filenum";
  j.directory.clear();
  EXPECT_EQ(JobFilePaths(j), (Paths{"0.0", "0.1", "1.0", "1.1", "2.0", "2.1"}));
  j.numjobs = 1;
  j.nrfiles = 100000;
  const Paths many = JobFilePaths(j);
  ASSERT_EQ(many.size(), 100000u);
  EXPECT_EQ(many[99999], "0.99999");
}

// --parse-only shows the first paths and the count: it built every clone's
// names to print eight (nrfiles=100000 numjobs=100: ten million names, 29 s
// and 1.1 GB; nrfiles=1048576 numjobs=65536 grew without bound). Whatever
// the format, the head and the count are those of JobFilePaths.
TEST(JobPathsTest, JobFilePathsHeadAgreesWithTheFullListAndScales) {
  JobSpec j = Named("j");
  j.numjobs = 3;
  j.nrfiles = 4;
  for (const char* fmt : {"$jobname.$jobnum.$filenum", "f.$filenum", "$jobnum$filenum",
                          "$JOBNUM-$FILENUM", "$jobnum.$filenum.$filenum", "x1$jobnum.$filenum"}) {
    for (const char* dir : {"", "d", "d:e"}) {
      j.filename_format = fmt;
      j.directory = dir;
      const Paths all = JobFilePaths(j);
      for (size_t shown : {1u, 5u, 100u}) {
        size_t total = 0;
        const Paths head = sys::JobFilePathsHead(j, shown, &total);
        EXPECT_EQ(total, all.size()) << fmt << " " << dir;
        EXPECT_EQ(head, Paths(all.begin(), all.begin() + std::min(shown, all.size())))
            << fmt << " " << dir << " " << shown;
      }
    }
  }
  j.filename_format = "$jobname.$jobnum.$filenum";
  j.directory.clear();
  j.nrfiles = 1048576;
  j.numjobs = 65536;
  size_t total = 0;
  EXPECT_EQ(sys::JobFilePathsHead(j, 2, &total), (Paths{"j.0.0", "j.0.1"}));
  EXPECT_EQ(total, 68719476736u);
}

// fio's add_file: a clone after the first drops a generated name that a job
// with numjobs > 1 (this one's first clone, or an earlier job) took.
TEST(JobPathsTest, ClonesDropNamesTakenBefore) {
  JobSpec w = Named("w");
  w.filename_format = "f";
  JobSpec r = Named("r");
  r.filename_format = "f";
  r.numjobs = 2;
  sys::TakenNames taken;
  sys::AddTakenNames(w, 0, &taken);  // numjobs=1: takes nothing
  EXPECT_TRUE(taken.empty());
  sys::AddTakenNames(r, 1, &taken);
  std::vector<sys::TakenFile> dropped;
  EXPECT_EQ(sys::ClonePaths(r, 1, 0, taken, &dropped), Paths{"f"});
  EXPECT_EQ(sys::ClonePaths(r, 1, 1, taken, &dropped), Paths{});
  ASSERT_EQ(dropped.size(), 1u);
  EXPECT_EQ(dropped[0].path, "f");
  EXPECT_EQ(dropped[0].by_job, 1u);
  EXPECT_EQ(sys::ClonePaths(w, 0, 1, taken, nullptr), Paths{"f"});  // taken by a later job
  r.filename_format = "/dev/null";                                  // not a regular file: kept
  sys::AddTakenNames(r, 1, &taken);
  EXPECT_EQ(sys::ClonePaths(r, 1, 1, taken, nullptr), Paths{"/dev/null"});
}

// One file by any spelling, also before it exists: "x.log" and "./x.log"
// differed while neither existed (weakly_canonical made only the second one
// absolute), so --output=./x.log did not see the job's write_iolog=x.log.
TEST(JobPathsTest, SameFileByAnySpellingMadeOrNot) {
  TempDir dir("/tmp");
  ASSERT_TRUE(dir.ok());
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof(cwd)), nullptr);
  ASSERT_EQ(chdir(dir.path().c_str()), 0);
  EXPECT_TRUE(sys::SameFile("new.log", "./new.log"));
  EXPECT_TRUE(sys::SameFile("./new.log", "new.log"));
  EXPECT_TRUE(sys::SameFile("new.log", dir.path() + "/new.log"));
  EXPECT_TRUE(sys::SameFile("new.log", "sub/../new.log"));
  EXPECT_FALSE(sys::SameFile("new.log", "./other.log"));
  EXPECT_FALSE(sys::SameFile("new.log", "/new.log"));
  ASSERT_EQ(chdir(cwd), 0);
}

// The log files a clone writes, as IoLogger::Create opens them, each with
// the option that asks for it: the pre-run checks (--output naming one of
// them) use the same list.
TEST(JobPathsTest, LogFilesOfAClone) {
  JobSpec j = Named("x");
  j.bw_log_set = true;    // bare write_bw_log: the job's name
  j.write_lat_log = "l";  // slat, clat, lat ...
  j.disable_slat = true;  // ... but no slat file
  j.write_hist_log = "h";
  std::vector<std::pair<std::string, std::string>> got;
  for (const LogFile& f : LogFiles(IoLogOptions::FromJob(j), 2)) got.emplace_back(f.path, f.option);
  const std::vector<std::pair<std::string, std::string>> want = {
      {"x_bw.3.log", "write_bw_log"},
      {"l_clat.3.log", "write_lat_log"},
      {"l_lat.3.log", "write_lat_log"},
      {"h_clat_hist.3.log", "write_hist_log"}};
  EXPECT_EQ(got, want);
  j.per_job_logs = false;  // one file for every clone
  j.bw_log_set = false;
  j.write_lat_log.clear();
  j.write_hist_log.clear();
  j.write_iops_log = "i";
  got.clear();
  for (const LogFile& f : LogFiles(IoLogOptions::FromJob(j), 5)) got.emplace_back(f.path, f.option);
  EXPECT_EQ(got,
            (std::vector<std::pair<std::string, std::string>>{{"i_iops.log", "write_iops_log"}}));
  EXPECT_TRUE(LogFiles(IoLogOptions::FromJob(Named("y")), 0).empty());
}

// A new file among the device nodes is known by where it lands, not by
// the spelling: "/dev/" at the start of the text missed ../../dev/x,
// //dev/x, /tmp/../dev/x and /dev/shm/../x, each of which created a
// regular file in /dev. An existing node is opened, not created.
TEST(JobPathsTest, NewFileAmongDevicesByWhereItLands) {
  struct stat dev {
  }, root{}, shm{};
  if (stat("/dev", &dev) != 0 || stat("/", &root) != 0 || dev.st_dev == root.st_dev)
    GTEST_SKIP() << "/dev is not a mount of its own";
  const std::string missing = "iobench-unit-no-such-node-" + std::to_string(getpid());
  EXPECT_EQ(sys::NewFileAmongDevices("/dev/" + missing), "/dev");
  EXPECT_EQ(sys::NewFileAmongDevices("//dev/" + missing), "/dev");
  EXPECT_EQ(sys::NewFileAmongDevices("/tmp/../dev/" + missing), "/dev");
  EXPECT_EQ(sys::NewFileAmongDevices("/dev/" + missing + "/sub/x"), "/dev");  // dirs made too
  EXPECT_EQ(sys::NewFileAmongDevices("/dev/null"), "");
  EXPECT_EQ(sys::NewFileAmongDevices("/tmp/" + missing), "");
  EXPECT_EQ(sys::DirAmongDevices("/dev"), "/dev");
  EXPECT_EQ(sys::DirAmongDevices("/tmp"), "");
  if (stat("/dev/shm", &shm) == 0 && shm.st_dev != dev.st_dev) {
    EXPECT_EQ(sys::NewFileAmongDevices("/dev/shm/" + missing), "");
    EXPECT_EQ(sys::NewFileAmongDevices("/dev/shm/../" + missing), "/dev");
  }
  TempDir d;
  const std::string link = d.path() + "/devlink";
  ASSERT_EQ(symlink("/dev", link.c_str()), 0);
  EXPECT_EQ(sys::NewFileAmongDevices(link + "/" + missing), "/dev");
  const std::string dangling = d.path() + "/dangling";
  ASSERT_EQ(symlink(("../../../../../../../../dev/" + missing).c_str(), dangling.c_str()), 0);
  EXPECT_EQ(sys::NewFileAmongDevices(dangling), "/dev");
  EXPECT_EQ(sys::NewFileAmongDevices(d.path() + "/" + missing), "");
  // A ".." after a missing directory steps out of the directory that will be
  // made (the path was walked up as written: /dev/dev/x was created).
  EXPECT_EQ(sys::NewFileAmongDevices(d.path() + "/newd/../../../../../../../../../dev/" + missing),
            "/dev");
  EXPECT_EQ(sys::NewFileAmongDevices(d.path() + "/newd/../" + missing), "");
  EXPECT_EQ(sys::NewFileAmongDevices(d.path() + "/a/b/../../devlink/" + missing), "/dev");
  // Under a device node the open fails with ENOTDIR: no new file anywhere.
  EXPECT_EQ(sys::NewFileAmongDevices("/dev/null/" + missing), "");
}

}  // namespace
}  // namespace iobench
