// ctest-labels: threads
// Verifier on real files (tmpfs and ext4): write through PrepareWrite +
// pwrite, damage the file the way real storage does, read back and check the
// failure is found, classified and located.
#include "run/verify.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "run/verify_async.h"
#include "temp_dir.h"
#include "verify_test_util.h"

namespace iobench {
namespace {

using testing::TempDir;
using verify_testing::PreadAll;
using verify_testing::PwriteAll;
using verify_testing::VerifyJob;

constexpr uint64_t kBs = 4096;
constexpr uint64_t kBlocks = 16;

// A file of kBlocks blocks written through one Verifier.
class VerifyFile {
 public:
  // base: where the region (and the grid of chunks) starts.
  VerifyFile(const std::string& dir, const JobSpec& job, uint64_t seed = 42, uint32_t jobnum = 0,
             uint64_t base = 0)
      : path_(dir + "/target"), buf_(kBs * 4) {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT, 0644);
    auto v = Verifier::Create(job, jobnum, seed);
    EXPECT_TRUE(v.ok()) << v.status().ToString();
    if (v.ok()) v_ = std::move(v).value();
    if (v_) {
      EXPECT_TRUE(v_->AddFile(0, base, base + kBlocks * kBs).ok());
    }
  }
  ~VerifyFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  // Writes [off, off+len) completely and reports completion.
  void Write(uint64_t off, uint64_t len = kBs) {
    auto t = v_->PrepareWrite(buf_.data(), len, 0, off);
    ASSERT_TRUE(PwriteAll(fd_, buf_.data(), len, off));
    v_->OnWriteComplete(t, true);
  }
  void WriteAll() {
    for (uint64_t b = 0; b < kBlocks; ++b) Write(b * kBs);
  }
  Status Check(uint64_t off, uint64_t len, VerifyFailure* f = nullptr,
               std::vector<VerifyFailure>* more = nullptr) {
    std::vector<uint8_t> r(len);
    EXPECT_TRUE(PreadAll(fd_, r.data(), len, off));
    return v_->CheckRead(r.data(), len, 0, path_, off, f, more);
  }
  std::vector<uint8_t> ReadBytes(uint64_t off, uint64_t len) {
    std::vector<uint8_t> r(len);
    EXPECT_TRUE(PreadAll(fd_, r.data(), len, off));
    return r;
  }
  void PutBytes(uint64_t off, const std::vector<uint8_t>& b) {
    ASSERT_TRUE(PwriteAll(fd_, b.data(), b.size(), off));
  }
  void FlipByte(uint64_t off) {
    auto b = ReadBytes(off, 1);
    b[0] ^= 0x5a;
    PutBytes(off, b);
  }
  Verifier& v() { return *v_; }
  const std::string& path() const { return path_; }
  int fd() const { return fd_; }
  std::vector<uint8_t>& buf() { return buf_; }

 private:
  std::string path_;
  int fd_ = -1;
  std::unique_ptr<Verifier> v_;
  std::vector<uint8_t> buf_;
};

const char* const kDirs[] = {"/dev/shm", "/var/tmp"};

const VerifyType kAllTypes[] = {
    VerifyType::kCrc32c,   VerifyType::kCrc32cIntel, VerifyType::kCrc32,    VerifyType::kCrc64,
    VerifyType::kCrc16,    VerifyType::kXxhash,      VerifyType::kMd5,      VerifyType::kSha1,
    VerifyType::kSha256,   VerifyType::kSha512,      VerifyType::kSha3_224, VerifyType::kSha3_256,
    VerifyType::kSha3_384, VerifyType::kSha3_512,    VerifyType::kMeta};

class VerifyEachType : public ::testing::TestWithParam<std::tuple<const char*, VerifyType>> {};

TEST_P(VerifyEachType, WriteThenReadBackPasses) {
  TempDir dir(std::get<0>(GetParam()));
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(std::get<1>(GetParam())));
  f.WriteAll();
  // Read back in 16 KiB reads: four chunks per CheckRead.
  for (uint64_t off = 0; off < kBlocks * kBs; off += 4 * kBs) {
    Status st = f.Check(off, 4 * kBs);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  EXPECT_EQ(f.v().counters().chunks_written, kBlocks);
  EXPECT_EQ(f.v().counters().chunks_verified, kBlocks);
  EXPECT_EQ(f.v().counters().failures, 0u);
}

TEST_P(VerifyEachType, FlippedDataByteIsFoundAtItsOffset) {
  TempDir dir(std::get<0>(GetParam()));
  ASSERT_TRUE(dir.ok());
  const VerifyType type = std::get<1>(GetParam());
  VerifyFile f(dir.path(), VerifyJob(type));
  f.WriteAll();
  const uint64_t bad = 5 * kBs + 1000;  // in the data, past the 128-byte header
  f.FlipByte(bad);
  VerifyFailure fail;
  Status st = f.Check(4 * kBs, 4 * kBs, &fail);
  if (type == VerifyType::kMeta) {  // meta checks the header only
    EXPECT_TRUE(st.ok()) << st.ToString();
    return;
  }
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.errno_value(), EILSEQ);
  EXPECT_EQ(fail.kind, VerifyFailureKind::kBadData);
  EXPECT_EQ(fail.offset, 5 * kBs);
  EXPECT_EQ(fail.length, kBs);
  EXPECT_EQ(fail.first_diff, bad);
  EXPECT_EQ(fail.actual_byte, fail.expected_byte ^ 0x5a);
  EXPECT_NE(
      st.message().find("verify: " + f.path() + ": bad data block at offset 20480, length 4096: " +
                        // crc32c-intel is crc32c (fio's other name for it)
                        std::string(VerifyTypeName(OnMediaVerifyType(type))) +
                        " data checksum mismatch: the header's fields are intact, the data "
                        "does not match the checksum stored in the header (either may be "
                        "damaged)"),
      std::string::npos)
      << st.message();
  EXPECT_EQ(st.message().find("torn"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("first differing byte at file offset 21480 (block byte 1000)"),
            std::string::npos)
      << st.message();
  EXPECT_EQ(f.v().counters().failures, 1u);
}

INSTANTIATE_TEST_SUITE_P(Verify, VerifyEachType,
                         ::testing::Combine(::testing::ValuesIn(kDirs),
                                            ::testing::ValuesIn(kAllTypes)),
                         [](const auto& info) {
                           std::string n = std::string(std::get<0>(info.param)) + "_" +
                                           std::string(VerifyTypeName(std::get<1>(info.param)));
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

class VerifyOnFs : public ::testing::TestWithParam<const char*> {};
INSTANTIATE_TEST_SUITE_P(Verify, VerifyOnFs, ::testing::ValuesIn(kDirs),
                         [](const auto& info) { return std::string(info.param + 5); });

// The timestamp cannot be rebuilt; a byte changed in it was reported at block
// byte 12 (the header CRC, intact on disk), and docs/verify.md's example
// (block byte 57) could not be produced.
TEST_P(VerifyOnFs, FlippedTimestampByteIsFoundAtItsOffset) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c));
  f.WriteAll();
  f.FlipByte(3 * kBs + 57);  // the timestamp's second byte
  VerifyFailure fail;
  Status st = f.Check(3 * kBs, kBs, &fail);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kCorrupted);
  EXPECT_EQ(fail.first_diff, 3 * kBs + 57);
  EXPECT_EQ(fail.actual_byte, fail.expected_byte ^ 0x5a);
  EXPECT_NE(st.message().find("first differing byte at file offset 12345 (block byte 57)"),
            std::string::npos)
      << st.message();
}

TEST_P(VerifyOnFs, FlippedHeaderByteIsCorrupted) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c));
  f.WriteAll();
  f.FlipByte(3 * kBs + 17);  // inside the header's offset field
  VerifyFailure fail;
  Status st = f.Check(3 * kBs, kBs, &fail);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kCorrupted);
  EXPECT_FALSE(fail.actual_header_valid);
  EXPECT_TRUE(fail.expected_known);
  EXPECT_EQ(fail.expected.offset, 3 * kBs);
  EXPECT_EQ(fail.first_diff, 3 * kBs + 17);
  EXPECT_NE(st.message().find("corrupted block at offset 12288, length 4096: header checksum "
                              "(CRC-32C) mismatch"),
            std::string::npos)
      << st.message();
}

// A byte flipped in the stored checksum (block byte 64, after the CRC'd
// header bytes): the data is good, so the message may not say it is bad.
// It said "the header is intact, the data does not match the checksum in
// it".
TEST_P(VerifyOnFs, FlippedStoredChecksumByteDoesNotBlameTheData) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kSha256));
  f.WriteAll();
  f.FlipByte(3 * kBs + 64);
  VerifyFailure fail;
  Status st = f.Check(3 * kBs, kBs, &fail);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kBadData);
  EXPECT_EQ(fail.first_diff, 3 * kBs + 64);
  EXPECT_NE(st.message().find("sha256 data checksum mismatch: the header's fields are intact, "
                              "the data does not match the checksum stored in the header "
                              "(either may be damaged)"),
            std::string::npos)
      << st.message();
  EXPECT_EQ(st.message().find("header is intact"), std::string::npos) << st.message();
}

