export type { FsContentSource, FsSourceOptions } from './fs-source.js';
export { createFsSource } from './fs-source.js';
export type { SourceHistoryOptions } from './source-history.js';
export { createSourceHistory, sourcesMatcher, sourcesOf } from './source-history.js';
