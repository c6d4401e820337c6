// The null engine: no I/O at all. Every request succeeds with res = length
// (0 for the syncs), so the whole worker pipeline (pattern, accounting,
// stats, reports) runs without a disk. Tests rely on its exact counts.
//
// It behaves as fio's null engine does, because its depth, submit and
// complete distributions, slat and loop counts are compared with fio's:
//   iodepth=1   synchronous: each request completes inside Queue().
//   iodepth>1   one batch at a time: Queue() holds requests until Commit(),
//               which issues all of them; while a batch is out, Queue()
//               answers kBusy, and Reap() returns the whole batch, whatever
//               its min and max (fio's getevents ignores them too). So the
//               depth is the size of each committed batch (iodepth_batch),
//               every I/O has a submission latency, and a job runs the
//               worker's queueing path like any asynchronous engine.
#include <algorithm>
#include <vector>

#include "engines/engines.h"

namespace iobench {
namespace {

class NullEngine final : public Engine {
 public:
  void Configure(const JobSpec& job) override { queues_ = job.iodepth > 1; }
  Status Init(const EngineContext& ctx) override {
    if (queues_) batch_.assign(std::max<uint32_t>(1, ctx.iodepth), nullptr);
    return Status::Ok();
  }
  QueueResult Queue(IoRequest* req) override {
    req->res =
        (req->op == IoOp::kFsync || req->op == IoOp::kFdatasync || req->op == IoOp::kSyncFileRange)
            ? 0
            : static_cast<int64_t>(req->length);
    if (!queues_) {
      ++counters_.submit_calls;
      ++counters_.submitted;
      return QueueResult::kCompleted;
    }
    if (events_ != 0) return QueueResult::kBusy;  // the batch out is reaped first
    batch_[queued_++] = req;
    return QueueResult::kQueued;
  }
  Result<unsigned> Commit() override {
    if (events_ != 0 || queued_ == 0) return 0u;
    events_ = queued_;
    queued_ = 0;
    ++counters_.submit_calls;
    counters_.submitted += events_;
    return events_;
  }
  Result<unsigned> Reap(unsigned min, unsigned max, IoRequest** out) override {
    (void)min;
    (void)max;
    const unsigned n = events_;
    if (n == 0) return 0u;
    events_ = 0;
    for (unsigned i = 0; i < n; ++i) out[i] = batch_[i];  // no memcpy call for a batch of one
    ++counters_.reap_calls;
    counters_.reaped += n;
    return n;
  }
  bool IsSync() const override { return !queues_; }
  bool OneBatchAtATime() const override { return queues_; }
  bool UsesHelperThreads() const override { return false; }

 private:
  bool queues_ = false;  // iodepth > 1 (Configure)
  // batch_[0, queued_): queued, not committed; batch_[0, events_): the
  // committed batch, complete, not reaped. One of the two counts is 0.
  std::vector<IoRequest*> batch_;
  unsigned queued_ = 0;
  unsigned events_ = 0;
};

}  // namespace

EngineInfo NullEngineInfo() {
  return {"null",
          "no I/O: every request completes at once (exercises the whole pipeline); "
          "at iodepth > 1 it queues and completes each committed batch, as fio's",
          false,
          [] { return std::unique_ptr<Engine>(new NullEngine()); },
          [] { return Status::Ok(); },
          {},
          nullptr};
}

}  // namespace iobench
