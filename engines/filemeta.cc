// The file-metadata engines filecreate, filestat and filedelete (fio's
// engines of those names). Each times one call on each file of the job, made
// where the worker would open the file (Engine::CallsPerFile): at the file's
// first I/O of each loop, or its turn with openfiles=. The worker records the
// call's time as a completion latency of the job's direction (read if the
// job reads, else write); the I/Os themselves move nothing, complete in
// Queue() without a call and record no latency, so clat has one sample per
// file per loop and IOPS is the job's blocks per second.
//
//   filecreate  open(O_CREAT | O_RDWR, 0600); the descriptor stays the
//               file's until the loop ends. Nothing is laid out: the file
//               is one block (the smallest bs) unless size=/filesize= say
//               more (coordinator: ShapeFileCreateJob).
//   filestat    stat(2), lstat(2) or statx(2) of the path (stat_type=);
//               the file is laid out as for any engine and never opened.
//   filedelete  unlink(2) of the path; laid out first, never opened. A
//               second loop finds it gone (ENOENT), as fio's does.
//
// Owned by one worker thread; no allocation after Init().
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "engines/engines.h"

namespace iobench {
namespace {

enum class MetaCall : uint8_t { kCreate, kStat, kDelete };

class FileMetaEngine final : public Engine {
 public:
  explicit FileMetaEngine(MetaCall call) : call_(call) {}

  void Configure(const JobSpec& job) override { stat_type_ = job.stat_type; }
  Status Init(const EngineContext& ctx) override {
    (void)ctx;
    return Status::Ok();
  }

  // Nothing to do: the work was the file's call. Bytes count as done (fio
  // counts the block), syncs as made.
  QueueResult Queue(IoRequest* req) override {
    req->res = req->op >= IoOp::kFsync ? 0 : static_cast<int64_t>(req->length);
    return QueueResult::kCompleted;
  }
  int EndSync(uint32_t file_index, int fd) override {
    (void)file_index;
    (void)fd;
    return 0;  // nothing was written through the descriptor
  }

  bool IsSync() const override { return true; }
  bool CallsPerFile() const override { return true; }

  Result<int> FileCall(const EngineFile& file) override {
    const char* path = file.path.c_str();
    switch (call_) {
      case MetaCall::kCreate: {
        const int fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
        if (fd < 0) return ErrnoStatus("filecreate: open(" + file.path + ", O_CREAT)");
        return fd;
      }
      case MetaCall::kStat: {
        static const char* const kNames[] = {"stat", "lstat", "statx"};
        int r;
        if (stat_type_ == 2) {
          struct statx stx {};
          r = statx(AT_FDCWD, path, 0, STATX_BASIC_STATS | STATX_BTIME, &stx);
        } else {
          struct stat st {};
          r = stat_type_ == 1 ? lstat(path, &st) : stat(path, &st);
        }
        if (r != 0)
          return ErrnoStatus(std::string("filestat: ") + kNames[stat_type_ < 3 ? stat_type_ : 0] +
                             "(" + file.path + ")");
        return -1;
      }
      case MetaCall::kDelete:
        if (unlink(path) != 0) return ErrnoStatus("filedelete: unlink(" + file.path + ")");
        return -1;
    }
    return -1;
  }

 private:
  const MetaCall call_;
  uint8_t stat_type_ = 0;
};

// Files only, as fio's engines: a device's node would be created, stat'ed
// or unlinked, not the device used. (fio 3.33 prints "only files are
// supported", does no I/O and exits 0; a refusal says what to change.)
Status CheckFileMetaJob(const char* engine, const JobSpec& job,
                        const std::vector<EngineFile>& files) {
  IOB_RETURN_IF_ERROR(RefuseVerifyWithoutData(engine, job));
  for (const auto& f : files) {
    struct stat st {};
    if (f.is_block_device ||
        (stat(f.path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
      return Status::Unsupported(
          std::string(engine) + ": " +
          (job.FindSetting("filename") != nullptr ? SettingText(job, "filename") + ": " : "") +
          f.path + " is not a regular file: the " + engine +
          " engine works on files only (fio 3.33 prints \"only files are supported\" and "
          "does no I/O)");
  }
  return Status::Ok();
}

template <MetaCall kCall>
EngineInfo FileMetaInfo(const char* name, const char* help, std::vector<std::string> options) {
  return {name,
          help,
          true,
          [] { return std::unique_ptr<Engine>(new FileMetaEngine(kCall)); },
          [] { return Status::Ok(); },
          std::move(options),
          [](const JobSpec& job, const std::vector<EngineFile>& files) {
            return CheckFileMetaJob(kCall == MetaCall::kCreate ? "filecreate"
                                    : kCall == MetaCall::kStat ? "filestat"
                                                               : "filedelete",
                                    job, files);
          }};
}

}  // namespace

std::vector<EngineInfo> FileMetaEngineInfos() {
  return {FileMetaInfo<MetaCall::kCreate>(
              "filecreate",
              "times open(O_CREAT) of each file as its clat; no data moved, no layout", {}),
          FileMetaInfo<MetaCall::kStat>(
              "filestat", "times stat/lstat/statx (stat_type=) of each file as its clat; no data",
              {"stat_type"}),
          FileMetaInfo<MetaCall::kDelete>(
              "filedelete", "times unlink of each file as its clat; the files are gone after", {})};
}

}  // namespace iobench
