//! What a learner who reads the crate's tour relies on, checked as code: its numbers, its first
//! test and its lesson in scheduling hold; no name of ours hides one of Bevy's prelude, the
//! core's functions read in a screen, no two modules or layers import each other, and the app's
//! systems that touch the same data run in a fixed order.

use std::{
    any::TypeId,
    collections::{BTreeMap, BTreeSet, HashSet},
    fs,
    path::{Path, PathBuf},
};

use crate::common;
use crate::sources;

use agent_chat::{AgentChatPlugin, workarounds};
use bevy::{ecs::schedule::ApplyDeferred, prelude::*, window::WindowResolution};
use sources::{ROOT, files_with};

/// The names `use bevy::prelude::*` brings in, as the app builds Bevy, read from the sources of
/// the locked crates: every `pub use` of a `prelude` module, globs opened one level down.
fn bevy_prelude() -> BTreeSet<String> {
    let crates: BTreeMap<String, PathBuf> =
        sources::locked_crate_sources(|name| name == "bevy" || name.starts_with("bevy_"))
            .into_iter()
            .collect();
    let mut names = BTreeSet::new();
    for (name, src) in &crates {
        for prelude in prelude_blocks(src) {
            for path in use_paths(&prelude) {
                let last = path.last().map(String::as_str).unwrap_or_default();
                if last != "*" {
                    names.insert(last.to_owned());
                    continue;
                }
                // Another crate's prelude: read as that crate's own, above or below.
                if path
                    .iter()
                    .rev()
                    .nth(1)
                    .is_some_and(|module| module == "prelude")
                {
                    continue;
                }
                // A glob: the public items at the top of the module it opens.
                let Some(module) = module_file(&crates, name, src, &path[..path.len() - 1]) else {
                    continue;
                };
                let text = fs::read_to_string(module).unwrap_or_default();
                names.extend(top_level_items(&text));
                for inner in use_paths(&use_statements(&text, true)) {
                    if let Some(last) = inner.last().filter(|last| *last != "*") {
                        names.insert(last.clone());
                    }
                }
            }
        }
    }
    names
}

/// The text of each `prelude` module in a crate: an inline `pub mod prelude { … }` or a file
/// of its own (prelude.rs).
fn prelude_blocks(src: &Path) -> Vec<String> {
    let mut blocks = Vec::new();
    for file in rust_files(src) {
        let text = fs::read_to_string(&file).unwrap_or_default();
        if file.file_name().is_some_and(|name| name == "prelude.rs") {
            blocks.push(use_statements(&text, true));
        }
        let mut rest = text.as_str();
        while let Some(at) = rest.find("pub mod prelude {") {
            let body = &rest[at + "pub mod prelude {".len()..];
            let end = closing_brace(body);
            blocks.push(use_statements(&body[..end], true));
            rest = &body[end..];
        }
    }
    blocks
}

/// Where the `}` closing the block that `text` opens is.
fn closing_brace(text: &str) -> usize {
    let mut depth = 1;
    for (at, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return at;
                }
            }
            _ => {}
        }
    }
    text.len()
}

