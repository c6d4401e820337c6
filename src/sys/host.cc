#include "sys/host.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <sstream>

#include "sys/procfs.h"

namespace iobench::sys {
namespace {

// Value of the first "key<blanks>: value" line of /proc/cpuinfo.
std::string CpuInfoValue(const std::string& text, const std::string& key) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string k = line.substr(0, colon);
    while (!k.empty() && (k.back() == ' ' || k.back() == '\t')) k.pop_back();
    if (k != key) continue;
    std::string v = line.substr(colon + 1);
    const size_t b = v.find_first_not_of(" \t");
    return b == std::string::npos ? std::string() : v.substr(b);
  }
  return {};
}

}  // namespace

Result<std::string> KernelRelease() {
  struct utsname u;
  if (uname(&u) != 0) return ErrnoStatus("uname");
  return std::string(u.release);
}

Result<std::string> CpuModel() {
  IOB_ASSIGN_OR_RETURN(std::string text, ReadTextFile("/proc/cpuinfo"));
  for (const char* key : {"model name", "Hardware", "Processor", "cpu model", "cpu"}) {
    std::string v = CpuInfoValue(text, key);
    if (!v.empty()) return v;
  }
  struct utsname u;
  if (uname(&u) != 0) return ErrnoStatus("uname");
  return std::string(u.machine);
}

Result<uint32_t> CpuCount() {
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n <= 0) return ErrnoStatus("sysconf(_SC_NPROCESSORS_ONLN)");
  return static_cast<uint32_t>(n);
}

Result<uint64_t> MemTotalBytes() { return MemInfoBytes("MemTotal"); }
Result<uint64_t> MemAvailableBytes() { return MemInfoBytes("MemAvailable"); }

}  // namespace iobench::sys
