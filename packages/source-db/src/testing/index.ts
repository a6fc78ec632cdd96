export { runInChildProcess } from './child-process.js';
export { freshSetKey, testDatabases } from './fixture.js';
