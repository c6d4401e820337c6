// I/O pattern generation for one worker: which direction, file, offset and
// length the next I/O has. Also the rate limiter and write-buffer filling.
//
// Owned by one worker thread; no locks, no allocation after Create().
// Deterministic: the same JobSpec and seed give the same sequence every run
// (randrepeat / randseed), which tests assert.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "iobench/job.h"
#include "iobench/status.h"
#include "run/random.h"

namespace iobench {

// The slice of one file this worker covers: [offset, offset + size).
struct PatternRegion {
  uint64_t offset = 0;
  uint64_t size = 0;
  uint64_t block_align = 0;  // device logical block size for direct I/O (0: none)
  uint64_t file_size = 0;    // the whole file or device: zonemode=strided walks to its end
  // fio 3.33's null-engine file when size= is not in bytes (its size stays
  // unknown): it has no end, so a holed walk does not wrap at file_size and
  // a fixed block may pass it. (iobench's zonemode=strided still ends at
  // file_size, deliberately, where fio's walks on: docs/running.md.)
  bool no_end = false;
};

struct IoPlan {
  Ddir ddir = Ddir::kRead;
  uint32_t file = 0;  // index into the regions passed to Create()
  uint64_t offset = 0;
  uint64_t length = 0;
};

// Chooses the direction of a mixed job's next I/O (rw=rw/randrw) once
// rwmixread drew `drawn`. Set by the worker only for rated mixed jobs, so an
// unrated job pays nothing for it. other_ok: the other direction's rwmix
// share is not 0 (fio never switches into a 0% direction).
class DdirSteer {
 public:
  virtual Ddir Steer(Ddir drawn, bool other_ok) = 0;

 protected:
  ~DdirSteer() = default;
};

class IoPattern {
 public:
  // REQUIRES: regions non-empty, each region size >= the smallest block size.
  // seed: the worker's seed (derived by the caller from randseed/randrepeat and jobnum).
  // Fails (kInvalidArgument, the message names the option) on an unusable
  // combination: a region below the block size or misaligned for its
  // block_align, a pareto h outside (0,1), zone shares above 100, and so on.
  // Allocates here: the random map (1 bit per block), zipf and zone tables.
  static Result<std::unique_ptr<IoPattern>> Create(const JobSpec& job,
                                                   std::vector<PatternRegion> regions,
                                                   uint64_t seed);
  virtual ~IoPattern() = default;

