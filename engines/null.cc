// The null engine: no I/O at all. Every request completes inside Queue() with
// res = length, so the whole worker pipeline (pattern, accounting, stats,
// reports) runs without a disk. Tests rely on its exact counts.
#include "engines/engines.h"

namespace iobench {
namespace {

class NullEngine final : public Engine {
 public:
  Status Init(const EngineContext&) override { return Status::Ok(); }
  QueueResult Queue(IoRequest* req) override {
    req->res =
        (req->op == IoOp::kFsync || req->op == IoOp::kFdatasync || req->op == IoOp::kSyncFileRange)
            ? 0
            : static_cast<int64_t>(req->length);
    ++counters_.submit_calls;
    ++counters_.submitted;
    return QueueResult::kCompleted;
  }
  bool IsSync() const override { return true; }
};

}  // namespace

EngineInfo NullEngineInfo() {
  return {"null",
          "no I/O: every request completes at once (exercises the whole pipeline)",
          true,
          [] { return std::unique_ptr<Engine>(new NullEngine()); },
          [] { return Status::Ok(); },
          {},
          nullptr};
}

}  // namespace iobench
