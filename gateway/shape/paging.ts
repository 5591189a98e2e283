// X-WP-Total, X-WP-TotalPages and the prev/next Link entries of a collection.
export function pagingHeaders(url: string, query: URLSearchParams, page: number, total: number, totalPages: number): Record<string, string | number> {
  const headers: Record<string, string | number> = { 'X-WP-Total': total, 'X-WP-TotalPages': totalPages };
  const link = (p: number) => {
    const q = new URLSearchParams(query);
    q.set('page', String(p));
    return `${url}?${q.toString()}`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`<${link(Math.min(page - 1, Math.max(totalPages, 1)))}>; rel="prev"`);
  if (page < totalPages) links.push(`<${link(page + 1)}>; rel="next"`);
  if (links.length) headers.Link = links.join(', ');
  return headers;
}
