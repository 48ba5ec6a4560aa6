"""Starts one window app under an X server and measures what `benches/weight.sh` reports for it:
when its window is mapped, when its first frame is drawn, and its memory by mapping and the CPU
time it has used after the lines typed into it. Prints one `key=value` line per figure.

    python3 measure.py DISPLAY TITLE LINES -- PROGRAM [ARGS...]

LINES is a comma-separated list of line counts at which memory is read (`10,100`); `0` reads it
once the first frame is drawn, without typing. At the end the program is killed, or, with
`MEASURE_QUIT_KEY=Escape`, sent that key and waited for, so that a profiler it runs under
(`benches/weight/heap.sh`) writes its record out. Needs python3-xlib and xdotool.
"""

import os
import shutil
import subprocess
import sys
import time

from Xlib import X, display as xdisplay


def find_window(screen_root, title):
    """The mapped top-level window whose name is TITLE, or None."""
    for child in screen_root.query_tree().children:
        try:
            if child.get_wm_name() == title and child.get_attributes().map_state == X.IsViewable:
                return child
        except Exception:  # a window that went away while we looked
            continue
    return None


def drawn(window):
    """Whether the window shows more than one colour: its first frame is on screen. Before it,
    the window is one colour; both apps' frames put their field at the bottom."""
    geometry = window.get_geometry()
    width, height = geometry.width, geometry.height
    colours = set()
    for y in (height // 2, height - 40, height - 20, height - 10, height - 4):
        image = window.get_image(0, max(0, y), width, 1, X.ZPixmap, 0xFFFFFFFF)
        pixels = image.data
        colours.update(pixels[i:i + 4] for i in range(0, len(pixels), 4))
        if len(colours) > 1:
            return True
    return False


def memory(pid, program):
    """Resident memory by kind of mapping, in kB, from /proc/PID/smaps."""
    kinds = {"binary": 0, "llvm": 0, "heap": 0, "anon": 0, "gpu_driver": 0, "libs": 0, "other": 0}
    exe = os.path.realpath(f"/proc/{pid}/exe")
    current = "other"
    with open(f"/proc/{pid}/smaps") as smaps:
        for line in smaps:
            first = line.split()[0]
            if "-" in first and not first.endswith(":"):
                parts = line.split(maxsplit=5)
                path = parts[5].strip() if len(parts) > 5 else ""
                if path == exe:
                    current = "binary"
                elif "libLLVM" in path:
                    current = "llvm"
                elif path == "[heap]":
                    current = "heap"
                elif path == "":
                    current = "anon"
                elif "lvp" in path or "vulkan_lvp" in path or "mesa" in path or "dri" in path:
                    current = "gpu_driver"
                elif path.startswith("/"):
                    current = "libs"
                else:
                    current = "other"
            elif first == "Rss:":
                kinds[current] += int(line.split()[1])
    rollup = {}
    with open(f"/proc/{pid}/smaps_rollup") as lines:
        for line in lines:
            key, _, rest = line.partition(":")
            if rest.strip().endswith("kB"):
                rollup[key] = int(rest.split()[0])
    kinds["rss"] = rollup.get("Rss", 0)
    kinds["pss_anon"] = rollup.get("Pss_Anon", 0)
    return kinds


def cpu_seconds(pid):
    """The CPU time the program has used so far, user and system, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    disp, title, lines = sys.argv[1], sys.argv[2], sys.argv[3]
    program = sys.argv[sys.argv.index("--") + 1:]
    env = dict(os.environ, DISPLAY=disp)
    connection = xdisplay.Display(disp)
    root = connection.screen().root
    start = time.monotonic()
    app = subprocess.Popen(program, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    window = None
    try:
        while window is None:
            if app.poll() is not None:
                sys.exit(f"{program[0]} exited before mapping a window")
            if time.monotonic() - start > 120:
                sys.exit(f"{program[0]} mapped no window titled {title!r} in 120 s")
            window = find_window(root, title)
            if window is None:
                time.sleep(0.002)
        mapped = time.monotonic() - start
        while not drawn(window):
            if time.monotonic() - start > 300:
                sys.exit(f"{program[0]} drew nothing in 300 s")
            time.sleep(0.002)
        first_frame = time.monotonic() - start
        print(f"mapped_s={mapped:.3f}")
        print(f"first_frame_s={first_frame:.3f}")
        xdotool = ["xdotool"]
        subprocess.run(xdotool + ["windowfocus", "--sync", str(window.id)], env=env, check=True)
        time.sleep(0.5)
        typed = 0
        for target in (int(n) for n in lines.split(",")):
            while typed < target:
                typed += 1
                subprocess.run(xdotool + ["type", "--delay", "8", f"line {typed}"], env=env, check=True)
                subprocess.run(xdotool + ["key", "Return"], env=env, check=True)
                time.sleep(0.03)
            # Let the last frames settle before reading memory.
            time.sleep(1.5)
            for kind, kb in memory(app.pid, program[0]).items():
                print(f"{kind}_kb_at_{target}={kb}")
            print(f"cpu_s_at_{target}={cpu_seconds(app.pid):.2f}")
        print(f"binary_bytes={os.path.getsize(shutil.which(program[0]))}")
        quit_key = os.environ.get("MEASURE_QUIT_KEY")
        if quit_key:
            subprocess.run(xdotool + ["key", quit_key], env=env, check=True)
            app.wait(timeout=120)
    finally:
        app.kill()
        app.wait()


if __name__ == "__main__":
    main()
