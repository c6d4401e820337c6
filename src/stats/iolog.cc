#include "stats/iolog.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

#include "iobench/clock.h"
#include "sys/job_paths.h"
#include "sys/procfs.h"
#include "sys/safety.h"

namespace iobench {

std::string_view LogKindInfix(LogKind kind) {
  switch (kind) {
    case LogKind::kBw:
      return "bw";
    case LogKind::kIops:
      return "iops";
    case LogKind::kSlat:
      return "slat";
    case LogKind::kClat:
      return "clat";
    case LogKind::kLat:
      return "lat";
    case LogKind::kClatHist:
      return "clat_hist";
  }
  return "?";
}

std::string LogFileName(std::string_view prefix, LogKind kind, int jobnum, bool per_job_logs) {
  std::string name(prefix);
  name += '_';
  name += LogKindInfix(kind);
  if (per_job_logs) {
    name += '.';
    name += std::to_string(jobnum + 1);
  }
  name += ".log";
  return name;
}

IoLogOptions IoLogOptions::FromJob(const JobSpec& spec) {
  IoLogOptions o;
  // A bare flag names the logs from the job, next to its name: fio's
  // [/dev/sdb] with write_bw_log (examples/disk-zone-profile.fio) creates
  // the regular file /dev/sdb_bw.1.log in /dev. Under /dev (/dev/shm
  // aside) iobench takes the name's last part, in the current directory.
  const std::string name_prefix = sys::JobNameFilePrefix(spec.name);
  const bool moved = name_prefix != spec.name;
  auto prefix = [&](const std::string& value, bool set) {
    if (!value.empty()) return value;
    return set ? name_prefix : std::string();
  };
  o.bw_prefix = prefix(spec.write_bw_log, spec.bw_log_set);
  o.iops_prefix = prefix(spec.write_iops_log, spec.iops_log_set);
  o.lat_prefix = prefix(spec.write_lat_log, spec.lat_log_set);
  o.hist_prefix = prefix(spec.write_hist_log, spec.hist_log_set);
  o.bw_where = sys::OptionWhere(spec, "write_bw_log");
  o.iops_where = sys::OptionWhere(spec, "write_iops_log");
  o.lat_where = sys::OptionWhere(spec, "write_lat_log");
  o.hist_where = sys::OptionWhere(spec, "write_hist_log");
  for (const std::string* p : {&o.bw_prefix, &o.iops_prefix, &o.lat_prefix, &o.hist_prefix}) {
    if (!moved || *p != name_prefix || !o.name_note.empty()) continue;
    o.name_note = "logs named from the job name " + spec.name +
                  " are written in the current directory as " + name_prefix +
                  "_*.log, not under /dev as fio would (" + spec.name +
                  "_*.log); write_bw_log=PREFIX (and the other log options) name them";
  }
  o.avg_msec = spec.log_avg_msec;
  o.rate_end_ns = spec.runtime_ns;
  o.hist_msec = spec.log_hist_msec;
  o.hist_coarseness = std::min<uint32_t>(spec.log_hist_coarseness, 6);
  o.log_offset = spec.log_offset;
  o.log_prio = spec.log_prio;
  o.per_job_logs = spec.per_job_logs;
  // fio 3.33 reads log_alternate_epoch_clock_id "if either log_unix_epoch
  // or log_alternate_epoch" is set (its default, 0, is CLOCK_REALTIME: the
  // Unix epoch): log_unix_epoch=1 with clock id 1 logs CLOCK_MONOTONIC ms.
  if (spec.log_alternate_epoch || spec.log_unix_epoch)
    o.epoch_clock = spec.log_alternate_epoch_clock_id;
  // fio's gtod_reduce(td): the three clocks it stamps are all off (what the
  // gtod_reduce option sets; a later disable_clat=0 turns it back on).
  const bool reduced = spec.disable_clat && spec.disable_slat && spec.disable_bw;
  o.log_slat = !spec.disable_slat;
  o.log_clat = !spec.disable_clat;
  o.log_lat = !spec.disable_lat;
  o.slat_file = o.log_slat;
  o.clat_file = o.log_clat;
  o.lat_file = o.log_lat;
  o.per_io_bw = !spec.disable_bw;
  o.per_io_iops = !reduced;
  return o;
}

// ---------------------------------------------------------------- LogWriter

struct LogWriter::Impl {
  struct File {
    std::string path;
    int fd = -1;
    bool failed = false;
    bool created = false;  // did not exist before Open
    std::string what;      // the option that asked for it (Open's what)
    uint64_t lines = 0;    // lines written to it
  };

