// The "what was measured" block: host facts, one TargetContext per target,
// and warnings for the traps that make a benchmark measure something other
// than what the user meant (docs/context.md lists each rule).
//
// Called by the run core once before the run (CollectContext); reporters
// only format the RunContext. Thread-safety: reentrant.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "iobench/job.h"
#include "iobench/stats.h"

namespace iobench::sys {

// Host facts, a TargetContext per distinct path in `target_paths` (in order),
// page cache residency for targets a buffered job uses, and DetectTraps()
// warnings. Probes that fail leave their fields unset; a context is always
// returned. When `target_paths` is empty, the jobs' own files are used
// (JobFilePaths, see job_paths.h).
// `unexamined` are the jobs' other target paths, not described (for the
// warnings' counts only).
// `regions`: by target path, the {offset, len} regions the jobs' clones use
// (a path not listed: the whole file). The holes (warning 7) and btrfs
// extents (warning 8) are of all of them, whether the job is direct or
// buffered; page cache residency is of the buffered jobs' only, and a block
// device's bound the data of warning 6 (TrapEnv::device_region_bytes).
// `stop`: a SIGINT while the page cache is measured stops the measuring
// (the figure is left unset).
struct PathRegions {
  std::vector<std::pair<uint64_t, uint64_t>> all;  // every job's clones
  // The clones of the direct=0 jobs that read or write (of `all`): a
  // trim does not go through the page cache.
  std::vector<std::pair<uint64_t, uint64_t>> buffered;
};
using TargetRegions = std::map<std::string, PathRegions>;
RunContext CollectContext(const std::vector<JobSpec>& jobs,
                          const std::vector<std::string>& target_paths,
                          const std::vector<std::string>& unexamined = {},
                          const TargetRegions* regions = nullptr,
                          const std::atomic<int>* stop = nullptr,
                          const std::map<std::string, std::string>* cache_kept = nullptr);

// Appends `w` to ctx's warnings unless the same line is there already (a
// later phase's warning about a file an earlier phase warned about).
void AddContextWarning(RunContext* ctx, std::string w);

// What DetectTraps needs besides the jobs and targets; CollectContext fills
// it from the system, tests build it by hand.
struct TrapEnv {
  uint64_t mem_total_bytes = 0;
  // Size of each target path that exists (file or device), by TargetContext::path.
  std::map<std::string, uint64_t> target_sizes;
  // By block device path: the largest region a buffered job's clone used
  // on it. A time_based job whose size= runs past the device's end uses the
  // device from its offset to the end (its note says "the job used [0,
  // 268435456)"): size=800G on a 256 MiB device is 256 MiB of data.
  std::map<std::string, uint64_t> device_region_bytes;
  // Target paths left out of `targets` (a wide job describes a few files):
  // a warning naming "N more" counts the ones it checked and says how many
  // of the job's files it did not.
  std::vector<std::string> unexamined;
  // Targets whose page cache invalidate=1 could not drop, and why.
  std::map<std::string, std::string> cache_kept;
};

// A job "reads like a disk test" when any of:
//  - direct=1 (the user wants the device, not the cache);
//  - its region is at least 1 GiB (size, io_size or filesize);
//  - a target path, the job name or description names a disk: a path under
//    /dev/ (except /dev/shm), /mnt/ or /media/, or a word such as nvme, ssd,
//    hdd, disk, sd[a-z], vd[a-z], xvd[a-z]; in the job name or description a
//    disk name counts only when /sys/class/block has it (`sdk`, `hdr-test`
//    and `vdi` are names, not disks, on a machine without those devices).
bool LooksLikeDiskTest(const JobSpec& job, const std::vector<std::string>& paths);
// The same without the direct=1 criterion (for buffered jobs).
bool MeansDisk(const JobSpec& job, const std::vector<std::string>& paths);

// Filesystems on which buffered io_uring I/O is served inline (they set
// FMODE_BUF_RASYNC for reads, FMODE_BUF_WASYNC for writes); elsewhere io_uring
// punts each buffered I/O that may block to an io-wq worker. An fs_type of ""
// (a block device) counts as supported for reads.
bool FsSupportsNowaitBufferedRead(const std::string& fs_type);
bool FsSupportsNowaitBufferedWrite(const std::string& fs_type);

// One line per (job, trap), "job 'name': <what>: <why>". Pure: looks only at
// its arguments. A job matches the targets whose path is one of its files,
// its directory, or a parent directory of one of its files.
std::vector<std::string> DetectTraps(const std::vector<JobSpec>& jobs,
                                     const std::vector<TargetContext>& targets, const TrapEnv& env);

}  // namespace iobench::sys
