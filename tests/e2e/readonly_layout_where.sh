#!/bin/bash
# --readonly refuses a read job that would lay out (extend) its file, and
# says which options size the region and where they are set, like its other
# messages. filesize= and file_append=1 (sized only when the run resolves
# the targets) gave "f would have to be laid out, and --readonly is in
# effect", and offset= went unnamed ("(size at <cmdline>)").
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
work=$tmp
head -c 1M /dev/urandom >"$work/f"
ro() { expect_run "$1" 2 "$2" -- "$bin" --readonly --name=j --filename=f --rw=read "${@:3}"; }
ro "filesize" "^iobench: --readonly: job 'j' would extend f from 1048576 to 2097152 bytes \(filesize=2m at <cmdline>\)$" \
  --filesize=2m
ro "file_append" "^iobench: --readonly: job 'j' would extend f from 1048576 to 1114112 bytes \(file_append=1 at <cmdline>, size=64k at <cmdline>\)$" \
  --file_append=1 --size=64k
ro "offset" "^iobench: --readonly: job 'j' would extend f from 1048576 to 1052672 bytes \(offset=1m at <cmdline>, size=4k at <cmdline>\)$" \
  --offset=1m --size=4k
printf '[global]\nsize=4k\n[j]\nfilename=f\nrw=read\noffset=1m\n[k]\nfilename=f\nfilesize=2m\n' >"$work/r.fio"
expect_run "job file lines" 2 \
  "^iobench: --readonly: job 'j' would extend f from 1048576 to 1052672 bytes \(offset=1m at r.fio:6, size=4k at r.fio:2\)$" \
  -- "$bin" --readonly r.fio
printf '[k]\nfilename=f\nfilesize=2m\n' >"$work/k.fio"
expect_run "job file filesize" 2 "\(filesize=2m at k.fio:3\)$" -- "$bin" --readonly k.fio
expect_eq "file size unchanged" "$(stat -c %s "$work/f")" 1048576
# A region inside the file runs.
expect_run "inside runs" 0 "" -- "$bin" --readonly --name=j --filename=f --rw=read \
  --filesize=512k-2m --output-format=terse
# size= is split among a clone's files (size / nrfiles): three 32 KiB files
# read with size=96k fit, as in fio. It was refused as extending each file
# to 96 KiB. A share past a file's end, or a clone's offset_increment past
# it, is still refused.
mkdir "$work/ro"
for n in 0 1 2; do head -c 32k /dev/urandom >"$work/ro/j.0.$n"; done
expect_run "nrfiles shares run" 0 "" -- "$bin" --readonly --name=j --directory=ro --nrfiles=3 \
  --size=96k --rw=read --output-format=terse
expect_run "filename list shares run" 0 "" -- "$bin" --readonly --name=j \
  --filename=ro/j.0.0:ro/j.0.1 --size=64k --rw=read --output-format=terse
expect_run "a share past the end" 2 \
  "^iobench: --readonly: job 'j' would extend ro/j.0.0 from 32768 to 33792 bytes \(size=99k at <cmdline>\)$" \
  -- "$bin" --readonly --name=j --directory=ro --nrfiles=3 --size=99k --rw=read
expect_run "a clone's offset_increment past the end" 2 \
  "would extend ro/j.0.0 from 32768 to 49152 bytes \(offset_increment=16k at <cmdline>, size=16k at <cmdline>\)$" \
  -- "$bin" --readonly --name=j --filename=ro/j.0.0 --size=16k --offset_increment=16k --numjobs=3 \
  --rw=read
expect_eq "files unchanged" "$(stat -c %s "$work"/ro/* | sort -u)" 32768
[ "$fails" -eq 0 ]
