#include "sys/host.h"

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
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

namespace {

// "0-3,6": a sorted CPU list as cpus_allowed takes it ("none" when empty).
std::string CpuListText(const std::vector<int>& cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cpus[i]);
    if (j > i) out += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out.empty() ? "none" : out;
}

}  // namespace

int ConfiguredCpus() {
  const long conf = sysconf(_SC_NPROCESSORS_CONF);
  return static_cast<int>(std::min<long>(conf > 0 ? conf : 1, CPU_SETSIZE));
}

std::string ForbiddenCpus(const std::vector<int>& cpus) {
  cpu_set_t orig;
  if (sched_getaffinity(0, sizeof(orig), &orig) != 0) return "";
  auto permitted = [](const std::vector<int>& list) {
    cpu_set_t s;
    CPU_ZERO(&s);
    for (int c : list) CPU_SET(c, &s);
    return sched_setaffinity(0, sizeof(s), &s) == 0 || errno != EINVAL;
  };
  std::string bad;
  if (!permitted(cpus)) {
    std::vector<int> allowed;
    for (int c = 0, n = ConfiguredCpus(); c < n; ++c)
      if (permitted({c})) allowed.push_back(c);
    bad = std::string(cpus.size() == 1 ? "CPU " : "CPUs ") + CpuListText(cpus) +
          (cpus.size() == 1 ? " is" : " are") + " not in this process's allowed CPUs (" +
          CpuListText(allowed) + ")";
  }
  sched_setaffinity(0, sizeof(orig), &orig);
  return bad;
}

}  // namespace iobench::sys
