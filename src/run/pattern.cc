// IoPattern: direction, file, offset and length of each I/O. See pattern.h
// for the contract and docs/patterns.md for the semantics of every option.
#include "run/pattern.h"

#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <numbers>
#include <numeric>
#include <string>
#include <utility>

#include "run/random.h"

namespace iobench {

namespace {

// randrepeat=1 without randseed: every run starts from this.
constexpr uint64_t kRepeatableSeed = 0x6a09e667f3bcc908ULL;

// Independent streams derived from the worker's seed, so that, e.g., changing
// rwmixread does not change which offsets are generated.
enum Stream : uint64_t {
  kStreamOffset = 1,
  kStreamDdir = 2,
  kStreamBs = 3,
  kStreamSeqRand = 4,
  kStreamFile = 5,
  kStreamLfsr = 100,  // + file index
};

std::string DdirName(int d) {
  static const char* const kNames[kNumDdirs] = {"read", "write", "trim"};
  return kNames[d];
}

// How random offsets are produced (for random rw modes).
enum class RandMode : uint8_t {
  kMap,      // uniform, random map: each block once per pass
  kLfsr,     // uniform, LFSR: each block once per pass, no map
  kUniform,  // uniform, no map (norandommap or blockalign): pass = a byte budget
  kSkewed,   // zipf/pareto/normal/zoned: pass = a byte budget
};

// Block size choice for one direction, flattened for the hot path.
struct BsChooser {
  uint64_t min = 0, max = 0;
  std::vector<uint64_t> sizes;  // bssplit sizes, ascending
  std::vector<uint32_t> cum;    // cumulative weights matching `sizes`
  uint32_t total = 0;
  bool fixed = false;  // one block size (min == max, no split): the common case
};

struct Zone {
  uint64_t lo = 0, hi = 0;  // block range [lo, hi) in gran units
  uint32_t cum = 0;         // cumulative access percent up to this zone
};

struct FileState {
  uint64_t start = 0;        // region offset
  uint64_t size = 0;         // region size
  uint64_t block_align = 1;  // direct I/O alignment (>= 1)
  uint64_t limit = 0;        // the file's end, from start: a fixed-size sequential I/O must fit
  uint64_t len_end = 0;      // from start: a range or split of sequential sizes shrinks to it
  uint64_t blocks = 0;       // size / gran
  // Random offsets of each block-size direction (BsDir) are multiples of
  // this: the direction's blockalign (default: its smallest block size),
  // made a multiple of block_align. In map mode it is that smallest size.
  uint64_t ralign[kNumDdirs] = {1, 1, 1};
  uint64_t seq_cap = 0;  // sequential I/Os per pass (stops zero-progress skips)
  // Per pass:
  // Relative offset of the next sequential I/O per direction (< 0: none).
  // Per direction as in fio: rw=rw reads and writes each walk from the start.
  int64_t pos[kNumDdirs] = {0, 0, 0};
  uint64_t seq_ios = 0;
  // rw_sequencer=identical: where each direction's last I/O
  // started, from start (< 0: none yet in this pass).
  int64_t last_start[kNumDdirs] = {-1, -1, -1};
  uint64_t budget = 0;  // bytes left (sequential, kUniform, kSkewed)
  uint64_t lfsr_left = 0;
  bool done = false;
  bool open = false;     // openfiles: the file is open (a slot is taken)
  uint32_t open_at = 0;  // its place in open_list_ while open
  // Generators:
  prng::BlockMap map;
  prng::Lfsr lfsr;
  prng::Zipf zipf;
  uint64_t scatter_mul = 1, scatter_add = 0;
  std::vector<Zone> zones[kNumDdirs];
};

class PatternImpl final : public IoPattern {
 public:
  Status Init(const JobSpec& job, std::vector<PatternRegion> regions, uint64_t seed);
  bool Next(IoPlan* out) override;
  void Reset() override;
  void Reseed() override;
  void SetSteer(DdirSteer* steer) override { steer_ = mixed_ ? steer : nullptr; }
  int SyncFile() override { return files_.size() > 1 ? PickFile() : -1; }
  bool JoinLoops() override;
  void EndPassesAtRegions() override;
  std::string Note() const override { return note_; }
  // zonemode=strided: the smallest block size when a direction has a range
  // or split of sizes (fio's min_bs != max_bs), else 0.
  uint64_t VariableMinBs() const { return variable_min_bs_; }
  // zonemode=strided: where (from the region's start) a range or split of
  // sequential sizes shrinks to, instead of the region's end. Not on the
  // hot path: once per zone.
  void SetLenEnd(uint64_t end) { files_[0].len_end = end; }
  // Whether a sequential I/O found too little room for its smallest size
  // since the last call (it ends the pass); clears it.
  bool TakeShortEnd() { return std::exchange(short_end_, false); }
  bool HoledWalkGoesOn() const override { return rw_skip_ > 0 && !skip_stopped_; }

 private:
  Ddir ChooseDdir();
  int PickFile();
  int PickFileLimited();  // PickFile with openfiles below the file count
  void OpenFile(int f);
  void CloseFile(int f);
  // A file's pass is over (Generate failed on it): done, and closed under openfiles.
  void FileDone(int f);
  bool Generate(int f, IoPlan* out);
  bool Repeat(IoPlan* out);
  // mark: false for a continuation's fallback, which fio 3.33 does not mark.
  bool TryRandom(FileState& fs, Ddir d, IoPlan* out, bool mark = true);
  // seq_nr_: moves the job's count on; true when a random offset is due.
  bool SeqNrHit() {
    if (--seq_left_ != 0) return false;
    seq_left_ = rw_nr_;
    return true;
  }
  bool MapSlot(FileState& fs, int bd, uint64_t* off, uint64_t* len, bool mark);
  // wrap_dirs_: the direction's next sequential block does not fit.
  bool SequentialAtEnd(const FileState& fs, Ddir d) const;
  // kNone: no sequential I/O here (a random job takes a random offset
  // instead); kEnd: the pass over this file ends (a sequential job ends it
  // on kNone too).
  enum class Seq : uint8_t { kIssued, kNone, kEnd };
  Seq TrySequential(FileState& fs, Ddir d, bool in_random_job, IoPlan* out);
  // Inline fast path for a fixed block size; the rest is out of line.
  uint64_t ChooseLen(int bs_dir, uint64_t remaining) {
    const BsChooser& c = bs_[bs_dir];
    if (c.fixed) return c.min <= remaining ? c.min : 0;
    return ChooseLenSlow(c, remaining);
  }
  uint64_t ChooseLenSlow(const BsChooser& c, uint64_t remaining);
  int BsDir(Ddir d, bool rnd) const {
    if (!bs_is_seq_rand_) return static_cast<int>(d);
    return rnd ? static_cast<int>(Ddir::kWrite) : static_cast<int>(Ddir::kRead);
  }
  uint64_t SkewedBlock(FileState& fs, Ddir d);
  bool FileExhausted(const FileState& fs) const;
  void AfterIo(FileState& fs, Ddir d, uint64_t off_rel, uint64_t len);
  void StartPass(FileState& fs);
  bool FastMapEligible() const;
  void SetFastMap();  // fast_, when FastMapEligible()
  // Init's steps: the block size choosers and the smallest size (gran_); the
  // random offset mode and distribution; one file's state; its zones.
  Status InitBlockSizes(const JobSpec& job, const bool bs_used[kNumDdirs]);
  Status InitOffsetMode(const JobSpec& job, const bool bs_used[kNumDdirs]);
  Status InitFile(const JobSpec& job, size_t i, const PatternRegion& r,
                  const bool bs_used[kNumDdirs], uint64_t seed);
  Status InitZones(const JobSpec& job, size_t i, const PatternRegion& r, FileState& fs);
  // Everything but the fast path; out of line so that the fast path does not
  // pay for the general one's register saves.
  [[gnu::noinline]] bool NextGeneral(IoPlan* out);
  bool NextApart(IoPlan* out);  // TrimWriteWalksApart's walk
  template <typename Gen>
  bool FromNextFile(Gen gen, IoPlan* out);
  bool GenerateApart(int f, IoPlan* out);

  RwMode rw_ = RwMode::kRead;
  bool random_job_ = false;
  bool trimwrite_ = false;
  bool tw_apart_ = false;  // TrimWriteWalksApart
  bool mixed_ = false;
  DdirSteer* steer_ = nullptr;  // mixed jobs with a rate only
  RandMode rand_mode_ = RandMode::kMap;
  DistType dist_ = DistType::kRandom;
  double dist_param_ = 0, dist_center_ = 0;
  FileServiceType service_ = FileServiceType::kRoundRobin;
  uint32_t rwmixread_ = 50;
  uint64_t rw_nr_ = 1;
  int64_t rw_skip_ = 0;
  bool identical_ = false;
  // rw=randxxx:N with the sequential sequencer: fio 3.33's td->ddir_seq_nr,
  // one count for the job (not per file, not per direction) that every
  // offset the job asks for moves on, a trimwrite's write and an offset that
  // fails included; an I/O that brings it to 0 takes a random offset (then
  // percentage_random decides), the others continue sequentially. It starts
  // at 1 (the job's first I/O is random) and is never reset: not when a
  // continuation falls back to a random offset, nor between loops.
  bool seq_nr_ = false;
  uint64_t seq_left_ = 1;
  // A random job with sequential continuations (percentage_random below 100
  // for a direction it issues, or rw=randxxx:N with the sequential
  // sequencer). As in fio 3.33 they neither consult nor mark the random
  // map, so a pass may touch a block twice, and a file has no byte budget
  // of its own: the job's pass bytes end the pass, a file ends only when it
  // cannot place its next I/O (see TrySequential).
  bool cont_ = false;
  bool bs_unaligned_ = false;
  bool bs_is_seq_rand_ = false;
  uint64_t gran_ = 0;                      // smallest block size of the job: map/LFSR block unit
  uint64_t variable_min_bs_ = 0;           // VariableMinBs()
  bool short_end_ = false;                 // TakeShortEnd()
  bool skip_stopped_ = false;              // HoledWalkGoesOn(): false
  std::string note_;                       // Note()
  uint64_t align_[kNumDdirs] = {1, 1, 1};  // blockalign, default the direction's smallest bs
  uint32_t perc_random_[kNumDdirs] = {100, 100, 100};
  BsChooser bs_[kNumDdirs];
  double pareto_pow_ = 1.0;