TEST_P(VerifyOnFs, StaleBlockIsFound) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kSha256));
  f.WriteAll();
  auto gen1 = f.ReadBytes(7 * kBs, kBs);
  f.Write(7 * kBs);  // generation 2
  ASSERT_TRUE(f.Check(7 * kBs, kBs).ok());
  f.PutBytes(7 * kBs, gen1);  // the device "lost" the second write
  VerifyFailure fail;
  Status st = f.Check(7 * kBs, kBs, &fail);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kStale);
  EXPECT_EQ(fail.actual.generation, 1u);
  EXPECT_EQ(fail.expected.generation, 2u);
  EXPECT_NE(st.message().find("stale block at offset 28672, length 4096: generation 1 is older "
                              "than the last completed write's 2"),
            std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find("read header: magic=0x56424f49 version=1 type=sha256 length=4096 "
                              "offset=28672 file=0"),
            std::string::npos)
      << st.message();
}

TEST_P(VerifyOnFs, MisplacedBlockIsFound) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kXxhash));
  f.WriteAll();
  f.PutBytes(9 * kBs, f.ReadBytes(2 * kBs, kBs));  // block 2's bytes land at block 9
  VerifyFailure fail;
  Status st = f.Check(8 * kBs, 2 * kBs, &fail);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kMisplaced);
  EXPECT_EQ(fail.offset, 9 * kBs);
  EXPECT_EQ(fail.actual.offset, 2 * kBs);
  EXPECT_NE(st.message().find("misplaced block at offset 36864, length 4096: header is for file 0 "
                              "offset 8192, read from file 0 offset 36864"),
            std::string::npos)
      << st.message();
  // Only block 9 is bad: block 8 in the same read was checked first and passed.
  EXPECT_EQ(f.v().counters().chunks_verified, 1u);
}

// Bytes 64..127 hold the checksum; what a shorter checksum leaves unused is
// covered by neither CRC, so it must read back as the zeros written (fio's
// t/verify.py mangles 4 random bytes and expects every such change found).
TEST_P(VerifyOnFs, UnusedChecksumBytesMustBeZero) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  for (VerifyType type : {VerifyType::kMd5, VerifyType::kCrc32c, VerifyType::kMeta}) {
    VerifyFile f(dir.path(), VerifyJob(type));
    f.WriteAll();
    const uint64_t bad = 3 * kBs + 100;  // md5 uses bytes 64..79, crc32c 64..67
    f.FlipByte(bad);
    VerifyFailure fail;
    Status st = f.Check(0, kBlocks * kBs, &fail);
    ASSERT_FALSE(st.ok()) << VerifyTypeName(type);
    EXPECT_EQ(fail.kind, VerifyFailureKind::kCorrupted) << VerifyTypeName(type);
    EXPECT_EQ(fail.detail, "header byte 100 (unused by the checksum) is not zero");
    EXPECT_EQ(fail.first_diff, bad) << st.message();
    EXPECT_EQ(f.v().counters().chunks_verified, kBlocks - 1);  // the rest of the read too
  }
}

TEST_P(VerifyOnFs, TornBlockIsFoundWhereTheOldHalfStarts) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc64));
  f.WriteAll();
  auto old_block = f.ReadBytes(4 * kBs, kBs);
  f.Write(4 * kBs);
  // The new first half reached the media, the second half did not.
  f.PutBytes(4 * kBs + kBs / 2, std::vector<uint8_t>(old_block.begin() + kBs / 2, old_block.end()));
  VerifyFailure fail;
  Status st = f.Check(4 * kBs, kBs, &fail);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kBadData);
  EXPECT_EQ(fail.actual.generation, 2u);
  // Random bytes of two generations may agree by chance at the cut; the first
  // difference is at the cut or within a few bytes after it.
  EXPECT_GE(fail.first_diff, 4 * kBs + kBs / 2);
  EXPECT_LT(fail.first_diff, 4 * kBs + kBs / 2 + 8);
}

TEST_P(VerifyOnFs, ShortBlockIsTorn) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c));
  f.WriteAll();
  // Zeroes from the middle of block 6 on (a write that stopped half way
  // over a trimmed block).
  f.PutBytes(6 * kBs + 3000, std::vector<uint8_t>(kBs - 3000, 0));
  VerifyFailure fail;
  ASSERT_FALSE(f.Check(6 * kBs, kBs, &fail).ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kBadData);
  EXPECT_GE(fail.first_diff, 6 * kBs + 3000);
}

// A block newer than the state's record (written after the state was saved)
// is not stale, which says a write was lost: it used to read "stale block
// ...: generation 2 is newer than the last completed write's 1".
TEST_P(VerifyOnFs, NewerBlockThanTheStateIsNotCalledStale) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  const std::string state = dir.path() + "/" + Verifier::StateFileName("vjob", 0);
  {
    VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c));
    f.WriteAll();
    ASSERT_TRUE(f.v().SaveState(state).ok());
    f.Write(5 * kBs);  // generation 2, after the save
  }
  JobSpec job = VerifyJob(VerifyType::kCrc32c);
  job.verify.verify_only = true;
  job.verify.state_load = true;
  VerifyFile f(dir.path(), job);
  ASSERT_TRUE(f.v().LoadState(state).ok());
  VerifyFailure fail;
  const Status st = f.Check(5 * kBs, kBs, &fail);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kNewer);
  EXPECT_NE(st.message().find("block from another run at offset 20480, length 4096: generation 2 "
                              "is newer than the last completed write's 1"),
            std::string::npos)
      << st.message();
  EXPECT_EQ(st.message().find("stale"), std::string::npos) << st.message();
}

TEST_P(VerifyOnFs, StateSaveLoadVerifiesAcrossTwoRuns) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  const std::string state = dir.path() + "/" + Verifier::StateFileName("vjob", 0);
  EXPECT_EQ(Verifier::StateFileName("vjob", 3), "local-vjob-3-verify.state");
  std::vector<uint8_t> block3_gen1;
  {  // run 1: writes every block, block 3 twice; block 12's write fails
    VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c));
    f.WriteAll();
    block3_gen1 = f.ReadBytes(3 * kBs, kBs);
    f.Write(3 * kBs);
    auto t = f.v().PrepareWrite(f.buf().data(), kBs, 0, 12 * kBs);
    f.v().OnWriteComplete(t, false);
    ASSERT_TRUE(f.v().SaveState(state).ok());
  }
  JobSpec job = VerifyJob(VerifyType::kCrc32c);
  job.verify.verify_only = true;
  job.verify.state_load = true;
  {  // run 2: verify only, with the state
    VerifyFile f(dir.path(), job);
    Status st = f.v().LoadState(state);
    ASSERT_TRUE(st.ok()) << st.ToString();
    ASSERT_TRUE(f.Check(0, kBlocks * kBs).ok());
    EXPECT_EQ(f.v().counters().chunks_verified, kBlocks - 1);
    EXPECT_EQ(f.v().counters().chunks_skipped, 1u);  // block 12: its write failed
    // An old copy of block 3 is stale only because the state knows generation 2.
    f.PutBytes(3 * kBs, block3_gen1);
    VerifyFailure fail;
    ASSERT_FALSE(f.Check(3 * kBs, kBs, &fail).ok());
    EXPECT_EQ(fail.kind, VerifyFailureKind::kStale);
  }
  {  // without the state, verify_only accepts any generation
    VerifyFile f(dir.path(), job);
    EXPECT_TRUE(f.Check(0, kBlocks * kBs).ok());
  }
  {  // the seed is the writer's, taken from the state (randrepeat=0, or
     // the writer's place in the run, gives the checking job another one)
    VerifyFile f(dir.path(), job, /*seed=*/43);
    ASSERT_TRUE(f.v().LoadState(state).ok());
    EXPECT_EQ(f.v().seed(), 42u);
    VerifyFailure fail;
    ASSERT_FALSE(f.Check(3 * kBs, kBs, &fail).ok());  // still the stale block 3
    EXPECT_EQ(fail.kind, VerifyFailureKind::kStale);
    EXPECT_TRUE(f.Check(4 * kBs, 8 * kBs).ok());
  }
  {  // a state from another verify type or job is refused, naming the field
    JobSpec other = job;
    other.verify.type = VerifyType::kMd5;
    VerifyFile g(dir.path(), other);
    EXPECT_EQ(
        g.v().LoadState(state).message(),
        "verify_state_load: " + state + ": saved for verify=crc32c, this job uses verify=md5");
    VerifyFile h(dir.path(), job, 42, /*jobnum=*/1);
    EXPECT_EQ(h.v().LoadState(state).message(),
              "verify_state_load: " + state + ": saved for job number 0, this is 1");
  }
  {  // a state of another region is refused (it was loaded and read the writer's)
    VerifyFile f(dir.path(), job);
    ASSERT_TRUE(f.v().AddFile(0, 2 * kBs, 2 * kBs + kBlocks * kBs).ok());
    EXPECT_EQ(f.v().LoadState(state).message(),
              "verify_state_load: " + state + ": saved for a region at offset 0, this job's " +
                  "starts at 8192: use the writer's offset= (and offset_increment=, with numjobs)");
    ASSERT_TRUE(f.v().AddFile(0, 0, kBlocks / 2 * kBs).ok());
    EXPECT_EQ(f.v().LoadState(state).message(),
              "verify_state_load: " + state + ": saved for a region of " +
                  std::to_string(kBlocks * kBs) + " bytes, this job's is " +
                  std::to_string(kBlocks / 2 * kBs) + ": use the writer's size=");
    ASSERT_TRUE(f.v().AddFile(0, 0, 2 * kBlocks * kBs).ok());
    EXPECT_TRUE(f.v().LoadState(state).ok());  // a larger one is kept
  }
  {  // a damaged state file is refused
    std::fstream s(state, std::ios::in | std::ios::out | std::ios::binary);
    s.seekp(60);
    s.put('\x7f');
    s.close();
    VerifyFile f(dir.path(), job);
    EXPECT_EQ(f.v().LoadState(state).message(),
              "verify_state_load: " + state + ": checksum mismatch (truncated or damaged)");
  }
  {  // fio's state file (u64 version, size of the rest, CRC) is told apart
    const uint64_t header[3] = {3, 168, 0};
    std::ofstream s(state, std::ios::binary | std::ios::trunc);
    s.write(reinterpret_cast<const char*>(header), sizeof header);
    s.write(std::string(168, '\0').data(), 168);
    s.close();
    VerifyFile f(dir.path(), job);
    EXPECT_EQ(f.v().LoadState(state).message(),
              "verify_state_load: " + state +
                  ": this looks like fio's verify state file (version 3), which iobench does "
                  "not read: save the state with an iobench run of the writing job "
                  "(verify_state_save=1, the default)");
  }
}

