#include "report/plot.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "sys/procfs.h"
#include "sys/spawn.h"
#include "sys/strings.h"

extern char** environ;

namespace iobench {

using table::AggregateMetric;
using table::AllJobs;
using table::DescribeJobs;
using table::DirectionViews;
using table::Interrupted;
using table::JobDirections;
using table::JobError;
using table::JobLabels;
using table::JobPoint;
using table::SweepKeys;

namespace {

using nlohmann::json;

constexpr char kGnuplotMissing[] = "gnuplot not found: apt-get install gnuplot-nox";

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Job names and swept values are the user's and may hold anything. A
// control character must not reach the script raw: a newline inside a
// quoted title ends the line, and gnuplot runs the next one as a command
// (`!touch x` runs a shell). Titles and labels are text the reader sees, so
// control characters are written as C escapes (a newline as the two
// characters \n), as the tables write them (sys::Printable).
std::string OneLine(const std::string& s) { return sys::Printable(s); }

// gnuplot single-quoted string (no escapes inside): a quote is written
// twice, control characters as visible C escapes.
std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : OneLine(s)) {
    if (c == '\'') q += '\'';
    q += c;
  }
  return q + "'";
}

// A file name must stay the same bytes: with a control character in it,
// gnuplot's double-quoted string, control characters as octal escapes,
// which gnuplot decodes; else single-quoted as usual.
std::string QuotePath(const std::string& s) {
  if (std::none_of(s.begin(), s.end(), [](char ch) {
        const auto c = static_cast<unsigned char>(ch);
        return c < 0x20 || c == 0x7F;
      }))
    return Quote(s);
  std::string q = "\"";
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      q += '\\';
      q += ch;
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\%03o", c);
      q += buf;
    } else {
      q += ch;
    }
  }
  return q + "\"";
}

// Datablock labels go in double quotes, where gnuplot decodes backslash
// escapes but has none for a quote: a backslash is doubled (so the C
// escapes of OneLine show as written) and a quote becomes '_'.
std::string DataLabel(const std::string& s) {
  std::string q = "\"";
  for (char c : OneLine(s)) {
    if (c == '"')
      q += '_';
    else if (c == '\\')
      q += "\\\\";
    else
      q += c;
  }
  return q + "\"";
}

std::string Num(std::optional<double> v) {
  if (!v || !std::isfinite(*v)) return "NaN";
  std::ostringstream os;
  os.precision(10);
  os << *v;
  return os.str();
}

bool ParseNumber(const std::string& s, double* out) {
  if (s.empty()) return false;
  char* end = nullptr;
  *out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(*out);
}

// Finds `prog` like execvp would; empty when missing.
std::string FindProgram(const std::string& prog) {
  if (prog.find('/') != std::string::npos) return access(prog.c_str(), X_OK) == 0 ? prog : "";
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::stringstream ss(p);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    std::string cand = dir;
    if (cand.empty()) cand.push_back('.');
    cand.push_back('/');
    cand += prog;
    struct stat st;
    if (stat(cand.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(cand.c_str(), X_OK) == 0)
      return cand;
  }
  return "";
}

struct Series {
  std::string label;
  std::string name;                                        // job name ("" = any)
  std::vector<std::pair<std::string, std::string>> fixed;  // other keys' values
  std::optional<std::string> dir;
};

}  // namespace

std::string PlotScriptPath(const std::string& image_path) {
  const size_t slash = image_path.rfind('/');
  const size_t dot = image_path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return image_path + ".gp";
  return image_path.substr(0, dot) + ".gp";
}

bool IsGnuplotMissing(const Status& s) {
  return s.code() == Status::Code::kUnsupported && s.message().rfind(kGnuplotMissing, 0) == 0;
}

Status CheckPlotName(const std::string& image_path) {
  if (EndsWith(image_path, ".svg") || EndsWith(image_path, ".png")) return Status::Ok();
  return Status::Invalid("--plot=" + image_path + ": the file name must end in .svg or .png");
}

