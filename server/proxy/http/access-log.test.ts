// What the access log writes for a path that holds a secret (a receipt's
// token): the route's parameter, however the path spells the route. The
// whole proxy's line for a real receipt is tested in test/proxy-receipt.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pathWithoutSecrets } from './access-log.ts';

const TOKEN = 'Zm9vYmFyYmF6cXV4cXV1eF8t';

describe("the access log's path", () => {
  const logged = pathWithoutSecrets(['/applications/receipt/:token']);

  it("writes a receipt's path as its route, never its token", () => {
    assert.equal(logged(`/applications/receipt/${TOKEN}`), '/applications/receipt/:token');
  });

  it('keeps the path a partner mounted the proxy under, and what follows the secret', () => {
    assert.equal(logged(`/careers/applications/receipt/${TOKEN}`), '/careers/applications/receipt/:token');
    assert.equal(logged(`/applications/receipt/${TOKEN}/more`), '/applications/receipt/:token/more');
    assert.equal(logged(`/applications/receipt/${TOKEN}/`), '/applications/receipt/:token/');
  });

  it('finds the route however the path spells it: case, percent-escapes, doubled slashes, an escaped slash in the token', () => {
    assert.equal(logged(`/Applications/RECEIPT/${TOKEN}`), '/Applications/RECEIPT/:token');
    assert.equal(logged(`/applications/%72eceipt/${TOKEN}`), '/applications/%72eceipt/:token');
    assert.equal(logged(`//applications//receipt//${TOKEN}`), '//applications//receipt//:token');
    assert.equal(logged(`/applications/receipt/${TOKEN}%2Fx`), '/applications/receipt/:token');
    assert.equal(
      logged(`/applications/receipt/%E0%A4%A`),
      '/applications/receipt/:token',
      'a malformed escape is a segment too',
    );
    assert.equal(
      logged(`/applications/%E0%A4%A/${TOKEN}`),
      `/applications/%E0%A4%A/${TOKEN}`,
      'a malformed escape spells no literal',
    );
  });

  it('leaves every other path as it is', () => {
    for (const path of [
      '/',
      '/api/campaigns/12',
      '/applications/receipt',
      '/applications/receipt/',
      '/receipt/x',
      `/applications/receipts/${TOKEN}`,
      `/api/applications/${TOKEN}`,
    ]) {
      assert.equal(logged(path), path);
    }
  });

  it('takes several routes, each with its secrets, and none at all', () => {
    const two = pathWithoutSecrets(['/applications/receipt/:token', '/files/:owner/signed/:signature']);
    assert.equal(two('/files/ada/signed/abc'), '/files/:owner/signed/:signature');
    assert.equal(two(`/applications/receipt/${TOKEN}`), '/applications/receipt/:token');
    assert.equal(pathWithoutSecrets([])(`/applications/receipt/${TOKEN}`), `/applications/receipt/${TOKEN}`);
  });
});
