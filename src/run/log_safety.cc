#include "run/log_safety.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include "stats/iolog.h"
#include "sys/job_paths.h"
#include "sys/safety.h"

namespace iobench {

namespace {

// One file whatever its spelling: its inode when it exists, else (when
// `or_path`) its absolute path with the parts that exist resolved, as
// sys::SameFile compares them; "" for a missing file without `or_path`.
// Keys, not SameFile per pair: a job may name 100000 files.
std::string FileKey(const std::string& path, bool or_path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0)
    return "i" + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  if (!or_path) return "";
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (!ec) p = fs::weakly_canonical(p, ec);
  return "p" + (ec ? path : p.string());
}

// A log the run writes: "job 'a': write_bw_log=x (j.fio:4)" and its path.
struct Log {
  std::string named;
  std::string path;
};

}  // namespace

Status CheckLogsAvoidDataFiles(const std::vector<JobSpec>& jobs,
                               const std::vector<uint32_t>& first_worker_of) {
  // By key: the write_iolog logs, and the bw, iops, lat and hist logs.
  std::map<std::string, Log> iologs, logs;
  bool new_logs = false;  // a log not made yet: data files need their path key
  auto add_log = [&](std::map<std::string, Log>* to, const std::string& path, const JobSpec& job,
                     const std::string& named) {
    const std::string key = FileKey(path, true);
    new_logs |= key[0] == 'p';
    to->emplace(key, Log{"job '" + job.name + "': " + named, path});
  };
  for (size_t i = 0; i < jobs.size(); ++i) {
    const JobSpec& j = jobs[i];
    if (!j.write_iolog.empty())
      add_log(&iologs, j.write_iolog, j,
              "write_iolog=" + j.write_iolog + " (" + sys::OptionWhere(j, "write_iolog") + ")");
    const IoLogOptions opts = IoLogOptions::FromJob(j);
    if (!opts.Any()) continue;
    const int first = i < first_worker_of.size() ? static_cast<int>(first_worker_of[i]) : 0;
    const int clones = std::max<int>(1, static_cast<int>(j.numjobs));
    for (int k = 0; k < clones; ++k) {
      for (const LogFile& f : LogFiles(opts, first + k)) add_log(&logs, f.path, j, f.Named());
      if (!opts.per_job_logs) break;  // one file for all clones
    }
  }
  if (logs.empty() && iologs.empty()) return Status::Ok();
  // A write_iolog that a later phase replays is the way to record and
  // replay (CheckIologsApart refuses the two in one phase): a read_iolog
  // is checked against the other logs only.
  auto refuse = [&](const std::string& path, const std::string& what, bool iolog) -> Status {
    const std::string key = FileKey(path, new_logs);
    if (key.empty()) return Status::Ok();
    const Log* log = nullptr;
    bool appends = false;  // write_iolog appends; the other logs truncate
    if (auto it = logs.find(key); it != logs.end()) {
      log = &it->second;
    } else if (auto io = iologs.find(key); iolog && io != iologs.end()) {
      log = &io->second;
      appends = true;
    }
    if (log == nullptr) return Status::Ok();
    return Status::Invalid(
        log->named + " writes " + log->path +
        (log->path == path ? "" : ", the same file as " + path) + ", " + what +
        (appends ? ": the log would be appended to it" : ": the log would replace what it holds") +
        "; name the log another file");
  };
  for (const JobSpec& j : jobs) {
    const std::string who = "job '" + j.name + "'";
    if (!j.read_iolog.empty())
      IOB_RETURN_IF_ERROR(refuse(
          sys::ReadIologPath(j),  // read_iolog=a\:b.log reads a:b.log
          "the log " + who + " replays (" + sys::OptionAt(j, "read_iolog", j.read_iolog) + ")",
          false));
    if (j.ioengine == "null") continue;  // no data file is opened
    const std::string what = sys::JobFileWhat(j);
    for (const std::string& path : sys::JobFilePaths(j))
      IOB_RETURN_IF_ERROR(refuse(path, what, true));
  }
  return Status::Ok();
}

}  // namespace iobench
