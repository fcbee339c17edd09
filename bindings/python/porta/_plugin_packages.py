"""Plugins shipped by other Python packages (e.g. the porta-cuda wheel).

A wheel installs its libporta_plugin_<type>.so files into
site-packages/porta_plugins/<its name>/. At import, every such folder on
sys.path joins the core's plugin search (after PORTA_PLUGIN_PATH, before the
plugins beside libporta.so); nothing is loaded until a device of that type
is used. Finding them costs a directory check per sys.path entry."""
import os
import sys

from ._runtime import add_plugin_path

FOLDER = "porta_plugins"


def folders():
    """The porta_plugins/<name> folders on sys.path, in sys.path order."""
    out = []
    for entry in sys.path:
        root = os.path.join(os.path.abspath(entry or "."), FOLDER)
        if entry and os.path.isdir(root):
            out.extend(os.path.join(root, name) for name in sorted(os.listdir(root))
                       if os.path.isdir(os.path.join(root, name)))
    return out


def add_to_search():
    for folder in folders():
        add_plugin_path(folder)
