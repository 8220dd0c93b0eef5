/** A stand-in of the app's webhook route for the billing twin's tests: records each post, answers `status`. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  payload: string;
}

/** A webhook route that records what it gets and answers `status`. */
export interface WebhookReceiver {
  url: string;
  received: Received[];
  status: number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: Omit<WebhookReceiver, 'url' | 'close'> = { received: [], status: 200 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receiver.received.push({ path: req.url ?? '', headers: req.headers, payload: Buffer.concat(chunks).toString('utf8') });
      res
        .writeHead(receiver.status, { 'content-type': 'application/json' })
        .end(receiver.status === 200 ? '{"received":true}' : '{"message":"Invalid signature"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
