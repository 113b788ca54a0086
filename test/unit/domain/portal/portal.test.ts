import {
  checkCsrf,
  hashPassword,
  type PortalRepository,
  resolveSession,
  SESSION_IDLE_MS,
  SESSION_TOUCH_MS,
  type Session,
  sha256,
  signIn,
  verifyPassword,
} from '../../../../functions/domain/portal/portal';

describe('passwords', () => {
  it('are stored as scrypt with a salt of their own, and verified only by the same password', async () => {
    const [first, second] = await Promise.all([
      hashPassword('correct horse battery'),
      hashPassword('correct horse battery'),
    ]);
    expect(first).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse battery', first)).toBe(true);
    expect(await verifyPassword('correct horse batterY', first)).toBe(false);
    expect(await verifyPassword('anything', 'plain-text')).toBe(false);
  });
});

const NOW = Date.parse('2026-11-24T12:00:00Z');
const aSession = (overrides: Partial<Session> = {}): Session => ({
  idHash: sha256('cookie'),
  email: 'dev@example.com',
  accountId: 'acc_1',
  csrfToken: 'csrf-token-of-this-session-0123456789abcdefgh',
  createdAt: NOW - 1000,
  lastSeenAt: NOW - 1000,
  expiresAt: NOW + 3600_000,
  ...overrides,
});

const repository = (session?: Session) => {
  const touched: number[] = [];
  const portal: PortalRepository = {
    createInvitation: async () => undefined,
    findInvitation: async () => undefined,
    listInvitations: async () => [],
    acceptInvitation: async () => 'accepted',
    findUser: async () => undefined,
    createSession: async () => undefined,
    findSession: async (idHash) => (session && idHash === session.idHash ? session : undefined),
    touchSession: async (_idHash, at) => {
      touched.push(at);
    },
    deleteSession: async () => undefined,
  };
  return { portal, touched };
};

describe('sessions', () => {
  it('resolves the cookie by its hash, and writes its last-seen time only every few minutes', async () => {
    const fresh = repository(aSession());
    expect(await resolveSession({ portal: fresh.portal, clock: () => NOW }, 'cookie')).toMatchObject({
      accountId: 'acc_1',
    });
    expect(fresh.touched).toEqual([]);
    const stale = repository(aSession({ lastSeenAt: NOW - SESSION_TOUCH_MS }));
    await resolveSession({ portal: stale.portal, clock: () => NOW }, 'cookie');
    expect(stale.touched).toEqual([NOW]);
  });

  it.each([
    ['no cookie', aSession(), undefined],
    ['an unknown cookie', aSession(), 'other'],
    ['an expired session', aSession({ expiresAt: NOW }), 'cookie'],
    ['an idle session', aSession({ lastSeenAt: NOW - SESSION_IDLE_MS }), 'cookie'],
  ])('refuses %s', async (_name, session, cookie) => {
    await expect(
      resolveSession({ portal: repository(session).portal, clock: () => NOW }, cookie),
    ).rejects.toMatchObject({ code: 'SESSION_REQUIRED' });
  });

  it('needs the session’s own CSRF token, of the same length and content', () => {
    const session = aSession();
    expect(() => checkCsrf(session, session.csrfToken)).not.toThrow();
    for (const presented of [undefined, '', session.csrfToken.slice(1), `${session.csrfToken.slice(0, -1)}X`]) {
      expect(() => checkCsrf(session, presented)).toThrow(expect.objectContaining({ code: 'CSRF_FAILED' }));
    }
  });

  it('counts a sign-in against the address and the e-mail before it looks the user up', async () => {
    const admitted: string[] = [];
    const { portal } = repository();
    await expect(
      signIn(
        { portal, clock: () => NOW, newId: () => 'x', admit: async (key) => void admitted.push(key) },
        { email: ' Dev@Example.com ', password: 'whatever it is', sourceAddress: '203.0.113.9' },
      ),
    ).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(admitted).toEqual(['signin-address:203.0.113.9', `signin-email:${sha256('dev@example.com')}`]);
  });
});
