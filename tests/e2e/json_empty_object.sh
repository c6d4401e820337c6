#!/bin/bash
# An empty JSON object in fio 3.33's layout: "{", an empty line, then "}" at
# the object's indent (fio's json_print_object), not "{}". Scripts cut the
# options block with `sed '/"job options"/,/}/'`; from a "{}" line sed read
# on to the next job's closer. Seen for the "job options" of a job whose only
# option of its own is a bare flag, and "global options" holding only one.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/fio_side.bash"

printf '[global]\nthread\nioengine=null\nsize=1m\n[a]\ntime_based\n' >job_flag.fio
printf '[global]\nthread\n[a]\nioengine=null\nsize=1m\n' >global_flag.fio
# block TOOL FILE KEY: the lines sed cuts from KEY to the next "}".
block() {
  "$(cmd "$1")" --output-format=json "$2" 2>err | sed -n "/\"$3\"/,/}/p" ||
    fail "$1 $2: $(cat err)"
}
for tool in $(tools); do
  expect_eq "$tool: job options of a bare flag" "$(block "$tool" job_flag.fio "job options")" \
    "$(printf '      "job options" : {\n\n      },')"
  expect_eq "$tool: global options of a bare flag" \
    "$(block "$tool" global_flag.fio "global options")" \
    "$(printf '  "global options" : {\n\n  },')"
done
[ "$fails" -eq 0 ] && echo "ok: empty JSON objects in fio's layout"
[ "$fails" -eq 0 ]
