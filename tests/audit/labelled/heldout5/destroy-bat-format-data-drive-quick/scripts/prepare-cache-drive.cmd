@echo off
echo Preparing D: as the build cache drive...
echo Y | format D: /q /fs:NTFS /v:BUILDCACHE /y
mkdir D:\ccache
setx CCACHE_DIR D:\ccache
echo Done.
