//! Finding the links in a message's text.
//!
//! [`find`] returns the links in a message in order. Each one is a byte range in the
//! text, which is never changed, and the target that clicking the link opens.
//!
//! The [`linkify`] crate does the scanning. By itself, it:
//!
//! - finds `scheme://…` URLs of any scheme, including non-ASCII hosts and paths
//!   (`https://bücher.de/x`, `https://한국.kr`);
//! - leaves out trailing `.,:;!?*`, quotes, and closing brackets without a partner:
//!   in `(see https://example.org/a_(b))` the link ends after `(b)`;
//! - stops at ASCII spaces, control characters (so a link never spans a line),
//!   `<`, `>`, `"`, `|` and backticks;
//! - finds bare e-mail addresses, and, if asked, domains without a scheme.
//!
//! This module adds what chat users expect:
//!
//! - Only `http`, `https` and `mailto` links: see [`may_open`].
//! - `www.` links without a scheme, opened as `https://www.…`. Other domains without
//!   a scheme (`example.com`) are not links: in a sentence they are too often not meant
//!   as one.
//! - E-mail addresses only when written as `mailto:a@b.example`. A bare `a@b.example`
//!   is not a link: the product asks for `mailto:` addresses, and linkify makes this
//!   easy, since it finds the address and we check that `mailto:` comes right before it.
//! - Links end at any Unicode space, at non-ASCII punctuation (`。`, `、`, `「」`, `“”`),
//!   at emoji and at invisible direction marks. linkify would take all of those as letters.
//! - Text glued to a link without a space is left out, before (`링크는https://…`) and
//!   after (`https://example.org에서`). See `glued_after` for the rule and its limits.
//! - Top-level domains that are not ASCII, as in `https://例子.测试`, which linkify
//!   alone does not find. See `stand_in`.
//!
//! Targets are the link text as written: non-ASCII hosts are not converted to
//! punycode, because browsers take such addresses (IRIs) as they are.

use std::ops::Range;

use linkify::{LinkFinder, LinkKind};

use super::Link;

/// Finds the links in `text`, in the order they appear.
pub fn find(text: &str) -> Vec<Link> {
    let copy = stand_in(text);
    let mut links = Vec::new();

    // Pass 1: URLs with a scheme (`https://…`), and e-mail addresses for `mailto:`.
    for found in LinkFinder::new().links(&copy) {
        let range = found.start()..found.end();
        let link = match found.kind() {
            LinkKind::Email => mailto_link(text, range),
            _ => scheme_link(text, range),
        };
        links.extend(link);
    }

    // Pass 2: `www.` links. linkify finds URLs without a scheme only in a mode that
    // also takes any `word.word` for a domain, such as `봤어.https` in
    // `봤어.https://example.org`. That is why this is a second pass: in one pass, the
    // `https://` link after it would be lost.
    let mut finder = LinkFinder::new();
    finder.kinds(&[LinkKind::Url]).url_must_have_scheme(false);
    for found in finder.links(&copy) {
        let range = found.start()..found.end();
        let overlaps = links
            .iter()
            .any(|link| link.range.start < range.end && range.start < link.range.end);
        if !overlaps {
            links.extend(www_link(text, range));
        }
    }

    links.sort_by_key(|link| link.range.start);
    links
}

/// Whether a link target may be opened: only `http:`, `https:` and `mailto:` targets,
/// in any letter case. Everything else (`file:`, `javascript:`, `data:`, …) may not.
pub fn may_open(target: &str) -> bool {
    let Some((scheme, _)) = target.split_once(':') else {
        return false;
    };
    ["http", "https", "mailto"]
        .iter()
        .any(|allowed| scheme.eq_ignore_ascii_case(allowed))
}

/// The link for a URL with a scheme that linkify found at `text[range]`.
fn scheme_link(text: &str, range: Range<usize>) -> Option<Link> {
    let found = &text[range.clone()];
    // The scheme is the ASCII letters before `://`. linkify may have put text glued in
    // front of it into the scheme (`링크는https://…`), so we look for the scheme again.
    // (As linkify then sees a scheme other than `https`, it checks the host less
    // strictly; the one difference we know of is that a trailing `-` is kept.)
    let separator = found.find("://")?;
    let scheme_start = found[..separator]
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
        .len();
    finish_link(text, range, scheme_start, "")
}