  mutable std::mutex mu;
  std::condition_variable work_cv;  // the writer waits for queued chunks
  std::condition_variable free_cv;  // workers wait for a free chunk
  std::vector<std::unique_ptr<LogChunk>> all;
  std::vector<LogChunk*> free_list;
  std::deque<LogChunk*> queue;
  std::vector<File> files;
  std::map<std::string, int> by_path;
  size_t memory_chunks = 0;
  size_t streams = 0;
  bool stopping = false;
  bool stopped = false;
  bool busy = false;                // the writer thread is writing a chunk
  std::condition_variable idle_cv;  // Drain() waits for an empty queue
  Status first_error;
  bool out_of_memory = false;  // Run() caught std::bad_alloc: a chunk was lost
  Stats stats;
  std::vector<std::string> deleted;  // DeletedFiles()
  std::thread thread;

  size_t MaxChunks() const { return std::max(memory_chunks, 2 * streams + 2); }

  void Fail(Status st) {
    if (first_error.ok()) first_error = std::move(st);
  }

  // The writer thread: Loop() until it returns. No exception leaves the
  // thread (std::terminate lost the report): out of memory, the chunk being
  // written is lost, the failure is kept for Stop(), and the loop goes on,
  // so no worker waits for a free chunk in vain.
  void Run() {
    for (;;) {
      try {
        Loop();
        return;
      } catch (const std::bad_alloc&) {
        std::lock_guard<std::mutex> lock(mu);
        out_of_memory = true;
        busy = false;
        if (queue.empty()) idle_cv.notify_all();
      }
    }
  }

  // Runs on the writer thread. The mutex is dropped around write(2), so the
  // workers are never held up by the disk except through an empty pool.
  void Loop() {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      work_cv.wait(lock, [&] { return stopping || !queue.empty(); });
      if (queue.empty()) return;  // stopping and drained
      LogChunk* c = queue.front();
      queue.pop_front();
      busy = true;
      File& f = files[static_cast<size_t>(c->file)];
      const int fd = f.fd;
      const bool skip = f.failed;
      const std::string path = f.path;
      lock.unlock();
      Status st;
      uint64_t written = 0;
      if (!skip) {
        const char* p = c->data;
        size_t left = c->len;
        while (left > 0) {
          const ssize_t n = ::write(fd, p, left);
          if (n < 0) {
            if (errno == EINTR) continue;
            st = ErrnoStatus("write " + path);
            break;
          }
          p += n;
          left -= static_cast<size_t>(n);
          written += static_cast<uint64_t>(n);
        }
      }
      const auto lines = static_cast<uint64_t>(std::count(c->data, c->data + written, '\n'));
      lock.lock();
      files[static_cast<size_t>(c->file)].lines += lines;
      if (!st.ok()) {
        files[static_cast<size_t>(c->file)].failed = true;
        Fail(std::move(st));
      }
      stats.bytes_written += written;
      ++stats.chunks_written;
      c->len = 0;
      c->file = -1;
      free_list.push_back(c);
      free_cv.notify_one();
      busy = false;
      if (queue.empty()) idle_cv.notify_all();
    }
  }
};

LogWriter::LogWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::unique_ptr<LogWriter>> LogWriter::Create(size_t memory_limit) {
  auto impl = std::make_unique<Impl>();
  impl->memory_chunks = memory_limit / sizeof(LogChunk);
  std::unique_ptr<LogWriter> w(new LogWriter(std::move(impl)));
  Impl* raw = w->impl_.get();
  try {
    raw->thread = std::thread([raw] { raw->Run(); });
  } catch (const std::system_error& e) {
    return Status::Limit(std::string("log writer thread: ") + e.what());
  }
  return w;
}

LogWriter::~LogWriter() { (void)Stop(); }

