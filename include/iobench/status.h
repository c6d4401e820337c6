// Status and Result<T>: errors are values with context.
//
// A Status is one pointer: null when OK, so returning success costs nothing
// (LevelDB's trick). Errors carry a code and a message that names what failed
// ("open /dev/nvme0n1: Permission denied"). errno becomes a Status only in
// ErrnoStatus(), so every syscall failure reads the same way.
//
// Thread-safety: a Status is a value; distinct objects may be used from
// distinct threads freely.
#pragma once

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace iobench {

class [[nodiscard]] Status {
 public:
  enum class Code : int {
    kOk = 0,
    kInvalidArgument,  // bad user input: options, values, job files (exit 2)
    kNotFound,
    kUnsupported,      // this kernel/filesystem/engine cannot do it
    kIoError,          // a syscall failed; errno_value() tells which
    kResourceLimit,    // aio-max-nr, RLIMIT_MEMLOCK, memory, open files
    kRefused,          // a safety check refused (mounted device, --readonly)
    kInterrupted,      // a signal stopped the run
    kInternal,
  };

  Status() = default;
  Status(Code code, std::string msg, int err = 0)
      : rep_(code == Code::kOk ? nullptr : new Rep{code, err, std::move(msg)}) {}
  Status(const Status& o) : rep_(o.rep_ ? new Rep(*o.rep_) : nullptr) {}
  Status& operator=(const Status& o) {
    if (this != &o) rep_.reset(o.rep_ ? new Rep(*o.rep_) : nullptr);
    return *this;
  }
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

  static Status Ok() { return Status(); }
  static Status Invalid(std::string msg) { return {Code::kInvalidArgument, std::move(msg)}; }
  static Status NotFound(std::string msg) { return {Code::kNotFound, std::move(msg)}; }
  static Status Unsupported(std::string msg) { return {Code::kUnsupported, std::move(msg)}; }
  static Status Refused(std::string msg) { return {Code::kRefused, std::move(msg)}; }
  static Status Limit(std::string msg) { return {Code::kResourceLimit, std::move(msg)}; }
  static Status Internal(std::string msg) { return {Code::kInternal, std::move(msg)}; }

  bool ok() const { return rep_ == nullptr; }
  Code code() const { return rep_ ? rep_->code : Code::kOk; }
  int errno_value() const { return rep_ ? rep_->err : 0; }
  const std::string& message() const {
    static const std::string kEmpty;
    return rep_ ? rep_->msg : kEmpty;
  }
  std::string ToString() const { return ok() ? std::string("OK") : rep_->msg; }

  // Prefixes context: Status("Permission denied").WithContext("open /dev/x")
  // reads "open /dev/x: Permission denied".
  Status WithContext(std::string_view ctx) const {
    if (ok()) return Status();
    return Status(rep_->code, std::string(ctx) + ": " + rep_->msg, rep_->err);
  }

 private:
  struct Rep {
    Code code;
    int err;
    std::string msg;
  };
  std::unique_ptr<Rep> rep_;
};

// The one place errno becomes a Status: "what: strerror(err)".
inline Status ErrnoStatus(std::string_view what, int err = errno) {
  Status::Code code = Status::Code::kIoError;
  if (err == ENOENT || err == ENODEV || err == ENXIO) code = Status::Code::kNotFound;
  if (err == EOPNOTSUPP || err == ENOSYS) code = Status::Code::kUnsupported;
  if (err == EMFILE || err == ENFILE || err == ENOMEM) code = Status::Code::kResourceLimit;
  std::string msg(what);
  msg += ": ";
  msg += std::strerror(err);
  return Status(code, std::move(msg), err);
}

// A refusal: bad input, a target that is not there, what this kernel or file
// system cannot do, a safety check, a limit, or a permission the user lacks
// (EACCES, EPERM, EROFS). The run is refused before or during its set-up:
// exit 2, nothing left behind, no report. Any other error is the job's
// (exit 1, the job reported with it).
inline bool IsRefusal(const Status& st) {
  switch (st.code()) {
    case Status::Code::kInvalidArgument:
    case Status::Code::kNotFound:
    case Status::Code::kUnsupported:
    case Status::Code::kRefused:
    case Status::Code::kResourceLimit:
      return true;
    default:
      break;
  }
  const int err = st.errno_value();
  return err == EACCES || err == EPERM || err == EROFS;
}

// Result<T>: a T or an error Status (GCC 12 has no std::expected).
template <typename T>
class [[nodiscard]] Result;

// For a small trivially copyable T (the engines' Result<unsigned> from
// Commit and Reap, twice per batch on the hot path): the Status pointer
// beside the value, so ok() is one compare with null and reading the value
// is a load; std::variant's index checks and its destructor's visit cost
// about 20 instructions per batch (callgrind, null engine at QD32). The
// value of an error Result is T{} (value() of an error is a caller's bug
// either way).
template <typename T>
  requires(std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T> &&
           sizeof(T) <= 2 * sizeof(void*))
class [[nodiscard]] Result<T> {
 public:
  Result(T value) : v_(value) {}  // NOLINT: implicit by design
  // An OK status here is a caller's bug: it stays an error, as in the
  // general Result (whose ok() is false for it).
  Result(Status status)  // NOLINT: must not be OK
      : st_(status.ok() ? Status::Internal("a Result made from an OK status") : std::move(status)) {}

  bool ok() const { return st_.ok(); }
  const Status& status() const { return st_; }
  T& value() & { return v_; }
  const T& value() const& { return v_; }
  T&& value() && { return std::move(v_); }
  T* operator->() { return &v_; }
  const T* operator->() const { return &v_; }
  T& operator*() & { return v_; }
  const T& operator*() const& { return v_; }

 private:
  Status st_;
  T v_{};
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}  // NOLINT: must not be OK

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace iobench

// Early return on error, for Status-returning functions.
#define IOB_RETURN_IF_ERROR(expr)          \
  do {                                     \
    ::iobench::Status _st = (expr);        \
    if (!_st.ok()) return _st;             \
  } while (0)

#define IOB_CONCAT_INNER(a, b) a##b
#define IOB_CONCAT(a, b) IOB_CONCAT_INNER(a, b)
// auto x = ...; for Result<T>: IOB_ASSIGN_OR_RETURN(auto x, Foo());
#define IOB_ASSIGN_OR_RETURN(lhs, expr)                         \
  auto IOB_CONCAT(_res_, __LINE__) = (expr);                    \
  if (!IOB_CONCAT(_res_, __LINE__).ok())                        \
    return IOB_CONCAT(_res_, __LINE__).status();                \
  lhs = std::move(IOB_CONCAT(_res_, __LINE__)).value()
