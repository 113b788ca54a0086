/**
 * Profiles at scale (issue): `GET /v2/service/profiles/ids` over 10 000 profiles of one account (all of
 * them, every page) and with `?tag=`, and a 1000-entry `POST /v2/service/profiles/tags` backfill.
 *
 * The profiles are written straight into the table as training leaves them (like test/support/profiles.ts
 * `seedProfile`, batched 25 to a BatchWriteItem), 10% tagged `vip` with their tag-index keys. Calls go
 * through the local gateway with the development key; the DynamoDB commands each call sends are counted
 * on the service's client (support/dynamo-ops.ts), so the pages of a listing and the reads and writes
 * of a backfill are reported next to the time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { type LocalRuntime, startLocalRuntime } from '../bin/local-aws/runtime';
import { services } from '../bin/local-aws/services';
import { profileItem } from '../functions/adapters/dynamo/records';
import type { TagReport } from '../functions/domain/profiles/tags';
import { newId } from '../functions/domain/shared/ids';
import { aProfile } from '../test/support/builders/profiles';
import { type BenchResult, median, progress, round, summarise, timed } from './harness';
import { countDynamoOps, type OpCounter, type OpCounts, perUnit } from './support/dynamo-ops';

export const name = 'profiles';

const PROFILES = 10_000;
const TAGGED_SHARE = 0.1;
const TAG = 'vip';
const OTHER_TAG = 'gold';
const LIST_RUNS = 5;
const BACKFILL_RUNS = 3;
const BACKFILL_MIX = { untagged: 700, sameTag: 100, otherTag: 100, unknown: 100 } as const;
const BATCH_WRITE_LIMIT = 25;
const SEED_CONCURRENCY = 4;
const SEQUENTIAL_UPDATES = 100;

interface Api {
  url: string;
  apiKey: string;
  accountId: string;
}

export const run = async (): Promise<BenchResult[]> => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-profiles-'));
  const runtime = await startLocalRuntime({ dataDir, logLevel: 'silent', devAccountCreditMicros: 1_000_000_000 });
  try {
    return await measure(runtime);
  } finally {
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

const measure = async (runtime: LocalRuntime): Promise<BenchResult[]> => {
  const devAccount = runtime.devAccount;
  if (!devAccount) throw new Error('the local runtime made no development account');
  const api: Api = { url: runtime.url, apiKey: devAccount.apiKey, accountId: devAccount.accountId };
  const counter = countDynamoOps(services().table);

  progress(
    name,
    `seeding ${PROFILES} profiles (${TAGGED_SHARE * 100}% tagged ${TAG}), ${BATCH_WRITE_LIMIT} per BatchWriteItem`,
  );
  counter.paused = true;
  const seeding = await timed(() => seedProfiles(devAccount.accountId));
  counter.paused = false;
  const { untagged, tagged } = seeding.value;

  const results: BenchResult[] = [
    {
      metric: 'profiles.seed.seconds',
      value: round(seeding.ms / 1000, 1),
      unit: 's',
      notes: `${PROFILES} profiles by BatchWriteItem (${Math.ceil(PROFILES / BATCH_WRITE_LIMIT)} calls, ${SEED_CONCURRENCY} at a time); setup, not a service path`,
    },
  ];

  progress(name, `GET /profiles/ids: all ${PROFILES}, then ?tag=${TAG}; ${LIST_RUNS} runs each`);
  results.push(...(await measureList(api, counter, undefined, PROFILES)));
  results.push(...(await measureList(api, counter, TAG, tagged.length)));

  progress(name, `POST /profiles/tags: ${BACKFILL_RUNS} backfills of 1000 entries on fresh profiles`);
  results.push(...(await measureBackfill(api, counter, untagged, tagged)));
  return results;
};

// ---- seeding ----

const seedProfiles = async (accountId: string): Promise<{ untagged: string[]; tagged: string[] }> => {
  const { table } = services();
  const now = Date.now();
  const untagged: string[] = [];
  const tagged: string[] = [];
  const items = Array.from({ length: PROFILES }, (_, index) => {
    const tag = index % Math.round(1 / TAGGED_SHARE) === 0 ? TAG : null;
    const profile = aProfile(accountId, { tag }, now);
    (tag ? tagged : untagged).push(profile.profileId);
    return {
      ...profileItem(profile),
      chargeState: 'settled',
      reservedMicros: 0,
    };
  });
  const batches: Array<typeof items> = [];
  for (let start = 0; start < items.length; start += BATCH_WRITE_LIMIT)
    batches.push(items.slice(start, start + BATCH_WRITE_LIMIT));
  let next = 0;
  const writer = async () => {
    while (next < batches.length) {
      let request: Record<string, Array<{ PutRequest?: { Item?: Record<string, unknown> } }>> | undefined = {
        [table.name]: batches[next++].map((Item) => ({ PutRequest: { Item } })),
      };
      while (request && Object.keys(request).length > 0) {
        const answer = await table.doc.send(new BatchWriteCommand({ RequestItems: request as never }));
        request = answer.UnprocessedItems as typeof request;
      }
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, writer));
  return { untagged, tagged };
};

// ---- listing ----

const listOnce = async (api: Api, tag: string | undefined) => {
  const query = tag === undefined ? '' : `?tag=${encodeURIComponent(tag)}`;
  const response = await fetch(`${api.url}/v2/service/profiles/ids${query}`, { headers: { 'X-API-Key': api.apiKey } });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`GET /profiles/ids${query} answered ${response.status}: ${text.slice(0, 200)}`);
  return { count: (JSON.parse(text) as { profiles: unknown[] }).profiles.length, bytes: Buffer.byteLength(text) };
};

/** Commands of one window other than the periodic key-cache refresh. */
const withoutKeyReads = (counts: OpCounts): { commands: number; byItem: Record<string, number> } => {
  const byItem = { ...counts.byItem };
  const keyReads = byItem['GetItem APIKEY'] ?? 0;
  delete byItem['GetItem APIKEY'];
  return { commands: counts.commands - keyReads, byItem };
};

