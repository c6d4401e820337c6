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
refused "rate (<cmdline>) and rate_iops (<cmdline>) are mutually exclusive" --rate=1m --rate_iops=100
refused "rate_min (<cmdline>) and rate_iops_min" --rate_min=1k --rate_iops_min=1
# The write direction's minimum is above its cap: the message says which.
refused "rate_iops_min (<cmdline>) is above rate_iops for writes (200 > 100)" \
  --rate_iops=100,100 --rate_iops_min=1,200
refused "rate_min (<cmdline>) is above rate for reads" --rate=1m --rate_min=2m
# A minimum without a cap, or below it, is fine (fio too).
"$bin" "${base[@]}" --rate_iops=1000 --rate_iops_min=10 >/dev/null 2>&1 || fail "consistent pair refused"
"$bin" "${base[@]}" --rate_min=1k >/dev/null 2>&1 || fail "rate_min alone refused"
echo ok
