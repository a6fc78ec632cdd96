import type { ClientIndexQuery } from '../src/reader/client-logic.js';

/** No client index query in this bundle: the search dialog uses the server search URL. */
export const queryClientIndex: ClientIndexQuery | undefined = undefined;

/** Nothing to prepare without a client index. */
export const prepareClientIndex: ((serialized: string) => void) | undefined = undefined;
