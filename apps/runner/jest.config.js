// The runner's integration files spawn the CLI (a node process each) or start Redis and Postgres;
// each keeps about one core busy, and together they are the longest task of `npm test` (about
// 12 min on one worker on CI's two cores). Jest's default is one worker fewer than the cores,
// which on two cores runs the files one at a time; this runs one per core, for `test` and
// `test:int` alike (the unit files are the second-longest unit run).
module.exports = { ...require('../../jest.preset.js')(__dirname), maxWorkers: '100%' };
