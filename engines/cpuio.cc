// The cpuio engine (fio's engine of that name): no I/O, no file. Each
// request is one busy chunk of cpuchunks microseconds on the worker's own
// thread, and the job's think time after every chunk (set by the parser from
// cpuload, jobfile/parser.cc ShapeCpuioJob: chunk x (100 - load) / load)
// makes the busy share cpuload percent of one CPU. The chunk is a read of
// no data: the job reports its chunks as reads (count and latency) and 0
// bytes, as fio's does.
//
//   cpumode=noop   spin on the clock until the chunk's time has passed
//                  (fio's usec_spin)
//   cpumode=qsort  sort the engine's own 1 MiB of pseudo-random int32s
//                  (filled once at Init, as fio's), a 16 KiB slice at a
//                  time, up and down in turn, until the chunk's time has
//                  passed: more power drawn for the same share
//
// A chunk is cpuchunks of the thread's own CPU time. fio's is that much
// wall time: the same on an idle CPU, where usr comes out at cpuload
// percent; on a CPU shared with other busy threads fio's chunk gets only
// part of the CPU and its usr falls below cpuload, while here the chunk
// lasts until it had its CPU time (its latency then exceeds cpuchunks) and
// the share stays closer to cpuload (docs/engines.md says how close).
//
// exit_on_io_done is the coordinator's: it stops the job as at the end of
// its runtime once the run's other I/O jobs are done (run/coordinator.cc).
// Owned by one worker thread; no allocation after Init().
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "engines/engines.h"
#include "iobench/clock.h"

namespace iobench {
namespace {

// 256 Ki int32 (1 MiB) sorted in slices of 4 Ki (16 KiB): a slice takes
// tens of microseconds, so a chunk ends within that of its time.
constexpr size_t kSortWords = size_t{256} << 10;
constexpr size_t kSliceWords = size_t{4} << 10;

class CpuioEngine final : public Engine {
 public:
  void Configure(const JobSpec& job) override {
    chunk_ns_ = job.cpuchunks_us * 1000;
    qsort_ = job.cpumode_qsort;
  }

  Status Init(const EngineContext& ctx) override {
    (void)ctx;
    if (!qsort_) return Status::Ok();
    data_.resize(kSortWords);
    // Marsaglia's multiply-with-carry, seeded as fio's: the same data each run.
    uint32_t z = 362436069u, w = 521288629u;
    for (int32_t& v : data_) {
      z = 36969 * (z & 65535) + (z >> 16);
      w = 18000 * (w & 65535) + (w >> 16);
      v = static_cast<int32_t>((z << 16) + w);
    }
    return Status::Ok();
  }

  QueueResult Queue(IoRequest* req) override {
    ++counters_.submit_calls;
    ++counters_.submitted;
    if (chunk_ns_ != 0) {
      // Burn the chunk on the wall clock; when other threads took the CPU
      // meanwhile (the thread's CPU time fell short by more than 1/64 of
      // the chunk), burn what is missing: two or three clock_gettime calls
      // per chunk, not one per loop.
      const uint64_t cpu0 = ThreadCpuNs();
      uint64_t left = chunk_ns_;
      while (true) {
        Burn(left);
        const uint64_t used = ThreadCpuNs() - cpu0;
        if (used + chunk_ns_ / 64 >= chunk_ns_) break;
        left = chunk_ns_ - used;
      }
    }
    req->res = static_cast<int64_t>(req->length);  // the worker counts no bytes (MovesData)
    return QueueResult::kCompleted;
  }

  // (No EndSync: a diskless job has no descriptor to sync. No
  // UsesHelperThreads: a sync engine has none by default.)
  bool IsSync() const override { return true; }
  bool MovesData() const override { return false; }

 private:
  static int Up(const void* a, const void* b) {
    const int32_t x = *static_cast<const int32_t*>(a), y = *static_cast<const int32_t*>(b);
    return (x > y) - (x < y);
  }
  static int Down(const void* a, const void* b) { return Up(b, a); }

  static uint64_t ThreadCpuNs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<uint64_t>(t.tv_sec) * 1000000000u + static_cast<uint64_t>(t.tv_nsec);
  }

  // Busy for `ns` of wall time: spinning on the clock, or sorting. MonotonicNs,
  // not NowNs: engines/ is also in the parser library the fuzz target links,
  // which has no calibrated clock (g_clock).
  void Burn(uint64_t ns) {
    const uint64_t end = MonotonicNs() + ns;
    if (qsort_) {
      do SortSlice();
      while (MonotonicNs() < end);
    } else {
      while (MonotonicNs() < end) {
      }
    }
  }

  // One slice sorted the other way from its last sort: never sorted already.
  void SortSlice() {
    int32_t* p = data_.data() + slice_ * kSliceWords;
    std::qsort(p, kSliceWords, sizeof(int32_t), down_ ? Down : Up);
    if (++slice_ == kSortWords / kSliceWords) {
      slice_ = 0;
      down_ = !down_;
    }
  }

  uint64_t chunk_ns_ = 0;
  bool qsort_ = false;
  std::vector<int32_t> data_;
  size_t slice_ = 0;
  bool down_ = false;
};

}  // namespace

EngineInfo CpuioEngineInfo() {
  return {"cpuio",
          "no I/O and no file: burns cpuload percent of one CPU in chunks of cpuchunks us "
          "(cpumode=noop spins, qsort sorts), each counted as a read of 0 bytes",
          true,
          [] { return std::unique_ptr<Engine>(new CpuioEngine()); },
          [] { return Status::Ok(); },
          {"cpuload", "cpuchunks", "cpumode", "exit_on_io_done"},
          nullptr};
}

}  // namespace iobench