/// The paths a sequence of use trees (`a::{b, c::*}; d as e;`) names, each as its segments; a
/// rename ends in its old name, `as` and its new name.
fn use_paths(uses: &str) -> Vec<Vec<String>> {
    let cleaned: String = uses
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .filter(|line| !line.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join(" ");
    let mut paths = Vec::new();
    for statement in cleaned.split(';') {
        expand(statement.trim(), &mut Vec::new(), &mut paths);
    }
    paths
}

/// Expands one use tree under `prefix` into `paths`.
fn expand(tree: &str, prefix: &mut Vec<String>, paths: &mut Vec<Vec<String>>) {
    let tree = tree.trim().trim_start_matches("::");
    if tree.is_empty() {
        return;
    }
    if let Some(inner) = tree.strip_prefix('{') {
        let inner = &inner[..closing_brace(inner)];
        for part in split_top_level(inner) {
            expand(part, &mut prefix.clone(), paths);
        }
        return;
    }
    match tree.split_once("::") {
        Some((head, rest)) if !head.contains(['{', ' ']) => {
            prefix.push(head.trim().to_owned());
            expand(rest, prefix, paths);
        }
        _ => {
            let mut path = prefix.clone();
            match tree.split_once(" as ") {
                // A rename keeps both names: `[…, name, "as", alias]`.
                Some((name, alias)) => {
                    path.extend([name.trim(), "as", alias.trim()].map(str::to_owned))
                }
                None => path.push(tree.to_owned()),
            }
            paths.push(path);
        }
    }
}

/// The comma-separated parts of a brace list, not splitting inside nested braces.
fn split_top_level(list: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (at, c) in list.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&list[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&list[start..]);
    parts
}

/// The file of the module a glob opens: `crate::a::b` in crate `name`, or a module of another
/// Bevy crate (`bevy_ecs::x`, or `crate::ecs::x` in `bevy_internal`, which names its crates so).
fn module_file(
    crates: &BTreeMap<String, PathBuf>,
    name: &str,
    src: &Path,
    path: &[String],
) -> Option<PathBuf> {
    let (root, inner) = match path.first()?.as_str() {
        "crate" | "self" | "super" => {
            let inner = &path[1..];
            match inner.first() {
                Some(first)
                    if name == "bevy_internal" && crates.contains_key(&format!("bevy_{first}")) =>
                {
                    (crates[&format!("bevy_{first}")].clone(), &inner[1..])
                }
                _ => (src.to_owned(), inner),
            }
        }
        other => (crates.get(other)?.clone(), &path[1..]),
    };
    if inner.is_empty() || inner == ["prelude"] {
        return Some(root.join("lib.rs"));
    }
    let relative: PathBuf = inner.iter().collect();
    [
        root.join(&relative).with_extension("rs"),
        root.join(&relative).join("mod.rs"),
    ]
    .into_iter()
    .find(|file| file.is_file())
}

/// The public items defined at the top of a module's text (not inside an `impl` or a nested
/// module).
fn top_level_items(text: &str) -> Vec<String> {
    const KINDS: &[&str] = &["struct", "enum", "trait", "type", "fn", "const", "static"];
    text.lines()
        .filter_map(|line| line.strip_prefix("pub "))
        .filter_map(|rest| {
            let mut words = rest.split(|c: char| !(c.is_alphanumeric() || c == '_'));
            let kind = words.next()?;
            let kind = if kind == "const" || kind == "unsafe" {
                // `pub const fn` and `pub unsafe fn` are functions.
                match rest.split_whitespace().nth(1) {
                    Some("fn") => "fn",
                    _ => kind,
                }
            } else {
                kind
            };
            let name = rest
                .split_whitespace()
                .skip_while(|word| *word != kind)
                .nth(1)?;
            let name: String = name
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            (KINDS.contains(&kind) && !name.is_empty()).then_some(name)
        })
        .collect()
}

/// The names this crate's sources and tests give their own items and imports: types, traits,
/// aliases, constants and statics anywhere, functions outside `impl` blocks, and `use … as`.
fn our_names() -> Vec<(String, String)> {
    let root = Path::new(ROOT);
    let mut names = Vec::new();
    for dir in ["src", "tests", "benches"] {
        for file in rust_files(&root.join(dir)) {
            let text = fs::read_to_string(&file).unwrap();
            let shown = file.strip_prefix(root).unwrap().display().to_string();
            // The peer the weight benchmark measures is an egui app of its own, not Bevy's.
            if shown.starts_with("benches/peers/") {
                continue;
            }
            for line in text.lines() {
                let code = line.trim_start();
                if code.starts_with("//") {
                    continue;
                }
                let code = code
                    .trim_start_matches("pub(crate) ")
                    .trim_start_matches("pub(super) ")
                    .trim_start_matches("pub ");
                let top = !line.starts_with(' ') || !code.starts_with("fn ");
                for kind in [
                    "struct ", "enum ", "trait ", "type ", "const ", "static ", "fn ",
                ] {
                    if let Some(rest) = code.strip_prefix(kind)
                        && top
                    {
                        let name: String = rest
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        if !name.is_empty() && name != "_" {
                            names.push((name, shown.clone()));
                        }
                    }
                }
            }
            // An import is the same item as Bevy's when it comes from Bevy or the standard
            // library (which Bevy's prelude passes on); from anywhere else, or renamed, it is
            // another item under that name.
            for path in use_paths(&use_statements(&text, false)) {
                let last = path.last().unwrap();
                let first = path[0].as_str();
                let same_item = first.starts_with("bevy")
                    || [
                        "std",
                        "core",
                        "alloc",
                        "crate",
                        "self",
                        "super",
                        "agent_chat",
                    ]
                    .contains(&first);
                let renamed = path.iter().any(|part| part == "as");
                if path.len() > 1
                    && (renamed || !same_item)
                    && !["*", "self", "_"].contains(&last.as_str())
                {
                    names.push((last.clone(), shown.clone()));
                }
            }
        }
    }
    names
}

/// The `use …;` statements of `text` that start a line, joined: all of them, or only the
/// `pub use` ones (what a module exports).
fn use_statements(text: &str, public_only: bool) -> String {
    let mut found = String::new();
    for (at, _) in text.match_indices("use ") {
        let before = &text[..at];
        let line_start = before.rfind('\n').map_or(0, |n| n + 1);
        let lead = before[line_start..].trim();
        let wanted =
            lead == "pub" || (!public_only && (lead.is_empty() || lead.starts_with("pub(")));
        if !wanted {
            continue;
        }
        let statement = &text[at + "use ".len()..];
        let end = statement.find(';').unwrap_or(statement.len());
        found.push_str(&statement[..end]);
        found.push(';');
    }
    found
}

#[test]
fn no_name_of_ours_hides_a_name_of_bevys_prelude() {
    let prelude = bevy_prelude();
    // The reading must find the names a learner meets first, or it reads nothing.
    for known in [
        "Message",
        "Component",
        "Node",
        "Text",
        "Name",
        "Val",
        "px",
        "Commands",
    ] {
        assert!(
            prelude.contains(known),
            "the prelude as read from Bevy's sources has `{known}` ({} names read)",
            prelude.len()
        );
    }
    let clashes: Vec<String> = our_names()
        .into_iter()
        .filter(|(name, _)| prelude.contains(name))
        .map(|(name, file)| format!("{file}: `{name}`"))
        .collect();
    assert!(
        clashes.is_empty(),
        "names that hide one of `use bevy::prelude::*` where both are in scope:\n{}",
        clashes.join("\n")
    );
}

/// The core's files, where every function reads in a screen: the flow and its exit key
/// (`chat`), its style table, the system that mounts the rows, and the core example.
const CORE: &[&str] = &[
    "src/chat.rs",
    "src/chat/style.rs",
    "src/view.rs",
    "examples/core.rs",
];

/// The most lines a function of the core may take, and the most parameters.
const MOST_LINES: usize = 60;
const MOST_PARAMETERS: usize = 7;

#[test]
fn every_function_of_the_core_reads_in_a_screen() {
    let mut long = Vec::new();
    let mut seen = 0;
    for file in CORE {
        let text = fs::read_to_string(Path::new(ROOT).join(file)).unwrap();
        for (name, lines, parameters) in functions(&text) {
            seen += 1;
            if lines > MOST_LINES || parameters > MOST_PARAMETERS {
                long.push(format!(
                    "{file}: `{name}`, {lines} lines, {parameters} parameters"
                ));
            }
        }
    }
    assert!(seen > 10, "the core's functions were found ({seen})");
    assert!(
        long.is_empty(),
        "functions of the core over {MOST_LINES} lines or {MOST_PARAMETERS} parameters:\n{}",
        long.join("\n")
    );
}

/// The frame map (`src/frame.rs`) is the one place that orders the app's sets: the plugins only
/// put their systems in a set. The engine workarounds order themselves against the engine's
/// internals, and go with them.
#[test]
fn only_the_frame_map_orders_systems() {
    let orderings = [
        "configure_sets(",
        ".before(",
        ".after(",
        ".before_ignore_deferred(",
        ".after_ignore_deferred(",
    ];
    let mut found = Vec::new();
    let mut map_orders = 0;
    for file in files_with(&[Path::new(ROOT).join("src")], "rs") {
        let name = file.strip_prefix(ROOT).unwrap().display().to_string();
        let text = fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            let hits = orderings.iter().filter(|o| code.contains(*o)).count();
            if name == "src/frame.rs" {
                map_orders += hits;
            } else if hits > 0 && !name.starts_with("src/workarounds") {
                found.push(format!("{name}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(
        map_orders > 10,
        "the frame map orders the sets ({map_orders})"
    );
    assert!(
        found.is_empty(),
        "ordering outside the frame map (put the systems in a set, and order the set in \
         src/frame.rs):\n{}",
        found.join("\n")
    );
}

/// Each message type is registered by one plugin, the one that owns it (or, for the engine's
/// messages a headless app lacks, the one that first needs it). The window workarounds are a
/// plugin of their own, which registers what it reads.
#[test]
fn each_message_is_registered_once() {
    let mut registered: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in files_with(&[Path::new(ROOT).join("src")], "rs") {
        let name = file.strip_prefix(ROOT).unwrap().display().to_string();
        if name.starts_with("src/workarounds") {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        for (at, _) in text.match_indices("add_message::<") {
            let rest = &text[at + "add_message::<".len()..];
            let message = rest[..rest.find(">()").unwrap()].to_owned();
            registered.entry(message).or_default().push(name.clone());
        }
    }
    assert!(registered.len() > 10, "messages found: {registered:?}");
    let twice: Vec<String> = registered
        .iter()
        .filter(|(_, files)| files.len() > 1)
        .map(|(message, files)| format!("{message}: {}", files.join(", ")))
        .collect();
    assert!(
        twice.is_empty(),
        "registered more than once:\n{}",
        twice.join("\n")
    );
}

/// The most lines any function in `src/` may take: a long system is one that does several
/// things a reader has to hold apart.
const MOST_LINES_ANYWHERE: usize = 80;

#[test]
fn no_function_in_src_is_over_80_lines() {
    let mut long = Vec::new();
    let mut seen = 0;
    for file in files_with(&[Path::new(ROOT).join("src")], "rs") {
        let text = fs::read_to_string(&file).unwrap();
        for (name, lines, _) in functions(&text) {
            seen += 1;
            if lines > MOST_LINES_ANYWHERE {
                let file = file.strip_prefix(ROOT).unwrap().display().to_string();
                long.push(format!("{file}: `{name}`, {lines} lines"));
            }
        }
    }
    assert!(seen > 300, "the functions of src/ were found ({seen})");
    assert!(
        long.is_empty(),
        "functions over {MOST_LINES_ANYWHERE} lines:\n{}",
        long.join("\n")
    );
}

/// Each function in `text`: its name, its lines from `fn` to the closing brace, and how many
/// parameters it takes.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("fn ") {
        let before = &text[..at];
        if before.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let line_start = before.rfind('\n').map_or(0, |n| n + 1);
        if before[line_start..].trim_start().starts_with("//") {
            continue;
        }
        let rest = &text[at + 3..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let Some(open) = rest.find('(') else { continue };
        let Some(body) = rest.find('{') else { continue };
        if rest[..open].contains([';', '{']) || body < open {
            continue;
        }
        // Top-level commas in the parameter list, a trailing one not counted.
        let (mut depth, mut commas, mut any, mut trailing) = (1, 0, false, false);
        for c in rest[open + 1..].chars() {
            match c {
                '(' | '<' | '[' => depth += 1,
                ')' | '>' | ']' if depth == 1 => break,
                ')' | '>' | ']' => depth -= 1,
                ',' if depth == 1 => {
                    commas += 1;
                    trailing = true;
                    continue;
                }
                _ => {}
            }
            if !c.is_whitespace() {
                any = true;
                trailing = false;
            }
        }
        let parameters = if any {
            commas + usize::from(!trailing)
        } else {
            0
        };
        let end = body + 1 + closing_brace(&rest[body + 1..]);
        let lines = text[at..at + 3 + end].lines().count();
        found.push((name, lines, parameters));
    }
    found
}

/// Who imports from whom among the modules of `src/` (`view::find`, `input`, …), but for a
/// module and the modules inside it: a parent uses its children's items, and they its, as
/// Rust's modules are built.
fn module_imports() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(ROOT).join("src");
    let mut modules: BTreeMap<String, PathBuf> = BTreeMap::new();
    for file in rust_files(&root) {
        let relative = file.strip_prefix(&root).unwrap().with_extension("");
        let module = relative
            .iter()
            .map(|part| part.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("::");
        let module = match module.as_str() {
            "lib" | "main" => String::new(),
            other => other.trim_end_matches("::mod").to_owned(),
        };
        modules.insert(module, file);
    }
    let known: HashSet<&str> = modules.keys().map(String::as_str).collect();
    let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, file) in &modules {
        let text = fs::read_to_string(file).unwrap();
        for path in use_paths(&use_statements(&text, false)) {
            let mut absolute: Vec<String> = match path.first().map(String::as_str) {
                Some("crate") => path[1..].to_vec(),
                Some("super") => {
                    let mut parent: Vec<String> = module.split("::").map(str::to_owned).collect();
                    parent.pop();
                    parent.extend(path[1..].iter().cloned());
                    parent.retain(|part| !part.is_empty());
                    parent
                }
                Some("self") => {
                    let mut here: Vec<String> = module.split("::").map(str::to_owned).collect();
                    here.extend(path[1..].iter().cloned());
                    here.retain(|part| !part.is_empty());
                    here
                }
                _ => continue,
            };
            // The module the path ends in: its longest prefix that is a module.
            let target = loop {
                let candidate = absolute.join("::");
                if known.contains(candidate.as_str()) || absolute.is_empty() {
                    break candidate;
                }
                absolute.pop();
            };
            let related = |a: &str, b: &str| {
                a.is_empty() || b.is_empty() || a.starts_with(&format!("{b}::")) || a == b
            };
            if !related(module, &target) && !related(&target, module) {
                imports.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    imports
}

/// The modules of `imports` that reach themselves through it, however many steps round, each
/// with what it imports.
fn circles(imports: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let reaches = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&str> = vec![from];
        while let Some(module) = todo.pop() {
            for next in imports.get(module).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next);
                }
            }
        }
        seen
    };
    imports
        .keys()
        .filter(|module| reaches(module).contains(*module))
        .map(|module| {
            let into: Vec<&str> = imports[module].iter().map(String::as_str).collect();
            format!("{module} -> {}", into.join(", "))
        })
        .collect()
}

#[test]
fn no_two_modules_import_from_each_other() {
    let imports = module_imports();
    assert!(
        imports.len() > 10,
        "the modules' imports were read ({} modules import others)",
        imports.len()
    );
    let circles = circles(&imports);
    assert!(
        circles.is_empty(),
        "modules that import from each other:\n{}",
        circles.join("\n")
    );
}

/// The same at the level of `src/`'s folders, the app's layers: `input/` (the field, and what
/// each key means) below `view/` (what the user sees) and `keyboard/` (which carries each key
/// to its target) above both; no file of one layer imports a layer that imports it back.
#[test]
fn no_two_layers_import_from_each_other() {
    let layer = |module: &str| module.split("::").next().unwrap_or_default().to_owned();
    let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, targets) in module_imports() {
        for target in targets {
            if layer(&target) != layer(&module) {
                imports
                    .entry(layer(&module))
                    .or_default()
                    .insert(layer(&target));
            }
        }
    }
    assert!(
        imports["view"].contains("input") && imports["keyboard"].contains("view"),
        "the layers' imports were read: {imports:#?}"
    );
    let circles = circles(&imports);
    assert!(
        circles.is_empty(),
        "layers that import from each other:\n{}",
        circles.join("\n")
    );
}

/// The Rust files under `dir`, in a stable order.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = files_with(&[dir.to_owned()], "rs");
    found.sort();
    found
}

