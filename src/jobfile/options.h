// The option table: one row per option iobench knows. The parser, --cmdhelp,
// --enghelp, docs/options.md and the "did you mean" suggestions all read it.
//
// Owner: jobfile module. The table is built once (thread-safe static init)
// and read-only afterwards; any thread may call these functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "iobench/job.h"
#include "iobench/status.h"

namespace iobench::jobfile {

enum class OptType {
  kBool,     // bare flag or 0/1
  kInt,      // plain integer (suffixes and arithmetic allowed)
  kSize,     // bytes, with kb_base suffixes
  kTime,     // time with suffix; `time_unit_ns` is the unit of a bare number
  kStr,      // free text
  kEnum,     // one of `choices`
  kSpecial,  // own syntax (rw, bssplit, cpu lists, ...): the setter parses text
};

// A value after expansion and generic conversion, handed to a row's setter.
struct OptValue {
  std::string text;  // expanded text ("" for a bare flag)
  bool bare = false;
  int64_t num = 0;                        // scalar numeric types: bytes, ns, count, 0/1
  std::optional<int64_t> dir[kNumDdirs];  // per-direction numeric types
  bool percent = false;                   // the value ended in '%' (num is the percent)
  uint32_t kb_base = 1024;
  // Where the setting stands: its source, and its layer (FileListStep:
  // 0 the job's own options, 1 command-line globals over a job file's job,
  // 2 a --sweep value). filename=, opendir= and nrfiles= need them to build
  // the file list in fio's order.
  OptionSource source = OptionSource::kJob;
  int layer = 0;
  // Setters may append a complete warning text (location is added by the
  // parser); never null when called from the parser.
  std::vector<std::string>* warnings = nullptr;
  // A setter that refuses one part of the value may set the offset of that
  // part in `text`, so that the caret points at it (cmdprio_bssplit's
  // fields); left alone, the caret points at the value's start. Never null
  // when called from the parser.
  size_t* error_at = nullptr;
};

// Returns OK or a message without location (the parser adds file:line:col).
using OptionSetter = Status (*)(JobSpec& job, const OptValue& value);
// Puts the fields an option sets back to a new JobSpec's values.
using OptionResetter = void (*)(JobSpec& job);

struct OptionDef {
  std::string name;
  std::vector<std::string> aliases;
  OptType type = OptType::kStr;
  std::string def;  // default as the user would write it; "" = unset
  int64_t min = INT64_MIN;
  int64_t max = INT64_MAX;
  bool per_dir = false;        // read,write,trim list with fio's carry-over
  bool allow_percent = false;  // accepts N% (of the file or device)
  // Its value may hold sizes read with the job's kb_base ("4k"): every
  // kSize and kInt option, and the kSpecial ones marked so (bssplit, rw's
  // ":4k", ...). --showcmd rewrites them when the base changes.
  bool kb_base_sizes = false;
  uint64_t time_unit_ns = 1000000000ull;
  std::string choices;  // kEnum (and docs of kSpecial, kInt): "a|b|c"
  std::string help;
  std::string category;
  std::vector<std::string> engines;  // empty = core option
  // kBool only: fio stores the flag as a number (FIO_OPT_STR_SET), so any
  // integer is accepted (thread=2, stonewall=-1 are on, =0 off) where
  // fio's true bools (direct=2) are refused.
  bool any_int = false;
  bool runs = true;  // false: accepted, recorded in JobSpec::unimplemented
  OptionSetter set = nullptr;
  // Every engine option has one: a job whose engine is not the one its
  // [global] gave the option under starts from the defaults (the parser's
  // engine-option resolution), as fio gives it a fresh engine.
  OptionResetter reset = nullptr;
};

const std::vector<OptionDef>& OptionTable();

// Looks up a name or alias (exact match). nullptr if unknown.
const OptionDef* FindOption(const std::string& name);

// fio option names (incl. aliases and other engines' options) that iobench
// recognises and refuses: "option 'X' is a fio option that iobench does not
// support yet".
bool IsFioOnlyOption(const std::string& name);
const std::vector<std::string>& FioOnlyOptions();

// fio options that fio itself ignores with a notice (soft-deprecated):
// accepted with a warning. Hard-deprecated fio options are refused.
bool IsSoftDeprecatedFioOption(const std::string& name);
bool IsDeprecatedFioOption(const std::string& name);

// Options of fio's built-in profiles (tiobench, act): fio accepts them in
// any job and ignores them unless run with --profile. Returns the profile's
// name, or nullptr for any other name.
const char* FioProfileOfOption(const std::string& name);

// Engines iobench can name in ioengine= (runnable or not on this machine),
// and fio engines it does not support.
const std::vector<std::string>& IobenchEngineNames();
bool IsFioOnlyEngine(const std::string& name);
// Why ioengine=NAME is refused when NAME is an engine of fio's (one iobench
// lacks, or one fio itself removed before 3.33); "" for any other name.
std::string FioEngineRefusal(const std::string& name);

// Engines that accept an engine option: from EngineRegistry()'s `options`
// where an engine lists any, else from this table's `engines` column.
std::vector<std::string> EnginesForOption(const OptionDef& def);

// The closest known option name within a small edit distance, or "";
// failing that (with `prefixes`), the shortest that begins with `name`.
// `more` are names to weigh with the job options' (the command line's own
// options): the nearest of all is the one suggested.
std::string SuggestOption(const std::string& name, const std::vector<std::string>& more = {},
                          bool prefixes = true);
std::string SuggestFrom(const std::string& name, const std::vector<std::string>& candidates);

// Refuses block sizes that bs=, bsrange= and bssplit= together leave to a
// mix iobench does not run (a bssplit with a later bsrange of other sizes);
// the parser calls it once a job's options are all applied.
Status CheckBlockSizes(const JobSpec& job);

// Rate options that contradict each other, refused as fio 3.33 refuses them
// (fixup_options): a cap in bytes/s and one in IO/s (in any directions), the
// same for the minimums, and a minimum above its direction's cap. The
// parser calls it once a job's options are all applied, before an engine
// reshapes the job (cpuio clears its rates: fio refuses the pair there too).
Status CheckRate(const JobSpec& job);

// "string" form of the type for help and docs.
std::string TypeName(const OptionDef& def);

}  // namespace iobench::jobfile
