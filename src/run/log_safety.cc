#include "run/log_safety.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include "run/verify.h"
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

// Calls fn(path, named, is_iolog) for every log the run writes: each
// job's write_iolog, and its bw, iops, lat and hist files as they will be
// named (one set per clone with per_job_logs), `named` "job 'a':
// write_bw_log=x (j.fio:4)".
template <typename Fn>
void ForEachLog(const std::vector<JobSpec>& jobs, const std::vector<uint32_t>& first_worker_of,
                Fn fn) {
  for (size_t i = 0; i < jobs.size(); ++i) {
    const JobSpec& j = jobs[i];
    const std::string who = "job '" + j.name + "': ";
    if (!j.write_iolog.empty())
      fn(j.write_iolog,
         who + "write_iolog=" + j.write_iolog + " (" + sys::OptionWhere(j, "write_iolog") + ")",
         true);
    const IoLogOptions opts = IoLogOptions::FromJob(j);
    if (!opts.Any()) continue;
    const int first = i < first_worker_of.size() ? static_cast<int>(first_worker_of[i]) : 0;
    const int clones = std::max<int>(1, static_cast<int>(j.numjobs));
    for (int k = 0; k < clones; ++k) {
      for (const LogFile& f : LogFiles(opts, first + k)) fn(f.path, who + f.Named(), false);
      if (!opts.per_job_logs) break;  // one file for all clones
    }
  }
}

}  // namespace

Status CheckLogsAvoidDataFiles(const std::vector<JobSpec>& jobs,
                               const std::vector<uint32_t>& first_worker_of) {
  // By key: the write_iolog logs, and the bw, iops, lat and hist logs.
  std::map<std::string, Log> iologs, logs;
  bool new_logs = false;  // a log not made yet: data files need their path key
  ForEachLog(jobs, first_worker_of, [&](const std::string& path, std::string named, bool iolog) {
    const std::string key = FileKey(path, true);
    new_logs |= key[0] == 'p';
    (iolog ? iologs : logs).emplace(key, Log{std::move(named), path});
  });
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

Status CheckOutputsOutsideDevices(const std::vector<JobSpec>& jobs,
                                  const std::vector<uint32_t>& first_worker_of) {
  Status refused;
  const auto refuse = [&](const std::string& named, const std::string& path,
                          const std::string& dev_dir) {
    if (refused.ok())
      refused = Status::Refused(named + ": refusing to create " + path + ": " +
                                sys::AmongDevicesWhy(dev_dir));
  };
  ForEachLog(jobs, first_worker_of, [&](const std::string& path, const std::string& named, bool) {
    if (const std::string dir = sys::NewFileAmongDevices(path); !dir.empty())
      refuse(named, path, dir);
  });
  IOB_RETURN_IF_ERROR(refused);
  const std::string cwd_dev = sys::DirAmongDevices(".");
  for (size_t i = 0; i < jobs.size(); ++i) {
    const JobSpec& j = jobs[i];
    const std::string who = "job '" + j.name + "': ";
    for (const char* mode : {"prerun", "postrun"}) {
      const std::string& cmd = std::string_view(mode) == "prerun" ? j.exec_prerun : j.exec_postrun;
      if (cmd.empty()) continue;
      const std::string file = sys::HookOutputFile(j.name, mode);
      if (const std::string dir = sys::NewFileAmongDevices(file); !dir.empty())
        refuse(who + sys::OptionAt(j, std::string("exec_") + mode, cmd) + " (its output)", file,
               dir);
    }
    if (const std::string dir = sys::NewFileAmongDevices(j.mem_file); !dir.empty())
      refuse(who +
                 sys::OptionAt(j, j.FindSetting("iomem") != nullptr ? "iomem" : "mem",
                               "mmap:" + j.mem_file) +
                 " (the buffers' file)",
             j.mem_file, dir);
    // Files made in the current directory: the verify state, the dumps.
    if (cwd_dev.empty() || j.verify.type == VerifyType::kNone) continue;
    const uint32_t worker = i < first_worker_of.size() ? first_worker_of[i] : 0;
    if (j.verify.state_save && HasWrite(j.rw) && !j.verify.verify_only)
      refuse(who + sys::OptionAt(j, "verify_state_save", "1"),
             Verifier::StateFileName(j.name, worker), cwd_dev);
    if (j.verify.dump)
      refuse(who + sys::OptionAt(j, "verify_dump", "1") + " (the blocks of a failed check)",
             "its files (FILE.OFFSET.received and .expected)", cwd_dev);
  }
  return refused;
}

}  // namespace iobench
