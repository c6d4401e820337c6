// Texts generated from the option table: docs/options.md, --cmdhelp,
// --enghelp, --showcmd and --parse-only (human and JSON).
#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "iobench/engine.h"
#include "jobfile/options.h"
#include "jobfile/parser.h"
#include "jobfile/units.h"
#include "sys/job_paths.h"
#include "sys/strings.h"

namespace iobench::jobfile {

namespace {

const char* SourceName(OptionSource s) {
  switch (s) {
    case OptionSource::kDefault:
      return "default";
    case OptionSource::kGlobal:
      return "global";
    case OptionSource::kJob:
      return "job";
    case OptionSource::kCommandLine:
      return "command line";
  }
  return "default";
}

std::string Join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

std::string RangeText(const OptionDef& d) {
  if (d.type != OptType::kInt && d.type != OptType::kSize && d.type != OptType::kTime) return "";
  if (d.min == INT64_MIN && d.max == INT64_MAX) return "";
  if (d.max == INT64_MAX) return ">= " + std::to_string(d.min);
  return std::to_string(d.min) + ".." + std::to_string(d.max);
}

std::string OneHelp(const OptionDef& d) {
  std::ostringstream o;
  o << d.name << ": " << d.help << "\n";
  if (!d.aliases.empty()) o << "  alias: " << Join(d.aliases, ", ") << "\n";
  o << "  type: " << TypeName(d) << "\n";
  if (!d.def.empty()) o << "  default: " << d.def << "\n";
  std::string r = RangeText(d);
  if (!r.empty()) o << "  range: " << r << "\n";
  if (d.per_dir) o << "  per direction: read,write,trim (a value not ended by ',' carries over)\n";
  if (!d.engines.empty()) o << "  engines: " << Join(EnginesForOption(d), ", ") << "\n";
  if (!d.runs) o << "  note: accepted by the parser; running it is not implemented yet\n";
  return o.str();
}

std::string MdEscape(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else
      out += c;
  }
  return out;
}

// The option table's categories, each once, in the order they first appear:
// the table lists an option where it reads best, not grouped by category.
std::vector<std::string> Categories() {
  std::vector<std::string> cats;
  for (const auto& d : OptionTable())
    if (std::find(cats.begin(), cats.end(), d.category) == cats.end()) cats.push_back(d.category);
  return cats;
}
}  // namespace

std::string OptionsMarkdown() {
  std::ostringstream o;
  o << "# iobench job options\n\n"
       "<!-- Generated from the option table (src/jobfile/options.cc) by "
       "`iobench --cmdhelp=markdown`. Do not edit: a unit test fails when this file is stale. "
       "-->\n\n"
       "Every option can be written in a job file (`name=value`, or a bare `name` for flags) "
       "or on the command line (`--name=value`, `-name=value` or `-name value`). "
       "Sizes take fio's suffixes (`k`, `m`, `g`, ... with `kb_base` rules), times take "
       "`d h m s ms us ns` (the default unit is given in the description), and numbers may be "
       "arithmetic in parentheses. See docs/jobfile.md for the syntax.\n\n"
       "**Runs** says whether the run core implements the option's behaviour yet; options "
       "marked *no* are parsed and validated, and a job that sets one is refused by name when it "
       "runs.\n";
  for (const auto& c : Categories()) {
    o << "\n## " << c
      << "\n\n| option | aliases | type | default | range | engines | runs | description |\n"
      << "|---|---|---|---|---|---|---|---|\n";
    for (const auto& d : OptionTable()) {
      if (d.category != c) continue;
      o << "| `" << d.name << "` | " << Join(d.aliases, ", ") << " | " << MdEscape(TypeName(d))
        << (d.per_dir ? " (per direction)" : "") << " | " << MdEscape(d.def) << " | "
        << RangeText(d) << " | " << Join(d.engines, ", ") << " | " << (d.runs ? "yes" : "no")
        << " | " << MdEscape(d.help) << " |\n";
    }
  }
  o << "\n## fio options that iobench recognises but does not support yet\n\n"
       "Using one of these is an error that names the option, file and line.\n\n";
  auto fio = FioOnlyOptions();
  o << Join(fio, ", ") << "\n";
  return o.str();
}

