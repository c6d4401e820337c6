#include "run/replay.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "run/target.h"
#include "sys/job_paths.h"
#include "sys/strings.h"
#include "sys/target.h"

namespace iobench {

namespace {

constexpr char kV2Header[] = "fio version 2 iolog";
constexpr char kV3Header[] = "fio version 3 iolog";

// blktrace's per-event magic (struct blk_io_trace): 0x65617400 | version,
// in either byte order depending on the host that traced.
bool IsBlktraceMagic(const unsigned char* b, size_t n) {
  if (n < 4) return false;
  const uint32_t le = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<uint32_t>(b[3]) << 24);
  const uint32_t be = b[3] | (b[2] << 8) | (b[1] << 16) | (static_cast<uint32_t>(b[0]) << 24);
  return (le & 0xffffff00u) == 0x65617400u || (be & 0xffffff00u) == 0x65617400u;
}

// 2 or 3 for a header line ("fio version N iolog", trailing white space and
// CR allowed: fio compares only the header's text), 0 for any other line.
int HeaderVersion(std::string_view line) {
  while (!line.empty() &&
         (line.back() == '\n' || line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
    line.remove_suffix(1);
  if (line == kV2Header) return 2;
  if (line == kV3Header) return 3;
  return 0;
}

bool ParseU64(std::string_view s, uint64_t* v) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && p == s.data() + s.size();
}

// Why a field is not a u64: "is not a number", or, for digits alone, "is
// out of range" (the largest is 2^64 - 1).
std::string NotU64(std::string_view what, std::string_view s) {
  uint64_t v;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range && p == s.data() + s.size())
    return std::string(what) + " '" + std::string(s) + "' is out of range (the largest is " +
           std::to_string(UINT64_MAX) + ")";
  return std::string(what) + " '" + std::string(s) + "' is not a number";
}

// The actions of a line with an offset and a length (v2's "wait" aside).
bool IsIologIoAction(std::string_view act) {
  return act == "read" || act == "write" || act == "trim" || act == "sync" || act == "datasync" ||
         act == "sync_file_range";
}

bool IsIologFileAction(std::string_view act) {
  return act == "add" || act == "open" || act == "close";
}

// Whether a line's fields would parse as a line of iolog `version` (its
// shape, action and numbers; not its files): a line that fails under its
// header's version but fits the other one was likely written for it.
bool FitsIologVersion(const std::string_view* tok, int n, int version) {
  uint64_t v = 0;
  const int at = version == 3 ? 1 : 0;
  if (version == 3 && !ParseU64(tok[0], &v)) return false;
  if (n - at == 2) return IsIologFileAction(tok[at + 1]);
  if (n - at != 4) return false;
  const std::string_view act = tok[at + 1];
  return (IsIologIoAction(act) || (version == 2 && act == "wait")) && ParseU64(tok[at + 2], &v) &&
         ParseU64(tok[at + 3], &v);
}

std::string SettingWhere(const JobSpec& job, const char* name) {
  const OptionSetting* s = job.FindSetting(name);
  return s == nullptr ? "<default>" : s->Where();
}

// "job 'J' (JOBFILE:LINE): read_iolog LOG": the job, where its read_iolog=
// is set, and the log ("job 'J': read_iolog LOG" when it has no place). A
// log's line number follows it. A later phase's failure, whose report line
// names the job already, keeps the place (WithoutJobName).
std::string ReplayWho(const JobSpec& job) {
  const OptionSetting* s = job.FindSetting("read_iolog");
  return "job '" + job.name + "'" + (s != nullptr ? " (" + s->Where() + ")" : "") +
         ": read_iolog " + sys::ReadIologPath(job);
}

// "read_iolog LOG:LINE: an I/O ends at byte E, past the end of FILE (S
// bytes)". E is where the I/O issued ends: "after replay_scale=N" says so
// when the job's replay_scale or replay_align moved it. A file that size=
// will lay out (missing now) is said to be one.
Status PastEnd(const JobSpec& job, uint64_t line, uint64_t end, const std::string& path,
               uint64_t size, bool laid_out = false) {
  std::string moved;
  if (job.replay_scale > 1) moved = "replay_scale=" + std::to_string(job.replay_scale);
  if (job.replay_align != 0)
    moved +=
        (moved.empty() ? "replay_align=" : " and replay_align=") + std::to_string(job.replay_align);
  return Status::Invalid(ReplayWho(job) + ":" + std::to_string(line) + ": an I/O ends at byte " +
                         std::to_string(end) + (moved.empty() ? "" : " (after " + moved + ")") +
                         ", past the end of " + path +
                         (laid_out ? " (missing: size= will lay it out at " : " (") +
                         std::to_string(size) + " bytes)");
}

// Where the log names file i: "job 'J' (JOBFILE:LINE): read_iolog LOG:LINE"
// (its add line), or `otherwise` for the replay_redirect target.
std::string AtAddLine(const JobSpec& job, const IologSummary& s, size_t i,
                      const std::string& otherwise) {
  if (i >= s.add_line.size() || s.add_line[i] == 0) return otherwise;
  return ReplayWho(job) + ":" + std::to_string(s.add_line[i]);
}

// A target check's error ("job 'J': target /dev/zero is a character
// device ...") about a file of the log: names the log line that adds it.
Status AtFileLine(const JobSpec& job, const IologSummary& s, const Status& st) {
  const std::string& msg = st.message();
  size_t best = s.files.size();
  for (size_t i = 0; i < s.files.size(); ++i)
    if (msg.find(s.files[i]) != std::string::npos &&
        (best == s.files.size() || s.files[i].size() > s.files[best].size()))
      best = i;
  if (best == s.files.size() || s.add_line[best] == 0) return st;
  const std::string label = "job '" + job.name + "': ";
  const std::string rest =
      msg.compare(0, label.size(), label) == 0 ? msg.substr(label.size()) : msg;
  return Status(st.code(), AtAddLine(job, s, best, "") + ": " + rest, st.errno_value());
}

// What the report says about a replay: the header line shows the reshaped
// job (the log's directions and lengths), so a note names the log, what it
// holds and the job's own options that did not apply. fio's header shows
// the job as written (rw=randread, bs=64k), which is not what it replays.
// paths: the log's files as the replay opens them (directory= joined).
std::string ReplayNote(const JobSpec& job, const IologSummary& s,
                       const std::vector<std::string>& paths) {
  std::string what;
  auto add = [&](uint64_t n, const char* one, const char* many) {
    if (n == 0) return;
    what += (what.empty() ? "" : ", ") + std::to_string(n) + " " + (n == 1 ? one : many);
  };
  add(s.ios[0], "read", "reads");
  add(s.ios[1], "write", "writes");
  add(s.ios[2], "trim", "trims");
  add(s.syncs, "sync", "syncs");
  add(s.sync_ranges, "sync_file_range", "sync_file_ranges");
  if (s.sync_ranges != 0) {  // the log does not carry them (PrepareReplay)
    std::string flags;
    const uint32_t f = job.sync_file_range_flags;
    if (f & SYNC_FILE_RANGE_WAIT_BEFORE) flags += "wait_before";
    if (f & SYNC_FILE_RANGE_WRITE) flags += std::string(flags.empty() ? "" : ",") + "write";
    if (f & SYNC_FILE_RANGE_WAIT_AFTER)
      flags += std::string(flags.empty() ? "" : ",") + "wait_after";
    what += " (flags " + flags + ")";
  }
  if (what.empty()) what = "no I/O";
  std::string files;
  for (size_t i = 0; i < paths.size() && i < 3; ++i) files += (i ? ", " : "") + paths[i];
  if (paths.size() > 3) files += ", ... (" + std::to_string(paths.size()) + " files)";
  std::string note = "replayed read_iolog " + sys::ReadIologPath(job) + " (fio iolog version " +
                     std::to_string(s.version) + "): " + what + " on " + files;
  if (s.skipped != 0) {  // not replayed, so not counted above
    const OptionSetting* skip = job.FindSetting("replay_skip");
    note += ", replay_skip" + (skip != nullptr ? "=" + skip->value : std::string()) + " dropped " +
            std::to_string(s.skipped) + (s.skipped == 1 ? " entry" : " entries");
  }
  note += "; rw= and bs= in the job line are the log's";
  std::string unused;
  for (const char* name : {"rw", "bs", "bsrange", "bssplit", "filename", "nrfiles", "offset"}) {
    const OptionSetting* set = job.FindSetting(name);
    if (set == nullptr) continue;
    unused += (unused.empty() ? "" : ", ") + std::string(name) + "=" + set->value + " (" +
              SettingWhere(job, name) + ")";
  }
  if (!unused.empty()) note += "; the job's own " + unused + " did not apply";
  return note;
}

}  // namespace

