import { describe, it, expect } from 'vitest';
import {
  type ArgSchema,
  isBooleanLike,
  isRfc3339Date,
  parseList,
  sanitizeValue,
  toBoolean,
  validateValue,
} from '../../gateway/validate.js';

type Case = [label: string, value: unknown, expected: unknown];

/** Valid values: no error, and this sanitised output. */
function accepts(schema: ArgSchema, param: string, cases: Case[]) {
  it.each(cases)('accepts %s', (_label, value, expected) => {
    expect(validateValue(value, schema, param)).toBeNull();
    expect(sanitizeValue(value, schema, param)).toStrictEqual(expected);
  });
}

/** Invalid values: this error code (and message, when given). */
function rejects(schema: ArgSchema, param: string, cases: [label: string, value: unknown, code: string, message?: string][]) {
  it.each(cases)('rejects %s', (_label, value, code, message) => {
    const error = validateValue(value, schema, param);
    expect(error?.code).toBe(code);
    if (message !== undefined) expect(error?.message).toBe(message);
  });
}

// Core's own collection schemas, reused across the suite.
const perPage: ArgSchema = { type: 'integer', default: 10, minimum: 1, maximum: 100 };
const statuses: ArgSchema = {
  type: 'array',
  items: { type: 'string', enum: ['publish', 'future', 'draft', 'pending', 'private'] },
};
const termFilter: ArgSchema = {
  type: ['object', 'array'],
  oneOf: [
    { title: 'Term ID List', description: 'Match terms with the listed IDs.', type: 'array', items: { type: 'integer' } },
    {
      title: 'Term ID Taxonomy Query',
      description: 'Perform an advanced term query.',
      type: 'object',
      properties: {
        terms: { type: 'array', items: { type: 'integer' }, default: [] },
        include_children: { type: 'boolean', default: false },
        operator: { type: 'string', enum: ['AND', 'OR'], default: 'OR' },
      },
      additionalProperties: false,
    },
  ],
};

describe('integer bounds (per_page)', () => {
  accepts(perPage, 'per_page', [
    ['"5"', '5', 5],
    ['5', 5, 5],
    ['"1"', '1', 1],
    ['100', 100, 100],
    ['"1.0" (integral)', '1.0', 1],
    ['"1e1"', '1e1', 10],
    ['" 7" (PHP is_numeric allows leading space)', ' 7', 7],
  ]);
  rejects(perPage, 'per_page', [
    ['0', 0, 'rest_out_of_bounds', 'per_page must be between 1 (inclusive) and 100 (inclusive)'],
    ['101', 101, 'rest_out_of_bounds', 'per_page must be between 1 (inclusive) and 100 (inclusive)'],
    ['-1', -1, 'rest_out_of_bounds', 'per_page must be between 1 (inclusive) and 100 (inclusive)'],
    ['"0"', '0', 'rest_out_of_bounds'],
    ['"abc"', 'abc', 'rest_invalid_type', 'per_page is not of type integer.'],
    ['"1.5"', '1.5', 'rest_invalid_type', 'per_page is not of type integer.'],
    ['1.5', 1.5, 'rest_invalid_type'],
    ['"0x10"', '0x10', 'rest_invalid_type'],
    ['""', '', 'rest_invalid_type'],
    ['true', true, 'rest_invalid_type'],
    ['null', null, 'rest_invalid_type'],
    ['[]', [], 'rest_invalid_type'],
    ['"100.5" (bounds before integer check)', '100.5', 'rest_out_of_bounds'],
  ]);

  it('puts the invalid-type data under param', () => {
    expect(validateValue('abc', perPage, 'per_page')).toStrictEqual({
      code: 'rest_invalid_type',
      message: 'per_page is not of type integer.',
      data: { param: 'per_page' },
    });
    expect(validateValue(0, perPage, 'per_page')).toStrictEqual({
      code: 'rest_out_of_bounds',
      message: 'per_page must be between 1 (inclusive) and 100 (inclusive)',
      data: null,
    });
  });
});

describe('number bounds wording', () => {
  const table: [ArgSchema, unknown, string][] = [
    [{ type: 'integer', minimum: 1 }, 0, 'n must be greater than or equal to 1'],
    [{ type: 'integer', minimum: 1, exclusiveMinimum: true }, 1, 'n must be greater than 1'],
    [{ type: 'integer', maximum: 10 }, 11, 'n must be less than or equal to 10'],
    [{ type: 'integer', maximum: 10, exclusiveMaximum: true }, 10, 'n must be less than 10'],
    [{ type: 'number', minimum: 0, maximum: 1, exclusiveMinimum: true }, 0, 'n must be between 0 (exclusive) and 1 (inclusive)'],
    [{ type: 'number', minimum: 0, maximum: 1, exclusiveMaximum: true }, 1, 'n must be between 0 (inclusive) and 1 (exclusive)'],
    [{ type: 'number', minimum: 0, maximum: 1, exclusiveMinimum: true, exclusiveMaximum: true }, 1, 'n must be between 0 (exclusive) and 1 (exclusive)'],
    // %d truncates fractional bounds, as sprintf does in WordPress.
    [{ type: 'number', minimum: 0.5 }, 0.25, 'n must be greater than or equal to 0'],
  ];
  it.each(table)('%j rejects %j', (schema, value, message) => {
    expect(validateValue(value, schema, 'n')).toStrictEqual({ code: 'rest_out_of_bounds', message, data: null });
  });

  it('accepts values on an inclusive bound and inside exclusive ones', () => {
    expect(validateValue(1, { type: 'integer', minimum: 1 }, 'n')).toBeNull();
    expect(validateValue(0.5, { type: 'number', minimum: 0, maximum: 1, exclusiveMinimum: true, exclusiveMaximum: true }, 'n')).toBeNull();
  });
});

