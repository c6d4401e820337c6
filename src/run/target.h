// Targets: which files or block devices one numjobs clone does I/O to, which
// region of each, and getting them ready (layout, open, invalidate, pre_read).
//
// Called by the coordinator (resolve, layout: main thread or its layout pool)
// and by workers (open, invalidate, pre-read: the worker's own thread). No
// function here prints; what was done is returned as notes for the report.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "iobench/job.h"
#include "iobench/status.h"
#include "stats/units.h"  // HumanBytes
#include "sys/job_paths.h"

namespace iobench {

struct TargetFile {
  std::string path;
  bool exists = false;
  bool is_block_device = false;
  // /dev/null or /dev/zero (fio runs on them): no size, no layout, no cache
  // to drop or advise; the job's size= says how much to write or read.
  bool is_char_device = false;
  bool diskless = false;       // null engine: nothing is opened
  uint64_t current_size = 0;   // size now (file) or device size
  uint64_t needed_size = 0;    // a file must be at least this long (offset + region)
  uint64_t region_offset = 0;  // the clone's region: [offset, offset + size)
  uint64_t region_size = 0;
  // fill_device without a size: the region is the file system's free space
  // (FillRegionBytes) as it was at resolve time; the worker sizes another
  // from where the writes ended when it is written without ENOSPC.
  bool fill_sized = false;
  uint32_t logical_block_size = 0;  // block devices: BLKSSZGET
  int jobnum = 0;                   // the numjobs clone it was resolved for (messages)
  // file_append=1 put the region at the file's end: a regular file's, or
  // the null engine's (not a device's: fio ignores it there).
  bool appended = false;
  std::string note;  // what the report must say about the region ("" mostly)
  // The device at resolve time: st_rdev of a block device, st_dev of an
  // existing file; 0 when not known (a file layout creates). Which targets
  // the context describes (one per job and device, not per file).
  uint64_t device_id = 0;
  // What the path holds when it is a symbolic link to a regular file or to
  // nothing (readlink's text), else "". A layout never creates or extends a
  // file through it: as fio, it replaces the link with a regular file at
  // the path, and an undo puts the link back.
  std::string link_to;

