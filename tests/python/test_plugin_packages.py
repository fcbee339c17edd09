"""Plugin discovery from Python packages: installed locations only (issue 49, item 11). A porta_plugins/
folder planted in the working directory, a script's folder or a PYTHONPATH entry is never searched."""
import os
import sys

from porta import _plugin_packages


def _plant(where):
    folder = os.path.join(where, "porta_plugins", "planted")
    os.makedirs(folder)
    return folder


def test_a_folder_planted_on_sys_path_outside_site_packages_is_not_searched(tmp_path, monkeypatch):
    cwd, script_dir, pythonpath = (tmp_path / n for n in ("cwd", "script", "pythonpath"))
    planted = [_plant(str(d)) for d in (cwd, script_dir, pythonpath)]
    monkeypatch.chdir(cwd)
    monkeypatch.setattr(sys, "path", ["", str(script_dir), str(pythonpath)] + sys.path)
    found = _plugin_packages.folders()
    assert not any(p in found for p in planted), found


def test_a_folder_in_site_packages_is_searched_unless_anyone_may_write_it(tmp_path, monkeypatch):
    site_dir = tmp_path / "site-packages"
    folder = _plant(str(site_dir))
    real = os.path.realpath(str(site_dir))
    monkeypatch.setattr(_plugin_packages, "installed_locations", lambda: {real})
    monkeypatch.setattr(sys, "path", [str(site_dir)] + sys.path)
    assert os.path.realpath(folder) in [os.path.realpath(f) for f in _plugin_packages.folders()]
    os.chmod(os.path.dirname(folder), 0o777)  # porta_plugins/ writable by anybody
    assert _plugin_packages.folders() == []
