// Small string-list helpers the probes share (mount points, holders, disks,
// refusal reasons): each list is printed once, in the order found.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace iobench::sys {

// Appends s unless v already holds it.
inline void AddUnique(std::vector<std::string>* v, std::string s) {
  if (std::find(v->begin(), v->end(), s) == v->end()) v->push_back(std::move(s));
}

// "a<sep>b<sep>c"; empty for an empty list.
inline std::string Join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const auto& s : v) {
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
}

}  // namespace iobench::sys
