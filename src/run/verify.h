// Data verification (fio's verify=...): what a write puts into each block so
// that a later read can tell whether it got back exactly what was written.
//
// Every written block is cut into chunks of `verify_interval` bytes (default:
// the smallest write block size). Each chunk carries a 128-byte header
// (VerifyHeader below) followed by data that is either pseudo-random from
// (seed, file, offset, generation) or the verify_pattern. With a checksum
// type, the header holds a checksum of the header's first 64 bytes and the
// data. verify=pattern writes no header: the whole chunk is the pattern.
// verify=null does nothing and every check passes.
//
// A read is checked chunk by chunk and a failure is classified:
//   corrupted  magic, version, type or the header's own CRC-32C is wrong
//   misplaced  a valid header for another offset or file, or (a job checking
//              its own writes) another clone or seed; never the job name
//   bad data   a valid header whose data does not match its checksum
//              (the data, or the checksum field, is not what was written)
//   stale      a self-consistent block of a generation other than the last
//              one whose write completed
//   pattern    verify=pattern, or verify=meta (no checksum) with a
//              verify_pattern: a data byte differs from the pattern
//
// Generations are per chunk: the n-th write to a chunk has generation n. The
// Verifier keeps, per file, one 8-byte Entry per chunk of a grid of
// verify_interval chunks from the region's start (generation, writes in
// flight, flags): 8 bytes per verify_interval of the region, i.e. 0.2% at
// 4 KiB. AddFile() refuses regions needing more than kMaxTrackedChunks
// entries per file (1 GiB of memory) and names the fix. Chunks off that grid
// (a write at an offset the grid does not hit: rw=write:N holes, bssplit
// sizes that are not multiples of the interval, bs_unaligned, blockalign, a
// short last block) get an Entry each in an ordered record of (offset,
// length), so they too are read back, once, and checked for staleness. As
// in fio's record of written blocks, a write that overlaps a recorded chunk
// without being that very chunk drops it (it is not read back); grid chunks
// partly overwritten so become unknown. That record allocates one node per
// new off-grid chunk (the grid never allocates), at most
// kMaxOffGridChunks per Verifier; past that new ones are counted
// (VerifyCounters::chunks_unrecorded) and not read back.
//
// Worker contract (see docs/verify.md):
//   setup:   Create(); AddFile() for every file with its region end;
//            LoadState() when verify_state_load is set.
//   write:   token = PrepareWrite(buf, len, file, offset) just before issuing
//            the write (it fills the whole buffer); OnWriteComplete(token, ok)
//            once the whole write finished (ok = all bytes written, no error).
//            A failed write leaves its chunks "unknown" and they are skipped.
//   verify:  read a range (from NextWritten() or a VerifyBacklog batch) and
//            call CheckRead(). Chunks with writes in flight or unknown
//            contents are skipped, and so is a chunk whose writes overlapped
//            in flight when it is a sector-by-sector mix of them
//            (ExplainTear), so overlapping in-flight writes never produce a
//            false failure.
//   end:     SaveState() when verify_state_save is set.
//
// Thread-safety: a Verifier belongs to one worker thread. No method locks;
// on the hot path (PrepareWrite, OnWriteComplete, CheckRead when it passes)
// only PrepareWrite of a new off-grid chunk allocates (its record node); the
// failure path and setup may allocate.
// verify_async: CheckReadWith(checker, ...) may run on other threads, each
// with its own VerifyChecker, while the owner makes no PrepareWrite,
// OnWriteComplete, LoadState or Reset call (the worker issues no write while
// a verify read is being checked); MergeCounters() on the owner's thread
// afterwards.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "iobench/job.h"
#include "iobench/status.h"
#include "run/verify_checksum.h"

