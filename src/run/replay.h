// fio I/O logs: recording what a job issues (write_iolog) and replaying a
// log instead of the job's rw= pattern (read_iolog, replay_*). Format and
// semantics: docs/replay.md.
//
// Who calls what:
//   PrepareReplayJob()  the coordinator (main thread), once per read_iolog job
//                       before anything runs: scans the whole log (streaming),
//                       makes the log's files the job's targets and checks
//                       every I/O fits its file. Every malformed line is
//                       found here, so a run never starts on a bad log.
//   IologReader         one per worker (numjobs clone), owned and called only
//                       by that worker's thread, on the slow path: it streams
//                       the log again, one entry per I/O (buffered reads, no
//                       allocation once the line buffer has grown).
//   IologRecorder       one per worker with write_iolog. The worker calls it
//                       per issued I/O (only on the slow path: a recording
//                       job never takes the fast one). Text goes into the
//                       run's LogWriter chunks: no syscall, no lock per I/O.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "iobench/engine.h"
#include "iobench/job.h"
#include "iobench/status.h"
#include "run/target.h"
#include "stats/iolog.h"

namespace iobench {

// The job's replay_* options, as the reader applies them.
struct ReplayOptions {
  bool no_stall = false;
  uint32_t time_scale = 100;  // percent
  std::string redirect;       // "" : the log's own file names
  uint64_t align = 0;         // power of 2, 0: off
  uint64_t scale = 1;
  uint8_t skip = 0;  // bit 1 << Ddir, kSkipSync
  // The log's bytes the check pass read (0: to its end): the replay stops
  // there, so lines appended after the check are never issued unchecked.
  uint64_t stop_at = 0;
  // Next() returns the log's file opens and closes too (ReplayEntry::action):
  // a file's first "open" and its last "close" (the lines are counted).
  bool file_events = false;
  static constexpr uint8_t kSkipSync = 8;
  static ReplayOptions FromJob(const JobSpec& job);
};

// One entry to replay: an I/O or a sync of a file, or (with
// ReplayOptions::file_events) the opening or closing of one, with its delay.
// Waits and the time stamps of the other lines are folded into the next
// entry's delay. The log's last entry may be
// wait_only: the time its last lines still hold (a close stamped after the
// last I/O, a v2 wait at the end), which fio waits out before the job ends.
enum class ReplayAction : uint8_t { kIo, kOpen, kClose };
struct ReplayEntry {
  ReplayAction action = ReplayAction::kIo;  // kOpen, kClose: file alone is set
  IoOp op = IoOp::kRead;   // kRead, kWrite, kTrim, kFsync, kFdatasync, kSyncFileRange
  uint32_t file = 0;       // index into IologReader::files()
  uint64_t offset = 0;     // after replay_scale and replay_align (0 for sync, datasync)
  uint64_t length = 0;     // 0 for sync, datasync; sync_file_range: the line's
  uint64_t delay_ns = 0;   // wait this long after the previous issue (log timing)
  uint64_t line = 0;       // 1-based line in the log
  bool wait_only = false;  // nothing to issue: wait delay_ns, then the log ends
};

class IologReader {
 public:
  // Opens the log and reads its header. Errors name the file: missing,
  // a blktrace binary (not replayed yet), not a fio iolog.
  static Result<std::unique_ptr<IologReader>> Open(const std::string& path,
                                                   const ReplayOptions& opts);
  ~IologReader();
  IologReader(const IologReader&) = delete;
  IologReader& operator=(const IologReader&) = delete;

  // Reads up to the next I/O or sync: true and *e filled; false at the end
  // of the log. Before that end, one wait_only entry when the lines after
  // the last I/O or sync still hold a delay. A malformed line is an error
  // naming path:line.
  Result<bool> Next(ReplayEntry* e);