describe('numbers', () => {
  const schema: ArgSchema = { type: 'number' };
  accepts(schema, 'n', [
    ['"1.5"', '1.5', 1.5],
    ['"-2"', '-2', -2],
    ['".5"', '.5', 0.5],
    ['"1e3"', '1e3', 1000],
    ['3', 3, 3],
  ]);
  rejects(schema, 'n', [
    ['"abc"', 'abc', 'rest_invalid_type', 'n is not of type number.'],
    ['"1,5"', '1,5', 'rest_invalid_type'],
    ['false', false, 'rest_invalid_type'],
  ]);

  it('checks multipleOf', () => {
    expect(validateValue(10, { type: 'integer', multipleOf: 5 }, 'n')).toBeNull();
    expect(validateValue('7', { type: 'integer', multipleOf: 5 }, 'n')).toStrictEqual({
      code: 'rest_invalid_multiple',
      message: 'n must be a multiple of 5.',
      data: null,
    });
    expect(validateValue(0.3, { type: 'number', multipleOf: 0.5 }, 'n')?.message).toBe('n must be a multiple of 0.5.');
  });
});

describe('booleans', () => {
  const schema: ArgSchema = { type: 'boolean' };
  accepts(schema, 'sticky', [
    ['true', true, true],
    ['false', false, false],
    ['"true"', 'true', true],
    ['"false"', 'false', false],
    ['"TRUE"', 'TRUE', true],
    ['"False"', 'False', false],
    ['"1"', '1', true],
    ['"0"', '0', false],
    ['1', 1, true],
    ['0', 0, false],
  ]);
  rejects(schema, 'sticky', [
    ['"yes"', 'yes', 'rest_invalid_type', 'sticky is not of type boolean.'],
    ['"no"', 'no', 'rest_invalid_type'],
    ['"on"', 'on', 'rest_invalid_type'],
    // rest_is_boolean('') is false in WordPress: an empty string is refused by validation
    // (only the sanitiser maps it to false).
    ['""', '', 'rest_invalid_type'],
    ['2', 2, 'rest_invalid_type'],
    ['null', null, 'rest_invalid_type'],
    ['[]', [], 'rest_invalid_type'],
  ]);

  it.each([
    [true, true], [false, true], ['true', true], ['FALSE', true], ['1', true], ['0', true], [1, true], [0, true],
    ['', false], ['yes', false], [2, false], [-1, false], [null, false], [undefined, false], [[], false], [{}, false], [0.5, false],
  ])('isBooleanLike(%j) is %s', (value, expected) => {
    expect(isBooleanLike(value)).toBe(expected);
  });

  it.each([
    ['false', false], ['FALSE', false], ['0', false], ['', false], ['true', true], ['yes', true], ['no', true],
    [0, false], [1, true], [2, true], [true, true], [false, false], [null, false], [[], false], [[0], true], [{}, false],
  ])('toBoolean(%j) is %s', (value, expected) => {
    expect(toBoolean(value)).toBe(expected);
  });
});

describe('parseList', () => {
  it.each([
    ['a,b,c', ['a', 'b', 'c']],
    ['a, b  c,,d', ['a', 'b', 'c', 'd']],
    [' 1\t2\n3 ', ['1', '2', '3']],
    ['', []],
    [',,', []],
    [5, ['5']],
    [true, ['1']],
    [false, []],
    [null, []],
    [['a', 1, null, ['x'], { y: 1 }, true], ['a', 1, true]],
  ])('parseList(%j)', (value, expected) => {
    expect(parseList(value)).toStrictEqual(expected);
  });
});

