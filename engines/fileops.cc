// The file-operation engines falloc and ftruncate (fio's engines of those
// names). They move no data: each I/O is one call on the file, done inside
// Queue(), which answers res = the I/O's length on success (the worker counts
// it as bytes done, as fio counts xfer_buflen) or -errno.
//
//   falloc     read   fallocate(FALLOC_FL_KEEP_SIZE, offset, length)
//              write  fallocate(0, offset, length): may grow the file
//              trim   fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE)
//   ftruncate  write  ftruncate(offset): bs only sets the next offset
//              read, trim: EINVAL, without a call (fio's engine)
//
// fsync, fdatasync and sync_file_range are the syscalls of those names.
// (fio 3.33 hands them to the same call: falloc repeats fallocate(0) at the
// last I/O's offset, with length 0 for fsync=N, which fails with EINVAL;
// ftruncate fails them with EINVAL.)
//
// fio's falloc opens every file read-write, a reading job's too: a read is
// an fallocate, which needs a writable descriptor. The worker opens a
// reading job's files read-only, so the engine reopens those read-write
// (at Init and FileReopened, never per I/O) through /proc/self/fd, the same
// inode even if the path changed since. Not a block device: the kernel
// takes only hole punches there, so a read is EOPNOTSUPP without a call
// (fio's error) and a reading job never opens a device for writing.
//
// Owned by one worker thread; no allocation and no locks after Init().
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "engines/engines.h"

namespace iobench {
namespace {

class FileOpEngine final : public Engine {
 public:
  explicit FileOpEngine(bool falloc) : falloc_(falloc) {}
  ~FileOpEngine() override { Shutdown(); }

  Status Init(const EngineContext& ctx) override {
    files_ = ctx.files;
    if (ctx.job != nullptr) sfr_flags_ = ctx.job->sync_file_range_flags;
    if (!falloc_ || files_ == nullptr) return Status::Ok();
    own_fds_.assign(files_->size(), -1);
    for (uint32_t i = 0; i < files_->size(); ++i) IOB_RETURN_IF_ERROR(OpenWritable(i));
    return Status::Ok();
  }

  Status FileReopened(uint32_t file_index) override {
    CloseOwn(file_index);
    return OpenWritable(file_index);
  }
  void FileClosing(uint32_t file_index) override { CloseOwn(file_index); }

  void Shutdown() override {
    for (uint32_t i = 0; i < own_fds_.size(); ++i) CloseOwn(i);
  }

  QueueResult Queue(IoRequest* req) override {
    ++counters_.submit_calls;
    ++counters_.submitted;
    if (req->op >= IoOp::kFsync)  // fsync, fdatasync, sync_file_range
      req->res = SyncOpNow(req, sfr_flags_);
    else
      req->res = falloc_ ? Fallocate(req) : Ftruncate(req);
    return QueueResult::kCompleted;
  }

  bool IsSync() const override { return true; }

 private:
  int64_t Fallocate(const IoRequest* req) const {
    int mode = 0;
    if (req->op == IoOp::kRead) mode = FALLOC_FL_KEEP_SIZE;
    if (req->op == IoOp::kTrim) mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
    // A read goes to the engine's own read-write descriptor, if it has one;
    // a write or a trim to the worker's (EBADF when that is read-only).
    int fd = req->fd;
    if (req->op == IoOp::kRead && req->file_index < own_fds_.size()) {
      if (own_fds_[req->file_index] >= 0)
        fd = own_fds_[req->file_index];
      else if ((*files_)[req->file_index].is_block_device && ReadOnly(fd))
        return -EOPNOTSUPP;
    }
    if (fallocate(fd, mode, static_cast<off_t>(req->offset), static_cast<off_t>(req->length)) != 0)
      return -errno;
    return static_cast<int64_t>(req->length);
  }

  static int64_t Ftruncate(const IoRequest* req) {
    if (req->op != IoOp::kWrite) return -EINVAL;
    if (ftruncate(req->fd, static_cast<off_t>(req->offset)) != 0) return -errno;
    return static_cast<int64_t>(req->length);
  }

