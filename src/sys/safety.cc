#include "sys/safety.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <map>
#include <sstream>
#include <string_view>

#include "iobench/engine.h"
#include "sys/host.h"
#include "sys/job_paths.h"
#include "sys/procfs.h"
#include "sys/strings.h"
#include "sys/target.h"

namespace iobench::sys {
namespace {

constexpr uint64_t kUnlimited = UINT64_MAX;

// /proc/swaps escapes blanks in names like mountinfo does (\040).
std::string UnescapeOctal(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() &&
        s.substr(i + 1, 3).find_first_not_of("01234567") == std::string::npos) {
      out.push_back(static_cast<char>(std::strtol(s.substr(i + 1, 3).c_str(), nullptr, 8)));
      i += 3;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

uint64_t Mul(uint64_t a, uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return UINT64_MAX;
  return a * b;
}

uint64_t Add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

std::string LimitText(uint64_t v) { return v == kUnlimited ? "unlimited" : std::to_string(v); }

uint64_t RlimValue(rlim_t v) { return v == RLIM_INFINITY ? kUnlimited : static_cast<uint64_t>(v); }

// The text after "KEY:" on /proc/self/status's line for KEY ("" if none).
std::string SelfStatusField(const std::string& key) {
  auto text = ReadTextFile("/proc/self/status");
  if (!text.ok()) return "";
  std::istringstream lines(*text);
  std::string line;
  while (std::getline(lines, line))
    if (line.rfind(key + ":", 0) == 0) return line.substr(key.size() + 1);
  return "";
}

// The stack each thread std::thread starts maps (pthread's default: 8 MiB
// under the usual ulimit -s); 0 if unknown.
uint64_t DefaultThreadStackBytes() {
  pthread_attr_t attr;
  size_t stack = 0;
  if (pthread_getattr_default_np(&attr) == 0) {
    (void)pthread_attr_getstacksize(&attr, &stack);
    pthread_attr_destroy(&attr);
  }
  return stack;
}

// CapEff bit from /proc/self/status.
bool HasCapability(int bit) {
  const std::string caps = SelfStatusField("CapEff");
  return !caps.empty() && (std::strtoull(caps.c_str(), nullptr, 16) >> bit) & 1;
}

// The real uid is the kernel's root: uid 0 in the initial user namespace
// (its /proc/self/ns/user inode is PROC_USER_INIT_INO). copy_process()
// does not apply RLIMIT_NPROC to that user (INIT_USER), with or without
// capabilities. Inside another user namespace uid 0 is some other user.
bool RealUidIsKernelRoot() {
  if (getuid() != 0) return false;
  char ns[64] = {};
  const ssize_t n = readlink("/proc/self/ns/user", ns, sizeof(ns) - 1);
  return n > 0 && std::string(ns, static_cast<size_t>(n)) == "user:[4026531837]";
}

// A bound loop device and the file (or device node) it reads and writes.
// A loop device registers no holder on its backing device, and a file has
// no holders at all: this is how a write to what lies under a mounted loop
// device is found.
struct LoopBacking {
  std::string name;  // "loop6"
  dev_t rdev = 0;    // the loop device's number
  // The backing file's identity (st_dev, st_ino), as the kernel keeps it
  // (LOOP_GET_STATUS64): a path can be renamed, unlinked or replaced.
  dev_t file_dev = 0;
  ino_t file_ino = 0;
  // The backing file is a block device node: its number.
  bool backs_block = false;
  dev_t backing_rdev = 0;
  // The backing file's name as sysfs shows it, for messages.
  std::string backing_file;
};

// Every bound loop device (/sys/block/loop*/loop/backing_file).
std::vector<LoopBacking> ReadLoopBackings() {
  std::vector<LoopBacking> out;
  for (const auto& name : ListDir("/sys/block")) {
    if (name.rfind("loop", 0) != 0) continue;
    auto file = ReadFirstLine("/sys/block/" + name + "/loop/backing_file");
    if (!file.ok() || file->empty()) continue;  // not bound
    auto rdev = DevForBlockName(name);
    if (!rdev.ok()) continue;
    LoopBacking l;
    l.name = name;
    l.rdev = *rdev;
    l.backing_file = *file;
    // d_path marks a backing file whose name was unlinked: the name no
    // longer leads to it (and may lead to another file now).
    constexpr std::string_view kDeleted = " (deleted)";
    const bool deleted =
        file->size() > kDeleted.size() &&
        file->compare(file->size() - kDeleted.size(), kDeleted.size(), kDeleted) == 0;
    const std::string node = "/dev/" + name;
    const int fd = open(node.c_str(), O_RDONLY | O_CLOEXEC);
    bool have_id = false;
    if (fd >= 0) {
      struct stat st;
      loop_info64 info{};
      if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == l.rdev &&
          ioctl(fd, LOOP_GET_STATUS64, &info) == 0) {
        have_id = true;
        l.file_dev = makedev(major(info.lo_device), minor(info.lo_device));
        l.file_ino = static_cast<ino_t>(info.lo_inode);
      }
      close(fd);
    }
    struct stat bst;
    if (!deleted && stat(file->c_str(), &bst) == 0 &&
        (!have_id || (bst.st_dev == l.file_dev && bst.st_ino == l.file_ino))) {
      if (!have_id) {
        have_id = true;
        l.file_dev = bst.st_dev;
        l.file_ino = bst.st_ino;
      }
      if (S_ISBLK(bst.st_mode)) {
        l.backs_block = true;
        l.backing_rdev = bst.st_rdev;
      }
    }
    if (have_id) out.push_back(std::move(l));
  }
  std::sort(out.begin(), out.end(),
            [](const LoopBacking& a, const LoopBacking& b) { return a.rdev < b.rdev; });
  return out;
}

// Loop devices nest only so deep in practice; this bounds a cycle as well.
constexpr int kMaxLoopDepth = 8;

// "which " before a reason that starts with a verb: "backs /dev/loop6,
// which is held by dm-0", "backs /dev/loop6, mounted at /mnt/m (ext4)".
std::string Which(const std::string& reason) {
  const bool verb = reason.rfind("is ", 0) == 0 || reason.rfind("backs ", 0) == 0;
  return (verb ? ", which " : ", ") + reason;
}

// A reason found on a loop device `dev` that the target backs, said of the
// target: "backs /dev/loop6, mounted at /mnt/m (ext4)", "backs /dev/loop6,
// which is held by dm-0".
std::string Backs(const std::string& dev, const std::string& reason) {
  return "backs " + dev + Which(reason);
}

// What one safety check has walked through: the loop devices, and every
// device and file met going down from the target (what it is over), so
// that a chain is followed once and never back up to where it came from.
struct Walk {
  const std::vector<LoopBacking>& loops;
  std::vector<dev_t> seen_devs;
  std::vector<std::pair<dev_t, ino_t>> seen_files;
  bool SeenDev(dev_t d) const {
    return std::find(seen_devs.begin(), seen_devs.end(), d) != seen_devs.end();
  }
  bool SeenFile(dev_t d, ino_t i) const {
    return std::find(seen_files.begin(), seen_files.end(), std::make_pair(d, i)) !=
           seen_files.end();
  }
};

// Which uses of a device count. All of them for the target, for what loop
// devices it backs and for a loop device's backing device. Under a
// device-mapper or md device (its slaves) the device's own holder is the
// one the target goes through and another holder is a sibling on other
// sectors (two LVs of one PV): holders and O_EXCL do not count there. For
// the disk of a partition only the disk's own mounts and loop devices
// over it count, not its other partitions.
struct Scope {
  bool partitions = true;
  bool holders = true;
  bool exclusive = true;
};

Status DownHazards(const std::string& name, dev_t rdev, Walk* walk, int depth,
                   std::vector<std::string>* reasons);

// Why writing to the target would destroy something in use. `st` is the
// target's stat: a block device (mounts, swap, holders, O_EXCL, for it and
// its partitions, as `scope` says) or a regular file; for both, every loop
// device it backs (or a partition of it backs) is checked the same way,
// recursively, but for those walked already (`walk`).
// `*name` receives the block device's name ("" for a file).
Status WriteHazards(const std::string& path, const struct stat& st, Walk* walk, const Scope& scope,
                    int depth, std::vector<std::string>* reasons, std::string* name_out) {
  name_out->clear();
  const std::vector<LoopBacking>& loops = walk->loops;
  // The reasons of loop device `l`, which the target (or its partition
  // `label`) backs.
  auto loop_hazards = [&](const LoopBacking& l, const std::string& label) -> Status {
    if (depth >= kMaxLoopDepth || walk->SeenDev(l.rdev)) return Status::Ok();
    const std::string dev = "/dev/" + l.name;
    struct stat lst {};
    lst.st_mode = S_IFBLK;
    lst.st_rdev = l.rdev;
    std::vector<std::string> sub;
    std::string sub_name;
    IOB_RETURN_IF_ERROR(WriteHazards(dev, lst, walk, Scope{}, depth + 1, &sub, &sub_name));
    for (const auto& r : sub) reasons->push_back(label + Backs(dev, r));
    return Status::Ok();
  };
  if (S_ISREG(st.st_mode)) {
    for (const auto& l : loops)
      if (l.file_dev == st.st_dev && l.file_ino == st.st_ino)
        IOB_RETURN_IF_ERROR(loop_hazards(l, ""));
    return Status::Ok();
  }
  if (!S_ISBLK(st.st_mode)) return Status::Ok();
  IOB_ASSIGN_OR_RETURN(std::string name, BlockNameForDev(st.st_rdev));
  *name_out = name;

  // The device and, for a whole disk, each of its partitions.
  std::vector<std::string> names = {name};
  std::string parent;
  if (scope.partitions && !IsPartition(name, &parent))
    for (const auto& p : PartitionsOf(name)) names.push_back(p);
  std::vector<std::pair<std::string, dev_t>> devs;
  for (const auto& n : names) {
    auto d = n == name ? Result<dev_t>(st.st_rdev) : DevForBlockName(n);
    if (d.ok()) devs.emplace_back(n, *d);
  }
  auto label = [&](const std::string& n) {
    return n == name ? std::string() : "partition " + n + " ";
  };

  std::vector<std::string> own;
  IOB_ASSIGN_OR_RETURN(auto mounts, ReadMountInfo());
  for (const auto& [n, d] : devs) {
    std::vector<std::string> points;
    for (const auto& m : mounts) {
      bool same = m.major == major(d) && m.minor == minor(d);
      struct stat src;
      if (!same && !m.source.empty() && m.source[0] == '/' && stat(m.source.c_str(), &src) == 0 &&
          S_ISBLK(src.st_mode) && src.st_rdev == d)
        same = true;
      if (same) AddUnique(&points, m.mount_point + " (" + m.fs_type + ")");
    }
    if (!points.empty()) own.push_back(label(n) + "mounted at " + Join(points, ", "));
  }

  if (auto swaps = ReadTextFile("/proc/swaps"); swaps.ok()) {
    std::istringstream lines(*swaps);
    std::string line;
    std::getline(lines, line);  // header
    while (std::getline(lines, line)) {
      std::istringstream f(line);
      std::string file;
      if (!(f >> file)) continue;
      file = UnescapeOctal(file);
      struct stat sw;
      if (stat(file.c_str(), &sw) != 0 || !S_ISBLK(sw.st_mode)) continue;
      for (const auto& [n, d] : devs)
        if (sw.st_rdev == d) own.push_back(label(n) + "is active swap (" + file + ")");
    }
  }

  for (const auto& [n, d] : devs) {
    if (!scope.holders) break;
    std::vector<std::string> holders = ListDir("/sys/class/block/" + n + "/holders");
    std::sort(holders.begin(), holders.end());
    for (auto& h : holders) {
      auto dm = ReadFirstLine("/sys/class/block/" + h + "/dm/name");
      if (dm.ok() && !dm->empty()) h += " (device-mapper " + *dm + ")";
    }
    if (!holders.empty()) own.push_back(label(n) + "is held by " + Join(holders, ", "));
  }

  // A mount or holder already explains the busy open; O_EXCL catches the
  // users the tables above do not show (another exclusive opener). A loop
  // device found below the target is opened by its /dev node, when it has
  // one that is that device.
  if (own.empty() && scope.exclusive) {
    struct stat node;
    if (depth == 0 ||
        (stat(path.c_str(), &node) == 0 && S_ISBLK(node.st_mode) && node.st_rdev == st.st_rdev)) {
      const int fd = open(path.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
      if (fd >= 0) {
        close(fd);
      } else if (errno == EBUSY) {
        own.push_back("is in use: opening it with O_EXCL failed (Device or resource busy)");
      } else if (depth == 0) {
        return ErrnoStatus("write safety check: open " + path + " with O_EXCL");
      }
    }
  }
  reasons->insert(reasons->end(), own.begin(), own.end());

  // What the device or its partitions back: loop devices over them.
  for (const auto& [n, d] : devs)
    for (const auto& l : loops)
      if (l.backs_block && l.backing_rdev == d) IOB_RETURN_IF_ERROR(loop_hazards(l, label(n)));
  return Status::Ok();
}

// A loop device's backing, named for a message: "/dev/loop8 (its backing
// device)", "/var/tmp/e.img (its backing file)".
std::string BackingText(const LoopBacking& l) {
  if (l.backs_block) {
    auto n = BlockNameForDev(l.backing_rdev);
    if (n.ok()) return "/dev/" + *n + " (its backing device)";
    return l.backing_file + " (its backing device)";
  }
  return l.backing_file + " (its backing file)";
}

// Why writing to block device `name` (`rdev`) destroys something in use
// through what the device is over, whose data its writes are: a loop
// device's backing device or file, the disk of a partition, the slaves of a
// device-mapper or md device. Each of those is checked as WriteHazards does
// (mounted, swap, loop devices over it, ...) and then what it is over in
// turn. Reasons are said of the target: "is over /dev/loop8 (its backing
// device), mounted at /mnt (ext4)", "is over e.img (its backing file),
// which backs /dev/loop8, mounted at /mnt (ext4)".
Status DownHazards(const std::string& name, dev_t rdev, Walk* walk, int depth,
                   std::vector<std::string>* reasons) {
  if (depth >= kMaxLoopDepth) return Status::Ok();
  // One step down: `what` is the device below, said as in the message.
  auto below_dev = [&](dev_t d, const std::string& what, const Scope& scope) -> Status {
    if (walk->SeenDev(d)) return Status::Ok();
    walk->seen_devs.push_back(d);
    auto n = BlockNameForDev(d);
    if (!n.ok()) return Status::Ok();  // gone since
    struct stat bst {};
    bst.st_mode = S_IFBLK;
    bst.st_rdev = d;
    std::vector<std::string> sub;
    std::string sub_name;
    IOB_RETURN_IF_ERROR(WriteHazards("/dev/" + *n, bst, walk, scope, depth + 1, &sub, &sub_name));
    IOB_RETURN_IF_ERROR(DownHazards(*n, d, walk, depth + 1, &sub));
    for (const auto& r : sub) reasons->push_back(what + Which(r));
    return Status::Ok();
  };
  for (const auto& l : walk->loops) {
    if (l.rdev != rdev) continue;
    if (l.backs_block) {
      IOB_RETURN_IF_ERROR(below_dev(l.backing_rdev, "is over " + BackingText(l), Scope{}));
    } else if (!walk->SeenFile(l.file_dev, l.file_ino)) {
      walk->seen_files.emplace_back(l.file_dev, l.file_ino);
      struct stat fst {};
      fst.st_mode = S_IFREG;
      fst.st_dev = l.file_dev;
      fst.st_ino = l.file_ino;
      std::vector<std::string> sub;
      std::string sub_name;
      IOB_RETURN_IF_ERROR(
          WriteHazards(l.backing_file, fst, walk, Scope{}, depth + 1, &sub, &sub_name));
      for (const auto& r : sub) reasons->push_back("is over " + BackingText(l) + Which(r));
    }
  }
  std::string parent;
  if (IsPartition(name, &parent)) {
    auto d = DevForBlockName(parent);
    if (d.ok())
      IOB_RETURN_IF_ERROR(
          below_dev(*d, "is a partition of /dev/" + parent,
                    Scope{.partitions = false, .holders = false, .exclusive = false}));
  }
  std::vector<std::string> slaves = ListDir("/sys/class/block/" + name + "/slaves");
  std::sort(slaves.begin(), slaves.end());
  for (const auto& s : slaves) {
    auto d = DevForBlockName(s);
    if (d.ok())
      IOB_RETURN_IF_ERROR(
          below_dev(*d, "is over /dev/" + s,
                    Scope{.partitions = true, .holders = false, .exclusive = false}));
  }
  return Status::Ok();
}

// The reasons for the target at `path` (stat `st`): its own uses and those
// of the loop devices over it (WriteHazards), then those of what it is
// over (DownHazards).
Status TargetHazards(const std::string& path, const struct stat& st,
                     const std::vector<LoopBacking>& loops, std::vector<std::string>* reasons,
                     std::string* name) {
  Walk walk{loops, {}, {}};
  if (S_ISBLK(st.st_mode)) walk.seen_devs.push_back(st.st_rdev);
  if (S_ISREG(st.st_mode)) walk.seen_files.emplace_back(st.st_dev, st.st_ino);
  IOB_RETURN_IF_ERROR(WriteHazards(path, st, &walk, Scope{}, 0, reasons, name));
  if (S_ISBLK(st.st_mode)) IOB_RETURN_IF_ERROR(DownHazards(*name, st.st_rdev, &walk, 0, reasons));
  return Status::Ok();
}

// `deleted`: the file is to be unlinked, not written ("unlink=1 at F:L",
// for the message); "" for a write. `doing` is the refused act ("write to",
// "trim"), `where` what names the file and makes the job write ("filename=
// /dev/loop3 at j.fio:4; rw=randwrite at j.fio:5"), "" for a bare path.
Status CheckWriteSafetyWith(const std::string& path, bool allow_mounted_write,
                            const std::vector<LoopBacking>& loops, const std::string& deleted = "",
                            const std::string& doing = "write to", const std::string& where = "") {
  if (allow_mounted_write) return Status::Ok();
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return ErrnoStatus("write safety check: stat " + path);
  if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) return Status::Ok();
  std::vector<std::string> reasons;
  std::string name;
  IOB_RETURN_IF_ERROR(TargetHazards(path, st, loops, &reasons, &name));
  if (reasons.empty()) return Status::Ok();
  if (!deleted.empty())
    return Status::Refused("refusing to delete " + path + " (" + deleted +
                           "): " + Join(reasons, "; ") +
                           "; set allow_mounted_write=1 to delete it anyway (the data under the "
                           "mounted filesystem goes with it once the loop device lets go)");
  std::string about = name;
  if (!where.empty()) about += (about.empty() ? "" : "; ") + where;
  return Status::Refused("refusing to " + doing + " " + path +
                         (about.empty() ? "" : " (" + about + ")") + ": " + Join(reasons, "; ") +
                         "; set allow_mounted_write=1 to " + (doing == "trim" ? "trim" : "write") +
                         " anyway (this can destroy the data on it)");
}

}  // namespace

Status CheckWriteSafety(const std::string& path, bool allow_mounted_write) {
  if (allow_mounted_write) return Status::Ok();
  return CheckWriteSafetyWith(path, false, ReadLoopBackings());
}

Status CheckLayoutSafety(const JobSpec& job, const std::string& path, uint64_t from, uint64_t to) {
  if (job.allow_mounted_write) return Status::Ok();
  struct stat st;
  // A regular file can only be in use as a loop device's backing file.
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return Status::Ok();
  const std::vector<LoopBacking> loops = ReadLoopBackings();
  if (loops.empty()) return Status::Ok();
  std::vector<std::string> reasons;
  std::string name;
  IOB_RETURN_IF_ERROR(TargetHazards(path, st, loops, &reasons, &name));
  if (reasons.empty()) return Status::Ok();
  const std::string opts = RegionOptionsAt(job);
  return Status::Refused("job '" + job.name + "': refusing to lay out " + path +
                         ", extending it from " + std::to_string(from) + " to " +
                         std::to_string(to) + " bytes" + (opts.empty() ? "" : " (" + opts + ")") +
                         ": " + Join(reasons, "; ") +
                         "; set allow_mounted_write=1 to extend it anyway (the loop device "
                         "then sees a larger image than its filesystem was made on)");
}

namespace {

// "proc, a pseudo file system ...; name A_FILE on a real file system": why
// a path on /proc, /sys and the like is refused, in every such refusal.
std::string PseudoFsWhy(const std::string& fs, const char* a_file) {
  return fs +
         ", a pseudo file system whose files are the kernel's settings and state, not "
         "storage; name " +
         a_file + " on a real file system";
}

Status SideFileSafetyWith(const std::string& path, const std::string& what,
                          const std::vector<LoopBacking>* loops_read) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return Status::Ok();  // the run makes it
  if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) return Status::Ok();
  if (S_ISREG(st.st_mode))
    if (const std::string fs = PseudoFsName(path); !fs.empty())
      return Status::Refused("refusing to write " + what + " to " + path + ": it is on " +
                             PseudoFsWhy(fs, "a regular file"));
  std::vector<LoopBacking> own;
  if (loops_read == nullptr) {
    own = ReadLoopBackings();
    loops_read = &own;
  }
  const std::vector<LoopBacking>& loops = *loops_read;
  // A regular file can only be in use as a loop device's backing file.
  if (S_ISREG(st.st_mode) && loops.empty()) return Status::Ok();
  std::vector<std::string> reasons;
  std::string name;
  const Status st2 = TargetHazards(path, st, loops, &reasons, &name);
  if (S_ISBLK(st.st_mode)) {
    // Any block device: what is written there lands on the device's data.
    // The uses found are said too; a failed look (no permission for
    // O_EXCL) does not make it less a device.
    if (name.empty())
      if (auto n = BlockNameForDev(st.st_rdev); n.ok()) name = *n;
    reasons.insert(reasons.begin(), "is a block device (this would be written over its data)");
  } else {
    IOB_RETURN_IF_ERROR(st2);
    if (reasons.empty()) return Status::Ok();
  }
  return Status::Refused("refusing to write " + what + " to " + path +
                         (name.empty() ? "" : " (" + name + ")") + ": " + Join(reasons, "; ") +
                         "; name a regular file that nothing else uses (allow_mounted_write=1 "
                         "does not apply to it)");
}

}  // namespace