namespace iobench {

inline constexpr uint32_t kVerifyMagic = 0x56424f49;  // "IOBV" little-endian
inline constexpr uint16_t kVerifyHeaderVersion = 1;
inline constexpr uint64_t kVerifyHeaderSize = 128;
inline constexpr uint64_t kMaxTrackedChunks = uint64_t{1} << 27;  // 1 GiB of entries per file
// Off-grid chunks recorded per Verifier (~80 bytes each: 1.3 GiB at most).
inline constexpr uint64_t kMaxOffGridChunks = uint64_t{1} << 24;

// On-media header, little-endian (x86-64/aarch64 hosts; other byte orders are
// refused at compile time). Offsets are fixed; see docs/verify.md.
struct VerifyHeader {
  uint32_t magic;                       //  0 kVerifyMagic
  uint16_t version;                     //  4 kVerifyHeaderVersion
  uint8_t type;                         //  6 VerifyType
  uint8_t flags;                        //  7 kHeaderFlagPattern: data is verify_pattern
  uint32_t length;                      //  8 chunk length including the header
  uint32_t header_crc;                  // 12 CRC-32C of bytes 0..63 with this field zero
  uint64_t offset;                      // 16 chunk's byte offset in the file
  uint64_t job_hash;                    // 24 XXH64 of the job name (shown, never checked)
  uint32_t clone;                       // 32 job number (numjobs clone)
  uint32_t file_index;                  // 36 index of the file in the job
  uint64_t generation;                  // 40 n-th write of this chunk (0: not tracked)
  uint64_t seed;                        // 48 the verifier's seed (data derives from it)
  uint64_t timestamp_ns;                // 56 CLOCK_REALTIME when the write was prepared
  uint8_t checksum[kMaxChecksumBytes];  // 64 checksum of bytes 0..63 + data
};
static_assert(sizeof(VerifyHeader) == kVerifyHeaderSize);
inline constexpr uint8_t kHeaderFlagPattern = 1;

enum class VerifyFailureKind : uint8_t {
  kNone,
  kCorrupted,
  kMisplaced,
  kBadData,
  kStale,
  kPattern,
  // A self-consistent block of a generation above the last completed
  // write's: written after the record was made (a later run on the file, a
  // state saved before its writer's last writes), not stale.
  kNewer
};
const char* VerifyFailureKindName(VerifyFailureKind kind);

// Everything a report or verify_dump needs about one bad chunk.
struct VerifyFailure {
  VerifyFailureKind kind = VerifyFailureKind::kNone;
  std::string file;  // path as given to CheckRead
  uint32_t file_index = 0;
  uint64_t offset = 0;               // chunk offset in the file
  uint64_t length = 0;               // chunk length
  std::string detail;                // why, in words
  bool actual_header_valid = false;  // magic and header CRC were right
  VerifyHeader actual{};             // header as read (raw bytes, even when invalid)
  bool expected_known = false;       // the expected chunk could be rebuilt
  VerifyHeader expected{};           // header we expected (timestamp: the one read)
  uint64_t first_diff = UINT64_MAX;  // file offset of the first differing byte
  uint8_t expected_byte = 0;
  uint8_t actual_byte = 0;
  std::vector<uint8_t> expected_block;  // rebuilt chunk when expected_known
  std::vector<uint8_t> received_block;  // copy of the chunk as read
  Status status;                        // CheckRead's Status for this chunk (the message)
};

// Returned by PrepareWrite, handed back to OnWriteComplete.
struct VerifyWriteToken {
  uint32_t file_index = 0;
  uint64_t offset = 0;
  uint64_t length = 0;
};

// A range the verify phase should read back.
struct VerifyRange {
  uint32_t file_index = 0;
  uint64_t offset = 0;
  uint64_t length = 0;
};

// Position of NextWritten() in the written-block record (start with {}).
struct VerifyCursor {
  uint32_t file_index = 0;
  uint64_t chunk = 0;     // grid: no usable chunk below this index is left
  uint64_t off_grid = 0;  // off-grid record: none starting below this offset is left
};

struct VerifyCounters {
  uint64_t chunks_written = 0;   // chunks PrepareWrite filled whose write did not fail
  uint64_t chunks_verified = 0;  // chunks CheckRead checked and found good
  uint64_t chunks_skipped = 0;   // in flight, unknown after a failed write, or never written
  uint64_t failures = 0;         // chunks CheckRead found bad
  // Off-grid chunks written past kMaxOffGridChunks: not recorded, so not
  // read back by NextWritten (a backlog batch or a replay still checks them).
  uint64_t chunks_unrecorded = 0;
  // Of chunks_skipped: writes to them overlapped in flight, the check failed
  // and whether they are a mix of those writes cannot be told (one was
  // split, so torn at any byte; a header across a 512-byte sector; a sliver
  // of a sector from an old generation). Reported, not silently passed.
  uint64_t chunks_undecided = 0;
};

// What one checking thread needs of its own: checksum state, counters and
// a scratch chunk (the expected data of a verify_pattern with %o). Made by
// Verifier::NewChecker(); used by one thread at a time.
class VerifyChecker {
 public:
  const VerifyCounters& counters() const { return counters_; }

