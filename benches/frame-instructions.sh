#!/usr/bin/env bash
# Instructions executed by one laid-out frame (benches/frame_instructions.rs under valgrind's
# callgrind) when the log holds 100, 10,000 and 100,000 messages: an idle frame, a submission,
# a wheel notch in the middle of the conversation, Ctrl+Home from the newest message,
# keyboard focus moved one message down in the middle, a selection dragged on by a row, a zoom
# step (Ctrl+=), and an idle frame with the find bar open and its matches drawn. Then holds Down through 1,000 messages
# and counts the frames that showed no focused row, and prints the glyph atlases' memory as the
# zoom visits every level. The
# times of `cargo bench --profile dev --bench frame` drift with this shared machine's load; these
# counts do not, so the ratios repeat from run to run.
#
# A second table, at 100 messages, for messages and drafts of many lines (#56): each frame with
# one short line, with one long line, and with the same characters on many lines (a break where
# the long line has a space). A message of 1,000 lines arriving, and an idle frame with it in
# view; one key typed into a field holding 100 lines, and an idle frame with them in the field;
# the frame that applies a paste of 100,000 lines (the field keeps 2,000 characters).
#
# A third table, at 100 messages, for links in messages (#57): each frame with a message of 500
# links (`www.aa` to `www.tf`, 3,499 characters, all shown) and with the same text with a comma
# for each dot, in which none are found, and links / plain. The frame in which it arrives (the
# links found as it is logged, and drawn as underlined spans), an idle frame with it in view, a
# wheel notch that scrolls with it in view, the pointer moved over its text (the links' hit
# test), and Ctrl+Home to it as the first message (a row comes to show it and draws its links).
#
#   bash benches/frame-instructions.sh
#
# Installs valgrind if missing; takes about 18 minutes on 2 cores once the bench is built.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/agent-chat/target}"
if ! command -v valgrind >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
fi
bin=$(cargo bench --locked --profile dev --bench frame_instructions --no-run --message-format=json \
  | grep -o '"executable":"[^"]*/frame_instructions-[^"]*"' | cut -d'"' -f4)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

count() { # case, messages logged -> instructions in the measured frame
  valgrind --tool=callgrind --toggle-collect='*measured_frame*' --callgrind-out-file="$work/out" \
    "$bin" "$1" "$2" 2>&1 | awk '/Collected :/ {print $NF}' | grep . || { echo "callgrind failed on $1 at $2 messages" >&2; exit 1; }
}

declare -A n
cases="idle submission wheel home down drag zoom find-idle"
for case in $cases; do
  for logged in 100 10000 100000; do
    n[$case,$logged]=$(count "$case" "$logged")
  done
done
printf '%-11s %14s %14s %14s %12s\n' frame 100 10000 100000 "100000/100"
for case in $cases; do
  awk -v c="$case" -v a="${n[$case,100]}" -v b="${n[$case,10000]}" -v d="${n[$case,100000]}" \
    'BEGIN {printf "%-11s %14d %14d %14d %12.3f\n", c, a, b, d, d / a}'
done
for logged in 100 10000 100000; do
  awk -v l="$logged" -v h="${n[home,$logged]}" -v s="${n[submission,$logged]}" \
    'BEGIN {printf "home / submission at %6d: %.2f\n", l, h / s}'
done
for logged in 100 10000 100000; do
  awk -v l="$logged" -v d="${n[drag,$logged]}" -v w="${n[wheel,$logged]}" \
    -v f="${n[find-idle,$logged]}" -v i="${n[idle,$logged]}" \
    'BEGIN {printf "drag / wheel at %6d: %.2f   find-idle / idle at %6d: %.3f\n", l, d / w, l, f / i}'
done
"$bin" hold-down 100000
"$bin" atlas 100

declare -A m
line_cases="arrive idle key draft paste"
for case in $line_cases; do
  for shape in short wide tall; do
    m[$case,$shape]=$(count "$case-$shape" 100)
  done
done
declare -A what=(
  [arrive]="arrive 1,000 lines" [idle]="idle, 1,000 in view" [key]="key, 100 in field"
  [draft]="idle, 100 in field" [paste]="paste 100,000 lines"
)
echo
printf '%-20s %12s %12s %12s %11s %11s\n' "lines, 100 messages" short "one line" "many lines" \
  "many/short" "many/one"
for case in $line_cases; do
  awk -v c="${what[$case]}" -v s="${m[$case,short]}" -v w="${m[$case,wide]}" \
    -v t="${m[$case,tall]}" \
    'BEGIN {printf "%-20s %12d %12d %12d %11.3f %11.3f\n", c, s, w, t, t / s, t / w}'
done

declare -A k
link_cases="arrive idle wheel hover home"
for case in $link_cases; do
  for shape in links plain; do
    k[$case,$shape]=$(count "$case-$shape" 100)
  done
done
declare -A said=(
  [arrive]="arrive" [idle]="idle, in view" [wheel]="wheel, in view"
  [hover]="pointer over it" [home]="Ctrl+Home to it"
)
echo
printf '%-20s %12s %12s %12s\n' "links, 100 messages" "500 links" "no links" "links/plain"
for case in $link_cases; do
  awk -v c="${said[$case]}" -v l="${k[$case,links]}" -v p="${k[$case,plain]}" \
    'BEGIN {printf "%-20s %12d %12d %12.3f\n", c, l, p, l / p}'
done