Status CheckSideFileSafety(const std::string& path, const std::string& what) {
  return SideFileSafetyWith(path, what, nullptr);
}

Status CheckOutputFile(const std::string& path, const std::string& option,
                       const std::string& what) {
  if (path.empty()) return Status::Ok();
  const std::string named = option + "=" + path;
  if (const std::string why = DeletedCwdReason(path); !why.empty())
    return Status::NotFound(named + ": " + why +
                            "; give an absolute path or run from an existing directory");
  struct stat st;
  if (stat(path.c_str(), &st) == 0) {
    // A directory passes access(W_OK) and failed only after the run.
    if (S_ISDIR(st.st_mode)) return ErrnoStatus(named, EISDIR);
    if (access(path.c_str(), W_OK) != 0) return ErrnoStatus(named, errno);
    return CheckSideFileSafety(path, what);
  }
  // Only a name that is not there yet is made by the write: any other
  // failure to look it up (a name longer than NAME_MAX, a symbolic link
  // that loops, a directory on the way that cannot be searched) fails the
  // open after the run the same way. Not a directory is the directory's
  // fault, said below.
  if (errno != ENOENT && errno != ENOTDIR) return ErrnoStatus(named, errno);
  if (const std::string dev_dir = NewFileAmongDevices(path); !dev_dir.empty())
    return Status::Refused(named + ": " + path + " does not exist: " + AmongDevicesWhy(dev_dir));
  // A dangling symbolic link is followed by the open, which creates the
  // file it points to: that file's directory is the one to check.
  const Result<std::string> end = DanglingLinkEnd(path);
  if (!end.ok()) return end.status().WithContext(named);
  const std::string& file = *end;
  const std::string via =
      file == path ? "" : " (where the symbolic link " + path + " points: " + file + ")";
  const size_t slash = file.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : file.substr(0, slash);
  // access(dir, W_OK) alone passed a regular file as the directory
  // (--output=afile/x.json ran the whole sweep, then "Not a directory").
  if (stat(dir.c_str(), &st) != 0) return ErrnoStatus(named + ": directory " + dir + via, errno);
  if (!S_ISDIR(st.st_mode)) return ErrnoStatus(named + ": directory " + dir + via, ENOTDIR);
  // Before access(): a read-only /sys (in a container) is refused for what it is.
  if (const std::string fs = PseudoFsName(dir); !fs.empty())
    return Status::Refused(named + ": directory " + dir + via + " is on " +
                           PseudoFsWhy(fs, "a file"));
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    return ErrnoStatus(named + ": directory " + dir + via, errno);
  return Status::Ok();
}

