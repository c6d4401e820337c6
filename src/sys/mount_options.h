// Which of a target's mount options change what a benchmark measures, for
// the normal report's `target` line (docs/context.md, "Mount options").
// The JSON context has them all (TargetContext::mount_options).
// Thread-safety: reentrant (pure function).
#pragma once

#include <string>
#include <vector>

namespace iobench::sys {

// The options of `mount_options` (a mount's own options and its super
// block's, as sys::AllMountOptions() joins them) that change what the I/O
// numbers mean, in the order listed: those on an allow-list (sync, dirsync,
// ext4's data=, nobarrier, btrfs's compress=, ...) whose value is not the
// kernel's default (data=ordered, xfs logbsize=32k, btrfs discard=async,
// tmpfs huge=never are not shown). Plus "strictatime", first, for a
// read-write mount with neither relatime nor noatime: every read then
// dirties the inode for its atime. The atime options (strictatime, noatime,
// lazytime) are left out `in_memory` (a file system whose data lives in
// memory, sys::IsMemoryFs: tmpfs, ramfs, or one on a loop device over a
// file there), which writes no inode out. Empty for "" (a block device)
// and for a default ext4, xfs, btrfs or tmpfs mount.
std::vector<std::string> MeasuredMountOptions(const std::string& mount_options, bool in_memory);

}  // namespace iobench::sys