ReplayOptions ReplayOptions::FromJob(const JobSpec& job) {
  ReplayOptions o;
  o.no_stall = job.replay_no_stall;
  o.time_scale = std::max<uint32_t>(1, job.replay_time_scale);
  o.redirect = job.replay_redirect;
  o.align = job.replay_align;
  o.scale = std::max<uint64_t>(1, job.replay_scale);
  o.skip = job.replay_skip;
  o.stop_at = job.read_iolog_bytes;
  return o;
}

// ------------------------------------------------------------- IologReader

Result<std::unique_ptr<IologReader>> IologReader::Open(const std::string& path,
                                                       const ReplayOptions& opts) {
  // Only a regular file: iobench reads the log twice (PrepareReplayJob, then
  // each clone), and opening a FIFO with no writer would block for ever.
  struct stat st {};
  const bool known = stat(path.c_str(), &st) == 0;
  if (known && S_ISDIR(st.st_mode))
    return Status::Invalid("read_iolog " + path + ": is a directory, not a log file");
  if (known && !S_ISREG(st.st_mode))
    return Status::Invalid("read_iolog " + path + ": " +
                           (S_ISFIFO(st.st_mode)   ? "is a FIFO"
                            : S_ISSOCK(st.st_mode) ? "is a socket"
                                                   : "is a device") +
                           ", not a regular file (iobench reads the log twice: once to check "
                           "it, once to replay it)");
  FILE* f = std::fopen(path.c_str(), "re");
  if (f == nullptr) return ErrnoStatus("read_iolog: open " + path);
  std::unique_ptr<IologReader> r(new IologReader(path, opts, f));
  // Large reads: the worker pulls one line per I/O from here.
  std::setvbuf(f, nullptr, _IOFBF, 256 * 1024);
  const ssize_t n = r->ReadLine();
  if (n == -1) {
    if (std::ferror(f)) return ErrnoStatus("read_iolog: read " + path);
    return Status::Invalid("read_iolog " + path + ": the file is empty, not a fio iolog");
  }
  r->line_ = 1;
  const auto* head = reinterpret_cast<const unsigned char*>(r->buf_.get());
  if (IsBlktraceMagic(head, n < 0 ? 4 : static_cast<size_t>(n)))
    return Status::Unsupported("read_iolog " + path +
                               ": this is a blktrace binary trace; iobench does not replay "
                               "blktrace yet (only fio iolog versions 2 and 3)");
  if (n < 0) return r->LineError("not a fio iolog header (the first line is over 64 KiB)");
  std::string_view first(r->buf_.get(), static_cast<size_t>(n));
  r->version_ = HeaderVersion(first);
  if (r->version_ == 0) {
    while (!first.empty() && (first.back() == '\n' || first.back() == '\r')) first.remove_suffix(1);
    // Escaped as the later lines' messages show their text (\x1b), NUL and
    // non-ASCII bytes too (\x00, \xff): a binary file's first bytes read
    // as what they are, not as '?'.
    std::string shown;
    for (const char c : first.substr(0, 60)) {
      if (static_cast<unsigned char>(c) < 0x80) {  // NUL, ESC: \x00, \x1b
        shown += sys::Printable(std::string_view(&c, 1));
        continue;
      }
      static constexpr char kHex[] = "0123456789abcdef";
      shown += {'\\', 'x', kHex[static_cast<unsigned char>(c) >> 4], kHex[c & 15]};
    }
    // A compressed log (fio 3.33 reads none either): say so, not its bytes.
    struct Compressed {
      std::string_view magic, kind, cat;
    };
    static constexpr Compressed kCompressed[] = {{"\x1f\x8b", "gzip", "zcat"},
                                                 {"\x28\xb5\x2f\xfd", "zstd", "zstdcat"},
                                                 {"BZh", "bzip2", "bzcat"},
                                                 {"\xfd"
                                                  "7zXZ",
                                                  "xz", "xzcat"}};
    for (const auto& c : kCompressed)
      if (first.substr(0, c.magic.size()) == c.magic)
        return Status::Invalid("read_iolog " + path + ": is " + std::string(c.kind) +
                               "-compressed; decompress it first (" + std::string(c.cat) + " " +
                               sys::ShellWord(path) +
                               " > FILE): neither iobench nor fio reads a compressed log");
    return Status::Invalid("read_iolog " + path + ":1: '" + shown +
                           "' is not a fio iolog header (expected '" + kV2Header + "' or '" +
                           kV3Header + "'; version 1 logs are not supported, as in fio)");
  }
  if (!opts.redirect.empty()) {
    r->files_.push_back(opts.redirect);
    r->open_.push_back(1);
    r->add_line_.push_back(0);  // named by replay_redirect, not by a line
    r->close_line_.push_back(0);
  }
  return r;
}

