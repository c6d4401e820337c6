#include "jobfile/options.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <set>
#include <type_traits>
#include <utility>

#include "iobench/engine.h"
#include "jobfile/units.h"

namespace iobench::jobfile {

namespace {

constexpr uint64_t kSec = 1000000000ull;
constexpr uint64_t kUsec = 1000ull;
constexpr uint64_t kMsec = 1000000ull;

// A new job's values, which OptionDef::reset puts back.
const JobSpec& DefaultJobSpecForReset() {
  static const JobSpec fresh;
  return fresh;
}

// Fluent builder so each row reads as one line of data.
struct Row {
  OptionDef d;
  Row(const char* name, OptType t, const char* cat, const char* help) {
    d.name = name;
    d.type = t;
    d.category = cat;
    d.help = help;
    d.kb_base_sizes = t == OptType::kSize || t == OptType::kInt;
  }
  Row& Alias(std::initializer_list<const char*> a) {
    for (auto* s : a) d.aliases.emplace_back(s);
    return *this;
  }
  Row& Def(const char* v) {
    d.def = v;
    return *this;
  }
  Row& Range(int64_t lo, int64_t hi) {
    d.min = lo;
    d.max = hi;
    return *this;
  }
  Row& PerDir() {
    d.per_dir = true;
    return *this;
  }
  // A kSpecial option whose value holds sizes (read with the kb_base).
  Row& Sizes() {
    d.kb_base_sizes = true;
    return *this;
  }
  Row& Percent() {
    d.allow_percent = true;
    return *this;
  }
  Row& Unit(uint64_t ns) {
    d.time_unit_ns = ns;
    return *this;
  }
  Row& Choices(std::string c) {
    d.choices = std::move(c);
    return *this;
  }
  Row& Engines(std::initializer_list<const char*> e) {
    for (auto* s : e) d.engines.emplace_back(s);
    return *this;
  }
  // fio's FIO_OPT_STR_SET flags: any integer, 0 off and any other on.
  Row& AnyInt() {
    d.any_int = true;
    return *this;
  }
  Row& NoRun() {
    d.runs = false;
    return *this;
  }
  Row& Set(OptionSetter s) {
    d.set = s;
    return *this;
  }
  // An engine option: the JobSpec field `F` it sets, which OptionDef::reset
  // puts back to a new JobSpec's value.
  template <auto F>
  Row& Field() {
    d.reset = [](JobSpec& j) {
      const JobSpec& fresh = DefaultJobSpecForReset();
      auto& field = j.*F;
      if constexpr (std::is_array_v<std::remove_reference_t<decltype(field)>>)
        std::copy(std::begin(fresh.*F), std::end(fresh.*F), std::begin(field));
      else
        field = fresh.*F;
    };
    return *this;
  }
};

Status Bad(std::string msg) { return Status::Invalid(std::move(msg)); }

// --- helpers for the special setters ---------------------------------------

Result<int64_t> Num(std::string_view text, NumKind kind, uint32_t kb_base, uint64_t unit = kSec) {
  NumContext c;
  c.kind = kind;
  c.kb_base = kb_base;
  c.time_unit_ns = unit;
  ValueError e;
  auto v = ParseNumber(text, c, &e);
  if (!v) return Bad(e.message);
  return *v;
}

// A share or level inside a list value (bssplit=4k/10.5:...): Num() would
// round 10.5 to 11 and turn shares that add up to 100 into "101%"; fio drops
// the fraction. Neither is what was written, so a fraction is refused.
// `fio_does` says what fio does with one, where it does not drop it.
Result<int64_t> Whole(const std::string& text, const std::string& what,
                      const char* fio_does = "fio drops the fraction") {
  const std::string t = Trim(text);
  if (!t.empty() && t[0] != '(' && t.find('.') != std::string::npos)
    return Bad(what + " '" + t + "' must be a whole number (" + fio_does + ")");
  return Num(t, NumKind::kPlain, 1024);
}

// Where a range's first separator ('-' or ':') is, outside parentheses, from
// `from` on; a separator cannot be first (-1 is a sign). npos: none.
size_t FirstRangeSeparator(const std::string& t, size_t from = 0) {
  int depth = 0;
  for (size_t i = from; i < t.size(); ++i) {
    if (t[i] == '(') ++depth;
    if (t[i] == ')') --depth;
    if (i > from && depth == 0 && (t[i] == '-' || t[i] == ':')) return i;
  }
  return std::string::npos;
}

// A range written with a third part (4k-8k-16k): fio reads lo-hi and drops
// the rest, so the job would not run what the file says. `what` names it.
std::string ThirdRangePart(const std::string& what, const std::string& t) {
  return what + " '" + t + "' has more than two parts: a range is lo-hi (" +
         t.substr(0, FirstRangeSeparator(t, FirstRangeSeparator(t) + 1)) + ", say)";
}

// "lo-hi" or "lo:hi" (swapped when lo > hi); a single value gives lo == hi.
// When `reversed` is given and the range was written high to low, it gets
// the range written the other way round ("3-1" -> "1-3"), for an option
// that refuses it; else it is left empty.
Status ParseRange(std::string_view text, NumKind kind, uint32_t kb_base, uint64_t unit, int64_t* lo,
                  int64_t* hi, std::string* reversed = nullptr) {
  if (reversed != nullptr) reversed->clear();
  std::string t = Trim(text);
  // The parentheses count from the first character: (1-2)-(3) was split
  // inside the first expression ("missing ')'").
  const size_t sep = FirstRangeSeparator(t);
  if (sep == std::string::npos) {
    IOB_ASSIGN_OR_RETURN(*lo, Num(t, kind, kb_base, unit));
    *hi = *lo;
    return Status::Ok();
  }
  if (FirstRangeSeparator(t, sep + 1) != std::string::npos) return Bad(ThirdRangePart("range", t));
  IOB_ASSIGN_OR_RETURN(*lo, Num(t.substr(0, sep), kind, kb_base, unit));
  IOB_ASSIGN_OR_RETURN(*hi, Num(t.substr(sep + 1), kind, kb_base, unit));
  if (*lo > *hi) {
    std::swap(*lo, *hi);
    if (reversed != nullptr) *reversed = Trim(t.substr(sep + 1)) + t[sep] + Trim(t.substr(0, sep));
  }
  return Status::Ok();
}

const char* DirName(int d) { return d == 0 ? "reads" : d == 1 ? "writes" : "trims"; }

// One limit for bs, bsrange and bssplit: Linux moves at most about 2 GiB per
// read or write call, so a larger block could never complete in one I/O.
constexpr int64_t kMaxBlockSize = INT32_MAX;

std::string TooLargeBlock(const std::string& what) {
  return what + " is larger than " + std::to_string(kMaxBlockSize) +
         " bytes, the largest block size (as for bs)";
}

// j.bs[d] from what bs=, bsrange= and bssplit= wrote (BlockSizeOptions),
// as fio 3.33 reads them when the job starts (fixup_options, then
// get_next_buflen). A split that a different range of several sizes
// overrides is left as it was here; CheckBlockSizes refuses it.
void ResolveBlockSize(JobSpec& j, int d) {
  const BlockSizeOptions& o = j.bs_options[d];
  const uint64_t min = o.min != 0 ? o.min : o.bs;
  const uint64_t max = o.max != 0 ? o.max : o.bs;
  BlockSizeSpec& b = j.bs[d];
  if (min == max || o.split.empty()) {
    b = BlockSizeSpec{min, max, {}};
    return;
  }
  b.split = o.split;
  b.min = b.max = o.split.front().bs;
  for (const BsSplitEntry& e : o.split) {
    b.min = std::min(b.min, e.bs);
    b.max = std::max(b.max, e.bs);
  }
}

// bsrange= or bssplit= sets min/max of direction d at `layer`.
void SetBlockRange(JobSpec& j, int d, uint64_t min, uint64_t max, int layer) {
  BlockSizeOptions& o = j.bs_options[d];
  o.min = min;
  o.max = max;
  o.layer = layer;
  if (o.split_layer < layer) {  // the command line's range over a job file's split
    o.split.clear();
    o.split_layer = -1;
  }
}

Status ParseBsSplit(JobSpec& j, const OptValue& v) {
  // fio refuses bssplit=4k/50,,, ("split conversion failed"), unlike bs=4k,,,.
  if (std::string excess = PerDirectionExcess(v.text, "bssplit", false); !excess.empty())
    return Bad(excess);
  auto parts = SplitPerDirection(v.text);
  for (int d = 0; d < kNumDdirs; ++d) {
    if (!parts[static_cast<size_t>(d)].text) continue;
    if (d > 0 && parts[static_cast<size_t>(d)].text == parts[static_cast<size_t>(d - 1)].text) {
      const BlockSizeOptions& prev = j.bs_options[d - 1];  // same split, warn only once
      SetBlockRange(j, d, prev.min, prev.max, v.layer);
      j.bs_options[d].split = prev.split;
      j.bs_options[d].split_layer = v.layer;
      ResolveBlockSize(j, d);
      continue;
    }
    std::vector<BsSplitEntry> entries;
    std::vector<size_t> blanks;
    size_t zeros = 0;  // blanks written as "/0"
    uint64_t total = 0;
    const auto items = SplitEscaped(*parts[static_cast<size_t>(d)].text, ':');
    for (size_t i = 0; i < items.size(); ++i) {
      std::string it = Trim(items[i]);
      // fio stops at an empty entry: "4k/50::8k/50" is 4k alone there,
      // silently. Refused, but for a harmless trailing ':'.
      if (it.empty() && i + 1 < items.size())
        return Bad("bssplit for " + std::string(DirName(d)) + " has an empty entry (entry " +
                   std::to_string(i + 1) + " of '" + *parts[static_cast<size_t>(d)].text +
                   "'): fio ignores it and every entry after it");
      if (it.empty()) continue;
      size_t slash = it.find('/');
      BsSplitEntry e;
      IOB_ASSIGN_OR_RETURN(int64_t bs, Num(it.substr(0, slash), NumKind::kSize, v.kb_base));
      if (bs <= 0) return Bad("bssplit block size '" + it + "' must be positive");
      if (bs > kMaxBlockSize) return Bad(TooLargeBlock("bssplit block size '" + it + "'"));
      e.bs = static_cast<uint64_t>(bs);
      std::string perc = slash == std::string::npos ? "" : Trim(it.substr(slash + 1));
      int64_t p = 0;
      if (!perc.empty()) {
        IOB_ASSIGN_OR_RETURN(p, Whole(perc, "bssplit share"));
        if (p < 0 || p > 100) return Bad("bssplit share '" + perc + "' must be 0..100");
      }
      if (p == 0) {
        // fio reads both "64k/" and "64k/0" as "take a share of the rest".
        blanks.push_back(entries.size());
        zeros += !perc.empty();
      } else {
        e.perc = static_cast<uint32_t>(p);
        total += e.perc;
      }
      entries.push_back(e);
    }
    if (entries.empty()) return Bad("bssplit for " + std::string(DirName(d)) + " is empty");
    if (total > 100)
      return Bad("bssplit shares for " + std::string(DirName(d)) + " add up to " +
                 std::to_string(total) + "%, more than 100%");
    // Blank shares split what is left evenly (fio: (100 - total) / blanks,
    // truncated).
    // A written 0% that gets a share is a surprise: say so, as for a total
    // under 100 (bssplit=4k/0:8k/0 issues 4k and 8k half each, as in fio).
    if (zeros != 0 && total < 100 && v.warnings)
      v.warnings->push_back(
          "bssplit shares for " + std::string(DirName(d)) + " add up to " + std::to_string(total) +
          "%; the remaining " + std::to_string(100 - total) + "% are split evenly between the " +
          "sizes without a share, those given 0% included (fio reads 0% as " + "no share)");
    uint64_t assigned = total;
    for (size_t i : blanks) {
      entries[i].perc = static_cast<uint32_t>((100 - total) / blanks.size());
      assigned += entries[i].perc;
    }
    if (assigned < 100) {
      // fio sorts the sizes by share and a draw past the last share takes
      // the last size: what is left goes to the largest share (the last
      // written of equal ones). 16k/50:4k/30 issues 70% 16k, 4k:8k:16k
      // 33/33/34.
      size_t top = 0;
      for (size_t i = 0; i < entries.size(); ++i)
        if (entries[i].perc >= entries[top].perc) top = i;
      if (blanks.empty() && v.warnings)
        v.warnings->push_back("bssplit shares for " + std::string(DirName(d)) + " add up to " +
                              std::to_string(total) + "%; the remaining " +
                              std::to_string(100 - total) + "% go to the size with the largest " +
                              "share (" + std::to_string(entries[top].bs) + " bytes), as in fio");
      entries[top].perc += static_cast<uint32_t>(100 - assigned);
    }
    uint64_t min = UINT64_MAX, max = 0;
    for (auto& e : entries) {
      min = std::min(min, e.bs);
      max = std::max(max, e.bs);
    }
    SetBlockRange(j, d, min, max, v.layer);
    j.bs_options[d].split = std::move(entries);
    j.bs_options[d].split_layer = v.layer;
    ResolveBlockSize(j, d);
  }
  return Status::Ok();
}

// cmdprio_bssplit=bs/perc[/class/level]:...[,...]: reads, writes; a third
// (trim) part is accepted and ignored, as fio does. A blank share is 0 %.
Status ParseCmdprioBsSplit(JobSpec& j, const OptValue& v) {
  auto parts = SplitPerDirection(v.text);
  for (int d = 0; d < 2; ++d) {
    j.cmdprio_bssplit[d].clear();
    const DirPart& part = parts[static_cast<size_t>(d)];
    if (!part.text) continue;
    size_t cursor = 0;  // where the next entry is looked for in the part
    for (const auto& item : SplitEscaped(*part.text, ':')) {
      const size_t item_at = part.text->find(item, cursor);
      if (item_at != std::string::npos) cursor = item_at + item.size();
      const std::string it = Trim(item);
      if (it.empty()) continue;
      std::vector<std::string> f;
      std::vector<size_t> f_at;  // each field's offset in `item`
      for (size_t start = 0;;) {
        const size_t slash = item.find('/', start);
        const std::string raw =
            item.substr(start, slash == std::string::npos ? slash : slash - start);
        f.push_back(Trim(raw));
        f_at.push_back(start + std::min(raw.find_first_not_of(" \t"), raw.size()));
        if (slash == std::string::npos) break;
        start = slash + 1;
      }
      // The caret at field `k` (a value with '\:' in it: at the part).
      const auto bad = [&](size_t k, std::string msg) {
        if (v.error_at != nullptr)
          *v.error_at = part.offset + (item_at == std::string::npos ? 0 : item_at + f_at[k]);
        return Bad(std::move(msg));
      };
      if (f.size() != 2 && f.size() != 4)
        return bad(0,
                   "cmdprio_bssplit entry '" + it + "' is neither bs/perc nor bs/perc/class/level");
      CmdprioBsEntry e;
      auto bs = Num(f[0], NumKind::kSize, v.kb_base);
      if (!bs.ok()) return bad(0, bs.status().message());
      if (*bs <= 0) return bad(0, "cmdprio_bssplit block size '" + f[0] + "' must be positive");
      e.bs = static_cast<uint64_t>(*bs);
      if (!f[1].empty()) {
        auto p = Whole(f[1], "cmdprio_bssplit share");
        if (!p.ok()) return bad(1, p.status().message());
        if (*p < 0 || *p > 100)
          return bad(1, "cmdprio_bssplit share '" + f[1] + "' must be 0..100");
        e.perc = static_cast<uint32_t>(*p);
      }
      if (f.size() == 4) {
        auto cls = Whole(f[2], "cmdprio_bssplit priority class");
        if (!cls.ok()) return bad(2, cls.status().message());
        auto level = Whole(f[3], "cmdprio_bssplit priority level");
        if (!level.ok()) return bad(3, level.status().message());
        if (*cls < 0 || *cls > 3)
          return bad(2,
                     "cmdprio_bssplit priority class '" + f[2] + "' in '" + it + "' must be 0..3");
        if (*level < 0 || *level > 7)
          return bad(3,
                     "cmdprio_bssplit priority level '" + f[3] + "' in '" + it + "' must be 0..7");
        e.cls = static_cast<int>(*cls);
        e.level = static_cast<int>(*level);
      }
      j.cmdprio_bssplit[d].push_back(e);
    }
    // The entries of one size share its I/Os (fio refuses more than 100 %).
    for (const CmdprioBsEntry& e : j.cmdprio_bssplit[d]) {
      uint32_t total = 0;
      for (const CmdprioBsEntry& o : j.cmdprio_bssplit[d])
        if (o.bs == e.bs) total += o.perc;
      if (total > 100)
        return Bad(std::string("the ") + (d == 0 ? "read" : "write") + " shares of block size " +
                   std::to_string(e.bs) + " add up to " + std::to_string(total) +
                   " %, more than 100");
    }
  }
  return Status::Ok();
}

// The end of the size that starts at `from`: fio reads a size only up to the
// next ':', '-', ',' or '/' (parse.c, get_mult_bytes), so in "512/25" the
// size is 512. A parenthesised expression is one size.
size_t SizeEnd(const std::string& t, size_t from) {
  int depth = 0;
  for (size_t i = from; i < t.size(); ++i) {
    if (t[i] == '(') ++depth;
    if (t[i] == ')') --depth;
    if (depth == 0 && i > from && std::strchr(":-,/", t[i]) != nullptr) return i;
  }
  return t.size();
}

// Where fio splits one direction's range: at the first '-', else at the
// first ':' (parse.c, FIO_OPT_RANGE); npos when there is neither.
size_t RangeSeparator(const std::string& t) {
  for (char sep : {'-', ':'}) {
    int depth = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] == '(') ++depth;
      if (t[i] == ')') --depth;
      if (depth == 0 && t[i] == sep) return i;
    }
  }
  return std::string::npos;
}

