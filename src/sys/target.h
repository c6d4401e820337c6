// What a target (file, directory to be created in, or block device) sits on:
// filesystem type, the block device stack underneath, the disk's queue
// settings, and how much of a file is in the page cache.
//
// Called by the run core before a run (context, disk util, engine probes) and
// by engines (ProbeDontcache). Never on the hot path: every call reads /proc,
// /sys or mmaps the file.
// Thread-safety: all functions are reentrant.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "iobench/stats.h"
#include "iobench/status.h"

namespace iobench::sys {

// Name of a statfs(2) f_type magic ("ext4", "xfs", "tmpfs", ...), or "" when
// unknown. ext2/ext3/ext4 share one magic and read as "ext4"; FsTypeName()
// refines it from the mount table.
std::string FsMagicName(uint64_t magic);

// Filesystem type of the filesystem holding `path` (or its nearest existing
// parent when `path` does not exist yet). The mount table's type is preferred
// (it tells ext3 from ext4, fuse subtypes, devtmpfs); the statfs magic is the
// fallback. A block device node reports the filesystem of /dev (devtmpfs): use
// IsBlockDevice() first when that matters. `mount_options` (when not null)
// gets the options of the mount holding it (AllMountOptions; "" when the
// mount table does not say), from the same read of the table.
Result<std::string> FsTypeName(const std::string& path, std::string* mount_options = nullptr);

// True when `path` exists and is a block device (after following symlinks).
bool IsBlockDevice(const std::string& path);

// True for a filesystem type whose data lives in memory (tmpfs, ramfs,
// devtmpfs, hugetlbfs): no device under it, no page cache to drop.
bool IsMemoryFs(const std::string& fs_type);

// The file system holding `path` (or its nearest existing parent) when it
// is a pseudo file system, whose files are the kernel's settings and state
// rather than stored data: proc, sysfs, debugfs, tracefs, cgroup, cgroup2,
// configfs, securityfs, bpf, pstore, efivarfs, devpts, mqueue, binfmt_misc,
// selinuxfs, smackfs, fusectl, resctrl, nsfs. "" for any other (tmpfs and
// ramfs store data and are not pseudo), and when nothing can be stat'ed.
// Decided by statfs(2) f_type, not by the path: /proc may be mounted
// anywhere, and a bind mount of a sysfs file keeps its type.
std::string PseudoFsName(const std::string& path);

// The device stack under a target, from the device that holds it down to the
// disks at the bottom.
struct TargetInfo {
  TargetContext ctx;        // what DescribeTarget() returns
  std::string probed_path;  // the path actually stat'ed (nearest existing parent)
  bool is_block_device = false;
  bool exists = false;
  bool is_regular_file = false;
  uint64_t size_bytes = 0;  // regular file size or block device size, 0 otherwise
  // Each step down the stack in order, human readable, e.g.
  //   {"vda1 (partition of vda)", "vda"}
  //   {"loop0 (backing file /var/tmp/img on ext4)", "vda"}
  //   {"dm-0 (device-mapper)", "sda", "sdb"}
  //   {"btrfs <fsid> over loop1, loop2", "loop1 (loop, ...)", "vda", "loop2 (...)"}
  std::vector<std::string> chain;
  // Every whole disk met on the way down (/sys/block names), top first,
  // deduplicated: {"loop0", "vda"}, {"dm-0", "sda", "sdb"}.
  std::vector<std::string> disks;
  // The whole disks at the top: the device itself, or those the filesystem
  // is on: {"loop0"}, {"dm-0"}, every member of a multi-device btrfs
  // {"loop1", "loop2"}. The first of `disks`.
  std::vector<std::string> top_disks;
  // The disks fio 3.33 lists for the target (its init_per_file_disk_util),
  // a subset of `disks`: the whole disk of the device holding the path
  // (st_rdev of a device node, after symlinks; else st_dev of the file or
  // its nearest existing parent) and the devices in its slaves/ (dm, md),
  // depth first. Not what is under a loop device's backing file, nor a
  // filesystem's devices found any other way (btrfs members, an overlay's
  // layer, the mount source): {"loop0"}, {"dm-0", "sda", "sdb"}, {} for a
  // file on btrfs or tmpfs. The machine formats list these (docs/output.md).
  std::vector<std::string> fio_disks;
  // The disks at the bottom of the stack (no slaves, not a loop device):
  // {"vda"}, {"sda", "sdb"}. ctx.device joins them with ','; the queue
  // settings in ctx come from the first.
  std::vector<std::string> bottom_disks;
  // The loop devices met, top first: {"loop0"}. A loop device is
  // request-based (blk-mq): a job's requests are queued by its own
  // scheduler before its backing file's disk sees any, so ctx's scheduler,
  // nr_requests and physical block size come from the first of them.
  std::vector<std::string> loop_disks;
  // Those of loop_disks without direct I/O (loop/dio=0), which read and
  // write their backing files through the page cache: ctx.direct_buffered
  // names them all (a btrfs over two named only the first).
  std::vector<std::string> buffered_loop_disks;
  // A loop device whose backing file is on a filesystem with no block
  // device under it (tmpfs, ramfs): that filesystem's type. The data the
  // device holds lives in memory.
  std::string backing_fs_without_disk;
  // The sysfs directory of the filesystem's own backing_dev_info when it is
  // not its device's (btrfs: /sys/fs/btrfs/<fsid>/bdi); ctx.read_ahead_kb
  // comes from it. Empty otherwise.
  std::string fs_bdi;
  // Why something is missing ("tmpfs: no block device, the data lives in
  // memory"; "loop depth limit reached").
  std::vector<std::string> notes;
};

// Full resolution. ctx's queue settings are the bottom disk's (where
// requests are queued), except read_ahead_kb: the readahead the page cache
// applies to the target, that of the filesystem's bdi (fs_bdi when set,
// else the top device's queue: the device itself, or the one the
// filesystem is mounted from). Fails only when neither the path nor any parent can be
// stat'ed; missing sysfs attributes are left unset (-1, 0 or "").
// `written`: a job writes or trims the target. An overlay copies a file
// from a lower layer up to its upper directory when it is opened for that,
// so only then is the upper directory where its data goes.
Result<TargetInfo> ResolveTarget(const std::string& path, bool written = false);

// Best-effort summary for the context block: ResolveTarget(path).ctx, or a
// context with only `path` set when resolution failed. ctx.device is "" for a
// filesystem without a block device (tmpfs, ramfs, nfs); use
// TargetDeviceLabel() to print it.
TargetContext DescribeTarget(const std::string& path);

// ctx.device, or "none (tmpfs: data in memory)"-style text when empty.
std::string TargetDeviceLabel(const TargetContext& ctx);

// Share (0..100) of the pages of [offset, offset+len) of a regular file that
// are in the page cache, via mmap + mincore: nothing is read or faulted in.
// len == 0 means up to the end of the file. An empty region gives 0.
// Maps at most 1 GiB at a time, so huge files do not need huge mappings;
// a region above kPageCacheMaxExamined is sampled (PageCacheResidencyOf).
Result<double> PageCacheResidency(const std::string& path, uint64_t offset, uint64_t len);

// mincore costs about 3 s per TiB even over holes, so what is examined is
// bounded: a region up to this many bytes is examined whole; a larger one
// through kPageCacheSamples slices of kPageCacheMaxExamined /
// kPageCacheSamples bytes spread evenly over it.
inline constexpr uint64_t kPageCacheMaxExamined = 4ull << 30;
inline constexpr uint64_t kPageCacheSamples = 256;
struct PageCacheSample {
  double percent = 0;           // of the pages examined
  uint64_t region_bytes = 0;    // the ranges (page-aligned, merged, inside the file)
  uint64_t examined_bytes = 0;  // what mincore looked at; < region_bytes: sampled
};
// Residency of the union of `ranges` ({offset, len}, len 0 = to the end of
// the file). Checks *stop (when given) between 1 GiB windows and returns
// Interrupted once it is non-zero (SIGINT during start-up).
Result<PageCacheSample> PageCacheResidencyOf(const std::string& path,
                                             std::vector<std::pair<uint64_t, uint64_t>> ranges,
                                             const std::atomic<int>* stop = nullptr);

// PageCacheResidencyOf after the writeback of the ranges: waits for it
// first (sync_file_range WAIT_BEFORE | WRITE | WAIT_AFTER), as uncached=1
// (RWF_DONTCACHE) drops a written page only when its writeback ends. For the
// check after a run: what an uncached writer left cached.
Result<PageCacheSample> ResidencyAfterWriteback(const std::string& path,
                                                std::vector<std::pair<uint64_t, uint64_t>> ranges,
                                                const std::atomic<int>* stop = nullptr);

// True when `path` is a regular file on ext2/ext3/ext4 (statfs magic)
// mapped by blocks, without extents (no FS_EXTENT_FL: ext2 and ext3 files,
// mkfs.ext4 -O ^extent): ext4 keeps such a file's RWF_DONTCACHE writes in
// the page cache (6.18).
bool BlockMappedExtFile(const std::string& path);

// How much of the union of `ranges` ({offset, len}, len 0 = to the end of
// the file) is holes (SEEK_DATA/SEEK_HOLE): never written, punched or
// trimmed; a read there returns zeros without any device I/O. A file
// system without SEEK_DATA reports all data. At most kHoleMaxExtents
// data extents are walked: examined_bytes < the region then.
inline constexpr size_t kHoleMaxExtents = 1 << 16;
struct HoleSample {
  uint64_t hole_bytes = 0;
  uint64_t examined_bytes = 0;
};
Result<HoleSample> HolesIn(const std::string& path,
                           const std::vector<std::pair<uint64_t, uint64_t>>& ranges);

// The kinds of extents in the union of `ranges` (as HolesIn), from FIEMAP:
// stored compressed (FIEMAP_EXTENT_ENCODED: btrfs compression; a read there
// moves less from the disk than it returns, and the kernel decompresses
// it), preallocated and unwritten (fallocate), and holes. Data not yet
// written back shows as neither. A file system without FIEMAP reports
// none of them. At most kHoleMaxExtents extents are walked: examined_bytes
// < the region then.
struct ExtentSample {
  uint64_t compressed_bytes = 0;
  uint64_t unwritten_bytes = 0;
  uint64_t hole_bytes = 0;
  uint64_t examined_bytes = 0;
  bool bare = false;  // an empty file without extents, also past its end
};
Result<ExtentSample> ExtentsIn(const std::string& path,
                               const std::vector<std::pair<uint64_t, uint64_t>>& ranges);

// RWF_DONTCACHE (uncached=1): one preadv2(fd, 4 KiB at 0, RWF_DONTCACHE).
// EOPNOTSUPP (filesystem lacks it) and EINVAL (kernel older than 6.14 does not
// know the flag) give Unsupported naming the file, filesystem and kernel. When
// `fd` is negative or not readable, `path` is opened read-only for the probe.
Status ProbeDontcache(int fd, const std::string& path);

// What the kernel asks of direct I/O on the file at `path` (statx
// STATX_DIOALIGN, Linux 6.1+): `offset`, the alignment of offsets and
// lengths (0: the file system takes no direct I/O on this file), and `mem`,
// of buffer addresses. nullopt when the kernel does not say: an older
// kernel, a file system that does not report it (btrfs, 6.18), no such file.
struct DioAlign {
  uint32_t offset = 0;
  uint32_t mem = 0;
};
std::optional<DioAlign> StatxDioAlign(const std::string& path);

// Why a direct I/O on `fd` may have failed with EINVAL, for the error
// message (fio says only "try setting direct=0"): the alignment the kernel
// asks of this file (statx STATX_DIOALIGN, Linux 6.1+; a block device's
// logical block size where statx does not say) against the I/O's offset,
// length and buffer address, each named only when it is off: "this file
// takes direct I/O in multiples of 4096 bytes at offsets aligned to 4096 and
// buffers aligned to 512 (statx); this I/O's length 512 is not: set the
// block sizes (bs, bsrange, bssplit) to multiples of 4096, or direct=0".
// Without an answer from the kernel, fio's causes as a guess. Error path
// only: one statx (and an ioctl).
std::string DirectIoEinvalHint(int fd, uint64_t offset, uint64_t length, const void* buf);

// Why a trim (BLKDISCARD) on `fd` may have failed with EINVAL, for the error
// message, with or without direct=1: the kernel takes a discard only at
// offsets and lengths that are multiples of the device's logical block size
// (BLKSSZGET). "a discard needs block-aligned ranges: this device's logical
// block size is 4096 bytes (BLKSSZGET); this trim's offset 6144 is not a
// multiple of it: set offset=, blockalign=, ..." with the options that set
// the part that is off. "" for a file (a hole punch takes any range).
// Error path only: an fstat and an ioctl.
std::string DiscardEinvalHint(int fd, uint64_t offset, uint64_t length);

}  // namespace iobench::sys