TEST_P(VerifyOnFs, DumpWritesReceivedAndExpected) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  JobSpec job = VerifyJob(VerifyType::kMd5);
  job.verify.dump = true;
  VerifyFile f(dir.path(), job);
  f.WriteAll();
  auto good = f.ReadBytes(2 * kBs, kBs);
  f.FlipByte(2 * kBs + 2000);
  VerifyFailure fail;
  ASSERT_FALSE(f.Check(2 * kBs, kBs, &fail).ok());
  ASSERT_TRUE(Verifier::DumpFailure(fail, dir.path()).ok());
  auto slurp = [](const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_EQ(slurp(dir.path() + "/target.8192.expected"), good);
  EXPECT_EQ(slurp(dir.path() + "/target.8192.received"), f.ReadBytes(2 * kBs, kBs));
}

TEST_P(VerifyOnFs, PatternVerify) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  JobSpec job = VerifyJob(VerifyType::kPattern);
  job.verify.pattern = {0xde, 0xad, 0xbe};
  VerifyFile f(dir.path(), job);
  f.WriteAll();
  auto b = f.ReadBytes(kBs, 6);
  EXPECT_EQ(b, (std::vector<uint8_t>{0xde, 0xad, 0xbe, 0xde, 0xad, 0xbe}));
  EXPECT_TRUE(f.Check(0, kBlocks * kBs).ok());
  f.FlipByte(11 * kBs + 100);
  VerifyFailure fail;
  Status st = f.Check(8 * kBs, 4 * kBs, &fail);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kPattern);
  EXPECT_EQ(fail.first_diff, 11 * kBs + 100);
  EXPECT_EQ(fail.expected_byte, 0xad);  // 100 % 3 == 1
  EXPECT_EQ(st.message(), "verify: " + f.path() +
                              ": pattern mismatch block at offset 45056, length 4096: data "
                              "differs from verify_pattern; first differing byte at file offset "
                              "45156 (block byte 100): expected 0xad, read 0xf7");
}

TEST_P(VerifyOnFs, ChecksumWithVerifyPatternFillsThePattern) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  JobSpec job = VerifyJob(VerifyType::kCrc32c);
  job.verify.pattern = {0x11, 0x22};
  VerifyFile f(dir.path(), job);
  f.WriteAll();
  EXPECT_EQ(f.ReadBytes(kBs + kVerifyHeaderSize, 4),
            (std::vector<uint8_t>{0x11, 0x22, 0x11, 0x22}));
  EXPECT_TRUE(f.Check(0, kBlocks * kBs).ok());
  f.FlipByte(kBs + 300);
  VerifyFailure fail;
  ASSERT_FALSE(f.Check(kBs, kBs, &fail).ok());
  EXPECT_EQ(fail.first_diff, kBs + 300);
}

// verify=meta with verify_pattern compares the data with the pattern (fio's
// verify_io_u_pattern for VERIFY_HDR_ONLY): a flipped data byte used to pass
// ("0 failed", exit 0; fio: "pattern: verify failed", err=84). Data before a
// moved header (verify_offset), a %o pattern and a chunk too short for a
// header are compared too.
TEST_P(VerifyOnFs, MetaWithPatternChecksTheData) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  JobSpec job = VerifyJob(VerifyType::kMeta);
  job.verify.pattern = {0x5a};
  {
    VerifyFile f(dir.path(), job);
    f.WriteAll();
    EXPECT_TRUE(f.Check(0, kBlocks * kBs).ok());
    f.FlipByte(3 * kBs + 2000);
    VerifyFailure fail;
    Status st = f.Check(0, 4 * kBs, &fail);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(fail.kind, VerifyFailureKind::kPattern);
    EXPECT_EQ(fail.offset, 3 * kBs);
    EXPECT_EQ(fail.first_diff, 3 * kBs + 2000);
    EXPECT_EQ(fail.expected_byte, 0x5a);
    EXPECT_NE(st.message().find("pattern mismatch block at offset 12288, length 4096: data "
                                "differs from verify_pattern; read header: "),
              std::string::npos)
        << st.message();
    // A header byte is still a header failure.
    f.Write(3 * kBs);
    f.FlipByte(3 * kBs + 20);
    ASSERT_FALSE(f.Check(3 * kBs, kBs, &fail).ok());
    EXPECT_EQ(fail.kind, VerifyFailureKind::kCorrupted);
  }
  job.verify.offset = 512;  // data on both sides of the header
  job.verify.pattern = {0xff, 0, 0, 0, 0, 0, 0, 0, 0, 'a', 'b'};
  job.verify.pattern_offsets = {1};  // 0xff%o"ab"
  VerifyFile f(dir.path(), job);
  f.WriteAll();
  EXPECT_TRUE(f.Check(0, kBlocks * kBs).ok());
  EXPECT_EQ(f.v().counters().chunks_verified, kBlocks);
  for (uint64_t at : {5 * kBs + 100, 6 * kBs + 512 + 128 + 7, 7 * kBs + 3}) {
    f.FlipByte(at);
    VerifyFailure fail;
    ASSERT_FALSE(f.Check(at / kBs * kBs, kBs, &fail).ok()) << at;
    EXPECT_EQ(fail.kind, VerifyFailureKind::kPattern) << at;
    EXPECT_EQ(fail.first_diff, at);
  }
  // A write ending 100 bytes into a chunk: that short chunk has no header,
  // only pattern bytes, and they are checked.
  f.Write(8 * kBs, kBs + 100);
  EXPECT_TRUE(f.Check(8 * kBs, kBs + 100).ok());
  f.FlipByte(9 * kBs + 50);
  VerifyFailure fail;
  ASSERT_FALSE(f.Check(9 * kBs, 100, &fail).ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kPattern);
  EXPECT_EQ(fail.first_diff, 9 * kBs + 50);
}

// verify_pattern=0xff%o"abcd": every repetition carries the block offset.
TEST_P(VerifyOnFs, PatternOffsetIsWrittenAndChecked) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  JobSpec job = VerifyJob(VerifyType::kPattern);
  job.verify.pattern = {0xff, 0, 0, 0, 0, 0, 0, 0, 0, 'a', 'b', 'c', 'd'};
  job.verify.pattern_offsets = {1};
  VerifyFile f(dir.path(), job);
  f.WriteAll();
  for (uint64_t block : {uint64_t{0}, uint64_t{5}, kBlocks - 1}) {
    const uint64_t off = block * kBs;
    const auto got = f.ReadBytes(off, kBs);
    for (uint64_t i = 0; i < kBs; ++i) {
      const uint64_t k = i % 13;
      const uint8_t want = k == 0  ? 0xff
                           : k < 9 ? static_cast<uint8_t>(off >> (8 * (k - 1)))
                                   : static_cast<uint8_t>("abcd"[k - 9]);
      ASSERT_EQ(got[i], want) << "block " << block << " byte " << i;
    }
  }
  EXPECT_TRUE(f.Check(0, kBlocks * kBs).ok());
  // Block 2 copied over block 7: its offset bytes say 0x2000, not 0x7000.
  f.PutBytes(7 * kBs, f.ReadBytes(2 * kBs, kBs));
  VerifyFailure fail;
  Status st = f.Check(6 * kBs, 2 * kBs, &fail);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kPattern);
  EXPECT_EQ(fail.offset, 7 * kBs);
  EXPECT_EQ(fail.first_diff, 7 * kBs + 2);
  EXPECT_EQ(fail.expected_byte, 0x70);
  EXPECT_EQ(fail.actual_byte, 0x20);
  // With a checksum type the %o data is covered by the checksum.
  JobSpec crc = VerifyJob(VerifyType::kCrc32c);
  crc.name = "crcjob";
  crc.verify.pattern = job.verify.pattern;
  crc.verify.pattern_offsets = {1};
  TempDir dir2(GetParam());
  VerifyFile g(dir2.path(), crc);
  g.WriteAll();
  EXPECT_TRUE(g.Check(0, kBlocks * kBs).ok());
  const auto data = g.ReadBytes(3 * kBs + kVerifyHeaderSize, 9);
  EXPECT_EQ(data, (std::vector<uint8_t>{0xff, 0x00, 0x30, 0, 0, 0, 0, 0, 0}));
}

