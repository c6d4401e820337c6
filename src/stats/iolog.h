// Per-interval and per-I/O logs in fio's file formats (write_bw_log,
// write_iops_log, write_lat_log, write_hist_log), so fio2gnuplot,
// fio_generate_plots and fiologparser_hist read ours. Formats: docs/logs.md.
//
// Two pieces:
//   LogWriter  one per run. Owns the files and one background thread that
//              writes full chunks of text. Created by the main thread before
//              the workers start; Stop() after they are joined.
//   IoLogger   one per worker (numjobs clone), owned and called only by that
//              worker's thread. OnComplete() is the per-I/O hot path: no
//              allocation, no lock, no syscall, no virtual call. Text goes
//              into a fixed-size chunk; only when a 64 KiB chunk is full does
//              the worker take the writer's mutex once to hand it over.
//
// Memory is bounded: the writer owns at most max(memory_limit / kChunkBytes,
// 2 * streams + 2) chunks. When none is free (the disk cannot keep up with the
// log), the worker waits for the writer to return one: backpressure, never a
// silent drop. Every wait is counted (LogWriter::GetStats) so the report can
// say the log slowed the run down.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "iobench/histogram.h"
#include "iobench/job.h"
#include "iobench/status.h"

namespace iobench {

// log_window_value (newer fio; fio 3.33 has the bool log_max_value, which
// maps to kAvg/kMax): JobSpec::log_window_value, parsed by the option table.
enum class LogWindowValue : uint8_t { kAvg, kMax, kBoth };

// The log kinds and their file-name infixes (PREFIX_<infix>[.N].log).
enum class LogKind : uint8_t { kBw = 0, kIops, kSlat, kClat, kLat, kClatHist };
inline constexpr int kNumLogKinds = 6;
std::string_view LogKindInfix(LogKind kind);  // "bw", "iops", "slat", "clat", "lat", "clat_hist"

// fio's file name: PREFIX_INFIX.N.log with N = number + 1 (number: the job's
// 0-based place among all jobs and clones of the run, fio's thread_number - 1),
// or PREFIX_INFIX.log
// when per_job_logs is false (then every clone shares the file).
std::string LogFileName(std::string_view prefix, LogKind kind, int jobnum, bool per_job_logs);

// Everything IoLogger needs; FromJob() fills it from a JobSpec.
struct IoLogOptions {
  std::string bw_prefix;  // "" = off
  std::string iops_prefix;
  std::string lat_prefix;  // slat, clat and lat files
  std::string hist_prefix;
  // Where each option was set ("job.fio:4", "<cmdline>"; sys::OptionWhere),
  // for a message about its file: bw, iops, lat, hist.
  std::string bw_where, iops_where, lat_where, hist_where;
  uint64_t avg_msec = 0;  // 0: one line per I/O
  // With avg_msec: the windows of the bw (iops) lines, 0 = avg_msec. The
  // worker sets them to its bwavgtime (iopsavgtime): fio adds a bw (iops)
  // log entry only when its helper thread takes a report sample, so its
  // windowed bw (iops) log has one line per sample, whatever avg_msec is
  // (bwavgtime=1000 with log_avg_msec=250: a line a second, not four).
  uint64_t bw_msec = 0;
  uint64_t iops_msec = 0;
  uint64_t hist_msec = 0;        // 0: no hist lines (fio: the file stays empty)
  uint32_t hist_coarseness = 0;  // 0..6: merge 2^c adjacent buckets
  bool log_offset = false;
  bool log_prio = false;
  bool per_job_logs = true;
  LogWindowValue window_value = LogWindowValue::kAvg;
  // log_unix_epoch / log_alternate_epoch: the clock_gettime clock whose time
  // (in ms) at StartEpoch() the time column adds; -1: times from the job's
  // start (fio's default).
  int epoch_clock = -1;
  // Which latencies are measured. fio writes an empty slat file for engines
  // that complete inside submission (psync, null): the worker knows that, the
  // spec does not, so the lead clears log_slat for such engines.
  bool log_slat = true;
  bool log_clat = true;
  bool log_lat = true;
  // fio creates no file at all for a latency the job disables (disable_slat,
  // disable_clat, disable_lat, gtod_reduce), unlike one the engine does not
  // measure (log_slat false alone: an empty file). With clat disabled the
  // hist log stays empty too (fio has no completion latencies to bin).
  bool slat_file = true;
  bool clat_file = true;
  bool lat_file = true;
  // Per-I/O (avg_msec 0) bw and iops lines: fio 3.33 writes no bw line per
  // I/O with disable_bw_measurement, and neither bw nor iops lines with
  // gtod_reduce (their files exist and stay empty). Window lines are kept.
  bool per_io_bw = true;
  bool per_io_iops = true;
  // The directions that get window (avg_msec) bw and iops lines: those the
  // job itself reads, writes or trims (the report's bw/iops samples). A
  // write job's verify reads get none, as in fio 3.33, whose windowed bw/iops
  // count the job's own I/O only (its latency lines include them).
  bool window_rate_dir[kNumDdirs] = {true, true, true};
  // The measured period's length (the job's runtime), 0 if unbounded. A
  // window ending at or after it gets no bw/iops line: fio's helper thread
  // never samples the window that ends with the job (runtime=1 with 500 ms
  // windows: one line, at 500), and neither does the report (Worker::TakeSamples).
  uint64_t rate_end_ns = 0;

