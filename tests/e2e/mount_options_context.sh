#!/bin/bash
# The context says what a file target's mount does to the numbers: a
# `mount -o sync,data=journal` ext4 showed only "fs=ext4" in the header,
# like a default one. The normal report's target line now has
# mount_options= with the options that change what is measured, and the
# JSON context's target all of the mount's options as mountinfo lists them;
# a default mount adds nothing to the line, a block device has none, and
# terse is unchanged.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
scratch_ext4 64m 512 "" "sync,data=journal"

# The mount's own options, then its super block's not already listed.
kernel_options() {
  awk -v m="$mnt" '$5 == m { for (i = 7; $i != "-"; i++); print $6 "," $(i + 3) }' \
    /proc/self/mountinfo | tail -n 1 | tr , '\n' | awk '!seen[$0]++' | paste -sd, -
}
json_options() {
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["iobench"]["context"]["targets"][0]["mount_options"])' "$1"
}
run() { # run NAME FORMAT ARGS...: out.txt; stderr must stay empty
  local name=$1 format=$2
  shift 2
  "$bin" --name=j --bs=4k --size=1m --output-format="$format" "$@" >out.txt 2>err.txt
  expect_eq "$name: exit" "$?" 0
  [ -s err.txt ] && fail "$name: stderr: $(cat err.txt)"
}
target_line() { grep "^target $1:" out.txt; }

# 1. sync,data=journal: both on the target line, after fs=.
run "sync,data=journal normal" normal --filename="$mnt/f" --rw=write
line=$(target_line "$mnt/f")
shown=$(sed -n 's/^target [^:]*: fs=ext4, mount_options=\([^ ]*\), device=.*/\1/p' <<<"$line")
[ -n "$shown" ] || fail "sync,data=journal: no mount_options= on '$line'"
for opt in sync data=journal; do
  tr , '\n' <<<"$shown" | grep -qx "$opt" && echo "ok   header shows $opt ($shown)" ||
    fail "sync,data=journal: $opt not in mount_options=$shown"
done
# Only measured options: never the noise every mount has.
for opt in rw relatime errors=remount-ro; do
  tr , '\n' <<<"$shown" | grep -qx "$opt" && fail "sync,data=journal: $opt shown ($shown)"
done

# 2. The JSON field has them all, as the kernel lists them.
run "sync,data=journal json" json --filename="$mnt/f" --rw=write
expect_eq "sync,data=journal: JSON mount_options" "$(json_options out.txt)" "$(kernel_options)"
json_options out.txt | tr , '\n' | grep -qx sync || fail "JSON mount_options lacks sync"

# 3. Terse has no context: nothing of the mount in it.
run "terse" terse --filename="$mnt/f" --rw=read
grep -q 'journal\|mount_options' out.txt && fail "terse: $(cat out.txt)"
expect_eq "terse: lines" "$(wc -l <out.txt)" 1

# 4. A block device has no mount options, mounted or not.
run "device" normal --filename="$loop" --rw=read --direct=1
line=$(target_line "$loop")
[ -n "$line" ] || fail "device: no target line for $loop"
grep -q mount_options <<<"$line" && fail "device: $line"
run "device json" json --filename="$loop" --rw=read --direct=1
expect_eq "device: JSON mount_options" "$(json_options out.txt)" ""

# 5. A default mount adds nothing to the line; the JSON still lists it.
umount "$mnt" && mount "$loop" "$mnt" || { echo "skip: cannot remount $loop"; exit 77; }
run "default normal" normal --filename="$mnt/f" --rw=read
line=$(target_line "$mnt/f")
grep -q '^target [^:]*: fs=ext4, device=' <<<"$line" && echo "ok   default: $line" ||
  fail "default: $line"
run "default json" json --filename="$mnt/f" --rw=read
expect_eq "default: JSON mount_options" "$(json_options out.txt)" "$(kernel_options)"
json_options out.txt | tr , '\n' | grep -qx sync && fail "default: JSON mount_options has sync"

[ "$fails" -eq 0 ]
