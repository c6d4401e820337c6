#!/bin/bash
# No file a run writes besides its targets (its side files: the mem=mmap:FILE
# buffer file, the verify state, the exec_prerun/exec_postrun output, the
# logs, verify_dump's files, --bandwidth-log) may be one of the run's data
# files or one of the job files it was read from (docs/safety.md). fio 3.33
# destroys each: `--rw=read --filename=ex --mem=mmap:ex` truncated the file
# the job read to 8192 bytes (exit 0), the verify state was renamed over a
# data file, a hook's output replaced one, `write_iolog=j.fio` in j.fio
# appended the log to the job file. Refused before any I/O (exit 2), naming
# the side file's option, where it was set, and the file it would destroy;
# the victim keeps its size and checksum.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
work=$tmp
run=("$bin" --eta=never)
# keep FILE...: remembers the files' checksums; unchanged NAME: compares.
declare -A sums
keep() { local f; for f; do sums[$f]=$(md5sum <"$f"); done; }
unchanged() {
  local f
  for f in "${!sums[@]}"; do
    [ "$(md5sum <"$f")" = "${sums[$f]}" ] || fail "$1: $f changed ($(stat -c %s "$f") bytes)"
  done
}
head -c 1048576 /dev/urandom >ex
mkdir sub
head -c 65536 /dev/urandom >sub/w.1.0
keep ex sub/w.1.0

# F1: the buffer file, in a read job, by each mem type and the iomem alias.
for mem in mmap mmapshared; do
  for opt in mem iomem; do
    expect_run "$opt=$mem:FILE onto the file the job reads" 2 \
      "^iobench: job 'w': mem=$mem:ex \(<cmdline>\) writes ex, a file job 'w' reads \(filename=ex at <cmdline>\): the file would be truncated to the buffers' size" \
      -- "${run[@]}" --name=w --rw=read --size=1m --bs=4k --filename=ex --$opt=$mem:ex
    unchanged "$opt=$mem:ex"
  done
done
# ...another spelling of a clone's generated name in directory=.
expect_run "mem=mmap:FILE onto a clone's generated name" 2 \
  "^iobench: job 'w': mem=mmap:\./sub/\.\./sub/w\.1\.0 \(<cmdline>\) writes \./sub/\.\./sub/w\.1\.0, the same file as sub/w\.1\.0, a file job 'w' reads \(filename_format=" \
  -- "${run[@]}" --name=w --rw=read --size=64k --directory=sub --numjobs=2 --mem=mmap:./sub/../sub/w.1.0
unchanged "mem=mmap: clone name"

# F2: the verify state (and its temporary file) over a data file.
cp ex local-w-0-verify.state
cp ex local-w-1-verify.state.tmp
keep local-w-0-verify.state local-w-1-verify.state.tmp
expect_run "the verify state onto the job's file" 2 \
  "^iobench: job 'w': verify_state_save=1 \(the default\) writes local-w-0-verify\.state, a file job 'w' writes \(filename=local-w-0-verify\.state at <cmdline>\): the state would be renamed over it when the job ends; rename the job, run it from another directory, or set verify_state_save=0$" \
  -- "${run[@]}" --name=w --rw=write --size=256k --filename=local-w-0-verify.state --verify=crc32c
unchanged "verify state"
expect_run "a clone's state's temporary file onto another job's file" 2 \
  "^iobench: job 'w': verify_state_save=1 \(the default\) writes local-w-1-verify\.state\.tmp, a file job 'r' reads" \
  -- "${run[@]}" --name=r --rw=read --size=64k --filename=local-w-1-verify.state.tmp \
  --name=w --rw=write --size=64k --filename=wd --numjobs=2 --verify=crc32c
unchanged "verify state .tmp"
[ -e wd ] && fail "verify state: wd was laid out by a refused run"
# verify_state_save=0 takes no state: the job may write that file.
unset "sums[local-w-0-verify.state]"
expect_run "verify_state_save=0" 0 "" -- "${run[@]}" --name=w --rw=write --size=64k \
  --filename=local-w-0-verify.state --verify=crc32c --verify_state_save=0

# F3: a hook's output over a data file.
cp ex j.prerun.txt
cp ex j.postrun.txt
keep j.prerun.txt j.postrun.txt
expect_run "exec_prerun's output onto the job's file" 2 \
  "^iobench: job 'j': exec_prerun=echo hi \(<cmdline>\) writes j\.prerun\.txt, a file job 'j' reads \(filename=j\.prerun\.txt at <cmdline>\): the command's output would replace what it holds" \
  -- "${run[@]}" --name=j --rw=read --size=256k --filename=j.prerun.txt --exec_prerun='echo hi'
expect_run "exec_postrun's output onto another job's file" 2 \
  "^iobench: job 'j': exec_postrun=true \(<cmdline>\) writes j\.postrun\.txt, a file job 'r' reads" \
  -- "${run[@]}" --name=r --rw=read --size=64k --filename=j.postrun.txt \
  --name=j --ioengine=null --size=64k --exec_postrun=true
unchanged "hook output"

# verify_dump: a failed block's dump (<base>.<offset>.received) in the
# current directory, over a data file of that name.
cp ex vd.4096.received
keep vd.4096.received
expect_run "verify_dump onto another job's file" 2 \
  "^iobench: job 'v': verify_dump=1 \(<cmdline>\) may write vd\.4096\.received, a file job 'r' reads .*set verify_dump=0$" \
  -- "${run[@]}" --name=v --rw=write --size=64k --filename=vd --verify=crc32c --verify_dump=1 \
  --verify_state_save=0 --name=r --rw=read --size=64k --filename=vd.4096.received --stonewall