/// The types of the systems in all of `app`'s schedules (a function system's type is its
/// function's).
fn system_types(app: &App) -> HashSet<TypeId> {
    app.world()
        .resource::<Schedules>()
        .iter()
        .filter_map(|(_, schedule)| schedule.systems().ok())
        .flatten()
        .map(|(_, system)| system.system_type())
        .collect()
}

#[test]
fn the_apps_systems_that_share_data_run_in_one_order() {
    let resolution = WindowResolution::new(800, 600);
    // The app as `main` builds it: with the window's workarounds too.
    let mut app = common::engine_app(resolution.clone());
    app.add_plugins((AgentChatPlugin, workarounds::plugin));
    let mut engine = common::engine_app(resolution);
    for app in [&mut app, &mut engine] {
        app.finish();
        app.cleanup();
        app.update();
    }
    // The app's systems are those the engine alone does not have (the widget's plugin, which
    // the app adds, among them). Told apart by type: Bevy names systems only with its `debug`
    // feature, which would build Bevy a second time for the tests.
    let bevys = system_types(&engine);
    let mut ours = 0;
    let mut unordered = Vec::new();
    for (label, schedule) in app.world().resource::<Schedules>().iter() {
        let Ok(systems) = schedule.systems() else {
            continue;
        };
        let mine: BTreeMap<_, (usize, String)> = systems
            .enumerate()
            .filter(|(_, (_, system))| !bevys.contains(&system.system_type()))
            .map(|(at, (key, system))| (key, (at, system.name().to_string())))
            .collect();
        ours += mine.len();
        for (a, b, on) in schedule.graph().conflicting_systems().iter() {
            if let (Some(a), Some(b)) = (mine.get(a), mine.get(b)) {
                unordered.push(format!(
                    "{label:?}: the systems run {}th ({}) and {}th ({}), on {} components",
                    a.0,
                    a.1,
                    b.0,
                    b.1,
                    on.len()
                ));
            }
        }
    }
    assert!(
        ours > 40,
        "the app's systems were told from Bevy's ({ours})"
    );
    assert!(
        unordered.is_empty(),
        "systems of the app that touch the same data with no order between them (for their \
         names, run this test with `--features bevy/debug`, which builds Bevy again):\n{}",
        unordered.join("\n")
    );
}

