// Signal handling for a run. The handlers only store into atomics; the
// coordinator's main thread polls them and tells the workers to stop.
//
// SIGINT, SIGTERM, SIGHUP: the first one stores the signal number into
// *stop_flag (workers stop at the next I/O boundary, in-flight I/O is reaped
// and what was measured is reported; the caller exits 130). A second one
// a second or more after the first calls _exit(128 + signo) at once, with a
// line on stderr; one sooner is taken as the same stop delivered twice
// (timeout(1) signals the process, then its group). SIGHUP inherited as
// ignored (nohup) stays ignored.
// SIGPIPE (a write to a pipe with no reader: stdout under `| head`, an
// --output FIFO): a stop like the others (exit 141), also when inherited
// as ignored; after a stop it is never a second signal, since every later
// write to the pipe raises it again (the write fails with EPIPE).
// SIGUSR1: sets *report_flag (when given), asking for an interim report.
//
// Call once, from the main thread, before RunJobs(). The atomics must live
// for the rest of the process.
#pragma once

#include <atomic>

namespace iobench {

void InstallSignalHandlers(std::atomic<int>* stop_flag, std::atomic<int>* report_flag = nullptr);

}  // namespace iobench
