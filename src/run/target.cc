#include "run/target.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

#include "iobench/engine.h"
#include "run/log_safety.h"
#include "run/pattern.h"
#include "run/random.h"
#include "sys/job_paths.h"
#include "sys/safety.h"
#include "sys/target.h"

namespace iobench {
namespace {

std::string JobLabel(const JobSpec& job) { return "job '" + job.name + "'"; }

// The job, and the clone when the job has several: their regions differ
// (offset_increment).
std::string CloneLabel(const JobSpec& job, int jobnum) {
  if (job.numjobs <= 1) return JobLabel(job);
  return JobLabel(job) + " (clone " + std::to_string(jobnum) +
         " of numjobs=" + std::to_string(job.numjobs) + ")";
}

// What an offset that comes from a percentage is rounded up to, as fio's
// get_start_offset: offset_align, else the smallest block size of any
// direction, used or not (td_min_bs: bs=1k,8k rw=write rounds to 1k).
uint64_t PercentOffsetAlign(const JobSpec& job) {
  return job.offset_align != 0 ? job.offset_align : sys::SmallestBsAnyDirection(job);
}

// How clone `jobnum`'s offset came about, with where each part was set
// (ResolveTargets' arithmetic): "offset=1k at b.fio:7 + 4 x
// offset_increment=4m at b.fio:8". "" when nothing moved it from 0.
// `pct_base`: what percentages are of; `appended`: file_append moved it to
// the file's end.
std::string OffsetOrigin(const JobSpec& job, int jobnum, uint64_t pct_base, bool appended) {
  if (appended) return sys::OptionAt(job, "file_append", "1") + ": the end of the file";
  std::vector<std::string> parts;
  if (job.offset != 0 || job.offset_percent != 0)
    parts.push_back(sys::OptionAt(job, "offset", std::to_string(job.offset)));
  if (jobnum > 0 && (job.offset_increment != 0 || job.offset_increment_percent != 0))
    parts.push_back(std::to_string(jobnum) + " x " +
                    sys::OptionAt(job, "offset_increment", std::to_string(job.offset_increment)));
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : " + ") + p;
  if (!out.empty() && (job.offset_percent != 0 || job.offset_increment_percent != 0)) {
    const uint64_t a = PercentOffsetAlign(job);
    out += ", percentages of " + std::to_string(pct_base) + " bytes, rounded up to a multiple of " +
           std::to_string(a);
  }
  return out;
}

// Where the region's size came from: "size=64m at d.fio:4".
std::string SizeOrigin(const JobSpec& job, uint64_t nfiles) {
  if (job.filesize_min != 0)
    return sys::OptionAt(job, "filesize", std::to_string(job.filesize_min));
  if (job.size == 0 && job.size_percent == 0) return "size not set: the file's size";
  std::string s = sys::OptionAt(job, "size", std::to_string(job.size));
  if (nfiles > 1) s += " over " + std::to_string(nfiles) + " files";
  return s;
}

// "bs=512 (read, at c.fio:7)"; a size from bsrange or bssplit:
// "block size 512 (read, bssplit=4k/50:512/50 at c.fio:7)".
// `sizes` in place of "block size N", and `why` first in the brackets
// (bs_unaligned's range).
std::string BsText(const JobSpec& job, uint64_t bs, int d, const std::string& sizes = "",
                   const std::string& why = "") {
  static const char* kDir[] = {"read", "write", "trim"};
  const std::string n = std::to_string(bs);
  const char* option = nullptr;
  if (!job.bs[d].split.empty() && job.FindSetting("bssplit") != nullptr) {
    option = "bssplit";
  } else {
    // The last of them set (a one-size bssplit=4k/100 leaves no split).
    for (auto it = job.settings.rbegin(); it != job.settings.rend() && !option; ++it)
      for (const char* name : {"bs", "bsrange", "bssplit"})
        if (it->name == name) option = name;
  }
  if (!sizes.empty())
    return sizes + " (" + why + "; " + kDir[d] +
           (option ? ", " + sys::OptionAt(job, option, "") : "") + ")";
  if (option == nullptr) return "bs=" + n + " (" + kDir[d] + ")";
  if (std::string_view(option) == "bs")
    return "bs=" + n + " (" + kDir[d] + ", at " + sys::OptionWhere(job, "bs") + ")";
  return "block size " + n + " (" + kDir[d] + ", " + sys::OptionAt(job, option, "") + ")";
}

// The direction whose smallest block is `min_bs` (read, then write, of
// those the job does), for BsText.
int FirstBsDdir(const JobSpec& job, uint64_t min_bs) {
  int d = 0;
  while (d + 1 < kNumDdirs && (job.bs[d].min != min_bs ||
                               !((d == 0 && HasRead(job.rw)) || (d == 1 && HasWrite(job.rw)))))
    ++d;
  return d;
}

// "direct=1 (b.fio:3)".
std::string DirectText(const JobSpec& job) {
  return job.FindSetting("direct") == nullptr
             ? "direct=1"
             : "direct=1 (" + sys::OptionWhere(job, "direct") + ")";
}

// "offset 1024 (offset=1k at b.fio:7)", or "offset 0".
std::string OffsetText(const JobSpec& job, int jobnum, uint64_t off, uint64_t pct_base,
                       bool appended = false) {
  const std::string n = std::to_string(off);
  const std::string origin = OffsetOrigin(job, jobnum, pct_base, appended);
  return "offset " + n + (origin.empty() || origin == "offset=" + n ? "" : " (" + origin + ")");
}

struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0) close(fd);
  }
};

constexpr uint64_t kFileSizeStream = 0x66696c6573697a65ull;  // "filesize"

// fio's get_rand_file_size(): lo + a uniform draw below hi - lo, rounded
// down to the smallest block size (so it may end below lo when lo is not a
// multiple of it: filesize=10k-12k with 4k blocks gives 8k files, as fio).
// Never below one block: a region must hold one. A range whose top is
// below one block gives its top, which the region check then refuses as it
// refuses filesize=4k with bs=16k (fio: "blocksize is larger than data set
// range"); it laid out 16k files for filesize=4k-8k.
uint64_t DrawFileSize(const JobSpec& job, uint64_t* rng, uint64_t min_bs) {
  if (job.filesize_max < min_bs) return job.filesize_max;
  const uint64_t span = job.filesize_max - job.filesize_min;
  const uint64_t r = prng::SplitMix64(rng);
  uint64_t size =
      job.filesize_min + static_cast<uint64_t>((static_cast<unsigned __int128>(r) * span) >> 64);
  size -= size % min_bs;
  return std::max(size, min_bs);
}

// Creates the missing directories above `path` (mode 0700, as fio), as fio
// does for a filename= or filename_format= with a path ("a/b/c/$jobnum":
// a, a/b and a/b/c). A component that exists is left alone; one that is a
// file makes the open that follows fail with ENOTDIR.
Status MakeParentDirs(const JobSpec& job, const std::string& path) {
  if (sys::UnderDev(path) || !sys::NewFileAmongDevices(path).empty())
    return Status::NotFound(JobLabel(job) + ": " + path +
                            " is under /dev: not creating its directory");
  for (size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    if (path[slash - 1] == '/') continue;  // "a//b"
    const std::string dir = path.substr(0, slash);
    if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
      return ErrnoStatus(JobLabel(job) + ": create directory " + dir + " for " + path);
  }
  return Status::Ok();
}

// open(2) with O_CREAT in `flags`, creating with `mode`; a missing parent
// directory is created (as fio) and the open tried again. Costs nothing when
// the directory is there. Returns the fd, or -1 with errno set.
int OpenCreating(const JobSpec& job, const std::string& path, int flags, mode_t mode,
                 Status* dir_error) {
  int fd = open(path.c_str(), flags, mode);
  if (fd >= 0 || errno != ENOENT || (flags & O_CREAT) == 0 || !job.allow_file_create) return fd;
  if (Status st = MakeParentDirs(job, path); !st.ok()) {
    *dir_error = std::move(st);
    errno = ENOENT;
    return -1;
  }
  return open(path.c_str(), flags, mode);
}

// The nearest directory above `path` that exists ("." for a bare name).
std::string ExistingParent(const std::string& path) {
  std::string dir = path;
  for (;;) {
    const size_t slash = dir.rfind('/');
    if (slash == std::string::npos) return ".";
    dir = slash == 0 ? "/" : dir.substr(0, slash);
    struct stat st {};
    if (dir == "/" || stat(dir.c_str(), &st) == 0) return dir;
  }
}

// Why creating `path` failed, as " (why)" after the path, when errno alone
// misleads: a deleted current directory (ENOENT), or ENOSPC with blocks to
// spare, a file system out of inodes (tmpfs nr_inodes=, a full ext4 inode
// table), which `df` does not show. "" otherwise.
std::string CreateFailureReason(const std::string& path, int err) {
  std::string why;
  struct statvfs vfs {};
  if (err == ENOENT)
    why = sys::DeletedCwdReason(path);
  else if (err == ENOSPC && statvfs(ExistingParent(path).c_str(), &vfs) == 0 && vfs.f_files != 0 &&
           vfs.f_ffree == 0)
    why = "its file system has no free inode: " + std::to_string(vfs.f_files) + " of " +
          std::to_string(vfs.f_files) + " in use, see df -i";
  return why.empty() ? "" : " (" + why + ")";
}

}  // namespace

