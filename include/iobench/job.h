// JobSpec: one job, fully resolved and typed, as the parser hands it to the
// run core. Every value here is effective (defaults applied, units converted:
// sizes in bytes, times in nanoseconds, rates in bytes/s or IO/s).
//
// Ownership: plain value type; copied freely. The jobfile module produces it
// (jobfile/parser.h), sweep may copy and change fields, run/ only reads it.
// `numjobs` clones are made by the run core, not the parser.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iobench {

// Data directions, fio's order. kSync is fsync/fdatasync bookkeeping.
enum class Ddir : uint8_t { kRead = 0, kWrite = 1, kTrim = 2 };
inline constexpr int kNumDdirs = 3;

enum class RwMode : uint8_t {
  kRead,
  kWrite,
  kTrim,
  kRandRead,
  kRandWrite,
  kRandTrim,
  kReadWrite,  // rw, readwrite: sequential mixed
  kRandRW,
  kTrimWrite,  // trim then write the same block, sequentially
  kRandTrimWrite,
};
inline bool IsRandom(RwMode m) {
  return m == RwMode::kRandRead || m == RwMode::kRandWrite || m == RwMode::kRandTrim ||
         m == RwMode::kRandRW || m == RwMode::kRandTrimWrite;
}
inline bool HasRead(RwMode m) {
  return m == RwMode::kRead || m == RwMode::kRandRead || m == RwMode::kReadWrite ||
         m == RwMode::kRandRW;
}
inline bool HasWrite(RwMode m) {
  return m == RwMode::kWrite || m == RwMode::kRandWrite || m == RwMode::kReadWrite ||
         m == RwMode::kRandRW || m == RwMode::kTrimWrite || m == RwMode::kRandTrimWrite;
}
inline bool HasTrim(RwMode m) {
  return m == RwMode::kTrim || m == RwMode::kRandTrim || m == RwMode::kTrimWrite ||
         m == RwMode::kRandTrimWrite;
}

// fio's name for the mode, as rw= takes it and reports print it.
inline const char* RwModeName(RwMode m) {
  switch (m) {
    case RwMode::kRead:
      return "read";
    case RwMode::kWrite:
      return "write";
    case RwMode::kTrim:
      return "trim";
    case RwMode::kRandRead:
      return "randread";
    case RwMode::kRandWrite:
      return "randwrite";
    case RwMode::kRandTrim:
      return "randtrim";
    case RwMode::kReadWrite:
      return "rw";
    case RwMode::kRandRW:
      return "randrw";
    case RwMode::kTrimWrite:
      return "trimwrite";
    case RwMode::kRandTrimWrite:
      return "randtrimwrite";
  }
  return "?";
}

enum class RwSequencer : uint8_t { kSequential, kIdentical };

// One bssplit entry: `size/percent`. Percentages of a direction sum to 100
// after the parser fills blank shares.
struct BsSplitEntry {
  uint64_t bs = 0;
  uint32_t perc = 0;
};

// One cmdprio_bssplit entry: an I/O of exactly `bs` bytes carries the
// cmdprio priority with probability perc %. cls / level < 0: the job's
// cmdprio_class / cmdprio (fio's first format, bs/perc); else the entry's
// own (fio's second format, bs/perc/class/level).
struct CmdprioBsEntry {
  uint64_t bs = 0;
  uint32_t perc = 0;
  int cls = -1;
  int level = -1;
};

// Per-direction block size choice. With a non-empty split, min/max are the
// smallest and largest sizes in the split.
struct BlockSizeSpec {
  uint64_t min = 4096;
  uint64_t max = 4096;
  std::vector<BsSplitEntry> split;
};

// What bs=, bsrange= and bssplit= wrote for one direction, as fio keeps
// them (parser only; BlockSizeSpec is the result): bs= sets `bs`, bsrange=
// `min`/`max`, bssplit= the split and `min`/`max`. When the job starts, a
// min/max still 0 take `bs`; min == max is that one size, else the split
// if there is one, else the range. So in one job, bs= never overrides a
// bsrange= or bssplit=, whatever their order, and a bsrange= after a
// bssplit= of one size (bsrange=4k-4k) wins. `layer` (OptValue::layer)
// that set min/max, -1 none; a setting of a higher layer (the command
// line over a job file, a --sweep value) replaces those of lower ones.
struct BlockSizeOptions {
  uint64_t bs = 4096;
  uint64_t min = 0;
  uint64_t max = 0;
  std::vector<BsSplitEntry> split;
  int layer = -1;
  int split_layer = -1;
};

enum class RandomGenerator : uint8_t { kTausworthe, kLfsr, kTausworthe64 };

