#include "sys/job_paths.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "sys/strings.h"

namespace iobench::sys {
namespace {

// Every `from` in *s, matched ignoring ASCII case as fio's make_filename
// (strcasestr: "$JOBNAME" is the job's name), replaced by `to`.
void ReplaceAll(std::string* s, std::string_view from, const std::string& to) {
  const auto same = [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  };
  for (auto it = std::search(s->begin(), s->end(), from.begin(), from.end(), same); it != s->end();
       it = std::search(it, s->end(), from.begin(), from.end(), same)) {
    const size_t pos = static_cast<size_t>(it - s->begin());
    s->replace(pos, from.size(), to);
    it = s->begin() + static_cast<std::ptrdiff_t>(pos + to.size());
  }
}

std::string ToLowerAscii(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string JoinDir(const std::string& dir, const std::string& name) {
  if (dir.empty() || (!name.empty() && name[0] == '/')) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

// fio's add_file for a generated name: directory= in front even of an
// absolute name ("d" + "/x" is "d/x", never "/x").
std::string FioJoin(const std::string& dir, const std::string& name) {
  if (dir.empty() || name.empty() || name[0] != '/') return JoinDir(dir, name);
  return (dir.back() == '/' ? dir.substr(0, dir.size() - 1) : dir) + name;
}

// The name as fio's add_file writes it into its list of taken names:
// directory= (the clone's part), '/', the name, joined as they are.
std::string FioKey(const std::string& dir, const std::string& name) {
  return dir.empty() ? name : dir + "/" + name;
}

// The clone's part of directory= (round-robin by clone number, as fio).
std::string CloneDir(const JobSpec& job, int jobnum) {
  const std::vector<std::string> dirs = JobDirectories(job);
  return dirs[static_cast<size_t>(std::max(jobnum, 0)) % dirs.size()];
}

// The job's files come from filename_format (fio's add_job generates them
// when no filename=, opendir= or read_iolog= gave the job files, and its
// name is not an existing non-regular path).
bool GeneratesNames(const JobSpec& job) {
  return job.filenames.empty() && job.opendir.empty() && job.read_iolog.empty() &&
         !JobNameIsTarget(job);
}

// filename_format's names for clone `jobnum`, before directory= (at most
// `limit`). The clone's part is substituted once, only $filenum per file:
// nrfiles=1048576 with numjobs=4 spent seconds in the replacements.
std::vector<std::string> GeneratedNames(const JobSpec& job, int jobnum,
                                        uint32_t limit = UINT32_MAX) {
  std::string fmt = JobFormat(job);
  ReplaceAll(&fmt, "$jobnum", std::to_string(jobnum));
  std::vector<std::string> names;
  const uint32_t n = std::min(std::max<uint32_t>(1, job.nrfiles), limit);
  constexpr std::string_view kFilenum = "$filenum";
  const auto same = [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  };
  // The text between the $filenum tokens.
  std::vector<std::string> parts;
  for (auto from = fmt.begin();;) {
    const auto it = std::search(from, fmt.end(), kFilenum.begin(), kFilenum.end(), same);
    parts.emplace_back(from, it);
    if (it == fmt.end()) break;
    from = it + static_cast<std::ptrdiff_t>(kFilenum.size());
  }
  names.reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    const std::string num = std::to_string(i);
    std::string name = parts[0];
    for (size_t k = 1; k < parts.size(); ++k) name += num + parts[k];
    names.push_back(std::move(name));
  }
  return names;
}

// Whether filename_format makes a different name for every (clone, file):
// it holds $jobnum and $filenum, each between characters that are not
// digits and start or end no other token, so the numbers read back.
bool NamesAreDistinct(const JobSpec& job) {
  std::string fmt = ToLowerAscii(JobFormat(job));
  bool jobnum = false, filenum = false;
  for (size_t i = 0; i < fmt.size(); ++i) {
    const bool is_job = fmt.compare(i, 7, "$jobnum") == 0;
    const bool is_file = fmt.compare(i, 8, "$filenum") == 0;
    if (!is_job && !is_file) continue;
    const size_t end = i + (is_job ? 7 : 8);
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    if (i > 0 && digit(fmt[i - 1])) return false;
    if (end < fmt.size() && (digit(fmt[end]) || fmt[end] == '$')) return false;
    jobnum |= is_job;
    filenum |= is_file;
    i = end - 1;
  }
  return jobnum && filenum;
}

}  // namespace

std::vector<std::string> JobDirectories(const JobSpec& job) {
  std::vector<std::string> dirs(1);
  const std::string& d = job.directory;
  for (size_t i = 0; i < d.size(); ++i) {
    if (d[i] == '\\' && i + 1 < d.size() && d[i + 1] == ':') {
      dirs.back() += ':';
      ++i;
    } else if (d[i] == ':') {
      if (!dirs.back().empty()) dirs.emplace_back();  // "a::b", ":a": fio skips empty parts
    } else {
      dirs.back() += d[i];
    }
  }
  if (dirs.size() > 1 && dirs.back().empty()) dirs.pop_back();  // "a:"
  return dirs;
}

std::string ReadIologPath(const JobSpec& job) {
  std::vector<std::string> logs = SplitEscaped(job.read_iolog, ':');
  return logs.size() == 1 ? std::move(logs.front()) : job.read_iolog;
}

bool UnderDev(const std::string& path) {
  return path.rfind("/dev/", 0) == 0 && path.rfind("/dev/shm/", 0) != 0;
}

Result<std::string> DanglingLinkEnd(const std::string& path) {
  std::string file = path;
  struct stat st {};
  for (int hops = 0; hops < 40 && ::lstat(file.c_str(), &st) == 0 && S_ISLNK(st.st_mode); ++hops) {
    char to[PATH_MAX];
    const ssize_t n = ::readlink(file.c_str(), to, sizeof to - 1);
    if (n <= 0) return ErrnoStatus("read the symbolic link " + file, n < 0 ? errno : EIO);
    std::string next(to, static_cast<size_t>(n));
    const size_t at = file.rfind('/');
    if (next[0] != '/' && at != std::string::npos) next = file.substr(0, at + 1) + next;
    file = std::move(next);
  }
  return file;
}

std::string NewFileAmongDevices(const std::string& path) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) == 0) return "";
  // A dangling symbolic link: the open creates the file it names.
  const Result<std::string> end = DanglingLinkEnd(path);
  if (!end.ok()) return "";
  const std::string& file = *end;
  // The directory the file lands in, as the kernel will walk the path once
  // the missing directories on the way are made (MakeParentDirs makes them
  // as written): each existing component resolved (links, "."), each ".."
  // a step out of the directory reached so far, made or not, so
  // /dev/shm/new/../../../dev/x lands in /dev/dev. The nearest existing
  // directory above it decides; a component that is a file or a device
  // (/dev/null/x) makes the open fail with ENOTDIR and lands nowhere.
  const size_t slash = file.rfind('/');
  const std::string parent = slash == std::string::npos ? "."
                             : slash == 0               ? "/"
                                                        : file.substr(0, slash);
  std::string real;
  if (parent[0] == '/') {
    real = "/";
  } else {
    char* cwd = ::realpath(".", nullptr);
    if (cwd == nullptr) return "";  // a deleted working directory: the open fails
    real = cwd;
    free(cwd);
  }
  bool exists = true;  // `real` exists (else it is made, with all below it)
  for (size_t at = 0; at <= parent.size();) {
    size_t end = parent.find('/', at);
    if (end == std::string::npos) end = parent.size();
    const std::string comp = parent.substr(at, end - at);
    at = end + 1;
    if (comp.empty() || comp == ".") continue;
    if (comp == "..") {
      const size_t up = real.rfind('/');
      real = up == 0 || up == std::string::npos ? "/" : real.substr(0, up);
      exists = exists || ::stat(real.c_str(), &st) == 0;
      continue;
    }
    real = real == "/" ? "/" + comp : real + "/" + comp;
    if (!exists || ::lstat(real.c_str(), &st) != 0) {
      exists = false;
      continue;
    }
    char* resolved = ::realpath(real.c_str(), nullptr);
    if (resolved == nullptr) return "";  // a dangling link as a directory: ENOENT
    real = resolved;
    free(resolved);
    if (::stat(real.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return "";  // ENOTDIR
  }
  while (::stat(real.c_str(), &st) != 0) {
    const size_t up = real.rfind('/');
    real = up == 0 || up == std::string::npos ? "/" : real.substr(0, up);
  }
  return DirAmongDevices(real);
}

namespace {
// /dev's and /'s devices, read once: the rule runs for every new file.
struct DevMounts {
  bool ok = false;
  dev_t dev = 0, root = 0;
};
const DevMounts& ReadDevMounts() {
  static const DevMounts m = [] {
    DevMounts d;
    struct stat dev {
    }, root{};
    d.ok = ::stat("/dev", &dev) == 0 && ::stat("/", &root) == 0;
    d.dev = dev.st_dev;
    d.root = root.st_dev;
    return d;
  }();
  return m;
}
}  // namespace

std::string DirAmongDevices(const std::string& dir) {
  const DevMounts& m = ReadDevMounts();
  if (!m.ok) return "";
  char* real = ::realpath(dir.c_str(), nullptr);
  if (real == nullptr) return "";
  const std::string where(real);
  free(real);
  struct stat at {};
  if (::stat(where.c_str(), &at) != 0 || at.st_dev != m.dev) return "";
  // /dev its own mount (devtmpfs): anywhere on it. Else only /dev and below.
  if (m.dev != m.root || where == "/dev" || where.rfind("/dev/", 0) == 0) return where;
  return "";
}

std::string AmongDevicesWhy(const std::string& dir) {
  return "it would be a new regular file in " + dir +
         ", among the device nodes, where a missing name is a device that is not there (a typo), "
         "not a file to create; name an existing device, or a file elsewhere (/dev/shm holds "
         "files)";
}

bool SameFile(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::equivalent(a, b, ec)) return true;  // both exist: one file
  // Absolute first: weakly_canonical leaves a relative path none of whose
  // parts exists as it is ("x.log" stayed "x.log" while "./x.log" became
  // "/cwd/x.log"), and the two spellings of one new file differed.
  const auto canonical = [&ec](const std::string& p) {
    const fs::path abs = fs::absolute(p, ec);
    return ec ? fs::path() : fs::weakly_canonical(abs, ec);
  };
  const fs::path ca = canonical(a);
  if (ec) return a == b;
  const fs::path cb = canonical(b);
  return ec ? a == b : ca == cb;
}

