#include "jobfile/lexer.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string_view>

#include "sys/strings.h"

namespace iobench::jobfile {

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 when it is not one.
size_t Utf8Length(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  return n;
}

// Diagnostics go to a terminal: binary garbage in a job file must not reach
// it as is. Control characters (but tab) and bytes that are not UTF-8 become
// '?', one for one, so columns still line up.
std::string Printable(std::string_view s) {
  std::string out(s);
  for (size_t i = 0; i < out.size();) {
    const auto c = static_cast<unsigned char>(out[i]);
    const size_t n = Utf8Length(out, i);
    if (n == 0 || (c < 0x20 && c != '\t' && c != '\n') || c == 0x7F) {
      out[i++] = '?';
      continue;
    }
    i += n;
  }
  return out;
}

// At most this much of a line is echoed (a 10 MB line must not be).
constexpr size_t kEchoWidth = 160;

}  // namespace

std::string FormatDiagnostic(const std::string& file, int line, int col, const std::string& message,
                             const std::string& line_text) {
  std::string out = file;
  if (line > 0) {
    out += ':';
    out += std::to_string(line);
    if (col > 0) {
      out += ':';
      out += std::to_string(col);
    }
  }
  // A value from ${VAR} may hold a newline, which would break the message
  // in two ("bad size unit 'k<NL>bs=1k'"): shown as \n.
  // An invisible character (a zero-width space, a byte-order mark, a no-break
  // space) is shown as \uXXXX: `unknown option 'bs'` with one after the
  // name was a riddle.
  std::string one_line;
  for (char c : sys::EscapeInvisible(Printable(message))) {
    if (c == '\n')
      one_line += "\\n";
    else
      one_line += c;
  }
  out += ": " + one_line;
  if (!line_text.empty()) {
    // A window of the line around the column, marked with "..." when cut.
    size_t from = 0;
    if (line_text.size() > kEchoWidth && col > static_cast<int>(kEchoWidth / 2))
      from = std::min(static_cast<size_t>(col) - kEchoWidth / 2, line_text.size() - kEchoWidth);
    std::string shown = Printable(std::string_view(line_text).substr(from, kEchoWidth));
    // A job-file line holds no newline, but a command-line argument may.
    std::replace(shown.begin(), shown.end(), '\n', '?');
    const std::string lead = from > 0 ? "..." : "";
    out += "\n" + lead + shown + (from + kEchoWidth < line_text.size() ? "..." : "") + "\n";
    out.append(lead.size(), ' ');
    // Keep tabs in the padding so the caret lines up under tabbed text.
    for (int i = static_cast<int>(from); i + 1 < col && i < static_cast<int>(line_text.size()); ++i)
      out += line_text[static_cast<size_t>(i)] == '\t' ? '\t' : ' ';
    out += "^";
  }
  return out;
}

size_t FirstNonUtf8(std::string_view s, size_t from, size_t to, std::string* message) {
  for (size_t i = from; i < to && i < s.size();) {
    const size_t n = Utf8Length(s, i);
    if (n == 0) {
      char hex[8];
      std::snprintf(hex, sizeof(hex), "0x%02X", static_cast<unsigned char>(s[i]));
      *message = std::string("byte ") + hex +
                 " is not UTF-8 text; names and values go into the reports, which are UTF-8";
      return i;
    }
    i += n;
  }
  return std::string_view::npos;
}

size_t FindEqualsLookalike(std::string_view s, size_t from, size_t* size, std::string* hint) {
  static constexpr std::pair<std::string_view, std::string_view> kLookalikes[] = {
      {"\xEF\xBC\x9D", "U+FF1D"},  // full-width equals sign
      {"\xEF\xB9\xA6", "U+FE66"},  // small equals sign
      {"\xE2\x81\xBC", "U+207C"},  // superscript equals sign
      {"\xE2\x82\x8C", "U+208C"},  // subscript equals sign
      {"\xE3\x82\xA0", "U+30A0"},  // katakana-hiragana double hyphen
      {"\xEA\x9E\x8A", "U+A78A"},  // modifier letter short equals sign
  };
  for (size_t i = from; i < s.size(); ++i)
    for (const auto& [bytes, code] : kLookalikes)
      if (s.substr(i, bytes.size()) == bytes) {
        *size = bytes.size();
        *hint = "'" + std::string(bytes) + "' (" + std::string(code) + ") is not the ASCII '='";
        return i;
      }
  return std::string_view::npos;
}

