#!/usr/bin/env node
// A redlab lab driver: node-redlock (npm redlock 4.x on ioredis) speaking the lab's JSON-lines
// protocol on stdin/stdout (see the README, "Other lock libraries"). One request per line, one
// answer per line, in order:
//   {"op":"connect","servers":["redis://127.0.0.1:7000",...]}  -> {"ok":true}
//   {"op":"acquire","lock":"L","wait_ms":100,"lease_ms":10000} -> {"ok":true,"token":null}
//                                                                 or {"ok":false,"error":"..."}
//   {"op":"release","lock":"L"}                                -> {"ok":true} or {"ok":false,...}
'use strict';
const readline = require('readline');
const Redis = require('ioredis');
const Redlock = require('redlock');

let clients = [];
const held = new Map();  // lock name -> Redlock Lock
const kRetryDelay = 50;

function reply(obj) { process.stdout.write(JSON.stringify(obj) + '\n'); }

async function handle(req) {
  switch (req.op) {
    case 'connect':
      clients = req.servers.map((url) => new Redis(url, {
        // A dead master answers at once, as a lock library must not wait for it.
        enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 500,
        connectTimeout: 500, retryStrategy: () => 50, lazyConnect: false,
      }));
      clients.forEach((c) => c.on('error', () => {}));
      return { ok: true };
    case 'acquire': {
      const redlock = new Redlock(clients, {
        driftFactor: 0.01, retryCount: Math.floor((req.wait_ms || 0) / kRetryDelay),
        retryDelay: kRetryDelay, retryJitter: 0,
      });
      try {
        const lock = await redlock.lock(req.lock, req.lease_ms);
        held.set(req.lock, lock);
        return { ok: true, token: null };
      } catch (e) {
        return { ok: false, error: String(e.message || e) };
      }
    }
    case 'release': {
      const lock = held.get(req.lock);
      if (!lock) return { ok: false, error: 'not held' };
      held.delete(req.lock);
      try {
        await lock.unlock();
        return { ok: true };
      } catch (e) {
        return { ok: false, error: String(e.message || e) };
      }
    }
    default:
      return { ok: false, error: 'unknown op ' + req.op };
  }
}

// Requests are answered one at a time, in order.
let chain = Promise.resolve();
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  chain = chain.then(async () => {
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      return reply({ ok: false, error: 'bad json' });
    }
    reply(await handle(req));
  });
}).on('close', () => {
  chain.then(() => { clients.forEach((c) => c.disconnect()); process.exit(0); });
});
