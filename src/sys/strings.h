// Small string-list helpers the probes share (mount points, holders, disks,
// refusal reasons): each list is printed once, in the order found.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace iobench::sys {

// Splits on `sep`, honouring `\sep` as an escaped separator (removed), as
// fio reads filename=, directory= and read_iolog= ("a\:b" is the name a:b).
inline std::vector<std::string> SplitEscaped(std::string_view text, char sep) {
  std::vector<std::string> out(1);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == sep) {
      out.back() += sep;
      ++i;
    } else if (text[i] == sep) {
      out.emplace_back();
    } else {
      out.back() += text[i];
    }
  }
  return out;
}

// Appends s unless v already holds it.
inline void AddUnique(std::vector<std::string>* v, std::string s) {
  if (std::find(v->begin(), v->end(), s) == v->end()) v->push_back(std::move(s));
}

// Text as a message shows it on a terminal: a control character (an escape
// sequence that would recolour the terminal, a CR that would overwrite the
// line) escaped as \x1b, \r, \t, and \n unless `keep_newlines` (a
// multi-line message: a parse error's line and caret).
inline std::string Printable(std::string_view text, bool keep_newlines = false) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 0x20 && c != 0x7f) || (c == '\n' && keep_newlines)) {
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// Text a message quotes that may be very long (a --sweep argument, a key
// of 5000 characters): Printable, cut to its first 80 characters followed
// by "... (N characters)" when longer, so that an error stays one line.
inline std::string Shortened(std::string_view text) {
  constexpr size_t kMax = 80;
  if (text.size() <= kMax) return Printable(text);
  return Printable(text.substr(0, kMax)) + "... (" + std::to_string(text.size()) + " characters)";
}

// Where the first control character a job's value may not hold is in `t`
// (tab, form feed and vertical tab are blanks there), or npos. One rule for
// job files, the command line, ${VAR} values and --sweep values.
inline size_t ValueControlAt(std::string_view t) {
  for (size_t k = 0; k < t.size(); ++k) {
    const auto c = static_cast<unsigned char>(t[k]);
    if (c < 0x20 && c != '\t' && c != '\f' && c != '\v') return k;
  }
  return std::string_view::npos;
}

// A control character as the refusals name it: "newline" or "byte N".
inline std::string ControlName(char ch) {
  const auto c = static_cast<unsigned char>(ch);
  return c == '\n' ? std::string("newline") : "byte " + std::to_string(c);
}

// Whether code point `cp` shows as nothing or as a plain space on a terminal
// though it is not one: no-break and other Unicode spaces, zero-width
// characters, the byte-order mark, direction marks and variation selectors.
inline bool IsInvisibleCodePoint(uint32_t cp) {
  return cp == 0xA0 || cp == 0xAD || cp == 0x34F || cp == 0x61C || cp == 0x115F || cp == 0x1160 ||
         cp == 0x17B4 || cp == 0x17B5 || cp == 0x180E || (cp >= 0x2000 && cp <= 0x200F) ||
         (cp >= 0x2028 && cp <= 0x202F) || (cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 ||
         cp == 0x3164 || (cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0xFEFF || cp == 0xFFA0 ||
         (cp >= 0xE0000 && cp <= 0xE0FFF);
}

// The code point of the UTF-8 sequence at text[i] and its length, or
// length 0 when it is not one.
inline std::pair<uint32_t, size_t> DecodeUtf8(std::string_view text, size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  const size_t n = c < 0x80           ? 1
                   : (c >> 5) == 0x6  ? 2
                   : (c >> 4) == 0xE  ? 3
                   : (c >> 3) == 0x1E ? 4
                                      : 0;
  if (n == 0 || i + n > text.size()) return {0, 0};
  uint32_t cp = n == 1 ? c : c & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(text[i + k]);
    if ((b & 0xC0) != 0x80) return {0, 0};
    cp = (cp << 6) | (b & 0x3F);
  }
  return {cp, n};
}

// `text` with each invisible character (above) written as \uXXXX, so that
// `unknown option 'bs\u200b'` shows what is wrong with the name; `found`
// (when given) is set when there was one.
inline std::string EscapeInvisible(std::string_view text, bool* found = nullptr) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto [cp, n] = DecodeUtf8(text, i);
    if (n == 0 || !IsInvisibleCodePoint(cp)) {
      const size_t len = n == 0 ? 1 : n;
      out.append(text.substr(i, len));
      i += len;
      continue;
    }
    static constexpr char kHex[] = "0123456789abcdef";
    out += cp > 0xFFFF ? "\\U" : "\\u";
    for (int shift = cp > 0xFFFF ? 28 : 12; shift >= 0; shift -= 4) out += kHex[(cp >> shift) & 15];
    if (found) *found = true;
    i += n;
  }
  return out;
}

// `text` without its invisible characters (a name as the user meant it).
inline std::string DropInvisible(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const auto [cp, n] = DecodeUtf8(text, i);
    const size_t len = n == 0 ? 1 : n;
    if (n == 0 || !IsInvisibleCodePoint(cp)) out.append(text.substr(i, len));
    i += len;
  }
  return out;
}

// "a<sep>b<sep>c"; empty for an empty list.
inline std::string Join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const auto& s : v) {
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
}

// `word` as a POSIX shell reads it back as one word: as it is when it holds
// only characters no shell treats specially, else single-quoted (a quote
// inside as '\''). Braces count as special (bash expands {a,b}). For the
// command lines iobench prints or stores: --showcmd, iobench.cmdline, a
// --sweep-cmd hook's values.
inline std::string ShellWord(std::string_view word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           std::string_view("-_./:,=%+@^").find(ch) != std::string_view::npos;
  });
  if (plain) return std::string(word);
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string_view("'\\''") : std::string_view(&c, 1);
  return out + "'";
}

// A failed job's message without the name the report already gives it:
// "job 'b': X" becomes "X", and "job 'b' (rec.fio:15): X" "rec.fio:15: X"
// (stderr read "job 'b': err=22 (job 'b' (rec.fio:15): read_iolog ...)").
inline std::string WithoutJobName(const std::string& name, const std::string& message) {
  const std::string job = "job '" + name + "'";
  if (message.rfind(job + ": ", 0) == 0) return message.substr(job.size() + 2);
  if (message.rfind(job + " (", 0) != 0) return message;
  int depth = 0;
  for (size_t i = job.size() + 1; i < message.size(); ++i) {
    if (message[i] == '(') ++depth;
    if (message[i] == ')' && --depth == 0) {
      if (message.compare(i + 1, 2, ": ") != 0) return message;
      return message.substr(job.size() + 2, i - job.size() - 2) + message.substr(i + 1);
    }
  }
  return message;
}

}  // namespace iobench::sys
