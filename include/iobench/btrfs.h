// The fsid of the btrfs filesystem an open file or directory is on, as
// /sys/fs/btrfs/<fsid>/ names it: BTRFS_IOC_FS_INFO needs no privilege.
// Shared by src/sys (the context header) and engines/ (hipri's device check),
// which may not depend on src/sys.
// Thread-safety: any thread.
#pragma once

#include <linux/btrfs.h>
#include <sys/ioctl.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace iobench {

// "" when fd is not on btrfs or the ioctl fails.
inline std::string BtrfsFsidOfFd(int fd) {
  struct btrfs_ioctl_fs_info_args args;
  std::memset(&args, 0, sizeof(args));
  if (ioctl(fd, BTRFS_IOC_FS_INFO, &args) != 0) return "";
  char uuid[40];
  const unsigned char* u = args.fsid;
  std::snprintf(uuid, sizeof(uuid),
                "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
                u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
                u[15]);
  return uuid;
}

}  // namespace iobench
