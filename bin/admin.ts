/**
 * `npm run admin -- <command> [flags]`: operate accounts, keys and balances, locally or on AWS.
 *
 *   create-account --name NAME [--credit USD] [--model-version v1|v2]
 *   create-key     --account ACCOUNT_ID [--name NAME] [--scopes images,profiles,jobs,account:read,billing]
 *   invite         --email EMAIL [--credit USD] [--portal-url URL]   (the portal sign-up link, shown once)
 *   list-invitations
 *   revoke-key     --account ACCOUNT_ID --key KEY_ID
 *   list-keys      --account ACCOUNT_ID
 *   credit         --account ACCOUNT_ID --amount USD [--note TEXT]
 *   show           --account ACCOUNT_ID [--entries N]
 *   limits         --account ACCOUNT_ID [--requests-per-minute N|default] [--running-jobs N|default]
 *   reembed-profiles [--bucket NAME] [--s3-endpoint URL] [--concurrency N]
 *                  (READY profiles without a face template of the installed face model get one from their photos)
 *   reembed-profiles --status [--model-id ID]
 *                  (how many READY profiles have a template of the model, and the backfill's progress and failures)
 *
 * Target: --table NAME (or SERVICE_TABLE_NAME) and --region (or AWS_REGION) for AWS; the local runtime
 * with --local (the default when no table is named): the running `npm start` if there is one, else the
 * data directory (--data-dir, default .data) opened directly. reembed-profiles also needs the bucket:
 * --bucket (or SERVICE_BUCKET_NAME) on AWS, the runtime's or the data directory's locally.
 */
// The local tools run on Node 20 (the deployed functions on Node 22): the SDK's notice is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoAccounts } from '../functions/adapters/dynamo/accounts-repository';
import { DynamoLedger } from '../functions/adapters/dynamo/ledger-repository';
import { DynamoPortal } from '../functions/adapters/dynamo/portal-repository';
import { openTable } from '../functions/adapters/dynamo/table';
import { createObjectStore, type ObjectStore } from '../functions/adapters/s3/object-store';
import * as Accounts from '../functions/domain/accounts/accounts';
import { API_SCOPES, chosenScopes, DEFAULT_KEY_SCOPES } from '../functions/domain/accounts/scopes';
import { DomainError, NotFoundError } from '../functions/domain/errors';
import { DEFAULT_INVITATION_CREDIT_MICROS, invite } from '../functions/domain/portal/portal';
import { reembedProfiles, reembedStatus } from '../functions/domain/profiles/reembed';
import { systemClock } from '../functions/domain/shared/clock';
import { newId } from '../functions/domain/shared/ids';
import { formatUsd, parseUsd } from '../functions/domain/shared/money';
import { LOCAL_REGION } from './local-aws/arns';
import { startLocalDynamo } from './local-aws/dynamo';
import { ROOT_DIR } from './local-aws/runtime';
import { startLocalS3 } from './local-aws/s3';
import { ensureTable } from './local-aws/table';
import { installedModelId, reembedDeps, reembedStatusDeps } from './reembed-profiles';

class UsageError extends Error {}

const USAGE = `usage: npm run admin -- <command> [flags]
  create-account --name NAME [--credit USD] [--model-version v1|v2]
  create-key     --account ACCOUNT_ID [--name NAME] [--scopes SCOPE,…]   (${API_SCOPES.join(', ')};
                 default ${DEFAULT_KEY_SCOPES.join(',')})
  invite         --email EMAIL [--credit USD] [--portal-url URL]   (prints the portal sign-up link, shown once)
  list-invitations
  revoke-key     --account ACCOUNT_ID --key KEY_ID
  list-keys      --account ACCOUNT_ID
  credit         --account ACCOUNT_ID --amount USD [--note TEXT]
  show           --account ACCOUNT_ID [--entries N]
  limits         --account ACCOUNT_ID [--requests-per-minute N|default] [--running-jobs N|default]
  reembed-profiles [--bucket NAME] [--s3-endpoint URL] [--concurrency N]   (face templates of the installed model, from stored photos)
  reembed-profiles --status [--model-id ID]   (the backfill's progress: READY profiles with the model's template, failures)
target: --table NAME --region REGION [--endpoint URL] for AWS, or --local [--data-dir DIR] (default)`;