/// The tour's text: the crate docs at the top of `src/lib.rs`, without their `//! ` marks.
fn tour() -> String {
    fs::read_to_string(Path::new(ROOT).join("src/lib.rs"))
        .unwrap()
        .lines()
        .map_while(|line| line.strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The part of the tour under the heading that starts with `heading`, up to the next heading.
fn section<'a>(tour: &'a str, heading: &str) -> &'a str {
    let start = tour
        .find(&format!("\n{heading}"))
        .unwrap_or_else(|| panic!("the tour has a heading {heading:?}"));
    let rest = &tour[start + 1..];
    let end = rest[1..].find("\n#").map_or(rest.len(), |end| end + 1);
    &rest[..end]
}

/// Each file a text names as `` `path` (N lines `` or `` `path` (about N lines ``, with N.
fn files_with_counts(text: &str) -> Vec<(String, usize)> {
    // A sentence may break its line anywhere.
    let text = text.replace('\n', " ");
    let mut found = Vec::new();
    for (at, _) in text.match_indices("` (") {
        let Some(open) = text[..at].rfind('`') else {
            continue;
        };
        let path = &text[open + 1..at];
        let rest = &text[at + 3..];
        let rest = rest.strip_prefix("about ").unwrap_or(rest);
        let number: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .collect();
        if path.ends_with(".rs") && rest[number.len()..].starts_with(" lines") {
            found.push((path.to_owned(), number.replace(',', "").parse().unwrap()));
        }
    }
    found
}

