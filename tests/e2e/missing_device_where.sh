#!/usr/bin/env bash
# A device under /dev that is not there is refused (fio 3.33 creates a
# regular file of that name in devtmpfs and measures it); the message names
# the option that named it and where it was set, as the other file errors
# do. It said only "device /dev/X does not exist".
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
dev=/dev/iobench-no-such-device-$$
[ -e "$dev" ] && { echo "skip: $dev exists"; exit 77; }
printf '[j]\nrw=read\nfilename=%s\nsize=8m\n' "$dev" >nodev.fio
"$bin" nodev.fio >out 2>err
expect_eq "missing device: exit" "$?" 2
expect_eq "missing device: message" "$(cat err)" \
  "iobench: job 'j': device $dev does not exist (filename=$dev at nodev.fio:3)"
ln -s "$dev" link
"$bin" --name=j --filename=link --size=8m >out 2>err
expect_eq "link to a missing device: message" "$(cat err)" \
  "iobench: job 'j': link is a link to $dev, a device that does not exist (filename=link at <cmdline>)"
[ "$fails" -eq 0 ]
