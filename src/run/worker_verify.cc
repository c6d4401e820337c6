// The worker's side of data verification (verify=...): the hooks the I/O loop
// in worker.cc calls. The contract with the Verifier is in docs/verify.md
// ("Worker contract"); fio's behaviour that this follows:
//   - the verify phase runs after each write pass (loops), unless the job
//     was stopped, failed, or is time_based (fio 3.33 warns that the read
//     phase never starts because writing uses all of the runtime); a
//     verify_only job has one per loop, for that loop's writes;
//   - verify reads are reads in the report (fio counts them the same way);
//     the read runtime is the time spent verifying;
//   - a failure is the job's error (EILSEQ), exit code 1; without
//     verify_fatal everything is still checked first. The error policy
//     applies as to an I/O error: with continue_on_error=verify|all (or
//     ignore_error=,,84) failures are counted (total_err) and tolerated;
//   - verify_state_save (default on) writes local-<job>-<n>-verify.state into
//     the current directory when the job ends;
//   - verify_async=N: N threads check the verify reads instead of the
//     submitting thread (VerifyAsyncPool); even a sync engine then keeps
//     iodepth requests, so it reads while earlier reads are checked.
//
// All of this runs on the worker's own thread (the check threads only run
// Verifier::CheckReadWith). Only the failure path and setup allocate or print.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <new>

#include "iobench/clock.h"
#include "run/worker.h"
#include "stats/summary.h"
#include "sys/safety.h"
#include "sys/strings.h"

