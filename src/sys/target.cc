#include "sys/target.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "iobench/btrfs.h"
#include "sys/procfs.h"
#include "sys/strings.h"

namespace iobench::sys {
namespace {

// Guards against loop devices backed by files on loop devices on ... and
// against a cycle in a broken sysfs.
constexpr int kMaxDepth = 8;

struct Magic {
  uint64_t magic;
  const char* name;
};

// Values from <linux/magic.h> where it has them; the rest are the
// filesystems' own superblock magics as statfs reports them.
constexpr Magic kMagics[] = {
    {EXT4_SUPER_MAGIC, "ext4"},  // also ext2/ext3: same magic
    {XFS_SUPER_MAGIC, "xfs"},
    {BTRFS_SUPER_MAGIC, "btrfs"},
    {TMPFS_MAGIC, "tmpfs"},
    {RAMFS_MAGIC, "ramfs"},
    {NFS_SUPER_MAGIC, "nfs"},
    {OVERLAYFS_SUPER_MAGIC, "overlay"},
    {F2FS_SUPER_MAGIC, "f2fs"},
    {SQUASHFS_MAGIC, "squashfs"},
    {0x65735546, "fuse"},
    {0x2fc12fc1, "zfs"},
    {0xca451a4e, "bcachefs"},
    {0xFF534D42, "cifs"},
    {0xFE534D42, "smb2"},
    {0x2011BAB0, "exfat"},
    {MSDOS_SUPER_MAGIC, "vfat"},
    {0x5346544e, "ntfs"},
    {ISOFS_SUPER_MAGIC, "iso9660"},
    {HUGETLBFS_MAGIC, "hugetlbfs"},
    {0x00c36400, "ceph"},
    {0x01161970, "gfs2"},
    {0x7461636f, "ocfs2"},
    {0x3153464a, "jfs"},
    {REISERFS_SUPER_MAGIC, "reiserfs"},
    {0xE0F5E1E2, "erofs"},
    {NILFS_SUPER_MAGIC, "nilfs2"},
    {0x5a4f4653, "zonefs"},
    {PROC_SUPER_MAGIC, "proc"},
    {SYSFS_MAGIC, "sysfs"},
    {CGROUP2_SUPER_MAGIC, "cgroup2"},
    {DEBUGFS_MAGIC, "debugfs"},
    {0x6e667364, "nfsd"},
};

std::string Dirname(const std::string& p) {
  const size_t slash = p.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return p.substr(0, slash);
}

// The path itself or its nearest existing parent, and its stat.
Result<std::string> NearestExisting(const std::string& path, struct stat* st) {
  std::string p = path.empty() ? "." : path;
  for (int i = 0; i < 4096; ++i) {
    if (stat(p.c_str(), st) == 0) return p;
    if (errno != ENOENT && errno != ENOTDIR) return ErrnoStatus("stat " + p);
    const std::string parent = Dirname(p);
    if (parent == p) break;
    p = parent;
  }
  return Status::NotFound("stat " + path + ": neither the path nor a parent exists");
}

std::string RealPath(const std::string& p) {
  char buf[PATH_MAX];
  if (realpath(p.c_str(), buf)) return buf;
  return p;
}

std::string Bracketed(const std::string& line) {
  const size_t b = line.find('[');
  const size_t e = line.find(']', b == std::string::npos ? 0 : b);
  if (b == std::string::npos || e == std::string::npos) return line;  // "none" on some kernels
  return line.substr(b + 1, e - b - 1);
}

// The fsid of the btrfs filesystem holding `path`, as /sys/fs/btrfs/ names
// it ("aa99eb3e-587b-..."), from BTRFS_IOC_FS_INFO (no privilege needed); ""
// when it cannot be asked (not btrfs, or it cannot be opened). Asks the
// directory (`path` or its parent), else the regular file itself: opening a
// device node or FIFO could have effects.
std::string BtrfsFsid(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECTORY);
  if (fd < 0) fd = open(Dirname(path).c_str(), O_RDONLY | O_CLOEXEC | O_DIRECTORY);
  if (struct stat st; fd < 0 && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
    fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return "";
  std::string fsid = BtrfsFsidOfFd(fd);
  close(fd);
  return fsid;
}

void WalkName(const std::string& name, int depth, TargetInfo* info);

void WalkDev(dev_t dev, int depth, TargetInfo* info);

// The disks under the filesystem holding `path` (stat'ed in `st`, of type
// `fs`), walked at `depth`: st_dev names the device for most filesystems;
// btrfs and some FUSE filesystems report an anonymous 0:N, and the mount
// source names it when it is a block device node. btrfs may span several
// devices: its members are listed in /sys/fs/btrfs/<fsid>/devices/ (the
// mount source names one of them). False when no block device was found
// (tmpfs, nfs, ...).
bool WalkFilesystem(const std::string& path, const struct stat& st, const std::string& fs,
                    int depth, TargetInfo* info) {
  if (auto name = BlockNameForDev(st.st_dev); name.ok()) {
    WalkName(*name, depth, info);
    return true;
  }
  if (IsMemoryFs(fs)) return false;
  if (fs == "btrfs") {
    const std::string fsid = BtrfsFsid(path);
    std::vector<std::string> members =
        fsid.empty() ? std::vector<std::string>{} : ListDir("/sys/fs/btrfs/" + fsid + "/devices");
    // loop2 before loop10: the name without its trailing digits, then the number.
    std::sort(members.begin(), members.end(), [](const std::string& a, const std::string& b) {
      const size_t na = a.find_last_not_of("0123456789") + 1;
      const size_t nb = b.find_last_not_of("0123456789") + 1;
      const int c = a.compare(0, na, b, 0, nb);
      if (c != 0) return c < 0;
      return a.size() - na != b.size() - nb ? a.size() - na < b.size() - nb : a < b;
    });
    if (!members.empty()) {
      info->chain.push_back("btrfs " + fsid + " over " + Join(members, ", "));
      for (const auto& m : members) WalkName(m, depth, info);
      return true;
    }
  }
  auto mounts = ReadMountInfo();
  const MountEntry* m = mounts.ok() ? FindMountForPath(*mounts, RealPath(path)) : nullptr;
  struct stat src;
  if (!m || m->source.empty() || m->source[0] != '/' || stat(m->source.c_str(), &src) != 0 ||
      !S_ISBLK(src.st_mode))
    return false;
  WalkDev(src.st_rdev, depth, info);
  return true;
}

void WalkDev(dev_t dev, int depth, TargetInfo* info) {
  auto name = BlockNameForDev(dev);
  if (!name.ok()) {
    info->notes.push_back("device " + std::to_string(major(dev)) + ":" +
                          std::to_string(minor(dev)) + " is not a block device");
    return;
  }
  WalkName(*name, depth, info);
}

void WalkDisk(const std::string& disk, int depth, TargetInfo* info) {
  if (depth > kMaxDepth) {
    info->notes.push_back("stopped resolving at " + disk + ": more than " +
                          std::to_string(kMaxDepth) + " stacked devices");
    return;
  }
  AddUnique(&info->disks, disk);
  if (depth == 0) AddUnique(&info->top_disks, disk);
  const std::string base = "/sys/block/" + disk;
  std::vector<std::string> slaves = ListDir(base + "/slaves");
  std::sort(slaves.begin(), slaves.end());
  if (!slaves.empty()) {
    std::string kind = "stacked";
    if (disk.rfind("dm-", 0) == 0) {
      kind = "device-mapper";
      auto dm = ReadFirstLine(base + "/dm/name");
      if (dm.ok() && !dm->empty()) kind += " " + *dm;
    } else if (disk.rfind("md", 0) == 0) {
      kind = "md";
      auto level = ReadFirstLine(base + "/md/level");
      if (level.ok() && !level->empty()) kind += " " + *level;
    }
    info->chain.push_back(disk + " (" + kind + " over " + Join(slaves, ", ") + ")");
    for (const auto& s : slaves) WalkName(s, depth + 1, info);
    return;
  }
  auto backing = ReadFirstLine(base + "/loop/backing_file");
  if (backing.ok() && !backing->empty()) {
    AddUnique(&info->loop_disks, disk);
    // Without direct I/O (losetup's default) a loop device reads and writes
    // its backing file through the page cache: O_DIRECT stops there.
    if (auto dio = ReadFirstLine(base + "/loop/dio"); dio.ok() && *dio == "0")
      AddUnique(&info->buffered_loop_disks, disk);
    std::string file = *backing;
    const std::string kDeleted = " (deleted)";
    if (file.size() > kDeleted.size() &&
        file.compare(file.size() - kDeleted.size(), kDeleted.size(), kDeleted) == 0)
      file.resize(file.size() - kDeleted.size());
    struct stat st;
    if (stat(file.c_str(), &st) != 0) {
      info->chain.push_back(disk + " (loop, backing file " + *backing + ")");
      info->notes.push_back(disk + ": backing file " + *backing + " cannot be stat'ed");
      return;
    }
    if (S_ISBLK(st.st_mode)) {
      info->chain.push_back(disk + " (loop over block device " + file + ")");
      WalkDev(st.st_rdev, depth + 1, info);
      return;
    }
    auto fs = FsTypeName(file);
    info->chain.push_back(disk + " (loop, backing file " + file + " on " +
                          (fs.ok() ? *fs : std::string("unknown fs")) + ")");
    if (!WalkFilesystem(file, st, fs.ok() ? *fs : "", depth + 1, info)) {
      info->notes.push_back(disk + ": backing file " + file + " is on " +
                            (fs.ok() ? *fs : std::string("a filesystem")) +
                            " with no block device under it");
      if (fs.ok()) info->backing_fs_without_disk = *fs;
    }
    return;
  }
  info->chain.push_back(disk);
  AddUnique(&info->bottom_disks, disk);
}

void WalkName(const std::string& name, int depth, TargetInfo* info) {
  std::string parent;
  if (IsPartition(name, &parent)) {
    info->chain.push_back(name + " (partition of " + parent + ")");
    WalkDisk(parent, depth, info);
  } else {
    WalkDisk(name, depth, info);
  }
}

// TargetInfo::fio_disks from the device `name`: its whole disk, then the
// slaves of each, depth first, each once (fio's disk_util_add and
// find_add_disk_slaves). A loop device has no slaves: its backing file's
// disk is not among them.
void AddFioDisks(const std::string& name, int depth, std::vector<std::string>* out) {
  if (depth > kMaxDepth) return;
  std::string disk = name;
  if (std::string parent; IsPartition(name, &parent)) disk = parent;
  if (std::find(out->begin(), out->end(), disk) != out->end()) return;
  out->push_back(disk);
  std::vector<std::string> slaves = ListDir("/sys/block/" + disk + "/slaves");
  std::sort(slaves.begin(), slaves.end());
  for (const auto& s : slaves) AddFioDisks(s, depth + 1, out);
}

// What the request queue of `disk` does with a request: its scheduler,
// nr_requests and physical block size.
void FillRequestQueue(const std::string& disk, TargetContext* ctx) {
  const std::string base = "/sys/block/" + disk;
  if (auto v = ReadFirstLine(base + "/queue/scheduler"); v.ok()) ctx->scheduler = Bracketed(*v);
  if (auto v = ReadIntFile(base + "/queue/nr_requests"); v.ok()) ctx->nr_requests = *v;
  if (auto v = ReadIntFile(base + "/queue/physical_block_size"); v.ok())
    ctx->physical_block_size = uint32_t(*v);
}

void FillQueueSettings(const std::string& disk, TargetContext* ctx) {
  const std::string base = "/sys/block/" + disk;
  ctx->device = disk;
  if (auto v = ReadFirstLine(base + "/device/model"); v.ok()) ctx->model = *v;
  FillRequestQueue(disk, ctx);
  if (auto v = ReadIntFile(base + "/queue/rotational"); v.ok()) ctx->rotational = int(*v);
  if (auto v = ReadIntFile(base + "/queue/logical_block_size"); v.ok())
    ctx->logical_block_size = uint32_t(*v);
  if (auto v = ReadFirstLine(base + "/queue/write_cache"); v.ok()) ctx->write_cache = *v;
}

// Why no disk was found under `where`, on file system `fs`.
std::string NoDiskNote(const std::string& fs, const std::string& where) {
  if (IsMemoryFs(fs)) return fs + ": no block device, the data lives in memory (page cache)";
  return (fs.empty() ? std::string("this filesystem") : fs) + ": no local block device under " +
         where;
}

// Why ext4 (or ext3/ext2 served by its code) does O_DIRECT I/O on `path`,
// on the file system of device `dev`, through the page cache: it journals
// the data, of the whole file system (data=journal, as a mount option or as
// the superblock's default, which /proc/fs/ext4/<dev>/options shows either
// way while the mount table shows only the former) or of the file (chattr
// +j, on an existing `regular` file). "" when it does not, or for a file
// system the ext4 code does not serve (no /proc/fs/ext4/<dev>).
std::string Ext4DataJournal(const std::string& path, dev_t dev, const std::string& fs,
                            bool regular) {
  auto name = BlockNameForDev(dev);
  if (!name.ok()) return "";
  auto options = ReadTextFile("/proc/fs/ext4/" + *name + "/options");
  if (!options.ok()) return "";
  if (("\n" + *options + "\n").find("\ndata=journal\n") != std::string::npos)
    return fs + " data=journal";
  if (!regular) return "";
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return "";
  int flags = 0;
  const bool journalled = ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_JOURNAL_DATA_FL);
  close(fd);
  return journalled ? "the file's data journaling attribute (chattr +j)" : "";
}

// What makes btrfs compress the data written to `path` (an existing file,
// or the nearest existing directory, whose attributes a new file inherits),
// as fs/btrfs/inode.c decides it (inode_need_compress): a no-copy-on-write
// or no-checksum file (chattr +C; nodatacow or nodatasum mounts) is never
// compressed;
// compress-force compresses the rest; a no-compress file (chattr +m) is
// not; otherwise the compress mount option or the compression attribute
// (chattr +c, also set by the btrfs.compression property) turn compression
// on for data that compresses. "" when nothing does. Only data that
// compresses is stored compressed: the caller decides whether the job's
// does. `owner` names whose attribute it is in the answer ("the file's").
std::string BtrfsCompression(const std::string& path, const std::string& owner) {
  auto mounts = ReadMountInfo();
  if (!mounts.ok()) return "";
  const MountEntry* m = FindMountForPath(*mounts, RealPath(path));
  if (m == nullptr || m->fs_type != "btrfs") return "";
  int flags = 0;
  if (const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC); fd >= 0) {
    if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) flags = 0;
    close(fd);
  }
  // nodatacow and nodatasum mounts make files btrfs cannot compress (the
  // inode keeps that from its creation, which is not visible here): no
  // claim on them.
  const std::string options = "," + m->super_options + ",";
  if ((flags & FS_NOCOW_FL) || options.find(",nodatacow,") != std::string::npos ||
      options.find(",nodatasum,") != std::string::npos)
    return "";
  if (const std::string force = MountOption(*m, "compress-force"); !force.empty())
    return "btrfs compress-force=" + force;
  if (flags & FS_NOCOMP_FL) return "";
  if (const std::string compress = MountOption(*m, "compress"); !compress.empty())
    return "btrfs compress=" + compress;
  // The btrfs.compression property sets the attribute too.
  if (flags & FS_COMPR_FL) return owner + " compression attribute (chattr +c)";
  return "";
}

