#include "run/verify.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <utility>

#include "sys/procfs.h"
#include "sys/safety.h"

namespace iobench {

static_assert(std::endian::native == std::endian::little,
              "the verify header is stored in host order, which must be little-endian");

namespace {

constexpr uint64_t kGamma = 0x9e3779b97f4a7c15ull;
constexpr int kVerifyErrno = EILSEQ;  // fio reports verify failures as EILSEQ too
// ExplainTear: the unit a write lands in, and how many generations back it
// searches for a sector's writer.
constexpr uint64_t kTearSector = 512;
constexpr uint64_t kTearGenerations = 64;

// splitmix64's finaliser: a bijective 64-bit mix.
constexpr uint64_t Mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The data of one chunk is the stream word(i) = Mix(key + (i+1)*gamma): any
// byte can be produced from its position alone, so the header can be moved
// (verify_offset) without changing the data around it.
inline uint64_t DataKey(uint64_t seed, uint32_t file_index, uint64_t offset, uint64_t generation) {
  return Mix(seed ^ Mix(offset + kGamma * (uint64_t{file_index} + 1)) ^ Mix(generation * kGamma));
}

// The inverse of a * x mod 2^64 for odd a (Newton's iteration: each step
// doubles the correct low bits, from 3: a * a = 1 mod 8).
constexpr uint64_t OddInverse(uint64_t a) {
  uint64_t x = a;
  for (int i = 0; i < 5; ++i) x *= 2 - a * x;
  return x;
}
constexpr uint64_t UnXorShift(uint64_t y, unsigned s) {
  uint64_t x = y;
  for (unsigned bits = s; bits < 64; bits += s) x = y ^ (x >> s);
  return x;
}
// Mix's inverse: each of its steps is a bijection.
constexpr uint64_t Unmix(uint64_t z) {
  z = UnXorShift(z, 31) * OddInverse(0x94d049bb133111ebull);
  z = UnXorShift(z, 27) * OddInverse(0xbf58476d1ce4e5b9ull);
  return UnXorShift(z, 30);
}
static_assert(Unmix(Mix(0x0123456789abcdefull)) == 0x0123456789abcdefull);
static_assert(OddInverse(kGamma) * kGamma == 1);

// The generation whose data has `w` as word `word` of the chunk at
// (file_index, offset): DataKey and the data stream run backwards. Any
// 64-bit value comes out; only one the chunk had says the word is its data.
uint64_t GenerationOfWord(uint64_t seed, uint32_t file_index, uint64_t offset, uint64_t word,
                          uint64_t w) {
  const uint64_t key = Unmix(w) - (word + 1) * kGamma;
  const uint64_t g_mix = Unmix(key) ^ seed ^ Mix(offset + kGamma * (uint64_t{file_index} + 1));
  return Unmix(g_mix) * OddInverse(kGamma);
}

uint64_t RealtimeNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

void SealHeader(VerifyHeader* h) {
  h->header_crc = 0;
  h->header_crc = Crc32c(h, 64);
}

// The header type a job of `type` accepts: its own; verify=meta, which
// checks only the header, also any checksum type's (fio 3.33's meta reads
// back what verify=md5 wrote: its header check ignores the type). `type` is
// the Verifier's, already OnMediaVerifyType'd; a header older iobench wrote
// for crc32c-intel is crc32c's.
bool TypeAccepted(uint8_t header_type, VerifyType type) {
  header_type = static_cast<uint8_t>(OnMediaVerifyType(static_cast<VerifyType>(header_type)));
  if (header_type == static_cast<uint8_t>(type)) return true;
  return type == VerifyType::kMeta && header_type < static_cast<uint8_t>(VerifyType::kMeta) &&
         VerifyTypeHasChecksum(static_cast<VerifyType>(header_type));
}

bool HeaderSane(const VerifyHeader& h, VerifyType type) {
  if (h.magic != kVerifyMagic || h.version != kVerifyHeaderVersion) return false;
  if (!TypeAccepted(h.type, type)) return false;
  VerifyHeader copy;
  std::memcpy(&copy, &h, 64);
  copy.header_crc = 0;
  return Crc32c(&copy, 64) == h.header_crc;
}

// The timestamp a chunk was written with cannot be recomputed, so a rebuilt
// block takes the one read. When that field itself was changed, the rebuilt
// checksums then differed instead (at block byte 12, which is intact on
// disk). A one-byte change (what a dd test makes) is undone by finding the
// value of one timestamp byte that matches the header CRC read; anything
// else keeps the timestamp read.
uint64_t WrittenTimestamp(const uint8_t* header) {
  VerifyHeader h{};
  std::memcpy(&h, header, 64);
  const uint32_t stored = h.header_crc;
  h.header_crc = 0;
  const uint64_t read = h.timestamp_ns;
  if (Crc32c(&h, 64) == stored) return read;
  for (int byte = 0; byte < 8; ++byte) {
    const uint64_t mask = uint64_t{0xff} << (8 * byte);
    for (uint64_t v = 0; v < 256; ++v) {
      h.timestamp_ns = (read & ~mask) | (v << (8 * byte));
      if (h.timestamp_ns != read && Crc32c(&h, 64) == stored) return h.timestamp_ns;
    }
  }
  return read;
}

std::string Hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%" PRIx64, v);
  return b;
}

std::string DescribeHeader(const VerifyHeader& h) {
  char b[320];
  std::snprintf(b, sizeof b,
                "magic=0x%08" PRIx32 " version=%u type=%s length=%" PRIu32 " offset=%" PRIu64
                " file=%" PRIu32 " job=0x%016" PRIx64 " clone=%" PRIu32 " generation=%" PRIu64
                " seed=0x%016" PRIx64,
                h.magic, unsigned{h.version},
                h.type <= static_cast<uint8_t>(VerifyType::kNull)
                    ? std::string(VerifyTypeName(static_cast<VerifyType>(h.type))).c_str()
                    : "?",
                h.length, h.offset, h.file_index, h.job_hash, h.clone, h.generation, h.seed);
  return b;
}

}  // namespace

const char* VerifyFailureKindName(VerifyFailureKind kind) {
  switch (kind) {
    case VerifyFailureKind::kNone:
      return "none";
    case VerifyFailureKind::kCorrupted:
      return "corrupted";
    case VerifyFailureKind::kMisplaced:
      return "misplaced";
    case VerifyFailureKind::kBadData:
      return "bad data";
    case VerifyFailureKind::kStale:
      return "stale";
    case VerifyFailureKind::kPattern:
      return "pattern mismatch";
    case VerifyFailureKind::kNewer:
      return "block from another run";
  }
  return "?";
}

Verifier::~Verifier() = default;

namespace {

// "j.fio:5" for where `option` was last set, else the job's section, else
// "<cmdline>".
std::string VerifyOptionWhere(const JobSpec& job, const char* option) {
  const OptionSetting* s = job.FindSetting(option);
  if (s != nullptr && !s->file.empty())
    return s->line > 0 ? s->file + ":" + std::to_string(s->line) : s->file;
  if (!job.job_file.empty())
    return job.line > 0 ? job.job_file + ":" + std::to_string(job.line) : job.job_file;
  return "<cmdline>";
}

// "verify_interval=1000 (j.fio:5)"
std::string VerifyOptionNamed(const JobSpec& job, const char* option, const std::string& value) {
  return std::string(option) + "=" + value + " (" + VerifyOptionWhere(job, option) + ")";
}

// Where the write block size came from, when the job set it: " (bs, j.fio:3)".
std::string VerifyBsWhere(const JobSpec& job) {
  const OptionSetting* last = nullptr;
  for (const char* n : {"bs", "bsrange", "bssplit"}) {
    const OptionSetting* s = job.FindSetting(n);
    if (s == nullptr) continue;
    if (last == nullptr || &*s > last) last = s;  // settings are in the order applied
  }
  if (last == nullptr) return "";
  return " (" + last->name + ", " + VerifyOptionWhere(job, last->name.c_str()) + ")";
}

// The chunk size Create uses: verify_interval, or the smallest write block
// when it is unset or larger (fio then writes one header per block).
uint64_t VerifyIntervalOf(const JobSpec& job) {
  const uint64_t min_bs = job.bs[static_cast<int>(Ddir::kWrite)].min;
  const uint64_t i = job.verify.interval;
  return i != 0 && i < min_bs ? i : min_bs;
}

}  // namespace

