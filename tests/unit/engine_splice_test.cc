// The splice engine's own logic (the engine conformance suite covers what
// every engine does): I/Os longer than the pipe go in 64 KiB chunks and land
// at their offsets, and a read that fails after its splice into the pipe
// leaves nothing there for the next read to find.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <memory>
#include <vector>

#include "iobench/engine.h"
#include "temp_dir.h"

namespace iobench {
namespace {

using testing::TempDir;

// Byte i of the file: its offset's pattern, so a read at the wrong offset shows.
uint8_t SpliceByteAt(uint64_t off) { return static_cast<uint8_t>((off * 7 + off / 4096) & 0xff); }

class SpliceEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    const std::string path = dir_ / "f";
    const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    ASSERT_GE(fd, 0);
    files_.push_back({path, fd, false, kFileSize});
    engine_ = FindEngine("splice")->factory();
    EngineContext ctx;
    ctx.job = &job_;
    ctx.files = &files_;
    ASSERT_TRUE(engine_->Init(ctx).ok());
    ASSERT_TRUE(engine_->IsSync());
  }
  void TearDown() override {
    engine_->Shutdown();
    close(files_[0].fd);
  }

  // Runs one I/O through the engine: its res.
  int64_t Io(IoOp op, uint64_t off, uint64_t len, void* buf) {
    IoRequest req;
    req.op = op;
    req.fd = files_[0].fd;
    req.offset = off;
    req.length = len;
    req.buf = buf;
    EXPECT_EQ(engine_->Queue(&req), QueueResult::kCompleted);
    return req.res;
  }

  static constexpr uint64_t kFileSize = 1 << 20;
  TempDir dir_{"/var/tmp"};
  JobSpec job_;
  std::vector<EngineFile> files_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(SpliceEngineTest, LongIosGoInChunksToTheirOffsets) {
  // 300 KiB + 100 bytes at 4 KiB: 5 chunks of the pipe's 64 KiB, the last short.
  const uint64_t off = 4096, len = 300 * 1024 + 100;
  std::vector<uint8_t> out(len), in(len, 0), back(len, 0);
  for (uint64_t i = 0; i < len; ++i) out[i] = SpliceByteAt(off + i);
  ASSERT_EQ(Io(IoOp::kWrite, off, len, out.data()), static_cast<int64_t>(len));
  ASSERT_EQ(pread(files_[0].fd, back.data(), len, static_cast<off_t>(off)),
            static_cast<ssize_t>(len));
  EXPECT_EQ(back, out);
  ASSERT_EQ(Io(IoOp::kRead, off, len, in.data()), static_cast<int64_t>(len));
  EXPECT_EQ(in, out);
  // Past the end: a short read, then 0 (fio's engine would loop forever).
  const uint64_t end = off + len;
  EXPECT_EQ(Io(IoOp::kRead, end - 100, 4096, in.data()), 100);
  EXPECT_EQ(Io(IoOp::kRead, end, 4096, in.data()), 0);
}

TEST_F(SpliceEngineTest, AFailedReadLeavesNothingInThePipe) {
  std::vector<uint8_t> data(3 * 4096);
  for (uint64_t i = 0; i < data.size(); ++i) data[i] = SpliceByteAt(i);
  ASSERT_EQ(pwrite(files_[0].fd, data.data(), data.size(), 0), static_cast<ssize_t>(data.size()));
  // A buffer the kernel cannot write: the splice into the pipe succeeds,
  // the vmsplice out of it fails with EFAULT.
  void* bad = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(bad, MAP_FAILED);
  EXPECT_EQ(Io(IoOp::kRead, 0, 4096, bad), -EFAULT);
  munmap(bad, 4096);
  // The next read gets its own offset's bytes, not the failed read's.
  std::vector<uint8_t> in(4096, 0);
  ASSERT_EQ(Io(IoOp::kRead, 8192, 4096, in.data()), 4096);
  EXPECT_TRUE(std::equal(in.begin(), in.end(), data.begin() + 8192));
  // A write whose buffer cannot be read fails before anything is in the pipe.
  bad = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(bad, MAP_FAILED);
  EXPECT_EQ(Io(IoOp::kWrite, 4096, 4096, bad), -EFAULT);
  munmap(bad, 4096);
  ASSERT_EQ(Io(IoOp::kRead, 4096, 4096, in.data()), 4096);
  EXPECT_TRUE(std::equal(in.begin(), in.end(), data.begin() + 4096));
}

}  // namespace
}  // namespace iobench