  std::vector<FileState> files_;
  int cur_file_ = -1;
  int files_done_ = 0;
  uint64_t repeat_left_ = 0;
  uint32_t service_nr_ = 1;    // file_service_type=...:N
  uint32_t service_left_ = 0;  // I/Os still due on cur_file_
  // openfiles below the file count (0: no limit, nothing below is used).
  uint32_t open_limit_ = 0;
  std::vector<uint32_t> open_list_;  // the open files (random service draws among them)
  // time_based random job over several files: a file whose pass ends starts
  // it again in place (and stays open under openfiles), as fio 3.33's
  // get_next_rand_block resets it, so the file service keeps its turn.
  bool wrap_files_ = false;
  // rw_sequencer=identical: the repeats use up the pass as fio counts it (a
  // pass ends after the region's bytes were issued, repeats included).
  uint64_t ident_bytes_ = 0;
  uint64_t ident_limit_ = 0;
  uint64_t pass_size_ = 0;    // the regions' sizes summed (or size=): a pass moves at least this
  bool pass_capped_ = false;  // size= below the regions' sum (filesize=): pass_size_ is size=
  uint64_t pass_left_ = 0;    // what of it is left (budget modes, as fs.budget)
  bool pending_write_ = false;
  IoPlan last_;
  // time_based rw=rw over one file (fio's get_next_seq_offset): each
  // direction wraps on its own when it reaches the region's end. A pass
  // then ends when one direction has (no byte budget), and Reset() starts
  // only the directions that ended over; the others go on where they are.
  bool wrap_dirs_ = false;
  // MixedLoopsEndAtRegionEnd(): a pass ends when a direction reaches the
  // region's end, not after size bytes; both start over at the next. So does
  // a time_based one over several files, file by file, as fio 3.33's: a file
  // is done when a direction cannot place its next block (its walk has no
  // byte budget), the pass once every file is (nrfiles=2 size=128k: reads
  // and writes each reach block 13 to 15 of each file; iobench's each got
  // about 8, the file's bytes shared by both).
  bool loop_dirs_ = false;
  // JoinLoops(): the job's loops are one pass, without a byte budget.
  bool join_loops_ = false;
  bool ended_[kNumDdirs] = {false, false, false};  // wrap_dirs_: reached the end

