#!/bin/bash
# --parse-only --output-format=json reports the value the run uses for an
# option another option sets: buffered=0 showed direct as 0 (default) while
# the run used O_DIRECT, direct=1 then buffered=1 showed direct=1 for a
# buffered run; so too rwmixwrite (rwmixread), gtod_reduce (disable_*,
# *_percentiles), pre_read (invalidate), verify_pattern (verify),
# dedupe_percentage (refill_buffers), buffer_pattern (scramble/zero_buffers).
# Such an option has "source": "implied", "implied_by" the setting, and that
# setting's file and line; one set after it, or alike, keeps its own source.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

cat >j.fio <<'JOB'
[global]
ioengine=null
size=1m
[bufzero]
buffered=0
[bothways]
direct=1
buffered=1
[directlater]
buffered=0
direct=0
[mix]
rw=randrw
rwmixwrite=30
[gtod]
gtod_reduce=1
disable_slat=0
[gtodoff]
gtod_reduce=0
[preread]
pre_read=1
[pattern]
rw=write
verify_pattern=0xab
[pattern_md5]
rw=write
verify=md5
verify_pattern=0xab
[dedupe]
dedupe_percentage=10
[bufpat]
buffer_pattern=0xcd
JOB
"$bin" --parse-only --output-format=json j.fio >po.json 2>po.err
expect_eq "exit" "$?" 0
[ -s po.err ] && fail "stderr: $(cat po.err)"
# "job option value source [implied_by line]" per line.
python3 - po.json >got.txt <<'PY' || fail "JSON: $(head -c 300 po.json)"
import json, sys
want = {
    "bufzero": ["direct", "buffered"],
    "bothways": ["direct", "buffered"],
    "directlater": ["direct", "buffered"],
    "mix": ["rwmixread", "rwmixwrite"],
    "gtod": ["disable_lat", "disable_clat", "disable_slat", "disable_bw_measurement",
             "clat_percentiles", "slat_percentiles"],
    "gtodoff": ["disable_lat", "clat_percentiles"],
    "preread": ["invalidate"],
    "pattern": ["verify"],
    "pattern_md5": ["verify"],
    "dedupe": ["refill_buffers"],
    "bufpat": ["scramble_buffers", "zero_buffers"],
}
for j in json.load(open(sys.argv[1]))["jobs"]:
    for name in want.get(j["name"], []):
        o = j["options"][name]
        extra = f' {o["implied_by"]} {o["line"]}' if "implied_by" in o else ""
        print(f'{j["name"]} {name} {o["value"]} {o["source"]}{extra}')
PY
expect_eq "effective values" "$(cat got.txt)" "bufzero direct 1 implied buffered=0 5
bufzero buffered 0 job
bothways direct 0 implied buffered=1 8
bothways buffered 1 job
directlater direct 0 job
directlater buffered 1 implied direct=0 11
mix rwmixread 70 implied rwmixwrite=30 14
mix rwmixwrite 30 job
gtod disable_lat 1 implied gtod_reduce=1 16
gtod disable_clat 1 implied gtod_reduce=1 16
gtod disable_slat 0 job
gtod disable_bw_measurement 1 implied gtod_reduce=1 16
gtod clat_percentiles 0 implied gtod_reduce=1 16
gtod slat_percentiles 0 default
gtodoff disable_lat 0 default
gtodoff clat_percentiles 1 default
preread invalidate 0 implied pre_read=1 21
pattern verify pattern implied verify_pattern=0xab 24
pattern_md5 verify md5 job
dedupe refill_buffers 1 implied dedupe_percentage=10 30
bufpat scramble_buffers 0 implied buffer_pattern=0xcd 32
bufpat zero_buffers 0 default"
# A bandwidth log's log_avg_msec is the report's bandwidth window (fio's
# add_job); the IOPS window, with no IOPS log, keeps its default.
"$bin" --name=a --ioengine=null --size=1m --write_bw_log=x --log_avg_msec=100 --parse-only \
  --output-format=json >log.json 2>&1
expect_eq "log_avg_msec" "$(python3 -c 'import json, sys
o = json.load(open(sys.argv[1]))["jobs"][0]["options"]
print(*("%s=%s/%s/%s" % (n, o[n]["value"], o[n]["source"], o[n].get("implied_by"))
        for n in ("bwavgtime", "iopsavgtime")))' log.json)" \
  "bwavgtime=100/implied/log_avg_msec=100 iopsavgtime=500/default/None"
[ "$fails" -eq 0 ] && echo "ok: --parse-only's JSON gives the values implied by other options"
[ "$fails" -eq 0 ]