  // When a bare flag's prefix is not the job name as fio uses it (a job
  // named under /dev: its last part, in the current directory), what the
  // report should say about it; "" otherwise.
  std::string name_note;

  // Prefixes: the option's string, or the job name for a bare flag (*_set with
  // an empty string; for a name under /dev other than /dev/shm, its last
  // part). slat/clat/lat from disable_* and gtod_reduce.
  static IoLogOptions FromJob(const JobSpec& spec);
  bool Any() const {
    return !bw_prefix.empty() || !iops_prefix.empty() || !lat_prefix.empty() ||
           !hist_prefix.empty();
  }
};

// One log file a clone writes: the option that asks for it and its path.
struct LogFile {
  LogKind kind;
  const char* option;  // "write_bw_log", "write_iops_log", "write_lat_log", "write_hist_log"
  std::string prefix;
  std::string path;   // LogFileName(prefix, kind, jobnum, per_job_logs)
  std::string where;  // where the option was set: "job.fio:4", "<cmdline>"
  // "write_bw_log=x (job.fio:4)", for a message about the file.
  std::string Named() const { return std::string(option) + "=" + prefix + " (" + where + ")"; }
};
// The files IoLogger::Create opens for clone `jobnum` (its place in the run),
// in that order: bw, iops, slat, clat, lat (those the job does not disable),
// clat_hist. The pre-run checks use it too (--output naming a log).
std::vector<LogFile> LogFiles(const IoLogOptions& opts, int jobnum);

// A fixed-size piece of log text for one file. Lines never straddle chunks,
// so chunks of different workers sharing a file (per_job_logs=0) interleave
// only at line boundaries.
struct LogChunk {
  static constexpr uint32_t kBytes = 64 * 1024;
  int file = -1;
  uint32_t len = 0;
  char data[kBytes];
};

class LogWriter {
 public:
  static constexpr size_t kDefaultMemoryLimit = 32u << 20;  // 512 chunks

  struct Stats {
    uint64_t bytes_written = 0;
    uint64_t chunks_written = 0;
    uint64_t stalls = 0;    // times a worker waited for a free chunk
    uint64_t stall_ns = 0;  // total time workers waited
    uint64_t chunks_allocated = 0;
  };

