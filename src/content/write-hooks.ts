// Work that follows a committed write of content, terms or users: the app's write hooks, among its
// services (src/services.ts; the SEO index in deployment B). Runs after the write's transaction,
// with the writer's context; reads never call it. Code without an app has none. A batch's steps
// run them once the batch has committed, for the steps that kept their writes
// (src/content/unit-of-work.ts).
import type { Context } from '../context.js';

export type WriteEvent =
  | { object: 'content'; id: number; action: 'save' | 'trash' | 'delete' }
  | { object: 'term'; id: number; action: 'save' | 'delete' }
  | { object: 'user'; id: number; action: 'save' | 'delete' };

export type WriteHook = (ctx: Context, event: WriteEvent) => Promise<void>;

export async function afterWrite(ctx: Context, event: WriteEvent): Promise<void> {
  for (const hook of ctx.services.writeHooks) await hook(ctx, event);
}
