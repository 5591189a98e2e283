// Known oEmbed providers: URL patterns of the pages each one embeds, and its oEmbed endpoint.
// The selection follows the providers WordPress trusts out of the box (its list in WP_oEmbed);
// the table and patterns are written here. Instagram and Facebook are absent, as in WordPress
// since 5.5.2: their endpoints need an app access token. `{format}` in an endpoint is replaced
// by `json`.

export interface Provider {
  name: string;
  endpoint: string;
  patterns: RegExp[];
}

const TWITTER = 'https://publish.twitter.com/oembed';

export const PROVIDERS: Provider[] = [
  {
    name: 'YouTube', endpoint: 'https://www.youtube.com/oembed',
    patterns: [
      /^https?:\/\/((m|www)\.)?youtube\.com\/(watch|playlist|shorts\/|live\/)/i,
      /^https?:\/\/youtu\.be\/./i,
    ],
  },
  { name: 'Vimeo', endpoint: 'https://vimeo.com/api/oembed.{format}', patterns: [/^https?:\/\/(.+\.)?vimeo\.com\/./i] },
  { name: 'Dailymotion', endpoint: 'https://www.dailymotion.com/services/oembed', patterns: [/^https?:\/\/(www\.)?dailymotion\.com\/./i, /^https?:\/\/dai\.ly\/./i] },
  { name: 'Flickr', endpoint: 'https://www.flickr.com/services/oembed/', patterns: [/^https?:\/\/(www\.)?flickr\.com\/./i, /^https?:\/\/flic\.kr\/./i] },
  { name: 'SmugMug', endpoint: 'https://api.smugmug.com/services/oembed/', patterns: [/^https?:\/\/(.+\.)?smugmug\.com\/./i] },
  { name: 'Scribd', endpoint: 'https://www.scribd.com/services/oembed', patterns: [/^https?:\/\/(www\.)?scribd\.com\/(doc|document)\//i] },
  { name: 'WordPress.tv', endpoint: 'https://wordpress.tv/oembed/', patterns: [/^https?:\/\/wordpress\.tv\/./i] },
  {
    name: 'Crowdsignal', endpoint: 'https://api.crowdsignal.com/oembed',
    patterns: [/^https?:\/\/(.+\.)?(crowdsignal\.net|polldaddy\.com|survey\.fm)\/./i, /^https?:\/\/poll\.fm\/./i],
  },
  {
    // X answers on publish.twitter.com for both host names.
    name: 'X', endpoint: TWITTER,
    patterns: [
      /^https?:\/\/(www\.)?(twitter|x)\.com\/\w{1,15}\/status(es)?\//i,
      /^https?:\/\/(www\.)?(twitter|x)\.com\/\w{1,15}\/?$/i,
      /^https?:\/\/(www\.)?(twitter|x)\.com\/\w{1,15}\/likes\/?$/i,
      /^https?:\/\/(www\.)?(twitter|x)\.com\/\w{1,15}\/lists\//i,
      /^https?:\/\/(www\.)?(twitter|x)\.com\/\w{1,15}\/timelines\//i,
      /^https?:\/\/(www\.)?(twitter|x)\.com\/i\/moments\//i,
    ],
  },
  { name: 'SoundCloud', endpoint: 'https://soundcloud.com/oembed', patterns: [/^https?:\/\/(www\.|m\.)?soundcloud\.com\/./i] },
  { name: 'Spotify', endpoint: 'https://open.spotify.com/oembed', patterns: [/^https?:\/\/(open|play)\.spotify\.com\/./i] },
  { name: 'Imgur', endpoint: 'https://api.imgur.com/oembed', patterns: [/^https?:\/\/(.+\.)?imgur\.com\/./i] },
  { name: 'Issuu', endpoint: 'https://issuu.com/oembed_wp', patterns: [/^https?:\/\/(www\.)?issuu\.com\/.+\/docs\/./i] },
  { name: 'Mixcloud', endpoint: 'https://app.mixcloud.com/oembed/', patterns: [/^https?:\/\/(www\.)?mixcloud\.com\/./i] },
  { name: 'TED', endpoint: 'https://www.ted.com/services/v1/oembed.{format}', patterns: [/^https?:\/\/(www\.|embed\.)?ted\.com\/talks\//i] },
  { name: 'Animoto', endpoint: 'https://animoto.com/oembeds/create', patterns: [/^https?:\/\/(www\.)?(animoto|video214)\.com\/play\//i] },
  { name: 'Tumblr', endpoint: 'https://www.tumblr.com/oembed/1.0', patterns: [/^https?:\/\/(.+)\.tumblr\.com\/./i] },
  { name: 'Kickstarter', endpoint: 'https://www.kickstarter.com/services/oembed', patterns: [/^https?:\/\/(www\.)?kickstarter\.com\/projects\//i, /^https?:\/\/kck\.st\/./i] },
  { name: 'Cloudup', endpoint: 'https://cloudup.com/oembed', patterns: [/^https?:\/\/cloudup\.com\/./i] },
  { name: 'ReverbNation', endpoint: 'https://www.reverbnation.com/oembed', patterns: [/^https?:\/\/(www\.)?reverbnation\.com\/./i] },
  { name: 'Reddit', endpoint: 'https://www.reddit.com/oembed', patterns: [/^https?:\/\/(www\.)?reddit\.com\/r\/[^/]+\/comments\//i] },
  { name: 'Speaker Deck', endpoint: 'https://speakerdeck.com/oembed.{format}', patterns: [/^https?:\/\/(www\.)?speakerdeck\.com\/./i] },
  { name: 'Screencast', endpoint: 'https://api.screencast.com/external/oembed', patterns: [/^https?:\/\/([a-z]{2}|www)\.screencast\.com\/./i] },
  { name: 'TikTok', endpoint: 'https://www.tiktok.com/oembed', patterns: [/^https?:\/\/(www\.)?tiktok\.com\/.*\/video\/./i, /^https?:\/\/(www\.)?tiktok\.com\/@./i] },
  { name: 'Pinterest', endpoint: 'https://www.pinterest.com/oembed.json', patterns: [/^https?:\/\/([a-z]{2}|www)\.pinterest\.com(\.(au|mx))?\/./i] },
  { name: 'Wolfram Cloud', endpoint: 'https://www.wolframcloud.com/oembed', patterns: [/^https?:\/\/(www\.)?wolframcloud\.com\/obj\/./i] },
  { name: 'Pocket Casts', endpoint: 'https://pca.st/oembed.json', patterns: [/^https?:\/\/pca\.st\/./i] },
  { name: 'Anghami', endpoint: 'https://api.anghami.com/rest/v1/oembed.view', patterns: [/^https?:\/\/((play|www)\.)?anghami\.com\/./i] },
  { name: 'Bluesky', endpoint: 'https://embed.bsky.app/oembed', patterns: [/^https?:\/\/bsky\.app\/profile\/[^/]+\/post\/./i] },
  { name: 'Canva', endpoint: 'https://canva.com/_oembed', patterns: [/^https?:\/\/(www\.)?canva\.com\/design\/.+\/view/i] },
];

/** The oEmbed endpoint (with `{format}` filled in) of the provider that embeds `url`, if one does. */
export function findProvider(url: string, providers: Provider[] = PROVIDERS): { name: string; endpoint: string } | null {
  for (const p of providers) {
    if (p.patterns.some((re) => re.test(url))) return { name: p.name, endpoint: p.endpoint.replace('{format}', 'json') };
  }
  return null;
}
