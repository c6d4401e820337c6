// Value syntax shared by every option: numbers with size or time suffixes
// (fio's kb_base rules), arithmetic in parentheses, ${VAR} and $keyword
// substitution, per-direction lists and ranges.
//
// Owner: jobfile module. All functions are pure (no globals but the
// environment and sysconf in Expand) and safe to call from any thread.
// Errors are Status values whose message is a bare description ("bad size
// '4q'"); the parser adds file:line:col and the caret.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iobench/status.h"
#include "sys/strings.h"

namespace iobench::jobfile {

// Where in a value an error was found (0-based offset into the value text),
// so the caller can point the caret at it.
struct ValueError {
  std::string message;
  size_t offset = 0;
};

// Multiplier for a size suffix ("", "b", "k", "kb", "kib", "ki", ...).
// kb_base 1024 (fio's default): k = 1024, ki/kib = 1000 (fio's inversion);
// kb_base 1000: k = 1000, ki/kib = 1024. Case-insensitive.
std::optional<uint64_t> SizeMultiplier(std::string_view suffix, uint32_t kb_base);

// `text` with the suffix of each number that starts a word and ends at a
// non-word character ("4k", "1.5MiB", "8ki/50"; not "file1k", "0x1k",
// "4k2") replaced by what `fix(number, suffix)` returns (nullopt: kept).
using SuffixFn =
    std::function<std::optional<std::string>(std::string_view number, std::string_view suffix)>;
std::string MapSizeSuffixes(std::string_view text, const SuffixFn& fix);
// As MapSizeSuffixes, but `fix` returns what replaces the whole number with
// its suffix ("1.5min" -> "90s").
std::string MapNumbers(std::string_view text, const SuffixFn& fix);

// `text`, a value whose sizes were read with kb_base `from`, written so
// that read with kb_base `to` it gives the same bytes: each number with a
// size suffix swaps its "i" (under one base "1m" is what "1mib" is under
// the other: 1048576, or 1000000); an added "i" comes with a 'b' ("1mib",
// "MiB"), which fio 3.33 needs to read it so. Numbers without a suffix,
// hex and words are kept. Only for a value of sizes (not times: there "1m"
// is a minute).
std::string SizesForKbBase(std::string_view text, uint32_t from, uint32_t to);

// Nanoseconds per unit for a time suffix (d h m s sec ms msec us usec ns
// nsec); "" gives `default_unit_ns`.
std::optional<uint64_t> TimeMultiplierNs(std::string_view suffix, uint64_t default_unit_ns);

enum class NumKind { kPlain, kSize, kTime };

struct NumContext {
  NumKind kind = NumKind::kSize;
  uint32_t kb_base = 1024;
  uint64_t time_unit_ns = 1000000000ull;  // default unit of a time option
};

// Parses one number: "4k", "0x10", "1.5m", "10s", "-8k", or "(expr)".
// Returns the value in bytes (kSize), nanoseconds (kTime) or as is (kPlain).
// On error fills *err and returns nullopt.
std::optional<int64_t> ParseNumber(std::string_view text, const NumContext& ctx, ValueError* err);

// Evaluates an arithmetic expression (the text inside or including the
// parentheses): + - * / % ^, unary minus, parentheses, numbers with suffixes.
// For NumKind::kTime the result is in the context's default unit (a number
// with a suffix is converted to it), so bare numbers stay plain factors.
std::optional<long double> EvalExpression(std::string_view text, const NumContext& ctx,
                                          ValueError* err);

// Expands ${VAR} from the environment and the keywords $ncpus, $mb_memory and
// $pagesize. An unset ${VAR} is an error naming the variable (fio silently
// substitutes an empty string, which turns `size=${SIZE}` into a confusing
// failure later). `$VAR` without braces is left alone, as fio does.
// *used_keyword (when given) tells whether a $keyword was substituted.
// `unset_note` says in the unset-variable error what fio does instead: in a
// job file's line it substitutes "" (the default); on the command line and
// in an include path it does not expand ${} at all. fio 3.33 does so
// silently inside a longer value (filename=/d/${X}f is /d/f), and a value
// left empty fails: `description=${X}`, `iodepth=${X}`, `filename=${X}`
// each print "fio: failed parsing description=${X}" and "job j dropped",
// and fio runs no job (exit 1; the jobs beside it do not run either).
inline constexpr std::string_view kFioUsesEmptyString =
    "fio substitutes an empty string: silently within a longer value, while a value left empty "
    "fails to parse and fio runs no job";
std::optional<std::string> Expand(std::string_view text, ValueError* err,
                                  bool* used_keyword = nullptr,
                                  std::string_view unset_note = kFioUsesEmptyString);

// fio evaluates a value in which it substituted a $keyword as arithmetic
// even without parentheses (`size=5*$mb_memory/8`, `numjobs=$ncpus*2`),
// through bc: whole numbers, each division truncated. Returns the result as
// a decimal number when `text` is such an expression of whole numbers; in
// parentheses (for the unit-aware evaluator) when it holds an operator and
// something else (a leading '-' is a sign); else `text` unchanged. As fio,
// only + - * / make it an expression (then % and ^ count too, as in bc).
// *exponent_fraction (when given) is set when bc dropped the fraction of an
// exponent (`2^0.5` is 1; bc warns "non-zero scale in exponent").
std::string KeywordArithmetic(std::string_view text, bool* exponent_fraction = nullptr);

// Splits a per-direction list with fio's carry-over rule: "a" -> a,a,a;
// "a,b" -> a,b,b; "a,b," -> a,b,-; ",b" -> -,b,b (- = keep the default).
// Returns three entries; nullopt means "keep the default". Each entry keeps
// its offset into `text` for error carets.
struct DirPart {
  std::optional<std::string> text;
  size_t offset = 0;
};
std::vector<DirPart> SplitPerDirection(std::string_view text);

// fio has three directions and silently drops a fourth value ("bs=4k,8k,
// 16k,32k"): the error for such a list, or "" when it has at most three.
// Empty fields after the third ("bs=4k,8k,,") drop nothing and are
// accepted, as fio does, unless !empty_extra_ok (fio refuses them in
// bssplit).
std::string PerDirectionExcess(std::string_view text, const std::string& option,
                               bool empty_extra_ok = true);

// Splits on `sep`, honouring `\sep` as an escaped separator (removed).
using sys::SplitEscaped;

// Plain helpers.
std::string Trim(std::string_view s);
std::string ToLower(std::string_view s);
bool ParseBoolWord(std::string_view s, bool* out);  // 1/0 true/false yes/no on/off

}  // namespace iobench::jobfile
