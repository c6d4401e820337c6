#include "sweep/sweep.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>

#include "report/table.h"
#include "sys/spawn.h"
#include "sys/strings.h"

extern char** environ;

namespace iobench::sweep {

std::vector<std::string> SplitValues(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == ',') {
      cur += ',';
      ++i;
    } else if (s[i] == ',') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += s[i];
    }
  }
  out.push_back(cur);
  return out;
}

using table::JobDirections;
using table::JobMetric;

namespace {

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// What a suffix stands for: the jobs' rule (jobfile::SizeMultiplier through
// main.cc's callback), the one copy of it. Without one, no suffix is read.
Result<uint64_t> SuffixBytes(const SizeUnit& size_unit, const std::string& suffix) {
  if (size_unit) return size_unit(suffix);
  return Status::Invalid("size suffix '" + suffix + "' with no size rules to read it by");
}

// A range bound: digits with an optional size suffix (k/m/g/t/p, then an
// optional i and b), read as the jobs read it (SizeUnit: their kb_base).
struct Bound {
  uint64_t value = 0;
  int unit = 0;
  bool upper = false;  // the suffix as typed: 1M, 4KiB (written back so)
  std::string tail;    // after the unit letter: "", "b", "ib" as typed ("B", "iB")
};

// kTooLarge: shaped like a bound (digits, a suffix) but past 2^64-1.
// kUnitError: the jobs read the suffix differently (*unit_err says how).
enum class BoundParse { kNotNumber, kTooLarge, kUnitError, kOk };

constexpr char kUnitLetters[] = "kmgtp";

BoundParse ParseBound(const std::string& s, Bound* b, const SizeUnit& size_unit,
                      std::string* unit_err) {
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return BoundParse::kNotNumber;
  size_t i = 0;
  uint64_t v = 0;
  bool overflow = false;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    overflow |= __builtin_mul_overflow(v, 10, &v) ||
                __builtin_add_overflow(v, static_cast<uint64_t>(s[i] - '0'), &v);
    ++i;
  }
  int unit = 0;
  if (i < s.size()) {
    const std::string letters = kUnitLetters;
    const size_t u =
        letters.find(static_cast<char>(std::tolower(static_cast<unsigned char>(s[i]))));
    if (u == std::string::npos) return BoundParse::kNotNumber;
    const std::string tail = s.substr(i + 1);
    std::string low;
    for (char c : tail) low += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!low.empty() && low != "b" && low != "i" && low != "ib") return BoundParse::kNotNumber;
    // k, kb, kib: as the jobs read them (kb_base), not all 1024: with the
    // default kb_base, 4KiB is 4000 to the job, and the range stepped from 4096.
    Result<uint64_t> mult = SuffixBytes(size_unit, s.substr(i));
    if (!mult.ok()) {
      *unit_err = mult.status().message();
      return BoundParse::kUnitError;
    }
    b->upper = std::isupper(static_cast<unsigned char>(s[i])) != 0;
    b->tail = tail;
    unit = static_cast<int>(u) + 1;
    overflow |= __builtin_mul_overflow(v, *mult, &v);
  }
  if (overflow) return BoundParse::kTooLarge;
  b->value = v;
  b->unit = unit;
  return BoundParse::kOk;
}

// Writes v back in the style of the range's bounds: plain digits when they
// had no suffix, otherwise the largest suffix (as the jobs read it) that
// divides v exactly.
// p only when a bound was typed with it (1024t stays 1024t).
std::string FormatRangeValue(uint64_t v, bool with_units, const Bound& style, int top_unit,
                             const SizeUnit& size_unit) {
  if (!with_units || v == 0) return std::to_string(v);
  for (int u = std::max(top_unit, 4) - 1; u >= 0; --u) {
    const char letter =
        style.upper ? static_cast<char>(std::toupper(kUnitLetters[u])) : kUnitLetters[u];
    const std::string suffix = letter + style.tail;
    Result<uint64_t> mult = SuffixBytes(size_unit, suffix);
    if (mult.ok() && *mult != 0 && v % *mult == 0) return std::to_string(v / *mult) + suffix;
  }
  return std::to_string(v);
}

