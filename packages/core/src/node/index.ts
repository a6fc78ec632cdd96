export { projectCacheDir } from './cache-dir.js';
export type { DiskCacheStoreOptions } from './disk-cache-store.js';
export { createDiskCacheStore, diskCacheStoreDir } from './disk-cache-store.js';
export { parseDotenv } from './dotenv.js';
export type { LoadConfigOptions } from './load-config.js';
export { CONFIG_FILE_NAMES, findConfigFile, importConfigFile, loadConfig } from './load-config.js';
export { writeFileAtomically } from './write-atomically.js';