Status Verifier::CheckOptions(const JobSpec& job) {
  const VerifyOptions& o = job.verify;
  // fio accepts it and does nothing: a writing job's dry run issues no I/O,
  // a reading job reads as without it. Either way the option is ignored.
  if (o.type == VerifyType::kNone && o.verify_only)
    return Status::Invalid(VerifyOptionNamed(job, "verify_only", "1") +
                           " without verify= has nothing to check (fio would do no I/O or plain "
                           "reads): set verify= to the checksum the data was written with");
  if (o.type == VerifyType::kNone) return Status::Ok();
  // A writing job's verify_only run is its verify phase, which do_verify=0
  // turns off: fio does no I/O at all; iobench used to read and check
  // anyway. Either way one of the two is not what was meant. A job that
  // only reads checks every block it reads whatever do_verify says, in
  // both tools (fio verifies a read-only job's reads inline): the read-back
  // phase of a write-then-check script, which this refused.
  if (o.verify_only && !o.do_verify && HasWrite(job.rw))
    return Status::Invalid(VerifyOptionNamed(job, "verify_only", "1") + " with " +
                           VerifyOptionNamed(job, "do_verify", "0") +
                           " checks nothing (fio does no I/O): drop do_verify=0 to check the "
                           "data, or verify_only to write it");
  const uint64_t min_bs = job.bs[static_cast<int>(Ddir::kWrite)].min;
  const uint64_t interval = VerifyIntervalOf(job);
  // verify_pattern alone means verify=pattern (fio).
  const std::string type =
      job.FindSetting("verify") == nullptr && job.FindSetting("verify_pattern") != nullptr
          ? "verify=" + std::string(VerifyTypeName(o.type)) + " (from verify_pattern, " +
                VerifyOptionWhere(job, "verify_pattern") + ")"
          : VerifyOptionNamed(job, "verify", std::string(VerifyTypeName(o.type)));
  if (interval == 0) return Status::Invalid("verify_interval: must be positive");
  if (min_bs % interval != 0)
    return Status::Invalid(VerifyOptionNamed(job, "verify_interval", std::to_string(interval)) +
                           " does not divide the block size " + std::to_string(min_bs) +
                           VerifyBsWhere(job) + ": give a divisor of it");
  if (o.type == VerifyType::kNull) return Status::Ok();
  if (o.type == VerifyType::kPattern) {
    if (o.pattern.empty()) return Status::Invalid(type + " needs verify_pattern");
    if (o.offset != 0)
      return Status::Invalid(VerifyOptionNamed(job, "verify_offset", std::to_string(o.offset)) +
                             ": " + type + " writes no header to move");
  } else {
    const std::string iv = o.interval != 0 && o.interval < min_bs
                               ? VerifyOptionNamed(job, "verify_interval", std::to_string(interval))
                               : "verify_interval " + std::to_string(interval) +
                                     " (the block size" + VerifyBsWhere(job) + ")";
    if (interval < kVerifyHeaderSize)
      return Status::Invalid(iv + " is smaller than the " + std::to_string(kVerifyHeaderSize) +
                             "-byte verify header of " + type);
    if (o.offset + kVerifyHeaderSize > interval)
      return Status::Invalid(VerifyOptionNamed(job, "verify_offset", std::to_string(o.offset)) +
                             ": the " + std::to_string(kVerifyHeaderSize) + "-byte header of " +
                             type + " would end past " + iv);
  }
  for (uint32_t at : o.pattern_offsets)
    if (at + 8 > o.pattern.size())
      return Status::Invalid("verify_pattern (" + VerifyOptionWhere(job, "verify_pattern") +
                             "): %o at byte " + std::to_string(at) + " does not fit in the " +
                             std::to_string(o.pattern.size()) + "-byte pattern");
  return Status::Ok();
}

Result<std::unique_ptr<Verifier>> Verifier::Create(const JobSpec& job, uint32_t jobnum,
                                                   uint64_t seed) {
  const VerifyOptions& o = job.verify;
  if (o.type == VerifyType::kNone) return Status::Invalid("verify: no verify type set");
  IOB_RETURN_IF_ERROR(CheckOptions(job));
  std::unique_ptr<Verifier> v(new Verifier());
  // crc32c-intel is crc32c: its blocks and state say crc32c, so either
  // spelling checks the other's data (fio 3.33).
  v->type_ = OnMediaVerifyType(o.type);
  v->seed_ = seed;
  v->clone_ = jobnum;
  v->job_hash_ = XXH64(job.name.data(), job.name.size(), 0);
  v->own_id_ = Writer{v->job_hash_, v->clone_, v->seed_};
  v->foreign_ = !HasWrite(job.rw);
  v->check_writer_ = HasWrite(job.rw) && (!o.verify_only || (HasRead(job.rw) && o.backlog == 0));
  v->verify_offset_ = o.offset;
  // verify_fatal stops the job at its first failure, also when the error
  // policy tolerates it (fio 3.33's verify_io_u breaks at the first bad
  // header and terminates the job with continue_on_error=verify too).
  v->stop_at_first_ = o.fatal;
  v->interval_ = VerifyIntervalOf(job);
  v->max_block_ = std::max<uint64_t>(1, BufferBs(job));
  if (o.type == VerifyType::kNull) return v;
  IOB_RETURN_IF_ERROR(v->own_.sum_.Init(o.type));
  if (!o.pattern.empty()) {
    // One interval from any phase of the pattern: verify=pattern chunks
    // start where their block's pattern has got to (PatternAt).
    v->pattern_buf_.resize(v->interval_ + o.pattern.size());
    for (uint64_t i = 0; i < v->pattern_buf_.size(); ++i)
      v->pattern_buf_[i] = o.pattern[i % o.pattern.size()];
    v->pattern_len_ = o.pattern.size();
    v->pattern_offsets_.assign(o.pattern_offsets.begin(), o.pattern_offsets.end());
    if (!v->pattern_offsets_.empty())
      v->own_.scratch_.resize(v->interval_);  // CheckChunk's expected pattern
  }
  // A job that does not write checks what an earlier run wrote, as fio does.
  v->any_generation_ = o.verify_only || !HasWrite(job.rw);
  return v;
}

Status Verifier::AddFile(uint32_t file_index, uint64_t region_start, uint64_t region_end) {
  const uint64_t chunks = region_end > region_start ? (region_end - region_start) / interval_ : 0;
  if (chunks > kMaxTrackedChunks)
    return Status::Limit(
        "verify: file " + std::to_string(file_index) + " region of " +
        std::to_string(region_end - region_start) + " bytes needs " + std::to_string(chunks) +
        " records of verify_interval=" + std::to_string(interval_) + " bytes (limit " +
        std::to_string(kMaxTrackedChunks) + "); raise verify_interval or shrink size");
  if (files_.size() <= file_index) files_.resize(file_index + 1);
  FileRecord& f = files_[file_index];
  off_grid_count_ -= f.off_grid.size();
  f.base = region_start;
  try {
    f.grid.assign(chunks, Entry{});
  } catch (const std::bad_alloc&) {  // it said "setup: std::bad_alloc" and nothing else
    return Status(
        Status::Code::kResourceLimit,
        "verify: out of memory for the verify map of file " + std::to_string(file_index) + ": " +
            std::to_string(chunks) + " blocks of verify_interval=" + std::to_string(interval_) +
            " bytes in a region of " + sys::HumanBytes(region_end - region_start) + " take " +
            sys::HumanBytes(chunks * sizeof(Entry)) + " (" + std::to_string(sizeof(Entry)) +
            " bytes a block); raise verify_interval (or bs), shrink size, or raise " +
            sys::MemoryLimitText(),
        ENOMEM);
  }
  f.off_grid.clear();
  return Status::Ok();
}

