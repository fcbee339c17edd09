#!/usr/bin/env bash
# Fixture of the installed-tool tests: installs the build into <prefix>, then
# builds the guide's starting point, <prefix>/share/porta/minimal_plugin.c, as
# docs/plugin-authoring.md says, against the installed headers and version
# script only, into <plugin dir>.
# Usage: install_for_tool_tests.sh <build dir> <prefix> <plugin dir> <C compiler>
set -euo pipefail
build=$1 prefix=$2 plugin_dir=$3 cc=$4
rm -rf "$prefix" "$plugin_dir"
cmake --install "$build" --prefix "$prefix" >/dev/null
mkdir -p "$plugin_dir"
chmod 755 "$plugin_dir"  # the core refuses plugins in directories others can write
"$cc" -std=c11 -Wall -Wextra -pedantic -Werror -shared -fPIC -fvisibility=hidden -DPORTA_BUILDING_PLUGIN \
  -I"$prefix/include" "$prefix/share/porta/minimal_plugin.c" \
  -Wl,--version-script="$prefix/share/porta/plugin.map" -Wl,--no-undefined \
  -o "$plugin_dir/libporta_plugin_minimal.so"
