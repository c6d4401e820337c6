#!/bin/bash
# The context header's "buffered disk test that fits in memory" warning
# (docs/context.md, trap 6) judges the region the job used. A time_based
# job whose size= runs past the end of a device uses the device to its end
# (its note: "the job used [0, 268435456)"): size=800G on a 256 MiB loop
# device is 256 MiB of data, which fits in memory. The warning used to
# judge by size= (800 GiB) and say nothing, while size=256M gave it. A
# region within the device is judged by size= as before (size=128M), and
# direct=1 gets no warning. Root and a loop device over a sparse file in /var/tmp.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
mem_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
[ "$mem_kb" -gt $((1 << 20)) ] || { echo "skip: memory is not larger than 1 GiB"; exit 77; }
command -v losetup >/dev/null || { echo "skip: losetup not installed"; exit 77; }
scratch_loop 256m 512

run() {  # options...: the run's output
  "$bin" --name=mytest --filename="$loop" --rw=rw --bs=64k --numjobs=2 --number_ios=4 "$@" \
    --output-format=normal 2>&1
}
out=$(run --direct=0 --size=800G --time_based --runtime=1)
expect_eq "800G time_based: the note, per clone" \
  "$(grep -c "time_based: the job used \[0, 268435456)" <<<"$out")" 2
expect_eq "800G time_based: the warning" \
  "$(grep -c "^warning: job 'mytest': $loop: the job's data (256 MiB, to the device's end) is smaller than memory (.*) in a buffered disk test (size=800 GiB):.* use direct=1 or a device larger than memory$" <<<"$out")" 1
out=$(run --direct=0 --size=128M)
expect_eq "128M: the warning" \
  "$(grep -c "^warning: job 'mytest': $loop: the job's data (128 MiB) is smaller than memory .*(the path $loop names a device or a mounted disk).* use direct=1 or a size larger than memory$" <<<"$out")" 1
out=$(run --direct=1 --size=800G --time_based --runtime=1)
expect_eq "direct=1: no warning" "$(grep -c "smaller than memory" <<<"$out")" 0
[ "$fails" -eq 0 ]