// The directory of the overlay mounted over `path` that holds its data
// ("" when it is not known), and which layer that is: the upper directory,
// where the overlay writes and a file the job lays out lives; or, for an
// existing file that is only in a lower layer and that no job writes (a
// write copies it up at open), that lower layer, which its reads go to.
// The mount table shows the directories as given to mount(8): a relative
// one cannot be placed, and is not guessed from our working directory.
std::string OverlayDataDir(const std::string& path, bool exists, bool written, std::string* layer) {
  auto mounts = ReadMountInfo();
  if (!mounts.ok()) return "";
  const std::string real = RealPath(path);
  const MountEntry* m = FindMountForPath(*mounts, real);
  if (m == nullptr || m->fs_type != "overlay") return "";
  const std::string upper = MountOption(*m, "upperdir");
  if (upper.empty() || upper[0] != '/') return "";
  *layer = "upper directory";
  if (!exists || written || m->root != "/") return upper;
  const std::string rel = m->mount_point == "/" ? real : real.substr(m->mount_point.size());
  struct stat st;
  if (lstat((upper + rel).c_str(), &st) == 0) return upper;
  const std::string lowers = MountOption(*m, "lowerdir");
  size_t start = 0;
  while (start <= lowers.size()) {
    size_t end = lowers.find(':', start);
    if (end == std::string::npos) end = lowers.size();
    const std::string dir = lowers.substr(start, end - start);
    if (!dir.empty() && (dir[0] != '/' || dir.back() == '\\')) return upper;  // not placed
    if (!dir.empty() && lstat((dir + rel).c_str(), &st) == 0) {
      *layer = "lower layer " + dir;
      return dir;
    }
    start = end + 1;
  }
  return upper;
}

}  // namespace