IologReader::~IologReader() {
  if (f_ != nullptr) std::fclose(f_);
}

ssize_t IologReader::ReadLine() {
  char* b = buf_.get();
  size_t n = 0;
  for (;;) {
    if (opts_.stop_at != 0 && pos_ == opts_.stop_at) break;  // checked up to here
    const int c = getc_unlocked(f_);                         // the reader's own FILE, one thread
    if (c == EOF) break;
    ++pos_;
    if (n == kMaxLine) {
      b[n] = '\0';
      return -2;
    }
    b[n++] = static_cast<char>(c);
    if (c == '\n') break;
  }
  b[n] = '\0';
  return n == 0 ? -1 : static_cast<ssize_t>(n);
}

Status IologReader::LineError(const std::string& what) const {
  return Status::Invalid(
      sys::Printable("read_iolog " + path_ + ":" + std::to_string(line_) + ": " + what));
}

std::string IologReader::OtherVersionHint(const std::string_view* tok, int n) const {
  const int other = version_ == 3 ? 2 : 3;
  if (!FitsIologVersion(tok, n, other)) return "";
  return " (the line reads as a version " + std::to_string(other) +
         " iolog line, but the header at line " + std::to_string(header_line_) + " says version " +
         std::to_string(version_) + ")";
}

uint64_t IologReader::ScaleDelay(uint64_t us) const {
  if (opts_.no_stall) return 0;
  const unsigned __int128 ns = static_cast<unsigned __int128>(us) * 1000 * 100 / opts_.time_scale;
  return ns > UINT64_MAX / 2 ? UINT64_MAX / 2 : static_cast<uint64_t>(ns);
}

Result<uint32_t> IologReader::FileOf(const std::string& name, bool must_be_open,
                                     std::string_view what) {
  if (!opts_.redirect.empty()) return 0u;  // every name goes to the redirect target
  auto it = index_.find(name);
  if (it == index_.end()) {
    if (added_.count(name) == 0)
      return LineError("file '" + name + "' is used before its 'add' line");
    return LineError(std::string(what) + " on file '" + name +
                     "', which is not open (no 'open' line before it)");
  }
  if (must_be_open && open_[it->second] == 0) {
    // Opened and closed before: say where, not that it was never opened.
    const uint64_t closed = close_line_[it->second];
    if (closed != 0)
      return LineError(std::string(what) + " on file '" + name + "', which was closed at line " +
                       std::to_string(closed) + " (no 'open' line after it)");
    return LineError(std::string(what) + " on file '" + name +
                     "', which is not open (no 'open' line before it)");
  }
  return it->second;
}

