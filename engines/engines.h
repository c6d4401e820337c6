// Each engine file exports its registry row(s); engines/registry.cc lists them
// once, in one table (no static self-registration: a static library would drop it).
#pragma once

#include <vector>

#include "iobench/engine.h"

namespace iobench {

EngineInfo NullEngineInfo();                 // engines/null.cc
std::vector<EngineInfo> SyncEngineInfos();   // engines/sync.cc: sync psync vsync pvsync pvsync2
EngineInfo LibaioEngineInfo();               // engines/libaio.cc
EngineInfo IoUringEngineInfo();              // engines/io_uring.cc
EngineInfo IoUringCmdEngineInfo();           // engines/io_uring.cc (not available yet)

}  // namespace iobench
