// The files a job will open, as the probes need them before the run (context,
// --readonly, resource limits). The run core's own target setup is the
// authority during the run; this mirrors fio's naming rules:
//  - filename=a:b       -> "a", "b" (prefixed with directory= when relative)
//  - no filename        -> directory/filename_format for each clone and file,
//                          filename_format default "$jobname.$jobnum.$filenum"
//                          ($jobname, $jobnum, $filenum substituted)
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "iobench/job.h"

namespace iobench::sys {

// Every distinct file path the job's clones use, in order.
std::vector<std::string> JobFilePaths(const JobSpec& job);

// Number of files a single clone of the job keeps open at once.
uint32_t JobFilesPerClone(const JobSpec& job);

}  // namespace iobench::sys