Result<int> LogWriter::Open(const std::string& path, bool append, const std::string& what) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  if (impl_->stopping) return Status::Internal("log writer already stopped: " + path);
  ++impl_->streams;
  // Two chunks per stream up front (one being filled, one being written), so
  // a worker allocates only if the disk falls behind and the pool may grow.
  while (impl_->all.size() < 2 * impl_->streams) {
    impl_->all.push_back(std::make_unique<LogChunk>());
    impl_->free_list.push_back(impl_->all.back().get());
    ++impl_->stats.chunks_allocated;
  }
  auto it = impl_->by_path.find(path);
  if (it != impl_->by_path.end()) return it->second;
  struct stat st {};
  const bool found = ::stat(path.c_str(), &st) == 0;
  const bool created = !found && errno == ENOENT;
  // A block device, or an image under a mounted loop device, is not a log
  // file: O_TRUNC and the lines would land on its data.
  if (!created) IOB_RETURN_IF_ERROR(sys::CheckSideFileSafety(path, "a log"));
  // A FIFO's open blocks until a reader comes, here under the writer's
  // lock and out of reach of a stop signal (SA_RESTART): one with no reader
  // hung the run for good, and a first Ctrl-C did nothing. It is opened
  // without blocking, tried every 20 ms for up to 5 s (a reader started
  // just after the run, `iobench ... & cat fifo`), then an error.
  const bool fifo = found && S_ISFIFO(st.st_mode);
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
  int tries = 0;
  const int fd = fifo ? sys::OpenFifoWriter(path, flags, [&] { return ++tries > 250; })
                      : ::open(path.c_str(), flags, 0644);
  if (fd < 0 && fifo && errno == ENXIO)
    return Status(Status::Code::kIoError,
                  "open log file " + path +
                      ": it is a FIFO that no reader opened within 5 s (start the reader first)",
                  ENXIO);
  if (fd < 0) {
    const int err = errno;
    const std::string why = err == ENOENT ? sys::DeletedCwdReason(path) : "";
    return ErrnoStatus("open log file " + path + (why.empty() ? "" : " (" + why + ")") +
                           sys::OpenFilesLimitHint(err),
                       err);
  }
  const int id = static_cast<int>(impl_->files.size());
  impl_->files.push_back({path, fd, false, created, what, 0});
  impl_->by_path.emplace(path, id);
  return id;
}

size_t LogWriter::FileCount() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->files.size();
}

void LogWriter::RemoveCreatedSince(size_t first) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  for (size_t i = first; i < impl_->files.size(); ++i) {
    Impl::File& f = impl_->files[i];
    f.failed = true;  // anything still queued for it is dropped
    if (f.fd >= 0) ::close(f.fd);
    f.fd = -1;
    if (f.created) (void)::unlink(f.path.c_str());
  }
}

LogChunk* LogWriter::Acquire() {
  std::unique_lock<std::mutex> lock(impl_->mu);
  if (impl_->free_list.empty() && impl_->all.size() < impl_->MaxChunks()) {
    impl_->all.push_back(std::make_unique<LogChunk>());
    ++impl_->stats.chunks_allocated;
    return impl_->all.back().get();
  }
  if (impl_->free_list.empty()) {
    // Backpressure: the disk is slower than the log. Wait, and say so.
    const uint64_t t0 = NowNs();
    ++impl_->stats.stalls;  // counted when the wait starts, so it is observable
    impl_->free_cv.wait(lock, [&] { return !impl_->free_list.empty(); });
    impl_->stats.stall_ns += NowNs() - t0;
  }
  LogChunk* c = impl_->free_list.back();
  impl_->free_list.pop_back();
  return c;
}

void LogWriter::Submit(LogChunk* chunk) {
  if (chunk->len == 0) {
    Release(chunk);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->queue.push_back(chunk);
  }
  impl_->work_cv.notify_one();
}

void LogWriter::Drain() {
  std::unique_lock<std::mutex> lock(impl_->mu);
  impl_->idle_cv.wait(lock, [&] {
    return (impl_->queue.empty() && !impl_->busy) || impl_->stopped || !impl_->thread.joinable();
  });
}

