// verify_state_save / verify_state_load: the Verifier's per-chunk generation
// record on disk, so a later run (verify_only) knows which chunks were
// written, completely, with which generation.
//
// Format (host byte order, little-endian; see docs/verify.md):
//   "IOBVSTAT" | u32 version | u32 verify type | u64 job hash | u64 seed |
//   u32 clone | u32 file count | u64 verify_interval |
//   per file: [v2: u64 grid base], u64 chunk count, then per chunk:
//     u32 generation, u32 flags;
//     [v2: u64 off-grid chunk count, then per chunk: u64 offset,
//     u64 length, u32 generation, u32 flags] |
//   u32 CRC-32C of everything before it.
// Version 1 (no grid base: 0, no off-grid chunks) is still read.
// A chunk with a write still in flight or a failed write is saved as
// unknown, so the next run skips it instead of reporting a false failure.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "run/verify.h"
#include "run/verify_checksum.h"
#include "sys/safety.h"

namespace iobench {

namespace {

constexpr char kStateMagic[8] = {'I', 'O', 'B', 'V', 'S', 'T', 'A', 'T'};
constexpr uint32_t kStateVersion = 2;

// Writes the state to `fd` through a fixed buffer, with the CRC-32C of
// everything put, appended by Finish(). The first write error is kept and
// the rest is dropped. Allocates nothing: its memory is bounded whatever
// the state's size.
class StateStream {
 public:
  StateStream(int fd, const std::string& path) : fd_(fd), path_(path) {}
  template <typename T>
  void Put(const T& v) {
    if (sizeof v > sizeof buf_ - n_) Flush();
    std::memcpy(buf_ + n_, &v, sizeof v);
    n_ += sizeof v;
  }
  Status Finish() {
    Flush();
    const uint32_t crc = crc_;
    std::memcpy(buf_, &crc, sizeof crc);
    n_ = sizeof crc;
    Write();
    return std::move(error_);
  }

 private:
  void Flush() {
    crc_ = Crc32cExtend(crc_, buf_, n_);
    Write();
  }
  void Write() {
    size_t done = 0;
    while (done < n_ && error_.ok()) {
      const ssize_t w = ::write(fd_, buf_ + done, n_ - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        error_ = ErrnoStatus("write " + path_, w < 0 ? errno : ENOSPC);
        break;
      }
      done += static_cast<size_t>(w);
    }
    n_ = 0;
  }

  int fd_;
  const std::string& path_;
  uint8_t buf_[64 * 1024];
  size_t n_ = 0;
  uint32_t crc_ = 0;
  Status error_;
};

class Reader {
 public:
  Reader(const std::vector<uint8_t>& d, size_t end) : d_(d), end_(end) {}
  template <typename T>
  bool Get(T* v) {
    if (end_ - pos_ < sizeof *v) return false;
    std::memcpy(v, d_.data() + pos_, sizeof *v);
    pos_ += sizeof *v;
    return true;
  }
  size_t left() const { return end_ - pos_; }

