// The dependency rule (issue 12): libraries depend downward only, apps depend on libraries, and only the embedded
// composition app depends on the other apps. `npm run lint` runs it (depcruise), so the direction cannot regress.
//
// LAYERS lists, for each library, the libraries it may import. Reading it top to bottom is reading the code in
// order: leaves (errors, contracts), configuration, infrastructure (logging, metrics, storage, Kafka), domain
// libraries (notifications, auth, intake), the HTTP layer, and core (what every API app stands on).
const LAYERS = {
  errors: [],
  contracts: [],
  config: ['contracts'],
  logging: ['config'],
  metrics: [],
  clickhouse: ['config', 'contracts', 'errors'],
  kafka: ['config'],
  notifications: ['clickhouse', 'contracts'],
  auth: ['clickhouse', 'config', 'contracts', 'errors'],
  intake: ['clickhouse', 'config', 'contracts', 'errors', 'kafka', 'metrics', 'notifications'],
  http: ['auth', 'clickhouse', 'config', 'errors', 'logging', 'metrics'],
  core: ['auth', 'clickhouse', 'config', 'http', 'logging'],
};

const libraryRules = Object.entries(LAYERS).map(([lib, allowed]) => ({
  name: `lib-${lib}-depends-down`,
  comment: `libs/${lib} may import only ${allowed.length ? allowed.map((l) => `libs/${l}`).join(', ') : 'no other library'}`,
  severity: 'error',
  from: { path: `^libs/${lib}/` },
  to: { path: '^libs/', pathNot: [`^libs/(${[lib, ...allowed].join('|')})/`] },
}));

// The query app's feature folders (issue 27) import only their own files, `common/` and the folders shared on
// purpose. SHARED lists, for each shared folder, the features that may import it and through which files
// (`webhooks/` only through its index.ts; `analytics/` is the analytics features' common ground, plain functions
// and one module). Anything the features share beyond that goes to `common/` or to libs/contracts.
const FEATURE = '^apps/query/src/[^/]+/';
const SHARED = {
  // annotations: its list takes the analytics window (the same parameters and rules, so a chart's annotations match it);
  // insights: an erasure has the dimension hours that counted the token computed again.
  analytics: {
    users: [
      'search-terms',
      'search-stats',
      'term-detail',
      'search-breakdown',
      'clicked-objects',
      'alerts',
      'annotations',
      'insights',
      'algolia-analytics',
    ],
    entry: '',
  },
  // algolia-analytics: Algolia's Analytics API adapts the native answers, through their queries and views only.
  'search-terms': { users: ['algolia-analytics'], entry: 'search-terms\\.(query|dto)\\.ts$' },
  'search-stats': { users: ['algolia-analytics'], entry: '(search-stats|newest-search)\\.(query|dto)\\.ts$' },
  'search-breakdown': { users: ['algolia-analytics'], entry: 'search-breakdown\\.(query|dto)\\.ts$' },
  'clicked-objects': { users: ['algolia-analytics'], entry: 'clicked-objects\\.(query|dto)\\.ts$' },
  webhooks: { users: ['configuration', 'entities', 'alerts'], entry: 'index\\.ts$' },
  alerts: { users: ['configuration'], entry: 'index\\.ts$' },
  'algolia-analytics': { users: ['configuration'], entry: 'index\\.ts$' },
};

const featureRules = [
  {
    name: 'query-features-are-independent',
    comment: `a feature folder of apps/query imports its own files, common/ and ${Object.keys(SHARED).join(', ')} (see SHARED)`,
    severity: 'error',
    from: { path: '^apps/query/src/([^/]+)/' },
    to: {
      path: FEATURE,
      pathNot: [
        '^apps/query/src/$1/',
        '^apps/query/src/common/',
        ...Object.entries(SHARED).map(([folder, { entry }]) => `^apps/query/src/${folder}/${entry}`),
      ],
    },
  },
  ...Object.entries(SHARED).map(([folder, { users }]) => ({
    name: `query-${folder}-shared-with-${users.join('-')}`,
    comment: `apps/query/src/${folder}/ is shared with ${users.join(', ')} only`,
    severity: 'error',
    from: { path: FEATURE, pathNot: [`^apps/query/src/(${[folder, ...users].join('|')})/`] },
    to: { path: `^apps/query/src/${folder}/` },
  })),
];

// The dashboard (issue 27): main.ts renders the views; a view imports the shared helpers (api, dom, chart, filters) and
// the terms table, never main.ts or another view, and the helpers import no view.
const DASHBOARD = '^apps/dashboard/src/';
const dashboardRules = [
  {
    name: 'dashboard-views-are-independent',
    comment: 'a view of apps/dashboard/src/views imports the shared helpers and views/term-table.ts, not main.ts or another view',
    severity: 'error',
    from: { path: `${DASHBOARD}views/` },
    to: { path: `${DASHBOARD}(main\\.ts$|views/)`, pathNot: [`${DASHBOARD}views/term-table\\.ts$`] },
  },
  {
    name: 'dashboard-helpers-import-no-view',
    comment: 'api.ts, dom.ts, chart.ts and filters.ts of apps/dashboard/src import no view',
    severity: 'error',
    from: { path: `${DASHBOARD}[^/]+$`, pathNot: [`${DASHBOARD}main\\.ts$`] },
    to: { path: `${DASHBOARD}(main\\.ts$|views/)` },
  },
];

module.exports = {
  forbidden: [
    ...libraryRules,
    ...featureRules,
    ...dashboardRules,
    {
      name: 'unknown-library',
      comment: 'every library has its place in LAYERS (.dependency-cruiser.js)',
      severity: 'error',
      from: { path: '^libs/', pathNot: [`^libs/(${Object.keys(LAYERS).join('|')})/`] },
      to: {},
    },
    {
      name: 'libs-do-not-import-apps',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'apps-are-independent',
      comment: 'the query and ingest apps never import each other; only apps/standalone composes them',
      severity: 'error',
      from: { path: '^apps/(query|ingest)/' },
      to: { path: '^apps/', pathNot: ['^apps/$1/'] },
    },
    {
      name: 'no-circular',
      comment: 'type-only cycles (a declaration typed by the class it fills) are erased at compile time',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^dist/|\\.spec\\.ts$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
