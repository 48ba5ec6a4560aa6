#!/usr/bin/env bash
# Regenerates every font in this folder from its published package (docs/fonts.md says why each
# one is here and which script it draws):
#   - AgentChatHangul.ttf: NanumGothic from Debian's fonts-nanum, every character it has (Hangul,
#     KS X 1001's Hanja, kana, Latin, Korean-style symbols), renamed because "NanumGothic" is a
#     Reserved Font Name under the OFL and a subset is a Modified Version;
#   - noto/: Noto Sans and its per-script families from Debian's fonts-noto-core;
#   - twemoji/: Mozilla's COLRv0 build of Twemoji from npm's twemoji-colr-font, a WOFF2 turned
#     into a TTF (swash draws COLRv0 layers, not COLRv1).
# Every font keeps all its characters and its layout tables (Arabic joining, Indic conjuncts and
# emoji sequences are GSUB rules); hinting goes (the UI renders through a glyph atlas), and the
# .notdef outline stays, so a character no font covers shows as a box, not as blank space.
#
#   apt-get install fonts-nanum fonts-noto-core && pip install 'fonttools[woff]==4.68.0' \
#     && bash assets/fonts/subset.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
nanum=/usr/share/fonts/truetype/nanum
noto=/usr/share/fonts/truetype/noto
twemoji_version=15.0.3

subset() { # source, output
  pyftsubset "$1" --unicodes='*' --layout-features='*' --no-hinting --notdef-outline \
    --output-file="$2" 2> >(grep -v 'NOT subset; don.t know how to subset; dropped' >&2)
}

subset "$nanum/NanumGothic.ttf" "$here/AgentChatHangul.ttf"
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

# The order of docs/fonts.md's table; src/theme/fonts.rs names the same files.
mkdir -p "$here/noto"
for family in NotoSans NotoSansArabic NotoSansHebrew NotoSansThai NotoSansDevanagari \
  NotoSansBengali NotoSansGurmukhi NotoSansGujarati NotoSansTamil NotoSansTelugu \
  NotoSansKannada NotoSansMalayalam NotoSansArmenian NotoSansGeorgian NotoSansMath \
  NotoSansSymbols NotoSansSymbols2; do
  subset "$noto/$family-Regular.ttf" "$here/noto/$family-Regular.ttf"
done

mkdir -p "$here/twemoji"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "twemoji-colr-font@$twemoji_version" >/dev/null && tar xzf ./*.tgz)
python3 - "$work/package/twemoji.woff2" "$work/twemoji.ttf" <<'PY'
import sys
from fontTools.ttLib import TTFont
font = TTFont(sys.argv[1])
font.flavor = None
font.save(sys.argv[2])
PY
subset "$work/twemoji.ttf" "$here/twemoji/TwemojiMozilla.ttf"
cp "$work/package/LICENSE" "$here/twemoji/LICENSE.md"

ls -l "$here"/*.ttf "$here"/noto/*.ttf "$here"/twemoji/*.ttf