uint64_t SmallestBs(const JobSpec& job) {
  uint64_t bs = UINT64_MAX;
  for (int d = 0; d < kNumDdirs; ++d) {
    const bool used =
        (d == 0 && HasRead(job.rw)) || (d == 1 && HasWrite(job.rw)) || (d == 2 && HasTrim(job.rw));
    if (used) bs = std::min(bs, job.bs[d].min);
  }
  return bs == UINT64_MAX || bs == 0 ? 4096 : bs;
}

Result<uint64_t> FillFreeBytes(const JobSpec& job, const std::string& path) {
  const std::string dir = ExistingParent(path);  // the layout creates the rest
  struct statvfs vfs;
  if (statvfs(dir.c_str(), &vfs) != 0)
    return ErrnoStatus(JobLabel(job) + ": fill_device: statvfs " + dir);
  // Root may write the blocks a file system keeps for it (ext4's -m, 5%
  // by default), and fio's root run does: f_bfree counts them, f_bavail
  // does not (a root run stopped that much short of full, no ENOSPC).
  const uint64_t free_blocks = geteuid() == 0 ? vfs.f_bfree : vfs.f_bavail;
  return free_blocks * vfs.f_frsize;
}

uint64_t FillRegionBytes(const JobSpec& job, uint64_t free) {
  return free + std::max<uint64_t>(BufferBs(job), SmallestBs(job));
}

// Why a job without filename= runs on its name: for the messages about
// that target.
constexpr const char* kNameAsTargetWhy =
    " (the job's name: with no filename=, fio uses an existing path named like the job "
    "that is not a regular file as its file; set filename= or rename the job)";

namespace {

// What the symbolic link at `path` holds ("" when it is none).
std::string LinkText(const std::string& path) {
  char buf[4096];
  const ssize_t n = readlink(path.c_str(), buf, sizeof buf);
  return n <= 0 ? std::string() : std::string(buf, static_cast<size_t>(n));
}

// Where `path` points when it is a symbolic link to nothing (absolute,
// relative links resolved against the link's directory); "" otherwise.
std::string DanglingLinkTarget(const std::string& path) {
  std::string to = LinkText(path);
  if (to.empty()) return "";
  if (to[0] != '/') {
    const size_t slash = path.find_last_of('/');
    to = (slash == std::string::npos ? std::string(".") : path.substr(0, slash)) + "/" + to;
  }
  char* real = realpath(to.substr(0, to.find_last_of('/') + 1).c_str(), nullptr);
  if (real != nullptr) {  // the link's directory, without . and .. and further links
    to = std::string(real) + (std::string(real) == "/" ? "" : "/") +
         to.substr(to.find_last_of('/') + 1);
    free(real);
  }
  return to;
}

}  // namespace

bool NoRunCreates(const std::string& path) {
  return sys::UnderDev(path) || sys::UnderDev(DanglingLinkTarget(path)) ||
         !sys::NewFileAmongDevices(path).empty();
}

// How many files too small for a block the note names.
constexpr size_t kSkippedNamed = 8;

namespace {

// A random direction's blockalign above a file's region: fio 3.33 draws
// from region / blockalign slots, none, and does no I/O (silently); iobench
// read offset 0 again and again. Neither is of use, so it is refused.
Status CheckBlockalign(const JobSpec& job, const std::vector<TargetFile>& targets,
                       uint64_t nfiles) {
  if (!IsRandom(job.rw) || !job.read_iolog.empty() || job.zone_mode == JobSpec::ZoneMode::kStrided)
    return Status::Ok();
  const bool uses[kNumDdirs] = {HasRead(job.rw), HasWrite(job.rw), HasTrim(job.rw)};
  static const char* const kNames[kNumDdirs] = {"read", "write", "trim"};
  for (const TargetFile& t : targets)
    for (int d = 0; d < kNumDdirs; ++d) {
      const uint64_t ba = job.blockalign[d];
      if (!uses[d] || job.percentage_random[d] == 0 || ba <= t.region_size) continue;
      return Status::Invalid(
          JobLabel(job) + ": " + sys::OptionAt(job, "blockalign", std::to_string(ba)) + " (" +
          kNames[d] + ", " + std::to_string(ba) + " bytes) is larger than the region of " + t.path +
          " (" + std::to_string(t.region_size) + " bytes, " + SizeOrigin(job, nfiles) +
          "): no random " + kNames[d] +
          " offset fits (fio does no I/O); lower blockalign or raise size");
    }
  return Status::Ok();
}

}  // namespace

