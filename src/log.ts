// The service's one logger: pino, JSON lines on stdout, level from LOG_LEVEL (default `info`;
// `silent` under the test runner unless LOG_LEVEL is set). Secrets are redacted wherever they
// appear in a logged object: passwords, Authorization and Cookie headers, application passwords.
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';


/** Keys (any case) whose values are never written, at any depth of a logged object. */
export const SECRET_KEYS = new Set([
  'password', 'new_password', 'old_password', 'pass', 'pwd', 'passwd', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie',
  'applicationpassword', 'application_password', 'app_password', 'secret', 'token', 'x-wp-nonce', '_wpnonce',
].map((k) => k.toLowerCase()));

const isPlain = (v: unknown): v is Record<string, unknown> => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * The object with secret values replaced, copied only where something changed. Walks plain
 * objects and arrays (not errors or class instances) a few levels down. A hand-written walk rather
 * than pino's `redact`: that one compiles a path per key and level, and the wildcard paths cost
 * tens of microseconds per line, where this costs well under one for an access line.
 */
export function scrub<T>(value: T, depth = 0): T {
  if (depth > 6) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const next = scrub(value[i], depth + 1);
      if (next !== value[i]) (out ??= value.slice())[i] = next;
    }
    return (out ?? value) as T;
  }
  if (!isPlain(value)) return value;
  let out: Record<string, unknown> | null = null;
  for (const key in value) {
    const v = value[key];
    let next = v;
    if (SECRET_KEYS.has(key.toLowerCase())) next = v === undefined || v === null || v === '' ? v : '[redacted]';
    else if (v && typeof v === 'object') next = scrub(v, depth + 1);
    if (next !== v) (out ??= { ...value })[key] = next;
  }
  return (out ?? value) as T;
}

export const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** LOG_LEVEL, or `info` (`silent` while tests run, so their output stays readable). */
export function levelFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  const wanted = (env.LOG_LEVEL ?? '').trim().toLowerCase();
  if ((LEVELS as readonly string[]).includes(wanted)) return wanted;
  return env.VITEST ? 'silent' : 'info';
}

export function createLogger(o: { level?: string; destination?: DestinationStream } = {}): Logger {
  const options: LoggerOptions = {
    level: o.level ?? levelFromEnv(),
    base: { pid: process.pid },
    formatters: { log: (object) => scrub(object) },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return pino(options, o.destination ?? stdoutBatched());
}

/**
 * Standard output, written in batches: the lines made within 20 ms (a busy process writes an
 * access line per request) go out in one write, in the order they were made, instead of one
 * system call each (about 9 µs a request on a cached read with two workers, a third of its CPU).
 * A batch is written at once past 32 KB, and on the way out ('exit', which a crash reaches too);
 * a process killed outright loses at most its last 20 ms of lines.
 */
function stdoutBatched(): DestinationStream {
  const out = pino.destination({ dest: 1, sync: true, contentMode: 'buffer' });
  const lines = batchedLines((chunk) => out.write(chunk as unknown as string));
  process.on('exit', lines.flush);
  return lines;
}

/**
 * Text lines gathered into one buffer and handed to `sink` in chunks: at `flushAt` bytes, after
 * `delayMs`, or on `flush()`. Each line is encoded into the buffer as it comes; the earlier way
 * (appending strings, encoded by the stream when written) had the stream measure the UTF-8 length
 * of the whole joined batch on every line it added (flattening it first): about 1 µs per cached
 * answer. A chunk handed over is never written to again.
 */
export function batchedLines(sink: (chunk: Buffer) => void, o: { size?: number; flushAt?: number; delayMs?: number } = {}): { write(line: string): void; flush(): void } {
  const size = o.size ?? 65_536;
  const flushAt = o.flushAt ?? 32_768;
  const delayMs = o.delayMs ?? 20;
  let buffer = Buffer.allocUnsafe(size);
  let used = 0;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) { clearTimeout(timer); timer = null; }
    if (!used) return;
    const chunk = buffer.subarray(0, used);
    buffer = Buffer.allocUnsafe(size);
    used = 0;
    sink(chunk);
  };
  return {
    write(line: string) {
      // UTF-8 takes at most three bytes per UTF-16 unit.
      if (used + line.length * 3 > size) {
        flush();
        if (line.length * 3 > size) return sink(Buffer.from(line, 'utf8'));
      }
      used += buffer.write(line, used, 'utf8');
      if (used >= flushAt) flush();
      else if (!timer) timer = setTimeout(flush, delayMs).unref();
    },
    flush,
  };
}

/** The process's logger. Modules read it at call time, so `useLogger` (tests) takes effect everywhere. */
export let log: Logger = createLogger();

/** Replaces the process's logger (a test capturing lines); returns the one it replaced. */
export function useLogger(next: Logger): Logger {
  const previous = log;
  log = next;
  return previous;
}

export interface AccessLine {
  reqId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  bytes: number;
  ip?: string;
  aborted?: boolean;
}

/** A string as JSON: quoted as it is when it holds nothing to escape (the usual id, method, path and address). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f-\uffff]/;
const json = (value: string): string => (NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`);

let stampMs = 0;
let stamp = '';
/** The time as ISO text, made once per millisecond (busy processes write many lines in one). */
function isoNow(): string {
  const now = Date.now();
  if (now !== stampMs) { stampMs = now; stamp = new Date(now).toISOString(); }
  return stamp;
}

/**
 * The access line of one request, at level `error` for a 5xx and `info` otherwise. It is the hot
 * path's only log call, so it is written as pino would write it (same fields: level, time, pid,
 * msg) straight to the logger's destination, without pino's generic serializer (which costs a few
 * microseconds per line). Its fields are ours: nothing in it needs scrubbing (`path` is already).
 */
export function logRequest(line: AccessLine): void {
  const level = line.status >= 500 ? 50 : 30;
  if (level < log.levelVal) return;
  let text = `{"level":${level},"time":"${isoNow()}","pid":${process.pid},"reqId":${json(line.reqId)},"method":${json(line.method)},"path":${json(line.path)},"status":${line.status},"ms":${line.ms},"bytes":${line.bytes}`;
  if (line.ip !== undefined) text += `,"ip":${json(line.ip)}`;
  if (line.aborted) text += ',"aborted":true';
  (log as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym].write(`${text},"msg":"request"}\n`);
}