std::string DeletedDuringRun(int fd, const std::string& named, const std::string& path,
                             uint64_t lines) {
  struct stat st, named_now;
  if (fd < 0 || fstat(fd, &st) != 0 || st.st_nlink != 0) return "";
  // A file that had no name to lose: a memfd or a test harness's temporary
  // file reached through /dev/stdout or /dev/fd/N (the path still leads to
  // the open file: the lines are where the caller reads them).
  if (stat(path.c_str(), &named_now) == 0 && named_now.st_dev == st.st_dev &&
      named_now.st_ino == st.st_ino)
    return "";
  return (named.empty()         ? "log file " + path
          : named == "--output" ? named + "=" + path
                                : named + ": " + path) +
         " was deleted during the run; its " + std::to_string(lines) + " line" +
         (lines == 1 ? "" : "s") + " are lost";
}

Result<int> OpenSideFile(const std::string& path, const std::string& what) {
  auto refuse = [&](const std::string& why) {
    return Status::Refused("refusing to write " + what + " to " + path + ": " + why +
                           "; remove it, or run where that name is free");
  };
  auto link_refusal = [&] {
    char target[4096];
    const ssize_t n = readlink(path.c_str(), target, sizeof target - 1);
    const std::string to = n > 0 ? " to " + std::string(target, static_cast<size_t>(n)) : "";
    return refuse("it is a symbolic link" + to + ", and iobench never writes through one");
  };
  // O_NOFOLLOW refuses a link at the last component; O_EXCL (after a stale
  // regular file is unlinked) refuses whatever was put there between the
  // look and the open. A regular file is replaced, never written in place:
  // a hard link planted at the name keeps the other name's contents.
  if (const std::string dev_dir = NewFileAmongDevices(path); !dev_dir.empty())
    return Status::Refused("refusing to write " + what + " to " + path + ": " +
                           AmongDevicesWhy(dev_dir));
  for (int attempt = 0;; ++attempt) {
    struct stat st;
    if (lstat(path.c_str(), &st) == 0) {
      if (S_ISLNK(st.st_mode)) return link_refusal();
      if (S_ISBLK(st.st_mode)) return SideFileSafetyWith(path, what, nullptr);  // names its uses
      if (!S_ISREG(st.st_mode)) return refuse("it exists and is not a regular file");
      IOB_RETURN_IF_ERROR(SideFileSafetyWith(path, what, nullptr));  // a loop device's backing
      if (unlink(path.c_str()) != 0 && errno != ENOENT)
        return ErrnoStatus("remove the stale " + path);
    }
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
      if (errno == ELOOP) return link_refusal();
      if (errno == EEXIST && attempt == 0) continue;  // reappeared: look again, once
      return ErrnoStatus("open " + path);
    }
    return fd;
  }
}

