// exec_prerun / exec_postrun: a job's shell hooks. See worker.h and
// docs/running.md ("Before and after a job").
#include <cerrno>
#include <cstdio>
#include <string>

#include "run/worker.h"
#include "sys/job_paths.h"
#include "sys/spawn.h"

namespace iobench {

namespace {

// Runs `cmd` through /bin/sh with stdout and stderr into <job>.<mode>.txt
// (fio's file name, but never under /dev: sys::JobNameFilePrefix; the whole
// command's output, not only its last part's).
// Returns its exit status (128 + N for signal N).
Result<int> RunToFile(const std::string& cmd, const std::string& file, const std::string& what) {
  IOB_ASSIGN_OR_RETURN(sys::SpawnResult r, sys::RunCaptured({"/bin/sh", "-c", cmd}, "", what));
  FILE* f = std::fopen(file.c_str(), "we");
  if (f == nullptr) return ErrnoStatus(what + ": create " + file);
  const size_t n = std::fwrite(r.output.data(), 1, r.output.size(), f);
  const bool write_failed = n != r.output.size();
  if (std::fclose(f) != 0 || write_failed) return ErrnoStatus(what + ": write " + file);
  return r.exit_code;
}

// Runs a hook; returns the output file's name, and in *problem "" when the
// command exited 0, else what went wrong.
std::string RunHook(const std::string& job, const std::string& cmd, const char* mode,
                    std::string* problem) {
  const std::string file = sys::JobNameFilePrefix(job) + "." + mode + ".txt";
  const std::string what = std::string("exec_") + mode;
  const Result<int> rc = RunToFile(cmd, file, what);
  if (!rc.ok())
    *problem = rc.status().message();
  else if (*rc != 0)
    *problem = what + " '" + cmd + "' exited with status " + std::to_string(*rc) +
               " (its output is in " + file + ")";
  else
    problem->clear();
  return file;
}

}  // namespace

void Worker::ExecPrerun() {
  if (job_.exec_prerun.empty()) return;
  std::string failure;
  const std::string file = RunHook(job_.name, job_.exec_prerun, "prerun", &failure);
  if (failure.empty()) {
    AddNote("exec_prerun: output in " + file);
    return;
  }
  // As fio, the job does no I/O; unlike fio (which reports it as a success
  // with no I/O), the job ends in an error that says why.
  prerun_failed_ = true;
  error_ = ECANCELED;
  stopping_ = true;
  ios_left_ = 0;
  job_error_ = failure + "; the job did no I/O";
}

void Worker::ExecPostrun() {
  if (job_.exec_postrun.empty() || prerun_failed_) return;
  std::string problem;
  const std::string file = RunHook(job_.name, job_.exec_postrun, "postrun", &problem);
  // Run() has served its final snapshot: result_ is read under snap_mu_ now.
  std::lock_guard<std::mutex> lock(snap_mu_);
  result_.notes.push_back(problem.empty() ? "exec_postrun: output in " + file : problem);
}

}  // namespace iobench