enum class DistType : uint8_t { kRandom, kZipf, kPareto, kNormal, kZoned, kZonedAbs };
struct DistZone {
  // Per direction in fio; we keep one list per ddir in RandomDistribution.
  uint32_t access_perc = 0;  // share of I/O going to this zone
  uint32_t size_perc = 0;    // zoned: share of the region (percent)
  uint64_t size_abs = 0;     // zoned_abs: absolute size in bytes
};
// zipf thetas iobench takes (fio takes any but 1.0): past these, the
// weights of a 2^40-block file leave a double's range. The parser refuses
// others with file:line; the run checks again for jobs built in code.
inline constexpr double kZipfThetaMin = -10.0;
inline constexpr double kZipfThetaMax = 100.0;

struct RandomDistribution {
  DistType type = DistType::kRandom;
  double param = 0.0;        // zipf theta, pareto h, normal stddev (percent)
  double center_frac = 0.0;  // 0..1; fio's `:center` suffix
  std::vector<DistZone> zones[kNumDdirs];
};

enum class FallocateMode : uint8_t { kNone, kPosix, kKeep, kNative, kTruncate };
enum class RateProcess : uint8_t { kLinear, kPoisson };
enum class CpusAllowedPolicy : uint8_t { kShared, kSplit };
enum class FileServiceType : uint8_t { kRoundRobin, kSequential, kRandom };

// continue_on_error: which error classes do not stop the job.
enum ContinueOnError : uint8_t {
  kCoeNone = 0,
  kCoeRead = 1,
  kCoeWrite = 2,
  kCoeVerify = 4,
  kCoeIo = kCoeRead | kCoeWrite,
  kCoeAll = 0xff,
};

enum class VerifyType : uint8_t {
  kNone,
  kMd5,
  kCrc64,
  kCrc32,
  kCrc32c,
  kCrc32cIntel,
  kCrc16,
  kCrc7,
  kXxhash,
  kSha1,
  kSha256,
  kSha512,
  kSha3_224,
  kSha3_256,
  kSha3_384,
  kSha3_512,
  kMeta,
  kPattern,
  kNull,
};

struct VerifyOptions {
  VerifyType type = VerifyType::kNone;
  bool do_verify = true;
  bool verify_only = false;
  uint64_t backlog = 0;
  uint64_t backlog_batch = 0;
  // Reads back what the job writes (or wrote): not verify with do_verify=0
  // and no backlog, which only writes the headers.
  bool ReadsBack() const {
    return type != VerifyType::kNone && (do_verify || backlog != 0 || verify_only);
  }
  // A verify_only pass: reads back and checks what an earlier run wrote
  // (verify_only without a verify type does nothing of the kind).
  bool VerifyOnly() const { return type != VerifyType::kNone && verify_only; }
  uint64_t interval = 0;  // 0: the block size
  uint64_t offset = 0;
  std::vector<uint8_t> pattern;
  // verify_pattern's %o (fio): byte positions in `pattern` where 8 bytes of
  // the block's offset (little-endian) go when the pattern is written.
  std::vector<uint32_t> pattern_offsets;
  bool fatal = false;
  bool dump = false;
  bool state_save = true;
  bool state_load = false;
  uint64_t async = 0;
  std::vector<int> async_cpus;  // verify_async_cpus: the check threads' CPUs (empty: inherit)
};

// Where a value came from, for --parse-only and `job options` in JSON.
enum class OptionSource : uint8_t { kDefault, kGlobal, kJob, kCommandLine };

// One filename=, opendir= or nrfiles= as it builds the job's file list, in
// the order fio 3.33 applies them (JobSpec::file_list). fio keeps one list
// per job: each filename= and opendir= adds to it (in [global] and again in
// the job's section: both), and nrfiles=N set after the list started makes
// the job use only the first N + k files of the whole list, k the number
// added after it (fio's o.nr_files: the first name listed sets it to 0, each
// name adds 1, nrfiles= overwrites it; its for_each_file stops there).
struct FileListStep {
  enum class Kind : uint8_t { kNames, kDir, kCount };
  Kind kind = Kind::kNames;
  std::vector<std::string> names;  // kNames: the files; kDir: the directory
  uint32_t count = 0;              // kCount: nrfiles=
  OptionSource source = OptionSource::kDefault;
  // 0: the job's own options; 1: command-line globals over a job file's
  // job; 2: a --sweep value. A filename= or opendir= of a higher layer
  // replaces the list the lower ones built (the command line wins). The
  // steps stand in fio's order: layer 1 before layer 0 (fio applies the
  // command-line globals first, as the job file's defaults, so a --nrfiles
  // never cuts the job file's list), then layer 2.
  int layer = 0;
  size_t setting = SIZE_MAX;  // its entry in JobSpec::settings
};

