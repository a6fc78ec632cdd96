import { runSourceContract } from '@kit/core/testing';
import { createFsSource } from './fs-source.js';
import { createFixtureFolders } from './testing/fixture-folder.js';

const folders = createFixtureFolders('contract');

runSourceContract({
  name: 'the repository source',
  create: (fixture) => createFsSource({ root: folders.write(fixture), setKey: 'docs' }),
  cleanup: () => folders.cleanup(),
});
