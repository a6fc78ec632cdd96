export type { FsContentSource, FsSourceOptions } from './fs-source.js';
export { createFsSource } from './fs-source.js';
