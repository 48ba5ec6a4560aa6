#!/usr/bin/env bash
# What the bundled fonts cost, side by side with an earlier commit (by default the last one
# before them), in one run on this machine: the binary's size, the time from starting the
# binary to its window being mapped, and the resident memory after 100 exchanges pasted in mixed
# scripts. Each app runs on an Xvfb of its own with Mesa's software Vulkan, the two builds take
# turns, and the script prints each run, the medians and their ratio.
#
#   bash benches/fonts-cost.sh [BASE_REV]
#
# Needs what tests/window.rs needs (Xvfb, Mesa Vulkan, xdotool, xclip); builds both revisions
# with the Bevy that `cargo build` already compiled (only the app crate is rebuilt).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/agent-chat/target}"
base=${1:-e9b7b2a}
runs=${RUNS:-5}
work=$(mktemp -d)
cleanup() {
  git worktree remove --force "$work/base" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

binary_of() { # a source tree -> a copy of its app binary
  (cd "$1" && cargo build --locked --quiet --message-format=json) \
    | grep -o '"executable":"[^"]*/agent-chat"' | cut -d'"' -f4 | tail -1
}
git worktree add --quiet --detach "$work/base" "$base"
cp "$(binary_of "$work/base")" "$work/agent-chat.base"
cp "$(binary_of .)" "$work/agent-chat.new"

# The lines pasted, cycling: a line in each script, as tests/window.rs sends them.
lines=(
  "이모지 👋😀👍🏽👨‍👩‍👧🇰🇷 끝"
  "漢字 韓國語 ひらがな カタカナ Καλημέρα Привет Łódź"
  "مرحبا بالعالم"
  "שלום עולם"
  "สวัสดีครับ नमस्ते নমস্কার வணக்கம்"
  "∑ ∫ √2 ≠ ∞ → € ₩ ✓ ★"
)

# Starts `$1` on a fresh Xvfb; sets display, xvfb_pid, app_pid and started_ms (ms until mapped).
start() {
  exec {fd}< <(Xvfb -displayfd 1 -screen 0 1600x900x24 -nolisten tcp -noreset 2>/dev/null)
  xvfb_pid=$!
  read -r -u "$fd" n
  display=":$n"
  local t0
  t0=$(date +%s%N)
  DISPLAY=$display "$1" >/dev/null 2>&1 &
  app_pid=$!
  window=$(DISPLAY=$display timeout 60 xdotool search --sync --onlyvisible --name '^agent-chat$' | head -1)
  started_ms=$((($(date +%s%N) - t0) / 1000000))
}
stop() {
  kill "$app_pid" 2>/dev/null || true
  wait "$app_pid" 2>/dev/null || true
  kill "$xvfb_pid" 2>/dev/null || true
  wait "$xvfb_pid" 2>/dev/null || true
}

# Pastes 100 lines with Enter after each; prints the resident memory (kB) once they are drawn.
rss_after_exchanges() {
  DISPLAY=$display xdotool windowfocus --sync "$window"
  sleep 1
  for i in $(seq 1 100); do
    printf '%s %d' "${lines[$((i % ${#lines[@]}))]}" "$i" \
      | DISPLAY=$display xclip -selection clipboard -i >/dev/null 2>&1
    DISPLAY=$display xdotool key ctrl+v Return
    sleep 0.2
  done
  sleep 3
  awk '/VmRSS/ {print $2}' "/proc/$app_pid/status"
}

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

declare -A start_ms rss_kb
for run in $(seq 1 "$runs"); do
  for build in base new; do
    start "$work/agent-chat.$build"
    start_ms[$build]+="$started_ms "
    if ((run <= 2)); then
      rss_kb[$build]+="$(rss_after_exchanges) "
    fi
    stop
    echo "run $run $build: mapped in ${started_ms} ms"
  done
done

size() { stat -c %s "$work/agent-chat.$1"; }
echo
printf '%-28s %12s %12s %8s\n' "" "base ($base)" "new" "new/base"
row() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN {printf "%-28s %12d %12d %8.3f\n", n, a, b, b / a}'; }
row "binary (bytes)" "$(size base)" "$(size new)"
row "window mapped (ms, median)" \
  "$(tr ' ' '\n' <<<"${start_ms[base]}" | grep . | median)" \
  "$(tr ' ' '\n' <<<"${start_ms[new]}" | grep . | median)"
echo "RSS after 100 exchanges (kB): base ${rss_kb[base]}/ new ${rss_kb[new]}"
row "RSS after 100 (kB, median)" \
  "$(tr ' ' '\n' <<<"${rss_kb[base]}" | grep . | median)" \
  "$(tr ' ' '\n' <<<"${rss_kb[new]}" | grep . | median)"