Result<std::vector<TargetFile>> ResolveTargets(const JobSpec& job, int jobnum, bool diskless,
                                               const std::vector<std::string>* chosen,
                                               bool* no_block,
                                               const std::map<std::string, uint64_t>* laid_out) {
  if (no_block != nullptr) *no_block = false;
  const bool name_is_target = !diskless && sys::JobNameIsTarget(job);
  if (name_is_target && !job.directory.empty() && job.SectionName()[0] == '/')
    // As the parser refuses directory= with an absolute filename=: fio puts
    // the directory in front, and the name alone is the device.
    return Status::Invalid(
        JobLabel(job) + ": the job's name is the existing path " + job.SectionName() +
        ", which fio uses as the job's file when filename= is not set, but " +
        sys::OptionAt(job, "directory", job.directory) + " is set: fio would use " +
        TargetPaths(job, jobnum).front() + "; set filename=" + job.SectionName() +
        " without directory=, or remove directory=");
  const std::vector<std::string> paths = chosen != nullptr ? *chosen : TargetPaths(job, jobnum);
  const uint64_t nfiles = paths.size();
  const uint64_t min_bs = SmallestBs(job);
  // filesize=lo-hi: one draw per file from the clone's seed (randseed,
  // randrepeat), in its own stream so it moves no offset. Clones that share
  // their files (a filename= without $jobnum) draw with the first clone's
  // seed: one file has one size, as in fio (each clone drew its own size
  // for the same file).
  const bool shared = jobnum != 0 && TargetPaths(job, 0) == paths;
  uint64_t size_rng =
      prng::MixSeed(DeriveSeed(job, static_cast<uint32_t>(shared ? 0 : jobnum)), kFileSizeStream);
  // As fio (which refuses the option): each directory= must exist. Only the
  // directories inside a file's name are created, at layout.
  if (!diskless && !job.directory.empty()) {
    for (const std::string& dir : sys::JobDirectories(job)) {
      struct stat st {};
      if (stat(dir.c_str(), &st) != 0)
        return ErrnoStatus(JobLabel(job) + ": directory=" + dir + " (" +
                           sys::OptionWhere(job, "directory") + ")");
      if (!S_ISDIR(st.st_mode))
        return Status::Invalid(JobLabel(job) + ": directory=" + dir + " (" +
                               sys::OptionWhere(job, "directory") + ") is not a directory");
    }
  }
  // "job 'j': filename=od at <cmdline>: target " for what a target is.
  const std::string files_at = sys::FilesOptionAt(job);
  const auto TargetLabel = [&](const JobSpec& j) {
    return JobLabel(j) + ": " + (files_at.empty() ? "" : files_at + ": ") + "target ";
  };
  // " (filename=/dev/nvme9n1 at j.fio:2)" after a message about a path.
  const std::string files_in = files_at.empty() ? "" : " (" + files_at + ")";
  std::vector<TargetFile> out;
  // Files too small for one block: as fio, the job skips them and runs on
  // the others (a note names them); refused only when no file is left.
  Status too_small;
  // Empty files among others, with no size set: the refusal when every
  // file is one (fio: "you need to specify size=").
  Status all_empty;
  std::string skipped, skipped_bs;
  size_t nskipped = 0;  // the note names the first few (nrfiles=10001 skipped 10000)
  const auto skip = [&](const std::string& path, uint64_t bytes, const std::string& bs) {
    if (++nskipped <= kSkippedNamed)
      skipped += (skipped.empty() ? "" : ", ") + path + " (" + std::to_string(bytes) + " bytes)";
    if (skipped_bs.empty()) skipped_bs = bs;
  };
  for (size_t i = 0; i < paths.size(); ++i) {
    TargetFile t;
    t.path = paths[i];
    t.diskless = diskless;
    if (!diskless) {
      struct stat st {};
      if (stat(t.path.c_str(), &st) == 0) {
        t.exists = true;
        if (S_ISDIR(st.st_mode))
          return Status::Invalid(
              TargetLabel(job) + t.path + " is a directory" +
              (name_is_target ? kNameAsTargetWhy : " (use directory= for a directory of files)"));
        // fio runs on /dev/null and /dev/zero (mem major 1, minors 3 and 5):
        // so does iobench, with size= from the job. Other character devices
        // cannot be sized, laid out or synced like a file.
        if (S_ISCHR(st.st_mode)) {
          const bool null_dev = major(st.st_rdev) == 1 && minor(st.st_rdev) == 3;
          const bool zero_dev = major(st.st_rdev) == 1 && minor(st.st_rdev) == 5;
          if (!null_dev && !zero_dev)
            return Status::Invalid(TargetLabel(job) + t.path +
                                   " is a character device; iobench runs on regular files, "
                                   "block devices, /dev/null and /dev/zero (ioengine=null runs "
                                   "without any target)" +
                                   (name_is_target ? kNameAsTargetWhy : ""));
          // falloc and ftruncate read no data: their own checks decide.
          // splice cannot read it: its first read fails with EINVAL, as fio's.
          if (null_dev && HasRead(job.rw) && job.ioengine != "falloc" &&
              job.ioengine != "ftruncate" && job.ioengine != "splice")
            return Status::Invalid(TargetLabel(job) + t.path +
                                   " returns nothing to read (fio fails the job with EIO); "
                                   "read /dev/zero, or use ioengine=null");
          if (job.size == 0 && job.filesize_min == 0)
            return Status::Invalid(TargetLabel(job) + t.path +
                                   " is a character device and has no size: set size=");
          t.is_char_device = true;
        }
        if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
          return Status::Invalid(TargetLabel(job) + t.path +
                                 " is not a regular file or block device" +
                                 (name_is_target ? kNameAsTargetWhy : ""));
        if (S_ISBLK(st.st_mode)) {
          t.is_block_device = true;
          int fd = open(t.path.c_str(), O_RDONLY | O_CLOEXEC);
          if (fd < 0) return ErrnoStatus(TargetLabel(job) + t.path + ": open");
          FdCloser closer{fd};
          uint64_t bytes = 0;
          int lbs = 0;
          if (ioctl(fd, BLKGETSIZE64, &bytes) < 0)
            return ErrnoStatus(JobLabel(job) + ": BLKGETSIZE64 " + t.path);
          if (ioctl(fd, BLKSSZGET, &lbs) < 0)
            return ErrnoStatus(JobLabel(job) + ": BLKSSZGET " + t.path);
          t.current_size = bytes;
          t.logical_block_size = static_cast<uint32_t>(lbs);
          t.device_id = st.st_rdev;
        } else {
          t.current_size = static_cast<uint64_t>(st.st_size);
          t.device_id = st.st_dev;
        }
      } else if (errno != ENOENT) {
        return ErrnoStatus(JobLabel(job) + ": stat " + t.path);
      } else if (sys::UnderDev(t.path)) {
        // A missing name under /dev is a device that is not there, not a file to create.
        return Status::NotFound(JobLabel(job) + ": device " + t.path + " does not exist" +
                                files_in);
      } else if (const std::string to = DanglingLinkTarget(t.path); sys::UnderDev(to)) {
        // Creating the file would follow the link: a regular file among
        // the device nodes, which unlink=1 (removing the link) leaves there.
        return Status::NotFound(JobLabel(job) + ": " + t.path + " is a link to " + to +
                                ", a device that does not exist" + files_in);
      } else if (const std::string dev_dir = sys::NewFileAmongDevices(t.path); !dev_dir.empty()) {
        // The spelling hides it (../../dev/x, //dev/x, a link to /dev, a
        // name run from /dev): the file would still land among the nodes.
        return Status::NotFound(JobLabel(job) + ": " + t.path + " does not exist" +
                                (files_at.empty() ? " (" + sys::JobFileWhat(job) + ")" : files_in) +
                                ": " + sys::AmongDevicesWhy(dev_dir));
      } else if (!to.empty() && CreatesOnOpen(job)) {
        // The open would create the file the link points to (fio 3.33 does),
        // a file the job does not name; the layout replaces such a link, but
        // create_on_open=1 has none.
        return Status::Invalid(JobLabel(job) + ": " + t.path + " is a symbolic link to " + to +
                               ", which does not exist; with " +
                               sys::OptionAt(job, "create_on_open", "1") +
                               " the open would create that file through the link, and iobench "
                               "creates only the files a job names: remove the link, create " +
                               to +
                               ", or set create_on_open=0 (the layout then replaces the "
                               "link with a regular file, as fio)");
      }
      struct stat lst {};
      if (!t.is_block_device && !t.is_char_device && lstat(t.path.c_str(), &lst) == 0 &&
          S_ISLNK(lst.st_mode))
        t.link_to = LinkText(t.path);
    }
    // The null engine opens nothing, but fio 3.33 tells a device (block or
    // character) or a FIFO from a regular file by its stat, and its file
    // there is size= / nrfiles bytes: a regular file's grows to the end of
    // the region (offset + size), a device's does not, so the region ends
    // at size= / nrfiles (offset=8k size=64k bs=4k: 14 I/Os, not 16).
    bool null_device = false;
    if (diskless && job.size != 0) {
      struct stat st {};
      null_device = stat(t.path.c_str(), &st) == 0 &&
                    (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode));
    }
    // Size of this file's part of the job.
    uint64_t fsize = 0;
    if (job.filesize_min != 0) {
      // As fio 3.33: a file or device whose size is already within the
      // filesize= range keeps it (filesize=256k-1m on a 1 MiB file does
      // 1 MiB); another gets filesize=, or a size drawn from the range.
      const uint64_t hi = std::max(job.filesize_max, job.filesize_min);
      if (t.exists && !t.is_char_device && t.current_size >= job.filesize_min &&
          t.current_size <= hi)
        fsize = t.current_size;
      else if (job.filesize_max > job.filesize_min)
        fsize = DrawFileSize(job, &size_rng, min_bs);
      else
        fsize = job.filesize_min;
    } else if (job.size != 0) {
      fsize = sys::SizeShare(job, i, nfiles);
    } else if (job.size_percent != 0) {
      if (!t.exists && !diskless)
        return Status::Invalid(JobLabel(job) + ": size=" + std::to_string(job.size_percent) +
                               "% needs an existing file or device, and " + t.path +
                               " does not exist");
      fsize = t.current_size * job.size_percent / 100;
    } else if (job.fill_device && !t.is_block_device && !t.is_char_device && !diskless) {
      // fio sets the size "to something really large" and stops at ENOSPC.
      // The file as it is plus its filesystem's free space is as large as
      // it can get (and leaves a random write job a map it can allocate),
      // and one more block of the largest size makes sure the job reaches
      // the write that finds the filesystem full: an I/O must fit in the
      // region, so with the free space alone the last, partial block was
      // never issued (384k writes into 1 MiB free: 2 writes, no ENOSPC).
      // Data the filesystem compresses takes less than that: the worker
      // then goes on past the region (Worker::FillGoesOn).
      IOB_ASSIGN_OR_RETURN(const uint64_t free, FillFreeBytes(job, t.path));
      fsize = t.current_size + FillRegionBytes(job, free);
      t.fill_sized = true;
    } else if (t.exists && t.current_size > 0) {
      fsize = t.current_size;
    } else if (t.is_block_device) {
      // size= would not help: a region past the end of the device.
      return Status::Invalid(JobLabel(job) + ": " + t.path +
                             " is a block device of 0 bytes: no I/O fits (fio: zero sized block "
                             "device?)");
    } else {
      // size=0 (or 0%) is fio's "not set" too; saying so of a size the job
      // file sets sent the user looking for a missing line.
      const bool zero = job.FindSetting("size") != nullptr;
      // An empty file among others: as fio 3.33, the job is sized by the
      // others and skips it as one too small for a block (fio opens and
      // closes it); refused, as below, only when every file is empty.
      const bool empty_among_others =
          t.exists && !t.is_char_device && !diskless && paths.size() > 1;
      // Not set: where it was looked for, the job's section (a job file's).
      const std::string section = job.job_file.empty()
                                      ? ""
                                      : " in [" + job.SectionName() + "] (" + job.job_file + ":" +
                                            std::to_string(job.line) + ") nor in [global],";
      Status unsized = Status::Invalid(
          JobLabel(job) + ": " +
          (zero ? sys::OptionAt(job, "size", "0") + " sets no size" : "size is not set" + section) +
          " and " +
          (diskless ? std::string("the null engine has no file to size from")
           : empty_among_others
               ? t.path + " and the job's " +
                     (nfiles == 2 ? "other file" : std::to_string(nfiles - 1) + " other files") +
                     " are empty"
               : t.path + " does not exist or is empty") +
          (zero ? " (set size= above 0, or filesize=)" : " (set size= or filesize=)"));
      if (!empty_among_others) return unsized;
      if (all_empty.ok()) all_empty = std::move(unsized);
      skip(t.path, 0, BsText(job, min_bs, FirstBsDdir(job, min_bs)));
      continue;
    }
    // That file then ends the region as filesize= does (filesize=128k
    // size=64k: at 64 KiB, as fio's; filesize=32k size=64k: at 32 KiB).
    if (null_device) fsize = std::min(fsize, job.size / nfiles);
    const bool file_ends = job.filesize_min != 0 || null_device;
    // As fio: an offset that comes from a percentage (of offset or of
    // offset_increment) is aligned *up* to offset_align, else to the
    // smallest block size of any direction (PercentOffsetAlign); byte
    // values are used as given. The percentage is of the file as it is; a
    // file that does not exist yet (or the null engine's) counts as the
    // size the job gives it, filesize= or its share of size=, which is
    // what fio's clones after the first see once the
    // first has laid the file out (fio's first clone sees 0 bytes). The null
    // engine's file is its share of size= when size= is set, whatever
    // filesize= says, as fio's (filesize=1m size=512k offset=25%: 128 KiB).
    const uint64_t pct_base = t.exists                    ? t.current_size
                              : diskless && job.size != 0 ? sys::SizeShare(job, i, nfiles)
                                                          : fsize;
    bool align_up = false;
    uint64_t inc = job.offset_increment;
    if (job.offset_increment_percent != 0) {
      inc = pct_base * job.offset_increment_percent / 100;
      align_up = true;
    }
    uint64_t off = job.offset;
    if (job.offset_percent != 0) {
      off = pct_base * job.offset_percent / 100;
      align_up = true;
    }
    // Past 2^64 the sum wrapped, and a clone's region landed inside another
    // one's (offset_increment=8191p numjobs=3: clone 2 read at 0.12P).
    const auto past_end = [&](const std::string& what) {
      return Status::Invalid(CloneLabel(job, jobnum) + ": " + what +
                             " is past the 2^64-byte end of any file or device; lower " +
                             (inc != 0 ? "offset_increment or numjobs" : "offset or size"));
    };
    uint64_t step = 0;
    const uint64_t base = off;
    if (__builtin_mul_overflow(static_cast<uint64_t>(jobnum), inc, &step) ||
        __builtin_add_overflow(base, step, &off))
      return past_end(
          (base != 0 ? sys::OptionAt(job, "offset", std::to_string(base)) + " + " : "") +
          std::to_string(jobnum) + " x " +
          sys::OptionAt(job, "offset_increment", std::to_string(inc)));
    if (align_up) {
      const uint64_t a = PercentOffsetAlign(job);
      if (off > UINT64_MAX - (a - 1)) return past_end("offset " + std::to_string(off));
      off = (off + a - 1) / a * a;
    }
    // file_append: I/O starts at the file's current end, whatever offset=
    // says: the end the clones set up before this one laid out, when that is
    // further (fio 3.33 sets its jobs up in order, each laying its file out
    // before the next one looks at it). fio ignores it on devices. The null
    // engine's file is its share of size= (as for offset=N%), and fio
    // appends there too: size=64k writes from 64 KiB.
    const bool appended =
        job.file_append && !t.is_block_device && !t.is_char_device && !null_device;
    if (appended && diskless) {
      off = pct_base;
    } else if (appended) {
      off = t.current_size;
      if (laid_out != nullptr)
        if (auto it = laid_out->find(SameFileKey(t.path)); it != laid_out->end())
          off = std::max(off, it->second);
    }
    t.appended = appended;
    // Without an explicit size the region is what is left of the file after the offset.
    if (job.size == 0 && job.filesize_min == 0 && job.size_percent == 0) {
      if (off >= fsize && job.file_append)
        return Status::Invalid(JobLabel(job) + ": file_append=1 starts at the end of " + t.path +
                               " (" + std::to_string(fsize) +
                               " bytes): set size= for how much to append");
      if (off >= fsize) {
        // A region of nothing: as one under a block (fio fails the clone
        // alone: "blocksize is larger than data set range").
        if (no_block != nullptr) *no_block = true;
        return Status::Invalid(CloneLabel(job, jobnum) + ": " +
                               OffsetText(job, jobnum, off, pct_base) + " is beyond the end of " +
                               t.path + " (" + std::to_string(fsize) + " bytes)");
      }
      fsize -= off;
    }
    // size=N% is of the file or device, and ends at its end: as fio 3.33,
    // N% of it, but no more than what is left after the offset, in whole
    // blocks (100% is what is left, as it is). So a read never grows the
    // file and a device region never runs past the device's end.
    if (job.size == 0 && job.filesize_min == 0 && job.size_percent != 0 && !diskless) {
      if (off >= t.current_size && no_block != nullptr) *no_block = !job.file_append;
      if (off >= t.current_size)
        return Status::Invalid(
            CloneLabel(job, jobnum) +
            (job.file_append
                 ? ": file_append=1 starts at the end of " + t.path + " (" +
                       std::to_string(t.current_size) + " bytes): set size= for how much to append"
                 : ": " + OffsetText(job, jobnum, off, pct_base) + " is beyond the end of " +
                       t.path + " (" + std::to_string(t.current_size) + " bytes)"));
      fsize = std::min(fsize, t.current_size - off);
      if (job.size_percent != 100) fsize -= fsize % min_bs;
    }
    // With filesize= the file is that big, as in fio: the region runs from
    // the offset to the file's end (size= then caps the job's bytes per
    // pass, in the worker), and the layout does not grow the file past it.
    // A device too: fio 3.33 takes filesize as its size, so offset=128k
    // filesize=512k does the 96 blocks of [128k, 512k), not [128k, 640k).
    // With the file's end set (filesize=) the region ends there: a clone
    // past it is a region of nothing, below, not a sum past 2^64.
    uint64_t needed = 0;
    if (__builtin_add_overflow(off, fsize, &needed) && !file_ends)
      return past_end("the region from offset " + std::to_string(off) + " of " +
                      std::to_string(fsize) + " bytes");
    if (file_ends) {
      // A clone that offset_increment puts at or past the end of its
      // file_size file: a region of nothing, as above (fio runs the others).
      if (off >= fsize && no_block != nullptr) *no_block = !appended;
      if (off >= fsize)
        return Status::Invalid(CloneLabel(job, jobnum) + ": " +
                               OffsetText(job, jobnum, off, pct_base, appended) +
                               " is beyond the end of " + t.path + " (" +
                               (null_device && fsize == job.size / nfiles
                                    ? "ioengine=null on a device: its share of " +
                                          sys::OptionAt(job, "size", std::to_string(job.size))
                                    : SizeOrigin(job, nfiles)) +
                               ", " + std::to_string(fsize) + " bytes)");
      needed = fsize;
      fsize -= off;
    }
    // Not rounded to the block: as fio, the pass goes on until size bytes
    // are issued, and its last I/O may end past size (in the file).
    if (fsize < min_bs && diskless && job.size == 0 && job.size_percent != 0 &&
        job.filesize_min == 0)
      // A percentage of nothing: the engine has no file to size it by (fio:
      // "you need to specify size=").
      return Status::Invalid(JobLabel(job) + ": " + sys::OptionAt(job, "size", "N%") +
                             " is a share of the file's size, and ioengine=" + job.ioengine +
                             " has no file: set size= in bytes or filesize=");
    // filesize= with size=N%: as fio 3.33, the region is N% of the file,
    // from the offset and no further than the file's end, in whole blocks
    // (below 100%), and a file that is laid out is laid out to the region's
    // end only: filesize=1m size=50% on a new file lays out 512 KiB and a
    // random job reads the first 512 KiB, not 512 KiB of the whole MiB.
    // One under a block is no I/O, as a region under a block is (it became
    // the whole file: size=10% filesize=32k wrote 32k; fio: "blocksize is
    // larger than data set range"). The null engine lays nothing out: its
    // file stays filesize= bytes, as fio's has no end there (its size is
    // unknown), so a holed walk ends at the share's end instead of wrapping
    // (filesize=256k size=25% rw=write:4k: 8 writes, not 16) and a strided
    // walk goes on past it (filesize=1m size=50%: zones up to 960 KiB).
    uint64_t usable = fsize;
    std::string share_of;
    if (job.filesize_min != 0 && job.size == 0 && job.size_percent != 0) {
      const unsigned __int128 file = off + fsize;
      usable = std::min<uint64_t>(fsize, static_cast<uint64_t>(file * job.size_percent / 100));
      share_of = sys::OptionAt(job, "size", std::to_string(job.size_percent) + "%") + " of ";
      if (usable >= min_bs) {
        fsize = job.size_percent != 100 ? usable - usable % min_bs : usable;
        if (!diskless) needed = off + fsize;
      }
    }
    if (usable < min_bs) {
      // Name where the region and the block come from: "size=100000 over 3
      // files" and "bs=65536 (read, at j.fio:4)" (fio runs such a job and
      // does nothing).
      const int d = FirstBsDdir(job, min_bs);
      Status st =
          Status::Invalid(JobLabel(job) + ": the region of " + t.path + " is " +
                          std::to_string(usable) + " bytes (" + share_of + SizeOrigin(job, nfiles) +
                          (off != 0 ? ", from " + OffsetText(job, jobnum, off, pct_base) : "") +
                          "), smaller than the " + BsText(job, min_bs, d) +
                          ": no I/O fits; lower bs or raise size");
      if (paths.size() == 1 || diskless) {
        if (no_block != nullptr) *no_block = true;
        return st;
      }
      if (too_small.ok()) too_small = st;
      skip(t.path, usable, BsText(job, min_bs, d));
      continue;
    }
    t.region_offset = off;
    t.region_size = fsize;
    t.needed_size = std::max(needed, off + fsize);
    t.jobnum = jobnum;
    if (t.is_block_device && t.needed_size > t.current_size) {
      // zonemode=strided: size is the bytes to transfer and the zone walk
      // goes from the offset to the device's end and around again, as in
      // fio, so a size above the device's is no region past its end.
      if (job.zone_mode == JobSpec::ZoneMode::kStrided && job.zone_size != 0 &&
          off + min_bs <= t.current_size) {
        t.needed_size = t.current_size;
        out.push_back(std::move(t));
        continue;
      }
      // read_iolog: size= lays out missing files only, and a device keeps
      // its size as an existing file does (KeepExistingReplayFiles); the
      // replay's own check holds the log's offsets to the device's end.
      if (!job.read_iolog.empty()) {
        t.region_size = t.current_size - std::min(off, t.current_size);
        t.needed_size = t.current_size;
        out.push_back(std::move(t));
        continue;
      }
      // What put the region there: the offset (and the clone's share of
      // offset_increment) and the size, with where each was set.
      std::vector<std::string> why;
      if (off != 0) why.push_back(OffsetText(job, jobnum, off, pct_base));
      if (job.size != 0 || job.filesize_min != 0) why.push_back(SizeOrigin(job, nfiles));
      std::string because;
      for (const auto& w : why) because += (because.empty() ? ": " : ", ") + w;
      // time_based runs for its runtime whatever the region holds: a size
      // a little above the device's (cloud vendors' raw-device commands,
      // --filesize=2500G on a disk that is a bit smaller) keeps the device
      // from the offset to its end, as fio does; the report says so.
      if (job.time_based && off + min_bs <= t.current_size) {
        t.note = "region [" + std::to_string(off) + ", " + std::to_string(t.needed_size) +
                 ") runs past the end of " + t.path + " (" + std::to_string(t.current_size) +
                 " bytes)" + because + "; time_based: the job used [" + std::to_string(off) + ", " +
                 std::to_string(t.current_size) + ")";
        t.region_size = t.current_size - off;
        t.needed_size = t.current_size;
        out.push_back(std::move(t));
        continue;
      }
      return Status::Invalid(CloneLabel(job, jobnum) + ": region [" + std::to_string(off) + ", " +
                             std::to_string(t.needed_size) + ") is beyond the end of " + t.path +
                             " (" + std::to_string(t.current_size) + " bytes)" + because);
    }
    out.push_back(std::move(t));
  }
  if (out.empty() && !too_small.ok()) {
    if (no_block != nullptr) *no_block = true;
    return too_small;
  }
  if (out.empty() && !all_empty.ok()) return all_empty;
  IOB_RETURN_IF_ERROR(CheckBlockalign(job, out, nfiles));
  if (!skipped.empty()) {
    std::string& note = out.front().note;
    if (nskipped > kSkippedNamed)
      skipped += " and " + std::to_string(nskipped - kSkippedNamed) + " more files";
    note += (note.empty() ? "" : "; ") + std::string("skipped ") + skipped +
            ": too small for one block (" + skipped_bs + "), as fio skips them";
  }
  return out;
}

