#!/usr/bin/env bash
# The machine formats list the disks fio 3.33 lists (docs/output.md): for a
# job on a loop device alone, the loop device, not the disk under its
# backing file, which has no entry in its slaves/. iobench listed both:
# terse v3 had 139 fields where fio has 130 (v4 180/171, v5 198/189), so a
# script reading util from the last field got the backing disk's, and JSON
# disk_util had an entry fio's has not. The backing disk stays in the
# normal output's Disk stats and in JSON iobench.other_disk_util. With fio
# installed, its terse field count and disk names are compared too.
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no losetup).
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
# The image in /var/tmp, on a disk, so that the loop device has a disk under
# it; detached at exit.
scratch_loop 64M 512
name=${loop#/dev/}
job=(--name=m --filename="$loop" --rw=read --bs=64k --size=1m --ioengine=psync)

# JSON: disk_util names, iobench.other_disk_util names, the target's device.
"$bin" "${job[@]}" --output-format=json >"$tmp/out.json" 2>"$tmp/err" ||
  fail "json run: $(head -c 300 "$tmp/err")"
read -r fio_names other_names device < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
names = lambda l: ",".join(u["name"] for u in l) or "-"
print(names(d.get("disk_util", [])), names(d["iobench"].get("other_disk_util", [])),
      d["iobench"]["context"]["targets"][0]["device"].replace(" ", "_"))' "$tmp/out.json")
expect_eq "JSON disk_util" "$fio_names" "$name"
# "loop0 on vda": vda is the backing disk (none when /var/tmp is in memory).
under=-
[[ $device == "${name}_on_"* ]] && under=${device#"${name}"_on_}
[[ $under == tmpfs || $under == ramfs ]] && under=-
expect_eq "JSON iobench.other_disk_util" "$other_names" "$under"

# Terse: fio's field count, the loop device's util in the last field.
for v in 3 4 5; do
  want=$((v == 3 ? 130 : v == 4 ? 171 : 189))
  line=$("$bin" "${job[@]}" --output-format=terse --terse-version=$v 2>"$tmp/err" | head -1)
  n=$(awk -F';' '{print NF}' <<<"$line")
  expect_eq "terse v$v: fields" "$n" "$want"
  expect_eq "terse v$v: the disk" "$(cut -d';' -f$((n - 8)) <<<"$line")" "$name"
done

# The normal output keeps every disk.
"$bin" "${job[@]}" >"$tmp/normal" 2>"$tmp/err" || fail "normal run"
disks=$(sed -n '/^Disk stats/,$p' "$tmp/normal" | sed -n 's/^  \([^:]*\):.*/\1/p' | paste -sd,)
want=$name
[ "$under" != - ] && want+=",$under"
expect_eq "normal Disk stats" "$disks" "$want"

if fio_side; then
  line=$(fio "${job[@]}" --output-format=terse 2>/dev/null | head -1)
  n=$(awk -F';' '{print NF}' <<<"$line")
  expect_eq "fio terse v3: fields" "$n" 130
  expect_eq "fio terse v3: the disk" "$(cut -d';' -f$((n - 8)) <<<"$line")" "$name"
fi

[ "$fails" -eq 0 ]
