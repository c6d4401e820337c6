#include "sys/safety.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

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

// "jobs/a.fio:12" for the option's setting, else the job's section line.
std::string Where(const JobSpec& job, const char* option) {
  for (auto it = job.settings.rbegin(); it != job.settings.rend(); ++it) {
    if (it->name == option && !it->file.empty())
      return it->line > 0 ? it->file + ":" + std::to_string(it->line) : it->file;
  }
  if (!job.job_file.empty())
    return job.line > 0 ? job.job_file + ":" + std::to_string(job.line) : job.job_file;
  return "<cmdline>";
}

uint64_t Mul(uint64_t a, uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return UINT64_MAX;
  return a * b;
}

uint64_t Add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

std::string LimitText(uint64_t v) { return v == kUnlimited ? "unlimited" : std::to_string(v); }

uint64_t RlimValue(rlim_t v) { return v == RLIM_INFINITY ? kUnlimited : static_cast<uint64_t>(v); }

// CapEff bit from /proc/self/status.
bool HasCapability(int bit) {
  auto text = ReadTextFile("/proc/self/status");
  if (!text.ok()) return false;
  std::istringstream lines(*text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("CapEff:", 0) != 0) continue;
    const unsigned long long caps = std::strtoull(line.c_str() + 7, nullptr, 16);
    return (caps >> bit) & 1;
  }
  return false;
}

}  // namespace

Status CheckWriteSafety(const std::string& block_device_path, bool allow_mounted_write) {
  if (allow_mounted_write) return Status::Ok();
  struct stat st;
  if (stat(block_device_path.c_str(), &st) != 0)
    return ErrnoStatus("write safety check: stat " + block_device_path);
  if (!S_ISBLK(st.st_mode)) return Status::Ok();
  IOB_ASSIGN_OR_RETURN(std::string name, BlockNameForDev(st.st_rdev));

  // The device and, for a whole disk, each of its partitions.
  std::vector<std::string> names = {name};
  std::string parent;
  if (!IsPartition(name, &parent))
    for (const auto& p : PartitionsOf(name)) names.push_back(p);
  std::vector<std::pair<std::string, dev_t>> devs;
  for (const auto& n : names) {
    auto d = n == name ? Result<dev_t>(st.st_rdev) : DevForBlockName(n);
    if (d.ok()) devs.emplace_back(n, *d);
  }
  auto label = [&](const std::string& n) {
    return n == name ? std::string() : "partition " + n + " ";
  };

  std::vector<std::string> reasons;
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
    if (!points.empty()) reasons.push_back(label(n) + "mounted at " + Join(points, ", "));
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
        if (sw.st_rdev == d) reasons.push_back(label(n) + "is active swap (" + file + ")");
    }
  }

  for (const auto& [n, d] : devs) {
    std::vector<std::string> holders = ListDir("/sys/class/block/" + n + "/holders");
    std::sort(holders.begin(), holders.end());
    for (auto& h : holders) {
      auto dm = ReadFirstLine("/sys/class/block/" + h + "/dm/name");
      if (dm.ok() && !dm->empty()) h += " (device-mapper " + *dm + ")";
    }
    if (!holders.empty()) reasons.push_back(label(n) + "is held by " + Join(holders, ", "));
  }

  // A mount or holder already explains the busy open; O_EXCL catches the
  // users the tables above do not show (another exclusive opener).
  if (reasons.empty()) {
    const int fd = open(block_device_path.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
    if (fd >= 0) {
      close(fd);
    } else if (errno == EBUSY) {
      reasons.push_back("is in use: opening it with O_EXCL failed (Device or resource busy)");
    } else {
      return ErrnoStatus("write safety check: open " + block_device_path + " with O_EXCL");
    }
  }
  if (reasons.empty()) return Status::Ok();
  return Status::Refused("refusing to write to " + block_device_path + " (" + name +
                         "): " + Join(reasons, "; ") +
                         "; set allow_mounted_write=1 to write anyway (this can destroy the data "
                         "on it)");
}

Status CheckJobsWriteSafety(const std::vector<JobSpec>& jobs) {
  for (const auto& job : jobs) {
    if (!JobWrites(job)) continue;
    for (const auto& path : JobFilePaths(job)) {
      if (!IsBlockDevice(path)) continue;
      Status st = CheckWriteSafety(path, job.allow_mounted_write);
      if (!st.ok()) return st.WithContext("job '" + job.name + "'");
    }
  }
  return Status::Ok();
}

