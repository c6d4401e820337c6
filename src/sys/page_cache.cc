// Page cache residency (mincore) and the RWF_DONTCACHE probe.
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <memory>
#include <vector>

#include "sys/host.h"
#include "sys/target.h"

namespace iobench::sys {
namespace {

// Mapping a whole multi-TiB file at once could exhaust the address space on
// 32-bit and needs a huge mincore vector; 1 GiB windows keep both small.
constexpr uint64_t kWindow = 1ull << 30;

#ifndef RWF_DONTCACHE
constexpr int kRwfDontcache = 0x80;
#else
constexpr int kRwfDontcache = RWF_DONTCACHE;
#endif

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// The ranges ({offset, len}, len 0 = to the end) clipped to a file of
// `size` bytes, their starts rounded down to `grain`, sorted, overlaps
// merged (numjobs clones may share a region): [begin, end) spans.
std::vector<std::pair<uint64_t, uint64_t>> MergedSpans(
    const std::vector<std::pair<uint64_t, uint64_t>>& ranges, uint64_t size, uint64_t grain) {
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (const auto& [offset, len] : ranges) {
    if (offset >= size) continue;
    uint64_t end = len == 0 ? size : offset + len;
    if (end > size || end < offset) end = size;
    spans.emplace_back(offset / grain * grain, end);
  }
  std::sort(spans.begin(), spans.end());
  std::vector<std::pair<uint64_t, uint64_t>> merged;
  for (const auto& s : spans) {
    if (!merged.empty() && s.first <= merged.back().second)
      merged.back().second = std::max(merged.back().second, s.second);
    else
      merged.push_back(s);
  }
  return merged;
}

}  // namespace

Result<HoleSample> HolesIn(const std::string& path,
                           const std::vector<std::pair<uint64_t, uint64_t>>& ranges) {
  Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return ErrnoStatus("holes: open " + path);
  struct stat st;
  if (fstat(fd.get(), &st) != 0) return ErrnoStatus("holes: stat " + path);
  if (!S_ISREG(st.st_mode)) return Status::Unsupported("holes: " + path + " is not a regular file");
  HoleSample out;
  size_t extents = 0;
  for (const auto& [begin, end] : MergedSpans(ranges, static_cast<uint64_t>(st.st_size), 1)) {
    uint64_t pos = begin;
    while (pos < end && extents++ < kHoleMaxExtents) {
      const off_t data = lseek(fd.get(), static_cast<off_t>(pos), SEEK_DATA);
      // ENXIO: no data from pos to the end of the file.
      if (data < 0 && errno != ENXIO) return ErrnoStatus("holes: SEEK_DATA " + path);
      const uint64_t d = data < 0 ? end : std::min<uint64_t>(static_cast<uint64_t>(data), end);
      out.hole_bytes += d - pos;
      if (d >= end) {
        pos = end;
        break;
      }
      const off_t hole = lseek(fd.get(), data, SEEK_HOLE);
      if (hole < 0) return ErrnoStatus("holes: SEEK_HOLE " + path);
      pos = std::min<uint64_t>(static_cast<uint64_t>(hole), end);
    }
    out.examined_bytes += pos - begin;
    if (pos < end) break;  // kHoleMaxExtents reached
  }
  return out;
}

Result<ExtentSample> ExtentsIn(const std::string& path,
                               const std::vector<std::pair<uint64_t, uint64_t>>& ranges) {
  Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return ErrnoStatus("extents: open " + path);
  struct stat st;
  if (fstat(fd.get(), &st) != 0) return ErrnoStatus("extents: stat " + path);
  if (!S_ISREG(st.st_mode))
    return Status::Unsupported("extents: " + path + " is not a regular file");
  constexpr uint32_t kBatch = 256;
  std::vector<uint8_t> buf(sizeof(struct fiemap) + kBatch * sizeof(struct fiemap_extent));
  auto* fm = reinterpret_cast<struct fiemap*>(buf.data());
  ExtentSample out;
  if (st.st_size == 0) {  // no extent at all, also past the end (fallocate=keep)?
    std::fill(buf.begin(), buf.end(), 0);
    fm->fm_start = 0;
    fm->fm_length = FIEMAP_MAX_OFFSET;
    fm->fm_extent_count = 0;  // count only
    out.bare = ioctl(fd.get(), FS_IOC_FIEMAP, fm) == 0 && fm->fm_mapped_extents == 0;
    return out;
  }
  size_t extents = 0;
  for (const auto& [begin, end] : MergedSpans(ranges, static_cast<uint64_t>(st.st_size), 1)) {
    uint64_t pos = begin;  // examined up to here
    bool last = false;
    while (pos < end && !last && extents < kHoleMaxExtents) {
      std::fill(buf.begin(), buf.end(), 0);
      fm->fm_start = pos;
      fm->fm_length = end - pos;
      fm->fm_extent_count = kBatch;
      // No FIEMAP_FLAG_SYNC: data not yet written back shows as delalloc,
      // not encoded, and nothing is flushed for the measuring.
      if (ioctl(fd.get(), FS_IOC_FIEMAP, fm) != 0) {
        if (errno == EOPNOTSUPP || errno == ENOTTY) return out;  // no FIEMAP: none known
        return ErrnoStatus("extents: FIEMAP " + path);
      }
      if (fm->fm_mapped_extents == 0) {  // holes to the end
        out.hole_bytes += end - pos;
        pos = end;
        break;
      }
      const uint64_t before = pos;
      for (uint32_t i = 0; i < fm->fm_mapped_extents && extents < kHoleMaxExtents; ++i, ++extents) {
        const auto& e = fm->fm_extents[i];
        const uint64_t b = std::max<uint64_t>(e.fe_logical, pos);
        const uint64_t x = std::min<uint64_t>(e.fe_logical + e.fe_length, end);
        if (x > b) {
          if (e.fe_flags & FIEMAP_EXTENT_ENCODED) out.compressed_bytes += x - b;
          if (e.fe_flags & FIEMAP_EXTENT_UNWRITTEN) out.unwritten_bytes += x - b;
        }
        if (b > pos) out.hole_bytes += b - pos;
        if (x > pos) pos = x;
        if (e.fe_flags & FIEMAP_EXTENT_LAST) last = true;
      }
      if (pos == before) break;  // a file system that answers out of range
    }
    if (last && pos < end) {  // holes from the last extent to the end
      out.hole_bytes += end - pos;
      pos = end;
    }
    if (pos < end) {
      out.examined_bytes += pos - begin;
      break;  // kHoleMaxExtents reached
    }
    out.examined_bytes += end - begin;
  }
  return out;
}

Result<PageCacheSample> PageCacheResidencyOf(const std::string& path,
                                             std::vector<std::pair<uint64_t, uint64_t>> ranges,
                                             const std::atomic<int>* stop) {
  Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return ErrnoStatus("page cache residency: open " + path);
  struct stat st;
  if (fstat(fd.get(), &st) != 0) return ErrnoStatus("page cache residency: stat " + path);
  if (!S_ISREG(st.st_mode))
    return Status::Unsupported("page cache residency: " + path + " is not a regular file");
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  // Whole pages inside the file.
  const std::vector<std::pair<uint64_t, uint64_t>> merged = MergedSpans(ranges, size, page);
  PageCacheSample out;
  for (const auto& m : merged) out.region_bytes += m.second - m.first;
  // What mincore looks at: the whole region up to kPageCacheMaxExamined,
  // else kPageCacheSamples slices spread evenly over it (positions in the
  // concatenated spans).
  std::vector<std::pair<uint64_t, uint64_t>> look;  // [begin, end) in the file
  if (out.region_bytes <= kPageCacheMaxExamined) {
    look = merged;
  } else {
    const uint64_t slice = kPageCacheMaxExamined / kPageCacheSamples;
    size_t m = 0;
    uint64_t before = 0;  // region bytes in merged[0, m)
    for (uint64_t i = 0; i < kPageCacheSamples; ++i) {
      const uint64_t at = static_cast<uint64_t>(static_cast<unsigned __int128>(out.region_bytes) *
                                                i / kPageCacheSamples);
      while (at >= before + (merged[m].second - merged[m].first)) {
        before += merged[m].second - merged[m].first;
        ++m;
      }
      const uint64_t b = (merged[m].first + (at - before)) / page * page;
      look.emplace_back(b, std::min(merged[m].second, b + slice));
    }
  }
  uint64_t pages_total = 0, pages_cached = 0;
  std::vector<unsigned char> vec;
  for (const auto& [lb, le] : look) {
    for (uint64_t pos = lb; pos < le; pos += kWindow) {
      if (stop != nullptr && stop->load(std::memory_order_relaxed) != 0)
        return Status(Status::Code::kInterrupted, "page cache residency: interrupted");
      const uint64_t wlen = std::min<uint64_t>(kWindow, le - pos);
      void* p = mmap(nullptr, wlen, PROT_READ, MAP_SHARED, fd.get(), static_cast<off_t>(pos));
      if (p == MAP_FAILED) return ErrnoStatus("page cache residency: mmap " + path);
      const uint64_t npages = (wlen + page - 1) / page;
      vec.assign(npages, 0);
      const int rc = mincore(p, wlen, vec.data());
      const int err = errno;
      munmap(p, wlen);
      if (rc != 0) return ErrnoStatus("page cache residency: mincore " + path, err);
      for (unsigned char c : vec) pages_cached += c & 1;
      pages_total += npages;
      out.examined_bytes += wlen;
    }
  }
  out.percent = pages_total == 0
                    ? 0.0
                    : 100.0 * static_cast<double>(pages_cached) / static_cast<double>(pages_total);
  return out;
}

Result<double> PageCacheResidency(const std::string& path, uint64_t offset, uint64_t len) {
  IOB_ASSIGN_OR_RETURN(PageCacheSample s, PageCacheResidencyOf(path, {{offset, len}}));
  return s.percent;
}

Result<PageCacheSample> ResidencyAfterWriteback(const std::string& path,
                                                std::vector<std::pair<uint64_t, uint64_t>> ranges,
                                                const std::atomic<int>* stop) {
  Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return ErrnoStatus("writeback: open " + path);
  constexpr unsigned kWait =
      SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER;
  for (const auto& [offset, len] : ranges)
    if (sync_file_range(fd.get(), static_cast<off_t>(offset), static_cast<off_t>(len), kWait) != 0)
      return ErrnoStatus("writeback: sync_file_range " + path);
  return PageCacheResidencyOf(path, std::move(ranges), stop);
}

bool BlockMappedExtFile(const std::string& path) {
  Fd fd(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  struct statfs sfs;
  struct stat st;
  int flags = 0;
  return fd.get() >= 0 && fstatfs(fd.get(), &sfs) == 0 &&
         static_cast<uint32_t>(sfs.f_type) == EXT4_SUPER_MAGIC && fstat(fd.get(), &st) == 0 &&
         S_ISREG(st.st_mode) && ioctl(fd.get(), FS_IOC_GETFLAGS, &flags) == 0 &&
         (flags & FS_EXTENT_FL) == 0;
}

Status ProbeDontcache(int fd, const std::string& path) {
  // O_DIRECT descriptors need an aligned buffer; 4 KiB covers every logical
  // block size Linux supports for direct I/O on common devices.
  constexpr size_t kLen = 4096;
  void* raw = nullptr;
  if (posix_memalign(&raw, kLen, kLen) != 0)
    return Status::Limit("RWF_DONTCACHE probe of " + path + ": cannot allocate 4 KiB");
  std::unique_ptr<void, decltype(&free)> buf(raw, &free);
  struct iovec iov = {buf.get(), kLen};
  int use_fd = fd;
  int own_fd = -1;
  ssize_t rc = -1;
  int err = EBADF;
  if (use_fd >= 0) {
    rc = preadv2(use_fd, &iov, 1, 0, kRwfDontcache);
    err = errno;
  }
  if (rc < 0 && err == EBADF) {
    own_fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (own_fd < 0) return ErrnoStatus("RWF_DONTCACHE probe: open " + path);
    rc = preadv2(own_fd, &iov, 1, 0, kRwfDontcache);
    err = errno;
    close(own_fd);
  }
  if (rc >= 0) return Status::Ok();
  if (err == EOPNOTSUPP || err == EINVAL) {
    auto fs = FsTypeName(path);
    auto kernel = KernelRelease();
    const bool bdev = IsBlockDevice(path);
    const std::string fs_name =
        bdev ? std::string("a block device") : (fs.ok() ? *fs : "unknown fs");
    const std::string why = err == EOPNOTSUPP
                                ? (bdev ? std::string("the block device does not support it")
                                        : "the " + fs_name + " filesystem does not support it")
                                : "the kernel does not know the flag";
    return Status(Status::Code::kUnsupported,
                  "uncached=1 (RWF_DONTCACHE) is not supported for " + path + " on " + fs_name +
                      " with kernel " + (kernel.ok() ? *kernel : std::string("?")) + ": " + why +
                      " (needs Linux 6.14+ and a filesystem that implements it)",
                  err);
  }
  return ErrnoStatus("RWF_DONTCACHE probe: preadv2 " + path, err);
}

}  // namespace iobench::sys