  // Fills *out with the next I/O. Returns false when one pass over the
  // regions is complete (sequential: end reached; random with a random map:
  // every block touched once, or with sequential continuations size bytes;
  // norandommap: size/bs I/Os issued). The worker
  // then decides (loops, time_based) whether to call Reset() and go on.
  virtual bool Next(IoPlan* out) = 0;
  // Starts a new pass (next loop). Sequential offsets restart at the region
  // start; the random map is cleared; the random state continues (Reseed()
  // starts it over).
  // time_based rw=rw over one file, as fio 3.33: a pass ends when one
  // direction reaches the region's end (not after size bytes), and Reset()
  // then starts only that direction over; the other goes on, so each covers
  // the whole region. (A Reset() in mid-pass starts a full pass.)
  virtual void Reset() = 0;
  // Starts every random stream (offsets, directions, block sizes, the
  // random/sequential choice, file choice, LFSRs) over from the seed, so the
  // next pass draws what the first one did. zipf, pareto and normal offsets
  // go on, as fio 3.33's. The worker calls it before the Reset() that starts
  // a new loop when randrepeat=1 and no randseed (ReseedsEachLoop), as fio
  // 3.33's clear_io_state; never for a time_based pass. Not on the hot path.
  virtual void Reseed() = 0;
  // Mixed jobs: `steer` (null: none) has the last word on each I/O's
  // direction, before its offset and length are planned. Not owned; it must
  // outlive every Next() call. Jobs with one direction ignore it.
  virtual void SetSteer(DdirSteer* steer) = 0;
  // The file an fsync=N/fdatasync=N sync goes to, taking the turn of the
  // I/O that would come next, as fio's sync takes a file from its file
  // service like any I/O (nrfiles=2 fsync=3: writes 0 1 0, sync 1, writes
  // 0 1 0, sync 1). -1: no several files to choose from (the worker syncs
  // the file last written).
  virtual int SyncFile() { return -1; }
  // Runs the job's loops as one pass when its passes end by bytes (a random
  // job without the map: norandommap, blockalign, a non-uniform
  // distribution; or with sequential continuations: rw=randxxx:N,
  // percentage_random): no byte budget ends the pass, only a file that
  // cannot place its next I/O does, so the sequential run, the rw=randxxx:N
  // count, the random map and the random streams go on from loop to loop.
  // The worker asks for it when fio 3.33 does that (LoopsRunAsOnePass) and
  // stops the job at size x loops bytes itself. Returns whether the pattern
  // does it (false: its passes end on their own, as before). Call once,
  // before the first Next().
  virtual bool JoinLoops() { return false; }
  // A time_based job that verifies, whose engine completes each I/O inside
  // its queue call: fio 3.33's do_io counts no bytes towards size= then, so
  // filesize= with a smaller size= ends no pass there, and each file's walk
  // goes to its region's end as without verify (filesize=64k size=32k
  // rw=write verify=crc32c: psync writes blocks 0 to 15, libaio 0 to 7, which
  // fio then reads back and iobench does not: docs/verify.md, time_based).
  // The worker calls it then, before the first Next().
  // (Without verify a time_based pass never ends at size=.)
  virtual void EndPassesAtRegions() {}
  // Whether the pass that just ended stopped because the file could not
  // place its next I/O (zonemode=strided's last zone): fio 3.33 marks the
  // file done then, and without io_size= no pass follows once the loops are
  // used up.
  virtual bool EndedAtFileEnd() const { return false; }
  // zonemode=strided: the next Reset() starts at the first zone, as fio
  // 3.33's clear_io_state puts the file's zone back at its start each time
  // its do_io starts over (StartLoop calls it). Without it a pass goes on
  // from the zone the last one left (time_based: one do_io in fio).
  virtual void RewindZones() {}
  // Whether the pass that just ended ran out of bytes while its holed walk
  // (rw=trimwrite:4k) still had somewhere to go: it wrapped at the file's
  // end, or did not reach it. false when the walk stopped short (a step past
  // the region's end, or a previous I/O that ended at the file's end: fio's
  // "file done").
  virtual bool HoledWalkGoesOn() const { return false; }
  // A note for the job's report when the pattern runs other than the job
  // file says (zoned_abs zones past the end of the region, clipped); ""
  // when it runs as written. Set by Create().
  virtual std::string Note() const { return ""; }
  // openfiles below the file count (OpenLimit(job, n) != 0): which files
  // are open, as fio 3.33 keeps them. No file is open at the start; the file
  // service opens a file when it picks one and a slot is free, and skips a
  // closed one when none is (round robin moves on, random draws among the
  // open files); a file is closed once its pass is over, and Reset() closes
  // every file still open. Next(), SyncFile() and Reset() append what they
  // did here, in order; the worker opens and closes the descriptors and
  // then calls ClearFileEvents(). Without a limit only kRestart comes, and
  // only when RestartsFilesInPlace().
  enum class FileEventKind : uint8_t {
    kOpen,
    kClose,
    // time_based random job over several files: the file's pass ended and
    // started over in place (fio resets the file instead of closing it),
    // and its other files keep their turns; under openfiles it stays open,
    // and the files past the first openfiles get no I/O, as in fio.
    kRestart,
  };
  struct FileEvent {
    uint32_t file;
    FileEventKind kind;
  };
  const std::vector<FileEvent>& file_events() const { return file_events_; }
  // Whether Next() may report kRestart: the worker must then take the file
  // events after each call even without openfiles.
  bool RestartsFilesInPlace() const { return restarts_files_; }
  void ClearFileEvents() { file_events_.clear(); }

  // Whether a pass's random offsets touch each block once (a random map, or
  // random_generator=lfsr), so that replaying the pass reads back each block
  // once. False for sequential jobs, for random ones without a map
  // (norandommap, blockalign other than the block size, a non-uniform
  // random_distribution: fio turns the map off for them too), and for random
  // ones with sequential continuations (percentage_random below 100,
  // rw=randxxx:N), which neither consult nor mark the map, as in fio.
  bool RandomEachBlockOnce() const { return random_once_; }
  // Whether every offset is random and no pass of the job's own ends it: a
  // uniform draw without a map (norandommap, blockalign other than the
  // block size) or a non-uniform random_distribution, without sequential
  // continuations. fio 3.33 never wraps such a job (its offsets never run
  // out), so a time_based run drops the page cache at its start only;
  // iobench's passes there are byte budgets, which are no wrap.
  bool RandomWithoutEnd() const { return random_without_end_; }

