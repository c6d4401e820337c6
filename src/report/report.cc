// Dispatches the requested output formats, in the order the user gave them.
#include "iobench/report.h"

#include <ostream>

namespace iobench {

Status WriteReports(const RunResult& run, const ReportOptions& opts, std::ostream& out) {
  for (OutputFormat f : opts.formats) {
    switch (f) {
      case OutputFormat::kNormal:
        IOB_RETURN_IF_ERROR(WriteNormal(run, opts, out));
        break;
      case OutputFormat::kTerse:
        IOB_RETURN_IF_ERROR(WriteTerse(run, opts, out));
        break;
      case OutputFormat::kJson:
        IOB_RETURN_IF_ERROR(WriteJson(run, opts, false, out));
        break;
      case OutputFormat::kJsonPlus:
        IOB_RETURN_IF_ERROR(WriteJson(run, opts, true, out));
        break;
      case OutputFormat::kTable:
        // Tables are written by the sweep module (src/report/table*), which
        // needs every point of a sweep, not one RunResult; the caller
        // invokes it after all points ran.
        break;
    }
  }
  return Status::Ok();
}

}  // namespace iobench
