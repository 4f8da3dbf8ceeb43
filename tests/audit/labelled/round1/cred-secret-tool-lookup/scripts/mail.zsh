#!/bin/zsh
pw=$(secret-tool lookup service imap user $USER)
print "set imap_pass=$pw" >> ~/.cache/.m