std::string DeletedCwdReason(const std::string& path) {
  if (path.empty() || path[0] == '/') return "";
  struct stat sb;
  if (::stat(".", &sb) != 0 || sb.st_nlink != 0) return "";
  return "the current directory was deleted";
}

std::string JobNameFilePrefix(const std::string& job_name) {
  if (!UnderDev(job_name)) return job_name;
  const std::string last = job_name.substr(job_name.find_last_of('/') + 1);
  return last.empty() ? "dev" : last;
}

std::string HookOutputFile(const std::string& job_name, const std::string& mode) {
  return JobNameFilePrefix(job_name) + "." + mode + ".txt";
}

std::string JobFormat(const JobSpec& job) {
  std::string fmt = job.filename_format.empty() ? "$jobname.$jobnum.$filenum" : job.filename_format;
  ReplaceAll(&fmt, "$jobname", job.SectionName());
  ReplaceAll(&fmt, "$clientuid", "");
  return fmt;
}

bool JobNameIsTarget(const JobSpec& job) {
  if (!job.filenames.empty() || !job.opendir.empty() || !job.read_iolog.empty()) return false;
  const std::string& name = job.SectionName();
  if (std::max<uint32_t>(1, job.nrfiles) != 1 || name.empty()) return false;
  struct stat st {};
  return lstat(name.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
}

std::vector<std::string> TargetPaths(const JobSpec& job, int jobnum) {
  const std::string dir =
      job.filenames.empty() ? CloneDir(job, jobnum) : JobDirectories(job).front();
  std::vector<std::string> paths;
  if (!job.filenames.empty()) {
    for (const auto& f : job.filenames) paths.push_back(JoinDir(dir, f));
    return paths;
  }
  if (JobNameIsTarget(job)) {
    // fio's "<directory>/<name>" even for an absolute name.
    const std::string& name = job.SectionName();
    if (!dir.empty() && name[0] == '/')
      return {(dir.back() == '/' ? dir.substr(0, dir.size() - 1) : dir) + name};
    return {JoinDir(dir, name)};
  }
  // fio's "<directory>/<name>" for a generated name, absolute or not (the
  // parser refuses an absolute filename_format with directory=; a name
  // absolute through $jobname is never the path alone).
  for (const std::string& name : GeneratedNames(job, jobnum)) paths.push_back(FioJoin(dir, name));
  return paths;
}

void AddTakenNames(const JobSpec& job, size_t index, TakenNames* taken) {
  const std::string first_dir = JobDirectories(job).front();
  if (!job.filenames.empty()) {
    // fio adds filename='s files as it parses the option: they count when
    // numjobs > 1 was set before it (in [global] or the section).
    uint64_t numjobs = 1;
    bool counted = false;
    for (const OptionSetting& s : job.settings) {
      if (s.name == "numjobs") numjobs = std::strtoull(s.value.c_str(), nullptr, 10);
      if (s.name == "filename") counted = numjobs > 1;
    }
    if (counted)
      for (const std::string& f : job.filenames) taken->emplace(FioKey(first_dir, f), index);
    return;
  }
  if (job.numjobs <= 1 || !job.opendir.empty() || !job.read_iolog.empty()) return;
  if (JobNameIsTarget(job)) {
    taken->emplace(FioKey(first_dir, job.SectionName()), index);
    return;
  }
  for (const std::string& name : GeneratedNames(job, 0))
    taken->emplace(FioKey(first_dir, name), index);
}

std::vector<std::string> ClonePaths(const JobSpec& job, size_t index, int jobnum,
                                    const TakenNames& taken, std::vector<TakenFile>* dropped) {
  if (jobnum <= 0 || !GeneratesNames(job)) return TargetPaths(job, jobnum);
  const std::string dir = CloneDir(job, jobnum);
  std::vector<std::string> paths;
  for (const std::string& name : GeneratedNames(job, jobnum)) {
    const auto it = taken.find(FioKey(dir, name));
    struct stat st {};
    // fio's exists_and_not_regfile() looks at the name without directory=.
    const bool not_regular = lstat(name.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
    if (it != taken.end() && it->second <= index && !not_regular) {
      if (dropped != nullptr) dropped->push_back({FioJoin(dir, name), it->second});
      continue;
    }
    paths.push_back(FioJoin(dir, name));
  }
  return paths;
}

std::vector<std::string> JobFilePaths(const JobSpec& job) {
  std::vector<std::string> out;
  // A set beside the list: a job may name a million files (nrfiles=, or
  // numjobs= clones of one each), and a search of the list per path made
  // --parse-only quadratic (nrfiles=100000: 10 s).
  std::unordered_set<std::string> seen;
  const uint32_t clones = job.filenames.empty() ? std::max<uint32_t>(1, job.numjobs) : 1;
  for (uint32_t j = 0; j < clones; ++j)
    for (auto& p : TargetPaths(job, static_cast<int>(j)))
      if (seen.insert(p).second) out.push_back(std::move(p));
  return out;
}

std::vector<std::string> JobFilePathsHead(const JobSpec& job, size_t shown, size_t* total) {
  // The filename= list as the run uses it: a name listed twice (in
  // [global] and in the job) is used twice, as in fio.
  if (!job.filenames.empty()) {
    std::vector<std::string> all = TargetPaths(job, 0);
    *total = all.size();
    if (all.size() > shown) all.resize(shown);
    return all;
  }
  const uint32_t clones = std::max<uint32_t>(1, job.numjobs);
  // (One directory: with several, two could join with names into one path.)
  if (!GeneratesNames(job) || clones == 1 || JobDirectories(job).size() != 1 ||
      !NamesAreDistinct(job)) {
    std::vector<std::string> all = JobFilePaths(job);
    *total = all.size();
    if (all.size() > shown) all.resize(shown);
    return all;
  }
  const uint32_t per_clone = std::max<uint32_t>(1, job.nrfiles);
  *total = static_cast<size_t>(clones) * per_clone;
  std::vector<std::string> out;
  for (uint32_t j = 0; j < clones && out.size() < shown; ++j) {
    const std::string dir = CloneDir(job, static_cast<int>(j));
    for (const std::string& name : GeneratedNames(
             job, static_cast<int>(j), static_cast<uint32_t>(std::min<size_t>(shown, UINT32_MAX))))
      if (out.size() < shown) out.push_back(FioJoin(dir, name));
  }
  return out;
}

uint32_t JobFilesPerClone(const JobSpec& job) {
  uint32_t n = job.filenames.empty() ? std::max<uint32_t>(1, job.nrfiles)
                                     : static_cast<uint32_t>(job.filenames.size());
  if (const uint32_t limit = job.OpenLimit(n); limit != 0) n = limit;
  // A replay that follows its log's open and close lines (PrepareReplayJob).
  if (job.read_iolog_open_max != 0 && job.read_iolog_open_max < n)
    n = static_cast<uint32_t>(job.read_iolog_open_max);
  return n;
}

uint64_t SmallestBsAnyDirection(const JobSpec& job) {
  uint64_t bs = UINT64_MAX;
  for (const BlockSizeSpec& spec : job.bs) {
    bs = std::min(bs, spec.min);
    for (const auto& e : spec.split) bs = std::min(bs, e.bs);
  }
  return bs == 0 || bs == UINT64_MAX ? 4096 : bs;
}

uint64_t SizeShare(const JobSpec& job, uint64_t index, uint64_t nfiles) {
  if (job.size == 0 || nfiles == 0) return 0;
  const uint64_t bs = SmallestBsAnyDirection(job);
  const uint64_t each = job.size / nfiles;
  const uint64_t extra_files = (job.size - each * nfiles) / bs;
  return each + (index < extra_files ? bs : 0);
}

}  // namespace iobench::sys