void LogWriter::Release(LogChunk* chunk) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  chunk->len = 0;
  chunk->file = -1;
  impl_->free_list.push_back(chunk);
  impl_->free_cv.notify_one();
}

Status LogWriter::Stop() {
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    if (impl_->stopped) return impl_->first_error;
    impl_->stopping = true;
  }
  impl_->work_cv.notify_one();
  if (impl_->thread.joinable()) impl_->thread.join();
  std::lock_guard<std::mutex> lock(impl_->mu);
  for (auto& f : impl_->files) {
    // Removed while it was written (rm -rf of its directory, an
    // exec_postrun): the lines are in a file no name reaches, and the run
    // would end as if they were saved.
    if (std::string w = f.failed ? "" : sys::DeletedDuringRun(f.fd, f.what, f.path, f.lines);
        !w.empty())
      impl_->deleted.push_back(std::move(w));
    if (f.fd >= 0 && ::close(f.fd) != 0) impl_->Fail(ErrnoStatus("close " + f.path));
    f.fd = -1;
  }
  if (impl_->out_of_memory)
    impl_->Fail(sys::OutOfMemory("the log writer lost lines of the logs for want of memory"));
  impl_->stopped = true;
  return impl_->first_error;
}

std::vector<std::string> LogWriter::DeletedFiles() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->deleted;
}

LogWriter::Stats LogWriter::GetStats() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->stats;
}

std::string LogWriter::PathOf(int file) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  if (file < 0 || static_cast<size_t>(file) >= impl_->files.size()) return {};
  return impl_->files[static_cast<size_t>(file)].path;
}

std::vector<LogFile> LogFiles(const IoLogOptions& opts, int jobnum) {
  std::vector<LogFile> out;
  auto add = [&](const std::string& prefix, LogKind kind, const char* option,
                 const std::string& where) {
    out.push_back(
        {kind, option, prefix, LogFileName(prefix, kind, jobnum, opts.per_job_logs), where});
  };
  if (!opts.bw_prefix.empty()) add(opts.bw_prefix, LogKind::kBw, "write_bw_log", opts.bw_where);
  if (!opts.iops_prefix.empty())
    add(opts.iops_prefix, LogKind::kIops, "write_iops_log", opts.iops_where);
  if (!opts.lat_prefix.empty()) {
    if (opts.slat_file) add(opts.lat_prefix, LogKind::kSlat, "write_lat_log", opts.lat_where);
    if (opts.clat_file) add(opts.lat_prefix, LogKind::kClat, "write_lat_log", opts.lat_where);
    if (opts.lat_file) add(opts.lat_prefix, LogKind::kLat, "write_lat_log", opts.lat_where);
  }
  if (!opts.hist_prefix.empty())
    add(opts.hist_prefix, LogKind::kClatHist, "write_hist_log", opts.hist_where);
  return out;
}

// ----------------------------------------------------------------- IoLogger

IoLogger::IoLogger(const IoLogOptions& opts, LogWriter* writer)
    : writer_(writer),
      avg_ns_(MsToNs(opts.avg_msec)),
      hist_ns_(0),
      coarseness_(std::min<uint32_t>(opts.hist_coarseness, 6)),
      log_offset_(opts.log_offset),
      log_prio_(opts.log_prio),
      window_value_(opts.window_value),
      window_rate_dir_{opts.window_rate_dir[0], opts.window_rate_dir[1], opts.window_rate_dir[2]},
      epoch_clock_(opts.epoch_clock) {}

