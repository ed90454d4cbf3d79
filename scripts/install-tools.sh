#!/usr/bin/env bash
# Installs the system tools the tests use: pdftotext (poppler-utils), which the converter's output is
# compared against; epubcheck (with a Java runtime), which validates its EPUBs; tmux, the terminal
# the CLI's live view is tested in; PostgreSQL, which the server's cluster test runs a throwaway
# instance of (initdb + pg_ctl in a temporary folder; the service itself is not used); chromium, the
# browser the server's web page is tested in (driven by playwright-core, which downloads no browser).
# On Debian or Ubuntu, as root or with sudo.
# Used by CI (.ci/run) and by `pnpm tools` on a developer's machine.
set -euo pipefail

has_postgres() {
  command -v initdb >/dev/null 2>&1 || compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null
}
if command -v pdftotext >/dev/null 2>&1 && command -v java >/dev/null 2>&1 && [ -f /usr/share/java/epubcheck.jar ] &&
  command -v tmux >/dev/null 2>&1 && has_postgres && command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "Install poppler-utils (pdftotext), epubcheck, tmux, postgresql and chromium with your system's package manager; this script knows apt-get only." >&2
  exit 1
fi
if [ "$(id -u)" = "0" ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
  echo "Run as root, or install them yourself: apt-get install -y --no-install-recommends poppler-utils epubcheck tmux postgresql chromium" >&2
  exit 1
fi

# A registry that hiccups once should not fail the run: three tries, a pause between them.
retry() {
  local attempt
  for attempt in 1 2 3; do
    if "$@"; then return 0; fi
    echo "attempt $attempt of 3 failed: $*" >&2
    sleep $((attempt * 5))
  done
  return 1
}

export DEBIAN_FRONTEND=noninteractive
retry $SUDO apt-get update -qq
retry $SUDO apt-get install -y -qq --no-install-recommends poppler-utils epubcheck tmux postgresql chromium >/dev/null