  int version() const { return version_; }
  // The files in the order of their first "open" lines (with
  // replay_redirect: the redirect target alone); a file added and never
  // opened is not one. Grows while the log is read.
  const std::vector<std::string>& files() const { return files_; }
  // Per file: the line of its "add" (0 for the replay_redirect target).
  const std::vector<uint64_t>& add_lines() const { return add_line_; }
  // How many distinct files the "add" lines named so far.
  size_t added() const { return added_.size(); }
  // Entries replay_skip dropped so far.
  uint64_t skipped() const { return skipped_; }
  const std::string& path() const { return path_; }
  // Bytes of the log read so far.
  uint64_t bytes_read() const { return pos_; }

 private:
  IologReader(std::string path, const ReplayOptions& opts, FILE* f)
      : path_(std::move(path)), opts_(opts), f_(f) {}
  Status LineError(const std::string& what) const;
  // Parses one line; returns 1 with *e filled for an I/O or sync, 0 for a
  // line that issues nothing (file action, wait, skipped, blank), or an error.
  Result<int> ParseLine(char* line, ReplayEntry* e);
  // The file's index; an error if it is not added (or, with must_be_open,
  // not open), naming `what` is done on it ("I/O", "'sync'").
  Result<uint32_t> FileOf(const std::string& name, bool must_be_open, std::string_view what);
  uint64_t ScaleDelay(uint64_t us) const;
  // For a line of n fields that does not parse: " (the line reads as a
  // version 2 iolog line, but the header at line H says version 3)" when it
  // would parse under the other version, else "".
  std::string OtherVersionHint(const std::string_view* tok, int n) const;

