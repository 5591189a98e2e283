// The content model's menuLocations section: checked with the rest of the file, and the locations
// a site has with it, without it, and with an empty one.
import { describe, expect, it } from 'vitest';
import { ContentModelError, checkContentModel } from '../../src/model/config.js';
import { DEFAULT_MENU_LOCATIONS, menuLocationsOf } from '../../src/menus/locations.js';

describe('menu locations of the content model', () => {
  it('declares its own locations, in order, or none', () => {
    const model = checkContentModel({ menuLocations: { header: 'Header menu', 'social-links': 'Social links' } });
    expect(menuLocationsOf(model)).toEqual({ header: 'Header menu', 'social-links': 'Social links' });
    expect(Object.keys(menuLocationsOf(model))).toEqual(['header', 'social-links']);
    expect(menuLocationsOf(checkContentModel({ menuLocations: {} }))).toEqual({});
  });

  it('defaults to primary and footer without the section', () => {
    expect(menuLocationsOf(checkContentModel({}))).toEqual({ primary: 'Primary menu', footer: 'Footer menu' });
    expect(menuLocationsOf({})).toEqual(DEFAULT_MENU_LOCATIONS);
  });

  it('refuses a slug the location route cannot take and an empty description, naming the key', () => {
    expect(() => checkContentModel({ menuLocations: { 'Top Menu': 'x' } })).toThrow(ContentModelError);
    expect(() => checkContentModel({ menuLocations: { 'Top Menu': 'x' } })).toThrow(/menuLocations\.Top Menu/);
    expect(() => checkContentModel({ menuLocations: { top: '' } })).toThrow(/menuLocations\.top/);
    expect(() => checkContentModel({ menuLocations: ['top'] })).toThrow(/menuLocations/);
  });
});
