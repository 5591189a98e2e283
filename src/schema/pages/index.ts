import { defineContentType } from '../content/define.js';
import { PageInput } from '../content/inputs.js';
import { PageRef } from './types.js';

defineContentType({ type: 'page', name: 'Page', plural: 'pages', ref: PageRef, input: PageInput });
