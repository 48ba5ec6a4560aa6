#!/usr/bin/env bash
# OpenGL beside Vulkan: the app on each of its two backends (`src/workarounds/gpu.rs`), both
# Mesa's software renderer (llvmpipe) under one Xvfb, in the same run, Vulkan hidden from its
# loader for the OpenGL runs as on a machine without `mesa-vulkan-drivers`. Printed side by side,
# with OpenGL's figure over Vulkan's:
# - when the first frame is drawn, and resident memory then and after 10 typed lines
#   (`benches/weight/measure.py`), the median of RUNS runs of each, alternating;
# - frames drawn over 10 s once the caret rests (idle: 0 on both is the target);
# - instructions, the whole process's (the app, Bevy, wgpu and Mesa's driver) as callgrind counts
#   them, for one caret blink, one submission (Enter) and one wheel notch, in the app started
#   with 1,000 messages (the `long-log` example), and the frames each drew.
#
#   bash benches/opengl.sh            # the dev build, what `cargo run` builds
#   RUNS=5 bash benches/opengl.sh     # runs of each for the first two (default 3)
#
# Installs what it needs from Debian (Xvfb, Mesa's Vulkan and OpenGL, xdotool, python3-xlib,
# valgrind) if missing. A few minutes, most of them under callgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/agent-chat/target}"
runs="${RUNS:-3}"

source benches/weight/window-tools.sh
install_window_tools callgrind_control=valgrind
cargo build --locked --quiet --bin agent-chat --example long-log
app="$CARGO_TARGET_DIR/debug/agent-chat"
long="$CARGO_TARGET_DIR/debug/examples/long-log"

work=$(mktemp -d)
display=":$((90 + RANDOM % 100))"
Xvfb "$display" -screen 0 1920x1080x24 -noreset -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; pkill -f "$work" 2>/dev/null; rm -rf "$work"' EXIT
sleep 2
# The OpenGL runs: the Vulkan loader finds no driver.
no_vulkan=(VK_DRIVER_FILES=/nonexistent/icd.json VK_ICD_FILENAMES=/nonexistent/icd.json)
x() { DISPLAY="$display" xdotool "$@"; }
window() { x search --onlyvisible --name '^agent-chat$' 2>/dev/null | head -1; }
frames() { grep -c 'agent_chat::workarounds::repaint' "$1" || true; }
# Waits until the log $1 has more than $2 frames, for at most $3 seconds.
wait_frames() {
  local deadline=$((SECONDS + $3))
  while [ "$(frames "$1")" -le "$2" ] && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
}

# First frame and memory.
for run in $(seq "$runs"); do
  for backend in vulkan gl; do
    extra=(); [ $backend = gl ] && extra=("${no_vulkan[@]}")
    env "${extra[@]}" /usr/bin/python3 benches/weight/measure.py "$display" agent-chat 0,10 -- "$app" \
      >"$work/measure-$backend.$run"
  done
done

# Idle: frames over 10 s, from 15 s after the last input (the caret rests after 10 s).
idle_frames() { # backend
  local log="$work/idle-$1.log" extra=() pid before
  [ "$1" = gl ] && extra=("${no_vulkan[@]}")
  env "${extra[@]}" DISPLAY="$display" RUST_LOG=agent_chat::workarounds::repaint=debug "$app" >"$log" 2>&1 &
  pid=$!
  until [ -n "$(window)" ]; do sleep 0.2; done
  x windowfocus --sync "$(window)"
  x type "idle"
  sleep 15
  before=$(frames "$log"); sleep 10
  echo $(($(frames "$log") - before))
  kill $pid; wait $pid 2>/dev/null || true
}
for backend in vulkan gl; do idle_frames $backend >"$work/idle-$backend"; done