 private:
  friend class Verifier;
  Checksummer sum_;
  VerifyCounters counters_;
  std::vector<uint8_t> scratch_;
};

class Verifier {
 public:
  // One per worker (job clone). `seed` (the IoPattern's) goes into every
  // header; a job checking its own writes, or a verify_only job that also
  // reads, accepts only blocks with its seed and jobnum (see check_writer_).
  // The job's name is in the header too but never checked.
  // Errors: verify=none, and those of CheckOptions.
  static Result<std::unique_ptr<Verifier>> Create(const JobSpec& job, uint32_t jobnum,
                                                  uint64_t seed);
  ~Verifier();

  // The verify options that cannot work together (verify=pattern without
  // verify_pattern, a verify_interval that does not divide the block size or
  // is smaller than the header, verify_offset past the interval, %o not
  // fitting in the pattern), each naming the options and where they were set
  // ("verify_interval=1000 (j.fio:5) ..."). The job's name is left to the
  // caller. OK for a job without verify. Before any I/O (the run's job
  // checks) and in Create.
  static Status CheckOptions(const JobSpec& job);

  // Declares file `file_index` whose region is [region_start, region_end):
  // the grid of chunks starts at region_start (a job with offset=512 and
  // bs=4k writes on it). Call before the run.
  Status AddFile(uint32_t file_index, uint64_t region_start, uint64_t region_end);
  Status AddFile(uint32_t file_index, uint64_t region_end) {
    return AddFile(file_index, 0, region_end);
  }

  // Fills buf[0, len) with headers and data for a write at `offset` of file
  // `file_index` and records the write as in flight.
  VerifyWriteToken PrepareWrite(void* buf, uint64_t len, uint32_t file_index, uint64_t offset);
  // The write of `token` finished: ok = every byte was written without error.
  // Not ok: its chunks become unknown (skipped) until a later lone write
  // completes. split: it was written by more than one syscall (a short
  // write's rest requeued), so where another write overlapped it in flight
  // the chunk may be torn at any byte (see CheckChunk). Must be called
  // exactly once per PrepareWrite.
  void OnWriteComplete(const VerifyWriteToken& token, bool ok, bool split = false);

  // Checks buf[0, len) read from `offset` of file `file_index` (`file_path`
  // only names it in messages). OK when every checked chunk is good. Every
  // chunk of the read is checked and counted, also after a bad one (as
  // fio's verify_io_u), unless the job has verify_fatal: then it stops at
  // the first bad chunk (also when its error policy tolerates verify
  // errors, as fio's). Each bad chunk gets a kIoError Status with errno EILSEQ whose
  // message names file, offset, length, kind, expected and actual header
  // fields and the first differing byte. The first one is returned and
  // fills *failure (if non-null; its `status` too); each later one, when
  // `more` is non-null, is appended to *more (cleared first) with its
  // `status`. The caller reports them in that order, one failure each.
  Status CheckRead(const void* buf, uint64_t len, uint32_t file_index, const std::string& file_path,
                   uint64_t offset, VerifyFailure* failure,
                   std::vector<VerifyFailure>* more = nullptr) {
    return CheckReadWith(&own_, buf, len, file_index, file_path, offset, failure, more);
  }