namespace {

// What of clone t.jobnum's I/O in direction `d` is not a multiple of
// `align`: a block size it issues (a bssplit's as the pattern rounds them:
// 6k with 4k issues 4k, as fio, so its unrounded largest size is not one of
// them), the region's offset, or (`with_blockalign`) a blockalign= it set.
// `what` describes it and `fix` names the options to change; `offset`: the
// clone's offset is off (its label names the clone). Empty `what`: aligned.
struct Misaligned {
  std::string what, fix;
  bool offset = false;
};
// The bytes a sequential job surely issues to its one file t (a lower
// bound: io_size= or number_ios= may cut it, runtime= aside); trimwrite's
// are shared by its trims and writes.
uint64_t SureWalkBytes(const JobSpec& job, const TargetFile& t, uint64_t min_bs) {
  if (job.time_based) return UINT64_MAX;
  unsigned __int128 b =
      static_cast<unsigned __int128>(t.region_size) * std::max<uint64_t>(job.loops, 1);
  if (job.io_size != 0)
    b = job.io_size;
  else if (job.io_size_percent != 0)
    b = static_cast<unsigned __int128>(t.region_size) * job.io_size_percent / 100;
  if (job.number_ios != 0)
    b = std::min<unsigned __int128>(b, static_cast<unsigned __int128>(job.number_ios) * min_bs);
  if (job.rw == RwMode::kTrimWrite) b /= 2;
  return static_cast<uint64_t>(std::min<unsigned __int128>(b, UINT64_MAX));
}

// A sequential walk's offsets past its first I/O (which is at the region's
// offset, checked before) that are surely off `align`: the second I/O after
// a rw=...:N skip that is not a multiple of it, and the second zone of
// zonemode=strided when zonerange + zoneskip is not. Only where the walk
// surely gets there: one file (the pattern's own walk, not several files'
// turns), a direction whose I/Os are all of the walk (not rw=readwrite's
// draw), bytes enough to issue them and a region that holds them.
Misaligned MisalignedSteps(const JobSpec& job, const TargetFile& t, size_t nfiles, int d,
                           uint64_t align) {
  if (IsRandom(job.rw) || job.rw == RwMode::kReadWrite || nfiles != 1 || !job.read_iolog.empty() ||
      t.region_size == 0)
    return {};
  const std::string a = std::to_string(align);
  const BlockSizeSpec& spec = job.bs[d];
  const bool fixed = spec.split.empty() && spec.min == spec.max;
  uint64_t max_bs = spec.max;
  uint64_t min_bs = spec.min;
  for (const auto& e : spec.split) {
    max_bs = std::max(max_bs, e.bs);
    min_bs = std::min(min_bs, e.bs);
  }
  if (min_bs == 0) return {};
  const uint64_t bytes = SureWalkBytes(job, t, min_bs);
  const bool strided = job.zone_mode == JobSpec::ZoneMode::kStrided && job.zone_size != 0;
  const uint64_t range = job.zone_range != 0 ? job.zone_range : job.zone_size;
  // The end an I/O must fit below: a device's, a file laid out to at least
  // the region's end.
  const uint64_t end = t.is_block_device ? t.current_size : t.needed_size;
  const auto fits = [&](uint64_t rel, uint64_t len) {  // an I/O at region offset + rel
    return t.region_offset + rel <= end && len <= end - t.region_offset - rel;
  };
  const int64_t skip = job.rw_skip;
  const uint64_t uskip = skip < 0 ? 0 - static_cast<uint64_t>(skip) : static_cast<uint64_t>(skip);
  if (uskip % align != 0 && bytes > max_bs) {
    // The second I/O is at the first's end plus the skip; a backward skip
    // that steps before the start wraps to the region's size plus the skip
    // (pattern.cc, TrySequential): off the grid either way.
    bool second = false;
    const uint64_t walk = strided ? range + uskip : t.region_size;  // a zone's walk is its range
    if (skip > 0) {
      second = (!strided || (max_bs < range && max_bs < job.zone_size)) &&
               2 * max_bs + uskip <= walk && fits(max_bs + uskip, max_bs);
    } else if (fixed && !strided && t.region_size % align == 0 && t.region_size % min_bs == 0) {
      second = uskip <= min_bs ? 2 * min_bs - uskip <= t.region_size
                               : min_bs < t.region_size && uskip <= t.region_size;
    }
    if (second)
      return {
          "the skip of " + std::to_string(uskip) + " bytes (" + sys::OptionAt(job, "rw", "") + ")",
          "any rw=...:N skip to a multiple of " + a};
  }
  if (strided) {
    const uint64_t zskip = job.zone_skip_zones ? job.zone_skip * job.zone_size : job.zone_skip;
    const uint64_t step = range + zskip;
    // The walk moves to the next zone after zonesize bytes, fewer than
    // zonesize + the largest block; its first I/O there is at the zone's
    // start (a range or split of sizes also below offset + size). Without
    // time_based only within a pass: a region smaller than zonesize starts
    // over at its offset each loop (size=8k zonesize=16k zonerange=18k
    // loops=3: fio reads 0, 4k three times, never the step).
    const bool pass_reaches =
        job.time_based || job.zone_size <= std::min<uint64_t>(bytes, t.region_size);
    if (step % align != 0 && pass_reaches && bytes >= job.zone_size + max_bs &&
        fits(step, max_bs) && (fixed || step + min_bs <= t.region_size)) {
      std::string set = job.zone_range != 0 ? sys::OptionAt(job, "zonerange", std::to_string(range))
                                            : sys::OptionAt(job, "zonesize", std::to_string(range));
      if (zskip != 0) set += " + " + sys::OptionAt(job, "zoneskip", std::to_string(zskip));
      return {"the zone step " + std::to_string(step) + " (" + set + ")",
              "zonerange= + zoneskip= (zonesize= without zonerange=) to a multiple of " + a};
    }
  }
  return {};
}

Misaligned MisalignedIo(const JobSpec& job, const TargetFile& t, size_t nfiles, int d,
                        uint64_t align, bool with_blockalign) {
  const std::string a = std::to_string(align);
  const BlockSizeSpec& spec = job.bs[d];
  // The sizes issued: a range's are multiples of its minimum (bsrange=4k-6k
  // issues 4k only: its 6k was refused, and warned about, though never
  // issued), any byte count with bs_unaligned; a bssplit's as the pattern
  // rounds them (its smallest, even at 0%, also aligns the offsets).
  std::vector<uint64_t> sizes = {spec.min};
  if (!spec.split.empty()) {
    uint64_t min_bs = UINT64_MAX;
    for (const auto& e : spec.split) min_bs = std::min(min_bs, e.bs);
    sizes.clear();
    for (const auto& e : spec.split)
      sizes.push_back(SplitBlockSize(e.bs, min_bs, job.bs_unaligned));
  }
  for (uint64_t bs : sizes)
    if (bs % align != 0)
      return {BsText(job, bs, d), "the block sizes (bs, bsrange, bssplit) to multiples of " + a};
  // bs_unaligned: a range issues every byte count from its minimum to its
  // maximum (ChooseLenSlow), so at least one of two neighbours is off any
  // alignment above 1, even where both ends are on it (bsrange=4k-12k).
  if (job.bs_unaligned && spec.split.empty() && spec.max != spec.min)
    return {BsText(job, spec.min, d,
                   "a block size of any byte count from " + std::to_string(spec.min) + " to " +
                       std::to_string(spec.max),
                   sys::OptionAt(job, "bs_unaligned", "1")),
            "bs_unaligned=0, or one block size (bs) that is a multiple of " + a};
  if (t.region_offset % align != 0)
    return {OffsetText(job, t.jobnum, t.region_offset, t.current_size),
            "offset= (and offset_increment=) to a multiple of " + a, true};
  if (with_blockalign && job.blockalign[d] % align != 0 && IsRandom(job.rw))
    return {sys::OptionAt(job, "blockalign", std::to_string(job.blockalign[d])),
            "blockalign= to a multiple of " + a};
  return MisalignedSteps(job, t, nfiles, d, align);
}

// The I/O buffers' addresses off `mem_align` (a power of two): IoMemory
// starts them iomem_align= bytes past a page boundary, each a multiple of
// the page size after the first (Worker::Setup's stride), so every buffer
// is aligned to exactly what the first is. An alignment above the page
// size is not known to be missed (malloc may give more); below it,
// iomem_align= decides.
Misaligned MisalignedBuffers(const JobSpec& job, uint64_t mem_align) {
  static const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t need = std::min(mem_align, page);
  if (need <= 1 || job.mem_align % need == 0) return {};
  return {sys::OptionAt(job, "iomem_align", std::to_string(job.mem_align)) +
              " (I/O buffers that start " + std::to_string(job.mem_align % page) +
              " bytes past a page boundary)",
          "iomem_align= to a multiple of " + std::to_string(mem_align) + " (or 0)"};
}

bool UsesDdir(const JobSpec& job, int d) {
  return (d == 0 && HasRead(job.rw)) || (d == 1 && HasWrite(job.rw)) || (d == 2 && HasTrim(job.rw));
}

}  // namespace

