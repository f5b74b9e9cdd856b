// Sends one HMAC-signed request and prints the answer's body, then its status on a line of its own.
//   BASE_URL=http://localhost:3000 SECRET=<the API key's secret> node sign-request.mjs METHOD PATH [BODY]
// INSTANCE=<name> adds X-Service-Instance. Node 18 or later, no dependencies. Exits 1 on a status of 400 or more.
import { createHmac, randomBytes } from 'node:crypto';

const [method, path, body = ''] = process.argv.slice(2);
if (!method || !path) {
  throw new Error('usage: node sign-request.mjs METHOD PATH [BODY]');
}
const nonce = randomBytes(16).toString('hex');
// The signed text is the nonce, a colon and the body exactly as sent (UTF-8; nothing after the colon without a body).
const hash = createHmac('sha256', process.env.SECRET).update(`${nonce}:${body}`).digest('hex');
const headers = { 'X-Service-Nonce': nonce, 'X-Service-Hash': hash };
if (process.env.INSTANCE) {
  headers['X-Service-Instance'] = process.env.INSTANCE;
}
if (body) {
  headers['Content-Type'] = 'application/json';
}
const res = await fetch(`${process.env.BASE_URL}${path}`, { method, headers, body: body || undefined });
console.log(await res.text());
console.log(res.status);
process.exitCode = res.status < 400 ? 0 : 1;
