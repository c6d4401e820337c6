// exec_prerun / exec_postrun: a job's shell hooks. See worker.h and
// docs/running.md ("Before and after a job").
#include <cerrno>
#include <cstdio>
#include <string>

#include "run/worker.h"
#include "sys/spawn.h"

namespace iobench {

namespace {

// Runs `cmd` through /bin/sh with stdout and stderr into <job>.<mode>.txt
// (fio's file name; the whole command's output, not only its last part's).
// Returns the exit status (128 + N for signal N) or an error.
Result<int> RunHook(const std::string& job, const std::string& cmd, const char* mode,
                    std::string* file) {
  *file = job + "." + mode + ".txt";
  const std::string what = std::string("exec_") + mode;
  IOB_ASSIGN_OR_RETURN(sys::SpawnResult r, sys::RunCaptured({"/bin/sh", "-c", cmd}, "", what));
  FILE* f = std::fopen(file->c_str(), "we");
  if (f == nullptr) return ErrnoStatus(what + ": create " + *file);
  const size_t n = std::fwrite(r.output.data(), 1, r.output.size(), f);
  const bool write_failed = n != r.output.size();
  if (std::fclose(f) != 0 || write_failed) return ErrnoStatus(what + ": write " + *file);
  return r.exit_code;
}

}  // namespace

void Worker::ExecPrerun() {
  if (job_.exec_prerun.empty()) return;
  std::string file;
  const Result<int> rc = RunHook(job_.name, job_.exec_prerun, "prerun", &file);
  std::string failure;
  if (!rc.ok())
    failure = rc.status().message();
  else if (*rc != 0)
    failure = "exec_prerun '" + job_.exec_prerun + "' exited with status " + std::to_string(*rc) +
              " (its output is in " + file + ")";
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
  job_error_ = "job '" + job_.name + "': " + failure + "; the job did no I/O";
}

void Worker::ExecPostrun() {
  if (job_.exec_postrun.empty() || prerun_failed_) return;
  std::string file;
  const Result<int> rc = RunHook(job_.name, job_.exec_postrun, "postrun", &file);
  std::string note;
  if (!rc.ok())
    note = rc.status().message();
  else if (*rc != 0)
    note = "exec_postrun '" + job_.exec_postrun + "' exited with status " + std::to_string(*rc) +
           " (its output is in " + file + ")";
  else
    note = "exec_postrun: output in " + file;
  // Run() has served its final snapshot: result_ is read under snap_mu_ now.
  std::lock_guard<std::mutex> lock(snap_mu_);
  result_.notes.push_back(std::move(note));
}

}  // namespace iobench
