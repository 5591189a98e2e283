// `_embed`: every embeddable link of the response's items is fetched as a sub-request (same
// caller, context=embed, collections with per_page=100) and placed under `_embedded`, aligned with
// `_links`. The sub-requests share the request's context, so their loaders batch across items.
type Item = Record<string, any>;
export type SubRequest = (href: string) => Promise<{ status: number; body: unknown }>;

/** `_embed` as given: true for all relations, or the list of relation keys. */
export function parseEmbedParam(value: unknown): true | string[] | null {
  if (value === undefined || value === null) return null;
  if (value === '' || value === '1' || value === 'true' || value === true) return true;
  const list = (Array.isArray(value) ? value.map(String) : String(value).split(',')).map((s) => s.trim()).filter(Boolean);
  return list.length ? list : true;
}

export async function embedLinks(body: unknown, wanted: true | string[], fetch: SubRequest): Promise<unknown> {
  const items: Item[] = Array.isArray(body) ? body : body && typeof body === 'object' ? [body as Item] : [];
  const memo = new Map<string, Promise<{ status: number; body: unknown }>>();
  const get = (href: string) => {
    let p = memo.get(href);
    if (!p) memo.set(href, (p = fetch(href)));
    return p;
  };
  await Promise.all(items.map(async (item) => {
    const links = item._links as Record<string, { href: string; embeddable?: boolean }[]> | undefined;
    if (!links) return;
    const embedded: Record<string, unknown[]> = {};
    await Promise.all(Object.entries(links).map(async ([rel, list]) => {
      if (wanted !== true && !wanted.includes(rel)) return;
      if (!list.some((l) => l.embeddable)) return;
      const found = await Promise.all(list.map(async (link) => (link.embeddable ? (await get(link.href)).body : [])));
      // As WordPress's embed_links: a relation whose embeds are all empty (an item without
      // comments: `replies` answers []) is left out.
      if (found.some((e) => e !== null && !(Array.isArray(e) && e.length === 0))) embedded[rel] = found;
    }));
    if (Object.keys(embedded).length) {
      // Keep WordPress's key order: relations in _links order.
      item._embedded = Object.fromEntries(Object.keys(links).filter((k) => k in embedded).map((k) => [k, embedded[k]]));
    }
  }));
  return body;
}
