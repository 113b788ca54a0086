import { seedProfile } from '../support/profiles';
import { startTestRuntime, type TestRuntime } from '../support/runtime';

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(() => runtime.close());

interface TagReport {
  updated: number;
  already_tagged: string[];
  conflicts: Array<{ profile_id: string; existing_tag: string }>;
  not_found: string[];
}

const backfill = async (apiKey: string, tags: Array<{ profile_id: string; tag: string }>) => {
  const response = await runtime.call('POST', '/v2/service/profiles/tags', { apiKey, body: { tags } });
  return { status: response.status, body: (await response.json()) as TagReport };
};

const seedMany = async (accountId: string, count: number, overrides: Parameters<typeof seedProfile>[1] = {}) => {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, count - start) }, () => seedProfile(accountId, overrides)),
    );
    ids.push(...batch.map((p) => p.profileId));
  }
  return ids;
};

const listed = async (apiKey: string, query = '') =>
  (
    (await (await runtime.call('GET', `/v2/service/profiles/ids${query}`, { apiKey })).json()) as {
      profiles: Array<{ profile_id: string; status: string; tag: string | null }>;
    }
  ).profiles;

describe('tag backfill', () => {
  it('puts each of 1000 entries in exactly one bucket, and a repeat updates nothing', async () => {
    const account = await runtime.newAccount();
    const stranger = await runtime.newAccount();
    const untagged = await seedMany(account.accountId, 700);
    const sameTag = await seedMany(account.accountId, 100, { tag: 'team-a' });
    const otherTag = await seedMany(account.accountId, 100, { tag: 'team-b' });
    const foreign = await seedMany(stranger.accountId, 50);
    const unknown = Array.from({ length: 50 }, (_, i) => `prf_unknown${i}`);
    const entries = [...untagged, ...sameTag, ...otherTag, ...foreign, ...unknown].map((profile_id) => ({
      profile_id,
      tag: 'team-a',
    }));
    expect(entries).toHaveLength(1000);

    const first = await backfill(account.apiKey, entries);
    expect(first.status).toBe(200);
    expect(first.body.updated).toBe(700);
    expect(new Set(first.body.already_tagged)).toEqual(new Set(sameTag));
    expect(first.body.conflicts).toHaveLength(100);
    expect(first.body.conflicts).toContainEqual({ profile_id: otherTag[0], existing_tag: 'team-b' });
    expect(new Set(first.body.not_found)).toEqual(new Set([...foreign, ...unknown]));
    expect(
      first.body.updated + first.body.already_tagged.length + first.body.conflicts.length + first.body.not_found.length,
    ).toBe(1000);

    const again = await backfill(account.apiKey, entries);
    expect(again.body.updated).toBe(0);
    expect(new Set(again.body.already_tagged)).toEqual(new Set([...untagged, ...sameTag]));
    expect(again.body.conflicts).toHaveLength(100);
    expect(again.body.not_found).toHaveLength(100);

    expect((await listed(account.apiKey, '?tag=team-a')).map((p) => p.profile_id).sort()).toEqual(
      [...untagged, ...sameTag].sort(),
    );
  });

  it('lets two concurrent backfills with different tags leave each profile one tag, reported consistently', async () => {
    const account = await runtime.newAccount();
    const ids = await seedMany(account.accountId, 300);
    const [red, blue] = await Promise.all([
      backfill(
        account.apiKey,
        ids.map((profile_id) => ({ profile_id, tag: 'red' })),
      ),
      backfill(
        account.apiKey,
        ids.map((profile_id) => ({ profile_id, tag: 'blue' })),
      ),
    ]);
    expect(red.body.updated + blue.body.updated).toBe(300);
    const stored = new Map((await listed(account.apiKey)).map((p) => [p.profile_id, p.tag]));
    for (const id of ids) expect(['red', 'blue']).toContain(stored.get(id));
    const redWins = ids.filter((id) => stored.get(id) === 'red');
    expect(red.body.updated).toBe(redWins.length);
    expect(new Set(blue.body.conflicts.map((c) => c.profile_id))).toEqual(new Set(redWins));
    expect(blue.body.conflicts.every((c) => c.existing_tag === 'red')).toBe(true);
    expect(new Set(red.body.conflicts.map((c) => c.profile_id))).toEqual(
      new Set(ids.filter((id) => stored.get(id) === 'blue')),
    );
  });

  it.each([
    ['no entries', []],
    ['1001 entries', Array.from({ length: 1001 }, (_, i) => ({ profile_id: `prf_${i}`, tag: 't' }))],
    ['an empty tag', [{ profile_id: 'prf_1', tag: '' }]],
    ['a 129-character tag', [{ profile_id: 'prf_1', tag: 'x'.repeat(129) }]],
  ])('refuses %s with 422', async (_name, tags) => {
    expect((await backfill(runtime.devAccount!.apiKey, tags)).status).toBe(422);
  });

  it('refuses a profile listed twice with 422 at its second entry', async () => {
    const response = await runtime.call('POST', '/v2/service/profiles/tags', {
      apiKey: runtime.devAccount!.apiKey,
      body: {
        tags: [
          { profile_id: 'prf_a', tag: 'x' },
          { profile_id: 'prf_b', tag: 'x' },
          { profile_id: 'prf_a', tag: 'y' },
        ],
      },
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: Array<{ loc: unknown[] }> }).detail[0]!.loc).toEqual([
      'body',
      'tags',
      2,
      'profile_id',
    ]);
  });
});

describe('listing profiles', () => {
  it('returns every profile however many pages the table takes, with tag null when unset', async () => {
    const account = await runtime.newAccount();
    // Large records make DynamoDB page the query (1 MB per page) well before 10 000 profiles.
    const padding = Array.from({ length: 200 }, (_, i) => `profiles/photos/${'x'.repeat(90)}/${i}.jpg`);
    const ids = await seedMany(account.accountId, 150, { photoKeys: padding });
    const profiles = await listed(account.apiKey);
    expect(profiles.map((p) => p.profile_id).sort()).toEqual(ids.sort());
    expect(profiles[0]).toEqual({ profile_id: expect.any(String), status: 'READY', tag: null });
  });

  it('is empty for an account without profiles, and filters by tag through the index', async () => {
    const account = await runtime.newAccount();
    expect(await listed(account.apiKey)).toEqual([]);
    const [tagged] = await seedMany(account.accountId, 1, { tag: 'vip' });
    await seedMany(account.accountId, 2);
    expect(await listed(account.apiKey, '?tag=vip')).toEqual([{ profile_id: tagged, status: 'READY', tag: 'vip' }]);
    expect(await listed(account.apiKey, '?tag=nobody')).toEqual([]);
  });

  it('refuses a tag query over 128 characters with 422 at the query', async () => {
    const response = await runtime.call('GET', `/v2/service/profiles/ids?tag=${'x'.repeat(129)}`, {
      apiKey: runtime.devAccount!.apiKey,
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: Array<{ loc: unknown[] }> }).detail[0]!.loc).toEqual(['query', 'tag']);
  });
});
