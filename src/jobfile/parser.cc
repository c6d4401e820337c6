#include "jobfile/parser.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <utility>

#include "iobench/engine.h"
#include "jobfile/lexer.h"
#include "jobfile/options.h"
#include "jobfile/units.h"
#include "sys/strings.h"

namespace iobench::jobfile {

namespace {

// fio trims the ends of a filename= value itself (str_filename_cb), as
// iobench does: a blank there reads alike in both tools and is not warned.
bool FioTrimsValue(const std::string& key) {
  const OptionDef* def = FindOption(key);
  return def != nullptr && def->name == "filename";
}

constexpr const char* kCmdline = "command line";
// JobSpec::global_engines: an engine option that goes with whatever engine
// the job has (a swept engine's, ApplyAll).
constexpr const char* kAnyEngine = "*";

// fio's command-line options iobench does not take (SplitArgs refuses
// them; in a job file they are named as command-line options).
constexpr const char* const kFioToolOnly[] = {
    "debug",         "merge-blktrace-only", "bandwidth-log",   "minimal",       "append-terse",
    "terse-version", "cpuclock-test",       "crctest",         "eta-interval",  "eta-newline",
    "server",        "daemonize",           "client",          "remote-config", "idle-prof",
    "inflate-log",   "trigger-file",        "trigger-timeout", "trigger",       "trigger-remote",
    "aux-path",      "latency-log",         "memcpytest",      "profile"};

// One option as written, with where it was written.
struct RawSetting {
  std::string key;
  std::string value;
  bool bare = true;
  OptionSource source = OptionSource::kJob;
  std::string file;  // display name; kCmdline for the command line
  int line = 0;      // 0 for the command line
  int key_col = 1;
  int value_col = 1;
  std::string text;  // the line (or the argument) for carets
  // " (included from job.fio:3)" for a line of an included file (the
  // innermost include first); "" otherwise. Errors end their first line
  // with it.
  std::string included_from;
  // `--bs s.fio`: the value is the argument after the option's.
  bool value_next_arg = false;
  // The value was in quotes (`description=""`), which the reader removed.
  bool quoted = false;
  // The value came with the name from a variable (`${OPT}` with
  // OPT='size=2m'): its text is not in the line, so errors point at the
  // variable, and a ';' or '#' in it is one the variable brought.
  bool value_from_variable = false;
  // 1: a command-line global over a job file's job; 2: a --sweep value
  // (FileListStep::layer: their filename= replaces the job's files).
  int layer = 0;
  // Which global section the setting is in: a job file's [global] (each its
  // own), or on the command line the options before the first --name and
  // those after each --name=global (ApplyAll: engine options). 0 elsewhere.
  int section = 0;
};

struct Section {
  std::string name;
  bool global = false;
  std::string file;
  int line = 0;
  std::vector<RawSetting> entries;
};

Status Diag(const RawSetting& s, int col, const std::string& msg) {
  return Status::Invalid(FormatDiagnostic(s.file, s.line, col, msg + s.included_from, s.text));
}

// `st` with `suffix` at the end of its message's first line (before the
// echoed line and caret).
Status WithFirstLineSuffix(const Status& st, const std::string& suffix) {
  std::string m = st.message();
  m.insert(std::min(m.find('\n'), m.size()), suffix);
  return Status(st.code(), m);
}

bool IsGlobalName(const std::string& n) { return n.rfind("global", 0) == 0; }

std::string DirName(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// Reads a job file's text from `fd` with plain read(2): works for pipes
// (`<(...)`, /dev/fd/N, stdin), refuses directories and block devices, and
// never throws (libstdc++ streams can). `name` is how errors call it.
Result<std::string> ReadJobText(int fd, const std::string& name) {
  constexpr size_t kMaxJobFile = 64u << 20;
  constexpr size_t kMaxDeviceJobFile = 1u << 20;
  struct stat sb {};
  if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode))
    return Status::Invalid("job file " + name + " is a directory");
  // A block device is no job file (a disk's first 64 MiB are no text). A
  // pipe (<(...), /dev/fd/N), a terminal and any other character device
  // are read as a stream: /dev/null is an empty job file, as fio reads it.
  // A character device may never end (/dev/zero, /dev/urandom, /dev/full):
  // it stops at its first NUL byte or at 1 MiB, not 64, so that costs
  // little time and memory. A pipe that never ends (`yes | iobench -`)
  // stops at 64 MiB, as a file does: it grew to all the memory there was.
  if (S_ISBLK(sb.st_mode))
    return Status::Invalid("job file " + name + ": not a regular file (a block device)");
  const bool device = S_ISCHR(sb.st_mode) && !isatty(fd);
  const size_t max_size = device ? kMaxDeviceJobFile : kMaxJobFile;
  std::string s;
  char buf[65536];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoStatus("read job file " + name);
    if (n == 0) break;
    // A device's stream of NULs (/dev/zero) is said as soon as it shows.
    if (device && std::memchr(buf, '\0', static_cast<size_t>(n)) != nullptr)
      return Status::Invalid("job file " + name +
                             ": a character device that reads NUL bytes, not a job file's text");
    s.append(buf, static_cast<size_t>(n));
    if (s.size() > max_size)
      return Status::Invalid("job file " + name + " is larger than " +
                             (device ? "1 MiB (a character device that does not end?)"
                              : S_ISFIFO(sb.st_mode) ? "64 MiB (a pipe that does not end?)"
                                                     : "64 MiB"));
  }
  return s;
}

Result<std::string> ReadWholeFile(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("open job file " + path);
  Result<std::string> text = ReadJobText(fd, path);
  close(fd);
  return text;
}

// The set ${VAR}s in `text`, each as written ("${F}") with its value.
std::vector<std::pair<std::string, std::string_view>> SetVariables(const std::string& text) {
  std::vector<std::pair<std::string, std::string_view>> out;
  for (size_t at = text.find("${"); at != std::string::npos; at = text.find("${", at + 2)) {
    const size_t close = text.find('}', at + 2);
    if (close == std::string::npos) break;
    if (const char* v = std::getenv(text.substr(at + 2, close - at - 2).c_str()))
      out.emplace_back(text.substr(at, close - at + 1), v);
  }
  return out;
}

// The first ${VAR} in `text` whose value holds a ';' or '#', as written
// ("${F}"); "a variable" when none does (cannot happen for the caller).
std::string VariableWithCommentChar(const std::string& text) {
  for (const auto& [var, value] : SetVariables(text))
    if (value.find_first_of(";#") != std::string_view::npos) return var;
  return "a variable";
}

// fio substitutes ${VAR} into its line buffer of kMaxLineBytes and fails a
// line that no longer fits ("failed parsing description=${BIG}"); iobench
// refused only the line as written, so `description=${BIG}` copied 8200+
// bytes into the report. Refuses `e` (read from `display`, its name `key`
// and value `value` after substitution) when its option text is too long
// after it: `key=value` only, as fio measures it (blanks before the option
// and a comment after it are not in it: fio runs such a line).
Status CheckSubstitutedLength(const LexEntry& e, const std::string& display, const std::string& key,
                              const std::string& value) {
  const size_t size = key.size() + (e.has_value ? 1 : 0) + value.size();
  if (size <= kMaxLineBytes) return Status::Ok();
  std::string longest;
  size_t longest_size = 0;
  for (const auto& [var, v] : SetVariables(e.key + "=" + e.value))
    if (v.size() >= longest_size) {
      longest = var;
      longest_size = v.size();
    }
  return Status::Invalid(FormatDiagnostic(
      display, e.line, static_cast<int>(e.text.find(longest)) + 1,
      "line longer than " + std::to_string(kMaxLineBytes) + " bytes after substitution (" +
          std::to_string(size) + " bytes): " + longest + " brings " + std::to_string(longest_size) +
          " bytes and makes it too long (fio refuses it too)",
      e.text));
}

// A per-direction list (`bs=4k, 16k`, bssplit, bsrange, rate, ...) with a
// blank after a comma before a number with a unit: iobench reads the
// number as written (16k), fio keeps the blank and then reads the number
// without its unit (16 bytes: `bs=4k, 16k` wrote 16-byte blocks). Returns
// how fio reads the first such part (`' 16k' after the comma as 16`) and
// sets *portable to the value without those blanks; nullopt when the
// value means the same to both.
std::optional<std::string> CommaBlankFioReading(const std::string& key, const std::string& value,
                                                std::string* portable) {
  const OptionDef* def = FindOption(key);
  if (def == nullptr || !(def->per_dir || def->name == "bsrange" || def->name == "bssplit"))
    return std::nullopt;
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  std::optional<std::string> first;
  std::string out;
  for (size_t i = 0; i < value.size(); ++i) {
    out += value[i];
    if (value[i] != ',') continue;
    size_t j = i + 1;
    while (j < value.size() && blank(value[j])) ++j;
    size_t k = j;
    while (k < value.size() && digit(value[k])) ++k;
    // Blanks, then digits, then a unit letter (not 0x...: fio reads hex alike).
    if (j == i + 1 || k == j || k == value.size() ||
        !std::isalpha(static_cast<unsigned char>(value[k])) ||
        (value[j] == '0' && (value[k] == 'x' || value[k] == 'X')))
      continue;
    if (!first) {
      size_t end = k;
      while (end < value.size() && value[end] != ',' && !blank(value[end])) ++end;
      first =
          "'" + value.substr(i + 1, end - i - 1) + "' after the comma as " + value.substr(j, k - j);
    }
    i = j - 1;  // drop the blanks
  }
  if (!first) return std::nullopt;
  *portable = out;
  return first;
}

// "file:line" (or "command line") for warnings.
std::string Where(const RawSetting& s) {
  if (s.line == 0) return s.file;
  return s.file + ":" + std::to_string(s.line);
}

// The start of a warning about a value the two tools read differently:
// "file:line: warning: option 'KEY': " (or "command line: ...").
std::string PortabilityWarningHead(const RawSetting& r) {
  return Where(r) + ": warning: option '" + r.key + "': ";
}

// The option with `value` as the user would write it to mean the same to
// both tools: 'bs=4k,8k' in a job file, --bs=4k,8k (dashes as written,
// quoted for a shell when it needs it) on the command line.
std::string PortableSpelling(const RawSetting& r, const std::string& value) {
  if (r.file != kCmdline) return "'" + r.key + "=" + value + "'";
  return sys::ShellWord(std::string(static_cast<size_t>(r.key_col - 1), '-') + r.key + "=" + value);
}

// The warning for CommaBlankFioReading, at a job-file line or on the
// command line.
std::optional<std::string> CommaBlankWarning(const RawSetting& r) {
  std::string portable;
  if (r.bare) return std::nullopt;
  const auto how = CommaBlankFioReading(r.key, r.value, &portable);
  if (!how) return std::nullopt;
  return PortabilityWarningHead(r) + "in '" + r.value +
         "' iobench reads each part as written, but fio keeps the blank after a comma and then "
         "reads the number without its unit (" +
         *how + "); write " + PortableSpelling(r, portable) + " to mean the same to both";
}

// A size written with an IEC prefix but no 'b' (`bs=4ki`, `size=1mi`,
// `bssplit=8ki/100`), in `value` (the value as applied) of an option read
// with kb_base `kb_base`: iobench reads it as man fio documents (kb_base=
// 1024: a power of ten, 4ki = 4000), fio 3.33 as the plain prefix (4096),
// since it swaps units only for a suffix holding "ib"; with kb_base=1000
// the two readings swap. Silent, it ran 4000-byte blocks that O_DIRECT
// refuses. The warning gives both readings of the first such number and
// the spellings that mean each to both tools: "KiB" (iobench's reading)
// and "k" (fio's).
std::optional<std::string> IecWithoutBWarning(const RawSetting& r, const std::string& value,
                                              uint32_t kb_base) {
  std::string first_number, first_suffix;
  const auto iec_without_b = [](std::string_view suffix) {
    return suffix.size() == 2 && (suffix[1] | 0x20) == 'i' &&
           std::string_view("kmgtpKMGTP").find(suffix[0]) != std::string_view::npos;
  };
  const std::string as_iobench = MapSizeSuffixes(
      value, [&](std::string_view number, std::string_view suffix) -> std::optional<std::string> {
        if (!iec_without_b(suffix)) return std::nullopt;
        if (first_suffix.empty()) {
          first_number = number;
          first_suffix = suffix;
        }
        return std::string(1,
                           static_cast<char>(std::toupper(static_cast<unsigned char>(suffix[0])))) +
               "iB";
      });
  if (first_suffix.empty()) return std::nullopt;
  const std::string as_fio = MapSizeSuffixes(
      value, [&](std::string_view, std::string_view suffix) -> std::optional<std::string> {
        if (!iec_without_b(suffix)) return std::nullopt;
        return std::string(1, suffix[0]);
      });
  const uint64_t ours = SizeMultiplier(first_suffix, kb_base).value_or(1);
  const uint64_t fios = SizeMultiplier(first_suffix.substr(0, 1), kb_base).value_or(1);
  const std::string written = first_number + first_suffix;
  const std::string in = written == Trim(value) ? "" : " in '" + value + "'";
  // Bytes for a whole number; the prefix's factor for a fraction (which
  // fio reads differently again) or a product past 64 bits.
  uint64_t n = 0;
  const bool whole = first_number.find('.') == std::string::npos && first_number.size() <= 19 &&
                     (n = std::stoull(first_number)) <= UINT64_MAX / std::max(ours, fios);
  const std::string documented =
      " to iobench (as man fio documents for kb_base=" + std::to_string(kb_base) + ") but ";
  const std::string readings =
      whole ? "'" + written + "'" + in + " is " + std::to_string(n * ours) + " bytes" + documented +
                  std::to_string(n * fios) + " to fio 3.33"
            : "the '" + first_suffix + "' of '" + written + "'" + in + " is " +
                  std::to_string(ours) + documented + std::to_string(fios) + " to fio 3.33";
  return PortabilityWarningHead(r) + readings +
         " (which switches units only for a suffix with 'ib'); write " +
         PortableSpelling(r, as_iobench) + " for iobench's reading or " +
         PortableSpelling(r, as_fio) + " for fio's to mean the same to both";
}

