/** Structured JSON logs, one object per line, always carrying the request id and account id when known. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export const createLogger = (level: LogLevel, base: Record<string, unknown> = {}): Logger => {
  const write = (at: Exclude<LogLevel, 'silent'>) => (message: string, fields: Record<string, unknown> = {}) => {
    if (RANK[at] < RANK[level]) return;
    const line = JSON.stringify({ level: at, time: new Date().toISOString(), message, ...base, ...fields });
    (at === 'error' || at === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
  };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (fields) => createLogger(level, { ...base, ...fields }),
  };
};

/** An error as log fields: name, message and stack, plus its cause chain. */
export const errorFields = (error: unknown): Record<string, unknown> =>
  error instanceof Error
    ? { error: { name: error.name, message: error.message, stack: error.stack, cause: error.cause ? errorFields(error.cause) : undefined } }
    : { error: { value: String(error) } };