  std::string path_;
  ReplayOptions opts_;
  FILE* f_ = nullptr;
  // Reads the next line into buf_ (NUL-terminated, newline kept): its
  // length; -1 at the end of the file; -2 for a line over kMaxLine bytes.
  ssize_t ReadLine();
  static constexpr size_t kMaxLine = 64 * 1024;
  std::unique_ptr<char[]> buf_{new char[kMaxLine + 1]};
  int version_ = 0;
  uint64_t line_ = 0;
  uint64_t header_line_ = 1;    // the line of the header in force
  uint64_t pos_ = 0;            // bytes read
  uint64_t last_stamp_us_ = 0;  // v3: the previous line's timestamp
  bool have_stamp_ = false;     // v3: last_stamp_us_ is set (in this run of the log)
  uint64_t pending_delay_ns_ = 0;
  uint64_t skipped_ = 0;
  std::vector<std::string> files_;
  std::vector<uint64_t> add_line_;
  std::vector<uint32_t> open_;        // per file: "open" lines less "close" lines so far
  std::vector<uint64_t> close_line_;  // per file: the line that last closed it (0: none)
  std::unordered_map<std::string, uint32_t> index_;
  std::unordered_map<std::string, uint64_t> added_;  // name -> its first "add" line
};

// What a log holds, from one pass over it (ScanIolog).
struct IologSummary {
  int version = 0;
  std::vector<std::string> files;
  uint64_t ios[kNumDdirs] = {0, 0, 0};
  uint64_t bytes[kNumDdirs] = {0, 0, 0};
  size_t open_max = 0;       // the most files the log holds open at once
  uint64_t syncs = 0;        // sync and datasync entries
  uint64_t sync_ranges = 0;  // sync_file_range entries
  uint64_t log_bytes = 0;    // the log's length as read: the replay stops there
  uint64_t min_len[kNumDdirs] = {0, 0, 0};
  uint64_t max_len[kNumDdirs] = {0, 0, 0};
  uint64_t max_len_line[kNumDdirs] = {0, 0, 0};  // the first line with max_len
  std::vector<uint64_t> end;                     // per file: the largest offset + length
  std::vector<uint64_t> end_line;                // per file: the line of that I/O
  std::vector<uint64_t> add_line;                // per file: its "add" line (0: replay_redirect's)
  size_t added = 0;                              // files named by "add" lines, opened or not
  uint64_t skipped = 0;                          // entries replay_skip dropped
};
Result<IologSummary> ScanIolog(const std::string& path, const ReplayOptions& opts);

// Turns a read_iolog job into the job the run core runs: the log's files
// become its targets (filename=), rw= follows the directions the log uses
// (open mode, safety checks, report), bs= its smallest and largest lengths
// (buffers). Checks that every I/O ends inside its file or device (size= lays
// missing files out; the null engine sizes them from the log). Refuses the
// options that do not combine with a replay. diskless: the null engine or a
// test's fake engine. Main thread; reads the whole log once.
Status PrepareReplayJob(JobSpec* job, bool diskless);

// Whether a replay job opens and closes its files as the log's "open" and
// "close" lines say (as fio does), so that it holds at most the log's
// open_max files at once; else (replay_redirect's one target, io_uring's
// registered files) every file stays open for the whole job.
bool ReplayFollowsFileLines(const JobSpec& job);

// A replay never lays out, extends or writes an existing file for size=:
// size= lays out the files the log names that are missing, and an existing
// file keeps its size (every I/O of the log is checked to end inside it).
// Applied to a replay job's resolved targets (no-op for other jobs), so a
// replay that only reads opens its files read-only, as fio's does.
void KeepExistingReplayFiles(const JobSpec& job, std::vector<TargetFile>* targets);

// When an entry `delay_ns` after the previous issue (at `last_issue_ns`) is
// due: the previous wait's overshoot comes off the delay, as fio's
// iolog_delay subtracts its time_offset, so the sleeps' lateness does not
// add up over a log; never before the previous issue.
inline uint64_t ReplayDueNs(uint64_t last_issue_ns, uint64_t delay_ns, uint64_t overshoot_ns) {
  return last_issue_ns + (delay_ns > overshoot_ns ? delay_ns - overshoot_ns : 0);
}

// No job records (write_iolog) into a log that a job of the run replays
// (read_iolog), whatever the spelling (./x.log, an absolute path, a symlink):
// the replay would read its own new lines and never end, filling the disk.
// phase_of: each job's phase (stonewall); jobs in different phases never
// run at the same time, so a log recorded in one phase may be replayed in
// another (empty: all in one phase).
Status CheckIologsApart(const std::vector<JobSpec>& jobs, const std::vector<int>& phase_of = {});

// Per job: true when its read_iolog is recorded (write_iolog) by a job of an
// earlier phase, or a job of an earlier phase runs a command (exec_prerun,
// exec_postrun) that may make or rewrite it. Such a job is reshaped
// (PrepareReplayJob) when its phase starts, once the log is written, not
// before the run.
std::vector<bool> ReplaysEarlierRecord(const std::vector<JobSpec>& jobs,
                                       const std::vector<int>& phase_of);

// write_iolog: fio's iolog version 3 text, appended to the file as fio does.
// Owned and called by one worker thread.
class IologRecorder {
 public:
  // Opens (appends to) path through writer and writes the header. files: the
  // worker's target paths, by file index. t0_ns: the time stamps' origin.
  static Result<std::unique_ptr<IologRecorder>> Create(const std::string& path,
                                                       std::vector<std::string> files,
                                                       LogWriter* writer, uint64_t t0_ns);
  ~IologRecorder();  // Finish()es
  IologRecorder(const IologRecorder&) = delete;
  IologRecorder& operator=(const IologRecorder&) = delete;

