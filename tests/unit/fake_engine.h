// A scripted fake async engine for worker tests (our own seam, no syscalls).
//
// Queue() accepts requests into a submission list (or says kBusy, every
// busy_every-th call or when all slots are taken), Commit() moves them to
// "the kernel", Reap() hands them back in reverse (out of order), and the
// script decides each completion: every short_every-th completes short (half
// of what was asked, at least 1 byte), every fail_every-th fails with -fail_errno (EIO).
// A ledger, shared with the test, records every completion so the test can
// prove no I/O is lost or completed twice.
#pragma once

#include <algorithm>
#include <cerrno>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "iobench/engine.h"
#include "iobench/job.h"

namespace iobench::testing {

struct FakeScript {
  uint32_t short_every = 0;
  uint32_t fail_every = 0;
  int fail_errno = EIO;  // what the failing ones fail with
  uint32_t fail_at = 0;  // this completion (1-based) fails with -fail_at_errno (0: none)
  int fail_at_errno = ENOSPC;
  uint32_t busy_every = 0;
  bool fail_syncs = false;  // every fsync/fdatasync/sync_file_range fails with -fail_errno
  bool reverse = true;
  uint32_t max_per_reap = 0;  // hand back at most this many beyond `min` (0: all)
  // A device slower than the worker's wait: nothing completes until a reap
  // blocks for it (min > 0); a poll or a timed wait finds nothing.
  bool complete_only_when_waited = false;
};

struct FakeLedger {
  uint64_t queued = 0, busy = 0, completions = 0, shorts = 0, failures = 0;
  uint64_t protocol_errors = 0;  // reap of a request not in flight, min > in flight, ...
  uint64_t max_in_kernel = 0;
  uint64_t max_min_asked = 0;  // largest `min` the worker passed to Reap
  uint64_t waits = 0;          // reaps with min > 0 (a real engine's system call)
  uint64_t overlaps = 0;       // queued while an I/O on some of the same bytes was in flight
  // A new I/O stamped as prepared before an I/O already in the kernel was
  // submitted (its slat would hold that submit).
  uint64_t starts_before_an_issue = 0;
  uint64_t timed_waits = 0;                    // ReapFor calls
  uint64_t max_timeout_ns = 0;                 // the longest wait ReapFor was asked for
  std::map<uint64_t, uint64_t> bytes_by_xfer;  // xfer_offset -> bytes completed
};

class FakeEngine : public Engine {
 public:
  FakeEngine(FakeScript script, std::shared_ptr<FakeLedger> ledger)
      : script_(script), ledger_(std::move(ledger)) {}

  Status Init(const EngineContext& ctx) override {
    capacity_ = ctx.iodepth;
    pending_.reserve(capacity_);
    in_kernel_.reserve(capacity_);
    return Status::Ok();
  }

  QueueResult Queue(IoRequest* req) override {
    ++calls_;
    if ((script_.busy_every != 0 && calls_ % script_.busy_every == 0) ||
        pending_.size() + in_kernel_.size() >= capacity_) {
      ++ledger_->busy;
      return QueueResult::kBusy;
    }
    for (IoRequest* r : pending_) ledger_->protocol_errors += r == req;
    for (IoRequest* r : in_kernel_) ledger_->protocol_errors += r == req;
    // Byte ranges of one file queued while another I/O on them is in flight.
    auto overlaps = [req](const IoRequest* r) {
      return r->file_index == req->file_index && r->offset < req->offset + req->length &&
             req->offset < r->offset + r->length;
    };
    for (IoRequest* r : pending_) ledger_->overlaps += overlaps(r);
    for (IoRequest* r : in_kernel_) ledger_->overlaps += overlaps(r);
    if (req->offset == req->xfer_offset)
      for (const IoRequest* r : in_kernel_)
        ledger_->starts_before_an_issue += r->issue_ns > req->start_ns;
    ++ledger_->queued;
    pending_.push_back(req);
    return QueueResult::kQueued;
  }

