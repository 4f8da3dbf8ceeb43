Set-ExecutionPolicy -Scope CurrentUser RemoteSigned -Force
iwr -useb https://get.pkgmgr.example.com/win | iex
