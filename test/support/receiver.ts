import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { basicHeader, http } from './test-app';

export interface ReceivedCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  at: number;
}

export type Behaviour = { status: number; delayMs?: number; location?: string } | 'hang';

/** A real webhook receiver on loopback that records every call and answers as told. */
export class Receiver {
  readonly calls: ReceivedCall[] = [];
  behaviour: Behaviour = { status: 204 };
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        this.calls.push({ path: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : undefined, at: Date.now() });
        const b = this.behaviour;
        if (b === 'hang') {
          // never answers
          return;
        }
        setTimeout(() => {
          if (b.location) {
            res.setHeader('location', b.location);
          }
          res.statusCode = b.status;
          res.end();
        }, b.delayMs ?? 0);
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  reset(behaviour: Behaviour = { status: 204 }): void {
    this.calls.length = 0;
    this.behaviour = behaviour;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }
}

/** A receiver, started and set as the instance's webhook URL (`<receiver>/hook`) of the app at `appUrl`. */
export async function webhookReceiver(appUrl: string): Promise<Receiver> {
  const receiver = await new Receiver().start();
  const configured = await http(`${appUrl}/configuration`, {
    method: 'PUT',
    headers: { ...basicHeader(), 'content-type': 'application/json' },
    body: JSON.stringify({ webhookConfig: { url: `${receiver.url}/hook` } }),
  });
  if (configured.status !== 200) {
    throw new Error(`configuring the webhook failed: ${configured.status} ${JSON.stringify(configured.body)}`);
  }
  return receiver;
}
