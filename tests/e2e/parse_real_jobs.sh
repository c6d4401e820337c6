#!/bin/bash
# Runs `iobench --parse-only` over every job file in jobs/ (with the seed
# knobs set) and over fio's example job files when installed. Every file of
# ours must parse (exit 0). A fio example either parses, or fails with exit 2
# and a message that names what is unsupported; a crash (exit > 2) fails.
# args: $1 = iobench binary, $2 = source dir
set -u
bin=$1
src=$2
fail=0

export IOB_DIR=/tmp IOB_DEV=/dev/null IOB_SIZE=64m IOB_RUNTIME=1s IOB_IODEPTH=32
for f in "$src"/jobs/*.fio "$src"/jobs/*/*.fio; do
  [ -e "$f" ] || continue
  if ! out=$("$bin" --parse-only "$f" 2>&1); then
    echo "FAIL: $f did not parse:"
    echo "$out"
    fail=1
  fi
  # JSON form too
  if ! "$bin" --parse-only --output-format=json "$f" >/dev/null 2>&1; then
    echo "FAIL: $f --output-format=json"
    fail=1
  fi
done

# A job file from stdin and the seed command line.
if ! printf '[stdin]\nrw=randread\nbs=4k\nsize=1m\n' | "$bin" --parse-only - >/dev/null; then
  echo "FAIL: job file from stdin"
  fail=1
fi
if ! "$bin" -directory=/mnt4/ -direct=0 -thread -size=3G -rw=rw -rwmixwrite=30 --norandommap \
    --randrepeat=0 -ioengine=pvsync2 -bs=64k -numjobs=252 -runtime=3600 --time_based \
    -group_reporting -name=mytest --parse-only >/dev/null; then
  echo "FAIL: seed 003 command line"
  fail=1
fi
# fio's time syntax for the progress-line options (a bare number is seconds).
if ! "$bin" --eta-interval=2 --eta-newline=5s --parse-only --name=a --ioengine=null \
    --size=1m >/dev/null; then
  echo "FAIL: --eta-interval=2 --eta-newline=5s"
  fail=1
fi
# A job file whose path is not UTF-8 runs, and the JSON report (which holds
# the command line) stays valid JSON (it once threw after the run).
latin1=$(mktemp -d /tmp/iobench-latin1.XXXXXX)
printf '[a]\nioengine=null\nsize=64k\n' >"$latin1/caf$(printf '\351').fio"
absbin=$(readlink -f "$bin")
if ! (cd "$latin1" && "$absbin" --output-format=json "$latin1"/caf*.fio | python3 -c 'import json, sys; json.load(sys.stdin)'); then
  echo "FAIL: a job file with a Latin-1 path: no valid JSON report"
  fail=1
fi
rm -rf "$latin1"
# A bad job file exits 2 with file:line:col.
out=$(printf '[a]\niodpeth=4\n' | "$bin" --parse-only - 2>&1); rc=$?
if [ $rc -ne 2 ] || ! grep -q "<stdin>:2:1: unknown option 'iodpeth'; did you mean 'iodepth'?" <<<"$out"; then
  echo "FAIL: bad option: rc=$rc out=$out"
  fail=1
fi

examples=""
for d in /usr/share/doc/fio/examples /usr/share/fio/examples; do
  [ -d "$d" ] && examples=$d
done
if [ -n "$examples" ]; then
  ok=0; refused=0
  for f in "$examples"/*.fio "$examples"/*.fio.gz; do
    [ -e "$f" ] || continue
    if [[ $f == *.gz ]]; then
      tmp=$(mktemp /tmp/iobench_ex_XXXXXX.fio); zcat "$f" >"$tmp"; job=$tmp
    else
      job=$f; tmp=""
    fi
    out=$(cd "$(dirname "$job")" && "$bin" --parse-only "$job" 2>&1 </dev/null); rc=$?
    [ -n "$tmp" ] && rm -f "$tmp"
    if [ $rc -eq 0 ]; then
      ok=$((ok + 1))
    elif [ $rc -eq 2 ] && grep -qE "does not support yet|is not set|cannot include|not supported|unknown option|needs ioengine|bad |out of range|must " <<<"$out"; then
      refused=$((refused + 1))
    else
      echo "FAIL: $f: rc=$rc"
      echo "$out"
      fail=1
    fi
  done
  echo "fio examples: $ok parsed, $refused refused with a reason"
fi
exit $fail
