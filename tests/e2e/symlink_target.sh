#!/bin/bash
# A target that is a symbolic link to a missing or short file: the layout
# never creates, extends or writes the file the link points to, and a run
# never deletes a link it did not replace. As fio 3.33 (which unlinks a
# file before laying it out), the link is replaced by a regular file at
# the name the job gives, and the report says so; a refused run puts the
# link back. iobench used to create /var/tmp/o/target through `ln` (and
# with unlink=1 remove `ln`, leaving the target), extend a short target,
# and, for a link into a missing directory, refuse (`create ln: No such
# file or directory`) and then delete the user's link. create_on_open=1
# on a dangling link is refused (fio creates the target through it).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

mkdir -p o w
cd w || exit 1
size() { stat -c %s "$1" 2>/dev/null || echo -; }
kind() { if [ -L "$1" ]; then echo "link->$(readlink "$1")"; elif [ -f "$1" ]; then echo file; else echo -; fi; }
job=(--name=x --ioengine=psync --bs=4k --size=32k --filename=ln)

# run TOOL NAME RW LINK_TO [ARGS...]: a fresh link ln -> LINK_TO, then TOOL.
run() {
  local tool=$1 name=$2 rw=$3 to=$4
  shift 4
  rm -f ln && ln -s "$to" ln
  "$(cmd "$tool")" "${job[@]}" --rw="$rw" "$@" >out.txt 2>err.txt
  expect_eq "$tool: $name: exit" "$?" 0
  [ -s err.txt ] && fail "$tool: $name: stderr: $(head -c 300 err.txt)"
}

for tool in $(tools); do
  rm -f ../o/target
  run "$tool" "dangling link" write ../o/target
  expect_eq "$tool: dangling link: ln" "$(kind ln) $(size ln)" "file 32768"
  expect_eq "$tool: dangling link: the target" "$(size ../o/target)" -
  [ "$tool" = iob ] && { grep -q "note: ln was a symbolic link to ../o/target (which does not exist): replaced by a regular file" out.txt ||
    fail "iob: dangling link: no note: $(grep note out.txt)"; }

  run "$tool" "dangling link, unlink=1" write ../o/target --unlink=1
  expect_eq "$tool: dangling link, unlink=1: ln" "$(kind ln)" -
  expect_eq "$tool: dangling link, unlink=1: the target" "$(size ../o/target)" -

  run "$tool" "link into a missing directory" write ../o/nodir/t
  expect_eq "$tool: link into a missing directory: ln" "$(kind ln) $(size ln)" "file 32768"
  expect_eq "$tool: link into a missing directory: nodir" "$(size ../o/nodir)" -

  for rw in read write; do
    head -c 8192 /dev/urandom >../o/target
    sum=$(md5sum <../o/target)
    run "$tool" "link to a short file, $rw" "$rw" ../o/target
    expect_eq "$tool: link to a short file, $rw: ln" "$(kind ln) $(size ln)" "file 32768"
    expect_eq "$tool: link to a short file, $rw: the target" \
      "$(size ../o/target) $(md5sum <../o/target)" "8192 $sum"
  done

  # A link to a file large enough is the file the job names: its I/O goes there.
  head -c 65536 /dev/zero >../o/target
  run "$tool" "link to a large file" write ../o/target --buffer_pattern=0x55
  expect_eq "$tool: link to a large file: ln" "$(kind ln)" "link->../o/target"
  expect_eq "$tool: link to a large file: written through" "$(head -c 1 ../o/target | od -An -tx1 | tr -d ' ')" 55
done
rm -f ../o/target

# create_on_open=1 would create the target through the link: refused, the
# link kept, nothing created (fio creates ../o/target).
rm -f ln && ln -s ../o/target ln
"$bin" "${job[@]}" --rw=write --create_on_open=1 >out.txt 2>err.txt
expect_eq "create_on_open=1: exit" "$?" 2
grep -q "ln is a symbolic link to /.*/o/target, which does not exist; with create_on_open=1 at <cmdline>" err.txt ||
  fail "create_on_open=1: stderr: $(cat err.txt)"
expect_eq "create_on_open=1: ln, the target" "$(kind ln) $(size ../o/target)" "link->../o/target -"

# A run refused after its layout (a second file on a read-only mount: a
# refusal, exit 2) puts the replaced link back, and never removes a link it
# did not replace. Root: a private mount namespace.
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
  mkdir -p ro
  for files in ln:ro/f ro/f:ln; do
    rm -f ln && ln -s ../o/target ln
    unshare -m bash -c 'mount -t tmpfs -o ro,size=1m tmpfs ro && exec "$@"' _ \
      "$bin" --name=x --ioengine=psync --rw=write --bs=4k --size=64k --filename="$files" \
      >out.txt 2>err.txt
    expect_eq "refused ($files): exit" "$?" 2
    grep -q "Read-only file system" err.txt || fail "refused ($files): stderr: $(cat err.txt)"
    expect_eq "refused ($files): ln, the target" "$(kind ln) $(size ../o/target)" "link->../o/target -"
  done
else
  echo "note: not root (or no mount namespace): the refused-run part is skipped"
fi

[ "$fails" -eq 0 ]
