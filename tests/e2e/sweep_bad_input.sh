#!/bin/bash
# End to end: sweep, table and plot arguments that cannot work are refused
# before anything runs, with exit code 2 and a message naming the fault
# (docs/sweep.md), rather than after the whole sweep ran (results lost).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
set -u
bin=$1
tmp=$(mktemp -d /var/tmp/iobench_sweep_bad.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fails=0

# refused MESSAGE ARGS...: iobench ARGS exits 2 without running (no output,
# no hook run) and says MESSAGE (a fixed string) on stderr.
refused() {
  local want=$1
  shift
  rm -f "$tmp/hook-ran"
  "$bin" --name=j --ioengine=null --size=1m --rw=randread "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -ne 2 ] || ! grep -qF -- "$want" "$tmp/err" || [ -s "$tmp/out" ] ||
    [ -e "$tmp/hook-ran" ]; then
    echo "FAIL: $* -> exit $rc, stderr: $(cat "$tmp/err"), stdout: $(head -c 200 "$tmp/out")"
    fails=$((fails + 1))
  else
    echo "ok   $want"
  fi
}

refused "--sweep runtime=30ms,40ms: key 'runtime' is already swept (as 'timeout')" \
  --sweep timeout=10ms,20ms --sweep runtime=30ms,40ms

refused "--table-rows and --table-cols both name 'iodepth'" \
  --sweep iodepth=1,2 --sweep bs=4k,8k --table-rows=iodepth --table-cols=iodepth \
  --output-format=table

refused "--plot=$tmp/p.txt: the file name must end in .svg or .png" \
  --sweep iodepth=1,2 --plot="$tmp/p.txt"
refused "--plot=/nonexistent/p.svg: directory /nonexistent: No such file or directory" \
  --sweep iodepth=1,2 --plot=/nonexistent/p.svg
refused "--plot=$tmp/p.svg: nothing is swept; a plot needs --sweep KEY=..." --plot="$tmp/p.svg"
# A hook without a sweep ran once, recorded nowhere (no hook_log), and a
# failing one said "at point ;".
refused "--sweep-cmd 'touch $tmp/hook-ran': nothing is swept; the hook runs before each point of --sweep KEY=..." \
  --sweep-cmd="touch $tmp/hook-ran"
# A regular file as the directory, and a pseudo file system (which root
# may access(W_OK)), were found only after the whole sweep ran (exit 1).
: >"$tmp/afile"
refused "--output=$tmp/afile/x.json: directory $tmp/afile: Not a directory" \
  --sweep iodepth=1,2 --output="$tmp/afile/x.json" --output-format=json
refused "--plot=$tmp/afile/x.svg: directory $tmp/afile: Not a directory" \
  --sweep iodepth=1,2 --plot="$tmp/afile/x.svg"
refused "--plot=/sys/x.svg: directory /sys is on sysfs, a pseudo file system" \
  --sweep iodepth=1,2 --plot=/sys/x.svg
refused "--output=/sys/x.json: directory /sys is on sysfs, a pseudo file system" \
  --sweep iodepth=1,2 --output=/sys/x.json
refused "--output=/proc/x.json: directory /proc is on proc, a pseudo file system" \
  --output=/proc/x.json

refused "--sweep-cmd 'touch $tmp/hook-ran; echo {typo}': {typo} names no --sweep key (swept: iodepth)" \
  --sweep iodepth=1,2 --sweep-cmd="touch $tmp/hook-ran; echo {typo}"

# One value under two spellings ran the same point twice; a bound past
# 2^64-1 was "not a whole number"; a second --compare silently replaced the
# first; a directory as BASE was "no JSON document found".
refused "--sweep iodepth=1,01: values '1' and '01' are the same iodepth; the point would run twice" \
  --sweep iodepth=1,01
refused "--sweep bs=4k,4096: values '4k' and '4096' are the same bs" --sweep bs=4k,4096
refused "range '1..18446744073709551616:+1': 18446744073709551616 is too large" \
  --sweep iodepth=1..18446744073709551616:+1
refused "range '1..18446744073709551615:+1' gives more than 100000 values" \
  --sweep iodepth=1..18446744073709551615:+1
echo '{"jobs": [{"jobname": "j"}]}' >"$tmp/a.json"
cp "$tmp/a.json" "$tmp/b.json"
refused "--compare given 2 times ($tmp/a.json, $tmp/b.json): give one BASE.json" \
  --compare "$tmp/a.json" --compare "$tmp/b.json"
mkdir "$tmp/dir"
refused "$tmp/dir: is a directory, not a results file" --compare "$tmp/dir"

# --parse-only makes the checks a run makes before it touches a file: the
# sweep's too (it ignored --sweep and exited 0). The same refusals, with and
# without it, and a point whose jobs fail a run check (--readonly).
for po in "" --parse-only; do
  refused "range '1..8:x1': a multiplying step must be x2 or more" $po --sweep=iodepth=1..8:x1
  refused "value 0 of option 'iodepth' is out of range" $po --sweep=iodepth=4,0
  refused "--plot=$tmp/p.svg: nothing is swept" $po --plot="$tmp/p.svg"
  refused "--sweep-cmd 'touch $tmp/hook-ran': nothing is swept" $po --sweep-cmd="touch $tmp/hook-ran"
done
refused "sweep point rw=write: --readonly: job 'j' writes" --parse-only --readonly --sweep=rw=read,write
"$bin" --parse-only --name=j --ioengine=null --size=1m --sweep=iodepth=1,4 >"$tmp/out" 2>"$tmp/err" ||
  { echo "FAIL: --parse-only with a good sweep: $(cat "$tmp/err")"; fails=$((fails + 1)); }

# A tool option is no sweep key: it applies to the whole run (it said
# "'eta' is not a job option ...; did you mean ba?").
refused "--sweep eta=...: 'eta' is the tool option --eta, which cannot be swept" \
  --sweep eta=never,always
refused "'status_interval' is the tool option --status-interval, which cannot be swept" \
  --sweep status_interval=1,2
# An empty metric is refused, as an empty --sweep value is (iops, was iops).
for m in iops, ,bw iops,,bw; do
  refused "--table-metric=$m: empty metric (two commas in a row, or a comma at either end)" \
    --sweep iodepth=1,2 --table-metric=$m --output-format=table
done

exit $((fails > 0))
