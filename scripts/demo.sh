#!/usr/bin/env bash
# The README's run command: installs what is missing, builds, shows the
# plugins and devices Porta found (porta-smi), then trains the tutorial's
# SimpleCNN on Fashion-MNIST on the best available device. Arguments go to
# the demo (e.g. --full, --device mock:1).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/bin/porta-smi
exec build/bin/porta-demo "$@"
