/**
 * The engine worker (a Vite module worker): core checks, suggestions and
 * exports off the UI thread. See protocol.ts and host.ts.
 */
import { EngineHost } from './host';
import { HANDLERS } from './jobs';
import type { FromWorker, ToWorker } from './protocol';

const scope = self as unknown as {
  postMessage(message: FromWorker, transfer: Transferable[]): void;
  onmessage: ((ev: MessageEvent<ToWorker>) => void) | null;
};

const host = new EngineHost((message, transfer) => scope.postMessage(message, transfer), HANDLERS);
scope.onmessage = (ev) => host.handle(ev.data);
