#include "jobfile/units.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <thread>

#include "sys/strings.h"

namespace iobench::jobfile {

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string ToLower(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

bool ParseBoolWord(std::string_view s, bool* out) {
  std::string l = ToLower(Trim(s));
  if (l == "1" || l == "true" || l == "yes" || l == "on") {
    *out = true;
    return true;
  }
  if (l == "0" || l == "false" || l == "no" || l == "off") {
    *out = false;
    return true;
  }
  return false;
}

std::optional<uint64_t> SizeMultiplier(std::string_view suffix, uint32_t kb_base) {
  std::string s = ToLower(suffix);
  if (s.empty() || s == "b") return 1;
  // Strip an optional trailing "b" (bytes): "kb", "kib".
  if (s.size() > 1 && s.back() == 'b') s.pop_back();
  bool iec = false;  // written with the "i" (Ki, Mi, ...)
  if (s.size() == 2 && s[1] == 'i') {
    iec = true;
    s.pop_back();
  }
  if (s.size() != 1) return std::nullopt;
  int power = 0;
  switch (s[0]) {
    case 'k':
      power = 1;
      break;
    case 'm':
      power = 2;
      break;
    case 'g':
      power = 3;
      break;
    case 't':
      power = 4;
      break;
    case 'p':
      power = 5;
      break;
    default:
      return std::nullopt;
  }
  // kb_base=1024 (compatibility mode) inverts the standards: plain prefixes
  // are powers of two and the "i" prefixes are powers of ten.
  uint64_t base = 1024;
  if (kb_base == 1000)
    base = iec ? 1024 : 1000;
  else
    base = iec ? 1000 : 1024;
  uint64_t m = 1;
  for (int i = 0; i < power; ++i) m *= base;
  return m;
}

std::string MapSizeSuffixes(std::string_view text, const SuffixFn& fix) {
  return MapNumbers(
      text, [&](std::string_view number, std::string_view suffix) -> std::optional<std::string> {
        auto to = fix(number, suffix);
        if (!to) return std::nullopt;
        return std::string(number) + *to;
      });
}

std::string MapNumbers(std::string_view text, const SuffixFn& fix) {
  const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    // A number starts a word ("4k", "1.5m"), not in one ("file1k", "0x1k").
    if (!digit(text[i]) || (i > 0 && (word(text[i - 1]) || text[i - 1] == '.'))) {
      out += text[i++];
      continue;
    }
    size_t q = i;
    while (q < text.size() && digit(text[q])) ++q;
    if (q + 1 < text.size() && text[q] == '.' && digit(text[q + 1]))
      for (++q; q < text.size() && digit(text[q]);) ++q;
    size_t e = q;
    while (e < text.size() && std::isalpha(static_cast<unsigned char>(text[e]))) ++e;
    const std::string_view number = text.substr(i, q - i), suffix = text.substr(q, e - q);
    std::optional<std::string> to;
    if (!suffix.empty() && (e == text.size() || !word(text[e]))) to = fix(number, suffix);
    out.append(to ? std::string_view(*to) : text.substr(i, e - i));
    i = e;
  }
  return out;
}

std::string SizesForKbBase(std::string_view text, uint32_t from, uint32_t to) {
  if (from == to) return std::string(text);
  return MapSizeSuffixes(
      text, [&](std::string_view, std::string_view suffix) -> std::optional<std::string> {
        if ((suffix.size() == 1 && (suffix[0] | 0x20) == 'b') || !SizeMultiplier(suffix, from))
          return std::nullopt;
        std::string out(1, suffix[0]);
        if (suffix.size() >= 2 && (suffix[1] | 0x20) == 'i') {
          out.append(suffix.substr(2));  // "mi", "MiB": drop the i
        } else {
          // "m", "MB": add it, with the 'b' that fio 3.33 needs to read
          // an IEC prefix so ("1mi" is 1m there): "1mib", "MiB".
          const bool upper = std::isupper(static_cast<unsigned char>(suffix[0])) != 0;
          out += 'i';
          out += suffix.size() > 1 ? suffix.substr(1) : std::string_view(upper ? "B" : "b");
        }
        return out;
      });
}

std::optional<uint64_t> TimeMultiplierNs(std::string_view suffix, uint64_t default_unit_ns) {
  std::string s = ToLower(suffix);
  if (s.empty()) return default_unit_ns;
  if (s == "d") return 86400ull * 1000000000ull;
  if (s == "h") return 3600ull * 1000000000ull;
  if (s == "m" || s == "min") return 60ull * 1000000000ull;
  if (s == "s" || s == "sec") return 1000000000ull;
  if (s == "ms" || s == "msec") return 1000000ull;
  if (s == "us" || s == "usec") return 1000ull;
  if (s == "ns" || s == "nsec") return 1ull;
  return std::nullopt;
}

namespace {

// A position in an expression, blanks skipped: what both evaluators read.
class ExprCursor {
 protected:
  explicit ExprCursor(std::string_view text) : t_(text) {}
  void Skip() {
    while (p_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[p_]))) ++p_;
  }
  bool Eat(char c) {
    Skip();
    if (p_ < t_.size() && t_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }

  std::string_view t_;
  size_t p_ = 0;
};

// Sets *err (when given) and returns no value: the error path of the number
// parsers, `off` counting from the start of the text they were given.
template <typename T>
std::optional<T> Fail(ValueError* err, std::string msg, size_t off) {
  if (err) {
    err->message = std::move(msg);
    err->offset = off;
  }
  return std::nullopt;
}

// `text` without the blanks around it; *begin: where that starts in `text`,
// so that error offsets stay relative to the original text.
std::string_view TrimBlanks(std::string_view text, size_t* begin) {
  size_t b = 0;
  while (b < text.size() && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  size_t e = text.size();
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  *begin = b;
  return text.substr(b, e - b);
}

// One number as written ("1.5k", "-0x10", "2m"), in bytes, nanoseconds or as
// is, not rounded. Whole numbers up to INT64_MAX are exact: long double has
// a 64-bit mantissa (x86-64; quad precision elsewhere).
std::optional<long double> ParseLiteral(std::string_view text, const NumContext& ctx,
                                        ValueError* err);

// Recursive-descent evaluator over one expression string, in long double:
// each number is kept as written and only the final result is rounded (by
// ParseNumber).
//
// Each value also counts its units: a time in a time option counts one, a
// plain number none. A product of two times, or a time raised to a power,
// has no meaning as a time: runtime=(1m*1m) was taken as 3600 s. It is
// refused (fio 3.33 as Debian builds it refuses every expression). Sizes
// multiply as fio's arithmetic multiplies them, each suffix a factor:
// size=(1k*1k) is 1 MiB in fio built with arithmetic, and here.
class ExprParser : ExprCursor {
 public:
  ExprParser(std::string_view text, const NumContext& ctx, ValueError* err)
      : ExprCursor(text), ctx_(ctx), err_(err) {}

  std::optional<long double> Parse() {
    auto v = Sum();
    if (!v) return std::nullopt;
    Skip();
    if (p_ != t_.size()) return Fail("unexpected '" + std::string(1, t_[p_]) + "' in expression");
    return v->v;
  }

 private:
  struct Val {
    long double v = 0;
    int units = 0;     // times multiplied in; divisions take them out
    size_t begin = 0;  // where its text starts in t_
  };

  std::nullopt_t Fail(std::string msg) {
    if (err_ && err_->message.empty()) {
      err_->message = std::move(msg);
      err_->offset = p_;
    }
    return std::nullopt;
  }
  std::string Text(size_t from, size_t to) const { return Trim(t_.substr(from, to - from)); }
  // The error for a time that a product or power doubles; p_ is at `op`.
  std::nullopt_t UnitError(const std::string& what, const std::string& left,
                           const std::string& right) {
    return Fail("'" + what + "' " +
                (right.empty() ? "raises a time (" + left + ") to a power"
                               : "multiplies two times (" + left + " and " + right + ")") +
                ", which is not a time; write the other factors as plain numbers, e.g. (60*1m)");
  }
  // Only times count their units (above).
  bool TimeKind() const { return ctx_.kind == NumKind::kTime; }
  std::optional<Val> Sum() {
    auto l = Product();
    if (!l) return l;
    for (;;) {
      const bool plus = Eat('+');
      if (!plus && !Eat('-')) return l;
      auto r = Product();
      if (!r) return r;
      l->v = plus ? l->v + r->v : l->v - r->v;
      l->units = std::max(l->units, r->units);  // a plain number takes the other's unit
    }
  }
  std::optional<Val> Product() {
    auto l = Power();
    if (!l) return l;
    for (;;) {
      char op = 0;
      Skip();
      const size_t op_at = p_;
      if (p_ < t_.size() && (t_[p_] == '*' || t_[p_] == '/' || t_[p_] == '%')) op = t_[p_++];
      if (!op) return l;
      size_t at = p_;
      auto r = Power();
      if (!r) return r;
      if ((op == '/' || op == '%') && r->v == 0) {
        p_ = at;
        return Fail("division by zero in expression");
      }
      if (op == '*' && TimeKind() && l->units > 0 && r->units > 0) {
        const size_t end = p_;
        p_ = op_at;
        return UnitError(Text(l->begin, end), Text(l->begin, op_at), Text(at, end));
      }
      if (op == '*') {
        l->v *= r->v;
        l->units += r->units;
      } else if (op == '/') {
        l->v /= r->v;
        l->units -= r->units;
      } else {
        l->v = std::fmod(l->v, r->v);  // long double overload
      }
    }
  }
  std::optional<Val> Power() {
    auto l = Unary();
    if (!l) return l;
    const size_t op_at = p_;
    if (Eat('^')) {
      auto r = Nested(&ExprParser::Power);  // right associative
      if (!r) return r;
      if (TimeKind() && l->units != 0 && r->v != 1) {
        const size_t end = p_;
        p_ = op_at;
        return UnitError(Text(l->begin, end), Text(l->begin, op_at), "");
      }
      l->v = std::pow(l->v, r->v);  // long double overload
    }
    return l;
  }
  // Each recursion (parentheses and signs through Unary, a power's exponent
  // through Power) goes through here: the depth bound keeps a hostile value
  // (thousands of '(' on the command line or in a ${VAR}) from overflowing
  // the stack.
  template <typename Fn>
  std::optional<Val> Nested(Fn fn) {
    if (depth_ >= kMaxDepth) return Fail("expression nested too deeply (more than 64 levels)");
    ++depth_;
    auto v = (this->*fn)();
    --depth_;
    return v;
  }
  std::optional<Val> Unary() { return Nested(&ExprParser::UnaryInner); }
  std::optional<Val> UnaryInner() {
    Skip();
    const size_t begin = p_;
    if (Eat('-')) {
      auto v = Unary();
      if (!v) return v;
      return Val{-v->v, v->units, begin};
    }
    if (Eat('+')) {
      auto v = Unary();
      if (v) v->begin = begin;
      return v;
    }
    return Primary();
  }
  std::optional<Val> Primary() {
    Skip();
    if (p_ >= t_.size()) return Fail("expression ends too early");
    const size_t begin = p_;
    if (t_[p_] == '(') {
      ++p_;
      auto v = Sum();
      if (!v) return v;
      if (!Eat(')')) return Fail("missing ')' in expression");
      v->begin = begin;
      return v;
    }
    if (!std::isdigit(static_cast<unsigned char>(t_[p_])) && t_[p_] != '.') {
      if (t_[p_] == '$')
        return Fail("unknown keyword in expression (use $ncpus, $mb_memory, $pagesize or ${VAR})");
      return Fail("expected a number in expression");
    }
    size_t start = p_;
    size_t end = start;
    while (end < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[end])) || t_[end] == '.'))
      ++end;
    // The number as written, not rounded: (1.5*1m) is 1572864 and
    // (0.5+0.5) is 1; only the result of the whole expression is rounded.
    ValueError sub;
    const std::string_view literal = t_.substr(start, end - start);
    auto v = ParseLiteral(literal, ctx_, &sub);
    if (!v) {
      p_ = start + sub.offset;
      return Fail(sub.message);
    }
    p_ = end;
    // A suffix after the digits (not a hex number's) is a size or time unit.
    const bool hex = literal.size() > 1 && literal[0] == '0' && (literal[1] | 0x20) == 'x';
    const bool unit = ctx_.kind != NumKind::kPlain && !hex &&
                      literal.find_first_not_of("0123456789.") != std::string_view::npos;
    // A time expression is evaluated in the option's default unit, so bare
    // numbers are plain factors: runtime=(10/4) is 2.5 s and (2*1m) is 2
    // minutes, not a product of two durations.
    if (ctx_.kind == NumKind::kTime && ctx_.time_unit_ns > 1)
      *v /= static_cast<long double>(ctx_.time_unit_ns);
    return Val{*v, unit ? 1 : 0, begin};
  }

  static constexpr int kMaxDepth = 64;
  const NumContext& ctx_;
  ValueError* err_;
  int depth_ = 0;
};

}  // namespace