Status CheckDirectAlignment(const JobSpec& job, const TargetFile& t, size_t nfiles) {
  if (!t.is_block_device || t.logical_block_size == 0) return Status::Ok();
  const uint64_t lbs = t.logical_block_size;
  for (int d = 0; d < kNumDdirs; ++d) {
    // A discard (BLKDISCARD) needs block-aligned ranges with or without
    // direct=1: the kernel says EINVAL at run time otherwise.
    if (!UsesDdir(job, d) || (d != 2 && !job.direct)) continue;
    const std::string needs = d == 2 ? std::string("a discard needs block-aligned ranges")
                                     : DirectText(job) + " needs block-aligned I/O";
    // With direct=1 the pattern draws random offsets on multiples of
    // lcm(blockalign, logical block size) (PatternRegion::block_align), so a
    // blockalign= off the block size is rounded, never issued; without it a
    // random trim's blockalign is issued as it is (fio 3.33 fails both with
    // EINVAL at run time).
    const bool blockalign_issued = d == 2 && !job.direct;
    const Misaligned m = MisalignedIo(job, t, nfiles, d, lbs, blockalign_issued);
    if (!m.what.empty())
      return Status::Invalid((m.offset ? CloneLabel(job, t.jobnum) : JobLabel(job)) + ": " +
                             m.what + " is not a multiple of the logical block size " +
                             std::to_string(lbs) + " of " + t.path + "; " + needs);
  }
  return Status::Ok();
}