describe('arrays', () => {
  const ids: ArgSchema = { type: 'array', items: { type: 'integer' } };
  accepts(ids, 'include', [
    ['"1,2,3"', '1,2,3', [1, 2, 3]],
    ['"1 2, 3"', '1 2, 3', [1, 2, 3]],
    ['["1","2"]', ['1', '2'], [1, 2]],
    ['[1,2]', [1, 2], [1, 2]],
    ['"7" (a scalar is a one-item list)', '7', [7]],
    ['7', 7, [7]],
    ['""', '', []],
    ['[]', [], []],
    ['{"0":"4","1":"5"} (integer keys are a list)', { 0: '4', 1: '5' }, [4, 5]],
  ]);
  rejects(ids, 'include', [
    ['"1,a"', '1,a', 'rest_invalid_type', 'include[1] is not of type integer.'],
    ['["1.5"]', ['1.5'], 'rest_invalid_type', 'include[0] is not of type integer.'],
    ['{"a":1}', { a: 1 }, 'rest_invalid_type', 'include is not of type array.'],
    ['null', null, 'rest_invalid_type', 'include is not of type array.'],
  ]);

  it('reports the failing item with its index as param', () => {
    expect(validateValue(['1', 'x'], ids, 'include')).toStrictEqual({
      code: 'rest_invalid_type',
      message: 'include[1] is not of type integer.',
      data: { param: 'include[1]' },
    });
  });

  describe('enum items (status)', () => {
    accepts(statuses, 'status', [
      ['"publish"', 'publish', ['publish']],
      ['"publish,draft"', 'publish,draft', ['publish', 'draft']],
      ['["future","private"]', ['future', 'private'], ['future', 'private']],
    ]);
    rejects(statuses, 'status', [
      ['"trash"', 'trash', 'rest_not_in_enum', 'status[0] is not one of publish, future, draft, pending, and private.'],
      ['"publish,bogus"', 'publish,bogus', 'rest_not_in_enum', 'status[1] is not one of publish, future, draft, pending, and private.'],
      ['["PUBLISH"]', ['PUBLISH'], 'rest_not_in_enum'],
    ]);
  });

  describe('minItems / maxItems', () => {
    const schema: ArgSchema = { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 3 };
    accepts(schema, 'tags', [
      ['two', 'a,b', ['a', 'b']],
      ['three', ['a', 'b', 'c'], ['a', 'b', 'c']],
    ]);
    rejects(schema, 'tags', [
      ['one', 'a', 'rest_too_few_items', 'tags must contain at least 2 items.'],
      ['none', [], 'rest_too_few_items'],
      ['four', 'a,b,c,d', 'rest_too_many_items', 'tags must contain at most 3 items.'],
    ]);

    it('uses the singular for one', () => {
      expect(validateValue([], { type: 'array', minItems: 1 }, 'x')?.message).toBe('x must contain at least 1 item.');
      expect(validateValue([1, 2], { type: 'array', maxItems: 1 }, 'x')?.message).toBe('x must contain at most 1 item.');
      expect(validateValue([], { type: 'array', minItems: 1000 }, 'x')?.message).toBe('x must contain at least 1,000 items.');
    });
  });

  describe('uniqueItems', () => {
    const unique: ArgSchema = { type: 'array', items: { type: 'integer' }, uniqueItems: true };
    accepts(unique, 'ids', [
      ['[1,2,3]', [1, 2, 3], [1, 2, 3]],
      ['"3,2,1"', '3,2,1', [3, 2, 1]],
    ]);
    rejects(unique, 'ids', [
      ['[1,2,1]', [1, 2, 1], 'rest_duplicate_items', 'ids has duplicate items.'],
      ['"1,1"', '1,1', 'rest_duplicate_items'],
      // Distinct raw items that become equal once sanitised: refused by the sanitise step.
      ['["1",1]', ['1', 1], 'rest_duplicate_items', 'ids has duplicate items.'],
      ['["1","01"]', ['1', '01'], 'rest_duplicate_items'],
    ]);

    it('compares strings by their exact value', () => {
      const strings: ArgSchema = { type: 'array', items: { type: 'string' }, uniqueItems: true };
      expect(validateValue(['a', 'A', '1'], strings, 's')).toBeNull();
      expect(validateValue(['a', 'a'], strings, 's')?.code).toBe('rest_duplicate_items');
    });

    it('ignores property order when comparing objects', () => {
      const objects: ArgSchema = { type: 'array', items: { type: 'object' }, uniqueItems: true };
      expect(validateValue([{ a: 1, b: 2 }, { b: 2, a: 1 }], objects, 'o')?.code).toBe('rest_duplicate_items');
      expect(validateValue([{ a: 1 }, { a: 2 }], objects, 'o')).toBeNull();
    });

    it('does not deduplicate when sanitising', () => {
      expect(sanitizeValue([1, 2], unique, 'ids')).toStrictEqual([1, 2]);
    });
  });
});

