// STUB: replaced by the async-engine work.
#include "engines/engines.h"
namespace iobench {
EngineInfo IoUringEngineInfo() {
  return {"io_uring", "Linux io_uring", false, nullptr,
          [] { return Status::Unsupported("io_uring: not implemented yet"); }, {}, nullptr};
}
EngineInfo IoUringCmdEngineInfo() {
  return {"io_uring_cmd", "NVMe passthrough through io_uring (/dev/ngXnY)", false, nullptr,
          [] { return Status::Unsupported("io_uring_cmd: not available in iobench yet"); }, {},
          nullptr};
}
}  // namespace iobench
