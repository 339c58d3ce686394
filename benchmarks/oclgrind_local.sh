#!/usr/bin/env bash
# Oclgrind for `simu bench --suite oclgrind` without root: Debian's packages unpacked into a folder (apt-get
# download, no install), and an `oclgrind-kernel` wrapper that finds their libraries.  Needs apt's package lists
# (the Debian/Ubuntu mirrors) once; nothing is installed system-wide.
# Usage: benchmarks/oclgrind_local.sh [folder]    then: PATH=folder/bin:$PATH simu bench --suite oclgrind
set -euo pipefail
dest="$(mkdir -p "${1:-.oclgrind}" && cd "${1:-.oclgrind}" && pwd)"
lists="$dest/lists"
mkdir -p "$lists/partial" "$dest/debs" "$dest/root" "$dest/bin"
opts=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 "-oDir::State::Lists=$lists")
apt-get "${opts[@]}" update > /dev/null
# the tool, its library and what that library loads (LLVM and clang 14 on Debian 12)
deps=$(apt-cache "${opts[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
  --no-replaces --no-enhances oclgrind | grep -E '^[a-z0-9]' | grep -vE '^(libc6|libgcc-s1|libstdc\+\+6|gcc-.*-base)$' \
  | sort -u)
(cd "$dest/debs" && apt-get "${opts[@]}" download $deps > /dev/null 2>&1 || true)
for f in "$dest"/debs/*.deb; do dpkg -x "$f" "$dest/root"; done
libs="$dest/root/usr/lib/x86_64-linux-gnu"
cat > "$dest/bin/oclgrind-kernel" <<W
#!/bin/sh
LD_LIBRARY_PATH="$libs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$dest/root/usr/bin/oclgrind-kernel" "\$@"
W
chmod +x "$dest/bin/oclgrind-kernel"
"$dest/bin/oclgrind-kernel" --version | grep -m1 Oclgrind
echo "PATH=$dest/bin:\$PATH simu bench --suite oclgrind"
