#include "sweep/session.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "iobench/clock.h"
#include "iobench/report.h"
#include "report/fio_report.h"
#include "report/interim.h"
#include "report/plot.h"
#include "report/status_line.h"
#include "report/table.h"
#include "run/coordinator.h"
#include "run/signals.h"
#include "stats/summary.h"
#include "sys/procfs.h"
#include "sys/safety.h"
#include "sys/strings.h"

namespace iobench {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitJobFailed = 1;
constexpr int kExitUsage = 2;

bool Has(const std::vector<std::string>& v, const char* s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// fio writes its formats in a fixed order whatever order --output-format
// lists them in: terse, then json/json+, then normal. The table is ours and
// comes last.
std::vector<std::string> InFioOrder(const std::vector<std::string>& formats) {
  auto rank = [](const std::string& f) {
    return f == "terse" ? 0 : (f == "json" || f == "json+") ? 1 : f == "normal" ? 2 : 3;
  };
  std::vector<std::string> out = formats;
  std::stable_sort(out.begin(), out.end(),
                   [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  return out;
}

// A run that could not start is bad input for this machine (exit 2, nothing
// ran): a bad option, a missing target or engine, a safety refusal, a limit,
// a directory that cannot be written. An I/O error while laying out or a
// stuck device is a failure of the run (exit 1).
int ExitFor(const Status& st) { return IsRefusal(st) ? kExitUsage : kExitJobFailed; }

// The option a sweep key names (bs for blocksize); a key that is no
// option (setra) or an empty one as it is.
std::string CanonicalKey(const SessionOptions& o, const std::string& key) {
  return o.canonical_option && !key.empty() ? o.canonical_option(key) : key;
}

// Calls fn on each sweep point object of a results document, const or
// not: each job's (iobench.point; jobs without one are passed over), then
// the sweep's points that never ran (iobench.sweep.not_run, refused[].point,
// stopped.point), which --compare matches with the other file's jobs.
template <typename Json, typename Fn>
void ForEachPoint(Json& doc, Fn&& fn) {
  if (!doc.is_object()) return;
  // fn on `obj`[key] when it is a point object.
  auto visit = [&fn](auto& obj, const char* key) {
    if (!obj.is_object()) return;
    const auto pt = obj.find(key);
    if (pt != obj.end() && pt->is_object()) fn(*pt);
  };
  if (const auto jobs = doc.find("jobs"); jobs != doc.end() && jobs->is_array())
    for (auto& j : *jobs)
      if (j.is_object())
        if (const auto ib = j.find("iobench"); ib != j.end()) visit(*ib, "point");
  const auto ib = doc.find("iobench");
  if (ib == doc.end() || !ib->is_object()) return;
  const auto sw = ib->find("sweep");
  if (sw == ib->end() || !sw->is_object()) return;
  if (const auto nr = sw->find("not_run"); nr != sw->end() && nr->is_array())
    for (auto& p : *nr)
      if (p.is_object()) fn(p);
  if (const auto rf = sw->find("refused"); rf != sw->end() && rf->is_array())
    for (auto& r : *rf) visit(r, "point");
  if (const auto st = sw->find("stopped"); st != sw->end()) visit(*st, "point");
}

// A results file's sweep keys under their option names: a file written
// before sweeps stored canonical keys (blocksize=) matches a bs= sweep.
void CanonicalizeSweepKeys(const SessionOptions& o, nlohmann::json* doc) {
  if (!o.canonical_option || !doc->is_object()) return;
  if (auto it = doc->find("iobench"); it != doc->end() && it->is_object()) {
    if (auto sw = it->find("sweep"); sw != it->end() && sw->is_object()) {
      if (auto keys = sw->find("keys"); keys != sw->end() && keys->is_array())
        for (auto& k : *keys)
          if (k.is_string()) k = CanonicalKey(o, k.get<std::string>());
    }
  }
  ForEachPoint(*doc, [&](nlohmann::json& pt) {
    nlohmann::json out = nlohmann::json::object();
    for (auto it = pt.begin(); it != pt.end(); ++it) out[CanonicalKey(o, it.key())] = it.value();
    pt = std::move(out);
  });
}

// The kb_base values the jobs read sizes with (one, for almost every job
// file; fio's default 1024 when there are no jobs).
std::vector<uint32_t> KbBases(const std::vector<JobSpec>& jobs) {
  std::set<uint32_t> kbs;
  for (const auto& j : jobs) kbs.insert(j.kb_base);
  if (kbs.empty()) kbs.insert(1024);
  return {kbs.begin(), kbs.end()};
}

// The kb_base a job of a results file read its sizes with, from the options
// the file records for it ("job options" over "global options", as fio
// lists them): kb_base=1000 read bs=4k as 4000. Recorded options without
// kb_base mean fio's default, 1024. A job that records no options at all
// (a file edited by hand or written by another tool; iobench and fio
// record a swept option in "job options"), or an unreadable kb_base, has
// none that can be known: nullopt.
std::optional<uint32_t> RecordedKbBase(const nlohmann::json& doc, const nlohmann::json& job) {
  const nlohmann::json* own = nullptr;
  const nlohmann::json* global = nullptr;
  if (auto it = job.find("job options"); it != job.end() && it->is_object()) own = &*it;
  if (auto it = doc.find("global options"); it != doc.end() && it->is_object()) global = &*it;
  for (const nlohmann::json* opts : {own, global}) {
    if (opts == nullptr) continue;
    const auto kb = opts->find("kb_base");
    if (kb == opts->end()) continue;
    if (!kb->is_string()) return std::nullopt;
    const std::string v = kb->get<std::string>();
    if (v == "1000") return 1000;
    if (v == "1024") return 1024;
    return std::nullopt;
  }
  if (own == nullptr && global == nullptr) return std::nullopt;
  return 1024;
}

// The kb_base values a results file's sweep points were read with: its
// jobs' own (one, for almost every file). When a job's cannot be known,
// both, so that a value matches another only where every kb_base reads
// the two alike (iodepth=1 and 01, bs=4096 and 4096), and otherwise only
// by its literal spelling (4k and 4k): no kb_base is guessed.
std::vector<uint32_t> DocKbBases(const nlohmann::json& doc) {
  std::set<uint32_t> kbs;
  bool unknown = false;
  if (auto jobs = doc.find("jobs"); doc.is_object() && jobs != doc.end() && jobs->is_array())
    for (const auto& j : *jobs) {
      if (!j.is_object()) continue;
      const auto ib = j.find("iobench");
      if (ib == j.end() || !ib->is_object() || !ib->contains("point")) continue;
      if (const std::optional<uint32_t> kb = RecordedKbBase(doc, j))
        kbs.insert(*kb);
      else
        unknown = true;
    }
  if (unknown) return {1000, 1024};
  if (kbs.empty()) kbs.insert(1024);
  return {kbs.begin(), kbs.end()};
}

// A value as every job reads it: two values are one only when no job
// tells them apart (bs=4k and 4096 are one with kb_base 1024, two with
// kb_base=1000, where 4k is 4000). A value that every kb_base of `kbs`
// reads alike gets that reading alone, so that it compares with the same
// reading under another set (the two files of --compare may differ).
sweep::ValueKey ValueKeyFor(const SessionOptions& o, const std::vector<uint32_t>& kbs) {
  if (!o.option_value_key) return nullptr;
  return [&o, kbs](const std::string& key, const std::string& value) {
    std::string all, first;
    bool same = true;
    for (uint32_t kb : kbs) {
      const std::string r = o.option_value_key(key, value, kb);
      if (all.empty()) first = r;
      same = same && r == first;
      all += std::to_string(kb) + ':' + r + '\n';
    }
    return same ? first : all;
  };
}

// A range bound's size suffix as the jobs read it; refused when jobs with
// different kb_base read it differently (the range would step in one
// job's units and not the other's).
sweep::SizeUnit SizeUnitFor(const SessionOptions& o, const std::vector<uint32_t>& kbs) {
  if (!o.size_unit) return nullptr;
  return [&o, kbs](const std::string& suffix) -> Result<uint64_t> {
    std::optional<uint64_t> first;
    std::string how;
    for (uint32_t kb : kbs) {
      const std::optional<uint64_t> m = o.size_unit(suffix, kb);
      if (!m) return Status::Invalid("bad size suffix '" + suffix + "'");
      how += (how.empty() ? "" : ", ") + std::string("kb_base=") + std::to_string(kb) + ": " +
             std::to_string(*m);
      if (first && *first != *m)
        return Status::Invalid("the jobs read '" + suffix + "' differently (" + how +
                               "); write the range's bounds and step in bytes");
      first = m;
    }
    return first.value_or(1);
  };
}

// --compare matches points by value, as the sweep tells values apart: a
// base swept bs=4k,8k and a new one swept bs=4096,8K have the same points
// (they were "no job matches"). Each value of `neu`'s points that reads as
// one of `base`'s values of its key (the option's number parsing) is
// written as base writes it, so the rows match and carry base's labels.
// A results file whose points hold two spellings of one value of a key
// (iodepth=1 and iodepth=01, written by hand or by an older iobench) has
// points --compare cannot tell apart: matched by value, both met one point
// of the other side, and the run said "no job ... matches".
Status CheckPointSpellings(const SessionOptions& o, const nlohmann::json& doc,
                           const std::string& label, const std::vector<uint32_t>& kbs) {
  const sweep::ValueKey value_key = ValueKeyFor(o, kbs);
  if (!value_key) return Status::Ok();
  std::map<std::pair<std::string, std::string>, std::string> spelled;  // (key, read as) -> first
  Status st;
  ForEachPoint(doc, [&](const nlohmann::json& pt) {
    for (auto it = pt.begin(); it != pt.end() && st.ok(); ++it) {
      if (!it->is_string()) continue;
      const std::string v = it->get<std::string>();
      auto [f, fresh] = spelled.emplace(std::make_pair(it.key(), value_key(it.key(), v)), v);
      if (!fresh && f->second != v)
        st = Status::Invalid("compare: " + label + ": the points " + it.key() + "=" + f->second +
                             " and " + it.key() + "=" + v + " are ambiguous: " + it.key() +
                             " reads both as one value, so both would match one "
                             "point of the other file; keep one of them in " +
                             label);
    }
  });
  return st;
}

// Each side's values are read with the kb_base its own jobs read them
// with (`base_kbs`, `neu_kbs`: the jobs run now, or what a file records,
// DocKbBases): two files saved from kb_base=1000 jobs match bs=4k with 4k
// and 4000, not with 4096. A value left as it is matches by its spelling.
void AlignPointSpellings(const SessionOptions& o, const nlohmann::json& base,
                         const std::vector<uint32_t>& base_kbs, nlohmann::json* neu,
                         const std::vector<uint32_t>& neu_kbs) {
  const sweep::ValueKey base_key = ValueKeyFor(o, base_kbs);
  const sweep::ValueKey neu_key = ValueKeyFor(o, neu_kbs);
  if (!base_key || !neu_key) return;
  std::map<std::pair<std::string, std::string>, std::string> spelled;  // (key, read as) -> base's
  std::map<std::pair<std::string, std::string>, std::string> read;     // (key, base's) -> read as
  ForEachPoint(base, [&](const nlohmann::json& pt) {
    for (auto it = pt.begin(); it != pt.end(); ++it)
      if (it->is_string()) {
        const std::string as = base_key(it.key(), *it);
        spelled.emplace(std::make_pair(it.key(), as), it->get<std::string>());
        read.emplace(std::make_pair(it.key(), it->get<std::string>()), as);
      }
  });
  ForEachPoint(*neu, [&](nlohmann::json& pt) {
    for (auto it = pt.begin(); it != pt.end(); ++it) {
      if (!it->is_string()) continue;
      const std::string as = neu_key(it.key(), *it);
      auto f = spelled.find({it.key(), as});
      if (f != spelled.end()) {
        *it = f->second;
        continue;
      }
      // The same spelling read as another value (bs=4k: 4000 bytes at
      // kb_base=1000, 4096 at 1024) is another point: say what it was.
      // Not when either side's kb_base is unknown (a reading per kb_base,
      // one per line): the spelling is all there is to match by.
      auto r = read.find({it.key(), it->get<std::string>()});
      if (r != read.end() && r->second != as && r->second.find('\n') == std::string::npos &&
          as.find('\n') == std::string::npos)
        *it = it->get<std::string>() + " (" + (as.rfind('#', 0) == 0 ? as.substr(1) : as) + ")";
    }
  });
}

// --table-metric and --table-style given where nothing reads them
// (--output-format=json alone, no --compare or --plot) were accepted and
// changed nothing, as a typo'd option would; refused like
// --compare-labels without --compare. The metric is read by the tables
// (the table format, the normal report's median with --repeat), --compare
// (its tables and its JSON rows) and --plot; the style only by tables
// written as text. --table-rows and --table-cols only by the tables of a
// run made now (--output-format=table, the normal report's --repeat
// median tables): not by --compare's delta tables, nor by --plot; with json
// or terse alone, a run without --repeat or --compare BASE NEW (nothing
// run) they changed nothing.
Status CheckTableOptionsUsed(const SessionOptions& o) {
  const bool run = o.compare.size() < 2;  // --compare BASE.json NEW.json runs nothing
  const bool table = Has(o.formats, "table");
  const bool normal = Has(o.formats, "normal");
  const bool compare = !o.compare.empty();
  const bool median = normal && o.repeat > 1;
  std::string formats;
  for (const auto& f : o.formats) formats += (formats.empty() ? "" : ",") + f;
  for (const auto& [name, key] :
       {std::pair{"--table-rows", &o.table_rows}, std::pair{"--table-cols", &o.table_cols}}) {
    if (key->empty() || (run && (table || median))) continue;
    return Status::Invalid(
        std::string(name) + "=" + sys::Shortened(*key) + ": nothing reads it " +
        (run ? "with --output-format=" + formats
             : "with --compare " + o.compare[0] + " " + o.compare[1] + " (nothing is run)") +
        "; it lays out the tables of a run (--output-format=table, or normal with --repeat), "
        "not --compare's delta tables nor --plot");
  }
  if (o.table_metric_given && !(table || compare || !o.plot.empty() || median))
    return Status::Invalid("--table-metric=" + o.table_metric +
                           ": nothing reads it with --output-format=" + formats +
                           "; it chooses the figures of the tables (--output-format=table, or "
                           "normal with --repeat), of --compare and of --plot");
  if (o.table_style_given && !(table || (compare && normal) || median))
    return Status::Invalid("--table-style=" + o.table_style +
                           ": no table is written as text with --output-format=" + formats +
                           (compare ? " --compare" : "") +
                           "; it styles --output-format=table (and the normal report's "
                           "--compare and --repeat tables)");
  return Status::Ok();
}

// What can be known wrong about the tables and the plot before the run:
// found after it, the error lost the sweep's results (exit 1).
Status CheckReportOptions(const SessionOptions& o) {
  IOB_RETURN_IF_ERROR(CheckTableOptionsUsed(o));
  if (!o.table_rows.empty() && CanonicalKey(o, o.table_rows) == CanonicalKey(o, o.table_cols))
    return Status::Invalid("--table-rows and --table-cols both name '" +
                           sys::Shortened(o.table_rows) +
                           "'; rows and columns need two different swept keys");
  // A hook without points ran once, recorded nowhere (no hook_log in the
  // JSON) and failing "at point ;".
  if (!o.sweep_cmd.empty() && o.sweeps.empty())
    return Status::Invalid("--sweep-cmd '" + sys::Shortened(o.sweep_cmd) +
                           "': nothing is swept; the hook runs before each point of "
                           "--sweep KEY=...");
  if (o.plot.empty()) return Status::Ok();
  if (o.sweeps.empty())
    return Status::Invalid("--plot=" + o.plot + ": nothing is swept; a plot needs --sweep KEY=...");
  IOB_RETURN_IF_ERROR(CheckPlotName(o.plot));
  // The image and its FILE.gp script, written after the run: checked now.
  IOB_RETURN_IF_ERROR(sys::CheckOutputFile(o.plot, "--plot", "the plot (--plot)"));
  return sys::CheckOutputFile(PlotScriptPath(o.plot), "--plot", "the plot's script (--plot)");
}

// A blank line between a table and the text above it (the normal report
// ends with the last run's "Run status" or disk lines, without one).
void SeparateFromAbove(std::string* out) {
  if (out->size() >= 2 && out->back() == '\n' && (*out)[out->size() - 2] != '\n') *out += '\n';
}

// Control characters in a message (a hostile file or job name) are shown
// escaped, not sent to the terminal; a parse error keeps its lines.
void PrintError(const Status& st) {
  std::fprintf(stderr, "iobench: %s\n", sys::Printable(st.message(), true).c_str());
}

// Each failed job's error on stderr as well, as fio's "fio: pid=..., err=..."
// line: the normal report leaves out a job that moved no data (a failed
// exec_prerun, say), and a script should see why the exit code is 1. Verify
// failures were printed as they were found, so they are not repeated.
// `where` names the sweep point and the --repeat run ("--sweep point bs=4k,
// repeat 2/3"; "" for a plain run): the same job fails at one point and not
// at another, and each point's line was the same "job 'x': err=95".
void PrintJobErrors(const RunResult& r, const std::string& where) {
  for (const auto& g : r.groups)
    for (const auto& j : g.jobs) {
      if (j.error == 0 || j.error_printed) continue;
      const std::string clone = j.spec.numjobs > 1 ? " #" + std::to_string(j.jobnum) : "";
      std::fprintf(
          stderr, "iobench: %sjob '%s'%s: err=%d (%s)\n",
          where.empty() ? "" : sys::Printable(where + ": ").c_str(), sys::Printable(j.name).c_str(),
          clone.c_str(), j.error,
          sys::Printable(j.error_message.empty() ? std::strerror(j.error) : j.error_message)
              .c_str());
    }
}

// The heading of the normal report's median tables: "median of 3 runs".
// A run cut by a signal is left out of the median (MergeRepeats), so a
// Ctrl-C'd --repeat=3 may have the median of fewer runs, as each job's
// iobench.repeat.n says (a point whose only run was cut has none: its
// partial figures are all there is): the heading said "median of 3 runs"
// over one run's figures.
std::string MedianHeading(const nlohmann::json& doc, uint32_t repeat) {
  uint64_t lo = repeat, hi = 0;
  if (auto jobs = doc.find("jobs"); doc.is_object() && jobs != doc.end() && jobs->is_array())
    for (const auto& j : *jobs) {
      uint64_t n = 1;
      if (const auto ib = j.find("iobench"); j.is_object() && ib != j.end() && ib->is_object())
        if (const auto rp = ib->find("repeat"); rp != ib->end() && rp->is_object())
          if (const auto nn = rp->find("n"); nn != rp->end() && nn->is_number_unsigned())
            n = nn->get<uint64_t>();
      lo = std::min(lo, n);
      hi = std::max(hi, n);
    }
  if (hi == 0 || (lo == repeat && hi == repeat))
    return "median of " + std::to_string(repeat) + " runs";
  const std::string n =
      lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi);
  return "median of " + n + (hi == 1 ? " run" : " runs") + (lo == hi ? "" : " per point") + " (" +
         std::to_string(repeat) + " asked; a signal stopped the repeats)";
}

// Adds `delta` to a run's group ids (its groups and their jobs). A sweep's
// JSON renumbers each point's groups after the groups of the points before
// it (CombineSweepResults), so that points stay distinct groups; the normal
// report's groupid= and "Run status group N" and terse's field 4 said 0 at
// every point. They take the same numbers from this.
void ShiftGroupIds(RunResult* r, int delta) {
  for (auto& g : r->groups) {
    g.id += delta;
    for (auto& j : g.jobs) j.groupid += delta;
  }
}

// The largest group id of a results document's jobs (-1 with none), as
// CombineSweepResults reads it to number the next point's groups.
int64_t MaxGroupId(const nlohmann::ordered_json& doc) {
  int64_t m = -1;
  if (doc.is_object() && doc.contains("jobs") && doc["jobs"].is_array())
    for (const auto& j : doc["jobs"])
      m = std::max<int64_t>(
          m, j.is_object() && j.contains("groupid") && j["groupid"].is_number_integer()
                 ? j["groupid"].get<int64_t>()
                 : 0);
  return m;
}

// Writes the collected output to --output or stdout.
int Emit(const SessionOptions& o, const std::string& text) {
  if (o.output.empty()) return WriteStdout(text) ? kExitOk : kExitJobFailed;
  return WriteOutputFile(o.output, text, false) ? kExitOk : kExitJobFailed;
}

}  // namespace

namespace {

using sys::WriteAll;

}  // namespace

bool WriteStdout(const std::string& text, const std::string& what) {
  int err = std::fflush(stdout) == 0 ? 0 : errno;
  if (err == 0) err = WriteAll(STDOUT_FILENO, text);
  if (err == 0) return true;
  std::fprintf(stderr, "iobench: cannot write %s to stdout: %s\n", what.c_str(),
               std::strerror(err));
  return false;
}

namespace {

// The descriptor of this process that `path` reopens (/dev/stdout,
// /dev/fd/N, /proc/self/fd/N, /proc/PID/fd/N, and symlinks to them), or -1.
int ReopenedDescriptor(const std::string& path) {
  namespace fs = std::filesystem;
  const std::string own = "/proc/" + std::to_string(getpid()) + "/fd/";
  fs::path p = path;
  for (int hops = 0; hops < 40; ++hops) {
    const std::string s = p.lexically_normal().string();
    if (s == "/dev/stdin") return 0;
    if (s == "/dev/stdout") return 1;
    if (s == "/dev/stderr") return 2;
    for (const std::string& dir : {std::string("/dev/fd/"), std::string("/proc/self/fd/"),
                                   std::string("/proc/thread-self/fd/"), own}) {
      if (s.size() <= dir.size() || s.compare(0, dir.size(), dir) != 0) continue;
      const std::string n = s.substr(dir.size());
      if (n.size() > 9 || n.find_first_not_of("0123456789") != std::string::npos) return -1;
      return std::stoi(n);
    }
    std::error_code ec;
    const fs::path to = fs::read_symlink(p, ec);
    if (ec) return -1;  // not a symlink (or gone): names no descriptor
    p = to.is_absolute() ? to : fs::absolute(p, ec).parent_path() / to;
  }
  return -1;
}

// 1 -> "standard output (descriptor 1)"; 7 -> "descriptor 7".
std::string DescriptorName(int fd) {
  static const char* const kStd[] = {"standard input", "standard output", "standard error"};
  const std::string n = "descriptor " + std::to_string(fd);
  return fd <= 2 ? std::string(kStd[fd]) + " (" + n + ")" : n;
}

// The descriptor `path` reopens when it is closed or not open for writing,
// else -1. Started with a standard descriptor closed, iobench holds
// /dev/null on it, opened the wrong way round (stdout, stderr read-only;
// stdin write-only) so that using it fails as on a closed one
// (docs/safety.md); reopening it by path for writing worked, and the report
// went to /dev/null with exit 0.
int ClosedDescriptorNamed(const std::string& path) {
  const int fd = ReopenedDescriptor(path);
  if (fd < 0) return -1;
  const int fl = fcntl(fd, F_GETFL);
  if (fl == -1 || (fl & O_ACCMODE) == O_RDONLY) return fd;
  struct stat held {
  }, null{};
  if (fd == 0 && (fl & O_ACCMODE) == O_WRONLY && fstat(0, &held) == 0 &&
      stat("/dev/null", &null) == 0 && S_ISCHR(held.st_mode) && held.st_rdev == null.st_rdev)
    return fd;  // stdin held for a closed one
  return -1;
}

// The stop signal that ended the wait for a reader of an --output FIFO, or 0.
int g_fifo_wait_stopped_by = 0;

// Opens --output. A FIFO's open blocks until a reader opens it, and the
// signal handlers restart it (SA_RESTART): one SIGINT or SIGTERM could not
// end that wait (a second one, a second later, did, with no report). With
// `stop` (RunSession's stop flag) a FIFO is opened without blocking and
// tried again every 20 ms until a reader comes, or a stop signal arrives
// during the wait: then -1 with errno EINTR. A stop that came earlier (the
// run was interrupted) still waits for the reader of its report.
int OpenOutputFile(const std::string& path, bool append, const std::atomic<int>* stop = nullptr) {
  if (ClosedDescriptorNamed(path) >= 0) {
    errno = EBADF;
    return -1;
  }
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
  struct stat st {};
  if (stop == nullptr || stat(path.c_str(), &st) != 0 || !S_ISFIFO(st.st_mode))
    return open(path.c_str(), flags, 0644);
  const int stopped_before = stop->load();
  bool stopped = false;
  const int fd = sys::OpenFifoWriter(path, flags, [&] {
    if (stopped_before != 0 || stop->load() == 0) return false;
    g_fifo_wait_stopped_by = stop->load();
    return stopped = true;
  });
  if (fd < 0 && stopped) errno = EINTR;
  return fd;
}

std::string SignalName(int signo) {
  switch (signo) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    case SIGPIPE:
      return "SIGPIPE";
    case SIGXCPU:
      return "SIGXCPU";
    default:
      return "signal " + std::to_string(signo);
  }
}

// Closes `*fd` (if open) and returns `err`, or close's errno (NFS reports
// late) when `err` is 0; says a failure on stderr.
int FinishOutputFile(const std::string& path, int* fd, int err) {
  if (*fd >= 0 && close(*fd) != 0 && err == 0) err = errno;
  *fd = -1;
  if (err == 0) return err;
  const int closed = err == EBADF ? ClosedDescriptorNamed(path) : -1;
  if (err == EINTR && g_fifo_wait_stopped_by != 0)
    std::fprintf(stderr,
                 "iobench: cannot write --output=%s: it is a FIFO that no reader opened, and %s "
                 "ended the wait for one (the report is lost)\n",
                 sys::Printable(path).c_str(), SignalName(g_fifo_wait_stopped_by).c_str());
  else if (closed >= 0)
    std::fprintf(stderr,
                 "iobench: cannot write --output=%s: it names %s, which is closed or read-only\n",
                 sys::Printable(path).c_str(), DescriptorName(closed).c_str());
  else
    std::fprintf(stderr, "iobench: cannot write --output=%s: %s\n", sys::Printable(path).c_str(),
                 std::strerror(err));
  return err;
}

}  // namespace

bool WriteOutputFile(const std::string& path, const std::string& text, bool append) {
  int fd = OpenOutputFile(path, append);
  const int err = fd < 0 ? errno : WriteAll(fd, text);
  return FinishOutputFile(path, &fd, err) == 0;
}

namespace {

// --- issue 8: interim reports -------------------------------------------------

// Where the reports go when interim reports come before the final one: the
// --output file is opened (truncated) once, at the first write, and kept
// open until the last, as fio keeps its f_out. It was reopened for each
// report: a FIFO's reader (`cat ff`) saw EOF after the first interim report
// and left, and the next open blocked for ever, SIGTERM or not.
class Output {
 public:
  // `stop`: a stop signal during the wait for a FIFO's reader ends it.
  Output(std::string path, const std::atomic<int>* stop) : path_(std::move(path)), stop_(stop) {}
  ~Output() {
    if (fd_ >= 0) close(fd_);
  }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;
  // After a failure (said once on stderr) later reports are not tried.
  // `last` (the final report) closes the file, and says a failed close.
  bool Write(const std::string& text, bool last = false) {
    if (failed_) return false;
    written_ = true;
    bool ok = true;
    if (path_.empty()) {
      ok = WriteStdout(text);
    } else {
      if (fd_ < 0) fd_ = OpenOutputFile(path_, false, stop_);
      int err = fd_ < 0 ? errno : WriteAll(fd_, text);
      if (err == 0) lines_ += static_cast<uint64_t>(std::count(text.begin(), text.end(), '\n'));
      // Deleted while open (the header went in at the start): the report
      // is in a file no name reaches.
      if (last && err == 0)
        if (std::string w = sys::DeletedDuringRun(fd_, "--output", path_, lines_); !w.empty())
          std::fprintf(stderr, "iobench: warning: %s\n", w.c_str());
      if (last || err != 0) err = FinishOutputFile(path_, &fd_, err);
      ok = err == 0;
    }
    failed_ = !ok || last;  // nothing is written after the last
    return ok;
  }
  bool written() const { return written_; }

