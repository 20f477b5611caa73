#!/usr/bin/env bash
# The container image's whole root filesystem, in a directory: the compiled binary, the glibc files
# it links (the paths `ldd` names, copied to the same paths), a nonroot user (uid 65532, as in
# distroless) and the directories the service writes to. deploy/Dockerfile's final stage is
# `FROM scratch` + this directory, so the image needs no base image; test/container builds it offline.
#   bash scripts/container-rootfs.sh dist/facility-score /rootfs
set -euo pipefail
# Owners need root: a rootless user has it inside podman's user namespace (65532 maps to a subuid there).
if [ "$(id -u)" -ne 0 ]; then exec podman unshare bash "$0" "$@"; fi
if [ $# -ne 2 ]; then
  echo "usage: container-rootfs.sh <binary> <empty output dir>" >&2
  exit 2
fi
bin=$1
out=$2
[ -x "$bin" ] || { echo "container-rootfs: $bin is not an executable file" >&2; exit 1; }
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then
  echo "container-rootfs: $out is not empty" >&2
  exit 1
fi

mkdir -p "$out/usr/local/bin" "$out/etc" "$out/tmp" "$out/var/lib/facility-score" "$out/proc" "$out/dev" "$out/sys"
install -m 0755 "$bin" "$out/usr/local/bin/facility-score"

# Libraries after "=>" and the loader on a line of its own; linux-vdso has no file. Dereferenced
# (-L: libc.so.6 is a real file, whatever links lead to it), at the path the binary asks for.
libs=$(ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
[ -n "$libs" ] || { echo "container-rootfs: ldd names no library for $bin (not a dynamic glibc executable?)" >&2; exit 1; }
for lib in $libs; do
  cp -L --parents "$lib" "$out"
done

printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/var/lib/facility-score:/sbin/nologin\n' > "$out/etc/passwd"
printf 'root:x:0:\nnonroot:x:65532:\n' > "$out/etc/group"
chmod 1777 "$out/tmp"
# The state volume's mount point: a fresh named volume copies its owner from here.
chown 65532:65532 "$out/var/lib/facility-score"
echo "container-rootfs: $out: $(echo "$libs" | wc -w) libraries, $(du -sm "$out" | cut -f1) MB"