bool IsMemoryFs(const std::string& fs) {
  return fs == "tmpfs" || fs == "ramfs" || fs == "devtmpfs" || fs == "hugetlbfs";
}

std::string PseudoFsName(const std::string& path) {
  // Magics from <linux/magic.h>; spelled out so an older header builds.
  static constexpr Magic kPseudo[] = {
      {0x9fa0, "proc"},         {0x62656572, "sysfs"},       {0x64626720, "debugfs"},
      {0x74726163, "tracefs"},  {0x27e0eb, "cgroup"},        {0x63677270, "cgroup2"},
      {0x62656570, "configfs"}, {0x73636673, "securityfs"},  {0xcafe4a11, "bpf"},
      {0x6165676c, "pstore"},   {0xde5e81e4, "efivarfs"},    {0x1cd1, "devpts"},
      {0x19800202, "mqueue"},   {0x42494e4d, "binfmt_misc"}, {0xf97cff8c, "selinuxfs"},
      {0x43415d53, "smackfs"},  {0x65735543, "fusectl"},     {0x07655821, "resctrl"},
      {0x6e736673, "nsfs"},
  };
  struct stat st;
  auto existing = NearestExisting(path, &st);
  if (!existing.ok()) return "";
  struct statfs sfs;
  if (statfs(existing->c_str(), &sfs) != 0) return "";
  const uint64_t magic = static_cast<uint64_t>(static_cast<uint32_t>(sfs.f_type));
  for (const auto& m : kPseudo)
    if (m.magic == magic) return m.name;
  return "";
}