TEST(VerifyCreate, PatternOffsetMustFit) {
  JobSpec job = VerifyJob(VerifyType::kPattern);
  job.verify.pattern = {1, 2, 3, 4};
  job.verify.pattern_offsets = {0};
  auto v = Verifier::Create(job, 0, 1);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.status().message().find("%o at byte 0 does not fit in the 4-byte pattern"),
            std::string::npos);
}

// verify_async_cpus: the check threads run where it says, seen by the
// kernel (/proc/self/task/*/status of the threads named "<name>-vN").
TEST(VerifyAsyncPoolTest, CpusPinTheCheckThreads) {
  const long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  if (ncpu < 2) GTEST_SKIP() << "needs 2 CPUs to tell a pinned thread from a free one";
  const int last = static_cast<int>(ncpu - 1);
  auto v = Verifier::Create(VerifyJob(VerifyType::kCrc32c), 0, 1);
  ASSERT_TRUE(v.ok());
  auto pool = VerifyAsyncPool::Create(v->get(), 2, 8, "vacpu", {last});
  ASSERT_TRUE(pool.ok()) << pool.status().ToString();
  int seen = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream comm(e.path() / "comm");
    std::string name;
    std::getline(comm, name);
    if (name.rfind("vacpu-v", 0) != 0) continue;
    std::ifstream status(e.path() / "status");
    std::string line;
    while (std::getline(status, line))
      if (line.rfind("Cpus_allowed_list:", 0) == 0) {
        EXPECT_EQ(line, "Cpus_allowed_list:\t" + std::to_string(last)) << name;
        ++seen;
      }
  }
  EXPECT_EQ(seen, 2);
}

// verify_async: checkers on other threads give what CheckRead gives.
TEST_P(VerifyOnFs, CheckersOnThreadsMatchCheckRead) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kSha256));
  f.WriteAll();
  f.FlipByte(9 * kBs + 77);
  VerifyFailure inline_fail;
  const Status inline_st = f.Check(9 * kBs, kBs, &inline_fail);
  ASSERT_FALSE(inline_st.ok());
  const VerifyCounters before = f.v().counters();
  const std::vector<uint8_t> data = f.ReadBytes(0, kBlocks * kBs);
  std::vector<std::unique_ptr<VerifyChecker>> checkers;
  for (int t = 0; t < 4; ++t) {
    auto c = f.v().NewChecker();
    ASSERT_TRUE(c.ok());
    checkers.push_back(std::move(c).value());
  }
  std::vector<Status> st(kBlocks);
  std::vector<VerifyFailure> fails(kBlocks);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (uint64_t b = static_cast<uint64_t>(t); b < kBlocks; b += 4)
        st[b] = f.v().CheckReadWith(checkers[static_cast<size_t>(t)].get(), data.data() + b * kBs,
                                    kBs, 0, f.path(), b * kBs, &fails[b]);
    });
  for (auto& th : threads) th.join();
  for (uint64_t b = 0; b < kBlocks; ++b) {
    if (b == 9) continue;
    EXPECT_TRUE(st[b].ok()) << b << ": " << st[b].message();
  }
  EXPECT_EQ(st[9].message(), inline_st.message());
  EXPECT_EQ(fails[9].first_diff, 9 * kBs + 77);
  EXPECT_EQ(f.v().counters().chunks_verified, before.chunks_verified);  // not merged yet
  for (auto& c : checkers) f.v().MergeCounters(c.get());
  EXPECT_EQ(f.v().counters().chunks_verified, before.chunks_verified + kBlocks - 1);
  EXPECT_EQ(f.v().counters().failures, before.failures + 1);
  for (auto& c : checkers) EXPECT_EQ(c->counters().chunks_verified, 0u);
}

TEST_P(VerifyOnFs, NullVerifyPasses) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kNull));
  std::vector<uint8_t> junk(kBs, 0x33);
  f.PutBytes(0, junk);
  auto t = f.v().PrepareWrite(junk.data(), kBs, 0, 0);
  f.v().OnWriteComplete(t, true);
  EXPECT_EQ(junk, std::vector<uint8_t>(kBs, 0x33));  // null does no work on the buffer
  EXPECT_TRUE(f.Check(0, kBs).ok());
}

TEST_P(VerifyOnFs, FailedWriteIsNotVerifiedUntilRewritten) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c));
  f.WriteAll();
  // The write to block 5 fails half way (EIO after 1000 bytes).
  auto t = f.v().PrepareWrite(f.buf().data(), kBs, 0, 5 * kBs);
  ASSERT_TRUE(PwriteAll(f.fd(), f.buf().data(), 1000, 5 * kBs));
  f.v().OnWriteComplete(t, false);
  // "blocks written" counts the writes that did not fail (the note said
  // 16512 written of a fill_device run that landed 16384).
  EXPECT_EQ(f.v().counters().chunks_written, kBlocks);
  EXPECT_TRUE(f.Check(0, kBlocks * kBs).ok());
  EXPECT_EQ(f.v().counters().chunks_skipped, 1u);
  EXPECT_EQ(f.v().counters().chunks_verified, kBlocks - 1);
  // A later complete write makes the block known again.
  f.Write(5 * kBs);
  f.FlipByte(5 * kBs + 999);
  VerifyFailure fail;
  ASSERT_FALSE(f.Check(5 * kBs, kBs, &fail).ok());
  EXPECT_EQ(fail.first_diff, 5 * kBs + 999);
  // The cursor of the verify pass skips unknown blocks.
  auto t2 = f.v().PrepareWrite(f.buf().data(), kBs, 0, 9 * kBs);
  f.v().OnWriteComplete(t2, false);
  VerifyCursor c;
  VerifyRange r;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  while (f.v().NextWritten(&c, 8 * kBs, &r)) ranges.emplace_back(r.offset, r.length);
  EXPECT_EQ(ranges, (std::vector<std::pair<uint64_t, uint64_t>>{
                        {0, 8 * kBs}, {8 * kBs, kBs}, {10 * kBs, 6 * kBs}}));
}

TEST_P(VerifyOnFs, OverlappingInFlightWritesGiveNoFalsePositive) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c));
  f.WriteAll();
  std::vector<uint8_t> a(kBs), b(kBs);
  auto ta = f.v().PrepareWrite(a.data(), kBs, 0, 6 * kBs);  // generation 2
  auto tb = f.v().PrepareWrite(b.data(), kBs, 0, 6 * kBs);  // generation 3
  // While in flight, the block is skipped, not reported.
  ASSERT_TRUE(PwriteAll(f.fd(), b.data(), kBs, 6 * kBs));
  EXPECT_TRUE(f.Check(6 * kBs, kBs).ok());
  EXPECT_EQ(f.v().counters().chunks_skipped, 1u);
  // The device applied b first and a last: the older generation is on media.
  ASSERT_TRUE(PwriteAll(f.fd(), a.data(), kBs, 6 * kBs));
  f.v().OnWriteComplete(tb, true);
  f.v().OnWriteComplete(ta, true);
  EXPECT_TRUE(f.Check(6 * kBs, kBs).ok());
  // After overlap any generation up to the last is accepted; the next write
  // that is alone in flight restores the exact generation check.
  f.Write(6 * kBs);  // generation 4, alone
  ASSERT_TRUE(PwriteAll(f.fd(), a.data(), kBs, 6 * kBs));
  VerifyFailure fail;
  ASSERT_FALSE(f.Check(6 * kBs, kBs, &fail).ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kStale);
  EXPECT_EQ(fail.actual.generation, 2u);
  EXPECT_EQ(fail.expected.generation, 4u);
}

