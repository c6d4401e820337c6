// The checksum adapters return the standard values (check strings from the
// CRC catalogue and FIPS 180 test vectors), and streaming equals one-shot.
#include "run/verify_checksum.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace iobench {
namespace {

std::string HexOf(VerifyType t, const std::string& s) {
  Checksummer c;
  EXPECT_TRUE(c.Init(t).ok()) << VerifyTypeName(t);
  uint8_t out[kMaxChecksumBytes];
  c.Compute(s.data(), s.size(), out);
  std::string hex;
  char b[3];
  for (size_t i = 0; i < c.size(); ++i) {
    std::snprintf(b, sizeof b, "%02x", out[i]);
    hex += b;
  }
  return hex;
}

// CRCs are stored little-endian, so the hex string is the value byte-reversed.
TEST(VerifyChecksum, CrcCheckValues) {
  EXPECT_EQ(HexOf(VerifyType::kCrc32c, "123456789"), "839206e3");  // 0xe3069283
  EXPECT_EQ(HexOf(VerifyType::kCrc32cIntel, "123456789"), "839206e3");
  EXPECT_EQ(HexOf(VerifyType::kCrc32, "123456789"), "2639f4cb");          // 0xcbf43926
  EXPECT_EQ(HexOf(VerifyType::kCrc64, "123456789"), "fa3919dfbbc95d99");  // CRC-64/XZ
  EXPECT_EQ(HexOf(VerifyType::kCrc16, "123456789"), "dbd0");              // CRC-16/T10-DIF 0xd0db
  EXPECT_EQ(HexOf(VerifyType::kCrc7, "123456789"), "75");                 // CRC-7/MMC, fio's crc7
  EXPECT_EQ(HexOf(VerifyType::kCrc7, ""), "00");
  EXPECT_EQ(Crc32c("123456789", 9), 0xe3069283u);
}

TEST(VerifyChecksum, DigestTestVectors) {
  EXPECT_EQ(HexOf(VerifyType::kMd5, "abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(HexOf(VerifyType::kSha1, "abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(HexOf(VerifyType::kSha256, "abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(HexOf(VerifyType::kSha512, "abc").substr(0, 32), "ddaf35a193617abacc417349ae204131");
  EXPECT_EQ(HexOf(VerifyType::kSha3_256, "abc"),
            "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
  EXPECT_EQ(HexOf(VerifyType::kSha3_512, "abc").size(), 128u);
  EXPECT_EQ(HexOf(VerifyType::kXxhash, "").size(), 16u);
  EXPECT_EQ(HexOf(VerifyType::kXxhash, ""),
            "99e9d85137db46ef");  // XXH64("", 0) = 0xef46db3751d8e999
}

TEST(VerifyChecksum, StreamingEqualsOneShot) {
  std::vector<uint8_t> data(10000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 131 + 7);
  for (VerifyType t :
       {VerifyType::kCrc32c, VerifyType::kCrc32, VerifyType::kCrc64, VerifyType::kCrc16,
        VerifyType::kCrc7, VerifyType::kXxhash, VerifyType::kMd5, VerifyType::kSha1,
        VerifyType::kSha256, VerifyType::kSha512, VerifyType::kSha3_224, VerifyType::kSha3_384}) {
    Checksummer c;
    ASSERT_TRUE(c.Init(t).ok()) << VerifyTypeName(t);
    uint8_t one[kMaxChecksumBytes], two[kMaxChecksumBytes];
    c.Compute(data.data(), data.size(), one);
    c.Begin();
    c.Update(data.data(), 1);
    c.Update(data.data() + 1, 4999);
    c.Update(data.data() + 5000, 5000);
    c.Final(two);
    EXPECT_EQ(0, memcmp(one, two, kMaxChecksumBytes)) << VerifyTypeName(t);
  }
}

}  // namespace
}  // namespace iobench