  // verify_async: a checker for another thread, and CheckRead through it
  // (same result and message as CheckRead; its counts go to the checker).
  // See the thread-safety note at the top.
  Result<std::unique_ptr<VerifyChecker>> NewChecker() const;
  Status CheckReadWith(VerifyChecker* checker, const void* buf, uint64_t len, uint32_t file_index,
                       const std::string& file_path, uint64_t offset, VerifyFailure* failure,
                       std::vector<VerifyFailure>* more = nullptr) const;
  // Adds the checker's counts to counters() and zeroes them. Owner's thread.
  void MergeCounters(VerifyChecker* checker);

  // verify_dump: writes the chunk as read and as expected to
  // <dir>/<basename(file)>.<offset>.received and .expected (fio's names).
  // A name this process already wrote a dump to (two files with the same
  // base name, a block dumped again) gets "-2", "-3", ... after the offset
  // instead of replacing it. When the expected chunk cannot be rebuilt
  // (header corrupt and generation unknown) only .received is written and
  // the Status says so. The paths written are appended to *written.
  // Thread-safe.
  static Status DumpFailure(const VerifyFailure& failure, const std::string& dir = ".",
                            std::vector<std::string>* written = nullptr);

  // verify_state_save / verify_state_load: the per-chunk generations (what
  // was written, completely, by this clone). Writes are atomic (tmp+rename).
  // LoadState refuses a state saved for another job, clone, interval or
  // verify type, naming the path and the field; it takes the writer's seed
  // from the state (seed() is that seed afterwards: a verify_only job
  // replays the writer's pattern from it).
  // SaveState refuses (kRefused) to replace a directory, FIFO, socket or
  // device node at `path`: CheckStateSavePath, which setup calls too, so
  // the job fails before any I/O instead of at the end.
  Status SaveState(const std::string& path) const;
  static Status CheckStateSavePath(const std::string& path);
  Status LoadState(const std::string& path);
  // fio's file name: "local-<jobname>-<n>-verify.state", n the clone's
  // place in the run (fio's thread_number - 1, the worker's index).
  static std::string StateFileName(const std::string& job_name, uint32_t jobnum);

  // Iterates completed, known chunks in (file, offset) order, on the grid
  // or off it, each once, merging contiguous neighbours up to max_len bytes
  // (max_len >= interval()) as long as every one but the last is a whole
  // interval (CheckRead cuts a range into chunks from its start). by_write:
  // a range also ends where a write began or ended, so that each write is
  // read back as it was written (fio's record of a sequential job holds its
  // writes); with max_len at least the largest write, a range is one write,
  // or what later writes left of it. A loaded state does not know where
  // writes began: its chunks merge as without by_write. Returns false at the
  // end. The full verify pass after the writes uses this.
  bool NextWritten(VerifyCursor* cursor, uint64_t max_len, VerifyRange* out,
                   bool by_write = false) const;

  // verify_backlog: the range was read back by a backlog batch, so the full
  // pass after the writes skips it until it is written again (fio verifies
  // each logged write once: 4 MiB written, 4 MiB read, whatever the batch).
  void MarkVerified(const VerifyRange& r);
  // Whether a backlog batch already read back every chunk of the range
  // since it was last written (the replayed pass after the writes skips it).
  bool IsVerified(const VerifyRange& r) const;
  // Whether a chunk of the range was written completely (a known
  // generation): a verify_only run with a loaded state reads back only
  // those, as the writer may have been stopped before the rest, and a
  // job's own verify phase (sequential or random) skips a block whose
  // write failed.
  bool IsWritten(const VerifyRange& r) const;

  // Forget everything written (a new loop with a fresh layout). Rarely needed.
  void Reset();

  // verify_only without a state file: records a write of the job's plan as
  // if it had been written and completed (no data), so that NextWritten
  // yields what the writer's last writes left, as fio's verify_only builds
  // its record from the plan. Generations are not checked afterwards (the
  // writer's in-flight overlaps may have left any of them).
  void RecordPlannedWrite(uint32_t file_index, uint64_t offset, uint64_t len);