std::optional<long double> EvalExpression(std::string_view text, const NumContext& ctx,
                                          ValueError* err) {
  ExprParser p(text, ctx, err);
  return p.Parse();
}

std::optional<int64_t> ParseNumber(std::string_view text, const NumContext& ctx, ValueError* err) {
  auto fail = [&](std::string msg, size_t off) { return Fail<int64_t>(err, std::move(msg), off); };
  size_t b = 0;
  const std::string_view s = TrimBlanks(text, &b);
  if (s.empty()) return fail("empty value where a number was expected", b);
  if (s.front() == '(') {
    ValueError sub;
    auto v = EvalExpression(s, ctx, &sub);
    if (!v) return fail(sub.message, b + sub.offset);
    if (ctx.kind == NumKind::kTime && ctx.time_unit_ns > 1)
      *v *= static_cast<long double>(ctx.time_unit_ns);
    // ((-2)^0.5) has no value at all; saying "out of range" (or, before
    // the evaluator kept fractions, computing -2) hid the mistake.
    if (std::isnan(*v))
      return fail("invalid expression '" + std::string(s) +
                      "': it has no numeric value (e.g. a negative number to a fractional power)",
                  b);
    // Below 2^63 in magnitude: llroundl's range.
    if (!std::isfinite(*v) || std::fabs(*v) >= 9223372036854775808.0L)
      return fail("expression '" + std::string(s) + "' is out of range", b);
    return static_cast<int64_t>(std::llroundl(*v));  // the one rounding
  }
  auto v = ParseLiteral(text, ctx, err);
  if (!v) return std::nullopt;
  // A size's fraction is dropped, as fio's strtoll drops it: bs=1228.8 (or
  // bc's 1228.8 for bs=$pagesize*0.3) is 1228 bytes, not 1229.
  if (ctx.kind == NumKind::kSize) return static_cast<int64_t>(std::truncl(*v));
  return static_cast<int64_t>(std::llroundl(*v));  // whole numbers are exact
}