  // falloc: a read-write descriptor of file i when the worker's is
  // read-only (a reading job); none otherwise.
  Status OpenWritable(uint32_t i) {
    if (files_ == nullptr || i >= files_->size() || i >= own_fds_.size()) return Status::Ok();
    const EngineFile& f = (*files_)[i];
    if (f.fd < 0) return Status::Ok();  // closed until its turn (openfiles)
    if (f.is_block_device || !ReadOnly(f.fd)) return Status::Ok();
    own_fds_[i] = open(("/proc/self/fd/" + std::to_string(f.fd)).c_str(), O_RDWR | O_CLOEXEC);
    if (own_fds_[i] < 0 && errno == ENOENT)  // no /proc mounted
      own_fds_[i] = open(f.path.c_str(), O_RDWR | O_CLOEXEC);
    if (own_fds_[i] < 0)
      return ErrnoStatus("falloc: open " + f.path +
                         " read-write (a falloc read is fallocate(FALLOC_FL_KEEP_SIZE), which "
                         "needs a writable descriptor)");
    return Status::Ok();
  }

  static bool ReadOnly(int fd) {
    const int mode = fcntl(fd, F_GETFL);
    return mode >= 0 && (mode & O_ACCMODE) == O_RDONLY;
  }

  void CloseOwn(uint32_t i) {
    if (i < own_fds_.size() && own_fds_[i] >= 0) {
      close(own_fds_[i]);
      own_fds_[i] = -1;
    }
  }

  const bool falloc_;
  const std::vector<EngineFile>* files_ = nullptr;
  std::vector<int> own_fds_;  // falloc: read-write descriptors of a reading job's files
  uint32_t sfr_flags_ = 0;
};

// Both engines move no data, so there is nothing to verify (fio's falloc
// would compare the buffers it never filled; ftruncate fails the reads).
// falloc works on regular files and block devices only, as fio 3.33's
// engine, whose open refuses anything else. (On a block device the kernel
// takes only the trim's hole punch: reads and writes fail with EOPNOTSUPP,
// as in fio.)
Status CheckFileOpJob(const char* engine, const JobSpec& job,
                      const std::vector<EngineFile>& files) {
  IOB_RETURN_IF_ERROR(RefuseVerifyWithoutData(engine, job));
  if (std::string(engine) != "falloc") return Status::Ok();
  for (const auto& f : files) {
    struct stat st {};
    if (!f.is_block_device && stat(f.path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
        !S_ISBLK(st.st_mode))
      return Status::Unsupported(
          "falloc: " +
          (job.FindSetting("filename") != nullptr ? SettingText(job, "filename") + ": " : "") +
          f.path +
          " is neither a regular file nor a block device: the falloc engine works on those "
          "only (fio's too)");
  }
  return Status::Ok();
}

// The registry's entry of falloc (kFalloc) or ftruncate: the factory and
// check are plain function pointers, so the engine is a template argument.
template <bool kFalloc>
EngineInfo FileOpInfo(const char* name, const char* help) {
  return {name,
          help,
          true,
          [] { return std::unique_ptr<Engine>(new FileOpEngine(kFalloc)); },
          [] { return Status::Ok(); },
          {},
          [](const JobSpec& job, const std::vector<EngineFile>& files) {
            return CheckFileOpJob(kFalloc ? "falloc" : "ftruncate", job, files);
          }};
}

}  // namespace

std::vector<EngineInfo> FileOpEngineInfos() {
  return {FileOpInfo<true>("falloc",
                           "fallocate per I/O, no data moved: read KEEP_SIZE, write allocates "
                           "(may grow the file), trim punches a hole"),
          FileOpInfo<false>("ftruncate",
                            "ftruncate per write to the I/O's offset (bs only moves the offset); "
                            "reads and trims fail with EINVAL")};
}

}  // namespace iobench
