# Sourced by the scripts: where the project's Python environment lives.
# scripts/install-deps.sh creates it; every Python the build and the tests
# run is this one (CMake is given it as Python3_EXECUTABLE).
PORTA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PORTA_VENV=${PORTA_VENV:-$PORTA_ROOT/build/venv}
PORTA_WHEELHOUSE=${PORTA_WHEELHOUSE:-$PORTA_ROOT/build/wheelhouse}
PORTA_PYTHON_REQUIREMENTS=$PORTA_ROOT/scripts/python-requirements.txt
PORTA_VENV_PYTHON=$PORTA_VENV/bin/python