  VerifyType type() const { return type_; }
  uint64_t interval() const { return interval_; }
  uint64_t seed() const { return seed_; }
  uint64_t job_hash() const { return job_hash_; }
  const VerifyCounters& counters() const { return own_.counters_; }

  // Per-chunk record. Public for the state file and tests.
  struct Entry {
    uint32_t generation = 0;  // of the last write prepared (0: never)
    uint16_t inflight = 0;    // writes prepared but not completed
    uint8_t flags = 0;        // kEntryUnknown | kEntryOverlap | ...
    // Grid: of `inflight`, the off-grid chunks overlapping it (saturates at
    // 255 until inflight is 0 again; then every write counts as another's).
    uint8_t touches = 0;
  };
  static constexpr uint8_t kEntryUnknown = 1;   // a write failed: contents unknown
  static constexpr uint8_t kEntryOverlap = 2;   // writes overlapped: any generation <= last is OK
  static constexpr uint8_t kEntryVerified = 4;  // read back by a backlog batch since its write
  static constexpr uint8_t kEntryOffGrid = 8;   // grid: an off-grid chunk overlaps it
  static constexpr uint8_t kEntryDead = 16;     // off-grid: overlapped by a later write
  // Overlapped, and one of those writes was split (a short write's rest
  // requeued): the chunk may be torn at any byte, not only at a sector.
  static constexpr uint8_t kEntrySplit = 32;
  // The first and the last chunk of the write that last wrote it
  // (NextWritten by_write).
  static constexpr uint8_t kEntryHead = 64;
  static constexpr uint8_t kEntryTail = 128;
  const std::vector<Entry>* entries(uint32_t file_index) const {
    return file_index < files_.size() ? &files_[file_index].grid : nullptr;
  }
  // The grid's first chunk offset in file `file_index` (AddFile's region_start).
  uint64_t grid_base(uint32_t file_index) const {
    return file_index < files_.size() ? files_[file_index].base : 0;
  }
  // Off-grid chunks recorded (dropped ones that are still in flight included).
  uint64_t off_grid_chunks() const { return off_grid_count_; }

