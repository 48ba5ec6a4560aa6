#!/usr/bin/env bash
# Who owns the heap: the app after 100 typed lines, the app with 100,000 messages (`long-log`),
# and the Bevy floor (`bevy-floor`), each run once under heaptrack in Xvfb, ended with Escape,
# and its heap at the peak grouped by owner (benches/weight/heap_owners.py), side by side.
#
#   bash benches/weight/heap.sh            # dev, what `cargo run` builds
#   bash benches/weight/heap.sh --release  # the release profile, but keeping the symbols that
#                                          # heaptrack names stacks by: its own target directory,
#                                          # a clean release build the first time (about 13 minutes)
#
# heaptrack counts bytes allocated, resident or not: benches/weight.sh gives what is resident.
# Installs heaptrack (Debian) and what the window needs if missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/agent-chat/target}"
flag=() dir=debug
if [ "${1:-}" = "--release" ]; then
  flag=(--release) dir=release
  export CARGO_PROFILE_RELEASE_STRIP=false
  export CARGO_TARGET_DIR="$CARGO_TARGET_DIR-symbols"
fi

source benches/weight/window-tools.sh
install_window_tools heaptrack=heaptrack

cargo build --locked "${flag[@]}" --bin agent-chat --example long-log --example bevy-floor
# The records stay, for `heaptrack_print` or `heaptrack_gui` to open.
work="$CARGO_TARGET_DIR/heap-profiles/$dir"
rm -rf "$work" && mkdir -p "$work"
display=":$((90 + RANDOM % 100))"
Xvfb "$display" -screen 0 1920x1080x24 -noreset -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null' EXIT
sleep 2
profile() { # NAME TITLE LINES PROGRAM
  MEASURE_QUIT_KEY=Escape /usr/bin/python3 benches/weight/measure.py "$display" "$2" "$3" -- \
    heaptrack -o "$work/$1" "$4" >/dev/null
  heaptrack_print -f "$work/$1.zst" --flamegraph-cost-type peak -F "$work/$1" >/dev/null
}
profile app-100-lines agent-chat 100 "$CARGO_TARGET_DIR/$dir/agent-chat"
LONG_LOG=100000 profile app-100000-messages agent-chat 0 "$CARGO_TARGET_DIR/$dir/examples/long-log"
profile bevy-floor bevy-floor 0 "$CARGO_TARGET_DIR/$dir/examples/bevy-floor"
echo "heap at its peak by owner, MiB ($dir; the records are in $work)"
owners="$PWD/benches/weight/heap_owners.py"
(cd "$work" && /usr/bin/python3 "$owners" app-100-lines app-100000-messages bevy-floor)
