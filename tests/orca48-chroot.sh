#!/usr/bin/env bash
# Builds Debian 13's Orca 48 in a folder (a chroot), for the window tests' second screen reader:
# most people run Orca 46 to 48, and the host's Debian 12 has Orca 43. Once built, it is kept:
# a second run returns at once. Run as root (debootstrap and chroot need it).
#
#   tests/orca48-chroot.sh [FOLDER]     default: $HOME/.cache/agent-chat/orca-48
#
# The tests find it there, or where AGENT_CHAT_ORCA_48 says (tests/window/session.rs, `Reader`).
set -euo pipefail
dir="${1:-${AGENT_CHAT_ORCA_48:-$HOME/.cache/agent-chat/orca-48}}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
if [ -e "$dir/.built" ]; then
  echo "Orca 48 is in $dir"
  exit 0
fi
command -v debootstrap >/dev/null || {
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
}
partial="$dir.partial"
umount -R "$partial/proc" 2>/dev/null || true
rm -rf "$partial"
mkdir -p "$partial"
# debootstrap stops at "Failure while configuring base packages" for this set; what it left is
# finished inside the chroot below.
debootstrap --variant=minbase \
  --include=orca,speech-dispatcher,dbus,at-spi2-core,python3-pyatspi \
  trixie "$partial" "$mirror" >"$partial.log" 2>&1 || echo "debootstrap stopped early, as expected (its log: $partial.log); finishing in the chroot"
cp /etc/resolv.conf "$partial/etc/resolv.conf"
mount -t proc proc "$partial/proc"
trap 'umount "$partial/proc" 2>/dev/null || true' EXIT
in_chroot() { chroot "$partial" env DEBIAN_FRONTEND=noninteractive "$@"; }
in_chroot apt-get update -qq
# What debootstrap could not configure waits on packages it does not pick itself (the providers of
# gir1.2-cairo-1.0 and friends, and of dbus-session-bus): installing them first finishes the set.
in_chroot apt-get install -y -qq --no-install-recommends gir1.2-freedesktop dbus-x11 >>"$partial.log" 2>&1
# Orca 48 dies at start without xkbcomp.
in_chroot apt-get install -y -qq --no-install-recommends x11-xkb-utils >>"$partial.log" 2>&1
in_chroot orca --version
in_chroot apt-get clean
umount "$partial/proc"
trap - EXIT
rm -rf "$dir"
mv "$partial" "$dir"
touch "$dir/.built"
echo "Orca 48 built in $dir"
