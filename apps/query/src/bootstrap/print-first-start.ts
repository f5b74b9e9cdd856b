import type { INestApplication } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { CredentialsBootstrap } from './credentials-bootstrap.service';
import { firstStartBanner } from './first-start-banner';

/** Once the app listens: prints the credentials the first start generated, if any (stdout, never the logger). */
export function printFirstStartCredentials(app: INestApplication, config: AppConfig): void {
  const generated = app.get(CredentialsBootstrap).takeGenerated();
  if (generated) process.stdout.write(firstStartBanner(generated, `http://localhost:${config.port}`, config.dataDir));
}