  // A regular file: the only kind iobench lays out, and the only kind
  // unlink=1 removes (as fio): never a device node or a diskless target.
  bool regular_file() const { return !diskless && !is_block_device && !is_char_device; }
};

// Paths of clone `jobnum`: fio's naming, shared with the probes.
using sys::TargetPaths;

// Resolves clone `jobnum`'s targets: stats each path, sizes and regions
// (size, filesize, size=N%, offset, offset=N%, offset_increment), and
// checks that each directory= exists (fio refuses it otherwise). Touches
// nothing on disk. Errors name the job and the path. `paths`: the clone's
// files when the caller chose them (sys::ClonePaths: fio gives a later clone
// none of the generated names an earlier job took), else TargetPaths; the
// job's size= is shared among them, and an empty list resolves to none.
// `no_block`, when given, is set when the error is that no file of the clone
// holds one block (the region of each is smaller than the smallest bs, or
// an offset without a size starts at or past the file's end): fio fails
// such a clone alone, so the caller may run the job's others.
// `laid_out`, when given: the size each file (by SameFileKey) has once the clones
// set up before this one are laid out. file_append=1 starts there when it
// is past the file's size now, as fio 3.33 sets its jobs up one after the
// other, in job order, each seeing the file the ones before it laid out:
// numjobs=2 size=64k on a new file appends at 0 and at 64 KiB.
Result<std::vector<TargetFile>> ResolveTargets(
    const JobSpec& job, int jobnum, bool diskless, const std::vector<std::string>* paths = nullptr,
    bool* no_block = nullptr, const std::map<std::string, uint64_t>* laid_out = nullptr);

// A missing path that no run creates, so ResolveTargets refuses it whatever
// ran before: a name under /dev (a device that is not there), or a link to
// one there.
bool NoRunCreates(const std::string& path);

// The smallest block size of the directions the job uses (4096 if none).
uint64_t SmallestBs(const JobSpec& job);

// fill_device: the bytes free on the file system that holds `path` (or its
// nearest existing parent) for this run: statvfs f_bfree as root, who may
// write the blocks a file system keeps for root (ext4's -m), else f_bavail.
// The error names the job and the directory.
Result<uint64_t> FillFreeBytes(const JobSpec& job, const std::string& path);
// fill_device without a size: the region that `free` free bytes give a
// file, from its end: those bytes and one block of the largest size, so
// that the job reaches the write that finds the file system full.
uint64_t FillRegionBytes(const JobSpec& job, uint64_t free);

// Refuses direct=1, and trims with or without it, with a block size or
// offset that is not a multiple of a block device's logical block size,
// before anything runs: the region's offset, blockalign=, and the offsets a
// sequential walk surely reaches (a rw=...:N skip, zonemode=strided's zone
// step). `nfiles`: the clone's target count (a walk over one file only is
// followed).
Status CheckDirectAlignment(const JobSpec& job, const TargetFile& t, size_t nfiles);

// direct=1 on an existing regular file (check after layout) whose job
// reads or writes with a block size, offset or blockalign= that is not a
// multiple of the file's direct I/O alignment, or with I/O buffers off its
// memory alignment (iomem_align=) (sys::StatxDioAlign; on btrfs, which does
// not report it, its sector size for both): a warning naming direct=1, the
// option, the alignment and the file system, "" otherwise.
// btrfs serves such I/O through the page cache without an error. Not on
// xfs and ext2/3/4: they fail it with EINVAL, which the run's error explains.
std::string DirectAlignmentWarning(const JobSpec& job, const TargetFile& t, size_t nfiles);

// Trims of an existing regular file (check after layout) whose block size,
// offset or blockalign= is not a multiple of its file system's block size
// (statfs f_bsize): a warning naming the option, the block size and the
// file system, "" otherwise. A trim of a file punches a hole, which frees
// only the blocks wholly inside it and writes zeros over the parts of
// blocks at its ends: 512-byte trims free nothing on ext4 with 1 KiB
// blocks, xfs or btrfs, with or without direct=1, though each counts.
std::string FileTrimWarning(const JobSpec& job, const TargetFile& t, size_t nfiles);

// Creates or extends a regular file that is missing or shorter than
// needed_size (never shrinks, never touches block devices), honouring
// fallocate, overwrite and create_on_open, and creates the missing
// directories in its path (as fio). Writes data when the job reads,
// overwrite=1 or ioengine=mmap (verify= does not count, as in fio);
// otherwise only the fallocate mode acts (native, posix: allocate to
// needed_size; truncate: ftruncate; keep: allocate without changing the
// size; none: nothing), as fio, and the job's writes grow the file. Returns the bytes laid out (0:
// none). `stop` (optional, the run's stop-signal flag): checked between 1 MiB chunks; when set the
// layout ends with Status::Code::kInterrupted. A failed preallocation is handled as fio 3.33 does:
// fallocate=keep fails the job; native and posix go on without it, and `note` (optional) says why
// the file was not preallocated, or how much of it was when the call ran out of room partway
// (what it allocated stays, as in fio). A layout that fails or is interrupted is undone: a file it
// created is removed, a file it extended is truncated back to its old size.
Result<uint64_t> LayOutFile(const JobSpec& job, const TargetFile& t,
                            const std::atomic<int>* stop = nullptr, std::string* note = nullptr);

// Takes back what a layout did to `path`: a file that did not exist is
// removed, one that did goes back to `old_size` (its data before it intact),
// and a symbolic link the layout replaced (`link_to`, TargetFile::link_to)
// is made again. A path that is a symbolic link now was not laid out: it is
// left alone (never removed, never truncated through).
void UndoLayOut(const std::string& path, bool existed, uint64_t old_size,
                const std::string& link_to);

// Opens a target for the job (O_DIRECT, O_SYNC, O_DSYNC, O_CREAT for
// create_on_open, which also creates missing directories). Returns the fd.
Result<int> OpenTarget(const JobSpec& job, const TargetFile& t);

// Drops the target's cached pages: posix_fadvise(DONTNEED) over the job's
// region for files (as fio), BLKFLSBUF for block devices. Where BLKFLSBUF
// is not permitted (no CAP_SYS_ADMIN), fsync and posix_fadvise(DONTNEED)
// over the job's region; if that fails too, the pages stay, the call
// succeeds and *kept (when given) says why. Other errors fail.
Status InvalidateTarget(int fd, const TargetFile& t, std::string* kept = nullptr);
// fadvise_hint: POSIX_FADV_RANDOM / SEQUENTIAL over the job's region, as fio
// does at open (its default advises by the job's pattern). Nothing for
// kNone (the worker does not call it for /dev/null and /dev/zero).
Status AdviseTarget(int fd, const TargetFile& t, const JobSpec& job);

// Reads the target's region once so it starts in the page cache (pre_read).
// `stop`: the run's stop flag, read between 1 MiB reads (a signal ends the
// pre-read with Status::Code::kInterrupted), or null.
Status PreReadTarget(int fd, const TargetFile& t, const std::atomic<int>* stop);

// openfiles below the job's file count (`nfiles` per clone): the
// combinations iobench cannot run with files opened and closed as the job
// goes, refused naming the option and where it was set: verify (its read
// phase goes back to every file), read_iolog (the log opens and closes the
// files), and io_uring's registered files (registerfiles, sqthread_poll:
// fio 3.33 refuses them too). OK otherwise, and when openfiles is 0 or not
// below nfiles.
Status CheckOpenFiles(const JobSpec& job, size_t nfiles);

}  // namespace iobench