// The files the steps give, in order. `dir_files` holds the files found
// below each kDir step's directory, in step order; without it those are not
// known yet (`unknown`): `files` then holds the filename= names alone and
// no nrfiles= cut is made.
struct ResolvedFileList {
  std::vector<std::string> files;
  std::vector<std::string> left_out;     // listed, but after the nrfiles= cut
  const FileListStep* cut_by = nullptr;  // that nrfiles= (in the steps given)
  bool started = false;                  // a filename= or opendir= gave files
  bool unknown = false;                  // an opendir= whose files are not known yet
  // The last nrfiles= set after the list started (fio's o.nr_files comes
  // from it), whether or not it cuts: the job uses the first `count` files
  // listed, that nrfiles= plus one for each of the `added_after` files
  // listed after it; `count` is not known while an opendir= after it has
  // not been walked (`count_unknown`).
  const FileListStep* counted_by = nullptr;
  uint64_t count = 0;
  size_t added_after = 0;
  bool count_unknown = false;
};
inline ResolvedFileList ResolveFileList(const std::vector<FileListStep>& steps,
                                        const std::vector<std::vector<std::string>>* dir_files) {
  ResolvedFileList out;
  uint64_t nr = 0;  // fio's o.nr_files once the list started
  const FileListStep* count = nullptr;
  size_t dirs = 0;
  for (const FileListStep& s : steps) {
    if (s.kind == FileListStep::Kind::kCount) {
      nr = s.count;
      count = &s;
      out.added_after = 0;
      out.count_unknown = false;
      continue;
    }
    const std::vector<std::string>* add = &s.names;
    if (s.kind == FileListStep::Kind::kDir)
      add = dir_files != nullptr && dirs < dir_files->size() ? &(*dir_files)[dirs] : nullptr;
    if (s.kind == FileListStep::Kind::kDir) ++dirs;
    if (!out.started) {  // fio: `if (!td->files_index) td->o.nr_files = 0;`
      nr = 0;
      count = nullptr;
    }
    out.started = true;
    if (add == nullptr) {
      out.unknown = true;
      out.count_unknown = true;
      continue;
    }
    for (const std::string& f : *add) out.files.push_back(f);
    nr += add->size();
    out.added_after += add->size();
  }
  out.counted_by = count;
  out.count = nr;
  if (!out.unknown && out.started && nr < out.files.size()) {
    out.left_out.assign(out.files.begin() + static_cast<std::ptrdiff_t>(nr), out.files.end());
    out.files.resize(nr);
    out.cut_by = count;
  }
  return out;
}

// The nrfiles= that gives the number of files a job makes when no
// filename= or opendir= lists them: the highest layer's (the command line
// wins over the job file), the last of those; null without one.
inline const FileListStep* FileCountStep(const std::vector<FileListStep>& steps) {
  const FileListStep* out = nullptr;
  for (const FileListStep& s : steps)
    if (s.kind == FileListStep::Kind::kCount && (out == nullptr || s.layer >= out->layer)) out = &s;
  return out;
}

// One option as the user wrote it, after ${VAR}/arithmetic expansion.
struct OptionSetting {
  std::string name;   // canonical option name (aliases resolved)
  std::string value;  // the expanded text; empty for bare flags
  OptionSource source = OptionSource::kDefault;
  std::string file;  // job file, "<cmdline>" or "<stdin>"
  int line = 0;      // 1-based; 0 for the command line
  // The kb_base its value was read with (0: not known), so that --showcmd
  // can write a size for the kb_base its command line is read with.
  uint32_t kb_base = 0;

  // "job.fio:5", or "<cmdline>": what an error names in parentheses.
  std::string Where() const { return line > 0 ? file + ":" + std::to_string(line) : file; }
};

struct JobSpec {
  // --- identity and grouping ---
  std::string name;
  // The section that defined the job ([a]; a command-line job's --name).
  // A `name=` inside the section renames the job (report, logs, verify
  // state), but fio names the job's files after the section ($jobname in
  // filename_format: [a] name=b makes a.0.0; a section named after a
  // device) and --section selects by it. Empty: the same as `name`.
  std::string section;
  const std::string& SectionName() const { return section.empty() ? name : section; }
  std::string description;
  std::string job_file;    // the file this job came from ("" for command line)
  int job_file_index = 0;  // each job file is its own stonewalled group
  int line = 0;            // line of the [section] header
  bool stonewall = false;
  bool new_group = false;
  std::string wait_for;
  bool group_reporting = false;
  bool exitall = false;
  bool exitall_on_error = false;  // exitall, but only when this job ends in an error
  // Which jobs exitall stops: the job's reporting group (fio's default),
  // every running job (then the next phase runs), or every job (no later
  // phase runs).
  enum class ExitWhat : uint8_t { kGroup, kStonewall, kAll };
  ExitWhat exit_what = ExitWhat::kGroup;

