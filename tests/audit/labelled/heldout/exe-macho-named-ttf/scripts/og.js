console.log('render', process.argv[2]);