Result<int> IologReader::ParseLine(char* line, ReplayEntry* e) {
  std::string_view tok[6];
  int n = 0;
  for (char* p = line; *p != '\0';) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') ++p;
    if (*p == '\0') break;
    char* start = p;
    while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') ++p;
    if (n == 6) return LineError("too many fields");
    tok[n++] = std::string_view(start, static_cast<size_t>(p - start));
  }
  if (n == 0) return 0;  // a blank line
  if (n == 4 && tok[0] == "fio" && tok[1] == "version") {
    // The header again: write_iolog appends, so a log holds one run after
    // another (a rerun, or numjobs clones sharing the file). Each run's
    // clock starts again; its files are added again (a no-op) and opened.
    const int v = HeaderVersion(line);
    if (v != 0) {
      version_ = v;
      header_line_ = line_;
      have_stamp_ = false;
      return 0;
    }
  }
  int at = 0;
  if (version_ == 3) {
    uint64_t stamp = 0;
    if (!ParseU64(tok[0], &stamp))
      return LineError(NotU64("timestamp", tok[0]) + OtherVersionHint(tok, n));
    // A stamp before the previous line's is no wait, and the next lines'
    // waits count from it, as in fio: numjobs clones sharing one write_iolog
    // interleave their lines in blocks, each block on its own clone's clock.
    // The first stamp (of the log, or of a run after a header) is the
    // origin, not a wait: as in fio, the replay starts with the first line
    // whatever its stamp (a log cut from a longer one, absolute times).
    // A line after one stamped 0 does not wait either, as fio's
    // delay_since_ttime treats a last stamp of 0 as none: a log whose
    // add/open lines are stamped 0 starts at its first later line (fio 3.33:
    // "0 add, 0 open, 300000 read" replays in 0 ms; iobench took 300 ms).
    if (have_stamp_ && last_stamp_us_ != 0 && stamp > last_stamp_us_)
      pending_delay_ns_ += ScaleDelay(stamp - last_stamp_us_);
    last_stamp_us_ = stamp;
    have_stamp_ = true;
    at = 1;
  }
  const int fields = n - at;
  const char* shape = version_ == 3 ? "'TIME FILE ACTION' or 'TIME FILE ACTION OFFSET LENGTH'"
                                    : "'FILE ACTION' or 'FILE ACTION OFFSET LENGTH'";
  if (fields != 2 && fields != 4)
    return LineError("expected " + std::string(shape) + ", got " + std::to_string(n) + " fields" +
                     OtherVersionHint(tok, n));
  const std::string name(tok[at]);
  const std::string_view act = tok[at + 1];
  if (fields == 2) {
    if (act == "add") {
      // A file becomes a target at its first "open": one the log adds and
      // never opens is not opened, created or checked, as in fio.
      if (opts_.redirect.empty()) added_.emplace(name, line_);
      return 0;
    }
    if (act == "open" || act == "close") {
      if (act == "open" && opts_.redirect.empty() && index_.find(name) == index_.end()) {
        auto added = added_.find(name);
        if (added == added_.end())
          return LineError("file '" + name + "' is used before its 'add' line");
        index_.emplace(name, static_cast<uint32_t>(files_.size()));
        files_.push_back(name);
        open_.push_back(0);
        add_line_.push_back(added->second);
        close_line_.push_back(0);
      }
      if (act == "close" && opts_.redirect.empty() && index_.find(name) == index_.end() &&
          added_.count(name) != 0)
        return LineError("'close' of file '" + name + "', which is not open");
      IOB_ASSIGN_OR_RETURN(uint32_t f, FileOf(name, false, "I/O"));
      if (opts_.redirect.empty()) {
        if (act == "close" && open_[f] == 0)
          return LineError("'close' of file '" + name + "', which is not open" +
                           (close_line_[f] != 0
                                ? " (closed at line " + std::to_string(close_line_[f]) + ")"
                                : ""));
        // Counted: numjobs clones sharing one log each open and close the
        // same names, their lines interleaved.
        open_[f] += act == "open" ? 1 : -1;
        if (open_[f] == 0) close_line_[f] = line_;
        if (opts_.file_events && open_[f] == (act == "open" ? 1u : 0u)) {
          *e = ReplayEntry{};
          e->action = act == "open" ? ReplayAction::kOpen : ReplayAction::kClose;
          e->file = f;
          e->line = line_;
          e->delay_ns = pending_delay_ns_;  // done at its time, as in fio
          pending_delay_ns_ = 0;
          return 1;
        }
      }
      return 0;
    }
    if (IsIologIoAction(act) || act == "wait")
      return LineError("action '" + std::string(act) + "' needs an offset and a length");
    return LineError("unknown file action '" + std::string(act) + "' (add, open, close)");
  }
  if (IsIologFileAction(act))  // it used to be an unknown action, in a list holding it
    return LineError("file action '" + std::string(act) + "' takes no offset and length");
  uint64_t offset = 0, length = 0;
  // A v2 "wait" line's first number is its delay in microseconds.
  if (!ParseU64(tok[at + 2], &offset))
    return LineError(NotU64(act == "wait" ? "delay" : "offset", tok[at + 2]));
  if (!ParseU64(tok[at + 3], &length)) return LineError(NotU64("length", tok[at + 3]));
  if (act == "wait") {
    if (version_ == 3)
      return LineError("'wait' is not allowed in a version 3 iolog (its lines carry times)");
    // fio: waits below 100 us are dropped.
    if (offset >= 100) pending_delay_ns_ += ScaleDelay(offset);
    return 0;
  }
  IoOp op;
  uint8_t skip_bit;
  if (act == "read") {
    op = IoOp::kRead;
    skip_bit = 1u << static_cast<int>(Ddir::kRead);
  } else if (act == "write") {
    op = IoOp::kWrite;
    skip_bit = 1u << static_cast<int>(Ddir::kWrite);
  } else if (act == "trim") {
    op = IoOp::kTrim;
    skip_bit = 1u << static_cast<int>(Ddir::kTrim);
  } else if (act == "sync") {
    op = IoOp::kFsync;
    skip_bit = ReplayOptions::kSkipSync;
  } else if (act == "datasync") {
    op = IoOp::kFdatasync;
    skip_bit = 0;  // fio's replay_skip has no datasync
  } else if (act == "sync_file_range") {
    // write_iolog records them (fio and iobench) with the last write's
    // offset and length 0; the worker syncs the range the log wrote to the
    // file since its previous one (docs/replay.md). fio's replay_skip has
    // no sync_file_range.
    op = IoOp::kSyncFileRange;
    skip_bit = 0;
  } else {
    return LineError("unknown action '" + std::string(act) +
                     "' (read, write, trim, sync, datasync, sync_file_range" +
                     (version_ == 2 ? ", wait" : "") + "; add, open, close)");
  }
  IOB_ASSIGN_OR_RETURN(
      uint32_t f, FileOf(name, true, op <= IoOp::kTrim ? "I/O" : "'" + std::string(act) + "'"));
  if (op <= IoOp::kTrim && length == 0) return LineError(std::string(act) + " of length 0");
  if (op <= IoOp::kTrim || op == IoOp::kSyncFileRange) {
    if (offset > UINT64_MAX - length)
      return LineError("offset " + std::to_string(offset) + " + length " + std::to_string(length) +
                       " overflows");
  }
  // The offset issued: after replay_scale and replay_align.
  uint64_t issue_off = offset / opts_.scale;
  if (opts_.align != 0) issue_off &= ~(opts_.align - 1);
  if (op == IoOp::kSyncFileRange) {
    // sync_file_range(2) takes loff_t: the kernel refuses (EINVAL) an offset
    // or offset + length past 2^63 - 1. Refused here with the line, not at
    // run time with err=22 naming no line.
    constexpr uint64_t kMaxOff = static_cast<uint64_t>(INT64_MAX);
    if (issue_off > kMaxOff || length > kMaxOff - issue_off)
      return LineError("sync_file_range offset " + std::to_string(offset) + " + length " +
                       std::to_string(length) +
                       (issue_off != offset ? " (offset " + std::to_string(issue_off) +
                                                  " after replay_scale/replay_align)"
                                            : std::string()) +
                       " is past 2^63 - 1, the largest file offset sync_file_range(2) takes");
  }
  if ((opts_.skip & skip_bit) != 0) {
    ++skipped_;
    return 0;
  }
  e->action = ReplayAction::kIo;
  e->op = op;
  e->file = f;
  e->line = line_;
  e->wait_only = false;
  if (op <= IoOp::kTrim || op == IoOp::kSyncFileRange) {
    e->offset = issue_off;
    e->length = length;
  } else {
    e->offset = 0;
    e->length = 0;
  }
  e->delay_ns = pending_delay_ns_;
  pending_delay_ns_ = 0;
  return 1;
}

