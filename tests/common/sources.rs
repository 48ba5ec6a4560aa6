//! The sources of the crates the app builds on, where cargo unpacked them, at the versions
//! Cargo.lock pins: for tests that hold the docs and the engine workarounds to what those crates
//! really say. Included with `#[path]` by the tests that read them, not by `common`.

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

/// The `src` folder of each locked crate whose name `wanted` accepts, as `(name, folder)`.
pub fn locked_crate_sources(wanted: impl Fn(&str) -> bool) -> Vec<(String, PathBuf)> {
    let lock = fs::read_to_string(Path::new(ROOT).join("Cargo.lock")).unwrap();
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cargo"));
    let registries: Vec<PathBuf> = fs::read_dir(home.join("registry/src"))
        .map(|dirs| dirs.flatten().map(|dir| dir.path()).collect())
        .unwrap_or_default();
    let mut folders = Vec::new();
    let mut name = None;
    for line in lock.lines() {
        if let Some(value) = line.strip_prefix("name = ") {
            name = Some(value.trim_matches('"').to_owned());
        } else if let Some(value) = line.strip_prefix("version = ")
            && let Some(name) = name.take()
            && wanted(&name)
        {
            let folder = format!("{name}-{}", value.trim_matches('"'));
            folders.extend(
                registries
                    .iter()
                    .map(|registry| registry.join(&folder).join("src"))
                    .filter(|path| path.is_dir())
                    .map(|path| (name.clone(), path)),
            );
        }
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

/// The locked version of crate `name`.
pub fn locked_version(name: &str) -> String {
    let lock = fs::read_to_string(Path::new(ROOT).join("Cargo.lock")).unwrap();
    let at = lock
        .find(&format!("name = \"{name}\"\n"))
        .unwrap_or_else(|| panic!("{name} is in Cargo.lock"));
    let version = lock[at..].lines().nth(1).unwrap();
    version
        .strip_prefix("version = ")
        .unwrap()
        .trim_matches('"')
        .to_owned()
}
