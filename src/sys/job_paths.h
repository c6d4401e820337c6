// The files a job opens, named as fio names them. Both the probes (context,
// --readonly, resource limits: before the run) and the run core's targets
// use these, so they cannot disagree:
//  - filename=a:b       -> "a", "b" (prefixed with the first of directory=
//                          when relative), shared by every clone
//  - no filename        -> nrfiles names from filename_format per clone,
//                          default "$jobname.$jobnum.$filenum" ($jobname,
//                          $jobnum, $filenum substituted; $clientuid is empty
//                          outside fio's client/server mode, as fio), in directory=
//                          (a:b:c: one per clone, round-robin by clone
//                          number, as fio; '\:' for a literal colon)
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "iobench/job.h"

namespace iobench::sys {

// directory= split on ':' ("\:" is a literal colon, as in filename= and
// fio): one entry, "", when directory= is not set.
std::vector<std::string> JobDirectories(const JobSpec& job);

// Paths of clone `jobnum` (jobnum < 0: the first directory).
std::vector<std::string> TargetPaths(const JobSpec& job, int jobnum);

// Every distinct file path the job's clones use, in order.
std::vector<std::string> JobFilePaths(const JobSpec& job);

// Number of files a single clone of the job keeps open at once.
uint32_t JobFilesPerClone(const JobSpec& job);

}  // namespace iobench::sys