std::string FsMagicName(uint64_t magic) {
  for (const auto& m : kMagics)
    if (m.magic == magic) return m.name;
  return "";
}

Result<std::string> FsTypeName(const std::string& path, std::string* mount_options) {
  struct stat st;
  IOB_ASSIGN_OR_RETURN(std::string existing, NearestExisting(path, &st));
  struct statfs sfs;
  if (statfs(existing.c_str(), &sfs) != 0) return ErrnoStatus("statfs " + existing);
  const uint64_t magic = static_cast<uint64_t>(static_cast<uint32_t>(sfs.f_type));
  const std::string by_magic = FsMagicName(magic);
  auto mounts = ReadMountInfo();
  if (mounts.ok()) {
    const MountEntry* m = FindMountForPath(*mounts, RealPath(existing));
    if (m != nullptr && mount_options != nullptr) *mount_options = AllMountOptions(*m);
    // Trust the mount table only when it is the same filesystem (same
    // device number); a btrfs subvolume or a stale entry falls back to
    // the magic.
    if (m && m->major == major(st.st_dev) && m->minor == minor(st.st_dev) && !m->fs_type.empty())
      return m->fs_type;
  }
  if (!by_magic.empty()) return by_magic;
  char buf[32];
  std::snprintf(buf, sizeof(buf), "unknown (0x%llx)", static_cast<unsigned long long>(magic));
  return std::string(buf);
}

