// The file types an upload may have: WordPress's default allowed list (get_allowed_mime_types(),
// without the ones it keeps from everyone or from callers without unfiltered_html: exe, swf,
// html, js, svg), by extension. The bytes decide; the extension must agree with them.
const GROUPS: [string, string][] = [
  // Images.
  ['jpg|jpeg|jpe', 'image/jpeg'], ['gif', 'image/gif'], ['png', 'image/png'], ['bmp', 'image/bmp'], ['tiff|tif', 'image/tiff'],
  ['webp', 'image/webp'], ['avif', 'image/avif'], ['ico', 'image/x-icon'], ['heic', 'image/heic'], ['heif', 'image/heif'],
  // Video.
  ['asf|asx', 'video/x-ms-asf'], ['wmv', 'video/x-ms-wmv'], ['avi', 'video/avi'], ['flv', 'video/x-flv'], ['mov|qt', 'video/quicktime'],
  ['mpeg|mpg|mpe', 'video/mpeg'], ['mp4|m4v', 'video/mp4'], ['ogv', 'video/ogg'], ['webm', 'video/webm'], ['mkv', 'video/x-matroska'],
  ['3gp|3gpp', 'video/3gpp'], ['3g2|3gp2', 'video/3gpp2'],
  // Text.
  ['txt|asc|c|cc|h|srt', 'text/plain'], ['csv', 'text/csv'], ['tsv', 'text/tab-separated-values'], ['ics', 'text/calendar'],
  ['rtx', 'text/richtext'], ['css', 'text/css'], ['vtt', 'text/vtt'], ['dfxp', 'application/ttaf+xml'],
  // Audio.
  ['mp3|m4a|m4b', 'audio/mpeg'], ['aac', 'audio/aac'], ['ra|ram', 'audio/x-realaudio'], ['wav', 'audio/wav'], ['ogg|oga', 'audio/ogg'],
  ['flac', 'audio/flac'], ['mid|midi', 'audio/midi'], ['wma', 'audio/x-ms-wma'], ['mka', 'audio/x-matroska'],
  // Documents and archives.
  ['rtf', 'application/rtf'], ['pdf', 'application/pdf'], ['tar', 'application/x-tar'], ['zip', 'application/zip'],
  ['gz|gzip', 'application/x-gzip'], ['rar', 'application/rar'], ['7z', 'application/x-7z-compressed'], ['psd', 'application/octet-stream'],
  ['doc', 'application/msword'], ['pot|pps|ppt', 'application/vnd.ms-powerpoint'], ['xla|xls|xlt|xlw', 'application/vnd.ms-excel'],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ['pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  ['odt', 'application/vnd.oasis.opendocument.text'], ['ods', 'application/vnd.oasis.opendocument.spreadsheet'],
  ['odp', 'application/vnd.oasis.opendocument.presentation'], ['epub', 'application/epub+zip'],
];

/** Extension → the MIME type WordPress gives it. */
export const ALLOWED_TYPES: ReadonlyMap<string, string> = new Map(GROUPS.flatMap(([exts, mime]) => exts.split('|').map((e) => [e, mime] as [string, string])));

/** Extensions whose files have no signature to sniff: accepted when the bytes are text. */
export const TEXT_EXTENSIONS: ReadonlySet<string> = new Set(['txt', 'asc', 'c', 'cc', 'h', 'srt', 'csv', 'tsv', 'ics', 'rtx', 'css', 'vtt', 'dfxp']);

/** Other names sniffers and clients use for the same types. */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg', 'image/x-png': 'image/png', 'image/vnd.microsoft.icon': 'image/x-icon',
  'image/x-ms-bmp': 'image/bmp', 'audio/mp3': 'audio/mpeg', 'audio/x-m4a': 'audio/mpeg', 'audio/mp4': 'audio/mpeg', 'audio/x-wav': 'audio/wav',
  'audio/vnd.wave': 'audio/wav', 'audio/x-flac': 'audio/flac', 'video/x-msvideo': 'video/avi', 'video/vnd.avi': 'video/avi',
  'application/x-rar-compressed': 'application/rar', 'application/vnd.rar': 'application/rar', 'application/gzip': 'application/x-gzip',
  'audio/x-aac': 'audio/aac', 'video/x-m4v': 'video/mp4', 'audio/midi': 'audio/midi', 'audio/x-midi': 'audio/midi', 'text/rtf': 'application/rtf',
  'video/ogg': 'video/ogg', 'audio/x-ogg': 'audio/ogg', 'application/x-cfb': 'application/x-cfb',
};

/** Old Office formats are one container format to a sniffer. */
const CONTAINERS: Record<string, string[]> = {
  'application/x-cfb': ['application/msword', 'application/vnd.ms-powerpoint', 'application/vnd.ms-excel'],
  'application/zip': ['application/epub+zip'],
  'video/mp4': ['audio/mpeg', 'video/quicktime', 'video/3gpp', 'video/3gpp2'],
  'audio/ogg': ['video/ogg'],
  'video/webm': ['audio/x-matroska', 'video/x-matroska'],
  'video/x-matroska': ['audio/x-matroska', 'video/webm'],
  'application/x-photoshop': ['application/octet-stream'],
  'image/vnd.adobe.photoshop': ['application/octet-stream'],
};

/** Whether a sniffed (or declared) type is the allowed type of the file's extension. */
export function sameType(found: string, allowed: string): boolean {
  const f = ALIASES[found] ?? found;
  return f === allowed || (CONTAINERS[f] ?? []).includes(allowed);
}
