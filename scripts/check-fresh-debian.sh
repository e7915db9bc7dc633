#!/usr/bin/env bash
# Proves the README on a clean Debian root: makes a minimal root with
# mmdebstrap, copies a clean clone of the committed project and ../shared into
# it side by side, and runs in a chroot what the README tells a new user:
#   ./run-tests.sh, then the app start (./setup-and-run.sh) in smoke mode;
# then builds the .deb, installs it with apt-get (its declared dependencies
# resolved from the archive), moves the source tree away and runs the
# installed couplet (a couplet and a share-card poster) and couplet-studio, and compares the installed couplet's
# speed with the build tree's.
#
# Usage (as root): scripts/check-fresh-debian.sh bookworm|trixie
# Environment: COUPLET_FRESH_DIR (default /var/tmp/couplet-fresh), where the
# root (RELEASE/root) and the log (RELEASE/check-fresh-RELEASE.log) go; the
# root is kept for inspection and replaced by the next run. COUPLET_SHARED_DIR
# (default ../shared, next to the project): copied as shared/ next to project/.
# Downloads a few hundred packages and builds everything without a compiler
# cache: about an hour on two cores. Not part of .ci/run.
set -euo pipefail

if [ "${1:-}" = "--inside" ]; then
  inside=1
  release=${2:?}
else
  inside=0
  release=${1:-}
fi
case "$release" in
  bookworm|trixie) ;;
  *) echo "usage: $0 bookworm|trixie" >&2; exit 2 ;;
esac

# ---- in the chroot: the README's commands, then the installed package ----
step() {   # step NAME COMMAND...: runs it, logs its time, stops the run on failure
  local name=$1 start=$SECONDS
  shift
  echo "==== step $name: $*"
  if "$@"; then
    echo "==== step $name: ok ($((SECONDS - start)) s)"
  else
    echo "==== step $name: FAILED ($((SECONDS - start)) s)"
    echo "$name" >/work/failed-step
    exit 1
  fi
}

couplets_per_s() {   # couplets_per_s COUPLET [args]: couplets/s at batch 32
  local csv
  csv=$(mktemp)
  "$1" bench "${@:2}" --only sweep --batch-sizes 32 --requests 96 --device cpu --csv "$csv" >/dev/null 2>&1
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "couplets_per_s") c = i } NR == 2 { print $c }' "$csv"
  rm -f "$csv"
}

compare_speed() {
  local installed built
  installed=$(couplets_per_s /usr/bin/couplet)
  built=$(couplets_per_s /work/project.away/build/app/cli/couplet --model /usr/share/couplet-studio/models/default)
  echo "batch 32: installed $installed couplets/s, build tree $built couplets/s"
  echo "$installed $built" >/work/speed
  # The reference BLAS is about 18x slower: a ratio under 0.5 is no noise.
  [ -n "$installed" ] && [ -n "$built" ] || return 1
  awk -v a="$installed" -v b="$built" 'BEGIN { exit !(a >= 0.5 * b) }'
}

not_debug() {   # the package's binaries are stripped
  local f
  for f in /usr/bin/couplet /usr/bin/couplet-studio; do
    if readelf -S "$f" | grep -q '\.debug_info'; then echo "$f holds debug info" >&2; return 1; fi
  done
}

installed_poster() {   # the installed CLI draws a share card (render/, offscreen) and a PNG comes out
  rm -f /tmp/poster.png
  couplet generate --keywords 五福 --poster /tmp/poster.png || return 1
  head -c 8 /tmp/poster.png | od -An -c | grep -q 'P   N   G' || { echo "/tmp/poster.png is not a PNG" >&2; return 1; }
  echo "poster: /tmp/poster.png, $(stat -c %s /tmp/poster.png) bytes"
}

run_inside() {
  export QT_QPA_PLATFORM=offscreen
  cd /work/project
  step run-tests ./run-tests.sh
  step app-smoke-test ./setup-and-run.sh --smoke-test
  step package bash -c 'cd build && cpack -G DEB'
  step install-deb apt-get install -y ./build/couplet-studio_*.deb
  # Without the source tree, the installed binaries cannot fall back on it.
  mv /work/project /work/project.away
  cd /tmp
  step stripped not_debug
  step installed-version couplet --version
  step installed-generate couplet generate --keywords 五福
  step installed-poster installed_poster
  step installed-studio-smoke-test couplet-studio --smoke-test
  step installed-speed compare_speed
  mv /work/project.away /work/project
  echo "==== all steps passed"
}