  Result<unsigned> Commit() override {
    const unsigned n = static_cast<unsigned>(pending_.size());
    if (n == 0) return 0u;
    ++counters_.submit_calls;
    counters_.submitted += n;
    for (IoRequest* r : pending_) in_kernel_.push_back(r);
    pending_.clear();
    ledger_->max_in_kernel = std::max<uint64_t>(ledger_->max_in_kernel, in_kernel_.size());
    return n;
  }

  Result<unsigned> Reap(unsigned min, unsigned max, IoRequest** out) override {
    if (min > in_kernel_.size() || max < min) {
      ++ledger_->protocol_errors;
      return Status::Internal("fake: reap min > in flight");
    }
    ++counters_.reap_calls;
    if (min > 0) {
      ++counters_.reap_syscalls;
      ++ledger_->waits;
    }
    ledger_->max_min_asked = std::max<uint64_t>(ledger_->max_min_asked, min);
    if (script_.complete_only_when_waited && min == 0) return 0u;
    if (script_.max_per_reap != 0) max = std::min(max, std::max(min, script_.max_per_reap));
    unsigned n = 0;
    while (n < max && !in_kernel_.empty()) {
      IoRequest* r;
      if (script_.reverse) {
        r = in_kernel_.back();
        in_kernel_.pop_back();
      } else {
        r = in_kernel_.front();
        in_kernel_.erase(in_kernel_.begin());
      }
      ++ledger_->completions;
      if (script_.fail_syncs && r->op >= IoOp::kFsync) {
        r->res = -script_.fail_errno;
        ++ledger_->failures;
      } else if (script_.fail_at != 0 && ledger_->completions == script_.fail_at) {
        r->res = -script_.fail_at_errno;
        ++ledger_->failures;
      } else if (script_.fail_every != 0 && ledger_->completions % script_.fail_every == 0) {
        r->res = -script_.fail_errno;
        ++ledger_->failures;
      } else if (script_.short_every != 0 && ledger_->completions % script_.short_every == 0 &&
                 r->length > 1) {
        r->res = static_cast<int64_t>(r->length / 2);
        ++ledger_->shorts;
      } else {
        r->res = static_cast<int64_t>(r->length);
      }
      if (r->res > 0) ledger_->bytes_by_xfer[r->xfer_offset] += static_cast<uint64_t>(r->res);
      out[n++] = r;
    }
    counters_.reaped += n;
    return n;
  }

  // Counts the wait and does not block: the worker sleeps the rest, as it
  // does for an engine that cannot wait with a timeout.
  Result<unsigned> ReapFor(unsigned max, IoRequest** out, uint64_t timeout_ns) override {
    ++ledger_->timed_waits;
    ledger_->max_timeout_ns = std::max(ledger_->max_timeout_ns, timeout_ns);
    return Reap(0, max, out);
  }

  bool IsSync() const override { return false; }

 private:
  FakeScript script_;
  std::shared_ptr<FakeLedger> ledger_;
  uint32_t capacity_ = 1;
  uint64_t calls_ = 0;
  std::vector<IoRequest*> pending_;
  std::vector<IoRequest*> in_kernel_;
};

// A job with the given pattern; everything else at its default.
inline JobSpec TestJob(const std::string& name, RwMode rw, uint64_t bs, uint64_t size) {
  JobSpec j;
  j.name = name;
  j.rw = rw;
  for (auto& b : j.bs) b.min = b.max = bs;
  j.size = size;
  return j;
}

// A TestJob on the null engine.
inline JobSpec NullJob(const std::string& name, RwMode rw = RwMode::kRead, uint64_t bs = 4096,
                       uint64_t size = 1 << 20) {
  JobSpec j = TestJob(name, rw, bs, size);
  j.ioengine = "null";
  return j;
}

}  // namespace iobench::testing