Result<bool> IologReader::Next(ReplayEntry* e) {
  for (;;) {
    const ssize_t n = ReadLine();
    if (n == -1) {
      if (std::ferror(f_)) return ErrnoStatus("read_iolog: read " + path_);
      // The time the last lines hold (a close stamped after the last I/O,
      // a v2 wait at the end): fio waits it out before the job ends (its
      // ipo_special delays a close as any entry), and so its runtime.
      if (pending_delay_ns_ == 0) return false;
      *e = ReplayEntry{};
      e->wait_only = true;
      e->delay_ns = pending_delay_ns_;
      e->line = line_;
      pending_delay_ns_ = 0;
      return true;
    }
    ++line_;
    if (n == -2) return LineError("the line is longer than 64 KiB");
    if (std::memchr(buf_.get(), '\0', static_cast<size_t>(n)) != nullptr)
      return LineError("binary data (a NUL byte): not a text iolog");
    IOB_ASSIGN_OR_RETURN(int got, ParseLine(buf_.get(), e));
    if (got == 1) return true;
  }
}

// ------------------------------------------------------------- scan and shape

Result<IologSummary> ScanIolog(const std::string& path, const ReplayOptions& opts) {
  ReplayOptions with_files = opts;
  with_files.file_events = true;
  IOB_ASSIGN_OR_RETURN(std::unique_ptr<IologReader> r, IologReader::Open(path, with_files));
  IologSummary s;
  s.version = r->version();
  s.open_max = opts.redirect.empty() ? 0 : 1;
  size_t open_now = s.open_max;
  ReplayEntry e;
  for (;;) {
    IOB_ASSIGN_OR_RETURN(bool more, r->Next(&e));
    if (!more) break;
    if (e.wait_only) continue;
    if (e.action != ReplayAction::kIo) {
      open_now += e.action == ReplayAction::kOpen ? 1 : -1;
      s.open_max = std::max(s.open_max, open_now);
      continue;
    }
    if (s.end.size() < r->files().size()) {
      s.end.resize(r->files().size(), 0);
      s.end_line.resize(r->files().size(), 0);
    }
    if (e.op == IoOp::kSyncFileRange) {
      ++s.sync_ranges;
      continue;
    }
    if (e.op > IoOp::kTrim) {
      ++s.syncs;
      continue;
    }
    const int d = static_cast<int>(e.op);
    s.min_len[d] = s.ios[d] == 0 ? e.length : std::min(s.min_len[d], e.length);
    if (e.length > s.max_len[d]) {
      s.max_len[d] = e.length;
      s.max_len_line[d] = e.line;
    }
    ++s.ios[d];
    s.bytes[d] += e.length;
    if (e.offset + e.length > s.end[e.file]) {
      s.end[e.file] = e.offset + e.length;
      s.end_line[e.file] = e.line;
    }
  }
  s.log_bytes = r->bytes_read();
  s.files = r->files();
  s.add_line = r->add_lines();
  s.added = r->added();
  s.skipped = r->skipped();
  s.end.resize(s.files.size(), 0);
  s.end_line.resize(s.files.size(), 0);
  return s;
}