const measureList = async (
  api: Api,
  counter: OpCounter,
  tag: string | undefined,
  expected: number,
): Promise<BenchResult[]> => {
  const label = tag === undefined ? 'all' : `tag_${tag}`;
  await listOnce(api, tag); // loads the handler module, caches the key
  const times: number[] = [];
  const pages: number[] = [];
  let bytes = 0;
  for (let round = 0; round < LIST_RUNS; round += 1) {
    counter.reset();
    const { ms, value } = await timed(() => listOnce(api, tag));
    if (value.count !== expected)
      throw new Error(`GET /profiles/ids${tag ? `?tag=${tag}` : ''} returned ${value.count} profiles, not ${expected}`);
    times.push(ms);
    pages.push(withoutKeyReads(counter.snapshot()).byItem[tag === undefined ? 'Query' : 'Query gsi1'] ?? 0);
    bytes = value.bytes;
  }
  // The repository alone (the Query pages and item parsing), without the gateway and the JSON answer.
  const repository: number[] = [];
  const queryMs: number[] = [];
  for (let round = 0; round < LIST_RUNS; round += 1) {
    counter.reset();
    const { ms, value } = await timed(() => services().profiles.list(api.accountId, tag));
    if (value.length !== expected) throw new Error(`profiles.list returned ${value.length}, not ${expected}`);
    repository.push(ms);
    queryMs.push((counter.snapshot().latencies.Query ?? []).reduce((sum, page) => sum + page, 0));
  }
  const summary = summarise(times);
  const what =
    tag === undefined
      ? `all ${expected} profiles of the account`
      : `the ${expected} profiles tagged ${tag} (index gsi1)`;
  return [
    {
      metric: `profiles.ids.${label}.median_ms`,
      value: round(summary.median),
      unit: 'ms',
      notes: `GET /v2/service/profiles/ids${tag ? `?tag=${tag}` : ''}: ${what}, ${round(bytes / 1024)} KB answer; ${LIST_RUNS} runs, min ${round(summary.min)}, max ${round(summary.max)}`,
    },
    {
      metric: `profiles.ids.${label}.queries_per_call`,
      value: median(pages),
      unit: 'pages',
      notes: `Query commands (pages of at most 1 MB) per call, ${round(expected / Math.max(1, median(pages)))} profiles a page`,
    },
    {
      metric: `profiles.ids.${label}.repository_median_ms`,
      value: round(median(repository)),
      unit: 'ms',
      notes: `profiles.list in process, without gateway, auth and JSON answer: of it, the Query calls ${round(median(queryMs))} ms (SDK + the local store), the rest is the items' validation`,
    },
  ];
};

// ---- backfill ----

/** A deterministic shuffle, so the mix is interleaved the same way every run. */
const shuffled = <T>(values: T[], seed: number): T[] => {
  const result = [...values];
  let state = seed;
  for (let index = result.length - 1; index > 0; index -= 1) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const other = state % (index + 1);
    [result[index], result[other]] = [result[other], result[index]];
  }
  return result;
};

