#!/bin/sh
docker build -t app . && docker push app