namespace {
Status PrepareReplay(JobSpec* job, bool diskless);

// The alignment the kernel asks of each target's I/O in this replay (0:
// none known): a block device's logical block size for a discard, and with
// direct=1 for reads and writes; with direct=1, a regular file's direct I/O
// offset alignment (statx STATX_DIOALIGN). Then every entry of the log is
// held to it, so a misaligned one is refused before the run naming its line
// (it failed at run time with err=22, naming no line, and advised offset=
// and bs=, which a replay does not use; a log's trims on a device were not
// checked at all when it also read).
Status CheckReplayAlignment(const JobSpec& job, const IologSummary& s,
                            const std::vector<TargetFile>& targets, ReplayOptions opts) {
  std::vector<uint64_t> data(targets.size(), 0), trim(targets.size(), 0);
  bool any = false;
  for (size_t i = 0; i < targets.size(); ++i) {
    const TargetFile& t = targets[i];
    if (t.is_block_device) {
      trim[i] = t.logical_block_size;
      if (job.direct) data[i] = t.logical_block_size;
    } else if (job.direct && t.regular_file() && t.exists) {
      if (const auto a = sys::StatxDioAlign(t.path))
        data[i] = a->offset;  // 0: no direct I/O here, the open says so
    }
    any = any || trim[i] > 1 || data[i] > 1;
  }
  if (!any) return Status::Ok();
  opts.stop_at = s.log_bytes;
  IOB_ASSIGN_OR_RETURN(std::unique_ptr<IologReader> r,
                       IologReader::Open(sys::ReadIologPath(job), opts));
  ReplayEntry e;
  for (;;) {
    IOB_ASSIGN_OR_RETURN(bool more, r->Next(&e));
    if (!more) return Status::Ok();
    if (e.wait_only || e.op > IoOp::kTrim || e.file >= targets.size()) continue;
    const bool discard = e.op == IoOp::kTrim;
    const uint64_t a = discard ? trim[e.file] : data[e.file];
    const bool bad_len = a > 1 && e.length % a != 0;
    if (a <= 1 || (!bad_len && e.offset % a == 0)) continue;
    const TargetFile& t = targets[e.file];
    const std::string what = e.op == IoOp::kRead ? "read" : discard ? "trim" : "write";
    const std::string align = std::to_string(a);
    std::string fix;
    if (bad_len)  // replay_align moves offsets only: the lengths are the log's
      fix = "replay_skip=" + what + (discard ? "" : ", or direct=0");
    else
      fix = "replay_align=" + align + " (rounds the log's offsets down)" +
            (discard ? "" : ", or direct=0");
    return Status::Invalid(
        ReplayWho(job) + ":" + std::to_string(e.line) + ": " + what + " " +
        (bad_len ? "length " + std::to_string(e.length)
                 : "offset " + std::to_string(e.offset) +
                       (e.offset != 0 && (job.replay_scale > 1 || job.replay_align != 0)
                            ? " (after replay_scale/replay_align)"
                            : "")) +
        " is not a multiple of " +
        (t.is_block_device ? "the logical block size " + align + " of " + t.path
                           : align + ", the direct I/O alignment of " + t.path + " (statx)") +
        "; " + (discard ? "a discard needs block-aligned ranges" : "direct=1 needs aligned I/O") +
        ": set " + fix);
  }
}
}  // namespace

Status PrepareReplayJob(JobSpec* job, bool diskless) {
  // Every message may quote the log's text (its file names too, in the
  // target checks' messages): control characters shown escaped.
  const Status st = PrepareReplay(job, diskless);
  if (st.ok()) return st;
  return Status(st.code(), sys::Printable(st.message()), st.errno_value());
}

