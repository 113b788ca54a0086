/**
 * Old and new code run side by side during a deploy (docs/deploy-aws.md, "Changing what is stored"), so:
 * - today's readers read every family as the previous code wrote it: the items in test/fixtures/records/,
 *   written by commit f2880e8's own writers (its README), are put into the table raw and read through
 *   today's repositories, checked for what a user sees;
 * - the previous code's readers read what today's writers write: items made by today's repositories parse
 *   with the previous schemas (rebuilt below from f2880e8) and show the same thing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AttributeValue, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { localCredentials } from '../../functions/adapters/aws-clients';
import { DynamoAccounts } from '../../functions/adapters/dynamo/accounts-repository';
import { DynamoBillingSettings } from '../../functions/adapters/dynamo/billing-settings';
import { DynamoJobs } from '../../functions/adapters/dynamo/jobs-repository';
import { DynamoLedger } from '../../functions/adapters/dynamo/ledger-repository';
import { DynamoProfiles } from '../../functions/adapters/dynamo/profiles-repository';
import { type ItemKey, keys, RECORD_VERSION } from '../../functions/adapters/dynamo/table';
import { DynamoTopUps } from '../../functions/adapters/dynamo/top-ups-repository';
import { EngineTicketSchema, JobErrorSchema, RunOutcomeSchema } from '../../functions/adapters/run-outcome';
import { LEGACY_KEY_SCOPES } from '../../functions/domain/accounts/scopes';
import type { EngineTicket } from '../../functions/domain/engine/engine';
import { OPERATIONS } from '../../functions/domain/engine/engine';
import { FACE_KINDS } from '../../functions/domain/faces';
import { JOB_MODES, JOB_STATUSES, workTicket } from '../../functions/domain/jobs/job';
import { PROFILE_STATUSES, type ProfileFace, TRAINING_TIERS } from '../../functions/domain/profiles/profile';
import { newId } from '../../functions/domain/shared/ids';
import { MODEL_VERSIONS } from '../../functions/domain/shared/model-version';
import { aJob, engineWork } from '../support/builders/jobs';
import { aProfile } from '../support/builders/profiles';
import { type DataBackend, startDataBackend } from '../support/data-backend';

const FIXTURES = join(__dirname, '..', 'fixtures', 'records');
const PREVIOUS_ACCOUNT = 'acc_previous';

const Fixture = v.object({
  commit: v.literal('f2880e8'),
  writtenBy: v.string(),
  items: v.array(
    v.record(
      v.string(),
      v.custom<AttributeValue>((value) => typeof value === 'object'),
    ),
  ),
});

let backend: DataBackend;
let raw: DynamoDBClient;

/** Puts a family's fixture items into the table exactly as stored (DynamoDB's own attribute-value JSON). */
const putFixture = async (family: string) => {
  const fixture = v.parse(Fixture, JSON.parse(readFileSync(join(FIXTURES, `${family}.json`), 'utf8')));
  for (const item of fixture.items) await raw.send(new PutItemCommand({ TableName: backend.table.name, Item: item }));
};

const FAMILIES = ['account', 'api-key', 'profile', 'job', 'ledger', 'top-up', 'billing-settings'];

beforeAll(async () => {
  backend = await startDataBackend();
  raw = new DynamoDBClient({ region: 'us-east-1', endpoint: backend.endpoint, credentials: localCredentials() });
  for (const family of FAMILIES) await putFixture(family);
});
afterAll(async () => {
  raw.destroy();
  await backend.close();
});

const previousTicket: EngineTicket = {
  engine: 'fal',
  model: 'fal-ai/example',
  requests: [{ id: 'req-1' }, { id: 'req-2' }],
  submittedAt: 1_790_000_005_000,
  webhook: true,
};

