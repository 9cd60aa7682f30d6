// @ts-check
/**
 * The boundaries the README states, checked by `npm run check` (dependency-cruiser).
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'client-features-stand-alone',
      severity: 'error',
      comment:
        'A client feature never imports another; the page (app/) composes them. What two features need lives in components/ or lib/.',
      from: { path: '^src/client/features/([^/]+)/' },
      to: { path: '^src/client/features/', pathNot: '^src/client/features/$1/' },
    },
    {
      name: 'client-shared-parts-know-no-feature',
      severity: 'error',
      comment: 'components/, lib/ and api/ serve every feature, so they import none (nor the app).',
      from: { path: '^src/client/(components|lib|api)/' },
      to: { path: '^src/client/(features|app)/' },
    },
    {
      name: 'server-repository-below-service',
      severity: 'error',
      comment: 'A repository is SQL only: it never imports a service or a route.',
      from: { path: '[.]repository[.]ts$' },
      to: { path: '[.](service|routes)[.]ts$' },
    },
    {
      name: 'server-service-below-routes',
      severity: 'error',
      comment: 'A service never imports a route; routes call services.',
      from: { path: '[.]service[.]ts$' },
      to: { path: '[.]routes[.]ts$' },
    },
    {
      name: 'server-db-knows-no-domain',
      severity: 'error',
      comment: 'db/ (connection, migrations, tables, limits) is below every domain.',
      from: { path: '^src/server/db/' },
      to: { path: '^src/server/', pathNot: '^src/server/(db/|config[.]ts$)' },
    },
    {
      name: 'http-plumbing-knows-no-pages',
      severity: 'error',
      comment:
        'http/ is the plumbing every route uses (errors, validation, cookies, limits, headers); pages/ draws and serves pages on top of it, never the other way round.',
      from: { path: '^src/server/http/' },
      to: { path: '^src/server/pages/' },
    },
    {
      name: 'staff-identity-knows-no-poll-administration',
      severity: 'error',
      comment:
        'staff/ (people, sign-in, passkeys, invites, sessions, the audit log) is below admin/ (poll administration): admin/ may use staff identity, staff/ never imports from admin/.',
      from: { path: '^src/server/staff/' },
      to: { path: '^src/server/admin/' },
    },
    {
      name: 'sides-stay-apart',
      severity: 'error',
      comment: 'Server and client never import each other; shared imports neither.',
      from: { path: '^src/(server|shared)/' },
      to: { path: '^src/client/' },
    },
    {
      name: 'client-and-shared-import-no-server',
      severity: 'error',
      from: { path: '^src/(client|shared)/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'no-file-cycles',
      severity: 'error',
      comment: 'No module may import itself through others.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      scope: 'folder',
      comment: 'No two folders (server domains, client features) may import each other, however indirectly.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)(node_modules|dist)/', '[.]test[.]tsx?$', '^src/(server|shared)/testing/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
    },
  },
};
