#!/usr/bin/env bash
# How heavy the app is beside the lightest peer: the same chat written with egui
# (benches/peers/egui-chat, its own workspace), both built the same way, run one after the
# other under Xvfb with Mesa's software Vulkan, typed into with the same lines, and printed side
# by side: the binary's size, when the window is mapped and its first frame drawn, resident
# memory by mapping after 10 and 100 lines and the CPU time those lines took, and memory and
# first frame with a long log (100,000 messages: the app's `long-log` example, the peer's
# PEER_PREFILL=50000 exchanges). Beside them at start, the Bevy floor: a window with one line of
# text and the app's Bevy features (`bevy-floor` example).
#
#   bash benches/weight.sh            # release beside release (each with its own profile)
#   bash benches/weight.sh --dev      # dev beside dev (what `cargo run` builds)
#   RUNS=5 bash benches/weight.sh     # runs of each, alternating (default 3); medians printed
#
# Installs what it needs from Debian (Xvfb, Mesa Vulkan, xdotool, python3-xlib) if missing. The
# first run builds both in release: about 13 minutes on 2 cores for the app and its two
# examples, a few for the peer.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/agent-chat/target}"
peer_target="${PEER_TARGET_DIR:-$HOME/.cache/agent-chat/peer-target}"
profile=release
[ "${1:-}" = "--dev" ] && profile=dev
runs="${RUNS:-3}"

source benches/weight/window-tools.sh
install_window_tools

flag=(); [ "$profile" = release ] && flag=(--release)
dir=$([ "$profile" = release ] && echo release || echo debug)
cargo build --locked "${flag[@]}" --bin agent-chat --example long-log --example bevy-floor
CARGO_TARGET_DIR="$peer_target" cargo build --locked "${flag[@]}" \
  --manifest-path benches/peers/egui-chat/Cargo.toml
app="$CARGO_TARGET_DIR/$dir/agent-chat"
long="$CARGO_TARGET_DIR/$dir/examples/long-log"
floor="$CARGO_TARGET_DIR/$dir/examples/bevy-floor"
peer="$peer_target/$dir/egui-chat-peer"

work=$(mktemp -d)
display=":$((90 + RANDOM % 100))"
Xvfb "$display" -screen 0 1920x1080x24 -noreset -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
sleep 2
measure() { /usr/bin/python3 benches/weight/measure.py "$display" "$@"; }
for run in $(seq "$runs"); do
  # Alternating, so the machine's drift falls on both alike.
  measure agent-chat 0,10,100 -- "$app" >"$work/app.$run"
  measure egui-chat-peer 0,10,100 -- "$peer" >"$work/peer.$run"
  measure bevy-floor 0 -- "$floor" >"$work/floor.$run"
  LONG_LOG=100000 measure agent-chat 0 -- "$long" >"$work/app-long.$run"
  PEER_PREFILL=50000 measure egui-chat-peer 0 -- "$peer" >"$work/peer-long.$run"
done

/usr/bin/python3 - "$work" "$runs" "$profile" <<'PY'
import statistics, sys
work, runs, profile = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def read(name):
    out = []
    for run in range(1, runs + 1):
        with open(f"{work}/{name}.{run}") as f:
            out.append(dict(line.strip().split("=", 1) for line in f if "=" in line))
    return out
app, peer, app_long, peer_long, floor = (
    read(n) for n in ("app", "peer", "app-long", "peer-long", "floor"))
def median(rows, key, scale=1.0):
    return statistics.median(float(r[key]) for r in rows) * scale
MB = 1 / 1024  # kB to MiB
rows = [
    ("binary file (MB)", lambda s: median(s, "binary_bytes", 1 / 1e6), "{:.1f}"),
    ("window mapped (s)", lambda s: median(s, "mapped_s"), "{:.3f}"),
    ("first frame drawn (s)", lambda s: median(s, "first_frame_s"), "{:.3f}"),
]
for lines in (10, 100):
    rows += [
        (f"RSS after {lines} lines (MiB)", lambda s, l=lines: median(s, f"rss_kb_at_{l}", MB), "{:.1f}"),
    ]
for kind, label in (("binary", "the binary, resident"), ("llvm", "llvmpipe's LLVM"),
                    ("gpu_driver", "the rest of Mesa"), ("libs", "other libraries"),
                    ("heap", "heap (brk)"), ("anon", "other anonymous")):
    rows.append((f"  of which {label} (MiB)", lambda s, k=kind: median(s, f"{k}_kb_at_100", MB), "{:.1f}"))
rows.append(("anonymous memory, Pss_Anon, at 100 (MiB)", lambda s: median(s, "pss_anon_kb_at_100", MB), "{:.1f}"))
# What typing costs the processor: CPU time (user and system, llvmpipe's drawing included) from
# the 10th line to the 100th.
rows.append(("CPU time for lines 11 to 100 (s)",
             lambda s: statistics.median(float(r["cpu_s_at_100"]) - float(r["cpu_s_at_10"]) for r in s),
             "{:.2f}"))
print(f"{profile} beside {profile}, median of {runs} alternating runs")
print(f"{'figure':44} {'egui peer':>10} {'agent-chat':>11} {'app/peer':>9}")
for label, get, fmt in rows:
    p, a = get(peer), get(app)
    print(f"{label:44} {fmt.format(p):>10} {fmt.format(a):>11} {a / p:9.2f}")
# The Bevy floor: a window with one line of text, the app's Bevy features, nothing of the app.
print(f"{'at start, nothing typed':44} {'egui peer':>10} {'agent-chat':>11} {'Bevy floor':>11}")
start_rows = [("binary file (MB)", "binary_bytes", 1 / 1e6, "{:.1f}"),
              ("first frame drawn (s)", "first_frame_s", 1.0, "{:.3f}"),
              ("RSS (MiB)", "rss_kb_at_0", MB, "{:.1f}")]
for kind, label in (("binary", "the binary, resident"), ("llvm", "llvmpipe's LLVM"),
                    ("gpu_driver", "the rest of Mesa"), ("libs", "other libraries"),
                    ("heap", "heap (brk)"), ("anon", "other anonymous")):
    start_rows.append((f"  of which {label} (MiB)", f"{kind}_kb_at_0", MB, "{:.1f}"))
for label, key, scale, fmt in start_rows:
    p, a, f = (median(s, key, scale) for s in (peer, app, floor))
    print(f"{label:44} {fmt.format(p):>10} {fmt.format(a):>11} {fmt.format(f):>11}")
for label, key, fmt in (("long log, 100,000 messages: RSS (MiB)", "rss_kb_at_0", "{:.1f}"),
                        ("long log: first frame drawn (s)", "first_frame_s", "{:.3f}")):
    scale = MB if key.endswith("kb_at_0") else 1.0
    p, a = median(peer_long, key, scale), median(app_long, key, scale)
    print(f"{label:44} {fmt.format(p):>10} {fmt.format(a):>11} {a / p:9.2f}")
PY