namespace {

// Where a range's separator ('-' or ':' before a digit) stands in the text
// after a number ("k-128k", "k:128k"), or npos: fio 3.33 reads
// size=64k-128k and 64k:128k as 128k, without a word.
size_t RangeSeparator(std::string_view rest) {
  for (size_t i = 0; i + 1 < rest.size(); ++i)
    if ((rest[i] == '-' || rest[i] == ':') && std::isdigit(static_cast<unsigned char>(rest[i + 1])))
      return i;
  return std::string_view::npos;
}

std::string RangeMessage(std::string_view s) {
  return "'" + std::string(s) + "' is a range (a-b); this option takes one value";
}

std::optional<long double> ParseLiteral(std::string_view text, const NumContext& ctx,
                                        ValueError* err) {
  auto fail = [&](std::string msg, size_t off) {
    return Fail<long double>(err, std::move(msg), off);
  };
  size_t b = 0;
  const std::string_view s = TrimBlanks(text, &b);
  if (s.empty()) return fail("empty value where a number was expected", b);
  size_t p = 0;
  bool neg = false;
  if (s[p] == '-' || s[p] == '+') {
    neg = s[p] == '-';
    ++p;
  }
  // Up to INT64_MAX either side of zero. A negative one past it is too
  // small, not too large (rw=read:-9223372036854775808 said "too large").
  const auto too_large = [&] {
    return fail("number '" + std::string(s) + "' is too " + (neg ? "small" : "large"), b);
  };
  if (p + 1 < s.size() && s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X')) {
    size_t q = p + 2;
    unsigned __int128 v = 0;
    if (q >= s.size()) return fail("bad hex number '" + std::string(s) + "'", b);
    for (; q < s.size(); ++q) {
      int d;
      char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s[q])));
      if (c >= '0' && c <= '9')
        d = c - '0';
      else if (c >= 'a' && c <= 'f')
        d = c - 'a' + 10;
      else if (RangeSeparator(s.substr(q)) == 0)
        return fail(RangeMessage(s), b + q);
      else
        return fail("bad hex number '" + std::string(s) + "'", b + q);
      v = v * 16 + d;
      if (v > static_cast<unsigned __int128>(INT64_MAX)) return too_large();
    }
    // A hex time is a count of the option's default unit, as a decimal one
    // is: runtime=0x10 is 16 s (it was 16 ns, which showed as 0us).
    if (ctx.kind == NumKind::kTime) {
      v *= ctx.time_unit_ns;
      if (v > static_cast<unsigned __int128>(INT64_MAX)) return too_large();
    }
    const auto r = static_cast<long double>(static_cast<int64_t>(v));
    return neg ? -r : r;
  }
  size_t q = p;
  while (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q]))) ++q;
  bool frac = false;
  if (q < s.size() && s[q] == '.') {
    frac = true;
    ++q;
    while (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q]))) ++q;
  }
  if (q == p || (frac && q == p + 1)) {
    const char* what = ctx.kind == NumKind::kTime   ? "time"
                       : ctx.kind == NumKind::kSize ? "size"
                                                    : "number";
    return fail(std::string("bad ") + what + " '" + std::string(s) + "'", b + p);
  }
  std::string digits(s.substr(p, q - p));
  std::string_view suffix = s.substr(q);
  // "64k-128k" where one value is taken: "bad size unit 'k-128k'" did not
  // say why.
  if (const size_t dash = RangeSeparator(suffix); dash != std::string_view::npos)
    return fail(RangeMessage(s), b + q + dash);
  uint64_t mult = 1;
  if (ctx.kind == NumKind::kTime) {
    auto m = TimeMultiplierNs(suffix, ctx.time_unit_ns);
    if (!m)
      return fail("bad time unit '" + std::string(suffix) + "' in '" + std::string(s) +
                      "' (use d, h, m, s, ms, us or ns)",
                  b + q);
    mult = *m;
  } else {
    if (!suffix.empty() && (suffix[0] == 'z' || suffix[0] == 'Z'))
      return fail("zone units ('z') are not supported by iobench yet", b + q);
    auto m = SizeMultiplier(suffix, ctx.kb_base);
    if (!m) {
      if (ctx.kind == NumKind::kPlain) return fail("bad number '" + std::string(s) + "'", b + q);
      return fail("bad size unit '" + std::string(suffix) + "' in '" + std::string(s) +
                      "' (use k, m, g, t, p, optionally with i and/or b)",
                  b + q);
    }
    mult = *m;
  }
  // Up to INT64_MAX, as off_t holds (offset=8191p, 9.2234e18, is fio's
  // too; a cap of 9.2e18 refused it). Whole numbers are exact in integers;
  // a fraction goes through long double, whose 64-bit mantissa holds every
  // int64_t.
  long double r;
  if (!frac) {
    unsigned __int128 v = 0;
    for (char c : digits) {
      v = v * 10 + static_cast<unsigned>(c - '0');
      if (v > static_cast<unsigned __int128>(INT64_MAX)) return too_large();
    }
    v *= mult;
    if (v > static_cast<unsigned __int128>(INT64_MAX)) return too_large();
    r = static_cast<long double>(static_cast<int64_t>(v));
  } else {
    const long double v = std::strtold(digits.c_str(), nullptr) * static_cast<long double>(mult);
    if (!(v <= static_cast<long double>(INT64_MAX))) return too_large();
    r = v;  // rounded by the caller: ParseNumber, or once after an expression
  }
  return neg ? -r : r;
}

}  // namespace