  // Next() for the worker's per-I/O loop: the common random job (one file,
  // one direction, one block size equal to the map's block, the random map:
  // randread/randwrite/randtrim with defaults) takes one step here, inline,
  // without a virtual call; every other job and the end of a pass go to
  // Next(). Same random numbers and offsets either way.
  bool NextInline(IoPlan* out) {
    if (fast_.map != nullptr && fast_.map->free_count() != 0) [[likely]]
      return FastStep(out);
    return Next(out);
  }

 protected:
  // Set by the implementation when the job qualifies; map and rng point
  // into the implementation, which outlives every call.
  struct FastMap {
    prng::BlockMap* map = nullptr;  // null: the job does not qualify
    prng::Uniform* rng = nullptr;
    uint64_t blocks = 0, start = 0, gran = 0;
    Ddir ddir = Ddir::kRead;
  };
  // REQUIRES: fast_.map != nullptr && fast_.map->free_count() != 0.
  bool FastStep(IoPlan* out) {
    const uint64_t b = fast_.map->FindFree(fast_.rng->Below(fast_.blocks));
    fast_.map->Set(b);
    out->ddir = fast_.ddir;
    out->file = 0;
    out->offset = fast_.start + b * fast_.gran;
    out->length = fast_.gran;
    return true;
  }
  FastMap fast_;
  bool random_once_ = false;            // RandomEachBlockOnce(), set by the implementation
  bool random_without_end_ = false;     // RandomWithoutEnd(), set by the implementation
  bool restarts_files_ = false;         // RestartsFilesInPlace(), set by the implementation
  std::vector<FileEvent> file_events_;  // openfiles: reserved at Create, never grows in a pass
};

// The number of files a job with `nfiles` files keeps open at once when
// openfiles or file_service_type=sequential limits it, else 0: every file
// is opened before the run and stays open (JobSpec::OpenLimit).
inline uint32_t OpenLimit(const JobSpec& job, size_t nfiles) { return job.OpenLimit(nfiles); }

// The size a bssplit entry of `bs` bytes issues, in a direction whose
// smallest split size is min_bs: as fio 3.33's get_next_buflen, rounded down
// to a multiple of min_bs unless bs_unaligned (bssplit=4k/50:6k/50 issues
// 4k only, 4k/50:12k/50 issues 4k and 12k). IoPattern::Create rounds with
// it, and the direct I/O alignment check tests what it gives.
uint64_t SplitBlockSize(uint64_t bs, uint64_t min_bs, bool bs_unaligned);

// rw=trimwrite whose trims and writes have different block size settings
// (bs=4k,8k,16k; bssplit=,,16k): as fio 3.33, each direction walks the file
// on its own position with its own block size, and the next I/O is a trim
// when the file's last write started where its last trim did, else a write
// (bs=4k,8k,16k on 64k: trim 0/16k, write 0/8k, trim 16k, writes 8k and
// 16k, ...: 4 trims, 7 writes). Only the writes' bytes count towards size,
// io_size and loops, and number_ios counts trims and writes alike, twice
// over (fio's number_ios=3 there is 3 trims and 3 writes). With the same
// settings each write repeats its trim's block, and the pair counts once.
// randtrimwrite always repeats the trim's block (fio's write takes the last
// trim's offset and length).
bool TrimWriteWalksApart(const JobSpec& job);

// rw=rw over one file with loops > 1 (no time_based, io_size, holes or
// verify): as fio 3.33, each loop (pass) ends when a direction reaches the
// region's end, both directions start over at the next, and the worker
// stops the job once size x loops bytes are issued (rwmixread=80 size=1m
// loops=2: a first loop of 256 reads and the writes drawn meanwhile, then
// the rest). Other jobs' passes are size bytes.
bool MixedLoopsEndAtRegionEnd(const JobSpec& job, size_t nregions);

// Whether fio 3.33 would run a loops > 1 job's loops (or the passes an
// io_size above size adds) in one do_io: its loop
// counts an I/O towards the loop's size bytes (bytes_issued) only when the
// engine queued it, so with an engine that completes each I/O inside its
// queue call (psync, pvsync2, null: `inline_engine`) a loop ends only where
// the file cannot place the next I/O, or at size x loops bytes (its
// io_issue_bytes limit). A queueing engine (libaio, io_uring) ends each loop
// at size bytes. Not time_based (whose passes wrap anyway), nor with verify
// or verify_only (whose loops each verify what they wrote), nor
// zonemode=zbd. The pattern has the last word (IoPattern::JoinLoops): only
// jobs whose passes end by bytes are joined (zonemode=strided's walk too).
bool LoopsRunAsOnePass(const JobSpec& job, bool inline_engine);

// Whether each loop after the first draws what the first did (the worker
// calls IoPattern::Reseed at its start): as fio 3.33, whose clear_io_state
// re-seeds every generator when randrepeat=1 and no randseed is given
// (randseed turns randrepeat off there). Not time_based: fio wraps those
// passes inside one loop, and their draws go on.
bool ReseedsEachLoop(const JobSpec& job);

// Starts the pattern's next loop: Reseed() when ReseedsEachLoop(job), then
// Reset(), from the first zone (RewindZones) unless the job is time_based
// (its passes are not fio's loops there). For the writer's
// pattern and for the verify replay that mirrors it.
void StartLoop(IoPattern* p, const JobSpec& job);

// The seed a worker passes to IoPattern::Create, RateLimiter::Create and
// BufferFiller. jobnum: the worker's index among all workers of the run
// (numjobs clones included), so clones get different but repeatable offsets.
//   randseed=N set          -> N mixed with jobnum (repeatable)
//   randrepeat=1 (default)  -> a fixed constant mixed with jobnum (repeatable)
//   randrepeat=0            -> getrandom(2) mixed with jobnum (differs per run)
// Called once per worker before the run; may make one syscall.
uint64_t DeriveSeed(const JobSpec& job, uint32_t jobnum);

// Rate limiting (rate, rate_iops, rate_process). One per worker.
class RateLimiter {
 public:
  // Returns null when the job has no rate limit in any direction.
  // The rate applies to this worker, as in fio (each numjobs clone is a job
  // with the full rate): pass numjobs_share = 1 for fio's semantics; a value
  // N > 1 divides every rate by N (a group-wide rate split over N workers).
  // rate_iops is turned into bytes/s with the direction's smallest block size,
  // as fio does, unless rate (bytes/s) is also set, which then wins.
  static std::unique_ptr<RateLimiter> Create(const JobSpec& job, uint32_t numjobs_share,
                                             uint64_t seed);
  virtual ~RateLimiter() = default;
  // Given that `bytes` are about to be issued in `ddir` at time now_ns (ns
  // since the job started), returns how long to wait before issuing (0: go).
  // Call exactly once per I/O: the call accounts the I/O as issued. The due
  // time is computed from the totals since the start, so rounding and late
  // wake-ups never accumulate into drift (a late worker catches up).
  virtual uint64_t DelayNs(Ddir ddir, uint64_t bytes, uint64_t now_ns) = 0;
  // rate_ignore_thinktime: the job just paused `ns` for thinktime. The
  // schedule moves by the pause, so no catch-up burst follows it (fio's
  // rate_ign_think: the bytes the pause missed count as issued, less one
  // block when the pause was longer than one I/O's period, so the next I/O
  // goes at once). fio does this for the last I/O's direction only; here
  // every rated direction moves, as the option's name says.
  virtual void Paused(uint64_t ns) = 0;
  // The ramp ended: the schedule starts over from nothing at the new epoch
  // (the caller's times count from there), as fio's reset of its rate
  // counters and epoch at the ramp's end does. The rate the ramp did not use
  // (its thinktime pauses) is not spent in a burst after it.
  virtual void Restart() = 0;
  // fio's rate_ddir, for a mixed job whose rwmixread drew `drawn` at now_ns:
  // drawn when its next I/O is due; else the other direction when that one is
  // due (and other_ok: its rwmix share is not 0; an unrated direction is
  // always due); else, both being ahead, the one due first (the worker then
  // waits for it). So a direction ahead of its rate lends its turn to the
  // other, and the job only sleeps when both must wait. Accounts nothing.
  virtual Ddir Steer(Ddir drawn, uint64_t now_ns, bool other_ok) const = 0;
};

// rate_min / rate_iops_min, as fio 3.33 checks them (backend.c
// check_min_rate): never in the first 2 s of the job; after that, at each
// check, for each direction that has completed any I/O, once rate_cycle ms
// passed since its last check the rate over that window must reach the
// minimum (the first check only opens the window). The worker checks when
// fio does: after completions, after each thinktime pause, and once more when
// the job's I/O ends before its runtime (bytes, number_ios), so the last
// stretch is judged too; not after the runtime ended it (fio's loop stops
// there). So a job no longer than 2 s + rate_cycle never fails, and a slow
// stretch fails the job while it runs. One per worker, null (Create) when no minimum is set.
class MinRateCheck {
 public:
  static std::unique_ptr<MinRateCheck> Create(const JobSpec& job);
  // now_ns: since the job's start; bytes/ios: completed so far, per
  // direction. Returns false when a direction fell below its minimum over
  // its last window; Failure() then says which and by how much.
  bool Check(uint64_t now_ns, const uint64_t (&bytes)[kNumDdirs], const uint64_t (&ios)[kNumDdirs]);
  std::string Failure() const;

