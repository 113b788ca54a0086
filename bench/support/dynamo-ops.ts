/**
 * Counts the DynamoDB operations the service itself sends: a middleware on the service's client
 * (`services().table.doc`, whose middleware stack is the underlying DynamoDBClient's), so every
 * document-client and native command is seen once, whatever its retries.
 *
 * Each command is counted by name (`GetItem`) and, where it names one item, by the item's kind, the
 * sort key's first segment (`GetItem JOB`, `GetItem APIKEY`, `UpdateItem PROFILE`); a transaction by the
 * kinds it touches (`TransactWriteItems ACCOUNT+JOB+LEDGER`). HTTP attempts are counted apart, so a
 * retry shows as attempts > commands.
 */
import type { Table } from '../../functions/adapters/dynamo/table';

export interface OpCounts {
  /** Command name → count. */
  byCommand: Record<string, number>;
  /** `Command KIND` → count (kind of the item for single-item commands, kinds joined for transactions). */
  byItem: Record<string, number>;
  commands: number;
  attempts: number;
  /** Command name → client-side milliseconds of each command (SDK queueing and retries included). */
  latencies: Record<string, number[]>;
}

export interface OpCounter {
  reset(): void;
  snapshot(): OpCounts;
  /** While paused nothing is counted (seeding the table, say). */
  paused: boolean;
}

type Attribute = string | { S?: string } | undefined;

const text = (value: Attribute): string | undefined => (typeof value === 'string' ? value : value?.S);

/** `JOB` for sk `JOB#job_…`, `APIKEY` for sk `APIKEY`. */
const kindOf = (key: Record<string, Attribute> | undefined): string | undefined => {
  const sortKey = text(key?.sk);
  return sortKey === undefined ? undefined : sortKey.split('#')[0];
};

interface TransactEntry {
  Put?: { Item?: Record<string, Attribute> };
  Update?: { Key?: Record<string, Attribute> };
  Delete?: { Key?: Record<string, Attribute> };
  ConditionCheck?: { Key?: Record<string, Attribute> };
  Get?: { Key?: Record<string, Attribute> };
}

const itemLabel = (command: string, input: Record<string, unknown>): string => {
  const single = kindOf((input.Key ?? input.Item) as Record<string, Attribute> | undefined);
  if (single) return `${command} ${single}`;
  if (Array.isArray(input.TransactItems)) {
    const kinds = (input.TransactItems as TransactEntry[]).map((entry) =>
      kindOf(entry.Put?.Item ?? entry.Update?.Key ?? entry.Delete?.Key ?? entry.ConditionCheck?.Key ?? entry.Get?.Key),
    );
    return `${command} ${kinds
      .map((kind) => kind ?? '?')
      .sort()
      .join('+')}`;
  }
  if (typeof input.IndexName === 'string') return `${command} ${input.IndexName}`;
  return command;
};

const bump = (record: Record<string, number>, key: string) => {
  record[key] = (record[key] ?? 0) + 1;
};

export const countDynamoOps = (table: Table): OpCounter => {
  const empty = (): OpCounts => ({ byCommand: {}, byItem: {}, commands: 0, attempts: 0, latencies: {} });
  let counts = empty();
  const counter: OpCounter = {
    paused: false,
    reset: () => {
      counts = empty();
    },
    snapshot: () => ({
      byCommand: { ...counts.byCommand },
      byItem: { ...counts.byItem },
      commands: counts.commands,
      attempts: counts.attempts,
      latencies: Object.fromEntries(
        Object.entries(counts.latencies).map(([command, samples]) => [command, [...samples]]),
      ),
    }),
  };
  const stack = table.doc.middlewareStack;
  stack.add(
    (next, context) => async (args) => {
      if (counter.paused) return next(args);
      const command = String(context.commandName ?? 'unknown').replace(/Command$/, '');
      const window = counts;
      window.commands += 1;
      bump(window.byCommand, command);
      bump(window.byItem, itemLabel(command, (args.input ?? {}) as Record<string, unknown>));
      const start = performance.now();
      try {
        return await next(args);
      } finally {
        const latencies = window.latencies[command] ?? [];
        window.latencies[command] = latencies;
        latencies.push(performance.now() - start);
      }
    },
    { step: 'initialize', name: 'benchDynamoOpCounter', override: true },
  );
  stack.add(
    (next) => async (args) => {
      if (!counter.paused) counts.attempts += 1;
      return next(args);
    },
    { step: 'deserialize', name: 'benchDynamoAttemptCounter', override: true },
  );
  return counter;
};

/** Counts divided by `per`, as `GetItem JOB 1, GetItem APIKEY 0.01` (largest first). */
export const perUnit = (record: Record<string, number>, per: number, digits = 2): string =>
  Object.entries(record)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([label, count]) => `${label} ${Math.round((count / per) * 10 ** digits) / 10 ** digits}`)
    .join(', ') || 'none';

/** The difference of two snapshots (after − before), for counting a window without a reset. */
export const difference = (after: OpCounts, before: OpCounts): OpCounts => {
  const minus = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(a)
        .map(([key, value]) => [key, value - (b[key] ?? 0)])
        .filter(([, value]) => value !== 0),
    );
  return {
    byCommand: minus(after.byCommand, before.byCommand),
    byItem: minus(after.byItem, before.byItem),
    commands: after.commands - before.commands,
    attempts: after.attempts - before.attempts,
    latencies: {},
  };
};