 private:
  Verifier() = default;
  // Who wrote a chunk: the header fields the data does not determine.
  struct Writer {
    uint64_t job_hash = 0;
    uint32_t clone = 0;
    uint64_t seed = 0;
  };
  // Fills the chunk at `offset` of the block (the write, or the read that
  // checks it) at `block_offset` as `w` writes it (PrepareWrite: this
  // Verifier's own_id_).
  void BuildChunk(Checksummer& sum, uint8_t* chunk, uint64_t clen, uint32_t file_index,
                  uint64_t offset, uint64_t block_offset, uint64_t generation,
                  uint64_t timestamp_ns, const Writer& w) const;
  // Where verify_pattern stands at a chunk's first data byte: the index in
  // the pattern, and the offset its %o holds.
  struct PatternAt {
    uint64_t phase = 0;
    uint64_t offset = 0;
  };
  PatternAt PatternFor(uint64_t chunk_offset, uint64_t block_offset) const;
  void FillData(uint8_t* dst, uint64_t n, uint64_t data_pos, uint64_t key, bool pattern,
                PatternAt at) const;
  uint64_t HeaderPos(uint64_t clen) const;
  // The grid chunk at exactly (offset, clen), or null.
  Entry* Lookup(uint32_t file_index, uint64_t offset, uint64_t clen);
  const Entry* Lookup(uint32_t file_index, uint64_t offset, uint64_t clen) const;
  // The grid chunk or the recorded off-grid chunk at exactly (offset, clen).
  Entry* Find(uint32_t file_index, uint64_t offset, uint64_t clen);
  const Entry* Find(uint32_t file_index, uint64_t offset, uint64_t clen) const;
  // An off-grid chunk is prepared (prepare) or done: the grid chunks it
  // overlaps count it in flight and become unknown.
  void TouchGrid(uint32_t file_index, uint64_t offset, uint64_t len, bool prepare);
  // TouchGrid for each chunk of a write that is off the grid.
  void TouchOffGridChunks(uint32_t file_index, uint64_t offset, uint64_t len, bool prepare);
  // Whether a grid chunk overlapping [offset, offset+len) has an aligned
  // write in flight (off-grid ones that overlap are in the record).
  bool GridBusy(uint32_t file_index, uint64_t offset, uint64_t len) const;
  // Drops the off-grid chunks overlapping [offset, offset+len) but the one
  // at exactly (offset, len), which it returns (or null). *inflight: one of
  // the dropped ones was still in flight.
  Entry* DropOverlapping(uint32_t file_index, uint64_t offset, uint64_t len, bool* inflight);
  // PrepareWrite for one chunk: its generation (0: not recorded). ends:
  // kEntryHead and/or kEntryTail, where the chunk is in its write.
  uint64_t PrepareChunk(uint32_t file_index, uint64_t offset, uint64_t clen, uint8_t ends);
  // The ends of a write of len bytes that its chunk at pos is on.
  uint8_t ChunkEnds(uint64_t pos, uint64_t len) const {
    return static_cast<uint8_t>((pos == 0 ? kEntryHead : 0) |
                                (len - pos <= interval_ ? kEntryTail : 0));
  }
  void CompleteChunk(uint32_t file_index, uint64_t offset, uint64_t clen, bool ok, bool split);
  // A chunk whose writes overlapped in flight failed its header or checksum
  // check: is it a mix of those writes, sector by sector (kExplained: skip
  // it), something else (kUnexplained: a failure), or can that not be told
  // (kUndecidable: skip it, counted in chunks_undecided)? *best: the
  // generation to rebuild for the failure report.
  enum class Tear : uint8_t { kExplained, kUnexplained, kUndecidable };
  Tear ExplainTear(VerifyChecker& c, const uint8_t* chunk, uint64_t clen, uint32_t file_index,
                   uint64_t offset, const Entry& e, uint64_t* best) const;
  // Whether the chunk's data bytes (all but its header, if it has one) are
  // verify_pattern's as FillData writes them. REQUIRES: a pattern is set.
  bool DataIsPattern(VerifyChecker& c, const uint8_t* chunk, uint64_t clen, uint64_t offset,
                     uint64_t block_offset) const;
  // verify=pattern, a chunk that is not its read's block's pattern: is it
  // the pattern of a block that started elsewhere (up to max_block_ before
  // it, at the offset its %o holds)? Off the hot path: failing chunks only.
  bool PatternOfOtherBlock(VerifyChecker& c, const uint8_t* chunk, uint64_t clen,
                           uint64_t offset) const;
  bool CheckChunk(VerifyChecker& c, const uint8_t* chunk, uint64_t clen, uint32_t file_index,
                  uint64_t offset, uint64_t block_offset, VerifyFailure* f) const;
  Status MakeFailureStatus(VerifyChecker& c, const uint8_t* chunk, uint64_t clen,
                           uint32_t file_index, const std::string& path, uint64_t offset,
                           uint64_t block_offset, VerifyFailure* f) const;