namespace iobench {
namespace {

// Failures printed on stderr per job; the rest are counted.
constexpr uint64_t kMaxPrintedFailures = 10;

// A random job whose pattern writes each block once per pass (a random map
// or an LFSR); the pattern says, as blockalign and a non-uniform
// random_distribution turn the map off (fio too: "blockalign= turns off
// randommap"). Without a map blocks are rewritten and writes overlap: the
// record of written blocks, not a replay, says what to read back.
bool EachBlockOnce(const std::unique_ptr<IoPattern>& p) {
  return p != nullptr && p->RandomEachBlockOnce();
}

// Whether one pass of a job that a replay would read back write by write
// (sequential, or random with a map) can still write a block twice: holed
// or backwards sequential I/O wraps (rw=write:4k over 64k writes every other
// block twice; rw=write:-8k writes block 0 first and last),
// and rw_sequencer=identical repeats each offset rw_nr times (zonemode=
// strided, whose walk wraps too, is refused with verify). fio keeps only the latest write of a
// block in its verify record (a newer overlapping write replaces the older entry), so such a job
// reads back from the record, each block once, in (file, offset) order: fio's order for every job
// without a random map. Decided once at setup: the jobs that cannot repeat keep the replay, at no
// cost per I/O.
bool PassMayRewrite(const JobSpec& job) {
  return job.rw_skip != 0 || (job.rw_sequencer == RwSequencer::kIdentical && job.rw_nr > 1);
}

// Whether a sequential job that a replay would read back in the order written
// reads back in (file, offset) order instead, each write as it was written:
// fio 3.33 gives a sequential job no random map, so its record of writes is
// sorted by file, then offset (iolog.c log_io_piece), and a pass over several
// files (file_service_type roundrobin or random) is read back one file after
// the other, each from its start (nrfiles=3 roundrobin writes a0 b0 c0 a1 ...
// and reads a0 a1 ... b0 b1 ...). One file's writes are already in offset
// order (a pass that could go back is PassMayRewrite's), so its replay is
// fio's order.
bool SortedAcrossFiles(const JobSpec& job, size_t files) { return !IsRandom(job.rw) && files > 1; }

// The replay's next draw, within what the writer's pass drew (*budget
// draws; *bytes_left of io_size, UINT64_MAX: no io_size). wrap: the writer
// was a random job without a map, whose pass went on to io_size past the end
// of the pattern's pass (VerifyAfterPass), so the replay goes on through the
// next passes too.
bool NextReplayDraw(IoPattern* replay, uint64_t* budget, uint64_t* bytes_left, bool wrap,
                    IoPlan* p) {
  wrap = wrap && *bytes_left != UINT64_MAX;
  if (*budget == 0 || *bytes_left == 0) return false;
  if (!replay->Next(p) && !(wrap && (replay->Reset(), replay->Next(p)))) return false;
  --*budget;
  // The writer issued while less than io_size was issued, so its last I/O
  // may have crossed it.
  if (*bytes_left != UINT64_MAX) *bytes_left -= std::min(*bytes_left, p->length);
  return true;
}

}  // namespace

Status Worker::SetupVerify() {
  if (job_.verify.type == VerifyType::kNone) return Status::Ok();
  bool diskless = true;
  for (const auto& t : targets_) diskless &= t.diskless;
  if (diskless) {
    AddNote("verify=: not done, ioengine=" + job_.ioengine + " stores no data");
    return Status::Ok();
  }
  IOB_ASSIGN_OR_RETURN(verifier_, Verifier::Create(job_, static_cast<uint32_t>(jobnum_), seed_));
  for (uint32_t i = 0; i < targets_.size(); ++i)
    IOB_RETURN_IF_ERROR(verifier_->AddFile(i, targets_[i].region_offset,
                                           targets_[i].region_offset + targets_[i].region_size));
  // Say where a state option was set, as the other option errors:
  // "verify_state_load=1 (j.fio:7): ..." or "(<cmdline>)".
  auto placed = [&](const char* option, Status st) {
    const OptionSetting* where = job_.FindSetting(option);
    const std::string prefix = std::string(option) + ": ";
    if (st.ok() || where == nullptr || where->file.empty() || !st.message().starts_with(prefix))
      return st;
    const std::string set =
        where->value.empty() ? where->name : where->name + "=" + where->value;  // a bare flag
    return Status(st.code(),
                  set + " (" + where->Where() + "): " + st.message().substr(prefix.size()),
                  st.errno_value());
  };
  // Numbered by the clone's place in the run (worker_index_), as fio's
  // thread_number - 1: [a] then [w] numjobs=2 save local-a-0, local-w-1
  // and local-w-2 (iobench used the clone number: local-w-0, local-w-1).
  const std::string state = Verifier::StateFileName(job_.name, worker_index_);
  if (job_.verify.state_load)
    IOB_RETURN_IF_ERROR(placed("verify_state_load", verifier_->LoadState(state)));
  // What SaveState would refuse at the end, refused before any I/O.
  if (job_.verify.state_save && HasWrite(job_.rw) && !job_.verify.verify_only)
    IOB_RETURN_IF_ERROR(placed("verify_state_save", Verifier::CheckStateSavePath(state)));
  // do_verify=0 turns the backlog checks off too (fio 3.33 reads nothing
  // back with verify_backlog=16 do_verify=0).
  if (job_.verify.backlog != 0 && job_.verify.do_verify) {
    // fio keeps the pending writes of a job that may write a block twice
    // in a pass (no random map) in (file, offset) order, dropping the older
    // of two overlapping ones; the others oldest first.
    backlog_ = std::make_unique<VerifyBacklog>(job_.verify.backlog, job_.verify.backlog_batch,
                                               /*sorted=*/!EachBlockOnce(pattern_));
  }
  vtoken_.assign(depth_, VerifyWriteToken{});
  vslot_.assign(depth_, 0);
  if (job_.verify.async != 0 && job_.verify.type != VerifyType::kNull) {
    IOB_ASSIGN_OR_RETURN(
        vasync_, VerifyAsyncPool::Create(verifier_.get(), static_cast<uint32_t>(job_.verify.async),
                                         depth_, job_.name, job_.verify.async_cpus));
    vdone_.assign(depth_, 0);
  }
  verify_all_reads_ = !HasWrite(job_.rw);
  const bool writes = HasWrite(job_.rw) && !job_.verify.verify_only;
  if (writes && job_.verify.do_verify && job_.time_based) {
    verify_skip_phase_ = true;
    const std::string msg =
        "verify: job '" + job_.name +
        "': the verify read phase never starts because the write phase uses all of the runtime "
        "(time_based, as in fio); " +
        (job_.verify.backlog != 0 ? "verify_backlog=" + std::to_string(job_.verify.backlog) +
                                        " checks the writes while writing"
                                  : std::string("use verify_backlog to check while writing"));
    // With a backlog the writes are checked: a note, nothing to act on.
    if (jobnum_ == 0 && job_.verify.backlog == 0)
      std::fprintf(stderr, "iobench: warning: %s\n", sys::Printable(msg).c_str());
    AddNote(msg);
  }
  // Read-back order (fio 3.33): with a random map, the order written, which
  // the IoPattern replays from the same seed; otherwise (file, offset) order
  // from the written-block record. A verify_only run has no record unless a
  // state was loaded: it replays the pattern, or, for a random job without
  // a map (whose writes overlap), records the plan's writes first
  // (StartVerifyPhase) as fio's verify_only does.
  const bool once = EachBlockOnce(pattern_);
  const bool verify_only = job_.verify.verify_only && HasWrite(job_.rw);
  if (PassMayRewrite(job_) || SortedAcrossFiles(job_, targets_.size()))
    use_replay_ = false;
  else if (verify_only)
    use_replay_ = once || (!IsRandom(job_.rw) && !job_.verify.state_load);
  else
    // A rated mixed job's directions depended on the clock (RateSteer): a
    // replay would not know which I/Os were writes.
    // A sequential job over one file is replayed too: fio reads each
    // write back as it was written, so bsrange=4k-32k reads its 18 writes
    // as 18 reads, where merging up to the largest size read 8 (same
    // bytes, other counts).
    use_replay_ = (once || !IsRandom(job_.rw)) && io_size_ == 0 && job_.number_ios == 0 &&
                  rate_steer_.w == nullptr;
  if (use_replay_ || (verify_only && !job_.verify.state_load)) {
    // A verify_only job replays the writer's plan: from the seed its state
    // holds (the writer's randseed/randrepeat and place in the run), else
    // from this job's, which must then be the writer's.
    const uint64_t seed = verify_only && job_.verify.state_load ? verifier_->seed() : seed_;
    IOB_ASSIGN_OR_RETURN(replay_, IoPattern::Create(job_, PatternRegions(), seed));
  }
  return Status::Ok();
}

void Worker::VerifyPrepareWrite(IoRequest* req) {
  vtoken_[req->index] =
      verifier_->PrepareWrite(req->buf, req->length, req->file_index, req->offset);
  vslot_[req->index] = kVSlotWrite;
  // Pending from its issue, as fio logs a write before it submits it: the
  // batches start at multiples of verify_backlog issued writes.
  if (backlog_ != nullptr && !backlog_->Push({req->file_index, req->offset, req->length})) {
    if (error_ == 0) {
      error_ = ENOMEM;
      job_error_ = sys::OptionAt(job_, "verify_backlog", std::to_string(job_.verify.backlog)) +
                   ": out of memory for the list of " + std::to_string(backlog_->size()) +
                   " writes not yet read back; set a smaller verify_backlog";
    }
    stopping_ = true;
  }
}

void Worker::VerifyWriteDone(IoRequest* req) {
  if (vslot_[req->index] != kVSlotWrite) return;
  vslot_[req->index] = 0;
  const VerifyWriteToken& t = vtoken_[req->index];
  // A short write's rest was requeued when the request's offset moved.
  verifier_->OnWriteComplete(t, true, /*split=*/req->offset != t.offset);
}

void Worker::VerifyDropped(IoRequest* req) {
  const uint8_t slot = vslot_[req->index];
  vslot_[req->index] = 0;
  if (slot == kVSlotWrite) verifier_->OnWriteComplete(vtoken_[req->index], false);
  if (slot == kVSlotRead && vreads_in_flight_ > 0) --vreads_in_flight_;
}

bool Worker::VerifyReadDone(IoRequest* req, uint64_t got) {
  const bool verify_read = vslot_[req->index] == kVSlotRead;
  vslot_[req->index] = 0;
  if (verify_read && vreads_in_flight_ > 0) --vreads_in_flight_;
  if (!verify_read && !(verify_all_reads_ && got != 0)) return false;
  const std::string& path = files_[req->file_index].path;
  if (got < req->xfer_length) {  // the file ends before data that was written
    VerifyFailure f;
    f.kind = VerifyFailureKind::kCorrupted;
    f.file = path;
    f.file_index = req->file_index;
    f.offset = req->xfer_offset;
    f.length = req->xfer_length;
    f.detail = "end of file: read returned 0 bytes";
    const uint64_t interval = std::max<uint64_t>(1, verifier_->interval());
    verify_eof_chunks_ += (req->xfer_length - got + interval - 1) / interval;
    OnVerifyFailure(
        Status(Status::Code::kIoError,
               "verify: " + path + ": block at offset " + std::to_string(req->xfer_offset) +
                   ", length " + std::to_string(req->xfer_length) +
                   ": end of file (the file is shorter than what was written)",
               EILSEQ),
        f);
    return verify_read;
  }
  // The request's buffer pointer moved on short transfers; the slot's does not.
  const uint8_t* buf = static_cast<const uint8_t*>(buffers_) + req->index * stride_;
  VerifyFailure failure;
  std::vector<VerifyFailure> more;  // the read's later bad chunks: each one reported
  Status st = verifier_->CheckRead(buf, req->xfer_length, req->file_index, path, req->xfer_offset,
                                   &failure, &more);
  if (!st.ok()) OnVerifyFailure(st, failure);
  for (const VerifyFailure& m : more) OnVerifyFailure(m.status, m);
  return verify_read;
}

bool Worker::VerifyReadComplete(IoRequest* req) {
  if (vasync_ == nullptr) {
    VerifyReadDone(req, req->xfer_length);
    return false;
  }
  const uint8_t slot = vslot_[req->index];
  if (slot != kVSlotRead && !verify_all_reads_) return false;
  vslot_[req->index] = slot == kVSlotRead ? kVSlotCheck : kVSlotCheckAll;
  VerifyAsyncPool::Check c;
  c.slot = req->index;
  // The request's buffer pointer moved on short transfers; the slot's does not.
  c.buf = static_cast<const uint8_t*>(buffers_) + req->index * stride_;
  c.len = req->xfer_length;
  c.file_index = req->file_index;
  c.offset = req->xfer_offset;
  c.path = &files_[req->file_index].path;
  vasync_->Submit(c);
  return true;
}

void Worker::VerifyCollect(bool wait) {
  const uint32_t n = vasync_->Collect(vdone_.data(), wait);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t s = vdone_[i];
    if (vslot_[s] == kVSlotCheck && vreads_in_flight_ > 0) --vreads_in_flight_;
    vslot_[s] = 0;
    VerifyAsyncPool::Outcome& o = vasync_->outcome(s);
    if (!o.status.ok()) OnVerifyFailure(o.status, o.failure);
    for (const VerifyFailure& m : o.more) OnVerifyFailure(m.status, m);
    FreeSlot(&pool_[s]);
  }
}