// Two writes to one chunk in flight at once may land interleaved, sector by
// sector. Such a mix is skipped; anything else fails (a blanket skip of every
// overlapped chunk whose checksum did not match hid real corruption: 3
// flipped bytes in overlapped chunks of a norandommap QD64 run gave "3
// skipped, 0 failed", exit 0).
TEST_P(VerifyOnFs, OverlappedChunkIsSkippedOnlyWhenAMixOfItsWrites) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c));
  f.WriteAll();
  const std::vector<uint8_t> g1 = f.ReadBytes(6 * kBs, kBs);
  std::vector<uint8_t> a(kBs), b(kBs);
  auto ta = f.v().PrepareWrite(a.data(), kBs, 0, 6 * kBs);  // generation 2
  auto tb = f.v().PrepareWrite(b.data(), kBs, 0, 6 * kBs);  // generation 3
  f.v().OnWriteComplete(tb, true);
  f.v().OnWriteComplete(ta, true);
  // Sectors [0, 2048) from a, the rest from b: a mix, skipped.
  auto mix = [](std::vector<uint8_t> x, const std::vector<uint8_t>& y, uint64_t from, uint64_t to) {
    std::copy(y.begin() + static_cast<long>(from), y.begin() + static_cast<long>(to),
              x.begin() + static_cast<long>(from));
    return x;
  };
  auto skipped = [&](const std::vector<uint8_t>& chunk) {
    f.PutBytes(6 * kBs, chunk);
    const uint64_t before = f.v().counters().chunks_skipped;
    VerifyFailure fail;
    Status st = f.Check(6 * kBs, kBs, &fail);
    EXPECT_TRUE(st.ok()) << st.message();
    return f.v().counters().chunks_skipped == before + 1;
  };
  EXPECT_TRUE(skipped(mix(a, b, 2048, kBs)));
  EXPECT_TRUE(skipped(mix(b, a, 512, kBs)));                        // header from b
  EXPECT_TRUE(skipped(mix(mix(a, b, 1024, 1536), g1, 3584, kBs)));  // an older one too
  // Whole writes are checked as before (either generation is fine).
  f.PutBytes(6 * kBs, a);
  EXPECT_TRUE(f.Check(6 * kBs, kBs).ok());
  const uint64_t skipped_before = f.v().counters().chunks_skipped;

  struct Bad {
    std::vector<uint8_t> chunk;
    uint64_t first_diff;  // UINT64_MAX: not asserted
  };
  std::vector<Bad> bad;
  bad.push_back({a, 6 * kBs + 3000});
  bad.back().chunk[3000] ^= 0x5a;  // a flipped byte in one write's chunk
  bad.push_back({mix(a, b, 2048, kBs), 6 * kBs + 1000});
  bad.back().chunk[1000] ^= 0x01;                     // ... or in a mix of two, in a's sectors
  bad.push_back({mix(a, b, 1000, kBs), UINT64_MAX});  // torn off the sector grid
  bad.push_back({a, 6 * kBs + 64});
  bad.back().chunk[64] ^= 0x80;  // the checksum in the header
  bad.push_back({mix(a, std::vector<uint8_t>(kBs, 0), 2048, 2560), 6 * kBs + 2048});  // zeros
  for (size_t i = 0; i < bad.size(); ++i) {
    f.PutBytes(6 * kBs, bad[i].chunk);
    VerifyFailure fail;
    Status st = f.Check(6 * kBs, kBs, &fail);
    ASSERT_FALSE(st.ok()) << i;
    EXPECT_EQ(fail.kind, VerifyFailureKind::kBadData) << i;
    EXPECT_NE(st.message().find("writes to it overlapped in flight (generations up to 3), and no "
                                "mix of them, 512-byte sector by sector, explains the data"),
              std::string::npos)
        << i << ": " << st.message();
    if (bad[i].first_diff != UINT64_MAX) {
      EXPECT_EQ(fail.first_diff, bad[i].first_diff) << i;
    }
  }
  EXPECT_EQ(f.v().counters().chunks_skipped, skipped_before);
  EXPECT_EQ(f.v().counters().failures, bad.size());

  // A write split in two syscalls (a short write's rest requeued) may be
  // torn at any byte: a mismatch is then indeterminate, as it always was.
  ta = f.v().PrepareWrite(a.data(), kBs, 0, 6 * kBs);
  tb = f.v().PrepareWrite(b.data(), kBs, 0, 6 * kBs);
  f.v().OnWriteComplete(ta, true, /*split=*/true);
  f.v().OnWriteComplete(tb, true);
  const uint64_t undecided = f.v().counters().chunks_undecided;
  EXPECT_TRUE(skipped(mix(a, b, 1000, kBs)));
  EXPECT_EQ(f.v().counters().chunks_undecided, undecided + 1);  // reported, not silent
  // The next lone write restores the exact check.
  f.Write(6 * kBs);
  f.PutBytes(6 * kBs, mix(a, b, 2048, kBs));
  VerifyFailure fail;
  ASSERT_FALSE(f.Check(6 * kBs, kBs, &fail).ok());
  EXPECT_EQ(fail.detail.find("overlapped"), std::string::npos) << fail.detail;
}

// Sectors are on the file's 512-byte grid, not the chunk's: an off-grid
// chunk at 256 bytes past a sector has partial sectors at both ends.
TEST_P(VerifyOnFs, TearSectorsAreOnTheFileGrid) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kSha256));
  const uint64_t off = 10 * kBs + 256;
  std::vector<uint8_t> a(kBs), b(kBs);
  auto ta = f.v().PrepareWrite(a.data(), kBs, 0, off);
  auto tb = f.v().PrepareWrite(b.data(), kBs, 0, off);
  f.v().OnWriteComplete(ta, true);
  f.v().OnWriteComplete(tb, true);
  std::vector<uint8_t> m = a;
  std::copy(b.begin() + 256, b.end(), m.begin() + 256);  // file offset 10*kBs + 512
  f.PutBytes(off, m);
  EXPECT_TRUE(f.Check(off, kBs).ok());
  EXPECT_EQ(f.v().counters().chunks_skipped, 1u);
  m = a;
  std::copy(b.begin() + 512, b.end(), m.begin() + 512);  // not a sector boundary of the file
  f.PutBytes(off, m);
  VerifyFailure fail;
  ASSERT_FALSE(f.Check(off, kBs, &fail).ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kBadData);
}

// A sector's writer is found however old it is (its first data word names
// the one generation it can be): a sector of generation 1 in a chunk whose
// last write is 73 is a tear; the same sector with a flipped byte is
// damage. The search used to stop at the last 64 generations and skip
// such a chunk whatever its bytes: a flipped byte in a chunk rewritten
// under overlap more than 64 times (time_based over 32k at QD32) passed
// with exit 0.
TEST_P(VerifyOnFs, TearSearchReachesEveryGeneration) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c));
  f.Write(2 * kBs);
  const std::vector<uint8_t> g1 = f.ReadBytes(2 * kBs, kBs);
  for (int i = 0; i < 70; ++i) f.Write(2 * kBs);  // generation 71
  std::vector<uint8_t> a(kBs), b(kBs);
  auto ta = f.v().PrepareWrite(a.data(), kBs, 0, 2 * kBs);  // 72
  auto tb = f.v().PrepareWrite(b.data(), kBs, 0, 2 * kBs);  // 73
  f.v().OnWriteComplete(ta, true);
  f.v().OnWriteComplete(tb, true);
  std::vector<uint8_t> m = b;
  std::copy(g1.begin() + 2048, g1.end(), m.begin() + 2048);
  f.PutBytes(2 * kBs, m);
  EXPECT_TRUE(f.Check(2 * kBs, kBs).ok());
  EXPECT_EQ(f.v().counters().chunks_skipped, 1u);
  for (uint64_t at : {2048u, 3000u, 4095u}) {  // a sector's first word, its middle, its end
    std::vector<uint8_t> d = m;
    d[at] ^= 1;
    f.PutBytes(2 * kBs, d);
    VerifyFailure fail;
    const Status st = f.Check(2 * kBs, kBs, &fail);
    ASSERT_FALSE(st.ok()) << at;
    EXPECT_EQ(fail.kind, VerifyFailureKind::kBadData) << at;
    EXPECT_NE(st.message().find("no mix of them"), std::string::npos) << st.message();
  }
  std::copy(a.begin() + 2048, a.end(), m.begin() + 2048);  // a recent mix
  m[300] ^= 1;                                             // but damaged
  f.PutBytes(2 * kBs, m);
  EXPECT_FALSE(f.Check(2 * kBs, kBs).ok());
  m = b;  // a sector of other bytes

  for (uint64_t i = 1024; i < 1536; ++i) m[i] = static_cast<uint8_t>(i * 37 + 11);
  f.PutBytes(2 * kBs, m);
  EXPECT_FALSE(f.Check(2 * kBs, kBs).ok());
  EXPECT_EQ(f.v().counters().chunks_skipped, 1u);
  EXPECT_EQ(f.v().counters().chunks_undecided, 0u);
  EXPECT_EQ(f.v().counters().failures, 5u);
}

TEST_P(VerifyOnFs, VerifyOffsetMovesTheHeader) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  JobSpec job = VerifyJob(VerifyType::kSha1);
  job.verify.offset = 512;
  VerifyFile f(dir.path(), job);
  f.WriteAll();
  auto magic = f.ReadBytes(3 * kBs + 512, 4);
  EXPECT_EQ(magic, (std::vector<uint8_t>{'I', 'O', 'B', 'V'}));
  EXPECT_TRUE(f.Check(0, kBlocks * kBs).ok());
  f.FlipByte(3 * kBs + 100);  // data before the header
  VerifyFailure fail;
  ASSERT_FALSE(f.Check(3 * kBs, kBs, &fail).ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kBadData);
  EXPECT_EQ(fail.first_diff, 3 * kBs + 100);
}

TEST_P(VerifyOnFs, IntervalSmallerThanTheBlock) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  JobSpec job = VerifyJob(VerifyType::kXxhash, 4 * kBs);  // bs=16k
  job.verify.interval = 1024;
  VerifyFile f(dir.path(), job);
  EXPECT_EQ(f.v().interval(), 1024u);
  f.Write(0, 4 * kBs);  // one 16 KiB write: 16 headers
  EXPECT_EQ(f.v().counters().chunks_written, 16u);
  for (uint64_t i = 0; i < 16; ++i)
    EXPECT_EQ(f.ReadBytes(i * 1024, 4), (std::vector<uint8_t>{'I', 'O', 'B', 'V'})) << i;
  EXPECT_TRUE(f.Check(0, 4 * kBs).ok());
  f.FlipByte(5 * 1024 + 700);
  VerifyFailure fail;
  ASSERT_FALSE(f.Check(0, 4 * kBs, &fail).ok());
  EXPECT_EQ(fail.offset, 5 * 1024u);
  EXPECT_EQ(fail.length, 1024u);
  EXPECT_EQ(fail.first_diff, 5 * 1024u + 700);
}

