# Sourced by scripts/run and scripts/test: make .venv (Python 3.11+) and install $1.
set -euo pipefail

PYTHON="${PYTHON:-python3}"
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "error: $PYTHON not found. Install Python 3.11 or newer (apt-get install python3 python3-venv)." >&2
    exit 1
fi
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "error: $("$PYTHON" --version) is too old: Skyjo Online needs Python 3.11 or newer." >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    echo "==> Creating .venv with $("$PYTHON" --version)"
    if ! "$PYTHON" -m venv .venv; then
        rm -rf .venv
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
            apt-get update -qq && apt-get install -y -qq python3-venv
            "$PYTHON" -m venv .venv
        else
            echo "error: could not create a venv: install python3-venv (apt-get install python3-venv)." >&2
            exit 1
        fi
    fi
fi
echo "==> Installing $1"
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$1"