void Verifier::Reset() {
  for (auto& f : files_) {
    std::fill(f.grid.begin(), f.grid.end(), Entry{});
    f.off_grid.clear();
  }
  off_grid_count_ = 0;
  off_grid_full_ = false;
}

uint64_t Verifier::HeaderPos(uint64_t clen) const {
  return verify_offset_ + kVerifyHeaderSize <= clen ? verify_offset_ : 0;
}

const Verifier::Entry* Verifier::Lookup(uint32_t file_index, uint64_t offset, uint64_t clen) const {
  if (clen != interval_ || file_index >= files_.size()) return nullptr;
  const FileRecord& f = files_[file_index];
  if (offset < f.base || (offset - f.base) % interval_ != 0) return nullptr;
  const uint64_t idx = (offset - f.base) / interval_;
  return idx < f.grid.size() ? &f.grid[idx] : nullptr;
}

Verifier::Entry* Verifier::Lookup(uint32_t file_index, uint64_t offset, uint64_t clen) {
  return const_cast<Entry*>(std::as_const(*this).Lookup(file_index, offset, clen));
}

const Verifier::Entry* Verifier::Find(uint32_t file_index, uint64_t offset, uint64_t clen) const {
  if (const Entry* e = Lookup(file_index, offset, clen)) return e;
  if (file_index >= files_.size() || files_[file_index].off_grid.empty()) return nullptr;
  const auto& m = files_[file_index].off_grid;
  const auto it = m.find({offset, clen});
  return it != m.end() ? &it->second : nullptr;
}

Verifier::Entry* Verifier::Find(uint32_t file_index, uint64_t offset, uint64_t clen) {
  return const_cast<Entry*>(std::as_const(*this).Find(file_index, offset, clen));
}

// The grid chunks [offset, offset+len) overlaps, as [*first, *last).
void Verifier::GridSpan(const FileRecord& f, uint64_t offset, uint64_t len, uint64_t* first,
                        uint64_t* last) const {
  const uint64_t end = offset + len;
  *first = *last = 0;
  if (end <= f.base || f.grid.empty()) return;
  *first = offset > f.base ? (offset - f.base) / interval_ : 0;
  *last = std::min<uint64_t>((end - f.base + interval_ - 1) / interval_, f.grid.size());
}

bool Verifier::GridBusy(uint32_t file_index, uint64_t offset, uint64_t len) const {
  const FileRecord& f = files_[file_index];
  uint64_t first, last;
  GridSpan(f, offset, len, &first, &last);
  for (uint64_t i = first; i < last; ++i) {
    const Entry& e = f.grid[i];
    if (e.inflight > e.touches || e.touches == UINT8_MAX) return true;
  }
  return false;
}

// An off-grid chunk overwrites parts of grid chunks: those become unknown
// (fio drops them from its record: they are not read back), and count it
// as in flight so a concurrent aligned write cannot make them known again
// before it lands.
void Verifier::TouchGrid(uint32_t file_index, uint64_t offset, uint64_t len, bool prepare) {
  if (file_index >= files_.size() || len == 0) return;
  FileRecord& f = files_[file_index];
  uint64_t first, last;
  GridSpan(f, offset, len, &first, &last);
  for (uint64_t i = first; i < last; ++i) {
    Entry& e = f.grid[i];
    if (prepare) {
      if (e.inflight > 0) e.flags |= kEntryOverlap;
      ++e.inflight;
      if (e.touches != UINT8_MAX) ++e.touches;
      e.flags |= kEntryUnknown | kEntryOffGrid;
    } else if (e.inflight > 0) {
      --e.inflight;
      if (e.touches != UINT8_MAX && e.touches > 0) --e.touches;
      if (e.inflight == 0) e.touches = 0;
    }
  }
}

Verifier::Entry* Verifier::DropOverlapping(uint32_t file_index, uint64_t offset, uint64_t len,
                                           bool* inflight) {
  auto& m = files_[file_index].off_grid;
  Entry* exact = nullptr;
  if (m.empty()) return nullptr;
  auto it = m.lower_bound({offset >= interval_ ? offset - interval_ + 1 : 0, 0});
  while (it != m.end() && it->first.first < offset + len) {
    const auto [o, l] = it->first;
    Entry& x = it->second;
    if (o + l <= offset) {
      ++it;
    } else if (o == offset && l == len) {
      exact = &x;
      ++it;
    } else if (x.inflight > 0) {  // erased when it lands
      *inflight = true;
      x.flags |= kEntryDead | kEntryUnknown;
      ++it;
    } else {
      it = m.erase(it);
      --off_grid_count_;
    }
  }
  return exact;
}

uint64_t Verifier::PrepareChunk(uint32_t file_index, uint64_t offset, uint64_t clen, uint8_t ends) {
  Entry* e = Lookup(file_index, offset, clen);
  bool other = false;  // another write overlapping this chunk is in flight
  if (e != nullptr) {
    if (e->flags & kEntryOffGrid) {  // rewritten whole: the off-grid chunks on it are gone
      DropOverlapping(file_index, offset, clen, &other);  // in flight: counted in e->inflight
      e->flags &= static_cast<uint8_t>(~kEntryOffGrid);
    }
  } else {
    if (file_index >= files_.size()) return 0;  // not declared: not recorded
    // The grid chunks it overlaps are touched after the whole write was
    // prepared (PrepareWrite): its own chunks are no other write.
    other = GridBusy(file_index, offset, clen);
    e = DropOverlapping(file_index, offset, clen, &other);
    if (e == nullptr) {
      if (off_grid_count_ >= kMaxOffGridChunks) off_grid_full_ = true;
      if (off_grid_full_) {
        ++own_.counters_.chunks_unrecorded;
        return 0;
      }
      e = &files_[file_index].off_grid[{offset, clen}];
      ++off_grid_count_;
    }
    e->flags &= static_cast<uint8_t>(~kEntryDead);  // written again whole: alive
    if (other) e->flags |= kEntryUnknown;           // the other write may land after this one
  }
  // Two writes to one chunk in flight at once: which lands last is up to
  // the device, so the check then accepts any generation up to the last.
  if (e->inflight == 0 && !other)
    e->flags &= static_cast<uint8_t>(~(kEntryOverlap | kEntrySplit));
  else
    e->flags |= kEntryOverlap;
  ++e->inflight;
  // New data: to be verified again, and where its write begins and ends.
  e->flags = static_cast<uint8_t>((e->flags & ~(kEntryVerified | kEntryHead | kEntryTail)) | ends);
  return ++e->generation;
}

void Verifier::CompleteChunk(uint32_t file_index, uint64_t offset, uint64_t clen, bool ok,
                             bool split) {
  Entry* e = Lookup(file_index, offset, clen);
  if (e == nullptr) {
    if (file_index >= files_.size()) return;
    TouchGrid(file_index, offset, clen, /*prepare=*/false);
    auto& m = files_[file_index].off_grid;
    const auto it = m.find({offset, clen});
    if (it == m.end()) return;  // not recorded (kMaxOffGridChunks)
    e = &it->second;
    if (e->flags & kEntryDead) {
      if (e->inflight > 0) --e->inflight;
      if (e->inflight == 0) {
        m.erase(it);
        --off_grid_count_;
      }
      return;
    }
  }
  if (e->inflight > 0) --e->inflight;
  if (split && (e->flags & kEntryOverlap)) e->flags |= kEntrySplit;
  if (!ok)
    e->flags |= kEntryUnknown;
  else if (!(e->flags & kEntryOverlap))
    // This write was alone from preparation to completion, so the chunk now
    // holds exactly it, whatever failed before.
    e->flags &= static_cast<uint8_t>(~kEntryUnknown);
}

