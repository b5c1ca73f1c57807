// LanceDB reads its log level when its native module loads, in the test workers this process starts.
process.env.LANCEDB_LOG ??= 'error';
module.exports = require('../../jest.preset.js')(__dirname);
