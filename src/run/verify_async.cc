#include "run/verify_async.h"

#include <pthread.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <system_error>

#include "stats/helper_cpu.h"
#include "sys/safety.h"

namespace iobench {

Result<std::unique_ptr<VerifyAsyncPool>> VerifyAsyncPool::Create(const Verifier* verifier,
                                                                 uint32_t threads, uint32_t slots,
                                                                 const std::string& name,
                                                                 const std::vector<int>& cpus) {
  std::unique_ptr<VerifyAsyncPool> p(new VerifyAsyncPool());
  p->verifier_ = verifier;
  p->slots_ = std::max<uint32_t>(1, slots);
  p->todo_.resize(p->slots_);
  p->done_.resize(p->slots_);
  p->outcomes_.resize(p->slots_);
  p->cpu_.resize(threads);
  for (uint32_t t = 0; t < threads; ++t) {
    IOB_ASSIGN_OR_RETURN(auto c, verifier->NewChecker());
    p->checkers_.push_back(std::move(c));
  }
  for (uint32_t t = 0; t < threads; ++t) {
    try {
      p->threads_.emplace_back([raw = p.get(), t] { raw->ThreadMain(t); });
    } catch (const std::system_error& e) {  // the destructor joins the ones started
      return Status::Limit("verify_async: cannot start check thread " + std::to_string(t + 1) +
                           " of " + std::to_string(threads) + ": " + e.what());
    }
    // Linux limits thread names to 15 characters.
    const std::string tn = (name.substr(0, 10) + "-v" + std::to_string(t)).substr(0, 15);
    pthread_setname_np(p->threads_.back().native_handle(), tn.c_str());
    if (!cpus.empty()) {
      cpu_set_t set;
      CPU_ZERO(&set);
      for (int c : cpus) CPU_SET(c, &set);
      if (int e = pthread_setaffinity_np(p->threads_.back().native_handle(), sizeof(set), &set);
          e != 0)
        return Status::Invalid("verify_async_cpus: cannot pin check thread " +
                               std::to_string(t + 1) + ": " + std::strerror(e));
    }
  }
  return p;
}

VerifyAsyncPool::~VerifyAsyncPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : threads_) t.join();
}

void VerifyAsyncPool::Submit(const Check& check) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    todo_[(todo_head_ + todo_n_) % slots_] = check;
    ++todo_n_;
  }
  ++pending_;
  work_cv_.notify_one();  // no system call when no thread waits
}

uint32_t VerifyAsyncPool::Collect(uint32_t* out, bool wait) {
  if (!wait && done_count_.load(std::memory_order_acquire) == 0) return 0;
  std::unique_lock<std::mutex> lock(mu_);
  if (wait) {
    worker_waiting_ = true;
    done_cv_.wait(lock, [this] { return done_n_ > 0; });
    worker_waiting_ = false;
  }
  const uint32_t n = done_n_;
  std::copy(done_.begin(), done_.begin() + n, out);
  done_n_ = 0;
  done_count_.store(0, std::memory_order_relaxed);
  pending_ -= n;
  return n;
}

CpuUsage VerifyAsyncPool::Drain(Verifier* verifier) {
  std::lock_guard<std::mutex> lock(mu_);
  CpuUsage sum;
  for (size_t t = 0; t < checkers_.size(); ++t) {
    verifier->MergeCounters(checkers_[t].get());
    const CpuUsage c = CpuSince(CpuUsage(), cpu_[t]);  // the thread's whole life
    sum.user_us += c.user_us;
    sum.sys_us += c.sys_us;
    sum.ctx += c.ctx;
    sum.majf += c.majf;
    sum.minf += c.minf;
  }
  return sum;
}

void VerifyAsyncPool::ThreadMain(uint32_t t) {
  VerifyChecker* checker = checkers_[t].get();
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    work_cv_.wait(lock, [this] { return stop_ || todo_n_ > 0; });
    if (todo_n_ == 0) break;  // stop_ and nothing left
    const Check c = todo_[todo_head_];
    todo_head_ = (todo_head_ + 1) % slots_;
    --todo_n_;
    lock.unlock();
    Outcome& o = outcomes_[c.slot];  // this slot is ours until collected
    try {  // no exception leaves the thread (std::terminate lost the report)
      o.status = verifier_->CheckReadWith(checker, c.buf, c.len, c.file_index, *c.path, c.offset,
                                          &o.failure, &o.more);
    } catch (const std::bad_alloc&) {
      o.status = sys::OutOfMemory("verify_async: a check thread could not allocate memory");
    }
    lock.lock();
    // The thread's CPU, read when the queue runs dry (not per check), and
    // before the finished slot is published: once the worker has collected
    // every check, cpu_ covers all of them.
    if (todo_n_ == 0) cpu_[t] = HelperCpuSampler::ThreadCpuNow();
    done_[done_n_++] = c.slot;
    done_count_.store(done_n_, std::memory_order_release);
    if (worker_waiting_) done_cv_.notify_one();
  }
  cpu_[t] = HelperCpuSampler::ThreadCpuNow();
}

}  // namespace iobench
