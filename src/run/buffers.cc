// IoMemory (buffers.h): where the I/O buffers live (mem=, mem_align=).
// BufferFiller (pattern.h): what write buffers contain. See docs/patterns.md.
#include "run/buffers.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "run/pattern.h"
#include "run/random.h"
#include "sys/procfs.h"
#include "sys/safety.h"

namespace iobench {

namespace {
constexpr uint64_t kScrambleBlock = 512;

uint64_t RoundUp(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

// "2 MiB", "12 KiB", "1000 bytes": exact, for sizes users compare with /proc.
std::string SizeText(uint64_t b) {
  if (b != 0 && b % (1 << 20) == 0) return std::to_string(b >> 20) + " MiB";
  if (b != 0 && b % 1024 == 0) return std::to_string(b >> 10) + " KiB";
  return std::to_string(b) + " bytes";
}

bool IsHuge(JobSpec::MemType t) {
  return t == JobSpec::MemType::kShmHuge || t == JobSpec::MemType::kMmapHuge;
}
}  // namespace

const char* MemTypeName(JobSpec::MemType t) {
  using M = JobSpec::MemType;
  switch (t) {
    case M::kMalloc:
      return "malloc";
    case M::kShm:
      return "shm";
    case M::kShmHuge:
      return "shmhuge";
    case M::kMmap:
      return "mmap";
    case M::kMmapHuge:
      return "mmaphuge";
    case M::kMmapShared:
      return "mmapshared";
  }
  return "?";
}

HugePageInfo ReadHugePageInfo() {
  HugePageInfo info;
  FILE* f = std::fopen("/proc/meminfo", "re");
  if (f == nullptr) return info;
  char line[256];
  while (std::fgets(line, sizeof line, f) != nullptr) {
    unsigned long long v = 0;
    if (std::sscanf(line, "HugePages_Free: %llu", &v) == 1) info.free_pages = v;
    if (std::sscanf(line, "Hugepagesize: %llu kB", &v) == 1) info.page_bytes = v * 1024;
  }
  std::fclose(f);
  return info;
}

Status IoMemory::Allocate(const JobSpec& job, uint64_t bytes, uint64_t align,
                          const std::string& who) {
  using M = JobSpec::MemType;
  Release();
  type_ = job.mem;
  const std::string opt =
      std::string("mem=") + MemTypeName(job.mem) + (job.mem_file.empty() ? "" : ":" + job.mem_file);
  // Room to move the start up to `align`, then mem_align past it.
  uint64_t total = bytes + align + job.mem_align;

  if (job.mem == M::kMmapHuge && !job.mem_file.empty()) {
    // fio maps a file on any filesystem here; on tmpfs or ext4 that is
    // not huge pages at all, so iobench refuses it instead.
    struct statfs sfs {};
    std::string dir = job.mem_file;
    const size_t slash = dir.rfind('/');
    dir = slash == std::string::npos ? "." : slash == 0 ? "/" : dir.substr(0, slash);
    if (statfs(dir.c_str(), &sfs) != 0) return ErrnoStatus(who + ": " + opt + ": statfs " + dir);
    if (static_cast<uint64_t>(sfs.f_type) != HUGETLBFS_MAGIC)
      return Status::Invalid(who + ": " + opt + ": " + dir +
                             " is not on hugetlbfs, so the buffers would not be huge pages "
                             "(mount -t hugetlbfs none DIR, or use mem=mmaphuge without a "
                             "file)");
  }
  if (IsHuge(job.mem)) {
    // Probe first so the message says what to do; the kernel's ENOMEM alone
    // does not. A hugetlbfs file (mmaphuge:FILE) draws on the same pool.
    const HugePageInfo hp = ReadHugePageInfo();
    if (hp.page_bytes == 0)
      return Status::Unsupported(who + ": " + opt +
                                 ": this kernel has no huge pages (no Hugepagesize in "
                                 "/proc/meminfo)");
    // As fio, to hugepage-size; then to the kernel's page size, which a
    // huge page mapping needs whatever the option says.
    total = RoundUp(RoundUp(total, job.hugepage_size), hp.page_bytes);
    const uint64_t need = total / hp.page_bytes;
    if (hp.free_pages < need)
      return Status::Limit(who + ": " + opt + " needs " + std::to_string(need) + " free huge page" +
                           (need == 1 ? "" : "s") + " of " + SizeText(hp.page_bytes) + " for " +
                           SizeText(bytes) + " of I/O buffers, but HugePages_Free is " +
                           std::to_string(hp.free_pages) +
                           " (reserve some in /proc/sys/vm/nr_hugepages)");
  }

  if (job.mem == M::kMalloc) {
    raw_ = std::malloc(total);
    if (raw_ == nullptr) {
      // What sized them and what to change (it said only how much).
      const uint64_t block = std::max<uint64_t>(BufferBs(job), 1);
      const uint64_t n = bytes / RoundUp(block, std::max<uint64_t>(align, 1));
      const std::string sized =
          n > 1 ? std::to_string(n) + " buffers of up to " + SizeText(block) + ", " +
                      sys::OptionAt(job, "iodepth", std::to_string(job.iodepth))
                : "one buffer of " + SizeText(block) + ", the largest block";
      const std::string limit = sys::MemoryLimitText();
      return Status::Limit(who + ": cannot allocate " + SizeText(total) + " of I/O buffers (" +
                           opt + "; " + sized + "): reduce " +
                           (n > 1 ? "iodepth or the block size" : "the block size") +
                           ", or raise " + limit);
    }
  } else if (job.mem == M::kShm || job.mem == M::kShmHuge) {
    const int flags = IPC_CREAT | 0600 | (job.mem == M::kShmHuge ? SHM_HUGETLB : 0);
    const int id = shmget(IPC_PRIVATE, total, flags);
    if (id < 0) {
      Status st = ErrnoStatus(who + ": " + opt + ": shmget of " + SizeText(total));
      if (st.errno_value() != EPERM || job.mem != M::kShmHuge) return st;
      // The kernel lets SHM_HUGETLB to CAP_IPC_LOCK or the one group the
      // sysctl names (fio says only "you may need to run this job as root").
      const Result<std::string> group = sys::ReadFirstLine("/proc/sys/vm/hugetlb_shm_group");
      return Status(st.code(),
                    st.message() +
                        "; huge-page shared memory needs CAP_IPC_LOCK or membership of the group "
                        "vm.hugetlb_shm_group names (now " +
                        (group.ok() ? *group : std::string("unknown")) + "), or use mem=mmaphuge",
                    EPERM);
    }
    void* p = shmat(id, nullptr, 0);
    const int err = errno;
    // Marked for removal at once: the segment goes away at detach (or if we
    // die), so no run leaves a System V segment behind.
    (void)shmctl(id, IPC_RMID, nullptr);
    if (p == reinterpret_cast<void*>(-1)) return ErrnoStatus(who + ": " + opt + ": shmat", err);
    raw_ = p;
  } else {
    int flags = 0;
    if (!job.mem_file.empty()) {
      const bool existed = access(job.mem_file.c_str(), F_OK) == 0;
      fd_ = open(job.mem_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
      if (fd_ < 0) return ErrnoStatus(who + ": " + opt + ": open " + job.mem_file);
      if (!existed) created_file_ = job.mem_file;
      // The file is sized to the buffers (fio does the same), so every page
      // of the mapping is backed and touching it cannot raise SIGBUS.
      if (ftruncate(fd_, static_cast<off_t>(total)) != 0) {
        const Status st = ErrnoStatus(who + ": " + opt + ": ftruncate " + job.mem_file);
        Release();
        return st;
      }
      flags = job.mem == M::kMmap ? MAP_PRIVATE : MAP_SHARED;
    } else {
      flags = MAP_ANONYMOUS | (job.mem == M::kMmapShared ? MAP_SHARED : MAP_PRIVATE);
      if (job.mem == M::kMmapHuge) flags |= MAP_HUGETLB;
    }
    void* p = mmap(nullptr, total, PROT_READ | PROT_WRITE, flags, fd_, 0);
    if (p == MAP_FAILED) {
      const Status st = ErrnoStatus(who + ": " + opt + ": mmap of " + SizeText(total));
      Release();
      return st;
    }
    raw_ = p;
  }
  mapped_bytes_ = total;
  const uintptr_t a = reinterpret_cast<uintptr_t>(raw_);
  base_ = reinterpret_cast<void*>((a + align - 1) / align * align + job.mem_align);
  return Status::Ok();
}

void IoMemory::Release() {
  using M = JobSpec::MemType;
  if (raw_ != nullptr) {
    if (type_ == M::kMalloc)
      std::free(raw_);
    else if (type_ == M::kShm || type_ == M::kShmHuge)
      (void)shmdt(raw_);
    else
      (void)munmap(raw_, mapped_bytes_);
  }
  raw_ = base_ = nullptr;
  mapped_bytes_ = 0;
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  if (!created_file_.empty()) (void)unlink(created_file_.c_str());
  created_file_.clear();
}

BufferFiller::BufferFiller(const JobSpec& job, uint64_t seed)
    : state_(prng::MixSeed(seed, 0x62756600ULL)), seed_state_(state_) {
  job_writes_ = HasWrite(job.rw);
  zero_ = job.zero_buffers;
  compress_perc_ = std::min<uint32_t>(job.buffer_compress_percentage, 100);
  // The smallest write size (fio 3.33's min_write): fio's fill_io_buffer
  // compresses each write in chunks of min_not_zero(min_write,
  // buffer_compress_chunk), which compress_chunk_ holds, and its working
  // set is in pages of it.
  uint64_t min_bs = job.bs[1].min != 0 ? job.bs[1].min : 4096;
  for (const auto& e : job.bs[1].split)
    if (e.bs != 0) min_bs = std::min(min_bs, e.bs);
  pattern_ = job.buffer_pattern;
  dedupe_perc_ = std::min<uint32_t>(job.dedupe_percentage, 100);
  // As fio's fixup: all-compressible data is zero_buffers (so a pattern,
  // which beats zeros, still fills it; with dedupe it is random).
  if (compress_perc_ == 100) {
    zero_ = true;
    compress_perc_ = 0;
  }
  compress_chunk_ = compress_perc_ > 0 && job.buffer_compress_chunk != 0
                        ? std::min(min_bs, job.buffer_compress_chunk)
                        : min_bs;
  // fio's fill order: compression or dedupe first, then buffer_pattern,
  // then zero_buffers, else random; so zero_buffers=1 with a compress or
  // dedupe percentage still makes that data. Only patterned or zeroed
  // content is the same in every write.
  const bool fixed = compress_perc_ == 0 && dedupe_perc_ == 0 && (zero_ || !pattern_.empty());
  // fio refills on every write when a partial compress percentage is asked
  // for, so that neighbouring blocks do not compress better together,
  // unless the job file says refill_buffers=0 (fio checks that it was set:
  // one distinct block where iobench wrote one per write). Setting
  // dedupe_percentage (0 included) sets refill_buffers, in the option's
  // callback as fio's (jobfile/options.cc).
  const bool refill_set = job.IsSet("refill_buffers");
  refill_ =
      !fixed && (job.refill_buffers || (!refill_set && (compress_perc_ > 0 || dedupe_perc_ > 0)));
  // Scrambling defeats dedupe of reused random content; a refilled or
  // fixed buffer is meant to look exactly as configured. As fio, giving
  // buffer_compress_percentage or dedupe_percentage at all (0 included)
  // turns it off (fio's TD_F_COMPRESS): the buffer is written unchanged.
  const bool compress_given = job.IsSet("buffer_compress_percentage") ||
                              job.IsSet("dedupe_percentage") || compress_perc_ > 0 ||
                              dedupe_perc_ > 0;
  scramble_ = job.scramble_buffers && !fixed && !refill_ && pattern_.empty() && !compress_given;
  if (dedupe_perc_ > 0) {
    dedupe_rng_ = dedupe_seed_ = prng::MixSeed(seed, 0x64656475ULL);
    prev_state_ = state_;
    if (job.dedupe_working_set) {
      // The first unique buffers are the working set: size x percent, in
      // blocks of the smallest write size. dedupe_global is accepted with
      // each job drawing on its own set: fio spreads one global set over
      // the jobs, so the blocks that exist are as many either way (fio's
      // dedupe-global example: 8,418 distinct of 16,384, iobench 8,191).
      ws_size_ = std::max<uint64_t>(1, job.size * job.dedupe_working_set_percentage / 100 / min_bs);
      ws_page_ = min_bs;
      ws_base_ = prng::MixSeed(seed, 0x77736574ULL);
    }
  }
}

void BufferFiller::FillFrom(uint64_t seed, uint8_t* p, uint64_t len) {
  const uint64_t saved = state_;
  state_ = seed;
  Fill(p, len);
  state_ = saved;
}

void BufferFiller::FillRandom(uint8_t* p, uint64_t len) {
  while (len >= 8) {
    const uint64_t v = prng::SplitMix64(&state_);
    std::memcpy(p, &v, 8);
    p += 8;
    len -= 8;
  }
  if (len) {
    const uint64_t v = prng::SplitMix64(&state_);
    std::memcpy(p, &v, len);
  }
}

void BufferFiller::FillFixed(uint8_t* p, uint64_t len) {
  if (pattern_.empty() || len == 0) {
    std::memset(p, 0, len);
    return;
  }
  // Lay the pattern once, then double the filled prefix: O(log) memcpys.
  uint64_t done = std::min<uint64_t>(pattern_.size(), len);
  std::memcpy(p, pattern_.data(), done);
  while (done < len) {
    const uint64_t n = std::min(done, len - done);
    std::memcpy(p + done, p, n);
    done += n;
  }
}

void BufferFiller::Fill(uint8_t* p, uint64_t len) {
  if (compress_perc_ > 0 || dedupe_perc_ > 0) {
    // buffer_compress_percentage=P: in every chunk the first (100-P)% is
    // random and the rest fixed, so about P% of the data compresses away
    // (fio's meaning: P is the space a compressor saves). P=0 (dedupe
    // alone): random, whatever buffer_pattern or zero_buffers say. The
    // chunk is the piece (compress_chunk_): buffer_compress_chunk=0, or one
    // larger than the smallest write size, is the smallest write size, as
    // in fio (bssplit=4k/50:64k/50 chunk=0: no all-zero 4k block).
    for (uint64_t off = 0; off < len; off += compress_chunk_) {
      const uint64_t clen = std::min(compress_chunk_, len - off);
      const uint64_t rlen = clen * (100 - compress_perc_) / 100;
      FillRandom(p + off, rlen);
      FillFixed(p + off + rlen, clen - rlen);
    }
  } else if (!pattern_.empty()) {
    FillFixed(p, len);
  } else if (zero_) {
    std::memset(p, 0, len);
  } else {
    FillRandom(p, len);
  }
}

void BufferFiller::FillInitial(void* buf, uint64_t stride, uint32_t slots, uint32_t fills) {
  if (!job_writes_ || slots == 0) return;
  uint8_t* p = static_cast<uint8_t*>(buf);
  if (!refill_) {
    // Slot by slot: a buffer_pattern starts over at each buffer, as each
    // write (and fio's layout, block by block) starts it.
    for (uint32_t i = 0; i < slots; ++i) Fill(p + uint64_t{i} * stride, stride);
    return;
  }
  for (uint32_t i = 0; i < std::max(slots, fills); ++i) Refill(p + i % slots * stride, stride);
}

void BufferFiller::Reseed() {
  if (!refill_) return;
  state_ = prev_state_ = seed_state_;
  dedupe_rng_ = dedupe_seed_;
  unique_ = 0;
}

bool BufferFiller::BeforeWrite(void* buf, uint64_t len) {
  ++writes_;
  if (refill_) {
    Refill(static_cast<uint8_t*>(buf), len);
    return true;
  }
  if (!scramble_) return false;
  // One random word per write, varied per 512-byte block and stored at a
  // position that moves with each write: every block of every write differs
  // from all earlier ones, at the cost of one 8-byte store per 512 bytes.
  uint8_t* p = static_cast<uint8_t*>(buf);
  const uint64_t v = prng::SplitMix64(&state_);
  const uint64_t at = (writes_ % (kScrambleBlock / 8)) * 8;
  for (uint64_t b = 0, i = 0; b < len; b += kScrambleBlock, ++i) {
    if (b + at + 8 > len) break;
    const uint64_t w = v ^ (i * 0x9e3779b97f4a7c15ULL);
    std::memcpy(p + b + at, &w, 8);
  }
  return true;
}

void BufferFiller::Refill(uint8_t* p, uint64_t len) {
  if (dedupe_perc_ == 0) {
    Fill(p, len);
    return;
  }
  const bool dup = unique_ > 0 && prng::SplitMix64(&dedupe_rng_) % 100 < dedupe_perc_;
  if (ws_size_ != 0) {  // working_set
    // As fio 3.33, whose working set is a run of consecutive pages of the
    // smallest write size: a write is a repeat or not as a whole, and a
    // repeat from entry i goes on with entries i+1, i+2, ... So a 64k
    // repeat of an entry first written as 4k repeats all of its 4k blocks
    // (bssplit=4k/50:64k/50 dedupe_percentage=30: 28.5 % duplicate 4k
    // blocks, fio 29.5 %; one seed per write made 18 %). Page k of the unique
    // stream is filled from MixSeed(ws_base_, k), so entry i is page i.
    uint64_t page = dup ? prng::SplitMix64(&dedupe_rng_) % std::min(unique_, ws_size_) : unique_;
    for (uint64_t off = 0; off < len; off += ws_page_, ++page)
      FillFrom(prng::MixSeed(ws_base_, page), p + off, std::min(ws_page_, len - off));
    if (!dup) unique_ = page;
    return;
  }
  if (dup) {  // repeat: the last unique buffer again
    FillFrom(prev_state_, p, len);
  } else {
    ++unique_;
    prev_state_ = state_;
    Fill(p, len);
  }
}

}  // namespace iobench
