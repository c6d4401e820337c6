#!/usr/bin/env bash
# The latency split by priority ("prios" in JSON, "clat prio" lines) of a
# group_reporting group or of the mixed direction counts every I/O under the
# priority it was issued with, as fio 3.33 does: a member (or direction)
# without cmdprio counts whole under its own prioclass/prio (0/0 when unset),
# so the entries add up to total_ios. Split only where fio splits: when a
# member has cmdprio or the members' own priorities differ, and printed only
# when two priorities or more completed I/O.
source "$2/tests/e2e/setup.bash"

# shape JSON: per job and direction "dir:total_ios[class/prio=N ...]" (N
# only for the priorities given as fixed in $fixed, "n" for the rest, whose
# share cmdprio draws), then "sum=" the entries' N when prios are printed.
shape() {
  python3 - "$1" "${fixed:-}" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])
fixed = sys.argv[2].split()
out = []
for j in d["jobs"]:
    for k in ("read", "write", "mixed"):
        x = j.get(k)
        if x is None or x["total_ios"] == 0:
            continue
        s = "%s:%d" % (k, x["total_ios"])
        if "prios" in x:
            key = "lat_ns" if "lat_ns" in x["prios"][0] else "clat_ns"
            ents = []
            total = 0
            for p in x["prios"]:
                name = "%d/%d" % (p["prioclass"], p["prio"])
                n = p[key]["N"]
                total += n
                ents.append(name + "=" + (str(n) if name in fixed else "n"))
            s += "[" + " ".join(ents) + "]sum=%d" % total
        out.append(s)
print(" ".join(out))
PY
}

cat >base.fio <<'J'
[global]
filename=f
size=1m
bs=4k
rw=randread
ioengine=io_uring
iodepth=4
number_ios=100
J
# case NAME WANT [OPTIONS...]: job file NAME.fio, shape WANT for iobench (and
# fio's shape equal to it when fio runs).
case_() {
  local name=$1 want=$2
  shift 2
  for t in $(tools); do
    if ! "$(cmd "$t")" --output-format=json "$@" "$name.fio" >"$name.$t.json" 2>"$name.$t.err"; then
      fail "$name $t: exit $? ($(head -c 300 "$name.$t.err"))"
      continue
    fi
    expect_eq "$name $t" "$(shape "$name.$t.json")" "$want"
  done
}

# The QA job: two cmdprio members and one with only prioclass=3; fio 3.33
# gives 0/0 93, 2/3 51, 2/1 56, 3/0 100 (iobench left 3/0 out: 200 of 300).
{ cat base.fio; printf 'group_reporting\n[a]\ncmdprio_percentage=50\ncmdprio_class=2\ncmdprio=3\n'
  printf '[b]\ncmdprio_percentage=50\ncmdprio_class=2\ncmdprio=1\n[c]\nprioclass=3\n'; } >g1.fio
fixed="3/0" case_ g1 "read:300[0/0=n 2/3=n 2/1=n 3/0=100]sum=300"
# The same with lat_percentiles: the split is of the total latency.
fixed="3/0" case_ g1 "read:300[0/0=n 2/3=n 2/1=n 3/0=100]sum=300" --lat_percentiles=1
# Normal report: the shares are of all 300 I/Os.
"$bin" g1.fio >g1.txt 2>g1.err || fail "g1 normal: exit $?"
expect_eq "g1 normal 3/0 share" "$(grep -c 'clat prio 3/0 (33.33% of IOs)' g1.txt)" 1
# Without prioclass on c its 100 I/Os join 0/0.
{ cat base.fio; printf 'group_reporting\n[a]\ncmdprio_percentage=50\ncmdprio_class=2\ncmdprio=3\n'
  printf '[c]\n'; } >g1b.fio
case_ g1b "read:200[0/0=n 2/3=n]sum=200"
# psync members count under their own priority beside an io_uring cmdprio one.
{ cat base.fio; printf 'group_reporting\n[a]\ncmdprio_percentage=50\ncmdprio_class=2\n'
  printf '[b]\nioengine=psync\niodepth=1\n[c]\nioengine=psync\niodepth=1\nprio=4\n'; } >g4.fio
fixed="2/4" case_ g4 "read:300[0/0=n 2/0=n 2/4=100]sum=300"
# No cmdprio: a split only when the members' own priorities differ.
{ cat base.fio; printf 'group_reporting\n[a]\nprioclass=2\n[b]\nprioclass=3\n'; } >g2.fio
fixed="2/0 3/0" case_ g2 "read:200[2/0=100 3/0=100]sum=200"
{ cat base.fio; printf 'group_reporting\n[a]\nprioclass=2\n[b]\nprioclass=2\n'; } >g3.fio
case_ g3 "read:200"
{ cat base.fio; printf '[a]\nprioclass=3\n'; } >l1.fio
case_ l1 "read:100"
# A direction without cmdprio in a group: one priority only, no split shown.
{ cat base.fio; printf 'group_reporting\n[a]\ncmdprio_percentage=50\ncmdprio_class=2\n'
  printf '[b]\nrw=randwrite\nprio=2\n'; } >g5.fio
fixed="2/2" case_ g5 "read:100[0/0=n 2/0=n]sum=100 write:100"
# The mixed direction: the reads without cmdprio count under the job's own
# priority (fio: 0/0 149 of 200; iobench left the reads out).
{ cat base.fio; printf '[a]\nrw=randrw\nnumber_ios=200\ncmdprio_percentage=0,50\ncmdprio_class=2\n'; } >m1.fio
for mode in both mixed; do
  for t in $(tools); do
    "$(cmd "$t")" --output-format=json --unified_rw_reporting=$mode m1.fio >m1.$t.json 2>m1.$t.err ||
      fail "m1 $mode $t: exit $?"
    python3 - m1.$t.json $mode <<'PY' || { fail "m1 $mode $t: mixed prios"; continue; }
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])["jobs"][0]
m = j["mixed"]
names = [(p["prioclass"], p["prio"]) for p in m["prios"]]
assert names == [(0, 0), (2, 0)], names
assert sum(p["clat_ns"]["N"] for p in m["prios"]) == m["total_ios"] == 200, m["prios"]
if sys.argv[2] == "both":
    assert "prios" not in j["read"] and "prios" in j["write"], j
    w = {(p["prioclass"], p["prio"]): p["clat_ns"]["N"] for p in j["write"]["prios"]}
    mix = {(p["prioclass"], p["prio"]): p["clat_ns"]["N"] for p in m["prios"]}
    assert mix[(2, 0)] == w[(2, 0)] and mix[(0, 0)] == w[(0, 0)] + j["read"]["total_ios"], (w, mix)
PY
    echo "ok   m1 $mode $t"
  done
done
# The mixed direction of a group: the write-only member's own priority too.
fixed="2/2" case_ g5 "read:100[0/0=n 2/0=n]sum=100 write:100 mixed:200[0/0=n 2/0=n 2/2=100]sum=200" \
  --unified_rw_reporting=both
# A job without cmdprio: its mixed direction has one priority, no split.
{ cat base.fio; printf '[a]\nrw=randrw\nprioclass=2\n'; } >m2.fio
for t in $(tools); do
  "$(cmd "$t")" --output-format=json --unified_rw_reporting=both m2.fio >m2.$t.json 2>m2.$t.err ||
    fail "m2 $t: exit $?"
  expect_eq "m2 $t no prios" "$(grep -c '"prios"' m2.$t.json)" 0
done
[ "$fails" -eq 0 ]