namespace {

// ${VAR} from the environment; everything else is copied.
std::optional<std::string> ExpandEnv(std::string_view text, ValueError* err,
                                     std::string_view unset_note) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '$') {
      out += text[i++];
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '{') {
      size_t close = text.find('}', i + 2);
      if (close == std::string_view::npos) {
        if (err) *err = {"missing '}' after '${'", i};
        return std::nullopt;
      }
      std::string var(text.substr(i + 2, close - i - 2));
      if (var.empty()) {
        if (err) *err = {"empty variable name in '${}'", i};
        return std::nullopt;
      }
      const bool plain_name = std::all_of(var.begin(), var.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      });
      if (!plain_name) {
        if (err)
          *err = {"'${" + var +
                      "}' is not a variable name: shell syntax such as ${VAR:-default} is not "
                      "supported (fio has none either)",
                  i};
        return std::nullopt;
      }
      const char* v = std::getenv(var.c_str());
      if (!v) {
        // ${1}: a shell takes `1=x iobench` for a command named "1=x"; env
        // sets any name.
        const bool shell_name = !std::isdigit(static_cast<unsigned char>(var[0]));
        if (err)
          *err = {"environment variable '" + var + "' is not set (" + std::string(unset_note) +
                      "; set it, e.g. " +
                      (shell_name ? var + "=... iobench ...)"
                                  : "env '" + var +
                                        "=...' iobench ..., as a shell cannot assign that name)"),
                  i};
        return std::nullopt;
      }
      // A control character written in a job file is refused (lexer.cc);
      // one brought by a variable is too, naming it: a newline would end
      // up inside a file name or split the value in --parse-only.
      if (const size_t k = sys::ValueControlAt(v); k != std::string::npos) {
        if (err)
          *err = {"environment variable '" + var + "' holds a control character (" +
                      sys::ControlName(v[k]) + ") at byte " + std::to_string(k + 1) +
                      " of its value: it is refused as it would be in the job file",
                  i};
        return std::nullopt;
      }
      out += v;
      i = close + 1;
      continue;
    }
    out += text[i++];
  }
  return out;
}

