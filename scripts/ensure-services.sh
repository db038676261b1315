#!/usr/bin/env bash
# The multi-instance tests start a real redis-server and PostgreSQL of their own (free loopback
# ports, temporary folders). Install Debian's packages when missing and we may.
set -euo pipefail
missing=()
command -v redis-server >/dev/null || [ -x /usr/bin/redis-server ] || missing+=(redis-server)
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || missing+=(postgresql)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ]; then
  apt-get update -qq
  # Only what is missing: never an upgrade of packages already installed (--no-upgrade), nor recommends.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-upgrade --no-install-recommends "${missing[@]}"
else
  echo "The multi-instance tests need Debian's ${missing[*]}: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
