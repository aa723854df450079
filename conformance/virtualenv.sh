# Sourced by the conformance scripts: one throwaway virtualenv with a pinned requirements file installed.
#
#   . "$here/../virtualenv.sh"; make_virtualenv "$work/venv" "$here/requirements.txt"
make_virtualenv() {
    local venv="$1" requirements="$2"
    # A virtualenv needs the venv module (Debian and Ubuntu ship it separately as python3-venv).
    if ! python3 -m venv "$venv" >/dev/null 2>&1; then
        if command -v apt-get >/dev/null; then
            local version packages
            version="$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
            packages="python3-venv python${version}-venv"
            (apt-get update -qq && apt-get install -y -qq $packages) >/dev/null 2>&1 \
                || sudo apt-get install -y -qq $packages >/dev/null 2>&1 \
                || (apt-get install -y -qq python3-venv) >/dev/null 2>&1 || true
        fi
        rm -rf "$venv"
        python3 -m venv "$venv" || { echo "python3 -m venv is unavailable and python3-venv could not be installed" >&2; exit 1; }
    fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
}
