//! Every Rust name and file that the text around the code quotes is still in the code: the
//! README, docs/, the comments of Cargo.toml and the comments of every Rust file. A text that
//! names a system, a type, a test or a file makes a promise, checked here the way a book's links
//! are.
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

use crate::sources;

use sources::{ROOT, files_with};

/// Quoted names that are not Rust's: an X keysym, D-Bus properties, a desktop portal's method
/// and signal, an AT-SPI method, Orca's handler and setting, a C function seen in a profile.
const NOT_RUST: &[&str] = &[
    "Hangul_Hanja",
    "IsEnabled",
    "ScreenReaderEnabled",
    "ReadOne",
    "SettingChanged",
    // AT-SPI's registry: what readers listen for (src/a11y/registry.rs).
    "RegisterEvent",
    "GetRegisteredEvents",
    "EventListenerRegistered",
    "EventListenerDeregistered",
    "enableEchoByCharacter",
    "onDescriptionChanged",
    "grabFocus",
    // AT-SPI's Text interface: the line a reader asks for (docs/editing.md).
    "GetStringAtOffset",
    // The desktop portal's method that opens a link (src/links/open.rs).
    "OpenURI",
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
    let ours = rust_files(&[
        root.join("src"),
        root.join("tests"),
        root.join("benches"),
        root.join("examples"),
    ]);
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

    let mut docs = vec![root.join("README.md"), root.join("Cargo.toml")];
    docs.extend(markdown_files(&root.join("docs")));
    docs.extend(ours.iter().cloned());
    let mut missing = Vec::new();
    let mut checked = 0;
    for doc in &docs {
        let text = prose(doc);
        for name in quoted_names(&text) {
            checked += 1;
            let parts: Vec<&str> = name.split("::").collect();
            let last = parts[parts.len() - 1];
            let ours = defined.contains(last)
                || (parts.len() > 1
                    && defined.contains(parts[parts.len() - 2])
                    && mentioned.contains(last));
            // An environment variable the code reads (`AGENT_CHAT_THEME`), named in a string.
            let variable = last.chars().all(|c| c.is_ascii_uppercase() || c == '_')
                && mentioned.contains(last);
            let elsewhere = variable
                || contains_word(&manifest, last)
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
    let mut texts = vec![root.join("README.md"), root.join("Cargo.toml")];
    texts.extend(markdown_files(&root.join("docs")));
    texts.extend(rust_files(&[
        root.join("src"),
        root.join("tests"),
        root.join("benches"),
        root.join("examples"),
    ]));
    let repository = repository_files(root);
    let mut missing = Vec::new();
    let mut checked = 0;
    for file in &texts {
        let text = prose(file);
        let is_markdown = file.extension().is_some_and(|e| e == "md");
        let is_manifest = file.ends_with("Cargo.toml");
        for line in text.lines() {
            // The manifest's comments name files without backticks.
            let paths = if is_manifest {
                bare_paths(line)
            } else {
                quoted_paths(line)
            };
            for path in paths {
                checked += 1;
                if !names_a_file(root, &repository, path) {
                    missing.push(format!(
                        "{}: `{path}`",
                        file.strip_prefix(root).unwrap().display()
                    ));
                }
            }
            if !is_markdown {
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

/// The folders at the repository's root that docs and comments name files under.
const TOP: &[&str] = &["src/", "tests/", "benches/", "docs/", "assets/", ".ci/"];

/// The text of `file` that talks about the code: all of a Markdown file, the comments of the
/// manifest and of a Rust file (Rust code quotes paths and names for other reasons).
fn prose(file: &Path) -> String {
    let text = fs::read_to_string(file).unwrap();
    let comment = match file.extension().and_then(|e| e.to_str()) {
        Some("rs") => "//",
        Some("toml") => "#",
        _ => return text,
    };
    text.lines()
        .filter_map(|line| line.trim_start().strip_prefix(comment))
        // Doc comments: `///` and `//!`.
        .map(|line| line.trim_start_matches(['/', '!']))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The inline code spans of `line` that name a file or folder of this repository: by its path
/// from the root (`src/view/focus.rs`, `tests/app/common/mod.rs`, `benches/`), or a Rust file by
/// any tail of its path (`view/focus.rs`, `main.rs`).
fn quoted_paths(line: &str) -> Vec<&str> {
    code_spans(line)
        // A command's file argument counts too: `bash benches/idle-cpu.sh`.
        .flat_map(str::split_whitespace)
        .filter_map(as_path)
        .collect()
}

/// The words of `line` that read as a path of the repository, as [`quoted_paths`] takes them.
fn bare_paths(line: &str) -> Vec<&str> {
    line.split_whitespace()
        .map(|word| word.trim_start_matches(['(', '`']))
        .filter_map(as_path)
        .collect()
}

/// `word` as a path of the repository, if it reads as one.
fn as_path(word: &str) -> Option<&str> {
    let path = word.trim_end_matches([',', ';', ':', ')', '.', '`']);
    let is_path =
        TOP.iter().any(|top| path.starts_with(top)) || (path.ends_with(".rs") && path.len() > 3);
    (is_path && !path.contains(['*', '<', '{', '$', ':'])).then_some(path)
}

/// Whether `path` names a file or folder of the repository: from the root, or, for a Rust
/// file, as the tail of one's path.
fn names_a_file(root: &Path, repository: &[String], path: &str) -> bool {
    root.join(path).exists()
        || (!TOP.iter().any(|top| path.starts_with(top))
            && repository
                .iter()
                .any(|file| file.ends_with(&format!("/{path}"))))
}

/// Every file of the repository's source folders, by its path from the root.
fn repository_files(root: &Path) -> Vec<String> {
    let folders: Vec<PathBuf> = TOP.iter().map(|top| root.join(top)).collect();
    let mut files = files_with(&folders, "rs");
    files.extend(files_with(&folders, "sh"));
    files
        .iter()
        .map(|file| file.strip_prefix(root).unwrap().display().to_string())
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
