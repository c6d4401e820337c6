#include "iobench/histogram.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

namespace iobench {
namespace {

// The counters are scanned in 4 KiB spans: a span that holds no count is
// neither copied nor cleared, so its page is never written (and, in fresh
// storage, never becomes resident).
constexpr unsigned kSpan = 4096 / sizeof(uint64_t);
// One slot per histogram: kNr counters rounded up to whole 4 KiB pages, so
// spans and pages coincide.
constexpr size_t kSlotWords = (Histogram::kNr + kSpan - 1) / kSpan * kSpan;
constexpr size_t kSlotBytes = kSlotWords * sizeof(uint64_t);
constexpr size_t kChunkSlots = 256;  // 4 MiB of address space per mapping

bool SpanEmpty(const uint64_t* p, unsigned n) {
  uint64_t any = 0;
  for (unsigned i = 0; i < n; ++i) any |= p[i];
  return any == 0;
}

// Zeroes the spans that hold a count. Reading an untouched page maps the
// kernel's shared zero page, which costs no RSS.
void ZeroUsedSpans(uint64_t* p) {
  for (unsigned b = 0; b < Histogram::kNr; b += kSpan) {
    const unsigned n = std::min(kSpan, Histogram::kNr - b);
    if (!SpanEmpty(p + b, n)) std::memset(p + b, 0, n * sizeof(uint64_t));
  }
}

// dst = src (null: all zero), writing only spans where either holds a
// count; dst_zero: dst is known to be all zero (fresh storage).
void CopyCounts(uint64_t* dst, const uint64_t* src, bool dst_zero) {
  for (unsigned b = 0; b < Histogram::kNr; b += kSpan) {
    const unsigned n = std::min(kSpan, Histogram::kNr - b);
    if (src != nullptr && !SpanEmpty(src + b, n)) {
      std::memcpy(dst + b, src + b, n * sizeof(uint64_t));
    } else if (!dst_zero && !SpanEmpty(dst + b, n)) {
      std::memset(dst + b, 0, n * sizeof(uint64_t));
    }
  }
}

// Process-wide pool of zero-filled counter slots. Fresh slots come from
// anonymous mappings (zero pages from the kernel, never written here: malloc
// could hand back used memory that would have to be cleared, i.e. made
// resident). A released slot is made zero again and reused, so the pool
// costs one mmap per 256 histograms instead of one mmap and munmap each
// (2,520 each way for seed 003's 252 workers). The address space is kept:
// the pool is as large as the most histograms ever alive.
// Thread-safe (workers create histograms at ramp end and for snapshots).
class CountsPool {
 public:
  uint64_t* Get() {
    std::lock_guard<std::mutex> lock(mu_);
    if (!free_.empty()) {
      uint64_t* p = free_.back();  // the most recently used: likely resident
      free_.pop_back();
      return p;
    }
    if (next_ == end_) {
      void* m = mmap(nullptr, kChunkSlots * kSlotBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED) throw std::bad_alloc();
      // A transparent huge page would make 512 untouched pages resident at
      // the first count (kernels with THP "always").
      (void)madvise(m, kChunkSlots * kSlotBytes, MADV_NOHUGEPAGE);
      next_ = static_cast<uint64_t*>(m);
      end_ = next_ + kChunkSlots * kSlotWords;
    }
    uint64_t* p = next_;
    next_ += kSlotWords;
    return p;
  }

  void Put(uint64_t* p) noexcept {
    // The slot goes back to the kernel (zero again, and not resident):
    // zeroing it in place would keep its pages resident while the next user
    // of the slot may write other pages. Always, not only when it holds
    // counts now: Clear() and assignment zero spans in place, and a slot
    // that held counts once may be all zero and still resident. On pages
    // that were never touched the call costs well under a microsecond.
    if (madvise(p, kSlotBytes, MADV_DONTNEED) != 0) ZeroUsedSpans(p);
    std::lock_guard<std::mutex> lock(mu_);
    try {
      free_.push_back(p);
    } catch (const std::bad_alloc&) {  // out of memory: the slot is lost, not reused
    }
  }

 private:
  std::mutex mu_;
  std::vector<uint64_t*> free_;
  uint64_t* next_ = nullptr;
  uint64_t* end_ = nullptr;
};

// Never destroyed: histograms in static objects may outlive any pool
// destructor.
CountsPool& Pool() {
  static CountsPool* pool = new CountsPool;
  return *pool;
}

}  // namespace

Histogram::Histogram() : counts(Pool().Get()) {}

Histogram::Histogram(const Histogram& o) : counts(Pool().Get()) {
  if (o.counts != nullptr) CopyCounts(counts, o.counts, true);
}

Histogram& Histogram::operator=(const Histogram& o) {
  if (this == &o) return *this;
  if (counts == nullptr) {
    counts = Pool().Get();
    CopyCounts(counts, o.counts, true);
  } else {
    CopyCounts(counts, o.counts, false);
  }
  return *this;
}

Histogram& Histogram::operator=(Histogram&& o) noexcept {
  if (this != &o) {
    if (counts != nullptr) Pool().Put(counts);
    counts = o.counts;
    o.counts = nullptr;
  }
  return *this;
}

Histogram::~Histogram() {
  if (counts != nullptr) Pool().Put(counts);
}

void Histogram::Clear() {
  if (counts == nullptr)
    counts = Pool().Get();
  else
    ZeroUsedSpans(counts);
}

void Histogram::Merge(const Histogram& o) {
  if (o.counts == nullptr) return;
  if (counts == nullptr) counts = Pool().Get();
  for (unsigned b = 0; b < kNr; b += kSpan) {
    const unsigned n = std::min(kSpan, kNr - b);
    if (SpanEmpty(o.counts + b, n)) continue;
    for (unsigned i = b; i < b + n; ++i) counts[i] += o.counts[i];
  }
}

}  // namespace iobench
