#!/usr/bin/env bash
# Installs the system packages voicemsg needs, only when something is missing.
# Usage: scripts/setup.sh "APT PACKAGES" "BREW PACKAGES"
set -euo pipefail
apt_packages=($1)
brew_packages=($2)

if [ "$(uname)" = Darwin ]; then
    command -v brew >/dev/null || { echo "setup: Homebrew is needed on macOS (https://brew.sh)" >&2; exit 1; }
    missing=()
    for p in "${brew_packages[@]}"; do brew list --formula "$p" >/dev/null 2>&1 || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] || brew install "${missing[@]}"
    exit 0
fi

missing=()
for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
