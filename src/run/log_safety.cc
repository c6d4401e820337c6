#include "run/log_safety.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "iobench/engine.h"
#include "run/buffers.h"
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

// The option that makes a side file, as the job set it, and where ("" for
// a default it did not set): OptionAt's parts, for Named's "(where)".
void SetOptionOf(const JobSpec& j, const std::string& name, const std::string& value, SideFile* f) {
  const OptionSetting* s = j.FindSetting(name);
  f->option = name + "=" + (s != nullptr && !s->value.empty() ? s->value : value);
  f->where = s != nullptr ? sys::OptionWhere(j, name) : "";
}

// Whether the base name of `path` is <base>.<digits>[-<digits>].received
// or .expected: Verifier::DumpFailure's names (NewDumpStem adds the -N).
bool DumpNameOf(const std::string& path, const std::string& base) {
  std::string name = path.substr(path.rfind('/') + 1);
  bool suffix = false;
  for (const char* ext : {".received", ".expected"}) {
    const std::string e = ext;
    if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0) {
      name.resize(name.size() - e.size());
      suffix = true;
      break;
    }
  }
  if (!suffix || name.size() <= base.size() + 1 || name.compare(0, base.size(), base) != 0 ||
      name[base.size()] != '.')
    return false;
  const std::string tail = name.substr(base.size() + 1);  // <offset>[-<n>]
  const size_t dash = tail.find('-');
  auto digits = [](const std::string& t) {
    return !t.empty() &&
           std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  return digits(tail.substr(0, dash)) &&
         (dash == std::string::npos || digits(tail.substr(dash + 1)));
}

}  // namespace

std::string SideFile::Named() const {
  if (job.empty()) return option;
  return job + ": " + option + " (" + (where.empty() ? "the default" : where) + ")";
}

std::string SideFile::Described() const {
  if (job.empty()) return what;
  return what + " of " + job + " (" + option + (where.empty() ? "" : " at " + where) + ")";
}

std::string SameFileKey(const std::string& path) { return FileKey(path, true); }

std::vector<uint32_t> FirstWorkerOf(const std::vector<JobSpec>& jobs) {
  std::vector<uint32_t> first;
  uint32_t next = 0;
  for (const JobSpec& j : jobs) {
    first.push_back(next);
    next += std::max<uint32_t>(1, j.numjobs);
  }
  return first;
}

