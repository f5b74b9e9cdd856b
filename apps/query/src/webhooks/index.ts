// What the webhooks module shares with the features that import it (configuration, entities); the rest of the folder
// is its own (.dependency-cruiser.js holds the others to this file).
export { webhookUrlProblem } from './address-policy';
export { WebhookDeliveryService, type DeliveryOutcome, type WebhookAction, type WebhookCall } from './webhook-delivery.service';
export { WebhookUrlRepository } from './webhook-url.repository';
export { WebhooksModule } from './webhooks.module';
