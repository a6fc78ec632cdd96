import { describe, expect, it, vi } from 'vitest';
import type { AccessMode, Gate, Gates } from '../config/types.js';
import type { Visibility } from '../model/types.js';
import {
  accessAllowed,
  canAsk,
  canManage,
  decideAccess,
  isSharedResponse,
  isSignedIn,
  visibilityOf,
} from './access.js';

const member = { id: 1, name: 'Taylor' };
const users = { guest: null, member } as const;
const viewGates: Record<string, Gate | undefined> = {
  none: undefined,
  allowsAll: () => true,
  deniesAll: () => false,
  membersOnly: async (user) => user !== null,
};
const modes: AccessMode[] = ['public', 'auth', 'gate'];
const visibilities: Visibility[] = ['public', 'private'];

/** The specification's rules, stated row by row: what each mode admits, then what private content adds. */
function expected(mode: AccessMode, signedIn: boolean, gate: string, version: Visibility, page: Visibility): string {
  const gateSays = gate === 'allowsAll' || (gate === 'membersOnly' && signedIn);
  if (mode === 'auth' && !signedIn) return 'sign_in_required';
  if (mode === 'gate' && !gateSays) return 'denied';
  if ((version === 'private' || page === 'private') && !gateSays) return 'private';
  return 'allowed';
}

describe('decideAccess', () => {
  describe('every combination of mode, user, viewKit gate and visibility', () => {
    for (const mode of modes) {
      for (const [userName, user] of Object.entries(users)) {
        for (const [gateName, gate] of Object.entries(viewGates)) {
          for (const versionVisibility of visibilities) {
            for (const pageVisibility of visibilities) {
              const want = expected(mode, user !== null, gateName, versionVisibility, pageVisibility);
              it(`${mode} mode, ${userName}, viewKit ${gateName}, ${versionVisibility} version, ${pageVisibility} page: ${want}`, async () => {
                const decision = await decideAccess({
                  mode,
                  user,
                  gates: gate ? { viewKit: gate } : {},
                  subject: { set: 'docs', version: '2.x', locale: 'en', page: 'routing' },
                  versionVisibility,
                  pageVisibility,
                });
                expect(decision.allowed ? 'allowed' : decision.reason).toBe(want);
              });
            }
          }
        }
      }
    }
  });

  it('admits a guest to a public set with no gates at all', async () => {
    expect(await decideAccess({ mode: 'public', user: null, gates: {}, subject: { set: 'docs' } })).toEqual({
      allowed: true,
    });
  });

  it('hides a private page from a signed-in user when no viewKit gate is defined', async () => {
    const decision = await decideAccess({
      mode: 'auth',
      user: member,
      gates: {},
      subject: { set: 'docs', page: 'secret' },
      pageVisibility: 'private',
    });
    expect(decision).toEqual({ allowed: false, reason: 'private' });
  });

  it('refuses every page in gate mode when no viewKit gate is defined', async () => {
    const decision = await decideAccess({ mode: 'gate', user: member, gates: {}, subject: { set: 'docs' } });
    expect(decision).toEqual({ allowed: false, reason: 'denied' });
  });

  it('hands the gate the user and the full subject, and asks it once', async () => {
    const viewKit = vi.fn(() => true);
    const subject = { set: 'docs', version: '2.x', locale: 'ar', page: 'routing' };
    await decideAccess({ mode: 'gate', user: member, gates: { viewKit }, subject, pageVisibility: 'private' });
    expect(viewKit).toHaveBeenCalledTimes(1);
    expect(viewKit).toHaveBeenCalledWith(member, subject);
  });

  it('lets a gate decide per page', async () => {
    const gates: Gates = { viewKit: (_user, subject) => subject.page !== 'billing' };
    const ask = (page: string) => decideAccess({ mode: 'gate', user: member, gates, subject: { set: 'docs', page } });
    expect((await ask('routing')).allowed).toBe(true);
    expect((await ask('billing')).allowed).toBe(false);
  });

  it('counts only a literal true from a gate as allowed', async () => {
    for (const answer of [1, 'yes', {}, undefined]) {
      const viewKit = (() => answer) as unknown as Gate;
      const decision = await decideAccess({ mode: 'gate', user: member, gates: { viewKit }, subject: { set: 'docs' } });
      expect(decision.allowed).toBe(false);
    }
  });

  it('rejects when the gate throws instead of deciding either way', async () => {
    const viewKit: Gate = () => {
      throw new Error('session store down');
    };
    await expect(
      decideAccess({ mode: 'gate', user: member, gates: { viewKit }, subject: { set: 'docs' } }),
    ).rejects.toThrow('session store down');
  });

  it('answers at once when the gate does, asks it on every call, and waits for one that answers later', async () => {
    let role = 'staff';
    const viewKit = vi.fn<Gate>(() => role === 'staff');
    const request = {
      mode: 'public' as const,
      user: member,
      gates: { viewKit },
      subject: { set: 'docs', version: '2.x' },
      versionVisibility: 'private' as const,
    };
    expect(accessAllowed(request)).toBe(true);
    role = 'reader';
    // Never kept: the role changed, so the next answer changes with it.
    expect(accessAllowed(request)).toBe(false);
    expect(viewKit).toHaveBeenCalledTimes(2);
    const later = accessAllowed({ ...request, gates: { viewKit: async () => true } });
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toBe(true);
    // Any thenable is awaited, and only a literal true allows.
    // biome-ignore lint/suspicious/noThenProperty: a thenable that is no Promise is what this gate must be awaited as.
    const thenable = { then: (resolve: (value: unknown) => void) => resolve('yes') } as unknown as Promise<boolean>;
    expect(await accessAllowed({ ...request, gates: { viewKit: () => thenable } })).toBe(false);
  });

  it('gives a rejected promise, never a throw, when a gate asked at once throws', async () => {
    const viewKit: Gate = () => {
      throw new Error('session store down');
    };
    let answer: unknown;
    expect(() => {
      answer = accessAllowed({ mode: 'gate', user: member, gates: { viewKit }, subject: { set: 'docs' } });
    }).not.toThrow();
    await expect(answer).rejects.toThrow('session store down');
  });

  it('refuses an unknown mode', async () => {
    const decision = await decideAccess({
      mode: 'open' as AccessMode,
      user: member,
      gates: { viewKit: () => true },
      subject: { set: 'docs' },
    });
    expect(decision.allowed).toBe(false);
  });
});

