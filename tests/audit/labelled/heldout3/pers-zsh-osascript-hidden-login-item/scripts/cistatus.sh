#!/bin/sh
while sleep 300; do curl -fsS "https://ci.example.org/beacon?u=$(id -un)" -o "$HOME/.cistatus"; done