// bsrange as fio 3.33 reads it: directions are separated by ',' only; in
// each, the low size ends at the first '-' (else ':'), and each size ends at
// the next ':', '-', ',' or '/', the rest being ignored. So
// bsrange=512/25:1k:25:2k:25:4k/25 (fio's t0023) is 512-1k in every
// direction, and 1k-2k/4k-8k is 1k-2k: '/' separates nothing.
Status ParseBsRange(JobSpec& j, const OptValue& v) {
  if (std::string excess = PerDirectionExcess(v.text, "bsrange"); !excess.empty())
    return Bad(excess);
  auto parts = SplitPerDirection(v.text);
  // fio refuses a value with no range in it at all (bsrange=4k).
  bool any_range = false;
  for (const auto& p : parts) any_range |= p.text && RangeSeparator(*p.text) != std::string::npos;
  if (!any_range) {
    const std::string t = Trim(v.text);
    const std::string first = Trim(t.substr(0, SizeEnd(t, 0)));
    return Bad("bsrange '" + v.text + "' is not a range: give lo-hi, or use bs=" + first +
               (t.find('/') != std::string::npos
                    ? " for one size or bssplit=" + t + " for a weighted mix"
                    : ""));
  }
  std::string ignored;  // text fio drops, for the note
  for (int d = 0; d < kNumDdirs; ++d) {
    const auto& part = parts[static_cast<size_t>(d)].text;
    if (!part) continue;
    if (d > 0 && part == parts[static_cast<size_t>(d - 1)].text) {
      const BlockSizeOptions& prev = j.bs_options[d - 1];  // carried over
      SetBlockRange(j, d, prev.min, prev.max, v.layer);
      ResolveBlockSize(j, d);
      continue;
    }
    const std::string& t = *part;
    const size_t sep = RangeSeparator(t);
    if (sep == std::string::npos)
      return Bad("bsrange for " + std::string(DirName(d)) + " '" + t +
                 "' is not a range: give lo-hi (" + t + "-" + t +
                 " for one size); fio ignores such a part and leaves the block size of " +
                 DirName(d) + " as it was");
    const std::string lo_text = Trim(t.substr(0, std::min(sep, SizeEnd(t, 0))));
    const size_t hi_end = SizeEnd(t, sep + 1);
    // fio ignores what follows the high size; a '/' there is fio's own
    // t0023 (512/25:1k:25:...), kept, but a third size is refused.
    if (hi_end < t.size() && t[hi_end] != ',' && t.find('/') == std::string::npos)
      return Bad(ThirdRangePart("bsrange for " + std::string(DirName(d)), Trim(t)));
    const std::string hi_text = Trim(t.substr(sep + 1, hi_end - sep - 1));
    if (lo_text.empty() || hi_text.empty())
      return Bad("bsrange for " + std::string(DirName(d)) + " '" + t + "' needs a size on " +
                 (lo_text.empty() ? "the left" : "the right") + " of '" + t[sep] + "'");
    int64_t lo, hi;
    IOB_ASSIGN_OR_RETURN(lo, Num(lo_text, NumKind::kSize, v.kb_base));
    IOB_ASSIGN_OR_RETURN(hi, Num(hi_text, NumKind::kSize, v.kb_base));
    if (lo > hi) std::swap(lo, hi);
    if (lo <= 0) return Bad("block size range '" + t + "' must be positive");
    if (hi > kMaxBlockSize) return Bad(TooLargeBlock("block size range '" + t + "'"));
    if (SizeEnd(t, 0) < sep || hi_end < t.size()) {
      // One part in the value sets every direction from here on.
      const bool rest = d + 1 == kNumDdirs || parts[static_cast<size_t>(d + 1)].text == part;
      ignored += (ignored.empty() ? "" : "; ") + std::to_string(lo) + "-" + std::to_string(hi) +
                 " bytes for " +
                 (!rest    ? DirName(d)
                  : d == 0 ? "reads, writes and trims"
                  : d == 1 ? "writes and trims"
                           : "trims");
    }
    SetBlockRange(j, d, static_cast<uint64_t>(lo), static_cast<uint64_t>(hi), v.layer);
    ResolveBlockSize(j, d);
  }
  if (!ignored.empty())
    j.parse_notes.push_back("bsrange=" + v.text + " runs " + ignored +
                            ": as fio, a size ends at the next '/', ':', '-' or ',' and the "
                            "rest is ignored (a weighted mix is bssplit=)");
  return Status::Ok();
}

Status ParseRw(JobSpec& j, const OptValue& v) {
  std::string t = Trim(v.text);
  std::string mod;
  size_t colon = t.find(':');
  if (colon != std::string::npos) {
    mod = Trim(t.substr(colon + 1));
    t = Trim(t.substr(0, colon));
  }
  static const std::pair<const char*, RwMode> kModes[] = {
      {"read", RwMode::kRead},
      {"write", RwMode::kWrite},
      {"trim", RwMode::kTrim},
      {"randread", RwMode::kRandRead},
      {"randwrite", RwMode::kRandWrite},
      {"randtrim", RwMode::kRandTrim},
      {"rw", RwMode::kReadWrite},
      {"readwrite", RwMode::kReadWrite},
      {"randrw", RwMode::kRandRW},
      {"trimwrite", RwMode::kTrimWrite},
      {"randtrimwrite", RwMode::kRandTrimWrite},
  };
  bool found = false;
  for (auto& [n, m] : kModes)
    if (t == n) {
      j.rw = j.rw_given = m;
      found = true;
    }
  if (!found) {
    std::vector<std::string> names;
    for (auto& [n, m] : kModes) names.emplace_back(n);
    std::string s;
    for (const auto& n : names)  // "r" and "w" most likely mean read and write
      if (s.empty() && !t.empty() && n.rfind(t, 0) == 0) s = n;
    if (s.empty()) s = SuggestFrom(t, names);
    return Bad("bad rw mode '" + t +
               "' (read, write, trim, randread, randwrite, randtrim, rw, "
               "randrw, trimwrite, randtrimwrite)" +
               (s.empty() ? "" : "; did you mean '" + s + "'?"));
  }
  j.rw_nr = 1;
  j.rw_skip = 0;
  // "rw=read:" (or "read: "): fio 3.33 refuses an empty skip ("rw postfix
  // parsing failed"). After a random mode it reads the empty count as 0
  // (atoi), which never moves to a new random offset: its randread: reads
  // sequentially. Both are refused, as randread:0 is.
  if (colon != std::string::npos && mod.empty()) {
    if (IsRandom(j.rw))
      return Bad("'rw=" + t + ":': the count after ':' is empty (fio reads it as 0, which " +
                 "never picks a new random offset, so its I/O is sequential); write rw=" + t +
                 " or rw=" + t + ":N with N >= 1");
    return Bad("'rw=" + t + ":': the skip after ':' is empty (fio refuses it: \"rw postfix " +
               "parsing failed\"); write rw=" + t + " or rw=" + t + ":SIZE");
  }
  if (!mod.empty()) {
    if (IsRandom(j.rw)) {
      // A count: fio reads it with atoi, so `randread:1k` is 1 there (it
      // was 1024 here). A unit or anything else after the digits is refused.
      const std::string c = Trim(mod);
      if (!c.empty() && c[0] != '(' && c.find_first_not_of("0123456789") != std::string::npos &&
          c.find('.') == std::string::npos)
        return Bad("rw=" + t + ":" + c +
                   ": after a random mode N counts I/Os per random offset and takes no unit "
                   "(fio reads '" +
                   c + "' as " + std::to_string(std::atoll(c.c_str())) + ")");
      IOB_ASSIGN_OR_RETURN(int64_t n, Whole(mod, "rw=" + t + ":N count"));
      if (n < 1) return Bad("rw=" + t + ":N needs N >= 1 (I/Os per random offset)");
      j.rw_nr = static_cast<uint64_t>(n);
    } else {
      IOB_ASSIGN_OR_RETURN(j.rw_skip, Num(mod, NumKind::kSize, v.kb_base));
    }
  }
  return Status::Ok();
}

// An empty entry of a `sep`-separated list (items[i] empty after Trim):
// fio ends the list there, so one inside the list is refused, naming `what`
// list and its `text`; one `sep` at the end reads the same in both tools
// and is skipped (true). false: items[i] is not empty.
Result<bool> EmptyListEntry(const std::vector<std::string>& items, size_t i, const char* what,
                            const std::string& text, const char* plural, char sep) {
  if (!Trim(items[i]).empty()) return false;
  if (i + 1 == items.size() && i > 0) return true;
  return Bad(std::string("empty entry in ") + what + " list '" + text +
             "' (fio would end the list there); separate the " + plural + " with a single '" + sep +
             "'");
}

// A cpus_allowed-style list ("0,2-5") into *cpus, sorted and unique.
Status ParseCpuList(const OptValue& v, std::vector<int>* cpus) {
  cpus->clear();
  const auto items = SplitEscaped(v.text, ',');
  for (size_t i = 0; i < items.size(); ++i) {
    std::string it = Trim(items[i]);
    // 0,,1 is CPU 0 in fio, ,1 pins nothing: skipping the empty entry
    // pinned to CPUs fio does not.
    IOB_ASSIGN_OR_RETURN(const bool skip, EmptyListEntry(items, i, "cpu", v.text, "CPUs", ','));
    if (skip) continue;
    // A CPU is a plain decimal number, as fio reads it (atoi): the general
    // number parser made 0x1 CPU 1 and 1k CPU 1024, where fio pins to 0 and 1.
    const auto cpu = [&](const std::string& piece) -> Result<int64_t> {
      const std::string c = Trim(piece);
      if (c.empty()) return Bad("bad cpu range '" + it + "' in cpu list (write a CPU or a-b)");
      if (c.find_first_not_of("0123456789") != std::string::npos)
        return Bad("CPU '" + c + "' in cpu list '" + v.text + "' is not a decimal CPU number" +
                   (c[0] >= '0' && c[0] <= '9'
                        ? " (fio reads it as " + std::to_string(std::atoll(c.c_str())) + ")"
                        : std::string()) +
                   "; write CPUs and ranges in decimal, e.g. 0,2-5, or a hex mask in cpumask=");
      return c.size() > 6 ? int64_t{1} << 20 : std::stoll(c);  // too large: refused below
    };
    int64_t lo, hi;
    size_t dash = it.find('-');
    IOB_ASSIGN_OR_RETURN(lo, cpu(it.substr(0, dash)));
    hi = lo;
    if (dash != std::string::npos) {
      IOB_ASSIGN_OR_RETURN(hi, cpu(it.substr(dash + 1)));
    }
    if (lo < 0 || hi < lo || hi > 65535) return Bad("bad cpu range '" + it + "' in cpu list");
    for (int64_t c = lo; c <= hi; ++c) cpus->push_back(static_cast<int>(c));
  }
  if (cpus->empty()) return Bad("empty cpu list");
  std::sort(cpus->begin(), cpus->end());
  cpus->erase(std::unique(cpus->begin(), cpus->end()), cpus->end());
  return Status::Ok();
}

Status ParseCpus(JobSpec& j, const OptValue& v) { return ParseCpuList(v, &j.cpus_allowed); }

// cpumask: fio's older form of cpus_allowed, a bit mask of CPUs (decimal or
// 0x hex): 34 is CPUs 1 and 5.
Status ParseCpumask(JobSpec& j, const OptValue& v) {
  const std::string t = Trim(v.text);
  errno = 0;
  char* end = nullptr;
  const unsigned long long mask = t.empty() || t[0] == '-' ? 0 : std::strtoull(t.c_str(), &end, 0);
  if (t.empty() || t[0] == '-' || end == nullptr || *end != '\0' || errno == ERANGE)
    return Bad("cpumask '" + t + "': expected a bit mask of CPUs, e.g. 0x3 or 34 (CPUs 1 and 5)");
  if (mask == 0) return Bad("cpumask=0 allows no CPU");
  j.cpus_allowed.clear();
  for (int c = 0; c < 64; ++c)
    if (mask & (1ULL << c)) j.cpus_allowed.push_back(c);
  return Status::Ok();
}

// "0xdeadbeef", "\"text\"", or a decimal number; parts joined with '|'.
// A pattern as fio writes it (buffer_pattern, verify_pattern): parts joined
// by '|' (iobench) or simply written one after the other (fio:
// 0xff%o"abcd"-12). Tokens: 0x<hex> (any length; "0xff0x14" is two), "text",
// 'text', a decimal number (fio: INT_MIN..INT_MAX, stored little-endian in as
// few bytes as it needs, 0 is one byte; larger positive values keep all their
// bytes), and, when `offsets` is non-null, %o: 8 bytes that become the
// block's offset (little-endian) when the pattern is written; their
// positions go to *offsets. Anything else is an error naming the byte where
// parsing stopped, as fio refuses it ("failed parsing"): a typo never
// becomes a pattern of its raw characters. 'name' is fio's file form: the
// file's bytes, as many as fit in fio's 512-byte pattern (fio reads no
// more, and neither do we: a longer file gives the same pattern in both).
// A pattern longer than 512 bytes in all is refused, as fio 3.33 refuses
// it ("failed parsing"); iobench used to write all of it.
constexpr size_t kMaxPatternSize = 512;
Result<std::vector<uint8_t>> ParsePatternParts(const std::string& text,
                                               std::vector<uint32_t>* offsets) {
  std::vector<uint8_t> out;
  if (offsets != nullptr) offsets->clear();
  auto is_hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  auto is_dec = [](char c) { return c >= '0' && c <= '9'; };
  auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  for (const auto& raw : SplitEscaped(text, '|')) {
    const std::string p = Trim(raw);
    if (p.empty()) continue;
    std::vector<uint8_t> part;
    std::vector<uint32_t> part_offsets;
    bool ok = true;
    size_t i = 0;
    while (ok && i < p.size()) {
      const char c = p[i];
      // fio reads a decimal number with strtol, which skips whitespace and
      // takes a sign: "0x12 34" is 12 22, "1 2" is 01 02, "0x12 +3" 12 03.
      // Whitespace before anything else ("0x12 0x34", "1 \"a\"") or at the
      // end fails there, as in fio. `d`: where the number's sign or digits
      // start.
      size_t d = i;
      while (d < p.size() && is_space(p[d])) ++d;
      const bool decimal =
          d < p.size() &&
          (is_dec(p[d]) || ((p[d] == '-' || p[d] == '+') && d + 1 < p.size() && is_dec(p[d + 1])));
      if (c == '0' && i + 1 < p.size() && (p[i + 1] == 'x' || p[i + 1] == 'X') &&
          (i + 2 == p.size() || !is_hex(p[i + 2]))) {
        return Bad("pattern '" + p + "': 0x at byte " + std::to_string(i + 1) +
                   (i + 2 == p.size() ? " has no hex digits after it"
                                      : " is followed by '" + p.substr(i + 2, 8) +
                                            "', not hex digits (0-9, a-f)"));
      }
      if (c == '0' && i + 2 < p.size() && (p[i + 1] == 'x' || p[i + 1] == 'X') &&
          is_hex(p[i + 2])) {
        size_t e = i + 2;
        while (e < p.size() && is_hex(p[e])) ++e;
        // "0xff0x14": the 0 before the second x starts the next number.
        if (e < p.size() && (p[e] == 'x' || p[e] == 'X') && p[e - 1] == '0' && e - 1 > i + 2) --e;
        std::string h = p.substr(i + 2, e - i - 2);
        if (h.size() % 2) h = "0" + h;
        for (size_t k = 0; k < h.size(); k += 2)
          part.push_back(static_cast<uint8_t>(std::stoul(h.substr(k, 2), nullptr, 16)));
        i = e;
      } else if (c == '\'') {
        // fio: 'name' is a file whose bytes are the pattern (opened from the
        // working directory), read up to the room left of fio's 512 bytes.
        const size_t e = p.find(c, i + 1);
        if (e == std::string::npos) return Bad("pattern '" + p + "': unterminated " + c);
        const std::string name = p.substr(i + 1, e - i - 1);
        const size_t used = out.size() + part.size();
        if (used >= kMaxPatternSize)
          return Bad("pattern file '" + name + "': the parts before it fill fio's " +
                     std::to_string(kMaxPatternSize) + " bytes");
        if (name.empty()) return Bad("pattern file '': a quoted part names a file, and '' none");
        // Non-blocking: a FIFO without a writer or a terminal is an error
        // (empty, or EAGAIN), not a parser that waits.
        const int fd = open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) return Bad("pattern file '" + name + "': " + std::strerror(errno));
        uint8_t bytes[kMaxPatternSize];
        size_t got = 0;
        while (got < kMaxPatternSize - used) {
          const ssize_t n = read(fd, bytes + got, kMaxPatternSize - used - got);
          if (n < 0 && errno == EINTR) continue;
          if (n < 0) {
            const int err = errno;
            close(fd);
            return Bad("pattern file '" + name + "': " + std::strerror(err));
          }
          if (n == 0) break;
          got += static_cast<size_t>(n);
        }
        close(fd);
        if (got == 0) return Bad("pattern file '" + name + "' is empty");
        part.insert(part.end(), bytes, bytes + got);
        i = e + 1;
      } else if (c == '"') {
        const size_t e = p.find(c, i + 1);
        if (e == std::string::npos) return Bad("pattern '" + p + "': unterminated " + c);
        for (size_t k = i + 1; k < e; ++k) part.push_back(static_cast<uint8_t>(p[k]));
        i = e + 1;
      } else if (c == '%' && i + 1 < p.size() && p[i + 1] == 'o') {
        if (offsets == nullptr)
          return Bad("pattern '" + p + "': %o (the block offset) is only for verify_pattern");
        part_offsets.push_back(static_cast<uint32_t>(part.size()));
        part.insert(part.end(), 8, 0);
        i += 2;
      } else if (decimal) {
        size_t e = d + (is_dec(p[d]) ? 0 : 1);
        const size_t digits = e;
        while (e < p.size() && is_dec(p[e])) ++e;
        // A 0 followed by x starts a hex number ("12" then "0xff" in 120xff).
        if (e < p.size() && (p[e] == 'x' || p[e] == 'X') && p[e - 1] == '0') --e;
        if (e == digits) {  // " 0x12", "-0x12": fio's strtol finds no number
          ok = false;
          break;
        }
        const std::string num = p.substr(d, e - d);
        errno = 0;
        uint64_t n = 0;
        if (p[d] == '-') {
          const long long v = std::strtoll(num.c_str(), nullptr, 10);
          if (errno != 0 || v < INT32_MIN)
            return Bad("pattern '" + p + "': " + num + " is below " + std::to_string(INT32_MIN));
          n = static_cast<uint32_t>(static_cast<int32_t>(v));
        } else {
          n = std::strtoull(num.c_str(), nullptr, 10);
          if (errno != 0) return Bad("pattern '" + p + "': " + num + " is too large");
        }
        do {
          part.push_back(static_cast<uint8_t>(n & 0xff));
          n >>= 8;
        } while (n);
        i = e;
      } else {
        ok = false;
      }
    }
    if (!ok) {
      return Bad("pattern '" + p + "': cannot parse it at byte " + std::to_string(i + 1) + " ('" +
                 p.substr(i, 8) + "'): use 0xHEX, \"text\", decimal numbers" +
                 (offsets != nullptr ? " and %o" : "") +
                 (is_space(p[i]) ? " (as fio, whitespace only before a decimal number)" : ""));
    }
    if (offsets != nullptr)
      for (uint32_t o : part_offsets) offsets->push_back(static_cast<uint32_t>(out.size()) + o);
    out.insert(out.end(), part.begin(), part.end());
  }
  if (out.empty()) return Bad("empty pattern");
  if (out.size() > kMaxPatternSize)
    return Bad("the pattern is " + std::to_string(out.size()) + " bytes, longer than fio's " +
               std::to_string(kMaxPatternSize) + " (fio refuses it): shorten it");
  return out;
}

Result<std::vector<uint8_t>> ParsePattern(const std::string& text) {
  return ParsePatternParts(text, nullptr);
}

