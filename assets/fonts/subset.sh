#!/usr/bin/env bash
# Regenerates AgentChatHangul.ttf, a subset of NanumGothic from Debian's fonts-nanum.
#
# The full NanumGothic is 4.5 MB; the app needs only Latin, punctuation and Hangul, so we keep
# those ranges and drop hinting (the UI renders at fixed sizes through a glyph atlas).
# "NanumGothic" is a Reserved Font Name under the OFL, and a subset is a Modified Version, so the
# subset is renamed (see OFL.txt beside it).
#   apt-get install fonts-nanum && pip install fonttools && bash assets/fonts/subset.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:-/usr/share/fonts/truetype/nanum/NanumGothic.ttf}
ranges=(
  U+0020-007E # Basic Latin
  U+00A0-00FF # Latin-1 supplement (NBSP, ©, accented letters)
  U+2000-206F # General punctuation (dashes, quotes, ellipsis)
  U+1100-11FF # Hangul jamo
  U+3000-303F # CJK symbols and punctuation (ideographic space, brackets)
  U+3130-318F # Hangul compatibility jamo (what an IME shows while composing)
  U+AC00-D7A3 # Hangul syllables
  U+FF01-FF5E # Full-width forms
)
pyftsubset "$src" \
  --unicodes="$(IFS=,; echo "${ranges[*]}")" \
  --layout-features='*' \
  --no-hinting \
  --output-file="$here/AgentChatHangul.ttf"
python3 - "$here/AgentChatHangul.ttf" <<'PY'
import sys
from fontTools.ttLib import TTFont
path = sys.argv[1]
font = TTFont(path)
names = {1: "AgentChat Hangul", 2: "Regular", 3: "AgentChatHangul-Regular;subset-of-NanumGothic",
         4: "AgentChat Hangul Regular", 6: "AgentChatHangul-Regular"}
font["name"].names = [n for n in font["name"].names if n.nameID not in (16, 17, 18, 21, 22)]
for record in font["name"].names:
    if record.nameID in names:
        record.string = names[record.nameID]
font.save(path)
PY
ls -l "$here/AgentChatHangul.ttf"
