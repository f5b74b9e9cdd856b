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
  http: ['auth', 'config', 'errors', 'logging', 'metrics'],
  core: ['auth', 'clickhouse', 'config', 'http', 'logging'],
};

const libraryRules = Object.entries(LAYERS).map(([lib, allowed]) => ({
  name: `lib-${lib}-depends-down`,
  comment: `libs/${lib} may import only ${allowed.length ? allowed.map((l) => `libs/${l}`).join(', ') : 'no other library'}`,
  severity: 'error',
  from: { path: `^libs/${lib}/` },
  to: { path: '^libs/', pathNot: [`^libs/(${[lib, ...allowed].join('|')})/`] },
}));

module.exports = {
  forbidden: [
    ...libraryRules,
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
