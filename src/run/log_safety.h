// Pre-run checks of the files a run writes besides its targets (the side
// files: logs, the I/O log, the buffers' file, the verify state, the hooks'
// output, verify dumps) against the files it reads and writes, and against
// the device nodes. One list (RunSideFiles) serves every check, so a kind
// of side file is never checked in one place and forgotten in another.
// Thread-safety: reentrant; the checks stat() the paths, so they answer for
// the filesystem as it is when called.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "iobench/job.h"
#include "iobench/status.h"

namespace iobench {

// A file the run writes (or reads, `written` false) besides its targets,
// --output and --plot, with what the messages about it say.
struct SideFile {
  enum class Kind {
    kIoLog,         // write_iolog: appended to
    kLog,           // write_bw_log, write_iops_log, write_lat_log, write_hist_log
    kBandwidthLog,  // --bandwidth-log's agg-{read,write,trim}_bw.log
    kMemFile,       // mem=mmap:FILE (mmaphuge, mmapshared, iomem=): truncated, mapped
    kVerifyState,   // local-<job>-<n>-verify.state and its .tmp
    kHookOutput,    // exec_prerun/exec_postrun: <name>.prerun.txt, .postrun.txt
    kVerifyDump,    // verify_dump: ./<base>.<offset>[-N].received and .expected
  };
  Kind kind = Kind::kLog;
  // As it will be opened (relative: to the current directory). kVerifyDump:
  // the base name of a data file whose failed blocks are dumped (IsDumpOf).
  std::string path;
  std::string job;              // "job 'a'"; "" for --bandwidth-log
  std::string option;           // as the job set it: "write_bw_log=x"
  std::string where;            // where: "j.fio:4", "<cmdline>"; "" for a default
  std::string what;             // "a log", "the I/O buffer file", ...
  std::string effect;           // what writing it does to a file there
  std::string remedy;           // how to avoid that
  bool written = true;          // false: a state that verify_state_load only reads
  size_t job_index = SIZE_MAX;  // the job's place in the run; SIZE_MAX for --bandwidth-log

  // "job 'a': write_bw_log=x (j.fio:4)"
  std::string Named() const;
  // "a log of job 'a' (write_bw_log=x at j.fio:4)"
  std::string Described() const;
};

// Where each job's first clone is in the run (fio's thread_number - 1),
// which numbers its logs and verify states: the numjobs of the jobs before.
std::vector<uint32_t> FirstWorkerOf(const std::vector<JobSpec>& jobs);

// One key per file whatever its spelling (f, ./f, $PWD/f, a link): its
// inode when it exists, else its absolute path with the parts that exist
// resolved.
std::string SameFileKey(const std::string& path);

// Every side file a run of `jobs` writes, in job order (one set of logs
// and a verify state per clone; `first_worker_of` as FirstWorkerOf), and
// with `bandwidth_log` (--bandwidth-log) the aggregate logs. A job of a
// diskless engine (null, cpuio) saves no verify state.
std::vector<SideFile> RunSideFiles(const std::vector<JobSpec>& jobs,
                                   const std::vector<uint32_t>& first_worker_of,
                                   bool bandwidth_log);

// Whether `path` is a name a kVerifyDump side file may write: in the
// current directory, named <dump.path>.<digits>[-<digits>].received or
// .expected (the offset of the failed block is known only then).
bool IsDumpOf(const SideFile& dump, const std::string& path);

// Refuses a side file (RunSideFiles) that would land in a file the run
// reads: one a job reads or writes (filename=, its list, generated names in
// directory=, the job's name as its target), a read_iolog a job replays,
// or a job file the run was read from (`job_files`, as the parser read
// them; "-" is standard input, compared when it is a regular file). The
// same file is the same inode, or the same path when it does not exist
// yet. `iobench --filename=D --write_iolog=D --rw=read` appended the log to
// D, and `--mem=mmap:D` truncated D to the buffers' size, in a job asked
// only to read D. Jobs of the null engine touch no data file; their
// read_iolog still counts. A write_iolog may be a read_iolog (a later
// phase replays what an earlier one recorded: CheckIologsApart). The
// message names the side file's option and where it was set, and the file
// it would destroy and its option.
Status CheckSideFilesAvoidRunFiles(const std::vector<JobSpec>& jobs,
                                   const std::vector<uint32_t>& first_worker_of, bool bandwidth_log,
                                   const std::vector<std::string>& job_files);

// Refuses (kRefused) creating a regular file among the device nodes
// (sys::NewFileAmongDevices: where the file really lands, whatever the
// spelling) for every side file the run makes (RunSideFiles): run from a
// directory among the device nodes, the verify_dump files too. Writing to an existing node
// (/dev/null) passes. The message names the job, the option and where it was set.
Status CheckOutputsOutsideDevices(const std::vector<JobSpec>& jobs,
                                  const std::vector<uint32_t>& first_worker_of, bool bandwidth_log);

}  // namespace iobench
