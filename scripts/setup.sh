#!/usr/bin/env bash
# Set-up for a fresh Debian machine: the system packages Equimark uses (Debian's Chromium for the
# browser-mode end-to-end tests, python3-sympy for the SymPy worker; PyPI and Electron's binary
# download are not needed), then the npm packages (better-sqlite3 builds from source if no
# prebuilt binary fits). Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
/usr/bin/python3 -c 'import sympy' 2>/dev/null || need_apt+=(python3-sympy)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing ${need_apt[*]} from Debian"
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# Electron's binary is only needed to launch the desktop shell; the CLI, the tests and the
# browser mode don't use it (and it can't be downloaded on an offline build machine).
export ELECTRON_SKIP_BINARY_DOWNLOAD=${ELECTRON_SKIP_BINARY_DOWNLOAD:-1}
# Not `npm ci`: the lock lists only the linux rollup binaries (the registry mirror here serves no
# others), and npm ci refuses a lock without every platform's optional package. `npm install`
# installs the same locked versions.
npm install --no-audit --no-fund
