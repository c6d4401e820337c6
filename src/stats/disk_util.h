// Disk utilisation over a run, from /sys/class/block/X/stat deltas (the
// numbers fio prints as "Disk stats" and writes as `disk_util` in JSON).
//
// Ownership: the run core creates one tracker per phase, calls Start() just
// before the workers start, SinceStart() for each interim report and Stop()
// after they are joined, and stores the result in RunResult::disks. Not
// thread-safe: one thread (the coordinator's) uses a tracker.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "iobench/stats.h"

namespace iobench {

// A disk to track. fio_lists: fio 3.33 lists it for the targets
// (sys::TargetInfo::fio_disks); the others, such as the disk under a loop
// device's backing file, only iobench shows (DiskUtil::fio_lists).
struct TrackedDisk {
  std::string name;
  bool fio_lists = true;
};

class DiskUtilTracker {
 public:
  // Names as in /sys/class/block: whole disks ("nvme0n1", "loop0") or
  // partitions ("vda1"). Unknown names are dropped at Start().
  explicit DiskUtilTracker(std::vector<TrackedDisk> disks);

  // Snapshot every disk's counters and the monotonic clock.
  void Start();
  // Counters since Start(), one DiskUtil per disk still present, in the order
  // given. util = io_ticks delta / elapsed wall time, in percent, at most 100.
  // Counters that went backwards (device reset) read as 0. Reads the
  // counters each time: interim reports call it while the run goes on.
  std::vector<DiskUtil> SinceStart() const;
  std::vector<DiskUtil> Stop() const { return SinceStart(); }

 private:
  struct Snapshot {
    TrackedDisk disk;
    uint64_t v[11] = {};  // the first 11 fields of the stat file
    bool ok = false;
  };
  static bool Read(const std::string& name, uint64_t out[11]);

  std::vector<TrackedDisk> disks_;
  std::vector<Snapshot> start_;
  uint64_t start_ns_ = 0;
};

// The whole disks under the targets, deduplicated, in order of first
// appearance: for each target every disk of its device stack from the top
// (a file on a loop-mounted ext4: "loop0", then the disk under the loop's
// backing file, "vda"; a file on LVM: "dm-0", then "sda", "sdb"). A
// partition resolves to its disk. Targets on tmpfs contribute nothing.
// fio_lists is set for a disk fio 3.33 lists for one of the targets
// ("loop0", "dm-0", "sda", "sdb"; not "vda" under the loop device).
std::vector<TrackedDisk> DisksForTargets(const std::vector<std::string>& paths);

}  // namespace iobench