// A time written with a unit fio 3.33 does not know (`runtime=2sec`,
// `thinktime=10000ns`, `startdelay=1min`): iobench reads it as written,
// fio's get_mult_time knows d, h, m, s, ms/msec and us/usec only and reads
// any other unit as microseconds (2sec = 2 us: a 2 s job ran 0 I/Os there;
// max_latency=1sec failed its first I/O); a fraction it cuts to its whole
// part, in the option's default unit (1.5min: 1 s for runtime). The warning
// gives both readings of the first such number, and the same time as a
// whole number of a unit both know ("90s"), where there is one.
std::optional<std::string> FioTimeUnitWarning(const RawSetting& r, const std::string& value) {
  std::string first_number, first_suffix;
  bool below_us = false;
  const std::string both = MapNumbers(
      value, [&](std::string_view number, std::string_view suffix) -> std::optional<std::string> {
        const std::string u = ToLower(std::string(suffix));
        const long double unit = u == "sec" ? 1e9L : u == "min" ? 60e9L : 1.0L;
        if (u != "sec" && u != "min" && u != "ns" && u != "nsec") return std::nullopt;
        const long double ns = std::strtold(std::string(number).c_str(), nullptr) * unit;
        if (ns == 0) return std::nullopt;  // 0 in both
        if (first_suffix.empty()) {
          first_number = number;
          first_suffix = suffix;
        }
        static constexpr std::pair<uint64_t, const char*> kUnits[] = {
            {86400000000000ull, "d"}, {3600000000000ull, "h"}, {60000000000ull, "m"},
            {1000000000ull, "s"},     {1000000ull, "ms"},      {1000ull, "us"}};
        const uint64_t whole = static_cast<uint64_t>(ns + 0.5L);
        for (const auto& [n, name] : kUnits)
          if (whole % n == 0) return std::to_string(whole / n) + name;
        below_us = true;
        return std::nullopt;
      });
  if (first_suffix.empty()) return std::nullopt;
  const std::string written = first_number + first_suffix;
  const size_t dot = first_number.find('.');
  const std::string fio_reading =
      dot == std::string::npos
          ? first_number +
                " us to fio 3.33, which knows d, h, m, s, ms and us and reads any "
                "other unit as us"
          : (dot == 0 ? std::string("0") : first_number.substr(0, dot)) +
                ", in the option's default unit, to fio 3.33 (which reads a time up to its '.' "
                "and then takes the default unit)";
  return PortabilityWarningHead(r) + "'" + written + "'" +
         (written == Trim(value) ? "" : " in '" + value + "'") + " is " + first_number + " " +
         ToLower(first_suffix) + " to iobench but " + fio_reading + "; " +
         (below_us ? "fio has no unit below us: write the time as whole us or above"
                   : "write " + PortableSpelling(r, both)) +
         " to mean the same to both";
}

namespace {
// A results document given as a job file (`iobench --output-format=table
// fb.json`) failed as "fb.json:2:8: expected '=' between option '"fio' and
// its value", which said nothing of what the file is. Its first character
// is `{` (or a line's, after fio's notes), and it reads as a JSON object
// with "jobs" or "fio version" (or, cut short or followed by another
// format's text, names one of them). An included file is told of too.
bool LooksLikeResultsJson(const std::string& text) {
  // fio's output may start with its notes ("note: both iodepth >= 1 and
  // synchronous I/O engine are selected, ..."), the JSON on a later line.
  // After notes, the rest must parse: a broken job file with a brace line
  // and a "jobs" further down is no results file.
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return false;
  const bool noted = text[first] != '{';
  if (noted) {
    const size_t line = text.find("\n{");
    if (line == std::string::npos) return false;
    first = line + 1;
  }
  const std::string json = text.substr(first);
  const auto doc = nlohmann::json::parse(json, nullptr, false);
  if (!doc.is_discarded())
    return doc.is_object() && (doc.contains("jobs") || doc.contains("fio version"));
  return !noted && (json.find("\"fio version\"") != std::string::npos ||
                    json.find("\"jobs\"") != std::string::npos);
}

// The error `st` about job file `name` (text `text`), with a last line that
// says so when the file is a results document, and how to see its tables.
Status WithResultsFileHint(const Status& st, const std::string& text, const std::string& name) {
  if (st.ok() || !LooksLikeResultsJson(text)) return st;
  const bool piped = name == "-" || name == "<stdin>";
  const std::string file = piped ? "FILE.json" : sys::ShellWord(name);
  return Status(st.code(),
                st.message() + "\n" + (piped ? "<stdin>" : name) +
                    " looks like a results file (fio or iobench JSON output), not a job file: " +
                    (piped ? "save it to a file, then " : "") + "iobench --compare " + file +
                    " NEW.json shows it in tables beside NEW.json (--compare " + file + " " + file +
                    " shows its figures alone, each delta 0)",
                st.errno_value());
}
}  // namespace

// Reads one job file (and its includes) into sections.
class FileReader {
 public:
  // `select`: the --section names (none: every section is read).
  explicit FileReader(std::vector<std::string>* warnings,
                      const std::vector<std::string>& select = {})
      : warnings_(warnings), select_(select) {}

  Status ReadText(const std::string& text, const std::string& display, const std::string& base_dir,
                  std::vector<std::string>* stack) {
    IOB_ASSIGN_OR_RETURN(auto entries, Lex(text, display));
    bool warned_blank = false, warned_quote = false;
    for (auto& e : entries) {
      if (e.kind == LexEntry::Kind::kSection) {
        // As fio ("No new sections in included files"): a section opened in
        // an included file would capture the options that follow the
        // include line in the including section.
        if (include_depth_ > 0)
          return Status::Invalid(FormatDiagnostic(
              display, e.line, e.key_col,
              "no new sections in included files (as in fio): '[" + e.key +
                  "]' would take the options after the include line; include only options",
              e.text));
        Section s;
        s.name = e.key;
        s.global = IsGlobalName(e.key);
        s.file = display;
        s.line = e.line;
        sections_.push_back(std::move(s));
        continue;
      }
      if (e.kind == LexEntry::Kind::kInclude) {
        // fio 3.33 refuses an include before the first section, whatever the
        // file holds ("option <include x> outside of [] job section"), as
        // iobench refuses an option there; an empty file was let through.
        if (sections_.empty())
          return Status::Invalid(FormatDiagnostic(
              display, e.line, e.key_col,
              "include outside of a section (fio refuses it too, whatever the file holds); "
              "put it under [global] or [jobname]",
              e.text));
        // fio skips the lines of a section --section leaves out, include
        // lines too: a bad include there failed the run (`--section=a` with
        // `[b]` holding `include nothere.fio`), which fio runs.
        if (!select_.empty() && !sections_.back().global &&
            std::find(select_.begin(), select_.end(), sections_.back().name) == select_.end())
          continue;
        // fio takes the line (its comment cut, blanks trimmed) after
        // "include" and one more character as the name: `include =
        // x.fio` is '= x.fio' there, which it cannot open, and the job
        // fails. iobench reads what was meant and warns, as it does for
        // blanks around any other option's '='.
        const std::string line = Trim(e.text.substr(0, e.text.find_first_of(";#")));
        if (const std::string fio_name = line.size() > 8 ? line.substr(8) : ""; fio_name != e.key)
          warnings_->push_back(display + ":" + std::to_string(e.line) + ": warning: '" + line +
                               "': fio takes the file name to be '" + fio_name +
                               "' (all after 'include' and one character) and fails the job "
                               "when no file has that name; iobench reads '" +
                               e.key + "'; write 'include " + e.key +
                               "' to keep the file portable");
        ValueError ve;
        auto expanded = Expand(e.key, &ve, nullptr,
                               "fio does not substitute ${} in an include path: it would look "
                               "for a file named '" +
                                   e.key + "'");
        if (!expanded)
          return Status::Invalid(FormatDiagnostic(
              display, e.line, e.value_col + static_cast<int>(ve.offset), ve.message, e.text));
        std::string path = *expanded;
        if (path.empty())
          return Status::Invalid(
              FormatDiagnostic(display, e.line, e.key_col, "include needs a file name", e.text));
        char real[PATH_MAX];
        if (path[0] != '/') {
          // fio looks in the working directory first, then next to the job
          // file; iobench looks next to the job file first. Where both hold
          // the name, the two would read different files: refuse.
          const std::string next_to = base_dir + "/" + path;
          char cwd_real[PATH_MAX];
          const bool in_cwd = realpath(path.c_str(), cwd_real) != nullptr;
          if (realpath(next_to.c_str(), real)) {
            if (in_cwd && std::string(cwd_real) != real)
              return Status::Invalid(FormatDiagnostic(
                  display, e.line, e.value_col,
                  "include '" + *expanded + "' is ambiguous: fio reads " + cwd_real +
                      " (it looks in the working directory first), iobench would read " + real +
                      "; write the path so that it names one file",
                  e.text));
            path = next_to;
          } else if (!in_cwd) {
            path = next_to;  // the error below names where it looked
          }
        }
        // A pipe (/dev/fd/3, <(...)) exists but has no real path: say what
        // is wrong with it rather than realpath's "No such file".
        if (struct stat pipe_sb; !realpath(path.c_str(), real) &&
                                 stat(path.c_str(), &pipe_sb) == 0 && !S_ISREG(pipe_sb.st_mode))
          return Status::Invalid(
              FormatDiagnostic(display, e.line, e.value_col,
                               "cannot include '" + *expanded + "': not a regular file", e.text));
        if (!realpath(path.c_str(), real))
          return Status::Invalid(FormatDiagnostic(display, e.line, e.value_col,
                                                  "cannot include '" + *expanded +
                                                      "': " + std::strerror(errno) +
                                                      " (looked for " + path + ")",
                                                  e.text));
        std::string canon(real);
        // Only regular files: an include of /dev/zero or a FIFO would hang.
        struct stat sb;
        if (stat(real, &sb) != 0 || !S_ISREG(sb.st_mode))
          return Status::Invalid(
              FormatDiagnostic(display, e.line, e.value_col,
                               "cannot include '" + *expanded + "': not a regular file", e.text));
        if (std::find(stack->begin(), stack->end(), canon) != stack->end())
          return Status::Invalid(
              FormatDiagnostic(display, e.line, e.value_col,
                               "include cycle: '" + *expanded + "' is already being read", e.text));
        if (stack->size() > 32)
          return Status::Invalid(FormatDiagnostic(display, e.line, e.value_col,
                                                  "includes nested deeper than 32 levels", e.text));
        auto content = ReadWholeFile(canon);
        if (!content.ok())
          return Status::Invalid(
              FormatDiagnostic(display, e.line, e.value_col, content.status().message(), e.text));
        stack->push_back(canon);
        included_.push_back(canon);
        ++include_depth_;
        include_sites_.push_back(display + ":" + std::to_string(e.line));
        // The next level resolves against the directory of the name as
        // built here, not of the file it resolves to (see ParseJobs).
        Status read =
            WithResultsFileHint(ReadText(*content, path, DirName(path), stack), *content, path);
        // An error in the included file names where it was included from
        // (the innermost include adds the whole chain; the outer ones pass
        // it on as it is).
        if (!read.ok() && !chain_told_) {
          chain_told_ = true;
          read = WithFirstLineSuffix(read, IncludedFrom());
        }
        IOB_RETURN_IF_ERROR(read);
        include_sites_.pop_back();
        --include_depth_;
        stack->pop_back();
        continue;
      }
      if (sections_.empty())
        return Status::Invalid(FormatDiagnostic(
            display, e.line, e.key_col,
            "option '" + e.key + "' outside of a section (add [global] or [jobname] above it)",
            e.text));
      RawSetting r;
      r.key = e.key;
      r.value = e.value;
      r.bare = !e.has_value;
      r.file = display;
      r.line = e.line;
      r.key_col = e.key_col;
      r.value_col = e.value_col;
      r.text = e.text;
      r.quoted = e.quoted;
      r.included_from = IncludedFrom();
      std::string key_after = e.key;  // after substitution
      // fio substitutes ${VAR} in the whole line, so `${ENGINE_OPT}=1` names
      // an option; iobench used to refuse it as an unknown option.
      if (e.key.find("${") != std::string::npos) {
        ValueError ve;
        auto key = Expand(e.key, &ve);
        if (!key)
          return Status::Invalid(FormatDiagnostic(
              display, e.line, e.key_col + static_cast<int>(ve.offset), ve.message, e.text));
        key_after = *key;
        r.key = Trim(*key);
        // `${E}` alone with E set but empty: "expected an option name
        // before '='" named an '=' that the line does not have.
        if (r.key.empty())
          return Status::Invalid(
              FormatDiagnostic(display, e.line, e.key_col,
                               "'" + e.key + "' expands to nothing, so " +
                                   (e.has_value ? "the option name before '=' is empty"
                                                : "the line is empty; an option was expected") +
                                   " (a variable in it is set but empty)",
                               e.text));
        // fio substitutes before it splits the line at '=': the variable
        // may bring the '=' and a value (`${OPT}` with OPT=bs=8k), which
        // iobench took as an option named "bs=8k".
        if (size_t eq = r.key.find('='); eq != std::string::npos) {
          std::string from_env = Trim(r.key.substr(eq + 1));
          // The value is expanded once more when applied; fio keeps a
          // ${...} that came from a variable as text.
          if (from_env.find("${") != std::string::npos)
            return Status::Invalid(FormatDiagnostic(
                display, e.line, e.key_col,
                "'" + e.key + "' expands to '" + *key +
                    "', whose value holds '${': a variable's text is not substituted again "
                    "(fio would take it as written)",
                e.text));
          r.value = from_env + (e.has_value ? "=" + e.value : "");
          r.key = Trim(r.key.substr(0, eq));
          r.bare = false;
          r.value_col = e.key_col;
          r.value_from_variable = true;
        }
      }
      if (key_after != e.key || e.value.find("${") != std::string::npos) {
        ValueError ignored;  // an unset variable is reported when the value is applied
        if (const auto value = Expand(e.value, &ignored))
          IOB_RETURN_IF_ERROR(CheckSubstitutedLength(e, display, key_after, *value));
      }
      // fio substitutes ${VAR} first and cuts the value at its first ';'
      // or '#' after (get_opt_postfix), so a variable that brings one ends
      // the value there (filename=${F} with F='x#y' is the file x in fio).
      // A ';' or '#' written in the value was quoted and is warned below.
      if (!r.bare && e.value.find_first_of(";#") == std::string::npos &&
          (e.key.find("${") != std::string::npos || e.value.find("${") != std::string::npos)) {
        ValueError ignored;  // an unset variable is reported when the value is applied
        auto value = Expand(r.value, &ignored);
        const size_t cut = value ? value->find_first_of(";#") : std::string::npos;
        if (cut != std::string::npos) {
          const std::string written =
              Trim(e.text.substr(0, static_cast<size_t>(e.value_col) + e.value.size()));
          warnings_->push_back(
              display + ":" + std::to_string(e.line) + ": warning: '" + written +
              "': " + VariableWithCommentChar(e.key + "=" + e.value) + " brings a '" +
              (*value)[cut] + "', which fio reads as the start of a comment: fio sees '" + r.key +
              "=" + Trim(value->substr(0, cut)) + "'; iobench keeps the value whole ('" + *value +
              "'). Avoid ';' and '#' in values to keep the file portable");
        }
      }
      // A variable that brings a blank at either end of the value: fio
      // keeps it (size=${S} with S=' 1m' is 1 byte there, or an error),
      // iobench trims it, as a blank written around '=' is.
      if (!r.bare && r.value.find("${") != std::string::npos) {
        ValueError ignored;  // an unset variable is reported when the value is applied
        const auto value = Expand(r.value, &ignored);
        const auto blank_end = [](const std::string& v) {
          const auto blank = [](char c) { return c == ' ' || c == '\t'; };
          return !v.empty() && (blank(v.front()) || blank(v.back()));
        };
        if (value && blank_end(*value) && !blank_end(r.value) && !FioTrimsValue(r.key))
          warnings_->push_back(
              display + ":" + std::to_string(e.line) + ": warning: '" + Trim(e.text) +
              "': a variable brings a blank at the edge of the value ('" + *value +
              "'): iobench reads it as '" + Trim(*value) +
              "', but fio keeps the blank (e.g. ' 1m' as 1 byte); remove it from the variable "
              "to keep the file portable");
      }
      if (auto w = CommaBlankWarning(r)) warnings_->push_back(*w);
      // A blank before '=' fio drops too (`bs =8k` is 8k to both); one
      // after it fio keeps in the value.
      if (e.blank_after_eq && !warned_blank && !FioTrimsValue(r.key)) {
        warned_blank = true;
        warnings_->push_back(display + ":" + std::to_string(e.line) +
                             ": warning: blank after '=' in '" + Trim(e.text) +
                             "': iobench reads the value as '" + e.value +
                             "' as you meant, but fio keeps the blank in the value (e.g. 'size= "
                             "4k' as 4 bytes); write '" +
                             e.key + "=" + e.value + "' to keep the file portable");
      }
      // fio cuts every line at its first ';' or '#', quotes or not: a
      // quoted value holding one is another value there (or an error).
      if (e.quoted) {
        const std::string line =
            Trim(e.text.substr(0, static_cast<size_t>(e.value_col) + e.value.size()));
        const size_t cut = line.find_first_of(";#");
        if (cut != std::string::npos)
          warnings_->push_back(display + ":" + std::to_string(e.line) + ": warning: '" + line +
                               "': fio reads the '" + line[cut] +
                               "' inside the quotes as the start of a comment and sees '" +
                               Trim(line.substr(0, cut)) +
                               "'; iobench keeps the quoted value whole. Avoid ';' and '#' "
                               "in values to keep the file portable");
      }
      // In a pattern the quotes are syntax: buffer_pattern="abc" is the text
      // abc, 'name' a file (fio); removing them turned the text into an error.
      const OptionDef* qdef = e.quoted ? FindOption(e.key) : nullptr;
      if (qdef && (qdef->name == "buffer_pattern" || qdef->name == "verify_pattern")) {
        r.value = e.text.substr(static_cast<size_t>(e.value_col) - 2, e.value.size() + 2);
        r.value_col -= 1;
      } else if (e.quoted && !warned_quote) {
        warned_quote = true;
        warnings_->push_back(
            display + ":" + std::to_string(e.line) + ": warning: quoted value in '" + Trim(e.text) +
            "': iobench removes the quotes; fio may read them as part of the value");
      }
      sections_.back().entries.push_back(std::move(r));
    }
    return Status::Ok();
  }