describe('dates (date-time format)', () => {
  const schema: ArgSchema = { type: 'string', format: 'date-time' };
  accepts(schema, 'after', [
    ['T separator', '2024-05-01T10:00:00', '2024-05-01T10:00:00'],
    ['space separator', '2024-05-01 10:00:00', '2024-05-01 10:00:00'],
    ['Z', '2024-05-01T10:00:00Z', '2024-05-01T10:00:00Z'],
    ['offset', '2024-05-01T10:00:00+02:00', '2024-05-01T10:00:00+02:00'],
    ['short offset', '2024-05-01T10:00:00-05', '2024-05-01T10:00:00-05'],
    ['fraction', '2024-05-01T10:00:00.123', '2024-05-01T10:00:00.123'],
    ['fraction and Z', '2024-05-01T10:00:00.5Z', '2024-05-01T10:00:00.5Z'],
    ['lowercase t', '2024-05-01t10:00:00', '2024-05-01t10:00:00'],
  ]);
  rejects(schema, 'after', [
    ['date only', '2024-05-01', 'rest_invalid_date', 'Invalid date.'],
    ['"yesterday"', 'yesterday', 'rest_invalid_date'],
    ['no seconds', '2024-05-01T10:00', 'rest_invalid_date'],
    ['month 13', '2024-13-01T10:00:00', 'rest_invalid_date'],
    ['minute 60', '2024-05-01T10:60:00', 'rest_invalid_date'],
    ['offset with seconds', '2024-05-01T10:00:00+02:00:00', 'rest_invalid_date'],
    ['empty', '', 'rest_invalid_date'],
    ['number', 20240501, 'rest_invalid_type', 'after is not of type string.'],
  ]);

  it('has no error data', () => {
    expect(validateValue('yesterday', schema, 'after')).toStrictEqual({ code: 'rest_invalid_date', message: 'Invalid date.', data: null });
  });

  it.each([
    ['2024-05-01T10:00:00', true],
    ['2024-05-01 10:00:00', true],
    ['2024-05-01T24:00:00', true],
    ['2024-02-30T10:00:00', true], // rolls over, as strtotime does
    ['2024-05-01T10:00:60', true],
    ['2024-05-01T10:00:00Z', true],
    ['2024-05-01T10:00:00+0200', false],
    ['2024-05-01', false],
    ['2024-5-1T10:00:00', false],
    ['2024-05-01T25:00:00', false],
    [' 2024-05-01T10:00:00', false],
  ])('isRfc3339Date(%j) is %s', (value, expected) => {
    expect(isRfc3339Date(value)).toBe(expected);
  });
});

describe('objects', () => {
  const meta: ArgSchema = {
    type: 'object',
    properties: {
      color: { type: 'string' },
      count: { type: 'integer' },
      flags: { type: 'array', items: { type: 'boolean' } },
    },
    additionalProperties: false,
  };
  accepts(meta, 'meta', [
    ['known props, coerced', { color: 'red', count: '3', flags: 'true,0' }, { color: 'red', count: 3, flags: [true, false] }],
    ['"" as empty object', '', {}],
    ['{}', {}, {}],
    ['[] (an empty PHP array)', [], []],
  ]);
  rejects(meta, 'meta', [
    ['unknown prop', { color: 'red', size: 1 }, 'rest_additional_properties_forbidden', 'size is not a valid property of Object.'],
    ['list (keys 0, 1)', ['a', 'b'], 'rest_additional_properties_forbidden', '0 is not a valid property of Object.'],
    ['bad nested type', { count: 'many' }, 'rest_invalid_type', 'meta[count] is not of type integer.'],
    ['bad nested item', { flags: ['yes'] }, 'rest_invalid_type', 'meta[flags][0] is not of type boolean.'],
    ['string', 'red', 'rest_invalid_type', 'meta is not of type object.'],
    ['number', 5, 'rest_invalid_type'],
    ['null', null, 'rest_invalid_type'],
  ]);

  it('reports "title is not of type object."', () => {
    expect(validateValue('Hello', { type: 'object', properties: { raw: { type: 'string' } } }, 'title')).toStrictEqual({
      code: 'rest_invalid_type',
      message: 'title is not of type object.',
      data: { param: 'title' },
    });
  });

  it('treats a list as an object with index keys', () => {
    const open: ArgSchema = { type: 'object' };
    expect(validateValue(['a', 'b'], open, 'o')).toBeNull();
    expect(sanitizeValue(['a', 'b'], open, 'o')).toStrictEqual(['a', 'b']);
    const typed: ArgSchema = { type: 'object', properties: { 0: { type: 'integer' } } };
    expect(validateValue(['x'], typed, 'o')?.message).toBe('o[0] is not of type integer.');
    expect(sanitizeValue(['5'], typed, 'o')).toStrictEqual([5]);
  });

  it('keeps unknown properties when additionalProperties is not set, and drops them when false', () => {
    const loose: ArgSchema = { type: 'object', properties: { a: { type: 'integer' } } };
    expect(sanitizeValue({ a: '1', b: 'x' }, loose, 'o')).toStrictEqual({ a: 1, b: 'x' });
    // Sanitising alone (no validation) drops what additionalProperties forbids.
    expect(sanitizeValue({ color: 'red', size: 1 }, meta, 'meta')).toStrictEqual({ color: 'red' });
    expect(sanitizeValue(['a', 'b'], { type: 'object', properties: { 0: { type: 'string' } }, additionalProperties: false }, 'o')).toStrictEqual(['a']);
  });

  it('validates and sanitises additionalProperties given as a schema', () => {
    const map: ArgSchema = { type: 'object', additionalProperties: { type: 'integer' } };
    expect(validateValue({ a: '1', b: 2 }, map, 'm')).toBeNull();
    expect(sanitizeValue({ a: '1', b: 2 }, map, 'm')).toStrictEqual({ a: 1, b: 2 });
    expect(validateValue({ a: 'x' }, map, 'm')?.message).toBe('m[a] is not of type integer.');
  });

  it('applies patternProperties before additionalProperties', () => {
    const schema: ArgSchema = {
      type: 'object',
      patternProperties: { '^[a-z]+_id$': { type: 'integer' } },
      additionalProperties: false,
    };
    expect(validateValue({ post_id: '4' }, schema, 'p')).toBeNull();
    expect(sanitizeValue({ post_id: '4' }, schema, 'p')).toStrictEqual({ post_id: 4 });
    expect(validateValue({ post_id: 'x' }, schema, 'p')?.message).toBe('p[post_id] is not of type integer.');
    expect(validateValue({ Post: 1 }, schema, 'p')?.code).toBe('rest_additional_properties_forbidden');
  });

  describe('required properties', () => {
    const oldStyle: ArgSchema = { type: 'object', properties: { raw: { type: 'string', required: true }, rendered: { type: 'string' } } };
    const draft4: ArgSchema = { type: 'object', properties: { raw: { type: 'string' } }, required: ['raw'] };

    it.each([
      ['old style (required: true)', oldStyle],
      ['draft 4 (required: [...])', draft4],
    ])('%s', (_label, schema) => {
      expect(validateValue({ raw: 'x' }, schema, 'title')).toBeNull();
      expect(validateValue({ rendered: 'x' }, schema, 'title')).toStrictEqual({
        code: 'rest_property_required',
        message: 'raw is a required property of title.',
        data: null,
      });
      expect(validateValue('', schema, 'title')?.code).toBe('rest_property_required');
    });

    it('names the nested parameter', () => {
      const nested: ArgSchema = { type: 'object', properties: { inner: { type: 'object', properties: { id: { type: 'integer', required: true } } } } };
      expect(validateValue({ inner: {} }, nested, 'outer')?.message).toBe('id is a required property of outer[inner].');
    });

    it('prefers the draft-4 list when both styles are present', () => {
      const both: ArgSchema = { type: 'object', properties: { a: { type: 'string', required: true }, b: { type: 'string' } }, required: ['b'] };
      expect(validateValue({ b: 'x' }, both, 'o')).toBeNull();
      expect(validateValue({ a: 'x' }, both, 'o')?.message).toBe('b is a required property of o.');
    });
  });

  it('checks minProperties / maxProperties', () => {
    const schema: ArgSchema = { type: 'object', minProperties: 1, maxProperties: 2 };
    expect(validateValue({ a: 1 }, schema, 'o')).toBeNull();
    expect(validateValue({}, schema, 'o')).toStrictEqual({ code: 'rest_too_few_properties', message: 'o must contain at least 1 property.', data: null });
    expect(validateValue({ a: 1, b: 2, c: 3 }, schema, 'o')).toStrictEqual({ code: 'rest_too_many_properties', message: 'o must contain at most 2 properties.', data: null });
    expect(validateValue({}, { type: 'object', minProperties: 2 }, 'o')?.message).toBe('o must contain at least 2 properties.');
  });
});