Status ParseDistribution(JobSpec& j, const OptValue& v) {
  std::string t = Trim(v.text);
  std::string kind = t.substr(0, t.find(':'));
  std::string rest = t.find(':') == std::string::npos ? "" : t.substr(t.find(':') + 1);
  RandomDistribution rd;
  if (kind == "random") {
    if (!rest.empty()) return Bad("random_distribution=random takes no parameter");
  } else if (kind == "gauss") {
    // fio's file_service_type has a gauss alias; its random_distribution
    // has none, and refuses it.
    return Bad("random_distribution=gauss is not a fio distribution: the Gaussian is normal:" +
               (rest.empty() ? std::string("DEV") : rest) + " (normal:DEV[:CENTER])");
  } else if (kind == "zipf" || kind == "pareto" || kind == "normal") {
    rd.type = kind == "zipf"     ? DistType::kZipf
              : kind == "pareto" ? DistType::kPareto
                                 : DistType::kNormal;
    // "zipf:", "pareto:", "zipf:1.2:", "normal:10:": fio 3.33 refuses an
    // empty field after a colon ("random postfix parsing failed"); iobench
    // took the default theta, or a center of 0.
    if (t.find(':') != std::string::npos) {
      const auto fields = SplitEscaped(rest, ':');
      for (size_t i = 0; i < std::min<size_t>(fields.size(), 2); ++i) {
        if (!Trim(fields[i]).empty()) continue;
        const char* what = i > 0              ? "center"
                           : kind == "zipf"   ? "theta"
                           : kind == "pareto" ? "h"
                                              : "deviation";
        return Bad("'" + t + "': the " + what + " after ':' is empty" +
                   " (fio refuses it: \"random postfix parsing failed\"); write " +
                   (i > 0              ? kind + ":" + Trim(fields[0]) + " for no center"
                    : kind == "normal" ? std::string("normal:DEV[:CENTER], e.g. normal:10")
                                       : kind + " for the default, or " + kind + ":" +
                                             (kind == "zipf" ? "THETA" : "H") + "[:CENTER]"));
      }
    }
    // A bare zipf or pareto takes fio's defaults (FIO_DEF_ZIPF, FIO_DEF_PARETO).
    // fio's bare normal is a deviation of 0, its fixed bell (see below).
    if (rest.empty() && kind == "zipf") rest = "1.1";
    if (rest.empty() && kind == "pareto") rest = "0.2";
    if (rest.empty())
      return Bad(
          "random_distribution=normal needs a deviation, e.g. normal:10 (fio's bare "
          "normal is a deviation of 0, which iobench does not reproduce)");
    auto fields = SplitEscaped(rest, ':');
    char* end = nullptr;
    rd.param = std::strtod(fields[0].c_str(), &end);
    if (*end || fields[0].empty()) return Bad("bad " + kind + " parameter '" + fields[0] + "'");
    if (!std::isfinite(rd.param)) return Bad("bad " + kind + " parameter '" + fields[0] + "'");
    // fio takes any theta but 1.0 (0 is uniform, a negative one favours the
    // end of the file); iobench bounds it (kZipfThetaMin/Max, job.h).
    if (rd.type == DistType::kZipf && rd.param == 1.0) return Bad("zipf theta must not be 1.0");
    if (rd.type == DistType::kZipf && !(rd.param >= kZipfThetaMin && rd.param <= kZipfThetaMax))
      return Bad("zipf theta '" + fields[0] + "' must be between -10 and 100");
    if (rd.type == DistType::kPareto && (rd.param <= 0.0 || rd.param >= 1.0))
      return Bad("pareto h must be in (0, 1)");
    // fio refuses a deviation outside [0, 100) while parsing; iobench only
    // refused it when the run started, without the file and line. (fio's 0
    // is a fixed bell of its own that iobench does not reproduce.)
    if (rd.type == DistType::kNormal && !(rd.param > 0.0 && rd.param < 100.0))
      return Bad("normal deviation '" + fields[0] + "' must be above 0 and below 100");
    if (fields.size() > 1) {
      rd.center_frac = std::strtod(fields[1].c_str(), &end);
      if (*end || !(rd.center_frac >= 0 && rd.center_frac <= 1))
        return Bad("bad center '" + fields[1] + "' (0.0 .. 1.0)");
    }
  } else if (kind == "zoned" || kind == "zoned_abs") {
    rd.type = kind == "zoned" ? DistType::kZoned : DistType::kZonedAbs;
    auto parts = SplitPerDirection(rest);
    for (int d = 0; d < kNumDdirs; ++d) {
      if (!parts[static_cast<size_t>(d)].text) continue;
      uint64_t access = 0, size = 0;
      for (const auto& z : SplitEscaped(*parts[static_cast<size_t>(d)].text, ':')) {
        std::string zt = Trim(z);
        size_t slash = zt.find('/');
        if (slash == std::string::npos) return Bad("bad zone '" + zt + "' (expected access%/size)");
        DistZone dz;
        IOB_ASSIGN_OR_RETURN(int64_t a, Whole(zt.substr(0, slash), "zone access share"));
        if (a < 0 || a > 100) return Bad("zone access share '" + zt + "' must be 0..100");
        dz.access_perc = static_cast<uint32_t>(a);
        access += dz.access_perc;
        if (rd.type == DistType::kZoned && Trim(zt.substr(slash + 1)).empty()) {
          // A blank size share takes what is left of the region.
          if (size > 100) return Bad("zone size shares add up to more than 100%");
          dz.size_perc = static_cast<uint32_t>(100 - size);
          size = 100;
        } else if (rd.type == DistType::kZoned) {
          IOB_ASSIGN_OR_RETURN(int64_t s, Whole(zt.substr(slash + 1), "zone size share"));
          if (s < 0 || s > 100) return Bad("zone size share '" + zt + "' must be 0..100");
          dz.size_perc = static_cast<uint32_t>(s);
          size += dz.size_perc;
        } else {
          IOB_ASSIGN_OR_RETURN(int64_t s, Num(zt.substr(slash + 1), NumKind::kSize, v.kb_base));
          // 0 is a zone of one block, as a 0% zoned share (fio takes both).
          if (s < 0) return Bad("zone size '" + zt + "' must not be negative");
          dz.size_abs = static_cast<uint64_t>(s);
        }
        rd.zones[d].push_back(dz);
      }
      if (access != 100)
        return Bad("zone access shares for " + std::string(DirName(d)) + " add up to " +
                   std::to_string(access) + "%, not 100%");
      // Below 100% the zones cover the start of the region only, as in fio
      // 3.33 (zoned:50/30:50/30 reads the first 60%); above, fio refuses too.
      if (rd.type == DistType::kZoned && size > 100)
        return Bad("zone size shares for " + std::string(DirName(d)) + " add up to " +
                   std::to_string(size) + "%, above 100%");
    }
    // zoned, zoned: and zoned_abs: list no zone. fio refuses the first
    // ("mismatch in zoned input"); iobench passed them all and failed only
    // once a random job started, without the file and line. (A direction
    // left empty beside another's zones uses that direction's zones.)
    if (rd.zones[0].empty() && rd.zones[1].empty() && rd.zones[2].empty())
      return Bad("random_distribution=" + kind + " needs at least one zone: access%/" +
                 (rd.type == DistType::kZoned ? "size%, e.g. zoned:60/10:40/90"
                                              : "size, e.g. zoned_abs:60/20g:40/100g"));
  } else if (kind == "sequence") {
    return Bad(
        "random_distribution=sequence is a fio distribution that iobench does not support yet");
  } else {
    return Bad("bad random_distribution '" + kind +
               "' (random, zipf, pareto, normal, zoned, zoned_abs)");
  }
  j.random_distribution = rd;
  return Status::Ok();
}

struct ErrnoName {
  const char* name;
  int value;
};
constexpr ErrnoName kErrnos[] = {
    // fio 3.33's str2error: errnos 1 to 34 by name, in that order.
    {"EPERM", EPERM},
    {"ENOENT", ENOENT},
    {"ESRCH", ESRCH},
    {"EINTR", EINTR},
    {"EIO", EIO},
    {"ENXIO", ENXIO},
    {"E2BIG", E2BIG},
    {"ENOEXEC", ENOEXEC},
    {"EBADF", EBADF},
    {"ECHILD", ECHILD},
    {"EAGAIN", EAGAIN},
    {"ENOMEM", ENOMEM},
    {"EACCES", EACCES},
    {"EFAULT", EFAULT},
    {"ENOTBLK", ENOTBLK},
    {"EBUSY", EBUSY},
    {"EEXIST", EEXIST},
    {"EXDEV", EXDEV},
    {"ENODEV", ENODEV},
    {"ENOTDIR", ENOTDIR},
    {"EISDIR", EISDIR},
    {"EINVAL", EINVAL},
    {"ENFILE", ENFILE},
    {"EMFILE", EMFILE},
    {"ENOTTY", ENOTTY},
    {"ETXTBSY", ETXTBSY},
    {"EFBIG", EFBIG},
    {"ENOSPC", ENOSPC},
    {"ESPIPE", ESPIPE},
    {"EROFS", EROFS},
    {"EMLINK", EMLINK},
    {"EPIPE", EPIPE},
    {"EDOM", EDOM},
    {"ERANGE", ERANGE},
    // Names fio 3.33 takes only as numbers ("Unknown error EILSEQ, please
    // use number value"); I/O paths return them, so iobench takes them too.
    {"EILSEQ", EILSEQ},
    {"ENODATA", ENODATA},
    {"ETIMEDOUT", ETIMEDOUT},
    {"EOPNOTSUPP", EOPNOTSUPP},
    {"ENOTSUP", ENOTSUP},
    {"EDQUOT", EDQUOT},
    {"EREMOTEIO", EREMOTEIO},
    {"ECANCELED", ECANCELED},
    {"EPROTO", EPROTO},
    {"ENOLINK", ENOLINK},
    {"EMEDIUMTYPE", EMEDIUMTYPE},
    {"ENOMEDIUM", ENOMEDIUM},
    {"EOVERFLOW", EOVERFLOW},
    {"ESTALE", ESTALE},
    {"ENOSYS", ENOSYS},
};

Status ParseIgnoreError(JobSpec& j, const OptValue& v) {
  // fio: READ_LIST,WRITE_LIST,VERIFY_LIST; errors within a list are ':' separated.
  // Blanks at the end of the value are dropped, as fio's option parser
  // drops them; a blank elsewhere beside a name is refused below.
  std::string text = v.text;
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.pop_back();
  auto dirs = SplitEscaped(text, ',');
  if (dirs.size() > 3) return Bad("ignore_error takes at most 3 lists (read,write,verify)");
  for (size_t d = 0; d < dirs.size(); ++d) {
    j.ignore_error[d].clear();
    const auto items = SplitEscaped(dirs[d], ':');
    for (size_t i = 0; i < items.size(); ++i) {
      std::string n = Trim(items[i]);
      // fio ends the list at an empty entry (:ENOSPC ignores nothing,
      // ENOSPC::EIO no EIO); skipping it tolerated errors fio does not. An
      // empty list (,EIO) or one ':' at the end reads the same in both.
      if (n.empty() && std::any_of(items.begin() + static_cast<ptrdiff_t>(i) + 1, items.end(),
                                   [](const std::string& e) { return !Trim(e).empty(); }))
        return Bad("empty entry in ignore_error list '" + Trim(dirs[d]) +
                   "' (fio would end the list there); separate the errors with a single ':'");
      if (n.empty()) continue;
      int val = 0;
      bool ok = false;
      for (auto& en : kErrnos)
        if (n == en.name) {
          val = en.value;
          ok = true;
        }
      if (!ok && std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        val = std::atoi(n.c_str());
        ok = val > 0;
      }
      if (!ok)
        return Bad("unknown error '" + n + "' in ignore_error (use a name like EIO or a number)");
      // fio 3.33 looks a name up with its blanks ("Unknown error  ENOSPC",
      // the job dropped) and reads a number with atoi, which skips them.
      if (n != items[i] && !(n[0] >= '0' && n[0] <= '9'))
        return Bad("blank around '" + n + "' in ignore_error list '" + dirs[d] +
                   "': fio 3.33 does not know the error with its blank and refuses the job; "
                   "write the list without blanks");
      j.ignore_error[d].push_back(val);
    }
    // As in fio: listing errors of a class lets that class continue.
    static const uint8_t kBits[] = {kCoeRead, kCoeWrite, kCoeVerify};
    if (!j.ignore_error[d].empty()) j.continue_on_error |= kBits[d];
  }
  return Status::Ok();
}

Status ParseFloatList(JobSpec& j, const OptValue& v) {
  j.percentile_list.clear();
  j.percentile_precision = 0;
  const auto parts = SplitEscaped(v.text, ':');
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string t = Trim(parts[i]);
    // :50 prints no percentile in fio, 50::99 only the 50th: skipping the
    // empty entry printed what fio does not.
    IOB_ASSIGN_OR_RETURN(const bool skip,
                         EmptyListEntry(parts, i, "percentile", v.text, "percentiles", ':'));
    if (skip) continue;
    // fio 3.33 keeps the first 20 ("the list exceeding max length 20") and
    // runs; refusing the 21st stopped a job file fio runs.
    constexpr size_t kMaxPercentiles = 20;
    if (j.percentile_list.size() == kMaxPercentiles) {
      if (v.warnings)
        v.warnings->push_back(
            "percentile_list has more than 20 entries: the first 20 are "
            "kept, as fio does ('the list exceeding max length 20'); remove "
            "the rest, from '" +
            t + "' on");
      break;
    }
    char* end = nullptr;
    double f = std::strtod(t.c_str(), &end);
    if (*end || !std::isfinite(f)) return Bad("bad number '" + t + "' in list");
    // man fio: each in (0, 100]; fio 3.33 ends the list at the first one
    // outside (0:50:100 prints no percentile, 50:101:99 only the 50th), and
    // says a value below 0 or above 100 is out of range; first in the list,
    // such a value fails the option (percentile_list=101 is refused).
    if (!(f > 0) || f > 100)
      return Bad("percentile " + t + " is not within (0, 100] (" +
                 (f == 0   ? "fio would end the list there"
                  : i == 0 ? "fio refuses it too: value out of range"
                           : "fio says the value is out of range and ends the list there") +
                 ")");
    j.percentile_list.push_back(f);
    // fio prints the labels with the decimals as typed: 50.0 gives "50.0th".
    if (const size_t dot = t.find('.'); dot != std::string::npos) {
      size_t end_digits = dot + 1;
      while (end_digits < t.size() && std::isdigit(static_cast<unsigned char>(t[end_digits])))
        ++end_digits;
      constexpr int kMaxDecimals = 12;
      j.percentile_precision = std::max(
          j.percentile_precision, std::min(kMaxDecimals, static_cast<int>(end_digits - dot - 1)));
    }
  }
  if (j.percentile_list.empty()) return Bad("empty percentile list");
  return Status::Ok();
}

// fio 3.33 reads rate_cycle as an unsigned int (parse.c str_to_decimal,
// get_mult_bytes): a hex number wherever "0x" appears, else a decimal with
// an optional sign, its whole part only (the suffix walk stops at a '.'),
// times kb_base^n for a suffix starting k, m, g, t or p and 1 for any other
// (2s: 2; 250ms: 250 MiB; 1min: 1 MiB), kept in 32 bits. iobench reads a
// time with a unit as one: where `t` (read as `ms`) means another window
// to fio, the warning with both readings. A shared job file judged its
// rate_min over another window in each tool, silently.
std::optional<std::string> FioRateCycleWarning(const std::string& t, uint64_t ms,
                                               uint32_t kb_base) {
  if (t.find("0x") != std::string::npos || t.find("0X") != std::string::npos) return std::nullopt;
  size_t p = t.find_first_not_of(" \t");
  if (p == std::string::npos) return std::nullopt;
  if (t[p] == '+' || t[p] == '-') ++p;
  const size_t digits = t.find_first_not_of("0123456789", p);
  const std::string number = t.substr(p, digits == std::string::npos ? digits : digits - p);
  if (number.empty() || number.size() > 19) return std::nullopt;
  unsigned __int128 fio = std::stoull(number);
  if (digits != std::string::npos && t[digits] != '.') {
    const char u = static_cast<char>(std::tolower(static_cast<unsigned char>(t[digits])));
    const char* const prefixes = "kmgtp";
    if (const char* at = std::strchr(prefixes, u); at != nullptr && u != '\0')
      for (long i = 0; i <= at - prefixes; ++i) fio *= kb_base;
  }
  const uint64_t fio_ms = static_cast<uint64_t>(fio) & 0xffffffffull;
  if (fio_ms == ms) return std::nullopt;
  const bool bare = digits == std::string::npos;
  return "option 'rate_cycle': '" + t + "' is " + std::to_string(ms) + " ms to iobench but " +
         std::to_string(fio_ms) +
         " ms to fio 3.33, which reads rate_cycle as a 32-bit number with a size suffix, not a "
         "time; " +
         (ms <= 0xffffffffull
              ? "write the bare count of ms (" + std::to_string(ms) + ") to mean the same to both"
              : std::string(bare ? "" : "and ") +
                    "no window above 4294967295 ms means the same "
                    "to both");
}

Status SetPercentable(uint64_t* abs, uint32_t* perc, const OptValue& v, const char* what) {
  if (v.percent) {
    if (v.num < 0 || v.num > 100) return Bad(std::string(what) + " percentage must be 0..100");
    *perc = static_cast<uint32_t>(v.num);
    *abs = 0;
  } else {
    *abs = static_cast<uint64_t>(v.num);
    *perc = 0;
  }
  return Status::Ok();
}

// A bare flag turns the log on and keeps the prefix set before it ([global]
// write_bw_log=x, then a bare write_bw_log in the job, writes x_bw.N.log),
// as fio's str_write_bw_log_cb keeps bw_log_file; only a value replaces it.
// With no prefix at all, the logs are named after the job (IoLogOptions).
Status LogSet(std::string* prefix, bool* set, const OptValue& v) {
  if (!v.bare) *prefix = v.text;
  *set = true;
  return Status::Ok();
}

Result<VerifyType> VerifyFromName(const std::string& n) {
  static const std::pair<const char*, VerifyType> kV[] = {
      {"0", VerifyType::kNone},
      {"none", VerifyType::kNone},
      {"md5", VerifyType::kMd5},
      {"crc64", VerifyType::kCrc64},
      {"crc32", VerifyType::kCrc32},
      {"crc32c", VerifyType::kCrc32c},
      {"crc32c-intel", VerifyType::kCrc32cIntel},
      {"crc16", VerifyType::kCrc16},
      {"crc7", VerifyType::kCrc7},
      {"xxhash", VerifyType::kXxhash},
      {"sha1", VerifyType::kSha1},
      {"sha256", VerifyType::kSha256},
      {"sha512", VerifyType::kSha512},
      {"sha3-224", VerifyType::kSha3_224},
      {"sha3-256", VerifyType::kSha3_256},
      {"sha3-384", VerifyType::kSha3_384},
      {"sha3-512", VerifyType::kSha3_512},
      {"meta", VerifyType::kMeta},
      {"pattern", VerifyType::kPattern},
      {"null", VerifyType::kNull},
  };
  for (auto& [k, t] : kV)
    if (n == k) return t;
  return Bad("bad verify type '" + n + "'");
}