  std::vector<Section>& sections() { return sections_; }
  // Every file an include line read (canonical paths), in order.
  const std::vector<std::string>& included() const { return included_; }

 private:
  // " (included from a.inc:2, from job.fio:3)" while an include is read.
  // A deep chain shows its three innermost includes and the job file.
  std::string IncludedFrom() const {
    std::string out;
    const size_t n = include_sites_.size();
    for (size_t k = 0; k < n; ++k) {  // innermost first
      if (n > 4 && k == 3) {
        out += ", ...";
        k = n - 1;
      }
      out += (out.empty() ? " (included from " : ", from ") + include_sites_[n - 1 - k];
    }
    return out.empty() ? out : out + ")";
  }

  std::vector<Section> sections_;
  std::vector<std::string>* warnings_;
  std::vector<std::string> select_;
  int include_depth_ = 0;                   // > 0 while reading an included file
  std::vector<std::string> include_sites_;  // "file:line" of each include being read
  std::vector<std::string> included_;       // see included()
  bool chain_told_ = false;                 // an error got its include chain
};

bool BareAllowed(const OptionDef& d) {
  return d.type == OptType::kBool || d.name == "sync" || d.name.rfind("write_", 0) == 0;
}

// What fio 3.33 runs for a per-direction value iobench refuses (parse.c,
// handle_option): the value splits into reads, writes, trims at ',', or
// when there is none at ':', else '-' (so bs=4k-16k reads 4k and writes
// 16k, rate=1m-2m caps reads at 1m and writes at 2m), the last part
// carrying over; each number ends at the next ':', '-', ',' or '/'
// (bs=4k/8k is 4k).
std::string FioRunsPerDir(const std::string& text) {
  std::vector<std::string> sizes;
  for (size_t pos = 0;;) {
    const std::string rest = text.substr(pos);
    size_t cut = rest.find(',');
    if (cut == std::string::npos) cut = rest.find(':');
    if (cut == std::string::npos) cut = rest.find('-');
    const std::string part = Trim(rest.substr(0, cut));
    sizes.push_back(part.substr(0, part.find_first_of(":-,/", 1)));
    if (cut == std::string::npos || sizes.size() == kNumDdirs) break;
    pos += cut + 1;
  }
  while (sizes.size() < kNumDdirs) sizes.push_back(sizes.back());
  if (sizes[0] == sizes[1] && sizes[1] == sizes[2]) return sizes[0];
  static const char* const kNames[kNumDdirs] = {"reads ", "writes ", "trims "};
  std::string out;
  for (size_t d = 0; d < kNumDdirs; ++d)
    out +=
        (d == 0 ? "" : ", ") + std::string(kNames[d]) + (sizes[d].empty() ? "unchanged" : sizes[d]);
  return out;
}

// fio 3.33 matches a keyword value as its man page writes it (rw=RANDREAD,
// verify=MD5, cpumode=QSORT: "failed parsing"), and so does iobench. When
// `def`'s setter refused `v` (`message`) but takes it in lower case, the
// hint that says so; "" otherwise, or when the message already suggests
// a spelling.
std::string CaseHint(const OptionDef& def, const JobSpec& job, const OptValue& v,
                     const std::string& message) {
  // The keyword before a ':' only: what follows may be a path
  // (mem=MMAP:/tmp/Foo -> mmap:/tmp/Foo, not mmap:/tmp/foo).
  const size_t colon = v.text.find(':');
  const std::string lower =
      ToLower(v.text.substr(0, colon)) + (colon == std::string::npos ? "" : v.text.substr(colon));
  if (lower == v.text || message.find("did you mean") != std::string::npos) return "";
  JobSpec scratch = job;
  OptValue lv = v;
  lv.text = lower;
  std::vector<std::string> ignored;
  lv.warnings = &ignored;
  if (!def.set(scratch, lv).ok()) return "";
  return "; keywords are case-sensitive, as in fio: did you mean '" + lower + "'?";
}

Status ApplySetting(JobSpec* job, const RawSetting& s, std::vector<RawSetting>* owned,
                    std::vector<std::string>* warnings);

// `eta=never`, `readonly`, `output=x` in a job file are command-line
// options (iobench's and fio's), not job options: said so, with the
// spelling for the command line ("did you mean 'ba'?" misled). `status_
// interval` is --status-interval too. nullopt for any other name.
std::optional<std::string> CommandLineOnly(const RawSetting& s) {
  std::string dashed = s.key;
  std::replace(dashed.begin(), dashed.end(), '_', '-');
  const ToolOptionSpec* tool = nullptr;
  for (const auto& t : ToolOptions())
    if (t.name == dashed) tool = &t;
  const bool fio_only = !tool && std::any_of(std::begin(kFioToolOnly), std::end(kFioToolOnly),
                                             [&](const char* f) { return dashed == f; });
  if (!tool && !fio_only) return std::nullopt;
  const std::string what = "option '" + s.key + "' is a command-line option, not a job option";
  if (fio_only) return what + " (fio's --" + dashed + ", which iobench does not support)";
  if (tool->arg == ToolArg::kNone || s.bare || s.value.empty())
    return what + ": give it to iobench as --" + dashed +
           (tool->arg == ToolArg::kNone ? "" : "=VALUE");
  return what + ": give it to iobench as " + sys::ShellWord("--" + dashed + "=" + s.value);
}

// Converts and applies one setting to a job; on success records it in
// job->settings (and ->unimplemented) and, when `owned` is given, keeps a
// copy for the engine-option check that needs the final ioengine.
Status ApplyOne(JobSpec* job, const RawSetting& s, std::vector<RawSetting>* owned,
                std::vector<std::string>* warnings) {
  Status st = ApplySetting(job, s, owned, warnings);
  // `iobench --bs s.fio`: the job file was read as bs's value ("bad size
  // 's.fio'", or "no jobs defined" when nothing else defined one).
  if (struct stat sb;
      !st.ok() && s.value_next_arg && stat(s.value.c_str(), &sb) == 0 && !S_ISDIR(sb.st_mode))
    return WithFirstLineSuffix(st, " ('" + s.value + "' is a file, taken as the value of " +
                                       s.text.substr(0, s.text.find(' ')) +
                                       ", which needs one; to read it as a job file, give the "
                                       "option its value first: " +
                                       s.text.substr(0, s.text.find(' ')) + "=VALUE " + s.value +
                                       ")");
  if (st.ok() || s.bare || (s.value.find("${") == std::string::npos && !s.value_from_variable))
    return st;
  // A ${VAR} that brings a ';' or '#' is warned when the value parses (the
  // reader); when it does not, the error says so, with what fio reads
  // (`size=${S}`, S='1m ; x': "bad size unit 'm ; x'" alone misled).
  ValueError ignored;
  const auto value = Expand(s.value, &ignored);
  const size_t cut = value ? value->find_first_of(";#") : std::string::npos;
  if (cut == std::string::npos) return st;
  return WithFirstLineSuffix(st, std::string(" (a variable brought '") + (*value)[cut] +
                                     "' into the value; fio cuts it there and reads '" + s.key +
                                     "=" + Trim(value->substr(0, cut)) + "')");
}

