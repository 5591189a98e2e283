// The theme's menu locations, as WordPress's register_nav_menus() declares them: the content model
// file's `menuLocations` section (slug → description), or, without one, the two locations most
// default themes register. Which menu fills a location is site data: the `nav_menu_locations`
// option (location → menu term id), written through the menus (their `locations` field).
import { CONTENT_MODEL, type ContentModelConfig } from '../model/config.js';

/** The locations of a site whose model declares none (as the Twenty-Twenty-something themes). */
export const DEFAULT_MENU_LOCATIONS: Readonly<Record<string, string>> = { primary: 'Primary menu', footer: 'Footer menu' };

/** The declared locations of a model: its own section (even an empty one), else the defaults. */
export const menuLocationsOf = (model: ContentModelConfig): Record<string, string> => ({ ...(model.menuLocations ?? DEFAULT_MENU_LOCATIONS) });

/** The declared locations of this process, in declaration order. */
export const MENU_LOCATIONS: Readonly<Record<string, string>> = menuLocationsOf(CONTENT_MODEL);

export const isMenuLocation = (slug: string): boolean => Object.prototype.hasOwnProperty.call(MENU_LOCATIONS, slug);
