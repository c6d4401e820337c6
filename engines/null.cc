// STUB: replaced by the run-core work.
#include "engines/engines.h"
namespace iobench {
EngineInfo NullEngineInfo() {
  return {"null", "no I/O; exercises the whole pipeline", true, nullptr,
          [] { return Status::Unsupported("null engine: not implemented yet"); }, {}, nullptr};
}
}  // namespace iobench
