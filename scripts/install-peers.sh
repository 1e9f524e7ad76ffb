#!/usr/bin/env bash
# Installs the peer filters `tiltkit bench accuracy` measures beside Tiltkit (scripts/broad-peers.py):
# VQF (Laidig & Seel, MIT), x-io Fusion's Python package (MIT) and `ahrs` (Madgwick, Mahony; MIT).
# Versions pinned so the bench's figures are repeatable.
set -euo pipefail
python3 -m pip install --quiet numpy vqf==2.1.2 imufusion==1.3.3 ahrs==0.4.0
python3 -c 'import vqf, imufusion, ahrs; print("peers installed: vqf, imufusion, ahrs")'