Result<std::unique_ptr<IoLogger>> IoLogger::Create(const IoLogOptions& opts, int jobnum,
                                                   LogWriter* writer) {
  if (opts.epoch_clock >= 0) {  // before any file is created
    timespec ts{};
    if (clock_gettime(static_cast<clockid_t>(opts.epoch_clock), &ts) != 0)
      return ErrnoStatus("log_alternate_epoch_clock_id=" + std::to_string(opts.epoch_clock) +
                         ": clock_gettime");
  }
  std::unique_ptr<IoLogger> l(new IoLogger(opts, writer));
  for (const LogFile& f : LogFiles(opts, jobnum)) {
    // Which option asked for the file, and where:
    // "write_lat_log=rodir/lat (job.fio:4): open log file ...".
    Result<int> opened = writer->Open(f.path, false, f.Named());
    if (!opened.ok()) return opened.status().WithContext(f.Named());
    l->streams_[static_cast<int>(f.kind)].file = *opened;
  }
  auto on = [&](LogKind kind) { l->per_io_kinds_ |= 1u << static_cast<int>(kind); };
  if (!opts.bw_prefix.empty() && (opts.avg_msec != 0 || opts.per_io_bw)) on(LogKind::kBw);
  if (!opts.iops_prefix.empty() && (opts.avg_msec != 0 || opts.per_io_iops)) on(LogKind::kIops);
  if (!opts.lat_prefix.empty()) {
    // As fio: the file of each latency the job does not disable exists;
    // one the engine does not measure (slat of a sync engine) stays empty.
    if (opts.log_slat && opts.slat_file) on(LogKind::kSlat);
    if (opts.log_clat && opts.clat_file) on(LogKind::kClat);
    if (opts.log_lat && opts.lat_file) on(LogKind::kLat);
  }
  if (!opts.hist_prefix.empty() && opts.hist_msec > 0 && opts.log_clat && opts.clat_file) {
    l->hist_ns_ = MsToNs(opts.hist_msec);
    l->hist_end_ns_ = l->hist_ns_;
    l->hist_.reset(new Histogram[kNumDdirs]);
  }
  l->win_end_ns_ = l->avg_ns_;
  if (l->avg_ns_ != 0) {
    // Each rate log's windows are the report's samples (IoLogOptions::bw_msec).
    const uint64_t msec[2] = {opts.bw_msec, opts.iops_msec};
    const LogKind kinds[2] = {LogKind::kBw, LogKind::kIops};
    for (int k = 0; k < 2; ++k) {
      if (!(l->per_io_kinds_ & (1u << static_cast<int>(kinds[k])))) continue;
      l->rate_ns_[k] = msec[k] != 0 ? MsToNs(msec[k]) : l->avg_ns_;
      l->rate_end_[k] = l->rate_ns_[k];
    }
  }
  l->next_close_ns_ = std::min({l->win_end_ns_, l->rate_end_[0], l->rate_end_[1]});
  if (opts.rate_end_ns != 0) l->rate_end_ns_ = opts.rate_end_ns;
  return l;
}

IoLogger::~IoLogger() {
  for (Stream& s : streams_) {
    if (s.chunk != nullptr) writer_->Release(s.chunk);
    s.chunk = nullptr;
  }
}

void IoLogger::NextChunk(Stream& s) {
  if (s.chunk != nullptr) writer_->Submit(s.chunk);
  s.chunk = writer_->Acquire();
  s.chunk->file = s.file;
  s.chunk->len = 0;
}

void IoLogger::CloseWindows(uint64_t t_ns, bool rates) {
  while (t_ns >= win_end_ns_) {
    EmitWindow(win_end_ns_ / 1000000);
    win_end_ns_ = SaturatingAddNs(win_end_ns_, avg_ns_);
  }
  for (int k = 0; k < 2; ++k) {
    while (t_ns >= rate_end_[k]) {
      EmitRate(k, rate_end_[k], rates && rate_end_[k] < rate_end_ns_);
      rate_end_[k] = SaturatingAddNs(rate_end_[k], rate_ns_[k]);
    }
  }
  next_close_ns_ = std::min({win_end_ns_, rate_end_[0], rate_end_[1]});
}

void IoLogger::EmitRate(int k, uint64_t end_ns, bool write) {
  const int kind = static_cast<int>(k == kRateBw ? LogKind::kBw : LogKind::kIops);
  const bool both = window_value_ == LogWindowValue::kBoth;
  for (unsigned d = 0; d < static_cast<unsigned>(kNumDdirs); ++d) {
    const uint64_t n = rate_count_[k][d] - rate_mark_[k][d];
    rate_mark_[k][d] = rate_count_[k][d];
    // As fio 3.33: no line for a direction without I/O in the window (fio's
    // lines skip idle windows; the next line covers its own window).
    if (!write || n == 0 || !window_rate_dir_[d]) continue;
    // KiB/s or I/O per second over the whole window, as the report's
    // sample. A window has one value, so its max is that value.
    const unsigned __int128 scaled = static_cast<unsigned __int128>(n) * 1000000000;
    const unsigned __int128 len = static_cast<unsigned __int128>(rate_ns_[k]);
    const uint64_t v = static_cast<uint64_t>(k == kRateBw ? scaled / (1024 * len) : scaled / len);
    ValueLine(kind, end_ns / 1000000, v, both ? &v : nullptr, d, 0, 0, 0);
  }
}