  // --- targets ---
  // The files the job uses, in fio's order: the names of every filename=
  // (split on ':' with `\:` unescaped) and, once the run core has walked
  // them (ResolveJobFiles), the files of every opendir=, cut to nrfiles= when
  // fio cuts it (FileListStep). Before that, a job with opendir= holds its
  // filename= names alone here.
  std::vector<std::string> filenames;
  std::string directory;        // may itself be a ':' list in fio; first used
  std::string filename_format;  // default "$jobname.$jobnum.$filenum"
  // opendir: every file below this directory (recursively) joins the job's
  // files; the last opendir= of the list (each is in file_list). The
  // coordinator walks them (ResolveJobFiles); a JobSpec built in code with
  // this alone and no file_list takes its files after the filenames.
  std::string opendir;
  uint32_t nrfiles = 1;
  uint32_t openfiles = 0;  // 0: all
  FileServiceType file_service_type = FileServiceType::kRoundRobin;
  uint32_t file_service_nr = 1;  // I/Os on one file before the next is chosen (type:N)
  uint64_t size = 0;             // 0: unset (use the file/device size)
  uint32_t size_percent = 0;     // size=N%: percent of the file/device (0: unset)
  uint64_t filesize_min = 0;     // 0: unset; per-file size range
  uint64_t filesize_max = 0;
  uint64_t io_size = 0;  // 0: unset (= size)
  // io_size=N%: N% of the job's bytes per pass, as fio multiplies size= by
  // it (0: unset; 100% is unset too). io_size is then 0.
  uint32_t io_size_percent = 0;
  bool HasIoSize() const { return io_size != 0 || io_size_percent != 0; }
  // io_uring registers the job's files with the ring (registerfiles, and
  // sqthread_poll, which needs them): they must all stay open for the run.
  bool RegistersFiles() const { return ioengine == "io_uring" && (registerfiles || sqthread_poll); }
  // The files a clone of `nfiles` files keeps open at once; 0: every one,
  // opened before the run and open to its end. openfiles=N below the count
  // gives N. file_service_type=sequential gives 2: as fio 3.33, it opens a
  // file when the job comes to it and closes it when its part of the pass
  // is done, and the next one opens while the last one's I/O in flight
  // completes (2,000 files run under ulimit -n 256; iobench held them all
  // open and refused the job). Not where every file must stay open, which
  // CheckOpenFiles refuses with openfiles: a verify read-back, read_iolog,
  // io_uring's registered files; nor sequential:N, N > 1, which moves on
  // before a file is done.
  uint32_t OpenLimit(size_t nfiles) const {
    if (openfiles != 0 && openfiles < nfiles) return openfiles;
    const bool all_open = verify.ReadsBack() || !read_iolog.empty() || RegistersFiles();
    return file_service_type == FileServiceType::kSequential && file_service_nr <= 1 &&
                   nfiles > 1 && !all_open
               ? 2
               : 0;
  }
  // The limit above comes from file_service_type=sequential, not openfiles.
  bool SequentialOpensInTurn(size_t nfiles) const {
    return OpenLimit(nfiles) != 0 && (openfiles == 0 || openfiles >= nfiles);
  }
  uint64_t offset = 0;
  uint32_t offset_percent = 0;
  uint64_t offset_increment = 0;
  uint32_t offset_increment_percent = 0;
  uint64_t offset_align = 0;  // 0: a percentage offset aligns up to the smallest bs
  bool file_append = false;   // regular files: I/O starts at the file's current size
  // zonemode=strided (fio): I/O stays in a zone of zone_range bytes at
  // zone_base until zone_size bytes were transferred, then moves zone_range +
  // zone_skip on, back to the start at the end of the file. zbd is refused.
  enum class ZoneMode : uint8_t { kNone, kStrided, kZbd };
  ZoneMode zone_mode = ZoneMode::kNone;
  uint64_t zone_size = 0;
  uint64_t zone_range = 0;       // 0: zone_size
  uint64_t zone_skip = 0;        // bytes, or zones when zone_skip_zones
  bool zone_skip_zones = false;  // zoneskip=Nz: N x zone_size
  uint64_t number_ios = 0;       // 0: unlimited
  bool fill_device = false;

  // --- pattern ---
  RwMode rw = RwMode::kRead;
  // rw= as the job gave it, which an engine's shaping leaves alone: cpuio
  // runs each chunk as a read whatever rw= says (the parser's
  // ShapeCpuioJob), and --readonly refuses its write or trim rw= all the
  // same, as fio 3.33 does.
  RwMode rw_given = RwMode::kRead;
  uint64_t rw_nr = 1;   // rw=randread:8 -> 8 (new random offset every 8 IOs)
  int64_t rw_skip = 0;  // rw=read:8k -> 8192 bytes skipped (holes); may be negative
  RwSequencer rw_sequencer = RwSequencer::kSequential;
  uint32_t rwmixread = 50;  // percent reads for mixed workloads
  BlockSizeSpec bs[kNumDdirs];
  BlockSizeOptions bs_options[kNumDdirs];      // how bs[] came about (parser only)
  uint64_t blockalign[kNumDdirs] = {0, 0, 0};  // 0: the minimum bs
  bool bs_unaligned = false;
  bool bs_is_seq_rand = false;