Result<std::string> PlotScript(const json& doc, const PlotOptions& opts) {
  IOB_RETURN_IF_ERROR(CheckPlotName(opts.path));
  const bool svg = EndsWith(opts.path, ".svg");
  const auto keys = SweepKeys(doc);
  if (keys.empty())
    return Status::Invalid("--plot: nothing was swept; a plot needs --sweep KEY=...");
  const std::string x_key = opts.x_key.empty() ? keys[0] : opts.x_key;
  if (std::find(keys.begin(), keys.end(), x_key) == keys.end())
    return Status::Invalid("--plot: '" + x_key + "' is not a swept key");
  const auto jobs = AllJobs(doc);
  // Separate jobs sharing a name are separate series (table::JobLabels).
  const auto labels = JobLabels(jobs, keys);
  std::map<const json*, std::string> label_of;
  for (size_t i = 0; i < jobs.size(); ++i) label_of[jobs[i]] = labels[i];

  // x values in order of appearance, and the series.
  std::vector<std::string> xs;
  std::vector<std::string> names;
  std::vector<std::vector<std::pair<std::string, std::string>>> fixed_sets;
  for (const json* j : jobs) {
    std::vector<std::pair<std::string, std::string>> fixed;
    for (const auto& [k, v] : JobPoint(*j, keys)) {
      if (k == x_key) {
        if (std::find(xs.begin(), xs.end(), v) == xs.end()) xs.push_back(v);
      } else {
        fixed.emplace_back(k, v);
      }
    }
    if (std::find(fixed_sets.begin(), fixed_sets.end(), fixed) == fixed_sets.end())
      fixed_sets.push_back(fixed);
    const std::string& n = label_of[j];
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  }
  const auto views = DirectionViews(jobs);
  std::vector<Series> series;
  for (const auto& fixed : fixed_sets) {
    for (const auto& n : names) {
      for (const auto& view : views) {
        Series s;
        s.fixed = fixed;
        s.name = n;
        s.dir = view;
        for (const auto& [k, v] : fixed) s.label += (s.label.empty() ? "" : " ") + k + "=" + v;
        if (names.size() > 1 || s.label.empty()) s.label += (s.label.empty() ? "" : " ") + n;
        if (view) s.label += " " + *view;
        series.push_back(std::move(s));
      }
    }
  }
  std::vector<std::string> left_out;  // the points not plotted, and why
  auto value = [&](const Series& s, const std::string& x, TableMetric m) {
    std::vector<const json*> sel;
    for (const json* j : jobs) {
      if (label_of[j] != s.name) continue;
      auto pt = JobPoint(*j, keys);
      bool ok = std::find(pt.begin(), pt.end(), std::make_pair(x_key, x)) != pt.end();
      for (const auto& f : s.fixed) ok &= std::find(pt.begin(), pt.end(), f) != pt.end();
      if (ok) sel.push_back(j);
    }
    // A point whose job failed (the table's " !": its 0 is no
    // measurement) or that a signal cut short (" *": it ran only part of
    // its time) is left out, a gap in the line (NaN): plotted, "0" drew a
    // failed point as a real collapse of the throughput.
    if (std::any_of(sel.begin(), sel.end(), [](const json* j) { return JobError(j) != 0; }) ||
        std::any_of(sel.begin(), sel.end(), Interrupted)) {
      std::string why = x_key + "=" + x;
      for (const auto& [k, v] : s.fixed) why += " " + k + "=" + v;
      if (!s.name.empty() && names.size() > 1) why += " (" + s.name + ")";
      why += std::any_of(sel.begin(), sel.end(), [](const json* j) { return JobError(j) != 0; })
                 ? ": failed"
                 : ": interrupted";
      sys::AddUnique(&left_out, why);
      return std::optional<double>();
    }
    return AggregateMetric(sel, s.dir, m, &doc);
  };

  // Numeric x (log2 when doubling) or categories.
  bool numeric = true;
  std::vector<double> xv(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) numeric &= ParseNumber(xs[i], &xv[i]);
  bool doubling = numeric && xs.size() >= 3;
  for (size_t i = 1; doubling && i < xs.size(); ++i)
    doubling = xv[i - 1] > 0 && xv[i] == 2 * xv[i - 1];

  std::ostringstream metric_data, lat_data;
  bool any_metric = false, any_lat = false;
  for (const auto& x : xs) {
    // Numbers bare (gnuplot does not read a quoted number as one), labels quoted.
    const std::string xcell = numeric ? x : DataLabel(x);
    metric_data << xcell;
    lat_data << xcell;
    for (const auto& s : series) {
      auto v = value(s, x, opts.metric);
      any_metric |= v.has_value();
      metric_data << ' ' << Num(v);
      auto p50 = value(s, x, TableMetric::kClatP50), p99 = value(s, x, TableMetric::kClatP99);
      any_lat |= p50.has_value() || p99.has_value();
      lat_data << ' ' << Num(p50) << ' ' << Num(p99);
    }
    metric_data << '\n';
    lat_data << '\n';
  }
  if (!any_metric && !left_out.empty())
    return Status::Invalid("--plot: no point is plotted: every point failed or was interrupted (" +
                           sys::Join(left_out, "; ") + ")");
  if (!any_metric)
    return Status::Invalid(std::string("--plot: the results carry no ") +
                           TableMetricName(opts.metric) + " values");

  const size_t slash = opts.path.rfind('/');
  const std::string image = slash == std::string::npos ? opts.path : opts.path.substr(slash + 1);
  std::string title = TableMetricTitle(opts.metric);
  if (views.size() == 1 && !views[0]) {  // per-direction series name their direction
    std::set<std::string> dirs;
    for (const json* j : jobs)
      for (const auto& d : JobDirections(*j)) dirs.insert(d);
    if (dirs.size() == 1) title = *dirs.begin() + " " + title;
  }
  // gnuplot's default fonts may lack µ: write "usec" in the image.
  auto ascii_units = [](std::string s) {
    const std::string mu = "µs";
    for (size_t p; (p = s.find(mu)) != std::string::npos;) s.replace(p, mu.size(), "usec");
    return s;
  };
  const std::string x_col = numeric ? "1" : "0";
  const std::string xtic = numeric ? "" : ":xtic(1)";
  std::ostringstream gp;
  gp << "# iobench sweep plot. Re-draw with: gnuplot " << OneLine(PlotScriptPath(image)) << "\n";
  gp << "# (run it in this directory; the data below are the sweep's results)\n";
  // Said in the script and, as a key entry, in the image.
  for (const auto& l : left_out) gp << "# not plotted (NaN): " << OneLine(l) << "\n";
  gp << "set encoding utf8\n";
  if (svg)
    gp << "set terminal svg size 900,1000 dynamic noenhanced font 'sans,11' background rgb "
          "'white'\n";
  else
    gp << "set terminal pngcairo size 900,1000 noenhanced font 'sans,10'\n";
  gp << "set output " << QuotePath(image) << "\n";
  gp << "$metric << EOD\n" << metric_data.str() << "EOD\n";
  if (any_lat) gp << "$latency << EOD\n" << lat_data.str() << "EOD\n";
  const std::string description = DescribeJobs(doc);
  gp << "set multiplot layout " << (any_lat ? 2 : 1) << ",1 title "
     << Quote(ascii_units(description)) << "\n";
  gp << "set grid\nset key outside right top\nset datafile missing 'NaN'\n";
  gp << "set xlabel " << Quote(x_key) << "\n";
  if (doubling) gp << "set logscale x 2\n";
  if (!numeric) gp << "set offsets 0.25, 0.25, 0, 0\n";
  const std::string gaps =
      left_out.empty() ? ""
                       : " (" + std::to_string(left_out.size()) + " not plotted: " +
                             (left_out.size() == 1 ? left_out.front()
                                                   : "failed or interrupted, see the script") +
                             ")";
  gp << "set title " << Quote(ascii_units(title) + " vs " + x_key + gaps) << "\n";
  gp << "set ylabel " << Quote(ascii_units(TableMetricTitle(opts.metric))) << "\n";
  gp << "set yrange [0:*]\n";
  gp << "plot ";
  for (size_t i = 0; i < series.size(); ++i) {
    gp << (i ? ", \\\n     " : "") << "$metric using " << x_col << ":" << (i + 2) << xtic
       << " with linespoints lw 2 pt 7 lc " << (i + 1) << " title " << Quote(series[i].label);
  }
  gp << "\n";
  if (any_lat) {
    gp << "set title " << Quote("completion latency p50 (dashed) and p99 (solid) vs " + x_key)
       << "\n";
    gp << "set ylabel 'usec'\nset yrange [*:*]\nset logscale y\n";
    gp << "plot ";
    for (size_t i = 0; i < series.size(); ++i) {
      gp << (i ? ", \\\n     " : "") << "$latency using " << x_col << ":" << (2 * i + 2) << xtic
         << " with linespoints dt 2 pt 6 lc " << (i + 1) << " title "
         << Quote(series[i].label + " p50") << ", \\\n     $latency using " << x_col << ":"
         << (2 * i + 3) << xtic << " with linespoints lw 2 pt 7 lc " << (i + 1) << " title "
         << Quote(series[i].label + " p99");
    }
    gp << "\n";
  }
  gp << "unset multiplot\n";
  return gp.str();
}

