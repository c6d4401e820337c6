// Small string-list helpers the probes share (mount points, holders, disks,
// refusal reasons): each list is printed once, in the order found.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace iobench::sys {

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

}  // namespace iobench::sys