void Verifier::RecordPlannedWrite(uint32_t file_index, uint64_t offset, uint64_t len) {
  for (uint64_t pos = 0; pos < len; pos += interval_)
    PrepareChunk(file_index, offset + pos, std::min(interval_, len - pos), ChunkEnds(pos, len));
  TouchOffGridChunks(file_index, offset, len, /*prepare=*/true);
  for (uint64_t pos = 0; pos < len; pos += interval_)
    CompleteChunk(file_index, offset + pos, std::min(interval_, len - pos), true, false);
}

Verifier::PatternAt Verifier::PatternFor(uint64_t chunk_offset, uint64_t block_offset) const {
  // verify=pattern is fio's: the pattern runs on unbroken through the block
  // (the write or read, whatever verify_interval cuts it into) and %o is the
  // block's offset. Data after a header is iobench's own: each chunk starts
  // the pattern afresh and %o is the chunk's offset.
  if (type_ == VerifyType::kPattern && pattern_len_ != 0)
    return {(chunk_offset - block_offset) % pattern_len_, block_offset};
  return {0, chunk_offset};
}

void Verifier::FillData(uint8_t* dst, uint64_t n, uint64_t pos, uint64_t key, bool pattern,
                        PatternAt at) const {
  if (n == 0) return;
  if (pattern) {
    // Pattern positions from the chunk's phase; pattern_buf_ holds one
    // interval from any phase, and data positions never reach past one.
    const uint64_t start = at.phase + pos;
    std::memcpy(dst, pattern_buf_.data() + start % pattern_len_, n);
    // %o: every repetition of the pattern carries the offset (little-endian,
    // as fio writes it) at the places %o stood.
    if (pattern_offsets_.empty()) return;
    uint8_t off[8];
    std::memcpy(off, &at.offset, 8);
    const uint64_t end = start + n;
    for (uint64_t rep = start / pattern_len_ * pattern_len_; rep < end; rep += pattern_len_) {
      for (uint32_t o : pattern_offsets_) {
        const uint64_t b = rep + o;
        const uint64_t lo = std::max(b, start), hi = std::min(b + 8, end);
        for (uint64_t k = lo; k < hi; ++k) dst[k - start] = off[k - b];
      }
    }
    return;
  }
  uint64_t word = pos / 8;
  unsigned skip = static_cast<unsigned>(pos % 8);
  if (skip != 0) {
    const uint64_t w = Mix(key + (word + 1) * kGamma);
    uint8_t b[8];
    std::memcpy(b, &w, 8);
    const uint64_t take = std::min<uint64_t>(8 - skip, n);
    std::memcpy(dst, b + skip, take);
    dst += take;
    n -= take;
    ++word;
  }
  while (n >= 8) {
    const uint64_t w = Mix(key + (word + 1) * kGamma);
    std::memcpy(dst, &w, 8);
    dst += 8;
    n -= 8;
    ++word;
  }
  if (n > 0) {
    const uint64_t w = Mix(key + (word + 1) * kGamma);
    std::memcpy(dst, &w, n);
  }
}

// Physical layout of a chunk of clen bytes with the header at hp:
//   [data 0..hp) [header 128] [data hp..clen-128)
// verify=pattern chunks are all data.
void Verifier::BuildChunk(Checksummer& sum, uint8_t* chunk, uint64_t clen, uint32_t file_index,
                          uint64_t offset, uint64_t block_offset, uint64_t generation,
                          uint64_t timestamp_ns, const Writer& w) const {
  const bool pattern = !pattern_buf_.empty();
  const PatternAt at = PatternFor(offset, block_offset);
  if (type_ == VerifyType::kPattern) {
    FillData(chunk, clen, 0, 0, true, at);
    return;
  }
  const uint64_t key = DataKey(w.seed, file_index, offset, generation);
  if (clen < kVerifyHeaderSize) {  // a tail too short for a header: data only
    FillData(chunk, clen, 0, key, pattern, at);
    return;
  }
  const uint64_t hp = HeaderPos(clen);
  VerifyHeader h;
  std::memset(&h, 0, sizeof h);
  h.magic = kVerifyMagic;
  h.version = kVerifyHeaderVersion;
  // A meta job rebuilding a block another checksum type wrote (it accepts
  // them) passes a Checksummer of that type.
  const VerifyType type =
      type_ == VerifyType::kMeta && VerifyTypeHasChecksum(sum.type()) ? sum.type() : type_;
  h.type = static_cast<uint8_t>(type);
  h.flags = pattern ? kHeaderFlagPattern : 0;
  h.length = static_cast<uint32_t>(clen);
  h.offset = offset;
  h.job_hash = w.job_hash;
  h.clone = w.clone;
  h.file_index = file_index;
  h.generation = generation;
  h.seed = w.seed;
  h.timestamp_ns = timestamp_ns;
  SealHeader(&h);
  FillData(chunk, hp, 0, key, pattern, at);
  uint8_t* after = chunk + hp + kVerifyHeaderSize;
  const uint64_t after_len = clen - hp - kVerifyHeaderSize;
  FillData(after, after_len, hp, key, pattern, at);
  if (VerifyTypeHasChecksum(type)) {
    sum.Begin();
    sum.Update(&h, 64);
    sum.Update(chunk, hp);
    sum.Update(after, after_len);
    sum.Final(h.checksum);
  }
  std::memcpy(chunk + hp, &h, sizeof h);
}

VerifyWriteToken Verifier::PrepareWrite(void* buf, uint64_t len, uint32_t file_index,
                                        uint64_t offset) {
  VerifyWriteToken token{file_index, offset, len};
  // verify=null writes no header but keeps the record all the same: the
  // read-back reads what was written, as fio's list of writes holds them
  // for verify=null too (a random job without the random map read nothing
  // back, fio every block once).
  const bool headers = type_ != VerifyType::kNull;
  auto* p = static_cast<uint8_t*>(buf);
  const uint64_t now = headers ? RealtimeNs() : 0;
  bool off_grid = false;
  for (uint64_t pos = 0; pos < len; pos += interval_) {
    const uint64_t clen = std::min(interval_, len - pos);
    off_grid |= Lookup(file_index, offset + pos, clen) == nullptr;
    const uint64_t gen = PrepareChunk(file_index, offset + pos, clen, ChunkEnds(pos, len));
    if (!headers) continue;
    BuildChunk(own_.sum_, p + pos, clen, file_index, offset + pos, offset, gen, now, own_id_);
    ++own_.counters_.chunks_written;
  }
  if (off_grid) TouchOffGridChunks(file_index, offset, len, /*prepare=*/true);
  return token;
}

void Verifier::TouchOffGridChunks(uint32_t file_index, uint64_t offset, uint64_t len,
                                  bool prepare) {
  for (uint64_t pos = 0; pos < len; pos += interval_) {
    const uint64_t clen = std::min(interval_, len - pos);
    if (Lookup(file_index, offset + pos, clen) == nullptr)
      TouchGrid(file_index, offset + pos, clen, prepare);
  }
}

void Verifier::OnWriteComplete(const VerifyWriteToken& t, bool ok, bool split) {
  for (uint64_t pos = 0; pos < t.length; pos += interval_) {
    CompleteChunk(t.file_index, t.offset + pos, std::min(interval_, t.length - pos), ok, split);
    // "blocks written" counts what reached the file: a write that failed
    // (ENOSPC at the end of fill_device) was counted when it was prepared
    // (verify=null counts none).
    if (!ok && type_ != VerifyType::kNull) --own_.counters_.chunks_written;
  }
}