describe('today’s readers read what the previous code (f2880e8) wrote', () => {
  it('an account: its name, balance and the entries that sum to it', async () => {
    const ledger = new DynamoLedger(backend.table, newId);
    expect(await new DynamoAccounts(backend.table, newId).get(PREVIOUS_ACCOUNT)).toMatchObject({
      name: 'previous shape',
      balanceMicros: 32_960_000,
      defaultModelVersion: 'v2',
    });
    expect(await ledger.balance(PREVIOUS_ACCOUNT)).toBe(32_960_000);
    const page = await ledger.statement(PREVIOUS_ACCOUNT, { limit: 10 });
    expect(page.entries[0]?.balanceAfterMicros).toBe(32_960_000);
    expect(page.entries.at(-1)?.balanceAfterMicros).toBe(10_000_000);
  });

  it('an API key without scopes: found by its hash and listed, with every scope but billing', async () => {
    const accounts = new DynamoAccounts(backend.table, newId);
    const found = await accounts.findKeyByHash('a'.repeat(64));
    expect(found).toMatchObject({ keyId: 'key_previous', accountId: PREVIOUS_ACCOUNT, name: 'ci', revokedAt: null });
    expect(found?.scopes).toEqual(LEGACY_KEY_SCOPES);
    expect(found?.scopes).not.toContain('billing');
    const listed = await accounts.listKeys(PREVIOUS_ACCOUNT);
    expect(listed.map((key) => [key.keyId, key.scopes])).toEqual([['key_previous', LEGACY_KEY_SCOPES]]);
  });

  it('a READY profile with one template in `face`: its status, tag, picture and template', async () => {
    const profile = await new DynamoProfiles(backend.table).get(PREVIOUS_ACCOUNT, 'prf_previous');
    expect(profile).toMatchObject({
      status: 'READY',
      message: 'Ready.',
      tag: 'team',
      pictureKey: 'profiles/acc_previous/prf_previous/picture.jpg',
      moreFaces: [],
    });
    expect(profile?.face).toEqual({
      modelId: 'human-faceres-3.3.6/b2',
      kind: 'person',
      mean: [0.5, -0.25, 0.125, 1],
      referenceKeys: ['profiles/acc_previous/prf_previous/references/01.jpg'],
    });
    const listed = await new DynamoProfiles(backend.table).list(PREVIOUS_ACCOUNT, 'team');
    expect(listed.map((summary) => [summary.profileId, summary.status])).toEqual([['prf_previous', 'READY']]);
  });

  it('a running job with one ticket in `engineTicket`: its status, charge and ticket, which stays the work’s', async () => {
    const jobs = new DynamoJobs(backend.table);
    const job = await jobs.get(PREVIOUS_ACCOUNT, 'job_previous');
    expect(job).toMatchObject({
      status: 'running',
      operation: 'enhance',
      engineReported: ['req-1'],
      charge: { reservedMicros: 40_000, finalMicros: null },
    });
    expect(job?.engineTickets).toEqual([previousTicket]);
    expect(job?.work?.identityCheck).toBe('report');
    // Today's writers on the old item: the work's ticket is kept, a retry's goes after it.
    const other: EngineTicket = { engine: 'fal', requests: [{ id: 'req-other' }], submittedAt: 1 };
    expect(await jobs.recordTicket(PREVIOUS_ACCOUNT, 'job_previous', other)).toEqual(previousTicket);
    await jobs.addTicket(PREVIOUS_ACCOUNT, 'job_previous', other);
    const after = await jobs.get(PREVIOUS_ACCOUNT, 'job_previous');
    expect(after?.engineTickets).toEqual([previousTicket, other]);
    expect(after && workTicket(after)).toEqual(previousTicket);
  });

  it('the ledger’s entries: their kinds, amounts and owners, newest first', async () => {
    const page = await new DynamoLedger(backend.table, newId).statement(PREVIOUS_ACCOUNT, { limit: 10 });
    expect(page.entries.map((entry) => [entry.kind, entry.amountMicros, entry.owner?.id ?? null])).toEqual([
      ['credit', 25_000_000, null],
      ['reserve', -40_000, 'job_previous'],
      ['settle', 0, 'prf_previous'],
      ['reserve', -2_000_000, 'prf_previous'],
      ['credit', 10_000_000, null],
    ]);
    expect(page.entries.every((entry) => entry.retriedOutputs === undefined)).toBe(true);
  });

  it('a completed top-up: its status and credit, with no refund, dispute or recharge card', async () => {
    expect(await new DynamoTopUps(backend.table, newId).get(PREVIOUS_ACCOUNT, 'tup_previous')).toMatchObject({
      status: 'completed',
      amountMicros: 25_000_000,
      creditedMicros: 25_000_000,
      paymentIntentId: 'pi_previous',
      checkoutUrl: 'https://checkout.stripe.test/cs_previous',
      saveCard: true,
      refundedMicros: 0,
      disputedMicros: 0,
      refundFailedMicros: 0,
      failedRefundIds: [],
      disputeClosed: false,
      revision: 0,
      rechargeCard: null,
    });
  });

  it('billing settings: auto-recharge, the low-balance line and a card saved without a consent time', async () => {
    expect(await new DynamoBillingSettings(backend.table).get(PREVIOUS_ACCOUNT)).toEqual({
      autoRecharge: { enabled: true, thresholdMicros: 5_000_000, amountMicros: 20_000_000 },
      lowBalanceThresholdMicros: 2_000_000,
      webhookUrl: null,
      card: { customerId: 'cus_previous', paymentIntentId: 'pi_previous' },
      lastRechargeAt: 1_790_000_008_000,
      lowNotified: false,
      disabledReason: null,
    });
  });

  it('the fixtures are of the previous shape: no item carries a record version', async () => {
    const stored = await Promise.all(
      [keys.account(PREVIOUS_ACCOUNT), keys.job(PREVIOUS_ACCOUNT, 'job_previous')].map(getItem),
    );
    expect(stored.map((item) => item?.v)).toEqual([undefined, undefined]);
  });
});

