#include "run/uncached_check.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "iobench/engine.h"
#include "stats/units.h"
#include "sys/safety.h"
#include "sys/target.h"

namespace iobench {
namespace {

// The engines that pass RWF_DONTCACHE on buffered I/O (the others refuse
// uncached=1 before the run).
bool DropsPages(const JobSpec& job) {
  return job.uncached && !job.direct && (job.ioengine == "pvsync2" || job.ioengine == "io_uring");
}

std::string Percent(double p) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.0f%%", p);
  return buf;
}

}  // namespace

void UncachedWriteCheck::Before(
    const std::vector<std::pair<const JobSpec*, const TargetFile*>>& uses) {
  std::map<std::string, size_t> index;  // path -> files_
  std::vector<bool> cached_use;         // a buffered job without the flag uses it
  for (size_t u = 0; u < uses.size(); ++u) {
    const auto& [job, t] = uses[u];
    if (!DropsPages(*job) || !HasWrite(job->rw) || !t->regular_file() || t->region_size == 0)
      continue;
    auto [it, fresh] = index.emplace(t->path, files_.size());
    if (fresh) {
      if (files_.size() == kMaxFiles) {
        index.erase(it);
        continue;
      }
      files_.push_back({job, t->path, {}, {}, 0});
      cached_use.push_back(false);
    }
    files_[it->second].ranges.emplace_back(t->region_offset, t->region_size);
    files_[it->second].writers.push_back(u);
  }
  for (const auto& [job, t] : uses)
    if (auto it = index.find(t->path);
        it != index.end() && !job->direct && !DropsPages(*job) && !DisklessEngine(job->ioengine))
      cached_use[it->second] = true;
  std::vector<File> kept;
  for (size_t i = 0; i < files_.size(); ++i) {
    if (cached_use[i]) continue;
    auto s = sys::PageCacheResidencyOf(files_[i].path, files_[i].ranges);
    if (!s.ok()) continue;
    files_[i].before = s->percent;
    kept.push_back(std::move(files_[i]));
  }
  files_ = std::move(kept);
}

std::vector<std::string> UncachedWriteCheck::After(const std::vector<uint64_t>& written,
                                                   const std::atomic<int>* stop) const {
  std::vector<std::string> out;
  for (const File& f : files_) {
    if (stop != nullptr && stop->load() != 0) break;
    if (f.before > 25) continue;  // cached before: the writes' pages cannot be told apart
    uint64_t bytes = 0;
    for (size_t u : f.writers) bytes += u < written.size() ? written[u] : 0;
    if (bytes == 0) continue;
    auto s = sys::ResidencyAfterWriteback(f.path, f.ranges, stop);
    if (!s.ok() || s->region_bytes == 0) continue;
    // At most this share of the region was written (a randrw job writes
    // about half of it, io_size= less).
    const double covered =
        std::min(100.0, 100.0 * static_cast<double>(bytes) / static_cast<double>(s->region_bytes));
    if (s->percent < 50 * covered / 100) continue;
    const auto fs_name = sys::FsTypeName(f.path);
    const std::string fs = fs_name.ok() ? *fs_name : "?";
    const std::string share = Percent(s->percent);
    out.push_back(
        "job '" + f.job->name + "': " + sys::OptionAt(*f.job, "uncached", "1") + ": " + share +
        " of the " + HumanBytes(s->region_bytes) + " region of " + f.path + " (" + fs +
        ") that it wrote to" + (covered < 100 ? " (" + Percent(covered) + " of it)" : "") +
        " is still in the page cache after the writeback, where RWF_DONTCACHE drops written "
        "pages: the kernel accepted the flag and ignored it for these writes" +
        (sys::BlockMappedExtFile(f.path) ? " (the file has no extents, and the ext4 driver keeps "
                                           "the written pages of such a file)"
                                         : "") +
        ", so they were ordinary cached writes and later reads may be cache hits; put the "
        "file on a file system that honours it for such writes (xfs), or drop uncached=1");
  }
  return out;
}

}  // namespace iobench
