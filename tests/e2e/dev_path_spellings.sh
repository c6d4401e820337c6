#!/usr/bin/env bash
# A new regular file among the device nodes is refused however the path is
# spelled: the check compared the text with "/dev/", so ../../dev/x, //dev/x,
# /tmp/../dev/x, /dev/shm/../x, directory=/tmp/../dev, a link to /dev, or a
# relative name run from /dev created the regular file /dev/x (a typo of a
# device: fio 3.33 creates it too) and exited 0. The same for every file the
# run writes besides its targets: --output, write_iolog, the bw/lat logs,
# the exec_prerun output, the verify state, mem=mmap:FILE. Writing to an
# existing node (/dev/null) and files in /dev/shm (its own tmpfs) still work.
# Root only: anyone else cannot create files in /dev anyway.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (files in /dev)"; exit 77; }
[ "$(findmnt -no FSTYPE /dev 2>/dev/null)" = devtmpfs ] || { echo "skip: /dev is no devtmpfs"; exit 77; }
base=iobench-devpath-$$
made() { compgen -G "/dev/*$base*"; }  # verify states are local-NAME-N-...
made >/dev/null && { echo "skip: /dev/$base exists"; exit 77; }
shm=/dev/shm/$base
trap 'cd /; rm -rf "$tmp" "$shm"* /dev/*"$base"*' EXIT
work=$tmp
ln -s /dev devlink
echo data >f
job=(--rw=write --bs=4k --size=4k)

# refused NAME DIR REGEX CMD...: CMD run in DIR fails, stderr matching
# REGEX, and leaves nothing named *$base* in /dev (removed if it did).
refused() {
  local name=$1 dir=$2 regex=$3
  shift 3
  (cd "$dir" && timeout 30 "$@") >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -eq 0 ] || [ "$rc" -ge 128 ]; then
    fail "$name: exit $rc, want a refusal"
  elif ! grep -qE -- "$regex" "$tmp/err"; then
    fail "$name: stderr does not match /$regex/: $(head -c 400 "$tmp/err")"
  else
    echo "ok   $name (exit $rc)"
  fi
  local files
  files=$(made)
  [ -n "$files" ] && fail "$name: created $files" && rm -rf /dev/*"$base"*
}
among="would be a new regular file in /dev, among the device nodes"

up=../../../../../../../../..
refused "filename=../../dev/x" "$tmp" "$up/dev/$base does not exist.*filename=$up/dev/$base at <cmdline>.*$among" \
  "$bin" --name=a --filename="$up/dev/$base" "${job[@]}"
refused "filename=//dev/x" "$tmp" "$among" "$bin" --name=a --filename="//dev/$base" "${job[@]}"
refused "filename=/tmp/../dev/x" "$tmp" "$among" "$bin" --name=a --filename="/tmp/../dev/$base" "${job[@]}"
refused "filename=/dev/shm/../x" "$tmp" "$among" "$bin" --name=a --filename="/dev/shm/../$base" "${job[@]}"
refused "directory=/tmp/../dev" "$tmp" "$among" \
  "$bin" --name=a --directory=/tmp/../dev --filename="$base" "${job[@]}"
refused "filename=link-to-dev/x" "$tmp" "devlink/$base does not exist.*$among" \
  "$bin" --name=a --filename="devlink/$base" "${job[@]}"
refused "directory=link-to-dev" "$tmp" "$among" \
  "$bin" --name=a --directory=devlink --filename="$base" "${job[@]}"
refused "cwd /dev, filename=x" /dev "$among" "$bin" --name=a --filename="$base" "${job[@]}"
refused "cwd /dev, the job's name" /dev "job '$base': $base.0.0 does not exist \(a file job '$base' writes \(filename_format=.*$among" \
  "$bin" --name="$base" "${job[@]}"
refused "filename=link-to-dev/sub/x" "$tmp" "" "$bin" --name=a --filename="devlink/$base/x" "${job[@]}"

# The files besides the targets, before any I/O ($tmp/f is not written).
cp f f.before
for out in "/dev/$base.out" "devlink/$base.out"; do
  refused "--output=$out" "$tmp" "^iobench: --output=$out: $out does not exist: it $among" \
    "$bin" --output="$out" --name=a --filename=f "${job[@]}"
done
refused "write_iolog" "$tmp" "job 'a': write_iolog=/tmp/../dev/$base \(<cmdline>\): refusing to create /tmp/../dev/$base: it $among" \
  "$bin" --write_iolog="/tmp/../dev/$base" --name=a --filename=f "${job[@]}"
refused "write_bw_log" "$tmp" "job 'a': write_bw_log=/dev/$base \(<cmdline>\): refusing to create /dev/${base}_bw.1.log: it $among" \
  "$bin" --write_bw_log="/dev/$base" --name=a --filename=f "${job[@]}"
for opt in write_lat_log=devlink/$base write_iops_log=//dev/$base write_hist_log=/dev/shm/../$base; do
  refused "$opt" "$tmp" "$opt.*$among" "$bin" --"$opt" --name=a --filename=f "${job[@]}"
done
refused "cwd /dev, bare write_bw_log" /dev "write_bw_log.*refusing to create ${base}_bw.1.log: it $among" \
  "$bin" --name="$base" --write_bw_log --filename="$tmp/f" "${job[@]}"
refused "cwd /dev, exec_prerun" /dev "exec_prerun=true.*refusing to create $base.prerun.txt: it $among" \
  "$bin" --name="$base" --exec_prerun=true --filename="$tmp/f" "${job[@]}"
refused "cwd /dev, verify_state_save" /dev "verify_state_save=1.*refusing to create local-$base-0-verify.state: it $among" \
  "$bin" --name="$base" --verify=crc32c --filename="$tmp/f" "${job[@]}"
refused "mem=mmap:FILE" "$tmp" "mem=mmap:/tmp/../dev/$base.*$among" \
  "$bin" --name=a --mem="mmap:/tmp/../dev/$base" --filename=f "${job[@]}"
printf '[a]\nfilename=f\nrw=write\nbs=4k\nsize=4k\nwrite_bw_log=/tmp/../dev/%s\n' "$base" >j.fio
refused "job file: write_bw_log" "$tmp" "job 'a': write_bw_log=/tmp/../dev/$base \(j.fio:6\)" "$bin" j.fio
cmp -s f f.before || fail "the target was written before a refusal"

# Still fine: an existing node, and /dev/shm.
expect_run "--output=/dev/null" 0 "" -- "$bin" --output=/dev/null --name=a --filename=f "${job[@]}"
expect_run "write_iolog=/dev/null" 0 "" -- "$bin" --write_iolog=/dev/null --name=a --filename=f "${job[@]}"
expect_run "filename=/dev/shm/x" 0 "" -- "$bin" --name=a --filename="$shm" "${job[@]}"
expect_eq "filename=/dev/shm/x: created" "$(stat -c %s "$shm" 2>&1)" 4096
expect_run "cwd /dev/shm, the job's name" 0 "" -- \
  sh -c "cd /dev/shm && exec '$bin' --name='$base' --write_bw_log=$shm --rw=write --bs=4k --size=4k"
expect_eq "cwd /dev/shm: the job's file" "$(stat -c %s "/dev/shm/$base.0.0" 2>&1)" 4096
[ -s "${shm}_bw.1.log" ] || fail "write_bw_log=/dev/shm/x: no ${shm}_bw.1.log"
[ "$fails" -eq 0 ]
