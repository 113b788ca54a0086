/**
 * Structured JSON logs through Powertools for AWS Lambda's Logger: one object per line with the level,
 * message, timestamp, service, the Lambda context (function name and version, memory, request id, cold
 * start, X-Ray trace id) once an entry point has added it, and our own fields (request id, account id,
 * job or profile id). The local runtime prints the same lines.
 */
import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { sourceMappedStack } from './source-mapped-stack';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** A logger whose every line also carries `fields`. */
  child(fields: Record<string, unknown>): Logger;
  /** Adds the invocation's Lambda context to this logger's lines and its children's made after. */
  addContext(context: Context): void;
}

export const SERVICE_NAME = 'image-service';

const LEVELS = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR', silent: 'SILENT' } as const;

/**
 * A child is the same Powertools logger with its fields added to every line, not a Powertools child:
 * `createChild` builds a new Logger (a Console, the environment read again) for every request, which cost
 * more than the request's own logging. The Lambda context stays on the process logger, as before.
 */
const wrap = (logger: PowertoolsLogger, inherited: Record<string, unknown> = {}): Logger => {
  const withInherited = (fields?: Record<string, unknown>) => (fields ? { ...inherited, ...fields } : inherited);
  return {
    debug: (message, fields) => logger.debug(message, withInherited(fields)),
    info: (message, fields) => logger.info(message, withInherited(fields)),
    warn: (message, fields) => logger.warn(message, withInherited(fields)),
    error: (message, fields) => logger.error(message, withInherited(fields)),
    child: (fields) => wrap(logger, { ...inherited, ...fields }),
    addContext: (context) => logger.addContext(context),
  };
};

export const createLogger = (level: LogLevel, base: Record<string, unknown> = {}): Logger =>
  wrap(
    new PowertoolsLogger({
      serviceName: SERVICE_NAME,
      logLevel: LEVELS[level],
      persistentKeys: base as Record<string, string>,
    }),
  );

/** An error as log fields: name, message and stack (mapped to the sources), plus its cause chain. */
export const errorFields = (error: unknown): Record<string, unknown> =>
  error instanceof Error
    ? {
        error: {
          name: error.name,
          message: error.message,
          stack: sourceMappedStack(error.stack),
          cause: error.cause ? errorFields(error.cause) : undefined,
        },
      }
    : { error: { value: String(error) } };