/// The link for a URL without a scheme that linkify found at `text[range]`, if it is a
/// `www.` link (`www.example.org`, but not `example.org`).
fn www_link(text: &str, range: Range<usize>) -> Option<Link> {
    // `to_ascii_lowercase` keeps every byte where it is, so the index fits `text` too.
    let www = text[range.clone()].to_ascii_lowercase().find("www.")?;
    finish_link(text, range, www, "https://")
}

/// The `mailto:` link for an e-mail address that linkify found at `text[range]`, if the
/// address is written right after `mailto:` (in any letter case).
fn mailto_link(text: &str, range: Range<usize>) -> Option<Link> {
    const MAILTO: &str = "mailto:";
    let start = range.start.checked_sub(MAILTO.len())?;
    // `get` returns `None` if `start` is not on a `char` boundary.
    if !text.get(start..range.start)?.eq_ignore_ascii_case(MAILTO) {
        return None;
    }
    finish_link(text, start..range.end, 0, "")
}

/// Makes the link that starts `skip` bytes into what linkify found at `text[found]`.
///
/// The skipped bytes are text glued in front of the link, which may be non-ASCII letters
/// and punctuation (`링크는`, `봤어.`) but not ASCII letters or digits: `abc.www.example.org`
/// is no `www.` link. The link's end is moved back before text glued to it (see
/// `glued_after`). The prefix goes in front of the target.
fn finish_link(text: &str, found: Range<usize>, skip: usize, target_prefix: &str) -> Option<Link> {
    let start = found.start + skip;
    let glued_before = &text[found.start..start];
    if glued_before.chars().any(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let end = match glued_after(&text[start..found.end]) {
        Some(glued) => start + glued,
        None => found.end,
    };
    let target = format!("{target_prefix}{}", &text[start..end]);
    may_open(&target).then_some(Link {
        range: start..end,
        target,
    })
}

/// Where text glued to the end of `link` begins, if there is any.
///
/// Korean (and Chinese, Japanese) text often follows a link without a space:
/// `https://example.org에서` means "at https://example.org". We end the link where a CJK
/// letter directly follows an ASCII letter or digit.
///
/// In the host that is right: `https://한국.kr` is whole, `https://한국.kr에서` ends
/// after `kr`. In the path it is a guess that we make only while the path is ASCII:
/// `https://example.org/docs에` ends after `docs`, but once the path has CJK letters of
/// its own (`https://ko.wikipedia.org/wiki/서울_지하철_1호선`) we cannot tell where it
/// ends, and keep it all. So the guess goes wrong for `https://example.org/wiki/서울에서`
/// (kept whole) and `https://namu.wiki/w/LG전자` (ends after `LG`).
fn glued_after(link: &str) -> Option<usize> {
    let host_start = link.find("://").map_or(0, |i| i + "://".len());
    let path_start = match link[host_start..].find(['/', '?', '#']) {
        Some(i) => host_start + i,
        None => link.len(),
    };
    let mut previous = ' ';
    for (i, c) in link.char_indices() {
        if is_cjk_letter(c) {
            if previous.is_ascii_alphanumeric() {
                return Some(i);
            }
            if i > path_start {
                return None;
            }
        }
        previous = c;
    }
    None
}

/// The copy of `text` that linkify scans. Every character keeps its byte position, so
/// the ranges linkify finds in the copy are ranges in `text` too.
///
/// - Characters that never belong to a link (see [`ends_link`]) become spaces.
/// - All other non-ASCII characters become `a`s. linkify treats them as letters
///   anyway, except that it wants a top-level domain to start with two ASCII letters,
///   which would lose `https://例子.测试` and `https://пример.рф`. (The one other place
///   where linkify tells them apart is the scheme; `scheme_link` deals with that.)
fn stand_in(text: &str) -> String {
    let mut copy = String::with_capacity(text.len());
    for c in text.chars() {
        if ends_link(c) {
            copy.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else if c.is_ascii() {
            copy.push(c);
        } else {
            copy.extend(std::iter::repeat_n('a', c.len_utf8()));
        }
    }
    copy
}

/// Whether `c` never belongs to a link: spaces and control characters of any kind,
/// non-ASCII punctuation, emoji and other symbols, and invisible formatting characters
/// such as direction marks (which could make a link look unlike what it opens).
fn ends_link(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(c,
            '\u{A1}'..='\u{BF}'             // Latin-1 punctuation, symbols: « » · ¿ © (and ª µ º)
            | '\u{2000}'..='\u{200B}'       // General Punctuation: spaces, dashes, quotes “ ”,
            | '\u{200E}'..='\u{206F}'       //   …, direction marks (but not U+200C, U+200D,
                                            //   which join letters in some scripts)
            | '\u{2190}'..='\u{2BFF}'       // arrows, math, shapes, symbols ☀ ❤ ✓
            | '\u{3001}'..='\u{3003}'       // CJK punctuation: 、 。
            | '\u{3008}'..='\u{3011}'       //   〈 〉 《 》 「 」 『 』 【 】
            | '\u{3014}'..='\u{301F}'       //   〔 〕 〜 …
            | '\u{FE00}'..='\u{FE0F}'       // variation selectors (as in ❤️)
            | '\u{FEFF}'                    // zero-width no-break space
            | '\u{FF01}'..='\u{FF0F}'       // fullwidth punctuation: ！ （ ） ， ． ／
            | '\u{FF1A}'..='\u{FF20}'       //   ： ； ？ ＠
            | '\u{FF3B}'..='\u{FF40}'       //   ［ ］
            | '\u{FF5B}'..='\u{FF65}'       //   ｛ ｝ ～ and halfwidth ｡ ｢ ｣ ､ ･
            | '\u{1F000}'..='\u{1FAFF}'     // emoji
        )
}

/// Whether `c` is a letter of Korean, Japanese or Chinese: Hangul, Hiragana, Katakana
/// or a Han character. These scripts glue text to a link without a space.
fn is_cjk_letter(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{11FF}'         // Hangul Jamo
        | '\u{3040}'..='\u{30FF}'       // Hiragana, Katakana
        | '\u{3130}'..='\u{318F}'       // Hangul Compatibility Jamo
        | '\u{31F0}'..='\u{31FF}'       // Katakana extension
        | '\u{3400}'..='\u{4DBF}'       // Han, extension A
        | '\u{4E00}'..='\u{9FFF}'       // Han
        | '\u{A960}'..='\u{A97F}'       // Hangul Jamo extension A
        | '\u{AC00}'..='\u{D7FF}'       // Hangul syllables, Jamo extension B
        | '\u{F900}'..='\u{FAFF}'       // Han compatibility
        | '\u{FF66}'..='\u{FFDC}'       // halfwidth Katakana and Hangul
        | '\u{20000}'..='\u{3FFFF}'     // Han, further extensions
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The link texts `find` returns for `text`.
    fn link_texts(text: &str) -> Vec<&str> {
        find(text)
            .into_iter()
            .map(|link| &text[link.range])
            .collect()
    }

    /// Each message and the link texts that must be found in it, in order.
    #[rustfmt::skip]
    const CASES: &[(&str, &[&str])] = &[
        // What is a link.
        ("https://example.org", &["https://example.org"]),
        ("http://example.org/path?q=1#top", &["http://example.org/path?q=1#top"]),
        ("see www.example.org now", &["www.example.org"]),
        ("WWW.EXAMPLE.ORG", &["WWW.EXAMPLE.ORG"]),
        ("HTTPS://EXAMPLE.ORG", &["HTTPS://EXAMPLE.ORG"]),
        ("mail mailto:a@b.example now", &["mailto:a@b.example"]),
        ("MAILTO:a@b.example", &["MAILTO:a@b.example"]),
        ("write to a@b.example", &[]),
        ("example.com", &[]),
        ("see example.com/path", &[]),
        ("abc.www.example.org", &[]),
        ("xhttps://example.org", &[]),
        // What is never a link.
        ("https://", &[]),
        ("mailto:", &[]),
        ("javascript:alert(1)", &[]),
        ("javascript://www.example.org/%0Aalert(1)", &[]),
        ("file:///etc/passwd", &[]),
        ("ftp://example.org/file", &[]),
        ("data:text/html,<b>hi</b>", &[]),
        ("no links here", &[]),
        ("", &[]),
        // Punctuation and brackets around a link.
        ("(see https://example.org/a_(b))", &["https://example.org/a_(b)"]),
        ("https://example.org.", &["https://example.org"]),
        ("https://example.org/path.", &["https://example.org/path"]),
        ("https://example.org,", &["https://example.org"]),
        ("https://example.org!", &["https://example.org"]),
        ("https://example.org?", &["https://example.org"]),
        ("\"https://example.org\"", &["https://example.org"]),
        ("'https://example.org'", &["https://example.org"]),
        ("“https://example.org”", &["https://example.org"]),
        ("<https://example.org>", &["https://example.org"]),
        ("https://example.org。", &["https://example.org"]),
        ("https://example.org、다음", &["https://example.org"]),
        ("「https://example.org」", &["https://example.org"]),
        ("「https://example.org/a」에서", &["https://example.org/a"]),
        ("（https://example.org）", &["https://example.org"]),
        ("www.example.org/path.", &["www.example.org/path"]),
        // Korean (and other CJK) text glued to a link.
        ("https://example.org에서", &["https://example.org"]),
        ("https://example.org/docs에 있어요", &["https://example.org/docs"]),
        ("https://ko.wikipedia.org/wiki/서울", &["https://ko.wikipedia.org/wiki/서울"]),
        ("https://example.org/wiki/서울", &["https://example.org/wiki/서울"]),
        (
            "https://ko.wikipedia.org/wiki/서울_지하철_1호선 참고",
            &["https://ko.wikipedia.org/wiki/서울_지하철_1호선"],
        ),
        ("https://example.org/search?q=서울", &["https://example.org/search?q=서울"]),
        ("https://한국.kr", &["https://한국.kr"]),
        ("https://한국.kr에서", &["https://한국.kr"]),
        ("https://한국.kr/서울", &["https://한국.kr/서울"]),
        ("링크는https://example.org", &["https://example.org"]),
        ("링크는https://example.org에서 봐", &["https://example.org"]),
        ("봤어.https://example.org", &["https://example.org"]),
        ("링크는www.example.org에서", &["www.example.org"]),
        ("www.한국.kr에서 봐", &["www.한국.kr"]),
        ("mailto:a@b.example에게", &["mailto:a@b.example"]),
        ("https://example.orgを見て", &["https://example.org"]),
        ("https://example.org的", &["https://example.org"]),
        // Non-ASCII hosts.
        ("https://bücher.de/x", &["https://bücher.de/x"]),
        ("https://例子.测试", &["https://例子.测试"]),
        ("https://пример.рф/путь", &["https://пример.рф/путь"]),
        ("https://de.wikipedia.org/wiki/München", &["https://de.wikipedia.org/wiki/München"]),
        // Spaces, line breaks and invisible characters end a link.
        ("https://example.org\nnext line", &["https://example.org"]),
        ("https://example.org/a\r\nb", &["https://example.org/a"]),
        ("www.example.org\nwww.example.net", &["www.example.org", "www.example.net"]),
        ("https://example.org\u{a0}next", &["https://example.org"]),
        ("https://example.org\u{3000}다음", &["https://example.org"]),
        ("https://example.org/a\u{202e}gpj.exe", &["https://example.org/a"]),
        ("https://example.org\u{200b}x", &["https://example.org"]),
        ("https://example.org👍", &["https://example.org"]),
        // Several links, and links at the very start and end.
        (
            "a https://one.example b www.two.example c mailto:x@three.example d",
            &["https://one.example", "www.two.example", "mailto:x@three.example"],
        ),
        ("https://start.example is first", &["https://start.example"]),
        ("last is https://end.example", &["https://end.example"]),
        ("https://a.example https://b.example", &["https://a.example", "https://b.example"]),
        // Known limitations, kept here so that a change shows up:
        // linkify finds nothing in `host,text` (it could be `user,name@host`).
        ("https://a.example,https://b.example", &["https://b.example"]),
        // Korean text right after a path that has Korean letters itself stays in it.
        ("https://example.org/wiki/서울에서", &["https://example.org/wiki/서울에서"]),
        // Korean text in a path right after ASCII is taken for glued text.
        ("https://namu.wiki/w/LG전자", &["https://namu.wiki/w/LG"]),
        ("https://example.org/1호선", &["https://example.org/1"]),
        // A dot before glued Korean text: linkify alone finds nothing here.
        ("https://example.org.에서", &["https://example.org.에서"]),
        // With text glued in front, linkify checks the host less strictly (see
        // `scheme_link`), and a trailing `-` stays in the link.
        ("링크는https://example.org-", &["https://example.org-"]),
    ];

    #[test]
    fn finds_the_expected_links() {
        let mut failures = Vec::new();
        for &(text, expected) in CASES {
            let found = link_texts(text);
            let verdict = if found == expected { "ok  " } else { "FAIL" };
            println!("{verdict} {text:?} => {found:?}");
            if found != expected {
                failures.push(format!("{text:?}: found {found:?}, expected {expected:?}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn targets() {
        let cases = [
            ("see www.example.org", "https://www.example.org"),
            ("WWW.EXAMPLE.ORG", "https://WWW.EXAMPLE.ORG"),
            ("HTTPS://EXAMPLE.ORG", "HTTPS://EXAMPLE.ORG"),
            ("mailto:a@b.example", "mailto:a@b.example"),
            ("https://한국.kr에서", "https://한국.kr"),
            ("https://例子.测试", "https://例子.测试"),
        ];
        for (text, target) in cases {
            assert_eq!(find(text)[0].target, target, "in {text:?}");
        }
    }

    #[test]
    fn may_open_allows_only_http_https_mailto() {
        for target in [
            "http://a.example",
            "https://a.example",
            "HTTPS://A.EXAMPLE",
            "mailto:a@b.example",
        ] {
            assert!(may_open(target), "{target}");
        }
        for target in [
            "file:///etc/passwd",
            "javascript:alert(1)",
            "ftp://a.example",
            "data:text/html,hi",
            "www.example.org",
            " https://a.example",
            "",
        ] {
            assert!(!may_open(target), "{target}");
        }
    }

    #[test]
    fn many_links() {
        let text: String = (0..500).map(|i| format!("https://e.org/{i} ")).collect();
        let start = std::time::Instant::now();
        let links = find(&text);
        println!("500 links in {} bytes: {:?}", text.len(), start.elapsed());
        assert_eq!(links.len(), 500);
        assert_eq!(&text[links[499].range.clone()], "https://e.org/499");

        // A 4000-character message mixing Korean text, links and punctuation.
        let sentence =
            "링크는https://example.org/서울에서, www.example.net. 메일 mailto:a@b.kr에게! ";
        let text: String = sentence.chars().cycle().take(4000).collect();
        let start = std::time::Instant::now();
        let links = find(&text);
        println!("{} links in 4000 chars: {:?}", links.len(), start.elapsed());

        // A worst case for linkify: dots that each start a domain scan to the end.
        let text = "a.".repeat(2000);
        let start = std::time::Instant::now();
        let links = find(&text);
        println!(
            "{} links in 4000 chars of \"a.a.a…\": {:?}",
            links.len(),
            start.elapsed()
        );
    }

    /// Checks what must hold for every message, whatever is in it.
    fn check_links(text: &str) {
        let links = find(text);
        let mut previous_end = 0;
        for link in &links {
            let Range { start, end } = link.range;
            assert!(
                previous_end <= start && start < end && end <= text.len(),
                "{text:?}"
            );
            assert!(
                text.is_char_boundary(start) && text.is_char_boundary(end),
                "{text:?}"
            );
            let link_text = &text[start..end];
            assert!(!link_text.contains(char::is_whitespace), "{text:?}");
            assert!(
                link.target.ends_with(link_text) && may_open(&link.target),
                "{text:?}"
            );
            previous_end = end;
        }
    }

    #[test]
    fn odd_input_does_not_panic() {
        #[rustfmt::skip]
        const PIECES: &[&str] = &[
            "https://", "http://", "www.", "mailto:", "a@b", ".", "/", ":", "@", "(", ")",
            "example.org", "kr", "1", "x", " ", "\n", "\r", "\t", "\0", "\u{7}", "\u{85}",
            "\u{301}", "e\u{301}", "\u{20dd}", "👍", "👨\u{200d}👩\u{200d}👧", "🇰🇷", "❤\u{fe0f}",
            "مرحبا", "שלום", "\u{202e}", "\u{200f}", "\u{2066}", "한국", "에서", "。", "」",
            "例子", "ü", "\u{a0}", "\u{feff}", "%", "?", "#", "-", "_", "'", "\"",
        ];
        // A small pseudo-random generator (xorshift), so the test needs no crates
        // and every run checks the same inputs.
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let length = next() % 12;
            let text: String = (0..length)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect();
            check_links(&text);
        }
    }
}