/// The number in "about 4,880 lines" after `phrase` in `text`.
fn lines_after(text: &str, phrase: &str) -> usize {
    // A sentence may break its line anywhere.
    let text = text.replace('\n', " ");
    let at = text
        .find(phrase)
        .unwrap_or_else(|| panic!("the tour says {phrase:?}"));
    let rest = &text[at + phrase.len()..];
    let rest = &rest[rest.find("about ").expect("about how many lines") + "about ".len()..];
    let number: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    assert!(rest[number.len()..].contains(" lines"), "{phrase:?}");
    number.parse().unwrap()
}

fn line_count(path: &str) -> usize {
    fs::read_to_string(Path::new(ROOT).join(path))
        .unwrap_or_else(|_| panic!("the tour names {path}, which exists"))
        .lines()
        .count()
}

/// Whether `said` is within 10% of `counted`.
fn near(said: usize, counted: usize) -> bool {
    said.abs_diff(counted) * 10 <= counted
}

/// The tour's numbers are a reader's to repeat: each file it names with its length is within
/// 10% of that length; the core is the four files it names; the full app's route is the 19
/// files it lists, with the six a row's looks call into and the one that says the reply 26,
/// and with the seven its systems' parameters name 33; each in as many lines as it says.
#[test]
fn the_tours_files_and_lines_are_what_a_reader_counts() {
    let tour = tour();
    let core = files_with_counts(section(&tour, "## First"));
    let touched = files_with_counts(section(&tour, "## The full app's route"));
    assert_eq!(core.len(), 4, "the core's files: {core:?}");
    assert_eq!(
        touched.len(),
        33,
        "the files one Enter touches: {touched:?}"
    );
    let mut off = Vec::new();
    for (path, said) in core.iter().chain(&touched) {
        let counted = line_count(path);
        if !near(*said, counted) {
            off.push(format!("{path}: said {said}, counted {counted}"));
        }
    }
    let total = |files: &[(String, usize)]| -> usize {
        files.iter().map(|(path, _)| line_count(path)).sum()
    };
    for (phrase, files) in [
        ("four files,", &core[..]),
        ("these 19 files of `src/`,", &touched[..19]),
        ("touches 26 files,", &touched[..26]),
        ("33 files,", &touched[..]),
    ] {
        let (said, counted) = (lines_after(&tour, phrase), total(files));
        if !near(said, counted) {
            off.push(format!(
                "{phrase} said about {said} lines, counted {counted}"
            ));
        }
    }
    assert!(
        off.is_empty(),
        "the tour's counts are off:\n{}",
        off.join("\n")
    );
}

