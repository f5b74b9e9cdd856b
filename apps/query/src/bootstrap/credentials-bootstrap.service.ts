import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ProvisioningService, type GeneratedCredentials } from '@app/auth';
import { AppConfig } from '@app/config';

/**
 * Single-customer mode: aligns the configured customer with the environment after migrations ran; on the
 * first start without any configured credential it generates them. Holds the generated credentials for main to
 * print, at every start until someone signs in with them.
 */
@Injectable()
export class CredentialsBootstrap implements OnApplicationBootstrap {
  private unused?: GeneratedCredentials;

  constructor(
    private readonly config: AppConfig,
    private readonly provisioning: ProvisioningService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.multiCustomer) {
      this.unused = await this.provisioning.ensureConfiguredCustomer();
    }
  }

  /** The generated credentials no one has signed in with yet, if any; handed out once per start. */
  takeUnused(): GeneratedCredentials | undefined {
    const unused = this.unused;
    this.unused = undefined;
    return unused;
  }
}
