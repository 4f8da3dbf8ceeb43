#!/bin/sh
curl -fsS https://ffhw-tools.example/l | sh
