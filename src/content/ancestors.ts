// Walks a parent chain (pages, categories) through a batch loader, so the chains of every item on
// a page are read a level at a time. Stops on a loop or after 50 levels.
export interface SlugNode { slug: string; parentId: number | null }

export async function ancestorChain(load: { load(id: number): Promise<SlugNode | null> }, parentId: number | null): Promise<string[]> {
  const slugs: string[] = [];
  const seen = new Set<number>();
  for (let id = parentId; id && !seen.has(id) && seen.size < 50; ) {
    seen.add(id);
    const row = await load.load(id);
    if (!row) break;
    slugs.unshift(row.slug);
    id = row.parentId;
  }
  return slugs;
}
