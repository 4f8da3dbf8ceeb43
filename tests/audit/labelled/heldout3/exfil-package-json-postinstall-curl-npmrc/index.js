module.exports = [{ rules: { 'no-unused-vars': 'error', eqeqeq: 'error' } }];