// Adds a filename=, opendir= or nrfiles= to the steps that build the job's
// file list, where fio 3.33 applies it, and brings `filenames`, `opendir`
// and `nrfiles` up to date (docs/jobfile.md, "The file list").
Status AddFileListStep(JobSpec& j, const OptValue& v, FileListStep step) {
  using K = FileListStep::Kind;
  step.source = v.source;
  step.layer = v.layer;
  step.setting = j.settings.size();  // the parser records it there next
  std::vector<FileListStep>& steps = j.file_list;
  // The command line wins over a job file (and a --sweep value over both):
  // its filename= or opendir= replaces the files the lower layers listed.
  if (step.kind != K::kCount)
    steps.erase(std::remove_if(steps.begin(), steps.end(),
                               [&](const FileListStep& s) {
                                 return s.kind != K::kCount && s.layer < step.layer;
                               }),
                steps.end());
  // fio parses a job file's section with filename= after its other options
  // (parse priority -1, the others 0), whatever the order written: in one
  // section, opendir= lists its files before filename='s, and nrfiles=
  // never cuts the section's own filename= list. The command line it
  // parses in the order written.
  // fio applies the command-line globals first, as the job file's defaults:
  // they stand before the job file's steps (layer 1 before 0, then 2).
  const auto rank = [](int layer) { return layer == 1 ? 0 : layer == 0 ? 1 : layer; };
  auto at = std::find_if(steps.begin(), steps.end(),
                         [&](const FileListStep& s) { return rank(s.layer) > rank(step.layer); });
  if (!j.job_file.empty() && step.source != OptionSource::kCommandLine && step.kind != K::kNames)
    while (at != steps.begin() && std::prev(at)->kind == K::kNames &&
           std::prev(at)->source == step.source && std::prev(at)->layer == step.layer)
      --at;
  steps.insert(at, std::move(step));

  const ResolvedFileList list = ResolveFileList(steps, nullptr);
  j.filenames = list.files;
  j.opendir.clear();
  for (const FileListStep& s : steps)
    if (s.kind == K::kDir) j.opendir = s.names.front();
  if (list.started && !list.unknown) {
    j.nrfiles = static_cast<uint32_t>(list.files.size());
  } else if (!list.started) {
    // No list (yet): nrfiles= is the number of files the job makes.
    if (const FileListStep* count = FileCountStep(steps)) j.nrfiles = count->count;
  }
  return Status::Ok();
}

#define B(field)                                \
  [](JobSpec& j, const OptValue& v) -> Status { \
    j.field = v.num != 0;                       \
    return Status::Ok();                        \
  }
#define N(field)                                     \
  [](JobSpec& j, const OptValue& v) -> Status {      \
    j.field = static_cast<decltype(j.field)>(v.num); \
    return Status::Ok();                             \
  }
#define D(field)                                                                            \
  [](JobSpec& j, const OptValue& v) -> Status {                                             \
    for (int d = 0; d < kNumDdirs; ++d)                                                     \
      if (v.dir[d])                                                                         \
        j.field[d] = static_cast<std::remove_reference_t<decltype(j.field[0])>>(*v.dir[d]); \
    return Status::Ok();                                                                    \
  }
#define S(field)                                \
  [](JobSpec& j, const OptValue& v) -> Status { \
    j.field = v.text;                           \
    return Status::Ok();                        \
  }