bool IsBlockDevice(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode);
}

Result<TargetInfo> ResolveTarget(const std::string& path, bool written) {
  TargetInfo info;
  info.ctx.path = path;
  struct stat st;
  IOB_ASSIGN_OR_RETURN(info.probed_path, NearestExisting(path, &st));
  info.exists = info.probed_path == path || (path.empty() && info.probed_path == ".");
  if (auto name = BlockNameForDev(S_ISBLK(st.st_mode) && info.exists ? st.st_rdev : st.st_dev);
      name.ok())
    AddFioDisks(*name, 0, &info.fio_disks);
  if (S_ISBLK(st.st_mode) && info.exists) {
    info.is_block_device = true;
    auto name = BlockNameForDev(st.st_rdev);
    if (name.ok()) {
      if (auto sz = ReadIntFile("/sys/class/block/" + *name + "/size"); sz.ok())
        info.size_bytes = static_cast<uint64_t>(*sz) * 512;
    }
    WalkDev(st.st_rdev, 0, &info);
  } else {
    info.is_regular_file = info.exists && S_ISREG(st.st_mode);
    if (info.is_regular_file) info.size_bytes = static_cast<uint64_t>(st.st_size);
    auto fs = FsTypeName(info.probed_path, &info.ctx.mount_options);
    if (fs.ok()) info.ctx.fs_type = *fs;
    // ext3 (since Linux 4.3), and ext2 on kernels without its own driver,
    // are served by the ext4 code, with ext4's nonblocking buffered reads.
    if (info.ctx.fs_type == "ext2" || info.ctx.fs_type == "ext3")
      if (auto dev = BlockNameForDev(st.st_dev);
          dev.ok() && access(("/sys/fs/ext4/" + *dev).c_str(), F_OK) == 0)
        info.ctx.fs_driver = "ext4";
    if (info.ctx.fs_type == "ext4" || info.ctx.fs_driver == "ext4")
      info.ctx.direct_buffered =
          Ext4DataJournal(info.probed_path, st.st_dev, info.ctx.fs_type, info.is_regular_file);
    // An overlay's data is in one of its directories (OverlayDataDir): the
    // disk under the numbers is that directory's, or none when it is on
    // tmpfs, where the data lives in memory.
    std::string data_dir;
    struct stat data_st {};
    if (info.ctx.fs_type == "overlay") {
      data_dir =
          OverlayDataDir(info.probed_path, info.is_regular_file, written, &info.ctx.overlay_layer);
      if (!data_dir.empty() && stat(data_dir.c_str(), &data_st) != 0) data_dir.clear();
      if (data_dir.empty()) info.ctx.overlay_layer.clear();
    }
    if (info.ctx.fs_type == "btrfs")
      info.ctx.compression =
          BtrfsCompression(info.probed_path, info.exists ? "the file's" : "the directory's");
    if (!data_dir.empty()) {
      auto data_fs = FsTypeName(data_dir);
      info.ctx.backing_fs = data_fs.ok() ? *data_fs : "";
      // The overlay reads through the layer's files: its btrfs's own bdi
      // sets the readahead (below), not the devices'.
      if (info.ctx.backing_fs == "btrfs")
        if (const std::string fsid = BtrfsFsid(data_dir); !fsid.empty())
          info.fs_bdi = "/sys/fs/btrfs/" + fsid + "/bdi";
      // The overlay writes a job's files to its upper directory's file system.
      if (info.ctx.backing_fs == "btrfs" && info.ctx.overlay_layer == "upper directory") {
        const std::string why = BtrfsCompression(data_dir, "the upper directory's");
        if (why.rfind("btrfs ", 0) == 0)
          info.ctx.compression = "the upper directory's " + why;
        else
          info.ctx.compression = why;
      }
      // The overlay passes O_DIRECT on to the file system under it.
      if (info.ctx.backing_fs == "ext4" || info.ctx.backing_fs == "ext3" ||
          info.ctx.backing_fs == "ext2") {
        const std::string why =
            Ext4DataJournal(data_dir, data_st.st_dev, info.ctx.backing_fs, false);
        if (!why.empty()) info.ctx.direct_buffered = "its " + info.ctx.overlay_layer + "'s " + why;
      }
      if (!WalkFilesystem(data_dir, data_st, info.ctx.backing_fs, 0, &info))
        info.notes.push_back("overlay, " + info.ctx.overlay_layer + " on " +
                             NoDiskNote(info.ctx.backing_fs, data_dir));
    } else if (!WalkFilesystem(info.probed_path, st, info.ctx.fs_type, 0, &info)) {
      info.notes.push_back(NoDiskNote(info.ctx.fs_type, info.probed_path));
    }
  }
  // Without direct I/O a loop device reads and writes its backing file
  // through the page cache (losetup's default): O_DIRECT stops there. The
  // file system's own reason (ext4 data=journal), found first, stands.
  if (const auto& loops = info.buffered_loop_disks;
      !loops.empty() && info.ctx.direct_buffered.empty()) {
    std::string names;
    for (size_t i = 0; i < loops.size(); ++i)
      names += (i == 0 ? "" : i + 1 == loops.size() ? " and " : ", ") + loops[i] + "'s";
    info.ctx.direct_buffered =
        names + (loops.size() == 1
                     ? " buffered I/O on its backing file (loop/dio=0; losetup --direct-io=on)"
                     : " buffered I/O on their backing files (loop/dio=0; losetup "
                       "--direct-io=on for each)");
  }
  // Top first: a filesystem over loopA and loopB on vda met loopA, vda, loopB.
  std::stable_partition(info.disks.begin(), info.disks.end(), [&](const std::string& d) {
    return std::find(info.top_disks.begin(), info.top_disks.end(), d) != info.top_disks.end();
  });
  if (!info.bottom_disks.empty()) {
    FillQueueSettings(info.bottom_disks.front(), &info.ctx);
    info.ctx.device = Join(info.bottom_disks, ",");
  } else if (!info.disks.empty()) {
    FillQueueSettings(info.disks.back(), &info.ctx);
  }
  // A loop device queues the job's requests itself (blk-mq), by its own
  // scheduler and nr_requests, before its backing file's disk sees any;
  // dm and md are bio-based and pass them down to the bottom disk's queue.
  if (!info.loop_disks.empty()) FillRequestQueue(info.loop_disks.front(), &info.ctx);
  // Readahead is the page cache's, per backing_dev_info: a filesystem's
  // files are read ahead by its superblock's bdi. For a block filesystem
  // that is the bdi of the device it was mounted from (the top of the
  // stack, whose queue/read_ahead_kb is that bdi's setting); btrfs sets up
  // a bdi of its own (at least 4 MiB, times the number of devices) and
  // ignores its devices' settings.
  if (!info.is_block_device && info.ctx.fs_type == "btrfs") {
    const std::string fsid = BtrfsFsid(info.probed_path);
    if (!fsid.empty()) info.fs_bdi = "/sys/fs/btrfs/" + fsid + "/bdi";
  }
  if (!info.fs_bdi.empty()) {
    if (auto v = ReadIntFile(info.fs_bdi + "/read_ahead_kb"); v.ok()) info.ctx.read_ahead_kb = *v;
  } else if (!info.top_disks.empty()) {
    if (auto v = ReadIntFile("/sys/block/" + info.top_disks.front() + "/queue/read_ahead_kb");
        v.ok())
      info.ctx.read_ahead_kb = *v;
  }
  return info;
}

