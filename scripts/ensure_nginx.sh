#!/usr/bin/env bash
# The scale-out test routes two server processes through deploy/nginx.conf.template with a real
# nginx (tests/test_scale_out.py); install Debian's nginx-light when missing. The test starts its
# own nginx with its own config, so the package's service is not needed (and not started here).
set -euo pipefail
if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then
  exit 0
fi
install() {
  # RUNLEVEL=1: the package's postinst must not start a system-wide nginx on port 80
  $1 env RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
}
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "installing Debian's nginx-light for the scale-out test..."
  apt-get update -qq
  install ""
elif command -v sudo >/dev/null && command -v apt-get >/dev/null; then
  sudo apt-get update -qq
  install sudo
else
  echo "the scale-out test through the proxy needs nginx: install Debian's nginx-light" >&2
  exit 1
fi