/// The tour shows `tests/app/first_test.rs` as it is: each line of the block is a line of the
/// test, in order.
#[test]
fn the_tours_first_test_is_the_test_that_runs() {
    let tour = tour();
    let part = section(&tour, "## First");
    let start = part.find("```text\n").expect("a code block") + "```text\n".len();
    let block = &part[start..start + part[start..].find("```").unwrap()];
    let test = fs::read_to_string(Path::new(ROOT).join("tests/app/first_test.rs")).unwrap();
    let body: Vec<&str> = test.lines().map(str::trim).collect();
    let shown: Vec<&str> = block.lines().map(str::trim).collect();
    assert!(
        body.windows(shown.len()).any(|lines| lines == shown),
        "the tour's first test:\n{block}\nis not, line for line, in tests/app/first_test.rs"
    );
    // The app built in one statement, a line typed and sent in two, one assertion.
    assert!(shown.len() <= 12, "a first test reads in a glance");
}

/// A system's type, which tells it apart in a schedule: Bevy names systems only with its
/// `debug` feature.
fn type_of<M>(system: impl IntoSystem<(), (), M>) -> TypeId {
    IntoSystem::into_system(system).system_type()
}

/// The tour's lesson in scheduling, as Bevy 0.19.1 decides it: a sync point goes on each ordering
/// edge that leaves a system with `Commands`, when the schedule is built, whether or not it ever
/// queues anything. Before anyone types, both apps' `Update` runs an `ApplyDeferred` between
/// `record_submissions` and the system that mounts the rows.
#[test]
fn a_sync_point_stands_between_record_and_spawn_rows_before_anything_is_queued() {
    for (name, app, mounts) in [
        (
            "the full app",
            common::headless_app(),
            type_of(agent_chat::view::mount_rows),
        ),
        (
            "the core example",
            crate::runtime_flow::core_example_app(),
            type_of(crate::core_example::spawn_rows),
        ),
    ] {
        let update = app.world().resource::<Schedules>().get(Update).unwrap();
        let systems: Vec<TypeId> = update
            .systems()
            .expect("the schedule is built after the first frame")
            .map(|(_, system)| system.system_type())
            .collect();
        let place = |system: TypeId| systems.iter().position(|&it| it == system);
        let record = place(type_of(agent_chat::chat::record_submissions));
        let (Some(record), Some(mount)) = (record, place(mounts)) else {
            panic!("{name} runs record_submissions and mounts rows");
        };
        assert!(record < mount, "{name}: records before it mounts");
        let sync = TypeId::of::<ApplyDeferred>();
        assert!(
            systems[record..mount].contains(&sync),
            "{name}: a sync point between record_submissions and the rows"
        );
    }
}