 private:
  const std::vector<uint8_t>& d_;
  size_t end_;
  size_t pos_ = 0;
};

// fio's state file (verify_state_save) starts with three little-endian u64:
// a small version (3 in fio 3.33), the size of what follows and its CRC.
// Returns the version when `d` has that shape, else 0.
uint64_t FioStateVersion(const std::vector<uint8_t>& d) {
  constexpr size_t kHeader = 24;
  if (d.size() < kHeader) return 0;
  uint64_t version, size;
  std::memcpy(&version, d.data(), 8);
  std::memcpy(&size, d.data() + 8, 8);
  if (version == 0 || version > 16 || size != d.size() - kHeader) return 0;
  return version;
}

// What a state path that is no regular file is, for messages.
const char* KindOf(mode_t mode) {
  return S_ISDIR(mode)    ? "a directory"
         : S_ISFIFO(mode) ? "a FIFO"
         : S_ISCHR(mode)  ? "a character device"
         : S_ISBLK(mode)  ? "a block device"
         : S_ISSOCK(mode) ? "a socket"
                          : "no regular file";
}

Status NotRegular(const std::string& path, mode_t mode) {
  return Status::Invalid("verify_state_load: " + path + " is not a regular file (" + KindOf(mode) +
                         "): a state is what verify_state_save wrote there");
}

}  // namespace

std::string Verifier::StateFileName(const std::string& job_name, uint32_t jobnum) {
  // As fio's verify_state_gen_name: '/' becomes '.', so a job named after
  // a device ([/dev/sdb]) saves local-.dev.sdb-0-verify.state here.
  std::string name = job_name;
  std::replace(name.begin(), name.end(), '/', '.');
  return "local-" + name + "-" + std::to_string(jobnum) + "-verify.state";
}

Status Verifier::CheckStateSavePath(const std::string& path) {
  // The rename replaces a regular file or a symbolic link (the link, not
  // what it points to); over a directory it failed when the job ended,
  // and a FIFO, socket or device node at the name was silently removed.
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))
    return Status::Ok();
  return Status::Refused("verify_state_save: refusing to replace " + path + ": it is " +
                         KindOf(st.st_mode) +
                         ", not a state file; remove it, or run where that name is free");
}

Status Verifier::SaveState(const std::string& path) const {
  IOB_RETURN_IF_ERROR(CheckStateSavePath(path));
  // tmp + fsync + rename: a crash never leaves a half-written state behind.
  const std::string tmp = path + ".tmp";
  // Created anew, never through what is at that name: a symbolic link
  // planted there (to a block device, another file) wrote the state over
  // its target. A stale regular .tmp (a crash) is replaced.
  Result<int> opened = sys::OpenSideFile(tmp, "its temporary file");
  if (!opened.ok()) return opened.status();
  // Streamed through a fixed buffer on the stack: the whole state in one
  // growing vector (8 bytes a block, 32 MiB for size=2g bs=512, doubled
  // while it grew) threw std::bad_alloc under ulimit -v after the run, and
  // the uncaught exception killed the process with the report.
  StateStream out(*opened, tmp);
  out.Put(kStateMagic);
  out.Put<uint32_t>(kStateVersion);
  out.Put<uint32_t>(static_cast<uint32_t>(type_));
  out.Put<uint64_t>(job_hash_);
  out.Put<uint64_t>(seed_);
  out.Put<uint32_t>(clone_);
  out.Put<uint32_t>(static_cast<uint32_t>(files_.size()));
  out.Put<uint64_t>(interval_);
  auto saved_flags = [](const Entry& e) {
    uint32_t flags = e.flags & (kEntryOverlap | kEntrySplit);
    if (e.inflight > 0 || (e.flags & kEntryUnknown)) flags |= kEntryUnknown;
    return flags;
  };
  for (const auto& f : files_) {
    out.Put<uint64_t>(f.base);
    out.Put<uint64_t>(f.grid.size());
    for (const Entry& e : f.grid) {
      out.Put<uint32_t>(e.generation);
      out.Put<uint32_t>(saved_flags(e));
    }
    uint64_t live = 0;
    for (const auto& [key, e] : f.off_grid) live += !(e.flags & kEntryDead);
    out.Put<uint64_t>(live);
    for (const auto& [key, e] : f.off_grid) {
      if (e.flags & kEntryDead) continue;  // overlapped by a later write
      out.Put<uint64_t>(key.first);
      out.Put<uint64_t>(key.second);
      out.Put<uint32_t>(e.generation);
      out.Put<uint32_t>(saved_flags(e));
    }
  }
  Status st = out.Finish();
  const int fd = *opened;
  if (st.ok() && ::fsync(fd) != 0) st = ErrnoStatus("fsync " + tmp);
  if (!st.ok()) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return st;
  }
  if (::close(fd) != 0) return ErrnoStatus("close " + tmp);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    st = ErrnoStatus("rename " + tmp + " to " + path);
    ::unlink(tmp.c_str());
    return st;
  }
  return Status::Ok();
}

