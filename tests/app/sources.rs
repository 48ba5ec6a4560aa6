//! The sources of the crates the app builds on, where cargo unpacked them, at the versions
//! Cargo.lock pins: for tests that hold the docs and the engine workarounds to what those crates
//! really say. A module of its own, beside `common`, for the tests that read them.

#![allow(
    dead_code,
    reason = "each test file uses its own subset of these helpers"
)]

use std::{
    fs,
    path::{Path, PathBuf},
};

/// The repository's root.
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every crate Cargo.lock pins, as `(name, version)`, in its order.
pub fn locked_crates() -> Vec<(String, String)> {
    let lock = fs::read_to_string(Path::new(ROOT).join("Cargo.lock")).unwrap();
    let mut crates = Vec::new();
    let mut name = None;
    for line in lock.lines() {
        if let Some(value) = line.strip_prefix("name = ") {
            name = Some(value.trim_matches('"').to_owned());
        } else if let Some(value) = line.strip_prefix("version = ")
            && let Some(name) = name.take()
        {
            crates.push((name, value.trim_matches('"').to_owned()));
        }
    }
    crates
}

/// The `src` folder of each locked crate whose name `wanted` accepts, as `(name, folder)`.
pub fn locked_crate_sources(wanted: impl Fn(&str) -> bool) -> Vec<(String, PathBuf)> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cargo"));
    let registries: Vec<PathBuf> = fs::read_dir(home.join("registry/src"))
        .map(|dirs| dirs.flatten().map(|dir| dir.path()).collect())
        .unwrap_or_default();
    let mut folders = Vec::new();
    for (name, version) in locked_crates() {
        if !wanted(&name) {
            continue;
        }
        let folder = format!("{name}-{version}");
        folders.extend(
            registries
                .iter()
                .map(|registry| registry.join(&folder).join("src"))
                .filter(|path| path.is_dir())
                .map(|path| (name.clone(), path)),
        );
    }
    folders
}

/// The text of `file` (from the crate's `src`) in the locked version of crate `name`.
pub fn crate_source(name: &str, file: &str) -> String {
    let folders = locked_crate_sources(|locked| locked == name);
    let (_, folder) = folders
        .first()
        .unwrap_or_else(|| panic!("{name} is locked and unpacked (build the app first)"));
    fs::read_to_string(folder.join(file))
        .unwrap_or_else(|error| panic!("{name}'s src/{file}: {error}"))
}

/// The locked version of crate `name` (the first, if Cargo.lock pins several).
pub fn locked_version(name: &str) -> String {
    locked_crates()
        .into_iter()
        .find_map(|(locked, version)| (locked == name).then_some(version))
        .unwrap_or_else(|| panic!("{name} is in Cargo.lock"))
}

/// The files under `dirs` whose names end in `.extension`, at any depth.
pub fn files_with(dirs: &[PathBuf], extension: &str) -> Vec<PathBuf> {
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