  VerifyType type_ = VerifyType::kNone;
  uint64_t interval_ = 0;
  uint64_t verify_offset_ = 0;
  uint64_t seed_ = 0;
  uint64_t job_hash_ = 0;
  uint32_t clone_ = 0;
  Writer own_id_;  // {job_hash_, clone_, seed_}
  // A job that does not write checks what other jobs wrote (fio's write job,
  // then a read job with verify): their name, clone, seed and file list are
  // not its own, so only the block's offset, length and checksum are checked.
  bool foreign_ = false;
  // The header's clone and seed must be this job's. The job name never is
  // checked: fio's header has none, and QA's checks (t/verify.py) write with
  // one --name and verify with another. A job checking its own writes
  // checks them; verify_only checks what an earlier run wrote, so only when
  // fio 3.33 compares its rand_seed there: a job that reads and writes
  // (randrw) without verify_backlog. fio's rand_seed derives from randseed
  // and the job's position in the run, as seed_ does; a write-only or
  // read-only verify_only job takes it from the header.
  bool check_writer_ = false;
  bool any_generation_ = false;       // verify_only without a loaded state
  bool stop_at_first_ = false;        // verify_fatal: a read stops at its first bad chunk
  std::vector<uint8_t> pattern_buf_;  // verify_pattern repeated: interval + its length
  // verify_pattern's %o: the pattern's length and where in it the 8 offset
  // bytes go (zeros in pattern_buf_; FillData pastes PatternAt's offset).
  uint64_t pattern_len_ = 0;
  uint64_t max_block_ = 0;  // the job's largest block (BufferBs)
  std::vector<uint32_t> pattern_offsets_;
  // Per file: the grid and the off-grid record. Off-grid chunks are at most
  // one interval long, so those overlapping [o, o+len) start after
  // o - interval: the record is searched from there.
  struct FileRecord {
    uint64_t base = 0;        // file offset of grid chunk 0
    std::vector<Entry> grid;  // chunk i: [base + i*interval, +interval)
    std::map<std::pair<uint64_t, uint64_t>, Entry> off_grid;  // (offset, length)
  };
  void GridSpan(const FileRecord& f, uint64_t offset, uint64_t len, uint64_t* first,
                uint64_t* last) const;
  std::vector<FileRecord> files_;
  uint64_t off_grid_count_ = 0;
  bool off_grid_full_ = false;  // kMaxOffGridChunks reached: no new records
  VerifyChecker own_;           // the owner's checksum state and counters
};

// verify_backlog / verify_backlog_batch: fio 3.33's list of written blocks
// not yet read back (io_hist) and its batch counter (check_get_verify). A
// write is pushed when it is issued. Before each I/O the worker asks
// WantRead(): a batch starts when the pending count is a multiple of
// `backlog` and the last completed I/O was not a read, and lasts `batch`
// reads (default: backlog); a batch above the backlog goes on with each
// later write as soon as it is pushed (batch 20 over 16: 16 writes, 16
// reads, then 1 write 1 read four times, as fio). What a batch leaves is
// read by the next batch, which comes after `batch` more writes
// (backlog=16 batch=4: 16 writes, then 4 reads and 4 writes in turn).
// Order: the oldest first; a job that may write a block again in a pass
// (sorted: a random job without a map) keeps them in (file, offset) order
// and drops an older write a new one overlaps, as fio's rbtree does. The
// verify phase reads the rest and Clear()s it; the batch counter carries
// over (fio). The list holds at most backlog + 1 ranges but is allocated
// as it fills (doubling), so its memory follows the writes the job has
// pending, not the option: verify_backlog=2^62 on a 16-block job holds 16.
class VerifyBacklog {
 public:
  VerifyBacklog(uint64_t backlog, uint64_t batch, bool sorted);
  // False when the list had to grow and the memory could not be had (the
  // range is not added; the caller stops the job).
  [[nodiscard]] bool Push(const VerifyRange& r);
  // Whether the next I/O is a backlog read (starts a batch when one is due).
  // last_read: the last I/O was a read.
  bool WantRead(bool last_read);
  // The next range to read back (oldest, or lowest offset). REQUIRES: size() > 0.
  VerifyRange Pop();
  size_t size() const { return n_; }
  void Clear() { head_ = n_ = 0; }
  uint64_t batch() const { return batch_; }
  // Ranges the list has room for now (grows up to backlog + 1).
  size_t capacity() const { return cap_; }

 private:
  static constexpr size_t kFirstCapacity = 64;
  void DropFront();
  bool Grow();

  std::unique_ptr<VerifyRange[]> ring_;
  size_t cap_ = 0;  // ranges allocated in ring_
  size_t max_cap_;  // backlog + 1, saturated at what a size_t can count
  uint64_t backlog_;
  uint64_t batch_;
  bool sorted_;
  size_t head_ = 0, n_ = 0;  // sorted: head_ stays 0
  uint64_t left_ = 0;        // reads left in the current batch (fio's verify_batch)
};

}  // namespace iobench
