// Each engine file exports its registry row(s); engines/registry.cc lists them
// once, in one table (no static self-registration: a static library would drop it).
#pragma once

#include <fcntl.h>

#include <cerrno>
#include <optional>
#include <string>
#include <vector>

#include "iobench/engine.h"

namespace iobench {

EngineInfo NullEngineInfo();                  // engines/null.cc
std::vector<EngineInfo> SyncEngineInfos();    // engines/sync.cc: sync psync vsync pvsync pvsync2
std::vector<EngineInfo> FileOpEngineInfos();  // engines/fileops.cc: falloc ftruncate
EngineInfo SpliceEngineInfo();                // engines/splice.cc
EngineInfo CpuioEngineInfo();                 // engines/cpuio.cc
std::vector<EngineInfo>
FileMetaEngineInfos();              // engines/filemeta.cc: filecreate filestat filedelete
EngineInfo LibaioEngineInfo();      // engines/libaio.cc
EngineInfo PosixAioEngineInfo();    // engines/posixaio.cc
EngineInfo IoUringEngineInfo();     // engines/io_uring.cc
EngineInfo IoUringCmdEngineInfo();  // engines/io_uring.cc (not available yet)

// verify= on an engine that moves no data (falloc, ftruncate, the
// file-metadata engines): refused before the run, naming the option.
inline Status RefuseVerifyWithoutData(const std::string& engine, const JobSpec& job) {
  if (job.verify.type == VerifyType::kNone) return Status::Ok();
  return Status::Unsupported(engine + ": " + SettingText(job, "verify") + ": the " + engine +
                             " engine moves no data, so there is nothing to verify; drop "
                             "verify or use another engine (psync)");
}

// sync_file_range(2) of the request's range, done in the call by every engine
// (no engine has an asynchronous form): 0 or -errno.
inline int64_t SyncFileRangeNow(const IoRequest* req, unsigned flags) {
  if ((req->flags & kReqEmptyRange) != 0) return 0;  // no call (fio)
  return sync_file_range(req->fd, static_cast<off64_t>(req->offset),
                         static_cast<off64_t>(req->length), flags) == 0
             ? 0
             : -errno;
}

// fsync, fdatasync or sync_file_range of the request's file, done in the
// call (the syncs of the synchronous engines, libaio and falloc/ftruncate):
// 0 or -errno.
inline int64_t SyncOpNow(const IoRequest* req, unsigned sfr_flags) {
  if (req->op == IoOp::kSyncFileRange) return SyncFileRangeNow(req, sfr_flags);
  const int r = req->op == IoOp::kFdatasync ? fdatasync(req->fd) : fsync(req->fd);
  return r == 0 ? 0 : -errno;
}

// Trim done in the call: BLKDISCARD on a block device, a hole punch in a
// file. The sync engines and libaio (which has no discard opcode; fio's
// libaio trims in the call too) use it. Bytes trimmed or -errno.
int64_t TrimNow(const std::vector<EngineFile>* files, const IoRequest* req);

// Queue() of libaio and posixaio for the operations AIO has no form of:
// sync_file_range and trim are done in the call (as fio's libaio does); a
// trim waits (kBusy) until the `unsubmitted` requests queued before it have
// been submitted. nullopt: `req` is another operation, for the engine.
inline std::optional<QueueResult> QueueInCall(IoRequest* req, unsigned unsubmitted,
                                              const std::vector<EngineFile>* files,
                                              unsigned sfr_flags) {
  if (req->op == IoOp::kSyncFileRange) {
    req->res = SyncFileRangeNow(req, sfr_flags);
    return QueueResult::kCompleted;
  }
  if (req->op != IoOp::kTrim) return std::nullopt;
  if (unsubmitted > 0) return QueueResult::kBusy;
  req->res = TrimNow(files, req);
  return QueueResult::kCompleted;
}

}  // namespace iobench