  // Starts the writer thread. REQUIRES: main thread, before workers start.
  static Result<std::unique_ptr<LogWriter>> Create(size_t memory_limit = kDefaultMemoryLimit);
  ~LogWriter();  // Stop()s if the owner did not.
  LogWriter(const LogWriter&) = delete;
  LogWriter& operator=(const LogWriter&) = delete;

  // Opens (creates, truncates) path once per run and returns its id; opening
  // the same path again returns the same id (per_job_logs=0 sharing). Each
  // call also reserves pool room for one more stream. Any thread; not hot.
  // append: add to the end of an existing file (write_iolog, as fio does).
  // what: the option that asked for the file, for a warning about it
  // ("write_bw_log=x (job.fio:4)"); the first Open of a path names it.
  Result<int> Open(const std::string& path, bool append = false, const std::string& what = "");

  // Worker side. Acquire() returns an empty chunk, waiting (counted) when the
  // memory cap is reached. Submit() queues a chunk for writing; chunks of one
  // thread for one file are written in submission order.
  LogChunk* Acquire();
  void Submit(LogChunk* chunk);
  // Returns an unused chunk to the pool without writing it.
  void Release(LogChunk* chunk);
  // Waits until every chunk submitted so far is written to its file (a
  // replay in a later phase reads the write_iolog an earlier one recorded).
  // Main thread, between phases.
  void Drain();

  // Writes everything queued, closes the files, joins the thread. Returns the
  // first write/close error ("write t_bw.1.log: No space left on device").
  // REQUIRES: every IoLogger is Finish()ed. Idempotent.
  Status Stop();
  // After Stop(): one line for each file that was unlinked while iobench
  // wrote it (st_nlink 0 on its fd before the close): the lines went to a
  // file no name reaches ("write_bw_log=x (job.fio:4): x_bw.1.log was
  // deleted during the run; its 120 lines are lost").
  std::vector<std::string> DeletedFiles() const;

  Stats GetStats() const;
  std::string PathOf(int file) const;

  // Files opened so far; with RemoveCreatedSince(n) a failed setup takes back
  // the files opened after FileCount() returned n: they are closed (nothing
  // more is written to them) and those Open created are removed. Main thread,
  // with no worker logging.
  size_t FileCount() const;
  void RemoveCreatedSince(size_t first);

