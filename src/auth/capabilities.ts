// WordPress's five stock roles and the primitive capabilities each holds (wp-admin/includes/schema.php).
export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

const SUBSCRIBER = ['read', 'level_0'];
const CONTRIBUTOR = [...SUBSCRIBER, 'edit_posts', 'delete_posts', 'level_1'];
const AUTHOR = [...CONTRIBUTOR, 'upload_files', 'edit_published_posts', 'publish_posts', 'delete_published_posts', 'level_2'];
const EDITOR = [
  ...AUTHOR, 'moderate_comments', 'manage_categories', 'manage_links', 'unfiltered_html', 'edit_others_posts',
  'edit_pages', 'edit_others_pages', 'edit_published_pages', 'publish_pages', 'delete_pages', 'delete_others_pages',
  'delete_published_pages', 'delete_others_posts', 'delete_private_posts', 'edit_private_posts', 'read_private_posts',
  'delete_private_pages', 'edit_private_pages', 'read_private_pages', 'level_7',
];
const ADMINISTRATOR = [
  ...EDITOR, 'switch_themes', 'edit_themes', 'activate_plugins', 'edit_plugins', 'edit_users', 'edit_files',
  'manage_options', 'import', 'unfiltered_upload', 'edit_dashboard', 'update_plugins', 'delete_plugins',
  'install_plugins', 'update_themes', 'install_themes', 'update_core', 'list_users', 'remove_users', 'promote_users',
  'edit_theme_options', 'delete_themes', 'export', 'create_users', 'delete_users', 'level_10',
];

const BY_ROLE: Record<Role, ReadonlySet<string>> = {
  administrator: new Set(ADMINISTRATOR),
  editor: new Set(EDITOR),
  author: new Set(AUTHOR),
  contributor: new Set(CONTRIBUTOR),
  subscriber: new Set(SUBSCRIBER),
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function capabilitiesOf(role: string): ReadonlySet<string> {
  return isRole(role) ? BY_ROLE[role] : new Set();
}

/** Capability names per content type, as WordPress's post type objects map them. */
export interface TypeCaps {
  edit_posts: string; edit_others_posts: string; edit_published_posts: string; edit_private_posts: string;
  publish_posts: string; read_private_posts: string; delete_posts: string; delete_others_posts: string;
  delete_published_posts: string; delete_private_posts: string;
}
