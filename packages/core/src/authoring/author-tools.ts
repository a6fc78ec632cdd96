// The author tools, one module per concern: the call and its access (author-call.ts), page paths
// (page-path.ts), how a change is recorded (change-record.ts), validation after a change
// (validation-after.ts), and the tools on pages, navigation and the manifest.
export type { AuthorArguments, AuthorCall, Prepared } from './author-call.js';
export { authorAccess, prepare } from './author-call.js';
export { chainNote, changeRecord, draftNote, isReceipt, written } from './change-record.js';
export type { UpdateManifestArguments } from './manifest-tool.js';
export { updateManifestTool } from './manifest-tool.js';
export type { UpdateNavigationArguments } from './navigation-tool.js';
export { updateNavigationTool } from './navigation-tool.js';
export type { DeletePageArguments, MovePageArguments, WritePageArguments } from './page-tools.js';
export { deletePageTool, movePageTool, writePageTool } from './page-tools.js';
