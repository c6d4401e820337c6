// The files a job opens, named as fio names them. Both the probes (context,
// --readonly, resource limits: before the run) and the run core's targets
// use these, so they cannot disagree:
//  - filename=a:b       -> "a", "b" (prefixed with the first of directory=
//                          when relative), shared by every clone
//  - no filename, one file per clone (nrfiles=1), no opendir= or
//    read_iolog=, and the job's section name an existing path that is
//    not a regular file ([/dev/sdb], fio's examples/disk-zone-profile.fio)
//                       -> that path, shared by every clone, as fio's
//                          add_job (exists_and_not_regfile: lstat, so a
//                          device, directory, FIFO or symlink counts), in
//                          directory= like any name (see JobNameIsTarget)
//  - else no filename   -> nrfiles names from filename_format per clone,
//                          default "$jobname.$jobnum.$filenum" ($jobname,
//                          $jobnum, $filenum substituted, in any case as
//                          fio's strcasestr; $clientuid is empty
//                          outside fio's client/server mode, as fio), in directory=
//                          (a:b:c: one per clone, round-robin by clone
//                          number, as fio; '\:' for a literal colon)
// The job's name here is its section name (JobSpec::SectionName), as in
// fio: a `name=` inside [a] renames the job, not its files.
// Thread-safety: reentrant; JobNameIsTarget (and so TargetPaths and
// JobFilePaths) lstat()s the job's name, so they answer for the filesystem
// as it is when called.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "iobench/job.h"
#include "iobench/status.h"