describe('oneOf: the categories / tags collection filter', () => {
  accepts(termFilter, 'categories', [
    ['[1,2]', [1, 2], [1, 2]],
    ['"1,2"', '1,2', [1, 2]],
    ['["3"]', ['3'], [3]],
    ['"5"', '5', [5]],
    ['{terms:[1], operator:"AND"}', { terms: [1], operator: 'AND' }, { terms: [1], operator: 'AND' }],
    ['{terms:"1,2", include_children:"true"}', { terms: '1,2', include_children: 'true' }, { terms: [1, 2], include_children: true }],
    ['{operator:"OR"}', { operator: 'OR' }, { operator: 'OR' }],
  ]);
  rejects(termFilter, 'categories', [
    ['{terms:[1], foo:1}', { terms: [1], foo: 1 }, 'rest_no_matching_schema', 'categories is not a valid Term ID Taxonomy Query. Reason: foo is not a valid property of Object.'],
    ['{operator:"XOR"}', { operator: 'XOR' }, 'rest_no_matching_schema', 'categories is not a valid Term ID Taxonomy Query. Reason: categories[operator] is not one of AND and OR.'],
    ['{terms:["x"]}', { terms: ['x'] }, 'rest_no_matching_schema', 'categories is not a valid Term ID Taxonomy Query. Reason: categories[terms][0] is not of type integer.'],
    ['"abc"', 'abc', 'rest_no_matching_schema', 'categories is not a valid Term ID List. Reason: categories[0] is not of type integer.'],
    ['{} (matches both)', {}, 'rest_one_of_multiple_matches', 'categories matches Term ID List and Term ID Taxonomy Query, but should match only one.'],
    ['"" (matches both)', '', 'rest_one_of_multiple_matches'],
    ['null', null, 'rest_no_matching_schema', 'categories is not a valid Term ID List and Term ID Taxonomy Query.'],
  ]);

  it('carries the failing position or the matching positions as data', () => {
    expect(validateValue({ terms: [1], foo: 1 }, termFilter, 'categories')?.data).toStrictEqual({ position: 1 });
    expect(validateValue('abc', termFilter, 'categories')?.data).toStrictEqual({ position: 0 });
    expect(validateValue({}, termFilter, 'categories')?.data).toStrictEqual({ positions: [0, 1] });
    expect(validateValue(null, termFilter, 'categories')?.data).toBeNull();
  });

  it('words untitled schemas differently', () => {
    const untitled: ArgSchema = { oneOf: [{ type: 'integer' }, { type: 'number' }, { type: 'string', minLength: 3 }] };
    expect(validateValue(5, untitled, 'v')).toStrictEqual({
      code: 'rest_one_of_multiple_matches',
      message: 'v matches more than one of the expected formats.',
      data: { positions: [0, 1] },
    });
    expect(validateValue('ab', untitled, 'v')).toStrictEqual({
      code: 'rest_no_matching_schema',
      message: 'v does not match the expected format. Reason: v must be at least 3 characters long.',
      data: { position: 2 },
    });
    expect(validateValue(null, untitled, 'v')).toStrictEqual({
      code: 'rest_no_matching_schema',
      message: 'v does not match any of the expected formats.',
      data: null,
    });
  });

  it('picks the object schema sharing the most properties with the value', () => {
    const shapes: ArgSchema = {
      oneOf: [
        { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false },
        { type: 'object', properties: { b: { type: 'integer' }, c: { type: 'integer' } }, additionalProperties: false },
      ],
    };
    expect(validateValue({ b: 'x', c: 1 }, shapes, 's')).toStrictEqual({
      code: 'rest_no_matching_schema',
      message: 's does not match the expected format. Reason: s[b] is not of type integer.',
      data: { position: 1 },
    });
  });
});

