// The post type's GraphQL object (made with every post-like type in ../content/registered.ts).
import { contentRef } from '../content/registered.js';

export const PostRef = contentRef('post');
