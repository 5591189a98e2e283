// ESLint, flat config. For now it lints the printed GraphQL schema only (`npm run lint:schema`,
// and test/contract/schema-lint.test.ts, which runs it under `npm test`): @graphql-eslint's
// schema-recommended rules, with the few changes below, each with its reason.
import graphql from '@graphql-eslint/eslint-plugin';

const recommended = graphql.configs['flat/schema-recommended'].rules;
const [, naming] = recommended['@graphql-eslint/naming-convention'];

export default [
  {
    files: ['schema.graphql'],
    languageOptions: { parser: graphql.parser, parserOptions: { graphQLConfig: { schema: 'schema.graphql' } } },
    plugins: { '@graphql-eslint': graphql },
    rules: {
      ...recommended,
      // Stricter than recommended: a description on every field, argument, input field and enum value too.
      '@graphql-eslint/require-description': ['error', {
        types: true, rootField: true, DirectiveDefinition: true,
        FieldDefinition: true, InputValueDefinition: true, EnumValueDefinition: true,
      }],
      '@graphql-eslint/naming-convention': ['error', {
        ...naming,
        // `ContentType` is WPGraphQL's name of a post type (nodeByUri answers one for the posts list).
        'ObjectTypeDefinition,ObjectTypeExtension': { forbiddenPrefixes: ['Type'] },
        // Image sizes named by WordPress with a leading digit (1536x1536) are _1536X1536, as WPGraphQL names them.
        EnumValueDefinition: { style: 'UPPER_CASE', ignorePattern: '^_\\d+X\\d+$' },
      }],
      // WordPress's own names: `User.username`, and the site settings `siteIcon`, `siteIconUrl`, `siteLogo`.
      '@graphql-eslint/no-typename-prefix': 'off',
      '@graphql-eslint/strict-id-in-types': ['error', {
        acceptedIdNames: ['id'],
        acceptedIdTypes: ['ID'],
        exceptions: {
          // Relay's connection shapes and the page-numbered lists and write results have no identity of their own.
          suffixes: ['Connection', 'Edge', 'List', 'Result'],
          // PageInfo is Relay's, ContactFormSubmissionPage a page of a list; the others are not Nodes: values inside
          // REST answers, or records WordPress knows by a key of their own (a form's id, an application password's uuid).
          types: [
            'PageInfo', 'ContactFormSubmissionPage', 'Ability', 'AbilityAnnotations', 'ApplicationPassword', 'Avatar', 'ContactForm', 'ContactFormFeedback',
            'CommentCounts', 'CommentText', 'ContactFormInvalidField', 'ContactFormSubmission', 'ContactFormSummary', 'ContentText', 'ContentTypeDefinition',
            'MediaDetails', 'MediaImageMeta', 'MenuLocation', 'MediaSize', 'PostMeta', 'SeoConfigurationState', 'SeoFileSize', 'SeoHeadByUrl',
            'SeoImportError', 'SeoImportProgress', 'SeoItemSettings', 'SeoMetaField', 'Site', 'SiteHealthBadge', 'StatusDefinition',
            'TaxonomyDefinition', 'UrlDetails', 'WidgetClass', 'WidgetField', 'WidgetFieldOption', 'WidgetPreview',
          ],
        },
      }],
    },
  },
];
