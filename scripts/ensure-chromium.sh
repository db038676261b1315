#!/usr/bin/env bash
# The add-in page tests drive Debian's Chromium (no browser download: this network reaches only
# the npm registry and Debian). Install it when missing and we may.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" = 0 ]; then
  apt-get update -qq
  # Only what is missing: never an upgrade of packages already installed (--no-upgrade), nor recommends.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-upgrade --no-install-recommends chromium
else
  echo "The page tests need Debian's chromium at /usr/bin/chromium: sudo apt-get install -y chromium" >&2
  exit 1
fi