// A read covering several chunks: every chunk is checked and counted and
// every bad one reported, in file order (it stopped at the first bad chunk:
// 3 flipped bytes in a 16 KiB read with verify_interval=1k gave one
// failure and 13 of 16 chunks counted). verify_fatal stops at the first,
// unless the error policy tolerates verify errors.
TEST_P(VerifyOnFs, EveryBadChunkOfOneReadIsReported) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  JobSpec job = VerifyJob(VerifyType::kCrc32c, 4 * kBs);  // bs=16k
  job.verify.interval = 1024;
  auto write_and_damage = [](VerifyFile& v) {
    v.Write(0, 4 * kBs);
    for (uint64_t at : {1024u + 1000, 3 * 1024u + 200, 10 * 1024u + 300}) v.FlipByte(at);
  };
  VerifyFile f(dir.path(), job);
  write_and_damage(f);
  VerifyFailure first;
  std::vector<VerifyFailure> more(1);  // cleared by CheckRead
  Status st = f.Check(0, 4 * kBs, &first, &more);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(first.offset, 1024u);
  EXPECT_EQ(first.first_diff, 1024u + 1000);
  EXPECT_EQ(first.status.message(), st.message());
  ASSERT_EQ(more.size(), 2u);
  EXPECT_EQ(more[0].offset, 3 * 1024u);
  EXPECT_EQ(more[0].first_diff, 3 * 1024u + 200);
  EXPECT_EQ(more[0].kind, VerifyFailureKind::kBadData);
  EXPECT_EQ(more[1].offset, 10 * 1024u);
  EXPECT_EQ(more[1].first_diff, 10 * 1024u + 300);
  EXPECT_EQ(more[1].status.errno_value(), EILSEQ);
  EXPECT_NE(more[1].status.message().find("bad data block at offset 10240, length 1024"),
            std::string::npos)
      << more[1].status.message();
  EXPECT_EQ(f.v().counters().chunks_verified, 13u);
  EXPECT_EQ(f.v().counters().failures, 3u);
  // Without `more` the later ones are still counted.
  EXPECT_EQ(f.Check(0, 4 * kBs, &first).message(), st.message());
  EXPECT_EQ(f.v().counters().chunks_verified, 26u);
  EXPECT_EQ(f.v().counters().failures, 6u);

  // verify_fatal: the job stops at the first bad chunk, so the read does too.
  job.verify.fatal = true;
  VerifyFile g(dir.path(), job);
  write_and_damage(g);
  ASSERT_FALSE(g.Check(0, 4 * kBs, &first, &more).ok());
  EXPECT_EQ(first.offset, 1024u);
  EXPECT_TRUE(more.empty());
  EXPECT_EQ(g.v().counters().chunks_verified, 1u);
  EXPECT_EQ(g.v().counters().failures, 1u);
  // ... also when continue_on_error=verify tolerates the failures (fio's
  // verify_io_u breaks at the first bad chunk with verify_fatal either way).
  job.continue_on_error = kCoeVerify;
  VerifyFile h(dir.path(), job);
  write_and_damage(h);
  ASSERT_FALSE(h.Check(0, 4 * kBs, &first, &more).ok());
  EXPECT_TRUE(more.empty());
  EXPECT_EQ(h.v().counters().failures, 1u);
}

using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;

// What the verify pass after the writes reads back: NextWritten's ranges.
Ranges WrittenRanges(const Verifier& v, uint64_t max_len, bool by_write = false) {
  VerifyCursor c;
  VerifyRange r;
  Ranges out;
  while (v.NextWritten(&c, max_len, &r, by_write)) out.emplace_back(r.offset, r.length);
  return out;
}

// A sequential job's record is read back write by write, as fio reads back
// each write of a job without a random map (bsrange=4k-32k: one read per
// write, not reads merged up to 32k). Where a later write covers part of an
// earlier one, what is left of the earlier one is read as its own range.
TEST_P(VerifyOnFs, ByWriteReadsEachWriteAsWritten) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c));
  f.Write(0, 2 * kBs);
  f.Write(2 * kBs, kBs);
  f.Write(3 * kBs, 3 * kBs);
  f.Write(6 * kBs, kBs + 512);  // off the grid at its end
  f.Write(8 * kBs, 4 * kBs);
  f.Write(8 * kBs, kBs);  // over the start of the one before
  f.Write(12 * kBs, 4 * kBs);
  f.Write(14 * kBs, 2 * kBs);  // over the end of the one before
  EXPECT_EQ(
      WrittenRanges(f.v(), 4 * kBs),
      (Ranges{{0, 4 * kBs}, {4 * kBs, 3 * kBs + 512}, {8 * kBs, 4 * kBs}, {12 * kBs, 4 * kBs}}));
  const Ranges by_write{{0, 2 * kBs},         {2 * kBs, kBs},     {3 * kBs, 3 * kBs},
                        {6 * kBs, kBs + 512}, {8 * kBs, kBs},     {9 * kBs, 3 * kBs},
                        {12 * kBs, 2 * kBs},  {14 * kBs, 2 * kBs}};
  EXPECT_EQ(WrittenRanges(f.v(), 4 * kBs, /*by_write=*/true), by_write);
  for (const auto& [off, len] : by_write) EXPECT_TRUE(f.Check(off, len).ok());
  // A verify_only plan records where its writes begin too.
  JobSpec job = VerifyJob(VerifyType::kCrc32c);
  job.verify.verify_only = true;
  VerifyFile g(dir.path(), job);
  g.v().RecordPlannedWrite(0, 0, 2 * kBs);
  g.v().RecordPlannedWrite(0, 2 * kBs, kBs);
  EXPECT_EQ(WrittenRanges(g.v(), 4 * kBs, true), (Ranges{{0, 2 * kBs}, {2 * kBs, kBs}}));
}

// Writes off the grid of chunks (bs_unaligned, rw=write:N holes, bssplit
// sizes that are not multiples of the interval, blockalign, a short last
// block) are recorded like grid chunks: the verify pass reads each back once
// and checks its generation. Grid chunks they partly overwrite are not read
// back (fio drops them from its record too).
TEST_P(VerifyOnFs, OffGridWritesAreReadBackAndChecked) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c));
  f.Write(0, 2 * kBs);           // grid chunks 0 and 1
  f.Write(1000, kBs);            // off the grid, over chunks 0 and 1
  f.Write(8 * kBs, kBs + 100);   // chunk 8 and a 100-byte tail
  f.Write(10 * kBs + 512, kBs);  // off the grid ...
  f.Write(11 * kBs + 512, kBs);  // ... and its neighbour: one read
  EXPECT_EQ(f.v().counters().chunks_written, 7u);
  EXPECT_EQ(WrittenRanges(f.v(), 8 * kBs),
            (Ranges{{1000, kBs}, {8 * kBs, kBs + 100}, {10 * kBs + 512, 2 * kBs}}));
  EXPECT_EQ(f.ReadBytes(1000, 4), (std::vector<uint8_t>{'I', 'O', 'B', 'V'}));
  for (const auto& [off, len] : WrittenRanges(f.v(), 8 * kBs)) EXPECT_TRUE(f.Check(off, len).ok());
  EXPECT_EQ(f.v().counters().chunks_verified, 4u);
  EXPECT_EQ(f.v().counters().chunks_skipped, 1u);  // the tail: no room for a header
  // Blocks 0 and 1 were partly overwritten off the grid: unknown, not failed.
  EXPECT_TRUE(f.Check(0, 2 * kBs).ok());
  EXPECT_EQ(f.v().counters().chunks_skipped, 3u);
  f.FlipByte(1000 + 500);
  VerifyFailure fail;
  ASSERT_FALSE(f.Check(1000, kBs, &fail).ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kBadData);
  EXPECT_EQ(fail.first_diff, 1500u);
  // An off-grid chunk has a generation: an older copy of it is stale.
  f.Write(10 * kBs + 512, kBs);
  const auto gen2 = f.ReadBytes(10 * kBs + 512, kBs);
  f.Write(10 * kBs + 512, kBs);
  f.PutBytes(10 * kBs + 512, gen2);
  ASSERT_FALSE(f.Check(10 * kBs + 512, kBs, &fail).ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kStale);
  EXPECT_EQ(fail.actual.generation, 2u);
  EXPECT_EQ(fail.expected.generation, 3u);
}

// A write that overlaps a recorded chunk without being that chunk drops it,
// as fio's record of written blocks does: only the last write is read back.
TEST_P(VerifyOnFs, OverlappedOffGridChunksAreDropped) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c));
  f.Write(1000, kBs);
  f.Write(3000, kBs);  // over the first one's second half
  EXPECT_EQ(WrittenRanges(f.v(), kBs), (Ranges{{3000, kBs}}));
  EXPECT_EQ(f.v().off_grid_chunks(), 1u);
  EXPECT_TRUE(f.Check(3000, kBs).ok());
  EXPECT_EQ(f.v().counters().chunks_verified, 1u);
  // An aligned write over it drops it too; the grid chunk it left partly
  // overwritten (chunk 1) stays unknown.
  f.Write(0, kBs);
  EXPECT_EQ(WrittenRanges(f.v(), kBs), (Ranges{{0, kBs}}));
  EXPECT_EQ(f.v().off_grid_chunks(), 0u);
  f.Write(kBs);  // rewritten whole: known again
  EXPECT_EQ(WrittenRanges(f.v(), 2 * kBs), (Ranges{{0, 2 * kBs}}));
  EXPECT_TRUE(f.Check(0, 2 * kBs).ok());
}