# Instructions under callgrind: instrumented only between `-i on` and `-i off`, one action each
# (start-up runs uninstrumented, so it takes seconds, not minutes).
instructions() { # backend
  local backend=$1 log="$work/cg-$1.log" extra=() pid n
  [ "$1" = gl ] && extra=("${no_vulkan[@]}")
  env "${extra[@]}" DISPLAY="$display" LONG_LOG=1000 RUST_LOG=warn,agent_chat::workarounds::repaint=debug \
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/cg-$1.%p" \
    "$long" >"$log" 2>&1 &
  pid=$!
  until [ -n "$(window)" ]; do sleep 1; done
  wait_frames "$log" 0 300
  x windowfocus --sync "$(window)"
  x type --delay 300 "a line to send"
  x mousemove --window "$(window)" 600 300
  sleep 15 # the typing's frames drawn, and the caret blinking again
  # measure ACTION: counts from before ACTION until one frame after it and a settling second.
  measure() {
    callgrind_control -z "$pid" >/dev/null 2>&1
    callgrind_control -i on "$pid" >/dev/null 2>&1
    n=$(frames "$log")
    "$@"
    wait_frames "$log" "$n" 120
    sleep 1
    callgrind_control -i off "$pid" >/dev/null 2>&1
    local drawn=$(($(frames "$log") - n))
    callgrind_control -d "$pid" >/dev/null 2>&1
    sleep 1
    local out
    out=$(ls -t "$work/cg-$backend".* 2>/dev/null | grep -v '\.log$' | head -1)
    echo "$(awk '/^totals:/ {print $2}' "$out") $drawn"
    rm -f "$out"
  }
  blink() { :; }
  echo "blink $(measure blink)"
  echo "submission $(measure x key Return)"
  echo "wheel $(measure x click 4)"
  kill $pid; wait $pid 2>/dev/null || true
}
for backend in vulkan gl; do instructions $backend >"$work/cg-$backend"; done

/usr/bin/python3 - "$work" "$runs" <<'PY'
import statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
def measured(backend, key):
    values = []
    for run in range(1, runs + 1):
        for line in open(f"{work}/measure-{backend}.{run}"):
            k, _, v = line.strip().partition("=")
            if k == key:
                values.append(float(v))
    return statistics.median(values)
def row(label, vk, gl):
    ratio = f"{gl / vk:.2f}" if vk else "-"
    shown = lambda v: f"{v:,.0f}" if v >= 100 or float(v).is_integer() else f"{v:.3f}"
    print(f"{label:<44} {shown(vk):>14} {shown(gl):>14} {ratio:>8}")
print(f"{'':<44} {'Vulkan':>14} {'OpenGL':>14} {'GL/VK':>8}")
row("first frame, s (median)", measured("vulkan", "first_frame_s"), measured("gl", "first_frame_s"))
for at in (0, 10):
    row(f"resident after {at} lines, kB", measured("vulkan", f"rss_kb_at_{at}"), measured("gl", f"rss_kb_at_{at}"))
    row(f"  of it the GPU driver's, kB", measured("vulkan", f"gpu_driver_kb_at_{at}"), measured("gl", f"gpu_driver_kb_at_{at}"))
    row(f"  of it llvmpipe's LLVM, kB", measured("vulkan", f"llvm_kb_at_{at}"), measured("gl", f"llvm_kb_at_{at}"))
idle = {b: int(open(f"{work}/idle-{b}").read()) for b in ("vulkan", "gl")}
row("frames over 10 s at rest", idle["vulkan"], idle["gl"])
cg = {}
for backend in ("vulkan", "gl"):
    for line in open(f"{work}/cg-{backend}"):
        action, total, frames = line.split()
        cg[(backend, action)] = (int(total), int(frames))
for action in ("blink", "submission", "wheel"):
    (vk, vk_frames), (gl, gl_frames) = cg[("vulkan", action)], cg[("gl", action)]
    row(f"{action}: instructions (frames {vk_frames} / {gl_frames})", vk, gl)
PY