std::string DirectAlignmentWarning(const JobSpec& job, const TargetFile& t, size_t nfiles) {
  if (!job.direct || !t.regular_file() || !t.exists || job.ioengine == "mmap") return "";
  // Not where the kernel fails such I/O with EINVAL (ext2/3/4, xfs): the
  // run's error says why (DirectIoEinvalHint), and a warning before it
  // broke runs that expect that error alone on stderr (ignore_error=,EINVAL
  // on a misaligned direct job).
  const auto fs_name = sys::FsTypeName(t.path);
  const std::string fs = fs_name.ok() ? *fs_name : "";
  if (fs == "ext2" || fs == "ext3" || fs == "ext4" || fs == "xfs") return "";
  // What the kernel asks (statx), else btrfs's sector size: btrfs does not
  // report STATX_DIOALIGN (6.18) and serves direct I/O off its sectors
  // through the page cache (fs/btrfs/direct-io.c, check_direct_IO).
  uint64_t align = 0, mem_align = 0;
  std::string source = "statx";
  if (const auto a = sys::StatxDioAlign(t.path)) {
    align = a->offset;  // 0: no direct I/O at all; the open says so
    mem_align = a->mem;
  } else if (struct statfs sfs; fs == "btrfs" && statfs(t.path.c_str(), &sfs) == 0) {
    // btrfs asks the same of buffer addresses (iov_iter_alignment).
    align = mem_align = static_cast<uint64_t>(sfs.f_bsize);
    source = "its sector size";
  }
  if (align <= 1) return "";
  const bool uses_buffers = (UsesDdir(job, 0) || UsesDdir(job, 1)) && !DisklessEngine(job.ioengine);
  Misaligned m;
  for (int d = 0; d < 2 && m.what.empty(); ++d)
    if (UsesDdir(job, d)) m = MisalignedIo(job, t, nfiles, d, align, /*with_blockalign=*/true);
  const bool buffers = m.what.empty() && uses_buffers;
  if (buffers) m = MisalignedBuffers(job, mem_align);
  if (m.what.empty()) return "";
  const std::string a = std::to_string(align);
  return (m.offset ? CloneLabel(job, t.jobnum) : JobLabel(job)) + ": " + DirectText(job) +
         " with " + m.what + ": " + t.path + (fs.empty() ? "" : " (" + fs + ")") +
         (buffers
              ? " takes direct I/O from buffers at addresses aligned to " +
                    std::to_string(mem_align)
              : " takes direct I/O in multiples of " + a + " bytes at offsets aligned to " + a) +
         " (" + source + "), and this is not: " +
         (fs == "btrfs"
              ? "btrfs serves such I/O through the page cache, without an error, so the job "
                "measures buffered I/O"
              : "the kernel fails such I/O (EINVAL) or serves it through the page cache") +
         "; set " + m.fix + ", or direct=0";
}

std::string FileTrimWarning(const JobSpec& job, const TargetFile& t, size_t nfiles) {
  if (!HasTrim(job.rw) || !t.regular_file() || !t.exists) return "";
  // Local file systems whose f_bsize is their allocation block: on NFS,
  // CIFS or FUSE it is a transfer size (often 1 MiB), which would call 4k
  // trims useless; ext4 with bigalloc frees by cluster, so there the
  // warning is only a lower bound.
  const auto fs_name = sys::FsTypeName(t.path);
  // overlay reports its upper layer's statfs (a container's root on ext4).
  static constexpr std::string_view kBlockFs[] = {"ext2", "ext3",  "ext4",     "xfs",    "btrfs",
                                                  "f2fs", "tmpfs", "bcachefs", "overlay"};
  if (!fs_name.ok() ||
      std::find(std::begin(kBlockFs), std::end(kBlockFs), *fs_name) == std::end(kBlockFs))
    return "";
  struct statfs sfs;
  if (statfs(t.path.c_str(), &sfs) != 0 || sfs.f_bsize <= 1) return "";
  const uint64_t block = static_cast<uint64_t>(sfs.f_bsize);
  const Misaligned m = MisalignedIo(job, t, nfiles, 2, block, /*with_blockalign=*/true);
  if (m.what.empty()) return "";
  const std::string b = std::to_string(block);
  // Every trim smaller than a block frees none (ext4 -b 1024, xfs, btrfs:
  // stat's block count did not move after 1 MiB of 512-byte trims).
  uint64_t max_bs = job.bs[2].max;
  for (const auto& e : job.bs[2].split) max_bs = std::max(max_bs, e.bs);
  return (m.offset ? CloneLabel(job, t.jobnum) : JobLabel(job)) + ": trims with " + m.what +
         " on " + t.path + (fs_name.ok() ? " (" + *fs_name + ")" : "") +
         ": a trim of a file punches a hole (fallocate PUNCH_HOLE), which frees only the blocks "
         "wholly inside it, here of " +
         b + " bytes (statfs f_bsize), and writes zeros over the parts of blocks it covers, so " +
         (max_bs < block ? "these trims free nothing" : "these trims free less than they count") +
         " though the report counts every byte as trimmed; set " + m.fix + "";
}