TargetContext DescribeTarget(const std::string& path) {
  auto info = ResolveTarget(path);
  if (info.ok()) return std::move(info).value().ctx;
  TargetContext ctx;
  ctx.path = path;
  return ctx;
}

std::string TargetDeviceLabel(const TargetContext& ctx) {
  if (!ctx.device.empty()) return ctx.device;
  if (IsMemoryFs(ctx.fs_type)) return "none (" + ctx.fs_type + ": data in memory)";
  if (IsMemoryFs(ctx.backing_fs))
    return "none (" + ctx.fs_type + " on " + ctx.backing_fs + ": data in memory)";
  if (ctx.fs_type == "overlay" && ctx.overlay_layer.empty())
    return "unknown (overlay: the directory under it is not known)";
  if (!ctx.fs_type.empty()) return "none (" + ctx.fs_type + ": no local block device)";
  return "unknown";
}

std::optional<DioAlign> StatxDioAlign(const std::string& path) {
  struct statx stx {};
  if (statx(AT_FDCWD, path.c_str(), 0, STATX_DIOALIGN, &stx) != 0 ||
      (stx.stx_mask & STATX_DIOALIGN) == 0)
    return std::nullopt;
  return DioAlign{stx.stx_dio_offset_align, stx.stx_dio_mem_align};
}