std::vector<SideFile> RunSideFiles(const std::vector<JobSpec>& jobs,
                                   const std::vector<uint32_t>& first_worker_of,
                                   bool bandwidth_log) {
  using K = SideFile::Kind;
  std::vector<SideFile> out;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const JobSpec& j = jobs[i];
    SideFile f;
    f.job = "job '" + j.name + "'";
    f.job_index = i;
    auto add = [&](K kind, const std::string& path, const char* what, const char* effect,
                   const char* remedy) {
      f.kind = kind;
      f.path = path;
      f.what = what;
      f.effect = effect;
      f.remedy = remedy;
      out.push_back(f);
    };
    if (!j.write_iolog.empty()) {
      f.option = "write_iolog=" + j.write_iolog;
      f.where = sys::OptionWhere(j, "write_iolog");
      add(K::kIoLog, j.write_iolog, "the I/O log", "the log would be appended to it",
          "name the log another file");
    }
    const int first = i < first_worker_of.size() ? static_cast<int>(first_worker_of[i]) : 0;
    const int clones = std::max<int>(1, static_cast<int>(j.numjobs));
    const IoLogOptions opts = IoLogOptions::FromJob(j);
    for (int k = 0; k < clones && opts.Any(); ++k) {
      for (const LogFile& l : LogFiles(opts, first + k)) {
        f.option = std::string(l.option) + "=" + l.prefix;
        f.where = l.where;
        add(K::kLog, l.path, "a log", "the log would replace what it holds",
            "name the log another file");
      }
      if (!opts.per_job_logs) break;  // one file for all clones
    }
    if (!j.mem_file.empty()) {
      SetOptionOf(j, "mem", std::string(MemTypeName(j.mem)) + ":" + j.mem_file, &f);
      add(K::kMemFile, j.mem_file, "the I/O buffer file",
          "the file would be truncated to the buffers' size and the buffers written through it",
          "name another buffer file, or none (mem=mmap maps anonymous memory)");
    }
    for (const auto& [cmd, mode] :
         {std::pair{&j.exec_prerun, "prerun"}, std::pair{&j.exec_postrun, "postrun"}}) {
      if (cmd->empty()) continue;
      SetOptionOf(j, std::string("exec_") + mode, *cmd, &f);
      add(K::kHookOutput, sys::HookOutputFile(j.name, mode), "the output file",
          "the command's output would replace what it holds",
          "rename the job, or run it from another directory");
    }
    // The null engine stores no data: it neither verifies nor saves a state;
    // verify=null checks nothing, so it saves no state and dumps nothing.
    const VerifyOptions& v = j.verify;
    if (v.type == VerifyType::kNone || v.type == VerifyType::kNull || DisklessEngine(j.ioengine))
      continue;
    const bool saves = v.state_save && HasWrite(j.rw) && !v.verify_only;
    if (saves || v.state_load) {
      SetOptionOf(j, saves ? "verify_state_save" : "verify_state_load", "1", &f);
      f.written = saves;  // else read at the start, with verify_state_load
      for (int k = 0; k < clones; ++k) {
        const std::string state = Verifier::StateFileName(j.name, static_cast<uint32_t>(first + k));
        const char* effect = "the state would be renamed over it when the job ends";
        const char* remedy =
            "rename the job, run it from another directory, or set "
            "verify_state_save=0";
        add(K::kVerifyState, state, "the verify state", effect, remedy);
        if (saves)
          add(K::kVerifyState, state + ".tmp", "the verify state's temporary file", effect, remedy);
      }
      f.written = true;
    }
    if (v.dump) {
      SetOptionOf(j, "verify_dump", "1", &f);
      std::set<std::string> bases;
      for (const std::string& path : sys::JobFilePaths(j))
        if (std::string base = path.substr(path.rfind('/') + 1); bases.insert(base).second)
          add(K::kVerifyDump, base, "the verify_dump files",
              "a block that fails its check would be dumped there, replacing what it holds",
              "run the job from another directory, or set verify_dump=0");
    }
  }
  if (bandwidth_log) {
    SideFile f;
    f.option = "--bandwidth-log";
    for (const char* path : {"agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log"}) {
      f.kind = K::kBandwidthLog;
      f.path = path;
      f.what = "a --bandwidth-log file";
      f.effect = "the log would replace what it holds";
      f.remedy = "run from another directory";
      out.push_back(f);
    }
  }
  return out;
}

bool IsDumpOf(const SideFile& dump, const std::string& path) {
  if (dump.kind != SideFile::Kind::kVerifyDump || !DumpNameOf(path, dump.path)) return false;
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  return FileKey(dir, true) == FileKey(".", true);
}

