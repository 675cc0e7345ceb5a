// Searches near a point across the antimeridian (longitude ±180): the box
// that narrows the candidates wraps, and the great-circle distance measures
// across it. Against the real SQLite store, whose SQL computes the distance.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openCatalogueStore } from '../storage/catalogue/catalogue-sqlite.ts';
import { toCatalogueCampaign } from './catalogue.ts';
import { addressOf, upstreamCampaign } from './fixtures.test-support.ts';
import { boundingBox } from './geo.ts';

const at = (id: number, lat: number, lon: number) =>
  toCatalogueCampaign(
    upstreamCampaign({
      id,
      address: addressOf({ latitude: lat, longitude: lon, city: 'Suva', country: 'Fiji' }),
    }),
  );

describe('searches near a point across the antimeridian', () => {
  // 0.2° of longitude apart across ±180 at latitude -17: 21.3 km.
  const store = openCatalogueStore(':memory:');
  store.replaceAll([at(1, -17, 179.9), at(2, -17, -179.95), at(3, -17, 179.0), at(4, -17, 178.234)], new Date());
  const near = (lon: number, radius_km: number) =>
    store
      .search({ near: { lat: -17, lon }, radius_km, sort: 'distance', page: 1, per_page: 10 })
      .items.map((c) => c.id);

  it('finds an offer at longitude 179.9 from -179.9 within the radius, and not beyond it', () => {
    assert.deepEqual(near(-179.9, 25), [2, 1], 'nearest first: 5.3 km, then 21.3 km across the antimeridian');
    assert.deepEqual(near(-179.9, 20), [2]);
    assert.deepEqual(near(179.9, 25), [1, 2], 'and the other way');
    assert.deepEqual(near(-179.9, 120), [2, 1, 3], '117 km away, across');
  });

  it('widens the box to every longitude when the circle crosses ±180, and keeps it narrow elsewhere', () => {
    const crossing = boundingBox({ lat: -17, lon: -179.9 }, 25);
    assert.deepEqual([crossing.minLon, crossing.maxLon], [-180, 180]);
    assert.deepEqual(
      [boundingBox({ lat: -17, lon: 179.9 }, 25).minLon, boundingBox({ lat: -17, lon: 179.9 }, 25).maxLon],
      [-180, 180],
    );
    const inside = boundingBox({ lat: -17, lon: 178 }, 25);
    assert.ok(inside.minLon > 177.7 && inside.maxLon < 178.3, `${inside.minLon}..${inside.maxLon}`);
    // A degree of longitude is shorter than one of latitude away from the equator: the box is wider than it is high.
    assert.deepEqual(near(178, 25), [4], 'due east, 24.9 km away');
    // 25 km is 0.224830° of latitude, and 0.224830 / cos(17.224830°) = 0.235387° of longitude at the circle's widest latitude.
    const close = (actual: number, expected: number) =>
      assert.ok(Math.abs(actual - expected) < 1e-5, `${actual} ≈ ${expected}`);
    close(crossing.minLat, -17.22483);
    close(crossing.maxLat, -16.77517);
    close(inside.minLon, 178 - 0.235387);
    close(inside.maxLon, 178 + 0.235387);
  });

  it('takes every longitude near a pole, and no latitude past it', () => {
    const north = boundingBox({ lat: 89.9, lon: 10 }, 50);
    assert.ok(Math.abs(north.minLat - 89.4503) < 1e-3, String(north.minLat));
    assert.deepEqual([north.maxLat, north.minLon, north.maxLon], [90, -180, 180]);
    const south = boundingBox({ lat: -89.9, lon: 10 }, 50);
    assert.deepEqual([south.minLat, south.minLon, south.maxLon], [-90, -180, 180]);
  });
});