  uint64_t seed_ = 0;      // Reseed() starts every stream from it again
  bool wide_ = false;      // off_rng_ is the 64-bit generator
  prng::Uniform off_rng_;  // offsets and distributions
  prng::Uniform ddir_rng_;
  prng::Uniform bs_rng_;
  prng::Uniform seqrand_rng_;
  prng::Uniform file_rng_;
};

uint64_t Lcm(uint64_t a, uint64_t b) {
  return std::lcm(std::max<uint64_t>(a, 1), std::max<uint64_t>(b, 1));
}

Status PatternImpl::InitBlockSizes(const JobSpec& job, const bool bs_used[kNumDdirs]) {
  gran_ = ~0ULL;
  bool variable = false;
  for (int d = 0; d < kNumDdirs; ++d) {
    const BlockSizeSpec& spec = job.bs[d];
    BsChooser& c = bs_[d];
    c.min = spec.min;
    c.max = spec.max;
    if (!spec.split.empty()) {
      std::vector<BsSplitEntry> split = spec.split;
      std::sort(split.begin(), split.end(),
                [](const BsSplitEntry& a, const BsSplitEntry& b) { return a.bs < b.bs; });
      c.min = split.front().bs;
      c.max = split.back().bs;
      for (const auto& e : split) {
        if (e.perc == 0) continue;
        // Rounded once here, as fio 3.33 rounds each draw (4k/50:6k/50
        // issues 4k only); equal sizes merge, so the shares still add up.
        const uint64_t bs = SplitBlockSize(e.bs, c.min, bs_unaligned_);
        c.total += e.perc;
        if (!c.sizes.empty() && c.sizes.back() == bs) {
          c.cum.back() = c.total;
        } else {
          c.sizes.push_back(bs);
          c.cum.push_back(c.total);
        }
      }
      if (bs_used[d] && c.total == 0)
        return Status::Invalid("bssplit: every " + DdirName(d) + " share is 0%");
    }
    if (!bs_used[d]) continue;
    if (c.min == 0) return Status::Invalid("bs: the " + DdirName(d) + " block size is 0");
    if (c.max < c.min)
      return Status::Invalid("bsrange: the " + DdirName(d) + " range " + std::to_string(c.min) +
                             "-" + std::to_string(c.max) + " is empty");
    gran_ = std::min(gran_, c.min);
    c.fixed = c.sizes.empty() && c.min == c.max;
    variable = variable || c.min != c.max;
  }
  variable_min_bs_ = variable ? gran_ : 0;
  for (int d = 0; d < kNumDdirs; ++d) {
    perc_random_[d] = std::min<uint32_t>(job.percentage_random[d], 100);
    const uint64_t ba = job.blockalign[d] ? job.blockalign[d] : bs_[d].min;
    align_[d] = std::max<uint64_t>(ba, 1);
  }
  return Status::Ok();
}

Status PatternImpl::InitOffsetMode(const JobSpec& job, const bool bs_used[kNumDdirs]) {
  // Random offset mode. fio turns the random map off for non-uniform
  // distributions and when a direction's blockalign is not that direction's
  // smallest block size (its default: bs=4k,16k blockalign=4k,16k keeps the
  // map, blockalign=16k does not).
  dist_ = job.random_distribution.type;
  dist_param_ = job.random_distribution.param;
  dist_center_ = job.random_distribution.center_frac;
  bool blockalign_set = false;
  for (int d = 0; d < kNumDdirs; ++d)
    if (bs_used[d] && job.blockalign[d] != 0 && job.blockalign[d] != bs_[d].min)
      blockalign_set = true;
  if (dist_ != DistType::kRandom) {
    rand_mode_ = RandMode::kSkewed;
  } else if (job.random_generator == RandomGenerator::kLfsr) {
    rand_mode_ = RandMode::kLfsr;
  } else if (job.norandommap || blockalign_set) {
    rand_mode_ = RandMode::kUniform;
  } else {
    rand_mode_ = RandMode::kMap;
  }
  const bool issued[kNumDdirs] = {HasRead(rw_), HasWrite(rw_), HasTrim(rw_)};
  cont_ = seq_nr_;
  for (int d = 0; d < kNumDdirs; ++d)
    if (random_job_ && issued[d] && perc_random_[d] < 100) cont_ = true;
  random_once_ =
      random_job_ && !cont_ && (rand_mode_ == RandMode::kMap || rand_mode_ == RandMode::kLfsr);
  random_without_end_ = random_job_ && !cont_ &&
                        (rand_mode_ == RandMode::kUniform || rand_mode_ == RandMode::kSkewed);
  switch (dist_) {
    case DistType::kZipf:
      // The parser's range (fio's: any theta but 1.0; past -10 and 100
      // the weights leave double's range).
      if (!(dist_param_ >= kZipfThetaMin && dist_param_ <= kZipfThetaMax))
        return Status::Invalid("random_distribution: zipf theta must be between -10 and 100, got " +
                               std::to_string(dist_param_));
      break;
    case DistType::kPareto:
      if (!(dist_param_ > 0.0 && dist_param_ < 1.0))
        return Status::Invalid("random_distribution: pareto h must be between 0 and 1, got " +
                               std::to_string(dist_param_));
      pareto_pow_ = std::log(dist_param_) / std::log(1.0 - dist_param_);
      break;
    case DistType::kNormal:
      if (!(dist_param_ > 0.0 && dist_param_ <= 100.0))
        return Status::Invalid("random_distribution: normal deviation must be in (0, 100], got " +
                               std::to_string(dist_param_));
      if (dist_center_ <= 0.0) dist_center_ = 0.5;
      break;
    default:
      break;
  }
  if (dist_center_ < 0.0 || dist_center_ > 1.0)
    return Status::Invalid("random_distribution: center must be in [0, 1]");
  return Status::Ok();
}

Status PatternImpl::InitFile(const JobSpec& job, size_t i, const PatternRegion& r,
                             const bool bs_used[kNumDdirs], uint64_t seed) {
  FileState& fs = files_[i];
  fs.start = r.offset;
  fs.size = r.size;
  fs.len_end = r.size;
  ident_limit_ += r.size;
  pass_size_ += r.size;
  // (No end: far past any region, yet INT64_MAX / 2 keeps TrySequential's
  // signed sums with the region's start from overflowing.)
  fs.limit = r.no_end ? static_cast<uint64_t>(INT64_MAX / 2)
                      : std::max(r.size, r.file_size > r.offset ? r.file_size - r.offset : 0);
  fs.block_align = std::max<uint64_t>(r.block_align, 1);
  if (r.size < gran_)
    return Status::Invalid("file " + std::to_string(i) + ": region of " + std::to_string(r.size) +
                           " bytes is smaller than the block size " + std::to_string(gran_));
  if (r.offset % fs.block_align != 0)
    return Status::Invalid("offset: " + std::to_string(r.offset) +
                           " is not a multiple of the device's logical block size " +
                           std::to_string(fs.block_align));
  for (int d = 0; d < kNumDdirs; ++d) {
    if (!bs_used[d]) continue;
    if (random_job_ && rand_mode_ != RandMode::kUniform && bs_[d].min % fs.block_align != 0)
      return Status::Invalid("bs: " + std::to_string(bs_[d].min) +
                             " is not a multiple of the device's logical block size " +
                             std::to_string(fs.block_align));
    fs.ralign[d] = Lcm(align_[d], fs.block_align);
  }
  fs.blocks = r.size / gran_;
  fs.seq_cap = (r.size + gran_ - 1) / gran_;              // the last I/O may end past size
  if (wrap_dirs_ || loop_dirs_) fs.seq_cap = UINT64_MAX;  // (no skip: every I/O moves on)
  if (tw_apart_) fs.seq_cap *= 2;                         // trims and writes walk it each
  if (!random_job_) return Status::Ok();
  if (rand_mode_ == RandMode::kMap) {
    // A map larger than the machine's memory is not attempted (with
    // overcommit it could be "allocated" and then kill the run when
    // cleared); a smaller one that still fails is caught.
    const uint64_t map_bytes = fs.blocks / 8;
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    bool fits = pages <= 0 || page <= 0 ||
                map_bytes / static_cast<uint64_t>(page) < static_cast<uint64_t>(pages);
    if (fits) {
      try {
        fs.map.Init(fs.blocks);
      } catch (const std::exception&) {  // bad_alloc, length_error
        fits = false;
      }
    }
    // The remedy fits the job: with softrandommap=1 the worker runs without
    // the map and notes why (the note said "set ... softrandommap=1"), and a
    // verify job does not fall back.
    const bool verify = job.verify.type != VerifyType::kNone;
    if (!fits)
      return Status::Limit(
          "the random map of file " + std::to_string(i) + " (" + std::to_string(fs.blocks) +
          " blocks, " + std::to_string(map_bytes >> 20) + " MiB) cannot be allocated" +
          (verify              ? ": set norandommap=1 to run without it (softrandommap=1 does "
                                 "not apply to a verify job)"
           : job.softrandommap ? ""
                               : ": set norandommap=1, or softrandommap=1 to run without it"));
  }
  if (dist_ == DistType::kZipf) fs.zipf.Init(dist_param_, fs.blocks);
  if (dist_ == DistType::kZipf || dist_ == DistType::kPareto) {
    // Hot ranks are spread over the file by an affine bijection, unless a
    // center is given: then rank 0 sits at center and hotness runs upward.
    if (dist_center_ > 0.0) {
      fs.scatter_add = std::min<uint64_t>(
          static_cast<uint64_t>(dist_center_ * static_cast<double>(fs.blocks)), fs.blocks - 1);
    } else {
      uint64_t m = static_cast<uint64_t>(static_cast<double>(fs.blocks) * 0.6180339887) | 1;
      while (std::gcd(m, fs.blocks) != 1) ++m;
      fs.scatter_mul = m % std::max<uint64_t>(fs.blocks, 1);
      if (fs.scatter_mul == 0) fs.scatter_mul = 1;
      fs.scatter_add = prng::MixSeed(seed, 77 + i) % fs.blocks;
    }
  }
  if (dist_ == DistType::kZoned || dist_ == DistType::kZonedAbs) return InitZones(job, i, r, fs);
  return Status::Ok();
}

Status PatternImpl::InitZones(const JobSpec& job, size_t i, const PatternRegion& r, FileState& fs) {
  const auto& all = job.random_distribution.zones;
  const std::vector<DistZone>* fallback = nullptr;
  for (int d = 0; d < kNumDdirs && !fallback; ++d)
    if (!all[d].empty()) fallback = &all[d];
  if (!fallback) return Status::Invalid("random_distribution: zoned needs at least one zone");
  for (int d = 0; d < kNumDdirs; ++d) {
    const std::vector<DistZone>& zl = all[d].empty() ? *fallback : all[d];
    uint64_t byte_lo = 0, abs_total = 0;
    uint32_t acc = 0, kept = 0, size_perc = 0;
    for (const DistZone& z : zl) {
      uint64_t byte_hi;
      if (dist_ == DistType::kZoned) {
        size_perc += z.size_perc;
        byte_hi = static_cast<uint64_t>(static_cast<unsigned __int128>(r.size) *
                                        std::min<uint32_t>(size_perc, 100) / 100);
      } else {
        byte_hi = std::min<uint64_t>(byte_lo + z.size_abs, r.size);
        abs_total += z.size_abs;
      }
      acc += z.access_perc;
      Zone zone;
      zone.lo = std::min(byte_lo / gran_, fs.blocks - 1);
      zone.hi = std::max(zone.lo, std::min(byte_hi / gran_, fs.blocks));
      // A zone smaller than a block (zoned:50/1:50/99 on 16 blocks, a 0%
      // or 0-byte zone) is the block it starts in, as in fio 3.33, which
      // then draws 0 of the zone's blocks and adds the zone's start. A
      // zone that starts at or past the region's end (zoned_abs beyond
      // it, a 0% zone at the very end: fio 3.33 fails or goes past the
      // file there) is dropped; its share goes pro rata to the others.
      if (zone.hi == zone.lo) zone.hi = zone.lo + 1;
      if (z.access_perc > 0 && byte_lo < r.size) {
        kept += z.access_perc;
        zone.cum = kept;
        fs.zones[d].push_back(zone);
      }
      byte_lo = byte_hi;
    }
    // Zones that do not fit: said once, for the first file and direction
    // (fio 3.33 prints "zoned_abs sizes exceed file size" for each I/O and
    // sends every I/O to the first zone).
    if (abs_total > r.size && note_.empty())
      note_ = "random_distribution=zoned_abs: the " + DdirName(d) + " zones add up to " +
              std::to_string(abs_total) + " bytes, more than the region of file " +
              std::to_string(i) + " (" + std::to_string(r.size) +
              " bytes): they were cut to it, a zone starting past its end dropped and its "
              "share of the accesses given to the others pro rata";
    if (acc > 100)
      return Status::Invalid("random_distribution: " + DdirName(d) +
                             " zone access percentages add up to " + std::to_string(acc) +
                             ", above 100");
    if (fs.zones[d].empty())
      return Status::Invalid("random_distribution: no " + DdirName(d) +
                             " zone covers any block of file " + std::to_string(i));
  }
  return Status::Ok();
}

Status PatternImpl::Init(const JobSpec& job, std::vector<PatternRegion> regions, uint64_t seed) {
  if (regions.empty())
    return Status::Invalid("job '" + job.name + "': no file region to do I/O on");
  rw_ = job.rw;
  random_job_ = IsRandom(rw_);
  trimwrite_ = rw_ == RwMode::kTrimWrite || rw_ == RwMode::kRandTrimWrite;
  tw_apart_ = TrimWriteWalksApart(job);
  mixed_ = rw_ == RwMode::kReadWrite || rw_ == RwMode::kRandRW;
  service_ = job.file_service_type;
  rwmixread_ = job.rwmixread;
  if (rwmixread_ > 100)
    return Status::Invalid("rwmixread: " + std::to_string(rwmixread_) + " is above 100");
  rw_nr_ = std::max<uint64_t>(job.rw_nr, 1);
  rw_skip_ = job.rw_skip;
  identical_ = job.rw_sequencer == RwSequencer::kIdentical;
  seq_nr_ = random_job_ && rw_nr_ > 1 && !identical_;
  seq_left_ = 1;
  service_nr_ = std::max<uint32_t>(job.file_service_nr, 1);
  bs_unaligned_ = job.bs_unaligned;
  bs_is_seq_rand_ = job.bs_is_seq_rand;
  // (Holed I/O, rw=rw:N, wraps on its own already and keeps passes of size
  // bytes; a verify_only pass reads back what one pass wrote.)
  const bool tb_seq_mixed =
      job.time_based && mixed_ && !random_job_ && rw_skip_ == 0 && !job.verify.verify_only;
  wrap_dirs_ = tb_seq_mixed && regions.size() == 1;
  // Over several files, not when the job verifies: fio's loop then ends at
  // size= bytes where the engine queues (libaio nrfiles=2 size=128k rw=rw
  // verify=crc32c: passes of 32 I/Os, which walking each file to its end
  // made about 55).
  const bool verifies = job.verify.type != VerifyType::kNone || job.verify.verify_only;
  loop_dirs_ =
      MixedLoopsEndAtRegionEnd(job, regions.size()) || (tb_seq_mixed && !wrap_dirs_ && !verifies);
  open_limit_ = OpenLimit(job, regions.size());
  // A time_based random job's file whose random offsets run out (its map is
  // full, its LFSR cycle or its bytes used) is reset in place, as fio 3.33's
  // get_next_rand_block does, and the file service goes on turning: a=16k
  // b=64k roundrobin alternates a b a b ... (fio 1000/1001 in 1 s at 2000
  // IOPS), where ending each file's pass on its own left a idle until b's
  // was over too (400/1600). Not a sequential job (fio 3.33 wraps one only
  // with nr_files=1: its files each end, then the pass), nor one that
  // verifies (its replay reads each pass's writes back once), nor one file
  // (its pass ends and starts over as before: the same I/O).
  wrap_files_ =
      job.time_based && random_job_ && (open_limit_ != 0 || (regions.size() > 1 && !verifies));
  restarts_files_ = wrap_files_;
  if (open_limit_ != 0 || wrap_files_) {
    if (open_limit_ != 0) open_list_.reserve(open_limit_);
    // Per Next(): a close for each file found done (or a restart) and one
    // open; Reset() adds a close per open file, SyncFile() an open.
    file_events_.reserve(3 * regions.size() + 4);
  }

  // Directions this job issues, and the block size specs they use.
  bool bs_used[kNumDdirs] = {HasRead(rw_), HasWrite(rw_), HasTrim(rw_)};
  if (bs_is_seq_rand_) {
    bs_used[0] = bs_used[1] = true;
    bs_used[2] = false;
  }
  IOB_RETURN_IF_ERROR(InitBlockSizes(job, bs_used));
  IOB_RETURN_IF_ERROR(InitOffsetMode(job, bs_used));
  uint64_t max_blocks = 0;
  files_.resize(regions.size());
  for (size_t i = 0; i < regions.size(); ++i) {
    IOB_RETURN_IF_ERROR(InitFile(job, i, regions[i], bs_used, seed));
    max_blocks = std::max(max_blocks, files_[i].blocks);
  }
  // filesize= with a smaller size=: size is the job's bytes per pass across
  // its files (the worker caps the job with it as with io_size), and fio
  // 3.33's do_io ends a loop there when the engine queues: filesize=128k
  // size=36k bs=12k loops=2 with libaio reads 0, 12k, 24k twice, reopening
  // the file between (iobench walked on to 72k). An engine that completes in
  // its call joins the loops into one walk instead (JoinLoops). A
  // time_based pass has no such end: fio's do_io goes on past size bytes
  // there, and each file's walk wraps at its region's end (filesize=128k
  // size=32k rw=read: blocks 0 to 31, then 0 again; iobench read 0 to 7
  // over and over). Unless it verifies: fio's loop then ends at size bytes
  // for its verify phase, where the engine queues (EndPassesAtRegions).
  pass_capped_ = job.filesize_min != 0 && job.size != 0 && job.size < pass_size_ &&
                 (!job.time_based || verifies);
  if (pass_capped_) pass_size_ = job.size;

  // Narrow (32-bit) Tausworthe unless asked for the 64-bit one or a file has
  // more than 2^32 blocks, as fio does.
  const bool wide =
      job.random_generator == RandomGenerator::kTausworthe64 || max_blocks > (1ULL << 32);
  seed_ = seed;
  wide_ = wide;
  off_rng_.Seed(prng::MixSeed(seed, kStreamOffset), wide);
  Reseed();
  Reset();
  SetFastMap();
  return Status::Ok();
}

void PatternImpl::SetFastMap() {
  // The common random job in one step (IoPattern::FastStep): no sequential
  // runs, no direction or length draws; the offset draw is the same as the
  // general path's (PickFile/Generate/TryRandom), so offsets do not depend on
  // which path ran. files_ is never resized after Init, so the pointers hold.
  if (FastMapEligible()) {
    FileState& fs = files_[0];
    fast_ = FastMap{&fs.map, &off_rng_, fs.blocks, fs.start, gran_, ChooseDdir()};
  }
}

void PatternImpl::EndPassesAtRegions() {
  if (!pass_capped_) return;
  pass_capped_ = false;
  pass_size_ = 0;
  for (const FileState& fs : files_) pass_size_ += fs.size;
  Reset();
  SetFastMap();
}

bool PatternImpl::JoinLoops() {
  // Passes that end by bytes only: with the map and no continuation (or an
  // LFSR) a pass ends when every block was used, which is size bytes.
  const bool by_bytes =
      pass_capped_ || (random_job_ && (cont_ || rand_mode_ == RandMode::kUniform ||
                                       rand_mode_ == RandMode::kSkewed));
  // So do a forward holed walk's (rw=read:4k) over one file: where the
  // region ends at the file's end the walk wraps there and never ends by
  // itself (fio 3.33 with psync or null, size=32k io_size=40k loops=2: one
  // walk of 20 reads, not two of 8); where it stops short, its pass still
  // ends there (TrySequential).
  const bool holed = !random_job_ && rw_skip_ > 0 && !trimwrite_;
  if (!(by_bytes || holed) || rand_mode_ == RandMode::kLfsr || wrap_dirs_ || loop_dirs_ ||
      wrap_files_ || open_limit_ != 0)
    return false;
  join_loops_ = true;
  pass_left_ = UINT64_MAX;
  for (FileState& fs : files_) {
    fs.budget = UINT64_MAX;
    if (holed) fs.seq_cap = UINT64_MAX;  // each step moves on: the worker's bytes end it
  }
  return true;
}

bool PatternImpl::FastMapEligible() const {
  // (The fast step ends a pass only when the map is full: not for a pass
  // that size= ends first, pass_capped_.)
  if (!random_job_ || rand_mode_ != RandMode::kMap || files_.size() != 1 || mixed_ || trimwrite_ ||
      rw_nr_ != 1 || identical_ || pass_capped_)
    return false;
  const Ddir d = HasTrim(rw_) ? Ddir::kTrim : HasWrite(rw_) ? Ddir::kWrite : Ddir::kRead;
  if (perc_random_[static_cast<int>(d)] < 100) return false;
  const BsChooser& c = bs_[BsDir(d, true)];
  return c.fixed && c.min == gran_ && gran_ <= files_[0].size;
}

void PatternImpl::StartPass(FileState& fs) {
  // Every pass starts at the region's start, backwards skips too (fio: a
  // negative skip takes effect from the second I/O, see TrySequential;
  // fio's next loop goes on from where the last one stopped instead).
  for (int64_t& p : fs.pos) p = 0;
  fs.seq_ios = 0;
  skip_stopped_ = false;
  for (int64_t& l : fs.last_start) l = -1;
  // A pass is size bytes (it matters for rw=rw, where each direction walks
  // on its own and neither reaches the end, and for random jobs without
  // the map), not rounded to the block: as fio, the I/O that reaches size
  // is the last, and it may go past it (norandommap size=87381: 22 I/Os).
  fs.budget = wrap_dirs_ || loop_dirs_ || cont_ || join_loops_ ? UINT64_MAX : fs.size;
  fs.lfsr_left = fs.blocks;
  fs.done = false;
  if (rand_mode_ == RandMode::kMap && random_job_) fs.map.Clear();
}

void PatternImpl::Reseed() {
  // fio 3.33 keeps its zipf, pareto and normal generators (one per file,
  // seeded once) going from loop to loop; the offsets of every other
  // distribution start over.
  if (dist_ != DistType::kZipf && dist_ != DistType::kPareto && dist_ != DistType::kNormal)
    off_rng_.Seed(prng::MixSeed(seed_, kStreamOffset), wide_);
  ddir_rng_.Seed(prng::MixSeed(seed_, kStreamDdir), false);
  bs_rng_.Seed(prng::MixSeed(seed_, kStreamBs), false);
  seqrand_rng_.Seed(prng::MixSeed(seed_, kStreamSeqRand), false);
  file_rng_.Seed(prng::MixSeed(seed_, kStreamFile), false);
  if (rand_mode_ == RandMode::kLfsr)
    for (size_t i = 0; i < files_.size(); ++i)
      files_[i].lfsr.Init(files_[i].blocks, prng::MixSeed(seed_, kStreamLfsr + i));
}

void PatternImpl::Reset() {
  if (wrap_dirs_ && (ended_[0] || ended_[1])) {
    // fio wraps a direction in place: the other one's walk goes on.
    // A direction that cannot take its next block is at its end as well
    // (both get there together: size=128k bs=64k), and wraps now too: the
    // worker takes a pass that gives nothing after a reset as the job's end
    // (time_based rw=rw ran 1 ms of its 1 s).
    FileState& fs = files_[0];
    for (int d = 0; d < kNumDdirs; ++d)
      if (ended_[d] || SequentialAtEnd(fs, static_cast<Ddir>(d))) fs.pos[d] = 0;
    fs.done = false;
  } else {
    for (FileState& fs : files_) StartPass(fs);
  }
  if (open_limit_ != 0) {
    // fio's clear_io_state closes every file; the next pass opens them again.
    for (size_t i = 0; i < files_.size(); ++i)
      if (files_[i].open) CloseFile(static_cast<int>(i));
  }
  for (bool& e : ended_) e = false;
  // wrap_files_: the files start over one by one (NextGeneral); a pass of
  // the job's bytes would end them all at once.
  pass_left_ = wrap_dirs_ || loop_dirs_ || wrap_files_ || join_loops_ ? UINT64_MAX : pass_size_;
  files_done_ = 0;
  // Round robin goes on from the file after the last one used, as fio's
  // clear_io_state keeps next_file (files of 16k, 64k and 62k: loop 1 ends
  // on the second, loop 2 starts on the third; it started on the first).
  if (service_ != FileServiceType::kRoundRobin) cur_file_ = -1;
  service_left_ = 0;
  repeat_left_ = 0;
  ident_bytes_ = 0;
  pending_write_ = false;
}

Ddir PatternImpl::ChooseDdir() {
  if (mixed_) {
    const Ddir d = ddir_rng_.Below(100) < rwmixread_ ? Ddir::kRead : Ddir::kWrite;
    if (steer_ == nullptr) return d;
    return steer_->Steer(d, d == Ddir::kRead ? rwmixread_ < 100 : rwmixread_ > 0);
  }
  if (HasTrim(rw_)) return Ddir::kTrim;  // trim, randtrim, trimwrite (the write follows)
  return HasWrite(rw_) ? Ddir::kWrite : Ddir::kRead;
}

int PatternImpl::PickFile() {
  if (open_limit_ != 0) return PickFileLimited();
  const int n = static_cast<int>(files_.size());
  if (files_done_ >= n) return -1;
  // file_service_type=...:N: N I/Os on the current file before the next.
  if (service_left_ > 0 && cur_file_ >= 0 && !files_[cur_file_].done) {
    --service_left_;
    return cur_file_;
  }
  service_left_ = service_nr_ - 1;
  int f;
  switch (service_) {
    case FileServiceType::kSequential:
      f = cur_file_ < 0 ? 0 : cur_file_;
      break;
    case FileServiceType::kRandom:
      f = static_cast<int>(file_rng_.Below(static_cast<uint64_t>(n)));
      break;
    default:  // round robin: every I/O goes to the next file
      f = cur_file_ + 1 >= n ? 0 : cur_file_ + 1;
      break;
  }
  while (files_[f].done) f = f + 1 >= n ? 0 : f + 1;
  cur_file_ = f;
  return f;
}

// As fio 3.33's __get_next_file under openfiles: the current file while
// its file_service_type=...:N turn lasts (sequential: until it is done);
// else round robin and sequential walk on from it, passing over done files
// and, with every slot taken, closed ones (fio's EBUSY there moves its
// next_file on); random draws a file, takes the next one not done when it
// is done (as PickFile), and with every slot taken draws among the open
// files only (fio redraws until it hits one: the same odds). Open files are
// never done (FileDone closes them), so with every slot taken one is open.
int PatternImpl::PickFileLimited() {
  const int n = static_cast<int>(files_.size());
  if (files_done_ >= n) return -1;
  if (cur_file_ >= 0 && files_[cur_file_].open) {
    if (service_ == FileServiceType::kSequential) return cur_file_;
    if (service_left_ > 0) {
      --service_left_;
      return cur_file_;
    }
  }
  service_left_ = service_nr_ - 1;
  const bool full = open_list_.size() >= open_limit_;
  int f;
  if (service_ == FileServiceType::kRandom) {
    if (full) {
      f = static_cast<int>(open_list_[file_rng_.Below(open_list_.size())]);
    } else {
      f = static_cast<int>(file_rng_.Below(static_cast<uint64_t>(n)));
      while (files_[f].done) f = f + 1 >= n ? 0 : f + 1;
    }
  } else {
    // Sequential gets here when its file is done (closed): it moves on.
    if (service_ == FileServiceType::kSequential)
      f = cur_file_ < 0 ? 0 : cur_file_;
    else
      f = cur_file_ + 1 >= n ? 0 : cur_file_ + 1;
    while (files_[f].done || (full && !files_[f].open)) f = f + 1 >= n ? 0 : f + 1;
  }
  if (!files_[f].open) OpenFile(f);
  cur_file_ = f;
  return f;
}

void PatternImpl::OpenFile(int f) {
  FileState& fs = files_[f];
  fs.open = true;
  fs.open_at = static_cast<uint32_t>(open_list_.size());
  open_list_.push_back(static_cast<uint32_t>(f));
  file_events_.push_back({static_cast<uint32_t>(f), FileEventKind::kOpen});
}

void PatternImpl::CloseFile(int f) {
  FileState& fs = files_[f];
  fs.open = false;
  // Swap-remove from open_list_ (its order only matters to random draws).
  const uint32_t last = open_list_.back();
  open_list_[fs.open_at] = last;
  files_[last].open_at = fs.open_at;
  open_list_.pop_back();
  file_events_.push_back({static_cast<uint32_t>(f), FileEventKind::kClose});
}

void PatternImpl::FileDone(int f) {
  files_[f].done = true;
  ++files_done_;
  if (files_[f].open) CloseFile(f);
}

uint64_t PatternImpl::ChooseLenSlow(const BsChooser& c, uint64_t remaining) {
  uint64_t len;
  if (!c.sizes.empty()) {
    const uint32_t r = static_cast<uint32_t>(bs_rng_.Below(c.total));
    size_t i = 0;
    while (c.cum[i] <= r) ++i;
    len = c.sizes[i];
    if (len > remaining) {
      // The largest split size that still fits; when none does (a 0% share
      // set the minimum: bssplit=4k/0:16k/100 with 8k left), the largest
      // multiple of the minimum that does, as a range shrinks, and as fio's
      // random map trims an I/O to its free blocks (4k, 8k, 12k pieces).
      while (i > 0 && c.sizes[i] > remaining) --i;
      len = c.sizes[i];
      if (len > remaining) len = remaining / c.min * c.min;
    }
  } else if (c.min == c.max) {
    len = c.min;
  } else if (bs_unaligned_) {
    len = c.min + bs_rng_.Below(c.max - c.min + 1);
    len = std::min(len, remaining);
  } else {
    len = c.min * (1 + bs_rng_.Below(c.max / c.min));
    if (len > remaining) len = remaining / c.min * c.min;
  }
  return len <= remaining && len >= c.min ? len : 0;
}

bool PatternImpl::FileExhausted(const FileState& fs) const {
  // Size bytes per file, and size bytes over all the files (fio counts the
  // job's: nrfiles=3 size=256k norandommap issues 64 I/Os, not 3 x 22).
  // A random job with continuations has no budget per file (cont_): as in
  // fio, a file whose pass ends early leaves its share to the others.
  if (!random_job_) return fs.budget == 0 || pass_left_ == 0;
  switch (rand_mode_) {
    case RandMode::kMap:  // every block used, or size bytes (an I/O may cover used blocks)
      // With continuations a full map ends the file only when a random
      // offset is due (TryRandom fails), as fio's does.
      return (fs.map.free_count() == 0 && !cont_) || fs.budget == 0 || pass_left_ == 0;
    case RandMode::kLfsr:  // size bytes, or sooner every block once (fixed bs: both at once)
      return fs.budget == 0 || ((cont_ || pass_capped_) && pass_left_ == 0) || fs.lfsr_left == 0;
    default:
      return fs.budget == 0 || pass_left_ == 0;
  }
}

void PatternImpl::AfterIo(FileState& fs, Ddir d, uint64_t off_rel, uint64_t len) {
  fs.pos[static_cast<int>(d)] = static_cast<int64_t>(off_rel + len) + rw_skip_;
  fs.budget -= std::min(fs.budget, len);
  pass_left_ -= std::min(pass_left_, len);
  // LFSR: a pass is size bytes, as in fio (bssplit=4k/50:64k/50 on 1 MiB:
  // 33 I/Os), and at most one register cycle; sequential steps
  // (rw=randxxx:N, percentage_random) count towards both.
  if (rand_mode_ == RandMode::kLfsr && fs.lfsr_left > 0) --fs.lfsr_left;
}

bool PatternImpl::SequentialAtEnd(const FileState& fs, Ddir d) const {
  const int64_t spos = fs.pos[static_cast<int>(d)];
  if (spos < 0) return false;
  const uint64_t pos = static_cast<uint64_t>(spos);
  const int bd = BsDir(d, false);
  const uint64_t end = bs_[bd].fixed ? fs.limit : fs.len_end;  // as TrySequential
  return pos >= fs.size || pos >= end || end - pos < bs_[bd].min;
}

PatternImpl::Seq PatternImpl::TrySequential(FileState& fs, Ddir d, bool in_random_job,
                                            IoPlan* out) {
  int64_t spos = fs.pos[static_cast<int>(d)];
  if (!in_random_job && rw_skip_ != 0 && (spos < 0 || static_cast<uint64_t>(spos) >= fs.size)) {
    // As fio 3.33 (get_next_seq_offset): holed I/O (rw=read:4k) wraps only
    // when its step reaches the file's end, compared from the region start
    // (fio compares the position in the region with the file's size), to
    // the region's offset counted from the region start (offset=4k: on at
    // 8k). A step past the region's end that stays short of
    // that ends the pass (size=64k of 4 MiB: 8 I/Os), and so does a previous
    // I/O that ended at the file's end (rw=read:8k on 64k: 6 I/Os,
    // rw=read:4k wraps to 16). Backwards I/O (rw=read:-8k) that steps
    // before the start wraps to size + skip. The pass still ends after size
    // bytes; a step inside the region that leaves too little for a block
    // ends it (fio: rw=read:5k on 64k does 7 I/Os).
    if (rw_skip_ > 0) {
      const int64_t file_end = static_cast<int64_t>(fs.limit);
      if (spos - rw_skip_ >= file_end || spos < file_end + static_cast<int64_t>(fs.start)) {
        skip_stopped_ = true;
        return Seq::kNone;
      }
      spos = static_cast<int64_t>(fs.start);
    } else {
      if (spos - rw_skip_ >= static_cast<int64_t>(fs.size)) return Seq::kNone;
      spos = static_cast<int64_t>(fs.size) + rw_skip_;
    }
    fs.pos[static_cast<int>(d)] = spos;
  }
  if (spos < 0) return Seq::kNone;
  const uint64_t pos = static_cast<uint64_t>(spos);
  // A random job's continuation from the region's end takes a random
  // offset (fio: only from the file's end; see docs/patterns.md).
  if (pos >= fs.size) {
    skip_stopped_ = true;
    return Seq::kNone;
  }
  if (!in_random_job && fs.seq_ios >= fs.seq_cap) return Seq::kNone;
  // As fio: a fixed block size must fit in the file (size=100k bs=64k on a
  // 1 MiB file reads 2 blocks; on a new 100k file, 1), a range or split
  // shrinks to fit the region. A random job's continuation too, and one
  // that does not fit ends the pass over the file, as in fio 3.33
  // (randread:4 size=26k: 6 I/Os). It neither consults nor marks the
  // random map (fio's IO_U_F_BUSY_OK): it may reuse a block this pass used,
  // and a later random offset may land on a block it used.
  const int bd = BsDir(d, false);
  const uint64_t end = bs_[bd].fixed ? fs.limit : fs.len_end;
  const uint64_t len = ChooseLen(bd, end - pos);
  if (len == 0) {
    short_end_ = skip_stopped_ = true;
    return Seq::kEnd;
  }
  ++fs.seq_ios;
  out->ddir = d;
  out->offset = fs.start + pos;
  out->length = len;
  AfterIo(fs, d, pos, len);
  return Seq::kIssued;
}

uint64_t PatternImpl::SkewedBlock(FileState& fs, Ddir d) {
  const uint64_t n = fs.blocks;
  switch (dist_) {
    case DistType::kZipf:
    case DistType::kPareto: {
      uint64_t rank;
      if (dist_ == DistType::kZipf) {
        rank = fs.zipf.Rank(off_rng_.Unit());
      } else {
        rank =
            static_cast<uint64_t>(static_cast<double>(n) * std::pow(off_rng_.Unit(), pareto_pow_));
        rank = std::min(rank, n - 1);
      }
      const unsigned __int128 x =
          static_cast<unsigned __int128>(rank) * fs.scatter_mul + fs.scatter_add;
      return static_cast<uint64_t>(x % n);
    }
    case DistType::kNormal: {
      // Box-Muller; outside the file is redrawn (a truncated normal), with a
      // bounded number of tries so a huge deviation cannot spin.
      const double sigma = dist_param_ / 100.0 * static_cast<double>(n);
      const double mu = dist_center_ * static_cast<double>(n);
      for (int i = 0; i < 16; ++i) {
        const double r = std::sqrt(-2.0 * std::log(off_rng_.UnitNonZero()));
        const double z = r * std::cos(2.0 * std::numbers::pi * off_rng_.Unit());
        const double x = mu + z * sigma;
        if (x >= 0.0 && x < static_cast<double>(n)) return static_cast<uint64_t>(x);
      }
      return off_rng_.Below(n);
    }
    case DistType::kZoned:
    case DistType::kZonedAbs: {
      const std::vector<Zone>& zones = fs.zones[static_cast<int>(d)];
      // The parser takes access shares that add up to 100 only (as fio);
      // below that (a zone dropped past the region's end, a JobSpec built
      // in code) the shares kept are scaled up pro rata.
      const uint32_t r = static_cast<uint32_t>(off_rng_.Below(zones.back().cum));
      size_t i = 0;
      while (zones[i].cum <= r) ++i;
      return zones[i].lo + off_rng_.Below(zones[i].hi - zones[i].lo);
    }
    default:
      return off_rng_.Below(n);
  }
}

// The random map's draw for block-size direction bd. The map's block is the
// job's smallest block size (gran_); this direction's I/Os start at
// multiples of its own smallest size `a` (a "slot": bs=4k,16k writes use
// the 16k slots, fio's ba[ddir]) and are never shorter than it. A slot is
// drawn uniformly; if none of its blocks is free, the first slot (scanning
// forward, wrapping) that holds a free block is taken, so every I/O uses at
// least one new block and a pass ends. The slot's blocks are then all marked,
// used or not: a 16k write may cover 4k blocks a read already used in this
// pass (I/Os of one direction never overlap each other). A longer I/O
// (bsrange, bssplit) goes on past the slot only over free blocks, cut to a
// multiple of `a`, as fio's mark_random_map does. With one block size (a ==
// gran_) this is FindFree + Set: the same draws as IoPattern::FastStep.
// Returns false when no block this direction can reach is free (a file tail
// shorter than its slot: fio, too, ends the pass when an offset fails).
bool PatternImpl::MapSlot(FileState& fs, int bd, uint64_t* off_out, uint64_t* len_out, bool mark) {
  const uint64_t a = fs.ralign[bd];            // == bs_[bd].min in map mode
  if (fs.size < a) return false;               // this direction's bs is larger than the file
  if (fs.map.free_count() == 0) return false;  // (cont_: FileExhausted lets a full map through)
  const uint64_t slots = (fs.size - a) / a + 1;
  const uint64_t s0 = off_rng_.Below(slots);
  const uint64_t b0 = s0 * a / gran_;  // the block holding the slot's first byte
  uint64_t b = fs.map.FindFree(b0);
  uint64_t s = s0;
  if (b != b0) {
    // The last block a slot reaches (a tail past the last slot is not).
    const uint64_t reach = std::min(((slots - 1) * a + a - 1) / gran_, fs.blocks - 1);
    if (b > reach) {
      b = fs.map.FindFree(0);
      if (b > reach) return false;
    }
    s = std::min(b * gran_ / a, slots - 1);
  }
  const uint64_t off = s * a;
  uint64_t len = ChooseLen(bd, fs.size - off);  // >= a: the slot fits
  if (len == 0) return false;                   // (never issue a zero-length I/O)
  const uint64_t first = off / gran_;
  uint64_t last = (off + a - 1) / gran_;  // the slot's last block
  if (len > a) {
    // Past the slot, only over free blocks (none of them in the map's
    // partial tail block).
    const uint64_t want = (off + len - 1) / gran_ - last;
    const uint64_t run = last + 1 < fs.blocks ? fs.map.FreeRun(last + 1, want) : 0;
    if (run < want) {
      const uint64_t free_end = (last + 1 + run) * gran_;
      len = std::min(len, a + (free_end - std::min(free_end, off + a)) / a * a);
    }
    last = (off + len - 1) / gran_;
  }
  last = std::min(last, fs.blocks - 1);
  if (mark)
    for (uint64_t i = first; i <= last; ++i) fs.map.Set(i);
  *off_out = off;
  *len_out = len;
  return true;
}

bool PatternImpl::TryRandom(FileState& fs, Ddir d, IoPlan* out, bool mark) {
  const int bd = BsDir(d, true);
  uint64_t off, len;
  switch (rand_mode_) {
    case RandMode::kMap:
      if (!MapSlot(fs, bd, &off, &len, mark)) return false;
      break;
    case RandMode::kLfsr: {
      // The register walks the map's blocks; a direction with larger
      // blocks takes the one of its own that holds the block.
      const uint64_t a = fs.ralign[bd];
      off = fs.lfsr.Next() * gran_ / a * a;
      len = ChooseLen(bd, fs.size - off);
      if (len == 0) {
        // Near the end with a larger bs: move back so the block fits.
        len = ChooseLen(bd, fs.size);
        if (len == 0) return false;
        off = (fs.size - len) / a * a;
      }
      break;
    }
    case RandMode::kUniform: {
      len = ChooseLen(bd, fs.size);
      if (len == 0) return false;  // this direction's bs is larger than the file
      const uint64_t a = fs.ralign[bd];
      const uint64_t slots = len + a <= fs.size ? (fs.size - len) / a + 1 : 1;
      off = a * off_rng_.Below(slots);
      break;
    }
    default: {  // kSkewed
      const uint64_t b = SkewedBlock(fs, d);
      len = ChooseLen(bd, fs.size);
      if (len == 0) return false;
      const uint64_t a = fs.ralign[bd];
      off = std::min(b * gran_ / a * a, (fs.size - len) / a * a);
      break;
    }
  }
  out->ddir = d;
  out->offset = fs.start + off;
  out->length = len;
  AfterIo(fs, d, off, len);
  return true;
}

bool PatternImpl::Generate(int f, IoPlan* out) {
  FileState& fs = files_[f];
  if (FileExhausted(fs)) return false;
  const Ddir d = ChooseDdir();
  out->file = static_cast<uint32_t>(f);
  if (!random_job_) {
    if (TrySequential(fs, d, false, out) == Seq::kIssued) return true;
    ended_[static_cast<int>(d)] = wrap_dirs_;  // (only Reset() reads it)
    return false;
  }
  // A random job issues a sequential I/O when the job's rw=randxxx:N count
  // is not due (seq_left_), or when percentage_random says so; it falls back
  // to a random offset when the previous I/O ended at the region's end.
  bool seq = seq_nr_ && !SeqNrHit();
  if (!seq && perc_random_[static_cast<int>(d)] < 100) {
    seq = seqrand_rng_.Below(100) >= perc_random_[static_cast<int>(d)];
  }
  if (seq) {
    const Seq s = TrySequential(fs, d, true, out);
    if (s == Seq::kIssued) return true;
    if (s == Seq::kEnd) return false;
    // From the region's end: a random offset that, as the continuation it
    // replaces, does not mark the map (fio's IO_U_F_BUSY_OK stays set).
    return TryRandom(fs, d, out, false);
  }
  return TryRandom(fs, d, out);
}

// rw_sequencer=identical (rw=randxxx:N), as fio 3.33: only every N-th I/O
// draws a new offset. Each repeat picks its file and direction as any I/O
// does, and starts where that direction's last I/O in that file started (the
// region's start when it has none yet), with a length of its own. (fio:
// randrw:3 rw_sequencer=identical reads r44, then writes at 0, where its
// first write was; nrfiles=2 alternates files.) False when that length does
// not fit: the pass ends, as fio's does.
bool PatternImpl::Repeat(IoPlan* out) {
  const int f = PickFile();
  if (f < 0) return false;
  const Ddir d = ChooseDdir();
  FileState& fs = files_[f];
  out->file = static_cast<uint32_t>(f);
  int64_t& last = fs.last_start[static_cast<int>(d)];
  const uint64_t pos = last < 0 ? 0 : static_cast<uint64_t>(last);
  const uint64_t len = ChooseLen(BsDir(d, false), fs.size - pos);
  if (len == 0) return false;
  last = static_cast<int64_t>(pos);
  out->ddir = d;
  out->offset = fs.start + pos;
  out->length = len;
  return true;
}

bool PatternImpl::Next(IoPlan* out) {
  // A free block left means the pass is not over (files_done_ only grows
  // once the one file's map is full, and Reset() clears both).
  if (fast_.map != nullptr && fast_.map->free_count() != 0) [[likely]]
    return FastStep(out);
  return NextGeneral(out);
}

bool PatternImpl::GenerateApart(int f, IoPlan* out) {
  FileState& fs = files_[f];
  if (FileExhausted(fs)) return false;
  int64_t* last = fs.last_start;
  const Ddir d = last[static_cast<int>(Ddir::kWrite)] == last[static_cast<int>(Ddir::kTrim)]
                     ? Ddir::kTrim
                     : Ddir::kWrite;
  const uint64_t budget = fs.budget, pass_left = pass_left_;
  out->file = static_cast<uint32_t>(f);
  if (TrySequential(fs, d, false, out) != Seq::kIssued) return false;
  if (d == Ddir::kTrim) {  // fio's byte limits count the writes only
    fs.budget = budget;
    pass_left_ = pass_left;
  }
  last[static_cast<int>(d)] = static_cast<int64_t>(out->offset - fs.start);
  return true;
}

// The next I/O, `gen(f, out)` making it from the file PickFile chose. A
// file that gives nothing is reset in place when the job wraps its files
// (fio resets its random map and bytes) and tried once more; one that gives
// nothing even then is done. (A template, not a function pointer: no
// indirect call per I/O.)
template <typename Gen>
bool PatternImpl::FromNextFile(Gen gen, IoPlan* out) {
  for (;;) {
    const int f = PickFile();
    if (f < 0) return false;
    bool got = gen(f, out);
    if (!got && wrap_files_) {
      StartPass(files_[f]);
      file_events_.push_back({static_cast<uint32_t>(f), FileEventKind::kRestart});
      got = gen(f, out);
    }
    if (got) return true;
    FileDone(f);
  }
}

bool PatternImpl::NextApart(IoPlan* out) {
  if (!FromNextFile([this](int f, IoPlan* o) { return GenerateApart(f, o); }, out)) return false;
  last_ = *out;
  return true;
}

bool PatternImpl::NextGeneral(IoPlan* out) {
  if (tw_apart_) return NextApart(out);
  if (pending_write_) {
    pending_write_ = false;
    if (seq_nr_) SeqNrHit();  // fio counts the write's offset too
    *out = last_;
    out->ddir = Ddir::kWrite;
    return true;
  }
  const bool ident = identical_ && rw_nr_ > 1;
  if (ident && ident_bytes_ >= ident_limit_) return false;
  if (repeat_left_ > 0) {
    --repeat_left_;
    *out = last_;
    if (!trimwrite_ && !Repeat(out)) return false;
    ident_bytes_ += out->length;
    pending_write_ = trimwrite_;
    return true;
  }
  if (!FromNextFile([this](int f, IoPlan* o) { return Generate(f, o); }, out)) return false;
  last_ = *out;
  if (ident) {
    repeat_left_ = rw_nr_ - 1;
    ident_bytes_ += out->length;
    FileState& fs = files_[out->file];
    fs.last_start[static_cast<int>(out->ddir)] = static_cast<int64_t>(out->offset - fs.start);
  }
  pending_write_ = trimwrite_;
  return true;
}

// zonemode=strided, as fio 3.33 walks it: the job's pattern runs inside a
// zone of zonerange bytes at zone_base; once zonesize bytes were issued there
// the zone moves zonerange + zoneskip on, and back to the region's start when
// that is at or past the end of the file (not of the region: fio walks to the
// end of the file whatever size= says, with a fixed block size; a range or
// split of sizes ends at offset + size). A sequential I/O starts anywhere
// inside the zone, even one that ends past it. A pattern that completes
// inside a zone before zonesize bytes (zonesize > zonerange) starts over in
// the same zone (a random map only at a multiple of zonerange: else the
// file is done, as in fio). No I/O starts at or past `size` bytes inside its
// zone: fio's get_next_offset fails there and the file is done (time_based:
// the walk goes back to the zone's start, or draws again). A pass is `size`
// bytes; the zone position carries over to the next time_based pass, and
// any other pass (a loop, or io_size's next size bytes with a queueing
// engine: a new do_io in fio) starts at the first zone (RewindZones), as in
// fio. A last zone cut short by the end of the file is walked
// as a whole zone, and the first I/O that would end past the end of the
// file ends the pass there (fio's fill_io_u fails and the file is done):
// zonesize=16k zonerange=48k on 100k reads 96k once, then the pass ends; the
// next pass (loops, io_size) starts at the first zone again.
class StridedPattern final : public IoPattern {
 public:
  Status Init(const JobSpec& job, const std::vector<PatternRegion>& regions, uint64_t seed) {
    if (regions.size() != 1)
      return Status::Invalid("zonemode=strided: a job with " + std::to_string(regions.size()) +
                             " files is not supported (one file per job)");
    const PatternRegion& r = regions[0];
    zone_size_ = job.zone_size;
    const uint64_t range = job.zone_range != 0 ? job.zone_range : job.zone_size;
    range_ = range;
    const uint64_t skip = job.zone_skip_zones ? job.zone_skip * job.zone_size : job.zone_skip;
    start_ = r.offset;
    // The file's end (a device's size; a file is laid out to at least
    // offset + size), or without one the region's.
    end_ = r.file_size != 0 ? r.file_size : r.offset + r.size;
    step_ = range + skip;
    pass_bytes_ = r.size;
    region_size_ = r.size;
    time_based_ = job.time_based;
    random_ = IsRandom(job.rw);
    // Zones lie at start + k * step for every k whose base is inside the
    // file; the last one may be cut short by the end of the file.
    const uint64_t span = end_ - start_;
    const uint64_t zones = (span + step_ - 1) / step_;
    PatternRegion zone = r;
    zone.offset = 0;
    zone.size = range;
    // A holed sequential walk (rw=read:28k) goes back to the zone's start
    // once the last I/O ended at or past the zone's end, as fio 3.33's
    // setup_strided_zone_mode checks its position before the skip is
    // added: with zonerange=64k bs=4k it reads 0, 32k, 64k, then 0. The
    // inner walk wraps when the position after the skip reaches its
    // region's end, so that region is the zone plus one skip.
    if (job.rw_skip > 0 && !IsRandom(job.rw)) zone.size += static_cast<uint64_t>(job.rw_skip);
    // A sequential I/O starts anywhere inside the zone and may end past it
    // (fio 3.33 wraps only once its position reaches the zone's end:
    // zonesize=6k bs=4k reads 0 4k 6k 10k ...); the end of the file is
    // checked below. (A range or split of sizes still shrinks to the zone.)
    zone.file_size = UINT64_MAX / 2;
    Status st = inner_.Init(job, {zone}, seed);
    if (!st.ok()) {
      // The option that sets the zone: zonerange, else zonesize.
      const OptionSetting* set = job.FindSetting("zonerange");
      if (set == nullptr) set = job.FindSetting("zonesize");
      const std::string named =
          set == nullptr ? "" : " (" + set->name + "=" + set->value + ", " + set->Where() + ")";
      return Status::Invalid("zonemode=strided: a zone of " + std::to_string(zone.size) + " bytes" +
                             named + ": " + st.message());
    }
    last_base_ = start_ + (zones - 1) * step_;
    restart_each_range_ = zone_size_ > range && !IsRandom(job.rw);
    zone_base_ = start_;
    random_once_ = inner_.RandomEachBlockOnce();
    random_without_end_ = inner_.RandomWithoutEnd();
    // A range or split of sizes: fio 3.33's get_next_buflen wants the
    // smallest size to fit below offset + size (its io_u_fits), and a 0
    // length ends the job there, short of the file's end; the size drawn
    // shrinks to fit below it. A fixed size has no such check.
    min_bs_ = inner_.VariableMinBs();
    if (min_bs_ != 0) {
      size_end_ = start_ + r.size;
      SetZoneLenEnd();
    }
    return Status::Ok();
  }

