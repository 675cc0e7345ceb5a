// Prometheus metrics. One Registry per app (tests start several apps in one
// process); every module registers its own metrics on it. This file holds
// the HTTP and upstream ones.
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AttemptRecord } from '../client/index.ts';

export function createRegistry(options: { defaultMetrics?: boolean } = {}): Registry {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });
  return registry;
}

/** A histogram of durations in seconds, from a millisecond to half a minute, on `registry`. */
function durationHistogram<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
): Histogram<L> {
  return new Histogram({
    name,
    help,
    labelNames,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
}

/** The route a request matched, as written in the router ("/api/campaigns/:id"); never the raw path, which would explode the label set. */
function routeOf(req: ExpressRequest, res: ExpressResponse): string {
  const named = res.locals.metricsRoute as string | undefined;
  if (named !== undefined) return named;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return `${req.baseUrl}${path === '/' && req.baseUrl !== '' ? '' : path}`;
  return res.statusCode === 404 ? 'unmatched' : 'other';
}

/** Counts answers and their durations by route and status (the access log calls it for each answer). */
export function httpMetrics(registry: Registry): (req: ExpressRequest, res: ExpressResponse, seconds: number) => void {
  // The answers counted are the duration histogram's own count, copied when
  // scraped: one update per answer instead of two (each one hashes its
  // labels, a measurable part of a catalogue answer's cost).
  new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { metricName, labels, value } of (await duration.get()).values) {
        if (metricName === 'http_request_duration_seconds_count')
          this.inc(labels as Record<'method' | 'route' | 'status', string>, value);
      }
    },
  });
  const duration = durationHistogram(
    registry,
    'http_request_duration_seconds',
    'Time to answer HTTP requests, by method, route and status',
    ['method', 'route', 'status'],
  );
  return (req, res, seconds) => {
    duration.observe({ method: req.method, route: routeOf(req, res), status: String(res.statusCode) }, seconds);
  };
}

/** Upstream path with ids replaced, so "/v2/campaigns/12" counts as "/campaigns/:id". */
export function upstreamEndpoint(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return 'unknown';
  }
  return path.replace(/^.*?\/v2(?=\/|$)/, '').replace(/\/\d+(?=\/|$)/g, '/:id') || '/';
}

/**
 * Times every upstream call (the client takes it as its `onAttempt`),
 * labelled by method, endpoint and status ("error" when no answer).
 */
export function upstreamLatency(registry: Registry): (attempt: AttemptRecord) => void {
  const latency = durationHistogram(
    registry,
    'upstream_request_duration_seconds',
    'Latency of calls to the recruitment API, by method, endpoint and status',
    ['method', 'endpoint', 'status'],
  );
  return (attempt) => {
    latency.observe(
      {
        method: attempt.method,
        endpoint: upstreamEndpoint(attempt.url),
        status: attempt.status === undefined ? 'error' : String(attempt.status),
      },
      attempt.seconds,
    );
  };
}