namespace {
bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// fio trims a line, an option's name and the end of its value with
// isspace(), so a CR is a blank to it where blanks do not count: at either
// end of the line and before the '=' (`size=1m\r\r\n`, a CRLF file
// converted twice; `size=1m\r \n`). Such a CR becomes a space in *body
// (and so in *text, of which body is a prefix), also after the '=' and
// after `include`, where a blank is warned about as elsewhere. A CR
// anywhere else (inside a name or value) fio keeps as part of it
// (`size=1\rm` is 1 byte there): it is left for the control-character
// check to refuse.
void CarriageReturnsToBlanks(std::string* body, std::string* text) {
  const auto blank = [](char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
  };
  std::string& s = *body;
  const size_t eq = s.find('=');
  size_t word = 0;
  while (word < s.size() && blank(s[word])) ++word;
  const size_t after_include = s.compare(word, 7, "include") == 0 ? word + 7 : std::string::npos;
  for (size_t i = 0; i < s.size();) {
    if (!blank(s[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < s.size() && blank(s[j])) ++j;
    const bool between_tokens = i == 0 || j == s.size() || i == after_include ||
                                (eq != std::string::npos && (j == eq || i == eq + 1));
    for (size_t k = i; k < j && between_tokens; ++k)
      if (s[k] == '\r') s[k] = (*text)[k] = ' ';
    i = j;
  }
}
}  // namespace

Result<std::vector<LexEntry>> Lex(std::string_view content, const std::string& file) {
  std::vector<LexEntry> out;
  int lineno = 0;
  size_t pos = 0;
  // A UTF-8 byte-order mark (editors on other systems add one) is not text.
  if (content.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;
  // Lines that end in a lone CR (classic Mac OS): fio reads the file as one
  // line and names a job "a]\rioengine=null\r...", so neither tool can run it.
  // A NUL outside a comment says binary first (a binary file with a CR and
  // no LF was said to have Mac OS line ends).
  const size_t nul = content.find('\0', pos);
  const bool binary = nul != std::string_view::npos && nul < content.find_first_of("#;", pos);
  if (const size_t cr = content.find('\r', pos);
      !binary && cr != std::string_view::npos && content.find('\n') == std::string_view::npos &&
      content.find_first_not_of("\r \t", cr) != std::string_view::npos)
    return Status::Invalid(FormatDiagnostic(
        file, 1, static_cast<int>(cr - pos) + 1,
        "the lines of this file end in a lone CR (classic Mac OS line ends); fio reads it as "
        "one line, and so would iobench: save it with LF (or CR LF) line ends",
        std::string(content.substr(pos, std::min(content.size() - pos, kEchoWidth + cr)))));
  while (pos < content.size()) {
    size_t nl = content.find('\n', pos);
    if (nl == std::string_view::npos) nl = content.size();
    std::string text(content.substr(pos, nl - pos));
    pos = nl + 1;
    ++lineno;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    auto err = [&](int col, const std::string& msg) {
      return Status::Invalid(FormatDiagnostic(file, lineno, col, msg, text));
    };
    // Comments: from the first '#' or ';' to the end of the line, except
    // inside a value that is quoted as a whole (`description="a; b"`).
    std::string body = text;
    size_t from = 0;
    size_t eq = body.find('=');
    if (eq != std::string::npos && body.find_first_of("#;") > eq) {
      size_t v = eq + 1;
      while (v < body.size() && IsBlank(body[v])) ++v;
      if (v < body.size() && (body[v] == '"' || body[v] == '\'')) {
        size_t close = body.find(body[v], v + 1);
        if (close != std::string::npos) from = close + 1;
      }
    }
    size_t cpos = body.find_first_of("#;", from);
    if (cpos != std::string::npos) body.resize(cpos);
    // A comment may hold anything, a NUL too (fio runs `size=64k ; x<NUL>y`).
    // Outside one a NUL marks a binary file, said before the line's length
    // (a file of zeros is one long line) or any other control character.
    if (size_t z = body.find('\0'); z != std::string::npos)
      return err(static_cast<int>(z) + 1, "NUL byte in job file (is this a binary file?)");
    if (text.size() > kMaxLineBytes)
      return err(1, "line longer than " + std::to_string(kMaxLineBytes) + " bytes");
    CarriageReturnsToBlanks(&body, &text);
    if (const size_t i = sys::ValueControlAt(body); i != std::string::npos)
      return err(static_cast<int>(i) + 1,
                 body[i] == '\r'
                     ? "carriage return (CR) inside a name or value: fio keeps it as part of "
                       "the text; iobench takes a CR only as a blank (at either end of the line "
                       "or next to '='): remove it"
                     : "control character in job file (is this a binary file?)");
    size_t b = 0;
    while (b < body.size() && std::isspace(static_cast<unsigned char>(body[b]))) ++b;
    size_t e = body.size();
    while (e > b && std::isspace(static_cast<unsigned char>(body[e - 1]))) --e;
    if (b == e) continue;
    // Names and values end up in reports (JSON must be UTF-8); a comment
    // in another encoding is harmless and stays accepted.
    std::string bad;
    if (size_t at = FirstNonUtf8(body, b, e, &bad); at != std::string_view::npos)
      return err(static_cast<int>(at) + 1, bad + " (save the job file as UTF-8)");
    LexEntry ent;
    ent.line = lineno;
    ent.text = text;
    ent.key_col = static_cast<int>(b) + 1;
    if (body[b] == '[') {
      if (body[e - 1] != ']') {
        // `[disk#1]`: the comment cut the name (fio names such a job "").
        if (cpos != std::string::npos && text.find(']', cpos) != std::string::npos)
          return err(static_cast<int>(cpos) + 1,
                     std::string("'") + text[cpos] +
                         "' starts a comment, so it cannot be part of a section name");
        // `[job] x`: the ']' is there; the stray text is the problem.
        if (size_t close = body.find(']', b); close != std::string::npos && close + 1 < e) {
          size_t after = close + 1;
          while (after < e && IsBlank(body[after])) ++after;
          return err(static_cast<int>(after) + 1,
                     "unexpected '" + body.substr(after, e - after) +
                         "' after the section header (only a comment may follow ']')");
        }
        return err(static_cast<int>(e) + 1, "missing ']' after section name");
      }
      const std::string raw = body.substr(b + 1, e - b - 2);
      size_t nb = 0, ne = raw.size();
      while (nb < ne && IsBlank(raw[nb])) ++nb;
      while (ne > nb && IsBlank(raw[ne - 1])) --ne;
      std::string name = raw.substr(nb, ne - nb);
      if (name.empty()) return err(static_cast<int>(b) + 1, "empty section name");
      // fio keeps the blanks: `[ global ]` is a job named " global " (not
      // a global section) and `[ k ]` a job " k ", whose name reaches its
      // file names and --section. Only `[global ]` means the same in both
      // (fio reads any name that starts with "global" as global).
      const bool global = name.rfind("global", 0) == 0;
      if (nb > 0 || (ne < raw.size() && !global))
        return err(static_cast<int>(b + 1 + (nb > 0 ? 0 : ne)) + 1,
                   "blank inside the brackets of a section name: fio names this job '" + raw +
                       "', blanks included" + (global ? ", not a global section" : "") +
                       "; write [" + name + "]");
      if (name.find_first_of("[]") != std::string::npos)
        return err(static_cast<int>(b + 1 + nb + name.find_first_of("[]")) + 1,
                   "'" + std::string(1, name[name.find_first_of("[]")]) +
                       "' inside a section name (fio would name this job '" + name +
                       "'); a bracket there is most likely a typo, so iobench refuses it");
      ent.kind = LexEntry::Kind::kSection;
      ent.key = name;
      ent.key_col = static_cast<int>(b + 1 + nb) + 1;
      out.push_back(std::move(ent));
      continue;
    }
    // The key runs to '=' or a blank.
    size_t k = b;
    while (k < e && body[k] != '=' && !IsBlank(body[k])) ++k;
    std::string key = body.substr(b, k - b);
    // `include FILE`; fio also reads `include=FILE` (it skips the one
    // character after the word), so a job file may use either.
    if (key == "include") {
      size_t v = k;
      while (v < e && IsBlank(body[v])) ++v;
      if (v < e && body[v] == '=') {
        ++v;
        while (v < e && IsBlank(body[v])) ++v;
      }
      if (v == e) return err(static_cast<int>(b) + 1, "include needs a file name (include FILE)");
      ent.kind = LexEntry::Kind::kInclude;
      ent.key = body.substr(v, e - v);
      ent.value_col = static_cast<int>(v) + 1;
      out.push_back(std::move(ent));
      continue;
    }
    // fio's include is lower case only (it reads `INCLUDE x` as a bad option).
    if (key.size() == 7 && key != "include" &&
        std::equal(key.begin(), key.end(), "include",
                   [](char a, char c) { return std::tolower(static_cast<unsigned char>(a)) == c; }))
      return err(static_cast<int>(b) + 1,
                 "unknown option '" + key +
                     "': fio's include is written in lower case (fio refuses '" + key +
                     "' too); write 'include" + body.substr(k, e - k) + "'");
    if (key.empty()) return err(static_cast<int>(b) + 1, "expected an option name before '='");
    ent.key = key;
    size_t q = k;
    while (q < e && IsBlank(body[q])) ++q;
    if (q == e) {  // bare flag
      out.push_back(std::move(ent));
      continue;
    }
    if (body[q] != '=') {
      size_t size = 0;
      std::string hint;
      const bool lookalike = FindEqualsLookalike(body, q, &size, &hint) == q;
      return err(static_cast<int>(q) + 1, "expected '=' between option '" + key +
                                              "' and its value" +
                                              (lookalike ? " (" + hint + ")" : ""));
    }
    ent.has_value = true;
    // fio trims the end of an option's name, so a blank before '=' means
    // the same to both (`bs =8k` is 8k there); it keeps a blank after '='
    // in the value (`bs= 8k` is 8 bytes there): only that one is noted.
    size_t v = q + 1;
    while (v < e && IsBlank(body[v])) ++v;
    ent.blank_after_eq = v != q + 1;
    std::string value = body.substr(v, e - v);
    ent.value_col = static_cast<int>(v) + 1;
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
      ent.quoted = true;
      ent.value_col += 1;
    }
    ent.value = value;
    out.push_back(std::move(ent));
  }
  return out;
}

}  // namespace iobench::jobfile