  bool Next(IoPlan* out) override {
    if (pass_done_ >= pass_bytes_ || at_end_) return false;
    if (zone_bytes_ >= zone_size_) {
      zone_bytes_ = 0;
      zone_base_ = zone_base_ >= last_base_ ? start_ : zone_base_ + step_;
      if (min_bs_ != 0) SetZoneLenEnd();
      inner_.Reset();
    } else if (restart_each_range_ && zone_bytes_ % range_ == 0 && zone_bytes_ != 0) {
      inner_.Reset();  // see restart_each_range_
    }
    if (!inner_.Next(out)) {
      // Every block of the zone used before zonesize bytes: fio 3.33 clears
      // the random map only when the zone's bytes are a multiple of
      // zonerange, else the file is done (zonesize=6k bs=4k randread: one
      // read in all; zonesize=32k zonerange=16k goes over the zone again).
      // A range or split of sizes whose smallest does not fit below
      // offset + size: the file is done too (see Init).
      // (time_based: fio's get_next_rand_block resets the file and draws
      // again.)
      const bool short_end = inner_.TakeShortEnd();
      if (short_end || (random_once_ && zone_bytes_ % range_ != 0 && !time_based_)) {
        at_end_ = true;
        return false;
      }
      inner_.Reset();  // the zone is done before zonesize: over again
      if (!inner_.Next(out)) return false;
    }
    // An offset inside the zone at or past the region's size: fio 3.33's
    // get_next_offset fails then (the offset it checks against the file's
    // io_size is the zone's, before the zone's start is added), and the file
    // is done; the I/O would lie past offset + size, outside the region.
    // (zonesize=16k zonerange=20k size=8k loops=2: 0 4k, 0 4k.)
    if (out->offset >= region_size_ && !(time_based_ && RedrawInRegion(out))) {
      at_end_ = true;
      return false;
    }
    out->offset += zone_base_;
    if (out->offset + out->length > end_ || out->offset + min_bs_ > size_end_) {
      at_end_ = true;  // the I/O is not issued; the next pass starts over
      return false;
    }
    zone_bytes_ += out->length;
    pass_done_ += out->length;
    return true;
  }

