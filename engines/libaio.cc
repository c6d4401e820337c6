// STUB: replaced by the async-engine work.
#include "engines/engines.h"
namespace iobench {
EngineInfo LibaioEngineInfo() {
  return {"libaio", "Linux native asynchronous I/O (io_submit)", false, nullptr,
          [] { return Status::Unsupported("libaio: not implemented yet"); }, {}, nullptr};
}
}  // namespace iobench
