import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '@app/config';
import { createHttpApp, openApiDocument } from '@app/http';
import { StandaloneModule } from './standalone.module';

/**
 * Writes the OpenAPI document of the standalone app (every route of the query and ingest apps) to the file
 * named by the first argument, or to stdout. The app is built but never listens or touches storage.
 */
async function main(target: string | undefined): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir });
    const app = await createHttpApp(StandaloneModule.forRoot(config), config, { logger: false });
    const text = `${JSON.stringify(openApiDocument(app), null, 2)}\n`;
    if (target) {
      writeFileSync(target, text);
    } else {
      process.stdout.write(text);
    }
    await app.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main(process.argv[2]);
