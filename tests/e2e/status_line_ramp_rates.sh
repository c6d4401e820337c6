#!/bin/bash
# The status line as fio 3.33 draws it, on the real binary (--eta=always,
# one line per second kept by --eta-newline):
# - a job in its ramp_time adds nothing to the rates, and while every running
#   job ramps the line has "-.-%" and no rates ("[/(1)][-.-%][eta 00m:03s]";
#   it showed "[25.9%][r=67.2GiB/s]..."); beside a rate=50m job the rate is
#   that job's (it showed r=46.8GiB/s);
# - the first line, drawn as the jobs start, has no rate (fio waits a full
#   period; it showed [w=21.7MiB/s] under rate=20m);
# - with a byte and an IOPS rate limit, only the byte range is shown.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash" "$1"

# lines FILE: the drawn lines, one per line.
lines() { tr '\r' '\n' <"$1" | grep -a '^Jobs: '; }

"$bin" --eta=always --eta-newline=1 --name=r --ioengine=null --rw=read --bs=4k --size=1g \
  --time_based --runtime=2 --ramp_time=2 >ramp.out 2>ramp.err ||
  fail "ramp: exit $?: $(head -c 300 ramp.err)"
ramping=$(lines ramp.out | grep -a '\[/(1)\]')
[ -n "$ramping" ] || fail "ramp: no line in the ramp: $(lines ramp.out | head -3)"
while IFS= read -r l; do
  [[ $l =~ ^Jobs:\ 1\ \(f=0\):\ \[/\(1\)\]\[-\.-%\]\[eta\ 00m:0[0-9]s\]\ *$ ]] ||
    fail "ramp: want fio's '[/(1)][-.-%][eta ...]': '$l'"
done <<<"$ramping"
lines ramp.out | grep -aq '\[R(1)\]\[[0-9.]*%\]\[r=' || fail "ramp: no rated line after the ramp"

cat >mixed.fio <<'EOF'
[global]
ioengine=null
rw=read
bs=4k
size=1g
time_based
runtime=2
[r]
ramp_time=2
[p]
rate=50m
EOF
"$bin" --eta=always --eta-newline=1 mixed.fio >mixed.out 2>mixed.err ||
  fail "mixed: exit $?: $(head -c 300 mixed.err)"
both=$(lines mixed.out | grep -a '\[/(1),R(1)\]\[[0-9.]*%\]\[r=')
[ -n "$both" ] || fail "mixed: no rated line with the ramping job: $(lines mixed.out | head -3)"
while IFS= read -r l; do
  [[ $l =~ \[r=(49|50)\.[0-9]MiB/s\] ]] || fail "mixed: want r=~50.0MiB/s: '$l'"
done <<<"$both"

"$bin" --eta=always --eta-newline=1 --name=w --ioengine=null --rw=write --bs=64k --size=1g \
  --time_based --runtime=2 --rate=20m >first.out 2>first.err ||
  fail "first: exit $?: $(head -c 300 first.err)"
first=$(lines first.out | head -1)
[[ $first =~ ^Jobs:\ 1\ \(f=1\),\ 0B/s-20\.0MiB/s:\ \[W\(1\)\]\[[0-9.]+%\]\[eta\ 00m:0[0-9]s\]\ *$ ]] ||
  fail "first: want no rate on the first line: '$first'"
second=$(lines first.out | sed -n 2p)
[[ $second =~ \[w=(19\.[0-9]|20\.[0-9])MiB/s\] ]] || fail "first: want w=~20MiB/s on the next line: '$second'"

cat >limits.fio <<'EOF'
[global]
ioengine=null
rw=read
bs=4k
size=1g
time_based
runtime=1
[a]
rate=12m
rate_min=6m
[b]
rate_iops=500
rate_iops_min=100
EOF
"$bin" --eta=always limits.fio >limits.out 2>limits.err ||
  fail "limits: exit $?: $(head -c 300 limits.err)"
l=$(lines limits.out | head -1)
[[ $l == "Jobs: 2 (f=2), 6144KiB/s-12.0MiB/s: [R(2)]"* ]] ||
  fail "limits: want fio's 'Jobs: 2 (f=2), 6144KiB/s-12.0MiB/s: [R(2)]...': '$l'"

echo "$fails failed"
[ "$fails" -eq 0 ]
