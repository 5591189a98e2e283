// `context=edit` is a REST notion: it picks the Edit fragment and asks for the right to edit what
// is read. The domain knows nothing of it; these checks give WordPress's answers, in its order.
import type { Context } from '../src/context.js';
import { RestError } from '../src/errors.js';
import { WpError } from './errors.js';

/** WordPress's 401 for anonymous callers, 403 for signed-in ones. */
const statusOf = (ctx: Context) => (ctx.viewer ? 403 : 401);

export function forbiddenContext(ctx: Context, message: string, code = 'rest_forbidden_context'): WpError {
  return new WpError(code, message, statusOf(ctx));
}

/** The WordPress code of a refusal: from the domain (RestError) or from a run operation (WpError). */
export function errorCode(err: unknown): string | null {
  return err instanceof RestError ? err.extensions.code : err instanceof WpError ? err.code : null;
}

/** Lists: the right is a capability, checked before anything else runs (get_items_permissions_check). */
export function requireCapForEdit(ctx: Context, context: string | undefined, cap: string, message: string): void {
  if (context === 'edit' && !ctx.can(cap)) throw forbiddenContext(ctx, message);
}

/**
 * A check WordPress makes after some of the domain's own: run the read first; a refusal whose
 * code is one of `before` stands, any other outcome gives way to the missing edit right.
 */
export async function editCheckAfter<T>(ctx: Context, context: string | undefined, allowed: boolean, before: string[], error: () => WpError, read: () => Promise<T>): Promise<T> {
  if (context !== 'edit' || allowed) return read();
  try {
    await read();
  } catch (err) {
    const code = errorCode(err);
    if (code && before.includes(code)) throw err;
  }
  throw error();
}
