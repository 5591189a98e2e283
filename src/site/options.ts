// Site settings live in the Option table (JSON values), as WordPress's wp_options. They are read
// once per database version: any write anywhere re-reads them on the next request.
import type { Db } from '../db/client.js';
import { withinTransaction } from '../db/version-cache.js';
import type { SiteClock } from '../content/dates.js';

export interface SiteSettings extends SiteClock {
  name: string;
  description: string;
  /** Site URL (WordPress "siteurl"): where the service is reached. */
  url: string;
  /** Home URL: where the front end lives; permalinks are built from it. */
  home: string;
  pageForPosts: number;
  pageOnFront: number;
  showOnFront: string;
  defaultCommentStatus: string;
  defaultPingStatus: string;
  defaultCategory: number;
  stickyPosts: number[];
  /** Posts on each page of a list (the home page, archives): WordPress's posts_per_page. */
  postsPerPage: number;
  /** Key for application-password hashes; never leaves the server. */
  siteKey: string;
}

export const OPTION_DEFAULTS: Record<string, unknown> = {
  blogname: 'My Site',
  blogdescription: '',
  siteurl: '',
  home: '',
  gmt_offset: 0,
  timezone_string: '',
  page_for_posts: 0,
  page_on_front: 0,
  show_on_front: 'posts',
  default_comment_status: 'open',
  default_ping_status: 'open',
  default_category: 1,
  sticky_posts: [],
  posts_per_page: 10,
  site_key: '',
};

let cached: { db: Db; version: number; settings: Promise<SiteSettings> } | undefined;
/** Per batch handle: the settings read since the last write statement that may touch the options. */
const inBatch = new WeakMap<Db, { writes: number; settings: Promise<SiteSettings> }>();

/** The site's settings, read again only after the options may have changed (`optionsVersion`). */
export function siteSettings(db: Db): Promise<SiteSettings> {
  // A batch's open transaction: its writes move no version until it commits, so the settings are
  // kept under the count of write statements sent that may touch the options (any such write, the
  // batch's own, reads them again).
  if (withinTransaction(db)) {
    const writes = db.optionWritesSent;
    const kept = inBatch.get(db);
    if (kept && kept.writes === writes) return kept.settings;
    const settings = load(db);
    inBatch.set(db, { writes, settings });
    return settings;
  }
  const version = db.optionsVersion();
  if (cached && cached.db === db && cached.version === version) return cached.settings;
  const settings = load(db);
  cached = { db, version, settings };
  settings.catch(() => { if (cached?.settings === settings) cached = undefined; });
  return settings;
}

async function load(db: Db): Promise<SiteSettings> {
  // Straight to the driver: the first request of a fresh process (the index, say) then needs no
  // Prisma query, whose first one instantiates its query compiler (about 0.15 s here).
  const rows = (await db.read('SELECT "name", "value" FROM "Option"', [])) as { name: string; value: string }[];
  const o: Record<string, unknown> = { ...OPTION_DEFAULTS };
  for (const row of rows) {
    try { o[row.name] = JSON.parse(row.value); } catch { o[row.name] = row.value; }
  }
  const url = String(o.siteurl).replace(/\/+$/, '');
  return {
    name: String(o.blogname),
    description: String(o.blogdescription),
    url,
    home: String(o.home || url).replace(/\/+$/, ''),
    timezoneString: String(o.timezone_string ?? ''),
    gmtOffset: Number(o.gmt_offset) || 0,
    pageForPosts: Number(o.page_for_posts) || 0,
    pageOnFront: Number(o.page_on_front) || 0,
    showOnFront: String(o.show_on_front),
    defaultCommentStatus: String(o.default_comment_status),
    defaultPingStatus: String(o.default_ping_status),
    defaultCategory: Number(o.default_category) || 0,
    stickyPosts: Array.isArray(o.sticky_posts) ? o.sticky_posts.map(Number) : [],
    // A positive whole number; anything else (WordPress's -1, "show all", included) keeps the default.
    postsPerPage: Number.isInteger(Number(o.posts_per_page)) && Number(o.posts_per_page) > 0 ? Number(o.posts_per_page) : 10,
    siteKey: String(o.site_key),
  };
}

type OptionWriter = { option: { upsert(args: { where: { name: string }; create: { name: string; value: string }; update: { value: string } }): Promise<unknown> } };

export async function setOption(prisma: OptionWriter, name: string, value: unknown): Promise<void> {
  const json = JSON.stringify(value);
  await prisma.option.upsert({ where: { name }, create: { name, value: json }, update: { value: json } });
}