unchanged "verify_dump"

# --bandwidth-log's files over a data file.
cp ex agg-read_bw.log
keep agg-read_bw.log
expect_run "--bandwidth-log onto the job's file" 2 \
  "^iobench: --bandwidth-log writes agg-read_bw\.log, a file job 'r' reads" \
  -- "${run[@]}" --bandwidth-log --name=r --rw=read --size=64k --filename=agg-read_bw.log
unchanged "--bandwidth-log"

# F4: side files onto the job files themselves.
printf '[j]\nioengine=null\nsize=64k\nwrite_iolog=j.fio\n' >j.fio
printf '[x]\nioengine=null\nsize=64k\nwrite_bw_log=x\n' >x_bw.1.log
printf '[k]\nioengine=null\nsize=64k\nmem=mmap:k.fio\n' >k.fio
printf '[j]\nioengine=null\nsize=64k\nexec_prerun=true\n' >j.prerun.fio
cp j.prerun.fio j.prerun.txt
printf 'ioengine=null\nsize=64k\nwrite_lat_log=i\n' >i_clat.1.log
printf '[i]\ninclude i_clat.1.log\n' >i.fio
keep j.fio x_bw.1.log k.fio j.prerun.txt i_clat.1.log
expect_run "write_iolog onto its job file" 2 \
  "^iobench: job 'j': write_iolog=j\.fio \(j\.fio:4\) writes j\.fio, a job file this run reads: the log would be appended to it" \
  -- "${run[@]}" j.fio
expect_run "write_bw_log onto its job file" 2 \
  "^iobench: job 'x': write_bw_log=x \(x_bw\.1\.log:4\) writes x_bw\.1\.log, a job file this run reads: the log would replace" \
  -- "${run[@]}" x_bw.1.log
expect_run "mem=mmap:FILE onto its job file" 2 \
  "^iobench: job 'k': mem=mmap:k\.fio \(k\.fio:4\) writes k\.fio, a job file this run reads: the file would be truncated" \
  -- "${run[@]}" k.fio
expect_run "mem=mmap:FILE onto the job file on stdin" 2 \
  "^iobench: job 'k': mem=mmap:k\.fio \(<stdin>:4\) writes k\.fio, the job file this run reads from standard input \('-'\)" \
  -- sh -c '"$0" --eta=never - <k.fio' "$bin"
expect_run "exec_prerun's output onto its job file" 2 \
  "^iobench: job 'j': exec_prerun=true \(j\.prerun\.txt:4\) writes j\.prerun\.txt, a job file this run reads" \
  -- "${run[@]}" j.prerun.txt
expect_run "write_lat_log onto an included file" 2 \
  "^iobench: job 'i': write_lat_log=i \(\./i_clat\.1\.log:3\) writes i_clat\.1\.log, the same file as /.*/i_clat\.1\.log, a job file this run reads" \
  -- "${run[@]}" i.fio
unchanged "job files"
for f in j.prerun.txt.tmp local-w-0-verify.state.tmp agg-write_bw.log j_bw.1.log; do
  [ -e "$f" ] && fail "$f made by a refused run"
done

# Still allowed: every side file elsewhere.
unset "sums[agg-read_bw.log]"
expect_run "side files beside the data" 0 "" -- "${run[@]}" --bandwidth-log --name=w --rw=write \
  --size=64k --filename=wd --verify=crc32c --verify_dump=1 --exec_prerun=true --exec_postrun=true \
  --mem=mmap:buf --write_bw_log=w --write_iolog=w.iolog
unchanged "side files elsewhere"
[ -e w.prerun.txt ] && [ -e local-w-0-verify.state ] && [ -e w_bw.1.log ] ||
  fail "side files elsewhere: not written: $(ls)"
# A log recorded in one phase and replayed in a later one is allowed; the
# other way round, a later job recording into the log an earlier job
# replays, appended to the user's input log.
expect_run "record, then replay" 0 "" -- "${run[@]}" --name=rec --rw=write --size=64k \
  --filename=rd --write_iolog=x.iolog --name=rep --stonewall --read_iolog=x.iolog
keep x.iolog
expect_run "replay, then record into it" 2 \
  "^iobench: job 'w2': write_iolog=x\.iolog \(<cmdline>\) writes x\.iolog, the log job 'r' replays" \
  -- "${run[@]}" --name=r --rw=read --size=64k --filename=rd --read_iolog=x.iolog \
  --name=w2 --stonewall --rw=write --size=64k --filename=rd --write_iolog=x.iolog
unchanged "replay, then record"
# No data file on cpuio; /dev/null keeps nothing: neither is refused (fio
# runs both).
expect_run "cpuio job named like its own log" 0 "" -- "${run[@]}" --name=c --ioengine=cpuio \
  --cpuload=10 --runtime=100ms --time_based --filename=c_bw.1.log --write_bw_log=c
expect_run "write_iolog to /dev/null" 0 "" -- "${run[@]}" --name=n --rw=write --size=64k \
  --filename=/dev/null --write_iolog=/dev/null
# verify=null checks nothing and saves no state: a data file named like
# one is no state's.
expect_run "verify=null, a file named like its state" 0 "" -- "${run[@]}" --name=vn --rw=write \
  --size=64k --filename=local-vn-0-verify.state --verify=null
[ "$fails" -eq 0 ]
