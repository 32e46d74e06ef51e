/**
 * Levelled, redacting logging. Off unless a level is configured or set in the service's environment variable.
 */
import { readEnv } from './env.js';
import { redactValue } from './redact.js';

/** Where log lines go; `console` fits. */
export interface Logger {
  /** Per-attempt detail: requests, responses, timings. */
  debug(message: string, ...details: unknown[]): void;
  /** Notable events such as retries. */
  info(message: string, ...details: unknown[]): void;
  /** Something went wrong but the call may still succeed. */
  warn(message: string, ...details: unknown[]): void;
  /** A call failed. */
  error(message: string, ...details: unknown[]): void;
}

/** Verbosity, from silent to everything. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

const SEVERITY: Readonly<Record<LogLevel, number>> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** The level named by `value` (case-insensitive), or undefined when it names none. */
export function parseLogLevel(value: string | undefined): LogLevel | undefined {
  const normalized = value?.trim().toLowerCase();
  return normalized !== undefined && Object.hasOwn(SEVERITY, normalized) ? (normalized as LogLevel) : undefined;
}

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** Destination of the lines (default `console`). */
  sink?: Logger;
  /** Explicit level; wins over the environment variable. */
  level?: LogLevel;
  /** Environment variable that may hold the level, e.g. `AGENT_APIS_LOG` (read only where `process.env` exists). */
  envVar?: string;
  /** Secret values to mask in messages and details. */
  secrets?: readonly string[];
}

/** The effective level: explicit level, else the environment variable, else `off`. */
export function resolveLogLevel(options: Pick<LoggerOptions, 'level' | 'envVar'> = {}): LogLevel {
  return options.level ?? (options.envVar ? parseLogLevel(readEnv(options.envVar)) : undefined) ?? 'off';
}

/**
 * A {@link Logger} that drops lines below the effective level and redacts everything it forwards: the message
 * and every detail pass through {@link redactValue} (credential headers, query parameters, keys and known secrets).
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = resolveLogLevel(options);
  const sink = options.sink ?? console;
  const secrets = options.secrets ?? [];
  const emit =
    (method: Exclude<LogLevel, 'off'>) =>
    (message: string, ...details: unknown[]): void => {
      if (SEVERITY[method] > SEVERITY[level]) return;
      const safeDetails = details.map((detail) => redactValue(detail, secrets, { maskCredentialKeys: true }));
      sink[method](redactValue(message, secrets) as string, ...safeDetails);
    };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}
