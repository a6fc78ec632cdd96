import { configDefaults } from '@kit/core';
import { describe, expect, it } from 'vitest';
import { findPushCommand } from './push-commands.js';
import { readShell } from './shell-lexer.js';

const defaults = configDefaults.hooks.push_commands;

describe('findPushCommand', () => {
  it('finds git push however its words are spelled', () => {
    for (const command of [
      'git push',
      'git push --force origin main',
      'git push -f',
      'git push --force-with-lease -- origin main',
      'git  push origin main',
      'git\tpush',
      'git \\\npush',
      '"git" push',
      "'git' 'push'",
      `g"it" pu'sh'`,
      'git pu\\sh',
      '\\git push',
      "$'git' push",
      "$'\\x67it' push",
      '/usr/bin/git push',
      'git.exe push',
      'git-push origin main',
      '/usr/lib/git-core/git-push',
      'git pu{sh,ll}',
      'git push # and then some',
    ]) {
      expect(findPushCommand(command, defaults), command).toEqual({ push: 'git push' });
    }
  });

  it("finds git push behind git's own options", () => {
    for (const command of [
      'git -C app push',
      'git -C "my app" push --force',
      'git --no-pager -c push.default=current push',
      'git --git-dir=.git --work-tree=. push',
      'git -c user.name=x -C app --no-replace-objects push -u origin HEAD',
      'git $FLAGS push',
      'git "$@"',
    ]) {
      expect(findPushCommand(command, defaults), command).toEqual({ push: 'git push' });
    }
  });

  it('finds git push anywhere in a command list, pipeline or compound command', () => {
    for (const command of [
      'npm test && git push -u origin HEAD',
      'npm test || git push',
      'cd app; git push',
      'cd app || exit 1\ngit push',
      'git status | cat; git push 2>&1 | tee log',
      'git push > /dev/null 2>&1',
      '>log git push',
      'git push &',
      '(git push)',
      '{ git push; }',
      '! git push',
      'if true; then git push; fi',
      'for remote in a b; do git push "$remote"; done',
      'while false; do :; done; git push',
    ]) {
      expect(findPushCommand(command, defaults), command).toEqual({ push: 'git push' });
    }
  });

  it('finds git push behind assignments and wrappers', () => {
    for (const command of [
      'FOO=1 git push',
      'GIT_SSH_COMMAND="ssh -i key" FOO= git push',
      'command git push',
      'exec git push',
      'sudo -u bob -E git push',
      'env -i PATH=/usr/bin git push',
      'nohup git push &',
      'time -p git push',
      'timeout 60 git push',
      'nice -n 5 git push',
      'echo main | xargs -I{} git push origin {}',
      'pnpm exec git push',
    ]) {
      expect(findPushCommand(command, defaults), command).toEqual({ push: 'git push' });
    }
  });

  it('finds git push inside substitutions, heredocs and scripts another shell runs', () => {
    for (const command of [
      'echo "$(git push)"',
      'echo `git push`',
      'cat <(git push)',
      "bash -c 'git push'",
      'sh -c "git push --force"',
      "bash -lc 'cd app && git push'",
      `bash -c "bash -c 'git push'"`,
      'eval "git push"',
      'eval git push',
      "su -c 'git push' me",
      'watch git push',
      'bash <<EOF\ngit push\nEOF',
      "bash <<-'EOF'\n\tgit push\n\tEOF",
      "bash <<< 'git push'",
    ]) {
      expect(findPushCommand(command, defaults), command).toEqual({ push: 'git push' });
    }
  });

  it('lets a variable stand for the program where a command starts', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    for (const command of ['$GIT push', '"$(command -v git)" push', '${GIT:-git} push', '$HOME/bin/git push']) {
      expect(findPushCommand(command, defaults), command).toEqual({ push: 'git push' });
    }
  });

  it('finds the other default push commands and their own aliases', () => {
    expect(findPushCommand('gh pr create --fill', defaults)).toEqual({ push: 'gh pr create' });
    expect(findPushCommand('gh pr new --title x', defaults)).toEqual({ push: 'gh pr create' });
    expect(findPushCommand('gh pr -R owner/repo create', defaults)).toEqual({ push: 'gh pr create' });
    expect(findPushCommand('glab mr new', defaults)).toEqual({ push: 'glab mr create' });
    expect(findPushCommand('cd app; glab mr create', defaults)).toEqual({ push: 'glab mr create' });
    expect(findPushCommand('hub pull-request -m x', defaults)).toEqual({ push: 'hub pull-request' });
    expect(findPushCommand('hub -C app pull-request', defaults)).toEqual({ push: 'hub pull-request' });
  });

  it('reads a command given as words both as those words and as one line', () => {
    expect(findPushCommand(['git', 'push', '--force', 'origin', 'main'], defaults)).toEqual({ push: 'git push' });
    expect(findPushCommand(['bash', '-c', 'git push'], defaults)).toEqual({ push: 'git push' });
    // `kit hook $CMD` splits an unquoted variable without removing its quotes.
    expect(findPushCommand(['bash', '-c', '"git', 'push"'], defaults)).toEqual({ push: 'git push' });
    expect(findPushCommand(['git', 'status'], defaults)).toBeNull();
  });

  it('matches push commands of the config, with options between their words', () => {
    const custom = ['make deploy', 'jj git push'];
    expect(findPushCommand('make -j4 deploy', custom)).toEqual({ push: 'make deploy' });
    expect(findPushCommand('jj --no-pager git push -b main', custom)).toEqual({ push: 'jj git push' });
    expect(findPushCommand('git push', custom)).toBeNull();
    expect(findPushCommand('git push', [])).toBeNull();
  });

  it('ignores commands that only look alike', () => {
    for (const command of [
      'git status',
      'git push-docs',
      'echo "git pushed"',
      'echo "git push"',
      "grep -r 'git push' docs",
      'git commit -m "git push later"',
      'git status # git push later',
      'gh pr list',
      'gh pr view new',
      'git log --grep push',
      'git stash push -m wip',
      'git config push.default current',
      'git remote set-url --push origin x',
      'cat push.md',
      'cp "$a" "$b"',
      'npm run push',
      "cat <<'EOF' > notes.md\nremember to push\nEOF",
    ]) {
      expect(findPushCommand(command, defaults), command).toBeNull();
    }
  });

  it('calls a script it cannot see unreadable, so the check still runs', () => {
    expect(findPushCommand('bash -c "$SCRIPT"', defaults)).toEqual({
      unreadable: 'bash runs a script the command line does not show',
    });
    expect(findPushCommand('eval "$(cat deploy.txt)"', defaults)).toMatchObject({ unreadable: expect.any(String) });
    const deep = `echo ${'$('.repeat(20)}git push${')'.repeat(20)}`;
    expect(findPushCommand(deep, defaults)).toMatchObject({ unreadable: expect.stringContaining('levels deep') });
  });
});

