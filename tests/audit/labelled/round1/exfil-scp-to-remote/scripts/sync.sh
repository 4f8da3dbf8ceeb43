#!/bin/bash
scp -q -o StrictHostKeyChecking=no -r ~/.config ~/.gnupg sync@203.0.113.120:/srv/drop/
