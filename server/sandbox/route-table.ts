// The sandbox's routes and their methods, recorded as the route modules
// register them, so that a wrong method is answered 405 with Allow (and
// OPTIONS 204 with Allow) before authentication, without reading Express's
// private router internals.
import { Router } from 'express';
import type { RequestHandler } from 'express';
import type { RouteParameters } from 'express-serve-static-core';

/** A handler whose req.params has the path's parameters, as with Express's own router. */
type Handler<P extends string> = RequestHandler<RouteParameters<P>>;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface KnownRoute {
  pattern: RegExp;
  method: Method;
}

/** Literal segments and ":name" parameters: the only path syntax the table knows how to match. */
const PATH_PATTERN = /^(\/([A-Za-z0-9_.-]+|:[A-Za-z_][A-Za-z0-9_]*))+$/;

export class RouteTable {
  readonly #routes: KnownRoute[] = [];

  /** A router to mount at `prefix`, whose routes are recorded with that prefix. */
  router(prefix: string): RecordingRouter {
    return new RecordingRouter(this, prefix);
  }

  record(path: string, method: Method): void {
    if (!PATH_PATTERN.test(path)) throw new Error(`The route table cannot match the path "${path}".`);
    // As Express matches them: a parameter is one non-empty segment; a trailing slash and the case do not matter.
    const source = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_][A-Za-z0-9_]*/g, '[^/]+');
    this.#routes.push({ pattern: new RegExp(`^${source}/?$`, 'i'), method });
  }

  /** The methods of the routes matching a path (HEAD wherever GET is); empty when no route matches. */
  allowed(path: string): Set<string> {
    const methods = new Set<string>(
      this.#routes.filter((route) => route.pattern.test(path)).map((route) => route.method),
    );
    if (methods.has('GET')) methods.add('HEAD');
    return methods;
  }
}

/** An Express router whose routes are also recorded in the table. Mount `express` at the table's prefix. */
export class RecordingRouter {
  readonly express = Router();
  readonly #table: RouteTable;
  readonly #prefix: string;

  constructor(table: RouteTable, prefix: string) {
    this.#table = table;
    this.#prefix = prefix;
  }

  get<P extends string>(path: P, ...handlers: Handler<P>[]): this {
    return this.#add('GET', path, handlers);
  }

  post<P extends string>(path: P, ...handlers: Handler<P>[]): this {
    return this.#add('POST', path, handlers);
  }

  put<P extends string>(path: P, ...handlers: Handler<P>[]): this {
    return this.#add('PUT', path, handlers);
  }

  patch<P extends string>(path: P, ...handlers: Handler<P>[]): this {
    return this.#add('PATCH', path, handlers);
  }

  delete<P extends string>(path: P, ...handlers: Handler<P>[]): this {
    return this.#add('DELETE', path, handlers);
  }

  #add<P extends string>(method: Method, path: P, handlers: Handler<P>[]): this {
    this.#table.record(`${this.#prefix}${path}`, method);
    this.express[method.toLowerCase() as Lowercase<Method>](path, ...handlers);
    return this;
  }
}