describe('anyOf', () => {
  const schema: ArgSchema = { anyOf: [{ type: 'integer' }, { type: 'string', enum: ['auto'] }] };
  accepts(schema, 'width', [
    ['"5" (first match wins)', '5', 5],
    ['7', 7, 7],
    ['"auto"', 'auto', 'auto'],
  ]);
  rejects(schema, 'width', [
    ['"wide"', 'wide', 'rest_no_matching_schema', 'width does not match the expected format. Reason: width is not auto.'],
    ['true', true, 'rest_no_matching_schema', 'width does not match any of the expected formats.'],
  ]);

  it('lets subschemas inherit the parent type', () => {
    const inherited: ArgSchema = { type: 'string', anyOf: [{ enum: ['a'] }, { minLength: 3 }] };
    expect(validateValue('a', inherited, 'x')).toBeNull();
    expect(validateValue('abc', inherited, 'x')).toBeNull();
    expect(validateValue(5, inherited, 'x')?.code).toBe('rest_no_matching_schema');
  });
});

describe('multiple types', () => {
  const nullable: ArgSchema = { type: ['string', 'null'] };
  accepts(nullable, 'x', [
    ['a string', 'abc', 'abc'],
    ['""', '', ''],
    ['null', null, null],
  ]);
  rejects(nullable, 'x', [
    ['5', 5, 'rest_invalid_type', 'x is not of type string,null.'],
    ['true', true, 'rest_invalid_type'],
    ['[]', [], 'rest_invalid_type'],
  ]);

  it('picks the first type in the list that fits', () => {
    expect(sanitizeValue('5', { type: ['integer', 'string'] }, 'x')).toBe(5);
    expect(sanitizeValue('5', { type: ['string', 'integer'] }, 'x')).toBe('5');
    expect(sanitizeValue('1', { type: ['boolean', 'integer'] }, 'x')).toBe(true);
    expect(sanitizeValue('1.5', { type: ['integer', 'number'] }, 'x')).toBe(1.5);
    expect(sanitizeValue('a,b', { type: ['object', 'array'] }, 'x')).toStrictEqual(['a', 'b']);
    expect(sanitizeValue({ a: 1 }, { type: ['array', 'object'] }, 'x')).toStrictEqual({ a: 1 });
    expect(sanitizeValue('', { type: ['array', 'string'] }, 'x')).toBe('');
  });

  it('validates against the chosen type', () => {
    expect(validateValue(150, { type: ['integer', 'null'], maximum: 100 }, 'x')?.code).toBe('rest_out_of_bounds');
    expect(validateValue(null, { type: ['integer', 'null'], maximum: 100 }, 'x')).toBeNull();
  });

  it('lets anything through when the list has an unknown type (WordPress back-compat)', () => {
    expect(validateValue({ a: 1 }, { type: ['integer', 'custom'] }, 'x')).toBeNull();
  });
});

describe('null type', () => {
  it('accepts only null', () => {
    expect(validateValue(null, { type: 'null' }, 'x')).toBeNull();
    expect(sanitizeValue(null, { type: 'null' }, 'x')).toBeNull();
    expect(validateValue('', { type: 'null' }, 'x')).toStrictEqual({ code: 'rest_invalid_type', message: 'x is not of type null.', data: { param: 'x' } });
    expect(validateValue(null, { type: 'string' }, 'x')?.message).toBe('x is not of type string.');
  });
});