namespace {
// "filename=a:b at j.fio:5": the filename= (or opendir=) that put `path`
// in the job's file list, which may hold several (FileListStep); "" when
// none did.
std::string ListedBy(const JobSpec& job, const std::string& path) {
  for (const FileListStep& step : job.file_list) {
    if (step.setting >= job.settings.size() || step.kind == FileListStep::Kind::kCount) continue;
    bool listed = false;
    for (const std::string& name : step.names) {
      // As TargetPaths names it: the name, after directory= and a '/'.
      const bool named =
          path == name || (path.size() > name.size() + 1 &&
                           path.compare(path.size() - name.size(), name.size(), name) == 0 &&
                           path[path.size() - name.size() - 1] == '/');
      listed |= step.kind == FileListStep::Kind::kNames ? named : path.rfind(name + "/", 0) == 0;
    }
    if (!listed) continue;
    const OptionSetting& s = job.settings[step.setting];
    return s.name + "=" + s.value + " at " + s.Where();
  }
  return "";
}

// "filename=a:b at j.fio:5; rw=write at j.fio:6": the option that put
// `path` in the job's files, then `why` (what the job does to it).
std::string TargetWhere(const JobSpec& job, const std::string& path, const std::string& why) {
  std::string where = ListedBy(job, path);
  for (const char* o : {"filename", "opendir", "directory", "filename_format"})
    if (where.empty() && job.FindSetting(o) != nullptr) where = OptionAt(job, o, "");
  if (!why.empty()) where += (where.empty() ? "" : "; ") + why;
  return where;
}

// What makes the job write or trim: its rw=, or the log it replays (whose
// entries set the directions: rw= says nothing of them).
std::string WritesBecause(const JobSpec& job) {
  if (!job.read_iolog.empty())
    return OptionAt(job, "read_iolog", job.read_iolog) + ", whose log " +
           (HasWrite(job.rw) ? "writes" : "trims");
  return std::string("rw=") + RwModeName(job.rw) + " at " + OptionWhere(job, "rw");
}
}  // namespace

Status PseudoFsRefusal(const JobSpec& job, const std::string& path, const std::string& fs,
                       const std::string& doing, const std::string& why) {
  std::string where = TargetWhere(job, path, why);
  if (!where.empty()) where = " (" + where + ")";
  return Status::Refused("job '" + job.name + "': refusing to " + doing + " " + path + where +
                         ": it is on " + PseudoFsWhy(fs, "a file"));
}

Status CheckJobsWriteSafety(const std::vector<JobSpec>& jobs) {
  // Read once: a job may name thousands of files.
  std::vector<LoopBacking> loops;
  bool loops_read = false;
  for (const auto& job : jobs) {
    // Files every job writes besides its targets, reading or not, whatever
    // allow_mounted_write says: the buffer file (truncated to the buffers
    // and written through the mapping) and the I/O log.
    const std::pair<std::string, std::string> side[] = {
        {job.mem_file, "the I/O buffers (" + OptionAt(job, "mem", job.mem_file) +
                           "; the file is truncated to their size)"},
        {job.write_iolog, "the I/O log (" + OptionAt(job, "write_iolog", job.write_iolog) + ")"},
    };
    for (const auto& [path, what] : side) {
      if (path.empty() || access(path.c_str(), F_OK) != 0) continue;
      // A directory: the open would fail once the job runs (err=21 after
      // "Starting"), where a missing directory above it is refused here.
      if (struct stat dst; stat(path.c_str(), &dst) == 0 && S_ISDIR(dst.st_mode))
        return Status::Invalid("job '" + job.name + "': " + what + ": " + path +
                               " is a directory; name a file");
      if (!loops_read) {
        loops = ReadLoopBackings();
        loops_read = true;
      }
      Status st = SideFileSafetyWith(path, what, &loops);
      if (!st.ok()) return st.WithContext("job '" + job.name + "'");
    }
    // unlink=1 and unlink_each_loop=1 remove a read job's files too: an
    // image under a mounted loop device is gone with its filesystem's data.
    const bool deletes = job.unlink || job.unlink_each_loop;
    if (!JobWrites(job) && !deletes) continue;
    // Not storage: a write or trim of a /proc or /sys file changes the
    // kernel's settings (allow_mounted_write is about mounted data, not this).
    if (JobWrites(job) && !DisklessEngine(job.ioengine))
      for (const auto& path : JobFilePaths(job)) {
        struct stat st;
        if (stat(path.c_str(), &st) == 0 && (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)))
          continue;  // a device node's file system says nothing about the device
        if (const std::string fs = PseudoFsName(path); !fs.empty())
          return PseudoFsRefusal(job, path, fs, HasWrite(job.rw) ? "write to" : "trim",
                                 WritesBecause(job));
      }
    if (job.allow_mounted_write) continue;
    for (const auto& path : JobFilePaths(job)) {
      struct stat st;
      // A file that does not exist yet is laid out: nothing to destroy.
      if (stat(path.c_str(), &st) != 0 || !(S_ISBLK(st.st_mode) || S_ISREG(st.st_mode))) continue;
      // unlink removes regular files only (a device node stays).
      if (!JobWrites(job) && !S_ISREG(st.st_mode)) continue;
      if (!loops_read) {
        loops = ReadLoopBackings();
        loops_read = true;
      }
      // A regular file can only be in use as a loop device's backing file.
      if (S_ISREG(st.st_mode) && loops.empty()) continue;
      const char* unlink = job.unlink ? "unlink" : "unlink_each_loop";
      Status st2 =
          JobWrites(job)
              ? CheckWriteSafetyWith(path, false, loops, "", HasWrite(job.rw) ? "write to" : "trim",
                                     TargetWhere(job, path, WritesBecause(job)))
              : CheckWriteSafetyWith(path, false, loops,
                                     std::string(unlink) + "=1 at " + OptionWhere(job, unlink));
      if (!st2.ok()) return st2.WithContext("job '" + job.name + "'");
    }
  }
  return Status::Ok();
}

std::string OptionWhere(const JobSpec& job, std::string_view option) {
  for (auto it = job.settings.rbegin(); it != job.settings.rend(); ++it) {
    if (it->name == option && !it->file.empty())
      return it->line > 0 ? it->file + ":" + std::to_string(it->line) : it->file;
  }
  if (!job.job_file.empty())
    return job.line > 0 ? job.job_file + ":" + std::to_string(job.line) : job.job_file;
  return "<cmdline>";
}

std::string OptionAt(const JobSpec& job, std::string_view option, const std::string& value) {
  const OptionSetting* s = job.FindSetting(std::string(option));
  if (s == nullptr) return std::string(option) + "=" + value;
  return s->name + "=" + (s->value.empty() ? value : s->value) + " at " + OptionWhere(job, option);
}

std::string FilesOptionAt(const JobSpec& job) {
  for (const char* o : {"filename", "opendir", "directory", "filename_format"})
    if (job.FindSetting(o) != nullptr) return OptionAt(job, o, "");
  return "";
}

bool NamesFilesOption(const JobSpec& job, const std::string& message) {
  const std::string where = FilesOptionAt(job);
  if (message.find(where) != std::string::npos) return true;
  const size_t at = where.rfind(" at ");
  return at != std::string::npos &&
         message.find(where.substr(0, at) + " (" + where.substr(at + 4) + ")") != std::string::npos;
}