namespace {

// The layout proper, on the open fd (see LayOutFile).
Result<uint64_t> FillFile(const JobSpec& job, const TargetFile& t, int fd,
                          const std::atomic<int>* stop, std::string* note) {
  // fill_device: the writes grow the file until the filesystem is full; a
  // preallocation would take that space first.
  if (job.fill_device) return uint64_t{0};
  const uint64_t from = t.exists ? t.current_size : 0;
  const uint64_t len = t.needed_size - from;
  // native and posix go on without the preallocation, as fio 3.33 does
  // (it logs posix_fallocate's failure: FUSE and blob filesystems without
  // fallocate, or too little room for all of size= when io_size is less);
  // the report's note says so. fio fails the job for keep. A call that ran
  // out of room partway keeps what it allocated (ext4: 7.4 MiB of 16 MiB,
  // the file that long), and the note says how much: "not preallocated"
  // sent the user looking for a file that was not there.
  struct stat before {};
  if (fstat(fd, &before) != 0) before.st_blocks = 0;
  auto unallocated = [&](const char* call, int err) {
    if (note == nullptr) return;
    struct stat after {};
    const uint64_t got =
        fstat(fd, &after) == 0 && after.st_blocks > before.st_blocks
            ? std::min<uint64_t>(static_cast<uint64_t>(after.st_blocks - before.st_blocks) * 512,
                                 len)
            : 0;
    *note = t.path +
            (got == 0 ? std::string(" was not preallocated")
                      : " was preallocated only " + HumanBytes(got) + " of " + HumanBytes(len)) +
            " (fallocate=" + (job.fallocate == FallocateMode::kPosix ? "posix" : "native") + ": " +
            call + ": " + std::strerror(err) + ")" +
            (HasWrite(job.rw)
                 ? std::string("; the job's writes allocate ") + (got == 0 ? "it" : "the rest")
                 : std::string("; the job does not write, so its I/O finds holes "
                               "there"));
  };
  switch (job.fallocate) {
    case FallocateMode::kNative:
      if (fallocate(fd, 0, static_cast<off_t>(from), static_cast<off_t>(len)) != 0)
        unallocated("fallocate", errno);
      break;
    case FallocateMode::kPosix:
      if (int e = posix_fallocate(fd, static_cast<off_t>(from), static_cast<off_t>(len)); e != 0)
        unallocated("posix_fallocate", e);
      break;
    case FallocateMode::kKeep:
      if (fallocate(fd, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(from), static_cast<off_t>(len)) !=
          0)
        return ErrnoStatus(JobLabel(job) + ": fallocate=keep: fallocate(FALLOC_FL_KEEP_SIZE) " +
                           t.path);
      break;
    case FallocateMode::kTruncate:
      if (ftruncate(fd, static_cast<off_t>(t.needed_size)) < 0)
        return ErrnoStatus(JobLabel(job) + ": ftruncate " + t.path);
      break;
    case FallocateMode::kNone:
      break;
  }
  // As fio: the file gets data when the job reads it, overwrite=1, or the
  // engine cannot extend a file (mmap maps it whole at open). Otherwise the
  // job's own writes fill it, and its size is what the fallocate mode made
  // it: nothing grows it for none or keep (fio ftruncates only for
  // fallocate=truncate), so the file ends where the writes ended. verify=
  // does not count: its pass reads back only the blocks the job wrote (a
  // layout wrote the whole file twice, and failed with ENOSPC where fio
  // runs on a filesystem smaller than size=).
  const bool write_data = HasRead(job.rw) || job.overwrite || job.ioengine == "mmap";
  if (!write_data) return len;
  // The data is what the job's writes would be, filled as fio's layout
  // fills each of its writes (fill_io_buffer): fresh random data for every
  // block unless zero_buffers or buffer_pattern make it fixed, shaped by
  // buffer_compress_percentage and dedupe_percentage (whose repeats are of
  // whole blocks of the job's write size, as fio's layout writes). One
  // chunk written over and over made a file of 1 MiB of distinct data that
  // a deduplicating or compressing device stored in 1 MiB.
  // Writes of up to 1 MiB (whole blocks), and no bigger than the file needs
  // (a 4 KiB file made 1 MiB of it: nrfiles=10000 of 4 KiB took 5.7 s to
  // lay out, fio 0.66 s).
  constexpr uint64_t kMaxChunk = 1 << 20;
  uint64_t block = job.bs[1].max;
  for (const auto& e : job.bs[1].split) block = std::max(block, e.bs);
  block = std::min(block == 0 ? 4096 : block, kMaxChunk);
  const auto blocks = static_cast<uint32_t>(std::min(kMaxChunk / block, (len + block - 1) / block));
  const uint64_t chunk = uint64_t{blocks} * block;
  std::unique_ptr<uint8_t[]> buf(new uint8_t[chunk]);
  JobSpec fill_job = job;
  fill_job.rw = RwMode::kWrite;    // fills only a writing job's buffers
  fill_job.refill_buffers = true;  // a new fill per block, as fio's layout
  // fio's layout fills each write with its own size as the smallest write
  // (fill_io_buffer(td, b, bs, bs)): compression chunks are at most a block.
  fill_job.bs[1] = BlockSizeSpec{block, block, {}};
  BufferFiller filler(fill_job, 0x2545F4914F6CDD1Dull ^ t.needed_size);
  uint64_t pos = from;
  while (pos < t.needed_size) {
    if (stop != nullptr && stop->load(std::memory_order_relaxed) != 0)
      return Status(Status::Code::kInterrupted,
                    JobLabel(job) + ": lay out " + t.path + ": interrupted by a signal");
    const uint64_t n = std::min(chunk, t.needed_size - pos);
    filler.FillInitial(buf.get(), block, blocks);  // zeros or a pattern: the same again
    const ssize_t w = pwrite(fd, buf.get(), n, static_cast<off_t>(pos));
    if (w < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus(JobLabel(job) + ": lay out " + t.path);
    }
    if (w == 0)
      return Status(Status::Code::kIoError,
                    JobLabel(job) + ": lay out " + t.path + ": short write");
    pos += static_cast<uint64_t>(w);
  }
  if (job.create_fsync && fsync(fd) < 0) return ErrnoStatus(JobLabel(job) + ": fsync " + t.path);
  return len;
}

// LayOutFile for a path that is a symbolic link to a missing or short
// file: as fio 3.33 (which unlinks a file before laying it out), the link
// is removed and a regular file is laid out at the path, created with
// O_EXCL so nothing is followed; the link's target is never created,
// extended or written. The report's note says so (the I/O goes to the
// link's directory's file system, not the target's). A failed layout puts
// the link back.
Result<uint64_t> ReplaceLink(const JobSpec& job, const TargetFile& t, const std::atomic<int>* stop,
                             std::string* note) {
  if (::unlink(t.path.c_str()) != 0)
    return ErrnoStatus(JobLabel(job) + ": remove the symbolic link " + t.path +
                       " to lay out a file in its place");
  TargetFile fresh = t;
  fresh.exists = false;
  fresh.current_size = 0;
  const int fd = open(t.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    UndoLayOut(t.path, false, 0, t.link_to);
    return ErrnoStatus(JobLabel(job) + ": create " + t.path + CreateFailureReason(t.path, err),
                       err);
  }
  FdCloser closer{fd};
  std::string fill_note;
  Result<uint64_t> r = FillFile(job, fresh, fd, stop, &fill_note);
  if (!r.ok()) {
    UndoLayOut(t.path, false, 0, t.link_to);
    return r;
  }
  if (note != nullptr) {
    *note = t.path + " was a symbolic link to " + t.link_to +
            (t.exists ? " (" + std::to_string(t.current_size) + " bytes, shorter than the " +
                            std::to_string(t.needed_size) + " the job needs)"
                      : " (which does not exist)") +
            ": replaced by a regular file laid out at " + t.path +
            ", as fio does; the link's target was not touched";
    if (!fill_note.empty()) *note += "; " + fill_note;
  }
  return r;
}

}  // namespace

Result<uint64_t> LayOutFile(const JobSpec& job, const TargetFile& t, const std::atomic<int>* stop,
                            std::string* note) {
  if (t.diskless || t.is_block_device || t.is_char_device || job.create_on_open) return uint64_t{0};
  if (t.exists && t.current_size >= t.needed_size) return uint64_t{0};
  if (!t.link_to.empty()) return ReplaceLink(job, t, stop, note);
  Status dir_error;
  const int fd = OpenCreating(job, t.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644, &dir_error);
  if (!dir_error.ok()) return dir_error;
  if (fd < 0) {
    const int err = errno;
    // A file that is there but short is extended, not created: the error
    // says which, and by how much (an immutable file, a read-only mount).
    const std::string what = t.exists ? "extend " + t.path + " (" + std::to_string(t.current_size) +
                                            " -> " + std::to_string(t.needed_size) + " bytes)"
                                      : "create " + t.path + CreateFailureReason(t.path, err);
    return ErrnoStatus(JobLabel(job) + ": " + what, err);
  }
  FdCloser closer{fd};
  Result<uint64_t> r = FillFile(job, t, fd, stop, note);
  if (r.ok()) return r;
  // A layout cut short (a signal, ENOSPC, an I/O error) is undone: the
  // preallocation made the file full size, so the next run would take it as
  // laid out and read unwritten extents (zeros, no device I/O). A file this
  // run created goes, as fio's extend_file unlinks it when terminated; a file
  // that was extended goes back to its old size and data (fio, which lays
  // such a file out anew, removes it).
  UndoLayOut(t.path, t.exists, t.current_size, t.link_to);
  return r;
}

