#!/usr/bin/env bash
# CPU and memory of the real window, idle, in the app's reactive update mode next to Bevy's
# continuous loop, measured in the same run under Xvfb with Mesa's software Vulkan.
#
#   bash benches/idle-cpu.sh            (needs: xvfb mesa-vulkan-drivers xdotool)
#
# For each mode: start the app, let it settle, measure CPU over 10 s idle; then type 100 lines
# and measure twice more: over the 8 s right after the last key, while the caret still blinks,
# and over 10 s starting 15 s after it, when the app's caret rests (it stops blinking 10 s after
# the last input). CPU is the time its threads ran, as the scheduler counts it, as a percentage
# of one core; memory is resident set size; wake-ups are voluntary context switches over the
# resting 10 s, of the main thread (which runs every frame) and of all threads; frames are those
# the app's renderer drew in each span (the debug line `src/workarounds/repaint.rs` logs a frame; the floor
# has none). Then the floor:
# a window with the same Bevy features and update mode that shows only a cursor blinking for
# ever, each blink a whole frame (benches/idle/blink_floor.rs). Last, in
# the app's own mode, the resident size after 10,000 messages (5,000 typed lines; a few minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/agent-chat/target}"
cargo build --locked --quiet --bin agent-chat --example blink-floor
app="$CARGO_TARGET_DIR/debug/agent-chat"
floor="$CARGO_TARGET_DIR/debug/examples/blink-floor"
# CPU time of all the process's threads in nanoseconds, as the scheduler counts it.
# (/proc/PID/stat counts in 10 ms ticks: over 8 s at 3% of a core that is some 24 ticks, and
# one tick more or less moved the ratio to the floor by 0.05.)
cpu_ns() { cat /proc/"$1"/task/*/schedstat | awk '{n += $1} END {printf "%.0f", n}'; }
# Voluntary context switches: of the main thread, and of every thread of the process.
wakeups() { awk '/^voluntary_ctxt_switches/ {print $2}' "/proc/$1/task/$1/status"; }
all_wakeups() { cat /proc/"$1"/task/*/status | awk '/^voluntary_ctxt_switches/ {n += $2} END {print n}'; }
rss_mb() { awk '/VmRSS/ {printf "%d", $2 / 1024}' "/proc/$1/status"; }
# Frames the app's renderer has drawn so far: one debug line each.
log=/tmp/idle-log.$$
frames() { grep -c 'agent_chat::workarounds::repaint' "$log" || true; }
idle_percent() { # pid seconds
  local before after
  before=$(cpu_ns "$1"); sleep "$2"; after=$(cpu_ns "$1")
  awk -v d=$((after - before)) -v s="$2" 'BEGIN {printf "%.2f", 100 * d / 1e9 / s}'
}

# Starts an X server and `binary` on it, focuses its window and lets it settle. Sets `xvfb`,
# `display` and `pid`. -noreset: an X server resets when its last client leaves, and the app
# could fail to connect during the reset while xdotool came and went.
open_window() { # binary, window title, extra env
  local binary=$1 title=$2 window; shift 2
  Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp -noreset 3>/tmp/idle-display.$$ 2>/dev/null &
  xvfb=$!
  while [ ! -s /tmp/idle-display.$$ ]; do sleep 0.1; done
  display=":$(cat /tmp/idle-display.$$)"; rm -f /tmp/idle-display.$$
  env DISPLAY="$display" RUST_LOG=agent_chat::workarounds::repaint=debug "$@" "$binary" >"$log" 2>&1 &
  pid=$!
  window=$(DISPLAY="$display" timeout 30 xdotool search --sync --onlyvisible --name "^$title\$" | head -1)
  DISPLAY="$display" xdotool windowfocus --sync "$window"
  sleep 5
}

measure() { # label, binary, window title, extra env
  local label=$1; shift
  open_window "$@"
  local idle_start rss_start blinking resting rss_after main_before all_before main_after all_after
  idle_start=$(idle_percent "$pid" 10); rss_start=$(rss_mb "$pid")
  for i in $(seq 1 100); do DISPLAY="$display" xdotool type --delay 5 "line $i"; DISPLAY="$display" xdotool key Return; done
  local frames_0 frames_1 frames_2 frames_3
  frames_0=$(frames); blinking=$(idle_percent "$pid" 8); frames_1=$(frames)
  sleep 7
  main_before=$(wakeups "$pid"); all_before=$(all_wakeups "$pid"); frames_2=$(frames)
  resting=$(idle_percent "$pid" 10); rss_after=$(rss_mb "$pid")
  main_after=$(wakeups "$pid"); all_after=$(all_wakeups "$pid"); frames_3=$(frames)
  local drawn_blinking=$((frames_1 - frames_0)) drawn_resting=$((frames_3 - frames_2))
  # The floor draws a frame every blink, but logs none.
  [ "$label" != blink-floor ] || { drawn_blinking=-; drawn_resting=-; }
  kill "$pid" "$xvfb"; wait "$pid" "$xvfb" 2>/dev/null || true
  printf '%-12s after start: %6s%% of a core, %4s MB | 100 submissions, first 8 s: %6s%%, %s frames | 15-25 s after: %6s%%, %4s MB, %s frames, wake-ups %s main, %s all threads\n' \
    "$label" "$idle_start" "$rss_start" "$blinking" "$drawn_blinking" "$resting" "$rss_after" \
    "$drawn_resting" "$((main_after - main_before))" "$((all_after - all_before))"
  echo "$idle_start $blinking $resting" > "/tmp/idle-$label.$$"
}

measure reactive "$app" agent-chat
measure continuous "$app" agent-chat AGENT_CHAT_CONTINUOUS=1
measure blink-floor "$floor" blink-floor

# Resident memory after 10,000 messages. One xdotool script, so typing is not slowed by
# starting a process per line.
open_window "$app" agent-chat
rss_start=$(rss_mb "$pid")
for i in $(seq 1 5000); do printf 'type --delay 1 "line %d"\nkey Return\n' "$i"; done > /tmp/idle-lines.$$
DISPLAY="$display" xdotool /tmp/idle-lines.$$
rm -f /tmp/idle-lines.$$
sleep 5
printf 'reactive     resident after start: %s MB, after 10,000 messages: %s MB\n' "$rss_start" "$(rss_mb "$pid")"
kill "$pid" "$xvfb"; wait "$pid" "$xvfb" 2>/dev/null || true
read -r r1 r2 r3 < "/tmp/idle-reactive.$$"; read -r c1 c2 c3 < "/tmp/idle-continuous.$$"
read -r f1 f2 f3 < "/tmp/idle-blink-floor.$$"
rm -f "/tmp/idle-reactive.$$" "/tmp/idle-continuous.$$" "/tmp/idle-blink-floor.$$" "$log"
awk -v r1="$r1" -v r2="$r2" -v r3="$r3" -v c3="$c3" -v f1="$f1" -v f2="$f2" -v f3="$f3" 'BEGIN {
  printf "reactive / blink-floor CPU: %.2f after start, %.2f while blinking after 100 submissions (target: <= 1.2)\n",
    (f1 > 0 ? r1 / f1 : 0), (f2 > 0 ? r2 / f2 : 0)
  printf "resting, 15-25 s after the last key: reactive %.1f%% (target: <= 0.5%%), blink-floor %.1f%%, continuous %.1f%%\n",
    r3, f3, c3 }'