Result<std::string> CmdHelp(const std::string& option) {
  if (option.empty() || option == "all") {
    // Each category once (it printed a heading at each change of category
    // in table order: cpu:, engine:, files: ... twice), blank lines between.
    std::ostringstream o;
    for (const auto& cat : Categories()) {
      if (o.tellp() > 0) o << "\n";
      o << cat << ":\n";
      for (const auto& d : OptionTable()) {
        if (d.category != cat) continue;
        std::string n = d.name;
        n.resize(std::max<size_t>(n.size(), 28), ' ');
        o << "  " << n << " " << d.help << "\n";
      }
    }
    return o.str();
  }
  if (option == "markdown") return OptionsMarkdown();
  if (const OptionDef* d = FindOption(option)) return OneHelp(*d);
  if (IsFioOnlyOption(option))
    return Status::Invalid("iobench: --cmdhelp=" + option +
                           ": a fio option that iobench does not support yet");
  std::string s = SuggestOption(option);
  return Status::Invalid("iobench: --cmdhelp=" + option + ": unknown option" +
                         (s.empty() ? "" : "; did you mean '" + s + "'?"));
}

Result<std::string> EngHelp(const std::string& spec) {
  std::ostringstream o;
  if (spec.empty()) {
    o << "Available IO engines:\n";
    for (const auto& n : IobenchEngineNames()) {
      const EngineInfo* e = FindEngine(n);
      o << "\t" << n;
      if (e) o << "\t" << e->help;
      o << "\n";
    }
    return o.str();
  }
  std::string engine = spec.substr(0, spec.find(','));
  std::string opt = spec.find(',') == std::string::npos ? "" : spec.substr(spec.find(',') + 1);
  auto& names = IobenchEngineNames();
  // Worded as ioengine= says it.
  if (std::find(names.begin(), names.end(), engine) == names.end()) {
    if (std::string why = FioEngineRefusal(engine); !why.empty())
      return Status::Invalid("iobench: --enghelp=" + spec + ": " + why);
    const std::string s = SuggestFrom(engine, names);
    return Status::Invalid("iobench: --enghelp=" + spec + ": unknown ioengine '" + engine + "'" +
                           (s.empty() ? "" : "; did you mean '" + s + "'?"));
  }
  if (!opt.empty()) {
    const OptionDef* d = FindOption(opt);
    auto e = d && !d->engines.empty() ? EnginesForOption(*d) : std::vector<std::string>{};
    if (std::find(e.begin(), e.end(), engine) == e.end())
      return Status::Invalid("iobench: --enghelp=" + spec + ": '" + opt +
                             "' is not an option of ioengine " + engine);
    return OneHelp(*d);
  }
  bool any = false;
  for (const auto& d : OptionTable()) {
    if (d.engines.empty()) continue;
    auto e = EnginesForOption(d);
    if (std::find(e.begin(), e.end(), engine) == e.end()) continue;
    std::string n = d.name;
    n.resize(std::max<size_t>(n.size(), 20), ' ');
    o << n << ": " << d.help << "\n";
    any = true;
  }
  if (!any) o << "ioengine " << engine << " has no engine-specific options\n";
  return o.str();
}

namespace {
// The options that build the job's file list (FileListStep).
bool IsFileListOption(const std::string& name) {
  return name == "filename" || name == "opendir" || name == "nrfiles";
}

// `kb_base`: the one the printed line reads the job's sizes with. A job file
// reads each section's sizes with its own kb_base ([global] size=1m, then
// [a] kb_base=1000: 1048576 bytes), the command line all of a job's with
// the last one: such a value is written in that base (--size=1mib).
std::string Arg(const OptionSetting& s, uint32_t kb_base) {
  if (s.value.empty()) return "--" + s.name;
  std::string value = s.value;
  if (const OptionDef* def = FindOption(s.name);
      def != nullptr && def->kb_base_sizes && s.kb_base != 0)
    value = SizesForKbBase(value, s.kb_base, kb_base);
  return sys::ShellWord("--" + s.name + "=" + value);
}
}  // namespace