namespace iobench::sys {

// directory= split on ':' ("\:" is a literal colon, as in filename= and
// fio), empty parts skipped as fio skips them ("a::b", "a:"): one entry,
// "", when directory= is not set (or has no part, which the parser refuses).
std::vector<std::string> JobDirectories(const JobSpec& job);

// The log read_iolog= names, as a path: "\:" is a literal colon, as in
// filename= and fio (read_iolog=a\:b.log opens a:b.log). "" when not set;
// a ':' list of logs (which PrepareReplayJob refuses) comes back as written.
std::string ReadIologPath(const JobSpec& job);

// True when the job's file is its name, as fio's add_job decides: no
// filename=, opendir= or read_iolog=, nrfiles=1, and lstat(name) finds
// something that is not a regular file. The name is looked up as written
// (relative to the current directory) and then placed in directory= like
// a generated name, as fio: directory=/d with [sub] (./sub a directory) is
// the file /d/sub. fio also prefixes an absolute name (directory=/d with
// [/dev/sdb] is the file /d/dev/sdb, never the device): TargetPaths gives
// that path and the run refuses it (ResolveTargets), as the parser
// refuses directory= with an absolute filename=.
bool JobNameIsTarget(const JobSpec& job);

// filename_format with $jobname (the section name) and $clientuid put in,
// as fio's make_filename replaces them first; $jobnum and $filenum are left.
std::string JobFormat(const JobSpec& job);

// Under /dev, where only /dev/shm holds files: a missing name there is a
// device that is not there, never a file or directory to create.
bool UnderDev(const std::string& path);

// Where opening `path` with O_CREAT would make a new file among the device
// nodes: the real directory (symbolic links, "." and ".." resolved) that
// would hold it when that directory is on the file system of /dev itself
// (its own mount, devtmpfs; or a directory under /dev on the root's), "" when
// the file is elsewhere or `path` exists (an open makes nothing then: /dev/null
// and /dev/stdout stay writable). Decided by where the file lands, not by the
// spelling: ../../dev/x, //dev/x, /tmp/../dev/x, a link to /dev, a relative
// name run from /dev, and a dangling link to one of those all give "/dev";
// /dev/shm (a tmpfs mount of its own) gives "". A missing parent is made by
// the open's caller (filename=a/b/c), so the nearest existing directory
// above decides. Every pre-run check of a file iobench creates uses it.
std::string NewFileAmongDevices(const std::string& path);
// The file an open with O_CREAT of `path` makes: `path`, or where the
// dangling symbolic link(s) at it lead (relative targets taken from the
// link's directory, at most 40 hops). An error when a link cannot be read.
Result<std::string> DanglingLinkEnd(const std::string& path);

// The real path of the directory `dir` when a file made in it would be
// among the device nodes, as above; "" otherwise (and when it is missing).
std::string DirAmongDevices(const std::string& dir);
// Why a file is not created in `dir` (what the two above gave), for the
// end of a refusal: "it would be a new regular file in /dev, among the
// device nodes, where a missing name is a device that is not there; ...".
std::string AmongDevicesWhy(const std::string& dir);

// One file by any spelling (./x.log, an absolute path, a symlink), existing
// or not yet made.
bool SameFile(const std::string& a, const std::string& b);

// Why a file cannot be created at the relative `path`: the current
// directory was deleted while iobench sat in it (rmdir, or the tree removed
// under a shell). access(".", W_OK) still succeeds there, and only open()
// of a new name fails (ENOENT), which would be after the run. Returns
// "the current directory was deleted", or "" when `path` is absolute or
// the directory is there. Every pre-run check of a relative output (--output,
// --plot, the logs, write_iolog, the job's files) uses it.
std::string DeletedCwdReason(const std::string& path);

// The job's name as the start of the files named after it (bare
// write_bw_log and the other logs, exec_prerun/exec_postrun output): the
// name itself, as fio, except under /dev (UnderDev), where fio would create
// regular files among the device nodes ([/dev/sdb] with write_bw_log:
// /dev/sdb_bw.1.log): there its last part, in the current directory
// ("sdb"; "dev" for a name ending in '/').
std::string JobNameFilePrefix(const std::string& job_name);
// The file an exec_prerun/exec_postrun hook's output goes to (`mode`
// "prerun" or "postrun"): fio's <name>.<mode>.txt, named as above.
std::string HookOutputFile(const std::string& job_name, const std::string& mode);

// Paths of clone `jobnum` (jobnum < 0: the first directory).
std::vector<std::string> TargetPaths(const JobSpec& job, int jobnum);

// The file names fio has taken when it sets up a job's clones (filesetup.c
// add_file keeps a list), in fio's spelling (directory= part, '/', name),
// each with the index of the first job that took it. fio lists a name when
// the job adding it has numjobs > 1 at that moment: a generated or
// job-name file of a job with numjobs > 1 (its first clone's, as the
// others are set to numjobs=1), a filename= file only when numjobs > 1
// came before filename= in the job's options. opendir= files are left out.
using TakenNames = std::map<std::string, size_t>;
void AddTakenNames(const JobSpec& job, size_t index, TakenNames* taken);

// A file fio does not give a clone: its path, and the job that took it.
struct TakenFile {
  std::string path;
  size_t by_job = 0;
};

// The paths of clone `jobnum` of the job at `index` (in job order) as fio
// gives them: a clone after the first (jobnum > 0) of a job whose names
// come from filename_format loses each generated name that `taken` lists
// for this job or an earlier one, unless that name (without directory=)
// exists and is not a regular file (fio's add_file, "clean cloned siblings
// using existing files"): those go to `dropped`. filename= files are the
// same for every clone and never dropped, as in fio.
std::vector<std::string> ClonePaths(const JobSpec& job, size_t index, int jobnum,
                                    const TakenNames& taken, std::vector<TakenFile>* dropped);

// Every distinct file path the job's clones use, in order.
std::vector<std::string> JobFilePaths(const JobSpec& job);

// The first `shown` paths of JobFilePaths(job), and in *total how many it
// has; for a filename= list, every entry (a name listed twice, twice).
// Without listing them all when every clone's generated names are
// surely distinct (filename_format's $jobnum and $filenum each between
// non-digits, as in the default): --parse-only of nrfiles=100000
// numjobs=100 built ten million names (29 s, 1.1 GB) to print eight.
std::vector<std::string> JobFilePathsHead(const JobSpec& job, size_t shown, size_t* total);

// Number of files a single clone of the job keeps open at once.
uint32_t JobFilesPerClone(const JobSpec& job);

// The smallest block size of any direction, used by the job or not, split
// sizes included (fio's td_min_bs): bs=1k,8k rw=write gives 1k. 4096 when
// none is set.
uint64_t SmallestBsAnyDirection(const JobSpec& job);

// File `index`'s share of size= among a clone's `nfiles` files, as fio 3.33
// splits it (setup_files): size / nfiles each, and one block more for each of
// the first (size - nfiles * (size / nfiles)) / bs files, where bs is
// SmallestBsAnyDirection. 0 without size=.
uint64_t SizeShare(const JobSpec& job, uint64_t index, uint64_t nfiles);

}  // namespace iobench::sys
