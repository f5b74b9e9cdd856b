import type { INestApplication } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { CredentialsBootstrap } from './credentials-bootstrap.service';
import { firstStartBanner } from './first-start-banner';

/**
 * The banner with the generated credentials while no one has signed in with them, for startHttpApp to write to
 * stdout (never through the logger), also when the app then cannot listen.
 */
export function firstStartAnnouncement(app: INestApplication, config: AppConfig): string | undefined {
  const unused = app.get(CredentialsBootstrap).takeUnused();
  return unused && firstStartBanner(unused, `http://localhost:${config.port}`, config.dataDir);
}
