# Sourced by the e2e scripts that run fio 3.33 on the same job to compare,
# where they can also check iobench alone.
# fio_side: true when fio's side runs: fio is installed and IOBENCH_TEST_FIO
# is not 0 (the asan and tsan test presets set 0: fio's output does not
# change under a sanitizer, and the release stage compares).
fio_side() { [ "${IOBENCH_TEST_FIO:-1}" != 0 ] && command -v fio >/dev/null; }

# job_counts ERRFILE TOOL ARGS...: runs TOOL with JSON output and prints
# "error r_ios r_bytes w_ios w_bytes sync_ios" of its first job; stderr goes
# to ERRFILE. Works for iobench and fio alike (text before the JSON skipped).
job_counts() {
  local err=$1 tool=$2
  shift 2
  "$tool" --output-format=json "$@" 2>"$err" | python3 -c '
import json, sys
t = sys.stdin.read()
j = json.loads(t[t.find("{"):])["jobs"][0]
print(j["error"], j["read"]["total_ios"], j["read"]["io_bytes"], j["write"]["total_ios"],
      j["write"]["io_bytes"], j["sync"]["total_ios"])'
}

# tools: the tools a comparing loop runs, "iob" and (when fio's side runs)
# "fio"; cmd TOOL: the command for one of them ($bin, the iobench binary the
# script was given, for iob).
tools() {
  echo iob
  fio_side && echo fio
}
cmd() { if [ "$1" = fio ]; then echo fio; else echo "$bin"; fi; }

# depth_counts TOOL: reads TOOL's JSON report on stdin and prints the I/Os
# in each IO depths bucket of its first job (1 2 4 8 16 32 >=64, from the
# percentages) and "syncs=N". fio divides by the reads, writes and trims;
# iobench by all it counted, syncs included.
depth_counts() {
  python3 -c '
import json, sys
t = sys.stdin.read()
j = json.loads(t[t.find("{"):])["jobs"][0]
ios = sum(j[d]["total_ios"] for d in ("read", "write", "trim"))
syncs = j["sync"]["lat_ns"]["N"]
total = ios if sys.argv[1] == "fio" else ios + syncs
lv = j["iodepth_level"]
print(" ".join(str(round(lv[k] * total / 100)) for k in ("1", "2", "4", "8", "16", "32", ">=64")),
      "syncs=%d" % syncs)' "$1"
}

# check NAME WANT ARGS...: `run TOOL ARGS...` (the script's own) must print
# WANT with each tool; a mismatch shows the tool's stderr (err.txt).
check() {
  local name=$1 want=$2 t got
  shift 2
  for t in $(tools); do
    got=$(run "$t" "$@")
    [ "$got" = "$want" ] || echo "$t $name: stderr: $(head -c 300 err.txt)"
    expect_eq "$t $name" "$got" "$want"
  done
}
