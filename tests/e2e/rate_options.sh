#!/usr/bin/env bash
# Rate options that contradict each other are refused before the run, as
# fio 3.33 refuses them ("rate and rate_iops are mutually exclusive",
# "minimum rate exceeds rate"); a consistent pair runs. $1: iobench binary.
set -u
bin=$1
fail() { echo "FAIL: $*"; exit 1; }
base=(--name=t --ioengine=null --size=1m --rw=read --bs=4k --number_ios=4)
refused() {
  local want=$1; shift
  out=$("$bin" "${base[@]}" "$@" 2>&1) && fail "accepted $*"
  grep -q -- "$want" <<<"$out" || fail "$*: message: $out"
}
# cpuio ignores its rate limits (a chunk moves no data), and fio 3.33 still
# refuses the same pairs for it; iobench ran them, as its engine set-up
# cleared the rates before they were checked.
cpuio_refused() {
  local want=$1; shift
  local saved=("${base[@]}")
  base=(--name=t --ioengine=cpuio --cpuload=10 --number_ios=1)
  refused "$want" "$@"
  base=("${saved[@]}")
}
refused "rate (<cmdline>) and rate_iops (<cmdline>) are mutually exclusive" --rate=1m --rate_iops=100
refused "rate_min (<cmdline>) and rate_iops_min" --rate_min=1k --rate_iops_min=1
# The write direction's minimum is above its cap: the message says which.
refused "rate_iops_min (<cmdline>) is above rate_iops for writes (200 > 100)" \
  --rate_iops=100,100 --rate_iops_min=1,200
refused "rate_min (<cmdline>) is above rate for reads" --rate=1m --rate_min=2m
cpuio_refused "rate (<cmdline>) and rate_iops (<cmdline>) are mutually exclusive" --rate=1m --rate_iops=10
cpuio_refused "rate_min (<cmdline>) and rate_iops_min (<cmdline>) are mutually exclusive" \
  --rate_min=1m --rate_iops_min=10
cpuio_refused "rate_min (<cmdline>) is above rate for reads" --rate=1m --rate_min=2m
cpuio_refused "rate_iops_min (<cmdline>) is above rate_iops for reads" \
  --rate_iops=10 --rate_iops_min=20
# A job file's job: the message names its lines.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '[global]\nioengine=cpuio\ncpuload=10\n[c]\nrate=1m\nrate_iops=10\n' >"$dir/c.fio"
out=$("$bin" "$dir/c.fio" --number_ios=1 2>&1) && fail "accepted c.fio"
grep -q -- "job 'c': rate (.*c.fio:5) and rate_iops (.*c.fio:6) are mutually exclusive" <<<"$out" ||
  fail "c.fio: message: $out"
# A minimum without a cap, or below it, is fine (fio too).
"$bin" "${base[@]}" --rate_iops=1000 --rate_iops_min=10 >/dev/null 2>&1 || fail "consistent pair refused"
"$bin" "${base[@]}" --rate_min=1k >/dev/null 2>&1 || fail "rate_min alone refused"
# cpuio with a cap alone, or with a minimum of the other kind, runs (fio too).
"$bin" --name=c --ioengine=cpuio --cpuload=10 --number_ios=1 --rate=1m --rate_iops_min=10 \
  >/dev/null 2>&1 || fail "cpuio rate with rate_iops_min refused"
echo ok