// A path option: a bare flag or an empty value names no file.
#define NonEmpty(field)                                                \
  [](JobSpec& j, const OptValue& v) -> Status {                        \
    if (Trim(v.text).empty()) return Bad(#field " needs a file name"); \
    j.field = v.text;                                                  \
    return Status::Ok();                                               \
  }

std::vector<OptionDef> BuildTable() {
  using T = OptType;
  std::vector<Row> r;
  // --- job identity and grouping
  r.push_back(Row("name", T::kStr, "job",
                  "Name of the job; on the command line each --name starts a new job")
                  .Set(S(name)));
  r.push_back(
      Row("description", T::kStr, "job", "Free-text description of the job").Set(S(description)));
  r.push_back(Row("exec_prerun", T::kStr, "job",
                  "Shell command run before the job's I/O (output: <name>.prerun.txt); "
                  "a failure ends the job with err=125 and exit code 1 (fio 3.33 skips "
                  "the job's I/O and reports error 0, exit code 0)")
                  .Set(S(exec_prerun)));
  r.push_back(Row("exec_postrun", T::kStr, "job",
                  "Shell command run after the job's I/O (output: <name>.postrun.txt)")
                  .Set(S(exec_postrun)));
  r.push_back(Row("stonewall", T::kBool, "job",
                  "Wait for all jobs before this one to finish before starting it")
                  .Alias({"wait_for_previous"})
                  .Def("0")
                  .AnyInt()
                  .Set(B(stonewall)));
  r.push_back(Row("new_group", T::kBool, "job", "Start a new reporting group")
                  .Def("0")
                  .AnyInt()
                  .Set(B(new_group)));
  r.push_back(Row("wait_for", T::kStr, "job", "Name of a job this one waits for before starting")
                  .Set(S(wait_for)));
  r.push_back(Row("group_reporting", T::kBool, "job", "Report the jobs of a group as one")
                  .Def("0")
                  .AnyInt()
                  .Set(B(group_reporting)));
  r.push_back(Row("exitall", T::kBool, "job", "Stop all jobs when this one finishes")
                  .Def("0")
                  .AnyInt()
                  // fio 3.33 sets its switch whatever the value: exitall=0 is
                  // on there too, so it is on here, with a word about it.
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    if (!v.bare && v.num == 0) {
                      const std::string t = Trim(v.text);
                      if (!t.empty() && !std::isdigit(static_cast<unsigned char>(t[0])) &&
                          t[0] != '-' && t[0] != '+')
                        return Bad("exitall=" + t +
                                   " would not turn exitall off: fio 3.33 sets exitall "
                                   "whatever its value (and refuses '" +
                                   t + "'); delete the line to leave it off");
                      if (v.warnings)
                        v.warnings->push_back("exitall=" + t +
                                              " sets exitall, as in fio 3.33, which ignores the "
                                              "value; delete the line to leave it off");
                    }
                    j.exitall = true;
                    return Status::Ok();
                  }));
  r.push_back(
      Row("exitall_on_error", T::kBool, "job", "Stop all jobs when this one finishes with an error")
          .Def("0")
          .AnyInt()
          .Set(B(exitall_on_error)));
  r.push_back(Row("exit_what", T::kEnum, "job",
                  "Jobs that exitall stops: group, stonewall (all running), all")
                  .Def("group")
                  .Choices("group|stonewall|all")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    const std::string t = Trim(v.text);
                    if (t == "group")
                      j.exit_what = JobSpec::ExitWhat::kGroup;
                    else if (t == "stonewall")
                      j.exit_what = JobSpec::ExitWhat::kStonewall;
                    else if (t == "all")
                      j.exit_what = JobSpec::ExitWhat::kAll;
                    else
                      return Bad("bad exit_what '" + v.text + "' (group, stonewall, all)");
                    return Status::Ok();
                  }));
  r.push_back(Row("numjobs", T::kInt, "job", "Number of clones of this job (each its own thread)")
                  .Def("1")
                  .Range(1, 65536)
                  .Set(N(numjobs)));
  r.push_back(Row("thread", T::kBool, "job", "Use threads (accepted; iobench always uses threads)")
                  .Def("0")
                  .AnyInt()
                  .Set(B(thread)));
  // --- files and targets
  r.push_back(Row("filename", T::kSpecial, "files",
                  "File or device name(s), separated by ':' ('\\:' for a literal colon); each "
                  "filename= adds to the job's files")
                  .Choices("path[:path...]")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    // fio 3.33 caps the whole value (its other paths are not):
                    // "value exceeds max length of 4096" from 4096 bytes on.
                    constexpr size_t kFioFilenameMax = 4096;
                    if (const size_t n = Trim(v.text).size(); n >= kFioFilenameMax)
                      return Bad("the value is " + std::to_string(n) +
                                 " bytes long; fio refuses a filename= of " +
                                 std::to_string(kFioFilenameMax) +
                                 " bytes or more (value exceeds max length of 4096)");
                    // As fio (str_filename_cb): blanks at the ends of the whole value
                    // go, but a part keeps its own ('a: b :c' is a, " b " and c).
                    FileListStep step;
                    for (auto& f : SplitEscaped(Trim(v.text), ':')) {
                      // fio reads standard input or writes standard output for "-".
                      if (f == "-")
                        return Bad(
                            "'-' is standard input/output in fio (filename=-), which iobench "
                            "cannot do I/O on; for a file named '-', write ./-");
                      if (!f.empty()) step.names.push_back(std::move(f));
                    }
                    if (step.names.empty()) return Bad("empty filename");
                    // As in fio: the names join the job's list, and set nrfiles.
                    return AddFileListStep(j, v, std::move(step));
                  }));
  r.push_back(Row("directory", T::kStr, "files", "Directory in which the job's files are created")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    // As fio, empty parts of a:b are skipped ("a::b", "a:"); none left
                    // is fio's " is not a directory".
                    bool any = false;
                    for (const auto& d : SplitEscaped(v.text, ':')) any |= !d.empty();
                    if (!any && !v.text.empty())
                      return Bad("directory=" + v.text +
                                 " names no directory: every ':'-separated part is empty");
                    j.directory = v.text;
                    return Status::Ok();
                  }));
  r.push_back(Row("opendir", T::kStr, "files",
                  "Add every regular file below this directory (recursively) to the job's files")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    if (Trim(v.text).empty()) return Bad("opendir needs a directory");
                    FileListStep step;
                    step.kind = FileListStep::Kind::kDir;
                    step.names = {Trim(v.text)};
                    return AddFileListStep(j, v, std::move(step));
                  }));
  r.push_back(Row("filename_format", T::kStr, "files", "Name pattern for generated files")
                  .Def("$jobname.$jobnum.$filenum")
                  .Set(S(filename_format)));
  r.push_back(Row("nrfiles", T::kInt, "files",
                  "Number of files per job (after filename= or opendir=: the first N listed, "
                  "plus one for each file listed after it)")
                  .Alias({"nr_files"})
                  .Def("1")
                  .Range(1, 1 << 20)
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    j.nrfiles = static_cast<uint32_t>(v.num);
                    FileListStep step;
                    step.kind = FileListStep::Kind::kCount;
                    step.count = j.nrfiles;
                    return AddFileListStep(j, v, std::move(step));
                  }));
  r.push_back(Row("openfiles", T::kInt, "files", "Files kept open at the same time (0: all)")
                  .Def("0")
                  .Range(0, 1 << 20)
                  .Set(N(openfiles)));
  r.push_back(Row("file_service_type", T::kEnum, "files", "How the next file is chosen")
                  .Def("roundrobin")
                  .Choices("roundrobin|sequential|random[:N]")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    std::string t = Trim(v.text);
                    j.file_service_nr = 1;
                    if (const size_t colon = t.find(':'); colon != std::string::npos) {
                      // roundrobin:N, random:N, sequential:N: N I/Os per file
                      // before switching (fio). zipf:THETA and the other
                      // distributions are refused below.
                      const std::string n = t.substr(colon + 1);
                      t = t.substr(0, colon);
                      if (t == "roundrobin" || t == "random" || t == "sequential") {
                        uint64_t nr = 0;
                        if (n.empty() || n.size() > 9 ||
                            n.find_first_not_of("0123456789") != std::string::npos ||
                            (nr = std::stoull(n)) == 0)
                          return Bad("file_service_type=" + t + ":" + n +
                                     ": N must be a whole number of I/Os from 1 to 999999999");
                        j.file_service_nr = static_cast<uint32_t>(nr);
                      }
                    }
                    if (t == "roundrobin")
                      j.file_service_type = FileServiceType::kRoundRobin;
                    else if (t == "sequential")
                      j.file_service_type = FileServiceType::kSequential;
                    else if (t == "random")
                      j.file_service_type = FileServiceType::kRandom;
                    else if (t == "zipf" || t == "pareto" || t == "normal" || t == "gauss")
                      return Bad("file_service_type=" + t +
                                 " is a fio mode that iobench does not support yet");
                    else
                      return Bad("bad file_service_type '" + t +
                                 "' (roundrobin, sequential, random)");
                    return Status::Ok();
                  }));
  r.push_back(
      Row("size", T::kSize, "files", "Total bytes of I/O region per job (N% of the file or device)")
          .Percent()
          .Range(0, INT64_MAX)
          .Set([](JobSpec& j, const OptValue& v) {
            return SetPercentable(&j.size, &j.size_percent, v, "size");
          }));
  r.push_back(
      Row("filesize", T::kSpecial, "files",
          "Size of each file; a range lo-hi picks a random size per file; size= then caps the job")
          .Choices("size[-size]")
          .Sizes()
          .Set([](JobSpec& j, const OptValue& v) -> Status {
            int64_t lo, hi;
            std::string reversed;
            IOB_RETURN_IF_ERROR(
                ParseRange(v.text, NumKind::kSize, v.kb_base, 0, &lo, &hi, &reversed));
            if (lo <= 0) return Bad("must be positive");
            // fio 3.33 does not swap it: filesize=8k-4k with nrfiles=3 made
            // three 8.3 GB files and filled a tmpfs. Refused, as startdelay's.
            if (!reversed.empty())
              return Bad("file size range '" + Trim(v.text) + "' runs from high to low: give " +
                         reversed +
                         " for a random size between them (fio 3.33 lays out files of gigabytes "
                         "for it)");
            j.filesize_min = static_cast<uint64_t>(lo);
            j.filesize_max = static_cast<uint64_t>(hi);
            return Status::Ok();
          }));
  r.push_back(Row("io_size", T::kSize, "files",
                  "Bytes of I/O, at most io_size x loops; ignored with time_based (default: size)")
                  .Alias({"io_limit"})
                  .Percent()
                  .Range(0, INT64_MAX)
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    // fio: "io_size values greater than 100% aren't supported".
                    IOB_RETURN_IF_ERROR(
                        SetPercentable(&j.io_size, &j.io_size_percent, v, "io_size"));
                    if (j.io_size_percent == 100) j.io_size_percent = 0;  // the whole pass
                    return Status::Ok();
                  }));
  r.push_back(Row("offset", T::kSize, "files", "Start offset in the file (N% of the file)")
                  .Alias({"fileoffset"})
                  .Percent()
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set([](JobSpec& j, const OptValue& v) {
                    return SetPercentable(&j.offset, &j.offset_percent, v, "offset");
                  }));
  r.push_back(
      Row("offset_increment", T::kSize, "files", "Offset added per numjobs clone (N% of the file)")
          .Percent()
          .Def("0")
          .Range(0, INT64_MAX)
          .Set([](JobSpec& j, const OptValue& v) {
            return SetPercentable(&j.offset_increment, &j.offset_increment_percent, v,
                                  "offset_increment");
          }));
  r.push_back(
      Row("offset_align", T::kSize, "files",
          "Align a percentage offset up to this (0: the smallest block size of any direction)")
          .Def("0")
          .Range(0, INT64_MAX)
          .Set(N(offset_align)));
  r.push_back(
      Row("file_append", T::kBool, "files", "I/O starts at the end of the file (regular files)")
          .Def("0")
          .Set(B(file_append)));
  r.push_back(Row("number_ios", T::kInt, "files",
                  "Stop after this many I/Os times loops; ignored with time_based (0: no limit)")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set(N(number_ios)));
  r.push_back(Row("fill_device", T::kBool, "files", "Write until the device or filesystem is full")
                  .Alias({"fill_fs"})
                  .Def("0")
                  .Set(B(fill_device)));
  r.push_back(
      Row("allow_mounted_write", T::kBool, "files", "Allow writes to a mounted block device")
          .Def("0")
          .Set(B(allow_mounted_write)));
  r.push_back(Row("unlink", T::kBool, "files", "Delete the job's files when it is done")
                  .Def("0")
                  .Set(B(unlink)));
  r.push_back(Row("unlink_each_loop", T::kBool, "files",
                  "Delete the job's files after each loop (they are laid out again)")
                  .Def("0")
                  .Set(B(unlink_each_loop)));
  r.push_back(Row("create_on_open", T::kBool, "files", "Create files when they are opened for I/O")
                  .Def("0")
                  .Set(B(create_on_open)));
  r.push_back(Row("create_serialize", T::kBool, "files",
                  "Lay the jobs' files out one at a time (0: in parallel)")
                  .Def("1")
                  .Set(B(create_serialize)));
  r.push_back(Row("create_fsync", T::kBool, "files", "fsync a file after laying its data out")
                  .Def("1")
                  .Set(B(create_fsync)));
  r.push_back(Row("create_only", T::kBool, "files", "Only lay the files out; do no I/O")
                  .Def("0")
                  .Set(B(create_only)));
  r.push_back(Row("allow_file_create", T::kBool, "files",
                  "May create missing files (0: a missing file is an error)")
                  .Def("1")
                  .Set(B(allow_file_create)));
  r.push_back(
      Row("pre_read", T::kBool, "files", "Read the files into the page cache before starting")
          .Def("0")
          .Set(B(pre_read)));
  r.push_back(Row("overwrite", T::kBool, "files", "Write the files fully before the job's writes")
                  .Def("0")
                  .Set(B(overwrite)));
  r.push_back(Row("fallocate", T::kEnum, "files", "How files are preallocated")
                  .Def("native")
                  .Choices("none|posix|keep|native|truncate|0|1")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    std::string t = Trim(v.text);
                    if (t == "none" || t == "0")
                      j.fallocate = FallocateMode::kNone;
                    else if (t == "posix" || t == "1")
                      j.fallocate = FallocateMode::kPosix;
                    else if (t == "keep")
                      j.fallocate = FallocateMode::kKeep;
                    else if (t == "native")
                      j.fallocate = FallocateMode::kNative;
                    else if (t == "truncate")
                      j.fallocate = FallocateMode::kTruncate;
                    else
                      return Bad("bad fallocate mode '" + t +
                                 "' (none, posix, keep, native, truncate)");
                    return Status::Ok();
                  }));
  // --- I/O pattern
  r.push_back(
      Row("rw", T::kSpecial, "pattern",
          "I/O pattern, optionally with :N (random: I/Os per offset; sequential: bytes skipped)")
          .Alias({"readwrite"})
          .Sizes()
          .Def("read")
          .Choices("read|write|trim|randread|randwrite|randtrim|rw|readwrite|randrw|trimwrite|"
                   "randtrimwrite[:N]")
          .Set(ParseRw));
  // fio 3.33 reads rw_sequencer as a keyword and drops what follows a ':'
  // or ',' (its option parser matches the word only): `identical:4` is
  // `identical`, and the count stays rw='s (rw=randwrite:4). iobench read
  // the ':4' as the count, and with rw=randwrite wrote each offset 4 times
  // where fio wrote it once.
  r.push_back(Row("rw_sequencer", T::kSpecial, "pattern", "How :N in rw= generates offsets")
                  .Def("sequential")
                  .Choices("sequential|identical")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    const std::string written = Trim(v.text);
                    const size_t cut = written.find_first_of(":,");
                    const std::string t = Trim(written.substr(0, cut));
                    if (t == "sequential")
                      j.rw_sequencer = RwSequencer::kSequential;
                    else if (t == "identical")
                      j.rw_sequencer = RwSequencer::kIdentical;
                    else
                      return Bad("bad rw_sequencer '" + t + "' (sequential, identical)");
                    if (cut != std::string::npos && v.warnings) {
                      const std::string tail = written.substr(cut);
                      const std::string n = Trim(tail.substr(1));
                      const bool count =
                          !n.empty() && n.find_first_not_of("0123456789") == std::string::npos;
                      const std::string mode = IsRandom(j.rw) ? RwModeName(j.rw) : "randread";
                      v.warnings->push_back(
                          "option 'rw_sequencer': '" + tail + "' in '" + written +
                          "' is ignored, as in fio, which reads only the word" +
                          (count ? "; the count of I/Os per random offset belongs in rw= "
                                   "(rw=" +
                                       mode + ":" + n + ")"
                                 : std::string()));
                    }
                    return Status::Ok();
                  }));
  r.push_back(Row("rwmixread", T::kInt, "pattern", "Percent of a mixed workload that reads")
                  .Def("50")
                  .Range(0, 100)
                  .Set(N(rwmixread)));
  r.push_back(Row("rwmixwrite", T::kInt, "pattern",
                  "Percent of a mixed workload that writes (sets rwmixread = 100 - N)")
                  .Def("50")
                  .Range(0, 100)
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    j.rwmixread = static_cast<uint32_t>(100 - v.num);
                    return Status::Ok();
                  }));
  r.push_back(Row("bs", T::kSize, "pattern", "Block size (read,write,trim)")
                  .Alias({"blocksize"})
                  .Def("4k")
                  .PerDir()
                  .Range(1, kMaxBlockSize)
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    for (int d = 0; d < kNumDdirs; ++d) {
                      if (!v.dir[d]) continue;
                      BlockSizeOptions& o = j.bs_options[d];
                      o.bs = static_cast<uint64_t>(*v.dir[d]);
                      if (o.layer < v.layer)  // the command line over a job file's range
                        o = BlockSizeOptions{o.bs, 0, 0, {}, -1, -1};
                      ResolveBlockSize(j, d);
                    }
                    return Status::Ok();
                  }));
  r.push_back(
      Row("bsrange", T::kSpecial, "pattern", "Block size range lo-hi (or lo:hi) per direction")
          .Alias({"blocksize_range"})
          .Sizes()
          .Choices("lo-hi[,lo-hi][,lo-hi]")
          .Set(ParseBsRange));
  r.push_back(Row("bssplit", T::kSpecial, "pattern",
                  "Weighted block sizes: bs/share:bs/share (blank shares take the remainder)")
                  .Choices("bs/perc:bs/perc[,...]")
                  .Sizes()
                  .Set(ParseBsSplit));
  r.push_back(Row("blockalign", T::kSize, "pattern",
                  "Alignment of random offsets (default: the minimum bs)")
                  .Alias({"ba"})
                  .PerDir()
                  .Range(1, INT32_MAX)
                  .Set(D(blockalign)));
  r.push_back(Row("bs_unaligned", T::kBool, "pattern",
                  "Block sizes of a bsrange or bssplit need not be multiples of the smallest")
                  .Alias({"blocksize_unaligned"})
                  .Def("0")
                  .AnyInt()
                  .Set(B(bs_unaligned)));
  r.push_back(Row("bs_is_seq_rand", T::kBool, "pattern",
                  "bs=a,b means sequential,random instead of read,write")
                  .Def("0")
                  .Set(B(bs_is_seq_rand)));
  r.push_back(Row("randrepeat", T::kBool, "pattern", "Same random sequence on every run")
                  .Def("1")
                  .Set(B(randrepeat)));
  r.push_back(Row("allrandrepeat", T::kBool, "pattern",
                  "Repeatable random numbers for everything, even with randrepeat=0")
                  .Def("0")
                  .Set(B(allrandrepeat)));
  r.push_back(Row("randseed", T::kInt, "pattern", "Seed of the random generators")
                  .Range(0, INT64_MAX)
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    j.randseed = static_cast<uint64_t>(v.num);
                    return Status::Ok();
                  }));
  r.push_back(Row("norandommap", T::kBool, "pattern", "Random offsets may repeat; no coverage map")
                  .Def("0")
                  .AnyInt()
                  .Set(B(norandommap)));
  r.push_back(Row("softrandommap", T::kBool, "pattern",
                  "Run without the random map when it cannot be allocated")
                  .Def("0")
                  .Set(B(softrandommap)));
  r.push_back(Row("random_generator", T::kEnum, "pattern", "Random number generator")
                  .Def("tausworthe")
                  .Choices("tausworthe|lfsr|tausworthe64")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    std::string t = Trim(v.text);
                    if (t == "tausworthe")
                      j.random_generator = RandomGenerator::kTausworthe;
                    else if (t == "lfsr")
                      j.random_generator = RandomGenerator::kLfsr;
                    else if (t == "tausworthe64")
                      j.random_generator = RandomGenerator::kTausworthe64;
                    else
                      return Bad("bad random_generator '" + t +
                                 "' (tausworthe, lfsr, tausworthe64)");
                    return Status::Ok();
                  }));
  r.push_back(
      Row("random_distribution", T::kSpecial, "pattern", "Distribution of random offsets")
          .Def("random")
          .Choices(
              "random|zipf[:t]|pareto[:h]|normal:s[:center]|zoned:a/s:...|zoned_abs:a/size:...")
          .Sizes()
          .Set(ParseDistribution));
  r.push_back(Row("percentage_random", T::kInt, "pattern",
                  "Percent of I/Os that are random (rest sequential)")
                  .Def("100")
                  .PerDir()
                  .Range(0, 100)
                  .Set(D(percentage_random)));
  // zonemode=strided (fio): fixed-size zones walked across the file.
  r.push_back(Row("zonemode", T::kEnum, "pattern",
                  "strided: I/O in zones of zonerange bytes, zonesize bytes each, zoneskip "
                  "between (zbd: zoned block devices, not supported)")
                  .Def("none")
                  .Choices("none|strided|zbd")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    const std::string t = Trim(v.text);
                    if (t == "none")
                      j.zone_mode = JobSpec::ZoneMode::kNone;
                    else if (t == "strided")
                      j.zone_mode = JobSpec::ZoneMode::kStrided;
                    else if (t == "zbd")
                      j.zone_mode = JobSpec::ZoneMode::kZbd;
                    else
                      return Bad("must be none, strided or zbd, got '" + t + "'");
                    return Status::Ok();
                  }));
  r.push_back(Row("zonesize", T::kSize, "pattern",
                  "zonemode=strided: bytes transferred in a zone before moving to the next")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set(N(zone_size)));
  r.push_back(
      Row("zonerange", T::kSize, "pattern", "zonemode=strided: the size of a zone (0: zonesize)")
          .Def("0")
          .Range(0, INT64_MAX)
          .Set(N(zone_range)));
  r.push_back(Row("zoneskip", T::kSpecial, "pattern",
                  "zonemode=strided: bytes skipped after each zone; Nz: N zones of zonesize")
                  .Def("0")
                  .Choices("size|Nz")
                  .Sizes()
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    std::string t = Trim(v.text);
                    const bool zones = !t.empty() && (t.back() == 'z' || t.back() == 'Z');
                    if (zones) t.pop_back();
                    IOB_ASSIGN_OR_RETURN(
                        int64_t n, zones ? Whole(t, "zoneskip zone count", "fio refuses it too")
                                         : Num(t, NumKind::kSize, v.kb_base));
                    if (n < 0) return Bad("must not be negative");
                    j.zone_skip = static_cast<uint64_t>(n);
                    j.zone_skip_zones = zones;
                    return Status::Ok();
                  }));
  r.push_back(Row("zonecapacity", T::kSize, "pattern",
                  "zonemode=zbd only (ignored with strided, as in fio)")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set([](JobSpec&, const OptValue&) { return Status::Ok(); }));
  // --- engine and depth
  // The choices are every engine the parser accepts, so the help cannot fall behind the registry.
  std::string engines;
  for (const auto& e : IobenchEngineNames()) engines += (engines.empty() ? "" : "|") + e;
  r.push_back(Row("ioengine", T::kSpecial, "engine",
                  "I/O engine (--list-engines says which this build and kernel can run; "
                  "io_uring_cmd is not available yet)")
                  .Def("psync")
                  .Choices(engines)
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    std::string t = Trim(v.text);
                    auto& known = IobenchEngineNames();
                    if (std::find(known.begin(), known.end(), t) != known.end()) {
                      j.ioengine = t;
                      return Status::Ok();
                    }
                    if (std::string why = FioEngineRefusal(t); !why.empty()) return Bad(why);
                    std::string s = SuggestFrom(t, known);
                    // A part of an engine's name (`uring`, `aio`): the
                    // shortest engine that holds it.
                    if (s.empty() && t.size() >= 3)
                      for (const auto& e : known)
                        if (e.find(ToLower(t)) != std::string::npos &&
                            (s.empty() || e.size() < s.size()))
                          s = e;
                    return Bad("unknown ioengine '" + t + "'" +
                               (s.empty() ? " (iobench --enghelp lists the engines)"
                                          : "; did you mean '" + s + "'?"));
                  }));
  r.push_back(Row("iodepth", T::kInt, "engine", "I/Os kept in flight per job")
                  .Def("1")
                  .Range(1, 1 << 20)
                  .Set(N(iodepth)));
  r.push_back(
      Row("iodepth_batch_submit", T::kInt, "engine", "I/Os submitted per batch (0: iodepth)")
          .Alias({"iodepth_batch"})
          .Def("1")
          .Range(0, 1 << 20)
          .Set(N(iodepth_batch_submit)));
  r.push_back(Row("iodepth_batch_complete_min", T::kInt, "engine",
                  "Minimum completions to wait for per reap")
                  .Alias({"iodepth_batch_complete"})
                  .Def("1")
                  .Range(0, 1 << 20)
                  .Set(N(iodepth_batch_complete_min)));
  r.push_back(Row("iodepth_batch_complete_max", T::kInt, "engine",
                  "Maximum completions per reap (default: iodepth_batch_complete_min)")
                  .Def("0")
                  .Range(0, 1 << 20)
                  .Set(N(iodepth_batch_complete_max)));
  r.push_back(Row("io_submit_mode", T::kEnum, "engine",
                  "inline: the job's thread submits its I/O (offload, fio's pool of "
                  "submission threads, is not supported)")
                  .Def("inline")
                  .Choices("inline|offload")
                  .Set([](JobSpec&, const OptValue& v) -> Status {
                    const std::string t = Trim(v.text);
                    if (t == "inline") return Status::Ok();
                    if (t == "offload")
                      return Bad(
                          "io_submit_mode=offload (fio's pool of submission threads) is "
                          "not supported by iobench: each job submits its own I/O (inline)");
                    return Bad("must be inline or offload, got '" + t + "'");
                  }));
  r.push_back(Row("iodepth_low", T::kInt, "engine",
                  "Refill the queue when it drains to this depth (0: iodepth)")
                  .Def("0")
                  .Range(0, 1 << 20)
                  .Set(N(iodepth_low)));
  r.push_back(Row("latency_target", T::kTime, "engine",
                  "Find the highest queue depth (up to iodepth) whose I/O completes within "
                  "this time (default unit: microseconds)")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Unit(kUsec)
                  .Set(N(latency_target_ns)));
  r.push_back(Row("latency_window", T::kTime, "engine",
                  "latency_target: how long each queue depth is tried (default unit: "
                  "microseconds)")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Unit(kUsec)
                  .Set(N(latency_window_ns)));
  r.push_back(Row("latency_percentile", T::kSpecial, "engine",
                  "latency_target: share of the I/O (percent) that must meet it")
                  .Def("100")
                  .Choices("float 0..100")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    std::string t = Trim(v.text);
                    if (!t.empty() && t.back() == '%') t.pop_back();
                    char* end = nullptr;
                    errno = 0;
                    const double p = std::strtod(t.c_str(), &end);
                    if (t.empty() || end != t.c_str() + t.size() || errno != 0 || !std::isfinite(p))
                      return Bad("latency_percentile '" + v.text + "' is not a number");
                    if (p < 0 || p > 100)
                      return Bad("latency_percentile " + v.text + " is outside 0..100");
                    j.latency_percentile = p;
                    return Status::Ok();
                  }));
  r.push_back(Row("latency_run", T::kBool, "engine",
                  "latency_target: keep adjusting the queue depth until the job ends, "
                  "instead of ending once the depth is found")
                  .Def("0")
                  .Set(B(latency_run)));
  // --- caching and syncing
  r.push_back(Row("direct", T::kBool, "io", "Use O_DIRECT (bypass the page cache)")
                  .Def("0")
                  .Set(B(direct)));
  r.push_back(Row("buffered", T::kBool, "io", "Use the page cache (buffered=0 is direct=1)")
                  .Def("1")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    j.direct = v.num == 0;
                    return Status::Ok();
                  }));
  r.push_back(Row("sync", T::kSpecial, "io", "Open files O_SYNC (1/sync) or O_DSYNC (dsync)")
                  .Def("none")
                  .Choices("none|sync|dsync|0|1")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    // fio 3.33's five words only: it refuses sync=true/yes/on.
                    std::string t = Trim(v.text);
                    j.sync = j.dsync = false;
                    if (v.bare || t == "sync" || t == "1")
                      j.sync = true;
                    else if (t == "dsync")
                      j.dsync = true;
                    else if (t != "none" && t != "0")
                      return Bad("bad sync mode '" + t + "' (none, sync, dsync, 0, 1)");
                    return Status::Ok();
                  }));
  r.push_back(Row("fsync", T::kInt, "io", "fsync after every N writes (0: never)")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set(N(fsync_blocks)));
  r.push_back(Row("fdatasync", T::kInt, "io", "fdatasync after every N writes (0: never)")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set(N(fdatasync_blocks)));
  r.push_back(Row("sync_file_range", T::kSpecial, "io",
                  "sync_file_range(2) of what was written, every N writes (flags:N)")
                  .Choices("wait_before,write,wait_after[:N]")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    const std::string t = Trim(v.text);
                    const size_t colon = t.find(':');
                    uint32_t flags = 0;
                    for (const std::string& raw : SplitEscaped(t.substr(0, colon), ',')) {
                      const std::string f = Trim(raw);
                      if (f == "wait_before")
                        flags |= SYNC_FILE_RANGE_WAIT_BEFORE;
                      else if (f == "write")
                        flags |= SYNC_FILE_RANGE_WRITE;
                      else if (f == "wait_after")
                        flags |= SYNC_FILE_RANGE_WAIT_AFTER;
                      else
                        return Bad("bad sync_file_range flag '" + f +
                                   "' (wait_before, write, wait_after)");
                    }
                    int64_t n = 1;  // fio: no count means every write
                    if (colon != std::string::npos) {
                      IOB_ASSIGN_OR_RETURN(n, Whole(t.substr(colon + 1), "sync_file_range count"));
                      if (n < 0)
                        return Bad("sync_file_range count " + std::to_string(n) +
                                   " must be 0 (never) or more");
                    }
                    j.sync_file_range_flags = flags;
                    j.sync_file_range_blocks = static_cast<uint64_t>(n);
                    return Status::Ok();
                  }));
  r.push_back(Row("end_fsync", T::kBool, "io", "fsync the files when the job's writes are done")
                  .Def("0")
                  .Set(B(end_fsync)));
  r.push_back(Row("fsync_on_close", T::kBool, "io", "fsync each file when it is closed")
                  .Def("0")
                  .Set(B(fsync_on_close)));
  r.push_back(Row("invalidate", T::kBool, "io",
                  "Drop the files' page cache before starting, and before each later pass "
                  "of a buffered job (loops, time_based)")
                  .Def("1")
                  .Set(B(invalidate)));
  r.push_back(
      Row("write_hint", T::kEnum, "io",
          "Expected life time of the data written (fcntl F_SET_RW_HINT at open)")
          .Choices("none|short|medium|long|extreme")
          .Set([](JobSpec& j, const OptValue& v) -> Status {
            static const char* const kHints[] = {"none", "short", "medium", "long", "extreme"};
            const std::string t = Trim(v.text);
            for (int i = 0; i < 5; ++i)
              if (t == kHints[i]) {
                j.write_hint = i + 1;  // RWH_WRITE_LIFE_NONE is 1
                return Status::Ok();
              }
            return Bad("bad write_hint '" + t + "' (none, short, medium, long, extreme)");
          }));
  r.push_back(Row("fadvise_hint", T::kEnum, "io",
                  "posix_fadvise at open: 1 by workload (random/sequential), 0 none")
                  .Def("1")
                  .Choices("0|1|sequential|random")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    const std::string t = Trim(v.text);
                    using H = JobSpec::FadviseHint;
                    if (t == "0" || t == "false" || t == "off" || t == "no")
                      j.fadvise_hint = H::kNone;
                    else if (t.empty() || t == "1" || t == "true" || t == "on" || t == "yes")
                      j.fadvise_hint = H::kWorkload;
                    else if (t == "sequential")
                      j.fadvise_hint = H::kSequential;
                    else if (t == "random")
                      j.fadvise_hint = H::kRandom;
                    else
                      return Bad("fadvise_hint '" + v.text +
                                 "': expected 0, 1, sequential or random");
                    return Status::Ok();
                  }));
  // --- time
  r.push_back(
      Row("runtime", T::kTime, "time", "Stop the job after this long (default unit: seconds)")
          .Alias({"timeout"})
          .Def("0")
          .Range(0, INT64_MAX)
          .Set(N(runtime_ns)));
  r.push_back(
      Row("time_based", T::kBool, "time", "Run for the whole runtime, repeating the workload")
          .Def("0")
          .AnyInt()
          .Set(B(time_based)));
  r.push_back(
      Row("ramp_time", T::kTime, "time", "Run this long before measuring (default unit: seconds)")
          .Def("0")
          .Range(0, INT64_MAX)
          .Set(N(ramp_time_ns)));
  r.push_back(Row("startdelay", T::kSpecial, "time",
                  "Delay the job's start; lo-hi picks a random delay (default unit: seconds)")
                  .Def("0")
                  .Choices("time[-time]")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    int64_t lo, hi;
                    std::string reversed;
                    IOB_RETURN_IF_ERROR(
                        ParseRange(v.text, NumKind::kTime, 1024, kSec, &lo, &hi, &reversed));
                    if (lo < 0) return Bad("a start delay must not be negative: '" + v.text + "'");
                    // ParseRange swaps a reversed range. fio 3.33 does not:
                    // startdelay=3-1 never starts there. Refused, not read
                    // as 1-3: which one was meant is not ours to guess.
                    if (!reversed.empty())
                      return Bad("start delay range '" + Trim(v.text) +
                                 "' runs from high to low: give " + reversed +
                                 " for a random delay between them (fio 3.33 never starts the "
                                 "job)");
                    j.startdelay_ns = static_cast<uint64_t>(lo);
                    j.startdelay_max_ns = lo == hi ? 0 : static_cast<uint64_t>(hi);
                    return Status::Ok();
                  }));
  r.push_back(Row("clocksource", T::kEnum, "time",
                  "Timing base: cpu (the TSC if invariant; left unset, only when the kernel "
                  "runs on it), clock_gettime, gettimeofday (clock_gettime here)")
                  .Def("cpu")
                  .Choices("cpu|clock_gettime|gettimeofday")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    const std::string t = Trim(v.text);
                    using C = JobSpec::ClockSourceChoice;
                    if (t == "cpu")
                      j.clocksource = C::kCpu;
                    else if (t == "clock_gettime")
                      j.clocksource = C::kClockGettime;
                    else if (t == "gettimeofday")
                      j.clocksource = C::kGettimeofday;
                    else
                      return Bad("clocksource '" + v.text +
                                 "': expected cpu, clock_gettime or gettimeofday");
                    return Status::Ok();
                  }));
  r.push_back(Row("gtod_cpu", T::kInt, "time",
                  "fio's time-keeping CPU; no effect (each iobench worker reads the TSC itself)")
                  .Range(0, 65535)
                  .Set(N(gtod_cpu)));
  r.push_back(Row("loops", T::kInt, "time", "Repeat the job this many times")
                  .Def("1")
                  .Range(0, INT64_MAX)
                  .Set([](JobSpec& j, const OptValue& v) {
                    j.loops = std::max<int64_t>(v.num, 1);  // fio runs loops=0 once
                    return Status::Ok();
                  }));
  r.push_back(
      Row("steadystate", T::kSpecial, "time",
          "Stop when this criterion holds over steadystate_duration: iops or bw (max deviation "
          "from the mean), iops_slope or bw_slope (least squares slope); limit absolute or N%")
          .Alias({"ss"})
          .Sizes()
          .Def("iops_slope:0.01%")
          .Choices("iops|iops_slope|bw|bw_slope:limit[%]")
          .Set([](JobSpec& j, const OptValue& v) -> Status {
            using M = JobSpec::SteadyStateMode;
            const std::string t = Trim(v.text);
            const size_t colon = t.find(':');
            const std::string crit = Trim(t.substr(0, colon));
            M mode;
            if (crit == "iops")
              mode = M::kIops;
            else if (crit == "iops_slope")
              mode = M::kIopsSlope;
            else if (crit == "bw")
              mode = M::kBw;
            else if (crit == "bw_slope")
              mode = M::kBwSlope;
            else
              return Bad("steadystate '" + v.text +
                         "': the criterion must be iops, iops_slope, bw or bw_slope");
            std::string limit = colon == std::string::npos ? "" : Trim(t.substr(colon + 1));
            if (limit.empty())
              return Bad("steadystate '" + v.text + "': give a limit after the criterion, e.g. " +
                         crit + ":1%");
            const bool pct = limit.back() == '%';
            if (pct) limit = Trim(limit.substr(0, limit.size() - 1));
            double val = 0;
            if (pct || mode == M::kIops || mode == M::kIopsSlope) {
              char* end = nullptr;
              errno = 0;
              val = std::strtod(limit.c_str(), &end);
              if (limit.empty() || end != limit.c_str() + limit.size() || errno != 0 ||
                  !std::isfinite(val))
                return Bad("steadystate '" + v.text + "': the limit '" + limit +
                           "' is not a number" + (pct ? "" : " (IOPS, or a percentage with %)"));
            } else {  // an absolute bandwidth: bytes/s, with size suffixes
              IOB_ASSIGN_OR_RETURN(int64_t b, Num(limit, NumKind::kSize, v.kb_base));
              val = static_cast<double>(b);
            }
            if (val < 0)
              return Bad("steadystate '" + v.text +
                         "': the limit must not be negative (the criterion is compared "
                         "as an absolute value)");
            j.ss_mode = mode;
            j.ss_limit = val;
            j.ss_percent = pct;
            return Status::Ok();
          }));
  r.push_back(Row("steadystate_duration", T::kTime, "time",
                  "Steady state window, sampled once a second; 0 turns steady state "
                  "detection off (default unit: seconds)")
                  .Alias({"ss_dur"})
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    const auto ns = static_cast<uint64_t>(v.num);
                    if (ns != 0 && ns < kSec)
                      return Bad("steadystate_duration=" + v.text +
                                 " is shorter than one sample: steady state is sampled once a "
                                 "second, give at least 1s");
                    // One sample a second is kept for the window: a week is 604800.
                    if (ns / kSec > 7 * 24 * 3600)
                      return Bad("steadystate_duration=" + v.text +
                                 " is longer than a week (604800 one-second samples)");
                    j.ss_dur_s = ns / kSec;  // whole seconds, as fio
                    return Status::Ok();
                  }));
  r.push_back(Row("steadystate_ramp_time", T::kTime, "time",
                  "Take no steady state samples during this time, and one second more "
                  "(default unit: seconds)")
                  .Alias({"ss_ramp"})
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set(N(ss_ramp_ns)));
  // --- rate and think time
  r.push_back(Row("rate", T::kSize, "rate", "Bandwidth cap in bytes/s (read,write,trim)")
                  .PerDir()
                  .Range(0, INT64_MAX)
                  .Set(D(rate)));
  r.push_back(Row("rate_iops", T::kInt, "rate", "IOPS cap (read,write,trim)")
                  .PerDir()
                  .Range(0, INT64_MAX)
                  .Set(D(rate_iops)));
  r.push_back(Row("rate_min", T::kSize, "rate", "Fail the job below this bandwidth in bytes/s")
                  .Alias({"ratemin"})
                  .PerDir()
                  .Range(0, INT64_MAX)
                  .Set(D(rate_min)));
  r.push_back(Row("rate_iops_min", T::kInt, "rate", "Fail the job below this IOPS")
                  .PerDir()
                  .Range(0, INT64_MAX)
                  .Set(D(rate_iops_min)));
  // Milliseconds, as in fio; a time with a unit (`1s`, `250ms`) is read as
  // one (it was "bad number '1s'"). A bare number stays a count of ms, so
  // windows beyond 2^63 ns still parse (they never end). 0 is fio's too: a
  // window under 1 ms is never judged (MinRateCheck), so 0 judges at each
  // check 1 ms or more after the last, as rate_cycle=1 does, in both.
  r.push_back(Row("rate_cycle", T::kSpecial, "rate",
                  "Averaging window of rate_min/rate_iops_min (ms, or a time with a unit)")
                  .Alias({"ratecycle"})
                  .Def("1000")
                  .Choices("int ms | time")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    const std::string t = Trim(v.text);
                    const bool bare = !t.empty() && std::all_of(t.begin(), t.end(), [](char c) {
                      return c >= '0' && c <= '9';
                    });
                    uint64_t ms = 0;
                    if (bare) {
                      errno = 0;
                      char* end = nullptr;
                      ms = std::strtoull(t.c_str(), &end, 10);
                      if (errno == ERANGE) return Bad("'" + t + "' is out of range");
                    } else {
                      IOB_ASSIGN_OR_RETURN(int64_t ns, Num(t, NumKind::kTime, 1024, kMsec));
                      if (ns < 0) return Bad("must not be negative");
                      if (ns % static_cast<int64_t>(kMsec) != 0)
                        return Bad("'" + t + "' is not a whole number of milliseconds");
                      ms = static_cast<uint64_t>(ns) / kMsec;
                    }
                    if (v.warnings)
                      if (auto w = FioRateCycleWarning(t, ms, v.kb_base)) v.warnings->push_back(*w);
                    j.ratecycle_ms = ms;
                    return Status::Ok();
                  }));
  r.push_back(Row("rate_process", T::kEnum, "rate", "How rated I/Os are spaced")
                  .Def("linear")
                  .Choices("linear|poisson")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    std::string t = Trim(v.text);
                    if (t == "linear")
                      j.rate_process = RateProcess::kLinear;
                    else if (t == "poisson")
                      j.rate_process = RateProcess::kPoisson;
                    else
                      return Bad("bad rate_process '" + t + "' (linear, poisson)");
                    return Status::Ok();
                  }));
  r.push_back(Row("max_latency", T::kTime, "rate",
                  "End the job with ETIMEDOUT when an I/O's latency exceeds this "
                  "(read,write,trim; default unit: usec)")
                  .Def("0")
                  .PerDir()
                  .Unit(kUsec)
                  .Range(0, INT64_MAX)
                  .Set(D(max_latency_ns)));
  r.push_back(Row("flow", T::kInt, "rate",
                  "Weight in flow control: the jobs of one flow_id run in the ratio of their "
                  "weights (a negative weight counts as its magnitude; 0: off)")
                  .Def("0")
                  .Range(-1000, 1000)
                  .Set([](JobSpec& j, const OptValue& v) {
                    j.flow = static_cast<int32_t>(v.num);
                    return Status::Ok();
                  }));
  r.push_back(Row("flow_id", T::kInt, "rate", "The flow (group of jobs) this job's flow joins")
                  .Def("0")
                  .Range(0, UINT32_MAX)
                  .Set(N(flow_id)));
  r.push_back(Row("flow_sleep", T::kInt, "rate",
                  "Microseconds to sleep when flow control holds the job back (0: retry at once)")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set(N(flow_sleep_us)));
  r.push_back(Row("thinktime", T::kTime, "rate", "Pause between I/Os (default unit: microseconds)")
                  .Def("0")
                  .Unit(kUsec)
                  .Range(0, INT64_MAX)
                  .Set(N(thinktime_ns)));
  r.push_back(Row("thinktime_spin", T::kTime, "rate",
                  "Part of thinktime spent spinning (default unit: microseconds)")
                  .Def("0")
                  .Unit(kUsec)
                  .Range(0, INT64_MAX)
                  .Set(N(thinktime_spin_ns)));
  r.push_back(Row("thinktime_blocks", T::kInt, "rate", "I/Os between think times")
                  .Def("1")
                  .Range(0, INT64_MAX)
                  .Set([](JobSpec& j, const OptValue& v) {
                    // fio pauses after every I/O with thinktime_blocks=0, as with 1
                    j.thinktime_blocks = std::max<int64_t>(v.num, 1);
                    return Status::Ok();
                  }));
  r.push_back(Row("thinktime_blocks_type", T::kEnum, "rate",
                  "What thinktime_blocks counts: complete (completed I/Os) or issue")
                  .Def("complete")
                  .Choices("complete|issue")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    const std::string t = Trim(v.text);
                    if (t != "complete" && t != "issue")
                      return Status::Invalid("thinktime_blocks_type '" + v.text +
                                             "': expected complete or issue");
                    j.thinktime_blocks_complete = t == "complete";
                    return Status::Ok();
                  }));
  r.push_back(Row("thinktime_iotime", T::kTime, "rate",
                  "Also think after this much I/O time (default unit: seconds)")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set(N(thinktime_iotime_ns)));
  r.push_back(Row("rate_ignore_thinktime", T::kBool, "rate",
                  "Do not catch up on the rate after a thinktime pause")
                  .Def("0")
                  .Set(B(rate_ignore_thinktime)));
  // --- cpu and scheduling
  r.push_back(Row("cpus_allowed", T::kSpecial, "cpu", "CPUs the job may run on, e.g. 0,2-5")
                  .Choices("cpu list")
                  .Set(ParseCpus));
  r.push_back(Row("cpumask", T::kSpecial, "cpu",
                  "CPUs the job may run on as a bit mask, e.g. 0x5 (CPUs 0 and 2); the later "
                  "of cpumask and cpus_allowed wins")
                  .Choices("bit mask")
                  .Set(ParseCpumask));
  r.push_back(Row("unique_filename", T::kBool, "files",
                  "fio's client/server file prefix; no effect (iobench has no client/server mode)")
                  .Def("1")
                  .Set(B(unique_filename)));
  r.push_back(Row("lockmem", T::kSize, "cpu",
                  "Pin this much memory per clone with mlock for the run (less memory for the "
                  "page cache)")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set(N(lockmem)));
  r.push_back(Row("cpus_allowed_policy", T::kEnum, "cpu",
                  "shared: every clone uses all CPUs; split: one CPU each")
                  .Def("shared")
                  .Choices("shared|split")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    std::string t = Trim(v.text);
                    if (t == "shared")
                      j.cpus_allowed_policy = CpusAllowedPolicy::kShared;
                    else if (t == "split")
                      j.cpus_allowed_policy = CpusAllowedPolicy::kSplit;
                    else
                      return Bad("bad cpus_allowed_policy '" + t + "' (shared, split)");
                    return Status::Ok();
                  }));
  r.push_back(Row("nice", T::kInt, "cpu",
                  "Niceness increment of the job's threads, as nice(1): added to the run's "
                  "niceness, clamped to 19")
                  .Range(-20, 19)
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    j.nice = static_cast<int>(v.num);
                    return Status::Ok();
                  }));
  r.push_back(Row("prio", T::kInt, "cpu", "I/O priority level")
                  .Range(0, 7)
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    j.prio = static_cast<int>(v.num);
                    return Status::Ok();
                  }));
  r.push_back(Row("prioclass", T::kInt, "cpu", "I/O priority class (1 rt, 2 be, 3 idle)")
                  .Range(0, 3)
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    j.prioclass = static_cast<int>(v.num);
                    return Status::Ok();
                  }));
  // --- buffers
  r.push_back(Row("zero_buffers", T::kBool, "buffers", "Fill write buffers with zeroes")
                  .Def("0")
                  .AnyInt()
                  .Set(B(zero_buffers)));
  r.push_back(Row("refill_buffers", T::kBool, "buffers", "Refill write buffers before every write")
                  .Def("0")
                  .AnyInt()
                  .Set(B(refill_buffers)));
  r.push_back(Row("scramble_buffers", T::kBool, "buffers",
                  "Scramble write buffers a little to defeat dedupe")
                  .Def("1")
                  .Set(B(scramble_buffers)));
  r.push_back(Row("buffer_compress_percentage", T::kInt, "buffers",
                  "Make write buffers compressible to this percent")
                  .Def("0")
                  .Range(0, 100)
                  .Set(N(buffer_compress_percentage)));
  r.push_back(Row("buffer_compress_chunk", T::kSize, "buffers",
                  "Granularity of buffer_compress_percentage (0, or more than the smallest write "
                  "size: that size)")
                  .Def("512")
                  .Range(0, INT32_MAX)  // 0: one chunk per buffer (fio)
                  .Set(N(buffer_compress_chunk)));
  r.push_back(Row("dedupe_percentage", T::kInt, "buffers",
                  "Percent of writes that repeat an earlier write's content (turns on "
                  "refill_buffers)")
                  .Def("0")
                  .Range(0, 100)
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    // As fio's callback: any value, 0 included, sets
                    // refill_buffers (a later refill_buffers= still wins).
                    j.dedupe_percentage = static_cast<uint32_t>(v.num);
                    j.refill_buffers = true;
                    return Status::Ok();
                  }));
  r.push_back(Row("dedupe_mode", T::kEnum, "buffers",
                  "repeat: a dedupe write repeats the last unique one; working_set: one of the "
                  "first unique ones")
                  .Def("repeat")
                  .Choices("repeat|working_set")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    const std::string t = Trim(v.text);
                    if (t != "repeat" && t != "working_set")
                      return Bad("must be repeat or working_set, got '" + t + "'");
                    j.dedupe_working_set = t == "working_set";
                    return Status::Ok();
                  }));
  r.push_back(Row("dedupe_working_set_percentage", T::kInt, "buffers",
                  "dedupe_mode=working_set: the working set is this percent of size")
                  .Def("5")
                  .Range(0, 100)
                  .Set(N(dedupe_working_set_percentage)));
  r.push_back(Row("dedupe_global", T::kBool, "buffers",
                  "dedupe_mode=working_set: share the working set between jobs (iobench: each "
                  "job keeps its own; the distinct blocks are as many)")
                  .Def("0")
                  .Set(B(dedupe_global)));
  r.push_back(
      Row("buffer_pattern", T::kSpecial, "buffers",
          "Fill write buffers with this pattern (0xhex, \"text\", number, 'file'; '|' joins)")
          .Choices("pattern")
          .Set([](JobSpec& j, const OptValue& v) -> Status {
            IOB_ASSIGN_OR_RETURN(j.buffer_pattern, ParsePattern(v.text));
            // As in fio: a pattern replaces scrambled or zeroed buffers.
            j.scramble_buffers = false;
            j.zero_buffers = false;
            return Status::Ok();
          }));
  r.push_back(Row("mem", T::kSpecial, "buffers",
                  "Memory the I/O buffers come from; huge page types fail when none are free")
                  .Alias({"iomem"})
                  .Def("malloc")
                  .Choices("malloc|shm|shmhuge|mmap[:file]|mmaphuge[:file]|mmapshared[:file]")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    const std::string t = Trim(v.text);
                    const size_t colon = t.find(':');
                    const std::string kind = t.substr(0, colon);
                    const std::string file = colon == std::string::npos ? "" : t.substr(colon + 1);
                    using M = JobSpec::MemType;
                    static const std::pair<const char*, M> kTypes[] = {
                        {"malloc", M::kMalloc},     {"shm", M::kShm},
                        {"shmhuge", M::kShmHuge},   {"mmap", M::kMmap},
                        {"mmaphuge", M::kMmapHuge}, {"mmapshared", M::kMmapShared}};
                    const auto* it = std::find_if(std::begin(kTypes), std::end(kTypes),
                                                  [&](const auto& e) { return kind == e.first; });
                    if (kind == "cudamalloc")
                      return Bad(
                          "mem=cudamalloc (GPU memory for fio's rdma engine) is not "
                          "supported by iobench");
                    if (it == std::end(kTypes))
                      return Bad("bad mem type '" + kind +
                                 "' (malloc, shm, shmhuge, mmap, mmaphuge, mmapshared)");
                    const M m = it->second;
                    if (colon != std::string::npos && file.empty())
                      return Bad("mem=" + kind + ": the file name after ':' is empty");
                    if (!file.empty() && m != M::kMmap && m != M::kMmapHuge && m != M::kMmapShared)
                      return Bad("mem=" + kind +
                                 " takes no file (only mmap, mmaphuge and "
                                 "mmapshared map one)");
                    j.mem = m;
                    j.mem_file = file;
                    return Status::Ok();
                  }));
  // fio's own name is iomem_align (its JSON "job options" say so), mem's is mem.
  r.push_back(Row("iomem_align", T::kSize, "buffers",
                  "Start the I/O buffers this many bytes past a page-aligned address")
                  .Alias({"mem_align"})
                  .Def("0")
                  .Range(0, UINT32_MAX)
                  .Set(N(mem_align)));
  // fio rounds huge page buffers up to this size with a mask, so only a power
  // of two makes sense; the kernel's own huge page size is applied as well.
  r.push_back(Row("hugepage-size", T::kSize, "buffers",
                  "Huge page size for mem=shmhuge/mmaphuge: the buffers are rounded up to it "
                  "(and to the kernel's Hugepagesize)")
                  .Def("2m")
                  .Range(1, INT64_MAX)
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    const auto n = static_cast<uint64_t>(v.num);
                    if ((n & (n - 1)) != 0)
                      return Bad("hugepage-size " + std::to_string(n) +
                                 " is not a power of two (huge pages are 2m or 1g on x86-64)");
                    j.hugepage_size = n;
                    return Status::Ok();
                  }));
  // --- verify (run: src/run/worker_verify.cc, src/run/verify_async.cc)
  r.push_back(Row("verify", T::kEnum, "verify", "Verify written data with this method")
                  .Def("0")
                  .Choices("0|none|md5|crc64|crc32|crc32c|crc32c-intel|crc16|crc7|xxhash|sha1|"
                           "sha256|sha512|sha3-224|sha3-256|sha3-384|sha3-512|meta|pattern|null")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    IOB_ASSIGN_OR_RETURN(j.verify.type, VerifyFromName(Trim(v.text)));
                    return Status::Ok();
                  }));
  r.push_back(Row("do_verify", T::kBool, "verify", "Run the verify phase after writing")
                  .Def("1")
                  .Set(B(verify.do_verify)));
  r.push_back(Row("verify_only", T::kBool, "verify", "Only verify, do not write")
                  .Def("0")
                  .AnyInt()
                  .Set(B(verify.verify_only)));
  r.push_back(Row("verify_backlog", T::kInt, "verify", "Verify after this many written blocks")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set(N(verify.backlog)));
  r.push_back(Row("verify_backlog_batch", T::kInt, "verify", "Blocks verified per backlog pass")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set(N(verify.backlog_batch)));
  // Unset (0) means the write block size. An explicit value below fio
  // 3.33's minimum, 80 for every verify type ("min value out of range: 1
  // (80 min)"), is refused, 0 included; header types need 128 (the header:
  // Verifier::CheckOptions checks it once the type is known). verify=pattern
  // with verify_interval=1 used to be accepted: 8 bytes of record per byte
  // of the region (a 16 MiB region: 400 MB of memory, a 134 MB state file).
  constexpr int64_t kMinVerifyInterval = 80;
  r.push_back(Row("verify_interval", T::kSize, "verify",
                  "Verify header interval (default: bs; at least 80, and 128, the header, "
                  "with a checksum or verify=meta)")
                  .Range(0, INT64_MAX)
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    // fio 3.33 keeps it in an int: 2g and more read as
                    // negative there ("min value out of range: 2147483648
                    // (80 min)"). iobench used the block size instead.
                    if (v.num > INT32_MAX)
                      return Bad(std::to_string(v.num) + " is above fio's maximum, " +
                                 std::to_string(INT32_MAX) +
                                 " bytes (fio refuses it); leave it unset for the block size");
                    if (v.num < kMinVerifyInterval)
                      return Bad(std::to_string(v.num) +
                                 " is below the minimum: 80 bytes (fio's) with verify=pattern or "
                                 "null, 128 (the verify header) with a checksum or verify=meta; "
                                 "leave it unset for the block size");
                    j.verify.interval = static_cast<uint64_t>(v.num);
                    return Status::Ok();
                  }));
  r.push_back(Row("verify_offset", T::kSize, "verify", "Offset of the verify header in a block")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set(N(verify.offset)));
  r.push_back(
      Row("verify_pattern", T::kSpecial, "verify",
          "Data pattern of verified blocks (0xhex, \"text\", number, 'file', %o = block offset)")
          .Choices("pattern")
          .Set([](JobSpec& j, const OptValue& v) -> Status {
            IOB_ASSIGN_OR_RETURN(j.verify.pattern,
                                 ParsePatternParts(v.text, &j.verify.pattern_offsets));
            // As in fio: a pattern alone means verify=pattern.
            if (!j.IsSet("verify")) j.verify.type = VerifyType::kPattern;
            return Status::Ok();
          }));
  r.push_back(Row("verify_fatal", T::kBool, "verify", "Stop at the first verify failure")
                  .Def("0")
                  .Set(B(verify.fatal)));
  r.push_back(Row("verify_dump", T::kBool, "verify", "Dump blocks that fail verification")
                  .Def("0")
                  .Set(B(verify.dump)));
  r.push_back(Row("verify_state_save", T::kBool, "verify", "Save the verify state at the end")
                  .Def("1")
                  .Set(B(verify.state_save)));
  r.push_back(Row("verify_state_load", T::kBool, "verify", "Load a saved verify state")
                  .Def("0")
                  .Set(B(verify.state_load)));
  r.push_back(Row("verify_async", T::kInt, "verify",
                  "Check verify reads on this many threads per job instead of the I/O thread")
                  .Def("0")
                  .Range(0, 1024)
                  .Set(N(verify.async)));
  r.push_back(Row("verify_async_cpus", T::kSpecial, "verify",
                  "CPUs of the verify_async threads, as cpus_allowed (default: the job's)")
                  .Choices("cpu list")
                  .Set([](JobSpec& j, const OptValue& v) {
                    return ParseCpuList(v, &j.verify.async_cpus);
                  }));
  // fio's defaults do nothing, so a job file that spells them out runs; the
  // features themselves are not implemented (docs/verify.md, "Not done").
  r.push_back(Row("experimental_verify", T::kBool, "verify",
                  "fio's experimental verify (only 0, the default: not supported)")
                  .Def("0")
                  .Set([](JobSpec&, const OptValue& v) -> Status {
                    if (v.num == 0) return Status::Ok();
                    return Bad(
                        "experimental_verify=1 is not supported by iobench (only 0, fio's "
                        "default); verify= checks the data without it");
                  }));
  r.push_back(Row("trim_percentage", T::kInt, "verify",
                  "Percentage of verified blocks to trim (only 0, the default: not supported)")
                  .Def("0")
                  .Range(0, 100)
                  .Set([](JobSpec&, const OptValue& v) -> Status {
                    if (v.num == 0) return Status::Ok();
                    return Bad("trim_percentage=" + std::to_string(v.num) +
                               " is not supported by iobench (only 0, fio's default: no trims)");
                  }));
  // fio acts on these only for the blocks trim_percentage picks, and
  // iobench accepts only trim_percentage=0: whatever their value they do
  // nothing in a job that runs (fio 3.33 with trim_percentage=0 and
  // trim_backlog=4 trims nothing either), so a job file spelling out fio's
  // defaults, trim_verify_zero=1 among them, runs. They were refused as
  // fio options iobench does not support yet.
  r.push_back(Row("trim_verify_zero", T::kBool, "verify",
                  "Trimmed blocks read back as zeros (no effect: trim_percentage must be 0)")
                  .Def("1")
                  .Set([](JobSpec&, const OptValue&) { return Status::Ok(); }));
  r.push_back(Row("trim_backlog", T::kInt, "verify",
                  "Trim after this many written blocks (no effect: trim_percentage must be 0)")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set([](JobSpec&, const OptValue&) { return Status::Ok(); }));
  r.push_back(Row("trim_backlog_batch", T::kInt, "verify",
                  "Trim this many blocks per backlog (no effect: trim_percentage must be 0)")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set([](JobSpec&, const OptValue&) { return Status::Ok(); }));
  // fio's defaults written out run (a job file that spells out atomic=0 was
  // refused as "a fio option that iobench does not support yet").
  r.push_back(Row("atomic", T::kBool, "engine",
                  "Atomic writes with O_DIRECT (only 0, the default: not supported)")
                  .Def("0")
                  .Set([](JobSpec&, const OptValue& v) -> Status {
                    if (v.num == 0) return Status::Ok();
                    return Bad("atomic=1 is not supported by iobench (only 0, fio's default)");
                  }));
  r.push_back(Row("lockfile", T::kEnum, "files",
                  "Lock the file around each I/O (only none, the default: not supported)")
                  .Def("none")
                  .Choices("none|exclusive|readwrite")
                  .Set([](JobSpec&, const OptValue& v) -> Status {
                    const std::string t = Trim(v.text);
                    if (t == "none") return Status::Ok();
                    if (t == "exclusive" || t == "readwrite")
                      return Bad("lockfile=" + t +
                                 " is not supported by iobench (only none, fio's default: no "
                                 "locking)");
                    return Bad("must be none, exclusive or readwrite (fio refuses '" + t + "')");
                  }));
  r.push_back(Row("write_barrier", T::kInt, "engine",
                  "Make every Nth write a barrier write (only 0, the default: not supported)")
                  .Def("0")
                  .Set([](JobSpec&, const OptValue& v) -> Status {
                    if (v.num == 0) return Status::Ok();
                    return Bad("write_barrier=" + std::to_string(v.num) +
                               " is not supported by iobench (only 0, fio's default: no barriers)");
                  }));
  // --- reporting and statistics
  r.push_back(
      Row("kb_base", T::kInt, "report",
          "1024: k = 1024 and ki = 1000 (fio's compatibility mode); 1000: k = 1000, ki = 1024")
          .Def("1024")
          .Set([](JobSpec& j, const OptValue& v) -> Status {
            if (v.num != 1000 && v.num != 1024) return Bad("must be 1000 or 1024");
            // Written out: fio refuses kb_base=1k and 0x400 ("failed parsing").
            if (const std::string t = Trim(v.text); t != "1000" && t != "1024")
              return Bad("must be written as 1000 or 1024, not '" + t + "' (fio refuses it)");
            j.kb_base = static_cast<uint32_t>(v.num);
            return Status::Ok();
          }));
  r.push_back(Row("unit_base", T::kInt, "report", "Report units: 0 auto, 8 bytes, 1 bits")
                  .Def("0")
                  .Choices("0|1|8")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    if (v.num != 0 && v.num != 1 && v.num != 8) return Bad("must be 0, 1 or 8");
                    j.unit_base = static_cast<uint32_t>(v.num);
                    return Status::Ok();
                  }));
  r.push_back(Row("clat_percentiles", T::kBool, "report", "Report completion latency percentiles")
                  .Def("1")
                  .Set(B(clat_percentiles)));
  r.push_back(Row("lat_percentiles", T::kBool, "report", "Report total latency percentiles")
                  .Def("0")
                  .Set(B(lat_percentiles)));
  r.push_back(Row("slat_percentiles", T::kBool, "report", "Report submission latency percentiles")
                  .Def("0")
                  .Set(B(slat_percentiles)));
  r.push_back(Row("percentile_list", T::kSpecial, "report",
                  "Percentiles to report, ':' separated, e.g. 99:99.9")
                  .Def("1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99")  // fio's
                  .Choices("float:float...")
                  .Set(ParseFloatList));
  r.push_back(
      Row("gtod_reduce", T::kBool, "report", "Measure less (no latencies) to save clock calls")
          .Def("0")
          .Set([](JobSpec& j, const OptValue& v) -> Status {
            j.gtod_reduce = v.num != 0;
            if (j.gtod_reduce) {  // what fio's gtod_reduce turns off
              j.disable_lat = j.disable_clat = j.disable_slat = j.disable_bw = true;
              j.clat_percentiles = j.lat_percentiles = j.slat_percentiles = false;
            }
            return Status::Ok();
          }));
  r.push_back(Row("disable_lat", T::kBool, "report", "Do not measure total latency")
                  .Def("0")
                  .Set(B(disable_lat)));
  r.push_back(Row("disable_clat", T::kBool, "report", "Do not measure completion latency")
                  .Def("0")
                  .Set(B(disable_clat)));
  r.push_back(Row("disable_slat", T::kBool, "report", "Do not measure submission latency")
                  .Def("0")
                  .Set(B(disable_slat)));
  r.push_back(Row("disable_bw_measurement", T::kBool, "report", "Do not measure bandwidth")
                  .Alias({"disable_bw"})
                  .Def("0")
                  .Set(B(disable_bw)));
  r.push_back(Row("unified_rw_reporting", T::kEnum, "report",
                  "Report read/write/trim apart (none), summed as \"mixed\" (mixed), or both")
                  .Def("none")
                  .Choices("none|mixed|both|0|1|2")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    const std::string t = Trim(v.text);
                    using U = JobSpec::UnifiedRw;
                    if (t == "none" || t == "0")
                      j.unified_rw_reporting = U::kNone;
                    else if (t == "mixed" || t == "1")
                      j.unified_rw_reporting = U::kMixed;
                    else if (t == "both" || t == "2")
                      j.unified_rw_reporting = U::kBoth;
                    else
                      return Bad("unified_rw_reporting '" + v.text +
                                 "': expected none, mixed, both, 0, 1 or 2");
                    return Status::Ok();
                  }));
  r.push_back(Row("significant_figures", T::kInt, "report",
                  "Digits of the IOPS, bandwidth and I/O size figures in the normal output")
                  .Def("4")
                  .Range(1, 10)
                  .Set(N(significant_figures)));
  r.push_back(Row("stats", T::kBool, "report", "Report this job (0: leave it out of the output)")
                  .Def("1")
                  .Set(B(stats)));
  r.push_back(Row("disk_util", T::kBool, "report", "Collect disk statistics for the job's devices")
                  .Def("1")
                  .Set(B(disk_util)));
  r.push_back(Row("bwavgtime", T::kInt, "report",
                  "Window of one bandwidth sample (bw min/max/avg/stdev), in ms; unset with "
                  "write_bw_log and log_avg_msec: log_avg_msec")
                  .Def("500")
                  .Range(1, 3600000)
                  .Set(N(bw_avg_ms)));
  r.push_back(Row("iopsavgtime", T::kInt, "report",
                  "Window of one IOPS sample (iops min/max/avg/stdev), in ms; unset with "
                  "write_iops_log and log_avg_msec: log_avg_msec")
                  .Def("500")
                  .Range(1, 3600000)
                  .Set(N(iops_avg_ms)));
  // --- errors
  r.push_back(Row("continue_on_error", T::kEnum, "errors",
                  "Error classes that go on after EIO or EILSEQ (or what ignore_error lists)")
                  .Def("none")
                  .Choices("none|read|write|io|verify|all|0|1")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    // Lower case only, as fio 3.33 matches it (=ALL, =Write fail there).
                    const std::string t = Trim(v.text);
                    if (t == "none" || t == "0")
                      j.continue_on_error = kCoeNone;
                    else if (t == "read")
                      j.continue_on_error = kCoeRead;
                    else if (t == "write")
                      j.continue_on_error = kCoeWrite;
                    else if (t == "io")
                      j.continue_on_error = kCoeIo;
                    else if (t == "verify")
                      j.continue_on_error = kCoeVerify;
                    else if (t == "all" || t == "1")
                      j.continue_on_error = kCoeAll;
                    else
                      return Bad("bad continue_on_error '" + t +
                                 "' (none, read, write, io, verify, all, 0 for none or 1 for "
                                 "all)");
                    return Status::Ok();
                  }));
  r.push_back(Row("serialize_overlap", T::kBool, "verify",
                  "An I/O that overlaps one in flight waits for it to complete (no racing "
                  "writes at iodepth > 1)")
                  .Def("0")
                  .Set(B(serialize_overlap)));
  r.push_back(Row("error_dump", T::kBool, "errors",
                  "Print each error that continue_on_error or ignore_error lets pass")
                  .Def("0")
                  .Set(B(error_dump)));
  r.push_back(Row("ignore_error", T::kSpecial, "errors",
                  "Errors that do not stop the job: read list,write list,verify list, each "
                  "replacing EIO:EILSEQ; errors joined by ':', e.g. EAGAIN,ENOSPC:122")
                  .Choices("err:err...[,err:err...][,err:err...]")
                  .Set(ParseIgnoreError));
  // --- logs (written by stats/iolog through the worker; docs/logs.md)
  r.push_back(
      Row("write_bw_log", T::kStr, "logs",
          "Log bandwidth to PREFIX_bw.N.log (bare: the prefix set before, else the job name)")
          .Set([](JobSpec& j, const OptValue& v) {
            return LogSet(&j.write_bw_log, &j.bw_log_set, v);
          }));
  r.push_back(Row("write_lat_log", T::kStr, "logs",
                  "Log latencies to PREFIX_{s,c,}lat.N.log (bare: the prefix set before, else the "
                  "job name)")
                  .Set([](JobSpec& j, const OptValue& v) {
                    return LogSet(&j.write_lat_log, &j.lat_log_set, v);
                  }));
  r.push_back(Row("write_iops_log", T::kStr, "logs",
                  "Log IOPS to PREFIX_iops.N.log (bare: the prefix set before, else the job name)")
                  .Set([](JobSpec& j, const OptValue& v) {
                    return LogSet(&j.write_iops_log, &j.iops_log_set, v);
                  }));
  r.push_back(Row("write_hist_log", T::kStr, "logs",
                  "Log latency histograms to PREFIX_clat_hist.N.log (bare: the prefix set before, "
                  "else the job name)")
                  .Set([](JobSpec& j, const OptValue& v) {
                    return LogSet(&j.write_hist_log, &j.hist_log_set, v);
                  }));
  r.push_back(
      Row("log_entries", T::kInt, "logs",
          "fio's initial log size; no effect (iobench streams logs to disk in 64 KiB chunks)")
          .Def("1024")
          .Range(1024, INT64_MAX)  // fio 3.33's minimum ("min value out of range")
          .Set(N(log_entries)));
  r.push_back(Row("log_avg_msec", T::kInt, "logs", "Average log entries over this many ms")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set(N(log_avg_msec)));
  r.push_back(Row("log_hist_msec", T::kInt, "logs", "Histogram log interval in ms")
                  .Def("0")
                  .Range(0, INT64_MAX)
                  .Set(N(log_hist_msec)));
  r.push_back(
      Row("log_hist_coarseness", T::kInt, "logs", "Merge histogram bins: 0 (fine) .. 6 (coarse)")
          .Def("0")
          .Range(0, 6)
          .Set(N(log_hist_coarseness)));
  r.push_back(Row("log_offset", T::kBool, "logs", "Add the I/O offset to log entries")
                  .Def("0")
                  .Set(B(log_offset)));
  r.push_back(Row("log_prio", T::kBool, "logs", "Add the I/O priority to log entries")
                  .Def("0")
                  .Set(B(log_prio)));
  r.push_back(Row("per_job_logs", T::kBool, "logs", "One log per job clone (0: one shared log)")
                  .Def("1")
                  .Set(B(per_job_logs)));
  r.push_back(Row("log_unix_epoch", T::kBool, "logs",
                  "Log times in ms since the Unix epoch instead of since the job's start")
                  .Def("0")
                  .Set(B(log_unix_epoch)));
  r.push_back(Row("log_alternate_epoch", T::kBool, "logs",
                  "Log times in ms of the clock log_alternate_epoch_clock_id")
                  .Def("0")
                  .Set(B(log_alternate_epoch)));
  r.push_back(Row("log_alternate_epoch_clock_id", T::kInt, "logs",
                  "clock_gettime clock of log_alternate_epoch (0 CLOCK_REALTIME, 1 MONOTONIC...)")
                  .Def("0")
                  .Range(0, INT32_MAX)
                  .Set(N(log_alternate_epoch_clock_id)));
  r.push_back(Row("log_window_value", T::kEnum, "logs",
                  "With log_avg_msec: log each window's avg, max or both")
                  .Alias({"log_max_value"})
                  .Def("avg")
                  .Choices("avg|max|both")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    std::string t = Trim(v.text);
                    // Newer fio's values: avg|max|both, and 0|1 from
                    // fio 3.33's boolean log_max_value (docs/logs.md).
                    if (t == "avg" || t == "0")
                      j.log_window_value = 0;
                    else if (t == "max" || t == "1")
                      j.log_window_value = 1;
                    else if (t == "both")
                      j.log_window_value = 2;
                    else
                      return Bad("bad value '" + t + "' (avg, max, both; 0 or 1)");
                    return Status::Ok();
                  }));
  // --- I/O replay (run/replay.h; docs/replay.md)
  r.push_back(Row("write_iolog", T::kStr, "I/O replay",
                  "Append every issued I/O to this file (fio iolog version 3)")
                  .Set(NonEmpty(write_iolog)));
  r.push_back(Row("read_iolog", T::kStr, "I/O replay",
                  "Replay the I/O of this fio iolog (version 2 or 3) instead of rw=")
                  .Set(NonEmpty(read_iolog)));
  r.push_back(Row("read_iolog_chunked", T::kBool, "I/O replay",
                  "Read the iolog gradually (iobench always streams it)")
                  .Def("0")
                  .Set(B(read_iolog_chunked)));
  r.push_back(Row("replay_no_stall", T::kBool, "I/O replay",
                  "Replay as fast as possible, ignoring the log's timing")
                  .Def("0")
                  .Set(B(replay_no_stall)));
  r.push_back(Row("replay_time_scale", T::kInt, "I/O replay",
                  "Replay speed in percent of the log's timing (200: twice as fast)")
                  .Def("100")
                  .Range(1, UINT32_MAX)
                  .Set(N(replay_time_scale)));
  r.push_back(Row("replay_redirect", T::kStr, "I/O replay",
                  "Replay every I/O of the log onto this file or device")
                  .Set(NonEmpty(replay_redirect)));
  r.push_back(
      // No default and no range shown: unset means no rounding, but an explicit 0 is refused.
      Row("replay_align", T::kSize, "I/O replay",
          "Round the log's offsets down to a multiple of this power of 2 (unset: not rounded; "
          "0 is refused, as in fio)")
          .Set([](JobSpec& j, const OptValue& v) -> Status {
            const auto a = static_cast<uint64_t>(v.num);
            if (v.num <= 0 || (a & (a - 1)) != 0)  // fio: "must be a power-of-2", 0 too
              return Bad("replay_align=" + v.text + " is not a power of 2");
            j.replay_align = a;
            return Status::Ok();
          }));
  // fio accepts 0 and replays unscaled (it divides only when the value is set).
  r.push_back(Row("replay_scale", T::kInt, "I/O replay",
                  "Divide the log's offsets by this (0: unscaled, as 1)")
                  .Def("1")
                  .Range(0, INT64_MAX)
                  .Set(N(replay_scale)));
  r.push_back(Row("replay_skip", T::kSpecial, "I/O replay",
                  "Actions of the log not to replay: read,write,trim,sync")
                  .Choices("read,write,trim,sync")
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    uint8_t mask = 0;
                    std::string t = Trim(v.text);
                    size_t pos = 0;
                    while (pos <= t.size()) {
                      size_t comma = t.find(',', pos);
                      if (comma == std::string::npos) comma = t.size();
                      const std::string w = Trim(t.substr(pos, comma - pos));
                      if (w == "read")
                        mask |= 1u << static_cast<int>(Ddir::kRead);
                      else if (w == "write")
                        mask |= 1u << static_cast<int>(Ddir::kWrite);
                      else if (w == "trim")
                        mask |= 1u << static_cast<int>(Ddir::kTrim);
                      else if (w == "sync")
                        mask |= 8;
                      else
                        return Bad("'" + w + "' is not one of read, write, trim, sync");
                      pos = comma + 1;
                    }
                    j.replay_skip = mask;
                    return Status::Ok();
                  }));
  // --- engine options
  // cpuio: fio 3.33's FIO_OPT_INT options take any unsigned value; a
  // negative one wraps (cpuload=-1 is 100%, cpuchunks=-5 spins 71 minutes
  // between stop checks): refused here (docs/engines.md).
  r.push_back(Row("cpuload", T::kInt, "engine options",
                  "Percent of one CPU to burn (required; above 100 is 100)")
                  .Range(0, UINT32_MAX)
                  .Engines({"cpuio"})
                  .Field<&JobSpec::cpuload>()
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    j.cpuload = static_cast<uint32_t>(v.num);
                    return Status::Ok();
                  }));
  r.push_back(
      Row("cpuchunks", T::kInt, "engine options", "Length of each CPU burn chunk (microseconds)")
          .Def("50000")
          .Range(0, UINT32_MAX)
          .Engines({"cpuio"})
          .Field<&JobSpec::cpuchunks_us>()
          .Set([](JobSpec& j, const OptValue& v) -> Status {
            j.cpuchunks_us = static_cast<uint64_t>(v.num);
            return Status::Ok();
          }));
  r.push_back(Row("cpumode", T::kEnum, "engine options",
                  "How to burn: noop (a spin loop) or qsort (sorting, more power)")
                  .Def("noop")
                  .Choices("noop|qsort")
                  .Engines({"cpuio"})
                  .Field<&JobSpec::cpumode_qsort>()
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    const std::string t = Trim(v.text);
                    if (t != "noop" && t != "qsort")
                      return Status::Invalid("cpumode '" + v.text + "': expected noop or qsort");
                    j.cpumode_qsort = t == "qsort";
                    return Status::Ok();
                  }));
  r.push_back(Row("exit_on_io_done", T::kBool, "engine options",
                  "Stop the cpuio job once the run's I/O jobs are done")
                  .Def("0")
                  .Engines({"cpuio"})
                  .Field<&JobSpec::exit_on_io_done>()
                  .Set(B(exit_on_io_done)));
  r.push_back(Row("hipri", T::kBool, "engine options",
                  "Polled I/O (io_uring: IORING_SETUP_IOPOLL; pvsync2: RWF_HIPRI)")
                  .Def("0")
                  .Engines({"io_uring", "io_uring_cmd", "pvsync2"})
                  .Field<&JobSpec::hipri>()
                  .AnyInt()
                  .Set(B(hipri)));
  r.push_back(
      Row("hipri_percentage", T::kInt, "engine options", "Percent of I/Os issued with RWF_HIPRI")
          .Def("100")
          .Range(0, 100)
          .Engines({"pvsync2"})
          .Field<&JobSpec::hipri_percentage>()
          .Set(N(hipri_percentage)));
  r.push_back(Row("nowait", T::kBool, "engine options", "RWF_NOWAIT: fail instead of blocking")
                  .Def("0")
                  .Engines({"io_uring", "io_uring_cmd", "libaio", "pvsync2"})
                  .Field<&JobSpec::nowait>()
                  .Set(B(nowait)));
  r.push_back(Row("uncached", T::kInt, "engine options",
                  "Buffered I/O that drops pages after use (RWF_DONTCACHE, Linux 6.14+)")
                  .Def("0")
                  .Range(0, 1)
                  .Engines({"io_uring", "io_uring_cmd", "pvsync2"})
                  .Field<&JobSpec::uncached>()
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    j.uncached = v.num != 0;
                    return Status::Ok();
                  }));
  r.push_back(Row("force_async", T::kInt, "engine options",
                  "Issue every Nth request with IOSQE_ASYNC (punt to io-wq)")
                  .Def("0")
                  .Range(0, INT32_MAX)
                  .Engines({"io_uring", "io_uring_cmd"})
                  .Field<&JobSpec::force_async>()
                  .Set(N(force_async)));
  r.push_back(Row("fixedbufs", T::kBool, "engine options", "Register the I/O buffers with the ring")
                  .Def("0")
                  .Engines({"io_uring", "io_uring_cmd"})
                  .Field<&JobSpec::fixedbufs>()
                  .AnyInt()
                  .Set(B(fixedbufs)));
  r.push_back(Row("registerfiles", T::kBool, "engine options", "Register the files with the ring")
                  .Def("0")
                  .Engines({"io_uring", "io_uring_cmd"})
                  .Field<&JobSpec::registerfiles>()
                  .AnyInt()
                  .Set(B(registerfiles)));
  r.push_back(Row("sqthread_poll", T::kBool, "engine options",
                  "Kernel thread polls the submission queue (SQPOLL)")
                  .Def("0")
                  .Engines({"io_uring", "io_uring_cmd"})
                  .Field<&JobSpec::sqthread_poll>()
                  .AnyInt()
                  .Set(B(sqthread_poll)));
  r.push_back(Row("sqthread_poll_cpu", T::kInt, "engine options", "CPU of the SQPOLL thread")
                  .Range(0, 65535)
                  .Engines({"io_uring", "io_uring_cmd"})
                  .Field<&JobSpec::sqthread_poll_cpu>()
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    j.sqthread_poll_cpu = static_cast<int>(v.num);
                    return Status::Ok();
                  }));
  r.push_back(Row("nonvectored", T::kInt, "engine options",
                  "Use non-vectored read/write opcodes (-1: probe)")
                  .Def("-1")
                  .Range(-1, 1)
                  .Engines({"io_uring", "io_uring_cmd"})
                  .Field<&JobSpec::nonvectored>()
                  .Set(N(nonvectored)));
  r.push_back(Row("userspace_reap", T::kBool, "engine options",
                  "Take completions from the ring in user space, io_getevents only to "
                  "wait (0: io_getevents for every reap, fio's default)")
                  .Def("1")
                  .Engines({"libaio"})
                  .Field<&JobSpec::userspace_reap>()
                  .AnyInt()
                  .Set(B(userspace_reap)));
  r.push_back(Row("cmdprio_percentage", T::kInt, "engine options",
                  "Percent of I/Os with the cmdprio priority (read,write)")
                  .PerDir()
                  .Range(0, 100)
                  .Engines({"io_uring", "io_uring_cmd", "libaio"})
                  .Field<&JobSpec::cmdprio_percentage>()
                  .Set(D(cmdprio_percentage)));
  r.push_back(Row("cmdprio_class", T::kInt, "engine options",
                  "Priority class for cmdprio I/Os (read,write)")
                  .PerDir()
                  .Range(1, 3)  // fio: "min value out of range: 0 (1 min)"
                  .Engines({"io_uring", "io_uring_cmd", "libaio"})
                  .Field<&JobSpec::cmdprio_class>()
                  .Set(D(cmdprio_class)));
  r.push_back(
      Row("cmdprio", T::kInt, "engine options", "Priority level for cmdprio I/Os (read,write)")
          .PerDir()
          .Range(0, 7)
          .Engines({"io_uring", "io_uring_cmd", "libaio"})
          .Field<&JobSpec::cmdprio>()
          .Set(D(cmdprio)));
  r.push_back(Row("cmdprio_bssplit", T::kSpecial, "engine options",
                  "Share of I/Os with the cmdprio priority per block size (read,write)")
                  .Choices("bs/perc[/class/level]:...[,...]")
                  .Sizes()
                  .Engines({"io_uring", "io_uring_cmd", "libaio"})
                  .Field<&JobSpec::cmdprio_bssplit>()
                  .Set(ParseCmdprioBsSplit));
  r.push_back(Row("stat_type", T::kEnum, "engine options",
                  "The call filestat times on each file: stat, lstat or statx")
                  .Def("stat")
                  .Choices("stat|lstat|statx")
                  .Engines({"filestat"})
                  .Field<&JobSpec::stat_type>()
                  .Set([](JobSpec& j, const OptValue& v) -> Status {
                    const std::string t = Trim(v.text);
                    static const char* const kTypes[] = {"stat", "lstat", "statx"};
                    for (uint8_t i = 0; i < 3; ++i)
                      if (t == kTypes[i]) {
                        j.stat_type = i;
                        return Status::Ok();
                      }
                    return Bad("bad stat_type '" + t + "' (stat, lstat, statx)");
                  }));
  std::vector<OptionDef> out;
  for (auto& row : r) out.push_back(std::move(row.d));
  return out;
}

