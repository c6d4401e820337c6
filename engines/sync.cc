// STUB: replaced by the run-core work.
#include "engines/engines.h"
namespace iobench {
std::vector<EngineInfo> SyncEngineInfos() { return {}; }
}  // namespace iobench
