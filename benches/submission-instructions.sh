#!/usr/bin/env bash
# Instructions executed by one frame of 1,000 submissions when the log already holds 0, 200,
# 10,000 and 100,000 messages (benches/submission_instructions.rs under valgrind's callgrind).
# The times of `cargo bench --bench submission` drift with this shared machine's load; the
# instruction count of the same frame does not, so these ratios repeat from run to run.
#
#   bash benches/submission-instructions.sh
#
# Installs valgrind if missing; takes under a minute once the bench is built.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/agent-chat/target}"
if ! command -v valgrind >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
fi
bin=$(cargo bench --locked --profile dev --bench submission_instructions --no-run --message-format=json \
  | grep -o '"executable":"[^"]*/submission_instructions-[^"]*"' | cut -d'"' -f4)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

count() { # messages already logged -> instructions in the measured frame
  valgrind --tool=callgrind --toggle-collect='*measured_frame*' --callgrind-out-file="$work/out" \
    "$bin" "$1" 2>&1 | awk '/Collected :/ {print $NF}' | grep . || { echo "callgrind failed on $1 messages" >&2; exit 1; }
}

printf '%-10s %14s %10s %10s\n' logged instructions "/ 0" "/ 200"
for logged in 0 200 10000 100000; do
  n=$(count "$logged")
  : "${empty:=$n}"
  [ "$logged" != 200 ] || full=$n
  awk -v l="$logged" -v n="$n" -v e="$empty" -v f="${full:-}" \
    'BEGIN {printf "%-10s %14d %10.3f %10s\n", l, n, n / e, f ? sprintf("%.3f", n / f) : "-"}'
done
