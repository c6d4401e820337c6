// A small driver that runs an Engine directly through the engine.h contract,
// without the run core's worker: a request pool with aligned buffers, and a
// loop that keeps the queue full (Queue until Busy or the pool is empty,
// Commit, Reap). Used by the engine_* tests only.
//
// It also checks the contract while it drives: every request handed to
// Queue() comes back exactly once (from Queue as kCompleted, or from Reap),
// and Reap never returns more than asked.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "iobench/engine.h"
#include "iobench/status.h"

namespace iobench::testing_engine {

// Runs a shell command, returns its stdout (trimmed) or "" on failure.
inline std::string RunCommand(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return "";
  std::string out;
  char buf[256];
  while (fgets(buf, sizeof(buf), p) != nullptr) out += buf;
  int rc = pclose(p);
  if (rc != 0) return "";
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

// A loop device over a backing file; detached and removed on destruction.
class LoopDevice {
 public:
  LoopDevice(const std::string& backing, uint64_t bytes) : backing_(backing) {
    if (geteuid() != 0) {
      why_ = "needs root for losetup";
      return;
    }
    int fd = open(backing.c_str(), O_CREAT | O_RDWR | O_TRUNC, 0600);
    if (fd < 0 || ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
      why_ = "cannot create " + backing;
      if (fd >= 0) close(fd);
      return;
    }
    close(fd);
    dev_ = RunCommand("losetup -f --show " + backing + " 2>/dev/null");
    if (dev_.empty()) why_ = "losetup -f failed (no free loop device?)";
  }
  ~LoopDevice() {
    if (!dev_.empty()) RunCommand("losetup -d " + dev_ + " 2>/dev/null");
    unlink(backing_.c_str());
  }
  bool ok() const { return !dev_.empty(); }
  const std::string& why() const { return why_; }
  const std::string& dev() const { return dev_; }

 private:
  std::string backing_, dev_, why_;
};

// Fills the request's buffer for a write: a byte pattern derived from the
// offset, so a read-back can tell which write it came from.
inline void FillPattern(void* buf, uint64_t len, uint64_t offset) {
  auto* p = static_cast<unsigned char*>(buf);
  for (uint64_t i = 0; i < len; ++i) p[i] = static_cast<unsigned char>(((offset + i) * 131) >> 3);
}
inline bool CheckPattern(const void* buf, uint64_t len, uint64_t offset) {
  auto* p = static_cast<const unsigned char*>(buf);
  for (uint64_t i = 0; i < len; ++i)
    if (p[i] != static_cast<unsigned char>(((offset + i) * 131) >> 3)) return false;
  return true;
}

class EngineRig {
 public:
  ~EngineRig() { Close(); }

  // Sets up the engine named `engine` over `files` (the rig takes ownership
  // of their fds) with a pool of job.iodepth requests of `stride` bytes.
  Status Open(const std::string& engine, const JobSpec& job, std::vector<EngineFile> files,
              uint64_t stride = 4096) {
    job_ = job;
    files_ = std::move(files);
    info_ = FindEngine(engine);
    if (info_ == nullptr || info_->factory == nullptr)
      return Status::NotFound("engine " + engine + " has no implementation");
    IOB_RETURN_IF_ERROR(info_->probe());
    depth_ = job_.iodepth == 0 ? 1 : job_.iodepth;
    stride_ = stride;
    const uint64_t bytes = stride_ * depth_;
    base_ = static_cast<char*>(std::aligned_alloc(4096, bytes));
    if (base_ == nullptr) return Status::Limit("aligned_alloc");
    std::memset(base_, 0, bytes);
    pool_.assign(depth_, IoRequest());
    for (uint32_t i = 0; i < depth_; ++i) {
      pool_[i].index = i;
      pool_[i].buf_index = i;
      pool_[i].buf = base_ + i * stride_;
    }
    in_flight_.assign(depth_, false);
    engine_ = info_->factory();
    EngineContext ctx;
    ctx.job = &job_;
    ctx.iodepth = depth_;
    ctx.files = &files_;
    ctx.requests = &pool_;
    ctx.buffer_base = base_;
    ctx.buffer_bytes = bytes;
    ctx.buffer_stride = stride_;
    Status st = engine_->Init(ctx);
    if (!st.ok()) engine_.reset();
    return st;
  }

  void Close() {
    if (engine_) engine_->Shutdown();
    engine_.reset();
    std::free(base_);
    base_ = nullptr;
    for (auto& f : files_)
      if (f.fd >= 0) close(f.fd);
    files_.clear();
  }

  Engine* engine() { return engine_.get(); }
  // What the worker does for unlink_each_loop: file `file` is now `fd` (the
  // rig closes the old one, takes ownership of the new one), and the engine
  // is told.
  Status Reopen(uint32_t file, int fd) {
    close(files_[file].fd);
    files_[file].fd = fd;
    return engine_->FileReopened(file);
  }
  // For tests that drive Queue/Commit/Reap by hand: request i of the pool
  // (its fd set to file 0's) and the start of the buffers.
  IoRequest& request(uint32_t i) {
    pool_[i].fd = files_.empty() ? -1 : files_[0].fd;
    return pool_[i];
  }
  char* buffer_base() { return base_; }
  const EngineInfo* info() const { return info_; }
  uint32_t depth() const { return depth_; }
  // Reap with min == 0 only (spin), to exercise non-blocking reaping paths.
  void set_poll_reap(bool on) { poll_reap_ = on; }
  // Commit after this many queued requests (iodepth_batch_submit); 0: depth.
  void set_batch(uint32_t b) { batch_ = b; }
  // Wait for completions with ReapFor(ns) instead of a blocking Reap; counts
  // the calls and those that came back empty.
  void set_timed_reap(uint64_t ns) { timed_reap_ns_ = ns; }
  uint64_t timed_reaps() const { return timed_reaps_; }
  uint64_t timed_empty() const { return timed_empty_; }

  using Prep = std::function<void(IoRequest* req, uint64_t i)>;
  using Done = std::function<void(IoRequest* req)>;

  // Runs `n` I/Os: prep(req, i) fills op/file/offset/length (and, for
  // writes, the buffer); done(req) sees each completion. Keeps the queue full.
  // Returns an error on a contract violation or an engine error Status.
  Status Run(uint64_t n, const Prep& prep, const Done& done) {
    std::vector<IoRequest*> free_list;
    for (auto& r : pool_) free_list.push_back(&r);
    std::vector<IoRequest*> reaped(depth_);
    uint64_t issued = 0, completed = 0;
    uint32_t since_commit = 0;
    const uint32_t batch = batch_ == 0 ? depth_ : batch_;
    auto complete = [&](IoRequest* r) -> Status {
      if (!in_flight_[r->index]) return Status::Internal("request completed twice or never queued");
      in_flight_[r->index] = false;
      ++completed;
      done(r);
      free_list.push_back(r);
      return Status::Ok();
    };
    while (completed < n) {
      bool busy = false;
      while (issued < n && !free_list.empty()) {
        IoRequest* req = free_list.back();
        {
          req->buf = base_ + req->index * stride_;
          req->res = 0;
          req->flags = 0;
          prep(req, issued);
          req->fd = files_[req->file_index].fd;
        }
        QueueResult q = engine_->Queue(req);
        if (q == QueueResult::kBusy) {
          busy = true;  // a new request is prepared again next round
          break;
        }
        free_list.pop_back();
        ++issued;
        in_flight_[req->index] = true;
        if (q == QueueResult::kCompleted) {
          IOB_RETURN_IF_ERROR(complete(req));
          continue;
        }
        if (++since_commit >= batch) {
          IOB_ASSIGN_OR_RETURN(unsigned c, engine_->Commit());
          (void)c;
          since_commit = 0;
        }
      }
      if (engine_->IsSync()) {
        if (busy) return Status::Internal("sync engine returned kBusy");
        continue;
      }
      IOB_ASSIGN_OR_RETURN(unsigned c, engine_->Commit());
      (void)c;
      since_commit = 0;
      if (completed >= n) break;
      const bool can_queue_more = issued < n && !free_list.empty();
      const unsigned min = (poll_reap_ || can_queue_more) ? 0 : 1;
      unsigned got = 0;
      if (timed_reap_ns_ != 0 && min == 1) {
        IOB_ASSIGN_OR_RETURN(got, engine_->ReapFor(depth_, reaped.data(), timed_reap_ns_));
        ++timed_reaps_;
        timed_empty_ += got == 0;
      } else {
        IOB_ASSIGN_OR_RETURN(got, engine_->Reap(min, depth_, reaped.data()));
      }
      if (got > depth_) return Status::Internal("Reap returned more than max");
      for (unsigned i = 0; i < got; ++i) IOB_RETURN_IF_ERROR(complete(reaped[i]));
    }
    for (bool f : in_flight_)
      if (f) return Status::Internal("a request is still in flight after all completed");
    return Status::Ok();
  }

  // One I/O; returns res. For writes `data` (length bytes) is copied in; for
  // reads the result is copied out into `data` when non-null.
  Result<int64_t> One(IoOp op, uint64_t offset, uint64_t length, void* data = nullptr,
                      uint32_t file = 0) {
    int64_t res = 0;
    Status st = Run(
        1,
        [&](IoRequest* r, uint64_t) {
          r->op = op;
          r->file_index = file;
          r->offset = offset;
          r->length = length;
          if (op == IoOp::kWrite && data != nullptr) std::memcpy(r->buf, data, length);
        },
        [&](IoRequest* r) {
          res = r->res;
          if (op == IoOp::kRead && data != nullptr && r->res > 0)
            std::memcpy(data, r->buf, static_cast<size_t>(r->res));
        });
    if (!st.ok()) return st;
    return res;
  }

 private:
  JobSpec job_;
  std::vector<EngineFile> files_;
  const EngineInfo* info_ = nullptr;
  std::unique_ptr<Engine> engine_;
  std::vector<IoRequest> pool_;
  std::vector<bool> in_flight_;
  char* base_ = nullptr;
  uint32_t depth_ = 1;
  uint64_t stride_ = 4096;
  uint32_t batch_ = 0;
  bool poll_reap_ = false;
  uint64_t timed_reap_ns_ = 0, timed_reaps_ = 0, timed_empty_ = 0;
};

}  // namespace iobench::testing_engine
