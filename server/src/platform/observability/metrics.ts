import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The Prometheus registry of one app, for features that add their own metrics. */
export type Metrics = { registry: Registry };

/**
 * Prometheus metrics: HTTP requests by route and status with latencies, bytes in and out, requests in
 * flight (uploads and downloads included), rate-limit refusals, realtime sockets, plus Node's defaults
 * (event-loop lag, GC, heap). Only set up when metrics are enabled, so a portal without METRICS_TOKEN
 * pays nothing for them.
 */
export function registerMetrics(app: FastifyInstance): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency (to the last byte of the response headers and body handed to the socket)',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60],
    registers: [registry],
  });
  const bytesIn = new Counter({
    name: 'http_request_bytes_total',
    help: 'Request body bytes declared by Content-Length (uploads)',
    labelNames: ['route'],
    registers: [registry],
  });
  const bytesOut = new Counter({
    name: 'http_response_bytes_total',
    help: 'Response body bytes declared by Content-Length (downloads)',
    labelNames: ['route'],
    registers: [registry],
  });
  const inFlight = new Gauge({
    name: 'http_requests_in_flight',
    help: 'Requests being served now (long ones are transfers)',
    labelNames: ['route'],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with 429',
    labelNames: ['route'],
    registers: [registry],
  });
  new Gauge({
    name: 'realtime_sockets',
    help: 'Realtime sockets connected to this instance',
    registers: [registry],
    collect() {
      this.set(app.realtime.counts().sockets);
    },
  });
  new Gauge({
    name: 'realtime_rooms',
    help: 'Realtime rooms with at least one socket on this instance',
    registers: [registry],
    collect() {
      this.set(app.realtime.counts().rooms);
    },
  });

  // The route pattern, never the raw URL: ids and tokens must not become label values.
  const routeOf = (req: { routeOptions: { url?: string } }) => req.routeOptions.url ?? 'unmatched';
  app.addHook('onRequest', async (req) => {
    const route = routeOf(req);
    inFlight.inc({ route });
    const declared = Number(req.headers['content-length']);
    if (declared > 0) bytesIn.inc({ route }, declared);
  });
  app.addHook('onResponse', async (req, reply) => {
    const route = routeOf(req);
    const labels = { method: req.method, route, status_code: String(reply.statusCode) };
    inFlight.dec({ route });
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
    const sent = Number(reply.getHeader('content-length'));
    if (sent > 0) bytesOut.inc({ route }, sent);
    if (reply.statusCode === 429) refusals.inc({ route });
  });
  return { registry };
}