std::string ShowCmd(const std::vector<JobSpec>& jobs, std::string_view tool_options) {
  std::string out = "iobench";
  if (!tool_options.empty()) out += " " + std::string(tool_options);
  for (size_t i = 0; i < jobs.size(); ++i) {
    const JobSpec& j = jobs[i];
    out += ' ';
    out += sys::ShellWord("--name=" + j.name);
    // Each job file after the first starts a group of its own (a wall);
    // on one command line that takes a stonewall.
    bool stonewall = false;
    for (const auto& s : j.settings) stonewall |= s.name == "stonewall";
    if (i > 0 && j.job_file_index != jobs[i - 1].job_file_index && !stonewall)
      out += " --stonewall";
    bool files_done = false;
    const std::vector<bool> dropped = DroppedEngineOptions(j);
    for (size_t k = 0; k < j.settings.size(); ++k) {
      const OptionSetting& s = j.settings[k];
      if (s.name == "name" || dropped[k]) continue;
      // filename=, opendir= and nrfiles= in the order they built the file
      // list, which a job file's section and a command-line global can
      // change (FileListStep): on one command line each adds in the order
      // written. One that a command-line global replaced is left out, and
      // an nrfiles= set before the list started, which changes nothing;
      // without a list, the nrfiles= that counts (a command-line global's
      // over the job file's, which stands after it) is written alone.
      if (IsFileListOption(s.name) && !j.file_list.empty()) {
        const FileListStep* makes =
            ResolveFileList(j.file_list, nullptr).started ? nullptr : FileCountStep(j.file_list);
        bool started = false;
        for (const FileListStep& step : j.file_list) {
          started |= step.kind != FileListStep::Kind::kCount;
          if (files_done || step.setting >= j.settings.size() ||
              (step.kind == FileListStep::Kind::kCount && !started && &step != makes))
            continue;
          out += ' ' + Arg(j.settings[step.setting], j.kb_base);
        }
        files_done = true;
        continue;
      }
      // A job file's bssplit or bsrange that a command-line global's block
      // size replaced, for every direction (the command line overrides a
      // job file's block sizes): on one command line fio's rules would
      // keep it (a range beats bs=, whatever the order), so it is left out.
      // Within one layer the order written means the same on the line.
      const auto is_bs = [](const std::string& n) {
        return n == "bs" || n == "bsrange" || n == "bssplit";
      };
      if ((s.name == "bssplit" || s.name == "bsrange") && s.source != OptionSource::kCommandLine &&
          std::any_of(j.settings.begin() + static_cast<ptrdiff_t>(k) + 1, j.settings.end(),
                      [&](const OptionSetting& l) {
                        return is_bs(l.name) && l.source == OptionSource::kCommandLine &&
                               l.value.find(',') == std::string::npos;
                      }))
        continue;
      // An engine option of [global]'s engine that the job does not use
      // (`dropped`) has no effect here, and after --name= it would be
      // checked against the job's engine and refused, or used. Nor one the
      // job's engine does not take (a base job of a swept engine).
      if (const OptionDef* def = FindOption(s.name); def != nullptr && !def->engines.empty()) {
        const auto engines = EnginesForOption(*def);
        if (std::find(engines.begin(), engines.end(), j.ioengine) == engines.end()) continue;
      }
      out += ' ';
      out += Arg(s, j.kb_base);
    }
    // [a] name=b is the job b with a's files (fio names them after the
    // section); on a command line --name=b names both, so the line spells
    // the files out, after any filename_format of the job's (it wins).
    if (j.SectionName() != j.name && j.filenames.empty() && j.opendir.empty() &&
        j.read_iolog.empty()) {
      out += ' ';
      out += sys::ShellWord("--filename_format=" +
                            (sys::JobNameIsTarget(j) ? j.SectionName() : sys::JobFormat(j)));
    }
  }
  return out + "\n";
}

