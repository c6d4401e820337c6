// The splice engine (fio's engine of that name): data moves between the
// file and the I/O buffer through a pipe the engine owns, inside Queue().
//
//   read   splice(file -> pipe) of at most 64 KiB (fio's SPLICE_DEF_SIZE;
//          SPLICE_F_MORE when more chunks follow), then vmsplice(pipe ->
//          buffer) until that chunk is in the buffer; repeated to the
//          I/O's length. read(2) of the pipe replaces vmsplice on a kernel
//          that cannot vmsplice to user memory (EBADF), as fio falls back.
//   write  poll(pipe, POLLOUT) and vmsplice(buffer -> pipe,
//          SPLICE_F_NONBLOCK): as much as the pipe takes, then
//          splice(pipe -> file) until the pipe is empty; repeated to the
//          I/O's length.
//
// As fio's: an error in any call fails the whole I/O with that errno (bytes
// moved before it are not reported). Unlike fio's, an I/O that finds the end
// of the file returns what it read (a short read, 0 at the end; fio's
// splice loops on the end of a file forever), and a splice to the file that
// moves nothing fails with ENOSPC (fio's loops too). After an error the pipe
// may hold bytes of the failed I/O: it is replaced, so the next I/O does not
// read them.
//
// Trim, fsync, fdatasync and sync_file_range are done as by the sync
// engines: fio 3.33 issues those itself, not through the splice engine
// (strace: BLKDISCARD, fdatasync, sync_file_range, as for psync).
//
// Owned by one worker thread; no allocation and no locks after Init().
#include <fcntl.h>
#include <poll.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <string>
#include <vector>

#include "engines/engines.h"

namespace iobench {
namespace {

// fio's SPLICE_DEF_SIZE: a read moves at most this much per splice, the
// default capacity of a pipe (16 pages).
constexpr uint64_t kSpliceChunk = 64 * 1024;

class SpliceEngine final : public Engine {
 public:
  ~SpliceEngine() override { Shutdown(); }

  Status Init(const EngineContext& ctx) override {
    files_ = ctx.files;
    if (ctx.job != nullptr) sfr_flags_ = ctx.job->sync_file_range_flags;
    if (!OpenPipe()) return ErrnoStatus("splice: pipe");
    return Status::Ok();
  }

  void Shutdown() override { ClosePipe(); }

  QueueResult Queue(IoRequest* req) override {
    ++counters_.submit_calls;
    ++counters_.submitted;
    if (req->op == IoOp::kRead)
      req->res = Read(req);
    else if (req->op == IoOp::kWrite)
      req->res = Write(req);
    else  // trim, fsync, fdatasync, sync_file_range: as the sync engines
      req->res = req->op == IoOp::kTrim ? TrimNow(files_, req) : SyncOpNow(req, sfr_flags_);
    return QueueResult::kCompleted;
  }

  bool IsSync() const override { return true; }

 private:
  int64_t Read(const IoRequest* req) {
    loff_t off = static_cast<loff_t>(req->offset);
    uint8_t* p = static_cast<uint8_t*>(req->buf);
    uint64_t left = req->length;
    while (left > 0) {
      const uint64_t chunk = std::min(left, kSpliceChunk);
      const ssize_t n =
          splice(req->fd, &off, pipe_[1], nullptr, chunk, chunk < left ? SPLICE_F_MORE : 0);
      if (n < 0) {
        if (errno == EINTR) continue;
        return -errno;  // nothing of this chunk is in the pipe
      }
      if (n == 0) break;  // end of file: a short read
      if (int64_t e = DrainTo(p, static_cast<uint64_t>(n)); e < 0) return Failed(e);
      p += n;
      left -= static_cast<uint64_t>(n);
    }
    return static_cast<int64_t>(req->length - left);
  }

  // Moves `n` bytes the pipe holds into `p`: 0 or -errno.
  int64_t DrainTo(uint8_t* p, uint64_t n) {
    while (n > 0) {
      ssize_t m;
      if (vmsplice_to_user_) {
        iovec iov{p, n};
        m = vmsplice(pipe_[0], &iov, 1, 0);
        if (m < 0 && errno == EBADF) {  // no vmsplice to user memory here
          vmsplice_to_user_ = false;
          continue;
        }
      } else {
        m = read(pipe_[0], p, n);
      }
      if (m < 0 && errno == EINTR) continue;
      if (m < 0) return -errno;
      if (m == 0) return -ENODATA;  // fio's error for a pipe that gives nothing
      p += m;
      n -= static_cast<uint64_t>(m);
    }
    return 0;
  }

  int64_t Write(const IoRequest* req) {
    loff_t off = static_cast<loff_t>(req->offset);
    iovec iov{req->buf, req->length};
    while (iov.iov_len > 0) {
      // The pipe is empty here: a non-blocking vmsplice moves at least a
      // page, up to the pipe's capacity, by reference to the buffer (which
      // stays unchanged until the splice below has written it out).
      // fio polls the pipe for room before each vmsplice: the same call
      // here, so a write costs what fio's does (it returns at once).
      pollfd pfd{pipe_[1], POLLOUT, 0};
      if (poll(&pfd, 1, -1) < 0) {
        if (errno == EINTR) continue;
        return -errno;
      }
      const ssize_t n = vmsplice(pipe_[1], &iov, 1, SPLICE_F_NONBLOCK);
      if (n < 0) {
        if (errno == EINTR) continue;
        return -errno;
      }
      for (ssize_t in_pipe = n; in_pipe > 0;) {
        const ssize_t m = splice(pipe_[0], nullptr, req->fd, &off, static_cast<size_t>(in_pipe), 0);
        if (m < 0 && errno == EINTR) continue;
        if (m < 0) return Failed(-errno);
        if (m == 0) return Failed(-ENOSPC);  // no progress: fio's would loop forever
        in_pipe -= m;
      }
      iov.iov_base = static_cast<uint8_t*>(iov.iov_base) + n;
      iov.iov_len -= static_cast<size_t>(n);
    }
    return static_cast<int64_t>(req->length);
  }

  // An I/O failed with bytes left in the pipe: a new, empty pipe for the
  // next one (rare path). Returns `err`.
  int64_t Failed(int64_t err) {
    ClosePipe();
    (void)OpenPipe();  // if it fails, the next I/O does with EBADF
    return err;
  }

  bool OpenPipe() { return pipe2(pipe_, O_CLOEXEC) == 0; }

  void ClosePipe() {
    for (int& fd : pipe_) {
      if (fd >= 0) close(fd);
      fd = -1;
    }
  }

  const std::vector<EngineFile>* files_ = nullptr;
  int pipe_[2] = {-1, -1};  // [0] read end, [1] write end
  uint32_t sfr_flags_ = 0;
  bool vmsplice_to_user_ = true;
};

}  // namespace

EngineInfo SpliceEngineInfo() {
  return {"splice",
          "splice(2) through a pipe: a read is splice(file -> pipe) + vmsplice(pipe -> buffer) "
          "in 64 KiB chunks, a write vmsplice(buffer -> pipe) + splice(pipe -> file)",
          true,
          [] { return std::unique_ptr<Engine>(new SpliceEngine()); },
          [] { return Status::Ok(); },
          {},
          nullptr};
}

}  // namespace iobench