// Expands `A..B[:+S|:xF]` into *out. Returns false when `item` is not range
// syntax at all (then it is a literal value); sets *err when it is a range
// with a fault.
bool ExpandRange(const std::string& item, std::vector<std::string>* out, std::string* err,
                 const SizeUnit& size_unit) {
  const size_t dots = item.find("..");
  if (dots == std::string::npos) return false;
  const std::string lo_s = item.substr(0, dots);
  std::string rest = item.substr(dots + 2);
  std::string step_s;
  const size_t colon = rest.find(':');
  if (colon != std::string::npos) {
    step_s = rest.substr(colon + 1);
    rest = rest.substr(0, colon);
  }
  Bound lo, hi;
  std::string unit_err;
  const BoundParse lo_p = ParseBound(lo_s, &lo, size_unit, &unit_err);
  const BoundParse hi_p = ParseBound(rest, &hi, size_unit, &unit_err);
  const bool lo_ok = lo_p == BoundParse::kOk, hi_ok = hi_p == BoundParse::kOk;
  // Only something shaped like a numeric range is a range: `../dir` is a
  // file name, not a bad range.
  auto digit_first = [](const std::string& x) {
    return !x.empty() && std::isdigit(static_cast<unsigned char>(x[0]));
  };
  if (!lo_ok && !hi_ok && (lo_p == BoundParse::kNotNumber || hi_p == BoundParse::kNotNumber) &&
      !(digit_first(lo_s) && digit_first(rest)))
    return false;
  if (lo_p == BoundParse::kUnitError || hi_p == BoundParse::kUnitError) {
    *err =
        "range '" + item + "': " + (lo_p == BoundParse::kUnitError ? lo_s : rest) + ": " + unit_err;
    return true;
  }
  if (lo_p == BoundParse::kTooLarge || hi_p == BoundParse::kTooLarge) {
    *err = "range '" + item + "': " + (lo_p == BoundParse::kTooLarge ? lo_s : rest) +
           " is too large (the largest bound is 18446744073709551615, 2^64-1)";
    return true;
  }
  if ((!lo_ok && lo_s.empty()) || (!hi_ok && rest.empty())) {
    // "..8": the start was blank in "range '..8':  is not a range bound".
    *err = "range '" + item + "': the " + (lo_s.empty() ? "start" : "end") +
           " bound is missing (a range is A..B, e.g. 1..8)";
    return true;
  }
  if (!lo_ok || !hi_ok) {
    *err = "range '" + item + "': " + (lo_ok ? rest : lo_s) +
           " is not a range bound: a bound is a whole number with an optional size suffix "
           "(4k, 4K, 4KiB, read as the jobs read sizes, kb_base included); list other values "
           "(times, fractions) one by one: 1s,2s,3s";
    return true;
  }
  if (lo.value > hi.value) {
    *err = "range '" + item + "': start is greater than end";
    return true;
  }
  bool multiply = false;
  uint64_t step = 1;
  if (!step_s.empty()) {
    const char op = step_s[0];
    Bound s;
    const BoundParse sp = op == '+' || op == 'x' || op == '*'
                              ? ParseBound(step_s.substr(1), &s, size_unit, &unit_err)
                              : BoundParse::kNotNumber;
    if (sp == BoundParse::kUnitError) {
      *err = "range '" + item + "': step " + step_s.substr(1) + ": " + unit_err;
      return true;
    }
    if (sp == BoundParse::kTooLarge) {
      *err = "range '" + item + "': step " + step_s.substr(1) +
             " is too large (the largest is 18446744073709551615, 2^64-1)";
      return true;
    }
    if (sp != BoundParse::kOk) {
      *err = "range '" + item + "': step must be +N (add) or xN (multiply), e.g. 1..128:x2";
      return true;
    }
    multiply = op != '+';
    step = s.value;
    if (multiply && step < 2) {
      *err = "range '" + item + "': a multiplying step must be x2 or more";
      return true;
    }
    if (!multiply && step == 0) {
      *err = "range '" + item + "': step +0 never reaches the end";
      return true;
    }
  } else if (colon != std::string::npos) {
    *err = "range '" + item + "': empty step after ':'";
    return true;
  }
  if (multiply && lo.value == 0) {
    *err = "range '" + item + "': a multiplying range cannot start at 0";
    return true;
  }
  const bool units = lo.unit != 0 || hi.unit != 0;
  const Bound& style = lo.unit != 0 ? lo : hi;
  constexpr size_t kMaxValues = 100000;
  for (uint64_t v = lo.value; v <= hi.value;) {
    out->push_back(FormatRangeValue(v, units, style, std::max(lo.unit, hi.unit), size_unit));
    if (out->size() > kMaxValues) {
      *err = "range '" + item + "' gives more than 100000 values";
      return true;
    }
    // Past 2^64 the range ends: v * 3 wrapped around to a smaller (or, as
    // 3^41 mod 2^64, a larger) value and went on with garbage.
    uint64_t next = 0;
    if (multiply ? __builtin_mul_overflow(v, step, &next) : __builtin_add_overflow(v, step, &next))
      break;
    v = next;
  }
  return true;
}

// The last `max_lines` lines of s, for error messages.
std::string Tail(const std::string& s, int max_lines) {
  size_t end = s.size();
  while (end > 0 && s[end - 1] == '\n') --end;
  size_t pos = end;
  int lines = 0;
  while (pos > 0) {
    if (s[pos - 1] == '\n' && ++lines == max_lines) break;
    --pos;
  }
  // A line of 64 KiB (a hook's output without newlines) is cut to its
  // first 200 bytes and its length: the error stays readable.
  constexpr size_t kLine = 200;
  std::string out;
  for (size_t b = pos; b < end;) {
    const size_t nl = std::min(s.find('\n', b), end);
    if (nl - b > kLine)
      out += s.substr(b, kLine) + "... (" + std::to_string(nl - b) + " bytes)";
    else
      out += s.substr(b, nl - b);
    if (nl < end) out += '\n';
    b = nl + 1;
  }
  return out;
}

// Adds one fio disk_util entry into the combined list: a device's counters
// (ios, merges, ticks, in_queue, and md's aggr_* ones; whole numbers) add up
// over the points, and its util (a percent; a fraction) is the busiest
// point's, as for the phases of one run (src/run/coordinator.cc MergeDisk).
void MergeDiskUtil(const ojson& entry, ojson* disks) {
  if (!entry.is_object() || !entry.contains("name")) return;
  auto same = std::find_if(disks->begin(), disks->end(),
                           [&](const ojson& d) { return d["name"] == entry["name"]; });
  if (same == disks->end()) {
    disks->push_back(entry);
    return;
  }
  for (auto it = entry.begin(); it != entry.end(); ++it) {
    ojson& into = (*same)[it.key()];
    if (it.value().is_number_unsigned() && into.is_number_unsigned())
      into = into.get<uint64_t>() + it.value().get<uint64_t>();
    else if (it.value().is_number_integer() && into.is_number_integer())
      into = into.get<int64_t>() + it.value().get<int64_t>();
    else if (it.value().is_number() && into.is_number())
      into = std::max(into.get<double>(), it.value().get<double>());
    else if (into.is_null())
      into = it.value();
  }
}

}  // namespace