Status CheckReadonly(const JobSpec& job) {
  const std::string who = "--readonly: job '" + job.name + "'";
  if (JobWrites(job) && !job.read_iolog.empty())  // rw came from the log
    return Status::Refused(who + " replays writes or trims (read_iolog " + job.read_iolog + " at " +
                           Where(job, "read_iolog") +
                           "; replay_skip=write,trim replays its reads alone, which fio does "
                           "under --readonly)");
  if (JobWrites(job)) {
    const char* what =
        HasWrite(job.rw) ? (HasTrim(job.rw) ? "writes and trims" : "writes") : "trims";
    return Status::Refused(who + " " + what + " (rw=" + RwModeName(job.rw) + " at " +
                           Where(job, "rw") + ")");
  }
  if (job.unlink)
    return Status::Refused(who + " deletes its files (unlink=1 at " + Where(job, "unlink") + ")");
  // verify= on a job that does not write only checks what it reads (as
  // fio's read jobs with verify do): nothing to refuse. A writing job with
  // verify was refused above for its rw.
  // The null engine opens, creates and lays out nothing (writes are still
  // refused above, as fio refuses them).
  if (job.ioengine == "null") return Status::Ok();
  const uint64_t region = job.size > 0 ? Add(job.offset, job.size) : 0;
  for (const auto& path : JobFilePaths(job)) {
    struct stat st;
    if (stat(path.c_str(), &st) != 0) {
      if (errno == ENOENT)
        return Status::Refused(who + " would create and lay out " + path + " (it does not exist)");
      return ErrnoStatus("--readonly: stat " + path);
    }
    if (S_ISREG(st.st_mode) && region > static_cast<uint64_t>(st.st_size))
      return Status::Refused(who + " would extend " + path + " from " + std::to_string(st.st_size) +
                             " to " + std::to_string(region) + " bytes (size at " +
                             Where(job, "size") + ")");
  }
  return Status::Ok();
}

Result<SystemLimits> ReadSystemLimits() {
  SystemLimits l;
  IOB_ASSIGN_OR_RETURN(l.mem_available, MemInfoBytes("MemAvailable"));
  struct rlimit r;
  if (getrlimit(RLIMIT_NOFILE, &r) != 0) return ErrnoStatus("getrlimit(RLIMIT_NOFILE)");
  l.nofile_soft = RlimValue(r.rlim_cur);
  l.nofile_hard = RlimValue(r.rlim_max);
  if (getrlimit(RLIMIT_NPROC, &r) != 0) return ErrnoStatus("getrlimit(RLIMIT_NPROC)");
  l.nproc_soft = RlimValue(r.rlim_cur);
  if (getrlimit(RLIMIT_MEMLOCK, &r) != 0) return ErrnoStatus("getrlimit(RLIMIT_MEMLOCK)");
  l.memlock_soft = RlimValue(r.rlim_cur);
  IOB_ASSIGN_OR_RETURN(int64_t tmax, ReadIntFile("/proc/sys/kernel/threads-max"));
  l.threads_max = static_cast<uint64_t>(tmax);
  // Without AIO support in the kernel these files are missing; libaio jobs
  // then fail in io_setup with their own message.
  auto amax = ReadIntFile("/proc/sys/fs/aio-max-nr");
  auto anr = ReadIntFile("/proc/sys/fs/aio-nr");
  l.aio_max_nr = amax.ok() ? static_cast<uint64_t>(*amax) : kUnlimited;
  l.aio_nr = anr.ok() ? static_cast<uint64_t>(*anr) : 0;
  l.cap_ipc_lock = HasCapability(14);                           // CAP_IPC_LOCK
  l.cap_sys_resource = HasCapability(24) || HasCapability(21);  // CAP_SYS_RESOURCE/ADMIN
  return l;
}

ResourceNeeds ComputeResourceNeeds(const std::vector<JobSpec>& jobs) {
  ResourceNeeds n;
  // stdin/out/err, log files, the status thread's timer and slack.
  n.open_files = 16;
  n.threads = 2;  // main thread and the status/ETA thread
  for (const auto& job : jobs) {
    const uint64_t clones = std::max<uint32_t>(1, job.numjobs);
    const uint64_t depth = std::max<uint32_t>(1, job.iodepth);
    const uint64_t bufs = Mul(Mul(depth, BufferBs(job)), clones);
    n.buffer_bytes = Add(n.buffer_bytes, bufs);
    uint64_t fds_per_clone = JobFilesPerClone(job);
    if (job.ioengine == "io_uring" || job.ioengine == "io_uring_cmd") fds_per_clone += 1;
    n.open_files = Add(n.open_files, Mul(fds_per_clone, clones));
    n.threads = Add(n.threads, clones);
    // verify_async: each clone's check threads (src/run/verify_async.h).
    if (job.verify.type != VerifyType::kNone)
      n.threads = Add(n.threads, Mul(job.verify.async, clones));
    // io_setup(iodepth) per clone; the kernel charges aio-nr what was asked for.
    if (job.ioengine == "libaio") n.aio_events = Add(n.aio_events, Mul(depth, clones));
    if (job.ioengine.rfind("io_uring", 0) == 0 && job.fixedbufs)
      n.locked_bytes = Add(n.locked_bytes, bufs);
    n.lockmem_bytes = Add(n.lockmem_bytes, Mul(job.lockmem, clones));
  }
  return n;
}