namespace {
// Options whose value another option sets too (buffered=0 is direct=1,
// gtod_reduce=1 turns the latencies off, pre_read=1 clears invalidate):
// --parse-only's JSON reports what the run uses, read from the JobSpec,
// where that differs from what was written for the option itself (or its
// default). `by`: the options that set it, each when its own value is
// `when` (normalized; nullptr: any value). `effective`: the value the run
// uses, "" when it cannot be told (then the written value stands).
struct Implier {
  const char* option;
  const char* when;
};
struct Implied {
  const char* option;
  std::vector<Implier> by;
  std::string (*effective)(const JobSpec&);
};

std::string Flag(bool b) { return b ? "1" : "0"; }

const std::vector<Implied>& ImpliedOptions() {
  static const std::vector<Implied> kTable = {
      {"direct", {{"buffered", nullptr}}, [](const JobSpec& j) { return Flag(j.direct); }},
      {"buffered", {{"direct", nullptr}}, [](const JobSpec& j) { return Flag(!j.direct); }},
      {"rwmixread",
       {{"rwmixwrite", nullptr}},
       [](const JobSpec& j) { return std::to_string(j.rwmixread); }},
      {"rwmixwrite",
       {{"rwmixread", nullptr}},
       [](const JobSpec& j) { return std::to_string(100 - j.rwmixread); }},
      {"disable_lat", {{"gtod_reduce", "1"}}, [](const JobSpec& j) { return Flag(j.disable_lat); }},
      {"disable_clat",
       {{"gtod_reduce", "1"}},
       [](const JobSpec& j) { return Flag(j.disable_clat); }},
      {"disable_slat",
       {{"gtod_reduce", "1"}},
       [](const JobSpec& j) { return Flag(j.disable_slat); }},
      {"disable_bw_measurement",
       {{"gtod_reduce", "1"}},
       [](const JobSpec& j) { return Flag(j.disable_bw); }},
      // fio's fixup_options: an unmeasured latency has no percentiles.
      {"clat_percentiles",
       {{"gtod_reduce", "1"}, {"disable_clat", "1"}},
       [](const JobSpec& j) { return Flag(j.clat_percentiles); }},
      {"lat_percentiles",
       {{"gtod_reduce", "1"}, {"disable_lat", "1"}},
       [](const JobSpec& j) { return Flag(j.lat_percentiles); }},
      {"slat_percentiles",
       {{"gtod_reduce", "1"}, {"disable_slat", "1"}},
       [](const JobSpec& j) { return Flag(j.slat_percentiles); }},
      {"invalidate", {{"pre_read", "1"}}, [](const JobSpec& j) { return Flag(j.invalidate); }},
      {"verify",
       {{"verify_pattern", nullptr}},
       [](const JobSpec& j) {
         return j.verify.type == VerifyType::kPattern ? std::string("pattern") : std::string();
       }},
      {"refill_buffers",
       {{"dedupe_percentage", nullptr}},
       [](const JobSpec& j) { return Flag(j.refill_buffers); }},
      {"scramble_buffers",
       {{"buffer_pattern", nullptr}},
       [](const JobSpec& j) { return Flag(j.scramble_buffers); }},
      {"zero_buffers",
       {{"buffer_pattern", nullptr}},
       [](const JobSpec& j) { return Flag(j.zero_buffers); }},
      // fio's add_job: log_avg_msec is the report's window of a logged job.
      {"bwavgtime",
       {{"log_avg_msec", nullptr}},
       [](const JobSpec& j) { return std::to_string(j.bw_avg_ms); }},
      {"iopsavgtime",
       {{"log_avg_msec", nullptr}},
       [](const JobSpec& j) { return std::to_string(j.iops_avg_ms); }},
  };
  return kTable;
}

// A written value as the table's effective values spell it: a flag as 1 or
// 0 (bare, yes, on, 2...), a plain number in decimal, an enum lower-case.
std::string Normalized(const OptionDef& d, const std::string& value) {
  const std::string v = ToLower(Trim(value));
  if (d.type == OptType::kBool) {
    bool b = true;
    if (v.empty()) return "1";
    if (ParseBoolWord(v, &b)) return Flag(b);
    char* end = nullptr;
    const long long n = std::strtoll(v.c_str(), &end, 0);
    return end != v.c_str() && *end == '\0' ? Flag(n != 0) : v;
  }
  if (d.type == OptType::kInt) {
    char* end = nullptr;
    const long long n = std::strtoll(v.c_str(), &end, 0);
    if (end != v.c_str() && *end == '\0') return std::to_string(n);
  }
  return v;
}

// The setting of another option that made `imp`'s value differ from its
// own: the last one of the job's settings whose value is as `by` says.
const OptionSetting* ImpliedBy(const JobSpec& j, const Implied& imp) {
  const OptionSetting* found = nullptr;
  for (const OptionSetting& s : j.settings)
    for (const Implier& by : imp.by) {
      if (s.name != by.option) continue;
      const OptionDef* def = FindOption(s.name);
      if (by.when == nullptr || (def != nullptr && Normalized(*def, s.value) == by.when))
        found = &s;
    }
  return found;
}
}  // namespace