Status Verifier::LoadState(const std::string& path) {
  // Looked at before it is opened, and opened without waiting: a FIFO at
  // the name blocked open(2) for a writer that never came (SIGTERM did not
  // end the wait), and opening a device can act on it.
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return NotRegular(path, st.st_mode);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return ErrnoStatus("verify_state_load: open " + path);
  if (::fstat(fd, &st) != 0) {
    Status s = ErrnoStatus("verify_state_load: stat " + path);
    ::close(fd);
    return s;
  }
  if (!S_ISREG(st.st_mode)) {  // replaced between the look and the open
    ::close(fd);
    return NotRegular(path, st.st_mode);
  }
  std::vector<uint8_t> d(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < d.size()) {
    const ssize_t n = ::read(fd, d.data() + done, d.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      Status s = n < 0 ? ErrnoStatus("verify_state_load: read " + path)
                       : Status::Invalid("verify_state_load: " + path + ": file shrank while read");
      ::close(fd);
      return s;
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);

  auto bad = [&](const std::string& why) {
    return Status::Invalid("verify_state_load: " + path + ": " + why);
  };
  if (d.size() < 8 + 4 || std::memcmp(d.data(), kStateMagic, 8) != 0) {
    if (const uint64_t v = FioStateVersion(d); v != 0)
      return bad("this looks like fio's verify state file (version " + std::to_string(v) +
                 "), which iobench does not read: save the state with an iobench run of the "
                 "writing job (verify_state_save=1, the default)");
    return bad("not an iobench verify state file");
  }
  uint32_t crc;
  std::memcpy(&crc, d.data() + d.size() - 4, 4);
  if (Crc32c(d.data(), d.size() - 4) != crc) return bad("checksum mismatch (truncated or damaged)");
  Reader r(d, d.size() - 4);
  uint8_t magic[8];
  uint32_t version, type, clone, nfiles;
  uint64_t job_hash, seed, interval;
  if (!r.Get(&magic) || !r.Get(&version) || !r.Get(&type) || !r.Get(&job_hash) || !r.Get(&seed) ||
      !r.Get(&clone) || !r.Get(&nfiles) || !r.Get(&interval))
    return bad("truncated header");
  if (version != 1 && version != kStateVersion)
    return bad("unsupported version " + std::to_string(version));
  // Older iobench saved crc32c-intel's own value: it is crc32c (type_ is).
  if (type == static_cast<uint32_t>(VerifyType::kCrc32cIntel))
    type = static_cast<uint32_t>(VerifyType::kCrc32c);
  // verify=meta checks the header of any checksum type's block, so it
  // takes their states too (generations and chunks are the same).
  const bool meta_reads_it = type_ == VerifyType::kMeta &&
                             type < static_cast<uint32_t>(VerifyType::kMeta) &&
                             VerifyTypeHasChecksum(static_cast<VerifyType>(type));
  if (type != static_cast<uint32_t>(type_) && !meta_reads_it)
    return bad("saved for verify=" +
               std::string(type <= static_cast<uint32_t>(VerifyType::kNull)
                               ? VerifyTypeName(static_cast<VerifyType>(type))
                               : "?") +
               ", this job uses verify=" + std::string(VerifyTypeName(type_)));
  if (job_hash != job_hash_) return bad("saved for another job name");
  if (clone != clone_)
    return bad("saved for job number " + std::to_string(clone) + ", this is " +
               std::to_string(clone_));
  if (interval != interval_)
    return bad("saved with verify_interval=" + std::to_string(interval) + ", this job uses " +
               std::to_string(interval_));
  // A state for more files than this job has would plan reads of files the
  // job never opened (an internal error after I/O began): refuse it now.
  if (nfiles > files_.size())
    return bad("saved for " + std::to_string(nfiles) + " files, this job has " +
               std::to_string(files_.size()) + ": use the writer's filename= (or nrfiles=)");
  if (r.left() / 8 < nfiles) return bad("truncated records");
  std::vector<FileRecord> files(nfiles);
  uint64_t off_grid = 0;
  for (uint32_t i = 0; i < nfiles; ++i) {
    FileRecord& f = files[i];
    uint64_t n;
    if ((version >= 2 && !r.Get(&f.base)) || !r.Get(&n) || n > kMaxTrackedChunks ||
        r.left() / 8 < n)
      return bad("truncated records");
    f.grid.resize(n);
    for (uint64_t j = 0; j < n; ++j) {
      uint32_t gen, flags;
      if (!r.Get(&gen) || !r.Get(&flags)) return bad("truncated records");
      f.grid[j].generation = gen;
      f.grid[j].flags = static_cast<uint8_t>(flags & (kEntryUnknown | kEntryOverlap | kEntrySplit));
    }
    if (version < 2) continue;
    if (!r.Get(&n) || n > kMaxOffGridChunks || r.left() / 24 < n) return bad("truncated records");
    for (uint64_t j = 0; j < n; ++j) {
      uint64_t off, len;
      uint32_t gen, flags;
      if (!r.Get(&off) || !r.Get(&len) || !r.Get(&gen) || !r.Get(&flags))
        return bad("truncated records");
      if (len == 0 || len > interval_)
        return bad("off-grid chunk of " + std::to_string(len) + " bytes at offset " +
                   std::to_string(off));
      Entry& e = f.off_grid[{off, len}];
      e.generation = gen;
      e.flags = static_cast<uint8_t>(flags & (kEntryUnknown | kEntryOverlap | kEntrySplit));
    }
    off_grid += f.off_grid.size();
  }
  if (r.left() != 0) return bad("trailing bytes");
  // The state's grid is the writer's region of each file: another region
  // would read the writer's blocks outside this job's (a writer at
  // offset=8k, a reader at offset=0) or report the shifted ones as
  // corrupted. A larger region is kept (it reads what the state says was
  // written); version 1 did not save where the region started.
  for (uint32_t i = 0; i < nfiles; ++i) {
    const std::string file = files_.size() > 1 ? " of file " + std::to_string(i) : "";
    if (version >= 2 && files[i].base != files_[i].base)
      return bad("saved for a region" + file + " at offset " + std::to_string(files[i].base) +
                 ", this job's starts at " + std::to_string(files_[i].base) +
                 ": use the writer's offset= (and offset_increment=, with numjobs)");
    if (files[i].grid.size() > files_[i].grid.size())
      return bad("saved for a region" + file + " of " +
                 std::to_string(files[i].grid.size() * interval_) + " bytes, this job's is " +
                 std::to_string(files_[i].grid.size() * interval_) + ": use the writer's size=");
  }
  // Keep regions AddFile declared if they are larger than the saved ones.
  for (uint32_t i = 0; i < nfiles; ++i)
    if (files[i].base == files_[i].base && files[i].grid.size() < files_[i].grid.size())
      files[i].grid.resize(files_[i].grid.size());
  for (size_t i = nfiles; i < files_.size(); ++i) {
    off_grid += files_[i].off_grid.size();
    files.push_back(std::move(files_[i]));
  }
  files_ = std::move(files);
  off_grid_count_ = off_grid;
  off_grid_full_ = false;
  any_generation_ = false;  // generations are known now: stale blocks are found
  // The writer's seed is the state's, whatever this job's randseed,
  // randrepeat or place in the run make its own (randrepeat=0 draws a new
  // one each run; the second job of a job file mixes in its index): the
  // blocks were written with it, as fio's verify_only takes the seed from
  // what was written. Refusing another seed broke "check after a reboot".
  seed_ = seed;
  own_id_ = Writer{job_hash_, clone_, seed_};
  // The state is this job's and clone's (checked above) and names the
  // writer's seed: a block whose header names another clone or seed is one
  // an earlier run left (a lost write), even at the generation the state
  // expects.
  check_writer_ = true;
  return Status::Ok();
}

}  // namespace iobench
