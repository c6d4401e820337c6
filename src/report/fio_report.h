// Building blocks of the fio-compatible reports that other modules reuse
// (the sweep helper combines JSON documents of several points; the table
// caption reuses the context block). Implementations: normal.cc, json.cc.
//
// Pure formatting of a finished RunResult; call from the reporting thread.
// Owner: the report helper.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "iobench/report.h"
#include "iobench/stats.h"
#include "stats/summary.h"

namespace iobench {

// The "what was measured" block at the top of the normal output: the first
// line "iobench-0.1.0: kernel ..., N CPUs (model), memory 8192MiB", a
// "sweep point: k=v, ..." line for one point of a sweep, one
// "target PATH: fs=..., device=..., ..." line per target, and one
// "note: ..." line per warning (and for an interrupted run).
std::string FormatContextBlock(const RunResult& run);

// The whole fio-schema JSON document (json, or json+ when plus is true),
// with iobench's own fields under "iobench" keys.
nlohmann::ordered_json BuildJsonReport(const RunResult& run, const ReportOptions& opts, bool plus);

// One job record's JSON object (an element of "jobs"), for callers that
// assemble their own documents (sweeps). `totals` is its group's
// (ComputeGroupTotals): bw_agg compares with the group's aggregate bandwidth.
nlohmann::ordered_json BuildJsonJob(const JobRecord& rec, const GroupTotals& totals, bool plus);

// The document as text laid out like fio's: two-space indent, `"key" : value`,
// floats printed with "%f" (fio's six decimals), a newline at the end. Greps
// and awk scripts written against fio's JSON find the same text.
std::string FioJsonText(const nlohmann::ordered_json& doc);

// Terse records (WriteTerse's, one per job record of `shape`) whose figures
// come from `doc`, a fio-schema document of the same jobs in the same order:
// --repeat's median (sweep::MergeRepeats), which no single RunResult holds.
// `shape` gives what the document does not say (the percentile list of a
// direction without I/O, description, continue_on_error). Of one run's own
// document, the lines are WriteTerse's.
Status WriteTerseFromJson(const RunResult& shape, const nlohmann::ordered_json& doc,
                          const ReportOptions& opts, std::ostream& out);

// The iobench.context object.
nlohmann::ordered_json BuildJsonContext(const RunContext& ctx);

}  // namespace iobench
