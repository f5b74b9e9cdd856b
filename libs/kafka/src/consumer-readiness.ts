/**
 * What a process's Kafka consumer says about its readiness: why it is not ready, or undefined once it runs and is a
 * member of its group. Provided by the ingest module (apps/ingest) where a process consumes Kafka, and read by the
 * readiness probes of both apps (the ingest app's and the composition app's /health/ready), so they never disagree.
 */
export abstract class ConsumerReadiness {
  abstract notReadyReason(): Promise<string | undefined>;
}