// Off-grid writes in flight together may land in either order: the later
// one's chunk is skipped (unknown), never reported, until a lone write.
TEST_P(VerifyOnFs, OverlappingOffGridWritesInFlightGiveNoFalsePositive) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c));
  std::vector<uint8_t> a(kBs), b(kBs);
  auto ta = f.v().PrepareWrite(a.data(), kBs, 0, 1000);
  auto tb = f.v().PrepareWrite(b.data(), kBs, 0, 3000);
  ASSERT_TRUE(PwriteAll(f.fd(), b.data(), kBs, 3000));
  ASSERT_TRUE(PwriteAll(f.fd(), a.data(), kBs, 1000));  // a lands last, over b's start
  f.v().OnWriteComplete(tb, true);
  f.v().OnWriteComplete(ta, true);
  EXPECT_TRUE(f.Check(3000, kBs).ok());
  EXPECT_EQ(f.v().counters().chunks_skipped, 1u);
  EXPECT_EQ(WrittenRanges(f.v(), kBs), Ranges{});
  EXPECT_EQ(f.v().off_grid_chunks(), 1u);  // a's record went when it landed
  f.Write(3000, kBs);                      // alone in flight: exact again
  EXPECT_EQ(WrittenRanges(f.v(), kBs), (Ranges{{3000, kBs}}));
  f.FlipByte(3000 + 200);
  VerifyFailure fail;
  ASSERT_FALSE(f.Check(3000, kBs, &fail).ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kBadData);
}

// The grid starts where the region does: offset=1k bs=4k writes on it
// (before, every block was off a grid from offset 0 and never read back).
TEST_P(VerifyOnFs, GridStartsAtTheRegion) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  const uint64_t base = 1024;
  VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c), 42, 0, base);
  EXPECT_EQ(f.v().grid_base(0), base);
  for (uint64_t b = 0; b < kBlocks; ++b) f.Write(base + b * kBs);
  EXPECT_EQ(f.v().off_grid_chunks(), 0u);
  EXPECT_EQ(WrittenRanges(f.v(), 8 * kBs), (Ranges{{base, 8 * kBs}, {base + 8 * kBs, 8 * kBs}}));
  EXPECT_TRUE(f.Check(base, kBlocks * kBs).ok());
  EXPECT_EQ(f.v().counters().chunks_verified, kBlocks);
}

// verify_state_save/load keep the grid's start and the off-grid chunks: a
// verify_only run reads back what was written, and finds an older copy.
TEST_P(VerifyOnFs, StateKeepsOffGridChunks) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  const std::string state = dir.path() + "/" + Verifier::StateFileName("vjob", 0);
  const uint64_t base = 1024;
  std::vector<uint8_t> old;
  Ranges written;
  {
    VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c), 42, 0, base);
    f.Write(base, 2 * kBs);
    f.Write(base + 2 * kBs + 512, kBs);
    old = f.ReadBytes(base + 2 * kBs + 512, kBs);
    f.Write(base + 2 * kBs + 512, kBs);
    f.Write(base + 4 * kBs, kBs + 512);
    written = WrittenRanges(f.v(), 4 * kBs);
    ASSERT_TRUE(f.v().SaveState(state).ok());
  }
  EXPECT_EQ(written,
            (Ranges{{base, 2 * kBs}, {base + 2 * kBs + 512, kBs}, {base + 4 * kBs, kBs + 512}}));
  JobSpec job = VerifyJob(VerifyType::kCrc32c);
  job.verify.verify_only = true;
  job.verify.state_load = true;
  VerifyFile f(dir.path(), job, 42, 0, base);
  Status st = f.v().LoadState(state);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(WrittenRanges(f.v(), 4 * kBs), written);
  for (const auto& [off, len] : written) EXPECT_TRUE(f.Check(off, len).ok()) << off;
  f.PutBytes(base + 2 * kBs + 512, old);
  VerifyFailure fail;
  ASSERT_FALSE(f.Check(base + 2 * kBs + 512, kBs, &fail).ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kStale);
}

// verify_only without a state: the plan's writes are recorded as written,
// so overlapped ones are not read back; any generation is accepted.
TEST_P(VerifyOnFs, PlannedWritesGiveTheWritersRecord) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  {
    VerifyFile f(dir.path(), VerifyJob(VerifyType::kCrc32c));
    f.Write(1000, kBs);
    f.Write(1000, kBs);
    f.Write(3000, kBs);
    f.Write(8 * kBs, kBs);
  }
  JobSpec job = VerifyJob(VerifyType::kCrc32c);
  job.verify.verify_only = true;
  VerifyFile f(dir.path(), job);
  f.v().RecordPlannedWrite(0, 1000, kBs);
  f.v().RecordPlannedWrite(0, 3000, kBs);
  f.v().RecordPlannedWrite(0, 8 * kBs, kBs);
  EXPECT_EQ(WrittenRanges(f.v(), kBs), (Ranges{{3000, kBs}, {8 * kBs, kBs}}));
  EXPECT_TRUE(f.Check(3000, kBs).ok());  // generation 2 on media, 1 planned: any is fine
  EXPECT_TRUE(f.Check(8 * kBs, kBs).ok());
  EXPECT_EQ(f.v().counters().chunks_verified, 2u);
}

TEST_P(VerifyOnFs, SeveralFilesAreKeptApart) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  JobSpec job = VerifyJob(VerifyType::kCrc64);
  auto v = Verifier::Create(job, 0, 9);
  ASSERT_TRUE(v.ok());
  ASSERT_TRUE((*v)->AddFile(0, 4 * kBs).ok());
  ASSERT_TRUE((*v)->AddFile(1, 4 * kBs).ok());
  std::vector<uint8_t> a(kBs), b(kBs);
  (*v)->OnWriteComplete((*v)->PrepareWrite(a.data(), kBs, 0, kBs), true);
  (*v)->OnWriteComplete((*v)->PrepareWrite(b.data(), kBs, 1, kBs), true);
  EXPECT_TRUE((*v)->CheckRead(a.data(), kBs, 0, "f0", kBs, nullptr).ok());
  EXPECT_TRUE((*v)->CheckRead(b.data(), kBs, 1, "f1", kBs, nullptr).ok());
  // File 0's block read where file 1's should be: same offset, other file.
  VerifyFailure fail;
  Status st = (*v)->CheckRead(a.data(), kBs, 1, "f1", kBs, &fail);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(fail.kind, VerifyFailureKind::kMisplaced);
  EXPECT_EQ(fail.file, "f1");
  VerifyCursor c;
  VerifyRange r;
  ASSERT_TRUE((*v)->NextWritten(&c, kBs, &r));
  EXPECT_EQ(r.file_index, 0u);
  ASSERT_TRUE((*v)->NextWritten(&c, kBs, &r));
  EXPECT_EQ(r.file_index, 1u);
  EXPECT_EQ(r.offset, kBs);
  EXPECT_FALSE((*v)->NextWritten(&c, kBs, &r));
}

// t/verify.py's jobs: "layout" writes; the verify_only job and the read
// job that check it have names of their own.
struct OtherNameJobs {
  JobSpec layout, only, read;
};
OtherNameJobs MakeOtherNameJobs(VerifyType type) {
  OtherNameJobs j;
  j.layout = VerifyJob(type);
  j.layout.name = "layout";
  j.only = j.layout;
  j.only.name = "success_only";
  j.only.verify.verify_only = true;
  j.read = j.layout;
  j.read.name = "success_read";
  j.read.rw = RwMode::kRead;
  return j;
}

// fio's t/verify.py writes with --name=layout, then checks with
// --name=success_only (verify_only) and --name=success_read (rw=read), each
// a later job of the run (another seed). fio 3.33's header has no job name
// and a write-only or read-only job takes the seed from the header, so both
// pass; only a verify_only job that also reads compares the seed.
TEST_P(VerifyOnFs, VerifyOnlyAcceptsAnotherJobNameAndSeed) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  const auto [layout, only, read] = MakeOtherNameJobs(VerifyType::kMd5);
  {
    VerifyFile w(dir.path(), layout, /*seed=*/42);
    w.WriteAll();
  }
  for (const JobSpec& job : {only, read}) {
    for (uint64_t seed : {42, 99}) {
      VerifyFile f(dir.path(), job, seed);
      Status st = f.Check(0, kBlocks * kBs);
      EXPECT_TRUE(st.ok()) << job.name << " seed " << seed << ": " << st.ToString();
      EXPECT_EQ(f.v().counters().chunks_verified, kBlocks);
    }
  }
  // A verify_only job that reads and writes compares the seed (fio: its
  // rand_seed), whatever its name.
  JobSpec mixed = only;
  mixed.rw = RwMode::kRandRW;
  {
    VerifyFile f(dir.path(), mixed, 42);
    EXPECT_TRUE(f.Check(0, kBlocks * kBs).ok());
  }
  {
    VerifyFile f(dir.path(), mixed, 99);
    VerifyFailure fail;
    ASSERT_FALSE(f.Check(0, kBs, &fail).ok());
    EXPECT_EQ(fail.kind, VerifyFailureKind::kMisplaced);
    EXPECT_EQ(fail.detail, "written by another job, clone or seed");
  }
}