namespace {
Status PrepareReplay(JobSpec* job, bool diskless) {
  const std::string who = "job '" + job->name + "': read_iolog=" + job->read_iolog + " (" +
                          SettingWhere(*job, "read_iolog") + ")";
  // fio hands a ':' list of logs to the numjobs clones in turn, and reads '-'
  // from stdin; iobench reads the log more than once (check, then replay).
  if (sys::SplitEscaped(job->read_iolog, ':').size() > 1)
    return Status::Unsupported(who +
                               ": iobench replays one log per job; a ':' list of logs "
                               "is not supported yet");
  if (job->read_iolog == "-")
    return Status::Unsupported(who + ": iobench cannot replay a log from standard input");
  struct Clash {
    bool set;
    const char* option;
  };
  const bool rate =
      std::any_of(std::begin(job->rate), std::end(job->rate), [](uint64_t v) { return v != 0; }) ||
      std::any_of(std::begin(job->rate_iops), std::end(job->rate_iops),
                  [](uint64_t v) { return v != 0; });
  const Clash clashes[] = {
      {job->verify.type != VerifyType::kNone, "verify"},
      {job->fsync_blocks != 0, "fsync"},
      {job->fdatasync_blocks != 0, "fdatasync"},
      {rate, job->rate_iops[0] + job->rate_iops[1] + job->rate_iops[2] != 0 ? "rate_iops" : "rate"},
      {job->thinktime_ns != 0, "thinktime"},
      {job->HasIoSize(), "io_size"},
      {job->time_based, "time_based"},
      {job->loops > 1, "loops"},
  };
  for (const Clash& c : clashes)
    if (c.set)
      return Status::Invalid(who + " does not combine with " + c.option + " (" +
                             SettingWhere(*job, c.option) +
                             "): the log alone says what is issued and when");

  const ReplayOptions opts = ReplayOptions::FromJob(*job);
  Result<IologSummary> scanned = ScanIolog(sys::ReadIologPath(*job), opts);
  if (!scanned.ok())
    return scanned.status().WithContext("job '" + job->name + "' (" +
                                        SettingWhere(*job, "read_iolog") + ")");
  const IologSummary& s = *scanned;
  if (s.files.empty())
    return Status::Invalid(
        ReplayWho(*job) +
        (s.added == 0 ? " adds no file ('FILE add' lines)" : " opens no file ('FILE open' lines)") +
        " and replay_redirect is not set");

  // The log carries no sync_file_range flags: the job's own (its
  // sync_file_range=FLAGS; its count does not apply, the log says when),
  // else SYNC_FILE_RANGE_WRITE, what sync_file_range=write:N asks for.
  if (s.sync_ranges != 0 && job->sync_file_range_flags == 0)
    job->sync_file_range_flags = SYNC_FILE_RANGE_WRITE;
  job->read_iolog_bytes = s.log_bytes;
  job->read_iolog_open_max = ReplayFollowsFileLines(*job) ? s.open_max : 0;
  job->filenames = s.files;
  job->nrfiles = static_cast<uint32_t>(s.files.size());
  // The paths the replay opens: directory= joined to the log's relative
  // names, as for filename= (and in fio).
  const std::vector<std::string> paths = TargetPaths(*job, 0);
  job->parse_notes.push_back(sys::Printable(ReplayNote(*job, s, paths)));
  // The log's offsets are absolute: the job's own region options do not apply.
  job->offset = 0;
  job->offset_percent = 0;
  job->offset_increment = 0;
  job->offset_increment_percent = 0;
  const bool r = s.ios[0] != 0, w = s.ios[1] != 0, t = s.ios[2] != 0;
  job->rw = (r && (w || t)) ? RwMode::kReadWrite
            : w && t        ? RwMode::kTrimWrite
            : w             ? RwMode::kWrite
            : t             ? RwMode::kTrim
                            : RwMode::kRead;
  for (int d = 0; d < kNumDdirs; ++d) {
    if (s.ios[d] == 0) continue;
    job->bs[d].min = s.min_len[d];
    job->bs[d].max = s.max_len[d];
    job->bs[d].split.clear();
  }
  // A direction the log does not use shows the log's read/write lengths in
  // the job line, not the job's own bs= (which did not apply). Not a trim's:
  // its length carries no data and would size the buffers (t0038: 2 GiB).
  uint64_t lo = UINT64_MAX, hi = 0;
  job->read_iolog_max_len_line = 0;
  for (int d = 0; d < 2; ++d) {
    if (s.ios[d] == 0) continue;
    lo = std::min(lo, s.min_len[d]);
    if (s.max_len[d] > hi ||
        (s.max_len[d] == hi && s.max_len_line[d] < job->read_iolog_max_len_line)) {
      hi = s.max_len[d];
      job->read_iolog_max_len_line = s.max_len_line[d];
    }
  }
  for (int d = 0; d < kNumDdirs && hi != 0; ++d) {
    if (s.ios[d] != 0) continue;
    job->bs[d].min = lo;
    job->bs[d].max = hi;
    job->bs[d].split.clear();
  }
  uint64_t max_end = 0;
  for (uint64_t e : s.end) max_end = std::max(max_end, e);
  const bool sized = job->size != 0 || job->size_percent != 0 || job->filesize_min != 0;
  if (!sized && diskless) job->filesize_min = job->filesize_max = std::max<uint64_t>(max_end, 1);
  if (!diskless) {
    // Every file the log names, before any I/O: one that cannot be looked
    // up (a path through a regular file, ENOTDIR; a directory the user may
    // not search) is refused with the log line that adds it, as a missing
    // one is, not left to the run as the job's error.
    for (size_t i = 0; i < paths.size(); ++i) {
      const std::string& p = paths[i];
      struct stat st {};
      if (stat(p.c_str(), &st) != 0) {
        const int err = errno;
        if (err == ENOENT && sized) continue;  // size= lays it out
        if (err == ENOENT)
          return Status::Invalid(AtAddLine(*job, s, i, who) + ": " + p +
                                 " does not exist; iobench replays onto existing files and "
                                 "devices (create it, or set size= to lay it out)");
        return Status(Status::Code::kInvalidArgument,
                      AtAddLine(*job, s, i, who) + ": stat " + p + ": " + std::strerror(err), err);
      }
      if (!sized && S_ISREG(st.st_mode) && st.st_size == 0 && i < s.end.size() && s.end[i] != 0) {
        // Else the target resolution's "size is not set and FILE is empty".
        return PastEnd(*job, s.end_line[i], s.end[i], p, 0);
      }
    }
  }
  auto check_ends = [&](const std::vector<TargetFile>& targets) -> Status {
    for (size_t i = 0; i < targets.size() && i < s.end.size(); ++i) {
      const TargetFile& tf = targets[i];
      if (tf.is_char_device) continue;  // /dev/zero, /dev/null: no end
      const uint64_t limit = diskless             ? tf.needed_size
                             : tf.is_block_device ? tf.current_size
                                                  : std::max(tf.current_size, tf.needed_size);
      if (s.end[i] > limit)
        return PastEnd(*job, s.end_line[i], s.end[i], tf.path, limit, !diskless && !tf.exists);
    }
    return Status::Ok();
  };
  Result<std::vector<TargetFile>> targets = ResolveTargets(*job, 0, diskless);
  if (targets.ok()) KeepExistingReplayFiles(*job, &*targets);
  if (!targets.ok()) {
    // The log's smallest length is larger than a file ("the region is
    // smaller than the block size"): name the log line that runs past the
    // end instead, from the files sized with 1-byte blocks.
    JobSpec loose = *job;
    for (BlockSizeSpec& b : loose.bs) b.min = b.max = 1;
    Result<std::vector<TargetFile>> sized = ResolveTargets(loose, 0, diskless);
    if (sized.ok()) KeepExistingReplayFiles(*job, &*sized);
    if (sized.ok()) IOB_RETURN_IF_ERROR(check_ends(*sized));
    return AtFileLine(*job, s, targets.status());
  }
  IOB_RETURN_IF_ERROR(check_ends(*targets));
  return diskless ? Status::Ok() : CheckReplayAlignment(*job, s, *targets, opts);
}
}  // namespace

bool ReplayFollowsFileLines(const JobSpec& job) {
  // io_uring's registered files must all be open (CheckOpenFiles refuses
  // openfiles with them for the same reason).
  return !job.read_iolog.empty() && job.replay_redirect.empty() && !job.RegistersFiles();
}

