// Signal handling for a run. The handlers only store into atomics; the
// coordinator's main thread polls them and tells the workers to stop.
//
// SIGINT, SIGTERM, SIGHUP: the first one stores the signal number into
// *stop_flag (workers stop at the next I/O boundary, in-flight I/O is reaped
// and what was measured is reported; the caller exits 130). A second one
// a second or more after the first removes the files SetExitUnlinkFiles
// named (unlink=1) and calls _exit(128 + signo), with a line on stderr; one
// sooner is taken as the same stop delivered twice (timeout(1) signals the
// process, then its group). SIGHUP inherited as ignored (nohup) stays
// ignored.
// SIGPIPE (a write to a pipe with no reader: stdout under `| head`, an
// --output FIFO): a stop like the others (exit 141), also when inherited
// as ignored; after a stop it is never a second signal, since every later
// write to the pipe raises it again (the write fails with EPIPE).
// SIGXCPU (the soft RLIMIT_CPU, ulimit -t, reached): a stop like SIGTERM's
// (exit 152); the ones the kernel sends each further second of CPU are
// never a second signal.
// SIGUSR1: sets *report_flag (when given), asking for an interim report.
//
// Call once, from the main thread, before RunJobs(). The atomics must live
// for the rest of the process.
#pragma once

#include <atomic>
#include <string>
#include <vector>

namespace iobench {

void InstallSignalHandlers(std::atomic<int>* stop_flag, std::atomic<int>* report_flag = nullptr);

// The files the running phase removes when it ends (the regular files of its
// unlink=1 jobs, which the first stop removes too): a second stop signal
// removes them before it exits, so a Ctrl-C during an exec_postrun no longer
// leaves them. Replaces the previous list; empty: none. The coordinator sets
// it before the phase lays out its files and empties it once it removed
// them (a later phase may use the same path without unlink). The handler
// removes each path that is a regular file or a symbolic link then (lstat,
// unlink: never a directory or a device node; unlink never follows a link)
// and nothing else. Any thread; not from a signal handler.
void SetExitUnlinkFiles(std::vector<std::string> paths);

}  // namespace iobench