 private:
  explicit MinRateCheck(const JobSpec& job);
  uint64_t min_bytes_[kNumDdirs] = {0, 0, 0};  // rate_min, B/s
  uint64_t min_ios_[kNumDdirs] = {0, 0, 0};    // rate_iops_min
  uint64_t cycle_ns_ = 0;
  bool open_[kNumDdirs] = {false, false, false};  // a window was opened
  uint64_t last_ns_[kNumDdirs] = {0, 0, 0};
  uint64_t last_bytes_[kNumDdirs] = {0, 0, 0};
  uint64_t last_ios_[kNumDdirs] = {0, 0, 0};
  int failed_ = -1;   // the direction that failed
  uint64_t got_ = 0;  // its rate over the window
  uint64_t window_ms_ = 0;
};

// Write buffer contents: zero_buffers, refill_buffers, scramble_buffers,
// buffer_compress_percentage/_chunk, buffer_pattern. One per worker.
// The filler copies what it needs from `job`; job need not outlive it.
class BufferFiller {
 public:
  BufferFiller(const JobSpec& job, uint64_t seed);
  // Fills the `slots` buffers of `stride` bytes at buf once, before the run.
  // A job that never writes (rw=read, randread, trim, randtrim) leaves them
  // untouched: reads overwrite them anyway, and filling iodepth x bs of
  // memory (1.25 GiB for seed 002's libaio depth 20000 x 64k) would cost
  // seconds of setup and commit all of it. With refill_buffers (compression
  // and dedupe included) each buffer is one refill, as fio fills each of
  // its iodepth buffers from the content stream; `fills` above `slots`
  // draws the rest into the same slots (a synchronous engine has one buffer
  // where fio has iodepth). So after Reseed a loop's writes are the first
  // loop's, `fills` writes late, as in fio 3.33.
  void FillInitial(void* buf, uint64_t stride, uint32_t slots = 1, uint32_t fills = 1);
  // A new loop that re-seeds (ReseedsEachLoop): the content stream starts
  // again from its seed, as fio's clear_io_state re-seeds buf_state (and
  // the dedupe draws). Only refilled content repeats; scrambling goes on
  // (fio scrambles with the time of day, so its loops differ there).
  // Called at loop boundaries only.
  void Reseed();
  // Called before each write is issued; cheap unless refill_buffers is set
  // (scramble: a few bytes per 512-byte block are changed so dedupe fails).
  // Whether it touched the buffer (the caller's start stamp is then stale:
  // 1 MiB writes spend tens of microseconds here).
  bool BeforeWrite(void* buf, uint64_t len);

