// Small readers for /proc and /sys used by the probes in src/sys/. Internal to
// src/sys/ and src/stats/disk_util.cc; other modules call the probe functions
// instead (host.h, target.h, safety.h, context.h). WriteAll, the one writer,
// serves the report files (sweep/session.cc's --output, report/plot.cc);
// OpenFifoWriter serves --output and the log files (stats/iolog.cc).
//
// Thread-safety: all functions are reentrant (they only read files).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "iobench/status.h"

namespace iobench::sys {

// Whole file as text ("read /proc/x: No such file" on failure).
Result<std::string> ReadTextFile(const std::string& path);
// First line without the trailing newline and surrounding blanks.
Result<std::string> ReadFirstLine(const std::string& path);
// A decimal integer file such as /sys/block/sda/queue/nr_requests.
Result<int64_t> ReadIntFile(const std::string& path);
// Writes all of `text` to `fd`: 0, or the errno that stopped it. EINTR is
// retried; EAGAIN (a non-blocking pipe or FIFO whose reader is slow) waits
// in poll() for room, as a blocking write would.
int WriteAll(int fd, std::string_view text);
// Opens the FIFO `path` for writing (`flags` as for open(2)) without
// blocking in open: a FIFO's open waits for a reader, where a stop signal
// cannot end it (the handlers restart it, SA_RESTART). While no reader has
// it open (ENXIO) it is tried again every 20 ms, until `give_up()` says
// so: then -1 with errno ENXIO. Other errors return at once. The
// descriptor returned blocks on writes, as a file's does.
int OpenFifoWriter(const std::string& path, int flags, const std::function<bool()>& give_up);

// One line of /proc/self/mountinfo (see proc(5)); octal escapes decoded.
struct MountEntry {
  uint32_t major = 0;
  uint32_t minor = 0;
  std::string root;           // field 4: root of the mount within the filesystem
  std::string mount_point;    // field 5
  std::string options;        // field 6: the mount's own (rw,nosuid,noatime)
  std::string fs_type;        // after the " - " separator
  std::string source;         // mount source, e.g. /dev/vda1
  std::string super_options;  // the filesystem's options (overlay: lowerdir=,upperdir=,...)
};
// The value of option `key` in a mount's super options ("" when absent).
// mountinfo escapes a ',' inside a value (an overlay directory's name) as
// "\\," and blanks and backslashes as \ooo.
std::string MountOption(const MountEntry& m, const std::string& key);
// The mount's own options, then its super block's not already listed (both
// start with rw or ro), joined by ',' as mountinfo lists them, a comma in a
// value escaped as there ("\\,"): "rw,noatime,sync,data=journal". Split
// it with SplitEscaped(list, ',') (sys/strings.h).
std::string AllMountOptions(const MountEntry& m);
Result<std::vector<MountEntry>> ReadMountInfo(const std::string& path = "/proc/self/mountinfo");

// The mount whose mount point is the longest prefix of `abs_path` (an
// absolute, symlink-resolved path). nullptr when none matches.
const MountEntry* FindMountForPath(const std::vector<MountEntry>& mounts,
                                   const std::string& abs_path);

// Entries of a directory, without "." and ".."; empty when it cannot be read.
std::vector<std::string> ListDir(const std::string& dir);

// The /sys/class/block name ("vda1", "loop0") of a block device number, or
// NotFound when the kernel has no block device with that number (tmpfs,
// btrfs anonymous devices, ...).
Result<std::string> BlockNameForDev(dev_t dev);

// "maj:min" of a block device name from /sys/class/block/NAME/dev.
Result<dev_t> DevForBlockName(const std::string& name);

// True when /sys/class/block/NAME is a partition; *parent receives the
// whole-disk name (e.g. "vda" for "vda1").
bool IsPartition(const std::string& name, std::string* parent);

// Partition names of a whole disk, e.g. {"vda1", "vda2"}.
std::vector<std::string> PartitionsOf(const std::string& disk);

// A value from /proc/meminfo in bytes ("MemTotal", "MemAvailable").
Result<uint64_t> MemInfoBytes(const std::string& key);

// Human size with binary units: "64 MiB", "1.5 GiB", "512 B".
std::string HumanBytes(uint64_t bytes);

}  // namespace iobench::sys
