// Checksums for data verification (verify=crc32c, crc32, crc64, crc16,
// xxhash, md5, sha1, sha256, sha512, sha3-*). The maths comes from libraries:
// ISA-L for the CRCs, libxxhash for xxhash, OpenSSL libcrypto (EVP) for the
// digests. This file only adapts them to one streaming interface.
//
// Which standard each name means (check value is the checksum of "123456789"):
//   crc32c  CRC-32C (Castagnoli), ISA-L crc32_iscsi, init ~0, final ~   0xe3069283
//   crc32   CRC-32 (zlib/gzip/IEEE 802.3 reflected), ISA-L crc32_gzip_refl  0xcbf43926
//   crc64   CRC-64/XZ (ECMA-182 polynomial, reflected), crc64_ecma_refl 0x995dc9bbdf1939fa
//   crc16   CRC-16/T10-DIF, ISA-L crc16_t10dif                        0xd0db
//   crc7    CRC-7/MMC (fio's crc7), own table (no library has it)     0x75
//   xxhash  XXH64 with seed 0 (fio's xxhash is XXH32; ours is not bit-compatible)
// Results are stored little-endian in the block header.
//
// Ownership: a Checksummer belongs to one thread (one Verifier). It allocates
// only in Init(); Begin/Update/Final do not allocate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "iobench/job.h"
#include "iobench/status.h"

namespace iobench {

inline constexpr size_t kMaxChecksumBytes = 64;  // sha512 / sha3-512

// fio's name for a verify type ("crc32c", "sha3-256", ...).
std::string_view VerifyTypeName(VerifyType type);

// The type blocks and state files record for `type`: crc32c-intel is fio's
// other name for crc32c (one checksum, fio 3.33 reads either's data with the
// other), so it is recorded, and compared, as crc32c. Older iobench wrote
// crc32c-intel's own value, which this maps too.
VerifyType OnMediaVerifyType(VerifyType type);

// True when the type uses a checksum over header+data (not meta/pattern/null/none).
bool VerifyTypeHasChecksum(VerifyType type);

// Bytes of the checksum `type` writes into a header (0 for meta, pattern,
// null, none), known without loading a library: what a verify=meta job
// reading another type's block expects in the checksum field.
size_t VerifyChecksumSize(VerifyType type);

class Checksummer {
 public:
  Checksummer();
  ~Checksummer();
  Checksummer(const Checksummer&) = delete;
  Checksummer& operator=(const Checksummer&) = delete;

  // Prepares for `type`. Unsupported: a digest the linked OpenSSL does not
  // provide.
  Status Init(VerifyType type);

  VerifyType type() const { return type_; }
  // Bytes Final() writes.
  size_t size() const { return size_; }

  void Begin();
  void Update(const void* data, size_t len);
  // Writes size() bytes to out (which must hold kMaxChecksumBytes).
  void Final(uint8_t* out);

  // One-shot helper.
  void Compute(const void* data, size_t len, uint8_t* out) {
    Begin();
    Update(data, len);
    Final(out);
  }

 private:
  struct Impl;
  VerifyType type_ = VerifyType::kNone;
  size_t size_ = 0;
  uint64_t crc_ = 0;
  std::unique_ptr<Impl> impl_;
};

// CRC-32C of a buffer (ISA-L); used for the block header's own checksum.
uint32_t Crc32c(const void* data, size_t len);
// The CRC-32C of what `crc` (a Crc32c or Crc32cExtend result; 0 before any
// data) covered followed by `data`: a stream checksummed piece by piece.
uint32_t Crc32cExtend(uint32_t crc, const void* data, size_t len);

}  // namespace iobench