describe('strings', () => {
  const slug: ArgSchema = { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z-]+$' };
  accepts(slug, 'slug', [
    ['"ab"', 'ab', 'ab'],
    ['"a-b-c"', 'a-b-c', 'a-b-c'],
  ]);
  rejects(slug, 'slug', [
    ['too short', 'a', 'rest_too_short', 'slug must be at least 2 characters long.'],
    ['too long', 'abcdef', 'rest_too_long', 'slug must be at most 5 characters long.'],
    ['pattern', 'AB', 'rest_invalid_pattern', 'slug does not match pattern ^[a-z-]+$.'],
    ['a number', 12, 'rest_invalid_type', 'slug is not of type string.'],
  ]);

  it('counts characters, not bytes, and uses the singular for one', () => {
    expect(validateValue('éèà', { type: 'string', maxLength: 3 }, 's')).toBeNull();
    expect(validateValue('😀😀', { type: 'string', maxLength: 2 }, 's')).toBeNull();
    expect(validateValue('', { type: 'string', minLength: 1 }, 's')?.message).toBe('s must be at least 1 character long.');
    expect(validateValue('ab', { type: 'string', maxLength: 1 }, 's')?.message).toBe('s must be at most 1 character long.');
  });

  it('casts scalars to strings when sanitising', () => {
    expect(sanitizeValue(5, { type: 'string' }, 's')).toBe('5');
    expect(sanitizeValue(true, { type: 'string' }, 's')).toBe('1');
    expect(sanitizeValue(false, { type: 'string' }, 's')).toBe('');
    expect(sanitizeValue(1.5, { type: 'string' }, 's')).toBe('1.5');
    expect(sanitizeValue(' keep  me ', { type: 'string' }, 's')).toBe(' keep  me ');
  });
});

describe('enum', () => {
  it('compares after sanitising, so "2" matches 2 for integers', () => {
    const schema: ArgSchema = { type: 'integer', enum: [1, 2, 3] };
    expect(validateValue('2', schema, 'n')).toBeNull();
    expect(sanitizeValue('2', schema, 'n')).toBe(2);
    expect(validateValue('4', schema, 'n')).toStrictEqual({ code: 'rest_not_in_enum', message: 'n is not one of 1, 2, and 3.', data: null });
  });

  it('uses the single-value wording', () => {
    expect(validateValue('b', { type: 'string', enum: ['a'] }, 'x')?.message).toBe('x is not a.');
    expect(validateValue('c', { type: 'string', enum: ['a', 'b'] }, 'x')?.message).toBe('x is not one of a and b.');
  });

  it('is strict about types for strings', () => {
    expect(validateValue('1', { type: 'string', enum: [1] }, 'x')?.code).toBe('rest_not_in_enum');
  });

  it('JSON-encodes non-scalar options in the message', () => {
    const schema: ArgSchema = { type: 'array', enum: [['a', 'b'], { c: '/' }] };
    expect(validateValue('a,b', schema, 'x')).toBeNull();
    expect(validateValue('b,a', schema, 'x')?.message).toBe('x is not one of ["a","b"] and {"c":"\\/"}.');
  });
});

