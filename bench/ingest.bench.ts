/**
 * npm run bench:ingest — 1M events through Kafka into ClickHouse, side by side in one run: the ingest app on the
 * embedded engine and against a server over HTTP (a chdb stand-in in another process), (a) the same rows inserted
 * directly and (b) ClickHouse's Kafka table engine consuming the same topic; then freshness at 10k events/s in five
 * windows. Every contender runs alone, in its own process, against the Kafka test broker.
 * BENCH_EVENTS changes the count (default 1,000,000). BENCH_DIMENSIONS=1 gives every event the dimensions of the scale
 * data sets (filters, user token, session, country, tags: bench/generator.ts) and records the figures as
 * ingest-dimensions (docs/benchmarks/methods.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Kafka, Partitioners, logLevel, type Admin, type Producer } from 'kafkajs';
import { searchEvents } from './generator';
import { recordFigures } from './figures';
import { peakRssMb, quantile, tableRow } from './proc';

const ROOT = path.resolve(__dirname, '../..');
const MOCK = path.join(ROOT, '.kafka-mock', 'kafka-mock');
const COUNT = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const TOPIC = 'bench-events';
/** Keep in step with the start:ingest script in package.json. */
const INGEST_HEAP_FLAGS = ['--max-old-space-size=384', '--max-semi-space-size=32'];
const FRESH_TOPIC = 'bench-fresh';
const FRESH_WINDOWS = 5;
const FRESH_SECONDS = 12;
const FRESH_RATE = 10_000;
const DIMENSIONS = process.env.BENCH_DIMENSIONS === '1';
// The mock keeps about 5 MB per partition: 48 partitions hold 1M events (~150 bytes each) with room to spare; with
// the dimensions (~375 bytes each: 48 partitions held 640,000 of them) 96 partitions do.
const PARTITIONS = DIMENSIONS ? 96 : 48;

function log(line: string): void {
  process.stderr.write(`${new Date().toISOString()} ${line}\n`);
}

