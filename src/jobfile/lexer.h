// Job-file lexer: turns the text of one job file into a list of entries
// ([section] headers, `key=value` options, bare flags, include lines).
// It knows nothing about options; values are not expanded here.
//
// Owner: jobfile module. Pure function; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "iobench/status.h"

namespace iobench::jobfile {

// file:line:col: message, then the line echoed and a caret under column col
// (1-based). With an empty `line_text` only the first line is produced.
std::string FormatDiagnostic(const std::string& file, int line, int col, const std::string& message,
                             const std::string& line_text);

// Offset of the first byte in s[from, to) that does not start a valid UTF-8
// sequence, or std::string_view::npos. `message` gets the text of the error.
size_t FirstNonUtf8(std::string_view s, size_t from, size_t to, std::string* message);

// The longest job-file line, fio's OPT_LEN_MAX: a line longer than this is
// refused as written, and after ${VAR} substitution (as fio refuses it).
inline constexpr size_t kMaxLineBytes = 8192;

// The first character of s at or after `from` that looks like '=' but is not
// ASCII (the full-width '＝', U+FF1D, that an input method types): its
// offset, with *size its length in bytes and *hint "'＝' (U+FF1D) is not
// the ASCII '='"; npos when there is none.
size_t FindEqualsLookalike(std::string_view s, size_t from, size_t* size, std::string* hint);

struct LexEntry {
  enum class Kind { kSection, kOption, kInclude };
  Kind kind = Kind::kOption;
  std::string key;    // section name, option name or include path
  std::string value;  // option value (quotes removed), "" for bare flags
  bool has_value = false;
  bool blank_after_eq = false;  // `key= value` (fio keeps that blank)
  bool quoted = false;          // value was in "..." or '...'
  int line = 0;                 // 1-based
  int key_col = 1;              // 1-based column of the key / section name
  int value_col = 1;            // 1-based column of the value's first character
  std::string text;             // the whole line as written (for carets)
};

// Lexes `content` (the text of `file`). Comments start with '#' or ';'
// anywhere on a line and run to its end. Errors are complete diagnostics.
Result<std::vector<LexEntry>> Lex(std::string_view content, const std::string& file);

}  // namespace iobench::jobfile