void IoLogger::EmitWindow(uint64_t end_ms) {
  const bool both = window_value_ == LogWindowValue::kBoth;
  for (unsigned d = 0; d < static_cast<unsigned>(kNumDdirs); ++d) {
    Window& w = win_[d];
    const struct {
      LogKind kind;
      const WinStat* st;
    } lats[] = {{LogKind::kSlat, &w.slat}, {LogKind::kClat, &w.clat}, {LogKind::kLat, &w.lat}};
    for (const auto& l : lats) {
      // A window's slat may have no sample (trims completed in the call, or
      // I/Os all issued in an earlier window), and its clat none (I/Os
      // issued in it, completed in a later one).
      if (!(per_io_kinds_ & (1u << static_cast<int>(l.kind))) || l.st->n == 0) continue;
      // fio's mean + 0.5, truncated: the nearest ns (1004.5 is 1005).
      const uint64_t avg = (l.st->sum + l.st->n / 2) / l.st->n;
      const uint64_t v = window_value_ == LogWindowValue::kMax ? l.st->max : avg;
      ValueLine(static_cast<int>(l.kind), end_ms, v, both ? &l.st->max : nullptr, d, 0, 0, 0);
    }
    w = Window();
  }
}

void IoLogger::CloseHist(uint64_t t_ns) {
  while (t_ns >= hist_end_ns_) {
    EmitHist(hist_end_ns_ / 1000000);
    hist_start_ns_ = hist_end_ns_;
    hist_end_ns_ = SaturatingAddNs(hist_end_ns_, hist_ns_);
  }
}

void IoLogger::StartEpoch() {
  if (epoch_clock_ < 0) return;
  timespec ts{};
  if (clock_gettime(static_cast<clockid_t>(epoch_clock_), &ts) != 0) return;  // checked in Create
  epoch_ms_ = static_cast<uint64_t>(ts.tv_sec) * 1000 + static_cast<uint64_t>(ts.tv_nsec) / 1000000;
}

void IoLogger::EmitHist(uint64_t t_ms) {
  const unsigned bins = Histogram::kNr >> coarseness_;
  const unsigned merge = 1u << coarseness_;
  const uint32_t need = 3 * 22 + bins * 22 + 2;
  const int kind = static_cast<int>(LogKind::kClatHist);
  for (unsigned d = 0; d < static_cast<unsigned>(kNumDdirs); ++d) {
    if (hist_ios_[d] == 0) continue;
    const Histogram& h = hist_[d];
    char* p = Reserve(kind, need);
    p = AppendU64(p, t_ms + epoch_ms_);
    *p++ = ',';
    *p++ = ' ';
    *p++ = static_cast<char>('0' + d);
    *p++ = ',';
    *p++ = ' ';
    p = AppendU64(p, hist_bs_[d]);
    for (unsigned b = 0; b < bins; ++b) {
      uint64_t sum = 0;
      for (unsigned k = 0; k < merge; ++k) sum += h.counts[b * merge + k];
      *p++ = ',';
      *p++ = ' ';
      p = AppendU64(p, sum);
    }
    *p++ = '\n';
    Commit(kind, p);
    hist_[d].Clear();
    hist_ios_[d] = 0;
  }
}