namespace {

// The options that put an I/O at an offset: "offset=, blockalign=, any
// rw=...:N skip and zonerange= + zoneskip= (zonesize= without zonerange=)
// to multiples of 4096". A strided zone starts zonerange + zoneskip bytes
// after the last, so either can move every I/O of the zone off the grid.
std::string OffsetOptionsTo(const std::string& align) {
  return "offset=, blockalign=, any rw=...:N skip and zonerange= + zoneskip= (zonesize= without "
         "zonerange=) to multiples of " +
         align;
}

// The parts of an I/O at `offset` of `length` that are off `align`, each
// with the options that fix it ("the block sizes (`sizes`) to multiples of
// 4096"), appended to `parts` and `fixes`. An offset on the grid of a
// misaligned length (blockalign defaults to bs) is fixed with the length:
// only the length is named then.
void OffLengthAndOffset(uint64_t offset, uint64_t length, uint64_t align, const std::string& sizes,
                        std::vector<std::string>* parts, std::vector<std::string>* fixes) {
  const std::string a = std::to_string(align);
  const bool bad_length = length % align != 0;
  if (bad_length) {
    parts->push_back("length " + std::to_string(length));
    fixes->push_back(sizes + " to multiples of " + a);
  }
  if (offset % align != 0 && !(bad_length && offset % length == 0)) {
    parts->push_back("offset " + std::to_string(offset));
    fixes->push_back(OffsetOptionsTo(a));
  }
}

}  // namespace

