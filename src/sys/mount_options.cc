#include "sys/mount_options.h"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "sys/strings.h"

namespace iobench::sys {
namespace {

// An option that changes what is measured, by name (before any '='), and
// the values that are the kernel's default where it lists one anyway (""
// stands for the option without a value). Why each matters is in
// docs/context.md; keep the two in step.
struct MeasuredMountOption {
  std::string_view name;
  // Up to two, the rest null.
  const char* defaults[2] = {nullptr, nullptr};
  // How atime is written back: nothing to measure on a file system in
  // memory, where the inode is never written out.
  bool atime = false;
};

constexpr MeasuredMountOption kMeasuredMountOptions[] = {
    // Any file system (the VFS's flags).
    {"ro", {}},
    {"sync", {}},
    {"dirsync", {}},
    {"lazytime", {}, true},
    {"noatime", {}, true},
    // Journalling and write ordering.
    {"data", {"ordered"}},
    {"commit", {}},
    {"nobarrier", {}},
    {"barrier", {"", "1"}},
    {"journal_async_commit", {}},
    {"min_batch_time", {}},
    {"max_batch_time", {}},
    {"flushoncommit", {}},
    {"notreelog", {}},
    {"wsync", {}},
    // Not logbsize: xfs lists it always, and its default follows the log
    // stripe unit (mkfs.xfs -d su=64k mounts with logbsize=64k unasked).
    {"logbufs", {"8"}},
    // Allocation and the data path.
    {"nodelalloc", {}},
    {"allocsize", {}},
    {"dax", {"never", "inode"}},
    {"discard", {"async"}},
    {"compress", {}},
    {"compress-force", {}},
    {"nodatacow", {}},
    {"nodatasum", {}},
    {"autodefrag", {}},
    {"huge", {"never"}},
};

bool Measured(const std::string& opt, bool in_memory) {
  const size_t eq = opt.find('=');
  const std::string_view name = std::string_view(opt).substr(0, eq);
  const std::string_view value =
      eq == std::string::npos ? std::string_view() : std::string_view(opt).substr(eq + 1);
  for (const auto& m : kMeasuredMountOptions)
    if (m.name == name)
      return !(m.atime && in_memory) &&
             std::none_of(std::begin(m.defaults), std::end(m.defaults),
                          [&](const char* d) { return d != nullptr && value == d; });
  return false;
}

}  // namespace

std::vector<std::string> MeasuredMountOptions(const std::string& mount_options, bool in_memory) {
  std::vector<std::string> out;
  if (mount_options.empty()) return out;
  const std::vector<std::string> all = SplitEscaped(mount_options, ',');
  const auto has = [&all](const char* opt) {
    return std::find(all.begin(), all.end(), opt) != all.end();
  };
  // strictatime is the absence of relatime and noatime in the mount's flags.
  if (!in_memory && !has("ro") && !has("relatime") && !has("noatime"))
    out.emplace_back("strictatime");
  for (const auto& opt : all)
    if (Measured(opt, in_memory)) AddUnique(&out, opt);
  return out;
}

}  // namespace iobench::sys
