/**
 * The fake push service of the reminders benchmark, in its own process so that checking and
 * decrypting every message does not share the sender's event loop: it makes `count`
 * subscriptions (P-256 keys and secrets), sends their JSON, its certificate and its origin to
 * the parent, then checks each message's VAPID signature and decrypts it, and answers the
 * parent's "tally" with how many it took, refused and could not read.
 */
import { FakePushService } from '../src/server/testing/fake-push-service.js';

const count = Number(process.argv[2] ?? 10_000);
const push = new FakePushService();
push.keep = false;
await push.start();
const subscriptions = Array.from({ length: count }, () => push.subscribe().json);
let taken = 0;
let refused = 0;
push.hold = async (message) => {
  if (message.status === 201 && message.payload !== null && message.vapid.ok) taken++;
  else refused++;
};
process.on('message', (message: { expectedKey?: string; tally?: boolean; stop?: boolean }) => {
  if (message.expectedKey) {
    push.expectedKey = message.expectedKey;
    process.send?.({ keyed: true });
  }
  if (message.tally) process.send?.({ taken, refused });
  if (message.stop) void push.stop().then(() => process.exit(0));
});
process.send?.({ origin: push.origin, cert: push.certificate.cert, subscriptions });