 private:
  std::string path_;
  const std::atomic<int>* stop_;
  int fd_ = -1;
  uint64_t lines_ = 0;  // written to fd_
  bool written_ = false;
  bool failed_ = false;
};

// The earlier snapshot, shaped like `later` so IntervalResult can subtract:
// jobs that had not started then (a later phase) count from zero.
RunResult AlignEarlier(const RunResult& later, const RunResult& earlier) {
  RunResult out = earlier;
  out.groups.clear();
  for (const GroupResult& lg : later.groups) {
    GroupResult g = lg;
    g.jobs.clear();
    const GroupResult* eg = nullptr;
    for (const GroupResult& e : earlier.groups)
      if (e.id == lg.id) eg = &e;
    for (size_t j = 0; j < lg.jobs.size(); ++j) {
      const JobResult& lj = lg.jobs[j];
      if (eg != nullptr && j < eg->jobs.size() && eg->jobs[j].name == lj.name &&
          eg->jobs[j].jobnum == lj.jobnum) {
        g.jobs.push_back(eg->jobs[j]);
        continue;
      }
      JobResult z;
      z.name = lj.name;
      z.groupid = lj.groupid;
      z.jobnum = lj.jobnum;
      z.spec = lj.spec;
      g.jobs.push_back(std::move(z));
    }
    out.groups.push_back(std::move(g));
  }
  return out;
}

// The normal report's header as the jobs start, as fio prints its job lines
// and "Starting N processes" before any I/O (a run of minutes showed nothing
// on a terminal or in a `tee`d log until it ended): the context and the job
// lines when the first phase starts, each later phase's new target and
// warning lines when it starts, and after the run whatever the final header
// holds that did not go out yet. Lines are told apart by their text, counted
// (a numjobs job's "..." line may repeat). Main thread.
//
// A replay (read_iolog) runs reshaped to its log (rw=, bs=: docs/replay.md),
// which the job as written does not say: its line goes out when its phase
// starts, from the job the phase runs. Planned from the job as written, it
// went out at the start and the reshaped line after it, two lines for one job.
class HeaderAtStart {
 public:
  explicit HeaderAtStart(const std::vector<JobSpec>& jobs)
      : jobs_(jobs), known_(jobs.size(), false) {
    for (size_t i = 0; i < jobs_.size(); ++i) known_[i] = jobs_[i].read_iolog.empty();
  }
  // A phase starts with these workers' jobs (RunOptions::on_phase_start,
  // clones of a job in a row, the jobs in their order): each is the job as
  // it runs. Matched by name from the last one matched (phases run the jobs
  // in order; a job that failed alone has no worker).
  void PhaseStarts(const std::vector<const JobSpec*>& specs) {
    const JobSpec* last = nullptr;
    for (const JobSpec* s : specs) {
      if (s == nullptr || s == last) continue;
      last = s;
      for (size_t i = next_; i < jobs_.size(); ++i)
        if (jobs_[i].name == s->name) {
          jobs_[i] = *s;
          known_[i] = true;
          next_ = i + 1;
          break;
        }
    }
  }
  // The header as planned: this context, the lines of the jobs known so
  // far, the number of threads to start (every job's).
  std::string Planned(const RunContext& ctx, const ReportOptions& ro) const {
    RunResult r;
    r.context = ctx;
    auto groups = ReportGroupIds(jobs_);
    for (size_t i = 0; i < jobs_.size(); ++i) {
      const int g = groups.ok() ? (*groups)[i] : 0;
      if (r.groups.empty() || r.groups.back().id != g) {
        r.groups.emplace_back();
        r.groups.back().id = g;
      }
      for (uint32_t k = 0; k < std::max<uint32_t>(1, jobs_[i].numjobs); ++k) {
        JobResult j;
        j.name = jobs_[i].name;
        j.groupid = g;
        // A job not known yet counts in "Starting N threads"; its line
        // (printed for clone 0) waits for its phase.
        j.jobnum = known_[i] ? k : k + 1;
        j.spec = jobs_[i];
        r.groups.back().jobs.push_back(std::move(j));
      }
    }
    ReportOptions full = ro;
    full.interim = false;
    return FormatNormalHeader(r, full);
  }
  // The lines of `header` not printed yet, in its order; they count as printed.
  std::string NewLines(const std::string& header) {
    std::map<std::string, int> seen;
    std::string out;
    size_t pos = 0;
    while (pos < header.size()) {
      size_t end = header.find('\n', pos);
      end = end == std::string::npos ? header.size() : end + 1;
      std::string line = header.substr(pos, end - pos);
      pos = end;
      if (++seen[line] > printed_[line]) {
        ++printed_[line];
        out += line;
      }
    }
    return out;
  }
  bool started() const { return !printed_.empty(); }

