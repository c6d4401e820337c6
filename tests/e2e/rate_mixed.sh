#!/usr/bin/env bash
# Mixed jobs with a different rate per direction, against fio 3.33 on the
# same job (null engine, count-based: number_ios). fio's rate_ddir lends a
# direction's turn to the other when it is ahead of its rate, so each
# direction runs at its own rate whatever rwmixread draws:
#   randrw rwmixread=50 rate_iops=300,100 number_ios=400 -> 300 reads, 100 writes
#   rw rwmixread=30 rate=1m,512k bs=4k number_ios=600    -> 400 reads, 200 writes
# Waiting for the drawn direction instead gives about 200/200 and 180/420.
# The bounds leave room for a loaded machine (an oversleep makes both
# directions due, and then the draw stands). $1: iobench binary.
set -u
bin=$1
tmp=$(mktemp -d /tmp/iobench_rm.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
common=(--name=t --ioengine=null --size=1g --bs=4k --output-format=json)
a=(--rw=randrw --rwmixread=50 --rate_iops=300,100 --number_ios=400)
b=(--rw=rw --rwmixread=30 --rate=1m,512k --number_ios=600)
tools=("$bin")
command -v fio >/dev/null && tools+=(fio) || echo "note: fio not installed, iobench only"
pids=()
for t in "${tools[@]}"; do
  n=$(basename "$t")
  "$t" "${common[@]}" "${a[@]}" >"$tmp/$n.a.json" 2>"$tmp/$n.a.err" &
  pids+=($!)
  "$t" "${common[@]}" "${b[@]}" >"$tmp/$n.b.json" 2>"$tmp/$n.b.err" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || fail "a run exited non-zero: $(cat "$tmp"/*.err)"; done
counts() {
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]
print(j["read"]["total_ios"], j["write"]["total_ios"])' "$1" || fail "no JSON in $1"
}
for t in "${tools[@]}"; do
  n=$(basename "$t")
  read -r r w < <(counts "$tmp/$n.a.json")
  echo "$n randrw 50% rate_iops=300,100: $r reads, $w writes"
  [ $((r + w)) -eq 400 ] || fail "$n: $((r + w)) I/Os, want 400"
  [ "$r" -ge 260 ] || fail "$n: $r reads of 400, want >= 260 (300 at the rates)"
  read -r r w < <(counts "$tmp/$n.b.json")
  echo "$n rw 30% rate=1m,512k: $r reads, $w writes"
  [ $((r + w)) -eq 600 ] || fail "$n: $((r + w)) I/Os, want 600"
  [ "$r" -ge 340 ] || fail "$n: $r reads of 600, want >= 340 (400 at the rates)"
done
echo ok
