"""A screenshot of KWin's output at its own pixels, through KWin's ScreenShot2 D-Bus interface.

Run by tests/window/wayland.rs with Debian's /usr/bin/python3 (python3-dbus), on the session
bus KWin is on (KWin started with KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1):

    kwin_screenshot.py BUS_ADDRESS OUT   writes the active screen's pixels to OUT as raw BGRA
                                         (QImage's ARGB32, little-endian) and prints
                                         "WIDTH HEIGHT SCALE"
"""

import os
import sys

import dbus

bus = dbus.bus.BusConnection(sys.argv[1])
screenshot = dbus.Interface(
    bus.get_object("org.kde.KWin", "/org/kde/KWin/ScreenShot2"), "org.kde.KWin.ScreenShot2"
)
read, write = os.pipe()
# Native resolution: the output's physical pixels, not scaled to its logical size.
shot = screenshot.CaptureActiveScreen({"native-resolution": True}, dbus.types.UnixFd(write))
os.close(write)
with os.fdopen(read, "rb") as pipe, open(sys.argv[2], "wb") as out:
    out.write(pipe.read())
if int(shot["format"]) not in (4, 5, 6) or int(shot["stride"]) != 4 * int(shot["width"]):
    sys.exit(f"unexpected image layout: {dict(shot)}")
print(int(shot["width"]), int(shot["height"]), float(shot["scale"]))
