// Run by open-file-limit.test.ts in a child process started under a lowered open-file limit:
// reads a whole set folder the ways a server does and prints what it saw as one JSON line.
import { createFsSource } from '@kit/source-fs';

const root = process.argv[2]!;
const source = createFsSource({ root, setKey: 'docs', git: false, watch: true });
const outcome = <T>(work: Promise<T>) =>
  work.then(
    (value) => ({ value }),
    (error: unknown) => ({ error: error instanceof Error ? `${(error as { code?: string }).code}: ${error.message}` : String(error) }),
  );
await source.ready();
const listed = await outcome(source.listPages('current', 'en'));
const paths = 'value' in listed ? listed.value.map((page) => page.path) : [];
const read = await outcome(Promise.all(paths.map((path) => source.getPage('current', 'en', path))));
const skills = await outcome(source.listSkills());
const problems = await outcome(source.problems());
await source.close();
console.log(
  JSON.stringify({
    pages: 'value' in listed ? listed.value.length : listed.error,
    paths,
    read: 'value' in read ? read.value.filter((page) => page !== null).length : read.error,
    skills: 'value' in skills ? skills.value.length : skills.error,
    problems: 'value' in problems ? problems.value : problems.error,
  }),
);