Status ApplySetting(JobSpec* job, const RawSetting& s, std::vector<RawSetting>* owned,
                    std::vector<std::string>* warnings) {
  const OptionDef* def = FindOption(s.key);
  if (!def) {
    if (IsSoftDeprecatedFioOption(s.key)) {
      if (warnings)
        warnings->push_back(Where(s) + ": warning: option '" + s.key +
                            "' is deprecated in fio and has no effect; ignored");
      return Status::Ok();
    }
    if (const char* profile = FioProfileOfOption(s.key)) {
      // fio's own examples write `threads=1` (meaning `thread`): fio
      // takes it as an option of its tiobench profile and ignores it,
      // silently. The job runs as fio's does, so nothing is for the user to
      // act on: a note in the job's report, not a warning on stderr (fio's
      // steadystate.fio and waitfor.fio failed scripts that check stderr).
      job->parse_notes.push_back(Where(s) + ": option '" + s.key + "' belongs to fio's " + profile +
                                 " profile, which iobench does not have; fio ignores it in a job "
                                 "and so does iobench" +
                                 (s.key == "threads" ? " (iobench always runs threads)" : ""));
      return Status::Ok();
    }
    if (IsDeprecatedFioOption(s.key))
      return Diag(
          s, s.key_col,
          "option '" + s.key + "' is deprecated and no longer supported (fio refuses it too)");
    if (IsFioOnlyOption(s.key))
      return Diag(s, s.key_col,
                  "option '" + s.key + "' is a fio option that iobench does not support yet");
    // "--=4k" on the command line (a job file's "=4k" is refused by the
    // lexer, with the same words): no name to suggest a spelling of.
    if (s.key.empty()) return Diag(s, s.key_col, "expected an option name before '='");
    if (s.file != kCmdline)
      if (auto tool = CommandLineOnly(s)) return Diag(s, s.key_col, *tool);
    // `bs＝8k` (a full-width '=' from an input method) is one unknown name.
    size_t eq_size = 0;
    std::string eq_hint;
    if (const size_t eq = FindEqualsLookalike(s.key, 0, &eq_size, &eq_hint);
        eq != std::string::npos) {
      const std::string meant = s.key.substr(0, eq) + "=" + s.key.substr(eq + eq_size);
      return Diag(
          s, s.key_col + static_cast<int>(eq),
          "unknown option '" + s.key + "' (" + eq_hint + ")" +
              (FindOption(Trim(s.key.substr(0, eq))) ? "; did you mean '" + meant + "'?" : ""));
    }
    // A name with an invisible character in it (`bs` and a zero-width
    // space, a byte-order mark in the middle of a file) is suggested as
    // the name without it; the message shows the character as \uXXXX.
    const std::string visible = sys::DropInvisible(s.key);
    const OptionDef* meant = visible != s.key ? FindOption(visible) : nullptr;
    // On the command line the tool options are near too (--outptu: --output).
    std::string sug = meant                ? visible
                      : s.file == kCmdline ? SuggestCommandLineOption(visible)
                                           : SuggestOption(visible);
    return Diag(s, s.key_col,
                "unknown option '" + s.key + "'" +
                    (visible != s.key ? " (it holds an invisible character)" : "") +
                    (sug.empty() ? "" : "; did you mean '" + sug + "'?"));
  }
  OptValue v;
  v.kb_base = job->kb_base;
  v.bare = s.bare;
  v.source = s.source;
  v.layer = s.layer;
  std::vector<std::string> setter_warnings;
  v.warnings = &setter_warnings;
  size_t error_at = 0;
  v.error_at = &error_at;
  if (s.bare) {
    if (!BareAllowed(*def))
      return Diag(s, s.key_col,
                  "option '" + s.key + "' needs a value (" + s.key + "=" + TypeName(*def) + ")");
    v.num = 1;
  } else {
    ValueError ve;
    bool keyword = false;
    // fio expands ${} only in job files; on its command line it reads the text.
    const std::string unset_note =
        s.file == kCmdline ? "fio does not substitute ${} on the command line: it would read '" +
                                 s.value + "' as written"
                           : std::string(kFioUsesEmptyString);
    auto expanded = Expand(s.value, &ve, &keyword, unset_note);
    if (!expanded) return Diag(s, s.value_col + static_cast<int>(ve.offset), ve.message);
    // A blank a variable brings at either end is dropped (the reader warns
    // that fio keeps it), in what the job records too: --showcmd printed
    // '--bs= 8k ' for bs=${X} with X=' 8k ', which warns when run.
    v.text = s.value.find("${") != std::string::npos ? Trim(*expanded) : *expanded;
    // The text as written was checked; an environment variable may still
    // bring bytes that are not UTF-8.
    if (std::string bad; FirstNonUtf8(v.text, 0, v.text.size(), &bad) != std::string_view::npos)
      return Diag(s, s.value_col, "option '" + s.key + "' after substitution: " + bad);
    // `size=5*$mb_memory/8`: fio computes a value with a $keyword in it.
    // bc drops an exponent's fraction (size=$pagesize*2^0.5 is 4096) and
    // says so on fio's stderr; so does iobench, once per value.
    bool exponent_fraction_warned = false;
    auto number_text = [&](const std::string& t) {
      if (!keyword) return t;
      bool exponent_fraction = false;
      std::string c = KeywordArithmetic(t, &exponent_fraction);
      if (exponent_fraction && !exponent_fraction_warned) {
        exponent_fraction_warned = true;
        setter_warnings.push_back("option '" + s.key + "': in '" + Trim(s.value) +
                                  "' an exponent's fraction is dropped, as fio's bc drops it "
                                  "(\"non-zero scale in exponent\": 2^0.5 is 1); write a whole "
                                  "exponent");
      }
      return c;
    };
    NumContext ctx;
    ctx.kb_base = job->kb_base;
    ctx.time_unit_ns = def->time_unit_ns;
    ctx.kind = def->type == OptType::kTime   ? NumKind::kTime
               : def->type == OptType::kSize ? NumKind::kSize
                                             : NumKind::kPlain;
    // The value with a $keyword as the job records it (--showcmd, JSON job
    // options): bc's result, as fio keeps it (size=$pagesize*2.5 is
    // 10240.0); for what bc cannot read (a unit: size=$pagesize*1k, which
    // fio fails) iobench's evaluator's, as a number it reads back alike.
    // It was the text with the keyword replaced ('4096*2.5'), which iobench
    // refuses outside parentheses.
    auto computed_text = [&](const std::string& t) {
      std::string c = number_text(t);
      if (c.empty() || c.front() != '(') return c;
      ValueError ignored;  // reported when the value is applied
      const auto n = ParseNumber(c, ctx, &ignored);
      if (!n) return c;
      if (ctx.kind == NumKind::kTime && ctx.time_unit_ns > 1)
        return *n % static_cast<int64_t>(ctx.time_unit_ns) == 0
                   ? std::to_string(*n / static_cast<int64_t>(ctx.time_unit_ns))
                   : std::to_string(*n) + "ns";
      return std::to_string(*n);
    };
    // fio reads numjobs=1.5 as 1 and iobench once rounded it to 2: a count
    // written with a fraction is refused instead.
    auto whole = [&](const std::string& t, size_t off) -> Status {
      const std::string n = Trim(t);
      if (def->type != OptType::kInt || n.empty() || n[0] == '(' ||
          n.find('.') == std::string::npos || n.rfind("0x", 0) == 0)
        return Status::Ok();
      // rwmixread=0.0 (a job file in fio's issue tracker), numjobs=2.0: a
      // whole number written with a zero fraction and no unit is that number
      // in both tools.
      if (n.find_first_not_of('0', n.find('.') + 1) == std::string::npos) return Status::Ok();
      return Diag(
          s,
          s.value_col + (v.text == s.value && !s.value_from_variable ? static_cast<int>(off) : 0),
          "option '" + s.key + "' takes a whole number, got '" + n + "' (" +
              (keyword && n != Trim(s.value)
                   ? "computed from '" + Trim(s.value) + "' as fio's bc does; "
                   : "") +
              "fio drops the fraction)");
    };
    // Offsets in the expanded text only map to the written text when
    // nothing was substituted; otherwise point at the value's start.
    bool same = v.text == s.value && !s.value_from_variable;
    auto at = [&](size_t off) { return s.value_col + (same ? static_cast<int>(off) : 0); };
    // `text`: the value read as `n` (bc's result for a $keyword value).
    auto range_err = [&](int64_t n, size_t off, const std::string& text) -> Status {
      if (n < def->min || n > def->max) {
        // A time is held in ns: say so, or "-5" written in us reads as -5000.
        const char* unit = def->type == OptType::kTime ? " ns" : "";
        std::string range;
        if (def->max == INT64_MAX)
          range = ">= " + std::to_string(def->min) + unit;
        else
          range = std::to_string(def->min) + ".." + std::to_string(def->max) + unit;
        // Also as written: "-1" is -1000000000 ns (runtime's unit is s), and
        // bc's -6144.0 for bs=$pagesize*-1.5 is -6144.
        const std::string t = Trim(text);
        std::string value = std::to_string(n) + unit;
        if (def->type == OptType::kTime || t != std::to_string(n))
          value = "'" + t + "' (" + value + ")";
        const std::string from = keyword && t != Trim(s.value)
                                     ? " (computed from '" + Trim(s.value) + "' as fio's bc does)"
                                     : "";
        return Diag(s, at(off),
                    "value " + value + " of option '" + s.key + "'" + from + " is out of range (" +
                        range + ")");
      }
      return Status::Ok();
    };
    // bc writes a number below 1 without its 0 (.50, -.50), which fio's
    // strtoll cannot read: fio fails size=$ncpus*-0.25 ("failed parsing").
    // Read as 0 it named a value never computed, or ran the file's size.
    auto bc_unreadable = [&](const std::string& computed, size_t off) -> Status {
      const std::string c = Trim(computed);
      if (!keyword || (c.rfind('.', 0) != 0 && c.rfind("-.", 0) != 0)) return Status::Ok();
      return Diag(s, at(off),
                  "option '" + s.key + "': fio's bc computes '" + Trim(s.value) + "' as " + c +
                      ", which fio fails to parse (no digit before the '.'); write a value "
                      "that is 1 or more, or 0, in magnitude");
    };
    switch (def->type) {
      case OptType::kBool: {
        bool b;
        if (ParseBoolWord(v.text, &b)) {
          v.num = b;
        } else {
          ctx.kind = NumKind::kPlain;
          auto n = ParseNumber(v.text, ctx, &ve);
          // fio stores a FIO_OPT_STR_SET flag as the number written
          // (stonewall=2 and thread=-1 are on, =0 off); its bools take 0 or 1.
          if (n && def->any_int) n = *n != 0;
          if (!n || (*n != 0 && *n != 1))
            return Diag(s, at(0),
                        "option '" + s.key + "' is a flag: expected " +
                            (def->any_int ? "a number (0 off, any other on)" : "0 or 1") +
                            " (or yes/no, true/false, on/off), got '" + v.text + "'");
          v.num = *n;
        }
        break;
      }
      case OptType::kInt:
      case OptType::kSize:
      case OptType::kTime: {
        if (def->per_dir && keyword) {
          // Each direction's value computed as fio's bc does (bs=$pagesize*2,
          // bs=$pagesize,$pagesize*4), so the job options show the numbers.
          std::string joined;
          for (size_t i = 0, start = 0; i <= v.text.size(); ++i) {
            if (i < v.text.size() && v.text[i] != ',') continue;
            const std::string piece = Trim(v.text.substr(start, i - start));
            joined += (start == 0 ? "" : ",") + (piece.empty() ? piece : computed_text(piece));
            start = i + 1;
          }
          v.text = joined;
        }
        if (def->per_dir) {
          if (std::string excess = PerDirectionExcess(v.text, s.key); !excess.empty())
            return Diag(s, at(0), excess);
          auto parts = SplitPerDirection(v.text);
          for (int d = 0; d < kNumDdirs; ++d) {
            const auto& p = parts[static_cast<size_t>(d)];
            if (!p.text) continue;
            // bs=4k-16k / bs=4k/8k: fio silently runs 4k; point at the
            // options that take a range or a split. Not in a value with a
            // $keyword: bs=$pagesize/2 is arithmetic, which fio computes.
            // The other per-direction options (rate=1m-2m, rate_iops=100:50,
            // max_latency=1s:2s) are refused alike, saying what fio reads
            // there: one value per direction, as with ','.
            if (!keyword && p.text->find('(') == std::string::npos) {
              const bool bs = def->name == "bs";
              const size_t sep = p.text->find_first_of(bs ? "-:/" : "-:", 1);
              if (sep != std::string::npos) {
                const std::string fio = " (fio would run " + FioRunsPerDir(v.text) + ")";
                if (bs)
                  return Diag(s, at(p.offset + sep),
                              "option '" + s.key + "' takes one size per direction; for " +
                                  ((*p.text)[sep] == '/' ? "a mix of sizes write bssplit="
                                                         : "a range write bsrange=") +
                                  *p.text + fio);
                return Diag(s, at(p.offset + sep),
                            "option '" + s.key + "' separates its read, write and trim values " +
                                "with ',', not '" + (*p.text)[sep] + "'" + fio);
              }
            }
            IOB_RETURN_IF_ERROR(bc_unreadable(*p.text, p.offset));
            auto n = ParseNumber(number_text(*p.text), ctx, &ve);
            if (!n)
              return Diag(s, at(p.offset + ve.offset), "option '" + s.key + "': " + ve.message);
            IOB_RETURN_IF_ERROR(whole(*p.text, p.offset));
            IOB_RETURN_IF_ERROR(range_err(*n, p.offset, *p.text));
            v.dir[d] = *n;
          }
          if (!parts[0].text && !parts[1].text && !parts[2].text)
            return Diag(s, at(0), "option '" + s.key + "' needs a value");
          v.num = v.dir[0].value_or(v.dir[1].value_or(v.dir[2].value_or(0)));
        } else {
          std::string t = Trim(v.text);
          // rwmixread=70% read as "bad number" (fio silently runs 100% reads).
          if (!def->allow_percent && def->type == OptType::kInt && t.size() > 1 && t.back() == '%')
            return Diag(s, at(0),
                        "option '" + s.key + "' takes a plain number, without '%': write " + s.key +
                            "=" + t.substr(0, t.size() - 1));
          if (def->allow_percent && !t.empty() && t.back() == '%') {
            t.pop_back();
            ctx.kind = NumKind::kPlain;
            v.percent = true;
          }
          const std::string computed = number_text(t);
          IOB_RETURN_IF_ERROR(bc_unreadable(computed, 0));
          auto n = ParseNumber(computed, ctx, &ve);
          // unit_base=bogus: name the numbers the option takes, as fio does.
          if (!n)
            return Diag(s, at(ve.offset),
                        "option '" + s.key + "': " + ve.message +
                            (def->choices.empty() ? "" : " (one of " + def->choices + ")"));
          // fio keeps the value bc computed: JSON "job options" and
          // --showcmd say size=3085440, not size=24105*1024/8.
          // The fraction test below is on that number: numjobs=$ncpus*1.5
          // is 3.0 to fio's bc (3 jobs), not '2*1.5'.
          const std::string shown = keyword && computed != t ? computed_text(t) : t;
          if (shown != t) v.text = shown + (v.percent ? "%" : "");
          // A percentage is held whole: offset_increment=12.5% became 13%
          // without a word (fio reads such a value as 12 bytes).
          if (v.percent && t.find('.') != std::string::npos && Trim(t).front() != '(')
            return Diag(s, at(0),
                        "option '" + s.key + "' takes a whole percentage, got '" + Trim(t) +
                            "%' (fio reads it as " +
                            std::to_string(static_cast<int64_t>(std::strtod(t.c_str(), nullptr))) +
                            " bytes)");
          IOB_RETURN_IF_ERROR(whole(shown, 0));
          v.num = *n;
          if (!v.percent) IOB_RETURN_IF_ERROR(range_err(*n, 0, shown));
        }
        break;
      }
      case OptType::kEnum:
      case OptType::kStr:
      case OptType::kSpecial:
        // fio refuses every empty string too (name= gave a job named "",
        // directory= quietly meant the working directory); only the
        // write_*_log options take an empty value (the job's name).
        if (Trim(v.text).empty() && !(def->type == OptType::kStr && BareAllowed(*def))) {
          // `description=""` is an empty description (fio keeps the quotes
          // and runs with the two characters as its description); a name,
          // path or keyword that the quotes leave empty is of no use (fio
          // would take the quote characters as the name).
          if (s.quoted && def->name == "description") break;
          return Diag(s, at(0),
                      "option '" + s.key + "' needs a value" +
                          (s.quoted ? std::string(": the quotes hold ") +
                                          (v.text.empty() ? "nothing" : "only blanks") +
                                          " (fio would take the quote characters as the value)"
                                    : ""));
        }
        break;
    }
  }
  // fio names a job after its section: a `name=` in [global] does not rename
  // the jobs below it, but fio lists it under the JSON "global options".
  const bool keep_name = def->name == "name" && s.source == OptionSource::kGlobal;
  Status st = keep_name ? Status::Ok() : def->set(*job, v);
  if (!st.ok()) {
    // A message that names the option already ("option 'bssplit' takes at
    // most 3 ...", PerDirectionExcess) is not prefixed with it again.
    const std::string named = "option '" + s.key + "'";
    const std::string m = st.message() + CaseHint(*def, *job, v, st.message());
    // The part the setter names, where the value reads as written.
    const bool as_written = v.text == s.value && !s.value_from_variable;
    return Diag(s, s.bare ? s.key_col : s.value_col + (as_written ? static_cast<int>(error_at) : 0),
                m.rfind(named, 0) == 0 ? m : named + ": " + m);
  }
  OptionSetting os;
  os.name = def->name;
  os.value = v.text;
  os.source = s.source;
  os.file = s.file == kCmdline ? "<cmdline>" : s.file;
  os.line = s.line;
  os.kb_base = v.kb_base;
  job->settings.push_back(os);
  if (!def->runs) job->unimplemented.push_back(os);
  if (owned) owned->push_back(s);
  if (warnings)
    for (const auto& w : setter_warnings) warnings->push_back(Where(s) + ": warning: " + w);
  // Here, not where the line is read (as CommaBlankWarning): what the value
  // means hangs on the kb_base in force, known only now.
  if (warnings && def->kb_base_sizes && !s.bare)
    if (auto w = IecWithoutBWarning(s, v.text, v.kb_base)) warnings->push_back(*w);
  if (warnings && (def->type == OptType::kTime || def->name == "startdelay") && !s.bare)
    if (auto w = FioTimeUnitWarning(s, v.text)) warnings->push_back(*w);
  return Status::Ok();
}

