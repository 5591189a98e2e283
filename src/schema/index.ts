// Imports every schema module and builds the executable schema.
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
import { unwrapOwnResolvers } from './resource-types.js';
import './site/types.js';
import './content/registered.js';
import './media/index.js';
import './users/index.js';
import './application-passwords/index.js';
import './terms/index.js';
import './types/index.js';
import './forms/index.js';
import './forms/feedback.js';
import './widgets/index.js';
import './menus/index.js';
import './seo/head/index.js';
import './seo/site/index.js';
import './seo/site/tools.js';
import './seo/site/indexing.js';
import './site-tools/index.js';
import './abilities/index.js';
import './relations/index.js';
import './comments/index.js';
import './subscriptions/index.js';
import './webhooks/index.js';

// Unsorted (Pothos sorts by default, rebuilding every type: about a tenth of a start); the printed
// SDL sorts its own copy.
export const schema = unwrapOwnResolvers(builder.toSchema({ sortSchema: false }));

/** The printed SDL is sorted so that its diff shows real changes only. */
export const sortedSchema = () => lexicographicSortSchema(schema);
