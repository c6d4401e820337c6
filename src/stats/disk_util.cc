#include "stats/disk_util.h"

#include <sys/stat.h>
#include <time.h>

#include <algorithm>
#include <cstdio>

#include "iobench/clock.h"
#include "sys/procfs.h"
#include "sys/target.h"

namespace iobench {
namespace {

uint64_t Delta(uint64_t a, uint64_t b) { return b >= a ? b - a : 0; }

// Field order of /sys/block/X/stat (Documentation/block/stat.rst).
enum Field {
  kReadIos,
  kReadMerges,
  kReadSectors,
  kReadTicks,
  kWriteIos,
  kWriteMerges,
  kWriteSectors,
  kWriteTicks,
  kInFlight,
  kIoTicks,
  kTimeInQueue,
};

}  // namespace

DiskUtilTracker::DiskUtilTracker(std::vector<TrackedDisk> disks) : disks_(std::move(disks)) {}

bool DiskUtilTracker::Read(const std::string& name, uint64_t out[11]) {
  auto text = sys::ReadFirstLine("/sys/class/block/" + name + "/stat");
  if (!text.ok()) return false;
  unsigned long long v[11] = {};
  const int n =
      std::sscanf(text->c_str(), "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
                  &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]);
  if (n != 11) return false;
  for (int i = 0; i < 11; ++i) out[i] = v[i];
  return true;
}

void DiskUtilTracker::Start() {
  start_.clear();
  for (const auto& disk : disks_) {
    Snapshot s;
    s.disk = disk;
    s.ok = Read(disk.name, s.v);
    if (s.ok) start_.push_back(s);
  }
  start_ns_ = MonotonicNs();
}

std::vector<DiskUtil> DiskUtilTracker::SinceStart() const {
  const uint64_t elapsed_ms = (MonotonicNs() - start_ns_) / 1000000;
  std::vector<DiskUtil> out;
  for (const auto& s : start_) {
    uint64_t now[11];
    if (!Read(s.disk.name, now)) continue;
    DiskUtil d;
    d.name = s.disk.name;
    d.fio_lists = s.disk.fio_lists;
    d.ios[0] = Delta(s.v[kReadIos], now[kReadIos]);
    d.ios[1] = Delta(s.v[kWriteIos], now[kWriteIos]);
    d.merges[0] = Delta(s.v[kReadMerges], now[kReadMerges]);
    d.merges[1] = Delta(s.v[kWriteMerges], now[kWriteMerges]);
    d.sectors[0] = Delta(s.v[kReadSectors], now[kReadSectors]);
    d.sectors[1] = Delta(s.v[kWriteSectors], now[kWriteSectors]);
    d.ticks[0] = Delta(s.v[kReadTicks], now[kReadTicks]);
    d.ticks[1] = Delta(s.v[kWriteTicks], now[kWriteTicks]);
    d.io_ticks = Delta(s.v[kIoTicks], now[kIoTicks]);
    d.time_in_queue = Delta(s.v[kTimeInQueue], now[kTimeInQueue]);
    if (elapsed_ms > 0)
      d.util = std::min(100.0,
                        100.0 * static_cast<double>(d.io_ticks) / static_cast<double>(elapsed_ms));
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<TrackedDisk> DisksForTargets(const std::vector<std::string>& paths) {
  std::vector<TrackedDisk> out;
  std::vector<std::string> fio;  // every target's fio_disks
  // Files on one filesystem (one st_dev) sit on the same disks: resolve one
  // of them. Resolving reads /proc/self/mountinfo; for seed 003's 252 files
  // on one tmpfs that was a quarter of the run's CPU time.
  std::vector<dev_t> seen;
  for (const auto& p : paths) {
    struct stat st;
    if (stat(p.c_str(), &st) == 0 && !S_ISBLK(st.st_mode)) {
      if (std::find(seen.begin(), seen.end(), st.st_dev) != seen.end()) continue;
      seen.push_back(st.st_dev);
    }
    auto info = sys::ResolveTarget(p);
    if (!info.ok()) continue;
    fio.insert(fio.end(), info->fio_disks.begin(), info->fio_disks.end());
    for (const auto& d : info->disks)
      if (std::none_of(out.begin(), out.end(), [&](const TrackedDisk& t) { return t.name == d; }))
        out.push_back({d});
  }
  // A disk fio lists for one target is listed, whatever it is to another
  // (vda under a loop device's image, and the disk of a file on vda).
  for (auto& t : out) t.fio_lists = std::find(fio.begin(), fio.end(), t.name) != fio.end();
  return out;
}

}  // namespace iobench