describe('formats', () => {
  const email: ArgSchema = { type: 'string', format: 'email' };
  accepts(email, 'email', [
    ['plain', 'user@example.com', 'user@example.com'],
    ['not lowercased (sanitize_text_field only)', 'User@Example.COM', 'User@Example.COM'],
    ['plus tag', 'a+b@sub.example.org', 'a+b@sub.example.org'],
  ]);
  rejects(email, 'email', [
    ['no at', 'example.com', 'rest_invalid_email', 'Invalid email address.'],
    ['no dot in domain', 'user@localhost', 'rest_invalid_email'],
    ['too short', 'a@b.c', 'rest_invalid_email'],
    ['double dot', 'user@example..com', 'rest_invalid_email'],
    ['space', 'us er@example.com', 'rest_invalid_email'],
    ['hyphen edge', 'user@-example.com', 'rest_invalid_email'],
  ]);

  const uuid: ArgSchema = { type: 'string', format: 'uuid' };
  accepts(uuid, 'id', [['lowercase', '123e4567-e89b-12d3-a456-426614174000', '123e4567-e89b-12d3-a456-426614174000']]);
  rejects(uuid, 'id', [
    ['uppercase', '123E4567-E89B-12D3-A456-426614174000', 'rest_invalid_uuid', 'id is not a valid UUID.'],
    ['short', '123e4567', 'rest_invalid_uuid'],
  ]);

  const color: ArgSchema = { type: 'string', format: 'hex-color' };
  accepts(color, 'color', [
    ['#fff', '#fff', '#fff'],
    ['#A1b2C3', '#A1b2C3', '#A1b2C3'],
  ]);
  rejects(color, 'color', [
    ['no hash', 'fff', 'rest_invalid_hex_color', 'Invalid hex color.'],
    ['4 digits', '#ffff', 'rest_invalid_hex_color'],
    ['not hex', '#ggg', 'rest_invalid_hex_color'],
  ]);

  const ip: ArgSchema = { type: 'string', format: 'ip' };
  accepts(ip, 'ip', [
    ['IPv4', '192.168.0.1', '192.168.0.1'],
    ['IPv6 loopback', '::1', '::1'],
    ['IPv6 full', '2001:0db8:0000:0000:0000:ff00:0042:8329', '2001:0db8:0000:0000:0000:ff00:0042:8329'],
    ['IPv6 compressed', '2001:db8::ff00:42:8329', '2001:db8::ff00:42:8329'],
    ['IPv4-mapped IPv6', '::ffff:192.0.2.1', '::ffff:192.0.2.1'],
  ]);
  rejects(ip, 'ip', [
    ['octet > 255', '256.0.0.1', 'rest_invalid_ip', 'ip is not a valid IP address.'],
    ['three octets', '1.2.3', 'rest_invalid_ip'],
    ['two ::', '1::2::3', 'rest_invalid_ip'],
    ['hostname', 'localhost', 'rest_invalid_ip'],
  ]);

  it('does not validate uri, only sanitises it (esc_url_raw)', () => {
    const uri: ArgSchema = { type: 'string', format: 'uri' };
    expect(validateValue('not a url', uri, 'u')).toBeNull();
    expect(validateValue('javascript:alert(1)', uri, 'u')).toBeNull();
    expect(sanitizeValue('javascript:alert(1)', uri, 'u')).toBe('');
    expect(sanitizeValue('  https://example.com/a b', uri, 'u')).toBe('https://example.com/a%20b');
    expect(sanitizeValue('example.com/page', uri, 'u')).toBe('http://example.com/page');
    expect(sanitizeValue('HTTPS://Example.com/', uri, 'u')).toBe('https://Example.com/');
    expect(sanitizeValue('/relative/path?x=1', uri, 'u')).toBe('/relative/path?x=1');
    expect(sanitizeValue('mailto:me@example.com', uri, 'u')).toBe('mailto:me@example.com');
    expect(sanitizeValue('http://example.com/<script>', uri, 'u')).toBe('http://example.com/script');
    expect(sanitizeValue('', uri, 'u')).toBe('');
  });

  it('sanitises text-field and textarea-field', () => {
    const text: ArgSchema = { type: 'string', format: 'text-field' };
    const area: ArgSchema = { type: 'string', format: 'textarea-field' };
    expect(validateValue('<b>x</b>', text, 't')).toBeNull();
    expect(sanitizeValue('  <b>Hello</b>\n\tworld  ', text, 't')).toBe('Hello world');
    expect(sanitizeValue('a < b', text, 't')).toBe('a &lt; b');
    expect(sanitizeValue('x<script>alert(1)</script>y', text, 't')).toBe('xy');
    expect(sanitizeValue('100%25 sure %zz', text, 't')).toBe('100 sure %zz');
    expect(sanitizeValue(' line1\n  line2 ', area, 't')).toBe('line1\n  line2');
  });

  it('sanitises date-time, ip, uuid and email with sanitize_text_field', () => {
    expect(sanitizeValue('2024-05-01T10:00:00\n', { type: 'string', format: 'date-time' }, 'd')).toBe('2024-05-01T10:00:00');
  });

  it('ignores format for non-string types', () => {
    expect(validateValue(5, { type: 'integer', format: 'email' }, 'n')).toBeNull();
    expect(sanitizeValue('5', { type: 'integer', format: 'email' }, 'n')).toBe(5);
  });

  it('applies format when the type is missing', () => {
    expect(validateValue('nope', { format: 'email' }, 'e')?.code).toBe('rest_invalid_email');
    expect(validateValue('a@example.com', { format: 'email' }, 'e')).toBeNull();
  });
});

describe('sanitizeValue coercions', () => {
  it.each<[string, unknown, ArgSchema, unknown]>([
    ['integer from "12"', '12', { type: 'integer' }, 12],
    ['integer from "-0"', '-0', { type: 'integer' }, 0],
    ['number from "1.25"', '1.25', { type: 'number' }, 1.25],
    ['boolean from "false"', 'false', { type: 'boolean' }, false],
    ['boolean from "1"', '1', { type: 'boolean' }, true],
    ['boolean from 0', 0, { type: 'boolean' }, false],
    ['array from "a,b"', 'a,b', { type: 'array' }, ['a', 'b']],
    ['array of numbers from "1.5 2"', '1.5 2', { type: 'array', items: { type: 'number' } }, [1.5, 2]],
    ['nested arrays', [['1', '2'], '3'], { type: 'array', items: { type: 'array', items: { type: 'integer' } } }, [[1, 2], [3]]],
    ['object from ""', '', { type: 'object' }, {}],
    ['nested object', { a: { b: '1' } }, { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'integer' } } } } }, { a: { b: 1 } }],
    ['array of objects', [{ id: '1' }, { id: '2' }], { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } }, [{ id: 1 }, { id: 2 }]],
    ['no type: unchanged', { a: '1' }, {}, { a: '1' }],
  ])('%s', (_label, value, schema, expected) => {
    expect(sanitizeValue(value, schema, 'p')).toStrictEqual(expected);
  });

  it('does not mutate its input', () => {
    const input = { terms: ['1'], operator: 'AND' };
    sanitizeValue(input, termFilter, 'categories');
    expect(input).toStrictEqual({ terms: ['1'], operator: 'AND' });
  });
});
