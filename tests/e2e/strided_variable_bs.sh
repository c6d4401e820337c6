#!/usr/bin/env bash
# zonemode=strided with a range or split of block sizes on an existing file
# bigger than size=: fio 3.33 ends the job at the first I/O whose smallest
# size does not fit below offset + size (get_next_buflen returns 0), and a
# size drawn shrinks to fit below it. iobench walked the whole file
# (bsrange=4k-16k size=256k zonesize=16k zonerange=64k: 24 reads, 270,336
# bytes; fio 7 reads, 77,824 bytes). A fixed size walks the whole file in
# both tools. Sizes drawn differ between the tools (their random numbers
# differ), so the exact counts come from jobs whose sizes are certain.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/fio_side.bash"

head -c 1048576 /dev/zero >data

# want ("r_ios r_bytes w_ios w_bytes", or the I/O count alone), name, args.
check() {
  local want=$1 name=$2 tool got
  shift 2
  for tool in $(tools); do
    got=$(job_counts "$tool.err" "$(cmd "$tool")" --name=z --filename=data --zonemode=strided \
      --ioengine=psync --zonesize=16k --zonerange=64k --write_iolog="$tool.log" "$@" |
      cut -d' ' -f2-5)
    case $want in *" "*) ;; *) got=$(echo "$got" | cut -d' ' -f$n) ;; esac
    expect_eq "$name: $tool counts" "$got" "$want"
    # Nothing past offset + size.
    awk -v end=$((${size%k} * 1024)) '($3 == "read" || $3 == "write") && $4 + $5 > end { bad = 1 }
      END { exit bad }' "$tool.log" || fail "$name: $tool: an I/O past size"
    rm -f "$tool.log"
  done
}

for rw in read write; do
  [ $rw = read ] && n=1 || n=3
  pick() { if [ $n = 1 ]; then echo "$1 $2 0 0"; else echo "0 0 $1 $2"; fi; }
  # 16k each: 4 zones below 256k, the 5th at 256k ends the job.
  size=256k check "$(pick 4 65536)" "$rw bssplit 256k" --rw=$rw --bssplit=4k/0:16k/100 --size=256k
  size=512k check "$(pick 8 131072)" "$rw bssplit 512k" --rw=$rw --bssplit=4k/0:16k/100 --size=512k
  # One I/O per zone (zonesize=4k): 4 zones start below 256k - 4k.
  size=256k check 4 "$rw bsrange zonesize=4k" --rw=$rw --bsrange=4k-16k \
    --size=256k --zonesize=4k
done
[ "$fails" -eq 0 ]
