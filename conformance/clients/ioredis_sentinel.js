// A real Sentinel client following a failover (conformance/sentinel_failover_test.cc): ioredis
// (from tools/lab/drivers/node-redlock/node_modules, via NODE_PATH) finds "mymaster" through the
// sentinels given as ports, writes every 20 ms and prints "port P" with the port of the master
// that took a write: first the master, then, once ioredis followed the failover, the new one; it
// exits then (or after 30 s, with status 1).
'use strict';
const Redis = require('ioredis');

const sentinels = process.argv.slice(2).map((p) => ({ host: '127.0.0.1', port: Number(p) }));
const redis = new Redis({
  sentinels,
  name: 'mymaster',
  sentinelRetryStrategy: () => 50,
  retryStrategy: () => 50,
  maxRetriesPerRequest: 1,
  failoverDetector: true,
});
redis.on('error', () => {});
let done = false;
// ioredis 5.11.1's race: when its FailoverDetector hears +switch-master while the client is
// still asking the sentinels for the master (SentinelConnector.connect under way, e.g. in its
// "All sentinels are unreachable. Retrying from scratch" pause), the connector's disconnect()
// makes that connect throw "Connection is closed." and the client ends ("connecting -> end")
// and never reconnects. It happens as often with real Sentinel as with redlab's (a third of the
// runs with 8 copies in parallel, both targets); the client is then reconnected by hand, as an
// application would, and the script says so on stderr.
redis.on('end', () => {
  if (done) return;
  process.stderr.write('ioredis ended its connection (its failover detector race): connect again\n');
  setTimeout(() => redis.connect().catch(() => {}), 20);
});

let first = null;
const deadline = Date.now() + 30000;
async function tick() {
  if (Date.now() > deadline) {
    console.log('timeout');
    process.exit(1);
  }
  try {
    await redis.set('ioredis:follow', String(Date.now()));
    const info = await redis.info('server');
    const port = Number(/tcp_port:(\d+)/.exec(info)[1]);
    if (first === null) {
      first = port;
      console.log('port ' + port);
    } else if (port !== first) {
      console.log('port ' + port);
      done = true;
      process.exit(0);
    }
  } catch (e) {
    // Not there yet (the master is down, or READONLY from a demoted one): try again.
  }
  setTimeout(tick, 20);
}
tick();
