// The template parser and the rule list: the pieces every forms consumer starts from.
import { describe, expect, it } from 'vitest';
import { parseTemplate, scanTemplate } from '../../src/forms/parser.js';
import { formRules, passes } from '../../src/forms/rules.js';
import { defaultProperties, parseAdditionalSettings } from '../../src/forms/properties.js';
import { configErrors } from '../../src/forms/mail.js';

const props = defaultProperties({ title: 'Site', host: 'example.com' });

describe('template parser', () => {
  it('reads names, options, quoted values with ] inside, pipes and enclosed content', () => {
    const [sel, acc] = parseTemplate('[select* s id:x class:y "A ]|a" \'B\'] [acceptance ok optional] Yes [/acceptance]');
    expect(sel).toMatchObject({ type: 'select*', basetype: 'select', name: 's', options: ['id:x', 'class:y'], raw_values: ['A ]|a', 'B'], values: ['A ]', 'B'], pipes: [['A ]', 'a'], ['B', 'B']] });
    expect(acc).toMatchObject({ type: 'acceptance', name: 'ok', options: ['optional'], content: 'Yes' });
  });
  it('leaves [[escaped]] tags and unknown brackets as text', () => {
    expect(parseTemplate('[[text a]] [your-name] [text b]').map((t) => t.name)).toEqual(['b']);
    expect(scanTemplate('[[text a]]')).toEqual([{ text: '[text a]' }]);
  });
});

describe('rules', () => {
  it('default maxlengths, enum, file limits', () => {
    const rules = formRules(parseTemplate('[text t] [textarea m] [radio r "1"] [file f limit:2kb filetypes:png|audio/*]'), props);
    expect(rules.map((r) => [r.field, r.rule])).toEqual([['t', 'maxlength'], ['m', 'maxlength'], ['r', 'required'], ['r', 'enum'], ['f', 'file'], ['f', 'maxfilesize']]);
    expect(rules.find((r) => r.field === 'f' && r.rule === 'file')).toMatchObject({ accept: ['.png', 'audio/*'] });
    expect(rules.find((r) => r.rule === 'maxfilesize')).toMatchObject({ threshold: 2048 });
    expect(passes(rules[4], undefined, [{ name: 'a.mp3', size: 1, type: 'audio/mpeg' }])).toBe(true);
    expect(passes(rules[4], undefined, [{ name: 'a.jpg', size: 1, type: 'image/jpeg' }])).toBe(false);
  });
});

describe('settings and configuration errors', () => {
  it('reads on/off as booleans', () => {
    expect(parseAdditionalSettings('demo_mode: on\nx: off\nflag: "v"').settings).toEqual([['demo_mode', true], ['x', false], ['flag', 'v']]);
  });
  it('reports a bad sender, a bad recipient and unknown mail tags', () => {
    const p = { ...props, mail: { ...props.mail, sender: 'nobody', recipient: '[your-name]', body: '[nope]' } };
    const errors = configErrors(p, parseTemplate(p.form));
    expect(Object.keys(errors).sort()).toEqual(['mail.body', 'mail.recipient', 'mail.sender']);
    expect(configErrors(props, parseTemplate(props.form))).toEqual({});
  });
});
