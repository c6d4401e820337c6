#include "sys/procfs.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "sys/strings.h"

namespace iobench::sys {
namespace {

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\n')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\n')) --e;
  return s.substr(b, e - b);
}

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string Unescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      const std::string oct = s.substr(i + 1, 3);
      if (oct.size() == 3 && oct.find_first_not_of("01234567") == std::string::npos) {
        out.push_back(static_cast<char>(std::strtol(oct.c_str(), nullptr, 8)));
        i += 3;
        continue;
      }
    }
    out.push_back(s[i]);
  }
  return out;
}

}  // namespace

Result<std::string> ReadTextFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("read " + path);
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0) {
      if (errno == EINTR) continue;
      Status st = ErrnoStatus("read " + path);
      close(fd);
      return st;
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return out;
}

Result<std::string> ReadFirstLine(const std::string& path) {
  IOB_ASSIGN_OR_RETURN(std::string text, ReadTextFile(path));
  const size_t nl = text.find('\n');
  if (nl != std::string::npos) text.resize(nl);
  return Trim(text);
}

Result<int64_t> ReadIntFile(const std::string& path) {
  IOB_ASSIGN_OR_RETURN(std::string line, ReadFirstLine(path));
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(line.c_str(), &end, 10);
  if (line.empty() || errno != 0 || (end && *end != '\0'))
    return Status::Invalid(path + ": not an integer: '" + line + "'");
  return static_cast<int64_t>(v);
}

std::string AllMountOptions(const MountEntry& m) {
  std::vector<std::string> all;
  for (const std::string* list : {&m.options, &m.super_options})
    if (!list->empty())
      for (auto& opt : SplitEscaped(*list, ',')) AddUnique(&all, std::move(opt));
  std::string out;
  for (const auto& opt : all) {
    if (!out.empty()) out += ',';
    for (const char c : opt) out += c == ',' ? std::string("\\,") : std::string(1, c);
  }
  return out;
}

std::string MountOption(const MountEntry& m, const std::string& key) {
  const std::string prefix = key + "=";
  for (const auto& opt : SplitEscaped(m.super_options, ','))
    if (opt.rfind(prefix, 0) == 0) return Unescape(opt.substr(prefix.size()));
  return "";
}

Result<std::vector<MountEntry>> ReadMountInfo(const std::string& path) {
  IOB_ASSIGN_OR_RETURN(std::string text, ReadTextFile(path));
  std::vector<MountEntry> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream f(line);
    std::vector<std::string> fields;
    std::string tok;
    while (f >> tok) fields.push_back(tok);
    // id parent maj:min root mountpoint opts [optional...] - fstype source superopts
    size_t sep = 0;
    for (size_t i = 6; i < fields.size(); ++i) {
      if (fields[i] == "-") {
        sep = i;
        break;
      }
    }
    if (fields.size() < 7 || sep == 0) continue;
    MountEntry e;
    unsigned maj = 0, min = 0;
    if (std::sscanf(fields[2].c_str(), "%u:%u", &maj, &min) != 2) continue;
    e.major = maj;
    e.minor = min;
    e.root = Unescape(fields[3]);
    e.mount_point = Unescape(fields[4]);
    e.options = fields[5];
    if (sep + 1 < fields.size()) e.fs_type = fields[sep + 1];
    if (sep + 2 < fields.size()) e.source = Unescape(fields[sep + 2]);
    if (sep + 3 < fields.size()) e.super_options = fields[sep + 3];
    out.push_back(std::move(e));
  }
  return out;
}

const MountEntry* FindMountForPath(const std::vector<MountEntry>& mounts,
                                   const std::string& abs_path) {
  const MountEntry* best = nullptr;
  size_t best_len = 0;
  // Later entries shadow earlier ones on the same mount point, so ">=".
  for (const auto& m : mounts) {
    const std::string& mp = m.mount_point;
    bool match = false;
    if (mp == "/") {
      match = true;
    } else if (abs_path.compare(0, mp.size(), mp) == 0 &&
               (abs_path.size() == mp.size() || abs_path[mp.size()] == '/')) {
      match = true;
    }
    if (match && mp.size() >= best_len) {
      best = &m;
      best_len = mp.size();
    }
  }
  return best;
}