  enum class FileAction : uint8_t { kAdd, kOpen, kClose };
  void File(uint64_t now_ns, uint32_t file, FileAction action);
  // One issued I/O or sync (fio writes a sync's offset and length 0 too).
  // fio logs a file's "open" when its first I/O goes out (in each loop);
  // so does Io().
  void Io(uint64_t now_ns, uint32_t file, IoOp op, uint64_t offset, uint64_t length) {
    if (opened_[file] != kOpen) [[unlikely]] {
      opened_[file] = kOpen;
      File(now_ns, file, FileAction::kOpen);
    }
    char* p = Reserve(file);
    p = Stamp(p, now_ns, file);
    static constexpr const char* kOps[] = {"read", "write",    "trim",
                                           "sync", "datasync", "sync_file_range"};
    static_assert(static_cast<unsigned>(IoOp::kSyncFileRange) == 5);
    const char* op_name = kOps[static_cast<unsigned>(op) < 6 ? static_cast<unsigned>(op) : 0];
    const size_t n = std::char_traits<char>::length(op_name);
    std::memcpy(p, op_name, n);
    p += n;
    *p++ = ' ';
    p = AppendU64(p, offset);
    *p++ = ' ';
    p = AppendU64(p, length);
    last_offset_ = offset;
    *p++ = '\n';
    chunk_->len = static_cast<uint32_t>(p - chunk_->data);
  }
  // The job's final sync of every file (end_fsync, fsync_on_close): fio
  // logs it as a "sync" line per file, with the last I/O's offset, so a
  // replay of the log syncs as the job did.
  // A file that is not open (the job never came to it, or openfiles closed
  // it) is opened for its sync and closed again, as fio's fio_file_fsync
  // does.
  void SyncAll(uint64_t now_ns) {
    for (uint32_t i = 0; i < files_.size(); ++i) {
      const bool was_open = opened_[i] == kOpen;
      Io(now_ns, i, IoOp::kFsync, last_offset_, 0);
      if (!was_open) Close(now_ns, i);
    }
  }
  // The end of a loop that another follows (loops=N): fio closes every open
  // file when the loop's I/O runs out ("close"); its end sync (synced:
  // end_fsync, fsync_on_close) reopens each file to sync it ("open", "sync",
  // "close"); the next loop's first I/O on a file opens it again. A loop
  // that ended on its bytes instead (on_bytes: a queueing engine's, or the
  // job's io_size reached) syncs the files still open, then closes them.
  void LoopEnd(uint64_t now_ns, bool synced, bool on_bytes);
  // End of the job: "close" for every open file (a file that saw no I/O
  // has its "add" line alone, as in fio's log, which both tools replay),
  // then hands the last chunk to the writer. Idempotent.
  void Finish(uint64_t now_ns);
  // openfiles below the file count: the job closed `file` (its pass is
  // over, or a new loop starts): "close" if it is open, as fio logs it then.
  void Close(uint64_t now_ns, uint32_t file) {
    if (file >= opened_.size() || opened_[file] != kOpen) return;
    File(now_ns, file, FileAction::kClose);
    opened_[file] = kClosed;
  }

 private:
  IologRecorder(LogWriter* writer, int id, std::vector<std::string> files, uint64_t t0_ns)
      : writer_(writer),
        id_(id),
        files_(std::move(files)),
        opened_(files_.size(), kNever),
        t0_ns_(t0_ns) {}
  // Room for one line about `file` (time, name, action, two numbers).
  char* Reserve(uint32_t file) {
    const uint32_t need = static_cast<uint32_t>(files_[file].size()) + 96;
    if (chunk_ == nullptr || LogChunk::kBytes - chunk_->len < need) NextChunk();
    return chunk_->data + chunk_->len;
  }
  // The line's time, never before the previous line's: an I/O is stamped
  // with the time its batch was prepared, a file event (openfiles' close)
  // with the time it happens, so a close could come out after the next open
  // yet stamped later (fio's logs never go back).
  char* Stamp(char* p, uint64_t now_ns, uint32_t file) {
    const uint64_t us = std::max(now_ns > t0_ns_ ? (now_ns - t0_ns_) / 1000 : 0, last_us_);
    last_us_ = us;
    p = AppendU64(p, us);
    *p++ = ' ';
    std::memcpy(p, files_[file].data(), files_[file].size());
    p += files_[file].size();
    *p++ = ' ';
    return p;
  }
  void NextChunk();

  LogWriter* writer_;
  int id_;
  std::vector<std::string> files_;
  // Per file: kNever (no "open" line yet), kOpen, kClosed (by a loop's end).
  static constexpr uint8_t kNever = 0, kOpen = 1, kClosed = 2;
  std::vector<uint8_t> opened_;
  uint64_t t0_ns_;
  uint64_t last_offset_ = 0;  // the last Io()'s offset (SyncAll's lines carry it)
  uint64_t last_us_ = 0;      // the last line's time (Stamp)
  LogChunk* chunk_ = nullptr;
  bool finished_ = false;
};

}  // namespace iobench
