#include <string>
#include <vector>

#include "engines/engines.h"

namespace iobench {

const std::vector<EngineInfo>& EngineRegistry() {
  static const std::vector<EngineInfo> kRegistry = [] {
    std::vector<EngineInfo> r;
    r.push_back(NullEngineInfo());
    for (auto& e : SyncEngineInfos()) r.push_back(std::move(e));
    for (auto& e : FileOpEngineInfos()) r.push_back(std::move(e));
    r.push_back(SpliceEngineInfo());
    r.push_back(CpuioEngineInfo());
    for (auto& e : FileMetaEngineInfos()) r.push_back(std::move(e));
    r.push_back(LibaioEngineInfo());
    r.push_back(PosixAioEngineInfo());
    r.push_back(IoUringEngineInfo());
    r.push_back(IoUringCmdEngineInfo());
    return r;
  }();
  return kRegistry;
}

const EngineInfo* FindEngine(const std::string& name) {
  for (const auto& e : EngineRegistry())
    if (name == e.name) return &e;
  return nullptr;
}

}  // namespace iobench
