# Sourced by the scripts: where the project's Python environment lives.
# scripts/install-deps.sh creates it; every Python the build and the tests
# run is this one (CMake is given it as Python3_EXECUTABLE).
PORTA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PORTA_VENV=${PORTA_VENV:-$PORTA_ROOT/build/venv}
PORTA_WHEELHOUSE=${PORTA_WHEELHOUSE:-$PORTA_ROOT/build/wheelhouse}
PORTA_PYTHON_REQUIREMENTS=$PORTA_ROOT/scripts/python-requirements.txt
PORTA_VENV_PYTHON=$PORTA_VENV/bin/python

# Every compiler the builds run goes through ccache when it is installed
# (scripts/install-deps.sh installs it): CMake takes these variables as the
# launchers of a build directory configured for the first time (the Release,
# sanitizer and fuzz builds, the wheels' builds). Paths under the checkout
# are hashed relative to it (CCACHE_BASEDIR, and CCACHE_NOHASHDIR for the
# builds with debug info), so a fresh clone elsewhere, as CI makes, finds
# what an earlier build of the same sources compiled. It changes how fast a
# build is, never what it makes: ccache compiles again whatever differs.
# PORTA_CCACHE=0 turns it off.
if [ "${PORTA_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null 2>&1; then
  export CMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER:-ccache}
  export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
  export CMAKE_CUDA_COMPILER_LAUNCHER=${CMAKE_CUDA_COMPILER_LAUNCHER:-ccache}
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PORTA_ROOT}
  export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
fi
