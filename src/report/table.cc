#include "report/table.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "iobench/engine.h"
#include "iobench/job.h"
#include "jobfile/options.h"
#include "sys/strings.h"

namespace iobench {

using table::AggregateMetric;
using table::AllJobs;
using table::DescribeJobs;
using table::DirectionViews;
using table::FormatDelta;
using table::FormatFixed3;
using table::FormatIops;
using table::Interrupted;
using table::JobDirections;
using table::JobError;
using table::JobLabels;
using table::JobMetric;
using table::JobPoint;
using table::SweepKeys;

namespace {

using nlohmann::json;

// --- safe accessors: result files come from users, so a field of the wrong
// type reads as missing instead of throwing ---

const json* Get(const json* j, const char* key) {
  if (j == nullptr || !j->is_object()) return nullptr;
  auto it = j->find(key);
  return it == j->end() ? nullptr : &*it;
}
const json* Get(const json& j, const char* key) { return Get(&j, key); }

std::optional<double> Num(const json* j) {
  if (j == nullptr) return std::nullopt;
  if (j->is_number()) return j->get<double>();
  return std::nullopt;
}
std::optional<double> Num(const json* j, const char* key) { return Num(Get(j, key)); }

// KiB/s as fio's JSON "bw" has it: whole bytes/s divided by 1024, rounded
// down (fio and iobench write bw_bytes / 1024 in integers). The cell
// rounded to the nearest, one more than the file's "bw": 2473057 for 2473056.
double KibPerSec(double bytes_per_s) { return std::floor(bytes_per_s / 1024.0); }
// The same from MiB/s (iobench.repeat's figures, six decimals): back to
// whole bytes first, so 2473056 KiB/s does not read 2473055.999.
double KibPerSecOfMib(double mib) { return KibPerSec(std::round(mib * 1048576.0)); }

// A string field (numbers are printed, as fio sometimes writes them).
std::optional<std::string> Str(const json* j) {
  if (j == nullptr) return std::nullopt;
  if (j->is_string()) return j->get<std::string>();
  if (j->is_number_integer()) return std::to_string(j->get<int64_t>());
  if (j->is_number()) return j->dump();
  if (j->is_boolean()) return std::string(j->get<bool>() ? "1" : "0");
  return std::nullopt;
}

std::string JobName(const json& job) { return Str(Get(job, "jobname")).value_or("?"); }

// Sized to the result: "%.0f" of a huge value (a hostile or corrupt result
// file) has hundreds of digits, and a fixed buffer cut it into a wrong number.
std::string Printf(const char* fmt, double v) {
  char buf[64];
  const int n = std::snprintf(buf, sizeof(buf), fmt, v);
  if (n < 0) return "-";
  if (static_cast<size_t>(n) < sizeof(buf)) return buf;
  std::string big(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(big.data(), big.size(), fmt, v);
  big.resize(static_cast<size_t>(n));
  return big;
}

const char* const kDirs[] = {"read", "write", "trim"};
// With unified_rw_reporting=mixed a job's JSON has only "mixed".
const char* const kDirsAndMixed[] = {"read", "write", "trim", "mixed"};

struct MetricInfo {
  TableMetric m;
  const char* name;
  const char* title;
};
const MetricInfo kMetrics[] = {
    {TableMetric::kIops, "iops", "IOPS"},
    {TableMetric::kBw, "bw", "bandwidth (MiB/s)"},
    {TableMetric::kBwKib, "bw_kib", "bandwidth (KiB/s)"},
    {TableMetric::kLatMean, "lat_mean", "mean latency (µs)"},
    {TableMetric::kClatP50, "clat_p50", "clat p50 (µs)"},
    {TableMetric::kClatP99, "clat_p99", "clat p99 (µs)"},
    {TableMetric::kClatP999, "clat_p999", "clat p99.9 (µs)"},
    {TableMetric::kLatP50, "lat_p50", "lat p50 (µs)"},
    {TableMetric::kLatP99, "lat_p99", "lat p99 (µs)"},
    {TableMetric::kSlatMean, "slat_mean", "mean submission latency (µs)"},
    {TableMetric::kCpuPerIo, "cpu_per_io", "CPU per I/O (µs, user+system)"},
    {TableMetric::kUsrCpu, "usr_cpu", "user CPU (%)"},
    {TableMetric::kSysCpu, "sys_cpu", "system CPU (%)"},
};

std::optional<double> LatMean(const json* dir, const char* which) {
  const json* lat = Get(dir, which);
  if (lat == nullptr) return std::nullopt;
  auto n = Num(lat, "N");
  if (n && *n == 0) return std::nullopt;  // nothing recorded (slat of a sync engine)
  auto mean = Num(lat, "mean");
  if (!mean) return std::nullopt;
  return *mean / 1000.0;
}

std::optional<double> Percentile(const json* dir, const char* which, double pct) {
  const json* p = Get(Get(dir, which), "percentile");
  if (p == nullptr || !p->is_object()) return std::nullopt;
  for (auto it = p->begin(); it != p->end(); ++it) {
    char* end = nullptr;
    const double k = std::strtod(it.key().c_str(), &end);
    if (end != it.key().c_str() && std::fabs(k - pct) < 1e-6) {
      auto v = Num(&it.value());
      if (v) return *v / 1000.0;
    }
  }
  return std::nullopt;
}

// --- option view of a job: "global options" overlaid by "job options" ---

std::map<std::string, std::string> JobOptions(const json& doc, const json& job) {
  std::map<std::string, std::string> out;
  for (const json* src : {Get(doc, "global options"), Get(job, "job options")}) {
    if (src == nullptr || !src->is_object()) continue;
    for (auto it = src->begin(); it != src->end(); ++it) {
      auto s = Str(&it.value());
      out[it.key()] = s.value_or("");
    }
  }
  return out;
}

const json& Jobs(const json& doc) {
  static const json kEmpty = json::array();
  const json* j = Get(doc, "jobs");
  return (j && j->is_array()) ? *j : kEmpty;
}

// --- cells over several job entries (numjobs clones share a name) ---

// A direction the job did I/O in (its record counts I/Os or bytes).
bool DidIo(const json& job, const std::string& dir) {
  const json* d = Get(job, dir.c_str());
  return Num(d, "total_ios").value_or(0) > 0 || Num(d, "io_bytes").value_or(0) > 0;
}

// The directions of one rw= value, as fio's rw option reads it
// ("randread:8" is randread); nullopt for a value fio does not know.
std::optional<std::set<std::string>> DirectionsOfRw(std::string rw) {
  if (const size_t colon = rw.find(':'); colon != std::string::npos) rw.resize(colon);
  for (char& c : rw) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (rw == "readwrite") rw = "rw";  // the one alias; the names are RwModeName's
  for (int i = 0; i <= static_cast<int>(RwMode::kRandTrimWrite); ++i) {
    const auto mode = static_cast<RwMode>(i);
    if (rw != RwModeName(mode)) continue;
    std::set<std::string> dirs;
    if (HasRead(mode)) dirs.insert("read");
    if (HasWrite(mode)) dirs.insert("write");
    if (HasTrim(mode)) dirs.insert("trim");
    return dirs;
  }
  return std::nullopt;
}

// A group_reporting entry's members' rw (iobench.member_rw), empty when
// the entry does not say (one job, or fio's JSON).
std::vector<std::string> MemberRw(const json& job) {
  std::vector<std::string> out;
  if (const json* m = Get(Get(job, "iobench"), "member_rw"); m != nullptr && m->is_array())
    for (const auto& v : *m)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

// A group_reporting entry's options that its members set differently
// (iobench.member_options): each distinct value, nullopt for a member that
// leaves the option unset. Empty for one job, or fio's JSON.
std::map<std::string, std::vector<std::optional<std::string>>> MemberOptions(const json& job) {
  std::map<std::string, std::vector<std::optional<std::string>>> out;
  const json* m = Get(Get(job, "iobench"), "member_options");
  if (m == nullptr || !m->is_object()) return out;
  for (auto it = m->begin(); it != m->end(); ++it) {
    if (!it.value().is_array()) continue;
    auto& vals = out[it.key()];
    for (const auto& v : it.value()) vals.push_back(v.is_null() ? std::nullopt : Str(&v));
  }
  return out;
}

// A job's options as its table row lists them: a group entry's option that
// its members set differently reads as all their values, "4k/64k" ("-" for
// a member that leaves it unset), not as its last member's.
std::map<std::string, std::string> RowOptions(const json& doc, const json& job) {
  auto o = JobOptions(doc, job);
  for (const auto& [k, vals] : MemberOptions(job)) {
    std::string all;
    for (const auto& v : vals) {
      if (!all.empty()) all += '/';
      all += v.value_or("-");
    }
    o[k] = all;
  }
  return o;
}

// A cell of numjobs clones merged over --repeat runs: the figures of each
// run's clones together (iobench.repeat.clones, sweep::MergeRepeats), when
// `jobs` are exactly those clones; null otherwise (one job, a file without
// them, or a selection of other jobs).
const json* CloneRepeat(const std::vector<const json*>& jobs) {
  if (jobs.size() < 2) return nullptr;
  const json* first = nullptr;
  for (const json* j : jobs) {
    const json* rep = Get(Get(*j, "iobench"), "repeat");
    const json* c = Get(rep, "clones");
    if (c == nullptr || Num(rep, "n").value_or(0) < 2 ||
        Num(c, "jobs").value_or(0) != static_cast<double>(jobs.size()))
      return nullptr;
    if (first == nullptr)
      first = c;
    else if (*c != *first)
      return nullptr;
  }
  return first;
}

// The key a cell's figure has in iobench.repeat's min and max (and clones'
// median): "job" for CPU, the view's direction, or the jobs' one direction.
std::optional<std::string> RepeatGroup(const std::vector<const json*>& jobs,
                                       const std::optional<std::string>& view, TableMetric m);

}  // namespace

std::optional<std::set<std::string>> table::RwDirections(const json* doc, const json& job) {
  // A group entry of jobs with different rw: every member's directions
  // (its "job options" are the last member's alone).
  if (const auto members = MemberRw(job); !members.empty()) {
    std::set<std::string> all;
    for (const auto& rw : members) {
      auto d = DirectionsOfRw(rw);
      if (!d) return std::nullopt;
      all.insert(d->begin(), d->end());
    }
    return all;
  }
  std::map<std::string, std::string> opts;
  if (doc != nullptr) {
    opts = JobOptions(*doc, job);
  } else if (const json* own = Get(job, "job options"); own != nullptr && own->is_object()) {
    for (auto it = own->begin(); it != own->end(); ++it)
      opts[it.key()] = Str(&it.value()).value_or("");
  }
  // A replayed iolog's directions are the log's, whatever rw says.
  if (opts.count("read_iolog") && !opts["read_iolog"].empty()) return std::nullopt;
  for (const char* k : {"rw", "readwrite"})
    if (auto it = opts.find(k); it != opts.end()) return DirectionsOfRw(it->second);
  // Not set: fio's default, read, when every place it could be set was read.
  if (doc == nullptr) return std::nullopt;
  return std::set<std::string>{"read"};
}

std::optional<double> table::AggregateMetric(const std::vector<const json*>& jobs,
                                             const std::optional<std::string>& dir, TableMetric m,
                                             const json* doc) {
  // numjobs clones over --repeat runs: the median of each run's figure of
  // them, as a single job's cell is its median run's, and within the range
  // of the runs (RepeatRange).
  if (const json* c = CloneRepeat(jobs)) {
    if (auto group = RepeatGroup(jobs, dir, m)) {
      const TableMetric key = m == TableMetric::kBwKib ? TableMetric::kBw : m;
      if (auto v = Num(Get(Get(c, "median"), group->c_str()), TableMetricName(key)))
        return m == TableMetric::kBwKib ? KibPerSecOfMib(*v) : *v;
    }
  }
  double sum = 0, weighted = 0, weight = 0, mx = 0;
  int found = 0;
  // fio's group line over the cell's jobs: their bytes and I/Os over the
  // longest run time (READ: bw=, io_bytes * 1000 / max runtime in ms).
  // Each clone's own rate added up overstates it whenever clones ran for
  // different times (4 null clones: 109581 MiB/s against bw=90.9GiB/s).
  double bytes = 0, ios = 0, longest_ms = 0;
  bool totals = true;  // every job carries io_bytes, total_ios and runtime
  // CPU percent as fio's group_reporting entry has it: the members' CPU
  // time over the sum of their run times (job_runtime), i.e. each job's
  // percent weighted by its run time. Added up, two busy clones read 195%
  // where the same jobs with group_reporting said 97.6%.
  double cpu_weighted = 0, cpu_runtime = 0;
  bool cpu_runtimes = true;  // every job carries a positive job_runtime
  for (const json* job : jobs) {
    std::string d;
    if (dir) {
      d = *dir;
      // A direction the job never asked for is no measurement of it: the
      // read table showed "write 0" for a rw=write point (and the plot
      // drew its line down to 0). One it asked for and did nothing in (a
      // failed job, rwmixread=100) is a 0 that was measured.
      if (!IsPerJobMetric(m) && !DidIo(*job, d) && d != "mixed") {
        const auto asked = RwDirections(doc, *job);
        if (asked && !asked->count(d)) continue;
      }
    } else if (IsPerJobMetric(m)) {
      // CPU is the job's, whatever directions it did I/O in: a randrw job
      // (two directions) showed "-".
    } else {
      auto dirs = JobDirections(*job);
      if (dirs.empty() &&
          (m == TableMetric::kIops || m == TableMetric::kBw || m == TableMetric::kBwKib)) {
        // A job that moved no data (it failed, or a patched kernel hung
        // it) did 0 I/O per second in every direction. Reading it as a
        // missing figure hid a drop to zero: "-" and no delta instead of
        // -100.00. Its direction's record says 0; fio's default is read.
        for (const char* dd : kDirsAndMixed)
          if (Num(Get(job, dd), "iops") || Num(Get(job, dd), "bw_bytes")) {
            d = dd;
            break;
          }
        if (d.empty()) continue;
      } else if (dirs.size() != 1) {
        continue;
      } else {
        d = dirs[0];
      }
    }
    auto v = JobMetric(*job, d, m);
    if (!v) continue;
    ++found;
    if (!IsPerJobMetric(m)) {
      const json* dd = Get(job, d.c_str());
      auto b = Num(dd, "io_bytes"), n = Num(dd, "total_ios"), rt = Num(dd, "runtime");
      if (b && n && rt) {
        bytes += *b;
        ios += *n;
        longest_ms = std::max(longest_ms, *rt);
      } else {
        totals = false;
      }
    }
    double w = 1;
    if (IsPerJobMetric(m)) {
      double job_ios = 0;
      for (const char* dd : kDirs) job_ios += Num(Get(job, dd), "total_ios").value_or(0);
      if (job_ios == 0) job_ios = Num(Get(job, "mixed"), "total_ios").value_or(0);  // unified mixed
      w = job_ios;
    } else {
      w = Num(Get(job, d.c_str()), "total_ios").value_or(1);
    }
    if (m == TableMetric::kUsrCpu || m == TableMetric::kSysCpu) {
      const double rt = Num(job, "job_runtime").value_or(0);
      if (rt > 0) {
        cpu_weighted += *v * rt;
        cpu_runtime += rt;
      } else {
        cpu_runtimes = false;
      }
    }
    sum += *v;
    weighted += *v * w;
    weight += w;
    mx = found == 1 ? *v : std::max(mx, *v);
  }
  if (found == 0) return std::nullopt;
  if (found == 1) return sum;
  const bool group_rate = totals && longest_ms > 0;
  switch (m) {
    case TableMetric::kIops:
      return group_rate ? ios * 1000.0 / longest_ms : sum;
    case TableMetric::kBw:
    case TableMetric::kBwKib: {
      if (!group_rate) return sum;
      // Whole bytes per second, as fio's agg_bw.
      const double bps = std::floor(bytes * 1000.0 / longest_ms);
      return m == TableMetric::kBw ? bps / 1048576.0 : KibPerSec(bps);
    }
    case TableMetric::kUsrCpu:
    case TableMetric::kSysCpu:
      // Without the run times (a hand-made file): the mean, fio's figure
      // for members that ran equally long.
      return cpu_runtimes && cpu_runtime > 0 ? cpu_weighted / cpu_runtime : sum / found;
    case TableMetric::kLatMean:
    case TableMetric::kSlatMean:
    case TableMetric::kCpuPerIo:
      return weight > 0 ? weighted / weight : sum / found;
    default:
      // Percentiles of several clones cannot be merged from JSON; show the
      // worst one (docs/sweep.md: use group_reporting for exact ones).
      return mx;
  }
}

namespace {

std::string FormatMetric(TableMetric m, std::optional<double> v, TableStyle style) {
  if (!v) return style == TableStyle::kCsv ? "" : "-";
  if (style == TableStyle::kCsv) {
    // Spreadsheets want numbers, not "12.9k": whole IOPS, else 4 decimals
    // with trailing zeros dropped; from 1e15 on (past a double's exact
    // integers) 15 significant digits with an exponent, 1e+308 not 309
    // digits.
    if (std::fabs(*v) >= 1e15) return Printf("%.15g", *v);
    std::string s = Printf(m == TableMetric::kIops ? "%.0f" : "%.4f", *v);
    if (s.find('.') != std::string::npos) {
      while (s.back() == '0') s.pop_back();
      if (s.back() == '.') s.pop_back();
    }
    return s == "-0" ? "0" : s;
  }
  return m == TableMetric::kIops ? FormatIops(*v) : FormatFixed3(*v);
}

// --- a rendered table ---

struct Table {
  std::vector<std::string> caption;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> numeric;  // per column: right-aligned
};

// The code points Unicode's East_Asian_Width property marks W (wide) or F
// (fullwidth): CJK, Hangul, fullwidth forms and the emoji a terminal shows
// two columns wide (U+231A WATCH, U+1F680..1F6FF transport and map
// symbols, ...). Adjacent ranges merged; generated from EastAsianWidth.txt
// of Unicode 15.0 (Debian's unicode-data) by taking every W and F line. A
// hand-picked list of blocks missed many (U+1F680..1F6FF, U+231A): rows
// holding them were a column off.
constexpr std::pair<uint32_t, uint32_t> kWide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
    {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
    {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
    {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
    {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},
    {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
    {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x2E99},
    {0x2E9B, 0x2EF3},   {0x2F00, 0x2FD5},   {0x2FF0, 0x2FFB},   {0x3000, 0x303E},
    {0x3041, 0x3096},   {0x3099, 0x30FF},   {0x3105, 0x312F},   {0x3131, 0x318E},
    {0x3190, 0x31E3},   {0x31F0, 0x321E},   {0x3220, 0x3247},   {0x3250, 0x4DBF},
    {0x4E00, 0xA48C},   {0xA490, 0xA4C6},   {0xA960, 0xA97C},   {0xAC00, 0xD7A3},
    {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE52},   {0xFE54, 0xFE66},
    {0xFE68, 0xFE6B},   {0xFF01, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4},
    {0x16FF0, 0x16FF1}, {0x17000, 0x187F7}, {0x18800, 0x18CD5}, {0x18D00, 0x18D08},
    {0x1AFF0, 0x1AFF3}, {0x1AFF5, 0x1AFFB}, {0x1AFFD, 0x1AFFE}, {0x1B000, 0x1B122},
    {0x1B132, 0x1B132}, {0x1B150, 0x1B152}, {0x1B155, 0x1B155}, {0x1B164, 0x1B167},
    {0x1B170, 0x1B2FB}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E},
    {0x1F191, 0x1F19A}, {0x1F200, 0x1F202}, {0x1F210, 0x1F23B}, {0x1F240, 0x1F248},
    {0x1F250, 0x1F251}, {0x1F260, 0x1F265}, {0x1F300, 0x1F320}, {0x1F32D, 0x1F335},
    {0x1F337, 0x1F37C}, {0x1F37E, 0x1F393}, {0x1F3A0, 0x1F3CA}, {0x1F3CF, 0x1F3D3},
    {0x1F3E0, 0x1F3F0}, {0x1F3F4, 0x1F3F4}, {0x1F3F8, 0x1F43E}, {0x1F440, 0x1F440},
    {0x1F442, 0x1F4FC}, {0x1F4FF, 0x1F53D}, {0x1F54B, 0x1F54E}, {0x1F550, 0x1F567},
    {0x1F57A, 0x1F57A}, {0x1F595, 0x1F596}, {0x1F5A4, 0x1F5A4}, {0x1F5FB, 0x1F64F},
    {0x1F680, 0x1F6C5}, {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2}, {0x1F6D5, 0x1F6D7},
    {0x1F6DC, 0x1F6DF}, {0x1F6EB, 0x1F6EC}, {0x1F6F4, 0x1F6FC}, {0x1F7E0, 0x1F7EB},
    {0x1F7F0, 0x1F7F0}, {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945}, {0x1F947, 0x1F9FF},
    {0x1FA70, 0x1FA7C}, {0x1FA80, 0x1FA88}, {0x1FA90, 0x1FABD}, {0x1FABF, 0x1FAC5},
    {0x1FACE, 0x1FADB}, {0x1FAE0, 0x1FAE8}, {0x1FAF0, 0x1FAF8}, {0x20000, 0x2FFFD},
    {0x30000, 0x3FFFD},
};

// Terminal columns of one code point: 0 for combining marks and zero-width
// characters, 2 for East_Asian_Width W and F (kWide: the code points
// wcwidth() gives 2 for, without depending on the locale), else 1.
int CodePointWidth(uint32_t cp) {
  if ((cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
      (cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x200B && cp <= 0x200F) ||
      (cp >= 0x20D0 && cp <= 0x20FF) || (cp >= 0xFE00 && cp <= 0xFE0F) ||
      (cp >= 0xFE20 && cp <= 0xFE2F))
    return 0;
  // The first range that ends at or after cp holds it if it starts by then.
  const auto* r = std::lower_bound(std::begin(kWide), std::end(kWide), cp,
                                   [](const auto& range, uint32_t c) { return range.second < c; });
  return r != std::end(kWide) && r->first <= cp ? 2 : 1;
}

// Display width in terminal columns of UTF-8 text (a stray byte counts 1).
size_t Width(const std::string& s) {
  size_t w = 0;
  for (size_t i = 0; i < s.size();) {
    const auto [cp, len] = sys::DecodeUtf8(s, i);
    if (len == 0) {
      ++w;
      ++i;
      continue;
    }
    w += static_cast<size_t>(CodePointWidth(cp));
    i += len;
  }
  return w;
}

std::string Pad(const std::string& s, size_t w, bool right) {
  const size_t n = Width(s);
  if (n >= w) return s;
  return right ? std::string(w - n, ' ') + s : s + std::string(w - n, ' ');
}

// Job names and point values come from users and may hold anything. One
// cell or caption line must stay one line: control characters are written
// as C escapes (a newline as the two characters \n). In markdown a '|'
// would end the cell, so it is escaped as \|, which GitHub and GitLab render
// as a pipe.
std::string OneLine(const std::string& s, bool markdown) {
  const std::string text = sys::Printable(s);
  if (!markdown || text.find('|') == std::string::npos) return text;
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// RFC 4180: a field with a comma, quote, CR or LF is quoted, quotes doubled.
std::string CsvCell(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

std::string Render(const Table& raw, TableStyle style, bool caption) {
  // Escape before measuring: widths are those of the text printed. CSV
  // cells are quoted instead (a newline inside quotes is valid CSV).
  Table t = raw;
  for (auto& line : t.caption) line = OneLine(line, false);
  if (style != TableStyle::kCsv) {
    const bool md = style == TableStyle::kMarkdown;
    for (auto& c : t.header) c = OneLine(c, md);
    for (auto& r : t.rows)
      for (auto& c : r) c = OneLine(c, md);
  }
  std::ostringstream out;
  const size_t ncol = t.header.size();
  std::vector<size_t> w(ncol, 0);
  for (size_t c = 0; c < ncol; ++c) {
    w[c] = Width(t.header[c]);
    for (const auto& r : t.rows) w[c] = std::max(w[c], Width(r[c]));
  }
  auto numeric = [&](size_t c) { return c < t.numeric.size() && t.numeric[c]; };
  if (caption) {
    for (const auto& line : t.caption)
      out << (style == TableStyle::kCsv ? "# " : "") << line << '\n';
    if (style == TableStyle::kMarkdown && !t.caption.empty()) out << '\n';
  }
  switch (style) {
    case TableStyle::kPlain: {
      auto line = [&](const std::vector<std::string>& cells) {
        std::string s;
        for (size_t c = 0; c < ncol; ++c) {
          if (c) s += "   ";
          s += Pad(cells[c], w[c], numeric(c));
        }
        while (!s.empty() && s.back() == ' ') s.pop_back();
        out << s << '\n';
      };
      line(t.header);
      for (const auto& r : t.rows) line(r);
      break;
    }
    case TableStyle::kAscii: {
      std::string rule = "+";
      for (size_t c = 0; c < ncol; ++c) rule += std::string(w[c] + 2, '-') + "+";
      auto line = [&](const std::vector<std::string>& cells, bool header) {
        out << '|';
        for (size_t c = 0; c < ncol; ++c)
          out << ' ' << Pad(cells[c], w[c], !header && numeric(c)) << " |";
        out << '\n';
      };
      out << rule << '\n';
      line(t.header, true);
      out << rule << '\n';
      for (const auto& r : t.rows) line(r, false);
      out << rule << '\n';
      break;
    }
    case TableStyle::kMarkdown: {
      for (size_t c = 0; c < ncol; ++c) w[c] = std::max<size_t>(w[c], 3);
      auto line = [&](const std::vector<std::string>& cells, bool header) {
        out << '|';
        for (size_t c = 0; c < ncol; ++c)
          out << ' ' << Pad(cells[c], w[c], !header && numeric(c)) << " |";
        out << '\n';
      };
      line(t.header, true);
      out << '|';
      for (size_t c = 0; c < ncol; ++c)
        out << ' ' << (numeric(c) ? std::string(w[c] - 1, '-') + ":" : std::string(w[c], '-'))
            << " |";
      out << '\n';
      for (const auto& r : t.rows) line(r, false);
      break;
    }
    case TableStyle::kCsv: {
      auto line = [&](const std::vector<std::string>& cells) {
        for (size_t c = 0; c < ncol; ++c) out << (c ? "," : "") << CsvCell(cells[c]);
        out << '\n';
      };
      line(t.header);
      for (const auto& r : t.rows) line(r);
      break;
    }
  }
  return out.str();
}

std::string Join(const std::vector<std::string>& tables) {
  std::string out;
  for (size_t i = 0; i < tables.size(); ++i) {
    if (i) out += '\n';
    out += tables[i];
  }
  return out;
}

// The direction views of a set of jobs: {nullopt} ("each job's own
// direction") when no job mixes directions, otherwise each direction with
// I/O in some job. Per-job metrics have one view.
}  // namespace

std::vector<std::optional<std::string>> table::DirectionViews(
    const std::vector<const json*>& jobs) {
  std::set<std::string> any;
  bool mixed = false;
  for (const json* j : jobs) {
    auto d = JobDirections(*j);
    if (d.size() > 1) mixed = true;
    any.insert(d.begin(), d.end());
  }
  std::vector<std::optional<std::string>> views;
  if (!mixed) {
    views.push_back(std::nullopt);
    return views;
  }
  for (const char* d : kDirs)
    if (any.count(d)) views.emplace_back(d);
  return views;
}

bool table::Interrupted(const json* job) {
  const json* v = Get(Get(job, "iobench"), "interrupted");
  return v != nullptr && v->is_boolean() && v->get<bool>();
}

int table::JobError(const json* job) {
  const json* v = Get(job, "error");
  return v != nullptr && v->is_number_integer() ? v->get<int>() : 0;
}

namespace {

std::optional<std::string> RepeatGroup(const std::vector<const json*>& jobs,
                                       const std::optional<std::string>& view, TableMetric m) {
  if (IsPerJobMetric(m)) return "job";
  if (view) return *view;
  std::optional<std::string> group;
  for (const json* j : jobs) {
    auto d = JobDirections(*j);
    if (d.size() != 1 || (group && *group != d[0])) return std::nullopt;
    group = d[0];
  }
  return group;
}

// min/max of the metric from iobench.repeat, for a cell of a single job or
// of one job's numjobs clones (their group figure's, iobench.repeat.clones).
std::optional<std::pair<double, double>> RepeatRange(const std::vector<const json*>& jobs,
                                                     const std::optional<std::string>& view,
                                                     TableMetric m) {
  const json* rep = nullptr;
  if (jobs.size() == 1)
    rep = Get(Get(*jobs[0], "iobench"), "repeat");
  else if (!(rep = CloneRepeat(jobs)))
    return std::nullopt;
  const auto group = RepeatGroup(jobs, view, m);
  if (!group) return std::nullopt;
  // One run left (the others cut by Ctrl-C): no spread to show.
  if (Num(Get(Get(*jobs[0], "iobench"), "repeat"), "n").value_or(0) < 2) return std::nullopt;
  // The spread is recorded in MiB/s ("bw"); KiB/s is the same figure.
  const TableMetric key = m == TableMetric::kBwKib ? TableMetric::kBw : m;
  auto lo = Num(Get(Get(rep, "min"), group->c_str()), TableMetricName(key));
  auto hi = Num(Get(Get(rep, "max"), group->c_str()), TableMetricName(key));
  if (!lo || !hi) return std::nullopt;
  if (m == TableMetric::kBwKib) return std::make_pair(KibPerSecOfMib(*lo), KibPerSecOfMib(*hi));
  return std::make_pair(*lo, *hi);
}

// "read IOPS", or "IOPS" (with the directions named) for own-direction views.
std::string ViewTitle(const std::optional<std::string>& view, TableMetric m,
                      const std::vector<const json*>& jobs) {
  if (IsPerJobMetric(m)) return TableMetricTitle(m);
  if (view) return *view + " " + TableMetricTitle(m);
  std::set<std::string> dirs;
  for (const json* j : jobs)
    for (const auto& d : JobDirections(*j)) dirs.insert(d);
  if (dirs.size() == 1) return *dirs.begin() + " " + TableMetricTitle(m);
  return TableMetricTitle(m) + ", each job's own direction";
}

std::string PointLabel(const std::vector<std::pair<std::string, std::string>>& pt) {
  std::string s;
  for (const auto& [k, v] : pt) s += (s.empty() ? "" : " ") + k + "=" + v;
  return s;
}

// Job options whose values differ between jobs (for the no-sweep table), in
// a readable order: the options people vary first.
std::vector<std::string> VaryingOptions(const json& doc, const std::vector<std::string>& names,
                                        const std::map<std::string, const json*>& first_by_name) {
  std::map<std::string, std::set<std::string>> seen;
  std::set<std::string> all;
  for (const auto& n : names) {
    for (const auto& [k, v] : RowOptions(doc, *first_by_name.at(n))) all.insert(k);
  }
  for (const auto& n : names) {
    auto opts = RowOptions(doc, *first_by_name.at(n));
    for (const auto& k : all) {
      auto it = opts.find(k);
      seen[k].insert(it == opts.end() ? std::string("\x01") : it->second);
    }
  }
  static const char* const kPreferred[] = {"ioengine", "rw",     "bs",      "iodepth",
                                           "numjobs",  "direct", "buffered"};
  std::vector<std::string> out;
  for (const char* p : kPreferred)
    if (seen.count(p) && seen[p].size() > 1) out.push_back(p);
  for (const auto& [k, vals] : seen) {
    if (k == "name" || vals.size() < 2) continue;
    if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
  }
  return out;
}

// "ext4 on nvme0n1", "tmpfs", "nvme0n1" (a block device): one target of
// iobench.context (field names tolerated in a few spellings until the
// context probe's schema settles). Empty when it names neither.
std::string TargetDescription(const json* target) {
  auto str = [&](std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (auto v = Str(Get(target, n)); v && !v->empty()) return *v;
    return std::string();
  };
  const std::string fs = str({"fstype", "fs_type", "filesystem"});
  std::string dev = str({"disk", "device", "block_device", "bdev"});
  if (dev.rfind("/dev/", 0) == 0) dev = dev.substr(5);
  if (!fs.empty() && !dev.empty()) return fs + " on " + dev;
  return fs + dev;
}

// The context's targets grouped by description, in order of first
// appearance: ("ext4 on vda", {"/tmp/x/f1"}), ("tmpfs", {"/dev/shm/f"}).
std::vector<std::pair<std::string, std::vector<std::string>>> TargetsByDescription(
    const json* ctx, const std::vector<const json*>* shown = nullptr) {
  std::vector<const json*> targets;
  if (const json* ts = Get(ctx, "targets"); ts && ts->is_array())
    for (const auto& t : *ts) targets.push_back(&t);
  if (targets.empty())
    if (const json* t = Get(ctx, "target")) targets.push_back(t);
  // Only the targets of the `shown` jobs, where the targets say which jobs
  // (and sweep points) they served; all of them when none is known to (a
  // file written before targets named their jobs, a group entry named for
  // its first job).
  if (shown != nullptr) {
    auto serves = [&](const json* t) {
      const json* names = Get(t, "jobs");
      if (names == nullptr || !names->is_array()) return true;
      const json* points = Get(t, "points");
      for (const json* j : *shown) {
        if (std::find(names->begin(), names->end(), json(JobName(*j))) == names->end()) continue;
        const json* pt = Get(Get(*j, "iobench"), "point");
        if (points == nullptr || !points->is_array() || pt == nullptr ||
            std::find(points->begin(), points->end(), *pt) != points->end())
          return true;
      }
      return false;
    };
    std::vector<const json*> mine;
    for (const json* t : targets)
      if (serves(t)) mine.push_back(t);
    if (!mine.empty()) targets = std::move(mine);
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const json* t : targets) {
    const std::string d = TargetDescription(t);
    if (d.empty()) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == d; });
    if (it == out.end()) it = out.insert(out.end(), {d, {}});
    const std::string path = Str(Get(t, "path")).value_or("");
    if (!path.empty() && std::find(it->second.begin(), it->second.end(), path) == it->second.end())
      it->second.push_back(path);
  }
  return out;
}

// "err=22 (Invalid argument), err=28 (...)": the distinct errors of `jobs`.
std::string ErrorList(const std::vector<const json*>& jobs) {
  std::vector<int> errs;
  for (const json* j : jobs)
    if (int e = JobError(j); e != 0 && std::find(errs.begin(), errs.end(), e) == errs.end())
      errs.push_back(e);
  std::string out;
  for (int e : errs)
    out += (out.empty() ? "" : ", ") + ("err=" + std::to_string(e)) + " (" + std::strerror(e) + ")";
  return out;
}

// Why the sweep of `doc` did not run the point `p` (an entry of its
// iobench.sweep.not_run) when a run refused it at its set-up: "refused at
// its set-up: job 'j': ..." (the sweep went on); nullopt for a point it
// did not reach (StoppedWhy).
std::optional<std::string> RefusedWhy(const json& doc, const json& p) {
  const json* refused = Get(Get(Get(doc, "iobench"), "sweep"), "refused");
  if (refused != nullptr && refused->is_array())
    for (const auto& r : *refused)
      if (const json* rp = Get(&r, "point"); rp != nullptr && *rp == p)
        return "refused at its set-up: " + Str(Get(&r, "error")).value_or("");
  return std::nullopt;
}

// Why the sweep of `doc` stopped before its remaining points: "the sweep
// was stopped" (Ctrl-C), or, when the document says, "--sweep-cmd failed
// with exit code 1 at point iodepth=4; the sweep stopped there".
std::string StoppedWhy(const json& doc) {
  const json* st = Get(Get(Get(doc, "iobench"), "sweep"), "stopped");
  if (Str(Get(st, "by")).value_or("") != "sweep-cmd") return "the sweep was stopped";
  std::vector<std::pair<std::string, std::string>> kv;
  for (const auto& k : SweepKeys(doc))
    if (auto v = Str(Get(Get(st, "point"), k.c_str()))) kv.emplace_back(k, *v);
  const auto code = Num(st, "exit_code");
  return "--sweep-cmd failed" +
         (code ? " with exit code " + std::to_string(static_cast<long long>(*code)) : "") +
         (kv.empty() ? "" : " at point " + PointLabel(kv)) + "; the sweep stopped there";
}

// Why the sweep of `doc` did not run `point` (its iobench.sweep.not_run
// lists it), nullopt when it does not: a job of the other file at that
// point is not missing from this one, only never run.
std::optional<std::string> NotRunWhy(
    const json& doc, const std::vector<std::pair<std::string, std::string>>& point) {
  if (point.empty()) return std::nullopt;
  const json* nr = Get(Get(Get(doc, "iobench"), "sweep"), "not_run");
  if (nr == nullptr || !nr->is_array()) return std::nullopt;
  json want = json::object();
  for (const auto& [k, v] : point) want[k] = v;
  for (const auto& p : *nr)
    if (p == want) return RefusedWhy(doc, p).value_or(StoppedWhy(doc));
  return std::nullopt;
}

// What a reader of a pasted table must know and the cells cannot say: a
// point cut short by Ctrl-C, a point whose job failed (its 0 is no
// measurement), the points an interrupted sweep never ran, and
// the warnings about what was measured (iobench.context.warnings: a tmpfs
// target, buffered libaio, ...), which with --output-format=table alone
// were printed nowhere.
std::string Footnotes(const json& doc, const std::vector<const json*>& jobs, bool star, bool bang,
                      TableStyle style, const std::vector<std::string>& absent = {}) {
  const std::string lead = style == TableStyle::kCsv ? "# " : "";
  const std::vector<std::string> keys = SweepKeys(doc);
  std::vector<std::string> lines = absent;
  // csv: the jobs (and their points) that `mark` names, "j [iodepth=2]"
  // with what `mark` adds, each once.
  auto marked = [&](auto mark) {
    std::string out;
    const auto labels = JobLabels(jobs, keys);
    for (size_t i = 0; i < jobs.size(); ++i) {
      const json* j = jobs[i];
      std::optional<std::string> extra = mark(j);
      if (!extra) continue;
      std::string label = labels[i];
      if (auto kv = JobPoint(*j, keys); !kv.empty()) label += " [" + PointLabel(kv) + "]";
      label += *extra;
      if (out.find(label) == std::string::npos) out += (out.empty() ? "" : ", ") + label;
    }
    return out;
  };
  if (style == TableStyle::kCsv) {
    const std::string cut = marked([](const json* j) {
      return Interrupted(j) ? std::optional<std::string>("") : std::nullopt;
    });
    if (!cut.empty()) lines.push_back("interrupted (ran only part of its time): " + cut);
    const std::string failed = marked([](const json* j) {
      return JobError(j) != 0 ? std::optional<std::string>(" err=" + std::to_string(JobError(j)))
                              : std::nullopt;
    });
    if (!failed.empty()) lines.push_back("failed (ended with an error): " + failed);
  } else {
    if (star) lines.push_back("* interrupted: this point ran only part of its time");
    if (bang)
      lines.push_back("! failed: a job of this point ended with an error, " + ErrorList(jobs) +
                      "; its figures are what it did before the error");
  }
  for (auto& l : table::NotRunLines(doc)) lines.push_back(std::move(l));
  // Targets on more than one file system or device: the caption names
  // each, and this says which path is on which (rows and columns show the
  // paths when they differ: a filename column, a swept filename).
  if (const auto by = TargetsByDescription(Get(Get(doc, "iobench"), "context")); by.size() > 1)
    for (const auto& [desc, paths] : by) {
      std::string l = "target " + desc + ":";
      for (size_t i = 0; i < paths.size() && i < 3; ++i) l += (i ? ", " : " ") + paths[i];
      if (paths.size() > 3) l += " (and " + std::to_string(paths.size() - 3) + " more)";
      lines.push_back(l);
    }
  // As the normal report prints them: sys marks the informational ones
  // "note: " after the job's name.
  if (const json* w = Get(Get(Get(doc, "iobench"), "context"), "warnings"); w && w->is_array())
    for (const auto& x : *w) {
      if (!x.is_string()) continue;
      const std::string t = x.get<std::string>();
      const size_t n = t.find("note: ");
      lines.push_back(n == std::string::npos ? "warning: " + t
                                             : "note: " + t.substr(0, n) + t.substr(n + 6));
    }
  std::string out;
  for (const auto& l : lines) out += lead + OneLine(l, false) + "\n";
  return out.empty() ? out : "\n" + out;
}

// A job's options as a caption describes it: aliases under fio's own
// names, and the block size and rw at fio's defaults (4k, read) when the
// job leaves them unset, as "job options" does (fio lists only what was
// written): a pasted table must say them. A caption left them out and
// printed the default `buffered`: `buffered, null` for a 4k read job.
std::map<std::string, std::string> CaptionOptions(const json& doc, const json& job) {
  auto o = JobOptions(doc, job);
  auto alias = [&](const char* a, const char* name) {
    if (auto it = o.find(a); it != o.end()) {
      if (!o.count(name)) o[name] = it->second;
      o.erase(it);
    }
  };
  alias("readwrite", "rw");
  alias("blocksize", "bs");
  alias("blocksize_range", "bsrange");
  // A replayed iolog's block sizes and directions are the log's.
  const bool replay = o.count("read_iolog") && !o["read_iolog"].empty();
  // A group entry's options are its last member's (as fio writes them):
  // an option its members set differently is said only when they agree
  // once fio's default stands for an unset one (rw=read beside no rw).
  // `64k ... iodepth=16` captioned a group of a 4k QD1 job and a 64k QD16
  // job; `write` a group of a read job and a write job.
  static const std::map<std::string, std::string> kDefaults = {{"rw", "read"},   {"bs", "4k"},
                                                               {"direct", "0"},  {"buffered", "1"},
                                                               {"iodepth", "1"}, {"numjobs", "1"}};
  for (const auto& [key, vals] : MemberOptions(job)) {
    const std::string k = key == "readwrite" ? "rw" : key == "blocksize" ? "bs" : key;
    const auto def = kDefaults.find(k);
    std::set<std::string> agreed;
    std::string all;
    for (const auto& v : vals) {
      // No default known: an unset member differs from every value.
      agreed.insert(v ? *v : def != kDefaults.end() ? def->second : std::string("\x01"));
      if (!all.empty()) all += '/';
      all += v.value_or("-");
    }
    if (agreed.size() == 1 && agreed.begin()->rfind('\x01', 0) != 0)
      o[k] = *agreed.begin();
    else
      o[k] = "\x01" + all;  // differs from every value; never shown
  }
  if (const auto members = MemberRw(job); members.size() > 1) {
    std::string all;
    for (const auto& m : members) all += (all.empty() ? "" : "/") + m;
    o["rw"] = "\x01" + all;  // differs from every rw; never shown
  }
  if (!replay && !o.count("rw")) o["rw"] = "read";
  if (!replay && !o.count("bs") && !o.count("bsrange") && !o.count("bssplit")) o["bs"] = "4k";
  return o;
}

// Whether every one of `jobs` (of `doc`) runs a sync engine (psync when it names none,
// fio's default): iodepth then changes nothing.
bool AllSyncEngines(const json& doc, const std::vector<const json*>& jobs) {
  const jobfile::OptionDef* def = jobfile::FindOption("ioengine");
  bool any = false;
  for (const json* job : jobs) {
    const auto o = CaptionOptions(doc, *job);
    const auto it = o.find("ioengine");
    const std::string name = it != o.end() ? it->second : def ? def->def : "";
    const EngineInfo* e = FindEngine(name);  // a group's members that differ: none
    if (e == nullptr || !e->is_sync) return false;
    any = true;
  }
  return any;
}

// An engine option as a caption says it when away from its default
// ("uncached=1"; "hipri" for a flag listed with an empty value, as some
// fio JSON files list them); nullopt for any other
// option, a default value, or a group entry whose members differ in it.
std::optional<std::string> EngineOptionSaid(const std::string& key, const std::string& value) {
  const jobfile::OptionDef* def = jobfile::FindOption(key);
  if (def == nullptr || def->engines.empty() || value.rfind('\x01', 0) == 0) return std::nullopt;
  const bool flag =
      def->type == jobfile::OptType::kBool && value.empty();  // fio's JSON: "hipri" : ""
  if ((flag ? std::string("1") : value) == def->def) return std::nullopt;
  return flag ? def->name : def->name + "=" + value;
}

std::string ValueOr(const std::map<std::string, std::string>& m, const std::string& k) {
  auto it = m.find(k);
  return it == m.end() ? "-" : it->second;
}

}  // namespace

// ---------------------------------------------------------------- public

std::vector<std::string> table::NotRunLines(const json& doc) {
  std::vector<std::string> lines;
  const json* nr = Get(Get(Get(doc, "iobench"), "sweep"), "not_run");
  if (nr == nullptr || !nr->is_array() || nr->empty()) return lines;
  const std::vector<std::string> keys = SweepKeys(doc);
  auto label = [&](const json* p) {
    std::vector<std::pair<std::string, std::string>> kv;  // in --sweep order
    for (const auto& k : keys)
      if (auto v = Str(Get(p, k.c_str()))) kv.emplace_back(k, *v);
    return PointLabel(kv);
  };
  // Points a run refused at their set-up: each with why (the sweep went on).
  std::string pts;
  for (const auto& p : *nr) {
    if (!p.is_object()) continue;
    if (const auto why = RefusedWhy(doc, p)) {
      lines.push_back("not run (" + *why + "): " + label(&p));
      continue;
    }
    pts += (pts.empty() ? "" : "; ") + label(&p);
  }
  if (!pts.empty()) lines.push_back("not run (" + StoppedWhy(doc) + "): " + pts);
  return lines;
}

std::vector<const json*> table::AllJobs(const json& doc) {
  std::vector<const json*> out;
  for (const auto& j : Jobs(doc))
    if (j.is_object()) out.push_back(&j);
  return out;
}

Result<TableMetric> ParseTableMetric(const std::string& name) {
  for (const auto& mi : kMetrics)
    if (name == mi.name) return mi.m;
  std::string names;
  for (const auto& mi : kMetrics) {
    if (!names.empty()) names += '|';
    names += mi.name;
  }
  return Status::Invalid("--table-metric=" + sys::Shortened(name) + ": unknown metric (one of " +
                         names + ")");
}

Result<std::vector<TableMetric>> ParseTableMetrics(const std::string& comma_list) {
  if (comma_list.empty()) return Status::Invalid("--table-metric: empty list");
  std::vector<TableMetric> out;
  for (const std::string& item : sys::SplitEscaped(comma_list, ',')) {
    // iops, (a trailing comma) was taken as iops, and ",bw" said
    // "--table-metric=: unknown metric"; an empty --sweep value is refused.
    if (item.empty())
      return Status::Invalid("--table-metric=" + sys::Shortened(comma_list) +
                             ": empty metric (two commas in a row, or a comma at either end)");
    IOB_ASSIGN_OR_RETURN(TableMetric m, ParseTableMetric(item));
    // iops,iops printed the same tables twice.
    if (std::find(out.begin(), out.end(), m) != out.end())
      return Status::Invalid("--table-metric=" + sys::Shortened(comma_list) + ": '" + item +
                             "' appears twice");
    out.push_back(m);
  }
  return out;
}

Result<TableStyle> ParseTableStyle(const std::string& name) {
  if (name == "plain") return TableStyle::kPlain;
  if (name == "markdown" || name == "md") return TableStyle::kMarkdown;
  if (name == "ascii") return TableStyle::kAscii;
  if (name == "csv") return TableStyle::kCsv;
  return Status::Invalid("--table-style=" + name + ": unknown style (plain|markdown|ascii|csv)");
}

const char* TableMetricName(TableMetric m) {
  for (const auto& mi : kMetrics)
    if (mi.m == m) return mi.name;
  return "?";
}

std::string TableMetricTitle(TableMetric m) {
  for (const auto& mi : kMetrics)
    if (mi.m == m) return mi.title;
  return "?";
}

bool IsPerJobMetric(TableMetric m) {
  return m == TableMetric::kCpuPerIo || m == TableMetric::kUsrCpu || m == TableMetric::kSysCpu;
}

namespace {
// "-" before a negative figure, unless it prints as zero: a delta of
// -0.0001 MiB/s read "-0.000".
std::string Negated(const std::string& magnitude) {
  return magnitude.find_first_not_of("0.") == std::string::npos ? magnitude : "-" + magnitude;
}

// Beyond what a column shows in plain digits (a hand-edited baseline's
// 1e308): 3 significant digits with an exponent, "1.00e+18", as every
// other figure has 3 (it printed 309 digits).
std::string Exponent3(double v) { return Printf("%.2e", v); }
// The first figure that would print in ten digits or more ("%.0f").
constexpr double kPlainLimit = 999999999.5;
}  // namespace

std::string table::FormatIops(double v) {
  if (!std::isfinite(v)) return "-";
  if (v < 0) return Negated(FormatIops(-v));
  // fio's num2str suffixes, up to P; past 999.5P the exponent form.
  static const char* const kSuffix[] = {"", "k", "M", "G", "T", "P"};
  constexpr int kLast = static_cast<int>(std::size(kSuffix)) - 1;
  const double whole = v;
  int s = 0;
  while (v >= 999.5 && s <= kLast) {
    v /= 1000.0;
    ++s;
  }
  if (s > kLast) return Exponent3(whole);
  const char* fmt = v >= 99.95 ? "%.0f" : v >= 9.995 ? "%.1f" : "%.2f";
  if (s == 0 && v == std::floor(v) && v >= 0) fmt = "%.0f";  // whole I/O counts: "0", "7"
  return Printf(fmt, v) + kSuffix[s];
}

std::string table::FormatFixed3(double v) {
  if (!std::isfinite(v)) return "-";
  if (v < 0) return Negated(FormatFixed3(-v));
  if (v == 0) return "0";
  if (v >= kPlainLimit) return Exponent3(v);
  const char* fmt = v >= 99.95 ? "%.0f" : v >= 9.995 ? "%.1f" : v >= 0.9995 ? "%.2f" : "%.3f";
  return Printf(fmt, v);
}

std::string table::FormatRunTimes(double lo_ms, double hi_ms, bool several) {
  // Seconds from 999.5 ms on (it printed as "1000 ms"); whole ms below.
  const bool lo_s = lo_ms >= 999.5, hi_s = hi_ms >= 999.5;
  // Seconds to the precision of `shorter`, so that 1.5 s does not round
  // to 2 beside 10 s.
  auto in_s = [](double ms, double shorter) {
    return Printf(shorter >= 9995 ? "%.0f" : "%.1f", ms / 1000.0);
  };
  auto in_ms = [](double ms) { return Printf("%.0f", ms); };
  if (lo_s != hi_s)  // each end in its own unit: 23 ms read "0.0 s" beside 1.1 s
    return in_ms(lo_ms) + " ms-" + in_s(hi_ms, hi_ms) + " s";
  const std::string a = hi_s ? in_s(lo_ms, lo_ms) : in_ms(lo_ms);
  const std::string b = hi_s ? in_s(hi_ms, lo_ms) : in_ms(hi_ms);
  const char* unit = hi_s ? " s" : " ms";
  return a == b ? b + unit + (several ? " each" : "") : a + "-" + b + unit;
}

std::string table::FormatDelta(double pct) {
  if (!std::isfinite(pct)) return "-";
  if (std::fabs(pct) >= kPlainLimit) return Exponent3(pct);
  std::string s = Printf("%.2f", pct);
  if (s == "-0.00") s = "0.00";
  return s;
}

std::vector<std::string> table::JobDirections(const json& job) {
  std::vector<std::string> out;
  for (const char* d : kDirs) {
    const json* dir = Get(job, d);
    if (Num(dir, "total_ios").value_or(0) > 0 || Num(dir, "io_bytes").value_or(0) > 0)
      out.push_back(d);
  }
  // unified_rw_reporting=mixed: the job has only the summed direction.
  if (out.empty() && Num(Get(job, "mixed"), "total_ios").value_or(0) > 0) out.push_back("mixed");
  return out;
}

std::optional<double> table::JobMetric(const json& job, const std::string& dir_name,
                                       TableMetric m) {
  const json* dir = IsPerJobMetric(m) ? nullptr : Get(job, dir_name.c_str());
  switch (m) {
    case TableMetric::kIops:
      return Num(dir, "iops");
    case TableMetric::kBw: {
      if (auto b = Num(dir, "bw_bytes")) return *b / 1048576.0;
      if (auto k = Num(dir, "bw")) return *k / 1024.0;  // fio's "bw" is KiB/s
      return std::nullopt;
    }
    case TableMetric::kBwKib: {
      // The file's own "bw" when it has one (a --repeat median's is the
      // median of each run's "bw"), else bw_bytes / 1024 as fio makes it.
      if (auto k = Num(dir, "bw")) return k;
      if (auto b = Num(dir, "bw_bytes")) return KibPerSec(*b);
      return std::nullopt;
    }
    case TableMetric::kLatMean:
      return LatMean(dir, "lat_ns");
    case TableMetric::kSlatMean:
      return LatMean(dir, "slat_ns");
    case TableMetric::kClatP50:
      return Percentile(dir, "clat_ns", 50.0);
    case TableMetric::kClatP99:
      return Percentile(dir, "clat_ns", 99.0);
    case TableMetric::kClatP999:
      return Percentile(dir, "clat_ns", 99.9);
    case TableMetric::kLatP50:
      return Percentile(dir, "lat_ns", 50.0);
    case TableMetric::kLatP99:
      return Percentile(dir, "lat_ns", 99.0);
    case TableMetric::kUsrCpu:
      return Num(&job, "usr_cpu");
    case TableMetric::kSysCpu:
      return Num(&job, "sys_cpu");
    case TableMetric::kCpuPerIo: {
      if (auto v = Num(Get(job, "iobench"), "cpu_per_io_us")) return v;
      // Plain fio JSON: usr_cpu/sys_cpu are percent of job_runtime (ms),
      // which for a group_reporting entry is its members' run times summed
      // (the percent is their CPU time over that sum). The longest
      // direction's runtime is one member's: four clones read a quarter of
      // their CPU per I/O (0.039 against 0.130 µs unmerged).
      auto usr = Num(&job, "usr_cpu"), sys = Num(&job, "sys_cpu");
      double ios = 0, dir_runtime_ms = 0;
      for (const char* d : kDirs) {
        ios += Num(Get(job, d), "total_ios").value_or(0);
        dir_runtime_ms = std::max(dir_runtime_ms, Num(Get(job, d), "runtime").value_or(0));
      }
      if (ios == 0) {  // unified_rw_reporting=mixed: only "mixed" (it read "-")
        const json* mixed = Get(job, "mixed");
        ios = Num(mixed, "total_ios").value_or(0);
        dir_runtime_ms = Num(mixed, "runtime").value_or(0);
      }
      // A file without job_runtime (older fio, hand-made): the longest
      // direction's runtime, a single job's own. job_runtime 0 leaves the
      // CPU unmeasured (fio writes 0% then), not 0 µs per I/O.
      const double runtime_ms = Num(&job, "job_runtime").value_or(dir_runtime_ms);
      if (!usr || !sys || ios <= 0 || runtime_ms <= 0) return std::nullopt;
      return (*usr + *sys) / 100.0 * runtime_ms * 1000.0 / ios;
    }
  }
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> table::JobPoint(
    const json& job, const std::vector<std::string>& keys) {
  std::vector<std::pair<std::string, std::string>> out;
  const json* pt = Get(Get(job, "iobench"), "point");
  for (const auto& k : keys) {
    auto v = Str(Get(pt, k.c_str()));
    if (v) out.emplace_back(k, *v);
  }
  return out;
}

std::vector<std::string> table::JobLabels(const std::vector<const json*>& jobs,
                                          const std::vector<std::string>& keys) {
  auto group = [](const json* j) {
    return static_cast<int64_t>(Num(Get(*j, "groupid")).value_or(0));
  };
  // Each point's first group: a sweep renumbers the groups of each point.
  std::map<std::string, int64_t> first_group;
  for (const json* j : jobs) {
    const std::string pk = PointLabel(JobPoint(*j, keys));
    auto it = first_group.find(pk);
    if (it == first_group.end())
      first_group[pk] = group(j);
    else
      it->second = std::min(it->second, group(j));
  }
  std::vector<int64_t> rel(jobs.size());
  std::vector<int> nth(jobs.size());  // which job of its name in its group, from 1
  std::map<std::pair<std::string, std::string>, std::set<int64_t>> groups_of;
  // The last entry of each point, name and group: a later one is a clone of
  // its job, or the first entry of another job of that name.
  std::map<std::tuple<std::string, std::string, int64_t>, std::pair<const json*, int>> last;
  std::set<std::string> shared;  // names of separate jobs in several groups
  // Names and groups of separate jobs of one name in one group: only they
  // are numbered (a lone x in group 0 beside two in group 1 read
  // `x (g=0, #1)`, where the docs say `x (g=0)`). By group, not point, so
  // a job keeps its label at every point.
  std::set<std::pair<std::string, int64_t>> repeated;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const json& job = *jobs[i];
    const std::string pk = PointLabel(JobPoint(job, keys));
    rel[i] = group(jobs[i]) - first_group[pk];
    auto& g = groups_of[{pk, JobName(job)}];
    g.insert(rel[i]);
    if (g.size() > 1) shared.insert(JobName(job));
    // A numjobs clone follows its job: iobench numbers them
    // (iobench.clone, 0 for the job's first); fio's JSON does not, and a
    // clone there is an entry with its job's options.
    auto [it, fresh] = last.try_emplace({pk, JobName(job), rel[i]}, jobs[i], 1);
    if (!fresh) {
      const auto clone = Num(Get(Get(job, "iobench"), "clone"));
      const json* opts = Get(job, "job options");
      const json* prev = Get(*it->second.first, "job options");
      const bool same_job =
          clone ? *clone > 0 : (opts == nullptr ? prev == nullptr : prev && *opts == *prev);
      if (!same_job) {
        ++it->second.second;
        repeated.insert({JobName(job), rel[i]});
      }
      it->second.first = jobs[i];
    }
    nth[i] = it->second.second;
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < jobs.size(); ++i) {
    std::string n = JobName(*jobs[i]);
    std::string tag;
    if (shared.count(n)) tag = "g=" + std::to_string(rel[i]);
    if (repeated.count({n, rel[i]})) tag += (tag.empty() ? "#" : ", #") + std::to_string(nth[i]);
    if (!tag.empty()) n += " (" + tag + ")";
    out.push_back(std::move(n));
  }
  return out;
}

std::vector<std::string> table::SweepKeys(const json& doc) {
  std::vector<std::string> keys;
  const json* k = Get(Get(Get(doc, "iobench"), "sweep"), "keys");
  if (k && k->is_array()) {
    for (const auto& e : *k)
      if (e.is_string()) keys.push_back(e.get<std::string>());
    return keys;
  }
  for (const auto& job : Jobs(doc)) {
    const json* pt = Get(Get(job, "iobench"), "point");
    if (pt == nullptr || !pt->is_object()) continue;
    for (auto it = pt->begin(); it != pt->end(); ++it)
      if (std::find(keys.begin(), keys.end(), it.key()) == keys.end()) keys.push_back(it.key());
  }
  return keys;
}

std::string table::DescribeJobs(const json& doc) { return DescribeJobs(doc, AllJobs(doc)); }

std::string table::DescribeJobs(const json& doc, const std::vector<const json*>& shown) {
  const auto keys = SweepKeys(doc);
  // The table's own jobs: a table split by engine held only psync jobs and
  // was captioned `iodepth=8`, which the io_uring table's jobs had set.
  const std::vector<const json*> described = shown.empty() ? AllJobs(doc) : shown;
  auto swept = [&](std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (std::find(keys.begin(), keys.end(), n) != keys.end()) return true;
    return false;
  };
  // Options the jobs of the table agree on.
  std::map<std::string, std::string> common;
  bool first = true;
  for (const json* job : described) {
    auto opts = CaptionOptions(doc, *job);
    if (first) {
      common = opts;
      first = false;
      continue;
    }
    for (auto it = common.begin(); it != common.end();) {
      auto o = opts.find(it->first);
      it = (o == opts.end() || o->second != it->second) ? common.erase(it) : std::next(it);
    }
  }
  auto opt = [&](std::initializer_list<const char*> names) -> std::optional<std::string> {
    for (const char* n : names) {
      auto it = common.find(n);
      // "\x01...": the jobs of one entry differ in it (CaptionOptions).
      if (it != common.end())
        return it->second.rfind('\x01', 0) == 0 ? std::nullopt
                                                : std::optional<std::string>(it->second);
    }
    return std::nullopt;
  };
  std::vector<std::string> parts;
  if (!swept({"bs", "blocksize"}))
    if (auto v = opt({"bs", "blocksize"})) parts.push_back(*v);
  if (!swept({"rw", "readwrite"}))
    if (auto v = opt({"rw", "readwrite"})) {
      if (parts.empty())
        parts.push_back(*v);
      else
        parts.back() += " " + *v;
    }
  if (!swept({"direct", "buffered"}) && !first) {
    // Every job must agree; an unset option is fio's default (buffered).
    std::set<bool> direct;
    for (const json* job : described) {
      auto o = CaptionOptions(doc, *job);
      // A group entry whose members differ in it (CaptionOptions).
      auto differ = [&](const char* k) {
        auto it = o.find(k);
        return it != o.end() && it->second.rfind('\x01', 0) == 0;
      };
      if (differ("direct") || differ("buffered")) {
        direct = {false, true};
        break;
      }
      bool d = false;
      if (o.count("direct")) d = o["direct"] != "0";
      if (o.count("buffered")) d = o["buffered"] == "0";
      direct.insert(d);
    }
    if (direct.size() == 1) parts.push_back(*direct.begin() ? "direct" : "buffered");
  }
  if (!swept({"ioengine"}))
    if (auto v = opt({"ioengine"})) parts.push_back(*v);
  // A sync engine completes each I/O inside its call: iodepth=32 said of a
  // psync table claimed a depth the run never had (the normal report says
  // "iodepth=32 has no effect with psync").
  if (!swept({"iodepth"}) && !AllSyncEngines(doc, described))
    if (auto v = opt({"iodepth"})) parts.push_back("iodepth=" + *v);
  if (!swept({"numjobs"}))
    if (auto v = opt({"numjobs"})) parts.push_back("numjobs=" + *v);
  // The engine's own options away from their defaults (uncached=1,
  // force_async=1, hipri, ...): they change what is measured, and a
  // base-vs-patched --compare had the same caption on both sides.
  for (const auto& [k, v] : common)
    if (auto said = EngineOptionSaid(k, v); said && !swept({k.c_str()})) parts.push_back(*said);

  // What was measured (iobench.context; field names tolerated in a few
  // spellings until the context probe's schema settles).
  const json* ctx = Get(Get(doc, "iobench"), "context");
  auto ctx_str = [](const json* j, std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (auto v = Str(Get(j, n)); v && !v->empty()) return *v;
    return std::string();
  };
  if (ctx) {
    // Every distinct target, not the first one's: jobs (or sweep points) on
    // ext4 and on tmpfs were captioned "tmpfs" for both. Which path is on
    // which is said under the tables (Footnotes). Of a table of some of the
    // jobs, their targets alone (each per-job table said `tmpfs / ext4`).
    std::string where;
    for (const auto& t : TargetsByDescription(ctx, &shown))
      where += (where.empty() ? "" : " / ") + t.first;
    if (!where.empty()) parts.push_back(where);
    std::string kernel = ctx_str(ctx, {"kernel", "kernel_release", "uname_r"});
    if (kernel.empty()) kernel = ctx_str(Get(ctx, "system"), {"kernel", "kernel_release"});
    if (!kernel.empty()) parts.push_back(kernel);
  }

  const auto& jobs = shown;
  if (!jobs.empty()) {
    // Each job's run time; "10 s each" only when every job ran that long
    // (time_based), else the range: size-bound jobs at different depths or
    // engines finish at different times, and the first job's time alone
    // claimed it for all.
    double lo = 0, hi = 0;
    bool any = false;
    for (const json* job : jobs) {
      double runtime_ms = 0;
      for (const char* d : kDirsAndMixed)
        runtime_ms = std::max(runtime_ms, Num(Get(*job, d), "runtime").value_or(0));
      if (runtime_ms <= 0) continue;
      lo = any ? std::min(lo, runtime_ms) : runtime_ms;
      hi = any ? std::max(hi, runtime_ms) : runtime_ms;
      any = true;
    }
    if (any) parts.push_back(table::FormatRunTimes(lo, hi, jobs.size() > 1));
    // How many runs each figure is the median of, over every job of the
    // table: a signal that cut the repeats leaves the jobs after it with
    // fewer (iobench.repeat.n; a job with no repeat object beside ones with
    // it is a single run that was cut), and jobs[0]'s 3 was said for all.
    std::vector<double> ns;
    bool repeated = false;
    for (const json* job : jobs) {
      const json* rep = Get(Get(*job, "iobench"), "repeat");
      const std::optional<double> n = rep == nullptr ? 1.0 : Num(rep, "n");
      if (!n) continue;  // a count no one wrote (a hand-made document)
      ns.push_back(*n);
      repeated = repeated || rep != nullptr;
    }
    const auto [lo_it, hi_it] = std::minmax_element(ns.begin(), ns.end());
    if (repeated) {
      const double n_lo = *lo_it, n_hi = *hi_it;
      parts.push_back(n_lo != n_hi ? Printf("median of %.0f-", n_lo) + Printf("%.0f runs", n_hi)
                      : n_hi > 1   ? Printf("median of %.0f runs", n_hi)
                                   : std::string("median of 1 run"));
    }
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

Result<std::string> RenderTables(const json& doc, const TableOptions& opts) {
  const auto jobs = AllJobs(doc);
  if (jobs.empty()) {
    // A sweep stopped before its first point (its --sweep-cmd hook failed):
    // no table, but what was not run and why, for the --output file.
    const auto not_run = table::NotRunLines(doc);
    if (not_run.empty()) return Status::Invalid("table: the results hold no jobs");
    std::string out;
    for (const auto& l : not_run)
      out += (opts.style == TableStyle::kCsv ? "# " : "") + OneLine(l, false) + "\n";
    return out;
  }
  const auto keys = SweepKeys(doc);
  auto known = [&](const std::string& k) {
    return std::find(keys.begin(), keys.end(), k) != keys.end();
  };
  std::string swept_list;
  for (const auto& k : keys) swept_list += (swept_list.empty() ? "" : ", ") + k;
  if (!opts.row_key.empty() && !known(opts.row_key))
    return Status::Invalid("table rows: '" + opts.row_key + "' is not a swept key (swept: " +
                           (swept_list.empty() ? "none" : swept_list) + ")");
  if (!opts.col_key.empty() && !known(opts.col_key))
    return Status::Invalid("table columns: '" + opts.col_key + "' is not a swept key (swept: " +
                           (swept_list.empty() ? "none" : swept_list) + ")");
  if (!opts.col_key.empty() && opts.col_key == opts.row_key)
    return Status::Invalid("table: rows and columns name the same key '" + opts.row_key + "'");

  std::string row_key = opts.row_key, col_key = opts.col_key;
  for (const auto& k : keys) {
    if (row_key.empty() && k != col_key) row_key = k;
  }
  for (const auto& k : keys) {
    if (col_key.empty() && k != row_key) col_key = k;
  }
  std::vector<std::string> split_keys;
  for (const auto& k : keys)
    if (k != row_key && k != col_key) split_keys.push_back(k);

  // Job labels (names; separate jobs sharing a name are told apart by their
  // group) in order of first appearance, and values of each key likewise.
  const std::vector<std::string> labels = JobLabels(jobs, keys);
  std::map<const json*, std::string> label_of;
  for (size_t i = 0; i < jobs.size(); ++i) label_of[jobs[i]] = labels[i];
  std::vector<std::string> names;
  std::map<std::string, const json*> first_by_name;
  std::map<std::string, std::vector<std::string>> values;
  for (const json* j : jobs) {
    const std::string& n = label_of[j];
    if (!first_by_name.count(n)) {
      names.push_back(n);
      first_by_name[n] = j;
    }
    for (const auto& [k, v] : JobPoint(*j, keys)) {
      auto& vs = values[k];
      if (std::find(vs.begin(), vs.end(), v) == vs.end()) vs.push_back(v);
    }
  }
  // The jobs of one cell: same name (if given) and every given key = value.
  auto select = [&](const std::string* name,
                    const std::vector<std::pair<std::string, std::string>>& want) {
    std::vector<const json*> out;
    for (const json* j : jobs) {
      if (name && label_of[j] != *name) continue;
      auto pt = JobPoint(*j, keys);
      bool ok = true;
      for (const auto& w : want) ok &= std::find(pt.begin(), pt.end(), w) != pt.end();
      if (ok) out.push_back(j);
    }
    return out;
  };

  // Split groups: every combination of split-key values present, in order.
  std::vector<std::vector<std::pair<std::string, std::string>>> groups;
  for (const json* j : jobs) {
    std::vector<std::pair<std::string, std::string>> g;
    for (const auto& [k, v] : JobPoint(*j, keys))
      if (std::find(split_keys.begin(), split_keys.end(), k) != split_keys.end())
        g.emplace_back(k, v);
    if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
  }

  std::vector<std::string> out;
  bool interrupted_cell = false;
  bool failed_cell = false;
  std::vector<TableMetric> with_value;         // metrics some cell has a figure of
  std::set<std::string> clones_without_range;  // --repeat cells of several entries
  for (TableMetric m : opts.metrics) {
    std::vector<std::optional<std::string>> views = {std::nullopt};
    if (!IsPerJobMetric(m)) views = DirectionViews(jobs);
    for (const auto& view : views) {
      const std::string title = ViewTitle(view, m, jobs);
      // The jobs in the table being made: its caption's run time is theirs
      // (a split table's caption gave the range of the whole sweep).
      std::vector<const json*> shown;
      auto cell = [&](const std::vector<const json*>& sel) {
        for (const json* j : sel)
          if (std::find(shown.begin(), shown.end(), j) == shown.end()) shown.push_back(j);
        const auto v = AggregateMetric(sel, view, m, &doc);
        if (v && std::find(with_value.begin(), with_value.end(), m) == with_value.end())
          with_value.push_back(m);
        std::string c = FormatMetric(m, v, opts.style);
        if (opts.show_range && opts.style != TableStyle::kCsv) {
          if (auto r = RepeatRange(sel, view, m))
            c += " (" + FormatMetric(m, r->first, opts.style) + "-" +
                 FormatMetric(m, r->second, opts.style) + ")";
          // Clones without iobench.repeat.clones (an older iobench's
          // file): each clone's own min and max cannot make the group
          // figure of one run: the lowest clone of run 1 and the lowest of
          // run 3 are no run's.
          else if (sel.size() > 1 && v && std::any_of(sel.begin(), sel.end(), [](const json* j) {
                     return Num(Get(Get(*j, "iobench"), "repeat"), "n").value_or(0) >= 2;
                   }))
            clones_without_range.insert(label_of[sel.front()]);
        }
        if (opts.style != TableStyle::kCsv && std::any_of(sel.begin(), sel.end(), Interrupted)) {
          c += " *";
          interrupted_cell = true;
        }
        // A job that failed (direct=1 refused at open, an I/O error): its
        // 0 or its cut-short figure read as a measurement.
        if (opts.style != TableStyle::kCsv &&
            std::any_of(sel.begin(), sel.end(), [](const json* j) { return JobError(j) != 0; })) {
          c += " !";
          failed_cell = true;
        }
        return c;
      };
      auto make = [&](const std::string& subtitle) {
        Table t;
        std::string line = title;
        if (!row_key.empty()) line += " by " + row_key + (col_key.empty() ? "" : " and " + col_key);
        if (row_key.empty() && !col_key.empty()) line += " by job and " + col_key;
        if (!subtitle.empty()) line += ", " + subtitle;
        t.caption.push_back(line);
        shown.clear();
        return t;
      };
      // The description line, once the cells say which jobs are shown.
      auto render = [&](Table t) {
        const std::string description = DescribeJobs(doc, shown);
        if (!description.empty()) t.caption.push_back(description);
        return Render(t, opts.style, opts.caption);
      };
      if (row_key.empty() && !col_key.empty()) {
        // One key, asked for as columns (--table-cols): one row per job.
        // Falling through to the no-sweep table summed every point of a
        // job into one cell.
        Table t = make("");
        t.header.push_back("job");
        for (const auto& v : values[col_key]) t.header.push_back(col_key + "=" + v);
        t.numeric.assign(t.header.size(), true);
        t.numeric[0] = false;
        for (const auto& n : names) {
          std::vector<std::string> row = {n};
          for (const auto& v : values[col_key]) row.push_back(cell(select(&n, {{col_key, v}})));
          t.rows.push_back(std::move(row));
        }
        out.push_back(render(std::move(t)));
      } else if (row_key.empty()) {
        // Nothing swept: one row per job.
        Table t = make("");
        auto varying = VaryingOptions(doc, names, first_by_name);
        t.header.push_back("job");
        for (const auto& o : varying) t.header.push_back(o);
        t.header.push_back(TableMetricName(m));
        t.numeric.assign(t.header.size(), false);
        t.numeric.back() = true;
        for (const auto& n : names) {
          auto sel = select(&n, {});
          auto o = RowOptions(doc, *first_by_name[n]);
          std::vector<std::string> row = {n};
          for (const auto& k : varying) row.push_back(ValueOr(o, k));
          row.push_back(cell(sel));
          t.rows.push_back(std::move(row));
        }
        out.push_back(render(std::move(t)));
      } else if (col_key.empty()) {
        // One key: rows are its values, columns the jobs.
        Table t = make("");
        t.header.push_back(row_key);
        for (const auto& n : names) t.header.push_back(n);
        t.numeric.assign(t.header.size(), true);
        t.numeric[0] = false;
        for (const auto& v : values[row_key]) {
          std::vector<std::string> row = {v};
          for (const auto& n : names) row.push_back(cell(select(&n, {{row_key, v}})));
          t.rows.push_back(std::move(row));
        }
        out.push_back(render(std::move(t)));
      } else {
        for (const auto& g : groups) {
          for (const auto& n : names) {
            std::string sub = PointLabel(g);
            if (names.size() > 1) sub += (sub.empty() ? "job " : ", job ") + n;
            Table t = make(sub);
            t.header.push_back(row_key);
            for (const auto& cv : values[col_key]) t.header.push_back(col_key + "=" + cv);
            t.numeric.assign(t.header.size(), true);
            t.numeric[0] = false;
            bool any = false;
            for (const auto& rv : values[row_key]) {
              std::vector<std::string> row = {rv};
              for (const auto& cv : values[col_key]) {
                auto want = g;
                want.emplace_back(row_key, rv);
                want.emplace_back(col_key, cv);
                auto sel = select(&n, want);
                any |= !sel.empty();
                row.push_back(cell(sel));
              }
              t.rows.push_back(std::move(row));
            }
            if (any) out.push_back(render(std::move(t)));
          }
        }
      }
    }
  }
  // A metric no cell has: a table of "-" said nothing of why (--compare
  // says "no lat_p99 in either file").
  std::vector<std::string> absent;
  for (TableMetric m : opts.metrics) {
    if (std::find(with_value.begin(), with_value.end(), m) != with_value.end()) continue;
    std::string why;
    if (m == TableMetric::kLatP50 || m == TableMetric::kLatP99)
      why = ": total latency percentiles are recorded only with lat_percentiles=1";
    else if (m == TableMetric::kSlatMean)
      why = ": a sync engine has no submission latency";
    absent.push_back("no " + std::string(TableMetricName(m)) + " in the results" + why);
  }
  if (!clones_without_range.empty()) {
    std::string who;
    for (const auto& n : clones_without_range) who += (who.empty() ? "" : ", ") + n;
    absent.push_back("no min-max range for " + who +
                     ": numjobs clones without group_reporting, and the results do not hold "
                     "each run's figure of them (iobench.repeat.clones; group_reporting gives "
                     "the range)");
  }
  return Join(out) + Footnotes(doc, jobs, interrupted_cell, failed_cell, opts.style, absent);
}

// ---------------------------------------------------------------- compare

namespace {

struct CompareEntry {
  std::string name;
  std::vector<std::pair<std::string, std::string>> point;
  std::vector<const json*> jobs;
};

std::string MatchKey(const std::string& name,
                     const std::vector<std::pair<std::string, std::string>>& point) {
  auto sorted = point;
  std::sort(sorted.begin(), sorted.end());
  std::string k = name;
  for (const auto& [a, b] : sorted) k += "\x1f" + a + "=" + b;
  return k;
}

std::vector<CompareEntry> Entries(const json& doc, const std::vector<std::string>& keys) {
  std::vector<CompareEntry> out;
  std::map<std::string, size_t> index;
  const auto jobs = AllJobs(doc);
  const auto labels = JobLabels(jobs, keys);
  for (size_t i = 0; i < jobs.size(); ++i) {
    const json* j = jobs[i];
    CompareEntry e;
    e.name = labels[i];
    e.point = JobPoint(*j, keys);
    const std::string k = MatchKey(e.name, e.point);
    auto it = index.find(k);
    if (it == index.end()) {
      index[k] = out.size();
      e.jobs.push_back(j);
      out.push_back(std::move(e));
    } else {
      out[it->second].jobs.push_back(j);
    }
  }
  return out;
}

// min/max of the metric from iobench.repeat, for a single-job entry.
std::optional<std::pair<double, double>> RepeatRange(const CompareEntry& e,
                                                     const std::optional<std::string>& view,
                                                     TableMetric m) {
  return RepeatRange(e.jobs, view, m);
}

// (new - base) / base * 100. A base of 0 (or a negative one, which no
// metric has) gives no percentage: dividing by it would print inf or flip
// the sign.
std::optional<double> DeltaPercent(std::optional<double> bv, std::optional<double> nv) {
  if (!bv || !nv || *bv <= 0) return std::nullopt;
  return (*nv - *bv) / *bv * 100.0;
}

// Both sides carry --repeat ranges of the metric and they overlap.
bool InNoise(const CompareEntry& b, const CompareEntry& n, const std::optional<std::string>& view,
             TableMetric m) {
  auto br = RepeatRange(b, view, m), nr = RepeatRange(n, view, m);
  return br && nr && br->first <= nr->second && nr->first <= br->second;
}

// The one direction all jobs of an entry did I/O in; none when they did
// none or several.
std::optional<std::string> EntryDirection(const CompareEntry& e) {
  std::set<std::string> dirs;
  for (const json* j : e.jobs)
    for (const auto& d : JobDirections(*j)) dirs.insert(d);
  if (dirs.size() != 1) return std::nullopt;
  return *dirs.begin();
}

// With each job's own direction in one table (no job mixes directions),
// a matched pair may have measured different directions (a read sweep as
// base, a write sweep as new): its delta compares reads with writes. One
// warning per pair of directions, naming the rows, or "every row".
std::vector<std::string> DirectionMismatches(const std::vector<CompareEntry>& bentries,
                                             const std::vector<CompareEntry>& nentries,
                                             const std::map<std::string, size_t>& nindex,
                                             const std::vector<const json*>& all,
                                             const TableOptions& opts) {
  if (DirectionViews(all).front()) return {};
  std::vector<std::pair<std::string, std::string>> pairs;
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> rows;
  size_t matched = 0;
  for (const auto& e : bentries) {
    auto it = nindex.find(MatchKey(e.name, e.point));
    if (it == nindex.end()) continue;
    ++matched;
    auto bd = EntryDirection(e), nd = EntryDirection(nentries[it->second]);
    if (!bd || !nd || *bd == *nd) continue;
    const std::pair<std::string, std::string> key(*bd, *nd);
    if (!rows.count(key)) pairs.push_back(key);
    rows[key].push_back(e.name + (e.point.empty() ? "" : " [" + PointLabel(e.point) + "]"));
  }
  std::vector<std::string> out;
  for (const auto& key : pairs) {
    const auto& r = rows[key];
    std::string which;
    if (r.size() == matched) {
      which = "every row";
    } else {
      for (const auto& x : r) which += (which.empty() ? "" : ", ") + x;
    }
    out.push_back(opts.base_label + " measured " + key.first + " and " + opts.new_label + " " +
                  key.second + " (" + which + "): these deltas compare different directions");
  }
  return out;
}

nlohmann::ordered_json PointObject(const std::vector<std::pair<std::string, std::string>>& pt) {
  nlohmann::ordered_json o = nlohmann::ordered_json::object();
  for (const auto& [k, v] : pt) o[k] = v;
  return o;
}

// cpu_per_io of a job counts kernel helper threads (io-wq, SQPOLL, aio):
// iobench's final record (iobench.cpu_scope "own_threads_and_helpers", or
// no cpu_scope, an older iobench's), not fio's, whose figure comes from its
// usr_cpu/sys_cpu (getrusage of the job's own thread), nor an interim
// record ("own_threads").
bool CpuPerIoHasHelpers(const json& job) {
  const json* ib = Get(job, "iobench");
  if (!Num(ib, "cpu_per_io_us")) return false;
  return Str(Get(ib, "cpu_scope")).value_or("own_threads_and_helpers") != "own_threads";
}

// The job's own threads' µs of CPU per I/O: iobench's cpu_per_io_us less
// its helpers' CPU (iobench.helpers' *_user_us/*_sys_us) over its I/Os, as
// CpuPerIoUs adds them; nullopt without the helpers' figures.
std::optional<double> OwnThreadsCpuPerIo(const json& job) {
  const json* ib = Get(job, "iobench");
  const json* h = Get(ib, "helpers");
  auto total = Num(ib, "cpu_per_io_us");
  if (!total || h == nullptr || !h->is_object()) return std::nullopt;
  double helpers_us = 0;
  for (const char* kind : {"iowq", "sqpoll", "aio", "other"})
    for (const char* part : {"_user_us", "_sys_us"}) {
      auto v = Num(h, (std::string(kind) + part).c_str());
      if (!v) return std::nullopt;
      helpers_us += *v;
    }
  double ios = 0;
  for (const char* d : kDirs) ios += Num(Get(job, d), "total_ios").value_or(0);
  if (ios <= 0) return std::nullopt;
  // A --repeat median's helpers are its median run's: never below 0.
  return std::max(0.0, *total - helpers_us / ios);
}

// --compare of cpu_per_io between a side whose figures count kernel helper
// threads and one whose do not (an iobench file against fio's): `fio.json
// 3.42 -> iob.json 28.6, +737%` for the io-wq workers fio never counted.
// The helpers' side is compared by its own threads' figure when its file
// has the helpers' CPU (the copies below), and a note says what was
// compared; without it, a note says the scopes differ.
class CpuScopes {
 public:
  CpuScopes(const json& base, const json& neu, const TableOptions& opts)
      : base_(&base), neu_(&neu) {
    if (std::find(opts.metrics.begin(), opts.metrics.end(), TableMetric::kCpuPerIo) ==
        opts.metrics.end())
      return;
    // Jobs of each scope on each side.
    size_t helpers[2] = {0, 0}, own[2] = {0, 0};
    const json* docs[2] = {&base, &neu};
    for (int side = 0; side < 2; ++side)
      for (const json* j : AllJobs(*docs[side])) ++(CpuPerIoHasHelpers(*j) ? helpers : own)[side];
    if (helpers[0] + helpers[1] == 0 || own[0] + own[1] == 0) return;  // one scope: alike
    // Every job counting helpers is compared by its own threads' figure.
    const std::string& label_h = helpers[0] ? opts.base_label : opts.new_label;
    const std::string& label_o = own[0] ? opts.base_label : opts.new_label;
    const std::string which =
        helpers[0] && helpers[1] ? opts.base_label + " and " + opts.new_label : label_h;
    // What the own-threads side is: fio's figures, or iobench's interim
    // records (cpu_scope own_threads), which the note named as fio's.
    bool interim = false;
    for (const json* j : AllJobs(*docs[own[0] ? 0 : 1]))
      interim |= Str(Get(Get(*j, "iobench"), "cpu_scope")).value_or("") == "own_threads";
    const std::string own_what =
        interim ? "iobench's interim records, cpu_scope own_threads" : "fio's usr_cpu + sys_cpu";
    json copies[2];
    for (int side = 0; side < 2; ++side) {
      if (!helpers[side]) continue;
      copies[side] = *docs[side];
      for (json& j : copies[side]["jobs"]) {
        if (!j.is_object() || !CpuPerIoHasHelpers(j)) continue;
        const auto v = OwnThreadsCpuPerIo(j);
        if (!v) {
          note_ = "warning: cpu_per_io: " + label_h +
                  "'s figures include kernel helper threads (io-wq, SQPOLL, aio) and " + label_o +
                  "'s do not (" + own_what + ": each job's own threads); " + label_h +
                  " does not hold its helpers' CPU (iobench.helpers) to leave it out: these "
                  "deltas compare different scopes";
          warning_ = true;
          return;
        }
        json& ib = j["iobench"];
        ib["cpu_per_io_us"] = *v;
        ib["cpu_scope"] = "own_threads";
        // The runs' spread (and numjobs clones' median) of the whole
        // figure is not this one's.
        auto drop = [](json* part) {
          if (part == nullptr || !part->is_object()) return;
          for (const char* k : {"min", "max", "median"})
            if (auto it = part->find(k); it != part->end() && it->is_object())
              if (auto job = it->find("job"); job != it->end() && job->is_object())
                job->erase("cpu_per_io");
        };
        if (auto rep = ib.find("repeat"); rep != ib.end() && rep->is_object()) {
          drop(&*rep);
          if (auto c = rep->find("clones"); c != rep->end()) drop(&*c);
        }
      }
    }
    note_ = "cpu_per_io: each job's own threads on both sides: " + label_o +
            "'s figures count only them (" + own_what + "), so " + which +
            "'s leave out the kernel helper threads it counts (io-wq, SQPOLL, aio: "
            "cpu_per_io_us less iobench.helpers)";
    for (int side = 0; side < 2; ++side)
      if (helpers[side]) copies_[side] = std::move(copies[side]);
    if (helpers[0]) base_ = &copies_[0];
    if (helpers[1]) neu_ = &copies_[1];
  }
  const json& base() const { return *base_; }
  const json& neu() const { return *neu_; }
  // The line under the tables (the JSON's "notes", or "warnings" when the
  // scopes could not be made alike); empty when they are alike.
  const std::string& note() const { return note_; }
  bool warning() const { return warning_; }

 private:
  const json* base_;
  const json* neu_;
  json copies_[2];
  std::string note_;
  bool warning_ = false;
};

}  // namespace

Result<std::string> RenderCompare(const json& base_in, const json& neu_in,
                                  const TableOptions& opts) {
  const CpuScopes cpu(base_in, neu_in, opts);
  const json& base = cpu.base();
  const json& neu = cpu.neu();
  if (AllJobs(base).empty())
    return Status::Invalid("compare: " + opts.base_label + " holds no jobs");
  if (AllJobs(neu).empty()) return Status::Invalid("compare: " + opts.new_label + " holds no jobs");
  // Keys from the base; a key the new side lacks simply does not match.
  std::vector<std::string> keys = SweepKeys(base);
  for (const auto& k : SweepKeys(neu))
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  const auto bentries = Entries(base, keys);
  const auto nentries = Entries(neu, keys);
  std::map<std::string, size_t> nindex;
  for (size_t i = 0; i < nentries.size(); ++i)
    nindex[MatchKey(nentries[i].name, nentries[i].point)] = i;

  std::set<std::string> names;
  for (const auto& e : bentries) names.insert(e.name);
  const bool many_names = names.size() > 1;
  const bool split = keys.size() >= 2;

  // Row label and table group of an entry.
  auto group_of = [&](const CompareEntry& e) -> std::string {
    if (!split) return "";
    for (const auto& [k, v] : e.point)
      if (k == keys[0]) return v;
    return "";
  };
  // The keys with a value that does not say which option it is (a number,
  // size or time: `1`, `4k`, `10s`; `io_uring` and `randread` do): a split
  // table headed `1` with rows `0` and `1` (--sweep iodepth=... --sweep
  // force_async=0,1) named neither key. Those are written KEY=VALUE, as the
  // sweep tables' columns are.
  std::set<std::string> named_keys;
  for (const auto& e : bentries)
    for (const auto& [k, v] : e.point) {
      const size_t d = !v.empty() && (v[0] == '-' || v[0] == '+' || v[0] == '.') ? 1 : 0;
      if (d < v.size() && std::isdigit(static_cast<unsigned char>(v[d]))) named_keys.insert(k);
    }
  auto value_label = [&](const std::string& key, const std::string& value) {
    return named_keys.count(key) ? key + "=" + value : value;
  };
  // One job: the header names the key, so a row is its bare value; split by
  // the first key the header holds that key's value (seed 004's shape), and
  // a row is the other key's value, bare when it says what it is (`read`).
  // Several jobs: a row is the job's name and its point written out, as in
  // the "only in" lines (`a [iodepth=1]`); `a 1` did not say what 1 was.
  auto label_of = [&](const CompareEntry& e, const std::string& header) {
    std::vector<std::pair<std::string, std::string>> rest;
    for (const auto& kv : e.point)
      if (!split || kv.first != keys[0]) rest.push_back(kv);
    if (rest.empty()) return e.name;
    if (many_names) return e.name + " [" + PointLabel(rest) + "]";
    if (rest.size() > 1) return PointLabel(rest);
    return rest[0].first == header ? rest[0].second : value_label(rest[0].first, rest[0].second);
  };
  std::string first_header = "job";
  if (keys.size() == 1 && !many_names) first_header = keys[0];
  if (keys.size() == 2 && !many_names) first_header = keys[1];

  std::vector<std::string> groups;
  for (const auto& e : bentries) {
    auto g = group_of(e);
    if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
  }

  std::vector<const json*> all = AllJobs(base);
  for (const json* j : AllJobs(neu)) all.push_back(j);

  std::vector<std::string> out;
  bool noise_marked = false;
  // The sweep table's marks, carried to each side's cell: a point cut by
  // Ctrl-C (" *") or with a failed job (" !"); csv cells stay numbers and
  // the notes name the rows instead.
  const bool csv = opts.style == TableStyle::kCsv;
  bool star = false, bang = false;
  std::vector<const json*> failed_jobs;
  std::vector<std::string> csv_cut, csv_failed;
  auto marks = [&](const CompareEntry& e, const std::string& side) {
    const bool cut = std::any_of(e.jobs.begin(), e.jobs.end(), Interrupted);
    const bool failed =
        std::any_of(e.jobs.begin(), e.jobs.end(), [](const json* j) { return JobError(j) != 0; });
    const std::string who =
        e.name + (e.point.empty() ? "" : " [" + PointLabel(e.point) + "]") + " in " + side;
    auto once = [](std::vector<std::string>* v, const std::string& x) {
      if (std::find(v->begin(), v->end(), x) == v->end()) v->push_back(x);
    };
    std::string m;
    if (cut) {
      star = true;
      if (csv) once(&csv_cut, who);
      m += " *";
    }
    if (failed) {
      bang = true;
      for (const json* j : e.jobs)
        if (JobError(j) != 0) failed_jobs.push_back(j);
      std::string errs;
      for (const json* j : e.jobs)
        if (int err = JobError(j);
            err != 0 && errs.find("err=" + std::to_string(err)) == std::string::npos)
          errs += " err=" + std::to_string(err);
      if (csv) once(&csv_failed, who + errs);
      m += " !";
    }
    return csv ? std::string() : m;
  };
  std::string absent;  // metrics with no value in either file for any matched job
  for (TableMetric m : opts.metrics) {
    const size_t tables_before = out.size();
    std::vector<std::optional<std::string>> views = {std::nullopt};
    if (!IsPerJobMetric(m)) views = DirectionViews(all);
    for (const auto& view : views) {
      for (const auto& g : groups) {
        Table t;
        t.caption.push_back((g.empty() ? "" : keys[0] + "=" + g + ": ") + ViewTitle(view, m, all) +
                            ", delta % = (new - base) / base * 100");
        // Each side's jobs in this table: its caption's run time is theirs.
        std::vector<const json*> bshown, nshown;
        t.header = {g.empty() || many_names ? first_header : value_label(keys[0], g),
                    opts.base_label, opts.new_label, "delta"};
        t.numeric = {false, true, true, true};
        for (const auto& e : bentries) {
          if (group_of(e) != g) continue;
          auto it = nindex.find(MatchKey(e.name, e.point));
          if (it == nindex.end()) continue;
          const CompareEntry& n = nentries[it->second];
          auto bv = AggregateMetric(e.jobs, view, m, &base);
          auto nv = AggregateMetric(n.jobs, view, m, &neu);
          if (!bv && !nv) continue;
          std::string delta = "-";
          if (auto pct = DeltaPercent(bv, nv)) {
            delta = FormatDelta(*pct);
            if (InNoise(e, n, view, m)) {
              delta += " ~";
              noise_marked = true;
            }
          }
          t.rows.push_back({label_of(e, t.header[0]),
                            FormatMetric(m, bv, opts.style) + marks(e, opts.base_label),
                            FormatMetric(m, nv, opts.style) + marks(n, opts.new_label), delta});
          bshown.insert(bshown.end(), e.jobs.begin(), e.jobs.end());
          nshown.insert(nshown.end(), n.jobs.begin(), n.jobs.end());
        }
        if (t.rows.empty()) continue;
        const std::string dbase = DescribeJobs(base, bshown), dnew = DescribeJobs(neu, nshown);
        if (dbase == dnew) {
          if (!dbase.empty()) t.caption.push_back(dbase);
        } else {
          t.caption.push_back(opts.base_label + ": " + dbase);
          t.caption.push_back(opts.new_label + ": " + dnew);
        }
        out.push_back(Render(t, opts.style, opts.caption));
      }
    }
    if (out.size() == tables_before)
      absent += std::string(absent.empty() ? "" : ", ") + TableMetricName(m);
  }

  std::string tail;
  const char* note = opts.style == TableStyle::kCsv ? "# " : "";
  // A metric neither file has (slat of a sync engine, lat percentiles
  // without lat_percentiles=1) printed nothing at all, with exit status 0.
  // (Not when no job matched at all: that is an error of its own below.)
  bool any_match = false;
  for (const auto& e : bentries) any_match |= nindex.count(MatchKey(e.name, e.point)) != 0;
  if (!absent.empty() && any_match)
    tail += std::string(note) + "no " + absent + " in either file for the jobs they share\n";
  if (csv) {
    auto list = [](const std::vector<std::string>& v) {
      std::string s;
      for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
      return s;
    };
    if (!csv_cut.empty())
      tail += OneLine("# interrupted (ran only part of its time): " + list(csv_cut), false) + "\n";
    if (!csv_failed.empty())
      tail += OneLine("# failed (ended with an error): " + list(csv_failed), false) + "\n";
  } else {
    if (star) tail += "* interrupted: this point ran only part of its time\n";
    if (bang)
      tail += "! failed: a job of this point ended with an error, " + ErrorList(failed_jobs) +
              "; its figures are what it did before the error\n";
  }
  if (noise_marked)
    tail += std::string(note) +
            "~ : inside the run-to-run noise (the min-max ranges of the repeated runs overlap)\n";
  // Notes naming jobs and points stay one line each, as the cells do (a
  // job named new<LF>line is new\nline).
  for (const auto& w : DirectionMismatches(bentries, nentries, nindex, all, opts))
    tail += std::string(note) + OneLine("warning: " + w, false) + "\n";
  if (!cpu.note().empty()) tail += std::string(note) + OneLine(cpu.note(), false) + "\n";
  // An entry of one side that the other lacks: "only in BASE: a [iodepth=1]",
  // or, when the other side's sweep planned the point and never ran it
  // (Ctrl-C, a failing --sweep-cmd), "not run in NEW (the sweep was
  // stopped): a [iodepth=4]" (it read as a job missing from NEW).
  auto only_line = [&](const CompareEntry& e, const std::string& label, const json& other,
                       const std::string& other_label) {
    const std::string what = e.name + (e.point.empty() ? "" : " [" + PointLabel(e.point) + "]");
    const auto why = NotRunWhy(other, e.point);
    return std::string(note) +
           OneLine(why ? "not run in " + other_label + " (" + *why + "): " + what
                       : "only in " + label + ": " + what,
                   false) +
           "\n";
  };
  std::set<std::string> bkeys;
  for (const auto& e : bentries) {
    const std::string k = MatchKey(e.name, e.point);
    bkeys.insert(k);
    if (!nindex.count(k)) tail += only_line(e, opts.base_label, neu, opts.new_label);
  }
  for (const auto& e : nentries) {
    if (!bkeys.count(MatchKey(e.name, e.point)))
      tail += only_line(e, opts.new_label, base, opts.base_label);
  }
  // Nothing in common (another job file, or a plain run against a sweep):
  // a table of nothing with exit status 0 would pass for a comparison.
  size_t matched = 0;
  for (const auto& e : bentries) matched += nindex.count(MatchKey(e.name, e.point));
  if (matched == 0) {
    std::string why = "compare: no job of " + opts.base_label + " matches a job of " +
                      opts.new_label + " (jobs are matched by job name and sweep point)";
    if (SweepKeys(base) != SweepKeys(neu)) {
      auto list = [](const std::vector<std::string>& k) {
        std::string s;
        for (const auto& x : k) s += (s.empty() ? "" : ", ") + x;
        return s.empty() ? std::string("nothing") : s;
      };
      why += "; " + opts.base_label + " sweeps " + list(SweepKeys(base)) + ", " + opts.new_label +
             " sweeps " + list(SweepKeys(neu));
    }
    if (!tail.empty() && tail.back() == '\n') tail.pop_back();
    return Status::Invalid(why + ":\n" + tail);
  }
  std::string s = Join(out);
  if (!tail.empty()) s += (s.empty() ? "" : "\n") + tail;
  return s;
}

nlohmann::ordered_json CompareJson(const json& base_in, const json& neu_in,
                                   const TableOptions& opts) {
  using ojson = nlohmann::ordered_json;
  const CpuScopes cpu(base_in, neu_in, opts);
  const json& base = cpu.base();
  const json& neu = cpu.neu();
  std::vector<std::string> keys = SweepKeys(base);
  for (const auto& k : SweepKeys(neu))
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  const auto bentries = Entries(base, keys);
  const auto nentries = Entries(neu, keys);
  std::map<std::string, size_t> nindex, bindex;
  for (size_t i = 0; i < nentries.size(); ++i)
    nindex[MatchKey(nentries[i].name, nentries[i].point)] = i;
  for (size_t i = 0; i < bentries.size(); ++i)
    bindex[MatchKey(bentries[i].name, bentries[i].point)] = i;
  std::vector<const json*> all = AllJobs(base);
  for (const json* j : AllJobs(neu)) all.push_back(j);
  // Six decimals, as the run's JSON writes every float (fio's "%f"): the
  // same comparison gave delta_pct -66.666667 in a run's document and
  // -66.66666666666666 from --compare base.json new.json.
  auto figure = [](std::optional<double> v) {
    if (!v || !std::isfinite(*v)) return ojson(nullptr);
    // Beyond 2^53 / 10^6 a double has no sixth decimal to round.
    const double r = std::fabs(*v) < 9e9 ? std::round(*v * 1e6) / 1e6 : *v;
    return ojson(r == 0 ? 0.0 : r);  // no -0.000000
  };

  ojson rows = ojson::array();
  for (TableMetric m : opts.metrics) {
    std::vector<std::optional<std::string>> views = {std::nullopt};
    if (!IsPerJobMetric(m)) views = DirectionViews(all);
    for (const auto& view : views) {
      for (const auto& e : bentries) {
        auto it = nindex.find(MatchKey(e.name, e.point));
        if (it == nindex.end()) continue;
        const CompareEntry& n = nentries[it->second];
        auto bv = AggregateMetric(e.jobs, view, m, &base),
             nv = AggregateMetric(n.jobs, view, m, &neu);
        if (!bv && !nv) continue;
        ojson row = {
            {"job", e.name}, {"point", PointObject(e.point)}, {"metric", TableMetricName(m)}};
        if (view) {
          row["direction"] = *view;
        } else if (!IsPerJobMetric(m)) {
          // Each side its own direction: one "direction" when they agree,
          // else each side's (a read base against a write run).
          const auto bd = EntryDirection(e), nd = EntryDirection(n);
          if (bd && nd && *bd == *nd) {
            row["direction"] = *bd;
          } else {
            if (bd) row["base_direction"] = *bd;
            if (nd) row["new_direction"] = *nd;
          }
        }
        row["base"] = figure(bv);
        row["new"] = figure(nv);
        const auto pct = DeltaPercent(bv, nv);
        row["delta_pct"] = figure(pct);
        row["noise"] = pct.has_value() && InNoise(e, n, view, m);
        // The table's " *" and " !" marks, per side.
        auto cut = [](const CompareEntry& x) {
          return std::any_of(x.jobs.begin(), x.jobs.end(), Interrupted);
        };
        auto failed = [](const CompareEntry& x) {
          return std::any_of(x.jobs.begin(), x.jobs.end(),
                             [](const json* j) { return JobError(j) != 0; });
        };
        row["base_interrupted"] = cut(e);
        row["new_interrupted"] = cut(n);
        row["base_failed"] = failed(e);
        row["new_failed"] = failed(n);
        rows.push_back(std::move(row));
      }
    }
  }
  // An entry the other side's sweep planned and never ran says why
  // ("not_run"), as the text's "not run in NEW (...)" line.
  auto only = [&](const std::vector<CompareEntry>& side, const std::map<std::string, size_t>& other,
                  const json& other_doc) {
    ojson list = ojson::array();
    for (const auto& e : side)
      if (!other.count(MatchKey(e.name, e.point))) {
        list.push_back({{"job", e.name}, {"point", PointObject(e.point)}});
        if (const auto why = NotRunWhy(other_doc, e.point)) list.back()["not_run"] = *why;
      }
    return list;
  };
  ojson warnings = ojson::array(), notes = ojson::array();
  for (const auto& w : DirectionMismatches(bentries, nentries, nindex, all, opts))
    warnings.push_back(w);
  if (!cpu.note().empty()) {
    if (cpu.warning())
      warnings.push_back(cpu.note().substr(std::string("warning: ").size()));
    else
      notes.push_back(cpu.note());
  }
  return ojson{{"base", opts.base_label},
               {"new", opts.new_label},
               {"warnings", std::move(warnings)},
               {"notes", std::move(notes)},
               {"rows", std::move(rows)},
               {"only_in_base", only(bentries, nindex, neu)},
               {"only_in_new", only(nentries, bindex, base)}};
}

namespace {

// nlohmann's DOM builder that keeps the parse error's position and token
// instead of throwing (only main.cc catches exceptions).
class ErrorRecordingParser : public nlohmann::detail::json_sax_dom_parser<json> {
 public:
  explicit ErrorRecordingParser(json& root) : json_sax_dom_parser(root, false) {}
  template <class Exception>
  bool parse_error(size_t position, const std::string& last_token, const Exception& ex) {
    failed_ = true;
    position_ = position;
    token_ = last_token.substr(0, 40);
    token_size_ = last_token.size();
    // nlohmann's "number overflow" (406): valid syntax, beyond a double.
    out_of_range_ = ex.id == 406;
    return json_sax_dom_parser::parse_error(position, last_token, ex);
  }
  bool failed() const { return failed_; }
  size_t position() const { return position_; }
  const std::string& token() const { return token_; }
  size_t token_size() const { return token_size_; }  // before token() was cut to 40
  bool out_of_range() const { return out_of_range_; }

 private:
  bool failed_ = false;
  bool out_of_range_ = false;
  size_t token_size_ = 0;
  size_t position_ = 0;
  std::string token_;
};

// Python's json.dump writes NaN, Infinity and -Infinity (a baseline that a
// script averaged or edited), and C printf writes nan/-nan/inf: not JSON,
// and one of them made the whole file unreadable. Outside strings they are
// replaced by null, which the tables show as a missing figure ("-").
std::string NonFiniteToNull(const std::string& in) {
  static const char* const kWords[] = {"-Infinity", "Infinity", "-NaN", "NaN",
                                       "-nan",      "nan",      "-inf", "inf"};
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::string out;
  out.reserve(in.size());
  bool in_str = false;
  for (size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (in_str) {
      out += c;
      if (c == '\\' && i + 1 < in.size()) {
        out += in[++i];
      } else if (c == '"') {
        in_str = false;
      }
      continue;
    }
    if (c == '"') {
      in_str = true;
      out += c;
      continue;
    }
    bool replaced = false;
    if (c == '-' || c == 'N' || c == 'n' || c == 'I' || c == 'i') {
      for (const char* w : kWords) {
        const size_t n = std::strlen(w);
        if (in.compare(i, n, w) == 0 && (i == 0 || !word_char(in[i - 1])) &&
            (i + n == in.size() || !word_char(in[i + n]))) {
          out += "null";
          i += n - 1;
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += c;
  }
  return out;
}

}  // namespace

namespace {

// The end of the JSON document starting at `start`: past its matching '}'
// (strings and escapes respected), npos when it is cut short.
size_t JsonDocumentEnd(const std::string& text, size_t start) {
  int depth = 0;
  bool in_str = false;
  for (size_t i = start; i < text.size(); ++i) {
    const char c = text[i];
    if (in_str) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_str = false;
      continue;
    }
    if (c == '"') {
      in_str = true;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string::npos;
}

size_t NextLineBrace(const std::string& text, size_t from) {
  for (size_t i = from; i < text.size(); ++i)
    if (text[i] == '{' && (i == 0 || text[i - 1] == '\n')) return i;
  return std::string::npos;
}

}  // namespace

namespace {

// One '{' of the file read as a results document: the document, or why not.
// `progress` is how far into it the parse got, so that when no document
// is usable the error reported is the one of the text that came closest
// (a hand-edited baseline's typo, not a normal-report line "{x}: (g=0)").
struct Attempt {
  std::optional<json> doc;
  Status error;
  size_t progress = 0;
  bool cut_short = false;  // ran out of text: the file ends inside it
  bool fatal = false;      // a results document with a bad figure: no other is looked for
};

// A figure the tables read that is neither a number nor null (NaN and
// Infinity are made null before): `"iops": "abc"` was shown as `-`, as if
// the file had no such figure, and --compare exited 0. Names the file, the
// job and the field.
std::optional<Status> NonNumericField(const json& jobs, const std::string& what) {
  for (size_t i = 0; i < jobs.size(); ++i) {
    const json& job = jobs[i];
    if (!job.is_object()) continue;
    std::optional<std::string> bad;  // "read.iops"
    const json* value = nullptr;
    auto check = [&](const json* obj, const std::string& path, const char* key) {
      const json* v = Get(obj, key);
      if (bad || v == nullptr || v->is_number() || v->is_null()) return;
      bad = path + key;
      value = v;
    };
    for (const char* k : {"groupid", "error", "usr_cpu", "sys_cpu", "job_runtime"})
      check(&job, "", k);
    for (const char* d : kDirsAndMixed) {
      const json* dir = Get(job, d);
      const std::string dp = std::string(d) + ".";
      for (const char* k : {"iops", "bw", "bw_bytes", "io_bytes", "total_ios", "runtime"})
        check(dir, dp, k);
      for (const char* lat : {"clat_ns", "lat_ns", "slat_ns"}) {
        const json* l = Get(dir, lat);
        const std::string lp = dp + lat + ".";
        for (const char* k : {"mean", "N"}) check(l, lp, k);
        if (const json* pc = Get(l, "percentile"); pc != nullptr && pc->is_object())
          for (auto it = pc->begin(); it != pc->end(); ++it)
            check(pc, lp + "percentile.", it.key().c_str());
      }
    }
    check(Get(job, "iobench"), "iobench.", "cpu_per_io_us");
    check(Get(job, "iobench"), "iobench.", "clone");
    // --repeat's spread and the helpers' CPU: every figure below them (the
    // helpers' one flag, a bool, aside).
    std::function<void(const json*, const std::string&)> tree = [&](const json* o,
                                                                    const std::string& path) {
      if (bad || o == nullptr || !o->is_object()) return;
      for (auto it = o->begin(); it != o->end() && !bad; ++it) {
        if (it->is_object())
          tree(&*it, path + it.key() + ".");
        else if (!it->is_boolean())
          check(o, path, it.key().c_str());
      }
    };
    tree(Get(Get(job, "iobench"), "repeat"), "iobench.repeat.");
    tree(Get(Get(job, "iobench"), "helpers"), "iobench.helpers.");
    if (bad) {
      std::string shown = value->dump();
      if (shown.size() > 40) shown = shown.substr(0, 40) + "...";
      const std::string name = Str(Get(job, "jobname")).value_or("jobs[" + std::to_string(i) + "]");
      return Status::Invalid(what + ": job '" + OneLine(name, false) + "' (jobs[" +
                             std::to_string(i) + "]): " + *bad + " is " + shown +
                             ", not a number (a missing figure is left out or null)");
    }
  }
  return std::nullopt;
}

Attempt ParseDocumentAt(const std::string& text, size_t start, const std::string& what) {
  Attempt a;
  const size_t end = JsonDocumentEnd(text, start);
  const std::string body = NonFiniteToNull(
      text.substr(start, end == std::string::npos ? std::string::npos : end - start));
  json doc;
  ErrorRecordingParser sax(doc);
  json::sax_parse(body, &sax);
  if (sax.failed()) {
    a.progress = sax.position();
    // Without a closing '}' a parse that ran out of text (read past its
    // last character) is a document cut short; one that failed on a
    // character is other text.
    a.cut_short = end == std::string::npos && sax.position() > body.size();
    // Where in the file, so a hand-edited or cut baseline can be fixed.
    // Lines are counted in the file; the column in the text as parsed (a
    // NaN made null earlier on the same line shifts it by one). A number
    // out of range is placed at its first digit, other errors at the last
    // character read.
    size_t at = std::min(sax.position() > 0 ? sax.position() - 1 : 0, body.size());
    if (sax.out_of_range() && at + 1 >= sax.token_size()) at = at + 1 - sax.token_size();
    const auto nl = [](const std::string& t, size_t from, size_t to) {
      return static_cast<size_t>(std::count(t.begin() + static_cast<std::ptrdiff_t>(from),
                                            t.begin() + static_cast<std::ptrdiff_t>(to), '\n'));
    };
    const size_t line = 1 + nl(text, 0, start) + nl(body, 0, at);
    size_t col = 0;
    if (const size_t bol = at == 0 ? std::string::npos : body.rfind('\n', at - 1);
        bol != std::string::npos) {
      col = at - bol;
    } else {  // on the document's first line, which may start mid-line in the file
      const size_t tb = start == 0 ? std::string::npos : text.rfind('\n', start - 1);
      col = start - (tb == std::string::npos ? 0 : tb + 1) + at + 1;
    }
    const std::string where =
        " at line " + std::to_string(line) + ", column " + std::to_string(col);
    a.error =
        sax.out_of_range()
            ? Status::Invalid(what + ": number out of range" + where + " ('" + sax.token() +
                              "' is beyond what a double holds)")
            : Status::Invalid(what + ": not valid JSON" + where + " (near '" + sax.token() + "')");
    return a;
  }
  a.progress = body.size();
  const json* jobs = Get(doc, "jobs");
  if (jobs == nullptr || !jobs->is_array()) {
    a.error = Status::Invalid(what + ": no \"jobs\" array (not fio or iobench JSON output)");
    return a;
  }
  if (auto bad = NonNumericField(*jobs, what)) {
    a.error = std::move(*bad);
    a.fatal = true;
    return a;
  }
  // fio 3.33 leaves an empty record when a group_reporting job joins the
  // record before it (no jobname, groupid 4294967295, docs/output.md): no
  // job, so not one "only in" the file either (it read as a job named '?').
  json& list = doc["jobs"];
  for (auto it = list.begin(); it != list.end();)
    it = it->is_object() && !it->contains("jobname") &&
                 Num(&*it, "groupid").value_or(0) == 4294967295.0
             ? list.erase(it)
             : it + 1;
  a.doc = std::move(doc);
  return a;
}

}  // namespace

Result<json> ParseResultsJson(const std::string& text, const std::string& what) {
  // A document starts at a '{' that begins a line (fio prints warnings such
  // as "note: both iodepth >= 1 and synchronous I/O engine" before its
  // JSON), or at the first '{' at all. Not every such line is one: the
  // normal report of a job named "{x}" has lines "{x}: (g=0): ..."; a '{'
  // line that does not read as a document with "jobs" is skipped.
  size_t start = NextLineBrace(text, 0);
  if (start == std::string::npos) start = text.find('{');
  if (start == std::string::npos) {
    // JSON all the same, but no object: `[1,2,3]` said "no JSON document
    // found".
    if (const json v = json::parse(NonFiniteToNull(text), nullptr, false); !v.is_discarded())
      return Status::Invalid(what + ": the JSON document is " +
                             (v.is_array()     ? "an array"
                              : v.is_string()  ? "a string"
                              : v.is_number()  ? "a number"
                              : v.is_boolean() ? "a boolean"
                                               : "null") +
                             ", with no \"jobs\" array (not fio or iobench JSON output)");
    return Status::Invalid(what + ": no JSON document found");
  }
  std::optional<json> found;
  Attempt best;  // the failed attempt that came closest, for the error
  bool tried = false;
  while (start != std::string::npos) {
    Attempt a = ParseDocumentAt(text, start, what);
    if (a.fatal) return a.error;
    if (a.cut_short)
      return Status::Invalid(what +
                             (found ? ": the last JSON document is cut short (no closing '}'); "
                                      "the ones before it are interim reports"
                                    : ": the JSON document is cut short (no closing '}')"));
    if (a.doc) {
      // With --status-interval (fio's and iobench's) the file holds a
      // document per interim report, then the final one: the results are
      // the last. Other formats after it are passed over.
      found = std::move(a.doc);
      start = NextLineBrace(text, JsonDocumentEnd(text, start));
      continue;
    }
    if (!tried || a.progress > best.progress) best = std::move(a);
    tried = true;
    start = NextLineBrace(text, start + 1);
  }
  if (found) {
    // A run killed (or whose output filled up) after an interim report
    // leaves that report last: its figures are not the run's.
    if (const json* im = Get(Get(&*found, "iobench"), "interim");
        im != nullptr && im->is_boolean() && im->get<bool>())
      return Status::Invalid(what +
                             ": the last complete JSON document is an interim report "
                             "(iobench.interim): the run did not finish, so it has no final "
                             "figures");
    return std::move(*found);
  }
  return best.error;
}

Result<json> LoadResultsJson(const std::string& path) {
  // Only a regular file: a directory opens and reads as empty (it was "no
  // JSON document found"), /dev/zero never ends (read until memory ran
  // out, then "out of memory: the jobs need more memory ..."), a FIFO
  // blocks at open until a writer comes, and a pipe is read up by the
  // first of the looks a run takes at its files.
  if (struct stat st; ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return Status::Invalid(path + ": is " +
                           (S_ISDIR(st.st_mode)    ? "a directory"
                            : S_ISCHR(st.st_mode)  ? "a character device"
                            : S_ISBLK(st.st_mode)  ? "a block device"
                            : S_ISFIFO(st.st_mode) ? "a FIFO or pipe"
                                                   : "a socket") +
                           ", not a results file (JSON written with --output-format=json)" +
                           (S_ISFIFO(st.st_mode) ? "; save the results to a file first" : ""));
  std::ifstream in(path, std::ios::binary);
  if (!in) return ErrnoStatus("open " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return ErrnoStatus("read " + path);
  return ParseResultsJson(ss.str(), path);
}

}  // namespace iobench
