// Checks that run before any I/O so that iobench never destroys what the
// user did not name and never starts a run the system cannot carry.
//
// Called by the run core once, before workers start (never on the hot path).
// Thread-safety: reentrant.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "iobench/job.h"
#include "iobench/status.h"

namespace iobench::sys {

// Refuses (Status::Code::kRefused) writing to a block device that
//  - is mounted (matched by major:minor in /proc/self/mountinfo, and by the
//    mount source for filesystems such as btrfs that show an anonymous dev),
//  - has a mounted partition,
//  - is active swap, or has a partition that is (/proc/swaps),
//  - has holders (/sys/class/block/X/holders: dm, md, bcache; also for each
//    partition),
//  - cannot be opened with O_EXCL (another exclusive user, EBUSY),
// and writing to a block device or a regular file that backs a loop device
// (/sys/block/loop*/loop/backing_file, matched by device and inode) which
// is any of the above, or backs one in turn: a loop device registers no
// holder on what it reads, so this is the only way to see it ("backs
// /dev/loop6, mounted at /mnt/m (ext4)").
// Then what a block device is over, since its writes are that data: a
// loop device's backing device or file, a partition's disk, a dm or md
// device's slaves, each checked as above (but not for the holder the
// target goes through, nor a disk's other partitions) and followed down
// in turn ("is over /var/tmp/e.img (its backing file), which backs
// /dev/loop8, mounted at /mnt (ext4)"). Each device and file is walked
// once, which ends a cycle.
// The message names the device, each mount point / holder / swap / loop
// device on the way, and says that allow_mounted_write=1 overrides. With
// allow_mounted_write the checks are skipped. Any other path (a directory,
// a character device) is OK. Read-only jobs must not call this.
Status CheckWriteSafety(const std::string& path, bool allow_mounted_write);

// Laying out an existing regular file that is shorter than `job`'s region
// writes to it (it grows from `from` to `to` bytes), whatever the job's rw:
// refused (kRefused) as CheckWriteSafety refuses a write when the file
// backs a loop device in use, naming the job, the sizes and the region's
// options. OK with the job's allow_mounted_write, and for anything else.
Status CheckLayoutSafety(const JobSpec& job, const std::string& path, uint64_t from, uint64_t to);

// A file iobench writes that is not a job's target: a log, the report
// (--output), the buffer file (mem=mmap*:FILE). `what` names it for the
// message ("the report (--output)"). Refused (kRefused): any block device
// (the file would be written over the device's data; its uses are named
// too), and a regular file that CheckWriteSafety would refuse (it backs a
// loop device in use). allow_mounted_write does not apply. A path that
// does not exist, and anything else, passes.
Status CheckSideFileSafety(const std::string& path, const std::string& what);

// A file iobench writes when the run is over (the report, --output; the
// plot, --plot): everything that would make that write fail, checked now,
// so that a long run or sweep is not spent first. `option` names it in
// errors ("--output": "--output=PATH: ..."), `what` in CheckSideFileSafety's.
// Refused: a relative path in a deleted current directory; a directory at
// the path; an existing file that cannot be written; a path that cannot be
// looked up for another reason than a missing last name (ENAMETOOLONG,
// ELOOP, EACCES); a new file (or the file a dangling symbolic link names,
// which the open creates) whose
// directory is missing, is no directory (a regular file: "Not a
// directory"), cannot be written (permission, a read-only file system:
// access(2), which root passes on any read-write mount) or is on a pseudo
// file system (PseudoFsName: /sys, /proc, where creating a file fails even
// for root); and whatever CheckSideFileSafety refuses. Creates nothing.
Status CheckOutputFile(const std::string& path, const std::string& option, const std::string& what);

// Opens `path`, a file iobench writes besides the targets and creates in
// the current directory (verify_dump's blocks, the verify state's
// temporary file), for writing from its start, without ever writing
// through what is already there: a symbolic link (whatever it points to),
// a block device (its uses named, as CheckSideFileSafety) or anything else
// that is not a regular file is refused (kRefused, naming `what` and the
// path), and so is a regular file CheckSideFileSafety refuses. The file is
// always created anew (0644, O_EXCL): an existing regular one is unlinked
// first, never truncated or written in place, so a hard link planted at the
// name leaves the file it shares contents with alone. Returns the fd
// (O_CLOEXEC; the caller closes it).
Result<int> OpenSideFile(const std::string& path, const std::string& what);

// For a log or report iobench wrote through `fd` (still open): when the
// file was unlinked meanwhile (st_nlink 0: rm -rf of its directory by a
// hook or another process), what was written is in a file no name reaches.
// Not when `path` still leads to the file (/dev/stdout or /dev/fd/N on a
// memfd or an unlinked temporary file the caller holds: nothing is lost).
// Returns the warning for stderr, "NAMED: PATH was deleted during the run;
// its N lines are lost" (NAMED: the option, "write_bw_log=x (j.fio:4)";
// "--output" names PATH itself), else "".
std::string DeletedDuringRun(int fd, const std::string& named, const std::string& path,
                             uint64_t lines);

// CheckWriteSafety for every existing block device and regular file a
// writing or trimming job names, with that job's allow_mounted_write, and
// for every regular file a job deletes (unlink=1, unlink_each_loop=1),
// reading or not ("refusing to delete F (unlink=1 at F:L): backs ...").
// Other jobs that only read are skipped. A writing or trimming job's file on a pseudo
// file system (PseudoFsName: /proc, /sys, ...) is refused whatever
// allow_mounted_write says (not with ioengine=null, which opens nothing). Every job's
// mem=mmap*:FILE and write_iolog get CheckSideFileSafety, reading or not. The loop devices are read
// once for all jobs. The first refusal is returned, prefixed with "job 'name': ".
Status CheckJobsWriteSafety(const std::vector<JobSpec>& jobs);

// The refusal of `doing` something to `path`, a file of the job on the
// pseudo file system `fs` (PseudoFsName): "job 'j': refusing to DOING PATH
// (filename=PATH at F:L; WHY): it is on proc, a pseudo file system ...". Such
// files are the kernel's settings and state, not storage: writing one sets
// them (a random hostname, a SysRq), and a benchmark of it is a mistake.
Status PseudoFsRefusal(const JobSpec& job, const std::string& path, const std::string& fs,
                       const std::string& doing, const std::string& why);

// Where the job set `option`, for a message: "jobs/a.fio:12" (its last
// setting, the one that took effect), else the job's [section] line
// "jobs/a.fio:5", else "<cmdline>".
std::string OptionWhere(const JobSpec& job, std::string_view option);

// The option as the job wrote it and where: "offset_increment=4m at
// jobs/a.fio:8". An option the job did not set reads NAME=`value` (what
// it is), with no place.
std::string OptionAt(const JobSpec& job, std::string_view option, const std::string& value);

// The option that names the job's files and where: "filename=f/x at
// job.fio:7" (filename, opendir, directory or filename_format, the first
// one set); "" when none was set.
std::string FilesOptionAt(const JobSpec& job);
// Whether `message` names FilesOptionAt(job) already, in that form or as
// "directory=D (job.fio:2)", which the run core's own checks write: a
// message about the job's files gets the option prepended only when not.
bool NamesFilesOption(const JobSpec& job, const std::string& message);

// One of the job's files (JobFilePaths), for a message about it: what the
// job does with it and which option names it: "a file job 'a' reads
// (filename=d at j.fio:3)", "... writes (the job's name)", "... reads
// (filename_format=$jobname.$jobnum.$filenum)".
std::string JobFileWhat(const JobSpec& job);

// The options that set the job's region in its files, as the job wrote
// them and where: "offset=1m at <cmdline>, size=4k at <cmdline>", from
// offset, offset_increment, file_append, size and filesize (those the job
// set); "" when it set none.
std::string RegionOptionsAt(const JobSpec& job);

// --readonly: refuses a job that writes (rw=write/randwrite/rw/randrw/
// trimwrite), trims, or would lay out a file (a target file missing, or
// shorter than offset+size). Also refuses unlink=1 and unlink_each_loop=1
// (they delete the files), and mem=mmap:FILE on a FILE that exists (the
// buffers truncate it to their size and write into it).
// The message names the job, its file:line and the option.
Status CheckReadonly(const JobSpec& job);

// The part of CheckReadonly that looks at the job's options alone, not at
// the files: what --parse-only refuses too.
Status CheckReadonlyOptions(const JobSpec& job);

// What to raise when memory ran out: "ulimit -v, now N KiB" when
// RLIMIT_AS is set, else "the memory limit: ulimit -v, the cgroup's
// memory.max".
std::string MemoryLimitText();
// The message of a failure to allocate memory while `what` (a job's run,
// a check thread, the log writer): "out of memory: WHAT; reduce numjobs,
// iodepth, bs or nrfiles, or raise ulimit -v, now N KiB", as
// main() says for an allocation no thread caught.
std::string OutOfMemoryText(const std::string& what);
// The same as a Status (kResourceLimit, ENOMEM), for a thread that catches
// std::bad_alloc at its entry point: no exception leaves a thread iobench
// starts (std::terminate lost the report).
Status OutOfMemory(const std::string& what);

// For an open that failed with EMFILE: "; the process has RLIMIT_NOFILE
// descriptors open (ulimit -n, now N): raise it, ..." ("" for another
// errno). Error path only.
std::string OpenFilesLimitHint(int err);
// For a thread that could not be started: "ulimit -v, now N KiB, which
// each thread's stack of S counts against" when RLIMIT_AS is set, else "".
std::string ThreadAddressSpaceHint();

// What the limits are on this system. Read by ReadSystemLimits(); tests
// build their own to exercise each refusal.
struct SystemLimits {
  uint64_t mem_available = 0;  // /proc/meminfo MemAvailable, bytes (UINT64_MAX: unreadable)
  uint64_t nofile_soft = 0;    // RLIMIT_NOFILE
  uint64_t nofile_hard = 0;
  uint64_t nproc_soft = 0;    // RLIMIT_NPROC (UINT64_MAX: unlimited)
  uint64_t threads_max = 0;   // /proc/sys/kernel/threads-max (UINT64_MAX: unreadable)
  uint64_t aio_max_nr = 0;    // /proc/sys/fs/aio-max-nr
  uint64_t aio_nr = 0;        // /proc/sys/fs/aio-nr (already reserved)
  uint64_t memlock_soft = 0;  // RLIMIT_MEMLOCK, bytes (UINT64_MAX: unlimited)
  bool cap_ipc_lock = false;  // CAP_IPC_LOCK: memlock is not enforced
  // The kernel charges each io_uring ring's memory (SQ/CQ rings and SQE
  // array) to RLIMIT_MEMLOCK too: before 5.12, and again since 6.14 (the
  // rings became memory regions, accounted as registered buffers are).
  bool rings_charged = false;
  // RLIMIT_NPROC is not enforced (copy_process): the real uid is root in
  // the initial user namespace, or CAP_SYS_RESOURCE / CAP_SYS_ADMIN.
  bool nproc_exempt = false;
  // /proc/sys/vm/max_map_count (UINT64_MAX: unreadable) and the mappings
  // this process has already (/proc/self/maps): each thread's stack takes
  // two, the stack and its guard page, and pthread_create fails with
  // EAGAIN when the next would pass the limit.
  uint64_t max_map_count = UINT64_MAX;
  uint64_t maps_in_use = 0;
  // RLIMIT_AS (ulimit -v; UINT64_MAX: unlimited), the address space this
  // process has already (VmSize), and the stack each thread it starts
  // maps (pthread's default stack size).
  uint64_t as_soft = UINT64_MAX;
  uint64_t as_in_use = 0;
  uint64_t thread_stack = 0;
  // Descriptors open already (/proc/self/fd): inherited ones (a shell's,
  // a CI runner's) count against RLIMIT_NOFILE with the run's own.
  uint64_t fds_in_use = 0;
};
Result<SystemLimits> ReadSystemLimits();

// What jobs that run at the same time (one phase) need, as
// CheckResourceLimits counts it.
struct ResourceNeeds {
  uint64_t buffer_bytes = 0;   // sum of iodepth * largest bs * numjobs
  uint64_t open_files = 0;     // files open at once (none for ioengine=null),
                               // plus engine fds and stdio; not the logs:
  uint64_t log_files = 0;      // log files, open until the run ends
  uint64_t threads = 0;        // worker threads (sum of numjobs) plus helpers
  uint64_t aio_events = 0;     // aio-nr the libaio contexts reserve
  uint64_t locked_bytes = 0;   // io_uring fixedbufs registered buffers
  uint64_t ring_bytes = 0;     // io_uring rings (IoUringRingBytes x numjobs)
  uint64_t lockmem_bytes = 0;  // lockmem x numjobs, summed (also mlocked)
  // The verify maps (run/verify.h: 8 bytes a verify_interval block of each
  // writing clone's size=), and the job with the largest, for the message
  // ("job 'j': size=2g / verify_interval=512: 4194304 blocks").
  uint64_t verify_bytes = 0;
  std::string verify_bytes_why;
  uint64_t stack_threads = 0;  // threads started with a stack: clones, verify_async
  // Why a replay keeps every file of its log open (io_uring registerfiles
  // or sqthread_poll): for the open-files message, empty if none does.
  std::string open_files_why;
  // A replay's bs is its log's longest read or write: the replay job whose
  // buffers are largest and that line, for the memory message ("job 'r':
  // 32 GiB at read_iolog big.log:4"); empty if no job replays a log.
  std::string buffer_bytes_why;
  // The jobs behind aio_events and locked_bytes, with the options' places,
  // for their messages ("job 'a': iodepth=70000 at j.fio:3"; "job 'f':
  // fixedbufs=1 at j.fio:4, 128 KiB"); at most four, then "...".
  std::string aio_events_why;
  std::string locked_bytes_why;
  uint32_t aio_events_jobs = 0, locked_bytes_jobs = 0;
};
ResourceNeeds ComputeResourceNeeds(const std::vector<JobSpec>& jobs);

// The memory the kernel allocates for the ring of an io_uring job of
// `iodepth` (sq = iodepth, cq = 2 x iodepth entries, as engines/io_uring.cc
// sets it up; each rounded up to a power of two): the SQ/CQ rings with the
// SQ index array, and the SQE array, each rounded up to whole pages. 8 KiB
// for 1 to 64 entries.
uint64_t IoUringRingBytes(uint64_t iodepth);
// Whether the kernel `release` ("6.18.4-x") charges ring memory to
// RLIMIT_MEMLOCK (SystemLimits::rings_charged).
bool KernelChargesRings(const std::string& release);

// Refuses (kResourceLimit) with the limit's name, the need, the limit and how
// to raise it; all failing limits are listed, one per "; ".
// `phases`: indices into `jobs`, grouped as the run core runs them (stonewall,
// job files; see GroupJobs in run/coordinator.cc). The jobs of a phase run
// together and their needs add up; phases run one after another, so each
// limit is checked against the phase that needs the most of it, and with
// several phases the message names it ("open files (phase 2 of 3: jobs 'a',
// 'b'): ...").
// Open files are refused only past the hard limit: CheckResourceLimits
// raises the soft one. `open_files` (optional) receives the hungriest
// phase's need.
Status CheckResourceLimitsAgainst(const std::vector<JobSpec>& jobs,
                                  const std::vector<std::vector<size_t>>& phases,
                                  const SystemLimits& limits, uint64_t* open_files = nullptr);
// All of `jobs` in one phase.
Status CheckResourceLimitsAgainst(const std::vector<JobSpec>& jobs, const SystemLimits& limits);
// The same against this system's limits.
Status CheckResourceLimits(const std::vector<JobSpec>& jobs,
                           const std::vector<std::vector<size_t>>& phases);

}  // namespace iobench::sys