bool Worker::VerifyWaitChecks() {
  if (vasync_ == nullptr || vasync_->pending() == 0) return false;
  // Block only when the loop could issue nothing since the last call: a
  // sync engine with free slots goes on reading while the checks run.
  const uint64_t issued = ts_.issued[0] + ts_.issued[1] + ts_.issued[2];
  VerifyCollect(/*wait=*/issued == vissued_seen_);
  vissued_seen_ = issued;
  return true;
}

void Worker::OnVerifyFailure(const Status& st, const VerifyFailure& failure) {
  ++verify_failures_;
  const int err = st.errno_value() != 0 ? st.errno_value() : EILSEQ;
  // fio's error policy, as for an I/O error (NoteError): EILSEQ is the
  // verify class. Counted in total_err when continue_on_error covers the
  // class; tolerated (continue_on_error=verify|all, ignore_error=,,84)
  // it does not become the job's error (exit 0, err=84 shown as the first
  // error) and the job checks on. verify_fatal stops it then only at a bad
  // checksum or pattern, as fio 3.33, whose verify_io_u terminates the job
  // after those but returns before that on a bad header (magic, length,
  // offset, seed, sequence number): a flipped data byte in 2 of 16 blocks,
  // continue_on_error=verify verify_fatal=1: 2 reads, total_err=1; 16
  // blocks of random bytes: 16 reads, total_err=16; exit 0 both.
  const bool tolerated = CountError(Ddir::kRead, err, failure.file, failure.offset, st.message());
  if (!tolerated && verify_error_ == 0) {
    verify_error_ = err;
    verify_message_ = st.message();
  }
  // Dumped first, so that the failure's line says where (fio: "received
  // data dumped as x.4096.received").
  std::vector<std::string> dumped;
  Status dump_status;
  if (job_.verify.dump) dump_status = Verifier::DumpFailure(failure, ".", &dumped);
  if (verify_failures_ <= kMaxPrintedFailures) {
    std::string line = st.message();
    for (size_t i = 0; i < dumped.size(); ++i)
      line += (i == 0 ? "; verify_dump: written to " : " and ") + dumped[i];
    std::fprintf(stderr, "iobench: %s: %s\n", StderrWho().c_str(), sys::Printable(line).c_str());
  } else if (verify_failures_ == kMaxPrintedFailures + 1) {
    std::fprintf(stderr, "iobench: %s: more verify failures; the rest are counted, not printed\n",
                 StderrWho().c_str());
  }
  // DumpFailure's messages start with "verify_dump: " already.
  if (!dump_status.ok())
    std::fprintf(stderr, "iobench: %s: %s\n", StderrWho().c_str(),
                 sys::Printable(dump_status.message()).c_str());
  const bool data_failure =
      failure.kind == VerifyFailureKind::kBadData || failure.kind == VerifyFailureKind::kPattern;
  if (job_.verify.fatal && (!tolerated || data_failure)) {
    if (!tolerated && error_ == 0) error_ = verify_error_;
    stopping_ = true;
  }
}