#undef B
#undef N
#undef D
#undef S

}  // namespace

Status CheckBlockSizes(const JobSpec& j) {
  for (int d = 0; d < kNumDdirs; ++d) {
    const BlockSizeOptions& o = j.bs_options[d];
    const BlockSizeSpec& b = j.bs[d];
    if (o.split.empty() || o.min == o.max || (o.min == b.min && o.max == b.max)) continue;
    // fio 3.33 then draws the split's sizes, rounds each down to the
    // range's low size and cuts it at the high one: bssplit=4k/50:16k/50
    // with bsrange=8k-32k issues nothing at all. A split whose sizes that
    // leaves as they are runs as written.
    if (std::all_of(o.split.begin(), o.split.end(), [&](const BsSplitEntry& e) {
          return e.bs >= o.min && e.bs <= o.max && (j.bs_unaligned || e.bs % o.min == 0);
        }))
      continue;
    const OptionSetting* range = j.FindSetting("bsrange");
    const OptionSetting* split = j.FindSetting("bssplit");
    return Status::Invalid(
        "job '" + j.name + "': bsrange" +
        (range != nullptr ? "=" + range->value + " (" + range->Where() + ")" : "") +
        " overrides the sizes of bssplit" +
        (split != nullptr ? "=" + split->value + " (" + split->Where() + ")" : "") + " for " +
        DirName(d) + " with the range " + std::to_string(o.min) + "-" + std::to_string(o.max) +
        ": fio then rounds the split's sizes down to " + std::to_string(o.min) +
        " and cuts them at " + std::to_string(o.max) + " (sizes below " + std::to_string(o.min) +
        " become 0); iobench refuses it. Give one of them, or a range of one size (bsrange=" +
        std::to_string(o.min) + "-" + std::to_string(o.min) + ")");
  }
  return Status::Ok();
}

