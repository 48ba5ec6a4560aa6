"""Groups a heaptrack profile's heap at its peak by owner, for `benches/weight/heap.sh`.

    heaptrack_print -f PROFILE.zst --flamegraph-cost-type peak -F STACKS
    python3 heap_owners.py STACKS [STACKS ...]

Each STACKS file has one line a call stack: frames from `main` to the allocation, joined by `;`,
then the bytes that stack held when the heap was at its peak. A frame is named by its symbol, or,
where it was inlined, by its function and file name (`new<> (chat.rs)`): a file name that only the
app's sources have (`src/`, beside every dependency's, from `cargo metadata`) marks the app's code
too. The app's `main` and `window_app` do not: every stack passes through them. A stack's bytes
go to the first owner that matches, in this order: text (a text crate anywhere on the stack: the glyph atlases
are allocated from the renderer's calls but on the text's behalf), accessibility, the app (one of
its functions anywhere), then the owner of the crate nearest the allocation, passing over crates
that any owner uses (collections, regex, std). Prints one column per file, in MiB.
"""

import json
import os
import re
import subprocess
import sys

# (owner, crates), in the order a stack is tried against them.
ANYWHERE = [
    ("text: layout, fonts and glyph atlases",
     {"bevy_text", "parley", "fontique", "swash", "skrifa", "read_fonts", "harfrust", "zeno"}),
    ("accessibility bridge", {"accesskit", "accesskit_unix", "accesskit_atspi_common", "zbus",
                              "bevy_a11y"}),
    ("the app's own systems and data", {"agent_chat"}),
]
NEAREST = [
    ("renderer: wgpu, naga, gpu_allocator, bevy_render and the Vulkan driver they call",
     {"wgpu", "wgpu_core", "wgpu_hal", "wgpu_types", "naga", "gpu_allocator", "gpu_descriptor",
      "ash", "bevy_render", "bevy_core_pipeline", "bevy_ui_render", "bevy_sprite_render",
      "bevy_shader", "naga_oil", "bevy_mesh", "bevy_image", "bevy_camera", "offset_allocator"}),
    ("ECS storage and schedules", {"bevy_ecs", "bevy_app", "bevy_reflect", "bevy_tasks"}),
    ("windowing", {"winit", "x11rb", "x11rb_protocol", "xkbcommon_dl", "bevy_winit",
                   "bevy_window", "bevy_input", "arboard"}),
    ("assets", {"bevy_asset"}),
    ("UI", {"bevy_ui", "taffy", "bevy_simple_text_input"}),
]
OTHER = "other: the loader, libc, threads, logging"

# heaptrack names a frame by its demangled legacy symbol (`wgpu_core::device::...`, with `..` for
# `::` inside `_$LT$...$GT$`), or by its raw v0 symbol (`_RNv...Cs<hash>_4core...`), or, for an
# inlined frame, by its bare function name. A legacy path's root is a crate.
LEGACY_ROOT = re.compile(r"(?:^|[^A-Za-z0-9_:.])([a-z_][a-z0-9_]*)(?:::|\.\.)")
# In a v0 symbol: `C`, an optional `s<hash>_`, then `<len><name>`.
V0_CRATE = re.compile(r"C(?:s[0-9A-Za-z]*_)?(\d+)")


def crates(frame):
    """The crate names a frame's symbol mentions, its own first."""
    if frame.startswith("_R"):
        names = []
        for match in V0_CRATE.finditer(frame):
            length, start = int(match.group(1)), match.end()
            name = frame[start:start + length]
            if len(name) == length and re.fullmatch(r"[a-z_][a-z0-9_]*", name):
                names.append(name)
        return names
    return LEGACY_ROOT.findall(frame)


def app_file_names():
    """The `.rs` file names in the app's sources that no dependency's sources have."""
    repository = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    metadata = json.loads(subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked"],
        cwd=repository, capture_output=True, check=True, text=True).stdout)
    root = os.path.dirname(metadata["workspace_root"] + "/")

    def names(directory):
        return {f for _, _, files in os.walk(directory) for f in files if f.endswith(".rs")}

    theirs = set()
    for package in metadata["packages"]:
        directory = os.path.dirname(package["manifest_path"])
        if directory != root:
            theirs |= names(directory)
    return names(os.path.join(root, "src")) - theirs - {"main.rs"}


APP_FILES = app_file_names()
INLINED = re.compile(r"\(([^()]+\.rs)\)$")


# The app's entry points: every stack passes through them, so they mark nothing.
ENTRY = re.compile(r"^(?:agent_chat::(?:main|window_app)::h|(?:main|window_app) \(main\.rs\))")


def owner(stack):
    named = [frame for frame in stack.split(";") if not ENTRY.match(frame)]
    frames = [crates(frame) for frame in named]
    everywhere = {name for names in frames for name in names}
    if any((m := INLINED.search(frame)) and m.group(1) in APP_FILES for frame in named):
        everywhere.add("agent_chat")
    for label, members in ANYWHERE:
        if everywhere & members:
            return label
    for names in reversed(frames):  # from the allocation outwards
        for label, members in NEAREST:
            if names and names[0] in members:
                return label
    return OTHER


def owners(path):
    totals = {}
    with open(path) as stacks:
        for line in stacks:
            stack, _, cost = line.rstrip("\n").rpartition(" ")
            if cost.isdigit():
                label = owner(stack)
                totals[label] = totals.get(label, 0) + int(cost)
    return totals


def main():
    tables = [owners(path) for path in sys.argv[1:]]
    labels = [label for label, _ in ANYWHERE + NEAREST] + [OTHER]
    mib = 1024 * 1024
    print("| owner | " + " | ".join(sys.argv[1:]) + " |")
    print("|---" * (len(tables) + 1) + "|")
    for label in labels:
        print(f"| {label} | " + " | ".join(f"{t.get(label, 0) / mib:.1f}" for t in tables) + " |")
    print("| total at the heap's peak | "
          + " | ".join(f"{sum(t.values()) / mib:.1f}" for t in tables) + " |")


if __name__ == "__main__":
    main()
