"""Takes the X clipboard and never answers a request for its contents: the owner a paste must
not wait on. Used by tests/window.rs; prints `owning` once it owns the clipboard, then sleeps
until it is killed."""

import time

from Xlib import X, display

screen = display.Display()
window = screen.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent)
window.set_selection_owner(screen.intern_atom("CLIPBOARD"), X.CurrentTime)
screen.sync()
print("owning", flush=True)
while True:
    # Never reads its events: a SelectionRequest goes unanswered.
    time.sleep(60)
