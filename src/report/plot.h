// `--plot=FILE.svg|png`: a chart of a sweep drawn by gnuplot.
//
// Ownership: the report module. Input is the same fio-schema JSON document
// the tables read (normally sweep::CombineSweepResults' output). We write a
// self-contained gnuplot script (the data inline as datablocks) beside the
// image, FILE.gp, so users can restyle and re-run it (`gnuplot FILE.gp` in
// the image's directory), then run gnuplot on it.
//
// One image, two charts stacked (gnuplot multiplot): on top the metric
// (default IOPS) against the swept key, one line per series; below p50
// (dashed) and p99 (solid) completion latency of the same series, log y.
// The x axis is log2 when the key's values double (1,2,4,...); non-numeric
// values (ioengine=...) are evenly spaced categories. Series: the second
// swept key's values (with further keys and job names when present), or
// the jobs when one key is swept; a direction suffix when jobs mix reads
// and writes.
//
// Thread-safety: main thread (WritePlot runs gnuplot and waits).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "iobench/status.h"
#include "report/table.h"

namespace iobench {

struct PlotOptions {
  std::string path;                         // FILE.svg or FILE.png
  TableMetric metric = TableMetric::kIops;  // the top chart's metric
  std::string x_key;                        // default: the first swept key
  std::string gnuplot = "gnuplot";          // program name or path
};

// Refuses an image name that does not end in .svg or .png (checked before
// a run as well as by PlotScript).
Status CheckPlotName(const std::string& image_path);

// The script's path for an image path: "out/sweep.svg" -> "out/sweep.gp".
std::string PlotScriptPath(const std::string& image_path);

// The gnuplot script for doc. Errors: nothing swept, an unknown x_key, an
// image name not ending in .svg or .png, no value of the metric at all.
Result<std::string> PlotScript(const nlohmann::json& doc, const PlotOptions& opts);

// Writes PlotScriptPath(opts.path) and runs gnuplot in the image's
// directory. Returns:
//  - Code::kUnsupported with "gnuplot not found: apt-get install
//    gnuplot-nox ..." when opts.gnuplot is not on PATH (the script is still
//    written; the caller goes on writing the run's results),
//  - kIoError when writing the script fails or gnuplot exits non-zero
//    (its output in the message),
//  - kInvalidArgument for PlotScript's errors.
Status WritePlot(const nlohmann::json& doc, const PlotOptions& opts);

// True when `s` is WritePlot's "gnuplot is not installed" error.
bool IsGnuplotMissing(const Status& s);

}  // namespace iobench
