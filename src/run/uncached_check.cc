#include "run/uncached_check.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "iobench/engine.h"
#include "stats/units.h"
#include "sys/context.h"
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
  std::map<std::string, size_t> index;              // path -> files_
  std::map<std::string, const JobSpec*> unchecked;  // past kMaxFiles: path -> first writer
  std::vector<bool> cached_use;                     // a buffered job without the flag uses it
  for (size_t u = 0; u < uses.size(); ++u) {
    const auto& [job, t] = uses[u];
    if (!DropsPages(*job) || !HasWrite(job->rw) || !t->regular_file() || t->region_size == 0)
      continue;
    auto [it, fresh] = index.emplace(t->path, files_.size());
    if (fresh) {
      if (files_.size() == kMaxFiles) {
        index.erase(it);
        unchecked.emplace(t->path, job);
        continue;
      }
      files_.push_back({job, t->path, {}, {}, 0});
      cached_use.push_back(false);
    }
    files_[it->second].ranges.emplace_back(t->region_offset, t->region_size);
    files_[it->second].writers.push_back(u);
  }
  for (const auto& [job, t] : uses) {
    if (job->direct || DropsPages(*job) || DisklessEngine(job->ioengine)) continue;
    if (auto it = index.find(t->path); it != index.end()) cached_use[it->second] = true;
    unchecked.erase(t->path);  // not one to check anyway
  }
  unchecked_ = unchecked.size();
  if (!unchecked.empty()) unchecked_job_ = unchecked.begin()->second;
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
  // Per job (its first writer names a file): the first file that stayed
  // cached, with its text, how many more did, and how many were judged.
  struct Finding {
    const JobSpec* job = nullptr;
    std::string first;  // the warning up to its file's part
    size_t more = 0, judged = 0;
    bool no_extents = false;  // the first file's cause
  };
  std::vector<Finding> found;
  auto of_job = [&](const JobSpec* job) -> Finding& {
    for (Finding& f : found)
      if (f.job == job) return f;
    return found.emplace_back(Finding{job, {}, 0, 0, false});
  };
  for (const File& f : files_) {
    if (stop != nullptr && stop->load() != 0) return {};
    if (f.before > 25) continue;  // cached before: the writes' pages cannot be told apart
    uint64_t bytes = 0;
    for (size_t u : f.writers) bytes += u < written.size() ? written[u] : 0;
    if (bytes == 0) continue;
    auto s = sys::ResidencyAfterWriteback(f.path, f.ranges, stop);
    if (!s.ok() || s->region_bytes == 0) continue;
    Finding& job = of_job(f.job);
    ++job.judged;
    // At most this share of the region was written (a randrw job writes
    // about half of it, io_size= less).
    const double covered =
        std::min(100.0, 100.0 * static_cast<double>(bytes) / static_cast<double>(s->region_bytes));
    if (s->percent < 50 * covered / 100) continue;
    if (!job.first.empty()) {
      ++job.more;
      continue;
    }
    const auto fs_name = sys::FsTypeName(f.path);
    const std::string fs = fs_name.ok() ? *fs_name : "?";
    // Two shares, each named: of the region (what mincore measures) and,
    // when the job wrote less than the region, of what it wrote (as if the
    // cached pages are the written ones: they were at most a quarter
    // before). "98% of the region that it wrote to (98% of it)" read as two
    // figures of one thing.
    std::string part;
    if (covered < 100) {
      const double of_written = std::min(100.0, s->percent * 100 / covered);
      part = " (its " + HumanBytes(bytes) + " of writes covered at most " + Percent(covered) +
             " of the region, so this is about " + Percent(of_written) + " of what it wrote)";
    }
    job.first = "job '" + f.job->name + "': " + sys::OptionAt(*f.job, "uncached", "1") + ": " +
                Percent(s->percent) + " of the " + HumanBytes(s->region_bytes) + " region of " +
                f.path + " (" + fs + ") that it wrote to" + part;
    job.no_extents = sys::BlockMappedExtFile(f.path);
  }
  std::vector<std::string> out;
  for (const Finding& f : found) {
    if (f.first.empty()) continue;
    std::string w = f.first;
    if (f.more != 0)
      w += ", and most of what it wrote to " + std::to_string(f.more) + " more of its files (" +
           std::to_string(f.judged) + " looked at),";
    w += std::string(f.more != 0 ? " are" : " is") +
         " still in the page cache after the writeback, where RWF_DONTCACHE drops written "
         "pages: the kernel accepted the flag and ignored it for these writes" +
         (f.no_extents ? " (the file has no extents, and the ext4 driver keeps the written pages "
                         "of such a file)"
                       : "") +
         ", so they were ordinary cached writes and later reads may be cache hits; put the "
         "file on a file system that honours it for such writes (xfs), or drop uncached=1";
    out.push_back(std::move(w));
  }
  if (unchecked_ != 0)
    out.push_back(
        "job '" + unchecked_job_->name +
        "': note: " + sys::OptionAt(*unchecked_job_, "uncached", "1") +
        ": what stays in the page cache after the writeback was looked at in " +
        std::to_string(files_.size()) + " of the " + std::to_string(files_.size() + unchecked_) +
        " files the phase wrote with the flag (at most " + std::to_string(kMaxFiles) + " are)");
  return out;
}

void UncachedWriteCheck::Report(const std::vector<uint64_t>& written, const std::atomic<int>* stop,
                                RunContext* ctx) const {
  for (std::string& w : After(written, stop)) {
    if (w.find("note: ") == std::string::npos)
      std::fprintf(stderr, "iobench: warning: %s\n", w.c_str());
    sys::AddContextWarning(ctx, std::move(w));
  }
}

}  // namespace iobench