// $ncpus, $mb_memory and $pagesize; everything else is copied.
std::string ExpandKeywords(std::string_view text, bool* used_keyword) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '$') {
      out += text[i++];
      continue;
    }
    auto starts = [&](std::string_view kw) { return text.substr(i + 1, kw.size()) == kw; };
    if (starts("ncpus")) {
      // fio counts configured CPUs (cpus_configured()), not online ones.
      unsigned n = std::thread::hardware_concurrency();
      long c = sysconf(_SC_NPROCESSORS_CONF);
      if (c > 0) n = static_cast<unsigned>(c);
      out += std::to_string(n ? n : 1);
      i += 6;
      if (used_keyword) *used_keyword = true;
    } else if (starts("mb_memory")) {
      long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
      uint64_t mb = (pages > 0 && psz > 0)
                        ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(psz) / (1024 * 1024)
                        : 0;
      out += std::to_string(mb);
      i += 10;
      if (used_keyword) *used_keyword = true;
    } else if (starts("pagesize")) {
      long psz = sysconf(_SC_PAGESIZE);
      out += std::to_string(psz > 0 ? psz : 4096);
      i += 9;
      if (used_keyword) *used_keyword = true;
    } else {
      out += text[i++];  // `$VAR` without braces stays literal, as in fio
    }
  }
  return out;
}

}  // namespace