bool Verifier::DataIsPattern(VerifyChecker& c, const uint8_t* chunk, uint64_t clen, uint64_t offset,
                             uint64_t block_offset) const {
  const bool header = type_ != VerifyType::kPattern && clen >= kVerifyHeaderSize;
  const uint64_t hp = header ? HeaderPos(clen) : 0;
  const uint64_t hlen = header ? kVerifyHeaderSize : 0;
  const PatternAt at = PatternFor(offset, block_offset);
  const uint8_t* want = pattern_buf_.data() + at.phase;
  if (!pattern_offsets_.empty()) {  // %o: the expected bytes depend on the offset
    FillData(c.scratch_.data(), clen - hlen, 0, 0, true, at);
    want = c.scratch_.data();
  }
  return std::memcmp(chunk, want, hp) == 0 &&
         std::memcmp(chunk + hp + hlen, want + hp, clen - hp - hlen) == 0;
}

bool Verifier::PatternOfOtherBlock(VerifyChecker& c, const uint8_t* chunk, uint64_t clen,
                                   uint64_t offset) const {
  if (type_ != VerifyType::kPattern || pattern_len_ == 0) return false;
  // A read that is not the block written (the verify phase reading a
  // record's chunks, bsrange; a read of several blocks): the chunk may sit
  // at any phase of a block that started up to max_block_ before it. With
  // %o the block's offset is in the data: it must be such a start, and the
  // chunk must be exactly what that block has there.
  for (uint64_t phase = 0; phase < pattern_len_; ++phase) {
    if (pattern_offsets_.empty()) {
      if (std::memcmp(chunk, pattern_buf_.data() + phase, clen) == 0) return true;
      continue;
    }
    const uint64_t at = (pattern_offsets_[0] + pattern_len_ - phase) % pattern_len_;
    if (at + 8 > clen) continue;
    uint64_t block;
    std::memcpy(&block, chunk + at, 8);
    if (block > offset || offset - block >= max_block_ || (offset - block) % pattern_len_ != phase)
      continue;
    FillData(c.scratch_.data(), clen, 0, 0, true, PatternAt{phase, block});
    if (std::memcmp(chunk, c.scratch_.data(), clen) == 0) return true;
  }
  return false;
}

// Overlapping writes to one chunk are always the same layout (an off-grid
// write over a grid chunk, or the reverse, makes it unknown), so each
// candidate generation g <= e.generation is a chunk BuildChunk can make
// again, but for the timestamp in its header. The smallest unit a write
// lands in, whatever tears it (direct I/O, a block device's page cache, a
// filesystem), is a 512-byte sector of the file: a mix of our writes has
// every sector (on the file's grid, partial at the chunk's ends) from one
// of them. The header's sector must be exactly the chunk of the generation
// its sane header names (rebuilt with the timestamp read); every other
// sector must be the data of some candidate: its first whole word names the
// only generation it can be (GenerationOfWord), which must be one of
// 1..last and match the whole sector. (The last kTearGenerations were
// searched instead, and a sector none of them explained was kUndecidable,
// skipped: a flipped byte in a chunk rewritten more than 64 times under
// overlap, time_based over a small file at depth, passed with exit 0.) What
// cannot be told is kUndecidable, counted apart (chunks_undecided): a split
// write (kEntrySplit: torn at any byte), a header across a sector boundary
// (verify_offset), or a sliver of a sector under a whole word that none of
// the last kTearGenerations explains when older ones could.
Verifier::Tear Verifier::ExplainTear(VerifyChecker& c, const uint8_t* chunk, uint64_t clen,
                                     uint32_t file_index, uint64_t offset, const Entry& e,
                                     uint64_t* best) const {
  const uint64_t last = e.generation;
  const uint64_t hp = HeaderPos(clen);
  VerifyHeader h;
  std::memcpy(&h, chunk + hp, sizeof h);
  if ((e.flags & kEntrySplit) || last == 0 ||
      (offset + hp) % kTearSector + kVerifyHeaderSize > kTearSector)
    return h.magic == kVerifyMagic ? Tear::kUndecidable : Tear::kUnexplained;
  if (!HeaderSane(h, type_) || h.generation == 0 || h.generation > last) return Tear::kUnexplained;
  const uint64_t gh = h.generation;
  *best = gh;
  const Writer w = check_writer_ ? own_id_ : Writer{h.job_hash, h.clone, h.seed};
  std::vector<uint8_t> want(clen);  // only for a failing overlapped chunk
  BuildChunk(c.sum_, want.data(), clen, file_index, offset, offset, gh, h.timestamp_ns, w);
  const bool pattern = !pattern_buf_.empty();
  const uint64_t lo = last > kTearGenerations ? last - kTearGenerations + 1 : 1;
  uint8_t sector[kTearSector];
  uint64_t prev = gh;  // neighbouring sectors tend to come from one write
  for (uint64_t a = 0; a < clen;) {
    const uint64_t b = std::min(clen, a + kTearSector - (offset + a) % kTearSector);
    if (b > hp && a < hp + kVerifyHeaderSize) {  // the header's sector: write gh's
      if (std::memcmp(chunk + a, want.data() + a, b - a) != 0) return Tear::kUnexplained;
    } else {
      const uint64_t pos = a < hp ? a : a - kVerifyHeaderSize;  // data position
      auto is = [&](uint64_t g) {
        FillData(sector, b - a, pos, DataKey(w.seed, file_index, offset, g), pattern,
                 PatternFor(offset, offset));
        return std::memcmp(chunk + a, sector, b - a) == 0;
      };
      uint64_t got = is(prev) ? prev : 0;
      // A pattern's data is the same in every generation: prev's is all of them.
      if (got == 0 && pattern) return Tear::kUnexplained;
      // The sector's first whole data word names the one generation whose
      // data it can be (GenerationOfWord): any of 1..last, however old,
      // is found at once, and a sector that is none of them is damage.
      const uint64_t word = (pos + 7) / 8;
      if (got == 0 && word * 8 + 8 <= pos + (b - a)) {
        uint64_t wv;
        std::memcpy(&wv, chunk + a + (word * 8 - pos), 8);
        const uint64_t g = GenerationOfWord(w.seed, file_index, offset, word, wv);
        if (g == 0 || g > last || !is(g)) return Tear::kUnexplained;
        got = g;
      }
      // A sliver of a sector (under a whole word, at an off-grid chunk's
      // end): searched over the last kTearGenerations.
      for (uint64_t g = last; got == 0 && g >= lo; --g)
        if (g != prev && is(g)) got = g;
      if (got == 0) return lo > 1 ? Tear::kUndecidable : Tear::kUnexplained;
      prev = got;
    }
    a = b;
  }
  return Tear::kExplained;
}

