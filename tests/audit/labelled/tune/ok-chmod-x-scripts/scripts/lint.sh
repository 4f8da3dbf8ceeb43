#!/bin/sh
shellcheck scripts/*.sh
