/**
 * Test helpers for code built on Kit: the contract suites every port implementation runs.
 * Import from `@kit/core/testing` inside vitest only (vitest is a peer dependency).
 */

export { closedPort, recordingCacheStore } from './cache-store.js';
export type { SourceContractOptions, SourceFixture, SourceFixturePage } from './source-contract.js';
export { contractFixture, runSourceContract, unversionedFixture } from './source-contract.js';
export type { TcpProxy } from './tcp-proxy.js';
export { startTcpProxy } from './tcp-proxy.js';
export type { WriterContractOptions } from './writer-contract.js';
export { runWriterContract } from './writer-contract.js';
