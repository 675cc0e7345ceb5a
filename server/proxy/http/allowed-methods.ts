// The methods a path has, read from the routes the app registered. Express
// answers a path it serves with another method as if the path did not exist
// (404); the proxy answers 405 with Allow instead, so a client learns that the
// path is right and the method wrong. Read from the app's router rather than
// from a list of its own, so that Allow cannot drift from the routes.
import type { Router } from 'express';

/** What this module reads of a layer of an Express router (router 2: app.router.stack). */
interface RouterLayer {
  match(path: string): false | { path: string };
  route?: { methods: Record<string, boolean | undefined> } | undefined;
  handle: { stack?: RouterLayer[] };
}

/**
 * The methods of the routes that match `path`, HEAD wherever GET is, sorted;
 * empty when no route matches it, or when one takes every method (`all`).
 * Only called for requests no route answered, never on a served request.
 */
export function allowedMethods(router: Router, path: string): string[] {
  const methods = new Set<string>();
  let everyMethod = false;
  const walk = (stack: readonly RouterLayer[], rest: string) => {
    for (const layer of stack) {
      const match = layer.match(rest);
      if (match === false) continue;
      if (layer.route !== undefined) {
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (on !== true) continue;
          if (method === '_all') everyMethod = true;
          else methods.add(method.toUpperCase());
        }
      } else if (Array.isArray(layer.handle.stack)) {
        // A router mounted at match.path sees the rest of the path.
        walk(layer.handle.stack, rest.slice(match.path.length) || '/');
      }
    }
  };
  walk((router as unknown as { stack: RouterLayer[] }).stack, path);
  if (everyMethod) return [];
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
