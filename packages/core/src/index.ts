export { KitError, isKitError } from './errors/kit-error.js';
export type { KitErrorCode } from './errors/kit-error.js';
export type * from './model/types.js';
export type * from './config/types.js';
export type * from './events/types.js';
export type * from './ports/content-source.js';
export type * from './ports/renderer.js';
export type * from './ports/search-driver.js';
export type * from './ports/docset.js';