void KeepExistingReplayFiles(const JobSpec& job, std::vector<TargetFile>* targets) {
  if (job.read_iolog.empty()) return;
  for (TargetFile& t : *targets) {
    if (!t.regular_file() || !t.exists) continue;
    t.needed_size = t.current_size;
    t.region_size =
        std::min(t.region_size, t.current_size - std::min(t.region_offset, t.current_size));
  }
}

// ------------------------------------------------------------- IologRecorder

Result<std::unique_ptr<IologRecorder>> IologRecorder::Create(const std::string& path,
                                                             std::vector<std::string> files,
                                                             LogWriter* writer, uint64_t t0_ns) {
  IOB_ASSIGN_OR_RETURN(int id, writer->Open(path, /*append=*/true, "write_iolog=" + path));
  std::unique_ptr<IologRecorder> r(new IologRecorder(writer, id, std::move(files), t0_ns));
  r->NextChunk();
  char* p = r->chunk_->data + r->chunk_->len;
  std::memcpy(p, kV3Header, sizeof(kV3Header) - 1);
  p += sizeof(kV3Header) - 1;
  *p++ = '\n';
  r->chunk_->len = static_cast<uint32_t>(p - r->chunk_->data);
  return r;
}

IologRecorder::~IologRecorder() { Finish(0); }

void IologRecorder::NextChunk() {
  if (chunk_ != nullptr) writer_->Submit(chunk_);
  chunk_ = writer_->Acquire();
  chunk_->file = id_;
  chunk_->len = 0;
}

void IologRecorder::File(uint64_t now_ns, uint32_t file, FileAction action) {
  if (finished_ || file >= files_.size()) return;
  char* p = Stamp(Reserve(file), now_ns, file);
  const char* what = action == FileAction::kAdd    ? "add"
                     : action == FileAction::kOpen ? "open"
                                                   : "close";
  const size_t n = std::strlen(what);
  std::memcpy(p, what, n);
  p += n;
  *p++ = '\n';
  chunk_->len = static_cast<uint32_t>(p - chunk_->data);
}

void IologRecorder::LoopEnd(uint64_t now_ns, bool synced, bool on_bytes) {
  if (finished_) return;
  if (synced && on_bytes) {
    for (uint32_t i = 0; i < files_.size(); ++i) Io(now_ns, i, IoOp::kFsync, last_offset_, 0);
    synced = false;
  }
  for (uint32_t i = 0; i < files_.size(); ++i) {
    if (opened_[i] != kOpen) continue;
    File(now_ns, i, FileAction::kClose);
    opened_[i] = kClosed;
  }
  if (!synced) return;
  for (uint32_t i = 0; i < files_.size(); ++i) {
    Io(now_ns, i, IoOp::kFsync, last_offset_, 0);  // "open" first: the file is closed
    File(now_ns, i, FileAction::kClose);
    opened_[i] = kClosed;
  }
}

void IologRecorder::Finish(uint64_t now_ns) {
  if (finished_) return;
  if (now_ns != 0) {
    for (uint32_t i = 0; i < files_.size(); ++i) {
      // Closed by a loop's end and not used since, or never used: fio
      // opens a file at its first I/O, and logs nothing more of one the
      // job never came to (io_size reached first, create_on_open).
      if (opened_[i] != kOpen) continue;
      File(now_ns, i, FileAction::kClose);
    }
  }
  finished_ = true;
  if (chunk_ == nullptr) return;
  if (chunk_->len != 0)
    writer_->Submit(chunk_);
  else
    writer_->Release(chunk_);
  chunk_ = nullptr;
}

using sys::SameFile;

std::vector<bool> ReplaysEarlierRecord(const std::vector<JobSpec>& jobs,
                                       const std::vector<int>& phase_of) {
  std::vector<bool> out(jobs.size(), false);
  if (phase_of.size() != jobs.size()) return out;
  for (size_t r = 0; r < jobs.size(); ++r) {
    if (jobs[r].read_iolog.empty()) continue;
    // An earlier phase's exec_prerun or exec_postrun may make or rewrite
    // the log (fio reads it when the job starts): a log read before the
    // run replayed its old lines, onto another file.
    for (size_t w = 0; w < jobs.size() && !out[r]; ++w) {
      if (phase_of[w] >= phase_of[r]) continue;
      out[r] = (!jobs[w].write_iolog.empty() &&
                SameFile(jobs[w].write_iolog, sys::ReadIologPath(jobs[r]))) ||
               !jobs[w].exec_prerun.empty() || !jobs[w].exec_postrun.empty();
    }
  }
  return out;
}

Status CheckIologsApart(const std::vector<JobSpec>& jobs, const std::vector<int>& phase_of) {
  const bool phased = phase_of.size() == jobs.size();
  for (size_t wi = 0; wi < jobs.size(); ++wi) {
    const JobSpec& w = jobs[wi];
    if (w.write_iolog.empty()) continue;
    for (size_t ri = 0; ri < jobs.size(); ++ri) {
      const JobSpec& r = jobs[ri];
      // A stonewall between them: one has ended before the other starts.
      if (phased && phase_of[wi] != phase_of[ri]) continue;
      if (r.read_iolog.empty() || !SameFile(w.write_iolog, sys::ReadIologPath(r))) continue;
      const std::string whose = &r == &w ? "its own" : "job '" + r.name + "''s";
      return Status::Invalid("job '" + w.name + "': write_iolog=" + w.write_iolog + " (" +
                             SettingWhere(w, "write_iolog") + ") is " + whose +
                             " read_iolog=" + r.read_iolog + " (" + SettingWhere(r, "read_iolog") +
                             "): the replay would read the lines it records and never end; "
                             "write the log to another file, or put a stonewall between the jobs");
    }
  }
  return Status::Ok();
}

}  // namespace iobench
