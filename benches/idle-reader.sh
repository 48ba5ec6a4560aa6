#!/usr/bin/env bash
# The resting window with and without a screen reader: frames drawn, CPU and wake-ups over 10 s
# once the caret rests, measured in the same run under Xvfb with Mesa's software Vulkan.
#
#   bash benches/idle-reader.sh   (needs: xvfb mesa-vulkan-drivers xdotool dbus-daemon
#                                  at-spi2-core libglib2.0-bin python3-pyatspi)
#
# "after a reader": the app runs on a D-Bus session whose accessibility bus is enabled
# (`org.a11y.Status.IsEnabled`, as Orca sets it at start and as it stays after a reader quits),
# and a reader (tests/screen_reader.py) has read its tree and gone. So AccessKit is active and
# the thread that wakes the window for a reader's requests (src/workarounds/wake.rs) runs. The
# session's settings live in a folder of the run's own: enabling the bus writes GNOME's
# `toolkit-accessibility` key, which must not reach the user's settings. Then one line is
# typed and sent, and after 15 s (the caret rests 10 s after the last key) 10 s are measured.
# Frames are those the renderer drew (the debug line src/workarounds/repaint.rs logs for each); wake-ups are
# voluntary context switches, of the main thread and of all threads.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/agent-chat/target}"
cargo build --locked --quiet --bin agent-chat
app="$CARGO_TARGET_DIR/debug/agent-chat"
work=$(mktemp -d)
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

cpu_ns() { cat /proc/"$1"/task/*/schedstat | awk '{n += $1} END {printf "%.0f", n}'; }
wakeups() { awk '/^voluntary_ctxt_switches/ {print $2}' "/proc/$1/task/$1/status"; }
all_wakeups() { cat /proc/"$1"/task/*/status | awk '/^voluntary_ctxt_switches/ {n += $2} END {print n}'; }

Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp -noreset 3>"$work/display" 2>/dev/null &
pids+=($!)
while [ ! -s "$work/display" ]; do sleep 0.1; done
export DISPLAY=":$(cat "$work/display")"

measure() { # label, then the environment for the app
  local label=$1; shift
  env "$@" RUST_LOG=agent_chat::workarounds::repaint=debug "$app" >"$work/log" 2>&1 &
  local pid=$!
  local window
  window=$(xdotool search --sync --onlyvisible --name '^agent-chat$' | head -1)
  xdotool windowfocus --sync "$window"
  if [ "$label" = "after a reader" ]; then
    env "$@" /usr/bin/python3 tests/screen_reader.py tree >/dev/null 2>&1
  fi
  xdotool type --delay 40 "hello" && xdotool key Return
  sleep 15
  local frames0 cpu0 main0 all0
  frames0=$(grep -c 'agent_chat::workarounds::repaint' "$work/log" || true)
  cpu0=$(cpu_ns "$pid"); main0=$(wakeups "$pid"); all0=$(all_wakeups "$pid")
  sleep 10
  local frames1 cpu1 main1 all1
  frames1=$(grep -c 'agent_chat::workarounds::repaint' "$work/log" || true)
  cpu1=$(cpu_ns "$pid"); main1=$(wakeups "$pid"); all1=$(all_wakeups "$pid")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  awk -v l="$label" -v f=$((frames1 - frames0)) -v c=$((cpu1 - cpu0)) \
    -v m=$((main1 - main0)) -v a=$((all1 - all0)) \
    'BEGIN {printf "%-16s frames %3d   CPU %5.2f%%   wake-ups main %3d / all %4d\n", l, f, 100 * c / 1e9 / 10, m, a}'
}

measure "no reader"
dbus-daemon --session --nofork --print-address=1 >"$work/bus" 2>/dev/null &
pids+=($!)
while [ ! -s "$work/bus" ]; do sleep 0.1; done
bus=$(head -1 "$work/bus")
DBUS_SESSION_BUS_ADDRESS=$bus XDG_CONFIG_HOME=$work /usr/libexec/at-spi-bus-launcher --launch-immediately >/dev/null 2>&1 &
pids+=($!)
until DBUS_SESSION_BUS_ADDRESS=$bus gdbus call --session --dest org.a11y.Bus \
  --object-path /org/a11y/bus --method org.freedesktop.DBus.Properties.Set \
  org.a11y.Status IsEnabled '<true>' >/dev/null 2>&1; do sleep 0.2; done
measure "after a reader" DBUS_SESSION_BUS_ADDRESS="$bus"
