"""Plugins shipped by other Python packages (e.g. the porta-cuda wheel).

A wheel installs its libporta_plugin_<type>.so files into
site-packages/porta_plugins/<its name>/. At import, every such folder in an
installed location (site-packages: purelib, platlib, the user site) joins the
core's plugin search (after PORTA_PLUGIN_PATH, before the plugins beside
libporta.so); nothing is loaded until a device of that type is used. Other
sys.path entries are never searched: not '' (the working directory under
`python -m` or `-c`), not a script's folder, not PYTHONPATH, and not a folder
anybody may write, so a planted porta_plugins/ folder is not loaded."""
import os
import site
import stat
import sys
import sysconfig

from ._runtime import add_plugin_path

FOLDER = "porta_plugins"


def installed_locations():
    """Where this interpreter installs packages, resolved: purelib, platlib, site-packages, the user site."""
    places = [sysconfig.get_paths().get(key) for key in ("purelib", "platlib")]
    places += getattr(site, "getsitepackages", lambda: [])()
    if site.ENABLE_USER_SITE:
        places.append(site.getusersitepackages())
    return {os.path.realpath(p) for p in places if p}


def _anyone_may_write(path):
    return bool(os.stat(path).st_mode & stat.S_IWOTH)


def folders():
    """The porta_plugins/<name> folders of the installed locations on sys.path, in sys.path order."""
    installed, seen, out = installed_locations(), set(), []
    for entry in sys.path:
        real = os.path.realpath(entry) if entry else None
        if real is None or real not in installed or real in seen:
            continue
        seen.add(real)
        root = os.path.join(real, FOLDER)
        if not os.path.isdir(root) or _anyone_may_write(root):
            continue
        out.extend(os.path.join(root, name) for name in sorted(os.listdir(root))
                   if os.path.isdir(os.path.join(root, name)) and not _anyone_may_write(os.path.join(root, name)))
    return out


def add_to_search():
    for folder in folders():
        add_plugin_path(folder)
