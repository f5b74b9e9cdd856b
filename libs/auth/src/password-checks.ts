import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import pLimit from 'p-limit';
import { AppConfig } from '@app/config';
import { RetryLaterError } from '@app/errors';

/**
 * The worker's code, evaluated (no file to find: the same code runs from ts-jest and from dist/). scryptSync in a
 * worker thread of its own, at the lowest CPU priority: hashing never takes a thread of libuv's pool, which storage
 * and DNS share, and never the CPU they need.
 */
const WORKER = `
const { parentPort } = require('node:worker_threads');
const { scryptSync, timingSafeEqual } = require('node:crypto');
// On Linux a priority set for "this process" (0) applies to the calling thread alone: hashing yields the CPU to
// the event loop and the storage engine.
try { require('node:os').setPriority(0, 19); } catch {}
parentPort.on('message', ({ password, stored }) => {
  let ok = false;
  try {
    const [kind, n, r, p, salt, hash] = stored.split('$');
    if (kind === 'scrypt' && hash) {
      const expected = Buffer.from(hash, 'base64');
      const actual = scryptSync(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
      ok = timingSafeEqual(actual, expected);
    }
  } catch {
    ok = false;
  }
  parentPort.postMessage(ok);
});
`;

/** Checks waiting for a worker, per worker, before more are refused: a short queue, a few hashes' time. */
const QUEUE_PER_WORKER = 2;

/**
 * Password checks (scrypt, slow on purpose) in PASSWORD_HASH_CONCURRENCY worker threads, with a short queue; beyond
 * it 429 with Retry-After. A flood of wrong passwords therefore costs at most that many cores and never the thread
 * pool the storage client and the rest of the process need.
 */
@Injectable()
export class PasswordChecks implements OnModuleDestroy {
  private readonly limit: pLimit.Limit;
  private readonly idle: Worker[] = [];
  private readonly workers = new Set<Worker>();

  constructor(private readonly config: AppConfig) {
    this.limit = pLimit(config.passwordHashConcurrency);
  }

  /** Whether `password` hashes to `stored` (scrypt$N$r$p$salt$hash); RetryLater when too many checks wait. */
  verify(password: string, stored: string): Promise<boolean> {
    if (this.limit.pendingCount >= this.config.passwordHashConcurrency * QUEUE_PER_WORKER) {
      return Promise.reject(new RetryLaterError('Too many password checks at once; retry in 1 s', 1));
    }
    return this.limit(() => this.run(password, stored));
  }

  private run(password: string, stored: string): Promise<boolean> {
    const worker = this.idle.pop() ?? this.spawn();
    return new Promise<boolean>((resolve, reject) => {
      const settle = (fn: () => void) => {
        worker.off('message', onMessage).off('error', onError);
        fn();
      };
      const onMessage = (ok: unknown) =>
        settle(() => {
          this.idle.push(worker);
          resolve(ok === true);
        });
      const onError = (err: Error) =>
        settle(() => {
          this.workers.delete(worker);
          reject(err);
        });
      worker.on('message', onMessage).on('error', onError);
      worker.postMessage({ password, stored });
    });
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER, { eval: true });
    // Idle workers do not keep the process alive.
    worker.unref();
    this.workers.add(worker);
    return worker;
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.workers].map((w) => w.terminate()));
    this.workers.clear();
    this.idle.length = 0;
  }
}
