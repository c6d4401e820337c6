// Pre-run checks of the logs a run writes against the files it reads and
// writes. Thread-safety: reentrant; the checks stat() the paths, so they
// answer for the filesystem as it is when called.
#pragma once

#include <cstdint>
#include <vector>

#include "iobench/job.h"
#include "iobench/status.h"

namespace iobench {

// Refuses a log that would land in one of the run's data files: a
// write_iolog path, or a write_bw_log/write_iops_log/write_lat_log/
// write_hist_log file as it will be named (PREFIX_bw.N.log, N from
// `first_worker_of[i]`, job i's first clone's place in the run), that is
// the same file (same inode, or the same path when it does not exist yet)
// as a file a job reads or writes (filename=, its list, generated names in
// directory=, the job's name as its target) or a read_iolog a job
// replays. `iobench --filename=D --write_iolog=D --rw=read` appended the
// log to D, which the user asked only to read. Jobs of the null engine
// touch no data file; their read_iolog still counts. The message names the
// log option and where it was set, and the data file and its option.
Status CheckLogsAvoidDataFiles(const std::vector<JobSpec>& jobs,
                               const std::vector<uint32_t>& first_worker_of);

// Refuses (kRefused) creating a regular file among the device nodes
// (sys::NewFileAmongDevices: where the file really lands, whatever the
// spelling) for every file the run makes besides its targets: the logs as
// above, the exec_prerun/exec_postrun output, and, run from a directory
// among the device nodes, the verify state (verify_state_save) and the
// verify_dump files. Writing to an existing node (/dev/null) passes. The
// message names the job, the option and where it was set.
Status CheckOutputsOutsideDevices(const std::vector<JobSpec>& jobs,
                                  const std::vector<uint32_t>& first_worker_of);

}  // namespace iobench