int Worker::NextVerifyPlan(uint32_t in_use, IoPlan* plan) {
  if (verifying_) {
    if (use_replay_) {
      IoPlan p;
      // As many draws as the pass made: a pass that ended early (a read at
      // the end of a sequential file, an error) wrote only part of its plan.
      while (NextReplayDraw(replay_.get(), &replay_budget_, &replay_bytes_left_, false, &p)) {
        if (job_.verify.verify_only) issued_bytes_ += p.length;  // the writer's (VerifyPhaseStep)
        if (p.ddir != Ddir::kWrite) continue;
        // Only blocks the record says were written are read back, as in fio
        // 3.33: a loaded state's (a writer stopped early by a signal,
        // number_ios or io_size did not write the rest of its plan:
        // number_ios=100 do_verify=0, then verify_only with the state, reads
        // 100 in the order written; iobench read all 256, counting the rest
        // as skipped), and the job's own, sequential or random (a block
        // whose write failed, ENOSPC under continue_on_error, is not read:
        // randwrite over 2 MiB on a 1 MiB tmpfs read back 512 blocks, the
        // 256 that failed too, where fio reads 256). verify=null keeps the
        // record too (rw=write read nothing at all when it did not).
        if ((job_.verify.state_load || !job_.verify.verify_only) &&
            !verifier_->IsWritten({p.file, p.offset, p.length}))
          continue;
        // verify_backlog read it back already: fio verifies each write once.
        if (backlog_ != nullptr && verifier_->IsVerified({p.file, p.offset, p.length})) continue;
        *plan = p;
        plan->ddir = Ddir::kRead;
        return 1;
      }
      // The next verify phase replays the next pass, a new loop (drawn
      // again from the seed, as the writer's pattern was).
      StartLoop(replay_.get(), job_);
    } else {
      const uint64_t max_len =
          std::min<uint64_t>(stride_, std::max<uint64_t>(job_.bs[1].max, verifier_->interval()));
      VerifyRange r;
      // A sequential job's writes one by one, as fio reads them back (a
      // random job's record merges its blocks up to bs).
      if (verifier_->NextWritten(&vcursor_, max_len, &r, /*by_write=*/!IsRandom(job_.rw))) {
        // Read back once per write, as fio: a later loop's verify phase
        // (io_size shorter than the region) reads only what it rewrote. A
        // verify_only run that recorded the plan (replay_) records each
        // loop's writes afresh. One that reads a loaded state's record
        // reads it again in each loop when the job is sequential (each of
        // the writer's passes wrote it all); a random job's record is what
        // all its passes left, read once.
        const bool from_state = job_.verify.verify_only && replay_ == nullptr;
        if (!from_state || IsRandom(job_.rw)) verifier_->MarkVerified(r);
        if (from_state) issued_bytes_ += r.length;  // the writer's (VerifyPhaseStep)
        *plan = IoPlan{Ddir::kRead, r.file_index, r.offset, r.length};
        return 1;
      }
    }
    no_more_ = true;
    return -1;
  }
  if (backlog_ == nullptr) return 0;
  // fio 3.33's check_get_verify: a batch starts when the pending writes are
  // a multiple of verify_backlog and the last I/O was not a read (fio: the
  // last completed one; iobench: the last issued, which is the same on a
  // sync engine and does not depend on completion timing at depth);
  // it reads verify_backlog_batch of them, one before each I/O, and leaves
  // the rest to the next batch (backlog=16 batch=4: 16 writes, then 4 reads
  // and 4 writes in turn, and the verify phase's 16 reads at the end).
  if (!backlog_->WantRead(vlast_read_)) {
    // No write while a verify read is in flight: a write landing in between
    // could make a good block look stale.
    return vreads_in_flight_ > 0 ? -1 : 0;
  }
  // Read back only what has landed (fio issues another write instead when
  // the block's write is still in flight; iobench waits for it).
  if (in_use > vreads_in_flight_) return -1;
  VerifyRange r = backlog_->Pop();
  // A write that failed (ENOSPC that ignore_error tolerates) left nothing
  // to read back: fio takes it off its list when it fails. Read back, it
  // was a verify failure past the end of the file (or read as skipped).
  while (!verifier_->IsWritten(r)) {
    if (!backlog_->WantRead(vlast_read_)) return 0;
    r = backlog_->Pop();
  }
  verifier_->MarkVerified(r);  // the pass after the writes need not read it again
  *plan = IoPlan{Ddir::kRead, r.file_index, r.offset, r.length};
  return 1;
}

