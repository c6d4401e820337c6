// exec_prerun / exec_postrun: a job's shell hooks. See worker.h and
// docs/running.md ("Before and after a job").
#include <signal.h>
#include <time.h>

#include <atomic>
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
// command exited 0, else what went wrong; in *status the exit status (-1
// when it could not be run).
std::string RunHook(const std::string& job, const std::string& cmd, const char* mode,
                    std::string* problem, int* status = nullptr) {
  const std::string file = sys::HookOutputFile(job, mode);
  const std::string what = std::string("exec_") + mode;
  const Result<int> rc = RunToFile(cmd, file, what);
  if (status != nullptr) *status = rc.ok() ? *rc : -1;
  if (!rc.ok())
    *problem = rc.status().message();
  else if (*rc != 0)
    *problem = what + " '" + cmd + "' exited with status " + std::to_string(*rc) +
               " (its output is in " + file + ")";
  else
    problem->clear();
  return file;
}

// Whether the run's stop signal has come, waiting up to 200 ms for it when
// the hook died of a stop signal (status 128 + SIGINT, SIGTERM or SIGHUP):
// Ctrl-C and timeout(1) signal the hook's process group as well, and the
// hook may be reaped before this process's handler has stored the flag.
bool StopSignalled(const std::atomic<int>* signal, int status) {
  if (signal == nullptr) return false;
  const bool stop_status =
      status == 128 + SIGINT || status == 128 + SIGTERM || status == 128 + SIGHUP;
  for (int waited_ms = 0; signal->load() == 0; ++waited_ms) {
    if (!stop_status || waited_ms >= 200) return false;
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, nullptr);
  }
  return true;
}

}  // namespace

void Worker::ExecPrerun() {
  if (job_.exec_prerun.empty()) return;
  std::string failure;
  int status = 0;
  const std::string file = RunHook(job_.name, job_.exec_prerun, "prerun", &failure, &status);
  if (failure.empty()) {
    AddNote("exec_prerun: output in " + file);
    PreReadAfterPrerun();
    return;
  }
  // The run was stopped while the prerun ran (Ctrl-C, timeout(1): the
  // hook, in the same process group, died of the signal too): a stop, not
  // the job's error. The job did no I/O and is reported interrupted, like
  // a job of a phase the signal kept from starting; its postrun is not run
  // (its prerun did not finish).
  if (StopSignalled(ctl_->signal, status)) {
    prerun_failed_ = true;
    interrupted_ = true;
    stopping_ = true;
    ios_left_ = 0;
    AddNote("exec_prerun '" + job_.exec_prerun + "' was stopped by the run's stop signal (" +
            (status >= 0 ? "exit status " + std::to_string(status) + ", " : std::string()) +
            "its output is in " + file + "); the job did no I/O");
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

// pre_read with exec_prerun: fio runs the prerun first, then reads the
// files in (a prerun that drops the caches, the usual way to start from a
// known state, would otherwise undo the pre_read). The files Setup opened
// and got ready: not a character device, not opened by the engine's own
// call (create_on_open defers no open when pre_read is set: DefersOpen).
void Worker::PreReadAfterPrerun() {
  if (!job_.pre_read) return;
  live_.state.store(job_state::kPreReading, std::memory_order_relaxed);
  Status st;
  for (const TargetFile& t : targets_) {
    if (file_calls_ || t.diskless || t.is_char_device) continue;
    st = PreReadTarget(-1, t, ctl_->signal);
    if (!st.ok()) break;
  }
  live_.state.store(job_state::kInitialized, std::memory_order_relaxed);
  if (st.ok()) return;
  prerun_failed_ = true;  // no I/O; the postrun is not run (as a failed set-up)
  stopping_ = true;
  ios_left_ = 0;
  if (st.code() == Status::Code::kInterrupted) {  // Ctrl-C: a stop, not the job's error
    interrupted_ = true;
    return;
  }
  error_ = st.errno_value() != 0 ? st.errno_value() : EIO;
  job_error_ = st.message() + "; the job did no I/O";
}

void Worker::ExecPostrun() {
  if (job_.exec_postrun.empty() || prerun_failed_) return;
  std::string problem;
  // Not on the device: the watchdog, which sees no counter move while the
  // hook runs, took a postrun longer than its grace for a hung device and
  // dropped the whole report. fio waits for the postrun.
  pausing_.store(true, std::memory_order_relaxed);
  const std::string file = RunHook(job_.name, job_.exec_postrun, "postrun", &problem);
  pausing_.store(false, std::memory_order_relaxed);
  // Run() has served its final snapshot: result_ is read under snap_mu_ now.
  std::lock_guard<std::mutex> lock(snap_mu_);
  result_.notes.push_back(problem.empty() ? "exec_postrun: output in " + file : problem);
}

}  // namespace iobench
