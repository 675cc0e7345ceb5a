// The rules both stores' migration runs share: a list in strictly increasing
// order, a store written by a newer proxy refused, and the error that tells
// the operator to migrate with the owner's role.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SchemaBehindError, checkOrder, refuseNewer } from './migrations.ts';

/** A list of migrations, each given as [version, name]. */
const migrations = (...list: [number, string][]) => list.map(([version, name]) => ({ version, name }));

describe('checkOrder', () => {
  it('accepts a list in strictly increasing version order, and an empty one', () => {
    checkOrder([]);
    checkOrder(migrations([1, 'a'], [2, 'b'], [5, 'c']));
  });

  it('refuses a list where a version comes after a higher one, naming it', () => {
    assert.throws(
      () => checkOrder(migrations([1, 'a'], [3, 'b'], [2, 'typo'])),
      /migration 2 \(typo\) is out of order/,
    );
  });

  it('refuses a version listed twice', () => {
    assert.throws(() => checkOrder(migrations([1, 'a'], [1, 'again'])), /migration 1 \(again\) is out of order/);
  });
});

describe('refuseNewer', () => {
  const known = migrations([1, 'a'], [2, 'b']);

  it('lets a store at or below the versions this proxy knows be opened', () => {
    refuseNewer([1, 2], known, 'db');
    refuseNewer([], known, 'db');
  });

  it('with no migration known, refuses any applied one and accepts a store never migrated', () => {
    refuseNewer([], [], 'db');
    assert.throws(() => refuseNewer([1], [], 'db'), /schema version 1, this one knows up to 0/);
  });

  it('refuses a store a newer proxy migrated, naming its highest version and telling to run the newer one', () => {
    assert.throws(
      () => refuseNewer([1, 2, 4, 3], known, '/data/jbc.sqlite'),
      (error: Error) => {
        assert.match(
          error.message,
          /^\/data\/jbc\.sqlite was migrated by a newer jobboard-connector \(schema version 4, this one knows up to 2\): run the newer version/,
        );
        return true;
      },
    );
  });
});

describe('SchemaBehindError', () => {
  it("tells the operator which versions, and to run migrate with the owner's DATABASE_URL", () => {
    const error = new SchemaBehindError('PostgreSQL at db:5432', 3, 5);
    assert.equal(error.current, 3);
    assert.equal(error.needed, 5);
    assert.equal(
      error.message,
      "PostgreSQL at db:5432: the schema is at version 3, this proxy needs version 5, and its database role may not migrate it: run `jobboard-connector migrate` with the owner's DATABASE_URL, then start the proxy again.",
    );
  });

  it('says why the role could not migrate, when given the cause', () => {
    const cause = new Error('permission denied for schema public');
    const error = new SchemaBehindError('db', 0, 5, { cause });
    assert.equal(error.cause, cause);
    assert.match(
      error.message,
      /may not migrate it \(permission denied for schema public\): run `jobboard-connector migrate`/,
    );
  });

  it('adds nothing for a cause that is not an error', () => {
    const error = new SchemaBehindError('db', 0, 5, { cause: 'text' });
    assert.match(error.message, /may not migrate it: run/);
  });
});