std::string ParseOnlyJson(const std::vector<JobSpec>& jobs) {
  nlohmann::ordered_json root;
  root["jobs"] = nlohmann::ordered_json::array();
  for (const auto& j : jobs) {
    nlohmann::ordered_json jj;
    jj["name"] = j.name;
    jj["job_file"] = j.job_file;
    jj["job_file_index"] = j.job_file_index;
    jj["line"] = j.line;
    nlohmann::ordered_json opts = nlohmann::ordered_json::object();
    // A [global] engine option the job does not use: its engine's default.
    const std::vector<bool> dropped = DroppedEngineOptions(j);
    for (const auto& d : OptionTable()) {
      const OptionSetting* last = nullptr;
      for (size_t k = 0; k < j.settings.size(); ++k) {
        const OptionSetting& s = j.settings[k];
        if (s.name == d.name && !(d.name == "name" && s.source == OptionSource::kGlobal) &&
            !dropped[k])
          last = &s;
      }
      nlohmann::ordered_json o;
      if (last) {
        // A bare flag is 1; a bare write_*_log is an empty prefix (the
        // job's name), not "1".
        const bool bare_flag = last->value.empty() && d.name.rfind("write_", 0) != 0;
        o["value"] = bare_flag ? "1" : last->value;
        o["source"] = SourceName(last->source);
        o["file"] = last->file;
        o["line"] = last->line;
      } else if (d.name == "name") {
        o["value"] = j.name;  // the [section] header names the job
        o["source"] = j.job_file.empty() ? "command line" : "job";
        o["file"] = j.job_file;
        o["line"] = j.line;
      } else {
        o["value"] = d.def;
        o["source"] = "default";
      }
      // filename=a:b:c names the job's files, and nrfiles their number (fio
      // counts them the same way), set where the last filename= was; or
      // where nrfiles= was when it cut the list. Each filename= adds to the
      // list: the value is every name they give, in order.
      const ResolvedFileList list = ResolveFileList(j.file_list, nullptr);
      const auto at = [&](const FileListStep* step) {
        if (step == nullptr || step->setting >= j.settings.size()) return;
        const OptionSetting& s = j.settings[step->setting];
        o["source"] = SourceName(s.source);
        o["file"] = s.file;
        o["line"] = s.line;
      };
      const FileListStep* last_names = nullptr;
      std::vector<std::string> names;
      size_t name_steps = 0;
      for (const FileListStep& step : j.file_list)
        if (step.kind == FileListStep::Kind::kNames) {
          last_names = &step;
          names.insert(names.end(), step.names.begin(), step.names.end());
          ++name_steps;
        }
      if (d.name == "filename" && name_steps > 1) {
        std::string all;
        for (const std::string& n : names) {
          if (!all.empty()) all += ':';
          for (char c : n) all += c == ':' ? "\\:" : std::string(1, c);
        }
        o["value"] = all;
        at(last_names);
      }
      // An nrfiles= set after the list started gives the number used: its
      // own plus one for each file listed after it (known unless an
      // opendir= after it is still to be walked: then its own value, and
      // set_by says the files after it add to it).
      if (d.name == "nrfiles" && list.started && !list.unknown) {
        o["value"] = std::to_string(j.filenames.size());
        if (list.cut_by == nullptr) {
          at(last_names);
          o["set_by"] = "filename";
        } else {
          at(list.cut_by);
        }
      } else if (d.name == "nrfiles" && list.counted_by != nullptr && !list.count_unknown) {
        o["value"] = std::to_string(list.count);
        at(list.counted_by);
      }
      if (d.name == "nrfiles" && list.counted_by != nullptr &&
          (list.added_after > 0 || list.count_unknown) && (list.cut_by != nullptr || list.unknown))
        o["set_by"] = "nrfiles and the files listed after it";
      // Set by another option: its effective value, "source": "implied",
      // and which setting implied it (file and line are that setting's).
      for (const Implied& imp : ImpliedOptions()) {
        if (d.name != imp.option) continue;
        const std::string eff = imp.effective(j);
        const OptionSetting* by = ImpliedBy(j, imp);
        if (eff.empty() || by == nullptr || eff == Normalized(d, o["value"].get<std::string>()))
          break;
        o["value"] = eff;
        o["source"] = "implied";
        o["file"] = by->file;
        o["line"] = by->line;
        o["implied_by"] = by->name + "=" + (by->value.empty() ? "1" : by->value);
        break;
      }
      if (!d.runs && last) o["implemented"] = false;
      opts[d.name] = o;
    }
    jj["options"] = opts;
    nlohmann::ordered_json un = nlohmann::ordered_json::array();
    for (const auto& s : j.unimplemented) un.push_back(s.name);
    jj["unimplemented"] = un;
    root["jobs"].push_back(jj);
  }
  // Job files are not always UTF-8; replace bad bytes rather than throw.
  return root.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

namespace {
std::string Bytes(uint64_t b) {
  static const char* kU[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (u < 5 && b >= 1024 && b % 1024 == 0) {
    b /= 1024;
    ++u;
  }
  return std::to_string(b) + kU[u];
}

std::string Bs(const BlockSizeSpec& b) {
  if (!b.split.empty()) {
    std::string s;
    for (const auto& e : b.split) {
      if (!s.empty()) s += ':';
      s += Bytes(e.bs);
      s += '/';
      s += std::to_string(e.perc);
    }
    return s;
  }
  if (b.min == b.max) return Bytes(b.min);
  return Bytes(b.min) + "-" + Bytes(b.max);
}

std::string Secs(uint64_t ns) {
  if (ns == 0) return "none";
  if (ns % 1000000000ull == 0) return std::to_string(ns / 1000000000ull) + "s";
  if (ns % 1000000ull == 0) return std::to_string(ns / 1000000ull) + "ms";
  return std::to_string(ns / 1000ull) + "us";
}
}  // namespace

std::string ParseOnlySummary(const std::vector<JobSpec>& jobs, const JobFilesFn& files_of) {
  std::ostringstream o;
  int group = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const JobSpec& j = jobs[i];
    // The reporting group, numbered as the run numbers it: stonewall,
    // new_group and each further job file start a new one.
    if (i > 0 && (j.stonewall || j.new_group || j.job_file_index != jobs[i - 1].job_file_index))
      ++group;
    o << j.name << ": group=" << group << " rw=" << RwModeName(j.rw);
    if (j.rw_nr > 1) o << ":" << j.rw_nr;
    if (j.rw_skip) o << ":" << j.rw_skip;
    o << " bs=" << Bs(j.bs[0]);
    if (HasWrite(j.rw) && Bs(j.bs[1]) != Bs(j.bs[0])) o << "," << Bs(j.bs[1]);
    o << " ioengine=" << j.ioengine << " iodepth=" << j.iodepth;
    o << " size="
      << (j.size_percent ? std::to_string(j.size_percent) + "%"
          : j.size       ? Bytes(j.size)
                         : "file/device");
    if (j.numjobs > 1) o << " numjobs=" << j.numjobs;
    o << " files=";
    // As filename= takes them, a ':' inside a name written `\:`: the
    // files "x y:z" and "w" show as files=x y\:z:w, not as three names.
    auto names = [&o](const std::vector<std::string>& list, size_t shown) {
      for (size_t f = 0; f < list.size() && f < shown; ++f) {
        if (f) o << ':';
        for (char c : list[f]) o << (c == ':' ? "\\:" : std::string(1, c));
      }
    };
    const bool dirs = std::any_of(j.file_list.begin(), j.file_list.end(),
                                  [](const auto& s) { return s.kind == FileListStep::Kind::kDir; });
    if (dirs) {
      // In the list's order, an opendir= standing for the files the run
      // finds under it. An nrfiles=N set after files were listed makes the
      // job use the first N + k files of the whole list, k those listed
      // after it: which files, the list's order says (FileListStep).
      bool first = true;
      for (const FileListStep& step : j.file_list) {
        if (step.kind == FileListStep::Kind::kCount) continue;
        if (!first) o << ':';
        first = false;
        if (step.kind == FileListStep::Kind::kNames)
          names(step.names, step.names.size());
        else
          o << "(the files under opendir=" << step.names.front() << ")";
      }
      const ResolvedFileList list = ResolveFileList(j.file_list, nullptr);
      if (const FileListStep* cut = list.counted_by) {
        const std::string nrfiles =
            "nrfiles=" + std::to_string(cut->count) +
            (cut->setting < j.settings.size() ? " at " + j.settings[cut->setting].Where() : "");
        if (list.count_unknown)
          o << " (only the first " << cut->count << "+k are used, k the number of files listed "
            << "after " << nrfiles << ")";
        else
          o << " (only the first " << list.count << (list.count == 1 ? " is" : " are")
            << " used: " << nrfiles
            << (list.added_after == 0   ? std::string()
                : list.added_after == 1 ? ", plus 1 for the file listed after it"
                                        : ", plus " + std::to_string(list.added_after) +
                                              " for the files listed after it")
            << ")";
      }
    } else if (!j.opendir.empty() && j.filenames.empty()) {
      o << "(the files under opendir=" << j.opendir << ")";
    } else if (!j.read_iolog.empty() && !j.replay_redirect.empty()) {
      o << j.replay_redirect;  // every I/O of the log goes there
    } else if (!j.read_iolog.empty() && j.filenames.empty()) {
      o << "(the files read_iolog=" << j.read_iolog << " names)";
    } else if (files_of) {
      // The names the run opens (a.0.0, not ./$jobname.$jobnum.$filenum);
      // a job with many shows the first few and the count.
      constexpr size_t kShown = 8;
      size_t total = 0;
      const std::vector<std::string> paths = files_of(j, kShown, &total);
      names(paths, kShown);
      if (total > kShown) o << ":... (" << total << " files)";
    } else if (!j.filenames.empty()) {
      names(j.filenames, j.filenames.size());
    } else {
      std::string dir = j.directory.empty() ? std::string(".") : j.directory;
      if (dir.back() != '/') dir += '/';
      o << dir << j.filename_format << " x" << j.nrfiles;
    }
    // time_based without a runtime runs size-based, as in fio (which says
    // "time_based requires a runtime/timeout setting" and drops it).
    o << " runtime=" << Secs(j.runtime_ns)
      << (!j.time_based       ? ""
          : j.runtime_ns == 0 ? " (time_based ignored: it needs a runtime)"
                              : " (time_based)");
    if (!j.unimplemented.empty()) {
      o << " [not runnable yet:";
      for (const auto& s : j.unimplemented) o << " " << s.name;
      o << "]";
    }
    o << "\n";
  }
  return o.str();
}

}  // namespace iobench::jobfile
