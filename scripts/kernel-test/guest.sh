#!/bin/bash
# Runs in the VM (scripts/kernel-test.sh boots it): loads the drivers, then the suite.
set -u
cd "$(dirname "$0")"
for m in uhid hid-sony hid-playstation hid-nintendo hid-steam hid-sensor-hub hid-sensor-accel-3d hid-sensor-gyro-3d \
         hid-sensor-magn-3d hid-sensor-press industrialio-triggered-buffer uinput; do
    modprobe "$m" 2>/dev/null || echo "kernel-test: module $m not available"
done
echo "kernel-test: guest kernel $(uname -r), $(nproc) CPUs"
# Unbuffered: what a case printed before a hang still reaches the log.
PYTHONUNBUFFERED=1 exec "$KT_PYTHON" -m pytest -p no:cacheprovider -p no:hypothesispytest -p no:benchmark -s -v -rfE --tb=short --durations=25 --timeout 300 "$@" .