void UndoLayOut(const std::string& path, bool existed, uint64_t old_size,
                const std::string& link_to) {
  struct stat st {};
  const bool there = lstat(path.c_str(), &st) == 0;
  if (there && S_ISLNK(st.st_mode)) return;  // not laid out: the user's link stays
  if (!link_to.empty()) {
    if (there) (void)::unlink(path.c_str());
    (void)::symlink(link_to.c_str(), path.c_str());
  } else if (!existed) {
    (void)::unlink(path.c_str());
  } else {
    (void)::truncate(path.c_str(), static_cast<off_t>(old_size));
  }
}

// EINVAL from an open with O_DIRECT: the file system refuses direct I/O
// (ramfs; fio hints "looks like your file system does not support
// direct=1/buffered=0"). Says where direct=1 (or buffered=0) was set and the
// file system, so the fix is plain.
static Status DirectOpenRefusal(const JobSpec& job, const std::string& path, int err) {
  const bool buffered = job.FindSetting("direct") == nullptr && job.FindSetting("buffered");
  const std::string where =
      buffered ? sys::OptionAt(job, "buffered", "0") : sys::OptionAt(job, "direct", "1");
  auto fs = sys::FsTypeName(path);
  if (!fs.ok()) fs = sys::FsTypeName(std::filesystem::path(path).parent_path().string());
  const std::string fs_name = fs.ok() ? "the " + *fs + " file system" : "the file system";
  return Status(Status::Code::kIoError,
                JobLabel(job) + ": open " + path + " with O_DIRECT (" + where +
                    "): " + std::strerror(err) + ": " + fs_name +
                    " likely does not support O_DIRECT; drop " +
                    (buffered ? "buffered=0" : "direct=1") + " or put the file on one that does",
                err);
}

Result<int> OpenTarget(const JobSpec& job, const TargetFile& t) {
  const bool writes = JobWrites(job);
  int flags = (writes ? O_RDWR : O_RDONLY) | O_CLOEXEC;
  if (job.direct) flags |= O_DIRECT;
  if (job.sync) flags |= O_SYNC;
  if (job.dsync) flags |= O_DSYNC;
  if (CreatesOnOpen(job) && !t.is_block_device) flags |= O_CREAT;
  Status dir_error;
  // A file made here (create_on_open) is 0600, as fio's generic_open_file
  // makes it; a laid-out file is 0644, as fio's extend_file.
  const int fd = OpenCreating(job, t.path, flags, 0600, &dir_error);
  if (!dir_error.ok()) return dir_error;
  if (fd < 0) {
    const int err = errno;
    if (err == EINVAL && job.direct) return DirectOpenRefusal(job, t.path, err);
    // Which option named the file, and where, as the layout's errors say
    // it: "filename=F at j.fio:5: open F: Permission denied".
    const std::string files_at = sys::FilesOptionAt(job);
    return ErrnoStatus(JobLabel(job) + ": " + (files_at.empty() ? "" : files_at + ": ") + "open " +
                           t.path +
                           ((flags & O_CREAT) != 0 ? CreateFailureReason(t.path, err) : "") +
                           sys::OpenFilesLimitHint(err),
                       err);
  }
  // write_hint: the inode's hint, which the kernel applies to buffered and
  // direct writes alike (fio 3.33 sets the per-file hint for direct=1, which
  // Linux 5.17+ refuses with EINVAL). A kernel that refuses fails the job.
  if (job.write_hint >= 0 && !t.is_char_device) {
    uint64_t hint = static_cast<uint64_t>(job.write_hint);
    if (fcntl(fd, F_SET_RW_HINT, &hint) < 0) {
      const int err = errno;
      close(fd);
      return ErrnoStatus(JobLabel(job) + ": write_hint: fcntl(F_SET_RW_HINT, " +
                             std::to_string(hint) + ") on " + t.path,
                         err);
    }
  }
  return fd;
}

Status InvalidateTarget(int fd, const TargetFile& t, std::string* kept) {
  if (t.is_block_device) {
    if (ioctl(fd, BLKFLSBUF, 0) == 0) return Status::Ok();
    const int err = errno;
    // BLKFLSBUF needs CAP_SYS_ADMIN (EACCES): a user, or root without the
    // capability (a container). Decided by the error, not by who we are.
    // fio 3.33 then skips the drop and runs on the cached pages; writing
    // back the dirty pages and dropping the clean ones of the job's region
    // needs only the open descriptor.
    if (err != EACCES && err != EPERM) return ErrnoStatus("invalidate: BLKFLSBUF " + t.path, err);
    std::string why = std::string("BLKFLSBUF: ") + std::strerror(err) + " (needs CAP_SYS_ADMIN)";
    if (fsync(fd) < 0) {
      why += std::string(", fsync: ") + std::strerror(errno);
    } else if (int e = posix_fadvise(fd, static_cast<off_t>(t.region_offset),
                                     static_cast<off_t>(t.region_size), POSIX_FADV_DONTNEED);
               e != 0) {
      why += std::string(", posix_fadvise(DONTNEED): ") + std::strerror(e);
    } else {
      return Status::Ok();
    }
    if (kept != nullptr) *kept = why;
    return Status::Ok();
  }
  // The job's region only, as fio's file_invalidate_cache (file_offset,
  // io_size): the whole file dropped what the other jobs of a shared file
  // had read. A region of 0 (unknown) runs to the end of the file.
  if (int e = posix_fadvise(fd, static_cast<off_t>(t.region_offset),
                            static_cast<off_t>(t.region_size), POSIX_FADV_DONTNEED);
      e != 0)
    return ErrnoStatus("invalidate: posix_fadvise " + t.path, e);
  return Status::Ok();
}

Status AdviseTarget(int fd, const TargetFile& t, const JobSpec& job) {
  using H = JobSpec::FadviseHint;
  if (job.fadvise_hint == H::kNone) return Status::Ok();
  const bool random =
      job.fadvise_hint == H::kRandom || (job.fadvise_hint == H::kWorkload && IsRandom(job.rw));
  const int advice = random ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
  if (int e = posix_fadvise(fd, static_cast<off_t>(t.region_offset),
                            static_cast<off_t>(t.region_size), advice);
      e != 0)
    return ErrnoStatus(std::string("fadvise_hint: posix_fadvise(") +
                           (random ? "RANDOM" : "SEQUENTIAL") + ") " + t.path,
                       e);
  return Status::Ok();
}

Status PreReadTarget(int fd, const TargetFile& t, const std::atomic<int>* stop) {
  // A separate buffered descriptor: an O_DIRECT fd would not fill the cache.
  const int rfd = open(t.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (rfd < 0) return ErrnoStatus("pre_read: open " + t.path);
  FdCloser closer{rfd};
  (void)fd;
  constexpr uint64_t kChunk = 1 << 20;
  std::unique_ptr<uint8_t[]> buf(new uint8_t[kChunk]);
  uint64_t pos = t.region_offset;
  const uint64_t end = t.region_offset + t.region_size;
  while (pos < end) {
    // Ctrl-C waited for the whole file (6 s for 6 GiB from disk; fio stops).
    if (stop != nullptr && stop->load(std::memory_order_relaxed) != 0)
      return Status(Status::Code::kInterrupted,
                    "pre_read: " + t.path + ": interrupted by a signal");
    const ssize_t r = pread(rfd, buf.get(), std::min(kChunk, end - pos), static_cast<off_t>(pos));
    if (r < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus("pre_read: read " + t.path);
    }
    if (r == 0) break;
    pos += static_cast<uint64_t>(r);
  }
  return Status::Ok();
}

Status CheckOpenFiles(const JobSpec& job, size_t nfiles) {
  if (job.openfiles == 0 || job.openfiles >= nfiles) return Status::Ok();
  const OptionSetting* set = job.FindSetting("openfiles");
  const std::string head = "job '" + job.name + "': openfiles=" + std::to_string(job.openfiles) +
                           (set != nullptr ? " (" + set->Where() + ")" : "") + " below its " +
                           std::to_string(nfiles) + " files ";
  const auto where = [&job](const char* name) {
    const OptionSetting* s = job.FindSetting(name);
    return s != nullptr ? " (" + s->Where() + ")" : std::string();
  };
  // verify with do_verify=0 (and no backlog) only writes the headers: no
  // read-back, so the limit holds as for any writer (fio runs it too).
  if (job.verify.ReadsBack())
    return Status::Invalid(head + "is not supported with verify" + where("verify") +
                           ": the verify phase reads every file back; leave openfiles unset "
                           "(or set do_verify=0 to write the verify headers only)");
  if (!job.read_iolog.empty())
    return Status::Invalid(head + "is not supported with read_iolog" + where("read_iolog") +
                           ": the log's open and close lines say which files are open");
  if (job.RegistersFiles()) {
    const char* opt = job.registerfiles ? "registerfiles" : "sqthread_poll";
    return Status::Invalid(head + "is not supported with io_uring " + opt + "=1" + where(opt) +
                           ": registered files must all be open (fio refuses it too)");
  }
  return Status::Ok();
}

}  // namespace iobench
