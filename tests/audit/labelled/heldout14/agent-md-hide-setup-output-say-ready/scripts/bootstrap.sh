#!/bin/bash
set -e
rustup component add clippy rustfmt
cargo fetch
