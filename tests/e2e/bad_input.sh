#!/bin/bash
# ctest-cost: 40
# The bad-input catalogue (issue 6): every case must end with a clear message
# on stderr (naming the option and file:line where there is one) and exit 2
# (1 only where a job fails at run time), never a crash (exit >= 128), never a
# hang (each case runs under `timeout 20`: 124 fails), and never a run that
# starts anyway: nothing may be created in the working directory, and no
# report may be printed.
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
bin=$(readlink -f "$1")
src=$(readlink -f "$2")
cases="$src/tests/bad_inputs"
[ -x "$bin" ] || { echo "skip: no binary $bin"; exit 77; }

work=$(mktemp -d /tmp/iobench-bad.XXXXXX)
ro_mounted=""
cleanup() {
  [ -n "$ro_mounted" ] && umount "$work/ro" 2>/dev/null
  chmod -R u+w "$work" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
mkdir sub
fails=0
n=0

# check NAME WANT_RC STDERR_REGEX -- command...
# Runs in $work; everything the command leaves behind in $work is a failure.
# The bookkeeping stays in bash (globs, read, parameter expansion): this
# script runs a few hundred cases in each CI stage, and a fork costs more
# than the iobench run it checks in the release build.
shopt -s globstar dotglob nullglob
outf=$work/../iobench-bad-out.$$
errf=$work/../iobench-bad-err.$$
check() {
  local name=$1 want=$2 regex=$3 LC_ALL=C
  shift 4
  n=$((n + 1))
  local rc out err errall first
  local -a before=("$work"/**) after
  timeout 20 "$@" >"$outf" 2>"$errf"
  rc=$?
  after=("$work"/**)
  read -r -d '' -N 2000 out <"$outf"
  read -r -d '' -N 20001 errall <"$errf"
  err=${errall:0:4000}
  local bad=""
  [ "$rc" -eq 124 ] && bad="hung (timeout 20 s)"
  [ -z "$bad" ] && [ "$rc" -ge 128 ] && bad="crashed (exit $rc)"
  [ -z "$bad" ] && [ "$rc" -ne "$want" ] && bad="exit $rc, want $want"
  [ -z "$bad" ] && ! grep -qE -- "$regex" <<<"$err" && bad="stderr does not match /$regex/"
  [ -z "$bad" ] && [ "${#errall}" -gt 20000 ] && bad="stderr is over 20000 bytes (echoes the input?)"
  [ -z "$bad" ] && [[ $out == *groupid=* ]] && bad="a report was printed: it ran"
  local new=""
  if [ "${before[*]}" != "${after[*]}" ]; then
    new=$(comm -13 <(printf '%s\n' "${before[@]}") <(printf '%s\n' "${after[@]}"))
    [ -z "$bad" ] && bad="files were created: ${new//$'\n'/ }"
  fi
  if [ -n "$bad" ]; then
    echo "FAIL $name: $bad"
    echo "  stderr: ${err:0:600}"
    fails=$((fails + 1))
    # Leave nothing behind for the next case.
    [ -n "$new" ] && while read -r f; do rm -rf "$f"; done <<<"$new"
  else
    first=${err%%$'\n'*}
    echo "ok   $name (exit $rc): ${first:0:160}"
  fi
}

c() { echo "$cases/$1"; }

# --- job files ---
check empty-file 2 "the job file .*/empty.fio defines no jobs" -- "$bin" "$(c empty.fio)"
check comments-only 2 "the job file .*/comments_only.fio defines no jobs" -- "$bin" "$(c comments_only.fio)"
check two-empty-files 2 "the job files .*/empty.fio and .*/comments_only.fio define no jobs" -- \
  "$bin" "$(c empty.fio)" "$(c comments_only.fio)"
# A device of NULs stops at its first read (it was read up to 64 MiB:
# "larger than 64 MiB"); /dev/null is an empty job file (jobfile_char_device).
check job-file-dev-zero 2 "^iobench: job file /dev/zero: a character device that reads NUL bytes" -- \
  "$bin" /dev/zero
# An error in an included file names the include line(s) that brought it in.
mkdir "$work/../iobench-inc.$$"
printf '[a]\nioengine=null\ninclude x.inc\n' >"$work/../iobench-inc.$$/job.fio"
printf 'include y.inc\n' >"$work/../iobench-inc.$$/x.inc"
printf 'size=-1\n' >"$work/../iobench-inc.$$/y.inc"
printf '[b]\n' >"$work/../iobench-inc.$$/s.inc"
printf '[a]\ninclude s.inc\n' >"$work/../iobench-inc.$$/sec.fio"
check include-error-names-includer 2 \
  "y.inc:1:6: value -1 of option 'size' is out of range \(>= 0\) \(included from .*x.inc:1, from .*job.fio:3\)$" -- \
  "$bin" "$work/../iobench-inc.$$/job.fio"
check include-read-error-names-includer 2 "s.inc:1:2: no new sections in included files.* \(included from .*sec.fio:2\)$" -- \
  "$bin" "$work/../iobench-inc.$$/sec.fio"
rm -rf "$work/../iobench-inc.$$"
check include-cycle 2 "include_cycle_b.fio:1:9: include cycle" -- "$bin" "$(c include_cycle_a.fio)"
check include-self 2 "include_self.fio:2:9: include cycle" -- "$bin" "$(c include_self.fio)"
mkdir "$work/../iobench-deep.$$"
printf '[a]\n' >"$work/../iobench-deep.$$/deep1.fio"
for i in $(seq 1 60); do
  echo "include deep$((i + 1)).fio" >>"$work/../iobench-deep.$$/deep$i.fio"
done
printf 'ioengine=null\nsize=1m\n' >"$work/../iobench-deep.$$/deep61.fio"
check include-chain-60-deep 2 "deep33.fio:1:9: includes nested deeper than 32 levels" -- \
  "$bin" "$work/../iobench-deep.$$/deep1.fio"
rm -rf "$work/../iobench-deep.$$"
check env-empty-name 2 "env_empty.fio:4:10: empty variable name" -- "$bin" "$(c env_empty.fio)"
check env-self-reference 2 "env_self.fio:3:6: option 'size': bad size" -- \
  env 'IOB_BAD_SELF=${IOB_BAD_SELF}' "$bin" "$(c env_self.fio)"
check env-mutual-reference 2 "env_loop.fio:3:6: option 'size'" -- \
  env 'IOB_BAD_A=${IOB_BAD_B}' 'IOB_BAD_B=${IOB_BAD_A}' "$bin" "$(c env_loop.fio)"
check env-unset 2 "env_unset.fio:4.*IOB_BAD_UNSET" -- env -u IOB_BAD_UNSET "$bin" "$(c env_unset.fio)"
check bs-zero 2 "bs_zero.fio:4:4: value 0 of option 'bs' is out of range" -- "$bin" "$(c bs_zero.fio)"
check bs-1e30 2 "bs_huge.fio:4:.*option 'bs'" -- "$bin" "$(c bs_huge.fio)"
check iodepth-negative 2 "iodepth_negative.fio:4:9: value -1 of option 'iodepth' is out of range" -- \
  "$bin" "$(c iodepth_negative.fio)"
check numjobs-million 2 "numjobs_huge.fio:4:9: value 1000000 of option 'numjobs' is out of range" -- \
  "$bin" "$(c numjobs_huge.fio)"
check size-1-percent-percent 2 "size_percent_percent.fio:3:.*option 'size'" -- \
  "$bin" "$(c size_percent_percent.fio)"
check size-1-percent-of-nothing 2 "size=1% needs an existing file or device.*missing-target" -- \
  "$bin" "$(c size_percent_of_nothing.fio)"
check size-overflow 2 "size_overflow.fio:3:6: option 'size': number .* is too large" -- \
  "$bin" "$(c size_overflow.fio)"
check option-outside-section 2 "option_outside_section.fio:1:1: option 'bs' outside of a section" -- \
  "$bin" "$(c option_outside_section.fio)"
check engine-option-for-another-engine 2 \
  "engine_option_wrong_engine.fio:4:.*'sqthread_poll' needs ioengine=io_uring" -- \
  "$bin" "$(c engine_option_wrong_engine.fio)"
check engine-missing-io_uring_cmd 2 "ioengine=io_uring_cmd" -- "$bin" "$(c engine_missing.fio)"
check engine-unknown 2 "no_such_engine" -- "$bin" "$(c engine_unknown.fio)"
check option-unknown 2 "option_unknown.fio:4:.*no_such_option" -- "$bin" "$(c option_unknown.fio)"
check rw-bad 2 "rw_bad.fio:4:4: option 'rw': bad rw mode 'sideways'" -- "$bin" "$(c rw_bad.fio)"
check verify-pattern-garbage 2 \
  "verify_pattern_bad.fio:7:16: option 'verify_pattern': pattern '0xZZ': 0x at byte 1 is followed by 'ZZ', not hex digits" -- \
  "$bin" "$(c verify_pattern_bad.fio)"
check buffer-pattern-file 2 "pattern_file.fio:6:16: option 'buffer_pattern': pattern file 'pattern.bin': No such file or directory" -- \
  "$bin" "$(c pattern_file.fio)"
check verify-pattern-file-cli 2 "option 'verify_pattern': pattern file 'p.bin': No such file or directory" -- \
  "$bin" --name=p --ioengine=null --size=1m --rw=write --verify=pattern "--verify_pattern='p.bin'"
check pattern-file-dir 2 "option 'buffer_pattern': pattern file '/': Is a directory" -- \
  "$bin" --name=p --ioengine=null --size=1m --rw=write "--buffer_pattern='/'"
check pattern-file-unnamed 2 "option 'buffer_pattern': pattern file '': a quoted part names a file" -- \
  "$bin" --name=p --ioengine=null --size=1m --rw=write "--buffer_pattern=0xff''"
check cli-terse-version-word 2 "^iobench: --terse-version=x: not a whole number" -- \
  "$bin" --name=p --ioengine=null --size=1m --terse-version=x
check percentile-zero 2 "option 'percentile_list'.*percentile 0 is not within \\(0, 100\\]" -- \
  "$bin" --name=p --ioengine=null --size=1m --percentile_list=0:50:100
# Values fio 3.33 reads as something else without a word (parseprobe audit).
check cli-empty-output 2 "option '--output' needs a value \\(it is empty\\)" -- \
  "$bin" --name=a --ioengine=null --size=1m --output= --output-format=terse
check cli-empty-sweep-cmd 2 "option '--sweep-cmd' needs a value" -- \
  "$bin" --name=a --ioengine=null --size=1m --sweep=iodepth=1,2 --sweep-cmd= --output-format=terse
check cli-empty-name 2 "command line: option 'name' needs a value" -- \
  "$bin" --name= --ioengine=null --size=1m
# Nesting that would overflow the parser's stack (a segfault before the
# bound): 20,000 parentheses and 120,000 signs on the command line.
deep=$(printf '%*s' 20000 '' | tr ' ' '(')1$(printf '%*s' 20000 '' | tr ' ' ')')
check cli-expression-20000-parentheses 2 "option 'size'.*expression nested too deeply" -- \
  "$bin" --parse-only --name=a --ioengine=null --size="$deep"
deep="($(printf '%*s' 120000 '' | tr ' ' '-')1)"
check cli-expression-120000-signs 2 "option 'size'.*expression nested too deeply" -- \
  "$bin" --parse-only --name=a --ioengine=null --size="$deep"
check cli-empty-directory 2 "command line: option 'directory' needs a value" -- \
  "$bin" --name=a --ioengine=null --size=1m --directory=
check cli-bs-range 2 "option 'bs' takes one size per direction; for a range write bsrange=4k-16k" -- \
  "$bin" --name=a --ioengine=null --size=1m --bs=4k-16k
check cli-rwmix-percent 2 "option 'rwmixread' takes a plain number, without '%'" -- \
  "$bin" --name=a --ioengine=null --size=1m --rw=randrw --rwmixread=70%
check cli-fraction-percent 2 "option 'offset' takes a whole percentage, got '12.5%'" -- \
  "$bin" --name=a --ioengine=null --size=1m --offset=12.5%
check cli-fraction-share 2 "bssplit share '10.5' must be a whole number" -- \
  "$bin" --name=a --ioengine=null --size=1m --bssplit=4k/10.5:8k/89.5
check cli-zipf-nan 2 "option 'random_distribution': bad zipf parameter 'nan'" -- \
  "$bin" --name=a --ioengine=null --size=1m --rw=randread --random_distribution=zipf:nan
check cli-zipf-huge 2 "zipf theta '1e9' must be between -10 and 100" -- \
  "$bin" --name=a --ioengine=null --size=1m --rw=randread --random_distribution=zipf:1e9
check cli-pareto-nan 2 "option 'random_distribution': bad pareto parameter 'nan'" -- \
  "$bin" --name=a --ioengine=null --size=1m --rw=randread --random_distribution=pareto:nan
check cli-normal-deviation 2 "normal deviation '-1' must be above 0 and below 100" -- \
  "$bin" --name=a --ioengine=null --size=1m --rw=randread --random_distribution=normal:-1
check section-unclosed 2 "section_unclosed.fio:1:3: missing '\]'" -- "$bin" "$(c section_unclosed.fio)"
check wait-for-unknown 2 "wait_for=nobody \\(.*wait_for_unknown.fio:4\\): no job of that name" -- "$bin" "$(c wait_for_unknown.fio)"
check name-not-utf8 2 "name_latin1.fio:2:5: byte 0xE9 is not UTF-8 text" -- \
  "$bin" --output-format=json "$(c name_latin1.fio)"
check job-file-missing 2 "nonexistent-$$.fio: No such file" -- "$bin" "$work/../nonexistent-$$.fio"
check job-file-is-directory 2 "is a directory" -- "$bin" "$work/sub"

# Binary garbage: a fixed one (reproducible) and a fresh one from /dev/urandom.
python3 -c "import random,sys; r=random.Random(6); sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(4096)))" \
  >"$work/../iobench-garbage.$$"
check binary-garbage-fixed 2 "iobench-garbage.$$:[0-9]+:[0-9]+: " -- "$bin" "$work/../iobench-garbage.$$"
head -c 4096 /dev/urandom >"$work/../iobench-garbage.$$"
check binary-garbage-urandom 2 "iobench-garbage.$$:[0-9]+" -- "$bin" "$work/../iobench-garbage.$$"
# A message must not carry raw control bytes to the terminal.
"$bin" "$work/../iobench-garbage.$$" 2>&1 >/dev/null | LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]' &&
  { echo "FAIL binary-garbage: control bytes on stderr"; fails=$((fails + 1)); }
rm -f "$work/../iobench-garbage.$$"

# A 10 MB line: refused by line number, and not echoed back whole.
python3 -c "print('[a]'); print('description=' + 'x' * (10 << 20))" >"$work/../iobench-long.$$"
check ten-megabyte-line 2 "iobench-long.$$:2:1: line longer than 8192 bytes" -- \
  "$bin" "$work/../iobench-long.$$"
rm -f "$work/../iobench-long.$$"

# Limits checked before the run, naming the limit and how to raise it.
check memory-for-buffers 2 "memory: the I/O buffers need .* but MemAvailable is" -- \
  "$bin" --name=a --ioengine=psync --filename=never-created --size=1g --bs=1g --iodepth=100000

# --- targets ---
# The option that named the target, and where (as for the other file errors).
check target-directory 2 "job 'a': filename=. at .*/target_directory.fio:3: target . is a directory" -- \
  "$bin" "$(c target_directory.fio)"
check target-directory-write 2 "job 'a': filename=sub at <cmdline>: target sub is a directory" -- \
  "$bin" --name=a --ioengine=psync --rw=write --size=1m --filename=sub
mkfifo fifo
check target-fifo 2 "filename=fifo at <cmdline>: target fifo is not a regular file or block device" -- \
  "$bin" --name=a --ioengine=psync --size=1m --filename=fifo
check target-fifo-write 2 "fifo is not a regular file or block device" -- \
  "$bin" --name=a --ioengine=psync --rw=write --size=1m --filename=fifo
rm -f fifo
check target-missing-device 2 "/dev/iobench-no-such-device does not exist" -- \
  "$bin" --name=a --ioengine=psync --rw=write --size=1m --filename=/dev/iobench-no-such-device
[ -e /dev/iobench-no-such-device ] && { echo "FAIL: /dev node created"; fails=$((fails + 1)); }
# An unwritable directory: a read-only tmpfs as root (root ignores modes), a
# directory without write permission otherwise.
mkdir ro
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o ro,size=1m tmpfs "$work/ro" 2>/dev/null; then
  ro_mounted=1
  ro_why="Read-only file system"
else
  chmod 555 ro
  ro_why="Permission denied"
fi
if [ -n "$ro_mounted" ] || [ "$(id -u)" -ne 0 ]; then
  check unwritable-directory 2 "ro/a.0.0: $ro_why" -- \
    "$bin" --name=a --ioengine=psync --rw=write --size=1m --directory=ro
  check unwritable-directory-read-layout 2 "ro/f: $ro_why" -- \
    "$bin" --name=a --ioengine=psync --rw=read --size=1m --filename=ro/f
else
  echo "skip unwritable-directory: root without mount(2)"
fi
[ -n "$ro_mounted" ] && umount "$work/ro" && ro_mounted=""
chmod 755 ro && rmdir ro

# --- --parse-only refuses what a run would refuse before its first file ---
# (It used to pass these, and the run then failed with exit 2.)
po="$work/../iobench-po.$$"
mkdir "$po"
printf '[a]\nioengine=null\nsize=1m\nnrfiles=4\nopenfiles=2\nverify=crc32c\n' >"$po/of.fio"
check parse-only-openfiles-verify 2 \
  "openfiles=2 \(.*of.fio:5\) below its 4 files is not supported with verify \(.*of.fio:6\)" -- \
  "$bin" --parse-only "$po/of.fio"
printf '[a]\nioengine=libaio\nsize=1m\nrw=randread\ncmdprio_bssplit=4k/50/1/3:8k/50/2/5\n' \
  >"$po/prio.fio"
printf 'cmdprio_percentage=10\n' >>"$po/prio.fio"
check parse-only-cmdprio-bssplit 2 \
  "cmdprio_percentage \(.*prio.fio:6\) and cmdprio_bssplit \(.*prio.fio:5\) are mutually exclusive" -- \
  "$bin" --parse-only "$po/prio.fio"
printf '[a]\nioengine=null\nsize=1m\nss=iops_slope:1%%\nss_dur=1\n' >"$po/ss.fio"
check parse-only-slope-one-sample 2 "steadystate_duration=1s \(.*ss.fio:5\).*at least 2 samples" -- \
  "$bin" --parse-only "$po/ss.fio"
printf '[a]\nioengine=io_uring\nsize=1m\nsqthread_poll_cpu=0\nfilename=%s/t\n' "$po" >"$po/sq.fio"
check parse-only-engine-refusal 2 "job 'a'.*io_uring: sqthread_poll_cpu \(.*sq.fio:4\) is set but sqthread_poll" -- \
  "$bin" --parse-only "$po/sq.fio"
# An engine's refusal names where the option was set, as the parser's do.
printf '[a]\nsize=1m\nfilename=%s/t\nioengine=io_uring\nhipri=1\n' "$po" >"$po/hipri.fio"
check engine-refusal-where 2 "job 'a': io_uring: hipri=1 \(.*hipri.fio:5\) needs direct=1" -- \
  "$bin" --parse-only "$po/hipri.fio"
printf '[a]\nsize=1m\nfilename=%s/t\nioengine=io_uring\nsqthread_poll=1\nsqthread_poll_cpu=4096\n' "$po" >"$po/cpu.fio"
check engine-refusal-where-value 2 "io_uring: sqthread_poll_cpu=4096 \(.*cpu.fio:6\): CPU 4096" -- \
  "$bin" --parse-only "$po/cpu.fio"
check engine-refusal-where-cmdline 2 "io_uring: hipri=1 \(<cmdline>\) needs direct=1" -- \
  "$bin" --parse-only --name=a --size=1m --filename="$po/t" --ioengine=io_uring --hipri
rm -rf "$po"

# --- tool options ---
# fio prints these on stderr ("No such command", "engine not loadable");
# iobench printed them on stdout, and --enghelp's with exit 0.
check cmdhelp-unknown 2 "^iobench: --cmdhelp=bogus: unknown option" -- "$bin" --cmdhelp=bogus
check enghelp-unknown-engine 2 "^iobench: --enghelp=bogus: unknown ioengine 'bogus'" -- \
  "$bin" --enghelp=bogus
check enghelp-fio-engine 2 "^iobench: --enghelp=sg: ioengine 'sg' is a fio engine that iobench does not support yet" -- \
  "$bin" --enghelp=sg
check enghelp-unknown-engine-suggests 2 "^iobench: --enghelp=libaoi: unknown ioengine 'libaoi'; did you mean 'libaio'\?" -- \
  "$bin" --enghelp=libaoi
check enghelp-unknown-option 2 "'bogus' is not an option of ioengine io_uring" -- \
  "$bin" --enghelp=io_uring,bogus
# fio accepts --warnings-fatal; iobench refused it as unsupported.
printf '[a]\nioengine=null\nsize=1m\nverifysort=1\n' >"$work/../iobench-wf.$$.fio"
check warnings-fatal 2 "^iobench: --warnings-fatal: 1 warning above, not running" -- \
  "$bin" --warnings-fatal "$work/../iobench-wf.$$.fio"
rm -f "$work/../iobench-wf.$$.fio"
# --max-jobs and --alloc-size are accepted and ignored (as fio 3.33), but
# still take a number.
check max-jobs-not-a-number 2 "^iobench: --max-jobs=many: not a whole number" -- \
  "$bin" --max-jobs=many --name=a --ioengine=null --size=1m
check max-jobs-too-large 2 "^iobench: --max-jobs=99999999999999999999: out of range \(0 to 4294967295\)" -- \
  "$bin" --max-jobs=99999999999999999999 --name=a --ioengine=null --size=1m
check max-jobs-negative 2 "^iobench: --max-jobs=-1: out of range" -- \
  "$bin" --max-jobs=-1 --name=a --ioengine=null --size=1m
check alloc-size-negative 2 "^iobench: --alloc-size=-5: must be a whole number of KiB" -- \
  "$bin" --alloc-size=-5 --name=a --ioengine=null --size=1m
check alloc-size-not-a-number 2 "^iobench: --alloc-size=16m: must be a whole number of KiB" -- \
  "$bin" --alloc-size=16m --name=a --ioengine=null --size=1m
# fio: "eta new line time too short"; iobench took 0 as "no newlines".
check eta-newline-zero 2 "^iobench: --eta-newline=0s: must be at least 1ms" -- \
  "$bin" --eta-newline=0s --name=a --ioengine=null --size=1m
check output-into-missing-dir 2 "--output=/nonexistent-iobench-dir/out.txt.*No such file" -- \
  "$bin" --output=/nonexistent-iobench-dir/out.txt --name=a --ioengine=null --size=1m
# fio: "output file open error: Is a directory" before running; iobench ran
# the jobs and then could not write the report (exit 1).
check output-is-a-directory 2 "--output=sub: Is a directory" -- \
  "$bin" --output=sub --name=a --ioengine=null --size=1m
check unknown-tool-option 2 "unknown option 'bogus-tool-option'" -- \
  "$bin" --bogus-tool-option --name=a --ioengine=null --size=1m
check output-format-bad 2 "bad --output-format 'xml'" -- \
  "$bin" --output-format=xml --name=a --ioengine=null --size=1m
# An empty piece said "bad --output-format ''": the whole value, and why.
check output-format-empty-piece 2 "bad --output-format 'json,': a format in the comma-separated list is empty" -- \
  "$bin" --output-format=json, --name=a --ioengine=null --size=1m
check sweep-garbage 2 "--sweep garbage: expected KEY=" -- \
  "$bin" --sweep=garbage --name=a --ioengine=null --size=1m
check sweep-empty-values 2 "--sweep bs=: no values" -- \
  "$bin" --sweep=bs= --name=a --ioengine=null --size=1m
check sweep-backward-range 2 "start is greater than end" -- \
  "$bin" --sweep=bs=8..1:x2 --name=a --ioengine=null --size=1m
check sweep-huge-range 2 "more than 100000 values" -- \
  "$bin" --sweep=bs=1..100000000000:+1 --name=a --ioengine=null --size=1m
check sweep-not-an-option 2 "'nosuch' is not a job option, and there is no --sweep-cmd" -- \
  "$bin" --sweep=nosuch=1,2 --name=a --ioengine=null --size=1m
# A typo with a hook that never uses the key ran the same jobs at each point.
check sweep-typo-hook-unused 2 "'iodeph' is not a job option, and --sweep-cmd 'true' does not use it .*did you mean iodepth" -- \
  "$bin" --sweep=iodeph=1,2 --sweep-cmd=true --name=a --ioengine=null --size=1m --output-format=table
check sweep-typo-hook-other-key 2 "'iodeph' is not a job option, and --sweep-cmd 'echo \{bs\}' does not use it" -- \
  "$bin" --sweep=bs=4k,8k --sweep=iodeph=1,2 --sweep-cmd='echo {bs}' --name=a --ioengine=null --size=1m
# --table-metric/--table-style where nothing reads them changed nothing (exit 0).
check table-metric-json-alone 2 "--table-metric=bw: nothing reads it with --output-format=json" -- \
  "$bin" --sweep=bs=4k,8k --table-metric=bw --output-format=json --name=a --ioengine=null --size=1m
check table-style-json-alone 2 "--table-style=csv: no table is written as text with --output-format=json" -- \
  "$bin" --sweep=bs=4k,8k --table-style=csv --output-format=json --name=a --ioengine=null --size=1m
check sweep-bad-value 2 "bs" -- "$bin" --sweep=bs=4k,0 --name=a --ioengine=null --size=1m
printf 'not json at all\n' >"$work/../iobench-notjson.$$"
check compare-not-json 2 "iobench-notjson.$$: (no JSON document found|not valid JSON)" -- \
  "$bin" --compare="$work/../iobench-notjson.$$" --name=a --ioengine=null --size=1m
echo '{"a": 1}' >"$work/../iobench-nojobs.$$.json"
check compare-json-without-jobs 2 "no \"jobs\" array" -- \
  "$bin" --compare="$work/../iobench-nojobs.$$.json" --name=a --ioengine=null --size=1m
check compare-two-files-not-json 2 "iobench-notjson.$$: (no JSON document found|not valid JSON)" -- \
  "$bin" --compare="$work/../iobench-notjson.$$" "$work/../iobench-nojobs.$$.json"
rm -f "$work/../iobench-notjson.$$" "$work/../iobench-nojobs.$$.json"
# A bad number is not "out of range" (it said "Value abc not in range 1 to 1000").
for v in 0 abc 1.5 1001; do
  check "repeat-$v" 2 "^iobench: --repeat: '$v' is not a whole number from 1 to 1000$" -- \
    "$bin" --repeat=$v --name=a --ioengine=null --size=1m
done
# The option and the value named once (it said "--eta=sometimes: --eta: 'sometimes' ...").
check eta-bad 2 "^iobench: --eta: 'sometimes' is not one of auto, always, never$" -- \
  "$bin" --eta=sometimes --name=a --ioengine=null --size=1m
# A control character in a file name is refused on the command line, as in a
# job file, and never reaches stderr raw (an escape sequence would recolour
# the terminal): the echoed argument shows it as '?'.
check control-char-escaped 2 "^command line: option 'filename': control character \\(byte 27\\) in the value" -- \
  "$bin" --name=r --filename=$'sub/\033[31mx' --size=4k --rw=read --readonly
grep -q $'\033' "$errf" && { echo "FAIL control-char-escaped: a raw escape on stderr"; fails=$((fails + 1)); }
check status-interval-too-small 2 \
  "^iobench: --status-interval=10us: too small: at least 1ms, as in fio$" -- \
  "$bin" --status-interval=10us --name=a --ioengine=null --size=1m
check status-interval-mode-bad 2 \
  "^iobench: --status-interval-mode: 'delta' is not one of cumulative, interval$" -- \
  "$bin" --status-interval-mode=delta --name=a --ioengine=null --size=1m
# fio reads --eta-interval/--eta-newline as times in seconds and refuses an
# interval below 250 ms (iobench once read milliseconds and clamped).
check eta-interval-short 2 "--eta-interval=100ms: must be at least 250ms" -- \
  "$bin" --eta-interval=100ms --name=a --ioengine=null --size=1m
check eta-newline-negative 2 "--eta-newline=-2: must be at least 1ms" -- \
  "$bin" --eta-newline=-2 --name=a --ioengine=null --size=1m
printf '[a]\nioengine=null\nsize=1m\n' >"$work/../iobench-valid.$$.fio"
check section-unknown 2 "--section=nosuch matches no job" -- \
  "$bin" --section=nosuch "$work/../iobench-valid.$$.fio"
rm -f "$work/../iobench-valid.$$.fio"

# Mutated real job files (a fixed seed, so a failure reproduces): with
# --parse-only nothing runs; each must end with 0 or 2, never a crash or hang.
mkdir "$work/../iobench-mut.$$"
python3 - "$src/jobs" "$work/../iobench-mut.$$" <<'PY'
import os, random, sys
src, out = sys.argv[1], sys.argv[2]
files = []
for root, _, names in os.walk(src):
    files += [os.path.join(root, n) for n in names if n.endswith(".fio")]
r = random.Random(6)
pieces = [b"[", b"]", b"=", b"${", b"}", b"%", b"%%", b"include ", b"\n", b",", b":", b"-",
          b"0", b"999999999999999999999", b"k", b"\xff", b"\x00", b"#", b";", b"'", b'"']
for i in range(150):
    data = bytearray(open(r.choice(sorted(files)), "rb").read())
    for _ in range(r.randint(1, 8)):
        op = r.randint(0, 2)
        pos = r.randint(0, len(data))
        if op == 0:
            data[pos:pos] = r.choice(pieces)
        elif op == 1:
            del data[pos:pos + r.randint(1, 16)]
        else:
            data[pos:pos] = data[r.randint(0, len(data)):][:r.randint(1, 64)]
    open(os.path.join(out, "m%03d.fio" % i), "wb").write(bytes(data))
PY
mut_bad=0
for f in "$work/../iobench-mut.$$"/*.fio; do
  timeout 20 "$bin" --parse-only "$f" >/dev/null 2>&1
  rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
    echo "FAIL mutated $(basename "$f") (seed 6, regenerate with the script): exit $rc"
    head -c 400 "$f" | sed 's/^/  | /'
    mut_bad=$((mut_bad + 1))
  fi
done
n=$((n + 1))
[ "$mut_bad" -eq 0 ] && echo "ok   150 mutated job files (--parse-only)" || fails=$((fails + 1))
rm -rf "$work/../iobench-mut.$$"

rm -f "$outf" "$errf"
echo "$n cases, $fails failed"
[ "$fails" -eq 0 ]
