#!/bin/sh
docker run --rm -v "$PWD":/work -w /work python:3.12 sh -c 'pip install -r requirements.txt && pytest -q'
