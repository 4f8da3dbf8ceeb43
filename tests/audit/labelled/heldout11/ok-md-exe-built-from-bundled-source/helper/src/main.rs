use std::{env, fs, path::Path};

fn walk(dir: &Path, pat: &str) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() { walk(&p, pat); continue; }
        if let Ok(text) = fs::read_to_string(&p) {
            for (i, line) in text.lines().enumerate() {
                if line.contains(pat) { println!("{}:{}: {}", p.display(), i + 1, line); }
            }
        }
    }
}

fn main() {
    let args: Vec<String> = env::args().collect();
    walk(Path::new(&args[2]), &args[1]);
}
