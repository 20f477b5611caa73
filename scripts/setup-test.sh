#!/usr/bin/env bash
# Installs what the test suite needs beyond npm packages: real redis-server, poppler (pdftotext),
# qpdf, sqlite3, faketime, gdal-bin, chromium, podman, runc and uidmap from Debian. Idempotent and quick when they are already there.
set -euo pipefail
need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
command -v qpdf >/dev/null 2>&1 || need+=(qpdf)
command -v sqlite3 >/dev/null 2>&1 || need+=(sqlite3)
# faketime: a replica whose clock runs in another month (test/replicas).
command -v faketime >/dev/null 2>&1 || need+=(faketime)
# ogrinfo: GeoJSON exports are read back the way QGIS users open them (test/exports).
command -v ogrinfo >/dev/null 2>&1 || need+=(gdal-bin)
# chromium: the web page is tested in a real headless browser driven by puppeteer-core (test/web).
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# podman + runc: the container image is built from deploy/Dockerfile's final stage and run offline
# (test/container). runc, because crun cannot start containers on hosts with cgroups in hybrid mode.
command -v podman >/dev/null 2>&1 || need+=(podman)
command -v runc >/dev/null 2>&1 || need+=(runc)
# newuidmap/newgidmap: an unprivileged user runs the container steps with rootless podman (test/container).
command -v newuidmap >/dev/null 2>&1 || need+=(uidmap)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup-test: installing ${need[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# The bundled sample index (gitignored, rebuilt from data/ when missing or stale).
if [ -f scripts/sample.ts ]; then bun run scripts/sample.ts ensure; fi
# The web page's bundle (gitignored dist/web, rebuilt when its sources change): test/web serves it.
if [ -f scripts/build-web.ts ]; then bun run scripts/build-web.ts ensure; fi
