import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { type EngineTicket, INPUT_FORMATS, OPERATIONS, OUTPUT_FORMATS } from '../../domain/engine/engine';
import { IDENTITY_CHECKS } from '../../domain/engine/identity';
import { InvalidRequestError, NotFoundError } from '../../domain/errors';
import {
  JOB_MODES,
  JOB_STATUSES,
  type Job,
  type JobPage,
  type JobPageQuery,
  type JobsRepository,
  type RunOutcome,
  workTicket,
} from '../../domain/jobs/job';
import {
  EngineTicketSchema,
  IdentityReportSchema,
  IdentityRetriesSchema,
  JobErrorSchema,
  PricedSchema,
  RecognizedFaceSchema,
  RunOutcomeSchema,
} from '../run-outcome';
import {
  cancellationReasons,
  ITEM_TYPE,
  isConditionalCheckFailure,
  keys,
  SORT_KEY_PREFIX,
  type Table,
  transactWrite,
} from './table';

const EngineParamsItem = v.object({
  operation: v.picklist(OPERATIONS),
  prompt: v.string(),
  width: v.number(),
  height: v.number(),
  outputFormat: v.picklist(OUTPUT_FORMATS),
  numOutputImages: v.number(),
  baseModel: v.string(),
  quality: v.optional(v.string()),
  // Jobs written before recognition moved out of the engine also carry a `signature`, read past here.
  candidates: v.array(
    v.object({
      profileId: v.string(),
      // The subject's head pose in the input (reference-choice.ts); absent on older jobs and when not found.
      inputPose: v.optional(v.object({ yawDegrees: v.number(), pitchDegrees: v.number() })),
    }),
  ),
  namedInPrompt: v.array(v.string()),
});

const JobWorkItem = v.object({
  engine: EngineParamsItem,
  inputs: v.array(
    v.object({
      key: v.string(),
      // Jobs stored before the format was the bytes' own may say `heif` of JPEG bytes; the loader reads
      // the bytes' format anyway (job-files.ts), so this only keeps such a record readable.
      format: v.pipe(
        v.picklist(INPUT_FORMATS),
        v.transform((format) => (format === 'heif' ? 'jpeg' : format)),
      ),
      width: v.number(),
      height: v.number(),
    }),
  ),
  priced: PricedSchema,
  // Absent on jobs submitted before the field existed: they report.
  identityCheck: v.optional(v.picklist(IDENTITY_CHECKS), 'report'),
});

const JobItem = v.object({
  jobId: v.string(),
  accountId: v.string(),
  operation: v.picklist(OPERATIONS),
  mode: v.picklist(JOB_MODES),
  status: v.picklist(JOB_STATUSES),
  createdAt: v.number(),
  startedAt: v.optional(v.nullable(v.number()), null),
  completedAt: v.optional(v.nullable(v.number()), null),
  expiresAt: v.optional(v.nullable(v.number()), null),
  result: v.optional(
    v.nullable(
      v.object({
        outputKeys: v.array(v.string()),
        outputFormat: v.picklist(OUTPUT_FORMATS),
        knownSubjects: v.record(v.string(), v.number()),
        recognizedFaces: v.optional(v.array(RecognizedFaceSchema)),
        identity: v.optional(IdentityReportSchema),
        identityRetries: v.optional(IdentityRetriesSchema),
        providerCostMicros: v.optional(v.number()),
      }),
    ),
    null,
  ),
  error: v.optional(v.nullable(JobErrorSchema), null),
  responseMode: v.optional(v.picklist(['bytes', 'urls']), 'bytes'),
  callbackUrl: v.optional(v.nullable(v.string()), null),
  clientRequestId: v.optional(v.nullable(v.string()), null),
  baseUrl: v.optional(v.string(), ''),
  cancelAt: v.optional(v.nullable(v.number()), null),
  progress: v.optional(v.nullable(v.number()), null),
  progressAt: v.optional(v.nullable(v.number()), null),
  work: v.optional(v.nullable(JobWorkItem), null),
  // Every ticket the job opened, in order: the work's (recordTicket) in `engineTicket`, where every earlier
  // reader looks for it (to check, cancel and match reports), and the others (addTicket) in `engineTickets`
  // after it. A job stored before that may hold its work's ticket first in `engineTickets`: read the same.
  engineTicket: v.optional(v.nullable(EngineTicketSchema), null),
  engineTickets: v.optional(v.array(EngineTicketSchema), []),
  engineCallAt: v.optional(v.nullable(v.number()), null),
  engineRun: v.optional(v.nullable(RunOutcomeSchema), null),
  awaitToken: v.optional(v.nullable(v.string()), null),
  awaitSince: v.optional(v.nullable(v.number()), null),
  // A string set (ADD, so that each report is recorded once without a read).
  engineReported: v.optional(
    v.pipe(
      v.set(v.string()),
      v.transform((ids) => [...ids].sort()),
    ),
    () => new Set<string>(),
  ),
  reportResumed: v.optional(v.boolean()),
  // Written by the ledger (ledger-repository.ts): the reservation, then the final amount once settled or released.
  reservedMicros: v.optional(v.number()),
  finalMicros: v.optional(v.number()),
});

