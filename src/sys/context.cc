#include "sys/context.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <unordered_set>

#include "iobench/clock.h"
#include "iobench/engine.h"
#include "sys/host.h"
#include "sys/job_paths.h"
#include "sys/procfs.h"
#include "sys/strings.h"
#include "sys/target.h"

#ifndef IOBENCH_VERSION
#define IOBENCH_VERSION "unknown"
#endif

namespace iobench::sys {
namespace {

constexpr uint64_t kDiskSizedRegion = 1ull << 30;

std::vector<std::string> Tokens(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      cur.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    } else if (!cur.empty()) {
      out.push_back(cur);
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// sda, sdab1, vdb, xvda2, hdc: a prefix, one or two letters, digits.
bool IsDiskName(const std::string& t) {
  for (const char* prefix : {"xvd", "sd", "vd", "hd"}) {
    const std::string p = prefix;
    if (t.rfind(p, 0) != 0) continue;
    size_t i = p.size(), letters = 0;
    while (i < t.size() && std::islower(static_cast<unsigned char>(t[i]))) ++i, ++letters;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    if (i == t.size() && letters >= 1 && letters <= 2) return true;
  }
  return false;
}

// The word that names a disk in `s`, or "". A disk name (sdk, vdi) counts
// only when it is a block device of this machine (/sys/class/block: disks
// and partitions) if `existing_only`: job names and descriptions are free
// text, where `hdr-test`, `sdk` or `vdi` (an image format) mean no disk.
std::string DiskWord(const std::string& s, bool existing_only) {
  for (const auto& t : Tokens(s)) {
    if (t.rfind("nvme", 0) == 0 || t == "ssd" || t == "hdd" || t == "disk" || t == "disks")
      return t;
    if (IsDiskName(t)) {
      struct stat st;
      if (!existing_only || stat(("/sys/class/block/" + t).c_str(), &st) == 0) return t;
    }
  }
  return "";
}

bool StartsWith(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

uint64_t JobRegion(const JobSpec& job) {
  return std::max({job.size, job.io_size, job.filesize_max, job.filesize_min});
}

// Why the job reads like a disk test, or "" when it does not.
std::string DiskIntent(const JobSpec& job, const std::vector<std::string>& paths,
                       bool include_direct) {
  // A trim does not go through the page cache: direct=1 means nothing to
  // a trim-only job.
  if (include_direct && job.direct && (HasRead(job.rw) || HasWrite(job.rw))) return "direct=1";
  if (JobRegion(job) >= kDiskSizedRegion) return "size=" + HumanBytes(JobRegion(job));
  for (const auto& p : paths) {
    if ((StartsWith(p, "/dev/") && !StartsWith(p, "/dev/shm/")) || StartsWith(p, "/mnt/") ||
        StartsWith(p, "/media/"))
      return "the path " + p + " names a device or a mounted disk";
    // A block device under another name (a symlink such as /tmp/x to
    // /dev/loop1, or /dev/disk/by-id/...) is a disk whatever its path says.
    if (struct stat st; stat(p.c_str(), &st) == 0 && S_ISBLK(st.st_mode))
      return "the path " + p + " is a block device";
    if (std::string w = DiskWord(p, false); !w.empty())
      return "the path " + p + " says '" + w + "'";
  }
  for (const std::string* s : {&job.name, &job.description})
    if (std::string w = DiskWord(*s, true); !w.empty()) return "the job says '" + w + "'";
  return "";
}

// A job's files, sorted: a run of thousands of files asks, per file, which
// jobs use it, and a search of each job's list per question took time
// quadratic in the files (psync nrfiles=5000: 3.6 s before the first I/O;
// fio 0.4 s).
struct JobFiles {
  explicit JobFiles(const JobSpec& j) : job(&j), list(JobFilePaths(j)), sorted(list) {
    std::sort(sorted.begin(), sorted.end());
  }
  const JobSpec* job;
  std::vector<std::string> list;  // in the job's order
  std::vector<std::string> sorted;
};

// Whether target `t` is one of the job's files, a directory holding one,
// or the job's directory=.
bool Matches(const JobFiles& files, const std::string& t) {
  if (t.empty()) return false;
  const JobSpec& job = *files.job;
  if (!job.directory.empty() && t == JobDirectories(job).front()) return true;
  const std::vector<std::string>& v = files.sorted;
  if (std::binary_search(v.begin(), v.end(), t)) return true;
  std::string dir = t;
  if (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  // The paths under dir/ sort together, from the first not below it.
  const std::string prefix = dir == "/" ? dir : dir + "/";
  auto it = std::lower_bound(v.begin(), v.end(), prefix);
  if (it != v.end() && *it == "/") ++it;  // "/" itself is not under "/"
  return it != v.end() && StartsWith(*it, prefix);
}

// A target on a stacked device (a filesystem on loop0 over vda, or on dm-0
// over sda and sdb): ResolveTarget takes the queue settings from the disk
// at the bottom, where requests are scheduled, and readahead from the
// filesystem's bdi (the top device's, or btrfs's own). The logical block
// size O_DIRECT must align to belongs to the top device, the one the
// filesystem or the job opens. The device reads "loop0 on vda", so that
// the stack under the numbers is not hidden.
void StackedDevice(const TargetInfo& info, TargetContext* tc) {
  if (info.disks.empty()) return;
  const std::vector<std::string> top =
      info.top_disks.empty() ? std::vector<std::string>{info.disks.front()} : info.top_disks;
  if (!info.backing_fs_without_disk.empty()) {
    // Loop devices over files on tmpfs: the stack ends in memory. Every
    // top device is named, as over a disk (a btrfs raid1 on loop2 and
    // loop3 read "loop2 on tmpfs").
    tc->backing_fs = info.backing_fs_without_disk;
    tc->device = Join(top, ",") + " on " + tc->backing_fs;
    return;
  }
  const std::vector<std::string> bottom =
      info.bottom_disks.empty() ? std::vector<std::string>{info.disks.back()} : info.bottom_disks;
  if (top == bottom) return;
  // O_DIRECT must align to the largest of the top devices' sectors.
  uint32_t lbs = 0;
  for (const auto& d : top)
    if (auto v = ReadIntFile("/sys/block/" + d + "/queue/logical_block_size"); v.ok())
      lbs = std::max(lbs, static_cast<uint32_t>(*v));
  if (lbs > 0) tc->logical_block_size = lbs;
  tc->device = Join(top, ",") + (tc->device.empty() ? "" : " on " + tc->device);
}

std::string JobLabel(const JobSpec& job) { return "job '" + job.name + "': "; }

std::string FsLabel(const TargetContext& t) {
  return t.fs_type.empty() ? std::string("a block device") : t.fs_type;
}

}  // namespace

bool LooksLikeDiskTest(const JobSpec& job, const std::vector<std::string>& paths) {
  return !DiskIntent(job, paths, true).empty();
}
bool MeansDisk(const JobSpec& job, const std::vector<std::string>& paths) {
  return !DiskIntent(job, paths, false).empty();
}

namespace {
// The file system code that serves the target: an ext3 mount is ext4's.
const std::string& DriverOf(const TargetContext& c) {
  return c.fs_driver.empty() ? c.fs_type : c.fs_driver;
}
// Why the data a job writes compresses ("zero_buffers=1"), "" when it
// does not: fresh random data for each write (refill_buffers=1, or the
// dedupe options, which refill). `*surely`: btrfs compresses it; else it
// may: the job rewrites its buffers (refill_buffers=0, fio's default),
// which btrfs may find repeated within the 128 KiB it compresses at once
// (fio's 4k writes were, iobench's 64k psync writes mostly), or less than
// half of it compresses (buffer_compress_percentage under 50: btrfs's
// heuristic let such data through only with compress-force, `force`).
std::string CompressibleData(const JobSpec& job, bool force, bool* surely) {
  *surely = true;
  if (job.zero_buffers) return "zero_buffers=1";
  if (job.buffer_compress_percentage > 0) {
    *surely = force || job.buffer_compress_percentage >= 50;
    return "buffer_compress_percentage=" + std::to_string(job.buffer_compress_percentage);
  }
  if (!job.buffer_pattern.empty()) return "buffer_pattern";
  if (job.verify.type == VerifyType::kPattern) return "verify=pattern";
  *surely = false;
  if (job.refill_buffers || job.dedupe_percentage > 0) return "";
  return "refill_buffers=0";
}

// A read-only job that reads each block of its region at most once, with
// the cache dropped first (invalidate=1): one pass, not time_based, no
// io_size beyond the region, and a random job that keeps its random map.
// Not when the data is shared (`shared`: another clone or job reads the
// same file, and finds what the first one cached) or comes from a replayed
// log, which may read a block many times.
bool ReadsEachBlockOnce(const JobSpec& job, bool shared) {
  if (!job.invalidate || HasWrite(job.rw) || HasTrim(job.rw) || job.loops > 1 || job.time_based ||
      shared || !job.read_iolog.empty())
    return false;
  if (IsRandom(job.rw) && (job.norandommap || job.percentage_random[0] != 100)) return false;
  const uint64_t region = std::max({job.size, job.filesize_max, job.filesize_min});
  return job.io_size == 0 || (region != 0 && job.io_size <= region);
}

// Warnings 3 and 3b end alike: what io-wq's punting means for the figures.
constexpr const char* kIoWqPunt =
    " to io-wq kernel workers; their CPU time is not the job's (see the helper CPU line)";

// The target's data lives in memory: a memory file system, or a loop
// device or overlay layer over one (warning 1).
bool InMemory(const TargetContext& c) { return IsMemoryFs(c.fs_type) || IsMemoryFs(c.backing_fs); }
}  // namespace

// From the kernel sources: ext4, xfs and btrfs set FMODE_BUF_RASYNC in their
// open, as does a raw block device; only xfs and btrfs set FMODE_BUF_WASYNC.
bool FsSupportsNowaitBufferedRead(const std::string& fs_type) {
  return fs_type.empty() || fs_type == "ext4" || fs_type == "xfs" || fs_type == "btrfs";
}
bool FsSupportsNowaitBufferedWrite(const std::string& fs_type) {
  return fs_type == "xfs" || fs_type == "btrfs";
}

std::vector<std::string> DetectTraps(const std::vector<JobSpec>& jobs,
                                     const std::vector<TargetContext>& targets,
                                     const TrapEnv& env) {
  std::vector<std::string> out;
  // How many jobs use each file, for "another job reads it too".
  std::map<std::string, size_t> users;
  for (const auto& job : jobs)
    for (const auto& p : JobFilePaths(job)) ++users[p];
  for (const auto& job : jobs) {
    const JobFiles files(job);
    // The job's clones share a file (filename=, or a filename_format
    // without $jobnum): fewer files than one clone's times numjobs.
    bool shared = false;
    if (job.numjobs > 1) {
      JobSpec one = job;
      one.numjobs = 1;
      shared = files.list.size() < JobFilePaths(one).size() * job.numjobs;
    }
    for (const auto& p : files.list) shared = shared || users[p] > 1;
    std::vector<const TargetContext*> mine;
    for (const auto& t : targets)
      if (Matches(files, t.path)) mine.push_back(&t);
    const std::string who = JobLabel(job);

    size_t unexamined = 0;
    for (const auto& p : env.unexamined) unexamined += Matches(files, p);
    // The first target satisfying `pred`, named with "(and N more)", and how
    // many of the job's files were not examined.
    auto first = [&](const std::function<bool(const TargetContext&)>& pred,
                     const TargetContext** hit) {
      size_t n = 0;
      for (const auto* t : mine)
        if (pred(*t)) {
          if (n++ == 0) *hit = t;
        }
      if (n == 0) return std::string();
      std::string more = n > 1 ? "and " + std::to_string(n - 1) + " more" : "";
      if (unexamined > 0)
        more +=
            (more.empty() ? "" : "; ") + std::to_string(unexamined) + " more files not examined";
      return (*hit)->path + (more.empty() ? "" : " (" + more + ")");
    };
    const TargetContext* t = nullptr;

    // 1. A disk test on memory.
    const std::string intent = DiskIntent(job, files.list, true);
    if (!intent.empty()) {
      // /dev/null and /dev/zero are chosen to leave the device out: no note.
      // ramfs refuses O_DIRECT: a direct=1 job on it fails at its open,
      // which says so; a warning about its numbers would describe none.
      std::string where = first(
          [&job](const TargetContext& c) {
            return InMemory(c) && c.path != "/dev/null" && c.path != "/dev/zero" &&
                   !(job.direct && c.fs_type == "ramfs");
          },
          &t);
      if (!where.empty()) {
        // An overlay's upper directory may itself be on a loop device over
        // a file in memory: its device is then that loop device.
        const std::string loop = t->device.substr(0, t->device.find(' '));
        const std::string on_loop = loop + " with its backing file on " + t->backing_fs;
        out.push_back(who + where + " is on " +
                      (t->backing_fs.empty()     ? t->fs_type
                       : t->fs_type == "overlay" ? "overlay with its " + t->overlay_layer + " on " +
                                                       (loop.empty() ? t->backing_fs : on_loop)
                                                 : on_loop) +
                      ", so no disk is involved, but the job reads like a disk test (" + intent +
                      "): the numbers measure memory copies, not a device");
      }
    }

    // 2. invalidate=1 that could not drop the cache (no CAP_SYS_ADMIN for
    // BLKFLSBUF, and the fallback failed): reads may be cache hits.
    if (!job.direct && job.invalidate && !env.cache_kept.empty()) {
      std::string where =
          first([&](const TargetContext& c) { return env.cache_kept.count(c.path) != 0; }, &t);
      if (!where.empty())
        out.push_back(who + "invalidate=1 did NOT drop the page cache of " + where + " (" +
                      env.cache_kept.at(t->path) +
                      "): the job's reads may be served from memory, not the device");
    }

    // 2b. Buffered random reads after invalidate with a random map.
    if (!job.direct && HasRead(job.rw) && IsRandom(job.rw) && job.invalidate && !job.norandommap &&
        !shared && job.read_iolog.empty()) {
      std::string where = first(
          [&](const TargetContext& c) {
            return !IsMemoryFs(c.fs_type) && !c.device.empty() && env.cache_kept.count(c.path) == 0;
          },
          &t);
      if (!where.empty())
        out.push_back(who + "note: buffered random reads of " + where +
                      " with invalidate=1 and a random map: the cache is dropped at the start and "
                      "each block is read once per pass, so this measures the device through the "
                      "page cache, not page cache hits");
    }

    // 3. io_uring buffered I/O where the filesystem cannot do it nonblocking.
    // With nowait=1 (RWF_NOWAIT) io_uring does not punt: such an I/O fails
    // with EAGAIN, which the error message and the eagain count say.
    if (job.ioengine.rfind("io_uring", 0) == 0 && !job.direct && !job.nowait) {
      const bool reads = HasRead(job.rw);
      const bool writes = HasWrite(job.rw);
      std::string where = first(
          [&](const TargetContext& c) {
            return (reads && !FsSupportsNowaitBufferedRead(DriverOf(c))) ||
                   (writes && !FsSupportsNowaitBufferedWrite(DriverOf(c)));
          },
          &t);
      if (!where.empty()) {
        const bool r = reads && !FsSupportsNowaitBufferedRead(DriverOf(*t));
        const bool w = writes && !FsSupportsNowaitBufferedWrite(DriverOf(*t));
        const std::string what = r && w ? "reads and writes" : (r ? "reads" : "writes");
        out.push_back(who + "io_uring buffered " + what + " on " + FsLabel(*t) + " (" + where +
                      "): " + FsLabel(*t) + " does not support nonblocking buffered " + what +
                      ", so io_uring punts every such I/O" + kIoWqPunt);
      }
    }

    // 3b. io_uring O_DIRECT on tmpfs: tmpfs takes O_DIRECT (Linux 6.6 on)
    // but has no nonblocking path (FMODE_NOWAIT), so every such I/O is
    // punted too (io-wq sys 49.7% at iodepth=16, as the buffered run's).
    if (job.ioengine.rfind("io_uring", 0) == 0 && job.direct && !job.nowait &&
        (HasRead(job.rw) || HasWrite(job.rw))) {
      const std::string where =
          first([](const TargetContext& c) { return DriverOf(c) == "tmpfs"; }, &t);
      if (!where.empty())
        out.push_back(who + "io_uring direct I/O on tmpfs (" + where +
                      "): tmpfs has no nonblocking I/O path, so io_uring punts every I/O" +
                      kIoWqPunt);
    }

    // 3c. nowait=1 and force_async: IOSQE_ASYNC hands the I/O to an io-wq
    // worker, which issues it blocking. RWF_NOWAIT is not honoured there: a
    // randread on ext4 from a dropped cache failed at its first read with
    // EAGAIN, and with force_async=1 ran all 2048 reads from the device.
    if (job.ioengine.rfind("io_uring", 0) == 0 && job.nowait && job.force_async > 0)
      out.push_back(who + "nowait=1 with force_async=" + std::to_string(job.force_async) + ": " +
                    (job.force_async == 1
                         ? std::string("every I/O goes")
                         : "one I/O in every " + std::to_string(job.force_async) + " goes") +
                    " to io-wq kernel workers (IOSQE_ASYNC), which issue it blocking: RWF_NOWAIT "
                    "is not honoured for those, and an I/O that would wait waits instead of "
                    "failing with EAGAIN");

    // 4. libaio without O_DIRECT, where a queue depth was asked for. Not
    // for a trim-only job: every engine trims inside the submit call.
    if (job.ioengine == "libaio" && !job.direct && job.iodepth > 1 &&
        (HasRead(job.rw) || HasWrite(job.rw)))
      out.push_back(who +
                    "libaio with direct=0 is synchronous: io_submit() does each buffered I/O "
                    "before it returns, so iodepth=" +
                    std::to_string(job.iodepth) +
                    " gives no queue depth; use direct=1 or io_uring");

    // 5. Page cache flags that O_DIRECT makes moot.
    if (job.direct && job.uncached)
      out.push_back(who +
                    "uncached=1 has no effect with direct=1: O_DIRECT already bypasses the page "
                    "cache that RWF_DONTCACHE would drop");
    if (job.direct && job.nowait)
      out.push_back(who +
                    "nowait=1 with direct=1 does not avoid page cache waits (there are none with "
                    "O_DIRECT); it turns waits for device tags, filesystem locks, block "
                    "allocation or timestamp updates into EAGAIN errors");

    // 5b. O_DIRECT that the file system serves through the page cache (for
    // reads and writes: a trim does not use the cache; mmap always does).
    if (job.direct && (HasRead(job.rw) || HasWrite(job.rw)) && job.ioengine != "mmap" &&
        !DisklessEngine(job.ioengine)) {
      // Not in memory: warning 1 says more there.
      const std::string where = first(
          [](const TargetContext& c) { return !c.direct_buffered.empty() && !InMemory(c); }, &t);
      if (!where.empty())
        out.push_back(who + "direct=1 on " + where + ": " + t->direct_buffered +
                      " makes the kernel do O_DIRECT I/O through the page cache, so this "
                      "measures buffered I/O");
    }

    // 5c. Mapped I/O is page cache I/O whatever direct says: the engine
    // drops each I/O's pages after it (engines/sync.cc), which is what
    // direct=1 measures; a note, as it is what the user asked for. (It was
    // a warning that direct=1 has no effect, stale since the engine drops
    // the pages.) In memory there is nothing to drop: warning 1 says more.
    if (job.direct && job.ioengine == "mmap" && (HasRead(job.rw) || HasWrite(job.rw))) {
      const std::string where = first([](const TargetContext& c) { return !InMemory(c); }, &t);
      if (!where.empty())
        out.push_back(who + "note: direct=1 with ioengine=mmap on " + where +
                      " is not O_DIRECT: each I/O is a copy through the page cache, after which "
                      "its pages are written back (msync) and dropped (madvise and posix_fadvise "
                      "DONTNEED), so the next access reads the device; the latency includes "
                      "the write-back");
    }

    // 6. A buffered "disk" test whose data fits in memory. Trims do not go
    // through the page cache: a trim-only job is left alone, and so is a
    // read-only job that reads each block once from a dropped cache (one
    // pass: there is no "after the first pass").
    const std::string buffered_intent = DiskIntent(job, files.list, false);
    if (!job.direct && (HasRead(job.rw) || HasWrite(job.rw)) && !buffered_intent.empty() &&
        env.mem_total_bytes > 0 && !ReadsEachBlockOnce(job, shared)) {
      uint64_t region = 0;
      bool device_end = false;  // the device ended the region, not size=
      std::string where = first(
          [&](const TargetContext& c) {
            if (IsMemoryFs(c.fs_type) || c.device.empty()) return false;
            uint64_t r = JobRegion(job);
            if (r == 0) {
              auto it = env.target_sizes.find(c.path);
              r = it == env.target_sizes.end() ? 0 : it->second;
            }
            // What the job used of a device, not what size= asked for.
            bool ended = false;
            if (auto it = env.device_region_bytes.find(c.path);
                it != env.device_region_bytes.end() && it->second < r) {
              r = it->second;
              ended = true;
            }
            if (r == 0 || r >= env.mem_total_bytes) return false;
            if (region == 0) {
              region = r;
              device_end = ended;
            }
            return true;
          },
          &t);
      if (!where.empty())
        out.push_back(who + where + ": the job's data (" + HumanBytes(region) +
                      (device_end ? ", to the device's end" : "") + ") is smaller than memory (" +
                      HumanBytes(env.mem_total_bytes) + ") in a buffered disk test (" +
                      buffered_intent +
                      "): after the first pass it can be served from the page cache; use "
                      "direct=1 or a " +
                      (device_end ? "device" : "size") + " larger than memory");
    }

    // 7. Reads of holes: zeros with no I/O under them. At least 1% of the
    // region, so that a file's partly written last block does not count.
    if (HasRead(job.rw)) {
      const std::string where =
          first([](const TargetContext& c) { return c.hole_percent >= 1.0 && !InMemory(c); }, &t);
      if (!where.empty()) {
        // Rounded down: a region with any data in it never reads "100.0%".
        char pct[32];
        std::snprintf(pct, sizeof(pct), "%.1f%%", std::floor(t->hole_percent * 10 + 1e-6) / 10);
        out.push_back(who + where + ": " + pct +
                      " of the region the job reads is holes (never written: sparse, fallocated or "
                      "trimmed): reads there return zeros with no device I/O; write the file "
                      "first (a file as large as the job needs is read as it is, as in fio)");
      }
    }

    // 8. Data that btrfs stores compressed: the disk moves less than the
    // job counts, and the kernel compresses or decompresses it.
    if (HasWrite(job.rw)) {
      const std::string where =
          first([](const TargetContext& c) { return !c.compression.empty() && !InMemory(c); }, &t);
      bool surely = false;
      const std::string data =
          where.empty()
              ? ""
              : CompressibleData(job, t->compression.find("compress-force") != std::string::npos,
                                 &surely);
      if (!data.empty() && surely)
        out.push_back(who + "writes data that compresses (" + data + ") to " + where + ", and " +
                      t->compression +
                      " stores it compressed: the disk writes less than the job counts, and the "
                      "kernel spends CPU compressing; write fresh random data (refill_buffers=1) "
                      "to measure the disk");
      else if (!data.empty())
        out.push_back(who +
                      (data == "refill_buffers=0"
                           ? "writes its buffers again and again (refill_buffers=0, fio's default)"
                           : "writes data that partly compresses (" + data + ")") +
                      " to " + where + ", and " + t->compression +
                      " may store it compressed: the disk may write less than the job counts; "
                      "write fresh random data (refill_buffers=1) to measure the disk");
    }
    if (HasRead(job.rw)) {
      const std::string where = first(
          [](const TargetContext& c) { return c.compressed_percent >= 1.0 && !InMemory(c); }, &t);
      if (!where.empty()) {
        char pct[32];
        std::snprintf(pct, sizeof(pct), "%.1f%%",
                      std::floor(t->compressed_percent * 10 + 1e-6) / 10);
        out.push_back(
            who + where + ": " + pct +
            " of the region the job reads is stored compressed (btrfs): the disk reads less "
            "than the job counts, and the kernel spends CPU decompressing" +
            (job.direct ? "; btrfs serves O_DIRECT reads of compressed data through the page "
                          "cache, so direct=1 measures buffered reads there"
                        : "") +
            "; write the file with data that does not compress");
      }
    }
  }
  return out;
}

void AddContextWarning(RunContext* ctx, std::string w) {
  if (std::find(ctx->warnings.begin(), ctx->warnings.end(), w) == ctx->warnings.end())
    ctx->warnings.push_back(std::move(w));
}

RunContext CollectContext(const std::vector<JobSpec>& jobs,
                          const std::vector<std::string>& target_paths,
                          const std::vector<std::string>& unexamined, const TargetRegions* regions,
                          const std::atomic<int>* stop,
                          const std::map<std::string, std::string>* cache_kept) {
  RunContext ctx;
  ctx.iobench_version = IOBENCH_VERSION;
  if (auto v = KernelRelease(); v.ok()) ctx.kernel = *v;
  if (auto v = CpuModel(); v.ok()) ctx.cpu_model = *v;
  if (auto v = CpuCount(); v.ok()) ctx.cpus = *v;
  if (auto v = MemTotalBytes(); v.ok()) ctx.mem_bytes = *v;
  ctx.clock = ClockSourceName();  // InitClock ran before the run was planned
  ctx.kernel_clocksource = KernelClockSource();

  std::vector<JobFiles> job_files;
  for (const auto& job : jobs) job_files.emplace_back(job);
  std::vector<std::string> paths;
  std::unordered_set<std::string> seen;
  auto add = [&](const std::string& p) {
    if (seen.insert(p).second) paths.push_back(p);
  };
  if (target_paths.empty()) {
    for (const auto& job : jobs)
      for (const auto& p : JobFilePaths(job)) add(p);
  } else {
    for (const auto& p : target_paths) add(p);
  }

  TrapEnv env;
  env.mem_total_bytes = ctx.mem_bytes;
  env.unexamined = unexamined;
  if (cache_kept != nullptr) env.cache_kept = *cache_kept;
  for (const auto& p : paths) {
    // What the jobs on this target do with it.
    bool written = false;
    bool buffered = false;
    bool read = false;
    std::vector<std::string> on_it;  // the jobs' names, for the tables' captions
    for (const JobFiles& files : job_files) {
      if (!Matches(files, p)) continue;
      const JobSpec& job = *files.job;
      if (std::find(on_it.begin(), on_it.end(), job.name) == on_it.end()) on_it.push_back(job.name);
      written |= JobWrites(job);
      // A trim does not go through the page cache: a trim-only job has
      // no page_cache= figure to give (it read 0.0% and counted as a
      // buffered use).
      buffered |= !job.direct && (HasRead(job.rw) || HasWrite(job.rw));
      read |= HasRead(job.rw);
    }
    auto info = ResolveTarget(p, written);
    TargetContext tc;
    if (info.ok()) {
      tc = info->ctx;
      StackedDevice(*info, &tc);
      if (info->exists && info->size_bytes > 0) env.target_sizes[p] = info->size_bytes;
      // The jobs' regions, not the whole file: a 4 KiB job on a sparse
      // 15 TiB file examined all of it (43 s; fio 0.34 s). Direct jobs'
      // too: a direct=1 job's holes were the whole file's.
      const PathRegions* listed = nullptr;
      if (regions != nullptr)
        if (auto it = regions->find(p); it != regions->end()) listed = &it->second;
      if (info->is_block_device && listed != nullptr && !listed->buffered.empty()) {
        uint64_t& used = env.device_region_bytes[p];
        for (const auto& [off, len] : listed->buffered) used = std::max(used, len);
      }
      if (info->is_regular_file) {
        const std::vector<std::pair<uint64_t, uint64_t>> whole = {{0, 0}};
        const auto& ranges = listed != nullptr ? listed->all : whole;
        if (read)
          if (auto h = HolesIn(p, ranges); h.ok() && h->examined_bytes > 0)
            tc.hole_percent =
                100.0 * static_cast<double>(h->hole_bytes) / static_cast<double>(h->examined_bytes);
        // btrfs compression: what the reads find stored compressed, and
        // whether the writes' new data will be. That is up to flags btrfs
        // keeps to itself (an inode ever fallocated is never compressed
        // again), so it is claimed only on evidence: the region already
        // holds compressed extents, or it is all holes, or the file is empty
        // without extents (made by this run without preallocation); never
        // over preallocated space.
        if ((read || written) &&
            (tc.fs_type == "btrfs" || tc.backing_fs == "btrfs" || tc.fs_type == "overlay")) {
          auto e = ExtentsIn(p, ranges);
          bool evidence = e.ok() && e->bare;
          if (e.ok() && e->examined_bytes > 0) {
            const auto share = [&](uint64_t bytes) {
              return 100.0 * static_cast<double>(bytes) / static_cast<double>(e->examined_bytes);
            };
            if (read) tc.compressed_percent = share(e->compressed_bytes);
            evidence = share(e->unwritten_bytes) < 1.0 &&
                       (share(e->compressed_bytes) >= 1.0 || share(e->hole_bytes) >= 99.0);
          }
          if (!evidence) tc.compression.clear();
        }
        if (buffered) {
          if (auto r = PageCacheResidencyOf(p, listed != nullptr ? listed->buffered : whole, stop);
              r.ok()) {
            tc.page_cache_percent = r->percent;
            tc.page_cache_region_bytes = r->region_bytes;
            tc.page_cache_examined_bytes = r->examined_bytes;
          }
        }
      }
    } else {
      tc.path = p;
    }
    tc.jobs = std::move(on_it);
    ctx.targets.push_back(std::move(tc));
  }
  ctx.warnings = DetectTraps(jobs, ctx.targets, env);
  return ctx;
}

}  // namespace iobench::sys