bool Worker::VerifyAfterPass(bool more) {
  if (verifying_ || verify_skip_phase_ || !job_.verify.do_verify || !HasWrite(job_.rw) ||
      job_.verify.verify_only)
    return false;
  // fio 3.33's do_io lets a random writer without a random map write up to
  // io_size before its verify phase (`size` does not end such a pass): with
  // size=1m io_size=3m it writes 3 MiB, then reads back each block once.
  // Keep writing while less than io_size was issued since the last verify.
  if (more && IsRandom(job_.rw) && pattern_ != nullptr && !pattern_->RandomEachBlockOnce() &&
      io_size_ != 0 && issued_bytes_ - verify_mark_bytes_ < io_size_)
    return false;
  resume_after_verify_ = more;
  return true;
}

void Worker::StartVerifyPhase() {
  // What is read back must come from the device, not the page cache (fio
  // syncs and invalidates here too).
  if (HasWrite(job_.rw) && !job_.verify.verify_only && error_ == 0 &&
      !SyncFiles("the fsync before the verify phase"))
    return;
  for (size_t i = 0; i < files_.size(); ++i) {
    if (files_[i].fd < 0) continue;
    if (job_.invalidate) {
      engine_->ReleaseCachedRange(static_cast<uint32_t>(i), 0, UINT64_MAX);  // mmap: unmap first
      (void)InvalidateTarget(files_[i].fd, targets_[i]);
    }
  }
  verifying_ = true;
  no_more_ = false;
  if (backlog_ != nullptr) {
    // The phase reads back everything written since the last one, the
    // backlog's blocks included: the next loop's batches start afresh, after
    // verify_backlog of its own writes (fio's backlog is its list of written
    // blocks, which the phase empties). Left in, the next loop's first batch
    // came early and read them again (loops=2, 256 blocks, verify_backlog=100:
    // 568 reads for 512 writes; fio 512).
    // The batch counter carries over, as fio's: a batch above the backlog
    // still has reads left for the next loop's first writes.
    backlog_->Clear();
  }
  verify_mark_bytes_ = issued_bytes_;
  sync_marked_ = true;  // synced above: end_fsync need not sync again
  synced_ios_left_ = ios_left_;
  vcursor_ = VerifyCursor{};
  // The replay draws what the pass drew (verify_only: the whole plan).
  // verify_only: the writer's passes stopped after io_size bytes (reads of
  // a mixed job included), its job after number_ios x loops I/Os (all in
  // the first pass if it is long enough); blocks past that were never
  // written. What a loop's phase leaves of that budget is the next one's.
  if (!job_.verify.verify_only)
    replay_budget_ = pass_draws_;
  else if (passes_ == 0)
    replay_budget_ = ios_left_;  // number_ios x loops, or UINT64_MAX
  replay_bytes_left_ = job_.verify.verify_only && io_size_ != 0 ? io_size_ : UINT64_MAX;
  pass_draws_ = 0;
  if (job_.verify.verify_only && !use_replay_ && replay_ != nullptr) {
    // A plan that writes some blocks more than once (verify_only, no
    // state): a random one without a map, or one that PassMayRewrite; or a
    // sequential one over several files (SortedAcrossFiles). Record its
    // writes as the writer's record would be, then read back what the last
    // writes left, each block once (fio 3.33 reads the same count as
    // do_verify=1), in the writer's order. Only a random writer without a
    // map wrote on past its pattern's pass (VerifyAfterPass).
    const bool wrap = IsRandom(job_.rw) && !EachBlockOnce(pattern_);
    IoPlan p;
    while (NextReplayDraw(replay_.get(), &replay_budget_, &replay_bytes_left_, wrap, &p)) {
      issued_bytes_ += p.length;  // the writer's (VerifyPhaseStep)
      if (p.ddir == Ddir::kWrite) verifier_->RecordPlannedWrite(p.file, p.offset, p.length);
    }
  }
  vphase_reads0_ = ts_.issued[0];
  verify_start_ns_ = NowNs();
  verify_prev_state_ = live_.state.load(std::memory_order_relaxed);
  live_.state.store(job_state::kVerifying, std::memory_order_relaxed);
}

