#!/bin/bash
# End to end: the iobench binary writes every fio-compatible format for a
# null-engine job with exact counts, and fio's own json+ tool reads it.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
set -u
bin=$1

if ! "$bin" --help 2>&1 | grep -q -- '--output-format'; then
  echo "skip: this iobench binary has no --output-format option yet"
  exit 77
fi
tmp=$(mktemp -d /tmp/iobench_e2e_report.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
job=(--name=t --ioengine=null --size=1m --bs=4k --rw=randread --number_ios=100)

fail() { echo "FAIL: $*"; exit 1; }

"$bin" "${job[@]}" --output-format=json+ --output="$tmp/out.json" || fail "json+ run exited $?"
python3 - "$tmp/out.json" <<'PY' || fail "json+ content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["fio version"].startswith("iobench-"), d["fio version"]
r = d["jobs"][0]["read"]
assert r["total_ios"] == 100, r["total_ios"]
assert r["io_bytes"] == 100 * 4096, r["io_bytes"]
assert sum(r["clat_ns"]["bins"].values()) == 100
PY

if command -v fio_jsonplus_clat2csv >/dev/null 2>&1; then
  fio_jsonplus_clat2csv "$tmp/out.json" "$tmp/lat.csv" || fail "fio_jsonplus_clat2csv exited $?"
  [ -s "$tmp/lat_job0.csv" ] || fail "fio_jsonplus_clat2csv wrote no CSV"
  fio_jsonplus_clat2csv --validate "$tmp/out.json" "$tmp/lat.csv" || fail "CSV does not validate"
else
  echo "note: fio_jsonplus_clat2csv not installed (Debian package fio); not checked"
fi

"$bin" "${job[@]}" --output-format=terse > "$tmp/terse.txt" || fail "terse run exited $?"
fields=$(tail -n1 "$tmp/terse.txt" | awk -F';' '{print NF}')
[ "$fields" -ge 121 ] || fail "terse has $fields fields, want >= 121"
[ "$(tail -n1 "$tmp/terse.txt" | cut -d';' -f1)" = 3 ] || fail "terse version is not 3"

"$bin" "${job[@]}" --output-format=normal,json > "$tmp/both.txt" || fail "normal,json exited $?"
grep -q '^iobench-' "$tmp/both.txt" || fail "normal output does not start with iobench-VERSION"
grep -q '^  read: IOPS=' "$tmp/both.txt" || fail "no read: IOPS= line"
grep -q '^     issued rwts: total=100,0,0,0 ' "$tmp/both.txt" || fail "issued rwts is not 100"
grep -q '^Run status group 0 (all jobs):' "$tmp/both.txt" || fail "no Run status line"
grep -q '"fio version"' "$tmp/both.txt" || fail "no JSON after the normal output"

# A job name that is not UTF-8 is refused before the run (exit 2, the byte
# named); the JSON writer's own replacement of such bytes is a unit test
# (ReportJsonTest, "bad\xff").
"$bin" --name=$'bad\xff' --ioengine=null --size=64k --output-format=json > "$tmp/utf.json" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "byte 0xFF is not UTF-8" "$tmp/utf.json" ||
  fail "non-UTF-8 job name: exit $rc: $(head -c 200 "$tmp/utf.json")"

# fio writes its formats in a fixed order, whatever --output-format says:
# terse, then json, then normal.
"$bin" "${job[@]}" --output-format=normal,json,terse > "$tmp/all.txt" || fail "all formats: $?"
order=$(grep -n -m1 '^3;' "$tmp/all.txt" | cut -d: -f1),$(grep -n -m1 '^{' "$tmp/all.txt" | cut -d: -f1),$(grep -n -m1 '^Run status' "$tmp/all.txt" | cut -d: -f1)
IFS=, read -r t j n <<<"$order"
[ -n "$t" ] && [ -n "$j" ] && [ -n "$n" ] && [ "$t" -lt "$j" ] && [ "$j" -lt "$n" ] ||
  fail "formats not in fio's order terse,json,normal (lines $order)"
# ... but the normal format's header lines (version, context, one line per
# job) come first: fio prints them as the jobs start.
head -n1 "$tmp/all.txt" | grep -q '^iobench-' || fail "all formats: the first line is not iobench-VERSION"
hdr=$(grep -n -m1 ': (g=0): rw=' "$tmp/all.txt" | cut -d: -f1)
[ -n "$hdr" ] && [ "$hdr" -lt "$t" ] || fail "all formats: the job header line ($hdr) is not before terse ($t)"
[ "$(grep -c ': (g=0): rw=' "$tmp/all.txt")" = 1 ] || fail "all formats: the job header line is printed more than once"

# fio's --minimal and --terse-version (2..5): the layout's field count, and
# --minimal / --output-format: the later wins.
for v in 2:161 3:121 4:162 5:180; do
  "$bin" "${job[@]}" --minimal --terse-version="${v%%:*}" > "$tmp/t.txt" 2>"$tmp/t.err" ||
    fail "--terse-version=${v%%:*} exited $?"
  [ ! -s "$tmp/t.err" ] || fail "--terse-version=${v%%:*} wrote to stderr: $(cat "$tmp/t.err")"
  n=$(head -n1 "$tmp/t.txt" | awk -F';' '{print NF}')
  [ "$n" = "${v##*:}" ] || fail "terse v${v%%:*} has $n fields, want ${v##*:}"
  [ "$(head -n1 "$tmp/t.txt" | cut -d';' -f1)" = "${v%%:*}" ] || fail "terse v${v%%:*}: version field"
done
"$bin" "${job[@]}" --minimal --output-format=json | grep -q '"fio version"' ||
  fail "--minimal then --output-format=json is not JSON"
"$bin" "${job[@]}" --output-format=json --minimal | grep -q '^3;' ||
  fail "--output-format=json then --minimal is not terse"
# --append-terse adds terse to the formats given before it (fio 3.33).
"$bin" "${job[@]}" --append-terse > "$tmp/at.txt" || fail "--append-terse exited $?"
grep -q '^3;' "$tmp/at.txt" && grep -q '^Run status' "$tmp/at.txt" ||
  fail "--append-terse: want normal and terse"
"$bin" "${job[@]}" --append-terse --output-format=json > "$tmp/at.txt" || fail "--append-terse json"
grep -q '^3;' "$tmp/at.txt" && fail "--append-terse then --output-format=json: want JSON only"
n=$("$bin" "${job[@]}" --output-format=terse,terse --append-terse | grep -c '^3;')
[ "$n" = 1 ] || fail "terse named three times printed $n lines, want 1"
if "$bin" "${job[@]}" --terse-version=6 > /dev/null 2>"$tmp/t.err"; then
  fail "--terse-version=6 accepted"
fi
grep -q 'terse-version=6' "$tmp/t.err" || fail "--terse-version=6: no message naming it"
echo "ok"