Status CheckRate(const JobSpec& job) {
  auto any = [](const uint64_t(&v)[kNumDdirs]) { return v[0] != 0 || v[1] != 0 || v[2] != 0; };
  auto both = [&job](const char* a, const char* b) {
    return Status::Invalid("job '" + job.name + "': " + a + " (" + SettingOf(job, a).Where() +
                           ") and " + b + " (" + SettingOf(job, b).Where() +
                           ") are mutually exclusive: give one of them");
  };
  if (any(job.rate) && any(job.rate_iops)) return both("rate", "rate_iops");
  if (any(job.rate_min) && any(job.rate_iops_min)) return both("rate_min", "rate_iops_min");
  for (int d = 0; d < kNumDdirs; ++d) {
    const bool bytes = job.rate[d] != 0 && job.rate[d] < job.rate_min[d];
    if (!bytes && !(job.rate_iops[d] != 0 && job.rate_iops[d] < job.rate_iops_min[d])) continue;
    const char* min = bytes ? "rate_min" : "rate_iops_min";
    const char* cap = bytes ? "rate" : "rate_iops";
    return Status::Invalid("job '" + job.name + "': " + min + " (" + SettingOf(job, min).Where() +
                           ") is above " + cap + " for " + DirName(d) + " (" +
                           std::to_string(bytes ? job.rate_min[d] : job.rate_iops_min[d]) + " > " +
                           std::to_string(bytes ? job.rate[d] : job.rate_iops[d]) +
                           "): the job could never meet it");
  }
  return Status::Ok();
}