 private:
  std::vector<JobSpec> jobs_;  // as they run, once known_
  std::vector<bool> known_;
  size_t next_ = 0;  // the first job no phase has started yet
  std::map<std::string, int> printed_;
};

// Prints interim reports of one run in every requested format. Main thread.
class InterimPrinter {
 public:
  InterimPrinter(const SessionOptions& o, const ReportOptions& ropts, Output* out)
      : o_(o), ropts_(ropts), out_(out) {
    auto mode = ParseStatusIntervalMode(o.status_interval_mode);
    interval_ = mode.ok() && *mode == StatusIntervalMode::kInterval;
  }
  bool interval() const { return interval_; }
  // A new run (sweep point or repeat): intervals restart. `group_base` is
  // the point's first group id in the sweep's final report, so its interim
  // reports number the groups as that report does (they said 0 at every
  // point, the final report 0 and 1).
  void StartRun(int group_base) {
    group_base_ = group_base;
    have_prev_ = false;
    printed_ = false;
    normal_printed_ = false;
  }
  void Print(const RunResult& snapshot) {
    if (!interval_) {
      Write(snapshot);
    } else {
      Result<RunResult> r = have_prev_ ? IntervalResult(snapshot, AlignEarlier(snapshot, prev_))
                                       : Result<RunResult>(snapshot);
      if (!r.ok()) {
        std::fprintf(stderr, "iobench: %s\n", r.status().message().c_str());
        return;
      }
      Write(*r);
      prev_ = snapshot;
      have_prev_ = true;
    }
    printed_ = true;
  }
  // Interval mode: the tail after the last interim report, so the interval
  // reports add up to the final numbers exactly. Nothing if none was printed.
  void PrintLastInterval(const RunResult& final_result) {
    if (interval_ && printed_) Print(final_result);
  }
  // Once a JSON interim report went out, the final report is one line too.
  bool json_lines() const { return json_lines_; }
  // A normal interim report of this run went out with the header lines
  // (context block, job lines): later reports of the run leave them out.
  bool normal_printed() const { return normal_printed_; }
  // The header lines went out as the jobs started (HeaderAtStart).
  void HeaderPrinted() { normal_printed_ = true; }