const required = (value: string | undefined, flag: string): string => {
  if (!value) throw new UsageError(`--${flag} is required`);
  return value;
};

const usd = (value: string, flag: string): number => {
  const micros = parseUsd(value);
  if (micros === undefined)
    throw new UsageError(`--${flag} must be an amount in dollars such as 10 or 2.90, not "${value}"`);
  return micros;
};

/** Where the table is: AWS, the running local runtime, or the local data directory opened directly. */
const openTarget = async (values: Record<string, string | boolean | undefined>) => {
  const tableName = (values.table as string | undefined) ?? process.env.SERVICE_TABLE_NAME;
  if (tableName && !values.local) {
    const region = (values.region as string | undefined) ?? process.env.AWS_REGION;
    if (!region) throw new UsageError('--region (or AWS_REGION) is required with --table');
    return {
      table: openTable({ tableName, region, endpoint: values.endpoint as string | undefined }),
      close: async () => undefined,
    };
  }
  const dataDir = path.resolve(ROOT_DIR, (values['data-dir'] as string | undefined) ?? '.data');
  const runtimeFile = path.join(dataDir, 'runtime.json');
  if (fs.existsSync(runtimeFile)) {
    const { dynamodbEndpoint, pid } = JSON.parse(fs.readFileSync(runtimeFile, 'utf8')) as {
      dynamodbEndpoint: string;
      pid: number;
    };
    if (isAlive(pid))
      return {
        table: openTable({ tableName: 'service', region: LOCAL_REGION, endpoint: dynamodbEndpoint }),
        close: async () => undefined,
      };
  }
  const dynamo = await startLocalDynamo({ dataDir: path.join(dataDir, 'dynamodb') });
  await ensureTable(dynamo.endpoint, 'service');
  return {
    table: openTable({ tableName: 'service', region: LOCAL_REGION, endpoint: dynamo.endpoint }),
    close: dynamo.close,
  };
};

/** Where the bucket is: AWS, the running local runtime's S3, or the data directory's opened directly. */
const openBucket = async (
  values: Record<string, string | boolean | undefined>,
): Promise<{ objects: ObjectStore; close: () => Promise<void> }> => {
  const tableName = (values.table as string | undefined) ?? process.env.SERVICE_TABLE_NAME;
  if (tableName && !values.local) {
    const bucket = (values.bucket as string | undefined) ?? process.env.SERVICE_BUCKET_NAME;
    if (!bucket) throw new UsageError('--bucket (or SERVICE_BUCKET_NAME) is required with --table');
    const region = (values.region as string | undefined) ?? process.env.AWS_REGION ?? LOCAL_REGION;
    const endpoint = values['s3-endpoint'] as string | undefined;
    return { objects: createObjectStore({ bucket, region, endpoint }), close: async () => undefined };
  }
  const dataDir = path.resolve(ROOT_DIR, (values['data-dir'] as string | undefined) ?? '.data');
  const runtimeFile = path.join(dataDir, 'runtime.json');
  if (fs.existsSync(runtimeFile)) {
    const { s3Endpoint, pid } = JSON.parse(fs.readFileSync(runtimeFile, 'utf8')) as {
      s3Endpoint?: string;
      pid: number;
    };
    if (isAlive(pid)) {
      if (!s3Endpoint) throw new UsageError('restart npm start: this runtime does not say where its S3 is');
      return {
        objects: createObjectStore({ bucket: LOCAL_BUCKET, region: LOCAL_REGION, endpoint: s3Endpoint }),
        close: async () => undefined,
      };
    }
  }
  const s3 = await startLocalS3({ dataDir: path.join(dataDir, 's3'), bucket: LOCAL_BUCKET });
  return {
    objects: createObjectStore({ bucket: LOCAL_BUCKET, region: LOCAL_REGION, endpoint: s3.endpoint }),
    close: s3.close,
  };
};

