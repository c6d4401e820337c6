#!/bin/bash
# ctest-cost: 30
# fio parity of the report formats: the same job files run by fio 3.33 and
# by iobench, and the documents compared.
#   json, json+: every key fio writes exists at the same path with the same
#     JSON type (int, float, string, object, array) and in the same order;
#     the counts that do not depend on timing (total_ios, io_bytes, short and
#     dropped I/Os, N, job and group numbers, names, error, job and global
#     options, latency target fields) are equal.
#   terse v2..v5: the same number of fields, the same shape in each (integer,
#     %f float, percentage, "p%=v" with the same percentile).
#   fio_jsonplus_clat2csv: the same CSV header for both json+ documents.
# Only the null engine and small files on tmpfs: quick and deterministic.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
set -u
bin=$1

command -v fio >/dev/null 2>&1 || { echo "skip: fio is not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "skip: no python3"; exit 77; }
base=/dev/shm
[ -d "$base" ] && [ -w "$base" ] || base=/tmp
tmp=$(mktemp -d "$base/iobench_e2e_parity.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }

mkdir -p "$tmp/jobs" "$tmp/fio" "$tmp/ib"
cat >"$tmp/jobs/read.fio" <<EOF
[global]
ioengine=null
size=4m
bs=4k
[r]
rw=read
EOF
cat >"$tmp/jobs/trim.fio" <<EOF
[t]
ioengine=null
size=4m
bs=4k
rw=trim
EOF
cat >"$tmp/jobs/readwrite.fio" <<EOF
[global]
ioengine=null
size=4m
bs=4k
[rw]
rw=readwrite
rwmixread=30
EOF
cat >"$tmp/jobs/numjobs.fio" <<EOF
[global]
ioengine=null
size=2m
bs=4k
[a]
rw=write
numjobs=3
EOF
cat >"$tmp/jobs/numjobs_gr.fio" <<EOF
[global]
ioengine=null
size=2m
bs=4k
group_reporting
[a]
rw=write
numjobs=3
EOF
cat >"$tmp/jobs/group_reporting.fio" <<EOF
[global]
ioengine=null
size=2m
group_reporting=1
[a]
rw=read
description=job a
[b]
rw=write
bs=8k
[c]
stonewall
rw=randread
numjobs=2
EOF
# group_reporting on some jobs of a group: fio merges per job (a's two
# clones into one record, b on its own).
cat >"$tmp/jobs/gr_some.fio" <<EOF
[global]
ioengine=null
size=1m
bs=4k
[a]
rw=read
numjobs=2
group_reporting
[b]
rw=write
EOF
cat >"$tmp/jobs/groups.fio" <<EOF
[global]
ioengine=null
size=2m
bs=4k
kb_base=1024
[a]
rw=read
description=first job
[b]
stonewall
rw=write
[c]
new_group
rw=randread
percentile_list=50:99
EOF
cat >"$tmp/jobs/psync.fio" <<EOF
[global]
ioengine=psync
filename=$tmp/data
size=1m
bs=4k
[w]
rw=write
lat_percentiles=1
[r]
stonewall
rw=randread
clat_percentiles=0
EOF

for j in "$tmp"/jobs/*.fio; do
  b=$(basename "$j" .fio)
  for f in json json+; do
    fio --output-format=$f --output="$tmp/fio/$b.$f" "$j" >/dev/null 2>&1 ||
      { fail "fio $b $f"; continue; }
    "$bin" --output-format=$f --output="$tmp/ib/$b.$f" "$j" >/dev/null 2>"$tmp/ib/$b.err" ||
      fail "iobench $b $f: exit $?: $(head -c 300 "$tmp/ib/$b.err")"
  done
  case $b in read | groups | psync) ;; *) continue ;; esac  # terse: a few suffice
  for v in 2 3 4 5; do
    fio --output-format=terse --terse-version=$v "$j" >"$tmp/fio/$b.t$v" 2>/dev/null
    "$bin" --output-format=terse --terse-version=$v "$j" >"$tmp/ib/$b.t$v" 2>/dev/null
  done
done

# A command-line job (options in written order, --name listed).
cli=(--name=cli --filename="$tmp/cli" --ioengine=null --size=1m --rw=write --bs=8k)
fio --output-format=json --output="$tmp/fio/cli.json" "${cli[@]}" >/dev/null 2>&1 || fail "fio cli"
"$bin" --output-format=json --output="$tmp/ib/cli.json" "${cli[@]}" >/dev/null 2>&1 ||
  fail "iobench cli: exit $?"

# Percentile labels carry the decimals as typed (fio: "99.90" gives two).
for l in 50:99.90 50.0:99 50:99.9 50:99; do
  lab=(--name=lab --ioengine=null --size=64k --bs=4k --percentile_list=$l)
  f=$(fio "${lab[@]}" 2>/dev/null | grep -o '[0-9.]*th=' | tr '\n' ' ')
  i=$("$bin" "${lab[@]}" 2>/dev/null | grep -o '[0-9.]*th=' | tr '\n' ' ')
  [ -n "$f" ] && [ "$f" = "$i" ] || fail "percentile_list=$l labels: fio '$f', iobench '$i'"
done

python3 - "$tmp" <<'PY' || failed=1
import glob, json, os, re, sys

tmp = sys.argv[1]
# Keys whose values do not depend on timing, for these jobs.
EXACT = {"total_ios", "io_bytes", "io_kbytes", "short_ios", "drop_ios", "N", "jobname",
         "groupid", "error", "job options", "global options", "latency_depth",
         "latency_target", "latency_percentile", "latency_window", "desc"}
# rwmixread splits by a random draw per I/O: fio's generator is not ours.
MIXED_COUNTS = {"total_ios", "io_bytes", "io_kbytes", "N"}
problems = []

def kind(v):
    return {bool: "bool", int: "int", float: "float", str: "string", list: "array",
            dict: "object"}.get(type(v), "null")

def walk(f, i, path, key, where):
    if kind(f) != kind(i):
        problems.append(f"{where}: {path}: fio has {kind(f)} {json.dumps(f)[:40]}, "
                        f"iobench {kind(i)} {json.dumps(i)[:40]}")
        return
    if key in EXACT and f != i and not (where.startswith("readwrite") and key in MIXED_COUNTS):
        problems.append(f"{where}: {path}: fio {json.dumps(f)[:120]} iobench {json.dumps(i)[:120]}")
    if isinstance(f, dict):
        if key == "bins":  # keys are latencies: measured
            return
        for k in f:
            if k not in i:
                problems.append(f"{where}: {path}/{k}: missing")
            else:
                walk(f[k], i[k], f"{path}/{k}", k, where)
        ours = [k for k in i if k in f]
        if ours != list(f):
            problems.append(f"{where}: {path}: key order {ours} vs fio {list(f)}")
    elif isinstance(f, list):
        if len(f) != len(i):
            problems.append(f"{where}: {path}: {len(i)} entries, fio {len(f)}")
        for n, (a, b) in enumerate(zip(f, i)):
            walk(a, b, f"{path}[{n}]", key, where)

def shape(x):
    if re.fullmatch(r"\d+", x): return "int"
    if re.fullmatch(r"-?\d+\.\d{6}", x): return "float"
    if re.fullmatch(r"\d+\.\d+%", x): return "pct"
    m = re.fullmatch(r"(\d+(?:\.\d+)?%)=\d+", x)
    if m: return "pct=" + m.group(1)
    return "string"

for p in sorted(glob.glob(f"{tmp}/fio/*.json*")):
    name = os.path.basename(p)
    q = f"{tmp}/ib/{name}"
    if not os.path.exists(q):
        problems.append(f"{name}: iobench wrote nothing")
        continue
    walk(json.load(open(p)), json.load(open(q)), "", "", name)

# The text layout too (greps and awk scripts read it): with numbers and
# strings masked and trailing commas dropped, fio's lines appear in ours in
# the same order (ours add the "iobench" blocks).
def masked(path):
    out = []
    for line in open(path).read().split("\n"):
        line = re.sub(r'"(fio version|time|jobname|name|desc|filename)" : ".*"', r'"\1" : S', line)
        out.append(re.sub(r"-?\d+(\.\d+)?", "N", line).rstrip(","))
    return out

for p in sorted(glob.glob(f"{tmp}/fio/*.json")):
    name = os.path.basename(p)
    ours, k = masked(f"{tmp}/ib/{name}"), 0
    for line in masked(p):
        while k < len(ours) and ours[k] != line:
            k += 1
        if k == len(ours):
            problems.append(f"{name}: fio's line {line.strip()!r} is not laid out the same in ours")
            break
        k += 1

for p in sorted(glob.glob(f"{tmp}/fio/*.t[2-5]")):
    name = os.path.basename(p)
    a = [l for l in open(p).read().split("\n") if l]
    b = [l for l in open(f"{tmp}/ib/{name}").read().split("\n") if l]
    if len(a) != len(b):
        problems.append(f"{name}: {len(b)} lines, fio {len(a)}")
    for n, (x, y) in enumerate(zip(a, b)):
        fx, fy = x.split(";"), y.split(";")
        if len(fx) != len(fy):
            problems.append(f"{name} line {n}: {len(fy)} fields, fio {len(fx)}")
            continue
        skip = {1} if fx[0] == "2" else {1, 2}  # version string, job name
        for k, (u, v) in enumerate(zip(fx, fy)):
            if k not in skip and shape(u) != shape(v):
                problems.append(f"{name} line {n} field {k}: '{v}' ({shape(v)}), fio '{u}' ({shape(u)})")

for line in problems[:60]:
    print("FAIL:", line)
if len(problems) > 60:
    print(f"... {len(problems) - 60} more")
sys.exit(1 if problems else 0)
PY

if command -v fio_jsonplus_clat2csv >/dev/null 2>&1; then
  for b in readwrite psync; do
    fio_jsonplus_clat2csv "$tmp/fio/$b.json+" "$tmp/fio/$b.csv" >/dev/null 2>&1 ||
      { fail "fio_jsonplus_clat2csv on fio's $b.json+"; continue; }
    fio_jsonplus_clat2csv "$tmp/ib/$b.json+" "$tmp/ib/$b.csv" >/dev/null 2>&1 ||
      { fail "fio_jsonplus_clat2csv on our $b.json+"; continue; }
    for c in "$tmp"/fio/"$b"_job*.csv; do
      o="$tmp/ib/$(basename "$c")"
      [ -s "$o" ] || { fail "$b: no $(basename "$c") from our json+"; continue; }
      [ "$(head -n1 "$c")" = "$(head -n1 "$o")" ] || fail "$b: CSV header differs from fio's"
    done
  done
else
  echo "note: fio_jsonplus_clat2csv not installed; CSV not compared"
fi

[ "$failed" = 0 ] || exit 1
echo "ok"