  // --- engine and depth ---
  std::string ioengine = "psync";
  uint32_t iodepth = 1;
  uint32_t iodepth_batch_submit = 1;  // fio: defaults to iodepth? no: 1 (0 == iodepth)
  uint32_t iodepth_batch_complete_min = 1;
  uint32_t iodepth_batch_complete_max = 0;  // below the min (the default): the min, as fio
  uint32_t iodepth_low = 0;                 // 0: iodepth
  // latency_target (ns; 0: off): search for the highest depth up to iodepth
  // whose I/O meets it over latency_window, for latency_percentile % of the
  // I/O; latency_run keeps searching instead of ending (run/latency_target.h).
  uint64_t latency_target_ns = 0;
  uint64_t latency_window_ns = 0;
  double latency_percentile = 100.0;
  bool latency_run = false;
  uint32_t numjobs = 1;
  bool thread = false;  // accepted; iobench always uses threads

  // --- caching and syncing ---
  bool direct = false;  // `buffered=0` sets direct
  bool sync = false;    // O_SYNC (fio: sync=1 or sync=sync); dsync for O_DSYNC
  bool dsync = false;
  uint64_t fsync_blocks = 0;      // fsync every N writes
  uint64_t fdatasync_blocks = 0;  // fdatasync every N writes
  // sync_file_range=flags:N: sync_file_range(2) of the range written since
  // the last one, every N writes; flags are SYNC_FILE_RANGE_* bits.
  uint64_t sync_file_range_blocks = 0;
  uint32_t sync_file_range_flags = 0;
  bool end_fsync = false;
  bool fsync_on_close = false;
  bool invalidate = true;
  // fadvise_hint: posix_fadvise on each file at open. fio's default (1)
  // advises by workload: RANDOM for random jobs (which turns readahead off),
  // SEQUENTIAL otherwise.
  enum class FadviseHint : uint8_t { kNone, kWorkload, kSequential, kRandom };
  FadviseHint fadvise_hint = FadviseHint::kWorkload;
  // write_hint: fcntl(F_SET_RW_HINT) at open. -1 unset, else the kernel's
  // RWH_WRITE_LIFE_* value (1 none, 2 short, 3 medium, 4 long, 5 extreme).
  int write_hint = -1;
  FallocateMode fallocate = FallocateMode::kNative;
  bool overwrite = false;
  bool create_on_open = false;
  bool create_serialize = true;   // lay files out one at a time (fio's default)
  bool create_fsync = true;       // fsync a file after laying its data out
  bool create_only = false;       // lay the files out, do no I/O
  bool allow_file_create = true;  // 0: a missing file is an error, never created
  bool unlink = false;
  bool unlink_each_loop = false;  // remove the files after each loop (and lay them out again)
  bool pre_read = false;
  bool allow_mounted_write = false;
  // exec_prerun / exec_postrun: shell commands run before / after the job's
  // I/O, output to <jobname>.prerun.txt / .postrun.txt.
  std::string exec_prerun;
  std::string exec_postrun;

  // --- time ---
  uint64_t runtime_ns = 0;  // 0: no limit
  bool time_based = false;
  uint64_t ramp_time_ns = 0;
  uint64_t startdelay_ns = 0;
  uint64_t startdelay_max_ns = 0;  // startdelay=lo-hi: random in range
  uint64_t loops = 1;
  // Steady state (steadystate=, steadystate_duration=, steadystate_ramp_time=):
  // the job (its reporting group with group_reporting) stops once the
  // criterion holds over the last ss_dur_s one-second samples.
  enum class SteadyStateMode : uint8_t { kIops, kIopsSlope, kBw, kBwSlope };
  SteadyStateMode ss_mode = SteadyStateMode::kIopsSlope;  // fio's default iops_slope:0.01%
  double ss_limit = 0.01;
  bool ss_percent = true;   // the limit is a percentage of the window's mean
  uint64_t ss_dur_s = 0;    // window in seconds; 0: no steady state detection
  uint64_t ss_ramp_ns = 0;  // no samples before this much time (plus one second)
  // clocksource: fio's timing base. The run has one clock (iobench/clock.h):
  // kCpu and kDefault use the TSC when the kernel trusts it, kClockGettime
  // and kGettimeofday use clock_gettime(CLOCK_MONOTONIC) (there is no
  // gettimeofday mode: its µs resolution would only lose precision).
  enum class ClockSourceChoice : uint8_t { kDefault, kCpu, kClockGettime, kGettimeofday };
  ClockSourceChoice clocksource = ClockSourceChoice::kDefault;

  // --- randomness ---
  bool randrepeat = true;
  bool allrandrepeat = false;  // every generator repeatable, even with randrepeat=0
  std::optional<uint64_t> randseed;
  bool norandommap = false;
  bool softrandommap = false;  // a random map that cannot be allocated: run without one
  RandomGenerator random_generator = RandomGenerator::kTausworthe;
  RandomDistribution random_distribution;
  uint32_t percentage_random[kNumDdirs] = {100, 100, 100};

