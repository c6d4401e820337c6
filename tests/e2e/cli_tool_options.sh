#!/bin/bash
# fio's command-line (tool) options as iobench takes them, against what
# fio 3.33 does with the same arguments: exit codes, which stream, files.
# Runs only --version/--help and null-engine jobs of 1 MiB (well under a
# second). $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary $bin"; exit 77; }
work=$(mktemp -d /tmp/iobench-cliopts.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# -v is fio's short --version (exit 0, version on stdout); iobench refused it.
out=$("$bin" -v 2>err) || fail "-v: exit $?: $(cat err)"
[ "$out" = "$("$bin" --version)" ] || fail "-v printed '$out'"
[ -s err ] && fail "-v wrote to stderr: $(cat err)"

# fio's one-letter options: `-C host`, `-S`, `-d io` got "command line:
# unknown option 'C'"; each is refused as its long form is, naming both.
# A supported one is its long form (`-o FILE -m` is --output=FILE --minimal).
for pair in C:client S:server d:debug p:profile; do
  "$bin" "-${pair%%:*}" localhost --name=a --ioengine=null --size=1m >out 2>err
  rc=$?
  [ $rc -eq 2 ] || fail "-${pair%%:*}: exit $rc, want 2"
  want="iobench: '-${pair%%:*}' ('--${pair#*:}') is a fio command-line option that iobench does not support"
  [ "$(cat err)" = "$want" ] || fail "-${pair%%:*}: stderr '$(cat err)', want '$want'"
  [ -s out ] && fail "-${pair%%:*}: stdout: $(head -c 100 out)"
done
"$bin" -o short.txt -m --name=a --ioengine=null --size=1m >out 2>err || fail "-o -m: exit $?: $(cat err)"
grep -q '^3;iobench-' short.txt || fail "-o -m: short.txt is not terse: $(head -c 100 short.txt)"
rm -f short.txt
# A value stuck to the letter, as fio's getopt_long_only reads it: `-ofile`
# was "unknown option 'ofile'". A word that names an option stays that
# option: -offset=4k is the job's offset, not --output=ffset=4k.
"$bin" -ostuck.txt -Fjson --name=a --ioengine=null --size=8k -offset=4k >out 2>err ||
  fail "-ostuck.txt: exit $?: $(cat err)"
[ -s out ] && fail "-ostuck.txt: stdout: $(head -c 100 out)"
grep -q '"offset" : "4k"' stuck.txt || fail "-ostuck.txt -Fjson -offset=4k: $(head -c 100 stuck.txt)"
[ -e ffset=4k ] && fail "-offset=4k was read as -o ffset=4k"
"$bin" -Cfoo --name=a --ioengine=null --size=1m >out 2>err
[ "$(cat err)" = "iobench: '-C' ('--client') is a fio command-line option that iobench does not support" ] ||
  fail "-Cfoo: $(cat err)"
rm -f stuck.txt

# A repeated tool option: the last one wins, as in fio (CLI11 refused the
# repeat: "--output: At Most 1 required but received 2").
job=(--name=a --ioengine=null --size=1m)
"$bin" --output=first.txt --output=last.txt --output-format=json --output-format=terse \
  --terse-version=2 --terse-version=4 "${job[@]}" >out 2>err || fail "repeat: exit $?: $(cat err)"
[ -e first.txt ] && fail "repeat: first --output was written"
grep -q '^4;iobench-' last.txt || fail "repeat: last.txt is not terse v4: $(head -c 100 last.txt)"
[ -s out ] && fail "repeat: stdout not empty: $(head -c 100 out)"
[ -s err ] && fail "repeat: stderr: $(cat err)"
rm -f last.txt first.txt

# A report that cannot be written to stdout is an error (iobench exited 0
# with the report lost; fio 3.33 still does). /dev/full fails every write.
if [ -w /dev/full ]; then
  "$bin" "${job[@]}" >/dev/full 2>err
  rc=$?
  [ $rc -eq 1 ] || fail "stdout full: exit $rc, want 1"
  grep -q 'cannot write the report to stdout: No space left on device' err ||
    fail "stdout full: stderr '$(cat err)'"
  "$bin" "${job[@]}" --showcmd >/dev/full 2>err
  rc=$?
  [ $rc -eq 1 ] || fail "showcmd to full stdout: exit $rc, want 1"
  grep -q 'cannot write the report to stdout' err || fail "showcmd stdout full: '$(cat err)'"
  "$bin" "${job[@]}" --parse-only >/dev/full 2>err
  rc=$?
  [ $rc -eq 1 ] || fail "parse-only to full stdout: exit $rc, want 1"
  # --output says why too (it said only "cannot write --output=/dev/full"),
  # and interim reports that cannot be written are said once, not per report.
  "$bin" "${job[@]}" --output=/dev/full 2>err
  rc=$?
  [ $rc -eq 1 ] || fail "--output full: exit $rc, want 1"
  [ "$(cat err)" = "iobench: cannot write --output=/dev/full: No space left on device" ] ||
    fail "--output full: stderr '$(cat err)'"
  "$bin" --name=s --ioengine=null --size=1g --rate=400m --status-interval=500ms \
    --output=/dev/full 2>err
  rc=$?
  [ $rc -eq 1 ] || fail "interim to a full --output: exit $rc, want 1"
  [ "$(grep -c . err)" -eq 1 ] || fail "interim to a full --output: stderr '$(cat err)'"
else
  echo "note: /dev/full not writable; stdout write failure not checked"
fi

# --parse-only shows the files the run opens (it showed the template
# ./$jobname.$jobnum.$filenum), and that time_based without a runtime is
# dropped (the job runs size-based, as in fio).
out=$("$bin" --parse-only --name=a --ioengine=null --size=4k --nrfiles=2 --time_based 2>err) ||
  fail "parse-only files: exit $?: $(cat err)"
[[ $out == *" files=a.0.0:a.0.1 "* ]] || fail "parse-only files: $out"
[[ $out == *"runtime=none (time_based ignored: it needs a runtime)" ]] || fail "parse-only time_based: $out"
out=$("$bin" --parse-only --name=a --ioengine=null --size=4k --numjobs=12 --time_based --runtime=2 2>err)
[[ $out == *" files=a.0.0:a.1.0:a.2.0:a.3.0:a.4.0:a.5.0:a.6.0:a.7.0:... (12 files) runtime=2s (time_based)" ]] ||
  fail "parse-only many files: $out"

# A tool option does not take an option as its separated value: `--output
# --minimal two.fio` wrote the report to a file named "--minimal" (fio does
# too), `--output --name=a ...` said "no jobs defined".
printf '[two]\nioengine=null\nsize=64k\n' >two.fio
"$bin" --output --minimal two.fio >out 2>err
rc=$?
[ $rc -eq 2 ] || fail "--output --minimal: exit $rc, want 2"
[ -e ./--minimal ] && fail "--output --minimal: wrote a file named --minimal"
grep -q "option '--output' needs a value, but the next argument '--minimal' is an option; write --output=VALUE (--output=./--minimal if that is really the value)" err ||
  fail "--output --minimal: stderr '$(cat err)'"
"$bin" --output --name=a --ioengine=null --size=64k >out 2>err
rc=$?
[ $rc -eq 2 ] && grep -q "next argument '--name=a' is an option" err ||
  fail "--output --name=a: exit $rc, stderr '$(cat err)'"
# "--", the end of the options, is not a value either (a file named "--").
"$bin" --output -- two.fio >out 2>err
rc=$?
[ $rc -eq 2 ] && grep -q "next argument '--' is an option" err && [ ! -e ./-- ] ||
  fail "--output --: exit $rc, stderr '$(cat err)'"
rm -f ./--
"$bin" --section --output-format=json two.fio >out 2>err
rc=$?
[ $rc -eq 2 ] && grep -q "next argument '--output-format=json' is an option" err ||
  fail "--section --output-format=json: exit $rc, stderr '$(cat err)'"
"$bin" --output=./--minimal --minimal two.fio >out 2>err || fail "--output=./--minimal: exit $?: $(cat err)"
grep -q '^3;iobench-' ./--minimal || fail "--output=./--minimal: not terse: $(head -c 100 ./--minimal)"
rm -f ./--minimal

# --output naming a job file (or one it includes, or a link to it) is
# refused before anything runs: the report replaced the job file.
cp two.fio ow.fio
printf 'ioengine=null\nsize=64k\n' >opts.inc
printf '[a]\ninclude opts.inc\n' >inc.fio
ln -s ow.fio link.fio
for args in "--output=ow.fio ow.fio" "--output=./ow.fio --parse-only ow.fio" \
  "--output=link.fio ow.fio" "--output=opts.inc inc.fio"; do
  # shellcheck disable=SC2086
  "$bin" $args >out 2>err
  rc=$?
  [ $rc -eq 2 ] || fail "$args: exit $rc, want 2"
  grep -q "a job file this run reads: the report would overwrite it" err || fail "$args: stderr '$(cat err)'"
done
cmp -s two.fio ow.fio || fail "--output=ow.fio changed the job file: $(head -c 100 ow.fio)"
[ "$(cat opts.inc)" = "$(printf 'ioengine=null\nsize=64k')" ] || fail "opts.inc changed"
# The same for the other files a run reads or writes: --compare's results
# files, a job's read_iolog and write_iolog (the report replaced them, or
# mixed with the recorded log).
"$bin" --name=a --ioengine=null --size=64k --output-format=json --output=base.json >/dev/null 2>&1 ||
  fail "base run"
cp base.json new.json
printf 'fio version 2 iolog\n' >rl.log
for case in "--compare base.json new.json --output-format=json --output=base.json|the --compare base results" \
  "--compare base.json new.json --output=./new.json|the --compare new results" \
  "--compare base.json --name=a --ioengine=null --size=64k --output=base.json|the --compare base results" \
  "--name=a --read_iolog=rl.log --output=rl.log|the log job 'a' replays (read_iolog)" \
  "--name=a --ioengine=null --size=64k --write_iolog=wl.log --output=wl.log|the I/O log of job 'a' (write_iolog=wl.log at <cmdline>)" \
  "--name=a --ioengine=null --size=64k --write_iolog=wl2.log --output=./wl2.log|the I/O log of job 'a' (write_iolog=wl2.log at <cmdline>)"; do
  args=${case%%|*}
  # shellcheck disable=SC2086
  "$bin" $args >out 2>err
  rc=$?
  [ $rc -eq 2 ] || fail "$args: exit $rc, want 2"
  grep -qF "${case#*|}: the report would overwrite it" err || fail "$args: stderr '$(cat err)'"
done
cmp -s base.json new.json || fail "--output overwrote a --compare results file"
[ "$(cat rl.log)" = "fio version 2 iolog" ] || fail "--output overwrote the replayed log"
# And the files the jobs read or write (the report replaced a write job's
# data file, or the file a read job read) and the logs the run writes
# beside them (--output=x_bw.1.log --write_bw_log=x lost the log): each
# message names --output and the job's option. Clone numbers count across
# jobs, as the log names do; another spelling of a file not made yet counts;
# so do the files a --sweep point's values name, the mem=mmap:FILE buffer
# file and each clone's verify state (saved, or loaded).
printf 'keep\n' >d.dat
head -c 65536 /dev/zero >r.dat
for case in "--name=a --rw=write --size=64k --filename=d.dat --output=d.dat|a file job 'a' writes (filename=d.dat at <cmdline>)" \
  "--name=a --rw=read --size=64k --filename=r.dat --output=./r.dat|a file job 'a' reads (filename=r.dat at <cmdline>)" \
  "--name=g --size=64k --output=g.0.0|a file job 'g' reads (filename_format=\$jobname.\$jobnum.\$filenum)" \
  "--name=x --ioengine=null --size=64k --write_bw_log=x --output=x_bw.1.log|a log of job 'x' (write_bw_log=x at <cmdline>)" \
  "--name=x --ioengine=null --size=64k --numjobs=2 --write_lat_log --output=./x_clat.2.log|a log of job 'x' (write_lat_log=x at <cmdline>)" \
  "--name=a --ioengine=null --size=64k --name=b --ioengine=null --size=64k --write_hist_log=h --output=h_clat_hist.2.log|a log of job 'b' (write_hist_log=h at <cmdline>)" \
  "--name=x --ioengine=null --size=64k --write_iops_log=i --per_job_logs=0 --output=i_iops.log|a log of job 'x' (write_iops_log=i at <cmdline>)" \
  "--name=x --ioengine=null --size=64k --exec_prerun=true --output=x.prerun.txt|the output file of job 'x' (exec_prerun=true at <cmdline>)" \
  "--name=x --ioengine=null --size=64k --bandwidth-log --output=agg-read_bw.log|a --bandwidth-log file" \
  "--name=x --ioengine=null --size=64k --sweep write_bw_log=a,b --output=b_bw.1.log|a log of job 'x' (write_bw_log=b at <sweep>)" \
  "--name=x --rw=write --size=64k --sweep filename=p,q --output=./q|a file job 'x' writes (filename=q at <sweep>)" \
  "--name=m --ioengine=null --size=64k --mem=mmap:buf --output=./buf|the I/O buffer file of job 'm' (mem=mmap:buf at <cmdline>)" \
  "--name=m --ioengine=null --size=64k --iomem=mmapshared:buf --output=buf|the I/O buffer file of job 'm' (mem=mmapshared:buf at <cmdline>)" \
  "--name=v --rw=write --size=64k --filename=vd --verify=crc32c --output=local-v-0-verify.state|the verify state of job 'v' (verify_state_save=1)" \
  "--name=v --rw=write --size=64k --filename=vd --numjobs=2 --verify=crc32c --output=./local-v-1-verify.state|the verify state of job 'v' (verify_state_save=1)" \
  "--name=v --rw=write --size=64k --filename=vd --verify=crc32c --output=local-v-0-verify.state.tmp|the verify state's temporary file of job 'v' (verify_state_save=1)" \
  "--name=v --rw=read --size=64k --filename=r.dat --verify=crc32c --verify_only=1 --verify_state_load=1 --output=local-v-0-verify.state|the verify state of job 'v' (verify_state_load=1 at <cmdline>)"; do
  args=${case%%|*}
  # shellcheck disable=SC2086
  "$bin" $args >out 2>err
  rc=$?
  [ $rc -eq 2 ] || fail "$args: exit $rc, want 2"
  grep -qF -- "${case#*|}: the report would overwrite it" err || fail "$args: stderr '$(cat err)'"
  grep -qF -- "--output=" err || fail "$args: the message does not name --output: '$(cat err)'"
done
[ "$(cat d.dat)" = keep ] || fail "--output overwrote a write job's data file"
cmp -s r.dat <(head -c 65536 /dev/zero) || fail "--output overwrote a read job's data file"
for f in g.0.0 x_bw.1.log x_clat.2.log h_clat_hist.2.log i_iops.log x.prerun.txt agg-read_bw.log \
  a_bw.1.log b_bw.1.log p q buf vd local-v-0-verify.state local-v-1-verify.state; do
  [ -e "$f" ] && fail "$f made by a refused run"
done
# The null engine stores no data: it neither verifies nor saves a state, so
# the report may take that name.
"$bin" --name=v --ioengine=null --rw=write --size=64k --verify=crc32c \
  --output=local-v-0-verify.state >out 2>err || fail "null engine's verify state: exit $?: $(cat err)"
grep -q "Run status" local-v-0-verify.state || fail "no report in local-v-0-verify.state"
rm -f local-v-0-verify.state
# A --output that is no regular file clobbers nothing (/dev/null as both).
"$bin" --name=n --ioengine=null --size=64k --filename=/dev/null --output=/dev/null >out 2>err ||
  fail "--output=/dev/null --filename=/dev/null: exit $?: $(cat err)"

echo "$fails failed"
[ "$fails" -eq 0 ]
