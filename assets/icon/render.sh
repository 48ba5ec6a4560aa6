#!/usr/bin/env bash
# Renders the icon (agent-chat.svg) into what the desktop and the window need: the PNG sizes of
# the freedesktop hicolor theme, for the launcher entry, and the 64 px RGBA pixels the window
# hands to X11 and Windows (`_NET_WM_ICON`), which the binary embeds so it needs no PNG decoder.
#
#   bash assets/icon/render.sh
#
# Needs Debian's librsvg2-bin (rsvg-convert); installs it if missing.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v rsvg-convert >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq librsvg2-bin >/dev/null
fi
for size in 16 24 32 48 64 128 256; do
  mkdir -p "hicolor/${size}x${size}/apps"
  rsvg-convert -w "$size" -h "$size" agent-chat.svg -o "hicolor/${size}x${size}/apps/agent-chat.png"
done
mkdir -p hicolor/scalable/apps
cp agent-chat.svg hicolor/scalable/apps/agent-chat.svg
# The window's pixels: the 64 px PNG, inflated and unfiltered (PNG's five row filters).
python3 - hicolor/64x64/apps/agent-chat.png window-64.rgba <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
chunks, at = {}, 8
while at < len(data):
    length, kind = struct.unpack(">I4s", data[at:at + 8])
    chunks.setdefault(kind, b"")
    chunks[kind] += data[at + 8:at + 8 + length]
    at += 12 + length
width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
assert (depth, colour) == (8, 6), "rsvg-convert writes 8-bit RGBA"
raw, stride, rows, prev = zlib.decompress(chunks[b"IDAT"]), width * 4, [], bytes(width * 4)
for y in range(height):
    kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - 4] if x >= 4 else 0
        b, c = prev[x], prev[x - 4] if x >= 4 else 0
        if kind == 1: line[x] = (line[x] + a) & 255
        elif kind == 2: line[x] = (line[x] + b) & 255
        elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line))
    prev = line
open(sys.argv[2], "wb").write(b"".join(rows))
PY
echo "rendered: hicolor/*/apps/agent-chat.png, window-64.rgba"