  // --- rate and think time ---
  uint64_t rate[kNumDdirs] = {0, 0, 0};  // bytes/s
  uint64_t rate_iops[kNumDdirs] = {0, 0, 0};
  uint64_t rate_min[kNumDdirs] = {0, 0, 0};  // bytes/s
  uint64_t rate_iops_min[kNumDdirs] = {0, 0, 0};
  uint64_t ratecycle_ms = 1000;
  RateProcess rate_process = RateProcess::kLinear;
  uint64_t thinktime_ns = 0;
  uint64_t thinktime_spin_ns = 0;
  // flow (fio's token-based flow control): jobs of one flow_id running at
  // the same time issue I/O in the ratio of their weights (|flow|; 0: off).
  int32_t flow = 0;
  uint32_t flow_id = 0;
  uint64_t flow_sleep_us = 0;  // held back: wait for in-flight I/O, then sleep this long
  uint64_t thinktime_blocks = 1;
  // thinktime_blocks_type: count completed I/Os (fio's default, "complete")
  // or issued ones ("issue") towards thinktime_blocks.
  bool thinktime_blocks_complete = true;
  // thinktime_iotime (ns; 0: off): also think after this much I/O time.
  uint64_t thinktime_iotime_ns = 0;
  // rate_ignore_thinktime: a think pause moves the rate schedule instead of
  // being caught up afterwards.
  bool rate_ignore_thinktime = false;
  // error_dump: print every error as it happens, also the tolerated ones.
  bool error_dump = false;
  // lockmem: bytes each clone pins with mlock for its run (0: none), to
  // leave the page cache less memory.
  uint64_t lockmem = 0;
  // serialize_overlap: an I/O that overlaps one in flight (same file) waits
  // until that one completes.
  bool serialize_overlap = false;
  // Accepted for fio's job files; nothing in iobench depends on them:
  // gtod_cpu (fio's time-keeping thread; iobench reads the TSC in each
  // worker, and says so in the report), unique_filename (fio's client/server
  // mode), log_entries (fio's initial log size; iobench streams its logs to
  // disk in chunks).
  int gtod_cpu = -1;
  bool unique_filename = true;
  uint64_t log_entries = 1024;
  // max_latency: an I/O whose total latency exceeds this (ns; 0: no limit)
  // ends the job with ETIMEDOUT, per direction as fio.
  uint64_t max_latency_ns[kNumDdirs] = {0, 0, 0};

  // --- cpu and scheduling ---
  std::vector<int> cpus_allowed;  // empty: any
  CpusAllowedPolicy cpus_allowed_policy = CpusAllowedPolicy::kShared;
  std::optional<int> nice;
  std::optional<int> prio;
  std::optional<int> prioclass;

  // --- buffers ---
  bool zero_buffers = false;
  bool refill_buffers = false;
  bool scramble_buffers = true;
  uint32_t buffer_compress_percentage = 0;
  uint64_t buffer_compress_chunk = 512;
  // dedupe_percentage (fio): this share of the writes repeat an earlier
  // buffer's content: the last unique one (repeat) or one of the first
  // unique ones, a working set of dedupe_working_set_percentage of size
  // (working_set); dedupe_global is accepted (each job keeps its own set).
  uint32_t dedupe_percentage = 0;
  bool dedupe_working_set = false;
  uint32_t dedupe_working_set_percentage = 5;
  bool dedupe_global = false;
  std::vector<uint8_t> buffer_pattern;  // empty: random
  // mem= (iomem=): what the I/O buffers are allocated from (run/buffers.h).
  enum class MemType : uint8_t { kMalloc, kShm, kShmHuge, kMmap, kMmapHuge, kMmapShared };
  MemType mem = MemType::kMalloc;
  std::string mem_file;               // mem=mmap:FILE, mmaphuge:FILE, mmapshared:FILE
  uint64_t hugepage_size = 2u << 20;  // hugepage-size=: huge page buffers round up to it
  uint64_t mem_align = 0;  // mem_align= (iomem_align=): buffers start this far past alignment

  // --- verification ---
  VerifyOptions verify;

  // --- reporting units and statistics ---
  uint32_t kb_base = 1024;
  uint32_t unit_base = 0;  // fio: 0 auto, 8 bytes, 1 bits
  bool clat_percentiles = true;
  bool lat_percentiles = false;
  bool slat_percentiles = false;
  std::vector<double> percentile_list;  // empty: fio's default list
  // Decimals of percentile labels: as many as the most precise entry of
  // percentile_list has as typed ("99.90" gives 2, as in fio); -1 (the
  // default list) counts them from the values.
  int percentile_precision = -1;
  bool gtod_reduce = false;
  bool disable_lat = false;
  bool disable_clat = false;
  bool disable_slat = false;
  bool disable_bw = false;
  // unified_rw_reporting: kNone reports read, write and trim apart; kMixed
  // sums them into one "mixed" direction; kBoth prints the directions and
  // then the mixed sum (fio's none/mixed/both, 0/1/2).
  enum class UnifiedRw : uint8_t { kNone, kMixed, kBoth };
  UnifiedRw unified_rw_reporting = UnifiedRw::kNone;
  int significant_figures = 4;  // digits of IOPS/BW/io figures in the normal output
  bool stats = true;            // stats=0: the job is left out of every report
  bool disk_util = true;        // disk_util=0: this job's devices get no disk stats
  uint64_t bw_avg_ms = 500;     // bwavgtime: window of a bandwidth sample
  uint64_t iops_avg_ms = 500;   // iopsavgtime: window of an IOPS sample