 private:
  void Write(const RunResult& run) {
    // The run numbers its groups from 0; the snapshots and the interval
    // arithmetic stay in its numbers, only what is printed is shifted.
    RunResult shifted;
    if (group_base_ != 0) {
      shifted = run;
      ShiftGroupIds(&shifted, group_base_);
    }
    const RunResult& r = group_base_ != 0 ? shifted : run;
    std::string text;
    if (Has(o_.formats, "normal")) {
      // The header lines first, before any other format, as fio prints them.
      ReportOptions ro = ropts_;
      ro.interim = normal_printed_;
      text = FormatNormalHeader(r, ro);
    }
    for (const auto& f : InFioOrder(o_.formats)) {
      if (f == "normal") {
        std::ostringstream s;
        (void)WriteNormalBody(r, s);
        text += s.str();
        normal_printed_ = true;
      } else if (f == "terse") {
        std::ostringstream s;
        (void)WriteTerse(r, ropts_, s);
        text += s.str();
      } else if ((f == "json" || f == "json+") && !text_has_json_) {
        auto line = JsonToLine(FioJsonText(BuildJsonReport(r, ropts_, Has(o_.formats, "json+"))));
        if (line.ok()) text += *line;
        json_lines_ = true;
        text_has_json_ = true;  // json and json+ together: one document
      }
    }
    text_has_json_ = false;
    out_->Write(text);
  }

  const SessionOptions& o_;
  const ReportOptions& ropts_;
  Output* out_;
  int group_base_ = 0;
  bool normal_printed_ = false;
  bool interval_ = false;
  bool have_prev_ = false;
  bool printed_ = false;
  bool json_lines_ = false;
  bool text_has_json_ = false;
  RunResult prev_;
};

// --- end issue 8 ----------------------------------------------------------------

Result<TableOptions> MakeTableOptions(const SessionOptions& o) {
  TableOptions t;
  IOB_ASSIGN_OR_RETURN(t.metrics, ParseTableMetrics(o.table_metric));
  IOB_ASSIGN_OR_RETURN(t.style, ParseTableStyle(o.table_style));
  t.row_key = CanonicalKey(o, o.table_rows);  // the points hold bs, not blocksize
  t.col_key = CanonicalKey(o, o.table_cols);
  return t;
}

// --compare-labels=BASE,NEW: the two column headers (seed 004's "bio(base)"
// and "blk-mq"); unset, the file names (and "this run"). `\,` is a comma
// in a label, as in a --sweep value ('a\,1,b': "a,1" and "b").
Status ApplyCompareLabels(const SessionOptions& o, TableOptions* t) {
  if (o.compare_labels.empty()) return Status::Ok();
  const std::vector<std::string> labels = sweep::SplitValues(o.compare_labels);
  if (labels.size() != 2 || labels[0].empty() || labels[1].empty())
    return Status::Invalid("--compare-labels=" + o.compare_labels +
                           ": want two labels, BASE,NEW (e.g. 'bio(base),blk-mq'; \\, is a "
                           "comma in a label)");
  t->base_label = labels[0];
  t->new_label = labels[1];
  return Status::Ok();
}

// The live status line of a session: SessionProgress on the real clock,
// drawn by the printer. Main thread.
class StatusDriver {
 public:
  explicit StatusDriver(const SessionOptions& o)
      : printer_(STDOUT_FILENO, Options(o)), progress_(NowNs()) {}
  bool enabled() const { return printer_.enabled(); }
  void SetPlan(std::vector<int64_t> runs) { progress_.SetPlan(std::move(runs)); }
  void StartRun(size_t index, const std::vector<JobSpec>& jobs) {
    if (enabled()) progress_.StartRun(index, jobs, NowNs());
  }
  void EndRun() {
    if (enabled()) progress_.EndRun(NowNs());
  }
  void PhaseStart(const std::vector<const JobSpec*>& specs) {
    progress_.PhaseStart(specs, NowNs());
  }
  // Called every ~20 ms while a phase runs; the printer draws when its
  // interval is due.
  void Tick(const std::vector<const LiveCounters*>& live) {
    const uint64_t now = NowNs();
    progress_.Load(live, now);
    printer_.Update(progress_.status(), now);
  }
  // The phase's workers have finished: their final states (_, X, K).
  void PhaseEnd(const std::vector<const LiveCounters*>& live) { progress_.Load(live, NowNs()); }
  void Clear() { printer_.Clear(); }
  void Finish() { printer_.Finish(); }

