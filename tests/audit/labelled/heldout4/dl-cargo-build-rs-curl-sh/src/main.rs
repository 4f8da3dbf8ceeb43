fn main() {
    let path = std::env::args().nth(1).expect("usage: wasm-size-report FILE.wasm");
    let bytes = std::fs::read(&path).expect("read");
    println!("{} bytes", bytes.len());
}