const toJob = (item: unknown): Job => {
  const { reservedMicros, finalMicros, engineTicket, engineTickets, ...job } = v.parse(JobItem, item);
  return {
    ...job,
    engineTickets: engineTicket ? [engineTicket, ...engineTickets] : engineTickets,
    charge: reservedMicros === undefined ? null : { reservedMicros, finalMicros: finalMicros ?? null },
  };
};

const JOB_SORT_KEY_PREFIX = SORT_KEY_PREFIX.job;

/** A page cursor is the sort key the page ended at, opaque to the caller; anything else is refused. */
const encodeCursor = (sortKey: string) => Buffer.from(sortKey, 'utf8').toString('base64url');
const decodeCursor = (cursor: string): string => {
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!sortKey.startsWith(JOB_SORT_KEY_PREFIX) || encodeCursor(sortKey) !== cursor)
    throw new InvalidRequestError('The cursor is not one this service gave out.');
  return sortKey;
};

export class DynamoJobs implements JobsRepository {
  constructor(private readonly table: Table) {}

  async get(accountId: string, jobId: string): Promise<Job | undefined> {
    const result = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.job(accountId, jobId), ConsistentRead: true }),
    );
    return result.Item ? toJob(result.Item) : undefined;
  }

  /** Newest first (job ids are time-ordered); the filters apply within the page. */
  async list(accountId: string, query: JobPageQuery): Promise<JobPage> {
    const pk = keys.accountPk(accountId);
    const filters = [
      ...(query.status ? [['#status = :status', { ':status': query.status }] as const] : []),
      ...(query.operation ? [['#operation = :operation', { ':operation': query.operation }] as const] : []),
      ...(query.createdAfter !== undefined ? [['createdAt > :after', { ':after': query.createdAfter }] as const] : []),
    ];
    const result = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: filters.length > 0 ? filters.map(([expression]) => expression).join(' AND ') : undefined,
        ExpressionAttributeNames:
          query.status || query.operation
            ? {
                ...(query.status ? { '#status': 'status' } : {}),
                ...(query.operation ? { '#operation': 'operation' } : {}),
              }
            : undefined,
        ExpressionAttributeValues: {
          ':pk': pk,
          ':prefix': JOB_SORT_KEY_PREFIX,
          ...Object.assign({}, ...filters.map(([, values]) => values)),
        },
        ExclusiveStartKey: query.cursor ? { pk, sk: decodeCursor(query.cursor) } : undefined,
        ScanIndexForward: false,
        Limit: query.limit,
      }),
    );
    const last = result.LastEvaluatedKey?.sk;
    return { jobs: (result.Items ?? []).map(toJob), cursor: typeof last === 'string' ? encodeCursor(last) : undefined };
  }

  async recordProgress(accountId: string, jobId: string, progress: number, at: number): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.job(accountId, jobId),
          UpdateExpression: 'SET progress = :progress, progressAt = :at',
          // A new job stores `progress: null`, which no number compares with: hence the type test.
          ConditionExpression:
            '#status = :running AND (attribute_not_exists(progress) OR attribute_type(progress, :null) OR progress < :progress)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':progress': progress, ':at': at, ':running': 'running', ':null': 'NULL' },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }

  /**
   * The work's ticket, in `engineTicket` (read first of `engineTickets`): written only while the job holds no
   * ticket in either attribute, so code of the previous deploy still finds, checks and cancels it.
   */
  async recordTicket(accountId: string, jobId: string, ticket: EngineTicket): Promise<EngineTicket> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.job(accountId, jobId),
          UpdateExpression: 'SET engineTicket = :ticket',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(engineTicket) OR attribute_type(engineTicket, :null)) ' +
            'AND (attribute_not_exists(engineTickets) OR size(engineTickets) = :none)',
          ExpressionAttributeValues: { ':ticket': ticket, ':null': 'NULL', ':none': 0 },
        }),
      );
      return ticket;
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      const job = await this.get(accountId, jobId);
      const held = job && workTicket(job);
      if (!held) throw new NotFoundError(`Job ${jobId} not found.`);
      return held;
    }
  }

  /** Appended in one write (list_append), so concurrent additions both land. */
  async addTicket(accountId: string, jobId: string, ticket: EngineTicket): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.job(accountId, jobId),
          UpdateExpression: 'SET engineTickets = list_append(if_not_exists(engineTickets, :empty), :ticket)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':ticket': [ticket], ':empty': [] },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      throw new NotFoundError(`Job ${jobId} not found.`);
    }
  }

  async markEngineCall(accountId: string, jobId: string, at: number): Promise<boolean> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.job(accountId, jobId),
          UpdateExpression: 'SET engineCallAt = :at',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(engineCallAt) OR attribute_type(engineCallAt, :null))',
          ExpressionAttributeValues: { ':at': at, ':null': 'NULL' },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      if (!(await this.get(accountId, jobId))) throw new NotFoundError(`Job ${jobId} not found.`);
      return false;
    }
  }

  async awaitEngine(accountId: string, jobId: string, taskToken: string, at: number): Promise<Job | undefined> {
    try {
      const answer = await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.job(accountId, jobId),
          UpdateExpression: 'SET awaitToken = :token, awaitSince = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':token': taskToken, ':at': at },
          ReturnValues: 'ALL_OLD',
        }),
      );
      return toJob(answer.Attributes);
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      return undefined;
    }
  }

  async recordEngineReport(
    accountId: string,
    jobId: string,
    requestId: string,
  ): Promise<{ first: boolean; job: Job } | undefined> {
    try {
      const answer = await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.job(accountId, jobId),
          UpdateExpression: 'ADD engineReported :ids',
          ConditionExpression: 'attribute_exists(pk) AND NOT contains(engineReported, :id)',
          ExpressionAttributeValues: { ':ids': new Set([requestId]), ':id': requestId },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { first: true, job: toJob(answer.Attributes) };
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      const job = await this.get(accountId, jobId);
      return job && { first: false, job };
    }
  }

  async markReportResumed(accountId: string, jobId: string): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.job(accountId, jobId),
          UpdateExpression: 'SET reportResumed = :yes',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':yes': true },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }

  async recordRun(accountId: string, jobId: string, run: RunOutcome): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.job(accountId, jobId),
          UpdateExpression: 'SET engineRun = :run',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(engineRun) OR attribute_type(engineRun, :null))',
          ExpressionAttributeValues: { ':run': run, ':null': 'NULL' },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }

  /** The job's status and the account's running count move in one transaction; the ledger's close gives the place back. */
  async markRunning(accountId: string, jobId: string, at: number, maxRunning: number): Promise<'started' | 'full'> {
    try {
      await transactWrite(this.table, [
        {
          Update: {
            TableName: this.table.name,
            Key: keys.job(accountId, jobId),
            UpdateExpression: 'SET #status = :running, startedAt = :at',
            ConditionExpression: '#status = :pending',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':running': 'running', ':pending': 'pending', ':at': at },
          },
        },
        {
          Update: {
            TableName: this.table.name,
            Key: keys.runningJobs(accountId),
            UpdateExpression: 'ADD running :one SET #type = :type',
            ConditionExpression: 'attribute_not_exists(running) OR running < :max',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: { ':one': 1, ':max': maxRunning, ':type': ITEM_TYPE.runningJobs },
          },
        },
      ]);
      return 'started';
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      // Past pending already (a retried step): it holds its place.
      if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'started';
      if (reasons[1]?.Code === 'ConditionalCheckFailed') return 'full';
      throw error;
    }
  }

  async findByClientRequestId(
    accountId: string,
    clientRequestId: string,
  ): Promise<{ jobId: string; fingerprint: string | null } | undefined> {
    const result = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.name,
        Key: keys.idempotency(accountId, clientRequestId),
        ConsistentRead: true,
      }),
    );
    if (!result.Item) return undefined;
    const record = v.parse(v.object({ jobId: v.string(), fingerprint: v.optional(v.string()) }), result.Item);
    return { jobId: record.jobId, fingerprint: record.fingerprint ?? null };
  }

  async forgetClientRequestId(accountId: string, clientRequestId: string, jobId: string): Promise<void> {
    try {
      await this.table.doc.send(
        new DeleteCommand({
          TableName: this.table.name,
          Key: keys.idempotency(accountId, clientRequestId),
          ConditionExpression: 'jobId = :jobId',
          ExpressionAttributeValues: { ':jobId': jobId },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }
}