// Returns true when the chunk is good or skipped; false with f->kind and
// f->detail set (and f->expected.generation when known) when it is bad.
bool Verifier::CheckChunk(VerifyChecker& c, const uint8_t* chunk, uint64_t clen,
                          uint32_t file_index, uint64_t offset, uint64_t block_offset,
                          VerifyFailure* f) const {
  VerifyCounters& counters = c.counters_;
  Checksummer& sum = c.sum_;
  const Entry* e = Find(file_index, offset, clen);
  uint64_t want_gen = 0;  // 0: any generation
  bool overlap = false;
  if (e != nullptr) {
    if (e->inflight > 0 || (e->flags & kEntryUnknown) || (e->generation == 0 && !any_generation_)) {
      ++counters.chunks_skipped;
      return true;
    }
    // verify_only without a state: the record is the plan's
    // (RecordPlannedWrite), the generation on media any of them.
    if (!any_generation_) want_gen = e->generation;
    overlap = (e->flags & kEntryOverlap) != 0;
  }
  // Chunks not recorded (verify_only without a state, past
  // kMaxOffGridChunks, files not declared) are checked for everything but
  // their generation.
  f->expected.generation = want_gen;

  auto pattern_mismatch = [&] {
    f->kind = VerifyFailureKind::kPattern;
    f->detail = "data differs from verify_pattern";
    return false;
  };
  if (type_ == VerifyType::kPattern || clen < kVerifyHeaderSize) {
    // No header fits in a short tail: its data is all there is to check,
    // and only a pattern makes it predictable without the generation.
    if (pattern_buf_.empty()) {
      ++counters.chunks_skipped;
      return true;
    }
    if (!DataIsPattern(c, chunk, clen, offset, block_offset) &&
        !PatternOfOtherBlock(c, chunk, clen, offset))
      return pattern_mismatch();
    ++counters.chunks_verified;
    return true;
  }
  const uint64_t hp = HeaderPos(clen);
  VerifyHeader& h = f->actual;
  std::memcpy(&h, chunk + hp, sizeof h);
  // Writes that overlapped in flight may also have landed interleaved (a
  // device or page cache that is atomic per sector only, a short write
  // finished by a second syscall): a chunk mixing our own writes is
  // indeterminate, not bad (fio's serialize_overlap describes the same
  // race), and skipped. Whether it is such a mix is decided sector by
  // sector (ExplainTear); anything else is reported, saying so.
  bool tear_checked = false;
  uint64_t tear_gen = want_gen;
  auto overlapped_mix = [&] {
    if (!overlap) return false;
    tear_checked = true;
    const Tear t = ExplainTear(c, chunk, clen, file_index, offset, *e, &tear_gen);
    if (t == Tear::kUnexplained) return false;
    if (t == Tear::kUndecidable) ++counters.chunks_undecided;
    ++counters.chunks_skipped;
    return true;
  };
  auto unexplained = [&] {  // after kind and detail are set
    if (tear_checked) {
      f->detail += "; writes to it overlapped in flight (generations up to " +
                   std::to_string(want_gen) + "), and no mix of them, " +
                   std::to_string(kTearSector) + "-byte sector by sector, explains the data";
      f->expected.generation = tear_gen;
    }
    return false;
  };
  if (!HeaderSane(h, type_)) {
    if (overlapped_mix()) return true;
    f->kind = VerifyFailureKind::kCorrupted;
    bool zero = true;
    for (uint64_t i = 0; i < clen && zero; ++i) zero = chunk[i] == 0;
    if (zero)
      f->detail = "block is all zeros (never written, or trimmed)";
    else if (h.magic != kVerifyMagic)
      f->detail = "bad magic " + Hex(h.magic) + ", expected " + Hex(kVerifyMagic);
    else if (h.version != kVerifyHeaderVersion)
      f->detail = "header version " + std::to_string(h.version) + ", expected " +
                  std::to_string(kVerifyHeaderVersion);
    else if (!TypeAccepted(h.type, type_))
      f->detail = "written with verify=" +
                  std::string(h.type <= static_cast<uint8_t>(VerifyType::kNull)
                                  ? VerifyTypeName(static_cast<VerifyType>(h.type))
                                  : "?") +
                  ", this job checks verify=" + std::string(VerifyTypeName(type_)) +
                  " (verify=meta checks the header of any checksum type)";
    else
      f->detail = "header checksum (CRC-32C) mismatch";
    return unexplained();
  }
  f->actual_header_valid = true;
  // The checksum field's unused bytes are covered by neither CRC nor
  // checksum: a writer leaves them zero, so anything else there is damage
  // (fio's header has no such gap: t/verify.py's 4-byte mangle is always
  // found).
  {
    // meta reading another type's block: that type's checksum is there.
    const size_t used =
        VerifyTypeHasChecksum(type_) ? sum.size() : VerifyChecksumSize(VerifyType{h.type});
    for (size_t i = used; i < kMaxChecksumBytes; ++i) {
      if (h.checksum[i] == 0) continue;
      f->kind = VerifyFailureKind::kCorrupted;
      f->detail = "header byte " + std::to_string(64 + i) + " (unused by the checksum) is not zero";
      return false;
    }
  }
  if (h.offset != offset || (h.file_index != file_index && !foreign_)) {
    f->kind = VerifyFailureKind::kMisplaced;
    f->detail = "header is for file " + std::to_string(h.file_index) + " offset " +
                std::to_string(h.offset) + ", read from file " + std::to_string(file_index) +
                " offset " + std::to_string(offset);
    return false;
  }
  if (check_writer_ && (h.clone != clone_ || h.seed != seed_)) {
    f->kind = VerifyFailureKind::kMisplaced;
    f->detail = "written by another job, clone or seed";
    return false;
  }
  if (h.length != clen) {
    if (overlapped_mix()) return true;
    // A write that stopped short leaves its header whole (the header goes
    // first and says the length it was issued with): a header of another
    // length is a block written by a job with another bs or
    // verify_interval, the usual mistake between a write run and its
    // verify_only run. It was called a torn, partial write, which sends the
    // user looking for a hardware fault.
    f->kind = VerifyFailureKind::kCorrupted;
    f->detail = "header length " + std::to_string(h.length) + " != chunk length " +
                std::to_string(clen) +
                " (written with another bs or verify_interval than this job's?)";
    return unexplained();
  }
  if (VerifyTypeHasChecksum(type_)) {
    uint8_t got[kMaxChecksumBytes];
    sum.Begin();
    sum.Update(&h, 64);
    sum.Update(chunk, hp);
    sum.Update(chunk + hp + kVerifyHeaderSize, clen - hp - kVerifyHeaderSize);
    sum.Final(got);
    if (std::memcmp(got, h.checksum, sum.size()) != 0) {
      if (overlapped_mix()) return true;
      f->kind = VerifyFailureKind::kBadData;
      // The header's fields are intact (its CRC, offset and length passed),
      // but the data and the checksum stored for it (after the CRC'd bytes)
      // disagree: either may be damaged, and this check cannot tell which
      // (a byte flipped in the stored checksum read as bad data). It was
      // called a torn block, which reads like a write-ordering fault
      // (overlapping writes that landed mixed are skipped just above, and
      // unexplained() says when writes overlapped).
      f->detail = std::string(VerifyTypeName(type_)) +
                  " data checksum mismatch: the header's fields are intact, the data does not "
                  "match the checksum stored in the header (either may be damaged)";
      return unexplained();
    }
  }
  // meta has no checksum over the data; with verify_pattern the data is
  // known all the same, so it is compared (fio's verify_io_u runs
  // verify_io_u_pattern for verify=meta when a pattern is set).
  if (!VerifyTypeHasChecksum(type_) && !pattern_buf_.empty() &&
      !DataIsPattern(c, chunk, clen, offset, block_offset))
    return pattern_mismatch();
  if (want_gen != 0 && e != nullptr) {
    const bool good =
        overlap ? (h.generation >= 1 && h.generation <= want_gen) : h.generation == want_gen;
    if (!good) {
      // A newer one is no lost write: it was called a stale block.
      const bool newer = h.generation > want_gen;
      f->kind = newer ? VerifyFailureKind::kNewer : VerifyFailureKind::kStale;
      f->detail = "generation " + std::to_string(h.generation) +
                  (newer ? " is newer than " : " is older than ") + "the last completed write's " +
                  std::to_string(want_gen) +
                  (newer ? " (written after the record was made: a later run on the file?)" : "");
      return false;
    }
  }
  ++counters.chunks_verified;
  return true;
}

Result<std::unique_ptr<VerifyChecker>> Verifier::NewChecker() const {
  auto c = std::make_unique<VerifyChecker>();
  if (type_ != VerifyType::kNull) IOB_RETURN_IF_ERROR(c->sum_.Init(type_));
  c->scratch_.resize(own_.scratch_.size());
  return c;
}

