import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { NotificationsRepository } from '@app/notifications';
import { compositeKey } from '@app/contracts';
import { WebhookDeliveryService } from '../webhooks';
import { AlertClock } from './alert-clock';
import type { AlertConfig } from './alert-config';
import { AlertConfigRepository, type InstanceAlerts } from './alert-config.repository';
import { AlertsRepository } from './alerts.repository';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** An hour is evaluated this long after it ended, so that searches of its last seconds are stored. */
export const ALERT_GRACE_MS = 2 * 60_000;
const TICK_MS = 60_000;
/**
 * Term alerts raised per instance and hour, the most searched first: the rest are raised in the next hours (their
 * state is not written), so a first evaluation over a long backlog neither floods the alert URL nor holds the tick
 * (each POST may wait WEBHOOK_TIMEOUT_MS).
 */
export const MAX_TERM_ALERTS = 20;

/** An alert as GET /notifications lists it and its POST carries it (besides customer, instance and type). */
export type Alert =
  | { alert: 'unhandled-zero-result-term'; search_phrase: string; languages: string[]; zero_result_searches: number }
  | { alert: 'zero-hit-rate-spike'; hour: string; searches: number; zero_hit_rate: number; baseline_rate: number };

type TermAlert = Extract<Alert, { alert: 'unhandled-zero-result-term' }>;

interface TermsOutcome {
  /** Open alerts now handled in every language they were raised for: closed. */
  resolved: Map<string, string[]>;
  raised: TermAlert[];
}

const percent = (r: number) => `${(r * 100).toFixed(1)}%`;

function messageOf(a: Alert): string {
  return a.alert === 'unhandled-zero-result-term'
    ? `"${a.search_phrase}" found nothing ${a.zero_result_searches} times in the last 24 h and is not handled in ${a.languages.join(', ')}`
    : `Zero-hit rate ${percent(a.zero_hit_rate)} in the hour from ${a.hour.slice(0, 16).replace('T', ' ')} UTC (${a.searches} searches), ` +
        `against a median of ${percent(a.baseline_rate)} in the same hour of the 7 days before`;
}

