#!/usr/bin/env node
const { diff } = require('../build/Release/fastdiff.node');
console.log(diff(process.argv[2], process.argv[3]));
