//! Every Rust name that README.md and docs/ quote is still a name in the code: a doc that names a
//! system, a type or a test makes a promise, checked here the way a book's links are.
//!
//! A quoted name is an inline code span that reads as a Rust path and looks like code (it has a
//! `::`, an underscore or a capital: `view::mount_rows`, `RoleStyle::of`, `TextMetrics`, a test's
//! name). It holds when its last part is defined in this crate (`fn`, `struct`, `enum`, `const`,
//! `static`, `type`, `trait`, `mod`, an enum variant or a field), or, for `Type::member`, when the type is defined here and
//! the member appears in its code; otherwise it must be a name of Cargo.toml (a crate, a feature)
//! or of the sources of the engine crates the app builds on (Bevy, its text stack, the widget).

use std::{
    collections::HashSet,
    fs,
    path::{Path, PathBuf},
};

#[path = "common/sources.rs"]
mod sources;

use sources::ROOT;

/// Quoted names that are not Rust's: an X keysym, a D-Bus property, an AT-SPI method, a C function
/// seen in a profile.
const NOT_RUST: &[&str] = &[
    "Hangul_Hanja",
    "ScreenReaderEnabled",
    "grabFocus",
    "malloc_consolidate",
];

/// The crates whose own names docs may quote: Bevy's, the text layout's and the widget's.
fn is_engine_crate(name: &str) -> bool {
    name.starts_with("bevy")
        || name.starts_with("icu_")
        || [
            "parley",
            "fontique",
            "accesskit",
            "winit",
            "wgpu",
            "wgpu-types",
        ]
        .contains(&name)
}

#[test]
fn every_rust_name_the_docs_quote_exists() {
    let root = Path::new(ROOT);
    let ours = rust_files(&[root.join("src"), root.join("tests"), root.join("benches")]);
    let defined = definitions(&ours);
    let mentioned = identifiers(&ours);
    let manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let engine: Vec<String> = rust_files(&engine_sources())
        .iter()
        .map(|file| fs::read_to_string(file).unwrap_or_default())
        .collect();
    assert!(
        !engine.is_empty(),
        "the engine crates' sources are where cargo put them (build the app first)"
    );

    let mut docs = vec![root.join("README.md")];
    docs.extend(markdown_files(&root.join("docs")));
    let mut missing = Vec::new();
    let mut checked = 0;
    for doc in &docs {
        let text = fs::read_to_string(doc).unwrap();
        for name in quoted_names(&text) {
            checked += 1;
            let parts: Vec<&str> = name.split("::").collect();
            let last = parts[parts.len() - 1];
            let ours = defined.contains(last)
                || (parts.len() > 1
                    && defined.contains(parts[parts.len() - 2])
                    && mentioned.contains(last));
            let elsewhere = contains_word(&manifest, last)
                || engine.iter().any(|source| contains_word(source, last));
            if !ours && !elsewhere && !NOT_RUST.contains(&name.as_str()) {
                missing.push(format!(
                    "{}: `{name}`",
                    doc.strip_prefix(root).unwrap().display()
                ));
            }
        }
    }
    assert!(checked > 200, "the docs quote names ({checked} found)");
    assert!(
        missing.is_empty(),
        "names the docs quote that the code no longer has:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_file_the_docs_and_comments_quote_exists() {
    let root = Path::new(ROOT);
    let mut texts = vec![root.join("README.md")];
    texts.extend(markdown_files(&root.join("docs")));
    texts.extend(rust_files(&[
        root.join("src"),
        root.join("tests"),
        root.join("benches"),
    ]));
    let mut missing = Vec::new();
    let mut checked = 0;
    for file in &texts {
        let text = fs::read_to_string(file).unwrap();
        let is_rust = file.extension().is_some_and(|e| e == "rs");
        for line in text.lines() {
            // In Rust, only what comments say: code quotes paths for other reasons.
            if is_rust && !line.trim_start().starts_with("//") {
                continue;
            }
            for path in quoted_paths(line) {
                checked += 1;
                if !root.join(path).exists() {
                    missing.push(format!(
                        "{}: `{path}`",
                        file.strip_prefix(root).unwrap().display()
                    ));
                }
            }
            if is_rust {
                continue;
            }
            // A Markdown link to a file of the repository, relative to the linking file.
            for target in link_targets(line) {
                checked += 1;
                if !file.parent().unwrap().join(target).exists() {
                    missing.push(format!(
                        "{}: ({target})",
                        file.strip_prefix(root).unwrap().display()
                    ));
                }
            }
        }
    }
    assert!(checked > 50, "the docs quote files ({checked} found)");
    assert!(
        missing.is_empty(),
        "files the docs and comments quote that the repository no longer has:\n{}",
        missing.join("\n")
    );
}

/// The inline code spans of `line` that name a file or folder of this repository by its path
/// from the root: `src/view/focus.rs`, `tests/common/mod.rs`, `benches/`.
fn quoted_paths(line: &str) -> Vec<&str> {
    const TOP: &[&str] = &["src/", "tests/", "benches/", "docs/", "assets/", ".ci/"];
    code_spans(line)
        // A command's file argument counts too: `bash benches/idle-cpu.sh`.
        .flat_map(str::split_whitespace)
        .filter(|word| TOP.iter().any(|top| word.starts_with(top)))
        .map(|word| word.trim_end_matches([',', ';', ':', ')']))
        .filter(|path| !path.contains(['*', '<', '{', '$']))
        .collect()
}

/// The inline code spans of `line`: the pieces between backticks.
fn code_spans(line: &str) -> impl Iterator<Item = &str> {
    line.split('`').skip(1).step_by(2)
}

/// The targets of the Markdown links in `line` that point into the repository: not to the web,
/// not to an anchor of the same page; an anchor after a path is left out.
fn link_targets(line: &str) -> impl Iterator<Item = &str> {
    line.split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')'))
        .map(|(target, _)| target.split('#').next().unwrap_or_default())
        .filter(|target| !target.is_empty() && !target.contains("://") && !target.contains(' '))
}

