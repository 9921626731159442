#!/usr/bin/env bash
# Installs the system packages voicemsg needs, only when something is missing.
# Usage: scripts/setup.sh "APT PACKAGES" "BREW PACKAGES" ["APT NON-FREE PACKAGES"]
# The non-free ones (aac-enc, the FDK AAC encoder the tests make HE-AAC with) come from Debian's
# non-free component, which setup enables for them in a sources file of its own.
set -euo pipefail
apt_packages=($1)
brew_packages=($2)
nonfree_packages=(${3:-})

if [ "$(uname)" = Darwin ]; then
    command -v brew >/dev/null || { echo "setup: Homebrew is needed on macOS (https://brew.sh)" >&2; exit 1; }
    missing=()
    for p in "${brew_packages[@]}"; do brew list --formula "$p" >/dev/null 2>&1 || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] || brew install "${missing[@]}"
    exit 0
fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in "${apt_packages[@]}"; do installed "$p" || missing+=("$p"); done
nonfree_missing=()
for p in "${nonfree_packages[@]}"; do installed "$p" || nonfree_missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && [ ${#nonfree_missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]} ${nonfree_missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
if [ ${#nonfree_missing[@]} -gt 0 ] && [ -f /etc/debian_version ] && ! grep -rqs "non-free" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    if [ -n "$codename" ]; then
        printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: non-free\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
            "$codename" | $sudo tee /etc/apt/sources.list.d/voicemsg-non-free.sources >/dev/null
    fi
fi
missing+=("${nonfree_missing[@]}")
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