std::optional<std::string> Expand(std::string_view text, ValueError* err, bool* used_keyword,
                                  std::string_view unset_note) {
  if (used_keyword) *used_keyword = false;
  // As fio: the environment first (a whole line, at read time), then the
  // keywords, so a ${VAR} holding `$ncpus*2` is computed too.
  auto env = ExpandEnv(text, err, unset_note);
  if (!env) return std::nullopt;
  return ExpandKeywords(*env, used_keyword);
}

namespace {

// Arithmetic as bc computes it at its default scale 0, which is what fio
// pipes a value with a $keyword through. A number is m / 10^scale, scale
// being its count of fraction digits. A division truncates to a whole
// number at each step (`$pagesize*2/3` is 2730, `$ncpus/4*1.0` on 2 CPUs
// is 0); + - * keep the larger scale of their operands, a product cut (not
// rounded) to it (`$pagesize*2.5` is 10240.0, `$ncpus*1.25` 2.50); a%b is
// a-(a/b)*b; a power is Power()'s. Anything bc cannot read (a
// unit: `$pagesize*1k` is bc's syntax error) gives nullopt.
class BcNum : ExprCursor {
 public:
  explicit BcNum(std::string_view t) : ExprCursor(t) {}
  bool exponent_fraction() const { return exponent_fraction_; }
  // bc's output: "10240.0", ".50", "-.5", "0" (a zero has no fraction).
  std::optional<std::string> Parse() {
    auto v = Sum();
    Skip();
    if (!v || p_ != t_.size()) return std::nullopt;
    if (v->m == 0) return "0";
    // Beyond what an option holds: left to the evaluator, which says so.
    if ((v->m < 0 ? -v->m : v->m) / Pow10(v->scale) > INT64_MAX) return std::nullopt;
    const bool neg = v->m < 0;
    std::string digits;
    for (unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v->m) : v->m; u; u /= 10)
      digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    const auto scale = static_cast<size_t>(v->scale);
    if (digits.size() < scale) digits.insert(0, scale - digits.size(), '0');
    const std::string whole = digits.substr(0, digits.size() - scale);  // "" below 1, as bc
    return (neg ? "-" : "") + whole + (scale > 0 ? "." + digits.substr(whole.size()) : "");
  }

