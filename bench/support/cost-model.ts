/**
 * The AWS cost of the operations a request was counted making (docs/cost.md explains each line):
 * us-east-1 list prices for arm64 Lambda, on-demand DynamoDB and Standard Step Functions, as published
 * in 2026. DynamoDB units come from the counted commands: a transactional write is 2 write units per
 * item, any other write 1, a strongly consistent read 1 read unit (items here are under 1 KB written,
 * 4 KB read).
 */
import type { OpCounts } from './dynamo-ops';

export const PRICES_USD = {
  apiRequest: 3.5e-6,
  lambdaRequest: 0.2e-6,
  lambdaGbSecond: 0.0000133334,
  stateTransition: 0.000025,
  writeUnit: 0.625e-6,
  readUnit: 0.125e-6,
  s3Put: 0.005 / 1000,
  xrayTrace: 5e-6,
  logGb: 0.5,
} as const;

export interface Usage {
  apiRequests: number;
  lambdaInvocations: number;
  lambdaGbSeconds: number;
  stateTransitions: number;
  writeUnits: number;
  readUnits: number;
  /** Every S3 request priced as a PUT (GETs cost a twelfth of that: an upper bound). */
  s3Requests: number;
  traces: number;
  logBytes: number;
}

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);
const READS = new Set(['GetItem', 'Query', 'BatchGetItem', 'Scan']);

/** Write and read units of counted commands, per `per` requests. */
export const dynamoUnits = (counts: OpCounts, per: number): { writeUnits: number; readUnits: number } => {
  let writeUnits = 0;
  let readUnits = 0;
  for (const [label, count] of Object.entries(counts.byItem)) {
    const [command = '', kinds = ''] = label.split(' ');
    if (command === 'TransactWriteItems') writeUnits += 2 * kinds.split('+').length * count;
    else if (WRITES.has(command)) writeUnits += count;
    else if (READS.has(command)) readUnits += count;
  }
  return { writeUnits: writeUnits / per, readUnits: readUnits / per };
};

export const costUsd = (usage: Usage): number =>
  usage.apiRequests * PRICES_USD.apiRequest +
  usage.lambdaInvocations * PRICES_USD.lambdaRequest +
  usage.lambdaGbSeconds * PRICES_USD.lambdaGbSecond +
  usage.stateTransitions * PRICES_USD.stateTransition +
  usage.writeUnits * PRICES_USD.writeUnit +
  usage.readUnits * PRICES_USD.readUnit +
  usage.s3Requests * PRICES_USD.s3Put +
  usage.traces * PRICES_USD.xrayTrace +
  (usage.logBytes / 1e9) * PRICES_USD.logGb;
