#!/usr/bin/env bash
# Build Meta's dipcc (the C++ Diplomacy engine of SearchBot and Cicero) as the Python module
# the benchmarks compare against: benchmarks/peers/dipcc.py looks for it in
# ${DIPSOLVE_DIPCC:-~/.cache/dipsolve/peers/dipcc}.
#
#     bash benchmarks/peers/build_dipcc.sh                 # with the python on PATH
#     bash benchmarks/peers/build_dipcc.sh .venv/bin/python
#
# Nothing of dipcc is in this repository and nothing here is needed to use dipsolve: this
# script fetches the public source (github.com/facebookresearch/diplomacy_cicero, its
# dipcc/ folder, MIT licence, Copyright (c) Meta Platforms, Inc. and affiliates) at a
# pinned commit into a build folder outside the repository, with pybind11 from PyPI, and
# compiles the engine's game (not its torch-dependent encoders) with our own small
# binding, benchmarks/peers/dipcc_bind.cc.  It needs git, a C++17 compiler, the
# headers of the Python that will load the module, and glog (Debian:
# apt-get install g++ libgoogle-glog-dev).  About 5 to 15 minutes on two cores.
#
# Environment:
#   DIPSOLVE_DIPCC   where the module goes (default ~/.cache/dipsolve/peers/dipcc)
#   DIPCC_BUILD      the build folder (default ~/.cache/dipsolve/peers/dipcc-build)
#   DIPCC_REPO       the repository to clone (default the GitHub one; a local clone or
#                    mirror of it will do)
#   DIPCC_COMMIT     the commit (default the one the benchmarks were measured with)
#   JOBS             parallel compilations (default: the number of cores)
set -euo pipefail

PY=${1:-python3}
REPO=${DIPCC_REPO:-https://github.com/facebookresearch/diplomacy_cicero}
COMMIT=${DIPCC_COMMIT:-e85afeddb34f5b7c1ea0827203b425a0f7e68ead}
OUT=${DIPSOLVE_DIPCC:-$HOME/.cache/dipsolve/peers/dipcc}
BUILD=${DIPCC_BUILD:-$HOME/.cache/dipsolve/peers/dipcc-build}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

fail() { echo "build_dipcc: $*" >&2; exit 2; }
command -v git >/dev/null || fail "git not found"
command -v g++ >/dev/null || fail "g++ not found (Debian: apt-get install g++)"
"$PY" -c "import sys" 2>/dev/null || fail "no Python at '$PY'"
PYINC=$("$PY" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
EXT=$("$PY" -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
[ -f "$PYINC/Python.h" ] || fail "no Python.h in $PYINC (Debian: apt-get install python3-dev)"
echo '#include <glog/logging.h>' | g++ -x c++ -fsyntax-only - 2>/dev/null \
    || fail "glog headers not found (Debian: apt-get install libgoogle-glog-dev)"

mkdir -p "$BUILD" "$OUT"
if [ ! -d "$BUILD/src/.git" ]; then
    echo "build_dipcc: cloning $REPO into $BUILD/src"
    rm -rf "$BUILD/src"
    git clone --quiet --no-checkout "$REPO" "$BUILD/src"
fi
git -C "$BUILD/src" checkout --quiet "$COMMIT" -- dipcc LICENSE.md
if [ ! -f "$BUILD/pybind11/pybind11/include/pybind11/pybind11.h" ]; then
    echo "build_dipcc: pybind11 from PyPI into $BUILD/pybind11"
    "$PY" -m pip install --quiet --target "$BUILD/pybind11" 'pybind11==3.1.0'
fi

CC="$BUILD/src/dipcc/dipcc"
mkdir -p "$BUILD/bind" "$BUILD/obj"
# the binding includes the engine's headers by a path relative to its own folder
sed "s#DIPCC_SOURCE#$CC#g" "$HERE/dipcc_bind.cc" > "$BUILD/bind/bind.cc"
SOURCES=$(ls "$CC"/cc/*.cc | grep -v 'data_fields\|orders_encoder\|thread_pool\|encoding\|cfrstats')
SOURCES="$SOURCES $CC/pybind/py_dict.cc $CC/pybind/get_orderable_locations.cc $CC/pybind/get_phase_data.cc"
SOURCES="$SOURCES $CC/pybind/get_phase_history.cc $CC/pybind/logs.cc $CC/pybind/messaging.cc $BUILD/bind/bind.cc"
FLAGS="-O3 -DNDEBUG -std=c++17 -fPIC -w -I$PYINC -I$BUILD/pybind11/pybind11/include"
echo "build_dipcc: compiling $(echo $SOURCES | wc -w) files, $JOBS at a time"
printf '%s\n' $SOURCES | xargs -P "$JOBS" -I{} sh -c \
    'o="$1/obj/$(basename "$2" .cc).o"; if [ ! -f "$o" ]; then g++ $3 -c "$2" -o "$o.tmp" && mv "$o.tmp" "$o"; fi' \
    _ "$BUILD" {} "$FLAGS" || true
OBJS=$(for f in $SOURCES; do echo "$BUILD/obj/$(basename "$f" .cc).o"; done)
for o in $OBJS; do [ -f "$o" ] || fail "compiling failed: $o is missing (see the compiler's messages above)"; done
g++ -shared $OBJS -lglog -lpthread -o "$BUILD/pydipcc$EXT"
# checked before it is put where the benchmarks look (never a half-built module there)
GLOG_minloglevel=2 PYTHONPATH="$BUILD" "$PY" -c "import pydipcc; g = pydipcc.Game(); g.process(); print('build_dipcc: module works:', g.current_short_phase)"
mv -f "$BUILD/pydipcc$EXT" "$OUT/pydipcc$EXT"
echo "build_dipcc: built $OUT/pydipcc$EXT"