 private:
  struct Impl;
  explicit LogWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Appends the decimal form of v; returns the new end. dst needs 20 bytes.
inline char* AppendU64(char* dst, uint64_t v) {
  char tmp[20];
  int n = 0;
  do {
    tmp[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) *dst++ = tmp[--n];
  return dst;
}

class IoLogger {
 public:
  // Opens this clone's files through writer. jobnum is the clone's 0-based
  // place among all the run's jobs and clones (files are numbered jobnum + 1,
  // as fio numbers them by thread_number). REQUIRES: writer outlives this.
  static Result<std::unique_ptr<IoLogger>> Create(const IoLogOptions& opts, int jobnum,
                                                  LogWriter* writer);
  ~IoLogger();  // hands back held chunks without writing them if not Finish()ed
  IoLogger(const IoLogger&) = delete;
  IoLogger& operator=(const IoLogger&) = delete;

  // One I/O issued with a submission latency, as fio's add_slat_sample: the
  // slat line (or window sample) has the submission's time t_ns, so the slat
  // file is in submission order and a window holds the slats of the I/Os
  // issued in it. Only for an I/O whose slat the report counts (not a sync
  // engine's, not one completed inside the submit call, not one issued in
  // the ramp): the slat log has as many lines as the report's slat N.
  void OnSubmit(uint64_t t_ns, Ddir ddir, uint64_t bytes, uint64_t slat_ns, uint64_t offset,
                uint16_t prio) {
    constexpr int kSlat = static_cast<int>(LogKind::kSlat);
    if (!(per_io_kinds_ & (1u << kSlat))) return;
    const unsigned d = static_cast<unsigned>(ddir);
    if (avg_ns_ == 0) {
      ValueLine(kSlat, t_ns / 1000000, slat_ns, nullptr, d, bytes, offset, prio);
      return;
    }
    if (t_ns >= next_close_ns_) CloseWindows(t_ns, true);
    win_[d].slat.Add(slat_ns);
  }

  // A clat sample that is no I/O's: an engine's per-file call
  // (Engine::CallsPerFile), which fio's filecreate/filestat/filedelete log
  // through add_clat_sample, with no block size and offset 0.
  void OnCallClat(uint64_t t_ns, Ddir ddir, uint64_t clat_ns) {
    constexpr int kClat = static_cast<int>(LogKind::kClat);
    if (!(per_io_kinds_ & (1u << kClat))) return;
    const unsigned d = static_cast<unsigned>(ddir);
    if (avg_ns_ == 0) {
      ValueLine(kClat, t_ns / 1000000, clat_ns, nullptr, d, 0, 0, 0);
      return;
    }
    if (t_ns >= next_close_ns_) CloseWindows(t_ns, true);
    win_[d].clat.Add(clat_ns);
  }

  // One completed I/O. t_ns: time since the job started (after ramp, as for
  // the report); latencies in ns; prio: the ioprio value (class << 13 | level).
  // Hot path: inline, no allocation, no lock except a chunk handoff per 64 KiB.
  void OnComplete(uint64_t t_ns, Ddir ddir, uint64_t bytes, uint64_t clat_ns, uint64_t lat_ns,
                  uint64_t offset, uint16_t prio) {
    const unsigned d = static_cast<unsigned>(ddir);
    if (avg_ns_ == 0) {
      if (per_io_kinds_ != 0) LogOne(t_ns, d, bytes, clat_ns, lat_ns, offset, prio);
    } else if (per_io_kinds_ != 0) {
      if (t_ns >= next_close_ns_) CloseWindows(t_ns, true);
      ++rate_count_[kRateIops][d];
      rate_count_[kRateBw][d] += bytes;
      Window& w = win_[d];
      w.clat.Add(clat_ns);
      w.lat.Add(lat_ns);
    }
    if (hist_ns_ != 0) {
      if (t_ns >= hist_end_ns_) CloseHist(t_ns);
      hist_[d].Add(clat_ns);
      ++hist_ios_[d];
      hist_bs_[d] = bytes;
    }
  }

  // Closes windows that ended by t_ns when no I/O completes (thinktime, a
  // stalled device). Call from the worker's loop, e.g. when it waits.
  void Tick(uint64_t t_ns) {
    if (avg_ns_ != 0 && per_io_kinds_ != 0 && t_ns >= next_close_ns_) CloseWindows(t_ns, true);
    if (hist_ns_ != 0 && t_ns >= hist_end_ns_) CloseHist(t_ns);
  }

  // End of the job at t_ns: closes the windows that ended since the last
  // OnComplete/Tick and the partial last one, with slat/clat/lat lines only
  // (per direction with I/O in it; the partial one's time = t_ns truncated to
  // the ms): no bw/iops line, as fio 3.33, whose helper thread samples no
  // window once the job has ended, and as the report's samples, which the
  // worker takes at the same checks as the Tick()s. Then the partial hist
  // interval, and hands every chunk to the writer. Idempotent.
  void Finish(uint64_t t_ns);

  uint64_t lines() const { return lines_; }

  // The job's measured time starts now: with an epoch_clock, later lines add
  // that clock's time in ms. Call once, from the worker, before the first
  // line is written.
  void StartEpoch();

 private:
  struct WinStat {
    uint64_t n = 0, sum = 0, max = 0;
    void Add(uint64_t v) {
      ++n;
      sum += v;
      if (v > max) max = v;
    }
  };
  // A latency window (avg_msec): a direction's line needs a sample of it.
  struct Window {
    WinStat slat, clat, lat;
  };
  // The bw and iops windows (bw_msec, iops_msec), each on its own grid.
  enum : int { kRateBw = 0, kRateIops = 1 };
  struct Stream {
    int file = -1;
    LogChunk* chunk = nullptr;
  };

  IoLogger(const IoLogOptions& opts, LogWriter* writer);

  // Returns where a line of up to `need` bytes may be written in kind's chunk.
  char* Reserve(int kind, uint32_t need) {
    Stream& s = streams_[kind];
    if (s.chunk == nullptr || LogChunk::kBytes - s.chunk->len < need) NextChunk(s);
    return s.chunk->data + s.chunk->len;
  }
  void Commit(int kind, char* end) {
    LogChunk* c = streams_[kind].chunk;
    c->len = static_cast<uint32_t>(end - c->data);
    ++lines_;
  }
  // ", prio" or ", 0x%04x" as fio prints the command priority column.
  char* AppendPrio(char* p, uint16_t prio) const {
    *p++ = ',';
    *p++ = ' ';
    if (!log_prio_) {
      *p++ = (prio >> 13) == 1 ? '1' : '0';  // 1: IOPRIO_CLASS_RT
      return p;
    }
    static constexpr char kHex[] = "0123456789abcdef";
    *p++ = '0';
    *p++ = 'x';
    for (int shift = 12; shift >= 0; shift -= 4) *p++ = kHex[(prio >> shift) & 0xf];
    return p;
  }
  // One value line: "time, value[, max], ddir, bs[, offset], prio\n".
  void ValueLine(int kind, uint64_t t_ms, uint64_t value, const uint64_t* max, unsigned ddir,
                 uint64_t bs, uint64_t offset, uint16_t prio) {
    char* p = Reserve(kind, kMaxValueLine);
    p = AppendU64(p, t_ms + epoch_ms_);
    *p++ = ',';
    *p++ = ' ';
    p = AppendU64(p, value);
    if (max != nullptr) {
      *p++ = ',';
      *p++ = ' ';
      p = AppendU64(p, *max);
    }
    *p++ = ',';
    *p++ = ' ';
    *p++ = static_cast<char>('0' + ddir);
    *p++ = ',';
    *p++ = ' ';
    p = AppendU64(p, bs);
    if (log_offset_) {
      *p++ = ',';
      *p++ = ' ';
      p = AppendU64(p, offset);
    }
    p = AppendPrio(p, prio);
    *p++ = '\n';
    Commit(kind, p);
  }
  void LogOne(uint64_t t_ns, unsigned d, uint64_t bytes, uint64_t clat_ns, uint64_t lat_ns,
              uint64_t offset, uint16_t prio) {
    const uint64_t t_ms = t_ns / 1000000;
    if (per_io_kinds_ & (1u << static_cast<int>(LogKind::kBw))) {
      // fio's per-I/O bandwidth: bytes over the completion latency, in the
      // same units as its window lines (bytes/ms ~ KiB/s).
      const uint64_t v = bytes * 1000000 / (clat_ns != 0 ? clat_ns : 1);
      ValueLine(static_cast<int>(LogKind::kBw), t_ms, v, nullptr, d, bytes, offset, prio);
    }
    if (per_io_kinds_ & (1u << static_cast<int>(LogKind::kIops)))
      ValueLine(static_cast<int>(LogKind::kIops), t_ms, 1, nullptr, d, bytes, offset, prio);
    if (per_io_kinds_ & (1u << static_cast<int>(LogKind::kClat)))
      ValueLine(static_cast<int>(LogKind::kClat), t_ms, clat_ns, nullptr, d, bytes, offset, prio);
    if (per_io_kinds_ & (1u << static_cast<int>(LogKind::kLat)))
      ValueLine(static_cast<int>(LogKind::kLat), t_ms, lat_ns, nullptr, d, bytes, offset, prio);
  }

  void NextChunk(Stream& s);  // submits the full chunk, acquires a new one
  // Closes the latency and rate windows that ended by t_ns. rates: bw/iops
  // lines for the rate windows that end before rate_end_ns_.
  void CloseWindows(uint64_t t_ns, bool rates);
  // slat/clat/lat lines of the window ending at end_ms, per direction with
  // a sample of that latency in it.
  void EmitWindow(uint64_t end_ms);
  // The bw (kRateBw) or iops line of each direction with I/O in the rate
  // window ending at end_ns (none unless write).
  void EmitRate(int k, uint64_t end_ns, bool write);
  void CloseHist(uint64_t t_ns);
  void EmitHist(uint64_t t_ms);

  static constexpr uint32_t kMaxValueLine = 160;

  LogWriter* writer_;
  uint64_t avg_ns_;
  uint64_t hist_ns_;
  uint32_t coarseness_;
  bool log_offset_;
  bool log_prio_;
  LogWindowValue window_value_;
  bool window_rate_dir_[kNumDdirs];
  uint32_t per_io_kinds_ = 0;  // bit per LogKind (except hist) that is on
  int epoch_clock_ = -1;
  uint64_t epoch_ms_ = 0;  // added to every time column (StartEpoch)
  bool finished_ = false;
  uint64_t lines_ = 0;
  Stream streams_[kNumLogKinds];

  uint64_t rate_end_ns_ = UINT64_MAX;  // windows ending at or after it: no bw/iops line
  uint64_t win_end_ns_ = 0;
  Window win_[kNumDdirs];
  uint64_t rate_ns_[2] = {0, 0};                     // bw, iops window lengths
  uint64_t rate_end_[2] = {UINT64_MAX, UINT64_MAX};  // end of the open bw, iops window
  uint64_t rate_count_[2][kNumDdirs] = {};           // bytes, I/Os completed so far
  uint64_t rate_mark_[2][kNumDdirs] = {};            // ... at the last rate window's end
  // The earliest of win_end_ns_ and rate_end_: one compare per I/O.
  uint64_t next_close_ns_ = UINT64_MAX;

  uint64_t hist_start_ns_ = 0;
  uint64_t hist_end_ns_ = 0;
  uint64_t hist_ios_[kNumDdirs] = {0, 0, 0};
  uint64_t hist_bs_[kNumDdirs] = {0, 0, 0};
  std::unique_ptr<Histogram[]> hist_;  // one interval histogram per ddir
};

// --bandwidth-log: aggregate bandwidth of all jobs, fio's agg-read_bw.log,
// agg-write_bw.log and agg-trim_bw.log in the current directory. Lines
// "time_ms, KiB/s, ddir, 0, 0", one per direction per window.
// Owned and called by one thread (the main/status thread), which feeds it the
// summed LiveCounters bytes now and then (e.g. on each status tick); a window
// closes at the first Sample() at or after its end.
class AggregateBwLog {
 public:
  static constexpr uint64_t kDefaultWindowMs = 500;  // fio's bwavgtime
  // dir: where the files go ("" = current directory).
  static Result<std::unique_ptr<AggregateBwLog>> Create(LogWriter* writer, const std::string& dir,
                                                        uint64_t window_ms = kDefaultWindowMs);
  ~AggregateBwLog();
  // t_ns since the run started; bytes: cumulative per direction.
  void Sample(uint64_t t_ns, const uint64_t bytes[kNumDdirs]);
  void Finish(uint64_t t_ns, const uint64_t bytes[kNumDdirs]);

 private:
  AggregateBwLog(LogWriter* writer, uint64_t window_ms);
  void Emit(uint64_t t_ns, const uint64_t bytes[kNumDdirs]);
  LogWriter* writer_;
  uint64_t window_ns_;
  uint64_t last_ns_ = 0;
  uint64_t last_bytes_[kNumDdirs] = {0, 0, 0};
  int file_[kNumDdirs] = {-1, -1, -1};
  LogChunk* chunk_[kNumDdirs] = {nullptr, nullptr, nullptr};
  bool finished_ = false;
};

}  // namespace iobench
