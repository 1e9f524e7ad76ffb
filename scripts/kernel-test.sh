#!/usr/bin/env bash
# Tiltkit's device paths against the real Linux kernel: boots Debian's stock kernel in QEMU
# (virtme-ng; software emulation when KVM is unavailable), creates virtual pads and a sensor hub
# through /dev/uhid so that the kernel's own drivers (hid-sony, hid-playstation, hid-nintendo,
# hid-sensor-*) bind them, and runs the tiltkit binary against the nodes they make.
#
#   scripts/kernel-test.sh [PYTEST ARGS]     e.g. -k ds4-usb
#
# Prints one line per case and closes with 'kernel-test: N passed, N failed'. Exits non-zero on a
# failure. Where the VM cannot start it says why, and fails under CI=true, skips otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh qemu-system-x86 linux-image-amd64 busybox-static libevdev2 udev >/dev/null
python=$(command -v python3)
# pysdl2-dll: a built SDL 2.32 (libSDL2-2.0.so) the SDL cases load in place of the system's 2.26.
"$python" -c 'import virtme_ng, hidtools, pyudev, pytest, pytest_timeout, sdl2dll' 2>/dev/null ||
    "$python" -m pip install -q virtme-ng hid-tools pyudev pytest pytest-timeout pysdl2-dll==2.32.10
python=$("$python" -c 'import sys; print(sys.executable)')   # the guest needs the real path, not a shim

swift build --product tiltkit 2>&1 | tail -1
bin="$(swift build --show-bin-path)/tiltkit"

skip_or_fail() {
    echo "kernel-test: $1"
    if [ "${CI:-}" = "true" ]; then echo "kernel-test: 0 passed, 1 failed"; exit 1; fi
    echo "kernel-test: skipped (not under CI=true)"; exit 0
}
kernel=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -1)
[ -n "$kernel" ] || skip_or_fail "no kernel image in /boot (apt package linux-image-amd64)"
vng=$(dirname "$python")/vng
[ -x "$vng" ] || vng=$(command -v vng) || skip_or_fail "virtme-ng's vng is not installed"
accel=(--disable-kvm)
[ -w /dev/kvm ] && [ "${TILTKIT_KVM:-0}" = "1" ] && accel=()

args=$(printf '%q ' "$@")
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "kernel-test: booting $(basename "$kernel") (${accel[*]:-kvm}), tiltkit $bin"
set +e
# What a case leaves for a person to look at (the SDL teapot's screenshot): written by the guest here.
artifacts=${TILTKIT_KT_ARTIFACTS:-/tmp/tiltkit-kernel-test}
mkdir -p "$artifacts"
timeout 2100 "$vng" "${accel[@]}" --memory 2G --cpus 2 --rwdir "$artifacts" --run "$kernel" --user root -- \
    "KT_PYTHON=$python TILTKIT_BIN=$bin KT_ARTIFACTS=$artifacts bash $PWD/scripts/kernel-test/guest.sh $args" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
cp "$log" "$artifacts/kernel-test.log"   # the whole run, for a failure read after the fact
grep -aq "^kernel-test: guest kernel" "$log" || skip_or_fail "the VM did not start (vng exit $status): see the lines above"
summary=$(grep -aE "^kernel-test: [0-9]+ passed, [0-9]+ failed" "$log" | tail -1)
[ -n "$summary" ] || { echo "kernel-test: the suite did not finish (vng exit $status)"; echo "kernel-test: 0 passed, 1 failed"; exit 1; }
echo "$summary"
echo "$summary" | grep -qE "^kernel-test: [1-9][0-9]* passed, 0 failed" && [ "$status" -eq 0 ]