Status WritePlot(const json& doc, const PlotOptions& opts) {
  IOB_ASSIGN_OR_RETURN(std::string script, PlotScript(doc, opts));
  const std::string gp_path = PlotScriptPath(opts.path);
  {
    // write(2), for the errno (a full file system said only "cannot
    // write"); a script cut short is removed (a regular file only), not
    // left for gnuplot.
    const int fd = open(gp_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    auto cannot = [&gp_path](int e) {
      return Status(Status::Code::kIoError,
                    "--plot: cannot write " + gp_path + ": " + std::strerror(e), e);
    };
    if (fd < 0) return cannot(errno);
    struct stat st {};
    const bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    const int err = sys::WriteAll(fd, script);
    if (close(fd) != 0 || err != 0) {
      Status failed = cannot(err != 0 ? err : errno);
      if (regular) unlink(gp_path.c_str());  // never a device the path names
      return failed;
    }
  }
  const std::string prog = FindProgram(opts.gnuplot);
  if (prog.empty())
    return Status(Status::Code::kUnsupported, std::string(kGnuplotMissing) + " (the script " +
                                                  gp_path + " was written; run it with gnuplot)");

  const size_t slash = gp_path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : gp_path.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? gp_path : gp_path.substr(slash + 1);
  // The script names the image without a directory, so that it can be
  // re-run where it lies; run gnuplot there.
  IOB_ASSIGN_OR_RETURN(sys::SpawnResult run, sys::RunCaptured({prog, base}, dir, "--plot"));
  std::string output = std::move(run.output);
  if (run.exit_code != 0) {
    while (!output.empty() && output.back() == '\n') output.pop_back();
    return Status(Status::Code::kIoError, "--plot: gnuplot " + gp_path + " failed" +
                                              (output.empty() ? "" : ":\n" + output));
  }
  return Status::Ok();
}

}  // namespace iobench