std::string JoinOr(const std::vector<std::string>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += i + 1 == v.size() ? " or " : ", ";
    out += v[i];
  }
  return out;
}

// Engine options are valid only with an engine that lists them: the job's,
// or for one a global section gave ([global], or the command line's options
// before the first --name), `global_engine`, the engine that section ends
// with, as fio parses it there: [global] fixedbufs=1 under psync is refused
// whatever the jobs use ("Bad option", fio drops the section).
Status CheckEngineOption(const JobSpec& job, const RawSetting& s,
                         const std::string& global_engine = {}) {
  const OptionDef* def = FindOption(s.key);
  if (!def || def->engines.empty()) return Status::Ok();
  auto engines = EnginesForOption(*def);
  const std::string& engine = global_engine.empty() ? job.ioengine : global_engine;
  if (std::find(engines.begin(), engines.end(), engine) != engines.end()) return Status::Ok();
  // The message names only the engines that run: io_uring_cmd takes the
  // options but is not available yet.
  std::erase_if(engines, [](const std::string& e) {
    const EngineInfo* info = FindEngine(e);
    return info != nullptr && info->factory == nullptr;
  });
  const std::string needs = "option '" + s.key + "' needs ioengine=" + JoinOr(engines);
  // On the command line a global engine option goes with the engine in
  // force where it stands (fio loads an engine as it reads --ioengine=, and
  // knows no option of it before: "unrecognized option"), which a later
  // --ioengine= does not change: say so, not that the globals use it.
  if (!global_engine.empty() && s.file == kCmdline && engine != job.ioengine) {
    const bool job_engine_takes =
        std::find(engines.begin(), engines.end(), job.ioengine) != engines.end();
    return Diag(
        s, s.key_col,
        needs + ", but where it stands on the command line the engine is " + engine +
            " (an engine option goes with the --ioengine= before it, as in fio): give "
            "it after " +
            (job_engine_takes ? "--ioengine=" + job.ioengine : "an --ioengine= that takes it"));
  }
  return Diag(s, s.key_col,
              needs + "; " +
                  // A [global] line is its section's: the job may have
                  // that section's engine only by inheriting it.
                  (global_engine.empty() || s.file == kCmdline
                       ? "job '" + job.name + "' uses " + job.ioengine
                       : "its [global] section uses " + global_engine));
}

// Puts a recorded setting's value into the job again (its record stays the
// one it has): the value as recorded, read with the kb_base it was.
Status ReapplySetting(JobSpec* job, const OptionSetting& os) {
  RawSetting r;
  r.key = os.name;
  r.value = os.value;
  r.bare = os.value.empty();
  r.source = os.source;
  r.file = os.file == "<cmdline>" ? kCmdline : os.file;
  r.line = os.line;
  r.text = os.name + (r.bare ? "" : "=" + os.value);
  r.value_col = static_cast<int>(os.name.size()) + 2;
  const uint32_t kb_base = job->kb_base;
  const size_t settings = job->settings.size(), unimplemented = job->unimplemented.size();
  if (os.kb_base != 0) job->kb_base = os.kb_base;
  Status st = ApplySetting(job, r, nullptr, nullptr);
  job->kb_base = kb_base;
  job->settings.resize(settings);
  job->unimplemented.resize(unimplemented);
  return st;
}

// fio keeps engine options in a struct of the engine's own: a job whose
// final engine is the one its [global] engine options were given under
// starts from them (fio copies them from its default thread), a job with
// any other engine from that engine's defaults (fio frees them and loads
// the new engine's); the job's own engine options apply on top either way.
// Sets the engine-option fields so, from the job's settings and
// JobSpec::global_engines, for the engine the job has now (a --sweep
// ioengine= point calls it again through SetOption).
Status ResolveEngineOptions(JobSpec* job) {
  if (job->global_engines.empty()) return Status::Ok();
  for (const OptionDef& d : OptionTable())
    if (d.reset != nullptr) d.reset(*job);
  const std::vector<bool> dropped = DroppedEngineOptions(*job);
  for (size_t i = 0; i < dropped.size(); ++i) {
    const OptionDef* def = FindOption(job->settings[i].name);
    if (def == nullptr || def->engines.empty() || dropped[i]) continue;
    const OptionSetting os = job->settings[i];  // re-applying appends, then drops, a record
    IOB_RETURN_IF_ERROR(ReapplySetting(job, os));
  }
  return Status::Ok();
}

// ioengine=cpuio (engines/cpuio.cc), shaped as fio 3.33's engine init
// shapes it: each I/O is one busy chunk of cpuchunks us (a read of no data),
// and a think time after every completed one makes the busy share cpuload
// percent: thinktime = cpuchunks x (100 - cpuload) / cpuload us, whatever
// thinktime= says. There is no file and nothing to reach: the job runs until
// its runtime, a stop or (exit_on_io_done) the end of the run's I/O jobs.
Status ShapeCpuioJob(JobSpec* job) {
  if (job->ioengine != "cpuio") return Status::Ok();
  if (job->cpuload == 0)
    return Status::Invalid(
        (job->FindSetting("cpuload") != nullptr
             ? SettingText(*job, "cpuload") + ": the cpuio engine needs a load above 0"
             : "job '" + job->name + "': " + SettingText(*job, "ioengine") +
                   " needs cpuload= (the percent of a CPU to burn, 1-100)") +
        " (fio: cpu thread needs rate (cpuload=))");
  job->cpuload = std::min<uint32_t>(job->cpuload, 100);
  job->rw = RwMode::kRead;
  job->thinktime_ns = job->cpuchunks_us * (100 - job->cpuload) / job->cpuload * 1000;
  job->thinktime_spin_ns = 0;
  job->thinktime_blocks = 1;
  job->thinktime_blocks_complete = true;
  job->thinktime_iotime_ns = 0;
  // No size to reach: the diskless region is far larger than any run.
  job->size = uint64_t{1} << 60;
  job->io_size = 0;
  job->loops = 1;
  // number_ios still caps the chunks (fio 3.33: number_ios=3 is 3 chunks,
  // with or without a runtime). A chunk moves no data, and fio's rate
  // limits (rate, rate_iops and their minimums) never hold one back; the
  // ones that contradict each other were refused before (CheckRate), as
  // fio refuses them for cpuio too.
  for (int d = 0; d < kNumDdirs; ++d)
    job->rate[d] = job->rate_min[d] = job->rate_iops[d] = job->rate_iops_min[d] = 0;
  job->time_based = job->runtime_ns != 0 && job->number_ios == 0;
  return Status::Ok();
}