const getItem = async (key: ItemKey) =>
  (await backend.table.doc.send(new GetCommand({ TableName: backend.table.name, Key: key, ConsistentRead: true })))
    .Item;

/**
 * The previous readers, as f2880e8 declared them (functions/adapters/dynamo/*.ts at that commit). The nested
 * schemas they used are today's: since f2880e8 those have only gained optional fields.
 */
const Previous = {
  ApiKeyItem: v.object({
    keyId: v.string(),
    accountId: v.string(),
    name: v.optional(v.nullable(v.string()), null),
    keyHash: v.string(),
    createdAt: v.number(),
    revokedAt: v.optional(v.nullable(v.number()), null),
    requestsPerMinute: v.optional(v.nullable(v.number()), null),
    runningJobs: v.optional(v.nullable(v.number()), null),
  }),
  ProfileItem: v.object({
    profileId: v.string(),
    accountId: v.string(),
    status: v.picklist(PROFILE_STATUSES),
    message: v.optional(v.string(), ''),
    tag: v.optional(v.nullable(v.string()), null),
    trainingTier: v.picklist(TRAINING_TIERS),
    modelVersion: v.picklist(MODEL_VERSIONS),
    signature: v.optional(v.nullable(v.string()), null),
    face: v.optional(
      v.nullable(
        v.object({
          modelId: v.string(),
          kind: v.picklist(FACE_KINDS),
          mean: v.string(),
          referenceKeys: v.array(v.string()),
        }),
      ),
      null,
    ),
    photoNotes: v.optional(v.array(v.string()), []),
    pictureKey: v.optional(v.nullable(v.string()), null),
    photoKeys: v.optional(v.array(v.string()), []),
    callbackUrl: v.optional(v.nullable(v.string()), null),
    trainingStartedAt: v.optional(v.nullable(v.number()), null),
    trainingSeconds: v.optional(v.nullable(v.number()), null),
    createdAt: v.number(),
    updatedAt: v.number(),
  }),
  JobItem: v.object({
    jobId: v.string(),
    accountId: v.string(),
    operation: v.picklist(OPERATIONS),
    mode: v.picklist(JOB_MODES),
    status: v.picklist(JOB_STATUSES),
    createdAt: v.number(),
    startedAt: v.optional(v.nullable(v.number()), null),
    completedAt: v.optional(v.nullable(v.number()), null),
    expiresAt: v.optional(v.nullable(v.number()), null),
    error: v.optional(v.nullable(JobErrorSchema), null),
    responseMode: v.optional(v.picklist(['bytes', 'urls']), 'bytes'),
    callbackUrl: v.optional(v.nullable(v.string()), null),
    clientRequestId: v.optional(v.nullable(v.string()), null),
    baseUrl: v.optional(v.string(), ''),
    cancelAt: v.optional(v.nullable(v.number()), null),
    progress: v.optional(v.nullable(v.number()), null),
    progressAt: v.optional(v.nullable(v.number()), null),
    engineTicket: v.optional(v.nullable(EngineTicketSchema), null),
    engineCallAt: v.optional(v.nullable(v.number()), null),
    engineRun: v.optional(v.nullable(RunOutcomeSchema), null),
    awaitToken: v.optional(v.nullable(v.string()), null),
    awaitSince: v.optional(v.nullable(v.number()), null),
    engineReported: v.optional(v.set(v.string()), () => new Set<string>()),
    reservedMicros: v.optional(v.number()),
    finalMicros: v.optional(v.number()),
  }),
};

const ACCOUNT = newId('acc');
const face = (modelId: string): ProfileFace => ({
  modelId,
  kind: 'person',
  mean: [0.25, 0.5],
  referenceKeys: ['references/01.jpg'],
});
const ticket = (id: string): EngineTicket => ({ engine: 'fal', requests: [{ id }], submittedAt: 1_000 });

