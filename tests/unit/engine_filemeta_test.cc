// The file-metadata engines filecreate, filestat and filedelete driven
// through engine.h: each makes its call in FileCall (the worker times it),
// its I/Os complete in Queue without a call, and the registry checks refuse
// what is not a regular file. tests/e2e/filemeta_engines.sh runs them
// through the worker against fio 3.33.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "engines/engines.h"
#include "iobench/engine.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using testing::TempDir;

std::unique_ptr<Engine> Make(const char* name, uint8_t stat_type = 0) {
  const EngineInfo* info = FindEngine(name);
  EXPECT_NE(info, nullptr) << name;
  std::unique_ptr<Engine> e = info->factory();
  JobSpec job;
  job.stat_type = stat_type;
  e->Configure(job);
  return e;
}

EngineFile File(const std::string& path) {
  EngineFile f;
  f.path = path;
  return f;
}

bool Exists(const std::string& path) {
  struct stat st {};
  return lstat(path.c_str(), &st) == 0;
}

TEST(FileMetaEngine, FilecreateCreatesAnEmpty0600FileAndKeepsItsDescriptor) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  auto e = Make("filecreate");
  ASSERT_TRUE(e->CallsPerFile());
  ASSERT_TRUE(e->IsSync());
  Result<int> fd = e->FileCall(File(dir / "a"));
  ASSERT_TRUE(fd.ok()) << fd.status().message();
  ASSERT_GE(*fd, 0);
  struct stat st {};
  ASSERT_EQ(fstat(*fd, &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(st.st_size, 0);
  close(*fd);
  // In a directory that is not there: ENOENT, nothing made.
  Result<int> bad = e->FileCall(File(dir / "nodir/b"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().errno_value(), ENOENT);
  EXPECT_NE(bad.status().message().find("filecreate: open(" + (dir / "nodir/b")), std::string::npos)
      << bad.status().message();
  // A directory: EISDIR.
  ASSERT_EQ(mkdir((dir / "d").c_str(), 0755), 0);
  EXPECT_EQ(e->FileCall(File(dir / "d")).status().errno_value(), EISDIR);
}

TEST(FileMetaEngine, FilestatEachTypeOpensNothingAndFailsOnAMissingFile) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  ASSERT_EQ(close(open((dir / "f").c_str(), O_CREAT | O_WRONLY, 0644)), 0);
  ASSERT_EQ(symlink("missing", (dir / "dangling").c_str()), 0);
  for (uint8_t type = 0; type < 3; ++type) {
    auto e = Make("filestat", type);
    Result<int> r = e->FileCall(File(dir / "f"));
    ASSERT_TRUE(r.ok()) << int(type) << ": " << r.status().message();
    EXPECT_EQ(*r, -1);
    Result<int> missing = e->FileCall(File(dir / "nope"));
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.status().errno_value(), ENOENT);
    // lstat takes the link itself; stat and statx follow it.
    EXPECT_EQ(e->FileCall(File(dir / "dangling")).ok(), type == 1) << int(type);
  }
}

TEST(FileMetaEngine, FiledeleteUnlinksOnceThenENOENT) {
  TempDir dir("/dev/shm");
  ASSERT_TRUE(dir.ok());
  ASSERT_EQ(close(open((dir / "f").c_str(), O_CREAT | O_WRONLY, 0644)), 0);
  auto e = Make("filedelete");
  Result<int> r = e->FileCall(File(dir / "f"));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(*r, -1);
  EXPECT_FALSE(Exists(dir / "f"));
  Result<int> again = e->FileCall(File(dir / "f"));
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().errno_value(), ENOENT);
}

TEST(FileMetaEngine, QueueCompletesWithTheLengthAndNoCall) {
  for (const char* name : {"filecreate", "filestat", "filedelete"}) {
    auto e = Make(name);
    IoRequest req;
    req.op = IoOp::kWrite;
    req.fd = -1;  // never used
    req.length = 4096;
    EXPECT_EQ(e->Queue(&req), QueueResult::kCompleted) << name;
    EXPECT_EQ(req.res, 4096) << name;
    req.op = IoOp::kFsync;
    EXPECT_EQ(e->Queue(&req), QueueResult::kCompleted) << name;
    EXPECT_EQ(req.res, 0) << name;
  }
}

TEST(FileMetaEngine, OtherEnginesMakeNoFileCall) {
  for (const auto& info : EngineRegistry()) {
    if (info.factory == nullptr) continue;
    const std::string name = info.name;
    const bool meta = name == "filecreate" || name == "filestat" || name == "filedelete";
    EXPECT_EQ(info.factory()->CallsPerFile(), meta) << name;
  }
}

TEST(FileMetaEngine, CheckRefusesADeviceAndVerify) {
  for (const char* name : {"filecreate", "filestat", "filedelete"}) {
    const EngineInfo* info = FindEngine(name);
    ASSERT_NE(info->check_job, nullptr);
    JobSpec job;
    Status st = info->check_job(job, {File("/dev/null")});
    EXPECT_EQ(st.code(), Status::Code::kUnsupported) << name;
    EXPECT_NE(st.message().find("/dev/null is not a regular file"), std::string::npos)
        << st.message();
    job.verify.type = VerifyType::kCrc32c;
    EXPECT_FALSE(info->check_job(job, {}).ok()) << name;
  }
}

}  // namespace
}  // namespace iobench