std::string JobFileWhat(const JobSpec& job) {
  // Which option names the job's files: filename=, the job's name, or
  // filename_format (its default when unset).
  const std::string named_by =
      !job.filenames.empty() ? OptionAt(job, "filename", job.filenames.front())
      : JobNameIsTarget(job) ? "the job's name"
                             : OptionAt(job, "filename_format", job.filename_format);
  return "a file job '" + job.name + "' " + (JobWrites(job) ? "writes" : "reads") + " (" +
         named_by + ")";
}

std::string RegionOptionsAt(const JobSpec& job) {
  std::string out;
  for (const char* o : {"offset", "offset_increment", "file_append", "size", "filesize"})
    if (job.FindSetting(o) != nullptr) out += (out.empty() ? "" : ", ") + OptionAt(job, o, "");
  return out;
}

Status CheckReadonlyOptions(const JobSpec& job) {
  const std::string who = "--readonly: job '" + job.name + "'";
  if (JobWrites(job) && !job.read_iolog.empty())  // rw came from the log
    return Status::Refused(who + " replays writes or trims (read_iolog " + job.read_iolog + " at " +
                           OptionWhere(job, "read_iolog") +
                           "; replay_skip=write,trim replays its reads alone, which fio does "
                           "under --readonly)");
  // A cpuio job runs its chunks as reads whatever rw= says, and fio 3.33
  // still refuses a write or trim rw= for it under --readonly (it checks
  // the option, for every engine).
  const bool cpuio = job.ioengine == "cpuio";
  const RwMode rw = cpuio ? job.rw_given : job.rw;
  if (cpuio ? HasWrite(rw) || HasTrim(rw) : JobWrites(job)) {
    const char* what = HasWrite(rw) ? (HasTrim(rw) ? "writes and trims" : "writes") : "trims";
    return Status::Refused(who + " " + what + " (rw=" + RwModeName(rw) + " at " +
                           OptionWhere(job, "rw") +
                           (cpuio ? "; its cpuio chunks write nothing, but fio 3.33 refuses "
                                    "the direction under --readonly too"
                                  : "") +
                           ")");
  }
  if (job.unlink)
    return Status::Refused(who + " deletes its files (unlink=1 at " + OptionWhere(job, "unlink") +
                           ")");
  // Its reads are fallocate(FALLOC_FL_KEEP_SIZE) through a read-write
  // descriptor: they allocate the file's holes (fio 3.33 runs them).
  if (job.ioengine == "falloc")
    return Status::Refused(who + " allocates blocks of its files (ioengine=falloc at " +
                           OptionWhere(job, "ioengine") +
                           ": a falloc read is fallocate(FALLOC_FL_KEEP_SIZE))");
  // Their calls are the job: fio 3.33 runs both under --readonly.
  if (job.ioengine == "filecreate" || job.ioengine == "filedelete")
    return Status::Refused(who + (job.ioengine == "filecreate" ? " creates" : " deletes") +
                           " its files (ioengine=" + job.ioengine + " at " +
                           OptionWhere(job, "ioengine") + ")");
  // Between loops: a read job's next loop then finds its file gone.
  if (job.unlink_each_loop)
    return Status::Refused(who + " deletes its files (unlink_each_loop=1 at " +
                           OptionWhere(job, "unlink_each_loop") + ")");
  return Status::Ok();
}

namespace {
// RegionOptionsAt, or the values when no setting says where they came from.
std::string RegionOrSize(const JobSpec& job) {
  std::string opts = RegionOptionsAt(job);
  if (!opts.empty()) return opts;
  if (job.offset > 0) opts = "offset=" + std::to_string(job.offset) + ", ";
  return opts + "size=" + std::to_string(job.size);
}
}  // namespace

Status CheckReadonly(const JobSpec& job) {
  IOB_RETURN_IF_ERROR(CheckReadonlyOptions(job));
  const std::string who = "--readonly: job '" + job.name + "'";
  // mem=mmap:FILE sizes FILE to the buffers (ftruncate) and maps it: one
  // that exists loses its data. (A file the run creates is its own scratch
  // space, removed at the end.) The null engine allocates buffers too.
  if (!job.mem_file.empty() && access(job.mem_file.c_str(), F_OK) == 0)
    return Status::Refused(who + " would truncate " + job.mem_file +
                           " to the size of its buffers (" + OptionAt(job, "mem", job.mem_file) +
                           ")");
  // verify= on a job that does not write only checks what it reads (as
  // fio's read jobs with verify do): nothing to refuse. A writing job with
  // verify was refused above for its rw.
  // The null engine opens, creates and lays out nothing (writes are still
  // refused above, as fio refuses them).
  if (DisklessEngine(job.ioengine)) return Status::Ok();
  // Each file's region: size= is split among a clone's files (fio's
  // sys::SizeShare, as ResolveTargets lays them out); filesize= sizes each
  // file itself, which the layout checks. A read of nrfiles=3 size=96k
  // on three 32 KiB files was refused as extending each to 96 KiB.
  std::map<std::string, uint64_t> regions;  // path -> the largest region
  std::vector<std::string> order;
  for (int n = 0; n < static_cast<int>(std::max<uint32_t>(1, job.numjobs)); ++n) {
    const std::vector<std::string> paths = TargetPaths(job, n);
    for (size_t i = 0; i < paths.size(); ++i) {
      const std::string& path = paths[i];
      const uint64_t share =
          job.size > 0 && job.filesize_min == 0
              ? Add(Add(job.offset, static_cast<uint64_t>(n) * job.offset_increment),
                    SizeShare(job, i, paths.size()))
              : 0;
      auto [it, fresh] = regions.emplace(path, share);
      if (fresh) order.push_back(path);
      it->second = std::max(it->second, share);
    }
  }
  for (const auto& path : order) {
    const uint64_t region = regions[path];
    struct stat st;
    if (stat(path.c_str(), &st) != 0) {
      if (errno == ENOENT)
        return Status::Refused(who + " would create and lay out " + path + " (it does not exist)");
      return ErrnoStatus("--readonly: stat " + path);
    }
    if (S_ISREG(st.st_mode) && region > static_cast<uint64_t>(st.st_size))
      return Status::Refused(who + " would extend " + path + " from " + std::to_string(st.st_size) +
                             " to " + std::to_string(region) + " bytes (" + RegionOrSize(job) +
                             ")");
  }
  return Status::Ok();
}

std::string MemoryLimitText() {
  struct rlimit as {};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    return "ulimit -v, now " + std::to_string(as.rlim_cur / 1024) + " KiB";
  return "the memory limit: ulimit -v, the cgroup's memory.max";
}

std::string OutOfMemoryText(const std::string& what) {
  return "out of memory: " + what + "; reduce numjobs, iodepth, bs or nrfiles, or raise " +
         MemoryLimitText();
}

Status OutOfMemory(const std::string& what) {
  return Status(Status::Code::kResourceLimit, OutOfMemoryText(what), ENOMEM);
}

std::string OpenFilesLimitHint(int err) {
  struct rlimit r {};
  if (err != EMFILE || getrlimit(RLIMIT_NOFILE, &r) != 0) return "";
  return "; the process has as many descriptors open as RLIMIT_NOFILE allows (ulimit -n, now " +
         LimitText(RlimValue(r.rlim_cur)) + ", hard limit " + LimitText(RlimValue(r.rlim_max)) +
         "): raise it, or lower numjobs or nrfiles (openfiles=N keeps fewer open at once)";
}

std::string ThreadAddressSpaceHint() {
  struct rlimit as {};
  if (getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur == RLIM_INFINITY) return "";
  const uint64_t stack = DefaultThreadStackBytes();
  return "ulimit -v, now " + std::to_string(as.rlim_cur / 1024) +
         " KiB, which each thread's stack" +
         (stack != 0 ? " of " + HumanBytes(stack) : std::string()) + " counts against";
}

