#!/bin/bash
# ctest-labels: threads
# Issue 8: interim reports through the binary (null engine).
#  - --status-interval=1 on a 3 s run with JSON: >= 2 interim lines and the
#    final one, each a valid JSON document (JSON Lines), in --output too,
#    whose floats all have 6 decimals (fio's %f), interim lines included;
#  - --status-interval-mode=interval: the per-interval total_ios add up to
#    the final count exactly;
#  - SIGUSR1 to a running iobench prints an interim report;
#  - an interim normal report's cpu/IO line says it leaves helper CPU out,
#    and an interim JSON record has helpers null and cpu_scope own_threads.
# $1: iobench binary, $2: source dir.
set -u
bin=$(realpath "$1")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
job=(--name=s --ioengine=null --rw=read --bs=4k --size=1G --rate_iops=20000 --time_based
  --runtime=3)

before_ms=$(date +%s%3N)
"$bin" --status-interval=1 --output-format=json "${job[@]}" >cum.jsonl || fail "exit $?"
"$bin" --status-interval=1 --status-interval-mode=interval --output-format=json \
  --output=iv.jsonl "${job[@]}" >iv.stdout || fail "interval run exit $?"
python3 - "$before_ms" <<'PY' || exit 1
import json, sys
def docs(path):
    lines = [l for l in open(path).read().split("\n") if l]
    return [json.loads(l) for l in lines]
cum = docs("cum.jsonl")
assert len(cum) >= 3, ("want >= 2 interim + final", len(cum))
ios = [d["jobs"][0]["read"]["total_ios"] for d in cum]
assert ios == sorted(ios), ("cumulative reports must not go down", ios)
assert ios[-1] > 0
# Interim records measure the job's own threads only: no kernel helpers
# (null, not zeros that read as measured) and cpu_scope says so; the final
# record has both (docs/cpu-accounting.md).
for d in cum[:-1]:
    ib = d["jobs"][0]["iobench"]
    assert ib["helpers"] is None and ib["cpu_scope"] == "own_threads", ib