bool Worker::VerifyPhaseStep() {
  if (verifying_) {  // a verify phase is done
    verifying_ = false;
    verify_ns_ += NowNs() - verify_start_ns_;
    if (job_.verify.verify_only && HasWrite(job_.rw)) {
      // fio's verify_only runs each loop: it goes through the loop's writes
      // without issuing them, then verifies them (loops=2: every block read
      // twice, as the writer's verify phase after each pass does). Not
      // time_based, whose writer never verified (fio reads one pass).
      ++passes_;
      // The writer's verify reads counted towards number_ios x loops as its
      // writes did (fio 3.33): loops=2 number_ios=300 over 256 blocks, the
      // second loop wrote 88 (600 - 256 - 256), and verify_only reads 344.
      const uint64_t phase_reads = ts_.issued[0] - vphase_reads0_;
      if (replay_budget_ != UINT64_MAX) replay_budget_ -= std::min(replay_budget_, phase_reads);
      if (job_.time_based || job_.fill_device || error_ != 0 || replay_budget_ == 0) return false;
      // A phase that read nothing and went through none of the plan leaves
      // the counts below where they were, so another would too: a random
      // job reading a loaded state's record (what all the writer's passes
      // left, read once) with io_size above size used to start empty
      // phases forever (norandommap size=64k io_size=256k: 16 reads, then
      // a hang at full CPU; fio 3.33 reads 16 and ends).
      if (phase_reads == 0 && issued_bytes_ == verify_mark_bytes_) return false;
      // MorePasses() as the writer asked it: issued_bytes_ holds the plan's
      // bytes (its writes, not issued here), and what it moved is those plus
      // its verify reads, these reads (io_size=3m over 1m: two passes).
      if (io_total_ != 0 && issued_bytes_ >= io_total_) return false;
      if (passes_ >= std::max<uint64_t>(1, job_.loops)) {
        const uint64_t moved = issued_bytes_ + ts_.dir[0].bytes;
        const uint64_t max_bs = std::max({job_.bs[0].max, job_.bs[1].max, job_.bs[2].max});
        if (io_total_ == 0 || moved >= io_size_ || io_size_ - moved < max_bs) return false;
      }
      if (!use_replay_ && replay_ != nullptr) {  // the next loop's plan
        StartLoop(replay_.get(), job_);
      }
      StartVerifyPhase();
      return error_ == 0;
    }
    synced_ios_left_ = ios_left_;  // the phase only read (number_ios counts its reads)
    // The verify reads count towards io_size (fio): ask again.
    if (!resume_after_verify_ || !MorePasses() || error_ != 0) return false;
    resume_after_verify_ = false;
    live_.state.store(verify_prev_state_, std::memory_order_relaxed);
    ResetPattern(/*new_loop=*/true);
    InvalidateForPass();
    StartPassSync();  // the sync the last write pass owed, as after any loop
    no_more_ = false;
    return true;
  }
  if (verify_skip_phase_ || !job_.verify.do_verify || !HasWrite(job_.rw) ||
      job_.verify.verify_only || error_ != 0)
    return false;
  StartVerifyPhase();
  return error_ == 0;
}