/** The same id for the same alert of the same hour, in every process and every retry (a UUID's form). */
function notificationId(customer: string, instance: string, hourKey: string, alert: Alert): string {
  const what = alert.alert === 'unhandled-zero-result-term' ? alert.search_phrase : alert.hour;
  const hex = createHash('sha256')
    .update(JSON.stringify([customer, instance, hourKey, alert.alert, what]))
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The alert rules (docs/alerts.md), evaluated for each complete hour and each instance whose alerts are on. Every
 * query process runs the timer; the first claim on an instance's hour (alert_log) evaluates it, so each alert is
 * raised once however many processes run, and a restart does not evaluate an evaluated hour again. A claim whose
 * process was killed before it recorded its evaluation expires after CLAIM_EXPIRY_S: the next process evaluates it.
 */
@Injectable()
export class AlertsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Alerts');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private next?: Promise<void>;
  /**
   * The hour (its end) this process last evaluated, per instance. A process whose claim lost tries again each
   * minute (its claim is dropped while the winner's holds), so the hour is evaluated even if the winner fails and
   * stops.
   */
  private readonly done = new Map<string, number>();

  constructor(
    private readonly clock: AlertClock,
    private readonly configs: AlertConfigRepository,
    private readonly alerts: AlertsRepository,
    private readonly notifications: NotificationsRepository,
    private readonly delivery: WebhookDeliveryService,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /**
   * A run that begins after this call (after the one running, if any; callers meanwhile share it), so it reads the
   * clock after the call: it evaluates the last complete hour of every instance with alerts on, unless already done.
   */
  tick(): Promise<void> {
    this.next ??= (this.running ?? Promise.resolve()).then(() => {
      this.next = undefined;
      this.running = this.evaluateAll().finally(() => (this.running = undefined));
      return this.running;
    });
    return this.next;
  }

  private async evaluateAll(): Promise<void> {
    const hourEnd = Math.floor((this.clock.now() - ALERT_GRACE_MS) / HOUR) * HOUR;
    let instances: InstanceAlerts[];
    try {
      instances = await this.configs.enabled();
    } catch (err) {
      this.logger.warn(`alert configurations not read: ${(err as Error).message}`);
      return;
    }
    for (const { customer, instance, config } of instances) {
      const key = compositeKey(customer, instance);
      if (this.done.get(key) === hourEnd) {
        continue;
      }
      try {
        if (await this.evaluate(customer, instance, config, hourEnd)) {
          this.done.set(key, hourEnd);
        }
      } catch (err) {
        this.logger.warn(
          `alert evaluation of ${instance} for the hour ending ${new Date(hourEnd).toISOString()} failed: ${(err as Error).message}`,
        );
      }
    }
  }

  /**
   * The hour ending at `hourEnd`, if this process's claim on it is the first. Until the alerts are recorded, a failure
   * releases the claim and the hour is evaluated again (by the next claim, a minute later): the rules only read, the
   * notifications carry ids made from the hour and the alert (recorded twice, listed once), and the state of term
   * alerts is written after them. The POSTs go last; a failed one is recorded, not retried. Answers whether this
   * process evaluated the hour (false: another process's claim holds it).
   */
  private async evaluate(customer: string, instance: string, config: AlertConfig, hourEnd: number): Promise<boolean> {
    const hourKey = `hour:${new Date(hourEnd - HOUR).toISOString()}`;
    const claim = await this.alerts.claim(customer, instance, hourKey);
    if (!claim) {
      return false;
    }
    let raised: Alert[];
    try {
      const terms = await this.unhandledTerms(customer, instance, config, hourEnd);
      raised = [...terms.raised, ...(await this.spike(customer, instance, config, hourEnd))];
      for (const alert of raised) {
        const id = notificationId(customer, instance, hourKey, alert);
        await this.notifications.record(customer, instance, 'alert', messageOf(alert), alert, id);
      }
      await this.alerts.recordTerms(customer, instance, 'resolved', terms.resolved);
      await this.alerts.recordTerms(customer, instance, 'raised', new Map(terms.raised.map((a) => [a.search_phrase, a.languages])));
      await this.alerts.evaluated(customer, instance, hourKey, claim);
    } catch (err) {
      await this.alerts.release(customer, instance, hourKey, claim);
      throw err;
    }
    if (config.url) {
      for (const alert of raised) {
        await this.delivery.deliverAlert(customer, instance, config.url, { type: 'alert', ...alert });
      }
    }
    return true;
  }

  /** Rule (a): the open alerts of terms now handled in every language they were raised for, and the terms to raise. */
  private async unhandledTerms(customer: string, instance: string, config: AlertConfig, hourEnd: number): Promise<TermsOutcome> {
    const open = await this.alerts.openTerms(customer, instance);
    const coverage = await this.alerts.coverage(customer, instance, [...open.keys()]);
    const failing = await this.alerts.zeroResultLanguages(customer, instance, [...open.keys()], hourEnd - DAY, hourEnd);
    // Handled in every language: those it was raised for and those it finds nothing in now.
    const resolved = new Map(
      [...open].filter(([phrase, languages]) => {
        const covered = coverage.get(phrase) ?? [];
        return covered.includes('') || [...languages, ...(failing.get(phrase) ?? [])].every((l) => covered.includes(l));
      }),
    );
    const terms = await this.alerts.unhandledTerms(customer, instance, hourEnd - DAY, hourEnd, Math.max(config.minSearches, 1));
    const raised = terms
      .filter((t) => !open.has(t.phrase) || resolved.has(t.phrase))
      .slice(0, MAX_TERM_ALERTS)
      .map((t) => ({
        alert: 'unhandled-zero-result-term' as const,
        search_phrase: t.phrase,
        languages: t.languages,
        zero_result_searches: t.zeroResultSearches,
      }));
    return { resolved, raised };
  }

  /** Rule (b): the hour's zero-hit rate against the median rate of the same hour on the 7 days before that had searches. */
  private async spike(customer: string, instance: string, config: AlertConfig, hourEnd: number): Promise<Alert[]> {
    const hour = hourEnd - HOUR;
    const rates = await this.alerts.hourRates(
      customer,
      instance,
      [0, 1, 2, 3, 4, 5, 6, 7].map((d) => hour - d * DAY),
    );
    const current = rates.find((r) => r.hour === hour);
    const before = rates.filter((r) => r.hour !== hour && r.searches > 0).map((r) => r.zeroHits / r.searches);
    if (!current || current.searches < Math.max(config.minSearches, 1) || before.length === 0) {
      return [];
    }
    const rate = current.zeroHits / current.searches;
    const baseline = median(before);
    // Rates are ratios of counts: compare with a tolerance below any difference of two such ratios.
    if (rate - baseline < config.zeroHitRateJump - 1e-9) {
      return [];
    }
    return [
      {
        alert: 'zero-hit-rate-spike',
        hour: new Date(hour).toISOString(),
        searches: current.searches,
        zero_hit_rate: rate,
        baseline_rate: baseline,
      },
    ];
  }
}