Status CheckResourceLimitsAgainst(const std::vector<JobSpec>& jobs, const SystemLimits& l) {
  const ResourceNeeds n = ComputeResourceNeeds(jobs);
  std::vector<std::string> errs;
  if (n.buffer_bytes > l.mem_available)
    errs.push_back("memory: the I/O buffers need " + HumanBytes(n.buffer_bytes) +
                   " (iodepth x largest bs x numjobs, summed over jobs) but MemAvailable is " +
                   HumanBytes(l.mem_available) + "; lower iodepth, bs or numjobs");
  if (n.open_files > l.nofile_soft) {
    std::string how = "raise it with `ulimit -n " + std::to_string(n.open_files) + "`";
    if (n.open_files > l.nofile_hard)
      how += " after raising the hard limit (" + LimitText(l.nofile_hard) +
             ", nofile in /etc/security/limits.conf)";
    errs.push_back("open files: the jobs need " + std::to_string(n.open_files) +
                   " file descriptors but RLIMIT_NOFILE is " + LimitText(l.nofile_soft) + "; " +
                   how);
  }
  if (!l.cap_sys_resource && n.threads > l.nproc_soft)
    errs.push_back("threads: the jobs need " + std::to_string(n.threads) +
                   " threads but RLIMIT_NPROC is " + LimitText(l.nproc_soft) +
                   "; raise it with `ulimit -u " + std::to_string(n.threads) + "`");
  if (n.threads > l.threads_max)
    errs.push_back("threads: the jobs need " + std::to_string(n.threads) +
                   " threads but kernel.threads-max is " + LimitText(l.threads_max) +
                   "; raise it with `sysctl kernel.threads-max=" + std::to_string(n.threads) + "`");
  if (n.aio_events > 0 && l.aio_max_nr != kUnlimited) {
    const uint64_t free = l.aio_max_nr > l.aio_nr ? l.aio_max_nr - l.aio_nr : 0;
    if (n.aio_events > free)
      errs.push_back("aio: the libaio jobs reserve " + std::to_string(n.aio_events) +
                     " events (iodepth x numjobs) but only " + std::to_string(free) +
                     " are free (fs.aio-max-nr=" + std::to_string(l.aio_max_nr) + ", fs.aio-nr=" +
                     std::to_string(l.aio_nr) + " in use); raise it with `sysctl fs.aio-max-nr=" +
                     std::to_string(Add(l.aio_nr, n.aio_events)) + "`");
  }
  // lockmem pins memory nothing can reclaim: past what is available the
  // kernel OOM-kills processes (this one, or others). fio caps it at the
  // machine's memory less 128 MiB, which is too late; iobench refuses it
  // unless 256 MiB stay available.
  constexpr uint64_t kLockSpare = 256ull << 20;
  if (n.lockmem_bytes > 0 &&
      Add(Add(n.lockmem_bytes, n.buffer_bytes), kLockSpare) > l.mem_available)
    errs.push_back("memory: lockmem pins " + HumanBytes(n.lockmem_bytes) +
                   " (lockmem x numjobs, summed over jobs) and the buffers need " +
                   HumanBytes(n.buffer_bytes) + ", but MemAvailable is " +
                   HumanBytes(l.mem_available) +
                   " and iobench keeps 256 MiB of it free (pinning more gets processes "
                   "OOM-killed); lower lockmem or numjobs");
  const uint64_t locked = Add(n.locked_bytes, n.lockmem_bytes);
  if (locked > 0 && !l.cap_ipc_lock && locked > l.memlock_soft) {
    const uint64_t kib = (locked + 1023) / 1024;
    errs.push_back(
        "locked memory: " +
        (n.locked_bytes == 0
             ? "lockmem pins " + HumanBytes(n.lockmem_bytes)
             : "io_uring fixedbufs registers " + HumanBytes(n.locked_bytes) + " of buffers" +
                   (n.lockmem_bytes ? " and lockmem pins " + HumanBytes(n.lockmem_bytes) : "")) +
        " but RLIMIT_MEMLOCK is " +
        (l.memlock_soft == kUnlimited ? std::string("unlimited") : HumanBytes(l.memlock_soft)) +
        "; raise it with `ulimit -l " + std::to_string(kib) + "` (KiB) or run with CAP_IPC_LOCK");
  }
  if (errs.empty()) return Status::Ok();
  return Status::Limit(Join(errs, "; "));
}

Status CheckResourceLimits(const std::vector<JobSpec>& jobs) {
  IOB_ASSIGN_OR_RETURN(SystemLimits l, ReadSystemLimits());
  return CheckResourceLimitsAgainst(jobs, l);
}

}  // namespace iobench::sys