const std::string* SweepPoint::Find(const std::string& key) const {
  for (const auto& kv : values)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

std::string SweepPoint::Label() const {
  std::string out;
  for (const auto& [k, v] : values) {
    if (!out.empty()) out += ' ';
    out += k + "=" + v;
  }
  return out;
}

// An argument as errors quote it: a long list (20000 values) is cut, so a
// duplicate's message is not the whole list again; control characters
// escaped: a value with a newline is refused, and its message stays one
// line.
std::string QuoteSweepArg(const std::string& arg) { return "--sweep " + sys::Shortened(arg); }

Result<SweepAxis> ParseSweepArg(const std::string& arg, const SizeUnit& unit) {
  const std::string where = QuoteSweepArg(arg);
  const size_t eq = arg.find('=');
  if (eq == std::string::npos)
    return Status::Invalid(where + ": expected KEY=V1,V2,... or KEY=A..B:xF");
  SweepAxis axis;
  axis.key = arg.substr(0, eq);
  if (axis.key.empty()) return Status::Invalid(where + ": empty key before '='");
  for (char c : axis.key) {
    if (!IsWordChar(c))
      return Status::Invalid(where + ": key '" + sys::Shortened(axis.key) +
                             "' may hold only letters, digits and '_'");
  }
  const std::string rhs = arg.substr(eq + 1);
  if (rhs.empty()) return Status::Invalid(where + ": no values after '='");
  for (std::string item : SplitValues(rhs)) {
    // "iodepth= 1, 2": the spaces are no part of the value (they showed in
    // the JSON and the tables as " 1", and --compare found no match).
    const size_t first = item.find_first_not_of(" \t");
    item = first == std::string::npos
               ? ""
               : item.substr(first, item.find_last_not_of(" \t") + 1 - first);
    if (item.empty())
      return Status::Invalid(where + ": empty value (two commas in a row, or a trailing comma)");
    // As a job file and an option on the command line: --sweep
    // name=x,$'y\nz' split the terse record of point y in two.
    if (const size_t k = sys::ValueControlAt(item); k != std::string::npos)
      return Status::Invalid(where + ": control character (" + sys::ControlName(item[k]) +
                             ") in a value: it is refused, as it is in a job file");
    std::string err;
    if (ExpandRange(item, &axis.values, &err, unit)) {
      if (!err.empty()) return Status::Invalid(where + ": " + err);
    } else {
      axis.values.push_back(item);
    }
  }
  std::map<std::string, size_t> seen;  // value -> its position (1-based)
  for (size_t i = 0; i < axis.values.size(); ++i) {
    const auto& v = axis.values[i];
    if (auto [it, fresh] = seen.emplace(v, i + 1); !fresh)
      return Status::Invalid(where + ": value '" + sys::Shortened(v) + "' appears twice" +
                             (axis.values.size() > 10 ? " (values " + std::to_string(it->second) +
                                                            " and " + std::to_string(i + 1) + ")"
                                                      : ""));
  }
  return axis;
}

std::vector<SweepPoint> ExpandAxes(const std::vector<SweepAxis>& axes) {
  std::vector<SweepPoint> points(1);
  // Later axes vary fastest: extend each existing point by every value.
  for (const auto& axis : axes) {
    std::vector<SweepPoint> next;
    next.reserve(points.size() * axis.values.size());
    for (const auto& p : points) {
      for (const auto& v : axis.values) {
        SweepPoint q = p;
        q.values.emplace_back(axis.key, v);
        next.push_back(std::move(q));
      }
    }
    points = std::move(next);
  }
  return points;
}

Result<std::vector<SweepPoint>> ExpandSweeps(const std::vector<std::string>& sweep_args,
                                             const CanonicalName& canonical,
                                             const ValueKey& value_key, const SizeUnit& unit) {
  std::vector<SweepAxis> axes;
  std::map<std::string, std::string> keys;  // option swept -> the key it was swept as
  size_t total = 1;
  for (const auto& arg : sweep_args) {
    IOB_ASSIGN_OR_RETURN(SweepAxis axis, ParseSweepArg(arg, unit));
    // An alias is the same option: timeout=... and runtime=... gave a 2x2
    // product of which each point ran only one of the two values.
    const std::string option = canonical ? canonical(axis.key) : axis.key;
    if (auto [it, fresh] = keys.emplace(option, axis.key); !fresh)
      return Status::Invalid(
          QuoteSweepArg(arg) + ": key '" + sys::Shortened(option) + "' is already swept" +
          (it->second != axis.key ? " (as '" + sys::Shortened(it->second) + "')" : "") +
          "; give all its values in one --sweep");
    // Keyed by the option's own name from here on: a table (--table-cols=bs),
    // a --compare against a bs= sweep and the JSON's point all meet it
    // under one name, whichever alias was typed.
    axis.key = option;
    if (value_key) {
      // value as read -> (as written, its position)
      std::map<std::string, std::pair<std::string, size_t>> read_as;
      for (size_t i = 0; i < axis.values.size(); ++i) {
        const auto& v = axis.values[i];
        if (auto [it, fresh] = read_as.emplace(value_key(option, v), std::make_pair(v, i + 1));
            !fresh)
          return Status::Invalid(
              QuoteSweepArg(arg) + ": values '" + sys::Shortened(it->second.first) + "' and '" +
              sys::Shortened(v) + "' are the same " + sys::Shortened(option) +
              "; the point would run twice" +
              (axis.values.size() > 10 ? " (values " + std::to_string(it->second.second) + " and " +
                                             std::to_string(i + 1) + ")"
                                       : ""));
      }
    }
    total *= axis.values.size();
    if (total > 1000000)
      return Status::Invalid("--sweep: more than 1000000 points; narrow the ranges");
    axes.push_back(std::move(axis));
  }
  return ExpandAxes(axes);
}

Result<std::vector<JobSpec>> ApplyPoint(const std::vector<JobSpec>& base, const SweepPoint& point,
                                        const OptionSetter& set, const IsJobOption& is_job_option,
                                        std::vector<std::string>* warnings) {
  std::vector<JobSpec> jobs = base;
  // The engine first: engine options check it when they are set, whatever
  // the order of the --sweep flags (--sweep force_async=0,1 --sweep
  // ioengine=io_uring).
  std::vector<std::pair<std::string, std::string>> values;
  for (const auto& kv : point.values)
    if (kv.first == "ioengine") values.push_back(kv);
  for (const auto& kv : point.values)
    if (kv.first != "ioengine") values.push_back(kv);
  for (auto& job : jobs) {
    for (const auto& [key, value] : values) {
      if (is_job_option && !is_job_option(key)) continue;
      if (!set) return Status::Internal("ApplyPoint: no option setter");
      const size_t before = job.settings.size();
      std::vector<std::string> said;
      Status st = set(&job, key, value, warnings != nullptr ? &said : nullptr);
      // The setter names the value's place "<sweep>" (jobfile::SetOption);
      // the argument says which value it is.
      constexpr std::string_view kPlace = "<sweep>: ";
      const auto placed = [&](std::string m) {
        if (m.starts_with(kPlace)) m.erase(0, kPlace.size());
        return QuoteSweepArg(key + "=" + value) + ": " + m;
      };
      if (!st.ok()) return Status(st.code(), placed(st.message()), st.errno_value());
      for (auto& w : said) sys::AddUnique(warnings, placed(std::move(w)));
      // Where the value came from, for messages about it ("bs=131072 (read,
      // at <sweep>)"), whatever place the setter records.
      for (size_t i = before; i < job.settings.size(); ++i) job.settings[i].file = "<sweep>";
      if (job.settings.size() == before) {
        OptionSetting s;
        s.name = key;
        s.value = value;
        s.source = OptionSource::kCommandLine;
        s.file = "<sweep>";
        job.settings.push_back(std::move(s));
      }
    }
  }
  return jobs;
}

Result<std::string> ExpandHookCommand(const std::string& cmd_template, const SweepPoint& point,
                                      const IsJobOption& is_job_option,
                                      const CanonicalName& canonical,
                                      std::vector<std::string>* used) {
  std::set<const std::string*> seen;  // the values substituted
  const std::string* anon = nullptr;
  for (const auto& [k, v] : point.values) {
    if (!is_job_option || !is_job_option(k)) {
      anon = &v;
      break;
    }
  }
  if (anon == nullptr && !point.values.empty()) anon = &point.values.front().second;

  std::string out;
  for (size_t i = 0; i < cmd_template.size(); ++i) {
    const char c = cmd_template[i];
    if (c != '{' || (i > 0 && cmd_template[i - 1] == '$')) {
      out += c;
      continue;
    }
    size_t j = i + 1;
    while (j < cmd_template.size() && IsWordChar(cmd_template[j])) ++j;
    if (j >= cmd_template.size() || cmd_template[j] != '}') {
      out += c;  // not {} or {WORD}: shell text such as awk '{print $1}'
      continue;
    }
    const std::string name = cmd_template.substr(i + 1, j - i - 1);
    const std::string* value = nullptr;
    if (name.empty()) {
      if (anon == nullptr)
        return Status::Invalid("--sweep-cmd '" + sys::Shortened(cmd_template) +
                               "': {} needs a --sweep key to take its value from");
      value = anon;
    } else {
      value = point.Find(name);
      // {blocksize} for a key swept as blocksize= (and stored as bs).
      if (value == nullptr && canonical) value = point.Find(canonical(name));
      if (value == nullptr) {
        std::string keys;
        for (const auto& kv : point.values)
          keys += (keys.empty() ? "" : ", ") + sys::Shortened(kv.first);
        return Status::Invalid(
            "--sweep-cmd '" + sys::Shortened(cmd_template) + "': {" + sys::Shortened(name) +
            "} names no --sweep key" +
            (keys.empty() ? std::string(" (nothing is swept)") : " (swept: " + keys + ")"));
      }
    }
    out += sys::ShellWord(*value);
    seen.insert(value);
    i = j;
  }
  if (used != nullptr) {
    used->clear();
    for (const auto& kv : point.values)
      if (seen.count(&kv.second) != 0) used->push_back(kv.first);
  }
  return out;
}

Status RunHook(const std::string& cmd_template, const SweepPoint& point, std::string* log,
               const IsJobOption& is_job_option, int* exit_code, const CanonicalName& canonical,
               const std::string& which_run) {
  if (exit_code) *exit_code = 0;
  IOB_ASSIGN_OR_RETURN(std::string cmd,
                       ExpandHookCommand(cmd_template, point, is_job_option, canonical));
  const std::string which = which_run.empty() ? "" : ", " + which_run;
  if (log) *log += "# point: " + point.Label() + which + "\n$ " + cmd + "\n";

  // The output goes into the JSON document, in memory until the end: a
  // hook writing 30 MB at each point made a 60 MB hook_log and 287 MB of
  // RSS over 2 points. Its first and last 64 KiB are kept.
  constexpr size_t kKeep = 64 * 1024;
  IOB_ASSIGN_OR_RETURN(sys::SpawnResult run,
                       sys::RunCaptured({"/bin/sh", "-c", cmd}, "", "--sweep-cmd", kKeep));
  if (run.dropped > 0) {  // cut_at > 0: the first kKeep bytes are there
    std::string note = "# ... " + std::to_string(run.dropped) +
                       " bytes of output left out (the first and the last 64 KiB of a hook's "
                       "output are kept) ...\n";
    if (run.output[run.cut_at - 1] != '\n') note.insert(0, "\n");
    run.output.insert(run.cut_at, note);
  }
  const std::string& output = run.output;
  const int code = run.exit_code;
  if (log) {
    *log += output;
    if (!output.empty() && output.back() != '\n') *log += '\n';
    if (code != 0) *log += "# exit code " + std::to_string(code) + "\n";
  }
  if (exit_code) *exit_code = code;
  if (code == 0) return Status::Ok();
  std::string msg = "--sweep-cmd '" + sys::Shortened(cmd) + "' failed with exit code " +
                    std::to_string(code) + " at point " + sys::Shortened(point.Label()) + which +
                    "; the sweep stops here";
  const std::string tail = Tail(output, 5);
  if (!tail.empty()) msg += ":\n" + tail;
  return Status(Status::Code::kIoError, msg);
}

ojson PointToJson(const SweepPoint& point) {
  ojson j = ojson::object();
  for (const auto& [k, v] : point.values) j[k] = v;
  return j;
}

ojson CombineSweepResults(const std::vector<std::pair<SweepPoint, ojson>>& per_point_fio_json,
                          const std::vector<std::string>* hook_logs) {
  ojson jobs = ojson::array();
  ojson keys = ojson::array();
  ojson disks = ojson::array();
  ojson point_disks = ojson::array();
  int64_t group_base = 0;
  for (size_t i = 0; i < per_point_fio_json.size(); ++i) {
    const auto& [point, pdoc] = per_point_fio_json[i];
    if (i == 0)
      for (const auto& kv : point.values) keys.push_back(kv.first);
    int64_t max_group = -1;
    if (pdoc.is_object() && pdoc.contains("jobs") && pdoc["jobs"].is_array()) {
      for (const auto& job : pdoc["jobs"]) {
        ojson j = job;
        if (j.is_object()) {
          int64_t gid = 0;
          if (j.contains("groupid") && j["groupid"].is_number_integer())
            gid = j["groupid"].get<int64_t>();
          max_group = std::max(max_group, gid);
          j["groupid"] = group_base + gid;
          if (!j.contains("iobench") || !j["iobench"].is_object()) j["iobench"] = ojson::object();
          j["iobench"]["point"] = PointToJson(point);
        }
        jobs.push_back(std::move(j));
      }
    }
    group_base += max_group + 1;
    if (pdoc.is_object() && pdoc.contains("disk_util") && pdoc["disk_util"].is_array()) {
      for (const auto& d : pdoc["disk_util"]) MergeDiskUtil(d, &disks);
      point_disks.push_back({{"point", PointToJson(point)}, {"disk_util", pdoc["disk_util"]}});
    }
  }
  // The first point's top level, in its key order, with "jobs" of every
  // point and "disk_util" of every point where fio puts them.
  ojson doc = ojson::object();
  auto put_disks = [&] {
    if (!disks.empty()) doc["disk_util"] = disks;
  };
  const ojson* first = per_point_fio_json.empty() ? nullptr : &per_point_fio_json.front().second;
  bool placed = false;
  if (first != nullptr && first->is_object()) {
    for (auto it = first->begin(); it != first->end(); ++it) {
      if (it.key() == "jobs") {
        doc["jobs"] = std::move(jobs);
        put_disks();
        placed = true;
      } else if (it.key() != "disk_util") {
        doc[it.key()] = it.value();
      }
    }
  }
  if (!placed) {
    doc["jobs"] = std::move(jobs);
    put_disks();
  }
  if (!doc.contains("iobench") || !doc["iobench"].is_object()) doc["iobench"] = ojson::object();
  // The top level was the first point's; what it says about the run must
  // hold for every point: interrupted when any point was (Ctrl-C stops the
  // sweep in its last point, never the first), the worst exit code, every
  // point's context warnings (a libaio point's "direct=0 is synchronous"),
  // and no single point (each job carries its own).
  ojson& top = doc["iobench"];
  bool interrupted = false;
  bool partial = false;  // a point's jobs were cut short (the top level was point 1's)
  int64_t exit_code = 0;
  ojson warnings = ojson::array();
  // Every point's targets, each distinct one once, with the points it was
  // measured at: a sweep over filename= kept only the first point's file
  // system, and the tables captioned every point with it.
  ojson targets = ojson::array();
  bool any_targets = false;
  // Each clock the points read, with its points: a point's jobs may ask
  // for another clocksource (--sweep clocksource=cpu,clock_gettime).
  ojson clocks = ojson::array();
  for (const auto& [point, pdoc] : per_point_fio_json) {
    if (!pdoc.is_object() || !pdoc.contains("iobench") || !pdoc["iobench"].is_object()) continue;
    const ojson& pi = pdoc["iobench"];
    if (pi.contains("interrupted") && pi["interrupted"].is_boolean())
      interrupted |= pi["interrupted"].get<bool>();
    if (pi.contains("partial") && pi["partial"].is_boolean()) partial |= pi["partial"].get<bool>();
    if (pi.contains("exit_code") && pi["exit_code"].is_number_integer())
      exit_code = std::max(exit_code, pi["exit_code"].get<int64_t>());
    if (!pi.contains("context") || !pi["context"].is_object()) continue;
    const ojson& ctx = pi["context"];
    if (ctx.contains("clock") && ctx["clock"].is_string()) {
      auto same = std::find_if(clocks.begin(), clocks.end(),
                               [&](const ojson& c) { return c["clock"] == ctx["clock"]; });
      if (same == clocks.end()) {
        clocks.push_back(ojson{{"clock", ctx["clock"]}, {"points", ojson::array()}});
        same = clocks.end() - 1;
      }
      (*same)["points"].push_back(PointToJson(point));
    }
    if (ctx.contains("warnings") && ctx["warnings"].is_array())
      for (const auto& w : ctx["warnings"])
        if (std::find(warnings.begin(), warnings.end(), w) == warnings.end()) warnings.push_back(w);
    if (!ctx.contains("targets") || !ctx["targets"].is_array()) continue;
    any_targets = true;
    for (const auto& t : ctx["targets"]) {
      auto same = std::find_if(targets.begin(), targets.end(), [&](const ojson& e) {
        ojson bare = e;
        if (bare.is_object()) bare.erase("points");
        return bare == t;
      });
      if (same == targets.end()) {
        targets.push_back(t);
        same = targets.end() - 1;
      }
      if (!keys.empty() && same->is_object()) {
        ojson& pts = (*same)["points"];
        if (!pts.is_array()) pts = ojson::array();
        if (const auto pj = PointToJson(point); std::find(pts.begin(), pts.end(), pj) == pts.end())
          pts.push_back(pj);
      }
    }
  }
  if (top.contains("interrupted")) top["interrupted"] = interrupted;
  if (top.contains("partial")) top["partial"] = partial;
  if (top.contains("exit_code")) top["exit_code"] = exit_code;
  if (top.contains("point")) top["point"] = ojson::object();
  if (top.contains("context") && top["context"].is_object()) {
    top["context"]["warnings"] = warnings;
    if (any_targets) top["context"]["targets"] = std::move(targets);
    // Points on different clocks: "clock" names each ("tsc,clock_gettime",
    // in the order the points ran; it said the first point's alone) and
    // "clocks" says which points read which.
    if (clocks.size() > 1) {
      std::string all;
      for (const auto& c : clocks) all += (all.empty() ? "" : ",") + c["clock"].get<std::string>();
      top["context"]["clock"] = all;
      top["context"]["clocks"] = std::move(clocks);
    }
  }
  ojson sweep = {{"keys", keys}, {"points", per_point_fio_json.size()}};
  if (hook_logs) {
    std::string all;
    for (const auto& l : *hook_logs) all += l;
    sweep["hook_log"] = all;
  }
  // Each point's own disk figures (the top level's are summed over the
  // points): the busy share of one point is not in the sum.
  if (!point_disks.empty()) sweep["disk_util"] = std::move(point_disks);
  doc["iobench"]["sweep"] = std::move(sweep);
  return doc;
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

namespace {

// Replaces obj[key] (a number) in dst by the median over the runs' values.
void MedianField(ojson* dst, const std::vector<const ojson*>& srcs, const std::string& key) {
  if (!dst->is_object() || !dst->contains(key) || !(*dst)[key].is_number()) return;
  std::vector<double> v;
  for (const auto* s : srcs) {
    if (s && s->is_object() && s->contains(key) && (*s)[key].is_number())
      v.push_back((*s)[key].get<double>());
  }
  if (v.size() != srcs.size()) return;
  const double m = Median(v);
  // A field fio writes as an integer (total_ios, io_bytes, runtime, bw,
  // percentiles, ...) stays one: an even count's mean of the two middle
  // runs is rounded to the nearest: strict readers of fio's schema take
  // no fraction there.
  if ((*dst)[key].is_number_unsigned() && m >= 0)
    (*dst)[key] = static_cast<uint64_t>(std::llround(m));
  else if ((*dst)[key].is_number_integer())
    (*dst)[key] = static_cast<int64_t>(std::llround(m));
  else
    (*dst)[key] = m;
}

// The run whose `value` is the median (the lower middle one for an even
// count): the run the figures that cannot be a median of each run's
// (latency counts and histogram bins, min/max, stddev, bw/iops sample
// statistics, ctx, majf, iodepth distributions) are taken from, so they
// describe the run the median I/O count is of, not run 1.
size_t MedianRun(const std::vector<double>& value) {
  std::vector<size_t> order(value.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return value[a] < value[b]; });
  return order.empty() ? 0 : order[(order.size() - 1) / 2];
}

double TotalIos(const ojson* dir) {
  if (dir && dir->is_object() && dir->contains("total_ios") && (*dir)["total_ios"].is_number())
    return (*dir)["total_ios"].get<double>();
  return 0.0;
}

std::string JobNameOf(const ojson& job) {
  if (job.is_object() && job.contains("jobname") && job["jobname"].is_string())
    return job["jobname"].get<std::string>();
  return std::string();
}

const ojson* Child(const ojson* j, const std::string& key) {
  if (!j || !j->is_object() || !j->contains(key)) return nullptr;
  return &(*j)[key];
}

const TableMetric kDirMetrics[] = {
    TableMetric::kIops,    TableMetric::kBw,      TableMetric::kLatMean,
    TableMetric::kClatP50, TableMetric::kClatP99, TableMetric::kClatP999,
    TableMetric::kLatP50,  TableMetric::kLatP99,  TableMetric::kSlatMean};
const TableMetric kJobMetrics[] = {TableMetric::kCpuPerIo, TableMetric::kUsrCpu,
                                   TableMetric::kSysCpu};

// numjobs clones without group_reporting (jobs of one name and group; a
// table shows them in one cell, their group figure): the figure of each
// run, as the table makes it from that run's clones (table::AggregateMetric),
// and its median, min and max over the runs, keyed like iobench.repeat's
// min and max. Each clone's own median and spread cannot give it: the
// lowest clone of run 1 and the lowest of run 3 are no run's. Returned by
// the index of each job of a set of clones in the runs' "jobs".
std::map<size_t, ojson> CloneSpreads(const std::vector<const ojson*>& runs) {
  std::map<size_t, ojson> out;
  // The table helpers read nlohmann::json: each run's jobs and its global
  // options (where a clone's rw may be set).
  std::vector<nlohmann::json> docs;
  for (const ojson* r : runs) {
    nlohmann::json d = {{"jobs", nlohmann::json(*Child(r, "jobs"))}};
    if (const ojson* g = Child(r, "global options")) d["global options"] = nlohmann::json(*g);
    docs.push_back(std::move(d));
  }
  // One job's clones: one table label (separate jobs of one name in one
  // group are "x (#1)" and "x (#2)", table::JobLabels).
  const nlohmann::json& first = docs[0]["jobs"];
  std::vector<const nlohmann::json*> entries;
  std::vector<size_t> index;
  for (size_t k = 0; k < first.size(); ++k)
    if (first[k].is_object()) {
      entries.push_back(&first[k]);
      index.push_back(k);
    }
  const std::vector<std::string> labels = table::JobLabels(entries, {});
  std::map<std::pair<std::string, int64_t>, std::vector<size_t>> sets;
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto g = entries[i]->find("groupid");
    const int64_t group = g != entries[i]->end() && g->is_number_integer() ? g->get<int64_t>() : 0;
    sets[{labels[i], group}].push_back(index[i]);
  }
  for (const auto& [key, idx] : sets) {
    if (idx.size() < 2) continue;
    std::vector<std::vector<const nlohmann::json*>> sel(docs.size());
    for (size_t r = 0; r < docs.size(); ++r)
      for (size_t k : idx) sel[r].push_back(&docs[r]["jobs"][k]);
    std::vector<std::string> dirs;
    for (const auto* j : sel[0])
      for (const auto& d : JobDirections(*j))
        if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
    ojson med = ojson::object(), mins = ojson::object(), maxs = ojson::object();
    auto spread = [&](const std::string& group, const std::optional<std::string>& dir,
                      TableMetric m) {
      std::vector<double> v;
      for (size_t r = 0; r < docs.size(); ++r) {
        auto x = table::AggregateMetric(sel[r], dir, m, &docs[r]);
        if (!x) return;
        v.push_back(*x);
      }
      med[group][TableMetricName(m)] = Median(v);
      mins[group][TableMetricName(m)] = *std::min_element(v.begin(), v.end());
      maxs[group][TableMetricName(m)] = *std::max_element(v.begin(), v.end());
    };
    for (const auto& d : dirs)
      for (TableMetric m : kDirMetrics) spread(d, d, m);
    for (TableMetric m : kJobMetrics) spread("job", std::nullopt, m);
    ojson c = {{"jobs", idx.size()}, {"median", med}, {"min", mins}, {"max", maxs}};
    for (size_t k : idx) out[k] = c;
  }
  return out;
}

}  // namespace