if [ "$inside" = 1 ]; then
  run_inside
  exit 0
fi

# ---- on the host: make the root, copy the project, chroot, give a verdict ----
[ "$(id -u)" -eq 0 ] || { echo "check-fresh-debian: run as root (mmdebstrap, mount, chroot)" >&2; exit 2; }
for tool in mmdebstrap git chroot mountpoint; do
  command -v "$tool" >/dev/null || { echo "check-fresh-debian: $tool is missing (apt-get install mmdebstrap)" >&2; exit 2; }
done
project=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "${COUPLET_SHARED_DIR:-$project/../shared}" && pwd) \
  || { echo "check-fresh-debian: no ../shared next to the project (set COUPLET_SHARED_DIR)" >&2; exit 2; }
work=${COUPLET_FRESH_DIR:-/var/tmp/couplet-fresh}/$release
root=$work/root
log=$work/check-fresh-$release.log
mirror=http://deb.debian.org/debian
mounts=(proc sys dev dev/pts)

mounted_below_root() { grep -q " $root/" /proc/mounts; }
unmount_all() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    mountpoint -q "$root/${mounts[i]}" && { umount "$root/${mounts[i]}" || umount -l "$root/${mounts[i]}"; }
  done
  return 0
}
trap unmount_all EXIT
trap 'exit 143' INT TERM HUP   # so that the EXIT trap unmounts on a signal too
host_failed() {   # host_failed STAGE: the verdict when the run stops before the chroot
  echo "check-fresh-debian $release: FAIL at $1 after $(((SECONDS - t0 + 30) / 60)) min; log $log"
  exit 1
}

mkdir -p "$work"
: >"$log"
exec > >(tee -a "$log") 2>&1
commit=$(git -C "$project" rev-parse HEAD)
echo "check-fresh-debian $release: commit $commit ($(git -C "$project" log -1 --format=%s "$commit"))"
echo "started $(date -u '+%F %T') UTC; root $root; log $log"
t0=$SECONDS

unmount_all
# Never delete a root that still has the host's /dev or /proc mounted in it.
mounted_below_root && host_failed "cleaning the old root (something is still mounted under $root)"
rm -rf "$root"
echo "==== mmdebstrap $release (variant apt: essential packages and apt only)"
mmdebstrap --variant=apt --components=main "$release" "$root" \
  "deb $mirror $release main" "deb $mirror $release-updates main" \
  "deb http://deb.debian.org/debian-security $release-security main" || host_failed mmdebstrap
root_s=$((SECONDS - t0))
echo "==== root made ($root_s s)"

# project/ and shared/ side by side: the project reads ../shared/data.
mkdir -p "$root/work"
git clone --quiet --no-hardlinks "$project" "$root/work/project" || host_failed "git clone"
git -C "$root/work/project" checkout --quiet --detach "$commit" || host_failed "git checkout"
rm -rf "$root/work/project/.git/hooks"
cp -rL "$shared" "$root/work/shared"
cp "$root/work/project/scripts/check-fresh-debian.sh" "$root/work/check-fresh-debian.sh"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# A network whose egress inspects TLS (the npm registry behind a proxy) needs
# its certificate authority, as it needs resolv.conf: network configuration of
# the host, not something the project installs. update-ca-certificates adds it
# when install-deps installs ca-certificates; node reads NODE_EXTRA_CA_CERTS.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
fi

mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
status=0
chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  HOME=/root LANG=C.UTF-8 TERM=dumb ${NODE_EXTRA_CA_CERTS:+NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS} bash /work/check-fresh-debian.sh --inside "$release" || status=$?
unmount_all

minutes=$(((SECONDS - t0 + 30) / 60))
if [ "$status" -eq 0 ]; then
  read -r installed built <"$root/work/speed" || true
  echo "check-fresh-debian $release: PASS in $minutes min (root $((root_s / 60)) min; run-tests, app smoke test," \
       ".deb installed with its dependencies, installed couplet and couplet-studio work," \
       "batch 32 installed $installed vs build tree $built couplets/s); log $log"
else
  failed=$(cat "$root/work/failed-step" 2>/dev/null || echo "chroot")
  echo "check-fresh-debian $release: FAIL at step $failed after $minutes min; log $log"
fi
exit "$status"