 private:
  static StatusPrinterOptions Options(const SessionOptions& o) {
    StatusPrinterOptions p;
    auto mode = ParseEtaMode(o.eta);
    p.mode = mode.ok() ? *mode : EtaMode::kAuto;
    p.interval_ns = std::max<uint64_t>(o.eta_interval_ms, 250) * 1000000ull;
    p.newline_ns = o.eta_newline_ms * 1000000ull;
    // A JSON or terse report on stdout gets no status bytes in it (fio),
    // nor does one whose --output names stdout itself (/dev/stdout, the
    // file or pipe stdout is): "the report is elsewhere" put the line
    // inside the JSON document there.
    p.reports_here = ReportGoesToFd(o.output, STDOUT_FILENO);
    p.allowed = StatusLineAllowed(o.formats, p.reports_here);
    return p;
  }
  StatusPrinter printer_;
  SessionProgress progress_;
};

// Everything RunSession can know wrong before it runs anything: the report
// and table options, --compare's base (read now, not after the run), every
// sweep value, the --sweep-cmd template, --table-rows/--table-cols.
struct SessionPlan {
  TableOptions table;
  std::optional<nlohmann::json> compare_base;
  std::vector<sweep::SweepPoint> points;  // one empty point without --sweep
  // The jobs of each point, with its values applied (checked once, here).
  std::vector<std::vector<JobSpec>> point_jobs;
  // What the parser warns of the --sweep values, once each.
  std::vector<std::string> warnings;
};

// --compare BASE.json against jobs still to run: a base that matches none of
// them (another job file, a plain run against a sweep) is refused before the
// run, with the words the comparison after the run would use; it was found
// only then, after the whole run or sweep had been spent. Jobs are matched by
// name, reporting group and sweep point, all known now: the comparison runs
// on a document of the planned jobs that holds nothing else.
Status CheckCompareMatch(const SessionOptions& o, const SessionPlan& plan,
                         const std::vector<JobSpec>& jobs) {
  std::vector<std::pair<sweep::SweepPoint, nlohmann::ordered_json>> planned;
  for (size_t i = 0; i < plan.points.size(); ++i) {
    const std::vector<JobSpec>& pj = plan.point_jobs[i];
    auto groups = ReportGroupIds(pj);
    if (!groups.ok()) return Status::Ok();  // the run refuses these jobs in its own words
    // The entries the run's report will hold: with group_reporting, one
    // per group (or run of such jobs in it), named after its first job,
    // by the report's own rule (RecordMembers). Each job was listed, and
    // `--compare base.json gr.fio` said "only in this run: b" of a job
    // merged into a's group, which no run reports.
    std::map<int, std::vector<const JobSpec*>> by_group;  // group ids count up in run order
    for (size_t k = 0; k < pj.size(); ++k) by_group[(*groups)[k]].push_back(&pj[k]);
    nlohmann::ordered_json doc = {{"jobs", nlohmann::ordered_json::array()}};
    for (const auto& [id, group] : by_group)
      for (const auto& record : RecordMembers(group))
        doc["jobs"].push_back({{"jobname", group[record.front()]->name}, {"groupid", id}});
    planned.emplace_back(plan.points[i], std::move(doc));
  }
  if (planned.empty() || planned.front().second["jobs"].empty()) return Status::Ok();
  nlohmann::json neu = nlohmann::json::parse((o.sweeps.empty() && o.repeat == 1
                                                  ? planned.front().second
                                                  : sweep::CombineSweepResults(planned, nullptr))
                                                 .dump());
  TableOptions t = plan.table;
  t.base_label = o.compare[0];
  t.new_label = "this run";
  IOB_RETURN_IF_ERROR(ApplyCompareLabels(o, &t));
  AlignPointSpellings(o, *plan.compare_base, DocKbBases(*plan.compare_base), &neu, KbBases(jobs));
  auto cmp = RenderCompare(*plan.compare_base, neu, t);
  return cmp.ok() ? Status::Ok() : cmp.status();
}

Result<SessionPlan> PlanSession(const std::vector<JobSpec>& jobs, const SessionOptions& o) {
  SessionPlan plan;
  Result<TableOptions> topts = MakeTableOptions(o);
  if (!topts.ok()) return topts.status();
  plan.table = std::move(*topts);
  TableOptions labels;
  if (o.compare.empty() && !o.compare_labels.empty())
    return Status::Invalid("--compare-labels=" + o.compare_labels +
                           ": names the two sides of --compare, which is not given");
  if (!o.compare.empty()) {
    labels.base_label = o.compare[0];  // as RenderCompare names it after the run
    IOB_RETURN_IF_ERROR(ApplyCompareLabels(o, &labels));
  }
  if (o.repeat == 0) return Status::Invalid("--repeat must be at least 1");
  // The report is written after the run: what would stop it is checked now.
  IOB_RETURN_IF_ERROR(sys::CheckOutputFile(o.output, "--output", "the report (--output)"));
  if (const int fd = o.output.empty() ? -1 : ClosedDescriptorNamed(o.output); fd >= 0)
    return Status::Invalid("--output=" + sys::Printable(o.output) + ": it names " +
                           DescriptorName(fd) +
                           ", which is closed or read-only: the report would be "
                           "lost");
  IOB_RETURN_IF_ERROR(CheckReportOptions(o));
  if (!o.compare.empty()) {
    auto base = LoadResultsJson(o.compare[0]);
    if (!base.ok()) return base.status();
    CanonicalizeSweepKeys(o, &*base);
    IOB_RETURN_IF_ERROR(CheckPointSpellings(o, *base, o.compare[0], DocKbBases(*base)));
    // Refused now rather than after the run (RenderCompare says the same).
    if (table::AllJobs(*base).empty())
      return Status::Invalid("compare: " + labels.base_label + " holds no jobs");
    plan.compare_base = std::move(*base);
  }
  plan.points.resize(1);
  plan.point_jobs = {jobs};
  if (!o.sweeps.empty()) {
    // Values and range bounds as the jobs read them (their kb_base).
    const std::vector<uint32_t> kbs = KbBases(jobs);
    auto expanded =
        sweep::ExpandSweeps(o.sweeps, o.canonical_option, ValueKeyFor(o, kbs), SizeUnitFor(o, kbs));
    if (!expanded.ok()) return expanded.status();
    plan.points = std::move(*expanded);
    // kb_base says how the sizes of its own section are read: set at a
    // point, after the job's sizes were read, it changed none of them
    // (size=1m was 1 MiB at kb_base=1000 and at 1024), only the report's
    // unit labels. It is the only option that changes how others read.
    if (plan.points.front().Find("kb_base") != nullptr)
      return Status::Invalid(
          "--sweep kb_base=...: kb_base cannot be swept: it says how the sizes written beside "
          "it are read, and a sweep point sets it after the job's sizes were read, so no size "
          "would change (size=1m stays 1 MiB); set it in the job file or with --kb_base, and "
          "sweep the sizes themselves (--sweep bs=4000,4096)");
    // A key that is no job option only means something to --sweep-cmd;
    // without one the "sweep" would run the same jobs again and again.
    // With one, such a key reaches nothing but the hook, through {KEY} or
    // {} in its template (the hook gets no other copy of the values): one
    // the hook does not use is a typo too (--sweep iodeph=1,2
    // --sweep-cmd=sync ran the same jobs at every point, exit 0).
    std::vector<std::string> used;
    if (!o.sweep_cmd.empty())
      IOB_RETURN_IF_ERROR(sweep::ExpandHookCommand(o.sweep_cmd, plan.points.front(),
                                                   o.is_job_option, o.canonical_option, &used)
                              .status());
    if (o.is_job_option)
      for (const auto& [key, value] : plan.points.front().values) {
        if (o.is_job_option(key) || std::find(used.begin(), used.end(), key) != used.end())
          continue;
        const std::string k = sys::Shortened(key);
        const std::string hook = o.sweep_cmd.empty()
                                     ? "there is no --sweep-cmd to use it"
                                     : "--sweep-cmd '" + sys::Shortened(o.sweep_cmd) +
                                           "' does not use it (write {" + k +
                                           "} where the hook takes its value)";
        // --sweep eta=never,always: "did you mean ba?" said nothing of why.
        if (o.tool_option && !o.tool_option(key).empty())
          return Status::Invalid("--sweep " + k + "=...: '" + k + "' is the tool option " +
                                 o.tool_option(key) +
                                 ", which cannot be swept: a sweep point sets job options, and "
                                 "a tool option applies to the whole run; " +
                                 hook);
        const std::string near = o.suggest_option ? o.suggest_option(key) : "";
        return Status::Invalid("--sweep " + k + "=...: '" + k + "' is not a job option, and " +
                               hook + (near.empty() ? "" : "; did you mean " + near + "?"));
      }
    // Every point must be valid before the first one runs: a bad value at
    // the end of a long sweep would otherwise waste the sweep. Whole points,
    // as they will run: a value alone may need another key of its point
    // (--sweep ioengine=io_uring --sweep force_async=0,1 was refused, since
    // force_async alone met the base job's psync).
    plan.point_jobs.clear();
    for (const auto& point : plan.points) {
      auto applied = sweep::ApplyPoint(jobs, point, o.set_option, o.is_job_option, &plan.warnings);
      if (!applied.ok()) return applied.status();
      plan.point_jobs.push_back(std::move(*applied));
    }
    // And each point's jobs as a run checks them before its I/O (options,
    // engines, --readonly, targets and regions that are there already): a
    // point refused after earlier ones ran stopped the sweep half-way.
    RunOptions check;
    check.readonly = o.readonly;
    for (size_t i = 0; i < plan.points.size(); ++i)
      IOB_RETURN_IF_ERROR(PreflightJobs(plan.point_jobs[i], check, !o.sweep_cmd.empty())
                              .WithContext("--sweep point " + plan.points[i].Label()));
  }
  // A --sweep-cmd template naming no swept key ({typo}) is bad input: every
  // point has the same keys, so the first point tells.
  if (!o.sweep_cmd.empty()) {
    auto cmd = sweep::ExpandHookCommand(o.sweep_cmd, plan.points.front(), o.is_job_option,
                                        o.canonical_option);
    if (!cmd.ok()) return cmd.status();
  }
  // --table-rows/--table-cols name swept keys: refuse a typo before the run,
  // not after it.
  for (const std::string* k : {&o.table_rows, &o.table_cols}) {
    if (k->empty()) continue;
    bool swept = false;
    for (const auto& sw : o.sweeps)
      swept |= CanonicalKey(o, sw.substr(0, sw.find('='))) == CanonicalKey(o, *k);
    if (!swept)
      return Status::Invalid("--table-" + std::string(k == &o.table_rows ? "rows" : "cols") + "=" +
                             sys::Shortened(*k) + ": not a swept key (--sweep " +
                             sys::Shortened(*k) + "=...)");
  }
  if (plan.compare_base) IOB_RETURN_IF_ERROR(CheckCompareMatch(o, plan, jobs));
  return plan;
}

}  // namespace

Result<std::vector<std::pair<sweep::SweepPoint, std::vector<JobSpec>>>> PlanPoints(
    const std::vector<JobSpec>& jobs, const SessionOptions& o) {
  IOB_ASSIGN_OR_RETURN(SessionPlan plan, PlanSession(jobs, o));
  std::vector<std::pair<sweep::SweepPoint, std::vector<JobSpec>>> out;
  for (size_t i = 0; i < plan.points.size(); ++i)
    out.emplace_back(plan.points[i], std::move(plan.point_jobs[i]));
  return out;
}

std::vector<std::string> SweepWarnings(const std::vector<JobSpec>& jobs, const SessionOptions& o) {
  if (o.sweeps.empty()) return {};
  Result<SessionPlan> plan = PlanSession(jobs, o);
  return plan.ok() ? std::move(plan->warnings) : std::vector<std::string>{};
}

Status CheckSession(const std::vector<JobSpec>& jobs, const SessionOptions& o,
                    const RunOptions& check) {
  Result<SessionPlan> plan = PlanSession(jobs, o);
  if (!plan.ok()) return plan.status();
  if (o.sweeps.empty()) return CheckJobs(jobs, check);
  for (size_t i = 0; i < plan->points.size(); ++i)
    IOB_RETURN_IF_ERROR(CheckJobs(plan->point_jobs[i], check)
                            .WithContext("sweep point " + plan->points[i].Label()));
  return Status::Ok();
}

namespace {

// The clock a run of `jobs` reads. One clock for the run: a job that asks
// for clock_gettime (or gettimeofday, which we serve with clock_gettime)
// gets it for all, as fio's clocksource is process-wide. A job that names
// clocksource=cpu gets the TSC when it is invariant, even where the kernel
// runs on another clocksource (kvm-clock), as fio.
ClockSource WantedClock(const std::vector<JobSpec>& jobs) {
  ClockSource want = ClockSource::kAuto;
  for (const JobSpec& j : jobs) {
    if (j.clocksource == JobSpec::ClockSourceChoice::kClockGettime ||
        j.clocksource == JobSpec::ClockSourceChoice::kGettimeofday)
      want = ClockSource::kClockGettime;  // wins over any clocksource=cpu
    else if (j.clocksource == JobSpec::ClockSourceChoice::kCpu && want == ClockSource::kAuto)
      want = ClockSource::kTsc;
  }
  return want;
}

}  // namespace

int RunSession(const std::vector<JobSpec>& jobs, const SessionOptions& o) {
  ClockSource clock_want = WantedClock(jobs);
  InitClock(clock_want);
  static std::atomic<int> stop{0};
  static std::atomic<int> report_now{0};
  InstallSignalHandlers(&stop, &report_now);
  // The soft CPU time limit as set: the kernel raises it by a second with
  // each SIGXCPU it sends.
  struct rlimit cpu_limit {};
  if (getrlimit(RLIMIT_CPU, &cpu_limit) != 0) cpu_limit.rlim_cur = RLIM_INFINITY;
  // bash's `ulimit -t N` sets the soft and the hard limit alike, and at the
  // hard one the kernel sends SIGKILL, never SIGXCPU: the run died with no
  // report. The soft limit a second below gives the stop its second.
  if (cpu_limit.rlim_cur != RLIM_INFINITY && cpu_limit.rlim_cur == cpu_limit.rlim_max &&
      cpu_limit.rlim_max > 1) {
    struct rlimit lowered = cpu_limit;
    lowered.rlim_cur = cpu_limit.rlim_max - 1;
    setrlimit(RLIMIT_CPU, &lowered);  // the message names the limit as the user set it
  }

  const bool want_table = Has(o.formats, "table");
  const bool want_plus = Has(o.formats, "json+");
  Result<SessionPlan> plan = PlanSession(jobs, o);
  if (!plan.ok()) {
    PrintError(plan.status());
    return kExitUsage;
  }
  const TableOptions& table = plan->table;
  const std::optional<nlohmann::json>& compare_base = plan->compare_base;
  const std::vector<sweep::SweepPoint>& points = plan->points;
  const bool sweeping = !o.sweeps.empty();
  // Readers of the document (per point): tables, --compare, --plot, the
  // sweep and repeat merges. json/json+ print it (fio's key order, kept
  // through the merges).
  const bool want_json = Has(o.formats, "json") || want_plus;
  const bool need_doc =
      sweeping || o.repeat > 1 || want_table || compare_base.has_value() || !o.plot.empty();

  ReportOptions ropts;
  ropts.cmdline = o.cmdline;
  ropts.job_files = o.job_files;
  ropts.terse_version = o.terse_version;

  StatusDriver status(o);
  if (status.enabled()) {
    // The plan of every run, for the % and the ETA of the whole session.
    std::vector<int64_t> lengths;
    for (const auto& pj : plan->point_jobs)
      lengths.insert(lengths.end(), o.repeat, RunRemainingNs(PlanRun(pj), 0));
    status.SetPlan(std::move(lengths));
  }
  Output output(o.output, &stop);
  InterimPrinter interim(o, ropts, &output);
  std::ostringstream normal, normal_head, terse;
  std::vector<std::pair<sweep::SweepPoint, nlohmann::ordered_json>> per_point;
  std::vector<std::string> hook_logs;
  int exit_code = kExitOk;
  bool interrupted = false;
  size_t runs_done = 0;
  // A failing --sweep-cmd hook: its exit code, the point and the command,
  // for the report (iobench.sweep.stopped, the table's note).
  std::optional<nlohmann::ordered_json> hook_failure;
  // The points that ran (indices into `points`), and the ones a run refused
  // at its set-up, with why: such a point fails alone and the sweep goes on.
  std::vector<size_t> ran;
  nlohmann::ordered_json refused = nlohmann::ordered_json::array();
  // The first group id of this point in the sweep's document: the text
  // reports number the groups as it does.
  int group_base = 0;

  for (size_t pi = 0; pi < points.size(); ++pi) {
    const sweep::SweepPoint& point = points[pi];
    if (interrupted) break;
    if (!o.sweep_cmd.empty()) hook_logs.emplace_back();             // this point's, all its runs
    const std::vector<JobSpec>& point_jobs = plan->point_jobs[pi];  // checked in PlanSession
    // Each point reads the clock its own jobs ask for: --sweep
    // clocksource=cpu,clock_gettime ran both points on the base jobs'
    // clock (and the JSON's job options named the other). No other thread
    // reads the clock between runs: a run that leaves a stuck worker behind
    // stops the sweep.
    if (const ClockSource want = WantedClock(point_jobs); want != clock_want) {
      clock_want = want;
      InitClock(want);
    }
    std::vector<nlohmann::ordered_json> runs;
    // A run of this point, for the terse records of the median: their
    // figures are the merged document's, their layout (which records, the
    // percentile list) the jobs' (every run of a point has the same).
    std::optional<RunResult> terse_shape;
    for (uint32_t rep = 0; rep < o.repeat && !interrupted; ++rep) {
      // The hook prepares each run (drop the caches, set the readahead),
      // so it runs before every --repeat run of the point, not once per
      // point: a drop-caches hook left runs 2..N warm.
      if (!o.sweep_cmd.empty()) {
        std::string log;
        int code = 0;
        // Which run it prepares, in its log and in its error.
        const std::string run =
            o.repeat > 1 ? "repeat " + std::to_string(rep + 1) + "/" + std::to_string(o.repeat)
                         : "";
        Status st = sweep::RunHook(o.sweep_cmd, point, &log, o.is_job_option, &code,
                                   o.canonical_option, run);
        hook_logs.back() += log;
        // Ctrl-C while the hook ran (the hook may even have died of it):
        // the run is not made. Run with the stop flag set, it did no I/O
        // and was reported as a real 0.
        if (stop.load() != 0) {
          interrupted = true;
          break;
        }
        if (!st.ok()) {
          status.Clear();
          PrintError(st);
          exit_code = code != 0 ? code : kExitJobFailed;
          auto cmd =
              sweep::ExpandHookCommand(o.sweep_cmd, point, o.is_job_option, o.canonical_option);
          hook_failure = nlohmann::ordered_json{{"by", "sweep-cmd"},
                                                {"point", sweep::PointToJson(point)},
                                                {"command", cmd.ok() ? *cmd : o.sweep_cmd},
                                                {"exit_code", exit_code}};
          break;
        }
      }
      RunOptions run_opts;
      run_opts.readonly = o.readonly;
      run_opts.job_files = o.files_read;
      run_opts.stop_signal = &stop;
      if (o.stuck_timeout_ms >= 0) {  // --stuck-timeout (docs/safety.md, the watchdog)
        run_opts.stop_grace_ms = static_cast<uint32_t>(o.stuck_timeout_ms);
        run_opts.runtime_grace_ms = static_cast<uint32_t>(o.stuck_timeout_ms);
      }
      if (status.enabled()) {
        run_opts.on_phase_start = [&](const std::vector<const JobSpec*>& s) {
          status.PhaseStart(s);
        };
        // The line polls: it draws when its --eta-interval is due.
        run_opts.on_tick = [&](const std::vector<const LiveCounters*>& l) { status.Tick(l); };
        run_opts.tick_ns = 20ull * 1000 * 1000;
        run_opts.on_phase_end = [&](const std::vector<const LiveCounters*>& l) {
          status.PhaseEnd(l);
        };
      }
      // issue 8: interim reports (--status-interval, SIGUSR1) and --bandwidth-log
      run_opts.bandwidth_log = o.bandwidth_log;
      run_opts.status_interval_ns = o.status_interval_ns;
      run_opts.report_signal = &report_now;
      run_opts.interval_reports = interim.interval();
      // Interim reports of a sweep name their point (they said "point": {}).
      run_opts.point = point.values;
      if (o.repeat > 1) {  // and a repeat's, which run it is
        run_opts.repeat_run = rep + 1;
        run_opts.repeat_n = o.repeat;
      }
      run_opts.on_interim = [&](const RunResult& snap) {
        status.Clear();
        interim.Print(snap);
      };
      // A sweep's or a repeat's header stays with its own run's report.
      HeaderAtStart early(point_jobs);
      RunContext phase_ctx;
      if (Has(o.formats, "normal") && !sweeping && o.repeat == 1) {
        // The context comes first, then the phase's jobs as they run.
        run_opts.on_context = [&](const RunContext& ctx) { phase_ctx = ctx; };
        run_opts.on_phase_start = [&, status_line = std::move(run_opts.on_phase_start)](
                                      const std::vector<const JobSpec*>& s) {
          early.PhaseStarts(s);
          const std::string text = early.NewLines(early.Planned(phase_ctx, ropts));
          if (!text.empty()) {
            status.Clear();
            (void)output.Write(text);  // a failure is said once; the final write says nothing more
            interim.HeaderPrinted();
          }
          if (status_line) status_line(s);
        };
      }
      // Where this run is, for its errors on stderr.
      std::string where = sweeping ? "--sweep point " + point.Label() : "";
      if (o.repeat > 1)
        where += (where.empty() ? "" : ", ") + std::string("repeat ") + std::to_string(rep + 1) +
                 "/" + std::to_string(o.repeat);
      interim.StartRun(group_base);
      status.StartRun(runs_done, point_jobs);
      Result<RunResult> res = RunJobs(point_jobs, run_opts);
      ++runs_done;
      status.EndRun();
      if (!res.ok()) {
        status.Clear();
        // A sweep point refused at its set-up (what only a run can check:
        // a file an earlier point created, an engine's probe of the file)
        // fails alone: the other points may well run. Anything else (a
        // stuck device) stops the sweep.
        const bool alone = sweeping && IsRefusal(res.status()) && LeftBehindThreads() == 0;
        const Status st = where.empty() ? res.status() : res.status().WithContext(where);
        PrintError(st);
        exit_code = std::max(exit_code, ExitFor(res.status()));
        if (alone && runs.empty()) {
          refused.push_back(
              {{"point", sweep::PointToJson(point)}, {"error", res.status().message()}});
        } else if (!alone) {
          interrupted = true;  // stop the sweep: the same jobs would fail again
        }
        break;
      }
      status.Clear();
      PrintJobErrors(*res, where);
      interim.PrintLastInterval(*res);  // issue 8
      // The text reports number the point's groups as the sweep's JSON
      // does; the point's own document keeps the run's (CombineSweepResults
      // renumbers them).
      ShiftGroupIds(&*res, group_base);
      if (sweeping || o.repeat > 1) {
        std::string label = point.Label();
        if (o.repeat > 1)
          label += (label.empty() ? "" : " ") + std::string("repeat ") + std::to_string(rep + 1) +
                   "/" + std::to_string(o.repeat);
        normal << "\n=== " << label << " ===\n";
      }
      if (Has(o.formats, "normal")) {
        ReportOptions ro = ropts;
        ro.interim = interim.normal_printed();  // the header went out with the first report
        // fio prints the header lines as the jobs start, before any other
        // format's output; a sweep's or a repeat's goes with its own point.
        std::ostringstream& head = sweeping || o.repeat > 1 ? normal : normal_head;
        if (early.started()) {
          // What the header as planned lacked: a line only the end knows
          // (the interruption note).
          ReportOptions full = ro;
          full.interim = false;
          head << early.NewLines(FormatNormalHeader(*res, full));
        } else {
          head << FormatNormalHeader(*res, ro);
        }
        (void)WriteNormalBody(*res, normal);
      }
      // --repeat: terse has the median's records, after the merge below.
      if (Has(o.formats, "terse") && o.repeat == 1) (void)WriteTerse(*res, ropts, terse);
      ShiftGroupIds(&*res, -group_base);
      // The JSON document only when something prints or reads it: for 252
      // jobs printed as text, building it and parsing it back cost a third
      // of the run's wall time.
      if (need_doc || want_json) {
        runs.push_back(BuildJsonReport(*res, ropts, want_plus));
      } else {
        runs.emplace_back();
      }
      exit_code = std::max(exit_code, res->interrupted ? 0 : res->exit_code);
      if (res->interrupted) interrupted = true;
      if (Has(o.formats, "terse") && o.repeat > 1) terse_shape = std::move(*res);
    }
    // A hook that failed before a later run of the point stops the sweep
    // there: the point is not reported (its medians would be of fewer runs
    // than asked, for no reason a reader could see) and is in not_run.
    if (hook_failure) break;
    if (runs.empty()) {
      if (!refused.empty() && refused.back()["point"] == sweep::PointToJson(point)) continue;
      break;
    }
    ran.push_back(pi);
    if (runs.size() == 1) {
      per_point.emplace_back(point, std::move(runs[0]));
    } else {
      auto merged = sweep::MergeRepeats(runs);
      per_point.emplace_back(point, merged.ok() ? std::move(*merged) : std::move(runs.back()));
    }
    // fio's terse readers take one record per job of a run: with --repeat
    // the run's result is the median, as in the JSON (docs/sweep.md), so a
    // script gets the line count and the figures of one run.
    if (terse_shape) {
      nlohmann::ordered_json numbered = per_point.back().second;
      if (group_base != 0 && numbered.contains("jobs") && numbered["jobs"].is_array())
        for (auto& j : numbered["jobs"])
          if (j.is_object() && j.contains("groupid") && j["groupid"].is_number_integer())
            j["groupid"] = j["groupid"].get<int64_t>() + group_base;
      (void)WriteTerseFromJson(*terse_shape, numbered, ropts, terse);
    }
    group_base += static_cast<int>(MaxGroupId(per_point.back().second) + 1);
  }
  status.Finish();
  // Stopped in the first point's hook: no report follows, so say why here.
  if (per_point.empty() && interrupted && stop.load() != 0 && !o.sweep_cmd.empty())
    std::fprintf(stderr,
                 "iobench: stopped by signal %d in the --sweep-cmd hook of the first point (%s); "
                 "no point ran\n",
                 stop.load(), points.front().Label().c_str());

  // Reports: whatever was measured, even after an interruption or a failed hook.
  std::string out;
  // In fio's key order and written by FioJsonText, a sweep's or a repeat's
  // document as a single run's: doc.dump(2) sorted the keys and printed
  // "iops": 256000.0, and greps for '"iops" :' found nothing.
  nlohmann::ordered_json doc;
  // Stopped before any point ran, in the first point's --sweep-cmd hook (it
  // failed, or a signal came): the JSON document is still whole, with no
  // jobs, every point in not_run and why it stopped, as when a later
  // point's hook stops the sweep (--output was left an empty file).
  const bool stopped_first =
      sweeping && per_point.empty() &&
      (hook_failure || (interrupted && stop.load() != 0 && !o.sweep_cmd.empty()));
  if (!per_point.empty() || stopped_first)
    doc = (!sweeping && o.repeat == 1) ? per_point[0].second
                                       : sweep::CombineSweepResults(per_point, &hook_logs);
  if (stopped_first) {
    nlohmann::ordered_json keys = nlohmann::ordered_json::array();
    for (const auto& kv : points.front().values) keys.push_back(kv.first);
    doc["iobench"]["sweep"]["keys"] = std::move(keys);
  }
  if (sweeping && (!per_point.empty() || stopped_first)) {
    // Ctrl-C or a failing hook stops a sweep early: say which points the
    // document lacks, so a table or a script does not take it as the whole.
    doc["iobench"]["sweep"]["planned_points"] = points.size();
    nlohmann::ordered_json not_run = nlohmann::ordered_json::array();
    for (size_t i = 0; i < points.size(); ++i)
      if (std::find(ran.begin(), ran.end(), i) == ran.end())
        not_run.push_back(sweep::PointToJson(points[i]));
    doc["iobench"]["sweep"]["not_run"] = std::move(not_run);
    // Points refused at their set-up: which, and why; the run's exit code
    // is theirs too (the document said 0 while iobench exited 2).
    if (!refused.empty()) {
      doc["iobench"]["sweep"]["refused"] = refused;
      const auto& ec = doc["iobench"]["exit_code"];
      doc["iobench"]["exit_code"] = std::max(ec.is_number() ? ec.get<int>() : 0, exit_code);
    }
    // Stopped between points (in a --sweep-cmd hook): no point says so.
    if (interrupted && stop.load() != 0) {
      doc["iobench"]["interrupted"] = true;
      doc["iobench"]["exit_code"] = 128 + stop.load();
    }
    // A failing hook: the run exits with its code, and the document says
    // so and why (it said exit_code 0, as if the sweep were whole).
    if (hook_failure) {
      doc["iobench"]["exit_code"] = exit_code;
      doc["iobench"]["sweep"]["stopped"] = *hook_failure;
    }
  }
  if (!per_point.empty()) out = normal_head.str();
  // The tables, --compare and --plot read nlohmann::json: one copy.
  // --repeat with the normal report and no table: each run's report is
  // there, and the median the JSON and the tables give was nowhere. It
  // ends with the median's tables (docs/sweep.md).
  const bool median_tables = o.repeat > 1 && Has(o.formats, "normal") && !want_table;
  nlohmann::json view;
  if ((!per_point.empty() && (want_table || compare_base || !o.plot.empty() || median_tables)) ||
      (stopped_first && want_table))
    view = doc;
  // A sweep stopped early: the normal report ends with the points it did
  // not run and why, as the table's footnote does (stderr said it once,
  // and an --output file held no trace of the points left out).
  std::string normal_not_run;
  if (sweeping && Has(o.formats, "normal") && doc.contains("iobench") &&
      doc["iobench"].contains("sweep") && doc["iobench"]["sweep"].contains("not_run") &&
      !doc["iobench"]["sweep"]["not_run"].empty())
    for (const auto& l : table::NotRunLines(nlohmann::json(doc)))
      normal_not_run += (normal_not_run.empty() && !per_point.empty() ? "\n" : "") + l + "\n";
  // --compare BASE.json: the delta tables go with the text formats (normal,
  // table); appended to --output-format=json alone they made the file
  // unreadable as JSON. The JSON document carries the comparison as data.
  std::optional<Result<std::string>> cmp;
  if (compare_base && !per_point.empty()) {
    TableOptions t = table;
    t.base_label = o.compare[0];
    t.new_label = "this run";
    (void)ApplyCompareLabels(o, &t);  // checked before the run
    nlohmann::json neu = view;        // the tables and the plot keep this run's spelling
    AlignPointSpellings(o, *compare_base, DocKbBases(*compare_base), &neu, KbBases(jobs));
    cmp = RenderCompare(*compare_base, neu, t);
    if (!cmp->ok()) {
      // Nothing of BASE matches this run: bad input, as CompareFiles says
      // of two files (exit 2; it was 1, the code of a failed job, though
      // every job ran). The run's results are still written below.
      PrintError(cmp->status());
      exit_code = std::max(exit_code, kExitUsage);
    } else if (want_json) {
      doc["iobench"]["compare"] = CompareJson(*compare_base, neu, t);
    }
  }
  bool json_done = false;
  for (const auto& f : InFioOrder(o.formats)) {
    if (per_point.empty() && !(stopped_first && f != "terse")) continue;
    if (f == "normal") out += normal.str() + normal_not_run;
    if (f == "normal" && median_tables) {
      TableOptions t = table;
      // The default metric alone says little of a run: the usual four.
      if (o.table_metric == "iops") {
        auto m = ParseTableMetrics("iops,bw,clat_p50,clat_p99");
        if (m.ok()) t.metrics = *m;
      }
      auto tables = RenderTables(view, t);
      if (tables.ok()) {
        out += "\n=== " + MedianHeading(view, o.repeat) + " ===\n";
        out += *tables;
      }
    }
    if (f == "terse") out += terse.str();
    if ((f == "json" || f == "json+") && !json_done) {
      // json and json+ both asked: one document (json+ is a superset).
      if (interim.json_lines() || o.status_interval_ns != 0) {
        // issue 8: after one-line interim reports the output is JSON Lines.
        auto line = JsonToLine(FioJsonText(doc));
        out += line.ok() ? *line : FioJsonText(doc);
      } else {
        out += FioJsonText(doc);
      }
      json_done = true;
    }
    if (f == "table" && want_table) {
      auto tables = RenderTables(view, table);
      if (tables.ok()) {
        SeparateFromAbove(&out);
        out += *tables;
      } else {
        PrintError(tables.status());
        exit_code = std::max(exit_code, kExitJobFailed);
      }
    }
  }
  if (cmp && cmp->ok() && (Has(o.formats, "normal") || want_table)) {
    SeparateFromAbove(&out);
    out += **cmp;
  }
  // Nothing ran to report (the run was refused at its set-up, every sweep
  // point was): an --output file is left as it was, and none is made. It
  // was truncated to nothing, a report of an earlier run lost to a typo.
  if ((!out.empty() || output.written()) && !output.Write(out, /*last=*/true))
    exit_code = std::max(exit_code, kExitJobFailed);
  if (!o.plot.empty() && !per_point.empty()) {
    PlotOptions p;
    p.path = o.plot;
    p.metric = table.metrics.front();
    Status st = WritePlot(view, p);
    if (!st.ok()) {
      PrintError(st);
      exit_code = std::max(exit_code, kExitJobFailed);
    }
  }
  // The CPU time limit stopped the run: the user may not know one was set
  // (a login's limits.conf, a batch system's), and the exit code alone
  // (152) does not say which.
  if (stop.load() == SIGXCPU) {
    const std::string limit = cpu_limit.rlim_cur != RLIM_INFINITY
                                  ? ", " + std::to_string(cpu_limit.rlim_cur) + " s"
                                  : std::string();
    std::fprintf(stderr,
                 "iobench: stopped by SIGXCPU: the process reached its CPU time limit (ulimit "
                 "-t%s); the report covers the time until then: raise the limit or shorten "
                 "the run\n",
                 limit.c_str());
  }
  // A signal that ended the wait for an --output FIFO's reader after the
  // run is the run's end too (docs/output.md).
  if ((interrupted || g_fifo_wait_stopped_by != 0) && stop.load() != 0) return 128 + stop.load();
  return exit_code;
}

// --compare BASE.json NEW.json runs nothing: the options that act on a run
// (a sweep, its hook, repeats, a plot of it) were accepted and ignored,
// exit 0, as a typo'd option would be; refused, as --plot without a
// sweep is.
Status CheckNothingRun(const SessionOptions& o) {
  const std::string files = "--compare " + o.compare[0] + " " + o.compare[1] + " runs nothing";
  const std::string run_now = "give a job file or job options to run now and compare (--compare " +
                              o.compare[0] + " JOBFILE ...)";
  if (!o.sweeps.empty())
    return Status::Invalid(sweep::QuoteSweepArg(o.sweeps.front()) + ": " + files + " to sweep; " +
                           run_now);
  if (!o.sweep_cmd.empty())
    return Status::Invalid("--sweep-cmd '" + sys::Shortened(o.sweep_cmd) + "': " + files +
                           "; the hook runs before each point of a --sweep run now");
  if (o.repeat != 1)
    return Status::Invalid("--repeat=" + std::to_string(o.repeat) + ": " + files + " to repeat; " +
                           run_now);
  if (!o.plot.empty())
    return Status::Invalid("--plot=" + o.plot + ": " + files +
                           "; a plot is of a sweep run now (--sweep KEY=...)");
  return Status::Ok();
}

int CompareFiles(const SessionOptions& o) {
  if (Status st = CheckNothingRun(o); !st.ok()) {
    PrintError(st);
    return kExitUsage;
  }
  Result<TableOptions> topts = MakeTableOptions(o);
  if (!topts.ok()) {
    PrintError(topts.status());
    return kExitUsage;
  }
  if (Status st = CheckTableOptionsUsed(o); !st.ok()) {
    PrintError(st);
    return kExitUsage;
  }
  auto base = LoadResultsJson(o.compare[0]);
  if (!base.ok()) {
    PrintError(base.status());
    return kExitUsage;
  }
  auto neu = LoadResultsJson(o.compare[1]);
  if (!neu.ok()) {
    PrintError(neu.status());
    return kExitUsage;
  }
  CanonicalizeSweepKeys(o, &*base);
  CanonicalizeSweepKeys(o, &*neu);
  for (const auto& [doc, label] : {std::pair{&*base, &o.compare[0]}, {&*neu, &o.compare[1]}})
    if (Status st = CheckPointSpellings(o, *doc, *label, DocKbBases(*doc)); !st.ok()) {
      PrintError(st);
      return kExitUsage;
    }
  AlignPointSpellings(o, *base, DocKbBases(*base), &*neu, DocKbBases(*neu));
  TableOptions t = *topts;
  t.base_label = o.compare[0];
  t.new_label = o.compare[1];
  if (Status st = ApplyCompareLabels(o, &t); !st.ok()) {
    PrintError(st);
    return kExitUsage;
  }
  // The tables are text (normal, table); json/json+ get the comparison as
  // data, iobench.compare as in a run's document (the tables were printed
  // for --output-format=json, and `| jq` failed). terse has no form of it,
  // beside other formats too (normal,terse wrote the tables and dropped
  // terse without a word).
  const bool json = Has(o.formats, "json") || Has(o.formats, "json+");
  const bool text = Has(o.formats, "normal") || Has(o.formats, "table");
  if (Has(o.formats, "terse")) {
    std::string formats;
    for (const auto& f : o.formats) formats += (formats.empty() ? "" : ",") + f;
    const bool alone = formats == "terse";
    PrintError(Status::Invalid(
        "--compare " + o.compare[0] + " " + o.compare[1] + ": --output-format=" + formats +
        (alone ? "" : ": terse") + " has no form of a comparison; use json (the comparison as " +
        "data), or normal or table (the delta tables)" + (alone ? "" : ", without terse")));
    return kExitUsage;
  }
  auto cmp = RenderCompare(*base, *neu, t);
  if (!cmp.ok()) {
    PrintError(cmp.status());
    return kExitUsage;  // nothing ran: the files given cannot be compared
  }
  std::string out;
  if (json) {
    nlohmann::ordered_json doc = {{"iobench", {{"compare", CompareJson(*base, *neu, t)}}}};
    out = doc.dump(2) + "\n";
  }
  if (text) {
    SeparateFromAbove(&out);
    out += *cmp;
  }
  return Emit(o, out);
}

}  // namespace iobench