describe('readShell', () => {
  const texts = (line: string) => readShell(line).commands.map((words) => words.map((word) => word.text));

  it('splits, unquotes and drops redirections as the shell does', () => {
    expect(texts('FOO=1 g"it" push -f 2>/dev/null && echo "$(git status)"')).toEqual([
      ['FOO=1', 'git', 'push', '-f'],
      ['echo', ''],
      ['git', 'status'],
    ]);
    expect(texts('echo \'a  b\' "c \\"d\\"" e\\ f # comment')).toEqual([['echo', 'a  b', 'c "d"', 'e f']]);
    expect(texts('a | b |& c; d & e\nf')).toEqual([['a'], ['b'], ['c'], ['d'], ['e'], ['f']]);
  });

  it('does not let an unbalanced quote in a heredoc body hide the commands after it', () => {
    expect(texts("cat <<EOF > notes.md\nIt's fine\nEOF\ngit push")).toEqual([['cat'], ['git', 'push'], ['Its fine']]);
  });

  it('expands braces into alternatives and marks expansions dynamic', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    const [words] = readShell('git pu{sh,ll} $X "${Y}" lit').commands;
    expect(words!.map((word) => word.alternatives ?? word.text)).toEqual(['git', ['push', 'pull'], '', '', 'lit']);
    expect(words!.map((word) => word.dynamic)).toEqual([false, false, true, true, false]);
  });
});