  void RewindZones() override { rewind_ = true; }
  void Reset() override {
    pass_done_ = 0;
    if (at_end_ || rewind_) {
      at_end_ = rewind_ = false;
      zone_base_ = start_;
      zone_bytes_ = 0;
      if (min_bs_ != 0) SetZoneLenEnd();
      inner_.Reset();
    }
  }
  void Reseed() override { inner_.Reseed(); }
  void SetSteer(DdirSteer* steer) override { inner_.SetSteer(steer); }
  // An inline engine's loops are one walk that ends at size x loops bytes
  // (the worker's budget) or where the file ends (LoopsRunAsOnePass).
  bool JoinLoops() override {
    pass_bytes_ = UINT64_MAX;
    return true;
  }
  bool EndedAtFileEnd() const override { return at_end_; }

 private:
  // time_based: fio 3.33's sequential walk goes back to the zone's start
  // before it gets there (get_next_seq_offset's time_based wrap), and a
  // random offset there ends the file only to start it over (its random map
  // too): the job goes on. Draws again, a few times at most; false when no
  // offset inside the region came.
  bool RedrawInRegion(IoPlan* out) {
    for (int tries = 0; tries < 16; ++tries) {
      if (!random_ || !inner_.Next(out)) {
        inner_.Reset();
        if (!inner_.Next(out)) return false;
      }
      if (out->offset < region_size_) return true;
    }
    return false;
  }
  // A size drawn in this zone shrinks to end at size_end_ (past it, the
  // I/O is not issued: see Next).
  void SetZoneLenEnd() { inner_.SetLenEnd(size_end_ > zone_base_ ? size_end_ - zone_base_ : 0); }