/// The inline code spans of `markdown` (outside fenced blocks) that read as Rust names.
fn quoted_names(markdown: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for span in code_spans(line) {
            let is_path = !span.is_empty()
                && span.split("::").all(|part| {
                    part.chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                        && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                });
            let looks_like_code = span.contains("::")
                || span.contains('_')
                || span.chars().any(|c| c.is_ascii_uppercase());
            if is_path && looks_like_code {
                names.push(span.to_owned());
            }
        }
    }
    names
}

/// The names this crate defines as items.
fn definitions(files: &[PathBuf]) -> HashSet<String> {
    let mut defined = HashSet::new();
    for file in files {
        let source = fs::read_to_string(file).unwrap();
        // Enum variants and struct fields: a line that starts with the name.
        for line in source.lines() {
            let line = line.trim_start().trim_start_matches("pub ");
            let name: String = line
                .chars()
                .take_while(|&c| c.is_ascii_alphanumeric() || c == '_')
                .collect();
            let rest = line[name.len()..].trim_start();
            if !name.is_empty() && [":", ",", "(", "{"].iter().any(|p| rest.starts_with(p)) {
                defined.insert(name);
            }
        }
        let words = words(&source);
        for pair in words.windows(2) {
            if [
                "fn", "struct", "enum", "const", "static", "type", "trait", "mod",
            ]
            .contains(&pair[0])
            {
                defined.insert(pair[1].to_owned());
            }
        }
    }
    defined
}

/// Every identifier in the files.
fn identifiers(files: &[PathBuf]) -> HashSet<String> {
    files
        .iter()
        .flat_map(|file| {
            let source = fs::read_to_string(file).unwrap();
            words(&source)
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

fn words(source: &str) -> Vec<&str> {
    source
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| !word.is_empty())
        .collect()
}

/// Whether `word` stands in `text` as a whole identifier.
fn contains_word(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        !text[..at].ends_with(is_ident) && !text[at + word.len()..].starts_with(is_ident)
    })
}

/// The source folders of the engine crates in Cargo.lock, as cargo unpacked them.
fn engine_sources() -> Vec<PathBuf> {
    sources::locked_crate_sources(is_engine_crate)
        .into_iter()
        .map(|(_, folder)| folder)
        .collect()
}

fn rust_files(dirs: &[PathBuf]) -> Vec<PathBuf> {
    files_with(dirs, "rs")
}

fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    files_with(&[dir.to_owned()], "md")
}

fn files_with(dirs: &[PathBuf], extension: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack: Vec<PathBuf> = dirs.to_vec();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == extension) {
                found.push(path);
            }
        }
    }
    found
}