  // --- errors ---
  uint8_t continue_on_error = kCoeNone;
  std::vector<int> ignore_error[kNumDdirs];  // errno values per direction

  // --- logs ---
  std::string write_bw_log;  // prefix; "" off. A bare flag means the job name.
  std::string write_lat_log;
  std::string write_iops_log;
  std::string write_hist_log;
  bool bw_log_set = false, lat_log_set = false, iops_log_set = false, hist_log_set = false;
  uint64_t log_avg_msec = 0;
  uint64_t log_hist_msec = 0;
  uint32_t log_hist_coarseness = 0;
  bool log_offset = false;
  bool log_prio = false;
  bool per_job_logs = true;
  // log_unix_epoch / log_alternate_epoch: the time column counts from the
  // epoch of CLOCK_REALTIME / of log_alternate_epoch_clock_id (which wins
  // when both are set) instead of from the job's start.
  bool log_unix_epoch = false;
  bool log_alternate_epoch = false;
  int log_alternate_epoch_clock_id = 0;  // a clock_gettime clock id (0: CLOCK_REALTIME)

  // --- I/O log record and replay (run/replay.h; docs/replay.md) ---
  std::string write_iolog;           // "" off: append every issued I/O here (fio iolog v3)
  std::string read_iolog;            // "" off: the I/O comes from this iolog (v2/v3), not rw=
  bool read_iolog_chunked = false;   // accepted: iobench always streams the log
  bool replay_no_stall = false;      // drop the log's timing (v3 stamps, v2 waits)
  uint32_t replay_time_scale = 100;  // percent: 200 replays twice as fast
  std::string replay_redirect;       // every I/O of the log goes to this file/device
  uint64_t replay_align = 0;         // offsets rounded down to this power of 2 (0: off)
  uint64_t replay_scale = 1;         // offsets divided by this
  uint8_t replay_skip = 0;           // entries not replayed: bit 1 << Ddir, 8: sync
  uint64_t read_iolog_bytes = 0;     // set by PrepareReplayJob: the bytes it checked (0: all)
  // Set by PrepareReplayJob: the most files the log holds open at once, when
  // the replay opens and closes them as its lines say (0: all stay open).
  size_t read_iolog_open_max = 0;
  // Set by PrepareReplayJob: the log line of its longest read or write,
  // whose length sizes the buffers (0: none), for the memory check's message.
  uint64_t read_iolog_max_len_line = 0;

  // --- engine options (each meaningful for the engines that list it) ---
  // cpuio (engines/cpuio.cc): cpuload= percent of one CPU (0: unset, which
  // the parser refuses; above 100 is 100, as fio), cpuchunks= busy chunk in
  // microseconds, cpumode=qsort (else noop), exit_on_io_done=.
  uint32_t cpuload = 0;
  uint64_t cpuchunks_us = 50000;
  bool cpumode_qsort = false;
  bool exit_on_io_done = false;
  bool hipri = false;
  uint32_t hipri_percentage = 100;
  bool nowait = false;
  bool uncached = false;
  uint32_t force_async = 0;
  bool fixedbufs = false;
  bool registerfiles = false;
  bool sqthread_poll = false;
  std::optional<int> sqthread_poll_cpu;
  int nonvectored = -1;        // -1: probe
  bool userspace_reap = true;  // libaio: read the ring before io_getevents (fio's default: 0)
  uint32_t cmdprio_percentage[kNumDdirs] = {0, 0, 0};
  int cmdprio_class[kNumDdirs] = {0, 0, 0};
  int cmdprio[kNumDdirs] = {0, 0, 0};
  std::vector<CmdprioBsEntry> cmdprio_bssplit[2];  // reads, writes (fio ignores trims)
  // filestat's call: 0 stat(2), 1 lstat(2), 2 statx(2).
  uint8_t stat_type = 0;

  // --- provenance ---
  // Every option that was set explicitly (defaults are not listed), in the
  // order they were applied; later entries win. `job options` in JSON and
  // --parse-only come from here.
  std::vector<OptionSetting> settings;
  // The setting of `name` that took effect (the last one), or null if the
  // option was not set. For messages that say where, and "was it given".
  const OptionSetting* FindSetting(const std::string& name) const {
    for (auto it = settings.rbegin(); it != settings.rend(); ++it)
      if (it->name == name) return &*it;
    return nullptr;
  }

  // Options the user set whose behaviour the run core does not implement yet.
  // The run refuses a job with any of these, naming option, file and line.
  std::vector<OptionSetting> unimplemented;

  bool IsSet(const std::string& option) const {
    for (const auto& s : settings)
      if (s.name == option) return true;
    return false;
  }