std::string DiscardEinvalHint(int fd, uint64_t offset, uint64_t length) {
  struct stat st {};
  int lbs = 0;
  // A hole punch in a file takes any range: its EINVAL has other causes.
  if (fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode) || ioctl(fd, BLKSSZGET, &lbs) != 0 || lbs <= 0)
    return "";
  const uint64_t align = static_cast<uint64_t>(lbs);
  const std::string a = std::to_string(align);
  std::string o = "a discard needs block-aligned ranges: this device's logical block size is " + a +
                  " bytes (BLKSSZGET)";
  std::vector<std::string> parts;
  std::vector<std::string> fixes;
  OffLengthAndOffset(offset, length, align, "the trim block sizes (bs, bsrange, bssplit)", &parts,
                     &fixes);
  if (parts.empty())
    return o +
           ", and this trim was aligned to it: the EINVAL has another cause (a range past the "
           "device's end)";
  return o + "; this trim's " + Join(parts, " and ") + (parts.size() > 1 ? " are" : " is") +
         " not a multiple of it: set " + Join(fixes, "; set ");
}

std::string DirectIoEinvalHint(int fd, uint64_t offset, uint64_t length, const void* buf) {
  uint64_t off_align = 0;
  uint64_t mem_align = 0;
  std::string source;
  struct statx stx {};
  const bool have_statx = statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN | STATX_TYPE, &stx) == 0;
  if (have_statx && (stx.stx_mask & STATX_DIOALIGN)) {
    if (stx.stx_dio_offset_align == 0)
      return "this file system does not take direct I/O on this file: set direct=0";
    off_align = stx.stx_dio_offset_align;
    mem_align = stx.stx_dio_mem_align;
    source = "statx";
  } else if (int lbs = 0;
             have_statx && S_ISBLK(stx.stx_mode) && ioctl(fd, BLKSSZGET, &lbs) == 0 && lbs > 0) {
    off_align = static_cast<uint64_t>(lbs);  // the memory alignment is not known here
    source = "its logical block size";
  } else {
    return "the file system may not take direct I/O, or bs, the offsets or iomem_align are not "
           "aligned to its block size; try direct=0";
  }
  const std::string a = std::to_string(off_align);
  std::string o = "this " + std::string(S_ISBLK(stx.stx_mode) ? "device" : "file") +
                  " takes direct I/O in multiples of " + a + " bytes at offsets aligned to " + a;
  if (mem_align > 1) o += " and buffers aligned to " + std::to_string(mem_align);
  o += " (" + source + ")";
  std::vector<std::string> parts;
  std::vector<std::string> fixes;
  OffLengthAndOffset(offset, length, off_align, "the block sizes (bs, bsrange, bssplit)", &parts,
                     &fixes);
  const bool bad_buf = mem_align > 1 && reinterpret_cast<uintptr_t>(buf) % mem_align;
  if (parts.empty() && !bad_buf)
    return o + "; this I/O was aligned so, the EINVAL has another cause";
  if (bad_buf) {
    parts.push_back("buffer");
    fixes.push_back("iomem_align to a multiple of " + std::to_string(mem_align));
  }
  o += "; this I/O's " + Join(parts, " and ") + (parts.size() > 1 ? " are" : " is") + " not: set " +
       Join(fixes, "; set ");
  return o + ", or direct=0";
}

}  // namespace iobench::sys