// What fio also finds stays found under another name: a block at another
// offset, and damaged data, whose expected copy is rebuilt as the writer
// wrote it (its name and seed), so the first difference is the damage.
TEST_P(VerifyOnFs, VerifyOnlyUnderAnotherNameStillFindsDamage) {
  TempDir dir(GetParam());
  ASSERT_TRUE(dir.ok());
  const auto [layout, only, read] = MakeOtherNameJobs(VerifyType::kCrc32c);
  VerifyFile w(dir.path(), layout, /*seed=*/42);
  w.WriteAll();
  auto block3 = w.ReadBytes(3 * kBs, kBs);
  w.PutBytes(9 * kBs, w.ReadBytes(2 * kBs, kBs));  // block 2's bytes land at block 9
  w.FlipByte(3 * kBs + 1000);
  for (const JobSpec& job : {only, read}) {
    VerifyFile f(dir.path(), job, /*seed=*/7);
    VerifyFailure fail;
    Status st = f.Check(9 * kBs, kBs, &fail);
    ASSERT_FALSE(st.ok()) << job.name;
    EXPECT_EQ(fail.kind, VerifyFailureKind::kMisplaced) << job.name;
    EXPECT_EQ(fail.actual.offset, 2 * kBs) << job.name;
    st = f.Check(3 * kBs, kBs, &fail);
    ASSERT_FALSE(st.ok()) << job.name;
    EXPECT_EQ(fail.kind, VerifyFailureKind::kBadData) << job.name;
    EXPECT_EQ(fail.first_diff, 3 * kBs + 1000) << job.name << ": " << st.message();
    EXPECT_EQ(fail.expected_block, block3) << job.name;
    EXPECT_TRUE(f.Check(4 * kBs, 5 * kBs).ok()) << job.name;
  }
}

TEST(VerifyCreate, RefusesWhatCannotWork) {
  // The job's name is the caller's (the run's job checks, the worker).
  JobSpec job = VerifyJob(VerifyType::kPattern);
  EXPECT_EQ(Verifier::Create(job, 0, 1).status().message(),
            "verify=pattern (<cmdline>) needs verify_pattern");
  job = VerifyJob(VerifyType::kCrc32c);
  job.verify.interval = 64;
  EXPECT_EQ(Verifier::Create(job, 0, 1).status().message(),
            "verify_interval=64 (<cmdline>) is smaller than the 128-byte verify header of "
            "verify=crc32c (<cmdline>)");
  job.verify.interval = 0;
  job.verify.offset = 4000;
  EXPECT_EQ(Verifier::Create(job, 0, 1).status().message(),
            "verify_offset=4000 (<cmdline>): the 128-byte header of verify=crc32c (<cmdline>) "
            "would end past verify_interval 4096 (the block size)");
  job.verify.offset = 0;
  job.verify.interval = 1000;
  EXPECT_EQ(Verifier::Create(job, 0, 1).status().message(),
            "verify_interval=1000 (<cmdline>) does not divide the block size 4096: give a "
            "divisor of it");
  job.verify.interval = 65536;  // larger than bs: one header per block, as fio
  auto big = Verifier::Create(job, 0, 1);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ((*big)->interval(), 4096u);
  job = VerifyJob(VerifyType::kNone);
  EXPECT_FALSE(Verifier::Create(job, 0, 1).ok());
  job = VerifyJob(VerifyType::kCrc32c);
  auto v = Verifier::Create(job, 0, 1);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ((*v)->AddFile(0, (kMaxTrackedChunks + 1) * 4096).code(), Status::Code::kResourceLimit);
}

// fio 3.33's check_get_verify: a batch when the pending count is a multiple
// of the backlog (and the last I/O was not a read), batch reads, the rest
// left for the next batch.
TEST(VerifyBacklog, BatchesAsFio) {
  VerifyBacklog bl(4, 2, /*sorted=*/false);
  for (uint64_t i = 0; i < 3; ++i) EXPECT_TRUE(bl.Push({0, i * 4096, 4096}));
  EXPECT_FALSE(bl.WantRead(false));
  EXPECT_TRUE(bl.Push({0, 3 * 4096, 4096}));
  EXPECT_FALSE(bl.WantRead(true));  // after a read: no new batch
  ASSERT_TRUE(bl.WantRead(false));
  EXPECT_EQ(bl.Pop().offset, 0u);  // oldest first
  ASSERT_TRUE(bl.WantRead(true));  // a started batch goes on
  EXPECT_EQ(bl.Pop().offset, 4096u);
  EXPECT_FALSE(bl.WantRead(true));  // batch 2 done: 2 left for the next one
  EXPECT_EQ(bl.size(), 2u);
  EXPECT_TRUE(bl.Push({0, 4 * 4096, 4096}));
  EXPECT_FALSE(bl.WantRead(false));
  EXPECT_TRUE(bl.Push({0, 5 * 4096, 4096}));
  ASSERT_TRUE(bl.WantRead(false));
  EXPECT_EQ(bl.Pop().offset, 8192u);
  // A batch above the backlog goes on with each later write.
  VerifyBacklog big(2, 3, false);
  EXPECT_TRUE(big.Push({0, 0, 1}));
  EXPECT_TRUE(big.Push({0, 1, 1}));
  ASSERT_TRUE(big.WantRead(false));
  big.Pop();
  ASSERT_TRUE(big.WantRead(true));
  big.Pop();
  EXPECT_FALSE(big.WantRead(true));  // nothing pending
  EXPECT_TRUE(big.Push({0, 2, 1}));
  ASSERT_TRUE(big.WantRead(false));  // one read left of the batch
  EXPECT_EQ(big.Pop().offset, 2u);
  EXPECT_TRUE(big.Push({0, 3, 1}));
  EXPECT_FALSE(big.WantRead(false));
  EXPECT_EQ(VerifyBacklog(4, 0, false).batch(), 4u);  // batch 0: the backlog
}

// Without a random map: (file, offset) order, an overlapped older write dropped.
TEST(VerifyBacklog, SortedDropsOverlapped) {
  VerifyBacklog bl(4, 4, /*sorted=*/true);
  EXPECT_TRUE(bl.Push({0, 8192, 4096}));
  EXPECT_TRUE(bl.Push({0, 0, 4096}));
  EXPECT_TRUE(bl.Push({1, 0, 4096}));
  EXPECT_TRUE(bl.Push({0, 8192, 4096}));  // rewritten: still three pending
  EXPECT_EQ(bl.size(), 3u);
  EXPECT_FALSE(bl.WantRead(false));
  EXPECT_TRUE(bl.Push({0, 2048, 8192}));  // overlaps 0 and 8192
  EXPECT_EQ(bl.size(), 2u);
  EXPECT_TRUE(bl.Push({0, 20480, 4096}));
  EXPECT_TRUE(bl.Push({0, 16384, 4096}));
  ASSERT_TRUE(bl.WantRead(false));
  const uint64_t want[][2] = {{0, 2048}, {0, 16384}, {0, 20480}, {1, 0}};
  for (const auto& w : want) {
    const VerifyRange r = bl.Pop();
    EXPECT_EQ(r.file_index, w[0]);
    EXPECT_EQ(r.offset, w[1]);
  }
  EXPECT_EQ(bl.size(), 0u);
}

// The list is allocated as it fills: a huge verify_backlog costs what the
// job has pending, not the option's value (2^62 used to be allocated up
// front and failed).
TEST(VerifyBacklog, MemoryFollowsPendingWrites) {
  for (bool sorted : {false, true}) {
    VerifyBacklog bl(uint64_t{1} << 62, 0, sorted);
    EXPECT_EQ(bl.capacity(), 0u);
    for (uint64_t i = 0; i < 1000; ++i) ASSERT_TRUE(bl.Push({0, i * 4096, 4096}));
    EXPECT_EQ(bl.size(), 1000u);
    EXPECT_LE(bl.capacity(), 2048u);
    EXPECT_FALSE(bl.WantRead(false));  // 1000 is no multiple of 2^62
    for (uint64_t i = 0; i < 1000; ++i) EXPECT_EQ(bl.Pop().offset, i * 4096);
  }
  // Growing keeps the ring's order when it has wrapped.
  VerifyBacklog bl(1000, 0, false);
  for (uint64_t i = 0; i < 64; ++i) ASSERT_TRUE(bl.Push({0, i, 1}));
  for (uint64_t i = 0; i < 10; ++i) EXPECT_EQ(bl.Pop().offset, i);
  for (uint64_t i = 64; i < 200; ++i) ASSERT_TRUE(bl.Push({0, i, 1}));
  for (uint64_t i = 10; i < 200; ++i) EXPECT_EQ(bl.Pop().offset, i);
  // Capacity stops at backlog + 1: the oldest is dropped past it.
  VerifyBacklog small(2, 0, false);
  for (uint64_t i = 0; i < 5; ++i) ASSERT_TRUE(small.Push({0, i, 1}));
  EXPECT_EQ(small.capacity(), 3u);
  EXPECT_EQ(small.Pop().offset, 2u);
}

}  // namespace
}  // namespace iobench
