#!/bin/bash
# opendir= files take their place in the job's file list as fio 3.33 adds
# them: in a job file's section before the filename= ones, whatever the
# order written (fio parses filename= after the section's other options),
# on the command line in the order written. With filename=x:y opendir=od
# file_service_type=sequential fio issues a a x x y y in a job file, and
# x x y y a a for --filename=x:y --opendir=od (iobench issued a a x x y y
# for both). Its files are named as written, od/a.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
mkdir od
for f in od/a x y; do head -c 8192 /dev/zero >"$f"; done
files_read() { awk '$3 == "read" { n = $2; sub(".*/", "", n); printf "%s ", n }' log.txt; }
for order in "--filename=x:y --opendir=od" "--opendir=od --filename=x:y"; do
  rm -f log.txt
  # shellcheck disable=SC2086
  "$bin" --name=j --rw=read --bs=4k $order --file_service_type=sequential --write_iolog=log.txt \
    --output-format=terse >/dev/null 2>err.txt
  expect_eq "$order: exit" "$?" 0
  case $order in
    --filename*) want="x x y y a a " ;;
    *) want="a a x x y y " ;;
  esac
  expect_eq "$order: files read" "$(files_read)" "$want"
  # Named as written (fio's log says od/a; iobench's said /abs/path/od/a).
  expect_eq "$order: the opendir file's name in the log" \
    "$(awk '$3 == "open" && $2 ~ /a$/ { print $2; exit }' log.txt)" "od/a"
done
for lines in "filename=x:y\nopendir=od" "opendir=od\nfilename=x:y"; do
  rm -f log.txt
  printf "[j]\nrw=read\nbs=4k\nfile_service_type=sequential\n$lines\n" >j.fio
  "$bin" j.fio --write_iolog=log.txt --output-format=terse >/dev/null 2>err.txt
  expect_eq "job file, $lines: exit" "$?" 0
  expect_eq "job file, $lines: files read" "$(files_read)" "a a x x y y "
done

# nrfiles= takes the first N files in the directory's order (readdir, as
# fio's recurse_dir; ls -U lists it), empty ones included; without size=
# an empty one is then skipped, and a job of empty files only is refused
# (fio: "you need to specify size="). iobench left the empty files out
# first: with e1 e2 e3 (0 bytes) listed before x1 x2 x3 (16 KiB), fio
# fails nrfiles=1..3 and reads 16 KiB at nrfiles=4; iobench read 16, 32
# and 48 KiB at nrfiles=1..3 and 48 KiB at 4.
mkdir od2
for f in x1 x2 x3; do head -c 16384 /dev/zero >"od2/$f"; done
for f in e1 e2 e3; do : >"od2/$f"; done  # made last: listed first on tmpfs
order=$(ls -U od2 | tr '\n' ' ')
for n in 1 2 3 4 5 6; do
  # shellcheck disable=SC2086
  xs=$(printf '%s\n' $order | head -n "$n" | grep -c '^x')
  "$bin" --output-format=json --name=j --bs=4k --ioengine=psync --rw=read --opendir=od2 \
    --nrfiles="$n" >out.json 2>err.txt
  rc=$?
  if [ "$xs" -eq 0 ]; then
    expect_eq "nrfiles=$n ($order): exit" "$rc" 2
    grep -q "size is not set and od2/e" err.txt || fail "nrfiles=$n: stderr: $(cat err.txt)"
  else
    expect_eq "nrfiles=$n ($order): exit" "$rc" 0
    expect_eq "nrfiles=$n ($order): bytes read" \
      "$(python3 -c "import json; print(json.load(open('out.json'))['jobs'][0]['read']['io_bytes'])")" \
      "$((xs * 16384))"
  fi
done
[ "$fails" -eq 0 ]