ib = cum[-1]["jobs"][0]["iobench"]
assert isinstance(ib["helpers"], dict) and ib["cpu_scope"] == "own_threads_and_helpers", ib
# Each report carries the time it was made (fio's "timestamp"), not the
# run's start: the first interim report comes >= 1 s after the start, the
# final one >= 3 s (runtime=3), and the times never go back.
before = int(sys.argv[1])
ts = [d["timestamp_ms"] for d in cum]
assert ts == sorted(ts) and ts[0] >= before + 1000 and ts[-1] >= before + 3000, ("times", before, ts)
assert all(d["timestamp"] == d["timestamp_ms"] // 1000 for d in cum), ts
iv = docs("iv.jsonl")
assert len(iv) >= 4, ("want >= 2 intervals, the tail and the final", len(iv))
parts = [d["jobs"][0]["read"]["total_ios"] for d in iv[:-1]]
final = iv[-1]["jobs"][0]["read"]["total_ios"]
assert sum(parts) == final, ("intervals", parts, "sum", sum(parts), "final", final)
print("cumulative", ios, "intervals", parts, "final", final)
# Floats with 6 decimals, fio's "%f", in the interim lines as in the final
# one (docs/status.md): interim lines printed "mean":656.7425742574258.
for path in ("cum.jsonl", "iv.jsonl"):
    for k, l in enumerate(l for l in open(path).read().split("\n") if l):
        raw = []
        json.loads(l, parse_float=lambda s: raw.append(s) or 0.0)
        bad = [f for f in raw if len(f.split(".")[1]) != 6 or "e" in f.lower()]
        assert raw and not bad, (path, "line", k + 1, "floats not %f:", bad[:5])
print("floats with 6 decimals in every line")
PY
[ -s iv.stdout ] && fail "with --output nothing but the status line may go to stdout: $(head -c 300 iv.stdout)"

# SIGUSR1: an interim report now.
# The reports go to --output, the status line (--eta=always) to stdout.
"$bin" --output-format=json --output=usr1.jsonl --eta=always --eta-interval=250ms "${job[@]}" \
  --runtime=4 >usr1.status &
pid=$!
# Signal once the job has done I/O: its status line shows a read rate. (A
# thread count was used before, but TSan's runtime has a thread of its own
# from the start: under TSan on a loaded machine the signal came before the
# job ran, and the interim report had 0 I/Os.) The handlers are installed
# before the workers start, so this also never turns into a SIGUSR1 kill.
for _ in $(seq 400); do
  tr '\r' '\n' <usr1.status | grep -aq '\]\[r=[1-9]' && break
  sleep 0.05
done
kill -USR1 "$pid"
wait "$pid" || fail "SIGUSR1 run exit $?"
python3 - <<'PY' || exit 1
import json
lines = [l for l in open("usr1.jsonl").read().split("\n") if l]
assert len(lines) == 2, ("want the interim report and the final one", len(lines))
a, b = (json.loads(l) for l in lines)
ia, ib = a["jobs"][0]["read"]["total_ios"], b["jobs"][0]["read"]["total_ios"]
assert 0 < ia < ib, (ia, ib)
print("SIGUSR1 ok", ia, ib)
PY
# Normal format: the interim report is a full fio-style report.
"$bin" --status-interval=1 "${job[@]}" --runtime=2 >normal.txt || fail "normal run exit $?"
n=$(grep -c '^s: (groupid=0, jobs=1)' normal.txt)
[ "$n" -ge 2 ] || fail "want >= 2 reports in normal output, got $n: $(head -20 normal.txt)"
# fio prints the header lines once, before the first report; each later
# report starts with a blank line.
[ "$(grep -c '^iobench-' normal.txt)" = 1 ] || fail "context line not printed exactly once"
[ "$(grep -c '^s: (g=0)' normal.txt)" = 1 ] || fail "job line not printed exactly once"
[ "$(grep -B1 '^s: (groupid=0' normal.txt | grep -c '^$')" = "$n" ] ||
  fail "a report does not start with a blank line"
# Interim figures leave the kernel helpers' CPU out (sampled at the end
# only): each interim cpu/IO line says so, the final one counts them.
labels=$(grep -o 'cpu/IO .*(.*)' normal.txt | sed 's/.*(//')
[ "$(echo "$labels" | head -n -1 | sort -u)" = \
  "own threads only; kernel helpers in the final report)" ] ||
  fail "interim cpu/IO labels: $labels"
[ "$(echo "$labels" | tail -1)" = "own threads and kernel helpers)" ] ||
  fail "final cpu/IO label: $labels"

# Disk statistics in interim reports, as fio gives them: direct writes to a
# scratch file here (on a disk unless this directory is on tmpfs or an
# overlay); each interval's disk ios add up to the final ones.
"$bin" --status-interval=1 --status-interval-mode=interval --output-format=json --name=d \
  --filename=disk.scratch --size=4m --rw=write --bs=4k --direct=1 --rate_iops=400 --time_based \
  --runtime=2 >disk.jsonl || fail "disk run exit $?"
python3 - <<'PY' || exit 1
import json
docs = [json.loads(l) for l in open("disk.jsonl").read().split("\n") if l]
final = docs[-1]
if not final.get("disk_util"):
    print("no disk under", "this directory: disk check skipped")
    raise SystemExit(0)
names = [d["name"] for d in final["disk_util"]]
for i, d in enumerate(docs[:-1]):
    assert [x["name"] for x in d.get("disk_util", [])] == names, ("interim", i, d.get("disk_util"))
parts = sum(d["disk_util"][0]["write_ios"] for d in docs[:-1])
assert parts == final["disk_util"][0]["write_ios"], (parts, final["disk_util"][0])
assert final["disk_util"][0]["write_ios"] >= 400, final["disk_util"][0]
print("disk_util in", len(docs) - 1, "interim reports, write ios add up:", parts)
PY
rm -f disk.scratch

# A sweep with --repeat: each interim record names its point and which run
# of the repeats it belongs to (iobench.repeat {run, n}); the final record
# holds the medians, so it names no run (each job's repeat.n says how many).
# The interim records of a repeat said nothing of which run they were.
"$bin" --name=r --ioengine=null --size=1g --rw=read --rate_iops=2000 --time_based \
  --runtime=700ms --sweep iodepth=1,2 --repeat=2 --status-interval=500ms \
  --output-format=json >rep.jsonl 2>rep.err || fail "sweep with repeat: exit $?: $(cat rep.err)"
[ -s rep.err ] && fail "sweep with repeat: stderr: $(cat rep.err)"
python3 - <<'PY' || fail "sweep with repeat: interim records"
import json
docs = [json.loads(l) for l in open("rep.jsonl") if l.strip()]
interim = [d for d in docs if "repeat" in d["iobench"]]
seen = [(d["iobench"]["point"]["iodepth"], d["iobench"]["repeat"]["run"]) for d in interim]
assert sorted(set(seen)) == [("1", 1), ("1", 2), ("2", 1), ("2", 2)], seen
assert all(d["iobench"]["repeat"]["n"] == 2 for d in interim), interim[0]["iobench"]
finals = [d for d in docs if "repeat" not in d["iobench"]]
assert finals and all(j["iobench"]["repeat"]["n"] == 2 for d in finals for j in d["jobs"]), finals
print("interim records name point and run:", seen)
PY
# The normal format: the header of a run's interim reports says which run it
# is; a final block has its "=== repeat k/N ===" label and says it once.
"$bin" --name=r --ioengine=null --size=1g --rw=read --rate_iops=2000 --time_based \
  --runtime=700ms --repeat=2 --status-interval=500ms >rep.txt 2>rep.err || fail "normal repeat: exit $?"
[ "$(grep -c '^repeat [12]/2$' rep.txt)" = 2 ] || fail "normal repeat: interim headers: $(grep -n repeat rep.txt)"
"$bin" --name=r --ioengine=null --size=64m --rw=read --repeat=2 >rep1.txt 2>rep.err || fail "normal repeat: exit $?"
[ "$(grep -c 'repeat 1/2' rep1.txt)" = 1 ] || fail "normal repeat, no interim: $(grep -n repeat rep1.txt)"
echo ok