 private:
  struct Num {
    __int128 m = 0;
    int scale = 0;
  };
  static constexpr __int128 kLimit = static_cast<__int128>(1) << 120;
  static std::optional<Num> Checked(__int128 m, int scale) {
    if (m > kLimit || m < -kLimit) return std::nullopt;
    return Num{m, scale};
  }
  // |x * y| stays within kLimit.
  static bool ProductFits(__int128 x, __int128 y) {
    if (x == 0 || y == 0) return true;
    if (x < 0) x = -x;
    if (y < 0) y = -y;
    return x <= kLimit / y;
  }
  static __int128 Pow10(int n) {
    __int128 r = 1;
    while (n-- > 0) r *= 10;
    return r;
  }
  // `v` at the larger scale `to` (exact).
  static std::optional<__int128> Widen(const Num& v, int to) {
    const __int128 r = v.m * Pow10(to - v.scale);
    if (r > kLimit || r < -kLimit) return std::nullopt;
    return r;
  }
  // a / b truncated to a whole number, as bc at scale 0.
  static std::optional<__int128> Quotient(const Num& a, const Num& b) {
    const int s = std::max(a.scale, b.scale);
    auto x = Widen(a, s), y = Widen(b, s);
    if (!x || !y || *y == 0) return std::nullopt;  // bc: "Divide by zero"
    return *x / *y;                                // C++ truncates toward zero, as bc
  }
  std::optional<Num> Sum() {
    auto a = Product();
    while (a) {
      const char op = Eat('+') ? '+' : Eat('-') ? '-' : 0;
      if (op == 0) break;
      auto b = Product();
      if (!b) return std::nullopt;
      const int s = std::max(a->scale, b->scale);
      auto x = Widen(*a, s), y = Widen(*b, s);
      a = x && y ? Checked(op == '+' ? *x + *y : *x - *y, s) : std::nullopt;
    }
    return a;
  }
  std::optional<Num> Product() {
    auto a = Power();
    while (a) {
      const char op = Eat('*') ? '*' : Eat('/') ? '/' : Eat('%') ? '%' : 0;
      if (op == 0) break;
      auto b = Power();
      if (!b) return std::nullopt;
      const int s = std::max(a->scale, b->scale);
      if (op == '*') {
        // Exact at scale a+b, then cut to s.
        if (!ProductFits(a->m, b->m)) return std::nullopt;
        a = Num{a->m * b->m / Pow10(a->scale + b->scale - s), s};
        continue;
      }
      auto q = Quotient(*a, *b);
      if (!q) return std::nullopt;
      if (op == '/') {
        a = Num{*q, 0};
        continue;
      }
      auto x = Widen(*a, s), y = Widen(*b, s);  // a - (a/b)*b at scale s
      if (!x || !y) return std::nullopt;
      a = Checked(*x - *q * *y, s);
    }
    return a;
  }
  // An unsigned whole number of any size, in base-10^9 limbs (lowest
  // first): a power's exact value before bc cuts it.
  using Big = std::vector<uint32_t>;
  static constexpr uint32_t kLimb = 1000000000;
  static Big ToBig(unsigned __int128 v) {
    Big b;
    for (; v; v /= kLimb) b.push_back(static_cast<uint32_t>(v % kLimb));
    return b;
  }
  static Big Times(const Big& x, const Big& y) {
    if (x.empty() || y.empty()) return {};
    std::vector<uint64_t> r(x.size() + y.size());
    for (size_t i = 0; i < x.size(); ++i) {
      uint64_t carry = 0;
      for (size_t j = 0; j < y.size(); ++j) {
        const uint64_t cur = r[i + j] + uint64_t{x[i]} * y[j] + carry;
        r[i + j] = cur % kLimb;
        carry = cur / kLimb;
      }
      for (size_t k = i + y.size(); carry; ++k) {
        const uint64_t cur = r[k] + carry;
        r[k] = cur % kLimb;
        carry = cur / kLimb;
      }
    }
    while (!r.empty() && r.back() == 0) r.pop_back();
    return Big(r.begin(), r.end());
  }
  static size_t Digits(const Big& b) {
    if (b.empty()) return 0;
    size_t n = 9 * (b.size() - 1);
    for (uint32_t top = b.back(); top; top /= 10) ++n;
    return n;
  }
  // b / 10^k, truncated; nullopt past kLimit.
  static std::optional<__int128> Shifted(Big b, size_t k) {
    b.erase(b.begin(), b.begin() + static_cast<ptrdiff_t>(std::min(k / 9, b.size())));
    uint32_t d = 1;
    for (size_t i = 0; i < k % 9; ++i) d *= 10;
    uint64_t rem = 0;
    for (size_t i = b.size(); i-- > 0;) {
      const uint64_t cur = rem * kLimb + b[i];
      b[i] = static_cast<uint32_t>(cur / d);
      rem = cur % d;
    }
    unsigned __int128 v = 0;
    for (size_t i = b.size(); i-- > 0;) {
      v = v * kLimb + b[i];
      if (v > static_cast<unsigned __int128>(kLimit)) return std::nullopt;
    }
    return static_cast<__int128>(v);
  }
  // a^e as bc's bc_raise at scale 0. The exponent's fraction is dropped
  // (bc warns "non-zero scale in exponent": 2^0.5 is 1, 1.5^2.0 is 2.2);
  // e >= 0 is computed exactly and cut once to min(scale(a)*e, scale(a)),
  // i.e. scale(a) (1.05^10 is 1.62, not 1.05 cut after each product);
  // e < 0 is 1/a^-e at scale 0, a whole number (2^-1 and (-2)^-1 are 0,
  // .5^-2 is 4). 0^-1 is bc's "divide by zero".
  std::optional<Num> Power() {  // right-associative
    auto a = Unary();
    if (!a || !Eat('^')) return a;
    auto e = Power();
    if (!e) return std::nullopt;
    if (e->scale > 0) exponent_fraction_ = true;
    const __int128 whole = e->m / Pow10(e->scale);  // toward zero, as bc_num2long
    if (whole == 0) return Num{1, 0};
    const __int128 n = whole < 0 ? -whole : whole;
    const unsigned __int128 base = a->m < 0 ? -static_cast<unsigned __int128>(a->m) : a->m;
    const Big big_base = ToBig(base);
    const size_t digits = Digits(big_base);
    // Left to the evaluator (which says what is out of range).
    if (n > 4096 || digits * static_cast<size_t>(n) > 20000) return std::nullopt;
    Big power{1};
    for (__int128 i = 0; i < n; ++i) power = Times(power, big_base);
    const bool neg = a->m < 0 && n % 2 == 1;
    const size_t cut = static_cast<size_t>(a->scale) * static_cast<size_t>(n);
    if (whole > 0) {
      auto m = Shifted(power, cut - static_cast<size_t>(a->scale));
      if (!m) return std::nullopt;
      return Num{neg ? -*m : *m, a->scale};
    }
    if (power.empty()) return std::nullopt;  // bc: "divide by zero"
    // 10^cut / power, truncated: 0 once power > 10^cut, 1 at 10^cut.
    const size_t pd = Digits(power);
    if (pd > cut) {
      Big ten(cut / 9 + 1, 0);
      ten.back() = 1;
      for (size_t i = 0; i < cut % 9; ++i) ten.back() *= 10;
      return Num{power == ten ? (neg ? -1 : 1) : 0, 0};
    }
    auto m = Shifted(power, 0);
    if (!m || cut > 36) return std::nullopt;
    const __int128 q = Pow10(static_cast<int>(cut)) / *m;
    return Num{neg ? -q : q, 0};
  }
  std::optional<Num> Unary() {
    if (Eat('-')) {
      auto v = Unary();
      return v ? Checked(-v->m, v->scale) : std::nullopt;
    }
    if (Eat('(')) {
      auto v = Sum();
      return v && Eat(')') ? v : std::nullopt;
    }
    Skip();
    const size_t b = p_;
    Num v;
    bool frac = false;
    for (; p_ < t_.size(); ++p_) {
      const char c = t_[p_];
      if (c == '.' && !frac) {
        frac = true;
        continue;
      }
      if (!std::isdigit(static_cast<unsigned char>(c))) break;
      if (frac && ++v.scale > 30) return std::nullopt;
      v.m = v.m * 10 + (c - '0');
      if (v.m > kLimit) return std::nullopt;
    }
    if (p_ == b || (frac && p_ == b + 1)) return std::nullopt;
    return v;
  }

