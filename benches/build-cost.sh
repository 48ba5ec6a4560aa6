#!/usr/bin/env bash
# What it costs to build agent-chat, next to Bevy 0.19 with its default features (a throwaway
# project with an empty `main`), measured in the same run on this machine.
#
#   bash benches/build-cost.sh [release|test|incremental|screen-reader ...]
#                                          (default: the first three)
#
# Each clean build gets an empty target directory; wall time and peak memory come from
# /usr/bin/time. "test" is `cargo test --no-run` with the project's dev profile, which is also
# what `cargo run` compiles. "screen-reader" is the clean `cargo build` (what `cargo run` compiles)
# of the app as it ships, with the Linux screen-reader bridge, next to the same build without it
# (`--no-default-features`). Bevy's defaults need ALSA, udev and Wayland headers to build; the
# script installs them (Debian) if missing. Takes well over an hour on 2 cores.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/build-cost.XXXXXX)
kinds=("$@"); [ ${#kinds[@]} -gt 0 ] || kinds=(release test incremental)

if ! pkg-config --exists alsa libudev wayland-client 2>/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pkg-config libasound2-dev libudev-dev libwayland-dev >/dev/null
fi

# Two baselines, each a throwaway project with an empty `main` and the same profiles as
# agent-chat: Bevy with its default features (the target's yardstick), and Bevy with the least
# any windowed Bevy UI app needs: a winit/X11 window, UI rendering and its font. The second is
# the floor under any trimming of features; the app's distance above it is what its own
# choices cost.
baseline() { # name, bevy dependency line
  mkdir -p "$work/$1/src"
  echo 'fn main() {}' > "$work/$1/src/main.rs"
  cat > "$work/$1/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.0.0"
edition = "2024"

[dependencies]
$2

$(sed -n '/^\[profile/,$p' "$here/Cargo.toml")
TOML
  cp "$here/Cargo.lock" "$work/$1/Cargo.lock"   # same versions where the graphs overlap
}
baseline bevy-default 'bevy = "=0.19.1"'
baseline bevy-ui-floor 'bevy = { version = "=0.19.1", default-features = false, features = ["std", "bevy_winit", "x11", "bevy_ui_render", "default_font"] }'
git -C "$here" archive HEAD | tar -x -C "$work" --one-top-level=agent-chat

timed() { # label, dir, cargo args...
  local label=$1 dir=$2; shift 2
  /usr/bin/time -f "%e %M" -o "$work/time" cargo "$@" --manifest-path "$dir/Cargo.toml" --quiet >/dev/null 2>"$work/err" \
    || { cat "$work/err"; return 1; }
  read -r seconds kb < "$work/time"
  printf '%-34s %7.0f s  %6.0f MB peak\n' "$label" "$seconds" "$((kb / 1024))"
  echo "$seconds" > "$work/last"
}

ratio() { # app, default[, floor]
  awk -v a="$1" -v b="$2" 'BEGIN {printf "  agent-chat / bevy-default: %.2f\n", a / b}'
  [ -z "${3:-}" ] || awk -v a="$1" -v b="$2" -v f="$3" \
    'BEGIN {printf "  bevy-ui-floor / bevy-default: %.2f   agent-chat / bevy-ui-floor: %.2f\n", f / b, a / f}'
}

for kind in "${kinds[@]}"; do
  case $kind in
    release)
      CARGO_TARGET_DIR="$work/t-app-release" timed "agent-chat: cargo build --release" "$work/agent-chat" build --release
      app=$(cat "$work/last")
      CARGO_TARGET_DIR="$work/t-floor-release" timed "bevy-ui-floor: cargo build --release" "$work/bevy-ui-floor" build --release
      floor=$(cat "$work/last")
      CARGO_TARGET_DIR="$work/t-bevy-release" timed "bevy-default: cargo build --release" "$work/bevy-default" build --release
      ratio "$app" "$(cat "$work/last")" "$floor" ;;
    test)
      CARGO_TARGET_DIR="$work/t-app-dev" timed "agent-chat: cargo test --no-run" "$work/agent-chat" test --no-run
      app=$(cat "$work/last")
      CARGO_TARGET_DIR="$work/t-bevy-dev" timed "bevy-default: cargo test --no-run" "$work/bevy-default" test --no-run
      ratio "$app" "$(cat "$work/last")" ;;
    incremental)
      # Needs the dev builds of "test"; makes them if that step was not run.
      [ -d "$work/t-app-dev" ] || CARGO_TARGET_DIR="$work/t-app-dev" cargo build --manifest-path "$work/agent-chat/Cargo.toml" --quiet
      [ -d "$work/t-bevy-dev" ] || CARGO_TARGET_DIR="$work/t-bevy-dev" cargo build --manifest-path "$work/bevy-default/Cargo.toml" --quiet
      touch "$work/agent-chat/src/view.rs"
      CARGO_TARGET_DIR="$work/t-app-dev" timed "agent-chat: build after touching src/view.rs" "$work/agent-chat" build
      app=$(cat "$work/last")
      touch "$work/bevy-default/src/main.rs"
      CARGO_TARGET_DIR="$work/t-bevy-dev" timed "bevy-default: build after touching main.rs" "$work/bevy-default" build
      ratio "$app" "$(cat "$work/last")" ;;
    screen-reader)
      CARGO_TARGET_DIR="$work/t-app-reader" timed "agent-chat: cargo build" "$work/agent-chat" build
      with=$(cat "$work/last")
      CARGO_TARGET_DIR="$work/t-app-no-reader" timed "agent-chat: cargo build --no-default-features" "$work/agent-chat" build --no-default-features
      awk -v a="$with" -v b="$(cat "$work/last")" 'BEGIN {printf "  with the screen-reader bridge / without: %.2f (+%.0f s)\n", a / b, a - b}' ;;
    *) echo "unknown step: $kind" >&2; exit 2 ;;
  esac
done
rm -rf "$work"