// Applies settings in order (kb_base first, since it changes how sizes read),
// then validates cross-option rules. job->settings keeps the written order,
// kb_base included: fio applies command-line options one by one and lists
// them so in JSON's "global options" / "job options" (`--size=1m
// --kb_base=1000`: size, kb_base). For a job file the report moves kb_base
// and unit_base first, as fio's parse priorities do (report/json.cc).
// `file_job`: the settings are a job file's job, with the command-line
// globals at the end.
// `engine_checks`: false when the engine is swept (ParseInput::sweep_keys),
// whose points judge the engine options with their own engine.
// `job_rules`: false to check each option (and the engine options against
// their engines) but not the rules between options that a job applies: for
// a [global] section no job follows, which fio parses option by option
// into its defaults and fixes up only in a job.
Status ApplyAll(JobSpec* job, const std::vector<RawSetting>& settings,
                std::vector<std::string>* warnings, bool file_job = false,
                bool engine_checks = true, bool job_rules = true) {
  std::vector<RawSetting> owned;
  auto is_kb_base = [](const RawSetting& s) {
    const OptionDef* def = FindOption(s.key);
    return def != nullptr && def->name == "kb_base";
  };
  // A value is read with the kb_base in force in the section it is written
  // in, as fio parses it: that section's kb_base wherever it stands in it,
  // else the one inherited. A job's kb_base=1000 does not change a size its
  // [global] gave (fio: 4096 for [global] size=4k, [a] kb_base=1000; iobench
  // read 4000). The sections are the runs of one source: [global], the
  // job's own lines, the command-line globals. fio reads command-line
  // options before the job files, so for a job-file job those come last
  // here but hold the kb_base in force at the start (--kb_base=1000 a.fio
  // reads a.fio's 4k as 4000), and are read with it themselves.
  struct Run {
    size_t begin, end;
  };
  std::vector<Run> runs;
  for (size_t i = 0; i < settings.size(); ++i)
    if (runs.empty() || settings[i].source != settings[runs.back().begin].source)
      runs.push_back({i, i + 1});
    else
      runs.back().end = i + 1;
  const auto is_trailing_cli = [&](const Run& r) {
    return file_job && r.begin > 0 && settings[r.begin].source == OptionSource::kCommandLine;
  };
  // The command line's ioengine= too: fio has it in force before the job
  // file, so `[global] nowait=1` is valid with `--ioengine=pvsync2` (it was
  // refused as set under psync).
  uint32_t start_kb = job->kb_base;
  std::string cli_engine;
  for (const Run& r : runs) {
    if (!is_trailing_cli(r)) continue;
    JobSpec scratch;
    for (size_t i = r.begin; i < r.end; ++i) {
      const OptionDef* def = FindOption(settings[i].key);
      const bool engine = def != nullptr && def->name == "ioengine";
      if (is_kb_base(settings[i]) || engine)
        IOB_RETURN_IF_ERROR(ApplyOne(&scratch, settings[i], nullptr, nullptr));
      if (engine) cli_engine = scratch.ioengine;
    }
    start_kb = scratch.kb_base;
  }
  uint32_t in_force = start_kb;
  // The engine options of the global sections, kept as fio keeps them for
  // its default thread: `global_engine` is the engine in force there so far
  // (the command line's first: fio reads it before the job files),
  // `options_engine` the one the engine options kept were given under. A
  // section with engine options gives them under the engine it ends with,
  // after letting go of those of another engine (fio loads that engine
  // for the section, freeing the other's options). On the command line an
  // --ioengine= alone does it too: fio loads the engine as it reads it.
  // JobSpec::global_engines gets the engine each one was given under, ""
  // for one a later section let go of.
  std::string global_engine = cli_engine.empty() ? job->ioengine : cli_engine;
  std::string options_engine;
  // When the engine is swept (`engine_checks` false), a section's engine
  // options given under the engine the sections start with (no [global]
  // set ioengine= yet) go with each point's engine, as a command-line
  // --ioengine= would have them: kAnyEngine, checked at each point.
  bool sections_set_engine = false;
  // The owned settings a global section gave, with the engine each must
  // suit ("" for the others: the job's own engine).
  std::vector<std::string> owned_engines;
  // The section whose ioengine= and engine options are being read (others
  // in between change neither: BsAfterRanges may move a bs= among them).
  int section = -1;
  bool section_on_cmdline = false;
  std::vector<size_t> section_options;  // indices in `owned`
  std::vector<size_t> any_options;      // those given kAnyEngine
  bool section_sets_engine = false;
  const auto end_section = [&] {
    if (!section_options.empty() || (section_on_cmdline && section_sets_engine)) {
      const bool any = !engine_checks && !sections_set_engine;
      const std::string engine = any ? std::string(kAnyEngine) : global_engine;
      // Those of the swept engine hold at a point of this one's engine only
      // (there they were given under it), and must suit it.
      if (options_engine != engine) {
        for (std::string& e : job->global_engines) e = e == kAnyEngine ? engine : std::string();
        for (size_t k : any_options) owned_engines[k] = engine;
        any_options.clear();
      }
      options_engine = engine;
      for (size_t k : section_options) {
        owned_engines[k] = any ? std::string() : engine;
        job->global_engines.push_back(engine);
        if (any) any_options.push_back(k);
      }
    }
    section_options.clear();
    section_sets_engine = false;
  };
  for (const Run& r : runs) {
    // The kb_base records, taken out of job->settings after they are applied
    // and put back at their written places below.
    std::vector<std::vector<OptionSetting>> kb_records;
    job->kb_base = is_trailing_cli(r) ? start_kb : in_force;
    for (size_t i = r.begin; i < r.end; ++i) {
      if (!is_kb_base(settings[i])) continue;
      const size_t before = job->settings.size();
      IOB_RETURN_IF_ERROR(ApplyOne(job, settings[i], nullptr, warnings));
      kb_records.emplace_back(job->settings.begin() + static_cast<std::ptrdiff_t>(before),
                              job->settings.end());
      job->settings.resize(before);
    }
    const bool own_kb = !kb_records.empty();
    const uint32_t section_kb = job->kb_base;
    size_t kb_next = 0;
    const bool global = settings[r.begin].source == OptionSource::kGlobal;
    for (size_t i = r.begin; i < r.end; ++i) {
      if (is_kb_base(settings[i])) {
        for (OptionSetting& os : kb_records[kb_next]) job->settings.push_back(std::move(os));
        ++kb_next;
      } else {
        const size_t before = owned.size();
        IOB_RETURN_IF_ERROR(ApplyOne(job, settings[i], &owned, warnings));
        owned_engines.resize(owned.size());
        const OptionDef* def = FindOption(settings[i].key);
        if (global && owned.size() > before && def != nullptr &&
            (def->name == "ioengine" || !def->engines.empty())) {
          // On the command line fio loads an engine as it reads its
          // --ioengine=: the engine options before it were given under the
          // engine before it (--ioengine=io_uring --fixedbufs=1
          // --ioengine=libaio holds fixedbufs for io_uring jobs only).
          if (settings[i].section != section ||
              (def->name == "ioengine" && settings[i].file == kCmdline &&
               !section_options.empty() && job->ioengine != global_engine))
            end_section();
          section = settings[i].section;
          section_on_cmdline = settings[i].file == kCmdline;
          if (def->name == "ioengine") {
            global_engine = job->ioengine;
            section_sets_engine = sections_set_engine = true;
          } else {
            section_options.push_back(before);
          }
        }
      }
    }
    if (own_kb || !is_trailing_cli(r)) in_force = section_kb;
  }
  end_section();
  job->kb_base = in_force;  // the job's own (the reports' units follow it)
  // The job's own engine options suit its engine, which a swept engine
  // (`engine_checks` false) leaves to each point; a global section's suit
  // that section's engine, whatever the job's.
  for (size_t i = 0; i < owned.size(); ++i)
    if (engine_checks || !owned_engines[i].empty())
      IOB_RETURN_IF_ERROR(CheckEngineOption(*job, owned[i], owned_engines[i]));
  IOB_RETURN_IF_ERROR(ResolveEngineOptions(job));
  if (!job_rules) return Status::Ok();
  // As fio's fixup_options: a latency that is not measured has no
  // percentiles, whatever the order of the options (disable_lat=1 with
  // lat_percentiles=1 reports clat percentiles; terse read an empty lat
  // histogram).
  if (job->disable_lat) job->lat_percentiles = false;
  if (job->disable_clat) job->clat_percentiles = false;
  if (job->disable_slat) job->slat_percentiles = false;
  IOB_RETURN_IF_ERROR(CheckBlockSizes(*job));
  IOB_RETURN_IF_ERROR(CheckRate(*job));
  IOB_RETURN_IF_ERROR(ShapeCpuioJob(job));
  // man fio, pre_read: "will also clear the invalidate flag, since it is
  // pointless to pre-read and then drop the cache" (each later pass of a
  // loops or time_based job dropped it, and read the device again).
  if (job->pre_read) job->invalidate = false;
  // A checksum-verifying job writes iobench's verify data, every word of it
  // the generation's stream (the tear detection reads them back), so
  // buffer_compress_percentage does not shape it; fio zeroes part of each
  // chunk (2.01:1 at 50, iobench 1.02:1). Said, not silent.
  using VT = VerifyType;
  // Not at 100 (fio's fixup makes that zero_buffers with 0 %: random
  // verify data in both) nor with a verify_pattern (both write the pattern).
  if (warnings && job->buffer_compress_percentage > 0 && job->buffer_compress_percentage < 100 &&
      job->verify.pattern.empty() && HasWrite(job->rw) && job->verify.type != VT::kNone &&
      job->verify.type != VT::kPattern && job->verify.type != VT::kNull &&
      !job->verify.verify_only) {
    const OptionSetting c = SettingOf(*job, "buffer_compress_percentage");
    const OptionSetting vs = SettingOf(*job, "verify");
    const auto at = [](const OptionSetting& o) {
      return o.file == "<cmdline>" ? std::string(kCmdline) : o.Where();
    };
    const std::string what =
        "is not applied to the writes of a verifying job (verify=" + vs.value +
        "): iobench's verify data is incompressible, where fio zeroes part of each chunk";
    warnings->push_back(at(c) + ": warning: buffer_compress_percentage=" + c.value + " " + what);
    job->parse_notes.push_back("buffer_compress_percentage=" + c.value + " (" + at(c) + ") " +
                               what);
  }
  // fio's add_job: a bandwidth (IOPS) log without bwavgtime (iopsavgtime)
  // makes log_avg_msec the window of the report's samples too, so the
  // report's bw/iops min, max, mean and samples are the log's windows
  // (with log_avg_msec=0, per-I/O samples, fio's rule is not followed: the
  // window stays 500 ms, docs/output.md).
  if (job->log_avg_msec != 0) {
    if (job->bw_log_set && job->FindSetting("bwavgtime") == nullptr)
      job->bw_avg_ms = job->log_avg_msec;
    if (job->iops_log_set && job->FindSetting("iopsavgtime") == nullptr)
      job->iops_avg_ms = job->log_avg_msec;
  }
  // fio puts directory= in front of an absolute filename= too: with
  // directory=/mnt/t, filename=/dev/sdb is the file /mnt/t/dev/sdb in fio,
  // and would have been the device itself here. Neither is safe to guess.
  if (!job->directory.empty()) {
    // The refusal of an absolute `value` of `option` (filename, or
    // filename_format) beside directory=, naming the line that set it.
    const auto refuse = [&](const char* option, const std::string& value) {
      const RawSetting* at = nullptr;
      for (const auto& s : owned) {
        const OptionDef* def = FindOption(s.key);
        if (def && (def->name == option ||
                    (std::string_view(option) == "filename" && def->name == "directory")))
          at = &s;
      }
      std::string dir;  // the first part of directory= (empty parts skipped, as fio)
      for (const auto& d : SplitEscaped(job->directory, ':'))
        if (dir.empty()) dir = d;
      const std::string msg = std::string(option) + "=" + value +
                              " is an absolute path but directory=" + job->directory +
                              " is set: fio would use " +
                              (dir.back() == '/' ? dir.substr(0, dir.size() - 1) : dir) + value +
                              "; remove one of the two options";
      if (at) return Diag(*at, at->key_col, msg);
      return Status::Invalid("job '" + job->name + "': " + msg);
    };
    for (const auto& f : job->filenames)
      if (!f.empty() && f[0] == '/') return refuse("filename", f);
    // The same for the names filename_format makes: fio writes
    // filename_format=/dev/loop0 as the file <directory>/dev/loop0, and
    // the name alone is the device (or, with unlink=1, a file to delete).
    // (A name absolute through $jobname goes under directory=, as fio's.)
    const std::string& fmt = job->filename_format;
    if (job->filenames.empty() && job->opendir.empty() && job->read_iolog.empty() && !fmt.empty() &&
        fmt[0] == '/')
      return refuse("filename_format", fmt);
  }
  return Status::Ok();
}

// The directions (read, write, trim) a bs, bsrange or bssplit value sets,
// by the per-direction rule (",16k/100" sets writes and trims). A value
// that does not expand counts as all three; applying it reports the error.
std::array<bool, kNumDdirs> DirsSet(const RawSetting& s) {
  std::array<bool, kNumDdirs> out{true, true, true};
  auto text = Expand(s.value, nullptr);
  if (s.bare || !text) return out;
  auto parts = SplitPerDirection(*text);
  for (int d = 0; d < kNumDdirs; ++d) out[d] = parts[static_cast<size_t>(d)].text.has_value();
  return out;
}

// In fio a bs= never overrides a bsrange= or bssplit= of the same job,
// whichever comes first: [global] bssplit=4k/50:64k/50 then bs=8k in a job
// runs the split (fio's t0002), [global] bsrange=4k-4k then bs=16k runs 4k
// (BlockSizeOptions; the setters do it). Here a bs= written after the first
// bsrange= or bssplit= moves in front of it, which changes nothing for the
// job but keeps the options it records in an order that means the same on
// one command line (--showcmd); and the job's report says what bs= lost (a
// note, not stderr: scripts such as fio's test runner fail on any stderr).
// Command-line globals still override a job file's block sizes, by design.
std::vector<RawSetting> BsAfterRanges(const std::vector<RawSetting>& settings,
                                      std::vector<std::string>* notes) {
  auto name_of = [](const RawSetting& s) {
    const OptionDef* def = FindOption(s.key);
    return def != nullptr ? def->name : std::string();
  };
  auto sets_range = [](const std::string& name) { return name == "bsrange" || name == "bssplit"; };
  // The bsrange= or bssplit= that sets each direction's range in the end.
  const RawSetting* range_of[kNumDdirs] = {};
  for (const auto& s : settings) {
    if (!sets_range(name_of(s))) continue;
    const auto dirs = DirsSet(s);
    for (int d = 0; d < kNumDdirs; ++d)
      if (dirs[d]) range_of[d] = &s;
  }
  static const char* const kDirs[kNumDdirs] = {"reads", "writes", "trims"};
  std::vector<RawSetting> kept;
  size_t first_range = std::string::npos;  // where in `kept`
  for (const auto& s : settings) {
    const std::string name = name_of(s);
    if (sets_range(name) && first_range == std::string::npos) first_range = kept.size();
    if (name != "bs") {
      kept.push_back(s);
      continue;
    }
    const auto dirs = DirsSet(s);
    std::vector<std::string> lost;
    std::vector<const RawSetting*> ranges;  // in written order
    bool all = true;
    for (int d = 0; d < kNumDdirs; ++d) {
      if (!dirs[d]) continue;
      if (range_of[d] == nullptr) {
        all = false;
        continue;
      }
      lost.push_back(kDirs[d]);
      if (std::find(ranges.begin(), ranges.end(), range_of[d]) == ranges.end())
        ranges.push_back(range_of[d]);
    }
    // A bs= before them is overridden as one expects; only a later one is told.
    if (!ranges.empty() && first_range != std::string::npos) {
      std::sort(ranges.begin(), ranges.end());
      auto join = [](const std::vector<std::string>& v, const char* last) {
        std::string out;
        for (size_t i = 0; i < v.size(); ++i)
          out += (i == 0 ? "" : i + 1 == v.size() ? last : ", ") + v[i];
        return out;
      };
      // "bssplit (t.fio:2, t.fio:4)", "bsrange (t.fio:3) and bssplit (t.fio:2)".
      std::vector<std::pair<std::string, std::vector<std::string>>> where;
      for (const RawSetting* p : ranges) {
        auto it = std::find_if(where.begin(), where.end(),
                               [&](const auto& w) { return w.first == p->key; });
        if (it == where.end()) it = where.insert(where.end(), {p->key, {}});
        if (std::find(it->second.begin(), it->second.end(), Where(*p)) == it->second.end())
          it->second.push_back(Where(*p));
      }
      std::vector<std::string> by;
      for (const auto& [key, at] : where) by.push_back(key + " (" + join(at, ", ") + ")");
      notes->push_back(s.key + "=" + s.value + " (" + Where(s) + ") is ignored" +
                       (all ? ": " + join(by, " and ") + " sets the block sizes"
                            : " for " + join(lost, " and ") + ": " + join(by, " and ") +
                                  " sets their block sizes") +
                       ", as in fio");
    }
    if (first_range == std::string::npos) {
      kept.push_back(s);
    } else {
      kept.insert(kept.begin() + static_cast<ptrdiff_t>(first_range), s);
      ++first_range;
    }
  }
  return kept;
}

JobSpec NewJob(const std::string& name, const std::string& file, int index, int line) {
  JobSpec j;
  j.name = name;
  j.section = name;
  j.job_file = file;
  j.job_file_index = index;
  j.line = line;
  j.filename_format = "$jobname.$jobnum.$filenum";
  return j;
}

// Command-line job options: globals and jobs. Globals are the options
// before the first --name and those after a --name=global... (fio's
// parse_cmd_line: a --name starting with "global" opens a global section,
// not a job). A command-line job takes the globals given before its --name,
// as in fio; a job file's jobs take them all.
struct CliJobs {
  std::vector<RawSetting> globals;
  std::vector<Section> jobs;
  std::vector<size_t> globals_before;  // per job: how many globals precede it
};

// An argument that is surely an option, never a value: "--anything", or
// "-known_option..." (a value such as -8k stays a value).
bool LooksLikeOption(const std::string& a) {
  if (a.size() > 2 && a.rfind("--", 0) == 0) return true;
  if (a.size() < 2 || a[0] != '-') return false;
  std::string key =
      a.substr(1, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 1);
  return FindOption(key) != nullptr || IsFioOnlyOption(key);
}