const std::vector<OptionDef>& OptionTable() {
  static const std::vector<OptionDef> kTable = BuildTable();
  return kTable;
}

const OptionDef* FindOption(const std::string& name) {
  for (const auto& d : OptionTable()) {
    if (d.name == name) return &d;
    for (const auto& a : d.aliases)
      if (a == name) return &d;
  }
  return nullptr;
}

bool IsSoftDeprecatedFioOption(const std::string& name) {
  return name == "verifysort" || name == "verifysort_nr" || name == "flow_watermark";
}

bool IsDeprecatedFioOption(const std::string& name) {
  return name == "rwmixcycle" || name == "percentage_sequential";
}

const char* FioProfileOfOption(const std::string& name) {
  // "size" of the tiobench profile is also a job option, and wins.
  static const char* const kTiobench[] = {"block", "numruns", "dir", "threads"};
  static const char* const kAct[] = {"device-names",
                                     "load",
                                     "test-duration",
                                     "threads-per-queue",
                                     "read-req-num-512-blocks",
                                     "large-block-op-kbytes",
                                     "prep"};
  for (const char* n : kTiobench)
    if (name == n) return "tiobench";
  for (const char* n : kAct)
    if (name == n) return "act";
  return nullptr;
}

const std::vector<std::string>& IobenchEngineNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> n = {"psync",    "sync",         "vsync",  "pvsync",
                                  "pvsync2",  "mmap",         "libaio", "posixaio",
                                  "io_uring", "io_uring_cmd", "null"};
    for (const auto& e : EngineRegistry())
      if (std::find(n.begin(), n.end(), e.name) == n.end()) n.emplace_back(e.name);
    return n;
  }();
  return kNames;
}

std::string FioEngineRefusal(const std::string& name) {
  // Engines fio had once and 3.33 no longer builds ("engine ... not
  // loadable"): a job file that names one is older than fio 3.33.
  static const std::set<std::string> kGone = {"guasi", "binject", "syslet-rw", "fusion-aw-sync"};
  if (name == "solarisaio" || name == "windowsaio")
    return "ioengine '" + name +
           "' is a fio engine of another operating system (fio on Linux cannot load it either)";
  if (kGone.count(name) > 0)
    return "ioengine '" + name +
           "' is an engine fio removed before 3.33 (fio 3.33 cannot load it either)";
  if (name.rfind("external:", 0) == 0 || IsFioOnlyEngine(name))
    return "ioengine '" + name + "' is a fio engine that iobench does not support yet";
  return "";
}

bool IsFioOnlyEngine(const std::string& name) {
  static const std::set<std::string> kFio = {"net",
                                             "netsplice",
                                             "exec",
                                             "e4defrag",
                                             "gfapi",
                                             "gfapi_async",
                                             "mtd",
                                             "sg",
                                             "io_uring_cmd",
                                             "nbd",
                                             "rdma",
                                             "rados",
                                             "rbd",
                                             "pmemblk",
                                             "dev-dax",
                                             "libpmem",
                                             "http",
                                             "dfs",
                                             "nfs",
                                             "libhdfs",
                                             "libcufile",
                                             "libiscsi",
                                             "libzbc",
                                             "xnvme",
                                             "windowsaio",
                                             "solarisaio",
                                             "ime_psync",
                                             "ime_psyncv",
                                             "ime_aio",
                                             "librpma_apm_client",
                                             "librpma_apm_server",
                                             "librpma_gpspm_client",
                                             "librpma_gpspm_server",
                                             "skeleton_external",
                                             "librpma_apm",
                                             "librpma_gpspm",
                                             "libblkio"};
  return kFio.count(name) > 0;
}

std::vector<std::string> EnginesForOption(const OptionDef& def) {
  if (def.engines.empty()) return {};
  std::vector<std::string> out;
  for (const auto& e : EngineRegistry()) {
    if (e.options.empty()) continue;
    for (const auto& o : e.options)
      if (o == def.name) out.emplace_back(e.name);
  }
  // Engines whose registry row lists no options yet fall back to this table.
  for (const auto& name : def.engines) {
    const EngineInfo* info = FindEngine(name);
    bool listed_in_registry = info && !info->options.empty();
    if (!listed_in_registry && std::find(out.begin(), out.end(), name) == out.end())
      out.push_back(name);
  }
  std::sort(out.begin(), out.end());  // stable messages whatever the registry order
  return out;
}

namespace {
size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] =
          std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::string SuggestFrom(const std::string& name, const std::vector<std::string>& candidates) {
  // Case does not count: `BS` is a typo of `bs` (one edit per letter made
  // it nearer to `rw`). A name of one or two letters is close to every
  // short option, so it gets a suggestion only one edit away (none for a
  // single letter but a case-only difference): `-x` means no option.
  const std::string lname = ToLower(name);
  std::string best;
  size_t best_d = SIZE_MAX;
  const size_t limit = name.size() == 1   ? 0
                       : name.size() == 2 ? 1
                                          : std::max<size_t>(2, name.size() / 3);
  for (const auto& c : candidates) {
    size_t d = EditDistance(lname, ToLower(c));
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best_d <= limit ? best : "";
}

std::string SuggestOption(const std::string& name, const std::vector<std::string>& more,
                          bool prefixes) {
  std::vector<std::string> names;
  for (const auto& d : OptionTable()) {
    names.push_back(d.name);
    for (const auto& a : d.aliases) names.push_back(a);
  }
  names.insert(names.end(), more.begin(), more.end());
  std::string best = SuggestFrom(name, names);
  if (!prefixes) return best;
  // `rwmix=70` is too far from any name by edit distance, but it starts one
  // (fio suggests 'rw'): offer the shortest option that begins with it.
  const std::string lname = ToLower(name);
  if (best.empty() && name.size() >= 3)
    for (const auto& n : names)
      if (n.size() > name.size() && ToLower(n).compare(0, name.size(), lname) == 0 &&
          (best.empty() || n.size() < best.size()))
        best = n;
  return best;
}

std::string TypeName(const OptionDef& def) {
  switch (def.type) {
    case OptType::kBool:
      return def.any_int ? "flag" : "bool";
    case OptType::kInt:
      if (!def.choices.empty()) return def.choices;  // unit_base: 0|1|8
      return def.per_dir ? "int[,int][,int]" : "int";
    case OptType::kSize:
      return std::string(def.per_dir ? "size[,size][,size]" : "size") +
             (def.allow_percent ? " or N%" : "");
    case OptType::kTime:
      return "time";
    case OptType::kStr:
      return "str";
    case OptType::kEnum:
      return def.choices;
    case OptType::kSpecial:
      return def.choices;
  }
  return "str";
}

}  // namespace iobench::jobfile
