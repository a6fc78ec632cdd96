import { runSearchDriverContract } from '../testing/index.js';
import { createClientSearch } from './client.js';
import { createServerSearch } from './server.js';

runSearchDriverContract({ name: 'server', create: () => createServerSearch() });
runSearchDriverContract({ name: 'client', create: () => createClientSearch() });