const backfill = async (api: Api, entries: Array<{ profile_id: string; tag: string }>): Promise<TagReport> => {
  const response = await fetch(`${api.url}/v2/service/profiles/tags`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': api.apiKey },
    body: JSON.stringify({ tags: entries }),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`POST /profiles/tags answered ${response.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as TagReport;
};

const measureBackfill = async (
  api: Api,
  counter: OpCounter,
  untagged: string[],
  tagged: string[],
): Promise<BenchResult[]> => {
  const { untagged: freshCount, sameTag, otherTag, unknown } = BACKFILL_MIX;
  if (untagged.length < freshCount * BACKFILL_RUNS || tagged.length < sameTag + otherTag)
    throw new Error('not enough seeded profiles for the backfills');
  await backfill(api, [{ profile_id: newId('prf'), tag: TAG }]); // loads the handler module

  const times: number[] = [];
  const counts: OpCounts[] = [];
  for (let round = 0; round < BACKFILL_RUNS; round += 1) {
    // Fresh untagged profiles each round; the tagged ones are only read (their entries write nothing).
    const entries = shuffled(
      [
        ...untagged.slice(round * freshCount, (round + 1) * freshCount).map((profile_id) => ({ profile_id, tag: TAG })),
        ...tagged.slice(0, sameTag).map((profile_id) => ({ profile_id, tag: TAG })),
        ...tagged.slice(sameTag, sameTag + otherTag).map((profile_id) => ({ profile_id, tag: OTHER_TAG })),
        ...Array.from({ length: unknown }, () => ({ profile_id: newId('prf'), tag: TAG })),
      ],
      round + 1,
    );
    counter.reset();
    const { ms, value: report } = await timed(() => backfill(api, entries));
    const expected = { updated: freshCount, already_tagged: sameTag, conflicts: otherTag, not_found: unknown };
    const got = {
      updated: report.updated,
      already_tagged: report.already_tagged.length,
      conflicts: report.conflicts.length,
      not_found: report.not_found.length,
    };
    if (JSON.stringify(got) !== JSON.stringify(expected))
      throw new Error(`backfill ${round + 1} reported ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
    times.push(ms);
    counts.push(counter.snapshot());
  }

  // One conditional UpdateItem at a time, in process, on more fresh profiles: the floor of a write here.
  const spare = untagged.slice(freshCount * BACKFILL_RUNS, freshCount * BACKFILL_RUNS + SEQUENTIAL_UPDATES);
  const updateTimes: number[] = [];
  for (const profileId of spare) {
    const { ms, value } = await timed(() => services().profiles.setTagIfUntagged(api.accountId, profileId, TAG));
    if (value.outcome !== 'updated') throw new Error(`setTagIfUntagged(${profileId}) answered ${value.outcome}`);
    updateTimes.push(ms);
  }

  const summary = summarise(times);
  const middle = counts[times.indexOf([...times].sort((a, b) => a - b)[Math.floor(times.length / 2)])];
  const ops = withoutKeyReads(middle);
  const command = (commandName: string) => middle.byCommand[commandName] ?? 0;
  const latency = (commandName: string) => {
    const samples = middle.latencies[commandName] ?? [];
    return samples.length === 0
      ? 'none'
      : `p50 ${round(median(samples))} ms, total ${round(samples.reduce((sum, value) => sum + value, 0))} ms`;
  };
  return [
    {
      metric: 'profiles.tags.backfill_1000.median_ms',
      value: round(summary.median),
      unit: 'ms',
      notes: `POST /v2/service/profiles/tags, 1000 entries: ${freshCount} untagged → updated, ${sameTag} same tag → already_tagged, ${otherTag} other tag → conflicts, ${unknown} unknown → not_found; ${BACKFILL_RUNS} runs on fresh profiles, min ${round(summary.min)}, max ${round(summary.max)}`,
    },
    {
      metric: 'profiles.tags.backfill_1000.batch_get_calls',
      value: command('BatchGetItem'),
      unit: 'calls',
      notes: `BatchGetItem (100 keys each, one after another) for the 1000 ids; client side ${latency('BatchGetItem')}`,
    },
    {
      metric: 'profiles.tags.backfill_1000.update_calls',
      value: command('UpdateItem'),
      unit: 'calls',
      notes: `conditional UpdateItem, one per untagged profile, 16 in flight; client side ${latency('UpdateItem')} (the local store runs one request at a time); all commands of the median run: ${perUnit(ops.byItem, 1, 0)}`,
    },
    {
      metric: 'profiles.tags.update_item_sequential.median_ms',
      value: round(median(updateTimes), 2),
      unit: 'ms',
      notes: `one setTagIfUntagged (conditional UpdateItem) at a time, in process, ${SEQUENTIAL_UPDATES} calls; × ${freshCount} = ${round((median(updateTimes) * freshCount) / 1000, 2)} s, the floor of the backfill's writes while the local shim runs one request at a time`,
    },
    {
      metric: 'profiles.tags.backfill_1000.dynamodb_ops',
      value: ops.commands,
      unit: 'ops',
      notes: `every command of the median run, key-cache refresh excluded; HTTP attempts ${middle.attempts} for ${middle.commands} commands`,
    },
  ];
};