  // --- added after the first round (fields only appended here) ---
  // What the parser did that the report must say (a job file option fio
  // ignores and iobench therefore ignores too); shown as the job's notes.
  std::vector<std::string> parse_notes;
  // log_window_value (fio 3.36; fio 3.33's log_max_value): what a
  // log_avg_msec window line shows. 0 avg, 1 max, 2 both (LogWindowValue).
  uint8_t log_window_value = 0;
  // One entry per engine option a global section gave (the kGlobal records
  // of `settings` for engine options, in order): the engine it was given
  // under, "" when a later global section let go of it, "*" when it goes
  // with whatever engine the job has (a swept engine). The job uses one
  // only when its engine is that one; else the engine's default, as in fio
  // (jobfile::DroppedEngineOptions).
  std::vector<std::string> global_engines;
  // How filename=, opendir= and nrfiles= built the file list (`filenames`),
  // in the order fio applies them; the jobfile setters keep `filenames`,
  // `opendir` and `nrfiles` in step with it.
  std::vector<FileListStep> file_list;
};

// Whether jobs[i] starts a phase of the run (the coordinator's phases, which
// the status line plans too): the first job, a stonewall, or a new job file.
inline bool StartsPhase(const std::vector<JobSpec>& jobs, size_t i) {
  return i == 0 || jobs[i].stonewall || jobs[i].job_file_index != jobs[i - 1].job_file_index;
}

// Whether running the job changes its targets: it writes or trims, and is
// not a verify_only pass (which reads back what an earlier run wrote).
// --readonly, the device-safety checks and the open mode follow this.
// The option's last explicit setting, for a message that says where it is
// (unset: the option's name, no value, at the job's own place).
inline OptionSetting SettingOf(const JobSpec& job, const std::string& name) {
  if (const OptionSetting* s = job.FindSetting(name)) return *s;
  return OptionSetting{name, "", OptionSource::kJob, job.job_file, job.line};
}

// "rw=randrw (j.fio:11)": the option's setting as written, and where.
inline std::string SettingText(const JobSpec& job, const std::string& name) {
  const OptionSetting s = SettingOf(job, name);
  return s.name + "=" + s.value + " (" + s.Where() + ")";
}

inline bool JobWrites(const JobSpec& job) {
  if (job.verify.VerifyOnly()) return false;
  return HasWrite(job.rw) || HasTrim(job.rw);
}

// create_on_open=1 creates a missing file at its open, as fio's
// generic_open_file does for every job but a trim-only one (rw=trim,
// randtrim: fio opens those without O_CREAT and fails with ENOENT).
inline bool CreatesOnOpen(const JobSpec& job) {
  return job.create_on_open && job.allow_file_create && (HasWrite(job.rw) || !HasTrim(job.rw));
}

// A fio 3.33 quirk: a job that waits on its rate with a runtime shorter than
// its ramp ends at its runtime, inside the ramp (fio's rate_ddir measures
// from the job's start there and gives up once a wait would pass the
// runtime). It waits only when every read/write direction it does is rate
// limited: otherwise it takes an unlimited one instead (randrw rate_iops=,50).
inline bool RampCutByRate(const JobSpec& job) {
  if (job.runtime_ns == 0 || job.ramp_time_ns <= job.runtime_ns) return false;
  const bool dirs[2] = {HasRead(job.rw), HasWrite(job.rw)};
  bool limited = false;
  for (int d = 0; d < 2; ++d) {
    if (!dirs[d]) continue;
    if (job.rate[d] == 0 && job.rate_iops[d] == 0) return false;
    limited = true;
  }
  return limited;
}

// How long a job with a runtime runs after its start delay: the whole ramp,
// then the runtime, whatever their lengths (fio 3.33: runtime_exceeded() is
// false while in_ramp_time(), so ramp_time=3 runtime=2 runs 5 s, 2 measured),
// but for RampCutByRate's jobs, which end at the runtime.
inline uint64_t RampAndRuntimeNs(const JobSpec& job) {
  if (RampCutByRate(job)) return job.runtime_ns;
  return job.ramp_time_ns > UINT64_MAX - job.runtime_ns ? UINT64_MAX
                                                        : job.ramp_time_ns + job.runtime_ns;
}

// The largest I/O a buffer slot must hold: the reads' and writes' block sizes
// (bssplit entries included). A trim carries no data, so its size counts only
// where a write of the same block follows it (trimwrite): a replayed log's
// 2 GiB trims (fio's t0038) need no 2 GiB buffers.
inline uint64_t BufferBs(const JobSpec& job) {
  // (A replayed log's rw only says which directions it has: its trims are
  // not paired with writes.)
  const bool trim_writes =
      job.read_iolog.empty() && (job.rw == RwMode::kTrimWrite || job.rw == RwMode::kRandTrimWrite);
  uint64_t bs = 0;
  for (int d = 0; d < kNumDdirs; ++d) {
    if (d == static_cast<int>(Ddir::kTrim) && !trim_writes) continue;
    bs = std::max(bs, job.bs[d].max);
    for (const auto& e : job.bs[d].split) bs = std::max(bs, e.bs);
  }
  return bs;
}

}  // namespace iobench