// BENCH_PROFILE=<dir> writes a V8 CPU profile of each child there (what limits the ingest rate).
const PROFILE = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`] : [];

function spawnNode(script: string, args: string[], env: Record<string, string>, readStdout = true, nodeFlags: string[] = []): ChildProcess {
  return spawn(process.execPath, [...PROFILE, ...nodeFlags, script, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['pipe', readStdout ? 'pipe' : 'ignore', 'inherit'],
  });
}

function waitForLine(child: ChildProcess, prefix: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.startsWith(prefix));
      if (line) {
        child.stdout!.off('data', onData);
        resolve(line.slice(prefix.length).trim());
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`child exited with ${code} before ${prefix}`)));
  });
}

/**
 * Messages per send: the Kafka test broker hands a consumer one producer record batch per partition and fetch, where
 * Kafka hands up to maxBytesPerPartition (1 MB, about 6,000 of these events, 2,500 with dimensions) to a consumer that
 * is behind. Sends of that many messages per partition give each partition's fetch the size a real broker's would
 * have (and keep a request within the broker's 100 MB: about 90 MB with the dimensions).
 */
const SEND = (DIMENSIONS ? 2_500 : 6_000) * PARTITIONS;

async function produce(producer: Producer, topic: string, events: Iterable<object>, chunk = SEND): Promise<number> {
  let sent = 0;
  let messages: Array<{ key: string; value: string }> = [];
  const inFlight: Promise<unknown>[] = [];
  for (const event of events) {
    messages.push({ key: String(sent++), value: JSON.stringify(event) });
    if (messages.length === chunk) {
      inFlight.push(producer.send({ topic, acks: -1, messages }));
      messages = [];
      if (inFlight.length >= 2) {
        await inFlight.shift();
      }
    }
  }
  if (messages.length > 0) {
    inFlight.push(producer.send({ topic, acks: -1, messages }));
  }
  await Promise.all(inFlight);
  return sent;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

interface IngestRun {
  totalSeconds: number;
  steadySeconds: number;
  eventsPerSecond: number;
  peakRssMb: number;
}

/** Runs the ingest app (started as `npm run start:ingest` starts it) until its group committed every event. */
async function runIngest(admin: Admin, env: Record<string, string>): Promise<IngestRun> {
  const ingest = spawnNode(path.join(ROOT, 'dist/apps/ingest/src/main.js'), [], env, false, INGEST_HEAP_FLAGS);
  const t = performance.now();
  let first = 0;
  let committed = 0;
  let peak = 0;
  while (committed < COUNT && performance.now() - t < 900_000) {
    await new Promise((r) => setTimeout(r, 250));
    const [group] = await admin.fetchOffsets({ groupId: env.KAFKA_GROUP_ID, topics: [TOPIC] });
    committed = group.partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
    if (committed > 0 && first === 0) {
      first = performance.now();
    }
    peak = Math.max(peak, peakRssMb(ingest.pid!));
  }
  const done = performance.now();
  peak = Math.max(peak, peakRssMb(ingest.pid!));
  ingest.kill('SIGTERM');
  await new Promise((r) => ingest.once('exit', r));
  return {
    totalSeconds: (done - t) / 1000,
    steadySeconds: (done - first) / 1000,
    eventsPerSecond: Math.round(committed / ((done - first) / 1000)),
    peakRssMb: peak,
  };
}

async function main(): Promise<void> {
  if (!existsSync(MOCK)) {
    throw new Error(`${MOCK} is missing: run scripts/build-kafka-mock.sh --install`);
  }
  const mock = spawn(MOCK, ['1', `${TOPIC}:${PARTITIONS}`, `${FRESH_TOPIC}:8`, 'catalogue-documents:1']);
  const brokers = await new Promise<string>((r) => mock.stdout.once('data', (d: Buffer) => r(d.toString().trim())));
  const kafka = new Kafka({ clientId: 'bench', brokers: [brokers], logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  const admin = kafka.admin();
  await producer.connect();
  await admin.connect();
  const dataDir = (name: string) => mkdtempSync(path.join(tmpdir(), `bench-${name}-`));
  const base = {
    PORT: '0',
    KAFKA_BROKERS: brokers,
    KAFKA_TOPIC_SEARCH_EVENTS: TOPIC,
    CLICKHOUSE_DATABASE: 'bench',
    BENCH_EVENTS: String(COUNT),
    BENCH_PARTITIONS: String(PARTITIONS),
    BENCH_DIMENSIONS: DIMENSIONS ? '1' : '0',
  };

  log(`producing ${COUNT} events to ${PARTITIONS} partitions`);
  const t = performance.now();
  await produce(producer, TOPIC, searchEvents(COUNT, { dimensions: DIMENSIONS }));
  const produceSeconds = (performance.now() - t) / 1000;
  const offsets = await admin.fetchTopicOffsets(TOPIC);
  const stored = offsets.reduce((n, o) => n + Number(o.high) - Number(o.low), 0);
  if (stored !== COUNT) {
    throw new Error(`the broker holds ${stored} of ${COUNT} events (retention): use more partitions`);
  }
  log(`produced in ${produceSeconds.toFixed(1)} s`);

  // Ours: the real ingest app, timed from start to every offset committed.
  log('ours: ingest app');
  const ours = await runIngest(admin, { ...base, DATA_DIR: dataDir('ingest'), KAFKA_GROUP_ID: 'bench-ingest' });
  log(`ours: ${JSON.stringify(ours)}`);

  // The same app against a ClickHouse server: no engine loaded in its process (a chdb stand-in serves the HTTP
  // interface from a process of its own, as no ClickHouse server runs here).
  log('ours against a server over HTTP');
  const server = spawnNode(path.join(__dirname, 'chdb-http.js'), [], { DATA_DIR: dataDir('server') });
  const port = await waitForLine(server, 'PORT ');
  let serverPeak = 0;
  const sampler = setInterval(() => (serverPeak = Math.max(serverPeak, peakRssMb(server.pid!))), 250);
  const overHttp = await runIngest(admin, {
    ...base,
    DATA_DIR: dataDir('ingest-http'),
    KAFKA_GROUP_ID: 'bench-ingest-http',
    CLICKHOUSE_URL: `http://127.0.0.1:${port}`,
  });
  clearInterval(sampler);
  server.kill('SIGTERM');
  log(`over HTTP: ${JSON.stringify(overHttp)}, stand-in server peak RSS ${serverPeak} MB`);

  log('(a) direct inserts');
  const directChild = spawnNode(path.join(__dirname, 'ingest-worker.js'), ['direct'], { ...base, DATA_DIR: dataDir('direct') });
  const direct = JSON.parse(await waitForLine(directChild, 'RESULT ')) as { eventsPerSecond: number; insertSeconds: number };
  log(`(a): ${JSON.stringify(direct)}`);

  log('(b) ClickHouse Kafka engine');
  const engineChild = spawnNode(path.join(__dirname, 'ingest-worker.js'), ['kafka-engine'], { ...base, DATA_DIR: dataDir('engine') });
  const engine = JSON.parse(await waitForLine(engineChild, 'RESULT ')) as {
    eventsPerSecond: number;
    totalSeconds: number;
    steadySeconds: number;
    rows: number;
  };
  log(`(b): ${JSON.stringify(engine)}`);

  log('freshness at 10k events/s');
  const freshChild = spawnNode(
    path.join(__dirname, 'ingest-worker.js'),
    ['freshness'],
    {
      ...base,
      KAFKA_TOPIC_SEARCH_EVENTS: FRESH_TOPIC,
      KAFKA_GROUP_ID: 'bench-fresh',
      // What apps/ingest/src/main.ts sets for the ingest app (this worker starts its module directly).
      JE_MALLOC_CONF: 'dirty_decay_ms:0,muzzy_decay_ms:0',
      DATA_DIR: dataDir('fresh'),
    },
    true,
    INGEST_HEAP_FLAGS,
  );
  await waitForLine(freshChild, 'READY');
  await new Promise((r) => setTimeout(r, 2000));
  // Five windows of 12 s back to back, each with its own probes (one per 100 ms tick of 1,000 events).
  const tick = 100;
  for (let window = 0; window < FRESH_WINDOWS; window++) {
    for (let i = 0; i < (FRESH_SECONDS * 1000) / tick; i++) {
      const due = performance.now() + tick;
      const now = Date.now();
      const events = [
        ...searchEvents((FRESH_RATE * tick) / 1000, { seed: window * 1000 + i + 1, end: now, spanMs: 1, dimensions: DIMENSIONS }),
      ];
      events.push({ ...events[0], customer: 'probe', phrase: `probe ${window} ${i}`, ts: Date.now() });
      await producer.send({
        topic: FRESH_TOPIC,
        acks: -1,
        messages: events.map((e, k) => ({ key: `${i}-${k}`, value: JSON.stringify(e) })),
      });
      const wait = due - performance.now();
      if (wait > 0) {
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }
  await new Promise((r) => setTimeout(r, 3000));
  freshChild.stdin!.write('stop\n');
  const latencies = JSON.parse(await waitForLine(freshChild, 'RESULT ')) as { probes: Record<string, number> };
  // It closes its app after the result: ending first would cut its stdout (EPIPE) while it logs its shutdown.
  if (freshChild.exitCode === null) {
    await new Promise((r) => freshChild.once('exit', r));
  }
  const windows = Array.from({ length: FRESH_WINDOWS }, (_, w) => {
    const times = Object.entries(latencies.probes)
      .filter(([phrase]) => phrase.startsWith(`probe ${w} `))
      .map(([, ms]) => ms)
      .sort((x, y) => x - y);
    return { probes: times.length, p50: quantile(times, 0.5), p95: quantile(times, 0.95), max: times[times.length - 1] };
  });
  const p95s = windows.map((w) => w.p95).sort((x, y) => x - y);
  const fresh = { windows, medianP95: quantile(p95s, 0.5), worstP95: p95s[p95s.length - 1] };
  log(`freshness: ${JSON.stringify(fresh)}`);

  await producer.disconnect();
  await admin.disconnect();
  mock.kill('SIGTERM');

  const ratio = (x: number, y: number) => `${(x / y).toFixed(2)}x`;
  const date = new Date().toISOString().slice(0, 10);
  const report = [
    '',
    `## Ingest benchmark (${COUNT.toLocaleString('en')} events${DIMENSIONS ? ' with dimensions' : ''}, ${PARTITIONS} partitions, ` +
      `Kafka test broker, ${date})`,
    '',
    tableRow('contender', 'events/s', 'ours relative', 'time'),
    '|---|---|---|---|',
    tableRow(
      'ours: ingest app (validate, normalise, bot detection, insert, commit)',
      ours.eventsPerSecond.toLocaleString('en'),
      '1.00x',
      `${ours.steadySeconds.toFixed(1)} s steady, ${ours.totalSeconds.toFixed(1)} s with start-up`,
    ),
    tableRow(
      'ours against a ClickHouse server over HTTP (no engine in the process; a chdb stand-in server)',
      overHttp.eventsPerSecond.toLocaleString('en'),
      ratio(ours.eventsPerSecond, overHttp.eventsPerSecond),
      `${overHttp.steadySeconds.toFixed(1)} s steady, ${overHttp.totalSeconds.toFixed(1)} s with start-up`,
    ),
    tableRow(
      '(a) same rows inserted directly with @clickhouse/client',
      direct.eventsPerSecond.toLocaleString('en'),
      ratio(ours.eventsPerSecond, direct.eventsPerSecond),
      `${direct.insertSeconds.toFixed(1)} s of inserts`,
    ),
    tableRow(
      '(b) ClickHouse Kafka table engine (chdb)',
      engine.eventsPerSecond.toLocaleString('en'),
      ratio(ours.eventsPerSecond, engine.eventsPerSecond),
      `${engine.steadySeconds.toFixed(1)} s steady, ${engine.totalSeconds.toFixed(1)} s total`,
    ),
    '',
    `Freshness at 10,000 events/s (produced -> stored), ${FRESH_WINDOWS} windows of ${FRESH_SECONDS} s in one run: ` +
      `median p95 ${fresh.medianP95} ms, worst p95 ${fresh.worstP95} ms.`,
    '',
    tableRow('window', 'probes', 'p50 ms', 'p95 ms', 'max ms'),
    '|---|---|---|---|---|',
    ...fresh.windows.map((w, i) => tableRow(i + 1, w.probes, w.p50, w.p95, w.max)),
    '',
    `Peak RSS of the ingest process: ${ours.peakRssMb} MB on the embedded engine, ${overHttp.peakRssMb} MB against a ` +
      `server (the stand-in server's own: ${serverPeak} MB). Producing took ${produceSeconds.toFixed(1)} s.`,
    '',
  ];
  const toDirect = ours.eventsPerSecond / direct.eventsPerSecond;
  recordFigures(DIMENSIONS ? 'ingest-dimensions' : 'ingest', [
    { name: 'ingest rate / direct inserts', value: round2(toDirect), unit: 'x', target: '>= 0.6x', pass: toDirect >= 0.6 },
    {
      name: 'ingest rate / Kafka table engine',
      value: round2(ours.eventsPerSecond / engine.eventsPerSecond),
      unit: 'x',
      target: 'reported',
      pass: null,
      note: `${ours.eventsPerSecond.toLocaleString('en')} vs ${engine.eventsPerSecond.toLocaleString('en')} events/s`,
    },
    { name: 'ingest peak RSS (embedded engine)', value: ours.peakRssMb, unit: 'MB', target: '<= 768 MB', pass: ours.peakRssMb <= 768 },
    {
      name: 'ingest peak RSS against a server (no engine loaded)',
      value: overHttp.peakRssMb,
      unit: 'MB',
      target: 'reported',
      pass: null,
      note: `${overHttp.eventsPerSecond.toLocaleString('en')} events/s through a chdb stand-in server`,
    },
    {
      name: 'freshness p95 at 10k events/s, median of 5',
      value: fresh.medianP95,
      unit: 'ms',
      target: '<= 1000 ms',
      pass: fresh.medianP95 <= 1000,
    },
    {
      name: 'freshness p95 at 10k events/s, worst of 5',
      value: fresh.worstP95,
      unit: 'ms',
      target: '<= 1000 ms',
      pass: fresh.worstP95 <= 1000,
    },
  ]);
  process.stdout.write(report.join('\n'));
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
