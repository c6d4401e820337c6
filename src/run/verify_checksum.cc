#include "run/verify_checksum.h"

#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#include <openssl/evp.h>
#define XXH_STATIC_LINKING_ONLY  // XXH64_state_t on the stack/in a struct
#include <dlfcn.h>
#include <xxhash.h>

#include <array>
#include <climits>
#include <cstring>
#include <string>

namespace iobench {

// Outside the anonymous namespace: Checksummer::Impl holds a pointer to it.
struct LibcryptoApi {
  decltype(&EVP_MD_fetch) md_fetch = nullptr;
  decltype(&EVP_MD_free) md_free = nullptr;
  decltype(&EVP_MD_get_size) md_get_size = nullptr;
  decltype(&EVP_MD_CTX_new) ctx_new = nullptr;
  decltype(&EVP_MD_CTX_free) ctx_free = nullptr;
  decltype(&EVP_DigestInit_ex2) init = nullptr;
  decltype(&EVP_DigestUpdate) update = nullptr;
  decltype(&EVP_DigestFinal_ex) final = nullptr;
  std::string error;  // why it could not be loaded; empty when it was
};

namespace {

// ISA-L takes int lengths for crc32_iscsi; feed big buffers in pieces.
constexpr size_t kMaxPiece = 1u << 30;

void StoreLe(uint8_t* out, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(v >> (8 * i));
}

const char* EvpName(VerifyType t) {
  switch (t) {
    case VerifyType::kMd5:
      return "MD5";
    case VerifyType::kSha1:
      return "SHA1";
    case VerifyType::kSha256:
      return "SHA256";
    case VerifyType::kSha512:
      return "SHA512";
    case VerifyType::kSha3_224:
      return "SHA3-224";
    case VerifyType::kSha3_256:
      return "SHA3-256";
    case VerifyType::kSha3_384:
      return "SHA3-384";
    case VerifyType::kSha3_512:
      return "SHA3-512";
    default:
      return nullptr;
  }
}

// OpenSSL's libcrypto, loaded the first time a job verifies with one of its
// digests. Linked at start-up, its relocations alone were a quarter of the
// page faults of every run (~110 of ~410 for a 1-I/O job; a fault costs tens
// of microseconds on a VM), and most runs never hash with it.
constexpr const char* kCryptoLib = "libcrypto.so.3";  // OpenSSL 3's soname

template <typename Fn>
void Bind(void* lib, const char* name, Fn* fn, std::string* error) {
  *fn = reinterpret_cast<Fn>(dlsym(lib, name));
  if (*fn == nullptr && error->empty()) *error = std::string(kCryptoLib) + " has no " + name;
}

// Loaded once per process (thread-safe: workers initialise in parallel) and
// never unloaded.
const LibcryptoApi& Crypto() {
  static const LibcryptoApi api = [] {
    LibcryptoApi a;
    void* lib = dlopen(kCryptoLib, RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      const char* e = dlerror();
      a.error = e != nullptr ? e : kCryptoLib;
      return a;
    }
    Bind(lib, "EVP_MD_fetch", &a.md_fetch, &a.error);
    Bind(lib, "EVP_MD_free", &a.md_free, &a.error);
    Bind(lib, "EVP_MD_get_size", &a.md_get_size, &a.error);
    Bind(lib, "EVP_MD_CTX_new", &a.ctx_new, &a.error);
    Bind(lib, "EVP_MD_CTX_free", &a.ctx_free, &a.error);
    Bind(lib, "EVP_DigestInit_ex2", &a.init, &a.error);
    Bind(lib, "EVP_DigestUpdate", &a.update, &a.error);
    Bind(lib, "EVP_DigestFinal_ex", &a.final, &a.error);
    return a;
  }();
  return api;
}

}  // namespace

std::string_view VerifyTypeName(VerifyType type) {
  switch (type) {
    case VerifyType::kNone:
      return "0";
    case VerifyType::kMd5:
      return "md5";
    case VerifyType::kCrc64:
      return "crc64";
    case VerifyType::kCrc32:
      return "crc32";
    case VerifyType::kCrc32c:
      return "crc32c";
    case VerifyType::kCrc32cIntel:
      return "crc32c-intel";
    case VerifyType::kCrc16:
      return "crc16";
    case VerifyType::kCrc7:
      return "crc7";
    case VerifyType::kXxhash:
      return "xxhash";
    case VerifyType::kSha1:
      return "sha1";
    case VerifyType::kSha256:
      return "sha256";
    case VerifyType::kSha512:
      return "sha512";
    case VerifyType::kSha3_224:
      return "sha3-224";
    case VerifyType::kSha3_256:
      return "sha3-256";
    case VerifyType::kSha3_384:
      return "sha3-384";
    case VerifyType::kSha3_512:
      return "sha3-512";
    case VerifyType::kMeta:
      return "meta";
    case VerifyType::kPattern:
      return "pattern";
    case VerifyType::kNull:
      return "null";
  }
  return "?";
}

bool VerifyTypeHasChecksum(VerifyType type) {
  switch (type) {
    case VerifyType::kNone:
    case VerifyType::kMeta:
    case VerifyType::kPattern:
    case VerifyType::kNull:
      return false;
    default:
      return true;
  }
}

VerifyType OnMediaVerifyType(VerifyType type) {
  return type == VerifyType::kCrc32cIntel ? VerifyType::kCrc32c : type;
}

size_t VerifyChecksumSize(VerifyType type) {
  switch (type) {
    case VerifyType::kCrc7:
      return 1;
    case VerifyType::kCrc16:
      return 2;
    case VerifyType::kCrc32c:
    case VerifyType::kCrc32cIntel:
    case VerifyType::kCrc32:
      return 4;
    case VerifyType::kCrc64:
    case VerifyType::kXxhash:
      return 8;
    case VerifyType::kMd5:
      return 16;
    case VerifyType::kSha1:
      return 20;
    case VerifyType::kSha3_224:
      return 28;
    case VerifyType::kSha256:
    case VerifyType::kSha3_256:
      return 32;
    case VerifyType::kSha3_384:
      return 48;
    case VerifyType::kSha512:
    case VerifyType::kSha3_512:
      return 64;
    default:
      return 0;
  }
}

namespace {

// CRC-7/MMC (polynomial x^7 + x^3 + 1, init 0, not reflected, no final
// xor; check value 0x75), fio's crc7. No installed library has it; a
// table-driven CRC is a few lines. The register is kept left-aligned in a
// byte (polynomial 0x09 << 1), so each data byte is one table lookup.
constexpr std::array<uint8_t, 256> MakeCrc7Table() {
  std::array<uint8_t, 256> t{};
  for (unsigned i = 0; i < 256; ++i) {
    unsigned c = i;
    for (int bit = 0; bit < 8; ++bit) c = (c & 0x80) != 0 ? (c << 1) ^ 0x12 : c << 1;
    t[i] = static_cast<uint8_t>(c);
  }
  return t;
}
constexpr std::array<uint8_t, 256> kCrc7Table = MakeCrc7Table();

// `crc` and the result are the left-aligned register (crc7 << 1).
uint8_t Crc7Update(uint8_t crc, const unsigned char* p, size_t len) {
  for (size_t i = 0; i < len; ++i) crc = kCrc7Table[crc ^ p[i]];
  return crc;
}

}  // namespace

struct Checksummer::Impl {
  const LibcryptoApi* crypto = nullptr;  // set with md and ctx
  EVP_MD* md = nullptr;
  EVP_MD_CTX* ctx = nullptr;
  XXH64_state_t xxh;
  ~Impl() {
    if (ctx != nullptr) crypto->ctx_free(ctx);
    if (md != nullptr) crypto->md_free(md);
  }
};

Checksummer::Checksummer() : impl_(std::make_unique<Impl>()) {}
Checksummer::~Checksummer() = default;

Status Checksummer::Init(VerifyType type) {
  type_ = type;
  switch (type) {
    case VerifyType::kCrc32c:
    case VerifyType::kCrc32cIntel:
    case VerifyType::kCrc32:
      size_ = 4;
      return Status::Ok();
    case VerifyType::kCrc64:
    case VerifyType::kXxhash:
      size_ = 8;
      return Status::Ok();
    case VerifyType::kCrc16:
      size_ = 2;
      return Status::Ok();
    case VerifyType::kCrc7:
      size_ = 1;
      return Status::Ok();
    default:
      break;
  }
  const char* name = EvpName(type);
  if (name == nullptr) {
    size_ = 0;
    return Status::Ok();  // meta, pattern, null, none: no checksum
  }
  const LibcryptoApi& c = Crypto();
  if (!c.error.empty())
    return Status::Unsupported(
        std::string("verify=") + std::string(VerifyTypeName(type)) +
        " needs OpenSSL 3's libcrypto, which could not be loaded: " + c.error);
  impl_->crypto = &c;
  // Fetch once: EVP_get_digestbyname per block would cost a provider lookup.
  impl_->md = c.md_fetch(nullptr, name, nullptr);
  if (impl_->md == nullptr)
    return Status::Unsupported(std::string("verify=") + std::string(VerifyTypeName(type)) +
                               ": OpenSSL's libcrypto does not provide " + name);
  impl_->ctx = c.ctx_new();
  if (impl_->ctx == nullptr) return Status::Limit("verify: EVP_MD_CTX_new failed");
  size_ = static_cast<size_t>(c.md_get_size(impl_->md));
  if (size_ > kMaxChecksumBytes) return Status::Internal("verify: digest larger than 64 bytes");
  // The first init allocates the provider context; later inits reuse it.
  if (c.init(impl_->ctx, impl_->md, nullptr) != 1)
    return Status::Internal(std::string("verify: EVP_DigestInit_ex2 failed for ") + name);
  return Status::Ok();
}

void Checksummer::Begin() {
  switch (type_) {
    case VerifyType::kCrc32c:
    case VerifyType::kCrc32cIntel:
      crc_ = 0xffffffffu;
      break;
    case VerifyType::kCrc32:
    case VerifyType::kCrc64:
    case VerifyType::kCrc16:
    case VerifyType::kCrc7:
      crc_ = 0;
      break;
    case VerifyType::kXxhash:
      XXH64_reset(&impl_->xxh, 0);
      break;
    default:
      if (impl_->ctx != nullptr) impl_->crypto->init(impl_->ctx, nullptr, nullptr);
      break;
  }
}

void Checksummer::Update(const void* data, size_t len) {
  auto* p = static_cast<const unsigned char*>(data);
  switch (type_) {
    case VerifyType::kCrc32c:
    case VerifyType::kCrc32cIntel:
      while (len > 0) {
        const size_t n = len < kMaxPiece ? len : kMaxPiece;
        // ISA-L's prototype is not const-correct; it does not write.
        crc_ = crc32_iscsi(const_cast<unsigned char*>(p), static_cast<int>(n),
                           static_cast<unsigned>(crc_));
        p += n;
        len -= n;
      }
      break;
    case VerifyType::kCrc32:
      crc_ = crc32_gzip_refl(static_cast<uint32_t>(crc_), p, len);
      break;
    case VerifyType::kCrc64:
      crc_ = crc64_ecma_refl(crc_, p, len);
      break;
    case VerifyType::kCrc16:
      crc_ = crc16_t10dif(static_cast<uint16_t>(crc_), p, len);
      break;
    case VerifyType::kCrc7:
      crc_ = Crc7Update(static_cast<uint8_t>(crc_), p, len);
      break;
    case VerifyType::kXxhash:
      XXH64_update(&impl_->xxh, p, len);
      break;
    default:
      if (impl_->ctx != nullptr) impl_->crypto->update(impl_->ctx, p, len);
      break;
  }
}

void Checksummer::Final(uint8_t* out) {
  std::memset(out, 0, kMaxChecksumBytes);
  switch (type_) {
    case VerifyType::kCrc32c:
    case VerifyType::kCrc32cIntel:
      StoreLe(out, ~static_cast<uint32_t>(crc_), 4);
      break;
    case VerifyType::kCrc32:
      StoreLe(out, crc_, 4);
      break;
    case VerifyType::kCrc64:
      StoreLe(out, crc_, 8);
      break;
    case VerifyType::kCrc16:
      StoreLe(out, crc_, 2);
      break;
    case VerifyType::kCrc7:
      out[0] = static_cast<uint8_t>(crc_ >> 1);  // the 7 bits, right-aligned
      break;
    case VerifyType::kXxhash:
      StoreLe(out, XXH64_digest(&impl_->xxh), 8);
      break;
    default:
      if (impl_->ctx != nullptr) {
        unsigned int n = 0;
        impl_->crypto->final(impl_->ctx, out, &n);
      }
      break;
  }
}

uint32_t Crc32c(const void* data, size_t len) { return Crc32cExtend(0, data, len); }

uint32_t Crc32cExtend(uint32_t prev, const void* data, size_t len) {
  auto* p = static_cast<const unsigned char*>(data);
  unsigned crc = ~prev;
  while (len > 0) {
    const size_t n = len < kMaxPiece ? len : kMaxPiece;
    crc = crc32_iscsi(const_cast<unsigned char*>(p), static_cast<int>(n), crc);
    p += n;
    len -= n;
  }
  return ~crc;
}

}  // namespace iobench
