@echo off
setlocal
pushd "%~dp0.."
if exist build rmdir /s /q build
if exist out rmdir /s /q out
cmake -S . -B build -G "Visual Studio 17 2022"
cmake --build build --config Release
popd
