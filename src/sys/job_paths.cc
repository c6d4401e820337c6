#include "sys/job_paths.h"

#include <algorithm>

namespace iobench::sys {
namespace {

void ReplaceAll(std::string* s, const std::string& from, const std::string& to) {
  for (size_t pos = 0; (pos = s->find(from, pos)) != std::string::npos; pos += to.size())
    s->replace(pos, from.size(), to);
}

std::string InDirectory(const JobSpec& job, const std::string& name) {
  if (job.directory.empty() || (!name.empty() && name[0] == '/')) return name;
  // fio allows directory=a:b; the first is used here.
  std::string dir = job.directory.substr(0, job.directory.find(':'));
  if (!dir.empty() && dir.back() == '/') dir.pop_back();
  return dir + "/" + name;
}

void AddUnique(std::vector<std::string>* v, std::string s) {
  if (std::find(v->begin(), v->end(), s) == v->end()) v->push_back(std::move(s));
}

}  // namespace

std::vector<std::string> JobFilePaths(const JobSpec& job) {
  std::vector<std::string> out;
  if (!job.filenames.empty()) {
    for (const auto& f : job.filenames) AddUnique(&out, InDirectory(job, f));
    return out;
  }
  const std::string format =
      job.filename_format.empty() ? std::string("$jobname.$jobnum.$filenum") : job.filename_format;
  const uint32_t clones = std::max<uint32_t>(1, job.numjobs);
  const uint32_t files = std::max<uint32_t>(1, job.nrfiles);
  for (uint32_t j = 0; j < clones; ++j) {
    for (uint32_t f = 0; f < files; ++f) {
      std::string name = format;
      ReplaceAll(&name, "$jobname", job.name);
      ReplaceAll(&name, "$jobnum", std::to_string(j));
      ReplaceAll(&name, "$filenum", std::to_string(f));
      AddUnique(&out, InDirectory(job, name));
    }
  }
  return out;
}

uint32_t JobFilesPerClone(const JobSpec& job) {
  uint32_t n = job.filenames.empty() ? std::max<uint32_t>(1, job.nrfiles)
                                     : static_cast<uint32_t>(job.filenames.size());
  if (job.openfiles > 0 && job.openfiles < n) n = job.openfiles;
  return n;
}

}  // namespace iobench::sys
