#!/bin/sh
npm ci
