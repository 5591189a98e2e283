import { defineContentType } from '../content/define.js';
import { PostInput } from '../content/inputs.js';
import { PostRef } from './types.js';

defineContentType({ type: 'post', name: 'Post', plural: 'posts', ref: PostRef, input: PostInput });