describe('the previous readers read what today’s writers write', () => {
  beforeAll(async () => {
    await new DynamoAccounts(backend.table, newId).create(
      {
        accountId: ACCOUNT,
        name: 'today',
        balanceMicros: 10_000_000,
        defaultModelVersion: 'v2',
        createdAt: Date.now(),
      },
      'opening credit',
    );
  });

  it('a job with its work’s ticket and a retry’s: the previous reader sees the work’s ticket', async () => {
    const inputPose = { yawDegrees: 32.5, pitchDegrees: -4 };
    const job = aJob(ACCOUNT, { work: engineWork({ candidates: [{ profileId: 'prf_posed', inputPose }] }) });
    const jobs = new DynamoJobs(backend.table);
    await new DynamoLedger(backend.table, newId).reserve({
      accountId: ACCOUNT,
      amountMicros: 40_000,
      creates: { kind: 'job', job },
      at: Date.now(),
    });
    await jobs.markRunning(ACCOUNT, job.jobId, Date.now(), 10);
    await jobs.recordTicket(ACCOUNT, job.jobId, ticket('req-work'));
    await jobs.addTicket(ACCOUNT, job.jobId, ticket('req-retry'));
    const item = await getItem(keys.job(ACCOUNT, job.jobId));
    expect(item?.v).toBe(RECORD_VERSION.job);
    expect(v.parse(Previous.JobItem, item)).toMatchObject({
      jobId: job.jobId,
      status: 'running',
      engineTicket: ticket('req-work'),
      reservedMicros: 40_000,
    });
    // Today's reader keeps the subject's pose in the input (the optional attribute the reference choice reads).
    expect((await jobs.get(ACCOUNT, job.jobId))?.work?.engine.candidates).toEqual([
      { profileId: 'prf_posed', inputPose },
    ]);
  });

  it('a profile with templates of two face models: the previous reader sees the first, in `face`', async () => {
    const referencePoses = [{ yawDegrees: -12.5, pitchDegrees: 3.1, luminance: 0.462 }];
    const profile = aProfile(ACCOUNT, {
      face: { ...face('model-a'), referencePoses },
      moreFaces: [face('model-b')],
      tag: 'team',
    });
    await new DynamoLedger(backend.table, newId).reserve({
      accountId: ACCOUNT,
      amountMicros: 1_000_000,
      creates: { kind: 'profile', profile },
      at: Date.now(),
    });
    const item = await getItem(keys.profile(ACCOUNT, profile.profileId));
    expect(item?.v).toBe(RECORD_VERSION.profile);
    expect(v.parse(Previous.ProfileItem, item)).toMatchObject({
      profileId: profile.profileId,
      status: 'READY',
      tag: 'team',
      face: { modelId: 'model-a', kind: 'person', referenceKeys: ['references/01.jpg'] },
    });
    // Today's reader reads the reference bank's poses back beside their keys.
    expect((await new DynamoProfiles(backend.table).get(ACCOUNT, profile.profileId))?.face?.referencePoses).toEqual(
      referencePoses,
    );
  });

  it('an API key with scopes: the previous reader finds both of its items', async () => {
    const key = {
      keyId: newId('key'),
      accountId: ACCOUNT,
      name: 'images only',
      keyHash: 'b'.repeat(64),
      scopes: ['images'] as const,
      createdAt: Date.now(),
      revokedAt: null,
    };
    await new DynamoAccounts(backend.table, newId).createKey(key);
    for (const itemKey of [keys.apiKeyLookup(key.keyHash), keys.apiKey(ACCOUNT, key.keyId)]) {
      const item = await getItem(itemKey);
      expect(item?.v).toBe(RECORD_VERSION.apiKey);
      expect(v.parse(Previous.ApiKeyItem, item)).toMatchObject({ keyId: key.keyId, revokedAt: null });
    }
  });

  it('every family today writes carries its record version', async () => {
    expect((await getItem(keys.account(ACCOUNT)))?.v).toBe(RECORD_VERSION.account);
    const [entry] = await new DynamoLedger(backend.table, newId).allEntries(ACCOUNT);
    expect((await getItem(keys.ledgerEntry(ACCOUNT, entry?.entryId ?? '')))?.v).toBe(RECORD_VERSION.ledger);
    const topUpId = newId('tup');
    await new DynamoTopUps(backend.table, newId).create({
      topUpId,
      accountId: ACCOUNT,
      amountMicros: 25_000_000,
      status: 'pending',
      createdAt: Date.now(),
      checkoutSessionId: null,
      checkoutUrl: null,
      creditedMicros: null,
      paymentIntentId: null,
      completedAt: null,
      refundedMicros: 0,
      disputedMicros: 0,
    });
    expect((await getItem(keys.topUp(ACCOUNT, topUpId)))?.v).toBe(RECORD_VERSION.topUp);
    await new DynamoBillingSettings(backend.table).update(ACCOUNT, { webhookUrl: 'https://example.test/hook' });
    expect((await getItem(keys.billingSettings(ACCOUNT)))?.v).toBe(RECORD_VERSION.billingSettings);
  });
});
