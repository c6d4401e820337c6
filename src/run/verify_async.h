// verify_async=N (fio's name): N threads per worker that check completed
// verify reads, so the worker's thread keeps the queue full while checksums
// are computed. Owned by one Worker (src/run/worker_verify.cc):
//
//   worker thread                       check threads (N)
//   -------------                       -----------------
//   read completes -> Submit(slot, ...)  take a job, Verifier::CheckReadWith()
//   (the slot stays busy: its buffer     with the thread's own VerifyChecker,
//   belongs to the check thread)         publish the slot as finished
//   Collect() once per loop iteration
//   -> result(slot), free the slot
//
// The queues are fixed rings of `slots` entries (one per request slot, so
// they never fill) behind one mutex: one lock per handed-off read and one per
// Collect() that finds finished checks; Collect() costs one relaxed-acquire
// load when none finished. Nothing allocates after Create() except a
// failure's message and blocks.
//
// REQUIRES (the worker's part of the contract): while checks run, the owner
// calls no Verifier method that changes the written-block record
// (PrepareWrite, OnWriteComplete, LoadState, Reset), and does not reuse a
// submitted slot's buffer until Collect() returned the slot.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "iobench/stats.h"
#include "iobench/status.h"
#include "run/verify.h"

namespace iobench {

class VerifyAsyncPool {
 public:
  // One check of a read that completed: slot `slot`'s buffer holds `len`
  // bytes read at `offset` of file `file_index` (`path` names it in
  // messages and must outlive the check).
  struct Check {
    uint32_t slot = 0;
    const uint8_t* buf = nullptr;
    uint64_t len = 0;
    uint32_t file_index = 0;
    uint64_t offset = 0;
    const std::string* path = nullptr;
  };
  // The outcome of a check, valid from Collect() until the slot is submitted
  // again. Worker thread only.
  struct Outcome {
    Status status;
    VerifyFailure failure;            // filled when !status.ok()
    std::vector<VerifyFailure> more;  // the read's later bad chunks (CheckRead's `more`)
  };

  // Starts `threads` threads (named "<name>-vN" for top and ps) checking
  // through `verifier`, which must outlive the pool. `slots`: the worker's
  // request slots. `cpus` (verify_async_cpus), when not empty, is the
  // threads' CPU affinity; otherwise they inherit the job's.
  static Result<std::unique_ptr<VerifyAsyncPool>> Create(const Verifier* verifier, uint32_t threads,
                                                         uint32_t slots, const std::string& name,
                                                         const std::vector<int>& cpus = {});
  // Stops and joins the threads (a check in progress finishes first).
  ~VerifyAsyncPool();
  VerifyAsyncPool(const VerifyAsyncPool&) = delete;
  VerifyAsyncPool& operator=(const VerifyAsyncPool&) = delete;

  // Worker thread. Hands a check to the threads.
  void Submit(const Check& check);
  // Worker thread. Writes the slots whose checks finished to out[] (room for
  // `slots`) and returns how many. wait: block until at least one finished
  // (REQUIRES: pending() > 0).
  uint32_t Collect(uint32_t* out, bool wait);
  // Checks submitted and not yet collected. Worker thread.
  uint32_t pending() const { return pending_; }
  Outcome& outcome(uint32_t slot) { return outcomes_[slot]; }

  // Worker thread, when pending() == 0: adds the threads' counts to the
  // verifier's, and returns the CPU time the threads used so far.
  CpuUsage Drain(Verifier* verifier);

 private:
  VerifyAsyncPool() = default;
  void ThreadMain(uint32_t t);

  const Verifier* verifier_ = nullptr;
  uint32_t slots_ = 0;
  std::vector<std::unique_ptr<VerifyChecker>> checkers_;  // one per thread
  std::vector<CpuUsage> cpu_;                             // per thread; guarded by mu_
  std::vector<Outcome> outcomes_;                         // per slot
  std::vector<std::thread> threads_;

  std::mutex mu_;
  std::condition_variable work_cv_;  // threads wait for checks or stop
  std::condition_variable done_cv_;  // the worker waits in Collect(wait=true)
  std::vector<Check> todo_;          // ring of slots_ entries; guarded by mu_
  uint32_t todo_head_ = 0, todo_n_ = 0;
  std::vector<uint32_t> done_;  // finished slots; guarded by mu_
  uint32_t done_n_ = 0;
  std::atomic<uint32_t> done_count_{0};  // == done_n_, read without the lock
  bool worker_waiting_ = false;          // guarded by mu_
  bool stop_ = false;                    // guarded by mu_
  uint32_t pending_ = 0;                 // worker thread only
};

}  // namespace iobench