void Worker::FinishVerify() {
  if (vasync_ != nullptr) {
    while (vasync_->pending() > 0) VerifyCollect(/*wait=*/true);  // the loop ends with none
    const CpuUsage cpu = vasync_->Drain(verifier_.get());
    // The checks are the job's work: their CPU is the job's (fio counts only
    // the submitting thread's).
    ts_.cpu.user_us += cpu.user_us;
    ts_.cpu.sys_us += cpu.sys_us;
    ts_.cpu.ctx += cpu.ctx;
    ts_.cpu.majf += cpu.majf;
    ts_.cpu.minf += cpu.minf;
    AddNote("verify_async: " + std::to_string(job_.verify.async) + " check thread(s) used " +
            std::to_string((cpu.user_us + cpu.sys_us) / 1000) +
            " ms of CPU (included in the job's usr/sys)");
  }
  if (verifying_) {  // stopped during a verify phase
    verifying_ = false;
    verify_ns_ += NowNs() - verify_start_ns_;
  }
  // fio's per-direction runtimes: writes ran while not verifying, reads are
  // the verify phases (unless the job reads anyway).
  if (verify_ns_ != 0 && !HasRead(job_.rw) && !(job_.verify.verify_only && HasWrite(job_.rw))) {
    const uint64_t total = ts_.dir[1].runtime_ns;
    ts_.dir[0].runtime_ns = verify_ns_;
    if (total > verify_ns_) ts_.dir[1].runtime_ns = total - verify_ns_;
  }
  const VerifyCounters& c = verifier_->counters();
  VerifyTally& t = result_.verify_tally;
  t.set = true;
  t.written = c.chunks_written;
  t.verified = c.chunks_verified;
  t.skipped = c.chunks_skipped;
  t.failed = c.failures + verify_eof_chunks_;
  t.unread = verify_unread_;
  t.interval = verifier_->interval();
  AddNote(VerifyTallyNote(t));
  if (c.chunks_unrecorded != 0)
    AddNote("verify: " + std::to_string(c.chunks_unrecorded) +
            " blocks off the verify_interval grid were not recorded (more than " +
            std::to_string(kMaxOffGridChunks) +
            " distinct ones) and not read back; raise verify_interval or align the writes");
  if (c.chunks_undecided != 0) {
    // Not a failure (their writes may have been torn legitimately), but
    // not a pass either: the user must know they went unchecked.
    const std::string msg =
        "verify: " + std::to_string(c.chunks_undecided) +
        " of the skipped blocks failed their check and could not be told from a torn write "
        "(writes to them overlapped in flight and one was split, the header crosses a "
        "512-byte sector, or a piece of a sector shorter than a word matches no recent write): "
        "not checked; serialize_overlap=1 checks every block";
    std::fprintf(stderr, "iobench: %s: %s\n", StderrWho().c_str(), sys::Printable(msg).c_str());
    AddNote(msg);
  }
  if (job_.verify.state_save && HasWrite(job_.rw) && !job_.verify.verify_only &&
      c.chunks_written != 0) {
    const std::string path = Verifier::StateFileName(job_.name, worker_index_);
    // A state that cannot be saved is a warning, never a lost run: what
    // SaveState returns, or the memory its message needs running out.
    Status st;
    try {
      st = verifier_->SaveState(path);
    } catch (const std::bad_alloc&) {
      st = Status::Limit("out of memory while saving the state to " + path);
    }
    if (st.ok()) {
      AddNote("verify: state saved to " + path + " (verify_state_save)");
    } else {
      std::fprintf(stderr, "iobench: %s: verify_state_save: %s\n", StderrWho().c_str(),
                   sys::Printable(st.message()).c_str());
      AddNote("verify_state_save failed: " + st.message());
    }
  }
  if (verify_error_ == 0) return;  // none, or every failure was tolerated
  if (result_.error == 0 || result_.error == verify_error_) {
    result_.error = verify_error_;
    result_.error_message = verify_message_;
    result_.error_printed = true;  // OnVerifyFailure printed each failure
    if (verify_failures_ > 1)
      result_.error_message +=
          " (and " + std::to_string(verify_failures_ - 1) + " more verify failures)";
  }
}

}  // namespace iobench