  PatternImpl inner_;
  uint64_t zone_size_ = 0, range_ = 0, step_ = 0, start_ = 0, end_ = 0;
  uint64_t last_base_ = 0;
  uint64_t zone_base_ = 0, zone_bytes_ = 0;
  uint64_t pass_bytes_ = 0, pass_done_ = 0;
  uint64_t region_size_ = 0;  // no offset inside a zone at or past it
  bool time_based_ = false, random_ = false;
  bool at_end_ = false;  // the pass ended at the end of the file
  bool rewind_ = false;  // the next Reset() starts a loop: see RewindZones
  // A sequential walk in a zone visited for more than zonerange bytes goes
  // back to the zone's start whenever the bytes issued there are a multiple
  // of zonerange, as fio 3.33's setup_strided_zone_mode resets the file
  // then (fio_file_reset, there for the random map, moves the position
  // too): bs=4k zonesize=32k zonerange=6k reads 0 4k 0, 0 4k 0, 0 4k.
  bool restart_each_range_ = false;
  // Variable block sizes: the smallest, and offset + size (no limit else).
  uint64_t min_bs_ = 0, size_end_ = UINT64_MAX;
};

}  // namespace

Result<std::unique_ptr<IoPattern>> IoPattern::Create(const JobSpec& job,
                                                     std::vector<PatternRegion> regions,
                                                     uint64_t seed) {
  if (job.zone_mode == JobSpec::ZoneMode::kStrided && job.zone_size != 0) {
    auto z = std::make_unique<StridedPattern>();
    IOB_RETURN_IF_ERROR(z->Init(job, regions, seed));
    return std::unique_ptr<IoPattern>(std::move(z));
  }
  auto p = std::make_unique<PatternImpl>();
  Status st = p->Init(job, std::move(regions), seed);
  if (!st.ok()) return st;
  return std::unique_ptr<IoPattern>(std::move(p));
}

bool MixedLoopsEndAtRegionEnd(const JobSpec& job, size_t nregions) {
  return job.rw == RwMode::kReadWrite && !job.time_based && job.loops > 1 && job.io_size == 0 &&
         job.io_size_percent == 0 && nregions == 1 && job.rw_skip == 0 &&
         job.verify.type == VerifyType::kNone && job.zone_mode != JobSpec::ZoneMode::kStrided;
}

bool LoopsRunAsOnePass(const JobSpec& job, bool inline_engine) {
  // io_size passes too: fio's do_io counts io_size the same way, so
  // io_size=3m over size=1m is one stream, not the same offsets three times.
  return inline_engine && (job.loops > 1 || job.HasIoSize()) && !job.time_based &&
         job.verify.type == VerifyType::kNone && !job.verify.verify_only &&
         job.zone_mode != JobSpec::ZoneMode::kZbd && job.read_iolog.empty();
}

bool ReseedsEachLoop(const JobSpec& job) {
  return job.randrepeat && !job.randseed.has_value() && !job.time_based;
}

void StartLoop(IoPattern* p, const JobSpec& job) {
  if (!job.time_based) p->RewindZones();
  if (ReseedsEachLoop(job)) p->Reseed();
  p->Reset();
}

uint64_t SplitBlockSize(uint64_t bs, uint64_t min_bs, bool bs_unaligned) {
  if (bs_unaligned || min_bs == 0) return bs;
  return bs / min_bs * min_bs;
}

uint64_t DeriveSeed(const JobSpec& job, uint32_t jobnum) {
  uint64_t base;
  if (job.randseed.has_value()) {
    base = *job.randseed;
  } else if (job.randrepeat || job.allrandrepeat) {
    base = kRepeatableSeed;
  } else if (getrandom(&base, sizeof(base), GRND_NONBLOCK) != sizeof(base)) {
    // No entropy source: the clock is different enough between runs.
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    base = static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
  }
  return prng::MixSeed(base, jobnum);
}

bool TrimWriteWalksApart(const JobSpec& job) {
  if (job.rw != RwMode::kTrimWrite) return false;
  const BlockSizeSpec& w = job.bs[static_cast<int>(Ddir::kWrite)];
  const BlockSizeSpec& t = job.bs[static_cast<int>(Ddir::kTrim)];
  // One block size each (bssplit=,,16k is one): compare the sizes.
  const auto single = [](const BlockSizeSpec& s) -> uint64_t {
    if (s.split.size() == 1) return s.split[0].bs;
    return s.split.empty() && s.min == s.max ? s.min : 0;
  };
  if (single(w) != 0 && single(t) != 0) return single(w) != single(t);
  if (w.min != t.min || w.max != t.max || w.split.size() != t.split.size()) return true;
  for (size_t i = 0; i < w.split.size(); ++i)
    if (w.split[i].bs != t.split[i].bs || w.split[i].perc != t.split[i].perc) return true;
  return false;
}

}  // namespace iobench
