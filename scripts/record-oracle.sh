#!/usr/bin/env bash
# Records PyTorch 2.15's answers to every case of the differential suite (tests/oracle/samples)
# into tests/oracle/answers.json.gz, the file CI replays Porta against without torch. Run it after
# changing the cases (the replay names this command when the answers are stale), then commit the
# file. torch comes from build/venv-bench (scripts/bench-venv.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
py=$(scripts/bench-venv.sh)
# PYTHONHASHSEED: messages that print a set (PyTorch's conv errors) the same each time
PYTHONHASHSEED=0 "$py" tests/oracle/oracle.py record