Result<CliJobs> ParseCliJobArgs(const std::vector<std::string>& args) {
  CliJobs out;
  for (const std::string& a : args) {
    std::string bad;
    if (size_t at = FirstNonUtf8(a, 0, a.size(), &bad); at != std::string_view::npos)
      return Status::Invalid(FormatDiagnostic(kCmdline, 0, static_cast<int>(at) + 1, bad, a));
  }
  bool in_global = true;   // until the first --name
  int global_section = 1;  // RawSetting::section
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    RawSetting r;
    r.file = kCmdline;
    r.line = 0;
    r.text = a;
    r.source = OptionSource::kCommandLine;
    size_t dashes = a.rfind("--", 0) == 0 ? 2 : a.rfind("-", 0) == 0 ? 1 : 0;
    if (dashes == 0)
      return Status::Invalid(FormatDiagnostic(
          kCmdline, 0, 1, "expected a job option starting with '-', got '" + a + "'", a));
    std::string body = a.substr(dashes);
    size_t eq = body.find('=');
    r.key = body.substr(0, eq);
    r.key_col = static_cast<int>(dashes) + 1;
    if (eq != std::string::npos) {
      r.value = body.substr(eq + 1);
      r.bare = false;
      r.value_col = static_cast<int>(dashes + eq) + 2;
    } else if (i + 1 < args.size() && OptionTakesValue(r.key) && LooksLikeOption(args[i + 1])) {
      // fio (getopt) would take `--name --rw=write` as a job named
      // "--rw=write" and drop the rw option: refuse instead.
      return Status::Invalid(FormatDiagnostic(
          kCmdline, 0, r.key_col,
          "option '" + r.key + "' needs a value, but the next argument '" + args[i + 1] +
              "' is an option; write " + std::string(dashes, '-') + r.key + "=VALUE",
          a));
    } else if (i + 1 < args.size() ? NextArgIsValue(r.key, args[i + 1]) : OptionTakesValue(r.key)) {
      if (i + 1 >= args.size())
        return Status::Invalid(
            FormatDiagnostic(kCmdline, 0, r.key_col, "option '" + r.key + "' needs a value", a));
      r.value = args[++i];
      r.bare = false;
      r.value_next_arg = true;
      r.text = a + " " + r.value;
      r.value_col = static_cast<int>(a.size()) + 2;
    }
    // A control character is refused in a job file (lexer.cc) and in what a
    // ${VAR} brings; on the command line `--name=$'a\nb'` split the terse
    // record in two and `--filename=$'x\ny'` made a file with a newline
    // in its name.
    const auto refuse_control = [&](const std::string& t, size_t k, int col, const char* where) {
      return Status::Invalid(FormatDiagnostic(kCmdline, 0, col + static_cast<int>(k),
                                              "option '" + r.key + "': control character (" +
                                                  sys::ControlName(t[k]) + ") in " + where +
                                                  ": it is refused, as it is in a job file",
                                              r.text));
    };
    if (size_t k = sys::ValueControlAt(r.key); k != std::string::npos)
      return refuse_control(r.key, k, r.key_col, "the name");
    if (size_t k = sys::ValueControlAt(r.value); !r.bare && k != std::string::npos)
      return refuse_control(r.value, k, r.value_col, "the value");
    if (r.key == "name" && !r.bare) {
      // fio: "option name requires an argument"; a job named "" is no use.
      if (Trim(r.value).empty())
        return Status::Invalid(
            FormatDiagnostic(kCmdline, 0, r.value_col, "option 'name' needs a value", r.text));
      in_global = IsGlobalName(r.value);
      if (in_global) {
        // Kept as a global setting: it renames no job (ApplyOne), but fio
        // lists it first under the JSON "global options".
        r.section = ++global_section;
        out.globals.push_back(std::move(r));
        continue;
      }
      Section s;
      s.name = r.value;
      s.file = kCmdline;
      out.jobs.push_back(std::move(s));
      out.globals_before.push_back(out.globals.size());
      continue;
    }
    if (in_global) {
      r.section = global_section;
      out.globals.push_back(std::move(r));
    } else {
      out.jobs.back().entries.push_back(std::move(r));
    }
  }
  return out;
}

// A command-line value with a blank at its start or end: iobench trims it
// where it reads a number or a keyword, fio keeps it, and then reads a
// number without its unit (`--bs=' 4k'` is 4 bytes, `--runtime=' 500ms'`
// 500 s) or refuses a keyword (`--rw=' write'`, `--rw='write '`). A job
// file's blanks around '=' get the same kind of warning (FileReader).
// Free text (`--name=' b'`) keeps its blanks in both tools, and a number's
// trailing blank means nothing to either; both trim a filename= value.
std::optional<std::string> CliBlankWarning(const RawSetting& r) {
  const OptionDef* def = FindOption(r.key);
  if (def == nullptr || r.bare || r.value.empty() || FioTrimsValue(r.key)) return std::nullopt;
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  const bool lead = blank(r.value.front()), trail = blank(r.value.back());
  if (!lead && !trail) return std::nullopt;
  if (def->type == OptType::kStr || def->type == OptType::kBool) return std::nullopt;
  const std::string t = Trim(r.value);
  const bool keyword = def->type == OptType::kEnum || def->name == "rw" ||
                       def->name == "rw_sequencer" || def->name == "ioengine" ||
                       def->name == "sync";
  const bool number =
      def->type == OptType::kInt || def->type == OptType::kSize || def->type == OptType::kTime;
  std::string fio;
  if (keyword) {
    fio = "fio keeps the blank and refuses the value";
  } else if (number) {
    const size_t digits = t.find_first_not_of("0123456789");
    if (!lead || digits == 0 || digits == std::string::npos || t.rfind("0x", 0) == 0)
      return std::nullopt;
    fio =
        "fio keeps the blank and then reads the number without its unit, as " + t.substr(0, digits);
  } else {
    fio = "fio keeps the blank and may read the value differently";
  }
  std::string portable = t;
  CommaBlankFioReading(r.key, t, &portable);
  const std::string dashes(static_cast<size_t>(r.key_col - 1), '-');
  return std::string(kCmdline) + ": warning: option '" + r.key + "': the value '" + r.value + "' " +
         (lead && trail ? "has blanks at both ends"
          : lead        ? "starts with a blank"
                        : "ends with a blank") +
         ": iobench reads it as '" + t + "', but " + fio + "; write " +
         sys::ShellWord(dashes + r.key + "=" + portable) + " to mean the same to both";
}

// One warning per command-line value: its edge blanks (whose suggestion
// drops the blanks after commas too), or else the blanks after commas.
std::optional<std::string> CliValueWarning(const RawSetting& r) {
  if (auto w = CliBlankWarning(r)) return w;
  return CommaBlankWarning(r);
}

// Whether --section selects `name`; marks every entry naming it as used (a
// name given twice is not "a section that matches nothing").
bool MarkSelected(const std::vector<std::string>& select, const std::string& name,
                  std::vector<bool>* used) {
  bool any = false;
  for (size_t i = 0; i < select.size(); ++i) {
    if (select[i] != name) continue;
    (*used)[i] = true;
    any = true;
  }
  return any;
}

// Turns the sections of one job file into jobs.
Status BuildFileJobs(std::vector<Section>& sections, const std::string& display, int index,
                     const std::vector<RawSetting>& cli_globals,
                     const std::vector<std::string>& select, std::vector<JobSpec>* jobs,
                     std::vector<bool>* section_used, std::vector<std::string>* warnings,
                     bool engine_checks = true) {
  std::vector<RawSetting> globals;
  int global_sections = 0;
  // How many of `globals` a job was built with (one --section leaves out
  // builds none).
  size_t globals_parsed = 0;
  // Parses `own` (a job's lines) under the [global] lines so far and the
  // command-line globals into `job`.
  const auto apply = [&](JobSpec* job, const std::vector<RawSetting>& own, bool job_rules) {
    std::vector<RawSetting> all = globals;
    for (auto e : own) {
      e.source = OptionSource::kJob;
      all.push_back(std::move(e));
    }
    all = BsAfterRanges(all, &job->parse_notes);
    for (const auto& g : cli_globals) {
      const OptionDef* def = FindOption(g.key);
      // A --name=global names no file job. Without a job (`job_rules`
      // false) only the engine and kb_base the command line has in force
      // before the file count, for its [global] lines; the other options
      // are checked where a job takes them, or when none does (ParseJobs).
      if (g.key == "name" ||
          (!job_rules && (def == nullptr || (def->name != "ioengine" && def->name != "kb_base"))))
        continue;
      all.push_back(g);
      all.back().layer = 1;
    }
    globals_parsed = globals.size();
    return ApplyAll(job, all, warnings, /*file_job=*/true, engine_checks, job_rules);
  };
  const Section* last_global = nullptr;
  for (auto& sec : sections) {
    if (sec.global) {
      ++global_sections;
      for (auto e : sec.entries) {
        e.source = OptionSource::kGlobal;  // a `name=` here renames no job (ApplyOne)
        e.section = global_sections;
        globals.push_back(std::move(e));
      }
      last_global = &sec;
      continue;
    }
    if (!select.empty() && !MarkSelected(select, sec.name, section_used)) continue;
    JobSpec job = NewJob(sec.name, display, index, sec.line);
    IOB_RETURN_IF_ERROR(apply(&job, sec.entries, /*job_rules=*/true));
    jobs->push_back(std::move(job));
  }
  // fio parses a [global] section as it reads it, whether a job follows or
  // not ("failed parsing bs=abc", rc 1): the lines no job took (a [global]
  // after the last job, or in a file of only [global]) are checked as they
  // would be for a job below them, each option and the engine options
  // against the engine their section ends with.
  if (globals.size() > globals_parsed) {
    JobSpec scratch = NewJob(last_global->name, display, index, last_global->line);
    IOB_RETURN_IF_ERROR(apply(&scratch, {}, /*job_rules=*/false));
  }
  return Status::Ok();
}

// A [global] option is applied to every job below it; warn once.
void DedupeWarnings(std::vector<std::string>* w) {
  std::vector<std::string> out;
  for (auto& s : *w)
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(std::move(s));
  *w = std::move(out);
}

}  // namespace

bool IsJobOption(const std::string& name) { return FindOption(name) != nullptr; }

bool OptionTakesValue(const std::string& name) {
  const OptionDef* d = FindOption(name);
  if (!d) return false;
  return !BareAllowed(*d);
}

Result<ParseOutput> ParseJobText(const std::string& text, const std::string& display_name,
                                 const std::string& base_dir) {
  ParseOutput out;
  FileReader reader(&out.warnings);
  std::vector<std::string> stack;
  IOB_RETURN_IF_ERROR(reader.ReadText(text, display_name, base_dir, &stack));
  std::vector<bool> used;
  IOB_RETURN_IF_ERROR(
      BuildFileJobs(reader.sections(), display_name, 0, {}, {}, &out.jobs, &used, &out.warnings));
  DedupeWarnings(&out.warnings);
  return out;
}

Result<ParseOutput> ParseJobs(const ParseInput& in) {
  ParseOutput out;
  const bool engine_checks =
      std::none_of(in.sweep_keys.begin(), in.sweep_keys.end(), [](const std::string& k) {
        const OptionDef* def = FindOption(k);
        return def != nullptr && def->name == "ioengine";
      });
  IOB_ASSIGN_OR_RETURN(CliJobs cli, ParseCliJobArgs(in.cli_job_args));
  for (const auto& r : cli.globals)
    if (auto w = CliValueWarning(r)) out.warnings.push_back(*w);
  for (const auto& sec : cli.jobs)
    for (const auto& r : sec.entries)
      if (auto w = CliValueWarning(r)) out.warnings.push_back(*w);
  // Refuse unknown command-line option names before reading any job file,
  // so a typo is reported as itself and not as a missing file.
  {
    JobSpec scratch;
    for (const auto& g : cli.globals)
      if (!FindOption(g.key) && !IsSoftDeprecatedFioOption(g.key))
        IOB_RETURN_IF_ERROR(ApplyOne(&scratch, g, nullptr, nullptr));
    for (const auto& sec : cli.jobs)
      for (const auto& e : sec.entries)
        if (!FindOption(e.key) && !IsSoftDeprecatedFioOption(e.key))
          IOB_RETURN_IF_ERROR(ApplyOne(&scratch, e, nullptr, nullptr));
  }
  std::vector<bool> section_used(in.sections.size(), false);
  bool stdin_used = false;
  int index = 0;
  for (const auto& f : in.job_files) {
    FileReader reader(&out.warnings, in.sections);
    std::vector<std::string> stack;
    if (f == "-") {
      if (stdin_used) return Status::Invalid("iobench: '-' (stdin) given more than once");
      stdin_used = true;
      // Read with read(2): std::cin turned a closed stdin or a directory
      // (EBADF, EISDIR) into an empty text, "the job files define no jobs".
      Result<std::string> text = ReadJobText(STDIN_FILENO, "from stdin ('-')");
      if (!text.ok())
        return Status::Invalid(text.status().errno_value() != 0
                                   ? "iobench: cannot read the job file from stdin ('-'): " +
                                         std::string(std::strerror(text.status().errno_value()))
                                   : "iobench: " + text.status().message());
      char cwd[PATH_MAX];
      std::string base = getcwd(cwd, sizeof(cwd)) ? cwd : ".";
      IOB_RETURN_IF_ERROR(
          WithResultsFileHint(reader.ReadText(*text, "<stdin>", base, &stack), *text, f));
    } else {
      auto content = ReadWholeFile(f);
      if (!content.ok()) return Status::Invalid("iobench: " + content.status().message());
      // The canonical path only serves include-cycle detection; pipes such
      // as /dev/fd/63 have none, and that is fine. A relative include is
      // looked for in the directory of the path as given, which fio puts in
      // front of the include's name: for a symlinked job file that is the
      // link's directory, not the target's.
      char real[PATH_MAX];
      std::string canon = realpath(f.c_str(), real) ? std::string(real) : f;
      stack.push_back(canon);
      out.files_read.push_back(f);
      IOB_RETURN_IF_ERROR(
          WithResultsFileHint(reader.ReadText(*content, f, DirName(f), &stack), *content, f));
    }
    out.files_read.insert(out.files_read.end(), reader.included().begin(), reader.included().end());
    size_t before = out.jobs.size();
    IOB_RETURN_IF_ERROR(BuildFileJobs(reader.sections(), f == "-" ? "<stdin>" : f, index,
                                      cli.globals, in.sections, &out.jobs, &section_used,
                                      &out.warnings, engine_checks));
    // /dev/null stands for "no job file" (as fio reads it): no warning.
    struct stat dev_sb;
    const bool null_device = f != "-" && stat(f.c_str(), &dev_sb) == 0 && S_ISCHR(dev_sb.st_mode) &&
                             reader.sections().empty();
    if (out.jobs.size() == before && in.sections.empty() && !null_device)
      out.warnings.push_back((f == "-" ? std::string("<stdin>") : f) +
                             ": warning: job file defines no jobs");
    ++index;
  }
  // --section selects command-line jobs too: each --name starts a section
  // of that name (`--section=b --name=a ... f.fio` runs only b). fio 3.33
  // filters only the --name jobs after --section, and only the first job
  // file; iobench selects wherever they stand (docs/jobfile.md).
  auto selected = [&](const std::string& name) {
    return in.sections.empty() || MarkSelected(in.sections, name, &section_used);
  };
  std::vector<bool> cli_selected;
  for (const auto& sec : cli.jobs) cli_selected.push_back(selected(sec.name));
  for (size_t i = 0; i < in.sections.size(); ++i)
    if (!section_used[i])
      return Status::Invalid("iobench: --section=" + in.sections[i] +
                             " matches no job of the job files or the command line");
  // fio runs the command-line jobs first, and the first job file's jobs
  // carry on in their group without a wall (`fio --name=c ... a.fio` runs c
  // and a's jobs together); iobench ran them after the files, as a group of
  // their own. Hence index 0 and the front of the list.
  std::vector<JobSpec> cli_jobs;
  for (size_t k = 0; k < cli.jobs.size(); ++k) {
    if (!cli_selected[k]) continue;
    auto& sec = cli.jobs[k];
    JobSpec job = NewJob(sec.name, "", 0, 0);
    std::vector<RawSetting> all;
    for (size_t g = 0; g < cli.globals_before[k]; ++g) {
      all.push_back(cli.globals[g]);
      all.back().source = OptionSource::kGlobal;  // globals of the command-line jobs
    }
    for (auto& e : sec.entries) all.push_back(e);
    all = BsAfterRanges(all, &job.parse_notes);
    IOB_RETURN_IF_ERROR(ApplyAll(&job, all, &out.warnings, false, engine_checks));
    // The options before the first --name stay globals (file "<cmdline>"):
    // fio's JSON lists them under "global options", the job's own under
    // "job options", and here the job's own beat them, as in fio.
    cli_jobs.push_back(std::move(job));
  }
  out.jobs.insert(out.jobs.begin(), std::make_move_iterator(cli_jobs.begin()),
                  std::make_move_iterator(cli_jobs.end()));
  DedupeWarnings(&out.warnings);
  if (out.jobs.empty()) {
    // No job took the command-line options, so their values were not read:
    // `--bs=abc` (fio: "failed parsing bs=abc") and `--bs s.fio` (the job
    // file taken as the value) were refused as "no jobs defined".
    {
      JobSpec scratch;
      IOB_RETURN_IF_ERROR(ApplyAll(&scratch, cli.globals, nullptr, false, false));
    }
    if (in.job_files.empty())
      return Status::Invalid(
          "iobench: no jobs defined: give a job file, or job options with --name=NAME");
    // Every file was read (an error stopped earlier): name them.
    std::vector<std::string> names;
    for (const auto& f : in.job_files) {
      const std::string n = f == "-" ? "<stdin>" : f;
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    }
    std::string list;
    for (size_t i = 0; i < names.size(); ++i)
      list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return Status::Invalid("iobench: the job file" + std::string(names.size() == 1 ? " " : "s ") +
                           list + (names.size() == 1 ? " defines" : " define") +
                           " no jobs (a job starts with [name]; [global] only holds defaults)");
  }
  return out;
}

