// IoMemory: the memory a worker's I/O buffers live in, allocated as the job's
// mem= (iomem=) and mem_align= (iomem_align=) ask. See docs/patterns.md
// ("I/O buffer memory").
//
// Owner: run module. One IoMemory per worker, created and released by that
// worker's thread in Setup/Teardown; not thread-safe. The BufferFiller that
// fills these buffers is declared in run/pattern.h.
#pragma once

#include <cstdint>
#include <string>

#include "iobench/job.h"
#include "iobench/status.h"

namespace iobench {

// fio's mem= name for a memory type ("malloc", "shm", ...).
const char* MemTypeName(JobSpec::MemType t);

// The huge page size the kernel uses by default (/proc/meminfo Hugepagesize)
// and how many huge pages are free now (HugePages_Free). 0 when unknown.
struct HugePageInfo {
  uint64_t page_bytes = 0;
  uint64_t free_pages = 0;
};
HugePageInfo ReadHugePageInfo();

class IoMemory {
 public:
  IoMemory() = default;
  IoMemory(const IoMemory&) = delete;
  IoMemory& operator=(const IoMemory&) = delete;
  ~IoMemory() { Release(); }

  // Allocates room for `bytes` of buffers whose first byte is `align`-aligned
  // plus job.mem_align (fio: buffers start mem_align bytes past an aligned
  // address). `align` is a power of two (the page or logical block size).
  // Hugepage types fail, naming the option, when too few huge pages are free:
  // they never fall back to normal pages. `who` prefixes messages.
  Status Allocate(const JobSpec& job, uint64_t bytes, uint64_t align, const std::string& who);

  // Unmaps/frees, and removes a mem=mmap*:FILE this allocation created.
  void Release();

  // The first buffer (aligned + mem_align); nullptr before Allocate.
  void* base() const { return base_; }
  // What was mapped or allocated (>= bytes + align + mem_align; huge types
  // round up to whole huge pages).
  uint64_t mapped_bytes() const { return mapped_bytes_; }

 private:
  JobSpec::MemType type_ = JobSpec::MemType::kMalloc;
  void* raw_ = nullptr;
  void* base_ = nullptr;
  uint64_t mapped_bytes_ = 0;
  int fd_ = -1;
  std::string created_file_;  // unlinked on Release
};

}  // namespace iobench