void IoLogger::Finish(uint64_t t_ns) {
  if (finished_) return;
  finished_ = true;
  if (avg_ns_ != 0 && per_io_kinds_ != 0) {
    // Windows that ended after the worker's last check (the one ending at
    // the runtime's end, when the job stopped right there) get latency lines
    // only: the report took no bw/iops sample of them, nor would fio's
    // helper thread, which stops sampling a job that has ended.
    CloseWindows(t_ns, /*rates=*/false);
    // The last, partial window, as fio 3.33's finalize_logs(): each
    // direction with I/O in it gets a slat/clat/lat line (mean or max of its
    // I/Os, however short the tail), at the job's end in whole ms (fio's
    // mtime_since_now(), truncated). bw/iops get none: fio's helper thread
    // computes those once per window and never samples the tail.
    EmitWindow(t_ns / 1000000);
  }
  if (hist_ns_ != 0) {
    CloseHist(t_ns);
    // fio drops the last partial interval; we keep it so the hist log sums
    // to the job's I/O count (counts, not rates: a short interval is fine).
    // Its time is the job's end rounded up to the ms, so it never repeats
    // the time of the full interval before it.
    EmitHist((t_ns + 999999) / 1000000);
  }
  for (Stream& s : streams_) {
    if (s.chunk != nullptr) writer_->Submit(s.chunk);
    s.chunk = nullptr;
  }
}

// ----------------------------------------------------------- AggregateBwLog

AggregateBwLog::AggregateBwLog(LogWriter* writer, uint64_t window_ms)
    : writer_(writer), window_ns_(MsToNs(window_ms ? window_ms : 1)) {}

Result<std::unique_ptr<AggregateBwLog>> AggregateBwLog::Create(LogWriter* writer,
                                                               const std::string& dir,
                                                               uint64_t window_ms) {
  std::unique_ptr<AggregateBwLog> a(new AggregateBwLog(writer, window_ms));
  static constexpr const char* kNames[kNumDdirs] = {"agg-read_bw.log", "agg-write_bw.log",
                                                    "agg-trim_bw.log"};
  for (int d = 0; d < kNumDdirs; ++d) {
    std::string path = dir.empty() ? std::string(kNames[d]) : dir + "/" + kNames[d];
    IOB_ASSIGN_OR_RETURN(a->file_[d], writer->Open(path));
  }
  return a;
}

AggregateBwLog::~AggregateBwLog() {
  for (LogChunk*& c : chunk_) {
    if (c != nullptr) writer_->Release(c);
    c = nullptr;
  }
}

void AggregateBwLog::Emit(uint64_t t_ns, const uint64_t bytes[kNumDdirs]) {
  const uint64_t dt = t_ns - last_ns_;
  if (dt == 0) return;
  for (int d = 0; d < kNumDdirs; ++d) {
    const uint64_t delta = bytes[d] >= last_bytes_[d] ? bytes[d] - last_bytes_[d] : 0;
    const uint64_t kib_s = static_cast<uint64_t>(static_cast<long double>(delta) * 1e9L /
                                                 static_cast<long double>(dt) / 1024.0L);
    if (chunk_[d] == nullptr || LogChunk::kBytes - chunk_[d]->len < 128) {
      if (chunk_[d] != nullptr) writer_->Submit(chunk_[d]);
      chunk_[d] = writer_->Acquire();
      chunk_[d]->file = file_[d];
    }
    char* start = chunk_[d]->data + chunk_[d]->len;
    char* p = AppendU64(start, t_ns / 1000000);
    std::memcpy(p, ", ", 2);
    p = AppendU64(p + 2, kib_s);
    *p++ = ',';
    *p++ = ' ';
    *p++ = static_cast<char>('0' + d);
    std::memcpy(p, ", 0, 0\n", 7);
    p += 7;
    chunk_[d]->len += static_cast<uint32_t>(p - start);
    last_bytes_[d] = bytes[d];
  }
  last_ns_ = t_ns;
}

void AggregateBwLog::Sample(uint64_t t_ns, const uint64_t bytes[kNumDdirs]) {
  if (finished_ || t_ns < SaturatingAddNs(last_ns_, window_ns_)) return;
  Emit(t_ns, bytes);
}

void AggregateBwLog::Finish(uint64_t t_ns, const uint64_t bytes[kNumDdirs]) {
  if (finished_) return;
  finished_ = true;
  if (t_ns > last_ns_ + 1000000) Emit(t_ns, bytes);  // a last window of >= 1 ms
  for (LogChunk*& c : chunk_) {
    if (c != nullptr) writer_->Submit(c);
    c = nullptr;
  }
}

}  // namespace iobench