Result<SystemLimits> ReadSystemLimits() {
  SystemLimits l;
  // /proc/meminfo and threads-max serve only this advisory check: where
  // they cannot be read (a container's masked /proc, a bind-mounted
  // /dev/null) that part is skipped, as fio runs without them.
  auto avail = MemInfoBytes("MemAvailable");
  l.mem_available = avail.ok() ? *avail : kUnlimited;
  struct rlimit r;
  if (getrlimit(RLIMIT_NOFILE, &r) != 0) return ErrnoStatus("getrlimit(RLIMIT_NOFILE)");
  l.nofile_soft = RlimValue(r.rlim_cur);
  l.nofile_hard = RlimValue(r.rlim_max);
  if (getrlimit(RLIMIT_NPROC, &r) != 0) return ErrnoStatus("getrlimit(RLIMIT_NPROC)");
  l.nproc_soft = RlimValue(r.rlim_cur);
  if (getrlimit(RLIMIT_MEMLOCK, &r) != 0) return ErrnoStatus("getrlimit(RLIMIT_MEMLOCK)");
  l.memlock_soft = RlimValue(r.rlim_cur);
  auto tmax = ReadIntFile("/proc/sys/kernel/threads-max");
  l.threads_max = tmax.ok() && *tmax > 0 ? static_cast<uint64_t>(*tmax) : kUnlimited;
  // Without AIO support in the kernel these files are missing; libaio jobs
  // then fail in io_setup with their own message.
  auto amax = ReadIntFile("/proc/sys/fs/aio-max-nr");
  auto anr = ReadIntFile("/proc/sys/fs/aio-nr");
  l.aio_max_nr = amax.ok() ? static_cast<uint64_t>(*amax) : kUnlimited;
  l.aio_nr = anr.ok() ? static_cast<uint64_t>(*anr) : 0;
  l.cap_ipc_lock = HasCapability(14);  // CAP_IPC_LOCK
  auto release = KernelRelease();
  l.rings_charged = release.ok() && KernelChargesRings(*release);
  // CAP_SYS_RESOURCE or CAP_SYS_ADMIN, or a real uid of root.
  l.nproc_exempt = HasCapability(24) || HasCapability(21) || RealUidIsKernelRoot();
  auto maps = ReadIntFile("/proc/sys/vm/max_map_count");
  l.max_map_count = maps.ok() && *maps > 0 ? static_cast<uint64_t>(*maps) : kUnlimited;
  if (DIR* d = opendir("/proc/self/fd")) {
    while (const dirent* e = readdir(d)) l.fds_in_use += e->d_name[0] != '.';
    closedir(d);
    if (l.fds_in_use > 0) --l.fds_in_use;  // the directory's own
  }
  if (getrlimit(RLIMIT_AS, &r) == 0) l.as_soft = RlimValue(r.rlim_cur);
  if (l.as_soft != kUnlimited) {
    l.as_in_use = std::strtoull(SelfStatusField("VmSize").c_str(), nullptr, 10) * 1024;
    l.thread_stack = DefaultThreadStackBytes();
  }
  if (std::FILE* f = std::fopen("/proc/self/maps", "re")) {
    for (int c; (c = std::getc(f)) != EOF;) l.maps_in_use += c == '\n';
    std::fclose(f);
  }
  return l;
}

namespace {
// Adds "job 'NAME': WHAT" to a limit's list of the jobs that need it (at
// most four, then "...").
void AddJobWhy(std::string* why, uint32_t* count, const JobSpec& job, const std::string& what) {
  constexpr uint32_t kMaxJobs = 4;
  if (++*count > kMaxJobs) {
    if (*count == kMaxJobs + 1) *why += "; ...";
    return;
  }
  *why += (why->empty() ? "job '" : "; job '") + job.name + "': " + what;
}
}  // namespace

bool KernelChargesRings(const std::string& release) {
  int major = 0, minor = 0;
  if (std::sscanf(release.c_str(), "%d.%d", &major, &minor) != 2) return false;
  // 5.12 moved the rings to memcg accounting; 6.14 made them memory
  // regions (io_create_region), which __io_account_mem charges again.
  const int v = major * 1000 + minor;
  return v < 5012 || v >= 6014;
}

uint64_t IoUringRingBytes(uint64_t iodepth) {
  constexpr uint64_t kPage = 4096, kCacheLine = 64;
  constexpr uint64_t kRingsHeader = 192;  // struct io_rings up to its cqes[]
  constexpr uint64_t kCqe = 16, kSqe = 64, kSqIndex = 4;
  auto pow2 = [](uint64_t v) {
    uint64_t p = 1;
    while (p < v) p <<= 1;
    return p;
  };
  auto pages = [&](uint64_t b) { return (b + kPage - 1) / kPage * kPage; };
  // The entries as engines/io_uring.cc SetupRing asks for them, rounded up
  // by the kernel.
  const uint64_t sq = pow2(std::clamp<uint64_t>(iodepth, 1, 32768));
  const uint64_t cq = pow2(std::clamp<uint64_t>(2 * iodepth, 2 * sq, 65536));
  const uint64_t rings = (kRingsHeader + cq * kCqe + kCacheLine - 1) / kCacheLine * kCacheLine;
  return pages(rings + sq * kSqIndex) + pages(sq * kSqe);
}

// ComputeResourceNeeds counts 16 descriptors besides the targets and the
// logs: stdio, the ones iobench opens for itself (a timer, the report)
// and slack. Descriptors open before the run count past that: up to 8 fit
// in it (a shell's, a test runner's), and each one more is added.
constexpr uint64_t kBaseFds = 16;
constexpr uint64_t kOwnFds = 8;
uint64_t InheritedFdsBeyondBase(uint64_t in_use) {
  return in_use + kOwnFds > kBaseFds ? in_use + kOwnFds - kBaseFds : 0;
}

// sizeof(Verifier::Entry) (run/verify.h), which sys does not include.
constexpr uint64_t kVerifyEntryBytes = 8;