/** The local runtime's bucket (bin/local-aws/runtime.ts). */
const LOCAL_BUCKET = 'service-local';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** `--scopes images,jobs`: each a known scope (else a usage error, exit 2); absent: the default, without billing. */
const keyScopes = (text: string | undefined) => {
  if (text === undefined) return DEFAULT_KEY_SCOPES;
  const requested = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  try {
    return chosenScopes(requested);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
};

const main = async (argv: string[]): Promise<void> => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      credit: { type: 'string' },
      'model-version': { type: 'string' },
      account: { type: 'string' },
      key: { type: 'string' },
      scopes: { type: 'string' },
      amount: { type: 'string' },
      note: { type: 'string' },
      entries: { type: 'string' },
      'requests-per-minute': { type: 'string' },
      'running-jobs': { type: 'string' },
      table: { type: 'string' },
      region: { type: 'string' },
      endpoint: { type: 'string' },
      local: { type: 'boolean' },
      'data-dir': { type: 'string' },
      email: { type: 'string' },
      'portal-url': { type: 'string' },
      bucket: { type: 'string' },
      's3-endpoint': { type: 'string' },
      status: { type: 'boolean' },
      'model-id': { type: 'string' },
      concurrency: { type: 'string' },
    },
  });
  const [command] = positionals;
  if (!command) throw new UsageError('a command is required');
  const commands = [
    'create-account',
    'create-key',
    'revoke-key',
    'list-keys',
    'credit',
    'show',
    'limits',
    'invite',
    'list-invitations',
    'reembed-profiles',
  ];
  if (!commands.includes(command)) throw new UsageError(`unknown command "${command}"`);
  const modelVersion = values['model-version'];
  if (modelVersion !== undefined && modelVersion !== 'v1' && modelVersion !== 'v2')
    throw new UsageError('--model-version must be v1 or v2');
  const entries = Number(values.entries ?? 10);
  if (!Number.isInteger(entries) || entries < 1 || entries > 1000)
    throw new UsageError('--entries must be a whole number from 1 to 1000');

  const target = await openTarget(values);
  try {
    const accounts = new DynamoAccounts(target.table, newId);
    const ledger = new DynamoLedger(target.table, newId);
    const deps = { accounts, ledger, clock: systemClock, newId };
    const print = (value: unknown): void => {
      process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    };
    const portal = new DynamoPortal(target.table, newId);
    switch (command) {
      case 'reembed-profiles': {
        if (values.status)
          return print(await reembedStatus(reembedStatusDeps(target.table), values['model-id'] ?? installedModelId()));
        const concurrency = Number(values.concurrency ?? 4);
        if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
          throw new UsageError('--concurrency must be a whole number from 1 to 64');
        const bucket = await openBucket(values);
        try {
          return print(await reembedProfiles(reembedDeps(target.table, bucket.objects), concurrency));
        } finally {
          await bucket.close();
        }
      }
      case 'invite': {
        const creditMicros =
          values.credit === undefined ? DEFAULT_INVITATION_CREDIT_MICROS : usd(values.credit, 'credit');
        const { token, invitation } = await invite(
          { portal, clock: systemClock },
          { email: required(values.email, 'email'), creditMicros },
        );
        const portalUrl = (values['portal-url'] ?? process.env.PORTAL_URL ?? 'http://127.0.0.1:3000').replace(
          /\/+$/,
          '',
        );
        return print({
          email: invitation.email,
          credit: formatUsd(invitation.creditMicros),
          expires_at: new Date(invitation.expiresAt).toISOString(),
          link: `${portalUrl}/portal#/signup?invitation=${token}`,
          note: 'Send the link to the developer; it is shown once (only its hash is stored) and works once.',
        });
      }
      case 'list-invitations':
        return print(
          (await portal.listInvitations()).map((i) => ({
            email: i.email,
            credit: formatUsd(i.creditMicros),
            created_at: new Date(i.createdAt).toISOString(),
            expires_at: new Date(i.expiresAt).toISOString(),
            accepted_at: i.acceptedAt === null ? null : new Date(i.acceptedAt).toISOString(),
          })),
        );
      case 'create-account': {
        const { account, key } = await Accounts.open(deps, {
          name: required(values.name, 'name'),
          openingCreditMicros: values.credit === undefined ? 0 : usd(values.credit, 'credit'),
          defaultModelVersion: modelVersion,
        });
        return print({
          account_id: account.accountId,
          balance: formatUsd(account.balanceMicros),
          default_model_version: account.defaultModelVersion,
          key_id: key.keyId,
          api_key: key.apiKey,
          note: 'The API key is shown once; only its hash is stored.',
        });
      }
      case 'create-key': {
        const scopes = keyScopes(values.scopes);
        const key = await Accounts.issueKey(deps, required(values.account, 'account'), values.name ?? null, scopes);
        return print({
          key_id: key.keyId,
          scopes,
          api_key: key.apiKey,
          note: 'The API key is shown once; only its hash is stored.',
        });
      }
      case 'revoke-key':
        await Accounts.revokeKey(deps, required(values.account, 'account'), required(values.key, 'key'));
        return print({ revoked: values.key });
      case 'list-keys':
        return print(
          (await accounts.listKeys(required(values.account, 'account'))).map((k) => ({
            key_id: k.keyId,
            name: k.name ?? null,
            scopes: k.scopes,
            created_at: new Date(k.createdAt).toISOString(),
            revoked_at: k.revokedAt ? new Date(k.revokedAt).toISOString() : null,
          })),
        );
      case 'credit': {
        const entry = await Accounts.creditBalance(deps, {
          accountId: required(values.account, 'account'),
          amountMicros: usd(required(values.amount, 'amount'), 'amount'),
          note: values.note ?? 'admin credit',
        });
        return print({
          entry_id: entry.entryId,
          credited: formatUsd(entry.amountMicros),
          balance: formatUsd(await ledger.balance(entry.accountId)),
        });
      }
      case 'limits': {
        const accountId = required(values.account, 'account');
        const given = [
          ['requests-per-minute', 'requestsPerMinute'],
          ['running-jobs', 'runningJobs'],
        ] as const;
        const changes = given.flatMap(([flag, limit]) => {
          const raw = values[flag];
          if (raw === undefined) return [];
          const value = raw === 'default' ? null : Number(raw);
          if (value !== null && (!Number.isSafeInteger(value) || value < 1))
            throw new UsageError(`--${flag} must be a whole number of at least 1, or default`);
          return [{ limit, value }];
        });
        if (changes.length === 0) throw new UsageError('limits needs --requests-per-minute or --running-jobs');
        for (const { limit, value } of changes) await Accounts.setLimit(deps, accountId, limit, value);
        const account = await accounts.get(accountId);
        if (!account) throw new UsageError(`No account ${accountId}`);
        return print({
          account_id: accountId,
          requests_per_minute: account.requestsPerMinute ?? 'default',
          running_jobs: account.runningJobs ?? 'default',
          note: 'Warm functions apply them within the API key cache period (30 s).',
        });
      }
      case 'show': {
        const accountId = required(values.account, 'account');
        const account = await accounts.get(accountId);
        if (!account) throw new NotFoundError(`Account ${accountId} not found.`);
        const recent = await ledger.recentEntries(accountId, entries);
        return print({
          account_id: account.accountId,
          name: account.name,
          balance: formatUsd(await ledger.balance(accountId)),
          default_model_version: account.defaultModelVersion,
          requests_per_minute: account.requestsPerMinute ?? 'default',
          running_jobs: account.runningJobs ?? 'default',
          recent_entries: recent.map((e) => ({
            entry_id: e.entryId,
            kind: e.kind,
            amount: formatUsd(e.amountMicros),
            owner: e.owner,
            note: e.note,
            at: new Date(e.createdAt).toISOString(),
          })),
        });
      }
    }
  } finally {
    await target.close();
  }
};

main(process.argv.slice(2)).catch((error: unknown) => {
  if (
    error instanceof UsageError ||
    (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
  ) {
    console.error(`error: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(
    `error: ${error instanceof DomainError ? error.message : error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