  bool exponent_fraction_ = false;
};

}  // namespace

std::string KeywordArithmetic(std::string_view text, bool* exponent_fraction) {
  if (exponent_fraction) *exponent_fraction = false;
  std::string t = Trim(text);
  // fio hands the value to bc only when it holds one of + - * / (its
  // bc_calc): "$ncpus^2" and "$ncpus%3" stay "2^2" and "2%3", which fio
  // reads as 2 and iobench refuses as it refuses "2^2"; "$ncpus^2+1" is
  // bc's 5. An operator after the first character: a leading '-' is a sign.
  if (t.empty() || t.find_first_of("+-*/", 1) == std::string::npos) return std::string(text);
  BcNum bc(t);
  auto v = bc.Parse();
  if (exponent_fraction) *exponent_fraction = v && bc.exponent_fraction();
  if (v) return *v;
  // Units, which bc cannot read (fio fails such a value): the expression
  // evaluator (which rounds once).
  return "(" + t + ")";
}

std::vector<DirPart> SplitPerDirection(std::string_view text) {
  std::vector<DirPart> parts;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == ',') {
      std::string piece = Trim(text.substr(start, i - start));
      DirPart d;
      d.offset = start;
      if (!piece.empty()) d.text = piece;
      parts.push_back(d);
      start = i + 1;
    }
  }
  std::vector<DirPart> out(3);
  for (size_t i = 0; i < 3; ++i) {
    if (i < parts.size())
      out[i] = parts[i];
    else if (!parts.empty())
      out[i] = parts.back();  // carry-over (empty stays empty)
  }
  return out;
}

std::string PerDirectionExcess(std::string_view text, const std::string& option,
                               bool empty_extra_ok) {
  if (std::count(text.begin(), text.end(), ',') < 3) return "";
  if (empty_extra_ok) {
    // bs=4k,8k,, is bs=4k,8k, to fio: nothing is dropped, so nothing to refuse.
    size_t field = 0;
    bool excess = false;
    for (size_t i = 0, start = 0; i <= text.size(); ++i) {
      if (i < text.size() && text[i] != ',') continue;
      if (field++ >= 3 && !Trim(text.substr(start, i - start)).empty()) excess = true;
      start = i + 1;
    }
    if (!excess) return "";
  }
  return "option '" + option +
         "' takes at most 3 comma-separated values (reads,writes,trims), got '" +
         std::string(text) + "'";
}

}  // namespace iobench::jobfile
