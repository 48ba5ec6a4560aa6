"""A screen reader's view of agent-chat, through AT-SPI (pyatspi, the library Orca uses).

Run by tests/window.rs with Debian's /usr/bin/python3 (python3-pyatspi), on the test's own
D-Bus session and accessibility bus:

    screen_reader.py tree            the app's accessible tree, a node a line, indented by depth:
                                     role, name, description, attributes, the states a reader
                                     tells (enabled, focused), then for nodes with text its
                                     text and caret offset, separated by tabs
    screen_reader.py where ROLE NAME the first node with that role and name: its extents on
                                     the screen, "x y width height" (what a reader's mouse
                                     review and magnifiers use)
    screen_reader.py listen SECONDS  "listening", then each object:announcement as
                                     "announcement<TAB>text", for SECONDS; and each object
                                     that gains focus as "focus<TAB>role<TAB>name<TAB>attributes"
    screen_reader.py lines ROLE NAME the text of that node's line at each offset, as Orca asks
                                     for it ("offset<TAB>start<TAB>end<TAB>text"), and its
                                     character count first
    screen_reader.py grab PREFIX     asks for focus on the first list item whose name starts
                                     with PREFIX (AT-SPI's grabFocus, what Orca does when the
                                     user moves to an item), and prints "grabbed" once asked
    screen_reader.py activate ROLE NAME
                                     does the first action of the first node with that role
                                     and name (what Orca's activate does on a link), and prints
                                     its action's name once done
"""

import sys

import pyatspi
from gi.repository import GLib


def app_named(name):
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and app.name == name:
            return app
    return None


# The states the tests read, as AT-SPI names them.
TOLD = {pyatspi.STATE_ENABLED: "enabled", pyatspi.STATE_FOCUSED: "focused"}


def print_tree(node, depth=0):
    states = node.getState()
    told = sorted(name for state, name in TOLD.items() if states.contains(state))
    fields = [
        node.getRoleName(),
        node.name,
        node.description,
        ";".join(node.getAttributes()),
        ";".join(told),
    ]
    try:
        text = node.queryText()
        fields += [text.getText(0, -1), str(text.caretOffset)]
    except NotImplementedError:
        pass
    print("  " * depth + "\t".join(fields))
    for child in node:
        if child is not None:
            print_tree(child, depth + 1)


def listen(seconds):
    def heard(event):
        print("announcement\t" + str(event.any_data), flush=True)

    def focused(event):
        if event.detail1 != 1:
            return
        node = event.source
        fields = [node.getRoleName(), node.name, ";".join(sorted(node.getAttributes()))]
        print("focus\t" + "\t".join(fields), flush=True)

    pyatspi.Registry.registerEventListener(heard, "object:announcement")
    pyatspi.Registry.registerEventListener(focused, "object:state-changed:focused")
    print("listening", flush=True)
    GLib.timeout_add(int(seconds * 1000), pyatspi.Registry.stop)
    pyatspi.Registry.start()


def find(node, role, prefix):
    if node.getRoleName() == role and node.name.startswith(prefix):
        return node
    for child in node:
        found = child is not None and find(child, role, prefix)
        if found:
            return found
    return None


def the_node(role, prefix):
    """The app's first node with that role and a name starting with PREFIX; or exits saying so."""
    app = app_named("agent-chat")
    node = app is not None and find(app, role, prefix)
    if not node:
        sys.exit("no " + role + " named " + prefix)
    return node


if __name__ == "__main__":
    if sys.argv[1] == "tree":
        app = app_named("agent-chat")
        if app is not None:
            print_tree(app)
    elif sys.argv[1] == "where":
        node = the_node(sys.argv[2], sys.argv[3])
        box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        print(box.x, box.y, box.width, box.height, flush=True)
    elif sys.argv[1] == "lines":
        node = the_node(sys.argv[2], sys.argv[3])
        text = node.queryText()
        print("count", text.characterCount, sep="\t", flush=True)
        for offset in range(text.characterCount + 1):
            try:
                line, start, end = text.getStringAtOffset(offset, pyatspi.TEXT_GRANULARITY_LINE)
            except Exception as error:
                print(offset, "error", error, sep="\t", flush=True)
                continue
            print(offset, start, end, repr(line), sep="\t", flush=True)
    elif sys.argv[1] == "grab":
        item = the_node("list item", sys.argv[2])
        item.queryComponent().grabFocus()
        print("grabbed", flush=True)
    elif sys.argv[1] == "activate":
        node = the_node(sys.argv[2], sys.argv[3])
        action = node.queryAction()
        if action.nActions == 0 or not action.doAction(0):
            sys.exit("no action done on " + sys.argv[3])
        print(action.getName(0), flush=True)
    else:
        listen(float(sys.argv[2]))
