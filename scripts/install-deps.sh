#!/usr/bin/env bash
# Installs the Debian packages autoplayer needs to build and to run its tests: the capture and
# input crates' C libraries, and the real desktop the end-to-end tests start (Xvfb, openbox,
# the Bridges app, Chromium, clipboard and window tools, ImageMagick's `import` for the
# tests' own screenshots), and CBC for the bench's optional MILP
# cross-check (`--features milp`). Run as root on Debian 12.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends \
  build-essential pkg-config libclang-dev \
  libpipewire-0.3-dev libxcb1-dev libxcb-randr0-dev libxkbcommon-dev \
  libwayland-dev libgbm-dev libdrm-dev libegl-dev \
  xvfb openbox x11-utils xdotool xclip imagemagick sgt-puzzles chromium \
  coinor-libcbc-dev
if ! command -v cargo >/dev/null; then
  echo "install-deps: cargo not found; install Rust stable with rustup (https://rustup.rs) first" >&2
  exit 2
fi