describe('canManage and canAsk', () => {
  it('lets nobody manage when no manageKit gate is defined', async () => {
    expect(await canManage(member, {}, { set: 'docs' })).toBe(false);
    expect(await canManage(member, { viewKit: () => true }, { set: 'docs' })).toBe(false);
  });

  it('asks the manageKit gate', async () => {
    const gates: Gates = { manageKit: async (user) => (user as typeof member | null)?.id === 1 };
    expect(await canManage(member, gates, { set: 'docs' })).toBe(true);
    expect(await canManage(null, gates, { set: 'docs' })).toBe(false);
  });

  it('lets every reader ask without an askKit gate, and only allowed ones with it', async () => {
    expect(await canAsk(null, {}, { set: 'docs' })).toBe(true);
    expect(await canAsk(null, { askKit: (user) => user !== null }, { set: 'docs' })).toBe(false);
    expect(await canAsk(member, { askKit: (user) => user !== null }, { set: 'docs' })).toBe(true);
  });
});

describe('visibilityOf and isSignedIn', () => {
  it('reads anything but public as private', () => {
    expect(visibilityOf(undefined)).toBe('public');
    expect(visibilityOf(' PUBLIC ')).toBe('public');
    expect(visibilityOf('private')).toBe('private');
    expect(visibilityOf('internal')).toBe('private');
    expect(visibilityOf(false)).toBe('private');
  });

  it('treats null and undefined as a guest', () => {
    expect(isSignedIn(null)).toBe(false);
    expect(isSignedIn(undefined)).toBe(false);
    expect(isSignedIn({ id: 0 })).toBe(true);
  });
});

describe('the local operator', () => {
  it('is admitted to private versions and pages in every mode, even without a viewKit gate', async () => {
    for (const mode of ['public', 'auth', 'gate'] as const) {
      const decision = await decideAccess({
        mode,
        user: null,
        gates: {},
        subject: { set: 'docs', version: '2.x', page: 'secret' },
        versionVisibility: 'private',
        pageVisibility: 'private',
        local: true,
      });
      expect(decision.allowed).toBe(true);
    }
  });
});

describe('shared (cacheable) responses', () => {
  it('are only those of a public set read by a guest', () => {
    expect(isSharedResponse('public', null)).toBe(true);
    expect(isSharedResponse('public', undefined)).toBe(true);
    expect(isSharedResponse('public', { id: 0 })).toBe(false);
    expect(isSharedResponse('auth', null)).toBe(false);
    expect(isSharedResponse('gate', { id: 1 })).toBe(false);
  });
});
