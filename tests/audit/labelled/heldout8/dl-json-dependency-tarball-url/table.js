console.log(require('cli-table3'));