void Verifier::MergeCounters(VerifyChecker* c) {
  VerifyCounters& to = own_.counters_;
  to.chunks_written += c->counters_.chunks_written;
  to.chunks_verified += c->counters_.chunks_verified;
  to.chunks_skipped += c->counters_.chunks_skipped;
  to.failures += c->counters_.failures;
  to.chunks_unrecorded += c->counters_.chunks_unrecorded;
  to.chunks_undecided += c->counters_.chunks_undecided;
  c->counters_ = VerifyCounters{};
}

Status Verifier::CheckReadWith(VerifyChecker* c, const void* buf, uint64_t len, uint32_t file_index,
                               const std::string& file_path, uint64_t offset,
                               VerifyFailure* failure, std::vector<VerifyFailure>* more) const {
  if (type_ == VerifyType::kNull) return Status::Ok();
  const auto* p = static_cast<const uint8_t*>(buf);
  // Constructing an empty VerifyFailure allocates nothing; the good path only
  // copies each header into it.
  VerifyFailure local;
  VerifyFailure* f = failure != nullptr ? failure : &local;
  if (more != nullptr) more->clear();
  // Every chunk is checked and counted, and every bad one reported (fio's
  // verify_io_u goes on to the next header after a failure too), unless
  // the first failure stops the job anyway (verify_fatal).
  Status first;
  std::optional<VerifyFailure> later;  // the chunks after the first bad one
  for (uint64_t pos = 0; pos < len; pos += interval_) {
    const uint64_t clen = std::min(interval_, len - pos);
    if (!first.ok() && !later) later.emplace();
    VerifyFailure* cur = first.ok() ? f : &*later;
    cur->kind = VerifyFailureKind::kNone;
    cur->actual_header_valid = false;
    // The block the chunk is in: the read's, or in a read of several blocks
    // (a test's; a verify=pattern read job with a larger bs) one of the
    // job's largest blocks from the read's start.
    const uint64_t block = offset + pos - pos % max_block_;
    if (CheckChunk(*c, p + pos, clen, file_index, offset + pos, block, cur)) continue;
    ++c->counters_.failures;
    if (first.ok()) {
      first = MakeFailureStatus(*c, p + pos, clen, file_index, file_path, offset + pos, block, f);
      f->status = first;
    } else if (more != nullptr) {
      later->status =
          MakeFailureStatus(*c, p + pos, clen, file_index, file_path, offset + pos, block, &*later);
      more->push_back(std::move(*later));
      later.reset();
    }
    if (stop_at_first_) break;
  }
  return first;
}

Status Verifier::MakeFailureStatus(VerifyChecker& c, const uint8_t* chunk, uint64_t clen,
                                   uint32_t file_index, const std::string& path, uint64_t offset,
                                   uint64_t block_offset, VerifyFailure* f) const {
  f->file = path;
  f->file_index = file_index;
  f->offset = offset;
  f->length = clen;
  f->received_block.assign(chunk, chunk + clen);
  f->expected_block.clear();
  f->first_diff = UINT64_MAX;
  f->expected_byte = f->actual_byte = 0;
  const uint64_t tracked_gen = f->expected.generation;
  std::memset(&f->expected, 0, sizeof f->expected);
  f->expected.generation = tracked_gen;
  // Rebuild what should be there: the recorded generation if known, else
  // the one in a valid header (verify_only without state, a chunk not
  // recorded).
  uint64_t gen = f->expected.generation;
  if (gen == 0 && f->actual_header_valid) gen = f->actual.generation;
  f->expected_known = type_ == VerifyType::kPattern || gen != 0 || f->actual_header_valid;
  if (type_ == VerifyType::kPattern) gen = 0;
  if (f->expected_known) {
    f->expected_block.assign(clen, 0);
    // The timestamp cannot be recomputed; take the one written (see
    // WrittenTimestamp) so it does not show up as the first difference.
    uint64_t ts = 0;
    if (type_ != VerifyType::kPattern && clen >= kVerifyHeaderSize)
      ts = WrittenTimestamp(chunk + HeaderPos(clen));
    // What another run or job wrote (verify_only, a read job) is rebuilt
    // as its writer wrote it, so the first difference is the damage, not
    // the writer's name or seed.
    Writer w = own_id_;
    uint32_t data_file = file_index;
    if (f->actual_header_valid && !check_writer_) {
      w = Writer{f->actual.job_hash, f->actual.clone, f->actual.seed};
      if (foreign_) data_file = f->actual.file_index;
    }
    // verify=meta reading another checksum type's block: rebuild it with
    // that type, so the first difference is the damage, not the type byte.
    Checksummer* sum = &c.sum_;
    Checksummer other;
    if (type_ == VerifyType::kMeta && f->actual_header_valid &&
        f->actual.type != static_cast<uint8_t>(VerifyType::kMeta) &&
        other.Init(VerifyType{f->actual.type}).ok())
      sum = &other;
    BuildChunk(*sum, f->expected_block.data(), clen, data_file, offset, block_offset, gen, ts, w);
    if (type_ != VerifyType::kPattern && clen >= kVerifyHeaderSize)
      std::memcpy(&f->expected, f->expected_block.data() + HeaderPos(clen), sizeof f->expected);
    for (uint64_t i = 0; i < clen; ++i) {
      if (chunk[i] != f->expected_block[i]) {
        f->first_diff = offset + i;
        f->expected_byte = f->expected_block[i];
        f->actual_byte = chunk[i];
        break;
      }
    }
  }
  // "stale block at offset ...", "block from another run at offset ...".
  const bool block_in_name = f->kind == VerifyFailureKind::kNewer;
  std::string msg = "verify: " + path + ": " + VerifyFailureKindName(f->kind) +
                    (block_in_name ? "" : " block") + " at offset " + std::to_string(offset) +
                    ", length " + std::to_string(clen) + ": " + f->detail;
  if (type_ != VerifyType::kPattern) {
    msg += "; read header: " + DescribeHeader(f->actual);
    if (f->expected_known) msg += "; expected header: " + DescribeHeader(f->expected);
  }
  if (f->first_diff != UINT64_MAX) {
    char b[160];
    std::snprintf(b, sizeof b,
                  "; first differing byte at file offset %" PRIu64 " (block byte %" PRIu64
                  "): expected 0x%02x, read 0x%02x",
                  f->first_diff, f->first_diff - offset, unsigned{f->expected_byte},
                  unsigned{f->actual_byte});
    msg += b;
  } else if (!f->expected_known) {
    msg += "; expected contents unknown (generation not tracked)";
  }
  return Status(Status::Code::kIoError, std::move(msg), kVerifyErrno);
}

namespace {

Status WriteWhole(const std::string& path, const std::vector<uint8_t>& data,
                  const std::string& what) {
  // Never through a symbolic link, a hard link or onto a device planted at
  // that name: a file already there is replaced.
  Result<int> opened = sys::OpenSideFile(path, what);
  if (!opened.ok()) return opened.status().WithContext("verify_dump");
  const int fd = *opened;
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      Status st = ErrnoStatus("verify_dump: write " + path);
      ::close(fd);
      return st;
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) return ErrnoStatus("verify_dump: close " + path);
  return Status::Ok();
}

}  // namespace

namespace {

// The dump stems ("<dir>/<base>.<offset>") this process wrote: two files
// with the same base name (d1/x and d2/x), or a block dumped again (loops),
// would replace a dump of this run. fio 3.33 does replace it.
std::string NewDumpStem(const std::string& stem) {
  static std::mutex mu;
  static std::set<std::string> written;
  std::lock_guard<std::mutex> lock(mu);
  std::string s = stem;
  for (int k = 2; !written.insert(s).second; ++k) s = stem + "-" + std::to_string(k);
  return s;
}

}  // namespace

