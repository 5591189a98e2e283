// Work that follows a committed write of content, terms or users, registered per database handle
// by the app (the SEO index in deployment B). Runs after the write's transaction, with the
// writer's context; reads never call it.
import type { Context } from '../context.js';
import type { Db } from '../db/client.js';

export type WriteEvent =
  | { object: 'content'; id: number; action: 'save' | 'trash' | 'delete' }
  | { object: 'term'; id: number; action: 'save' | 'delete' }
  | { object: 'user'; id: number; action: 'save' | 'delete' };

export type WriteHook = (ctx: Context, event: WriteEvent) => Promise<void>;

const hooks = new WeakMap<Db, WriteHook[]>();

export function registerWriteHook(db: Db, hook: WriteHook): void {
  const list = hooks.get(db) ?? [];
  if (!list.includes(hook)) hooks.set(db, [...list, hook]);
}

export async function afterWrite(ctx: Context, event: WriteEvent): Promise<void> {
  for (const hook of hooks.get(ctx.db) ?? []) await hook(ctx, event);
}