Status CheckSideFilesAvoidRunFiles(const std::vector<JobSpec>& jobs,
                                   const std::vector<uint32_t>& first_worker_of, bool bandwidth_log,
                                   const std::vector<std::string>& job_files) {
  const std::vector<SideFile> side = RunSideFiles(jobs, first_worker_of, bandwidth_log);
  // By key (FileKey), the files with a fixed name; the dumps by base name.
  std::map<std::string, const SideFile*> by_key;
  std::vector<const SideFile*> dumps;
  bool new_files = false;  // a side file not made yet: the others need their path key
  for (const SideFile& f : side) {
    if (!f.written) continue;
    if (f.kind == SideFile::Kind::kVerifyDump) {
      dumps.push_back(&f);
      continue;
    }
    const std::string key = FileKey(f.path, true);
    new_files |= key[0] == 'p';
    by_key.emplace(key, &f);
  }
  if (by_key.empty() && dumps.empty()) return Status::Ok();
  // `replayed_by`: the index of the job whose read_iolog this is, which a
  // write_iolog of an earlier job may be: a later phase replays what an
  // earlier one recorded (CheckIologsApart refuses the two in one phase).
  // Not the other way round: a later job recording into the log an earlier
  // one replayed appended to the user's input log.
  // `path` the file as the message names it: "" when `what` names it
  // (the job file on standard input, looked up as /dev/stdin).
  auto refuse = [&](const std::string& lookup, const std::string& path, const std::string& what,
                    size_t replayed_by = SIZE_MAX) -> Status {
    // A character device (/dev/null) keeps nothing a side file could spoil.
    if (struct stat st; ::stat(lookup.c_str(), &st) == 0 && S_ISCHR(st.st_mode))
      return Status::Ok();
    const SideFile* f = nullptr;
    if (const std::string key = FileKey(lookup, new_files); !key.empty())
      if (auto it = by_key.find(key); it != by_key.end()) f = it->second;
    if (f != nullptr && f->kind == SideFile::Kind::kIoLog && replayed_by != SIZE_MAX &&
        f->job_index < replayed_by)
      f = nullptr;
    if (f != nullptr)
      return Status::Invalid(f->Named() + " writes " + f->path +
                             (f->path == path || path.empty() ? "" : ", the same file as " + path) +
                             ", " + what + ": " + f->effect + "; " + f->remedy);
    for (const SideFile* d : dumps)
      if (IsDumpOf(*d, lookup))
        return Status::Invalid(d->Named() + " may write " + lookup + ", " + what + ": " +
                               d->effect + "; " + d->remedy);
    return Status::Ok();
  };
  for (const std::string& f : job_files) {
    if (f != "-") {
      IOB_RETURN_IF_ERROR(refuse(f, f, "a job file this run reads"));
      continue;
    }
    // A job file on standard input: its inode, when it is a file.
    if (struct stat st; ::fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode))
      IOB_RETURN_IF_ERROR(
          refuse("/dev/stdin", "", "the job file this run reads from standard input ('-')"));
  }
  for (const JobSpec& j : jobs) {
    const std::string who = "job '" + j.name + "'";
    if (!j.read_iolog.empty()) {
      const std::string replayed = sys::ReadIologPath(j);  // read_iolog=a\:b.log reads a:b.log
      IOB_RETURN_IF_ERROR(refuse(
          replayed, replayed,
          "the log " + who + " replays (" + sys::OptionAt(j, "read_iolog", j.read_iolog) + ")",
          static_cast<size_t>(&j - jobs.data())));
    }
    if (DisklessEngine(j.ioengine)) continue;  // no data file is opened (null, cpuio)
    const std::string what = sys::JobFileWhat(j);
    for (const std::string& path : sys::JobFilePaths(j))
      IOB_RETURN_IF_ERROR(refuse(path, path, what));
  }
  return Status::Ok();
}

Status CheckOutputsOutsideDevices(const std::vector<JobSpec>& jobs,
                                  const std::vector<uint32_t>& first_worker_of,
                                  bool bandwidth_log) {
  const std::string cwd_dev = sys::DirAmongDevices(".");
  for (const SideFile& f : RunSideFiles(jobs, first_worker_of, bandwidth_log)) {
    if (!f.written) continue;
    const bool dump = f.kind == SideFile::Kind::kVerifyDump;
    const std::string dir = dump ? cwd_dev : sys::NewFileAmongDevices(f.path);
    if (!dir.empty())
      return Status::Refused(
          f.Named() + ": refusing to create " +
          (dump ? "its files (" + f.path + ".OFFSET.received and .expected)" : f.path) + ": " +
          sys::AmongDevicesWhy(dir));
  }
  return Status::Ok();
}

}  // namespace iobench