std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") out.push_back(name);
  }
  closedir(d);
  return out;
}

Result<std::string> BlockNameForDev(dev_t dev) {
  const std::string link =
      "/sys/dev/block/" + std::to_string(major(dev)) + ":" + std::to_string(minor(dev));
  char buf[4096];
  const ssize_t n = readlink(link.c_str(), buf, sizeof(buf) - 1);
  if (n < 0) return ErrnoStatus("resolve block device " + link);
  buf[n] = '\0';
  std::string target(buf);
  const size_t slash = target.rfind('/');
  return slash == std::string::npos ? target : target.substr(slash + 1);
}

Result<dev_t> DevForBlockName(const std::string& name) {
  IOB_ASSIGN_OR_RETURN(std::string line, ReadFirstLine("/sys/class/block/" + name + "/dev"));
  unsigned maj = 0, min = 0;
  if (std::sscanf(line.c_str(), "%u:%u", &maj, &min) != 2)
    return Status::Invalid("/sys/class/block/" + name + "/dev: bad device number '" + line + "'");
  return makedev(maj, min);
}

bool IsPartition(const std::string& name, std::string* parent) {
  const std::string base = "/sys/class/block/" + name;
  struct stat st;
  if (stat((base + "/partition").c_str(), &st) != 0) return false;
  char buf[4096];
  const std::string full = base + "/..";
  if (!realpath(full.c_str(), buf)) return false;
  std::string p(buf);
  const size_t slash = p.rfind('/');
  if (parent) *parent = slash == std::string::npos ? p : p.substr(slash + 1);
  return true;
}

std::vector<std::string> PartitionsOf(const std::string& disk) {
  std::vector<std::string> out;
  for (const auto& e : ListDir("/sys/block/" + disk)) {
    struct stat st;
    if (stat(("/sys/block/" + disk + "/" + e + "/partition").c_str(), &st) == 0) out.push_back(e);
  }
  return out;
}

Result<uint64_t> MemInfoBytes(const std::string& key) {
  IOB_ASSIGN_OR_RETURN(std::string text, ReadTextFile("/proc/meminfo"));
  std::istringstream lines(text);
  std::string line;
  const std::string prefix = key + ":";
  while (std::getline(lines, line)) {
    if (line.compare(0, prefix.size(), prefix) != 0) continue;
    unsigned long long kb = 0;
    if (std::sscanf(line.c_str() + prefix.size(), "%llu", &kb) != 1) break;
    return static_cast<uint64_t>(kb) * 1024;
  }
  return Status::NotFound("/proc/meminfo: no " + key + " line");
}

std::string HumanBytes(uint64_t bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  if (u == 0 || v >= 100 || v == static_cast<double>(static_cast<uint64_t>(v)))
    std::snprintf(buf, sizeof(buf), "%.0f %s", v, kUnits[u]);
  else
    std::snprintf(buf, sizeof(buf), "%.1f %s", v, kUnits[u]);
  return buf;
}

int WriteAll(int fd, std::string_view text) {
  for (size_t off = 0; off < text.size();) {
    const ssize_t n = ::write(fd, text.data() + off, text.size() - off);
    if (n > 0) {
      off += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      struct pollfd p = {fd, POLLOUT, 0};
      if (::poll(&p, 1, -1) < 0 && errno != EINTR) return errno;
      continue;
    }
    return n < 0 ? errno : EIO;
  }
  return 0;
}

int OpenFifoWriter(const std::string& path, int flags, const std::function<bool()>& give_up) {
  for (;;) {
    const int fd = ::open(path.c_str(), flags | O_NONBLOCK, 0644);
    if (fd >= 0) {
      const int fl = fcntl(fd, F_GETFL);
      if (fl != -1) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
      return fd;
    }
    if (errno != ENXIO) return -1;  // ENXIO: no reader yet
    if (give_up()) {
      errno = ENXIO;
      return -1;
    }
    usleep(20 * 1000);
  }
}

}  // namespace iobench::sys