 private:
  void FillRandom(uint8_t* p, uint64_t len);
  void FillFixed(uint8_t* p, uint64_t len);  // zeros or buffer_pattern
  void Fill(uint8_t* p, uint64_t len);
  void Refill(uint8_t* p, uint64_t len);  // refill_: one write's new content

  uint64_t state_;
  uint64_t seed_state_;  // state_ at construction (Reseed)
  bool zero_ = false;
  bool refill_ = false;
  bool scramble_ = false;
  uint32_t compress_perc_ = 0;
  uint64_t compress_chunk_ = 0;
  std::vector<uint8_t> pattern_;
  uint64_t writes_ = 0;
  bool job_writes_ = true;  // rw has a write direction (FillInitial)
  // dedupe_percentage: a buffer's content is a function of the state it is
  // filled from, so repeating a content is refilling from a saved state.
  void FillFrom(uint64_t seed, uint8_t* p, uint64_t len);
  uint32_t dedupe_perc_ = 0;
  uint64_t dedupe_rng_ = 0;
  uint64_t dedupe_seed_ = 0;  // dedupe_rng_ at construction (Reseed)
  uint64_t prev_state_ = 0;   // repeat: the state the last unique buffer came from
  uint64_t ws_base_ = 0;      // working_set: page i is filled from MixSeed(ws_base_, i)
  uint64_t ws_size_ = 0;      // working-set entries (0: repeat mode)
  uint64_t ws_page_ = 0;      // working_set: an entry's size, the smallest write size
  uint64_t unique_ = 0;       // unique buffers (working_set: pages) so far; the first
                              // ws_size_ pages are the set
};

}  // namespace iobench