Result<ojson> MergeRepeats(const std::vector<ojson>& runs) {
  if (runs.empty()) return Status::Invalid("--repeat: no runs to merge");
  auto jobs_of = [](const ojson& d) -> const ojson* {
    if (d.is_object() && d.contains("jobs") && d["jobs"].is_array()) return &d["jobs"];
    return nullptr;
  };
  const ojson* first_jobs = jobs_of(runs[0]);
  if (!first_jobs) return Status::Invalid("--repeat: run 1 has no \"jobs\" array");
  for (size_t r = 1; r < runs.size(); ++r) {
    const ojson* jr = jobs_of(runs[r]);
    if (!jr || jr->size() != first_jobs->size())
      return Status::Invalid("--repeat: run " + std::to_string(r + 1) +
                             " has a different number of jobs than run 1");
    for (size_t k = 0; k < jr->size(); ++k) {
      if (JobNameOf((*jr)[k]) != JobNameOf((*first_jobs)[k]))
        return Status::Invalid("--repeat: job " + std::to_string(k + 1) + " of run " +
                               std::to_string(r + 1) + " is not the same job as in run 1");
    }
  }
  // A run cut short by a signal is left out of the medians (it ran only
  // part of its time, so its figures are not like the others'), unless no
  // run is whole. Either way the merged document says it was interrupted:
  // it copied run 1's top level, and a Ctrl-C in run 3 left no trace.
  std::vector<const ojson*> used;
  bool cut = false;
  bool partial = false;  // a run's jobs were cut short (the top level was run 1's)
  int64_t exit_code = 0;
  for (const auto& r : runs) {
    const ojson* top = Child(&r, "iobench");
    const ojson* intr = Child(top, "interrupted");
    if (const ojson* p = Child(top, "partial"); p && p->is_boolean() && p->get<bool>())
      partial = true;
    const ojson* code = Child(top, "exit_code");
    if (code && code->is_number_integer()) exit_code = std::max(exit_code, code->get<int64_t>());
    if (intr && intr->is_boolean() && intr->get<bool>())
      cut = true;
    else
      used.push_back(&r);
  }
  if (used.empty())
    for (const auto& r : runs) used.push_back(&r);
  // The top level (disk_util, time, context) is the median run's, by I/O
  // count over all jobs, as each job's counts below are its median run's.
  std::vector<double> run_ios;
  for (const ojson* r : used) {
    double sum = 0;
    for (const auto& j : (*r)["jobs"])
      for (const char* dir : {"read", "write", "trim"}) sum += TotalIos(Child(&j, dir));
    run_ios.push_back(sum);
  }
  ojson out = *used[MedianRun(run_ios)];
  // Each run's top level says which run it is (the interim records'); the
  // medians are of them all, and each job's "repeat" says how many.
  if (out.contains("iobench") && out["iobench"].is_object()) out["iobench"].erase("repeat");
  const size_t n = used.size();
  const std::map<size_t, ojson> clones = CloneSpreads(used);
  for (size_t k = 0; k < first_jobs->size(); ++k) {
    std::vector<const ojson*> rjobs;
    for (const auto* r : used) rjobs.push_back(&(*r)["jobs"][k]);
    ojson& job = out["jobs"][k];
    if (!job.is_object()) continue;
    // The job as its median run (by I/O count over the directions) wrote
    // it; each direction below as its own median run wrote it.
    {
      std::vector<double> ios;
      for (const ojson* rj : rjobs) {
        double sum = 0;
        for (const char* dir : {"read", "write", "trim"}) sum += TotalIos(Child(rj, dir));
        ios.push_back(sum);
      }
      if (rjobs[MedianRun(ios)]->is_object()) job = *rjobs[MedianRun(ios)];
    }
    ojson mins = ojson::object(), maxs = ojson::object();
    // The table helpers read nlohmann::json: one copy of each run's job.
    std::vector<nlohmann::json> plain;
    for (const ojson* rj : rjobs) plain.emplace_back(*rj);
    const std::vector<std::string> dirs = JobDirections(plain[0]);
    // Spread first, from the untouched runs.
    auto spread = [&](const std::string& group, const std::string& dir, TableMetric m) {
      std::vector<double> v;
      for (const auto& rj : plain) {
        auto x = JobMetric(rj, dir, m);
        if (!x) return;
        v.push_back(*x);
      }
      mins[group][TableMetricName(m)] = *std::min_element(v.begin(), v.end());
      maxs[group][TableMetricName(m)] = *std::max_element(v.begin(), v.end());
    };
    for (const char* dir : {"read", "write", "trim"}) {
      bool has_io = false;
      for (const auto& d : dirs) has_io |= d == dir;
      if (!has_io) continue;
      for (TableMetric m : kDirMetrics) spread(dir, dir, m);
      std::vector<const ojson*> rdirs;
      std::vector<double> ios;
      for (const auto* rj : rjobs) {
        rdirs.push_back(Child(rj, dir));
        ios.push_back(TotalIos(rdirs.back()));
      }
      ojson& d = job[dir];
      if (const ojson* m = rdirs[MedianRun(ios)]; m != nullptr && m->is_object()) d = *m;
      for (const char* f :
           {"iops", "bw", "bw_bytes", "io_bytes", "io_kbytes", "runtime", "total_ios"})
        MedianField(&d, rdirs, f);
      for (const char* lat : {"clat_ns", "lat_ns", "slat_ns"}) {
        if (!d.contains(lat)) continue;
        std::vector<const ojson*> rl;
        for (const auto* rd : rdirs) rl.push_back(Child(rd, lat));
        MedianField(&d[lat], rl, "mean");
        if (d[lat].contains("percentile") && d[lat]["percentile"].is_object()) {
          std::vector<const ojson*> rp;
          for (const auto* x : rl) rp.push_back(Child(x, "percentile"));
          ojson& p = d[lat]["percentile"];
          for (auto it = p.begin(); it != p.end(); ++it) MedianField(&p, rp, it.key());
        }
      }
    }
    for (TableMetric m : kJobMetrics) spread("job", "", m);
    MedianField(&job, rjobs, "job_runtime");
    MedianField(&job, rjobs, "usr_cpu");
    MedianField(&job, rjobs, "sys_cpu");
    if (job.contains("iobench") && job["iobench"].is_object()) {
      std::vector<const ojson*> ri;
      for (const auto* rj : rjobs) ri.push_back(Child(rj, "iobench"));
      MedianField(&job["iobench"], ri, "cpu_per_io_us");
    } else {
      job["iobench"] = ojson::object();
    }
    job["iobench"]["repeat"] = {{"n", n}, {"min", mins}, {"max", maxs}};
    if (auto c = clones.find(k); c != clones.end()) job["iobench"]["repeat"]["clones"] = c->second;
    if (cut) job["iobench"]["interrupted"] = true;
  }
  if (cut) {
    if (!out.contains("iobench") || !out["iobench"].is_object()) out["iobench"] = ojson::object();
    out["iobench"]["interrupted"] = true;
    out["iobench"]["partial"] = partial;
    out["iobench"]["exit_code"] = exit_code;
  }
  return out;
}

}  // namespace iobench::sweep
