import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { DomainError } from '@app/errors';

/** Keys through which code that copies or merges the data could reach an object's prototype. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Where the first prototype key in a parsed JSON value is, as a dotted path from `root`
 * (`items.1.data.blocks.0.prototype`), or undefined when there is none. Walks with its own stack: a deeply nested
 * body cannot overflow the call stack.
 */
export function prototypeKeyPath(value: unknown, root: string): { key: string; path: string } | undefined {
  const pending: Array<[unknown, string]> = [[value, root]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, path] = next;
    if (typeof node !== 'object' || node === null) {
      continue;
    }
    for (const key of Object.keys(node)) {
      if (PROTOTYPE_KEYS.has(key)) {
        return { key, path: `${path}.${key}` };
      }
      pending.push([(node as Record<string, unknown>)[key], `${path}.${key}`]);
    }
  }
  return undefined;
}

/** The `data` values of an entity body: `data` of a single save, `items[i].data` of a bulk one. */
function dataOf(body: unknown): Array<[unknown, string]> {
  if (typeof body !== 'object' || body === null) {
    return [];
  }
  const { data, items } = body as { data?: unknown; items?: unknown };
  const found: Array<[unknown, string]> = data === undefined ? [] : [[data, 'data']];
  if (Array.isArray(items)) {
    items.forEach((item: unknown, i) => {
      if (typeof item === 'object' && item !== null && 'data' in item) {
        found.push([item.data, `items.${i}.data`]);
      }
    });
  }
  return found;
}

/**
 * 400 naming the key when an entity's `data` holds `__proto__`, `constructor` or `prototype` at any depth. An
 * interceptor, because it runs before the pipes: Nest's ValidationPipe deletes those keys from the body in place
 * (and class-transformer's copy would leave them out too), so a DTO rule would never see them and they would be
 * dropped without a word.
 */
@Injectable()
export class PrototypeKeysInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const { body } = context.switchToHttp().getRequest<{ body?: unknown }>();
    for (const [data, root] of dataOf(body)) {
      const found = prototypeKeyPath(data, root);
      if (found) {
        throw new DomainError('invalid', `${root} must not hold the key ${found.key} (at ${found.path})`);
      }
    }
    return next.handle();
  }
}