ResourceNeeds ComputeResourceNeeds(const std::vector<JobSpec>& jobs) {
  ResourceNeeds n;
  // stdin/out/err, log files, the status thread's timer and slack.
  n.open_files = 16;
  n.threads = 2;             // main thread and the status/ETA thread
  uint64_t replay_bufs = 0;  // the largest buffers of a replay job (buffer_bytes_why)
  for (const auto& job : jobs) {
    const uint64_t clones = std::max<uint32_t>(1, job.numjobs);
    const uint64_t depth = std::max<uint32_t>(1, job.iodepth);
    const uint64_t bufs = Mul(Mul(depth, BufferBs(job)), clones);
    n.buffer_bytes = Add(n.buffer_bytes, bufs);
    if (job.read_iolog_max_len_line != 0 && bufs > replay_bufs) {
      replay_bufs = bufs;
      n.buffer_bytes_why = "job '" + job.name + "': " + HumanBytes(BufferBs(job)) +
                           " at read_iolog " + ReadIologPath(job) + ":" +
                           std::to_string(job.read_iolog_max_len_line);
    }
    // The null engine opens nothing (the run core resolves its targets
    // without touching them).
    uint64_t fds_per_clone = DisklessEngine(job.ioengine) ? 0 : JobFilesPerClone(job);
    if (job.ioengine == "io_uring" || job.ioengine == "io_uring_cmd") fds_per_clone += 1;
    n.open_files = Add(n.open_files, Mul(fds_per_clone, clones));
    // A replay with io_uring's registered files keeps every file of its log
    // open for the run (run/replay.cc ReplayFollowsFileLines); without them
    // it opens and closes the files as the log's lines say. The message
    // names the option, which the user may not connect with the count.
    if (job.RegistersFiles() && !job.read_iolog.empty() && job.replay_redirect.empty() &&
        n.open_files_why.empty()) {
      std::string opts;
      if (job.registerfiles) opts = OptionAt(job, "registerfiles", "1");
      if (job.sqthread_poll)
        opts += (opts.empty() ? "" : " and ") + OptionAt(job, "sqthread_poll", "1");
      const size_t files = job.filenames.size();
      n.open_files_why =
          "job '" + job.name + "' keeps all " + std::to_string(files) + " file" +
          (files == 1 ? "" : "s") + " of its read_iolog open" +
          (clones > 1 ? " in each of its " + std::to_string(clones) + " clones" : std::string()) +
          " for the run, as " + opts +
          (job.registerfiles && job.sqthread_poll ? " register" : " registers") +
          " them with io_uring; without " +
          (job.registerfiles && job.sqthread_poll ? "them" : "it") +
          " the replay would open and close them as the log's lines say";
    }
    // A replay that follows its log's open and close lines holds as many
    // files open as the log does at its most (PrepareReplayJob): the count
    // is the log's, which the limit alone did not say.
    if (!DisklessEngine(job.ioengine) && job.read_iolog_open_max > 1 && n.open_files_why.empty())
      n.open_files_why =
          "job '" + job.name + "' holds up to " + std::to_string(job.read_iolog_open_max) +
          " files open at once" +
          (clones > 1 ? " in each of its " + std::to_string(clones) + " clones" : std::string()) +
          ", as the 'open' and 'close' lines of its " +
          OptionAt(job, "read_iolog", job.read_iolog) + " do; the replay opens and closes them " +
          "as the log says";
    // Many files of a job's own, all open at once: openfiles= is the other
    // way out, which the limit alone did not say. Registered files are all
    // open (openfiles= below their count is refused): the option that
    // registers them is the way out then.
    if (const uint32_t files = JobFilesPerClone(job); !DisklessEngine(job.ioengine) && files > 1 &&
                                                      job.read_iolog.empty() &&
                                                      n.open_files_why.empty()) {
      const std::string held =
          "job '" + job.name + "' keeps its " + std::to_string(files) + " files open at once" +
          (clones > 1 ? " in each of its " + std::to_string(clones) + " clones" : std::string());
      if (job.RegistersFiles()) {
        const std::string opt = job.registerfiles ? OptionAt(job, "registerfiles", "1")
                                                  : OptionAt(job, "sqthread_poll", "1");
        n.open_files_why = held + ", as " + opt +
                           " registers them all with io_uring; without it, openfiles=N would "
                           "keep fewer open";
      } else if (job.openfiles == 0) {
        n.open_files_why = "or openfiles=N: " + held;
      }
    }
    // Log files stay open for the run (the log writer appends as it goes;
    // fio keeps its logs in memory and opens each at the end): one per
    // clone and log (slat, clat and lat for write_lat_log), or one per job
    // with per_job_logs=0.
    uint64_t logs = (job.bw_log_set || !job.write_bw_log.empty()) +
                    (job.iops_log_set || !job.write_iops_log.empty()) +
                    (job.hist_log_set || !job.write_hist_log.empty()) +
                    ((job.lat_log_set || !job.write_lat_log.empty())
                         ? uint64_t{!job.disable_slat} + !job.disable_clat + !job.disable_lat
                         : 0);
    n.log_files = Add(n.log_files, Mul(logs, job.per_job_logs ? clones : 1));
    if (!job.write_iolog.empty()) n.log_files = Add(n.log_files, clones);
    n.threads = Add(n.threads, clones);
    n.stack_threads = Add(n.stack_threads, clones);
    // sqthread_poll: each clone's ring has a kernel SQPOLL thread of the
    // user's, which RLIMIT_NPROC counts (io_uring_setup fails with EAGAIN).
    if (job.ioengine.rfind("io_uring", 0) == 0 && job.sqthread_poll)
      n.threads = Add(n.threads, clones);
    // verify_async: each clone's check threads (src/run/verify_async.h).
    if (job.verify.type != VerifyType::kNone) {
      n.threads = Add(n.threads, Mul(job.verify.async, clones));
      n.stack_threads = Add(n.stack_threads, Mul(job.verify.async, clones));
    }
    // The verify map: 8 bytes a block of each file's region (Verifier::
    // AddFile), at least what size= gives a writing job (its files are
    // made that large; a reader's region may be clipped to its file).
    const uint64_t vbs = job.bs[static_cast<int>(Ddir::kWrite)].min;
    const uint64_t interval =
        job.verify.interval != 0 && job.verify.interval < vbs ? job.verify.interval : vbs;
    if (job.verify.type != VerifyType::kNone && !DisklessEngine(job.ioengine) && HasWrite(job.rw) &&
        job.size != 0 && interval != 0) {
      const uint64_t files = std::max<uint32_t>(1, JobFilesPerClone(job));
      const uint64_t blocks = Mul(files, job.size / files / interval);
      const uint64_t bytes = Mul(Mul(blocks, kVerifyEntryBytes), clones);
      if (bytes > 0 && (n.verify_bytes_why.empty() || bytes > n.verify_bytes)) {
        n.verify_bytes_why =
            "job '" + job.name + "': " + OptionAt(job, "size", HumanBytes(job.size)) +
            " / verify_interval=" + std::to_string(interval) + ": " + std::to_string(blocks) +
            " blocks" +
            (clones > 1 ? " in each of " + std::to_string(clones) + " clones" : std::string());
      }
      n.verify_bytes = Add(n.verify_bytes, bytes);
    }
    // io_setup(iodepth) per clone; the kernel charges aio-nr what was asked for.
    if (job.ioengine == "libaio") {
      n.aio_events = Add(n.aio_events, Mul(depth, clones));
      AddJobWhy(&n.aio_events_why, &n.aio_events_jobs, job,
                OptionAt(job, "iodepth", std::to_string(depth)) +
                    (clones > 1 ? " x " + OptionAt(job, "numjobs", std::to_string(clones)) : ""));
    }
    if (job.ioengine.rfind("io_uring", 0) == 0)
      n.ring_bytes = Add(n.ring_bytes, Mul(IoUringRingBytes(depth), clones));
    if (job.ioengine.rfind("io_uring", 0) == 0 && job.fixedbufs) {
      n.locked_bytes = Add(n.locked_bytes, bufs);
      AddJobWhy(&n.locked_bytes_why, &n.locked_bytes_jobs, job,
                OptionAt(job, "fixedbufs", "1") + ", " + HumanBytes(bufs));
    }
    n.lockmem_bytes = Add(n.lockmem_bytes, Mul(job.lockmem, clones));
  }
  return n;
}