Status Verifier::DumpFailure(const VerifyFailure& f, const std::string& dir,
                             std::vector<std::string>* written) {
  std::string base = f.file;
  const size_t slash = base.rfind('/');
  if (slash != std::string::npos) base = base.substr(slash + 1);
  const std::string stem = NewDumpStem(dir + "/" + base + "." + std::to_string(f.offset));
  IOB_RETURN_IF_ERROR(WriteWhole(stem + ".received", f.received_block, "the block as read"));
  if (written != nullptr) written->push_back(stem + ".received");
  if (!f.expected_known)
    return Status(Status::Code::kNotFound,
                  "verify_dump: " + stem +
                      ".expected not written: the expected contents are "
                      "unknown (header corrupt and generation not tracked)");
  IOB_RETURN_IF_ERROR(WriteWhole(stem + ".expected", f.expected_block, "the expected block"));
  if (written != nullptr) written->push_back(stem + ".expected");
  return Status::Ok();
}

namespace {

bool ChunkUsable(const Verifier::Entry& e) {
  return e.generation != 0 && e.inflight == 0 &&
         !(e.flags & (Verifier::kEntryUnknown | Verifier::kEntryVerified | Verifier::kEntryDead));
}

}  // namespace

bool Verifier::NextWritten(VerifyCursor* c, uint64_t max_len, VerifyRange* out,
                           bool by_write) const {
  max_len = std::max(max_len, interval_);
  for (; c->file_index < files_.size(); ++c->file_index, c->chunk = 0, c->off_grid = 0) {
    const FileRecord& f = files_[c->file_index];
    // The first usable grid chunk and off-grid chunk at or after the cursor;
    // the earlier one starts the range. Usable chunks never overlap (a write
    // drops what it overlaps), so both parts advance past what is yielded.
    while (c->chunk < f.grid.size() && !ChunkUsable(f.grid[c->chunk])) ++c->chunk;
    auto it = f.off_grid.lower_bound({c->off_grid, 0});
    while (it != f.off_grid.end() && !ChunkUsable(it->second)) ++it;
    c->off_grid = it != f.off_grid.end() ? it->first.first : UINT64_MAX;
    const uint64_t grid_at = c->chunk < f.grid.size() ? f.base + c->chunk * interval_ : UINT64_MAX;
    if (grid_at == UINT64_MAX && c->off_grid == UINT64_MAX) continue;
    uint64_t start, len;
    uint8_t flags;  // the range's last chunk's
    if (grid_at <= c->off_grid) {
      start = grid_at;
      len = interval_;
      flags = f.grid[c->chunk].flags;
    } else {
      start = it->first.first;
      len = it->first.second;
      flags = it->second.flags;
    }
    // Merge what follows contiguously while each chunk but the last is a
    // whole interval, so that CheckRead cuts the range where it was written
    // (by_write: and not past the end or start of a write).
    while (len % interval_ == 0 && len < max_len && !(by_write && (flags & kEntryTail))) {
      const uint64_t at = start + len;
      uint64_t next = 0;
      if (const Entry* g = Lookup(c->file_index, at, interval_); g != nullptr && ChunkUsable(*g)) {
        next = interval_;
        flags = g->flags;
      } else {
        for (auto j = f.off_grid.lower_bound({at, 0});
             j != f.off_grid.end() && j->first.first == at; ++j) {
          if (ChunkUsable(j->second)) {
            next = j->first.second;
            flags = j->second.flags;
            break;
          }
        }
      }
      if (next == 0 || len + next > max_len || (by_write && (flags & kEntryHead))) break;
      len += next;
    }
    const uint64_t end = start + len;
    if (end > f.base) c->chunk = std::max(c->chunk, (end - f.base + interval_ - 1) / interval_);
    c->off_grid = std::max(c->off_grid, end);
    *out = VerifyRange{c->file_index, start, len};
    return true;
  }
  return false;
}

bool Verifier::IsVerified(const VerifyRange& r) const {
  if (r.length == 0) return false;
  for (uint64_t pos = 0; pos < r.length; pos += interval_) {
    const Entry* e = Find(r.file_index, r.offset + pos, std::min(interval_, r.length - pos));
    if (e == nullptr || !(e->flags & kEntryVerified)) return false;
  }
  return true;
}

bool Verifier::IsWritten(const VerifyRange& r) const {
  for (uint64_t pos = 0; pos < r.length; pos += interval_) {
    const Entry* e = Find(r.file_index, r.offset + pos, std::min(interval_, r.length - pos));
    if (e != nullptr && e->generation != 0 && !(e->flags & (kEntryUnknown | kEntryDead)))
      return true;
  }
  return false;
}

void Verifier::MarkVerified(const VerifyRange& r) {
  for (uint64_t pos = 0; pos < r.length; pos += interval_) {
    Entry* e = Find(r.file_index, r.offset + pos, std::min(interval_, r.length - pos));
    if (e != nullptr) e->flags |= kEntryVerified;
  }
}

VerifyBacklog::VerifyBacklog(uint64_t backlog, uint64_t batch, bool sorted)
    : max_cap_(backlog >= std::numeric_limits<size_t>::max() ? std::numeric_limits<size_t>::max()
                                                             : static_cast<size_t>(backlog) + 1),
      backlog_(backlog),
      batch_(batch != 0 ? batch : backlog),
      sorted_(sorted) {}

bool VerifyBacklog::Grow() {
  const size_t want = cap_ == 0 ? kFirstCapacity : cap_ > max_cap_ / 2 ? max_cap_ : cap_ * 2;
  const size_t cap = std::min(want, max_cap_);
  if (cap > std::numeric_limits<size_t>::max() / sizeof(VerifyRange)) return false;
  std::unique_ptr<VerifyRange[]> ring(new (std::nothrow) VerifyRange[cap]);
  if (ring == nullptr) return false;
  for (size_t i = 0; i < n_; ++i) ring[i] = ring_[(head_ + i) % cap_];  // oldest (or lowest) first
  ring_ = std::move(ring);
  cap_ = cap;
  head_ = 0;
  return true;
}

bool VerifyBacklog::Push(const VerifyRange& r) {
  if (backlog_ == 0) return true;
  if (n_ == cap_ && cap_ < max_cap_ && !Grow()) return false;
  if (!sorted_) {
    if (n_ == cap_) DropFront();  // never with the worker's batches; keeps the newest
    ring_[(head_ + n_) % cap_] = r;
    ++n_;
    return true;
  }
  // (file, offset) order; the older writes the new one overlaps are dropped.
  auto before = [](const VerifyRange& a, const VerifyRange& b) {
    return a.file_index != b.file_index ? a.file_index < b.file_index : a.offset < b.offset;
  };
  VerifyRange* const begin = ring_.get();
  VerifyRange* first = std::lower_bound(begin, begin + n_, r, before);
  if (first != begin) {
    VerifyRange* prev = first - 1;
    if (prev->file_index == r.file_index && prev->offset + prev->length > r.offset) first = prev;
  }
  VerifyRange* last = first;
  while (last != begin + n_ && last->file_index == r.file_index &&
         last->offset < r.offset + r.length)
    ++last;
  if (first == last && n_ == cap_) {  // never with the worker's batches
    DropFront();
    return Push(r);
  }
  if (first == last) {
    std::move_backward(first, begin + n_, begin + n_ + 1);
    ++n_;
  } else {
    std::move(last, begin + n_, first + 1);
    n_ -= static_cast<size_t>(last - first) - 1;
  }
  *first = r;
  return true;
}

bool VerifyBacklog::WantRead(bool last_read) {
  if (n_ == 0) return false;
  if (left_ != 0) return true;
  if (n_ % backlog_ != 0 || last_read) return false;
  left_ = batch_;
  return true;
}

VerifyRange VerifyBacklog::Pop() {
  const VerifyRange r = ring_[head_];
  if (left_ != 0) --left_;
  DropFront();
  return r;
}

void VerifyBacklog::DropFront() {
  --n_;
  if (sorted_)
    std::move(ring_.get() + 1, ring_.get() + 1 + n_, ring_.get());
  else
    head_ = (head_ + 1) % cap_;
}

}  // namespace iobench
