export { createFsSource } from './fs-source.js';
export type { FsContentSource, FsSourceOptions } from './fs-source.js';
