#!/usr/bin/env bash
# ctest-labels: threads
# Steady state detection (steadystate=, ss_dur=, ss_ramp=) against real fio
# 3.33 on the same job file: the null engine under rate_iops makes the
# per-second samples regular, so the outcome does not depend on timing:
#   attained  (ss=iops:20%): both stop after two samples, long before runtime;
#   not       (ss=bw:0, a deviation is never below 0): both run to the end;
#   grp       (group_reporting, numjobs=2, iops_slope): one record, the
#             group's summed rate, stopped early;
#   ramp      (ss_ramp=1): the first sample comes 2 s in, so the window of
#             two is full at 3 s.
# Compared: the "steadystate" JSON object's keys, ss string, duration,
# attained, the window length and its samples' range, the runtime class,
# and the normal report's steadystate line shape.
set -u
source "$(dirname "$0")/fio_side.bash"
bin=$1
have_fio=0
fio_side && have_fio=1
[ $have_fio = 1 ] || echo "note: fio not installed (or IOBENCH_TEST_FIO=0); iobench checked alone"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
tmp=$(mktemp -d /tmp/iobench_ss.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat >"$tmp/ss.fio" <<'EOF'
[global]
ioengine=null
bs=4k
size=1g
time_based
rate_iops=1000

[attained]
runtime=20
ss=iops:20%
ss_dur=2

[not]
stonewall
runtime=2500ms
ss=bw:0
ss_dur=3

[grp]
stonewall
runtime=20
numjobs=2
group_reporting
rate_iops=500
ss=iops_slope:50%
ss_dur=2

[ramp]
stonewall
runtime=20
ss=iops:20%
ss_dur=2
ss_ramp=1
EOF

# Side by side (the rate-limited null engine needs little CPU): half the wall time.
if [ $have_fio = 1 ]; then
  fio --output-format=json --output="$tmp/fio.json" "$tmp/ss.fio" >/dev/null 2>&1 &
  fio_pid=$!
fi
"$bin" --output-format=json --output="$tmp/iob.json" "$tmp/ss.fio" >/dev/null 2>"$tmp/err" ||
  fail "iobench exited $?: $(cat "$tmp/err")"
rc=0
if [ $have_fio = 1 ]; then
  wait "$fio_pid"
  rc=$?
else
  echo '{"jobs": []}' >"$tmp/fio.json"
fi
# fio 3.33 can die of SIGFPE here: its steadystate_check() divides by the
# milliseconds since its previous check, which are 0 when its helper thread,
# late on a machine loaded by the other tests, runs two checks within one
# millisecond (seen once in CI). fio is the reference, not what is tested,
# so a fio that dies of a signal gets two more tries (alone) before the test
# gives up.
for _ in 1 2; do
  [ "$rc" -gt 128 ] || break
  echo "note: fio died of signal $((rc - 128)); running it again"
  fio --output-format=json --output="$tmp/fio.json" "$tmp/ss.fio" >/dev/null 2>&1
  rc=$?
done
[ "$rc" -eq 0 ] || fail "fio exited $rc"

python3 - "$tmp/fio.json" "$tmp/iob.json" "$have_fio" <<'EOF' || exit 1
import json, sys
fio = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
iob = {j["jobname"]: j for j in json.load(open(sys.argv[2]))["jobs"]}
tools = (("fio", fio), ("iobench", iob)) if sys.argv[3] == "1" else (("iobench", iob),)
bad = []
def check(cond, what):
    if not cond:
        bad.append(what)
want = {  # job: (attained, stopped early, window, iops range of a full sample)
    "attained": (1, True, 2, (800, 1200)),
    "not": (0, False, 3, (800, 1200)),
    "grp": (1, True, 2, (800, 1200)),
    "ramp": (1, True, 2, (800, 1200)),
}
for name, (attained, early, dur, (lo, hi)) in want.items():
    for tool, jobs in tools:
        j = jobs.get(name)
        if j is None:
            bad.append(f"{tool}: no job {name}")
            continue
        ss = j.get("steadystate")
        if ss is None:
            bad.append(f"{tool} {name}: no steadystate object")
            continue
        check(list(ss) == ["ss", "duration", "attained", "criterion", "max_deviation", "slope",
                           "data"], f"{tool} {name}: keys {list(ss)}")
        check(list(ss["data"]) == ["bw_mean", "iops_mean", "iops", "bw"],
              f"{tool} {name}: data keys {list(ss['data'])}")
        # fio's attained, samples and runtime depend on its helper thread's
        # timing on a loaded machine (CI once saw its "attained" window of
        # all-zero samples): shown, not asserted, as the other fio-side
        # timed figures are. iobench's are asserted.
        timed = check if tool == "iobench" else (
            lambda ok, msg: ok or print(f"note (fio, not asserted): {msg}"))
        timed(ss["attained"] == attained, f"{tool} {name}: attained {ss['attained']}")
        check(ss["duration"] == dur, f"{tool} {name}: duration {ss['duration']}")
        check(len(ss["data"]["iops"]) == dur and len(ss["data"]["bw"]) == dur,
              f"{tool} {name}: window {ss['data']}")
        full = [v for v in ss["data"]["iops"] if v]
        # The window's last sample is a whole second at the rate. The others
        # are not checked: fio's first sample may cover a few ms only (its
        # helper thread's clock is not the job's), and on a loaded machine
        # (CI runs 4 tests at once, under sanitizers) a starved second is
        # made up in the next one, as rate_iops does in both tools.
        # fio's own sampling is looser under load: its grp window once ended
        # on 646 of 1000 in CI's TSan stage, and its "not" window on 348 in
        # a release stage, iobench's samples beside them on 1000. fio is the
        # reference for the shape, not for that number: its samples are
        # only required to be there. iobench's is held to half to one and a
        # half times the range: a thread stalled 200 ms across a tick makes
        # it up after it (rate_iops catches up), so one sample is low and
        # the next high; a sample in the wrong unit (per ms, bytes) is far
        # outside.
        timed(full and (tool == "fio" or lo / 2 <= full[-1] <= hi * 1.5),
              f"{tool} {name}: iops {full}")
        check(all(b == 0 or abs(b / i - 4096) < 64 for b, i in
                  zip(ss["data"]["bw"], ss["data"]["iops"]) if i),
              f"{tool} {name}: bw/iops {ss['data']}")
        rt = j["job_runtime"]
        timed((rt < 10000) if early else (rt >= 2400), f"{tool} {name}: runtime {rt}")
    if name in fio and name in iob and "steadystate" in fio[name] and "steadystate" in iob[name]:
        f, i = fio[name]["steadystate"], iob[name]["steadystate"]
        check(f["ss"] == i["ss"], f"{name}: ss {f['ss']} vs {i['ss']}")
        if not attained:
            # 2 samples in 2.5 s never fill the window of 3: no criterion.
            # fio's is not checked: its helper thread can take a third
            # sample on a loaded machine (seen in CI), and then computes
            # one, also when that sample is 0 IO/s (CI: criterion 2151765
            # beside two non-zero samples). fio is the reference for the
            # shape here, not for its sampling under load.
            check(i["criterion"] == "0.000000", f"{name}: iobench criterion {i['criterion']}")
check(sum(1 for j in iob if j == "grp") == 1, "iobench: grp not one record")
# ss_ramp=1 s: no sample before 2 s, so the window of two is full at 3 s at
# the earliest (2 s without the ramp); later only if load made a second
# irregular, which the "early" bound above still limits.
check(2500 <= iob["ramp"]["job_runtime"] if "ramp" in iob else False,
      f"iobench ramp: runtime {iob.get('ramp', {}).get('job_runtime')} (want >= 3 s)")
if bad:
    print("FAIL:\n  " + "\n  ".join(bad))
    sys.exit(1)
EOF

# The normal report's line, same shape as fio's.
line_re='^  steadystate  : attained=(yes|no), bw=[0-9.]+[KMG]?i?B/s \([0-9.]+[kMG]?B/s\), iops=[0-9.]+k?, (iops|bw) (mean dev|slope)=-?[0-9]+\.[0-9]{3}%?$'
"$bin" --name=n --ioengine=null --rate_iops=1000 --time_based --runtime=20 --size=1g \
  --ss=iops:20% --ss_dur=2 >"$tmp/iob.txt" 2>&1 &
iob_pid=$!
if [ $have_fio = 1 ]; then
  fio --name=n --ioengine=null --rate_iops=1000 --time_based --runtime=20 --size=1g \
    --ss=iops:20% --ss_dur=2 >"$tmp/fio.txt" 2>&1 || fail "fio normal"
fi
wait "$iob_pid" || fail "iobench normal: $(cat "$tmp/iob.txt")"
if [ $have_fio = 1 ]; then
  grep -Eq "$line_re" "$tmp/fio.txt" || fail "fio's line changed: $(grep steadystate "$tmp/fio.txt")"
fi
grep -Eq "$line_re" "$tmp/iob.txt" || fail "iobench line: $(grep steadystate "$tmp/iob.txt")"
grep -q '^  steadystate  : attained=yes, bw=[0-9]*KiB/s ([0-9]*kB/s), iops=[0-9]*, iops mean dev=' \
  "$tmp/iob.txt" || fail "iobench line: $(grep steadystate "$tmp/iob.txt")"

# Hostile values: clear errors with file:line.
printf '[j]\nioengine=null\nsize=1m\nss=fast:1\n' >"$tmp/bad.fio"
out=$("$bin" --parse-only "$tmp/bad.fio" 2>&1) && fail "ss=fast:1 accepted"
grep -q "bad.fio:4:.*the criterion must be iops, iops_slope, bw or bw_slope" <<<"$out" ||
  fail "message: $out"
printf '[j]\nioengine=null\nsize=1m\nss_dur=200ms\n' >"$tmp/bad.fio"
out=$("$bin" --parse-only "$tmp/bad.fio" 2>&1) && fail "ss_dur=200ms accepted"
grep -q "bad.fio:4:.*shorter than one sample" <<<"$out" || fail "message: $out"
printf '[a]\nioengine=null\nsize=1m\nss_dur=2\n[b]\nioengine=null\nsize=1m\n' >"$tmp/mix.fio"
out=$("$bin" "$tmp/mix.fio" 2>&1) && fail "mixed steadystate in one group accepted"
grep -q "same reporting group with different steadystate" <<<"$out" || fail "message: $out"
echo ok