namespace {

// One failing limit: which one (the order of the message), how much of it
// the jobs need (the phase that needs the most is reported), and the text
// after "LABEL: ".
struct LimitError {
  int kind = 0;
  uint64_t need = 0;
  std::string label;
  std::string text;
};

std::vector<LimitError> LimitErrors(const ResourceNeeds& n, const SystemLimits& l) {
  std::vector<LimitError> errs;
  if (n.buffer_bytes > l.mem_available)
    errs.push_back({0, n.buffer_bytes, "memory",
                    "the I/O buffers need " + HumanBytes(n.buffer_bytes) +
                        " (iodepth x largest bs x numjobs, summed over jobs) but MemAvailable is " +
                        HumanBytes(l.mem_available) + "; lower iodepth, bs or numjobs" +
                        (n.buffer_bytes_why.empty()
                             ? std::string()
                             : " (in a replay, bs is the log's longest read or write: " +
                                   n.buffer_bytes_why + ")")});
  // Up to the hard limit iobench raises the soft one itself
  // (CheckResourceLimits): `ulimit -n`'s usual 1024 is only the soft limit.
  if (n.open_files > l.nofile_soft && n.open_files > l.nofile_hard)
    errs.push_back({1, n.open_files, "open files",
                    "the jobs need " + std::to_string(n.open_files) + " file descriptors" +
                        (InheritedFdsBeyondBase(l.fds_in_use) != 0
                             ? " (" + std::to_string(l.fds_in_use) +
                                   " were open before the run, stdio included)"
                             : std::string()) +
                        " but RLIMIT_NOFILE is " + LimitText(l.nofile_soft) + " (hard limit " +
                        LimitText(l.nofile_hard) +
                        "); raise the hard limit (nofile in /etc/security/limits.conf), then "
                        "`ulimit -n " +
                        std::to_string(n.open_files) + "`" +
                        (n.open_files_why.empty() ? "" : " (" + n.open_files_why + ")")});
  if (!l.nproc_exempt && n.threads > l.nproc_soft)
    errs.push_back({2, n.threads, "threads",
                    "the jobs need " + std::to_string(n.threads) + " threads but RLIMIT_NPROC is " +
                        LimitText(l.nproc_soft) + "; raise it with `ulimit -u " +
                        std::to_string(n.threads) + "`"});
  if (n.threads > l.threads_max)
    errs.push_back({3, n.threads, "threads",
                    "the jobs need " + std::to_string(n.threads) +
                        " threads but kernel.threads-max is " + LimitText(l.threads_max) +
                        "; raise it with `sysctl kernel.threads-max=" + std::to_string(n.threads) +
                        "`"});
  // Two mappings per thread (its stack and the guard page below it) is
  // what a thread takes at least; buffers and malloc arenas add more, so
  // the suggested limit keeps a quarter to spare. The main thread, counted
  // in n.threads, is already in maps_in_use.
  const uint64_t started = n.threads > 0 ? n.threads - 1 : 0;
  const uint64_t maps = Add(l.maps_in_use, Mul(started, 2));
  if (l.max_map_count != kUnlimited && maps > l.max_map_count)
    errs.push_back({7, maps, "memory maps",
                    "the " + std::to_string(started) + " threads the run starts need " +
                        std::to_string(Mul(started, 2)) +
                        " memory maps (a stack and its guard page each), " +
                        std::to_string(l.maps_in_use) + " are in use, but vm.max_map_count is " +
                        LimitText(l.max_map_count) + "; raise it with `sysctl vm.max_map_count=" +
                        std::to_string(Add(maps, maps / 4)) + "`"});
  // Under ulimit -v, for jobs that verify: the buffers, the verify maps and
  // the threads' stacks must fit in what is left of the address space (a
  // lower bound: malloc and the engines take more); a verify map that did
  // not fit failed the setup with "setup: std::bad_alloc". Without verify
  // maps the buffers' own failure names what sized them (run/buffers.cc).
  if (l.as_soft != kUnlimited && n.verify_bytes != 0) {
    const uint64_t stacks = Mul(n.stack_threads, l.thread_stack);
    const uint64_t need = Add(Add(n.buffer_bytes, n.verify_bytes), stacks);
    const uint64_t left = l.as_soft > l.as_in_use ? l.as_soft - l.as_in_use : 0;
    if (need > left) {
      std::string parts = "I/O buffers " + HumanBytes(n.buffer_bytes) + ", verify maps " +
                          HumanBytes(n.verify_bytes) + " (8 bytes a block; " + n.verify_bytes_why +
                          ")";
      if (stacks != 0)
        parts += ", " + std::to_string(n.stack_threads) + " thread stack" +
                 (n.stack_threads == 1 ? "" : "s") + " of " + HumanBytes(l.thread_stack);
      errs.push_back({8, need, "address space",
                      "the jobs need at least " + HumanBytes(need) + " (" + parts +
                          ") but ulimit -v is " + std::to_string(l.as_soft / 1024) + " KiB with " +
                          HumanBytes(l.as_in_use) + " in use; " +
                          "raise verify_interval (or bs), shrink size, lower iodepth, bs or "
                          "numjobs, or raise it with `ulimit -v " +
                          std::to_string((Add(l.as_in_use, need) + need / 4) / 1024) + "`"});
    }
  }
  if (n.aio_events > 0 && l.aio_max_nr != kUnlimited) {
    const uint64_t free = l.aio_max_nr > l.aio_nr ? l.aio_max_nr - l.aio_nr : 0;
    if (n.aio_events > free)
      errs.push_back(
          {4, n.aio_events, "aio",
           "the libaio jobs reserve " + std::to_string(n.aio_events) +
               " events (iodepth x numjobs) but only " + std::to_string(free) +
               " are free (fs.aio-max-nr=" + std::to_string(l.aio_max_nr) + ", fs.aio-nr=" +
               std::to_string(l.aio_nr) + " in use); raise it with `sysctl fs.aio-max-nr=" +
               std::to_string(Add(l.aio_nr, n.aio_events)) + "` (" + n.aio_events_why + ")"});
  }
  // lockmem pins memory nothing can reclaim: past what is available the
  // kernel OOM-kills processes (this one, or others). fio caps it at the
  // machine's memory less 128 MiB, which is too late; iobench refuses it
  // unless 256 MiB stay available.
  constexpr uint64_t kLockSpare = 256ull << 20;
  if (n.lockmem_bytes > 0 &&
      Add(Add(n.lockmem_bytes, n.buffer_bytes), kLockSpare) > l.mem_available)
    errs.push_back({5, Add(n.lockmem_bytes, n.buffer_bytes), "memory",
                    "lockmem pins " + HumanBytes(n.lockmem_bytes) +
                        " (lockmem x numjobs, summed over jobs) and the buffers need " +
                        HumanBytes(n.buffer_bytes) + ", but MemAvailable is " +
                        HumanBytes(l.mem_available) +
                        " and iobench keeps 256 MiB of it free (pinning more gets processes "
                        "OOM-killed); lower lockmem or numjobs"});
  // The rings count only next to what is pinned anyway: a ring alone that
  // does not fit is named by its setup (engines/io_uring.cc).
  const uint64_t rings = l.rings_charged && n.locked_bytes > 0 ? n.ring_bytes : 0;
  const uint64_t locked = Add(Add(n.locked_bytes, rings), n.lockmem_bytes);
  if (locked > 0 && !l.cap_ipc_lock && locked > l.memlock_soft) {
    const uint64_t kib = (locked + 1023) / 1024;
    std::string what;
    if (n.locked_bytes > 0)
      what = "io_uring fixedbufs registers " + HumanBytes(n.locked_bytes) + " of buffers" +
             (rings ? ", the io_uring rings take " + HumanBytes(rings) : std::string());
    if (n.lockmem_bytes > 0)
      what += (what.empty() ? "" : " and ") + std::string("lockmem pins ") +
              HumanBytes(n.lockmem_bytes);
    errs.push_back(
        {6, locked, "locked memory",
         what + " but RLIMIT_MEMLOCK is " +
             (l.memlock_soft == kUnlimited ? std::string("unlimited")
                                           : HumanBytes(l.memlock_soft)) +
             "; raise it with `ulimit -l " + std::to_string(kib) +
             "` (KiB) or run with "
             "CAP_IPC_LOCK" +
             (n.locked_bytes_why.empty() ? std::string() : " (" + n.locked_bytes_why + ")")});
  }
  return errs;
}

// "phase 2 of 3: jobs 'a', 'b'": which jobs ran together, for a run of
// several phases.
std::string PhaseText(const std::vector<JobSpec>& jobs, const std::vector<size_t>& phase,
                      size_t index, size_t count) {
  std::vector<std::string> names;
  for (size_t j : phase) AddUnique(&names, "'" + jobs[j].name + "'");
  constexpr size_t kMaxNames = 4;
  std::string list;
  for (size_t i = 0; i < names.size() && i < kMaxNames; ++i) list += (i ? ", " : "") + names[i];
  if (names.size() > kMaxNames) list += ", ... (" + std::to_string(names.size()) + " jobs)";
  return "phase " + std::to_string(index + 1) + " of " + std::to_string(count) + ": job" +
         (names.size() == 1 ? " " : "s ") + list;
}

}  // namespace

Status CheckResourceLimitsAgainst(const std::vector<JobSpec>& jobs,
                                  const std::vector<std::vector<size_t>>& phases,
                                  const SystemLimits& l, uint64_t* open_files) {
  // Phases run one after another, each after the last has ended (its
  // threads joined, files closed, aio contexts destroyed, lockmem
  // unpinned): the run needs what its hungriest phase needs, limit by limit.
  std::vector<LimitError> worst;
  std::vector<size_t> worst_phase;
  if (open_files != nullptr) *open_files = 0;
  uint64_t logs_open = 0;  // the log files of this phase and those before it
  for (size_t p = 0; p < phases.size(); ++p) {
    std::vector<JobSpec> together;
    together.reserve(phases[p].size());
    for (size_t j : phases[p]) together.push_back(jobs[j]);
    ResourceNeeds needs = ComputeResourceNeeds(together);
    // Log files stay open until the run ends (one log writer per run), so
    // a phase holds its own and every earlier phase's. Descriptors open
    // before the run (a parent's, a CI runner's) are held too: 16 were
    // assumed for them, whatever their number.
    logs_open = Add(logs_open, needs.log_files);
    needs.open_files = Add(Add(needs.open_files, logs_open), InheritedFdsBeyondBase(l.fds_in_use));
    if (open_files != nullptr) *open_files = std::max(*open_files, needs.open_files);
    for (auto& e : LimitErrors(needs, l)) {
      auto it = std::find_if(worst.begin(), worst.end(),
                             [&](const LimitError& w) { return w.kind == e.kind; });
      if (it == worst.end()) {
        worst.push_back(std::move(e));
        worst_phase.push_back(p);
      } else if (e.need > it->need) {
        worst_phase[it - worst.begin()] = p;
        *it = std::move(e);
      }
    }
  }
  if (worst.empty()) return Status::Ok();
  std::vector<size_t> order(worst.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return worst[a].kind < worst[b].kind; });
  std::vector<std::string> errs;
  for (size_t i : order) {
    std::string scope;
    if (phases.size() > 1)
      scope = " (" + PhaseText(jobs, phases[worst_phase[i]], worst_phase[i], phases.size()) + ")";
    errs.push_back(worst[i].label + scope + ": " + worst[i].text);
  }
  return Status::Limit(Join(errs, "; "));
}

Status CheckResourceLimitsAgainst(const std::vector<JobSpec>& jobs, const SystemLimits& l) {
  std::vector<size_t> all(jobs.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return CheckResourceLimitsAgainst(jobs, {all}, l, nullptr);
}

Status CheckResourceLimits(const std::vector<JobSpec>& jobs,
                           const std::vector<std::vector<size_t>>& phases) {
  IOB_ASSIGN_OR_RETURN(SystemLimits l, ReadSystemLimits());
  uint64_t open_files = 0;
  IOB_RETURN_IF_ERROR(CheckResourceLimitsAgainst(jobs, phases, l, &open_files));
  // Within the hard limit: raise the soft one to it, as a process that
  // needs many descriptors should (fio's 252-clone runs with latency logs
  // need more than the usual soft 1024; iobench stopped mid-setup). Nothing
  // here uses select(), whose sets end at 1024.
  if (open_files > l.nofile_soft) {
    rlimit r{};
    r.rlim_max = l.nofile_hard == kUnlimited ? RLIM_INFINITY : l.nofile_hard;
    r.rlim_cur = l.nofile_hard == kUnlimited ? Mul(open_files, 2) : l.nofile_hard;
    if (setrlimit(RLIMIT_NOFILE, &r) != 0)
      return ErrnoStatus("setrlimit(RLIMIT_NOFILE) to the hard limit " + LimitText(l.nofile_hard) +
                         " for " + std::to_string(open_files) + " file descriptors");
  }
  return Status::Ok();
}

}  // namespace iobench::sys