Status SetOption(JobSpec* job, const std::string& name, const std::string& value,
                 std::vector<std::string>* warnings) {
  RawSetting r;
  r.key = name;
  r.value = value;
  r.bare = false;
  r.source = OptionSource::kCommandLine;
  // A --sweep value: recorded, and named by errors ("rate_iops (<sweep>)"),
  // as set there, not on the command line ("command line: option ..." read
  // as if the user had typed --ioengine=syslet-rw).
  r.file = "<sweep>";
  r.layer = 2;
  r.text = name + "=" + value;
  r.key_col = 1;
  r.value_col = static_cast<int>(name.size()) + 2;
  IOB_RETURN_IF_ERROR(ApplyAll(job, {r}, warnings));
  // A new engine must still accept the engine options the job sets.
  return CheckEngineOptions(*job);
}

namespace {
// For each of job.settings, the engine a global section gave it under
// (JobSpec::global_engines: "" for one a later section let go of), or
// nullptr when it is no engine option of a global section.
std::vector<const std::string*> GlobalEngineOf(const JobSpec& job) {
  static const std::string kNone;
  std::vector<const std::string*> out(job.settings.size(), nullptr);
  size_t k = 0;
  for (size_t i = 0; i < job.settings.size(); ++i) {
    const OptionSetting& s = job.settings[i];
    const OptionDef* def = FindOption(s.name);
    if (s.source != OptionSource::kGlobal || def == nullptr || def->engines.empty()) continue;
    out[i] = k < job.global_engines.size() ? &job.global_engines[k] : &kNone;
    ++k;
  }
  return out;
}
}  // namespace

Status CheckEngineOptions(const JobSpec& job) {
  const std::vector<const std::string*> given_under = GlobalEngineOf(job);
  for (size_t i = 0; i < job.settings.size(); ++i) {
    const OptionSetting& s = job.settings[i];
    // A global section's suits that section's engine, which the parse
    // checked (a sweep's ioengine= only decides whether the job uses it),
    // unless it goes with the job's (kAnyEngine).
    if (s.source == OptionSource::kGlobal &&
        (given_under[i] == nullptr || *given_under[i] != kAnyEngine))
      continue;
    RawSetting prev;
    prev.key = s.name;
    prev.file = s.file;
    prev.line = s.line;
    IOB_RETURN_IF_ERROR(CheckEngineOption(job, prev));
  }
  return Status::Ok();
}

std::vector<bool> DroppedEngineOptions(const JobSpec& job) {
  const std::vector<const std::string*> given_under = GlobalEngineOf(job);
  std::vector<bool> dropped(job.settings.size(), false);
  for (size_t i = 0; i < given_under.size(); ++i)
    dropped[i] = given_under[i] != nullptr && *given_under[i] != job.ioengine &&
                 *given_under[i] != kAnyEngine;
  return dropped;
}

bool NextArgIsValue(const std::string& name, const std::string& next) {
  if (LooksLikeOption(next)) return false;
  const OptionDef* d = FindOption(name);
  if (!d) {
    // A fio option iobench lacks most likely takes a value too (fio's
    // `-zonemode zbd`): keep the value with it, so the refusal names the
    // option instead of complaining about a job file called "zbd".
    return IsFioOnlyOption(name) && !next.empty() && next[0] != '-';
  }
  bool b;
  if (d->type == OptType::kBool)
    return ParseBoolWord(next, &b);  // `-direct 1`, not `-thread x.fio`
  if (d->name == "sync") {
    std::string l = ToLower(next);
    return l == "none" || l == "sync" || l == "dsync" || ParseBoolWord(l, &b);
  }
  if (BareAllowed(*d)) return !next.empty() && next[0] != '-';  // write_*_log PREFIX
  return true;
}

std::string SuggestCommandLineOption(const std::string& name, bool prefixes) {
  std::vector<std::string> tools;
  for (const auto& t : ToolOptions()) tools.push_back(t.name);
  const std::string sug = SuggestOption(name, tools, prefixes);
  if (sug.empty() || FindOption(sug) != nullptr) return sug;
  return "--" + sug;
}

Result<SplitArgsResult> SplitArgs(const std::vector<std::string>& argv,
                                  const std::vector<ToolOptionSpec>& tools) {
  // fio 3.33's one-letter forms of its command-line options (the `val` of
  // each row of l_opts in its init.c; getopt_long_only reads `-C host` as
  // --client). A lone `-C` is its long form: a tool option, or the refusal
  // of one iobench lacks ("unknown option 'C'" did not say which).
  // clang-format off
  static const std::pair<char, const char*> kFioShort[] = {
      {'o', "output"}, {'l', "latency-log"}, {'b', "bandwidth-log"}, {'m', "minimal"},
      {'F', "output-format"}, {'f', "append-terse"}, {'v', "version"}, {'h', "help"},
      {'c', "cmdhelp"}, {'i', "enghelp"}, {'s', "showcmd"}, {'r', "readonly"}, {'e', "eta"},
      {'O', "eta-interval"}, {'E', "eta-newline"}, {'d', "debug"}, {'P', "parse-only"},
      {'x', "section"}, {'X', "inflate-log"}, {'a', "alloc-size"}, {'p', "profile"},
      {'w', "warnings-fatal"}, {'j', "max-jobs"}, {'V', "terse-version"}, {'S', "server"},
      {'D', "daemonize"}, {'C', "client"}, {'R', "remote-config"}, {'T', "cpuclock-test"},
      {'G', "crctest"}, {'M', "memcpytest"}, {'I', "idle-prof"}, {'L', "status-interval"},
      {'W', "trigger-file"}, {'B', "trigger-timeout"}, {'H', "trigger"}, {'J', "trigger-remote"},
      {'K', "aux-path"}, {'A', "merge-blktrace-only"}};
  // clang-format on
  SplitArgsResult out;
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string a = argv[i];
    std::string typed;  // "-C" when `a` is its long form "--client"
    if (a.size() == 2 && a[0] == '-')
      for (const auto& [letter, name] : kFioShort)
        if (a[1] == letter) typed = std::exchange(a, std::string("--") + name);
    if (a.size() > 2 && a[0] == '-' && a[1] != '-') {
      // getopt_long_only reads `-ofile` as `-o file` when "ofile" names no
      // long option: the value stuck to a letter that takes one. A job or
      // tool option's name (`-offset=4k`, `-eta=never`), or one of fio's
      // that iobench lacks (`-cgroup x`), stays what it is.
      const std::string name = a.substr(1, a.find('=') - 1);
      bool known = FindOption(name) != nullptr || IsFioOnlyOption(name);
      for (const auto& t : tools) known |= t.name == name;
      for (const char* f : kFioToolOnly) known |= name == f;
      for (const auto& [letter, lname] : kFioShort) {
        if (known || a[1] != letter) continue;
        const ToolOptionSpec* tool = nullptr;
        for (const auto& t : tools)
          if (t.name == lname) tool = &t;
        bool fio_only = false;
        for (const char* f : kFioToolOnly) fio_only |= std::string_view(lname) == f;
        if ((!tool || tool->arg == ToolArg::kNone) && !fio_only) continue;
        // getopt's reading swallows a misspelled long option whole
        // (-ofset=4k wrote the report to a file named "fset=4k"): a stuck
        // value with '=' whose word is within "did you mean" of an option
        // is that typo, and refused; -ofile and -o fset=4k stay as they are.
        const std::string stuck = a.substr(2);
        if (stuck.find('=') != std::string::npos)
          if (std::string sug = SuggestCommandLineOption(name, false); !sug.empty()) {
            if (sug.rfind("--", 0) != 0) sug = "--" + sug;
            return Status::Invalid(
                "iobench: " + a + ": read as -" + a[1] + " '" + stuck + "' (--" + lname + "=" +
                stuck + ")" + (fio_only ? ", a fio option iobench does not support" : "") +
                "; did you mean " + sug + a.substr(a.find('=')) + "? If -" + a[1] +
                " with that value is meant, write -" + a[1] + " " + stuck);
          }
        typed = std::exchange(a, std::string("--") + lname + "=" + stuck).substr(0, 2);
      }
    }
    if (a == "--") {
      // The getopt convention fio follows: everything after "--" is a job
      // file (it was refused as "unknown option ''").
      out.job_files.insert(out.job_files.end(), argv.begin() + static_cast<ptrdiff_t>(i) + 1,
                           argv.end());
      break;
    }
    if (a == "-" || a.empty() || a[0] != '-') {
      out.job_files.push_back(a);
      continue;
    }
    size_t dashes = a.rfind("--", 0) == 0 ? 2 : 1;
    std::string body = a.substr(dashes);
    size_t eq = body.find('=');
    std::string key = body.substr(0, eq);
    const ToolOptionSpec* tool = nullptr;
    for (const auto& t : tools)
      if (t.name == key) tool = &t;
    if (tool) {
      if (eq != std::string::npos) {
        if (tool->arg == ToolArg::kNone)
          return Status::Invalid("iobench: option '--" + key + "' takes no value");
        // CLI11 reads "--output=" as "--output" and took the next argument
        // as its value: --output= --output-format=terse wrote the report to
        // a file named "--output-format=terse".
        if (tool->arg == ToolArg::kRequired && eq + 1 == body.size())
          return Status::Invalid("iobench: option '--" + key + "' needs a value (it is empty)");
        out.tool_args.push_back("--" + body);
      } else if (tool->arg == ToolArg::kRequired) {
        if (i + 1 >= argv.size())
          return Status::Invalid("iobench: option '--" + key + "' needs a value");
        // As for job options: `--output --minimal two.fio` wrote the report
        // to a file named "--minimal", and `--output --name=a ...` lost the
        // job. An option is not taken as a separated value; attached, it is.
        const std::string& next = argv[i + 1];
        // "--" too: the end of the options, not a file name (--output --
        // wrote the report to a file named "--").
        bool next_is_option = LooksLikeOption(next) || next == "--";
        if (!next_is_option && next.size() > 1 && next[0] == '-') {
          const std::string nk = next.substr(next.rfind("--", 0) == 0 ? 2 : 1);
          for (const auto& t : tools) next_is_option |= t.name == nk.substr(0, nk.find('='));
        }
        if (next_is_option)
          return Status::Invalid(
              "iobench: option '--" + key + "' needs a value, but the next argument '" + next +
              "' is an option; write --" + key + "=VALUE (--" + key + "=" +
              (key == "output" ? "./" : "") + next + " if that is really the value)");
        out.tool_args.push_back("--" + key + "=" + argv[++i]);
      } else {
        out.tool_args.push_back("--" + key);
      }
      continue;
    }
    for (const char* f : kFioToolOnly)
      if (key == f)
        return Status::Invalid("iobench: '" + (typed.empty() ? "" : typed + "' ('") + "--" + key +
                               (typed.empty() ? "'" : "')") +
                               " is a fio command-line option that iobench does not support");
    out.job_args.push_back(a);
    if (eq == std::string::npos && i + 1 < argv.size() && NextArgIsValue(key, argv[i + 1]))
      out.job_args.push_back(argv[++i]);
  }
  return out;
}

}  // namespace iobench::jobfile
