// uncached=1 (RWF_DONTCACHE) writes the kernel kept in the page cache.
//
// The flag asks for buffered writes whose pages are dropped once written
// back. The pre-run probe (a one-byte RWF_DONTCACHE read) finds file systems
// that refuse it; some accept it and keep the written pages all the same:
// ext4 on a file without extents (mkfs.ext4 -O ^extent, ext2 and ext3 served
// by the ext4 code; 6.18) kept all 2048 pages of an 8 MiB write cached, even
// after sync, while reads were dropped; ext4 with extents did the same for
// writes over blocks already written. The run cannot see that per I/O, so
// the phase looks afterwards: the files written with the flag (and used by
// no other buffered job of the phase), once their writeback has ended. What
// it finds is a warning about what was measured: on stderr, and in the
// report (its context's warnings), so that pasted results carry it.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "iobench/job.h"
#include "iobench/stats.h"
#include "run/target.h"

namespace iobench {

class UncachedWriteCheck {
 public:
  // Before the workers start (targets laid out, caches invalidated): `uses`
  // are the phase's clones' jobs and targets. Keeps the regular files some
  // job writes with uncached=1 (buffered, pvsync2 or io_uring: the engines
  // that pass the flag) that no job of the phase uses buffered without it,
  // at most kMaxFiles of them, with how much of their regions is cached now
  // (seed 003: 252 clones, a file each, have 16 of theirs looked at).
  void Before(const std::vector<std::pair<const JobSpec*, const TargetFile*>>& uses);

  // After the phase: waits for the writeback of those regions and returns
  // a warning for each job with a file where at most a quarter of the
  // region was cached before and now at least half of what the jobs wrote
  // is: the share cached over the share the writes could cover,
  // `written[i]` the bytes the clone of uses[i] wrote to that file (a
  // clone's bytes over its files). One per job (its first such file, and
  // how many more of the files looked at), and a "note: " when files were
  // left unchecked (kMaxFiles), so that the report says the check was a
  // sample. Nothing when `stop` is set (the run was interrupted).
  std::vector<std::string> After(const std::vector<uint64_t>& written,
                                 const std::atomic<int>* stop) const;

  // After() for a phase: each warning on stderr (notes stay off it) and
  // in `ctx`'s warnings (once each), where the report prints them.
  void Report(const std::vector<uint64_t>& written, const std::atomic<int>* stop,
              RunContext* ctx) const;

  static constexpr size_t kMaxFiles = 16;

 private:
  struct File {
    const JobSpec* job = nullptr;  // the first uncached writer
    std::string path;
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    std::vector<size_t> writers;  // indexes in `uses`
    double before = 0;            // percent cached before the phase
  };
  std::vector<File> files_;
  size_t unchecked_ = 0;                    // files past kMaxFiles
  const JobSpec* unchecked_job_ = nullptr;  // the writer of the first of them by path
};

}  // namespace iobench
