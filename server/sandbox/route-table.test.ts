import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RouteTable } from './route-table.ts';

describe('sandbox route table', () => {
  const table = new RouteTable();
  table
    .router('/v2')
    .get('/campaigns', () => {})
    .post('/campaigns', () => {})
    .get('/campaigns/:id', () => {});
  table.router('/_sandbox').put('/applications/:id/status', () => {});

  it('answers the methods of the routes a path matches, with HEAD wherever GET is', () => {
    assert.deepEqual([...table.allowed('/v2/campaigns')].sort(), ['GET', 'HEAD', 'POST']);
    assert.deepEqual([...table.allowed('/_sandbox/applications/12/status')], ['PUT']);
  });

  it('matches a parameter to one segment, ignoring a trailing slash and the case', () => {
    assert.deepEqual([...table.allowed('/V2/Campaigns/abc/')].sort(), ['GET', 'HEAD']);
    assert.equal(table.allowed('/v2/campaigns/1/2').size, 0);
    assert.equal(table.allowed('/v2/campaigns//').size, 0);
    assert.equal(table.allowed('/campaigns').size, 0, 'the prefix is part of the path');
  });

  it('refuses a path syntax it could not match as Express does', () => {
    assert.throws(() => table.router('').get('/files/*name', () => {}), /cannot match/);
    assert.throws(() => table.router('').get('/files{/:name}', () => {}), /cannot match/);
  });
});
